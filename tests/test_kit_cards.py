"""Hidden cards over the engine's deck protocol (pbem/kit/cards.py): the draws a state waits for,
the cards shown face up, the cards only their holder can read, and what a move does with them."""

from __future__ import annotations

import pytest

from pbem.engine.ruleset import CardUse, DrawRequest
from pbem.kit.cards import (
    answered,
    bottoms,
    dealing,
    dealing_face_up,
    deck_of,
    discards,
    draws,
    hidden,
    name,
    reveals,
    showing,
    with_shown,
)


def test_draws_are_the_engines_own_requests_one_per_card() -> None:
    assert draws("profession", "anna", 2) == (DrawRequest("profession", "anna"),) * 2
    assert draws("building", "bo", face_up=True) == (DrawRequest("building", "bo", face_up=True),)
    assert draws("bonus", "anna", 0) == ()


def test_the_engine_answers_the_oldest_draw_first_and_an_answer_out_of_order_is_caught() -> None:
    pending = (*draws("profession", "anna"), *draws("bonus", "bo", 2))
    assert answered(pending, DrawRequest("profession", "anna")) == draws("bonus", "bo", 2)
    with pytest.raises(AssertionError):
        answered(pending, DrawRequest("bonus", "bo"))
    with pytest.raises(AssertionError):
        answered((), DrawRequest("bonus", "bo"))


def test_cards_being_dealt_to_a_hand_count_for_its_seat_and_cards_turned_up_for_nobody() -> None:
    pending = (*draws("d", "anna", 2), *draws("d", "bo"), *draws("d", "anna", 3, face_up=True))
    assert (dealing(pending, "anna"), dealing(pending, "bo"), dealing(pending, "cy")) == (2, 1, 0)
    assert dealing_face_up(pending)
    assert not dealing_face_up(pending[:3])


def test_a_card_shown_is_known_by_name_and_the_shown_cards_before_are_left_as_they_were() -> None:
    before = {"d:1": "painter"}
    after = with_shown(before, "d:2", "builder")
    assert after == {"d:1": "painter", "d:2": "builder"}
    assert before == {"d:1": "painter"}, "a state before the reveal keeps what it knew"
    assert (name(after, "d:2"), name(after, "d:3")) == ("builder", "d:3")


def test_hidden_cards_are_those_not_shown_and_showing_finds_a_card_by_name() -> None:
    shown = {"d:1": "painter", "d:3": "painter", "d:4": "builder"}
    assert hidden(["d:1", "d:2", "d:5"], shown) == ["d:2", "d:5"]
    assert showing(["d:1", "d:2", "d:3", "d:4"], shown, "painter") == ["d:1", "d:3"]
    assert showing(["d:2"], shown, "painter") == []


def test_a_card_use_names_the_tokens_deck_or_the_deck_the_move_names() -> None:
    assert deck_of("profession:7") == "profession"
    assert reveals(["bonus:1"]) == [CardUse("reveal", "bonus", token="bonus:1")]
    # a token typed for another deck keeps the deck the move names: the engine refuses it there
    assert reveals(["bonus:1"], deck_id="prestige") == [CardUse("reveal", "prestige", token="bonus:1")]
    assert bottoms(["a:2", "a:1"]) == [
        CardUse("bottom", "a", token="a:2"),
        CardUse("bottom", "a", token="a:1"),
    ]
    assert bottoms(["x:1"], "a") == [CardUse("bottom", "a", token="x:1")]


def test_a_card_face_up_already_is_neither_shown_again_nor_discarded_through_the_engine() -> None:
    shown = {"a:1": "steal"}
    assert reveals(["a:1", "a:2"], shown) == [CardUse("reveal", "a", token="a:2")]
    assert discards(["a:1", "a:2"], shown) == [CardUse("discard", "a", token="a:2")]
    assert discards(["a:1"], shown, "a") == []


def test_a_games_pending_draws_are_what_the_engine_is_asked_and_each_answer_takes_the_oldest() -> None:
    from pbem.games.princes_of_florence.rules import RULES
    from tests.games.princes_of_florence.support import new_game

    game = new_game(("anna", "bo"))
    requests = RULES.draw_requests(game)
    assert requests == [*draws("profession", "anna", 4), *draws("profession", "bo", 4)]
    with pytest.raises(AssertionError):
        RULES.card_drawn(game, requests[-1], "profession:9")  # bo's card before anna's are dealt
    dealt = RULES.card_drawn(game, requests[0], "profession:9")
    assert RULES.draw_requests(dealt) == requests[1:]
    assert dealt.player("anna").hand == ("profession:9",)
    assert RULES.draw_requests(game) == requests, "the state before the answer is left as it was"
