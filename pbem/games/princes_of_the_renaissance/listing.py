"""Runs of legal moves, each kept with its text: after every move the engine, a computer player's
walk and a random game list every move the seat asked may make, hundreds in an action (every
opening bid for every tile on offer, every war), and most of them are the same runs again. A run
is built from its values once, so neither its moves nor their text is made anew each time.

A run is the moves and their texts (``said``), never changed, and the part of them it lists
(``start`` to ``stop``): the listing of legal moves chains the runs' moves or their texts, and so
lists the same moves in both, and only the chaining copies them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from threading import Lock
from typing import Any

from pbem.games.princes_of_the_renaissance.moves import Move, Nominate
from pbem.kit.grammar import Bid

Run = tuple[Sequence[Move], Sequence[str], int, int]

# The values a run is built from are few in a game (amounts, tiles, seats, cities) but not bounded
# across the games a long-lived process plays: the oldest runs are let go.
_KEPT = 1 << 12


def run(moves: Iterable[Move]) -> Run:
    """``moves`` with their texts."""
    found = tuple(moves)
    return found, tuple(move.said() for move in found), 0, len(found)


@lru_cache(maxsize=_KEPT)
def one(kind: Callable[..., Move], *fields: Any) -> Run:
    """The one move ``kind(*fields)``."""
    return run((kind(*fields),))


class Ladder:
    """``make(n)`` for every n from 0 up (``moves``), with its text (``texts``), made as far up as
    asked so far and only ever appended to: the runs of amounts (every bid from the lowest allowed
    to the most a seat can pay) are its parts, which a seat's gold moves from move to move."""

    def __init__(self, make: Callable[[int], Move]) -> None:
        self.make = make
        self.moves: list[Move] = []
        self.texts: list[str] = []
        self._growing = Lock()  # one thread grows it at a time (a web server lists for many)

    def part(self, low: int, high: int) -> Run:
        """The moves from ``low`` to ``high``, lowest first (none when ``high`` is below ``low``)."""
        if low < 0:  # a negative amount is no index: made anew (the rules never ask for one)
            return run(self.make(amount) for amount in range(low, high + 1))
        if len(self.moves) <= high:
            with self._growing:
                while len(self.moves) <= high:
                    move = self.make(len(self.moves))
                    # the text first: whoever reads as far as ``moves`` reaches finds its texts
                    self.texts.append(move.said())
                    self.moves.append(move)
        return self.moves, self.texts, low, high + 1


_BIDS = Ladder(Bid)


def bids(low: int, high: int) -> Run:
    """Every bid from ``low`` to ``high``, lowest first (none when ``high`` is below ``low``)."""
    return _BIDS.part(low, high)


@lru_cache(maxsize=_KEPT)
def nominations(tile: str) -> Ladder:
    """``tile`` put up for auction at every opening bid: its parts are the runs of an action's
    listing (``Ladder.part``, or read straight from ``moves`` and ``texts`` where they reach)."""
    return Ladder(partial(Nominate, tile))


def texts(runs: Iterable[Run]) -> list[str]:
    """The texts of every move of ``runs``, in order."""
    found: list[str] = []
    for _, said, start, stop in runs:
        found += said[start:stop]
    return found


def moves(runs: Iterable[Run]) -> list[Move]:
    """Every move of ``runs``, in order."""
    found: list[Move] = []
    for listed, _, start, stop in runs:
        found += listed[start:stop]
    return found
