"""``kit.frozen.evolve`` is ``dataclasses.replace``: the same value, the same refusals, and
``replace`` itself wherever a plain copy of the instance would not be the same."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, InitVar, dataclass, field, replace
from functools import cached_property
from typing import Any, Generic, TypeVar

import pytest

from pbem.kit.frozen import evolve

T = TypeVar("T")


@dataclass(frozen=True)
class Plain:
    number: int
    words: tuple[str, ...] = ()
    table: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Checked:
    number: int

    def __post_init__(self) -> None:
        if self.number < 0:
            raise ValueError("no negative number")


@dataclass(frozen=True)
class Derived:
    number: int
    double: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.number)


@dataclass(frozen=True)
class Seeded:
    number: int
    seed: InitVar[int]


@dataclass(frozen=True)
class Doubled:
    number: int

    def __init__(self, number: int) -> None:
        object.__setattr__(self, "number", 2 * number)


@dataclass(frozen=True)
class Cached:
    number: int

    @cached_property
    def square(self) -> int:
        return self.number * self.number


@dataclass(frozen=True, slots=True)
class Slotted:
    number: int


@dataclass
class Mutable:
    number: int


@dataclass(frozen=True)
class Held(Generic[T]):
    value: T


def test_the_same_value_as_replace() -> None:
    before = Plain(1, ("a",), {"x": 1})
    after = evolve(before, number=2, words=("b", "c"))
    assert after == replace(before, number=2, words=("b", "c")) == Plain(2, ("b", "c"), {"x": 1})
    assert type(after) is Plain
    assert before == Plain(1, ("a",), {"x": 1})  # the original is left as it was
    assert evolve(before) == before and evolve(before) is not before
    with pytest.raises(FrozenInstanceError):
        after.number = 3  # type: ignore[misc]


def test_refusals_are_replaces() -> None:
    with pytest.raises(TypeError):
        evolve(Plain(1), colour=2)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="negative"):
        evolve(Checked(1), number=-1)
    with pytest.raises(ValueError, match="InitVar"):
        evolve(Seeded(1, 0), number=2)  # type: ignore[call-arg]


def test_what_is_not_a_plain_dataclass_is_replaced() -> None:
    assert evolve(Slotted(1), number=2) == Slotted(2)  # no instance dictionary to copy
    with pytest.raises(TypeError):
        evolve(Slotted(1), colour=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="dataclass"):
        evolve(3, number=2)  # type: ignore[type-var]


def test_what_init_derives_is_derived_again() -> None:
    assert evolve(Derived(1), number=4).double == 8
    assert evolve(Doubled(1), number=4).number == 8  # an __init__ written by hand


def test_a_plain_class_is_copied_not_replaced() -> None:
    """Where the copy is the same value, it is the fast one (the point of evolve)."""
    frozen = importlib.import_module("pbem.kit.frozen")
    plain = Plain(1)
    evolve(plain, number=2)
    assert frozen._FIELDS[Plain] == 3  # its fields, all the copy may hold
    assert evolve(Mutable(1), number=2) == Mutable(2)
    for kind in (Checked, Derived, Seeded, Doubled, Slotted, Mutable):
        assert frozen._FIELDS.get(kind, -1) == -1


def test_a_cached_property_is_not_carried_over() -> None:
    first = Cached(3)
    assert first.square == 9
    assert evolve(first, number=4).square == 16


def test_a_generic_alias_instance() -> None:
    held = Held[int](1)
    assert evolve(held, value=2) == Held(2)


def test_unhashable_fields_and_any_values() -> None:
    values: dict[str, Any] = {"number": 5, "table": {"y": 2}}
    assert evolve(Plain(1), **values) == Plain(5, (), {"y": 2})
