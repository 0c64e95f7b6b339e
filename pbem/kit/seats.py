"""Seats around a table: who sits next clockwise, whose turn it is, and the follow-ups, the
choices single seats owe before play moves on, first owed first asked."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from pbem.errors import IllegalMoveError


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


class Bidding(Protocol):
    """An auction, as far as whose turn it is goes (``pbem.kit.auction.Auction``)."""

    @property
    def turn(self) -> str: ...


def whose_turn(follow_ups: Sequence[FollowUp], auction: Bidding | None) -> tuple[str, ...]:
    """Who is asked before whatever the phase asks: the seat owing the first follow-up, else
    the seat whose turn it is in the auction running; () when neither."""
    due = first(follow_ups)
    if due is not None:
        return (due.seat,)
    return (auction.turn,) if auction is not None else ()


def turn_refusal(seat: str, asked: Sequence[str], nobody: str) -> str | None:
    """Why ``seat`` may not move now, or None: ``asked`` are the seats asked to move, and
    ``nobody`` says why none is (a card being dealt, say)."""
    if seat in asked:
        return None
    who = ", ".join(asked) if asked else f"nobody ({nobody})"
    return f"it is not {seat}'s turn: {who} to move"


def check_turn(seat: str, asked: Sequence[str], nobody: str) -> None:
    """Refuse a move of ``seat`` out of turn, saying why (``turn_refusal``)."""
    refusal = turn_refusal(seat, asked, nobody)
    if refusal:
        raise IllegalMoveError(refusal)


def move_step(round_: int, phase: str, follow_ups: Sequence[FollowUp], moves: int) -> str:
    """The name of a step in a game of rounds, unique in the game: the round, what is asked (the
    first follow-up owed, or else the phase) and the number of the move in it."""
    asked = follow_ups[0].kind if follow_ups else phase
    return f"round {round_} {asked} move {moves}"
