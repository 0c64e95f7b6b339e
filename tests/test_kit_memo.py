"""``kit.memo.by_identity`` gives what its function gives: found again for the same object, worked
out anew for another object, even an equal one, and for an object whose ``id`` a forgotten one had."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.kit.memo import by_identity


@dataclass(frozen=True)
class Value:
    number: int


def counted() -> tuple[list[Value], Callable[[Value], int]]:
    asked: list[Value] = []

    def double(value: Value) -> int:
        asked.append(value)
        return 2 * value.number

    return asked, by_identity(double, size=2)


def test_the_same_object_is_worked_out_once() -> None:
    asked, double = counted()
    value = Value(3)
    assert double(value) == 6
    assert double(value) == 6
    assert asked == [value]


def test_an_equal_object_is_worked_out_again() -> None:
    asked, double = counted()
    first, second = Value(3), Value(3)
    assert double(first) == double(second) == 6
    assert len(asked) == 2 and asked[0] is first and asked[1] is second


def test_results_are_forgotten_once_full_and_found_again() -> None:
    asked, double = counted()
    values = [Value(number) for number in range(5)]
    assert [double(value) for value in values] == [0, 2, 4, 6, 8]
    assert [double(value) for value in values] == [0, 2, 4, 6, 8]
    assert len(asked) > len(values)  # two at most are remembered


def test_an_id_reused_by_a_new_object_is_not_mistaken_for_the_old() -> None:
    _, double = counted()
    for number in range(50):  # objects made and dropped: CPython hands their ids out again
        assert double(Value(number)) == 2 * number
