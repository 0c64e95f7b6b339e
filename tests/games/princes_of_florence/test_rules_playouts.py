"""Seeded random playouts of whole games of Princes of Florence by email, 2 to 5 players, with and
without the unofficial rules (seed 001, "Неофициальные правила").

Random players make only moves the rules list. The test keeps its own books, written from the rules
text and the template's numbers (never from pbem's cost, work or scoring functions): every payment
(a lot's price, a building's 700/300/0, 300 for a freedom or a card, 100 per WP less 200 per
prestige taken, 100 per prestige sold) must leave each player's florins where the books say, and the
final score is recomputed from the estates and the books and compared.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence.moves import (
    Build,
    Buy,
    CreateWork,
    Freedom,
    Nominate,
    Payment,
    Sell,
    Take,
)
from pbem.games.princes_of_florence.rules import RULES
from pbem.games.princes_of_florence.scoring import winners
from pbem.games.princes_of_florence.state import Game
from pbem.kit.grammar import Bid
from tests.games.princes_of_florence.support import COMPONENTS, dealer_for, new_game

NAMES = ("anna", "bruno", "carla", "dario", "elena")
LIKES = {card["id"]: card for card in COMPONENTS["profession"]}
BONUS = {card["id"]: card for card in COMPONENTS["bonus"]}
SIZE = {card["id"]: card["size"] for card in COMPONENTS["building"]}
PRESTIGE = {card["id"]: card for card in COMPONENTS["prestige"]}
MINIMUM = {int(key): value for key, value in COMPONENTS["minimum_work"].items()}


@dataclass
class Books:
    florins: dict[str, int]
    works_prestige: Counter[str] = field(default_factory=Counter)
    sold: Counter[str] = field(default_factory=Counter)
    best: Counter[str] = field(default_factory=Counter)


def opening(lot: str, players: int, unofficial: bool, round_: int) -> int:
    """Seed 001: 200; the unofficial rules for two: 500 for prestige cards, recruitment cards and
    builders, 700 for a jester in rounds 1-4 and 300 in rounds 5-7."""
    if unofficial and players == 2:
        if lot == "jester":
            return 700 if round_ <= 4 else 300
        if lot in ("prestige-card", "recruitment", "builder"):
            return 500
    return 200


def count(game: Game, seat: str, thing: str) -> int:
    player = game.player(seat)
    sizes = [SIZE[name] for name in player.estate.buildings]
    lands = list(player.estate.landscapes)
    table = {
        "building": len(sizes),
        "small-building": sizes.count("small"),
        "medium-building": sizes.count("medium"),
        "large-building": sizes.count("large"),
        "building-size": len(set(sizes)),
        "landscape": len(lands),
        "landscape-type": len(set(lands)),
        "forest": lands.count("forest"),
        "lake": lands.count("lake"),
        "park": lands.count("park"),
        "freedom": len(player.freedoms),
        "builder": player.builders,
        "jester": player.jesters,
        "prestige-card": len(player.prestige_cards),
        "card-in-hand": len(player.hand) - 1 + player.recruitment,  # the work's card is laid out
    }
    return table[thing]


def value(game: Game, seat: str, profession: str, bonuses: list[str]) -> int:
    """Seed 001, "Создание шедевра": 4 for the building, 3 for the landscape, 3 for the freedom, 2 a
    jester, 1 a profession or recruitment card held or laid out, and the bonus cards."""
    player = game.player(seat)
    likes = LIKES[profession]
    total = 4 * (likes["building"] in player.estate.buildings)
    total += 3 * (likes["landscape"] in player.estate.landscapes)
    total += 3 * (likes["freedom"] in player.freedoms)
    total += 2 * player.jesters
    total += len(player.hand) + len(player.laid) + player.recruitment + player.recruited
    for card in bonuses:
        total += BONUS[card]["wp"] * sum(count(game, seat, thing) for thing in BONUS[card]["counts"])
    return total


def expected_florins(before: Game, after: Game, seat: str, move: object, books: Books) -> None:
    """Move the books by what the rules text says the move pays or earns."""
    n, unofficial, round_ = len(before.seats), before.unofficial, before.round
    player = before.player(seat)
    if isinstance(move, Build):
        builders = player.builders
        books.florins[seat] -= 0 if builders >= 3 else 300 if builders else 700
    elif isinstance(move, Freedom | Take):
        books.florins[seat] -= 300
    elif isinstance(move, Buy):
        # the last player "может просто заплатить в банк 200 флоринов", whatever the lot opens at
        books.florins[seat] -= 200
    elif isinstance(move, Sell):
        books.florins[seat] += 100 * move.points
    elif isinstance(move, Payment):
        books.works_prestige[seat] += move.prestige
        books.florins[seat] -= 200 * move.prestige
    auction = before.auction
    if auction is not None and (
        after.auction is None or after.auction.lot != auction.lot or after.round != round_
    ):
        leader, price = (seat, move.amount) if isinstance(move, Bid) else (auction.leader, auction.price)
        books.florins[leader] -= price
    if isinstance(move, Nominate) and after.auction is None:
        books.florins[seat] -= opening(move.lot, n, unofficial, round_)


def final_score(game: Game, books: Books) -> dict[str, int]:
    """Seed 001: 3 a building, 3 for each landscape of a kind after the first, 3 for the second and
    third builders, the prestige taken for works, 3 a round's best work, less prestige sold, and the
    prestige cards turned up (half, the printed tied value, for a shared lead)."""
    totals: dict[str, int] = {}
    measures = {
        "most-works": lambda s: len(game.player(s).works),
        "most-buildings": lambda s: len(game.player(s).estate.buildings),
        "most-jesters": lambda s: game.player(s).jesters,
        "most-builders": lambda s: game.player(s).builders,
        "most-forests": lambda s: game.player(s).estate.landscapes.count("forest"),
        "most-lakes": lambda s: game.player(s).estate.landscapes.count("lake"),
        "most-parks": lambda s: game.player(s).estate.landscapes.count("park"),
        "most-landscapes": lambda s: len(game.player(s).estate.landscapes),
        "fewest-empty": lambda s: -game.player(s).estate.empty,
    }
    has = {
        "all-landscapes": lambda s: len(set(game.player(s).estate.landscapes)) == 3,
        "all-freedoms": lambda s: len(game.player(s).freedoms) == 3,
        "builder-jester-landscapes": lambda s: (
            game.player(s).builders >= 1
            and game.player(s).jesters >= 1
            and len(game.player(s).estate.landscapes) >= 2
        ),
        "two-large": lambda s: [SIZE[b] for b in game.player(s).estate.buildings].count("large") >= 2,
        "four-buildings-two-freedoms": lambda s: (
            len(game.player(s).estate.buildings) >= 4 and len(game.player(s).freedoms) >= 2
        ),
    }
    for seat in game.seats:
        player = game.player(seat)
        points = 3 * len(player.estate.buildings)
        points += sum(
            3 * max(0, player.estate.landscapes.count(kind) - 1) for kind in ("forest", "lake", "park")
        )
        points += 3 * max(0, player.builders - 1)
        points += books.works_prestige[seat] + 3 * books.best[seat] - books.sold[seat]
        for token in player.prestige_cards:
            card = game.shown.get(token)
            if card is None:
                continue
            rule = PRESTIGE[card]
            if card in has:
                points += rule["value"] if has[card](seat) else 0
                continue
            amounts = {other: measures[card](other) for other in game.seats}
            best = max(amounts.values())
            leaders = [o for o, a in amounts.items() if a == best and (card == "fewest-empty" or a > 0)]
            if seat in leaders:
                points += rule["value"] if len(leaders) == 1 else rule["tied"]
        totals[seat] = points
    return totals


def choose(rng: random.Random, moves: list[str]) -> list[str]:
    """Moves in the order a biased random player tries them: works and buildings first, often."""
    order = moves[:]
    rng.shuffle(order)
    weight = {"work": 0, "build": 1, "auction": 1, "bid": 2, "take": 2, "freedom": 2}
    if rng.random() < 0.8:
        order.sort(key=lambda text: weight.get(text.split()[0], 3 if text != "pass" else 4))
    return order


def play(players: int, unofficial: bool, seed: int) -> tuple[Game, Books, int]:
    rng = random.Random(seed)
    game = new_game(NAMES[:players], unofficial)
    dealer = dealer_for(game, seed)
    game = dealer.settle(game)
    books = Books(dict.fromkeys(game.seats, 3500))
    moves_made = 0
    while RULES.demands(game):
        seat = rng.choice([demand.seat for demand in RULES.demands(game)])
        listed = RULES.legal_moves(game, seat)
        assert listed, (RULES.phase(game), seat)
        assert [RULES.format(move) for move in RULES.legal(game, seat)] == listed  # the same listing
        if rng.random() < 0.02 and RULES.free_moves(game, seat):
            listed = [rng.choice(RULES.free_moves(game, seat))]
        for text in choose(rng, listed):
            move = RULES.parse(text)
            assert RULES.format(move) == text
            shown = dealer.show(game, seat, move)
            if isinstance(move, CreateWork):
                names = [dealer.cards[token] for token in move.bonuses]
                worth = value(shown, seat, dealer.cards[move.profession], names)
                try:
                    RULES.check(shown, seat, move)
                except IllegalMoveError as exc:
                    assert worth < MINIMUM[game.round], (text, worth, exc)
                    continue
                assert worth >= MINIMUM[game.round]
                books.florins[seat] += 100 * worth
                pay = RULES.legal_moves(RULES.apply(shown, seat, move), seat)
                assert pay[-1] == f"prestige {worth // 2}"
            else:
                RULES.check(shown, seat, move)  # every listed move is legal
            if isinstance(move, Sell):
                books.sold[seat] += move.points
            dealer.returned(shown, seat, move)
            after = dealer.settle(RULES.apply(shown, seat, move))
            assert RULES.apply(shown, seat, move) == RULES.apply(shown, seat, move)
            expected_florins(shown, after, seat, move, books)
            if len(after.best) > len(game.best):
                books.best.update(after.best[-1][1])
            for other in game.seats:
                assert after.player(other).florins == books.florins[other], (text, other)
                assert after.player(other).florins >= 0
            game = after
            moves_made += 1
            break
        else:
            raise AssertionError(f"no listed move applies: {listed}")
        assert moves_made < 5000
    return game, books, moves_made


CASES = [(2, True, 11), (3, False, 12), (3, True, 13), (4, False, 14), (5, False, 15), (4, False, 16)]


@pytest.mark.parametrize(("players", "unofficial", "seed"), CASES)
def test_random_playout(players: int, unofficial: bool, seed: int) -> None:
    game, books, moves_made = play(players, unofficial, seed)
    assert game.phase == "over" and game.round == 7
    assert len(game.best) == 7
    score = RULES.score(game)
    expected = final_score(game, books)
    assert {seat: row["total"] for seat, row in score.items()} == expected
    # "Если несколько игроков обладают наивысшим количеством очков престижа, то игрок, имеющий
    # наибольшую сумму денег, становится победителем."
    top = max(expected.values())
    richest = max(game.player(s).florins for s in game.seats if expected[s] == top)
    assert winners(score) == [
        s for s in game.seats if expected[s] == top and game.player(s).florins == richest
    ]
    for seat in game.seats:
        player = game.player(seat)
        assert len(player.estate.buildings) == len(set(player.estate.buildings))
        assert player.builders <= 3
        assert len(set(player.freedoms)) == len(player.freedoms)
    assert moves_made > 50


def test_playouts_make_works_and_buildings() -> None:
    """The random players reach the rules that matter: works, buildings, landscapes, prestige cards."""
    game, _, _ = play(4, False, 21)
    assert sum(len(p.works) for p in game.players) >= 2
    assert sum(len(p.estate.buildings) for p in game.players) >= 4
    assert sum(len(p.estate.landscapes) for p in game.players) >= 2
    assert any(p.prestige_cards for p in game.players) or game.decks["prestige"] == 14
    assert all(isinstance(RULES.default_move(game, seat, "x"), type(None)) for seat in game.seats)
