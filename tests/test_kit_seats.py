"""Seats around the table, clockwise (pbem/kit/seats.py)."""

from __future__ import annotations

from pbem.kit.auction import Auction
from pbem.kit.seats import FollowUp, after, clockwise, first, owed, turn_refusal, whose_turn, without

ORDER = ("a", "b", "c", "d")


def test_after_is_the_next_seat_clockwise_and_wraps_round() -> None:
    assert after(ORDER, "b") == "c"
    assert after(ORDER, "d") == "a"


def test_after_among_skips_the_seats_left_out_and_is_blank_when_none_is_left() -> None:
    assert after(ORDER, "a", ("c", "d")) == "c"
    assert after(ORDER, "d", ("b",)) == "b"
    assert after(ORDER, "b", ("b",)) == "b", "the seat itself comes round last"
    assert after(ORDER, "b", ()) == ""


def test_clockwise_gives_every_seat_once_from_the_first() -> None:
    assert clockwise(ORDER, "c") == ("c", "d", "a", "b")


def test_the_follow_up_asked_is_the_first_owed() -> None:
    queue = (FollowUp("b", "place", "forest"), FollowUp("a", "keep"))
    assert first(queue) == FollowUp("b", "place", "forest")
    assert first(()) is None


def test_owed_finds_a_seats_own_follow_up_of_a_kind() -> None:
    queue = (FollowUp("a", "return"), FollowUp("b", "keep", "bonus"), FollowUp("b", "return"))
    assert owed(queue, "b") == FollowUp("b", "keep", "bonus")
    assert owed(queue, "b", "return") == FollowUp("b", "return")
    assert owed(queue, "c") is None and owed(queue, "a", "keep") is None


def test_without_removes_only_the_follow_up_answered() -> None:
    queue = (FollowUp("a", "return"), FollowUp("b", "return"), FollowUp("a", "return"))
    assert without(queue, FollowUp("a", "return")) == (FollowUp("b", "return"), FollowUp("a", "return"))
    assert without(queue, FollowUp("b", "return")) == (FollowUp("a", "return"), FollowUp("a", "return"))


def test_whose_turn_asks_the_first_follow_up_before_the_auction() -> None:
    auction = Auction("lot", ORDER, turn="c")
    assert whose_turn((FollowUp("b", "place"), FollowUp("a", "keep")), auction) == ("b",)
    assert whose_turn((), auction) == ("c",)
    assert whose_turn((), None) == ()


def test_a_move_out_of_turn_is_refused_naming_who_is_asked() -> None:
    assert turn_refusal("a", ("a",), "a card is being dealt") is None
    assert turn_refusal("a", ("b", "c"), "a card is being dealt") == "it is not a's turn: b, c to move"
    assert turn_refusal("a", (), "a card is being dealt") == (
        "it is not a's turn: nobody (a card is being dealt) to move"
    )
