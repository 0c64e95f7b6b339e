"""Seats around a table: who sits next clockwise, and whose turn it is among those still asked."""

from __future__ import annotations

from collections.abc import Collection, Sequence


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
