"""Treachery cards and tile powers outside war in Princes of the Renaissance, at the rules level.

Rules texts (in /work/shared/seeds): seed 000, the 2016 rulebook ("Описание карт Предательства";
"Описание Тайлов": "Тайлы Семей", "Тайлы Городов", "Тайлы Событий"; "Важные Правила" for the hand
limit and the once-a-decade tiles); seed 004, the English reference manual (§5 and §7 FAQ).

One test (or one parametrized test) per card, per family side and per City tile power, each showing
the effect and a refusal outside its window. Expected values come from the rule text quoted next to
them, never from what the code computes. Every refusal leaves the state as it was, is one line naming
the rule, and is not among the legal moves.
"""

from __future__ import annotations

import copy
from functools import partial

import pytest

from pbem.errors import MoveSyntaxError
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.support import (
    DEALER,
    SEATS,
    act,
    end_decade,
    give,
    grant,
    refused,
    spent,
    to_act,
    with_active,
)

GAME_ID = "b3" * 16
# a: Gonzaga (gold discount), b: Malatesta (hand limit 3), c: Montefeltro (influence discount),
# d: d'Este.
FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "montefeltro", "d": "este"}

# Rule values written out from the texts, not read from the code.
HAND_LIMIT = 2  # "Игрок начинает с Лимита Руки (ЛР) (hand limit) в 2 карты Предательства"
CARD_GOLD = CARD_INFLUENCE = 1  # "Карты Предательства стоят 1 Золотой и 1 Влияние"
GOLD_EVENT, INFLUENCE_EVENT = "i-victory-2", "i-victory-3"  # decade I VP tiles: a gold one, an influence one
BANKER = "florence-banker"
LUCREZIA = "rome-lucrezia-borgia"
POPE_DISCOUNT_TILES = (
    "rome-della-rovere",
    "rome-roderigo-borgia",
    "rome-orsini-family",
    "rome-colonna-family",
    "florence-giovanni-medici",
)
FREE_CARD_TILES = ("naples-alfonso-of-aragon", "milan-pallavicino-family")
HAND_LIMIT_TILES = ("naples-ferrante-of-aragon", "rome-cesare-borgia")


# --- helpers (the shared ones are in support.py) -------------------------------------------------
decade_one = partial(potr_support.decade_one, game_id=GAME_ID, families=FAMILIES, phase=None)


def offer(state: Game, tile: str) -> None:
    """Make sure a City tile is in the supply (the 2016 setup draws six of each city's tiles)."""
    if tile not in state.city_supply:
        state.city_supply.append(tile)


def families_with(**chosen: str) -> dict[str, str]:
    """Distinct families: the chosen ones, the others from the default table's."""
    names = ("gonzaga", "malatesta", "montefeltro", "este", "bentivoglio", "baglioni")
    rest = [name for name in names if name not in chosen.values()]
    return {seat: chosen.get(seat) or rest.pop(0) for seat in SEATS}


def on_top(state: Game, card: str) -> None:
    """Put a copy of ``card`` on top of the dealer's pile (its order is the shuffle's)."""
    DEALER.top(card)


def finish_turn(state: Game) -> Game:
    """Pass in the end-of-turn window, offered to every player holding a card face down."""
    while state.phase == "follow-up" and state.follow_ups[0].kind == "end of turn":
        state = act(state, state.follow_ups[0].seat, "pass")
    return state


def everyone_passes(state: Game) -> Game:
    while state.phase == "auction":
        state = act(state, to_act(state), "pass")
    return state


def hand_limit(state: Game, seat: str) -> int:
    limit: int = RULES.view(state, seat)["players"][seat]["hand_limit"]
    return limit


def in_auction(state: Game, nominator: str, tile: str = GOLD_EVENT, bid: int = 0) -> Game:
    """``nominator`` puts a tile up; the state is at the next bidder's turn."""
    return act(with_active(state, nominator), nominator, f"auction {tile} {bid}")


# --- Steal Influence and Steal Gold Shipment ---------------------------------------------------------
STEALS = [("steal-influence", "influence", 2), ("steal-gold-shipment", "gold", 3)]


def amount(state: Game, seat: str, currency: str) -> int:
    player = state.players[seat]
    return player.gold if currency == "gold" else player.influence


@pytest.mark.parametrize(("card", "currency", "value"), STEALS)
def test_steal_cards_take_from_a_player_on_ones_own_turn_without_ending_it(
    card: str, currency: str, value: int
) -> None:
    """Seed 000, Steal Influence: "Эта карта может играться только в Ваш Ход. Вы можете украсть 2
    Влияния у игрока по Вашему выбору"; Steal Gold Shipment: "украсть 3 Золота"."""
    state = decade_one()
    give(state, "a", card)
    assert f"play {card} c" in RULES.legal_moves(state, "a")
    after = act(state, "a", f"play {card} c")
    assert amount(after, "a", currency) == amount(state, "a", currency) + value
    assert amount(after, "c", currency) == amount(state, "c", currency) - value
    assert DEALER.cards_in(after, "a") == [] and after.discards == [card]
    assert (after.phase, after.active) == ("action", "a"), "the card is not the turn's action"
    act(after, "a", "pass")


@pytest.mark.parametrize(("card", "currency", "value"), STEALS)
def test_steal_cards_take_no_more_than_the_victim_has(card: str, currency: str, value: int) -> None:
    """Seed 000, Steal Influence / Steal Gold Shipment: "Вы можете украсть 2 Влияния" / "3 Золота" - one
    cannot steal what the victim does not have."""
    state = decade_one()
    give(state, "a", card)
    setattr(state.players["b"], currency, value - 1)
    after = act(state, "a", f"play {card} b")
    assert amount(after, "b", currency) == 0
    assert amount(after, "a", currency) == amount(state, "a", currency) + value - 1


@pytest.mark.parametrize(("card", "currency", "value"), STEALS)
def test_steal_cards_are_refused_in_an_auction_and_on_another_players_turn(
    card: str, currency: str, value: int
) -> None:
    """Seed 000: "Эта карта может играться только в Ваш Ход ... не может быть разыграна в процессе
    Аукциона"."""
    state = decade_one()
    for seat in SEATS:
        give(state, seat, card)
    name = state.components.card(card).name
    refused(state, "b", f"play {card} a", f"{name} is played on one's own turn")
    refused(state, "a", f"play {card} a", "cannot steal from itself")
    give(state, "a")
    refused(state, "a", f"play {card} b", f"a holds no {name}")
    auction = in_auction(state, "b")
    assert to_act(auction) == "c"
    refused(auction, "c", f"play {card} a", "outside auctions")
    refused(auction, "b", f"play {card} a", "outside auctions")


# --- Freeze Bid ---------------------------------------------------------------------------------------
def test_freeze_bid_on_ones_turn_to_bid_stops_a_player_raising() -> None:
    """Seed 000, Freeze Bid: "Вы можете разыграть эту карту, когда приходит Ваша очередь предлагать
    ставку на Аукционе ... против любого игрока - этот игрок не сможет больше поднимать свою ставку
    ... Это вынуждает его выбыть (drop out) из ставок на текущем Аукционе"."""
    state = decade_one()
    give(state, "b", "freeze-bid")
    state = in_auction(state, "a")
    assert to_act(state) == "b"
    moves = RULES.legal_moves(state, "b")
    assert {"play freeze-bid a", "play freeze-bid c", "play freeze-bid d"} <= set(moves)
    state = act(state, "b", "play freeze-bid c")
    assert state.discards == ["freeze-bid"]
    assert to_act(state) == "b", "b still bids or passes"
    state = act(state, "b", "bid 1")
    assert to_act(state) == "d", "c, frozen, is passed over"
    assert any("c passes (c is frozen by Freeze Bid)" in event for event in state.events)
    refused(state, "c", "bid 5", "frozen")
    state = act(state, "d", "pass")
    state = act(state, "a", "pass")
    assert state.auction is None and GOLD_EVENT in state.players["b"].events


def test_freeze_bid_may_be_played_by_a_player_who_then_passes() -> None:
    """Freeze Bid: "(даже если Вы принимаете решение спасовать)"."""
    state = decade_one()
    give(state, "b", "freeze-bid")
    state = in_auction(state, "a")
    state = act(state, "b", "play freeze-bid d")
    state = act(state, "b", "pass")
    assert to_act(state) == "c"
    state = act(state, "c", "pass")
    assert state.auction is None, "d was frozen: the nominator a wins"
    assert GOLD_EVENT in state.players["a"].events


def test_a_frozen_high_bidder_wins_unless_someone_raises() -> None:
    """Freeze Bid: "если только его предложение не является самым высоким, и нет игрока,
    увеличивающего текущую ставку"."""
    state = decade_one()
    give(state, "b", "freeze-bid", "freeze-bid")
    start = in_auction(state, "a", bid=2)
    frozen = act(start, "b", "play freeze-bid a")
    kept = everyone_passes(frozen)
    assert GOLD_EVENT in kept.players["a"].events
    assert kept.players["a"].gold == start.players["a"].gold - (2 - 2), "Gonzaga: bid 2 less 2"
    raised = act(frozen, "b", "pass")
    raised = act(raised, "c", "bid 3")
    raised = act(raised, "d", "pass")
    assert raised.auction is None, "a, frozen, may not raise: c wins"
    assert GOLD_EVENT in raised.players["c"].events


def test_a_holder_of_freeze_bid_who_cannot_outbid_is_still_asked() -> None:
    """Freeze Bid is played "когда приходит Ваша очередь предлагать ставку ... (даже если Вы
    принимаете решение спасовать)": a holder with no gold to outbid still gets its turn."""
    state = decade_one()
    state.players["b"].gold = 0
    state.players["c"].gold = 0
    give(state, "b", "freeze-bid")
    state = in_auction(state, "a", GOLD_EVENT, 1)
    assert to_act(state) == "b"
    assert sorted(RULES.legal_moves(state, "b")) == [
        "pass",
        "play freeze-bid a",
        "play freeze-bid c",
        "play freeze-bid d",
    ]
    refused(state, "b", "bid 2", "cannot be paid")
    state = act(state, "b", "play freeze-bid d")
    state = act(state, "b", "pass")
    assert state.auction is None, "c cannot outbid and holds no card; d is frozen: a wins"
    assert GOLD_EVENT in state.players["a"].events


def test_freeze_bid_is_refused_after_dropping_out_off_turn_and_outside_an_auction() -> None:
    """Freeze Bid: "Вы не можете разыграть эту карту, если Вы уже выбыли (drop out) из текущего
    Аукциона"; it is played "когда приходит Ваша очередь предлагать ставку"."""
    state = decade_one()
    for seat in SEATS:
        give(state, seat, "freeze-bid")
    refused(state, "a", "play freeze-bid b", "freeze-bid cannot be played now: on one's turn to bid")
    state = in_auction(state, "a")
    refused(state, "c", "play freeze-bid d", "it is b's turn to bid")
    refused(state, "b", "play freeze-bid b", "Freeze Bid names another player")
    state = act(state, "b", "pass")
    refused(state, "b", "play freeze-bid c", "b has dropped out of this auction")
    state = act(state, "c", "play freeze-bid d")
    refused(state, "c", "play freeze-bid d", "")  # the card is spent, and d is frozen anyway


# --- Bribe Cardinal -----------------------------------------------------------------------------------
def test_bribe_cardinal_counts_as_three_influence_toward_the_pope() -> None:
    """Seed 000, Bribe Cardinal: "Эта карта расценивается как 3 Влияния, если используется для оплаты
    стоимости тайла Папы Римского". a (Gonzaga, no influence discount) has 2 influence. The card is
    face down, so it counts only once shown (pbem's reading: nobody else can know it is held)."""
    state = decade_one()
    state.players["a"].influence = 2
    give(state, "a", "bribe-cardinal")
    refused(state, "a", "auction pope 5", "cannot be paid")
    state = act(state, "a", "play bribe-cardinal")
    assert DEALER.cards_in(state, "a") == ["bribe-cardinal"] and state.active == "a", "shown, still held"
    assert RULES.view(state, None)["players"]["a"]["treachery_face_up"] == ["Bribe Cardinal"]
    refused(state, "a", "play bribe-cardinal", "holds no Bribe Cardinal")
    refused(state, "a", "auction pope 6", "cannot be paid")
    state = act(state, "a", "auction pope 5")
    state = everyone_passes(state)
    assert state.pope == "a"
    assert state.players["a"].influence == 0
    assert DEALER.cards_in(state, "a") == [] and state.discards == ["bribe-cardinal"]


def test_a_bribe_cardinal_played_pays_for_the_pope_even_when_the_influence_could() -> None:
    """Seed 000, Bribe Cardinal: "Эта карта расценивается как 3 Влияния, если используется для оплаты
    стоимости тайла Папы Римского" - whether it is used to pay is the holder's choice, made by
    playing it. a holds 4 influence, plays the card and wins the Pope at 4: the card pays 3 of it."""
    state = decade_one()
    state.players["a"].influence = 4
    give(state, "a", "bribe-cardinal")
    state = act(state, "a", "play bribe-cardinal")
    state = everyone_passes(act(state, "a", "auction pope 4"))
    assert state.pope == "a" and state.players["a"].influence == 4 - (4 - 3)
    assert DEALER.cards_in(state, "a") == [] and state.discards == ["bribe-cardinal"]


def test_a_bribe_cardinal_not_played_leaves_the_price_to_influence() -> None:
    """The card pays only "если используется для оплаты": held face down, it is not used."""
    state = decade_one()
    state.players["a"].influence = 4
    give(state, "a", "bribe-cardinal")
    state = everyone_passes(act(state, "a", "auction pope 4"))
    assert state.pope == "a" and state.players["a"].influence == 0
    assert DEALER.cards_in(state, "a") == ["bribe-cardinal"] and state.discards == []


def test_a_bribe_cardinal_played_is_not_spent_on_a_pope_that_costs_nothing() -> None:
    """Nothing to pay, nothing "используется для оплаты": the card stays face up for a later Pope."""
    state = decade_one()
    give(state, "a", "bribe-cardinal")
    state = act(state, "a", "play bribe-cardinal")
    state = everyone_passes(act(state, "a", "auction pope 0"))
    assert state.pope == "a" and state.players["a"].influence == 12
    assert RULES.view(state, None)["players"]["a"]["treachery_face_up"] == ["Bribe Cardinal"]


def test_bribe_cardinal_does_not_pay_for_anything_but_the_pope() -> None:
    """ "если используется для оплаты стоимости тайла Папы Римского" - only the Pope."""
    state = decade_one()
    state.players["a"].influence = 2
    give(state, "a", "bribe-cardinal")
    state = act(state, "a", "play bribe-cardinal")
    refused(state, "a", f"auction {INFLUENCE_EVENT} 3", "cannot be paid")
    act(state, "a", f"auction {INFLUENCE_EVENT} 2")


# --- Veto, Bad Weather, Start War and Bribe Troops outside their moment -------------------------------
def test_veto_and_bad_weather_are_refused_outside_a_wars_window() -> None:
    """Seed 000, Veto: "когда игрок объявляет о том, какие два Города будут вести Войну, но перед
    началом любых ставок"; Bad Weather: "прежде чем позиции Кондотьеров будут разыграны" "(в то же
    самое время, когда играется карта Вето)"."""
    state = decade_one()
    give(state, "a", "veto", "bad-weather")
    refused(state, "a", "play veto", "veto cannot be played now: when a war is declared")
    refused(state, "a", "play bad-weather venice", "bad-weather cannot be played now: when a war is declared")
    auction = in_auction(with_active(state, "d"), "d")
    assert to_act(auction) == "a"
    refused(auction, "a", "play veto", "")
    refused(auction, "a", "play bad-weather venice", "")
    refused(auction, "b", "play veto", "")
    # in the bribes stage of a war
    war = copy.deepcopy(state)
    war.players["b"].troops, war.players["c"].troops = ["infantry"], ["pikemen"]
    give(war, "b", "bribe-troops")
    war = act(with_active(war, "d"), "d", "war venice milan")
    war = act(war, "a", "pass")  # a declines the window
    war = act(war, "b", "pass")  # b too: it holds a card, so it is asked
    war = act(act(war, "b", "bid 0"), "c", "pass")
    war = act(war, "c", "bid 0")
    assert war.war is not None and war.war.stage == "bribes" and to_act(war) == "b"
    give(war, "b", "veto")
    refused(war, "b", "play veto", "there is no war waiting for someone to play Veto or Bad Weather")


def test_start_war_is_refused_outside_the_end_of_turn_window() -> None:
    """Seed 000, Start War: "В конце Вашего Хода Вы можете разыграть эту карту"."""
    state = decade_one()
    for seat in SEATS:
        give(state, seat, "start-war")
    refused(
        state,
        "a",
        "play start-war venice milan",
        "start-war cannot be played now: at the end of one's own turn",
    )
    refused(state, "b", "play start-war venice milan", "")
    window = act(state, "a", "pass")
    assert window.phase == "follow-up" and to_act(window) == "a"
    refused(window, "b", "play start-war venice milan", "it is the end of a's turn, not b's")
    auction = in_auction(state, "a")
    refused(auction, "b", "play start-war venice milan", "")


def test_bribe_troops_is_refused_outside_the_bribes_stage() -> None:
    """Seed 000, Bribe Troops: "может быть разыграна только, когда начинается Война и после того, как
    Кондотьеров назначили на каждый Город"."""
    state = decade_one()
    state.players["a"].troops, state.players["b"].troops = ["infantry"], ["pikemen"]
    give(state, "a", "bribe-troops")
    refused(state, "a", "play bribe-troops b pikemen", "bribe-troops cannot be played now: in a war, after")
    give(state, "c", "veto")
    war = act(state, "a", "war venice milan")
    assert war.war is not None and war.war.stage == "veto window"
    refused(
        war, "a", "play bribe-troops b pikemen", "there is no war waiting for someone to play Bribe Troops"
    )


# --- Family tiles: auction discounts --------------------------------------------------------------------
def win(state: Game, seat: str, tile: str, bid: int) -> Game:
    """``seat`` puts ``tile`` up at ``bid`` and everyone else passes."""
    return everyone_passes(in_auction(state, seat, tile, bid))


FAMILY_DISCOUNTS = [
    # (family, side, gold discount, influence discount), from "Тайлы Семей"
    ("gonzaga", "a", 2, 0),  # "скидку в 2 Золотых ... Аукцион, который использует Золото"
    ("gonzaga", "b", 1, 0),  # B side: "скидку в 1 Золотой"
    ("montefeltro", "a", 0, 2),  # "скидку в 2 Влияния ... Аукцион, который использует Влияние"
    ("montefeltro", "b", 0, 1),  # B side: "скидку в 1 Влияние"
    ("baglioni", "a", 1, 1),  # "скидку в 1 Золотой и/или в 1 Влияние (по применению)"
    ("malatesta", "a", 0, 0),
    ("bentivoglio", "b", 0, 0),
]


@pytest.mark.parametrize(("family", "side", "gold_off", "influence_off"), FAMILY_DISCOUNTS)
def test_family_discounts_by_currency(family: str, side: str, gold_off: int, influence_off: int) -> None:
    """A bid may exceed what one holds by the discount ("Игрок может предложить больше Золота, чем он
    имеет, если при вычитании из его ставки скидок ... разница ... меньше"), and the winner pays
    the bid less the discount: on a gold Event tile, on a City tile, on an influence Event tile and
    on the Pope."""
    state = decade_one(side=side, families=families_with(a=family))
    state.players["a"].gold, state.players["a"].influence = 10, 4
    tile = next(t for t in state.city_supply if state.components.city_tile(t).city == "rome")
    state.status["rome"] = 5  # opens at 10
    cases = [
        (GOLD_EVENT, "gold", gold_off),
        (tile, "gold", gold_off),
        (INFLUENCE_EVENT, "influence", influence_off),
        ("pope", "influence", influence_off),
    ]
    for item, currency, off in cases:
        have = amount(state, "a", currency)
        refused(state, "a", f"auction {item} {have + off + 1}", "cannot be paid")
        won = win(state, "a", item, have + off)
        assert amount(won, "a", currency) == 0, (item, off)
        other = "influence" if currency == "gold" else "gold"
        assert amount(won, "a", other) == amount(state, "a", other)


def test_baglioni_b_declares_its_discount_at_the_start_of_each_decade() -> None:
    """Seed 000, Baglioni B-side: "скидку в 1 Золотой или в 1 Влияние ... Однако, Вы должны объявить,
    будет ли это скидка в Золотых ИЛИ во Влиянии в начале Десятилетия, и это условие не может быть
    изменено до начала следующего Десятилетия"."""
    state = decade_one(side="b", families=families_with(b="baglioni"))
    assert state.phase == "follow-up" and to_act(state) == "b"
    assert "declare gold or declare influence" in RULES.demands(state)[0].prompt
    assert sorted(RULES.legal_moves(state, "b")) == ["declare gold", "declare influence"]
    refused(state, "a", "pass", "")
    refused(state, "b", "pass", "")
    refused(state, "a", "buy card", "b must first finish the last action: declare gold or declare influence")
    refused(state, "b", "buy card", "declare gold or declare influence")
    state = act(state, "b", "declare gold")
    assert (state.phase, state.active) == ("action", "a")
    assert RULES.view(state, "a")["players"]["b"]["declared_discount"] == "gold"
    refused(state, "b", "declare influence", "")
    refused(with_active(state, "b"), "b", "declare influence", "")
    state.players["b"].gold, state.players["b"].influence = 5, 5
    refused(with_active(state, "b"), "b", "auction pope 6", "cannot be paid")
    refused(with_active(state, "b"), "b", f"auction {GOLD_EVENT} 7", "cannot be paid")
    won = win(state, "b", GOLD_EVENT, 6)
    assert won.players["b"].gold == 0, "bid 6 less the declared gold discount of 1"
    pope = win(state, "b", "pope", 5)
    assert pope.players["b"].influence == 0, "no discount in influence this decade"
    # the next decade: asked again, and this time influence
    later = end_decade(state)
    assert later.decade == 2 and later.phase == "follow-up" and to_act(later) == "b"
    assert RULES.view(later, "b")["players"]["b"]["declared_discount"] == ""
    later = act(later, "b", "declare influence")
    later.players["b"].gold, later.players["b"].influence = 5, 5
    refused(with_active(later, "b"), "b", "auction ii-victory-3 6", "cannot be paid")  # a gold tile
    pope = win(later, "b", "pope", 6)
    assert pope.players["b"].influence == 0, "bid 6 less the declared influence discount of 1"


# --- Bentivogli -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("side", ["a", "b"])
def test_bentivogli_draws_two_cards_keeps_one_and_puts_the_other_under_the_deck(side: str) -> None:
    """Seed 000, Bentivogli (A and B sides): "Покупая карту Предательства, вытяните 2 карты, сохраните у
    себя 1 и верните другую под низ колоды"."""
    state = decade_one(side=side, families=families_with(a="bentivoglio"))
    DEALER.top("veto", "freeze-bid")
    bought = act(state, "a", "buy card")
    assert bought.phase == "follow-up" and to_act(bought) == "a"
    first, second = bought.follow_ups[0].what.split()
    assert (DEALER.card(first), DEALER.card(second)) == ("veto", "freeze-bid")
    assert sorted(RULES.legal_moves(bought, "a")) == sorted([f"keep {first}", f"keep {second}"])
    refused(bought, "a", "keep treachery:99", f"keep one of the two cards drawn: {first} or {second}")
    refused(bought, "b", f"keep {first}", "")
    refused(bought, "a", "pass", "")
    kept = act(bought, "a", f"keep {second}")
    assert DEALER.cards_in(kept, "a") == ["freeze-bid"]
    assert kept.deck == state.deck - 1 and DEALER.pile[-1] == first, "the Veto went under the deck"
    assert kept.players["a"].gold == state.players["a"].gold - CARD_GOLD
    assert kept.players["a"].influence == state.players["a"].influence - CARD_INFLUENCE
    assert (finish_turn(kept).phase, finish_turn(kept).active) == ("action", "b")
    refused(with_active(kept, "a"), "a", f"keep {first}", "")


def final_decade(side: str) -> Game:
    """Decade III with one Event tile left; c is Bentivogli and holds the Banker; the statuses as
    set out (2016: Venice 7, Milan and Florence 6, Rome and Naples 5), so Milan ties Florence and
    Rome ties Naples, none with an Artist tile."""
    state = decade_one(side=side, families=families_with(c="bentivoglio"))
    assert [state.status[city] for city in ("venice", "milan", "florence", "rome", "naples")] == [
        7,
        6,
        6,
        5,
        5,
    ]
    state.decade = 3
    state.event_row = [next(e.id for e in state.components.events if e.decade == 3 and e.kind == "vp")]
    grant(state, "c", "florence-wool-guild", "rome-curia")
    grant(state, "a", "milan-merchant", "naples-barons")
    grant(state, "c", BANKER)
    return state


def test_bentivogli_a_side_may_name_the_winner_of_each_tie_at_the_end_and_the_score_follows() -> None:
    """Seed 000, Bentivogli (A side): "Вы способны самостоятельно принимать решение в случаях ничейных
    ситуаций по тайлам Искусства в Конце Игры, т. е. если будет равенство в позициях на ТГС Городов с
    большинством по Искусству (или его отсутствию), Вы можете объявить, какой из них выигрывает
    спор"; city VP 10, 7, 5, 3, 2, and cities still tied "помещаются на наименьшую, из оспариваемых,
    позицию" ("Конец Игры"). "Можете" (may): the player names one winner, or lets the tie stand."""
    state = final_decade("a")
    state = everyone_passes(act(state, "a", f"auction {state.event_row[0]} 0"))
    assert state.phase == "follow-up" and to_act(state) == "c"
    assert sorted(RULES.legal_moves(state, "c")) == ["pass", "rank florence", "rank milan"]
    refused(state, "c", "rank rome", "one of the tied cities as the winner of the tie (milan, florence)")
    refused(state, "a", "rank milan", "")
    refused(state, "c", "bank 1 gold", "cannot be used")  # "Вы не можете использовать Банкира в Конце Игры"
    state = act(state, "c", "rank florence")
    assert to_act(state) == "c"
    assert sorted(RULES.legal_moves(state, "c")) == ["pass", "rank naples", "rank rome"]
    state = act(state, "c", "pass")
    assert state.phase == "game over"
    scores = RULES.score(state)
    assert scores["c"]["city tiles"] == 7 + 7 + 2  # two Florence tiles (second), Rome tied fourth-fifth
    assert scores["a"]["city tiles"] == 5 + 2  # Milan third, Naples tied with Rome: both the fifth place
    cities = RULES.view(state, "a")["cities"]
    assert [cities[city]["vp"] for city in ("venice", "florence", "milan", "naples", "rome")] == [
        10,
        7,
        5,
        2,
        2,
    ]


def test_bentivogli_names_only_the_winner_of_a_tie() -> None:
    """ "Вы можете объявить, какой из них выигрывает спор": one city, the winner; the order of the
    others is not Bentivogli's to declare."""
    with pytest.raises(MoveSyntaxError, match="names only the city that wins the tie"):
        RULES.parse("rank florence milan")


def test_a_late_bentivogli_lets_the_tie_stand() -> None:
    """The declaration is optional ("Вы можете"), so the default for a missed deadline declines it."""
    state = final_decade("a")
    state = everyone_passes(act(state, "a", f"auction {state.event_row[0]} 0"))
    (demand,) = RULES.demands(state)
    move = RULES.default_move(state, demand.seat, demand.step)
    assert move is not None and RULES.format(move) == "pass"
    RULES.check(state, demand.seat, move)
    state = RULES.apply(RULES.apply(state, "c", move), "c", move)
    assert state.phase == "game over" and state.ranking == []
    assert RULES.score(state)["c"]["city tiles"] == 5 + 5 + 2  # Milan and Florence both third


def test_bentivogli_b_side_does_not_rank_the_tied_cities() -> None:
    """Seed 000, Bentivogli B-side has only the card draw; tied cities "помещаются на наименьшую, из
    оспариваемых, позицию"."""
    state = final_decade("b")
    state = everyone_passes(act(state, "a", f"auction {state.event_row[0]} 0"))
    assert state.phase == "game over"
    refused(state, "c", "rank florence", "the game is over")
    scores = RULES.score(state)
    assert scores["c"]["city tiles"] == 5 + 5 + 2
    assert scores["a"]["city tiles"] == 5 + 2


def test_ranking_is_refused_before_the_end() -> None:
    """Seed 000, Bentivogli: "в случаях ничейных ситуаций по тайлам Искусства в Конце Игры" - only at the
    end of the game."""
    state = decade_one(families=families_with(a="bentivoglio"))
    refused(state, "a", "rank milan", "")


# --- Malatesta --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("side", ["a", "b"])
def test_malatesta_holds_three_cards_on_either_side(side: str) -> None:
    """Seed 000, Malatesta (A and B): "Вы можете держать 3 карты Предательства вместо нормального
    Лимита Руки"."""
    state = with_active(decade_one(side=side), "b")
    on_top(state, "steal-influence")
    assert hand_limit(state, "b") == 3 and hand_limit(state, "a") == HAND_LIMIT
    give(state, "b", "veto", "veto")
    third = finish_turn(act(state, "b", "buy card"))
    assert len(third.players["b"].cards) == 3 and (third.phase, third.active) == ("action", "c")
    fourth = act(with_active(third, "b"), "b", "buy card")
    assert fourth.phase == "follow-up" and "discard" in RULES.demands(fourth)[0].prompt


def test_malatesta_a_draws_a_free_card_once_a_decade_on_its_turn() -> None:
    """Seed 000, Malatesta (A side): "Вы можете также получить бесплатную карту Предательства на своём
    Ходу один раз в Десятилетие. Это может быть сделано как дополнительное Действие на любом Ходу и
    не стоит Вам никакого Золота или Влияния"."""
    state = with_active(decade_one(), "b")
    (top,) = DEALER.peek()
    assert "use malatesta" in RULES.legal_moves(state, "b")
    refused(state, "a", "use malatesta", "")
    after = act(state, "b", "use malatesta")
    assert DEALER.cards_in(after, "b") == [top] and after.deck == state.deck - 1
    assert (after.players["b"].gold, after.players["b"].influence) == (
        state.players["b"].gold,
        state.players["b"].influence,
    )
    assert (after.phase, after.active) == ("action", "b"), "an extra move: the turn goes on"
    assert spent(after, "b") == ["Malatesta's free card"]
    refused(after, "b", "use malatesta", "malatesta has already been used this decade")
    # not on another player's turn, nor in an auction
    refused(with_active(state, "a"), "b", "use malatesta", "a tile's power is played on one's own turn")
    refused(in_auction(state, "a"), "b", "use malatesta", "on one's own turn")
    # refreshed at the decade's end
    later = end_decade(after)
    assert spent(later, "b") == []
    act(with_active(later, "b"), "b", "use malatesta")


def test_malatesta_a_free_card_over_the_limit_is_discarded_first_then_the_turn_goes_on() -> None:
    """Seed 000, Важные Правила: over the limit the player "должен немедленно сбросить карты ... перед
    продолжением Хода"."""
    state = with_active(decade_one(), "b")
    give(state, "b", "veto", "veto", "veto")
    over = act(state, "b", "use malatesta")
    assert over.phase == "follow-up" and to_act(over) == "b"
    after = act(over, "b", f"discard {over.players['b'].cards[-1]}")
    assert (after.phase, after.active) == ("action", "b")
    act(after, "b", "buy infantry")


def test_malatesta_b_draws_no_free_card() -> None:
    """Seed 000, "Malatesta B-side": only "Вы можете держать 3 карты Предательства вместо нормального
    Лимита Руки", no free card."""
    state = with_active(decade_one(side="b"), "b")
    refused(state, "b", "use malatesta", "only Malatesta's A side draws a free card")


# --- d'Este outside war -------------------------------------------------------------------------------------
def test_deste_a_may_buy_artillery_in_decade_one_and_b_may_not() -> None:
    """Seed 000, d'Este: "Вы можете покупать Артиллерию в первом Десятилетии" (A side only; the B side
    has only "+1 к Обороне", tested in tests/games/princes_of_the_renaissance/test_war.py)."""
    state = with_active(decade_one(), "d")
    after = act(state, "d", "buy artillery")
    assert after.players["d"].troops == ["artillery"]
    refused(state, "d", "buy cavalry", "cannot be bought in decade I")
    refused(with_active(decade_one(side="b"), "d"), "d", "buy artillery", "cannot be bought in decade I")


# --- City tiles: the Banker ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("currency", "other"), [("gold", "influence"), ("influence", "gold")])
def test_the_banker_exchanges_up_to_three_either_way_once_a_decade(currency: str, other: str) -> None:
    """Seed 000, Banker: "Один раз в Десятилетие Вы можете обменять до 3 Золотых на ту же самую сумму
    Влияния или наоборот"."""
    state = decade_one()
    grant(state, "a", BANKER)
    assert {f"bank {n} {c}" for n in (1, 2, 3) for c in ("gold", "influence")} <= set(
        RULES.legal_moves(state, "a")
    )
    refused(state, "a", f"bank 4 {currency}", "the Banker exchanges 1 to 3")
    refused(state, "a", f"bank 0 {currency}", "the Banker exchanges 1 to 3")
    after = act(state, "a", f"bank 3 {currency}")
    assert amount(after, "a", currency) == amount(state, "a", currency) - 3
    assert amount(after, "a", other) == amount(state, "a", other) + 3
    assert (after.phase, after.active) == ("action", "a"), "the Banker is not the turn's action"
    assert spent(after, "a") == ["Banker"]
    refused(after, "a", f"bank 1 {other}", "the Banker has already been used this decade")
    later = end_decade(after)
    assert spent(later, "a") == []
    act(with_active(later, "a"), "a", f"bank 1 {currency}")


def test_the_banker_cannot_exchange_more_than_is_held() -> None:
    """Seed 000, Banker: "обменять до 3 Золотых на ту же самую сумму Влияния или наоборот" - what one
    holds."""
    state = decade_one()
    grant(state, "a", BANKER)
    state.players["a"].influence = 2
    refused(state, "a", "bank 3 influence", "a has 2 influence")
    act(state, "a", "bank 2 influence")


def test_the_banker_at_any_time_asked_to_move_or_not() -> None:
    """Banker: "Вы можете использовать Банкира в любое время" (at any time): a free move, made on
    another player's turn too, which does not change whose turn it is."""
    state = decade_one()
    grant(state, "c", BANKER)
    assert "bank 1 gold" in RULES.free_moves(state, "c")
    assert "bank 1 gold" not in RULES.legal_moves(state, "c"), "c is not asked to move"
    auction = in_auction(state, "a")
    assert to_act(auction) == "b"
    move = RULES.parse("bank 2 influence")
    assert RULES.is_free(move)
    RULES.check(auction, "c", move)
    banked = RULES.apply(auction, "c", move)
    assert to_act(banked) == "b", "still b's turn to bid"
    assert banked.players["c"].gold == state.players["c"].gold + 2
    refused(state, "a", "bank 1 gold", "a holds no Banker")


def test_a_banker_holder_whom_an_exchange_lets_outbid_is_asked_to_bid() -> None:
    """The Banker may be used "в любое время": c, with 4 gold and the Banker, is asked in an auction at
    5 gold rather than passed over, and may exchange influence to outbid."""
    state = decade_one()
    grant(state, "c", BANKER)
    state.players["b"].gold = state.players["c"].gold = 4
    state = in_auction(state, "a", GOLD_EVENT, 5)
    assert to_act(state) == "c", "b cannot outbid and is passed over; c is asked"
    assert any("b passes" in event for event in state.events)
    refused(state, "c", "bid 6", "cannot be paid")
    state = act(state, "c", "bank 3 influence")
    state = act(state, "c", "bid 7")
    state = everyone_passes(state)
    assert GOLD_EVENT in state.players["c"].events and state.players["c"].gold == 0


def test_the_banker_pays_for_the_last_event_tile_but_not_after_it_is_sold() -> None:
    """Banker: "никогда - после того, как последний тайл Событий был продан с Аукциона, если только
    Банкир не используется, чтобы расплатиться за этот последний тайл Событий"; seed 004 FAQ:
    "Special actions (e.g., Banking, Lucrezia Borgia) must be used before the last Event tile auction
    of the decade"."""
    state = decade_one()
    grant(state, "b", BANKER)
    artist = next(e.id for e in state.components.events if e.decade == 1 and e.kind == "artist")
    state.event_row = [artist]
    state.players["b"].influence = 0
    auction = in_auction(state, "a", artist, 0)
    assert to_act(auction) == "b"
    refused(auction, "b", "bid 1", "cannot be paid")
    auction = act(auction, "b", "bank 3 gold")
    auction = act(auction, "b", "bid 3")
    won = everyone_passes(auction)
    assert won.players["b"].influence == 0, "paid with the Banker's influence"
    assert won.phase == "follow-up" and to_act(won) == "b", "the Artist tile to place; the decade is over"
    state_two = copy.deepcopy(won)
    state_two.players["b"].used = []
    refused(
        state_two, "b", "bank 1 gold", "the Banker cannot be used once the decade's last Event tile is sold"
    )


# --- City tiles: Lucrezia Borgia ------------------------------------------------------------------------
def test_lucrezia_borgia_steals_two_influence_once_a_decade_on_ones_turn() -> None:
    """Seed 000, Lucrezia Borgia: "Вы можете украсть 2 Влияния у любого другого игрока один раз за
    Десятилетие на своём Ходу. Вы не можете использовать Борджию, по ходу Аукционов"."""
    state = decade_one()
    grant(state, "a", LUCREZIA)
    assert f"use {LUCREZIA} b" in RULES.legal_moves(state, "a")
    refused(state, "a", f"use {LUCREZIA} a", "cannot steal from itself")
    after = act(state, "a", f"use {LUCREZIA} b")
    assert after.players["a"].influence == state.players["a"].influence + 2
    assert after.players["b"].influence == state.players["b"].influence - 2
    assert (after.phase, after.active) == ("action", "a")
    assert spent(after, "a") == ["Lucrezia Borgia"]
    refused(after, "a", f"use {LUCREZIA} c", "has already been used this decade")
    refused(with_active(state, "b"), "a", f"use {LUCREZIA} b", "a tile's power is played on one's own turn")
    auction = in_auction(state, "d")
    refused(auction, "a", f"use {LUCREZIA} b", "outside auctions")
    later = end_decade(after)
    assert spent(later, "a") == []
    act(with_active(later, "a"), "a", f"use {LUCREZIA} c")


def test_lucrezia_borgia_takes_no_more_than_the_victim_has() -> None:
    """Seed 000, Lucrezia Borgia: "Вы можете украсть 2 Влияния у любого другого игрока" - no more than the
    victim has."""
    state = decade_one()
    grant(state, "a", LUCREZIA)
    state.players["b"].influence = 1
    after = act(state, "a", f"use {LUCREZIA} b")
    assert after.players["b"].influence == 0
    assert after.players["a"].influence == state.players["a"].influence + 1


# --- City tiles: the Pope discounts ---------------------------------------------------------------------
@pytest.mark.parametrize("tile", POPE_DISCOUNT_TILES)
def test_each_pope_discount_tile_takes_one_influence_off_the_pope_only(tile: str) -> None:
    """Seed 000, "Della Rovere, Roderigo Borgia, Orsini Family, Colonna Familly, Giovanni Medici":
    "Каждый из этих тайлов позволяет Вам получить скидку в 1 Влияние, на ставке за тайл Папы
    Римского". a is Gonzaga (no influence discount of its own) with 4 influence."""
    state = decade_one()
    grant(state, "a", tile)
    state.players["a"].influence = 4
    refused(state, "a", "auction pope 6", "cannot be paid")
    won = win(state, "a", "pope", 5)
    assert won.pope == "a" and won.players["a"].influence == 0
    refused(state, "a", f"auction {INFLUENCE_EVENT} 5", "cannot be paid")


def test_the_pope_discount_tiles_add_up() -> None:
    """ "Они могут быть объединены для получения большей суммы скидки"."""
    state = decade_one()
    grant(state, "a", *POPE_DISCOUNT_TILES)
    state.players["a"].influence = 4
    refused(state, "a", "auction pope 10", "cannot be paid")
    won = win(state, "a", "pope", 9)
    assert won.players["a"].influence == 0
    two = decade_one()
    grant(two, "a", *POPE_DISCOUNT_TILES[:2])
    two.players["a"].influence = 4
    assert win(two, "a", "pope", 6).players["a"].influence == 0


def test_the_pope_discount_adds_to_montefeltros() -> None:
    """Seed 000: Montefeltro "скидку в 2 Влияния всякий раз, когда Вы вовлечены в Аукцион, который
    использует Влияние" and Giovanni Medici "скидку в 1 Влияние, на ставке за тайл Папы Римского": c,
    Montefeltro (A), takes 3 off the Pope."""
    state = decade_one()
    grant(state, "c", POPE_DISCOUNT_TILES[-1])
    state.players["c"].influence = 4
    won = win(state, "c", "pope", 7)
    assert won.players["c"].influence == 0


# --- City tiles: free cards ------------------------------------------------------------------------------
@pytest.mark.parametrize("tile", FREE_CARD_TILES)
def test_a_free_card_tile_draws_a_card_once_a_decade_even_on_the_turn_it_is_won(tile: str) -> None:
    """Seed 000, Alfonso of Aragon and Pallavicino Family: "Один раз в Десятилетие Вы можете вытянуть
    бесплатную карту Предательства. Вы можете использовать эту способность во время своего Хода,
    включая Ход, на котором Вы выиграли на Аукционе этот тайл"."""
    state = decade_one()
    offer(state, tile)
    on_top(state, "veto")
    city = state.components.city_tile(tile).city
    won = win(state, "a", tile, 2 * state.status[city])
    assert tile in won.players["a"].city_tiles
    assert won.phase == "follow-up" and to_act(won) == "a", "the end of a's turn: the tile may be used"
    assert sorted(RULES.legal_moves(won, "a")) == ["pass", f"use {tile}"]
    refused(won, "b", f"use {tile}", "")
    (top,) = DEALER.peek()
    gold, influence = won.players["a"].gold, won.players["a"].influence
    used = act(won, "a", f"use {tile}")
    assert DEALER.cards_in(used, "a") == [top]
    assert (used.players["a"].gold, used.players["a"].influence) == (gold, influence)
    assert spent(used, "a") == [state.components.city_tile(tile).name]
    assert DEALER.playable(used, "a") == ["pass"]
    after = act(used, "a", "pass")
    assert (after.phase, after.active) == ("action", "b")
    refused(with_active(after, "a"), "a", f"use {tile}", "has already been used this decade")
    refused(after, "a", f"use {tile}", "a tile's power is played on one's own turn")
    later = end_decade(after)
    act(with_active(later, "a"), "a", f"use {tile}")


def test_the_two_free_card_tiles_add_up() -> None:
    """ "В паре эти тайлы могут использоваться совокупно"."""
    state = decade_one()
    grant(state, "a", *FREE_CARD_TILES)
    state = act(state, "a", f"use {FREE_CARD_TILES[0]}")
    state = act(state, "a", f"use {FREE_CARD_TILES[1]}")
    assert len(state.players["a"].cards) == 2
    assert state.active == "a"


def test_a_free_card_tile_won_in_another_players_auction_waits_for_its_holders_turn() -> None:
    """Seed 000, Alfonso of Aragon: "Вы можете использовать эту способность во время своего Хода" - a tile
    won in another player's auction is used on its holder's own turn."""
    state = decade_one()
    tile = FREE_CARD_TILES[0]
    offer(state, tile)
    state.status["naples"] = 5
    state = in_auction(state, "d", tile, 10)
    state = act(state, "a", "bid 11")
    state = everyone_passes(state)
    assert tile in state.players["a"].city_tiles
    assert to_act(state) == "d", "d, who lost its City tile, may buy a compensation card"
    refused(state, "a", f"use {tile}", "on one's own turn")
    state = act(state, "d", "pass")
    assert (state.phase, state.active) == ("action", "a")
    act(state, "a", f"use {tile}")


# --- City tiles: the hand limit ------------------------------------------------------------------------
def test_ferrante_of_aragon_and_cesare_borgia_each_add_one_to_the_hand_limit() -> None:
    """Seed 000, Ferrante of Aragon and Cesare Borgia: "Каждый из этих тайлов позволяет Вам держать 1
    дополнительную карту Предательства выше нормального Лимита Руки. В паре эти тайлы могут
    использоваться совокупно"."""
    state = decade_one()
    grant(state, "a", HAND_LIMIT_TILES[0])
    on_top(state, "freeze-bid")
    assert hand_limit(state, "a") == HAND_LIMIT + 1
    give(state, "a", "veto", "veto")
    third = finish_turn(act(state, "a", "buy card"))
    assert len(third.players["a"].cards) == 3 and third.phase == "action"
    grant(state, "a", HAND_LIMIT_TILES[1])
    assert hand_limit(state, "a") == HAND_LIMIT + 2
    grant(state, "b", *HAND_LIMIT_TILES)
    assert hand_limit(state, "b") == 3 + 2, "added to Malatesta's 3"
    give(state, "a", "veto", "veto", "veto", "veto")
    fifth = act(state, "a", "buy card")
    assert fifth.phase == "follow-up" and "hand limit of 4" in RULES.demands(fifth)[0].prompt


# --- Merchant tiles and the Wine Merchant -------------------------------------------------------------------
def test_each_wine_merchant_adds_a_gold_of_income_and_a_vp_per_merchant_city_tile() -> None:
    """Seed 000, Wine Merchant: "Каждый Городской тайл, который Вы имеете со словом «Торговец»
    ("Merchant") в титуле, будет зарабатывать 1 дополнительное Золото, каждое Десятилетие, и стоить 1
    ПО в Конце Игры. Эффект этих тайлов совокупный"."""
    state = decade_one()
    merchants = [t.id for t in state.components.city_tiles if t.merchant and t.city in ("milan", "naples")]
    grant(state, "a", *merchants)
    plain = copy.deepcopy(state)
    state.players["a"].events = ["i-wine-merchant"]
    state.event_row.remove("i-wine-merchant")
    assert RULES.score(state)["a"]["wine merchants"] == len(merchants)
    assert RULES.score(plain)["a"]["wine merchants"] == 0
    state.players["a"].events.append("ii-wine-merchant")
    assert RULES.score(state)["a"]["wine merchants"] == 2 * len(merchants)
    ended, ended_plain = end_decade(with_active(state, "b")), end_decade(with_active(plain, "b"))
    assert ended.players["a"].gold - ended_plain.players["a"].gold == 2 * len(merchants)


# --- once a decade, in the view -----------------------------------------------------------------------------
def test_once_a_decade_powers_show_as_spent_until_the_decades_end() -> None:
    """Seed 000, Важные Правила: "Игрок, который использует эффект Городского тайла 'Один раз за
    Десятилетие' ..., должен повернуть его на 90 градусов ... В начале нового Десятилетия, обновите
    все Городские тайлы"."""
    state = with_active(decade_one(), "b")
    grant(state, "b", BANKER, LUCREZIA, FREE_CARD_TILES[0])
    for text in ("bank 1 gold", f"use {LUCREZIA} a", f"use {FREE_CARD_TILES[0]}", "use malatesta"):
        state = act(state, "b", text)
    assert sorted(spent(state, "b")) == sorted(
        ["Banker", "Lucrezia Borgia", "Alfonso of Aragon", "Malatesta's free card"]
    )
    assert spent(state, "a") == []
    later = end_decade(state)
    assert later.decade == 2 and spent(later, "b") == []


@pytest.mark.parametrize(
    ("card", "name"),
    [
        ("veto", "veto"),
        ("bad-weather venice", "bad weather"),
        ("start-war venice milan", "start war"),
        ("bribe-troops b infantry", "bribe troops"),
    ],
)
def test_a_card_played_in_an_auction_is_refused_naming_its_timing(card: str, name: str) -> None:
    """Seed 000, "Описание карт Предательства": Veto and Bad Weather are played when a war is declared,
    Start War "В конце Вашего Хода", Bribe Troops "после того, как Кондотьеров назначили". The
    refusal in an auction should say so, as it does on one's turn ("cannot be played now: ...")."""
    state = decade_one()
    state.players["b"].troops = ["infantry"]
    give(state, "a", card.split(maxsplit=1)[0])
    auction = in_auction(with_active(state, "d"), "d")
    assert to_act(auction) == "a"
    message = refused(auction, "a", f"play {card}", "")
    assert name in message.lower().replace("-", " "), message
