"""Gold and influence change hands: seed 000, "Общие правила": «В любой момент во время игры игроки
могут вести переговоры. Между собой игроки могут обмениваться ТОЛЬКО Золотом и Влиянием»
(at any moment of the game players may negotiate; between themselves they may exchange ONLY gold
and influence). ``give N gold|influence to SEAT`` is a free move: made on anyone's turn, it never
changes whose turn it is.
"""

from __future__ import annotations

import copy
from functools import partial

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.support import COMPONENTS, SEATS, act, to_act, with_active

GAME_ID = "9c" * 16
FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "montefeltro", "d": "este"}
GOLD_EVENT = "i-victory-2"  # a decade I VP tile bid for in gold
GONZAGA_GOLD_DISCOUNT = 2  # seed 000, Gonzaga: «скидку в 2 Золотых» on auctions in gold

decade_one = partial(potr_support.decade_one, game_id=GAME_ID, families=FAMILIES)


def give(state: Game, seat: str, text: str) -> Game:
    """A gift as the engine makes it: listed among the seat's free moves, checked, applied."""
    assert text in RULES.free_moves(state, seat), (seat, text)
    move = RULES.parse(text)
    assert RULES.is_free(move) and RULES.format(move) == text
    RULES.check(state, seat, move)
    before = copy.deepcopy(state)
    after = RULES.apply(state, seat, move)
    assert state == before, "apply must not change the state it is given"
    return after


def refused(state: Game, seat: str, text: str, phrase: str) -> None:
    before = copy.deepcopy(state)
    move = RULES.parse(text)
    with pytest.raises(IllegalMoveError) as caught:
        RULES.check(state, seat, move)
    message = str(caught.value)
    assert phrase in message and "\n" not in message, message
    assert text not in RULES.free_moves(state, seat)
    assert state == before


def purse(state: Game, seat: str) -> tuple[int, int]:
    return state.players[seat].gold, state.players[seat].influence


def test_a_gift_moves_gold_or_influence_on_anyones_turn_and_keeps_the_turn() -> None:
    state = decade_one()
    assert to_act(state) == "a"
    after = give(state, "c", "give 5 gold to b")
    after = give(after, "c", "give 3 influence to d")
    assert purse(after, "c") == (purse(state, "c")[0] - 5, purse(state, "c")[1] - 3)
    assert purse(after, "b")[0] == purse(state, "b")[0] + 5
    assert purse(after, "d")[1] == purse(state, "d")[1] + 3
    total = sum(sum(purse(after, seat)) for seat in SEATS)
    assert total == sum(sum(purse(state, seat)) for seat in SEATS), "nothing made or lost"
    assert to_act(after) == "a" and after.phase == "action", "a gift is no action"
    assert "c gives 5 gold to b" in after.events
    assert not any(text.startswith("give ") for text in RULES.legal_moves(after, "a")), (
        "gifts are free moves, not one of the turn's choices"
    )


def test_only_what_one_holds_and_never_to_oneself() -> None:
    state = decade_one()
    gold, influence = purse(state, "b")
    refused(state, "b", f"give {gold + 1} gold to a", f"b has {gold} gold")
    refused(state, "b", f"give {influence + 1} influence to a", f"b has {influence} influence")
    refused(state, "b", "give 1 gold to b", "cannot give to themselves")
    refused(state, "b", "give 0 gold to a", "give at least 1")
    refused(state, "b", "give 1 gold to zed", "no player 'zed'")
    give(state, "b", f"give {gold} gold to a")
    listed = RULES.free_moves(state, "b")
    assert f"give {gold} gold to a" in listed and f"give {gold + 1} gold to a" not in listed


def test_the_leader_of_an_auction_keeps_what_its_bid_will_cost() -> None:
    """A bid is paid when the auction ends («Оставшийся участник торгов платит своё заключительное
    предложение Золотом»): its leader may not give that away first. a (Gonzaga) leads a gold
    auction at 10, so must keep 10 less its discount of 2."""
    state = decade_one()
    state.players["a"].gold = 12
    auction = act(with_active(state, "a"), "a", f"auction {GOLD_EVENT} 10")
    kept = 10 - GONZAGA_GOLD_DISCOUNT
    refused(auction, "a", "give 5 gold to b", f"a must keep {kept} gold for the bid it has made")
    after = give(auction, "a", f"give {12 - kept} gold to b")
    give(after, "a", "give 1 influence to b")  # an auction in gold binds no influence
    give(auction, "b", "give 1 gold to a")  # b leads nothing


def test_no_gold_changes_hands_while_turn_order_bids_are_sealed() -> None:
    """Nobody but the bidder knows a sealed bid, so gold that could leave it unpaid does not move
    until the bids are revealed; influence does."""
    state = RULES.setup(SEATS, "2016", {"turn_order": "bid", "family_side": "a"}, COMPONENTS["2016"])
    for request in RULES.random_requests(state):
        state = RULES.resolve(state, request.context, potr_support.draws(GAME_ID, request.context, SEATS))
    assert state.phase == "turn-order bid"
    refused(state, "a", "give 1 gold to b", "gold does not change hands while the sealed turn-order bids")
    after = give(state, "a", "give 2 influence to b")
    assert purse(after, "b")[1] == purse(state, "b")[1] + 2


def test_in_the_family_bidding_a_bid_on_the_table_stays_payable() -> None:
    """All bids are paid once the families are chosen («Верните все Золото, которое было предложено
    игроками в качестве ставок в Запас»)."""
    state = RULES.setup(SEATS, "2016", {"turn_order": "bid", "family_side": "a"}, COMPONENTS["2016"])
    for request in RULES.random_requests(state):
        state = RULES.resolve(state, request.context, potr_support.draws(GAME_ID, request.context, SEATS))
    for rank, seat in enumerate(SEATS):
        state = RULES.apply(state, seat, RULES.parse(f"bid {40 - rank}"))
    for request in RULES.random_requests(state):  # the tie-break, asked once every bid is in
        state = RULES.resolve(state, request.context, potr_support.draws(GAME_ID, request.context, SEATS))
    assert state.phase == "family bidding"
    gold = state.players["a"].gold
    refused(state, "a", f"give {gold - 39} gold to b", "a must keep 40 gold for the bid it has made")
    give(state, "a", f"give {gold - 40} gold to b")


def test_once_the_last_income_is_paid_gold_and_influence_stay_put() -> None:
    state = decade_one()
    over = copy.deepcopy(state)
    over.ended = True
    refused(over, "a", "give 1 gold to b", "the game is over")
    assert RULES.free_moves(over, "a") == []
    over.phase = "game over"
    refused(over, "a", "give 1 influence to b", "the game is over")


def test_give_reads_and_writes_one_form() -> None:
    move = RULES.parse("  Give 7 Influence to B ")
    assert RULES.format(move) == "give 7 influence to b"
    for text in ("give 7 florins to b", "give seven gold to b", "give 7 gold b", "give 7 gold to"):
        with pytest.raises(MoveSyntaxError, match="give N gold to SEAT"):
            RULES.parse(text)
