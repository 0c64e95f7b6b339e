"""Random playouts of whole games of Princes of the Renaissance: 3 to 6 players, both editions.

Rules texts (in /work/shared/seeds): seed 000, the 2016 rulebook ("Выбор Стартовых Семей и Порядок
Хода", "Действия (подробно)", "Тайлы Событий", "В конце каждого Десятилетия", "Конец Игры",
"Описание Тайлов"); seed 003, the 2003 Italian summary ("Fine di una Decade", "Fine della partita e
Punti Vittoria"); seed 004, the English reference manual. Wars are not offered yet, so a game is
the opening and three decades of Buy, Auction and Pass actions.

Random players play every game to its end. At every step the test keeps its own books, written from
the rules text and the component data (never from pbem's income, discount or scoring functions):
what each player holds and how much gold and influence each must have after every payment. The
state must agree with the books after every move, and a set of invariants must always hold. Every
listed move must pass the check, ``apply`` must never change the state it is given, and moves that
are not listed must be refused in one line without changing anything. One game is also played
through the signed ledger and audited again from its entries.
"""

from __future__ import annotations

import copy
import random
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from pbem.crypto.identity import SecretKeys
from pbem.crypto.randomness import Draws
from pbem.engine import ledger, play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance import scoring
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from pbem.keys import KeyStore
from tests.conftest import potr_components

AT = "2026-01-01T00:00:00Z"
GAME = "princes-of-the-renaissance"
NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio")
EDITIONS = ("2016", "2003")
COMPONENTS = {edition: potr_components(edition) for edition in EDITIONS}
STEP_LIMIT = 5000  # moves and draws; the random players below finish a game in 60 to 250
SLOW = [HealthCheck.too_slow]

# Phases, as the rules name them.
BID_STEP = "turn-order bid"
FAMILY_BIDDING = "family bidding"
FAMILY_CHOICE = "family choice"
OPENING = (BID_STEP, FAMILY_BIDDING, FAMILY_CHOICE)
ACTION = "action"
AUCTION = "auction"
FOLLOW_UP = "follow-up"
GAME_OVER = "game over"

# --- the rules, written out from the texts -------------------------------------------------------
# Seed 000, "Тайлы Семей": auction discounts. Gonzaga: "скидку в 2 Золотых" (A) / "в 1 Золотой" (B)
# in gold auctions; Montefeltro the same in influence; Baglioni A: "скидку в 1 Золотой и/или в 1
# Влияние". Baglioni B declares its currency each decade, which the engine does not ask yet: 0.
FAMILY_DISCOUNT: dict[tuple[str, str], dict[str, int]] = {
    ("gonzaga", "a"): {"gold": 2},
    ("gonzaga", "b"): {"gold": 1},
    ("montefeltro", "a"): {"influence": 2},
    ("montefeltro", "b"): {"influence": 1},
    ("baglioni", "a"): {"gold": 1, "influence": 1},
}
POPE_DISCOUNT = "pope-discount"  # seed 000: each such City tile takes 1 influence off the Pope
HAND_LIMIT_TILE = "hand-limit"  # seed 000: +1 to the hand limit
MALATESTA_HAND = 1  # seed 000, Malatesta: "держать 3 карты Предательства" (2 + 1)
CITY_VP = (10, 7, 5, 3, 2)  # seed 000, "Конец Игры"; seed 003: "10 ... 7, la terza 5, 3, 2"
CATEGORIES = ("city tiles", "event tiles", "wine merchants", "pope", "gold", "influence", "war victories")


@dataclass(frozen=True)
class Majority:
    """Seed 000: most gold 6 (a tie: 5 each and no second place), second 3 (tied: 2 each); most
    influence 4 (tied: 3 each, no second), second 2 (tied: 1 each). Seed 003: a tie takes the full
    value ("in caso di pareggio tutti ... guadagnano 6"), the next amount is "il secondo posto" for
    gold, and influence has no second place (docs/rules, "gold and influence ties")."""

    first: int
    tied_first: int
    second: int
    tied_second: int
    second_after_tie: bool


MAJORITY = {
    "2016": {"gold": Majority(6, 5, 3, 2, False), "influence": Majority(4, 3, 2, 1, False)},
    "2003": {"gold": Majority(6, 6, 3, 3, True), "influence": Majority(4, 4, 0, 0, True)},
}


def majority_points(amounts: Mapping[str, int], rule: Majority) -> dict[str, int]:
    levels = sorted(set(amounts.values()), reverse=True)
    top = [seat for seat, amount in amounts.items() if amount == levels[0]]
    points = dict.fromkeys(amounts, 0)
    for seat in top:
        points[seat] = rule.first if len(top) == 1 else rule.tied_first
    if len(levels) > 1 and (len(top) == 1 or rule.second_after_tie):
        second = [seat for seat, amount in amounts.items() if amount == levels[1]]
        for seat in second:
            points[seat] = rule.second if len(second) == 1 else rule.tied_second
    return points


def city_points(status: Mapping[str, int], artists: Mapping[str, int]) -> dict[str, int]:
    """10, 7, 5, 3, 2 by status, ties by Artist tiles; cities still tied take the lowest contested
    place (seed 000: "все вовлеченные ... помещаются на наименьшую, из оспариваемых, позицию")."""
    key = {city: (status[city], artists[city]) for city in status}
    points = {}
    for city in status:
        at_least = sum(1 for other in status if key[other] >= key[city])
        points[city] = CITY_VP[min(at_least, len(CITY_VP)) - 1]
    return points


# --- the component data, read from the embedded tables ---------------------------------------------
@dataclass(frozen=True)
class Data:
    """The component values a game embeds, read from the raw tables (not through pbem's parser)."""

    rules: Mapping[str, int]
    cities: Mapping[str, int]  # starting status
    families: Mapping[tuple[str, str], Mapping[str, Any]]
    city_tiles: Mapping[str, Mapping[str, Any]]
    troops: Mapping[str, Mapping[str, Any]]
    events: Mapping[str, Mapping[str, Any]]
    pope: Mapping[str, Any]
    cards: Counter[str]

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Data:
        return cls(
            rules=dict(raw["rules"]),
            cities={city["id"]: city["status"] for city in raw["city"]},
            families={(tile["id"], tile["side"]): tile for tile in raw["family"]},
            city_tiles={tile["id"]: tile for tile in raw["city_tile"]},
            troops={troop["id"]: troop for troop in raw["troop"]},
            events={tile["id"]: tile for tile in raw["event"]},
            pope=dict(raw["pope"]),
            cards=Counter({card["id"]: card["copies"] for card in raw["treachery"]}),
        )

    def kind(self, tile: str) -> tuple[str, str]:
        """(kind, currency): the Pope and Event tiles in their printed currency, City tiles in gold
        (seed 000: "Городские тайлы продаются с Аукциона только за Золото")."""
        if tile == "pope":
            return "pope", self.pope["currency"]
        if tile in self.events:
            return "event", self.events[tile]["currency"]
        return "city", "gold"


DATA = {edition: Data.of(COMPONENTS[edition]) for edition in EDITIONS}


def discount(
    data: Data, family: str | None, side: str, city_tiles: Sequence[str], currency: str, kind: str
) -> int:
    amount = FAMILY_DISCOUNT.get((family or "", side), {}).get(currency, 0)
    if kind == "pope" and currency == "influence":
        amount += sum(1 for tile in city_tiles if data.city_tiles[tile]["ability"] == POPE_DISCOUNT)
    return amount


def hand_limit(data: Data, family: str | None, city_tiles: Sequence[str]) -> int:
    limit = data.rules["hand_limit"] + (MALATESTA_HAND if family == "malatesta" else 0)
    return limit + sum(1 for tile in city_tiles if data.city_tiles[tile]["ability"] == HAND_LIMIT_TILE)


def seat_after(order: Sequence[str], seat: str) -> str:
    """The next seat in turn order (after the last comes the first)."""
    return order[(list(order).index(seat) + 1) % len(order)]


# --- the test's own books ----------------------------------------------------------------------------
@dataclass
class Holdings:
    gold: int
    influence: int
    bid: int = 0  # the last turn-order bid, paid when decade I starts
    family: str | None = None
    city_tiles: list[str] = field(default_factory=list)
    troops: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)  # VP and Wine Merchant tiles, kept to the end
    cards: int = 0


@dataclass
class Bidding:
    tile: str
    kind: str
    currency: str
    nominator: str
    bidder: str
    bid: int


@dataclass
class Books:
    """Who holds what and how much, kept from the moves alone."""

    data: Data
    edition: str
    turn_order: str
    side: str
    players: dict[str, Holdings]
    decade: int = 0
    pope: str | None = None
    auction: Bidding | None = None
    event_row: list[str] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    artists: dict[str, int] = field(default_factory=dict)
    follow_ups: list[tuple[str, str]] = field(default_factory=list)  # (seat, kind)
    to_place: list[str] = field(default_factory=list)  # Artist / French Invade tiles won
    bought: int = 0  # Treachery cards taken from the deck
    declined: int = 0  # French Invade tiles not placed (2003)
    ender: str = ""  # who put the decade's last Event tile up
    payments: int = 0
    incomes: int = 0
    seen: Counter[str] = field(default_factory=Counter)  # what the game went through, for statistics

    @classmethod
    def start(cls, seats: Sequence[str], edition: str, turn_order: str, side: str) -> Books:
        data = DATA[edition]
        gold, influence = data.rules["start_gold"], data.rules["start_influence"]
        return cls(
            data,
            edition,
            turn_order,
            side,
            {seat: Holdings(gold, influence) for seat in seats},
            status=dict(data.cities),
            artists=dict.fromkeys(data.cities, 0),
        )

    # each move, read from its text and the table before it
    def move(self, before: Game, seat: str, text: str, after: Game) -> None:
        words = text.split()
        me = self.players[seat]
        if before.phase in OPENING:
            if words[0] == "bid":
                me.bid = int(words[1])
            elif words[0] == "family":
                me.family = words[1]
        elif before.phase == ACTION:
            if text == "buy card":
                self.buy_card(seat)
            elif words[0] == "buy":
                me.gold -= self.data.troops[words[1]]["cost"]
                me.troops.append(words[1])
                self.payments += 1
            elif words[0] == "discard":
                me.troops.remove(words[1])
            elif words[0] == "auction":
                kind, currency = self.data.kind(words[1])
                self.auction = Bidding(words[1], kind, currency, seat, seat, int(words[2]))
        elif before.phase == AUCTION:
            assert self.auction is not None
            if words[0] == "bid":
                self.auction.bidder, self.auction.bid = seat, int(words[1])
        else:
            assert before.phase == FOLLOW_UP, before.phase
            due_seat, due = self.follow_ups[0]
            assert due_seat == seat
            self.seen[f"{due}: {words[0]}"] += 1
            if text == "buy card":
                assert due == "compensation"
                self.follow_ups.pop(0)
                self.buy_card(seat)
            elif words[0] == "discard":
                assert due == "discard"
                me.cards -= 1
                if me.cards <= hand_limit(self.data, me.family, me.city_tiles):
                    self.follow_ups.pop(0)
            elif words[0] == "place":
                assert due == "place"
                self.follow_ups.pop(0)
                self.place(self.to_place.pop(0), words[1])
            else:
                assert text == "pass" and due in ("place", "compensation"), (text, due)
                self.follow_ups.pop(0)
                if due == "place":
                    self.to_place.pop(0)
                    self.declined += 1
        if self.auction is not None and after.auction is None:
            self.settle()
        self.decade_change(before, after)

    def buy_card(self, seat: str) -> None:
        """Seed 000: "Карты Предательства стоят 1 Золотой и 1 Влияние" (the rules values)."""
        me = self.players[seat]
        me.gold -= self.data.rules["card_gold"]
        me.influence -= self.data.rules["card_influence"]
        me.cards += 1
        self.bought += 1
        self.payments += 1
        if me.cards > hand_limit(self.data, me.family, me.city_tiles):
            self.follow_ups.insert(0, (seat, "discard"))

    def settle(self) -> None:
        """The last bidder left pays the bid less their discounts, never below 0, and takes the tile."""
        auction = self.auction
        assert auction is not None
        self.auction = None
        winner = self.players[auction.bidder]
        off = discount(self.data, winner.family, self.side, winner.city_tiles, auction.currency, auction.kind)
        price = max(0, auction.bid - off)
        self.seen[f"{auction.kind} auction won"] += 1
        if off and auction.bid:
            self.seen["a discount used"] += 1
        if auction.kind == "pope" and off > FAMILY_DISCOUNT.get((winner.family or "", self.side), {}).get(
            "influence", 0
        ):
            self.seen["a Pope-discount tile used"] += 1
        if auction.bidder != auction.nominator:
            self.seen["an auction won by another than its nominator"] += 1
        if auction.currency == "gold":
            winner.gold -= price
        else:
            winner.influence -= price
        self.payments += 1
        if auction.kind == "pope":
            self.pope = auction.bidder
            return
        if auction.kind == "city":
            winner.city_tiles.append(auction.tile)
            nominator = self.players[auction.nominator]
            # seed 000: a nominator who loses a City tile auction "может купить в качестве компенсации
            # карту Предательства за 1 Золотой и 1 Влияние" (offered when they can pay for one)
            affordable = (
                nominator.gold >= self.data.rules["card_gold"]
                and nominator.influence >= self.data.rules["card_influence"]
                and self.bought < sum(self.data.cards.values())
            )
            if auction.bidder != auction.nominator and affordable:
                self.follow_ups.append((auction.nominator, "compensation"))
                self.seen["compensation offered"] += 1
            return
        self.event_row.remove(auction.tile)
        if not self.event_row:
            self.ender = auction.nominator
        if self.data.events[auction.tile]["kind"] in ("artist", "french"):
            self.follow_ups.append((auction.bidder, "place"))
            self.to_place.append(auction.tile)
        else:
            winner.events.append(auction.tile)

    def place(self, tile: str, city: str) -> None:
        """The city moves by the tile's value, never beyond status_min..status_max; the tile counts
        as an Artist tile there (seed 000: the French Invade counts as one)."""
        low, high = self.data.rules["status_min"], self.data.rules["status_max"]
        self.status[city] = min(high, max(low, self.status[city] + self.data.events[tile]["value"]))
        self.artists[city] += 1

    def decade_change(self, before: Game, after: Game) -> None:
        ended = after.decade != before.decade or (after.phase == GAME_OVER and before.phase != GAME_OVER)
        if not ended:
            if after.phase == ACTION and before.phase not in OPENING and after.turn != before.turn:
                # seed 000: actions go round in turn order
                assert after.active == seat_after(after.order, before.active), (before.active, after.active)
            return
        if self.decade == 0:
            # the opening's payments: bid, every bid is paid ("Верните все Золото, которое было
            # предложено"); dice, the rules' dice_fee (2016: "возвращают по 5 Золотых"; 2003: none)
            for me in self.players.values():
                me.gold -= me.bid if self.turn_order == "bid" else self.data.rules["dice_fee"]
            self.payments += 1
        else:
            assert not self.event_row, "a decade ends when its last Event tile is sold"
            for seat, me in self.players.items():
                gold, influence = self.income(seat)
                me.gold += gold
                me.influence += influence
            self.incomes += 1
            if self.decade < 3:
                self.pope = None  # "Верните тайл Папы Римского ... (только не после заключительного)"
        if after.phase != GAME_OVER:
            # decade I starts with the first player; each later one with the player after the one
            # who sold the last Event tile ("начнется оно с игрока, идущего следующим, после того,
            # кто закончил предыдущее Десятилетие")
            first = after.order[0] if self.decade == 0 else seat_after(after.order, self.ender)
            assert (after.phase, after.active) == (ACTION, first), (after.phase, after.active, first)
            self.decade += 1
            self.event_row = [
                tile for tile, event in self.data.events.items() if event["decade"] == self.decade
            ]

    def income(self, seat: str) -> tuple[int, int]:
        """Seed 000, "В конце каждого Десятилетия" a): every gold and influence figure on the player's
        tiles, the Family tile included; the Pope's 3 gold; +1 gold per Merchant City tile for each
        Wine Merchant held; condottiere pay (no wars yet, so none)."""
        me = self.players[seat]
        assert me.family is not None
        family = self.data.families[(me.family, self.side)]
        tiles = [self.data.city_tiles[tile] for tile in me.city_tiles]
        wine = sum(1 for tile in me.events if self.data.events[tile]["kind"] == "wine-merchant")
        gold = family["gold"] + sum(tile["gold"] for tile in tiles)
        gold += self.data.pope["income_gold"] if self.pope == seat else 0
        gold += wine * sum(1 for tile in tiles if tile["merchant"])
        if wine * sum(1 for tile in tiles if tile["merchant"]):
            self.seen["Wine Merchant income"] += 1
        influence = family["influence"] + sum(tile["influence"] for tile in tiles)
        influence += sum(self.data.troops[troop]["influence"] for troop in me.troops)
        return gold, influence

    def agree(self, state: Game) -> None:
        """The state says what the books say."""
        for seat, me in self.players.items():
            player = state.players[seat]
            assert (player.gold, player.influence) == (me.gold, me.influence), (seat, player, me)
            assert player.family == me.family, seat
            assert sorted(player.city_tiles) == sorted(me.city_tiles), seat
            assert sorted(player.troops) == sorted(me.troops), seat
            assert sorted(player.events) == sorted(me.events), seat
            assert len(player.cards) == me.cards, seat
            assert player.pay == 0 and player.victories == 0, "no wars yet"
        assert state.pope == self.pope
        assert state.status == self.status
        assert state.artists == self.artists
        assert [(due.seat, due.kind) for due in state.follow_ups] == self.follow_ups
        if self.decade:
            assert state.decade == self.decade
            assert sorted(state.event_row) == sorted(self.event_row)
        if self.auction is None:
            assert state.auction is None
        else:
            auction = state.auction
            assert auction is not None
            mine = self.auction
            assert (auction.tile, auction.kind, auction.currency) == (mine.tile, mine.kind, mine.currency)
            assert (auction.nominator, auction.bidder, auction.bid) == (mine.nominator, mine.bidder, mine.bid)


def invariants(state: Game, data: Data) -> None:
    """What must hold at every step, whatever was played."""
    low, high = data.rules["status_min"], data.rules["status_max"]
    assert all(low <= status <= high for status in state.status.values()), state.status
    discarding = {due.seat for due in state.follow_ups if due.kind == "discard"}
    held_tiles: list[str] = []
    for seat, player in state.players.items():
        assert player.gold >= 0 and player.influence >= 0, (seat, player)
        assert len(player.city_tiles) <= data.rules["city_tile_limit"], (seat, player.city_tiles)
        cities = {data.city_tiles[tile]["city"] for tile in player.city_tiles}
        assert len(cities) <= data.rules["city_limit"], (seat, cities)
        assert len(set(player.troops)) == len(player.troops), (seat, player.troops)
        if seat not in discarding:
            assert len(player.cards) <= hand_limit(data, player.family, player.city_tiles), (
                seat,
                player.cards,
            )
        held_tiles += player.city_tiles
    if state.deck or state.decade:
        cards = Counter(state.deck) + Counter(state.discards)
        for player in state.players.values():
            cards += Counter(player.cards)
        assert cards == data.cards, "the Treachery cards are the template's, each once"
    for troop, record in data.troops.items():
        held = sum(player.troops.count(troop) for player in state.players.values())
        assert state.troop_supply[troop] + held == record["copies"], troop
    in_play = [*state.city_supply, *held_tiles]
    assert len(set(in_play)) == len(in_play), "a City tile is in two places"
    assert set(in_play) <= set(data.city_tiles)
    if state.decade:
        drawn = data.rules["city_tiles_drawn"]
        per_city = Counter(data.city_tiles[tile]["city"] for tile in in_play)
        expected = Counter(tile["city"] for tile in data.city_tiles.values())
        if drawn:
            expected = Counter(dict.fromkeys(data.cities, drawn))
        assert per_city == expected, per_city


def check_final_score(state: Game, books: Books) -> dict[str, dict[str, int]]:
    scores = RULES.score(state)
    assert set(scores) == set(state.seats)
    values = city_points(state.status, state.artists)
    rules = MAJORITY[books.edition]
    gold = majority_points({seat: me.gold for seat, me in books.players.items()}, rules["gold"])
    influence = majority_points(
        {seat: me.influence for seat, me in books.players.items()}, rules["influence"]
    )
    for seat, me in books.players.items():
        row = scores[seat]
        assert row["total"] == sum(row[category] for category in CATEGORIES), (seat, row)
        events = [books.data.events[tile] for tile in me.events]
        wine = sum(1 for tile in events if tile["kind"] == "wine-merchant")
        merchants = sum(1 for tile in me.city_tiles if books.data.city_tiles[tile]["merchant"])
        expected = {
            "city tiles": sum(values[books.data.city_tiles[tile]["city"]] for tile in me.city_tiles),
            "event tiles": sum(tile["value"] for tile in events if tile["kind"] == "vp"),
            "wine merchants": wine * merchants,  # seed 000: each Merchant tile "стоить 1 ПО"
            "pope": books.data.pope["vp"] if books.pope == seat else 0,
            "gold": gold[seat],
            "influence": influence[seat],
            "war victories": 0,
        }
        assert {category: row[category] for category in CATEGORIES} == expected, seat
    winners = scoring.winners(state, scores)
    best = max(row["total"] for row in scores.values())
    assert winners and all(scores[seat]["total"] == best for seat in winners)
    return scores


# --- random players ------------------------------------------------------------------------------------
WEIGHTS = {"event": 12, "city": 35, "buy": 15, "pope": 8, "card": 12, "discard": 3, "pass": 5}


def low(rnd: random.Random, options: Sequence[str], rate: float = 0.7) -> str:
    """One of ``options`` (listed from the lowest bid up): mostly one of the first, sometimes the
    highest the player can pay (discounts included), which may leave them with nothing."""
    if rnd.random() < 0.08:
        return options[-1]
    return options[min(len(options) - 1, int(rnd.expovariate(rate)))]


def action_kind(state: Game, text: str) -> str:
    words = text.split()
    if words[0] == "auction":
        if words[1] == "pope":
            return "pope"
        return "event" if words[1] in state.event_row else "city"
    if text == "buy card":
        return "card"
    return words[0]


def choose(rnd: random.Random, state: Game, moves: Sequence[str]) -> str:
    """A legal move: low sealed bids, small raises, many passes in auctions, Event tiles often on offer
    so the decades end."""
    if state.phase == BID_STEP:
        cheap = [text for text in moves if int(text.split()[1]) <= 12]
        return rnd.choice(cheap if rnd.random() < 0.85 else moves)
    if state.phase in (FAMILY_BIDDING, AUCTION):
        raises = [text for text in moves if text != "pass"]
        if not raises or rnd.random() < 0.55:
            return "pass"
        return low(rnd, raises)
    if state.phase == ACTION:
        kinds: dict[str, list[str]] = {}
        for text in moves:
            kinds.setdefault(action_kind(state, text), []).append(text)
        kind = rnd.choices(list(kinds), [WEIGHTS[name] for name in kinds])[0]
        if kind not in ("event", "city", "pope"):
            return rnd.choice(kinds[kind])
        tiles: dict[str, list[str]] = {}
        for text in kinds[kind]:
            tiles.setdefault(text.split()[1], []).append(text)
        return low(rnd, tiles[rnd.choice(list(tiles))])
    return rnd.choice(moves)


# --- the rules-level driver ----------------------------------------------------------------------------
Probe = Callable[[Game, Books, random.Random], None]


@dataclass
class Playout:
    state: Game
    books: Books
    moves: int = 0
    draws: int = 0
    checked: int = 0  # listed moves put through check


def draws_for(rnd: random.Random, game_id: str, context: str, seats: Sequence[str]) -> Draws:
    return Draws(game_id, context, [(seat, rnd.randbytes(32)) for seat in seats])


def play_game(
    seats: Sequence[str],
    edition: str,
    turn_order: str,
    side: str,
    seed: int,
    probe: Probe | None = None,
) -> Playout:
    """Play a whole game at the rules level with random legal moves, checking each step."""
    rnd = random.Random(seed)
    game_id = rnd.randbytes(16).hex()
    options = {"turn_order": turn_order, "family_side": side}
    state = RULES.setup(seats, edition, options, COMPONENTS[edition])
    books = Books.start(seats, edition, turn_order, side)
    data = DATA[edition]
    books.agree(state)
    invariants(state, data)
    out = Playout(state, books)
    for _ in range(STEP_LIMIT):
        if state.phase == GAME_OVER:
            assert RULES.demands(state) == [] and RULES.random_requests(state) == []
            assert all(RULES.legal_moves(state, seat) == [] for seat in seats)
            out.state = state
            return out
        demands = RULES.demands(state)
        sealing = any(demand.kind == "sealed" for demand in demands)
        ready = [r for r in RULES.random_requests(state) if r.after_sealing is None or not sealing]
        if ready:
            context = ready[0].context
            before = copy.deepcopy(state)
            after = RULES.resolve(state, context, draws_for(rnd, game_id, context, seats))
            assert state == before, f"resolve changed the state it was given ({context})"
            books.agree(after)
            invariants(after, data)
            state = after
            out.draws += 1
            continue
        assert demands, f"nobody is asked to act in the {state.phase}"
        asked = [demand.seat for demand in demands]
        assert len(set(asked)) == len(asked), demands
        if state.phase != BID_STEP:
            assert len(demands) == 1, demands
        idle = [seat for seat in seats if seat not in asked]
        if idle:
            assert RULES.legal_moves(state, rnd.choice(idle)) == [], "only a seat asked to act has moves"
        seat = rnd.choice(demands).seat
        moves = RULES.legal_moves(state, seat)
        assert moves, f"{seat} is asked to act in the {state.phase} but has no legal move"
        assert len(set(moves)) == len(moves), "a move is listed twice"
        for text in rnd.sample(moves, min(3, len(moves))):
            RULES.check(state, seat, RULES.parse(text))
            out.checked += 1
        if probe is not None:
            probe(state, books, rnd)
        text = choose(rnd, state, moves)
        move = RULES.parse(text)
        assert RULES.format(move) == text
        RULES.check(state, seat, move)
        kept = copy.deepcopy(state) if out.moves < 10 or rnd.random() < 0.15 else None
        after = RULES.apply(state, seat, move)
        if kept is not None:
            assert state == kept, f"apply changed the state it was given ({seat}: {text})"
        books.move(state, seat, text, after)
        books.agree(after)
        invariants(after, data)
        state = after
        out.moves += 1
    pytest.fail(f"the game did not end in {STEP_LIMIT} steps: {state.phase}, {state.decade_name}")


# --- 1. whole games, with the books kept ---------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(
    players=st.integers(3, 6),
    edition=st.sampled_from(EDITIONS),
    turn_order=st.sampled_from(("bid", "dice")),
    side=st.sampled_from(("a", "b")),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_end_with_a_valid_score_and_every_payment_accounted_for(
    players: int, edition: str, turn_order: str, side: str, seed: int
) -> None:
    seats = NAMES[:players]
    out = play_game(seats, edition, turn_order, side, seed)
    state, books = out.state, out.books
    note(f"last events: {state.events[-12:]}")
    assert state.phase == GAME_OVER and state.decade == 3
    assert out.checked >= out.moves, "some listed moves were checked at every step"
    assert books.incomes == 3, "income is paid at the end of each of the three decades"
    assert not state.event_row and state.auction is None and not state.follow_ups
    # every Event tile was sold: the kept ones are held, the others placed (or, 2003, declined)
    events = DATA[edition].events
    kept = sorted(tile for me in books.players.values() for tile in me.events)
    assert kept == sorted(
        tile for tile, record in events.items() if record["kind"] in ("vp", "wine-merchant")
    )
    placed = sum(1 for record in events.values() if record["kind"] in ("artist", "french"))
    assert sum(state.artists.values()) + books.declined == placed
    check_final_score(state, books)
    event(f"{players} players, {edition}, {turn_order}, side {side}")
    event(f"{out.moves // 100 * 100}+ moves")
    for seen in books.seen:
        event(seen)
    for me in books.players.values():
        cities = {DATA[edition].city_tiles[tile]["city"] for tile in me.city_tiles}
        if len(me.city_tiles) == DATA[edition].rules["city_tile_limit"]:
            event("a player at the City tile limit")
        if len(cities) == DATA[edition].rules["city_limit"]:
            event("a player at the city limit")


# --- 2. illegal moves along the way ----------------------------------------------------------------------
GARBAGE = (
    "",
    "   ",
    "hello",
    "bid",
    "bid -1",
    "bid x",
    "bid 1 2",
    "bid 1234567",
    "auction",
    "auction pope",
    "auction pope x",
    "auction Pope! 0",
    "buy",
    "buy dragon",
    "buy card now",
    "discard joker",
    "place atlantis",
    "place",
    "family nobody",
    "war venice milan",
    "start war",
    "pass now",
    "roll",
)


def attempts(state: Game, books: Books, seat: str, rnd: random.Random) -> list[str]:
    """Moves of every phase and many that break a rule, for ``seat``; some may be legal."""
    data = books.data
    player = state.players[seat]
    texts = [
        "pass",
        "bid 0",
        "bid 1",
        f"bid {player.gold}",
        f"bid {player.gold + 1}",
        f"bid {player.gold + 100}",
        "family gonzaga",
        f"family {rnd.choice(sorted({tile[0] for tile in data.families}))}",
        "buy card",
        "buy cavalry",
        "buy artillery",
        *(f"buy {troop}" for troop in player.troops),  # a second of a type
        f"buy {rnd.choice(sorted(data.troops))}",
        f"discard {rnd.choice(sorted(data.troops))}",
        f"discard {rnd.choice(sorted(data.cards))}",
        f"place {rnd.choice(sorted(data.cities))}",
        "auction pope 0",
        "auction nosuch-tile 0",
        f"auction {rnd.choice(sorted(data.events))} 0",  # often not of this decade, or sold
        f"auction {rnd.choice(sorted(data.city_tiles))} 20",  # often held, or out of the game
    ]
    for other in state.players.values():
        texts += [f"auction {tile} 30" for tile in other.city_tiles[:1]]
    if state.city_supply:
        tile = rnd.choice(state.city_supply)
        minimum = data.rules["city_bid_factor"] * state.status[data.city_tiles[tile]["city"]]
        texts += [f"auction {tile} {max(minimum - 1, 0)}", f"auction {tile} {minimum}"]
        texts.append(f"auction {tile} {minimum + player.gold + 10}")
    for tile in state.event_row:
        _, currency = data.kind(tile)
        top = (player.gold if currency == "gold" else player.influence) + discount(
            data, player.family, state.side, player.city_tiles, currency, "event"
        )
        texts += [f"auction {tile} {top}", f"auction {tile} {top + 1}"]
    if state.auction is not None:
        auction = state.auction
        have = player.gold if auction.currency == "gold" else player.influence
        top = have + discount(
            data, player.family, state.side, player.city_tiles, auction.currency, auction.kind
        )
        texts += [f"bid {auction.bid}", f"bid {max(auction.bid - 1, 0)}", f"bid {auction.bid + 1}"]
        texts += [f"bid {top}", f"bid {top + 1}"]
    return texts


@dataclass
class Tally:
    syntax: int = 0
    refused: int = 0
    legal: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


def refused_in_one_line(state: Game, seat: str, text: str, tally: Tally) -> None:
    """``text`` from ``seat``: legal if listed; otherwise refused in one line, nothing changed."""
    kept = copy.deepcopy(state)
    try:
        move = RULES.parse(text)
    except MoveSyntaxError as error:
        message = str(error)
        assert message.strip() and "\n" not in message, (text, message)
        tally.syntax += 1
        return
    listed = RULES.legal_moves(state, seat)
    if RULES.format(move) in listed:
        tally.legal += 1
        return
    with pytest.raises((IllegalMoveError, MoveSyntaxError)) as caught:
        RULES.check(state, seat, move)
    message = str(caught.value)
    assert message.strip() and "\n" not in message, (seat, text, message)
    assert state == kept, f"refusing {text!r} from {seat} changed the state"
    tally.refused += 1
    tally.kinds[text.split(maxsplit=1)[0]] += 1


def rule_checks(state: Game, books: Books, seat: str) -> None:
    """Rules the listed moves must follow, written out from the texts."""
    listed = set(RULES.legal_moves(state, seat))
    player = state.players[seat]
    # seed 000: "Игроки никогда не могут покупать тайл Войск, который совпадает с тем, которым они
    # уже владеют"; "не может купить Конницу ... в течение первого Десятилетия"
    assert not {f"buy {troop}" for troop in player.troops} & listed, (seat, player.troops)
    if state.decade == 1:
        assert "buy cavalry" not in listed
        if (player.family, state.side) != ("este", "a"):  # d'Este A: "покупать Артиллерию в первом"
            assert "buy artillery" not in listed
    if state.phase == ACTION and state.active == seat:
        assert "pass" in listed
        for tile in state.event_row:  # Event tiles open at 0, up to what the seat can pay
            _, currency = books.data.kind(tile)
            have = player.gold if currency == "gold" else player.influence
            top = have + discount(books.data, player.family, state.side, player.city_tiles, currency, "event")
            assert f"auction {tile} 0" in listed and f"auction {tile} {top}" in listed, (seat, tile, top)
            assert f"auction {tile} {top + 1}" not in listed, (seat, tile, top)
    if state.phase == AUCTION and state.auction is not None and state.auction.turn == seat:
        auction = state.auction
        have = player.gold if auction.currency == "gold" else player.influence
        top = have + discount(
            books.data, player.family, state.side, player.city_tiles, auction.currency, auction.kind
        )
        assert f"bid {top + 1}" not in listed and f"bid {auction.bid}" not in listed
        assert top <= auction.bid or f"bid {top}" in listed, (seat, top, auction)


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(
    players=st.integers(3, 6),
    edition=st.sampled_from(EDITIONS),
    turn_order=st.sampled_from(("bid", "dice")),
    side=st.sampled_from(("a", "b")),
    seed=st.integers(0, 2**32 - 1),
)
def test_moves_not_listed_are_refused_in_one_line_and_change_nothing(
    players: int, edition: str, turn_order: str, side: str, seed: int
) -> None:
    seats = NAMES[:players]
    tally = Tally()

    def probe(state: Game, books: Books, rnd: random.Random) -> None:
        demands = RULES.demands(state)
        actor = rnd.choice(demands).seat
        for seat in seats:
            rule_checks(state, books, seat)
        if rnd.random() > 0.3:
            return
        seat = rnd.choice(seats)
        texts = rnd.sample(attempts(state, books, seat, rnd), 8) + rnd.sample(GARBAGE, 2)
        for text in texts:
            refused_in_one_line(state, seat, text, tally)
        # out of turn: what the seat asked to act may do, tried by another seat
        others = [name for name in seats if name not in {demand.seat for demand in demands}]
        if others:
            listed = RULES.legal_moves(state, actor)
            for text in rnd.sample(listed, min(2, len(listed))):
                refused_in_one_line(state, rnd.choice(others), text, tally)
        # a pass in an auction is final
        if state.auction is not None:
            for out in state.auction.out:
                refused_in_one_line(state, out, f"bid {state.auction.bid + 1}", tally)
                refused_in_one_line(state, out, "pass", tally)

    out = play_game(seats, edition, turn_order, side, seed, probe)
    assert out.state.phase == GAME_OVER
    for seat in seats:
        for text in ("pass", "buy card", "auction pope 0", "bid 1", "family gonzaga"):
            refused_in_one_line(out.state, seat, text, tally)
    note(f"{tally}")
    assert tally.refused > 0 and tally.syntax > 0


def test_garbage_is_a_syntax_error_in_one_line() -> None:
    for text in GARBAGE:
        with pytest.raises(MoveSyntaxError) as caught:
            RULES.parse(text)
        message = str(caught.value)
        assert message.strip() and "\n" not in message, (text, message)


# --- 3. one game through the signed ledger -----------------------------------------------------------------
def _make_keys(seats: Sequence[str]) -> dict[str, SecretKeys]:
    with tempfile.TemporaryDirectory(prefix="pbem-potr-keys-") as home:
        for seat in seats:
            KeyStore(Path(home)).create(seat, None, AT)
        return {seat: KeyStore(Path(home)).secret(seat, lambda prompt: None) for seat in seats}


def state_of(game: Ledger) -> Game:
    assert game.table is not None
    state = game.table.state
    assert isinstance(state, Game)
    return state


def test_a_whole_game_through_the_signed_ledger_audits_clean() -> None:
    seats = NAMES[:4]
    keys = _make_keys(seats)
    rnd = random.Random(20260101)
    setup = ledger.plan(
        game=GAME,
        edition="2016",
        options={"turn_order": "bid", "family_side": "a"},
        seats=seats,
        creator=seats[0],
    )
    game = ledger.new_game(setup, keys[seats[0]], at=AT, game_id="9a" * 16, components=COMPONENTS["2016"])
    for seat in seats[1:]:
        game, _ = ledger.join(game, seat, keys[seat], AT)
    rules = game.rules
    assert rules is not None
    books = Books.start(seats, "2016", "bid", "a")
    sealed: dict[str, int] = {}
    kinds: Counter[str] = Counter()
    for _ in range(STEP_LIMIT):
        before = state_of(game)
        if before.phase == GAME_OVER:
            break
        assert game.table is not None
        current = tables.demands(rules, game.table)
        assert current, f"nobody is asked to act in the {before.phase}"
        seat = rnd.choice(current).seat
        demand, moves = play.legal(game, seat)
        assert demand is not None
        kinds[demand.kind] += 1
        if demand.kind == "contribute":
            assert moves == [play.ROLL]
            game, _ = play.play(game, seat, play.ROLL, keys[seat], AT)
        elif demand.kind == "reveal":
            game, entry = play.reveal(game, seat, keys[seat], AT)
            assert entry["value"] == f"bid {sealed[seat]}"
            books.move(before, seat, entry["value"], state_of(game))
        elif demand.kind == "commit":
            text = choose(rnd, before, moves)
            game, entry = play.play(game, seat, text, keys[seat], AT)
            assert text.encode() not in repr(entry).encode()
            sealed[seat] = int(text.split()[1])
        else:
            assert demand.kind == "move"
            assert moves == RULES.legal_moves(before, seat)
            text = choose(rnd, before, moves)
            game, entry = play.play(game, seat, text, keys[seat], AT)
            assert entry["move"] == text
            books.move(before, seat, text, state_of(game))
        books.agree(state_of(game))
        invariants(state_of(game), DATA["2016"])
    else:
        pytest.fail(f"the ledger game did not end in {STEP_LIMIT} entries")
    final = state_of(game)
    assert final.phase == GAME_OVER
    assert all(play.legal(game, seat) == (None, []) for seat in seats), "nobody is asked for anything"
    assert kinds["commit"] == kinds["reveal"] == len(seats) and kinds["contribute"] >= len(seats)
    check_final_score(final, books)
    result = ledger.audit(
        {
            "game": game.header(),
            "roster": game.roster_table(),
            "components": game.components,
            "entry": game.entries,
        }
    )
    assert result.problems == (), [str(problem) for problem in result.problems]
    assert result.ledger is not None
    assert len(result.ledger.entries) == len(game.entries)
    assert state_of(result.ledger) == final
