"""Seats around a table: who sits next clockwise, and the follow-ups, the choices single seats
owe before play moves on, first owed first asked."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


def after(order: Sequence[str], seat: str, among: Collection[str] | None = None) -> str:
    """The first seat clockwise from ``seat`` (``order`` is the seats clockwise) that is in
    ``among`` (every seat if None); ``seat`` itself only once every other seat is left out, and
    "" when none is in ``among``."""
    start = order.index(seat)
    for step in range(1, len(order) + 1):
        other = order[(start + step) % len(order)]
        if among is None or other in among:
            return other
    return ""


def clockwise(order: Sequence[str], first: str) -> tuple[str, ...]:
    """Every seat once, clockwise from ``first``."""
    start = order.index(first)
    return tuple(order[(start + step) % len(order)] for step in range(len(order)))


@dataclass(frozen=True)
class FollowUp:
    """A choice ``seat`` owes before play moves on: place a tile won, keep a card drawn, ..."""

    seat: str
    kind: str
    what: str = ""  # what it is about: a tile, a role, a deck, a value, cards or cities named
    tokens: tuple[str, ...] = ()  # the hidden-deck cards it is about


def first(queue: Sequence[FollowUp]) -> FollowUp | None:
    """The follow-up asked now: the one owed first, or None."""
    return queue[0] if queue else None


def owed(queue: Sequence[FollowUp], seat: str, kind: str | None = None) -> FollowUp | None:
    """The first follow-up ``seat`` owes (of ``kind``, if given), or None; for follow-ups owed
    all at once, when each seat answers its own."""
    return next((due for due in queue if due.seat == seat and kind in (None, due.kind)), None)


def without(queue: Sequence[FollowUp], due: FollowUp) -> tuple[FollowUp, ...]:
    """The queue once ``due`` (its first occurrence) is answered."""
    index = list(queue).index(due)
    return (*queue[:index], *queue[index + 1 :])
