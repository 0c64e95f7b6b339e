"""Seats around the table, clockwise (pbem/kit/seats.py)."""

from __future__ import annotations

from pbem.kit.seats import after, clockwise

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
