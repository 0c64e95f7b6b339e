"""Runs of legal moves, each kept with its text: after every move the engine, a computer player's
walk and a random game list every move the seat asked may make, hundreds in an action (every
opening bid for every tile on offer, every war), and most of them are the same runs again. A run
is built from its values once, so neither its moves nor their text is made anew each time.

A run is a pair of tuples, the moves and their texts (``said``), never changed: the listing of
legal moves chains the runs' moves or their texts, and so lists the same moves in both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from pbem.games.princes_of_the_renaissance.moves import Move, Nominate
from pbem.kit.grammar import Bid

Run = tuple[tuple[Move, ...], tuple[str, ...]]

# The values a run is built from are few in a game (amounts, tiles, seats, cities) but not bounded
# across the games a long-lived process plays: the oldest runs are let go.
_KEPT = 1 << 12


def run(moves: Iterable[Move]) -> Run:
    """``moves`` with their texts."""
    found = tuple(moves)
    return found, tuple(move.said() for move in found)


@lru_cache(maxsize=_KEPT)
def one(kind: Callable[..., Move], *fields: Any) -> Run:
    """The one move ``kind(*fields)``."""
    return run((kind(*fields),))


@lru_cache(maxsize=_KEPT)
def bids(low: int, high: int) -> Run:
    """Every bid from ``low`` to ``high``, lowest first (none when ``high`` is below ``low``)."""
    return run(Bid(amount) for amount in range(low, high + 1))


@lru_cache(maxsize=_KEPT)
def nominations(tile: str, low: int, high: int) -> Run:
    """``tile`` put up at every opening bid from ``low`` to ``high``, lowest first."""
    return run(Nominate(tile, bid) for bid in range(low, high + 1))


def texts(runs: Iterable[Run]) -> list[str]:
    """The texts of every move of ``runs``, in order."""
    found: list[str] = []
    for _, said in runs:
        found.extend(said)
    return found


def moves(runs: Iterable[Run]) -> list[Move]:
    """Every move of ``runs``, in order."""
    found: list[Move] = []
    for listed, _ in runs:
        found.extend(listed)
    return found
