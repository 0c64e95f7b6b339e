"""A game's own estimate of how a position will end, for the computer's playouts cut short: a
playout that plays on at random to the end spends most of its time far from the position
searched, where random moves say little; one cut after the game's ``horizon`` and judged by what
the game knows of its worth (points as they stand, and what money and cards will likely become)
costs a fraction of it and varies less. A game declares one in its package (``evaluate.py``,
``ESTIMATE``); without it a playout goes on to the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Playouts' worth of the estimate one move on that each of the search's root moves starts with
# (progressive bias): a budget of a few dozen random playouts spread over a dozen moves leaves each
# a handful of games in which every seat squanders its money at random, too few to tell a sound
# bid from a ruinous one; the estimate decides until the playouts say otherwise.
PRIOR = 30


@dataclass(frozen=True)
class Estimate:
    """``chance(state, seat)``: the seat's chance of winning from ``state``, in [0, 1];
    ``horizon``: the moves a playout makes before it is judged so; ``prior``: the playouts'
    worth of the estimate one move on each of the root's moves starts with (0 where a move's
    worth shows only later: a purchase whose points come rounds on)."""

    chance: Callable[[Any, str], float]
    horizon: int
    prior: int = PRIOR


def lead_chance(worth: Mapping[str, float], seat: str, scale: float) -> float:
    """A seat's chance of winning, from each seat's estimated worth: even (1/2) when level with
    the best of the others, nearer 1 the further ahead, nearer 0 the further behind, ``scale``
    points of lead making about three to one."""
    best_other = max((value for other, value in worth.items() if other != seat), default=0.0)
    return 1.0 / (1.0 + math.exp(-(worth[seat] - best_other) / scale))
