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


@dataclass(frozen=True)
class Estimate:
    """``chance(state, seat)``: the seat's chance of winning from ``state``, in [0, 1];
    ``horizon``: the moves a playout makes before it is judged so."""

    chance: Callable[[Any, str], float]
    horizon: int


def lead_chance(worth: Mapping[str, float], seat: str, scale: float) -> float:
    """A seat's chance of winning, from each seat's estimated worth: even (1/2) when level with
    the best of the others, nearer 1 the further ahead, nearer 0 the further behind, ``scale``
    points of lead making about three to one."""
    best_other = max((value for other, value in worth.items() if other != seat), default=0.0)
    return 1.0 / (1.0 + math.exp(-(worth[seat] - best_other) / scale))
