"""How a Princes of the Renaissance position is likely to end, for the computer's playouts cut
short: the victory points as the final scoring would count them now, plus what gold and
influence are still worth (they buy the city tiles, troops and cards that bring points)."""

from __future__ import annotations

from typing import Any

from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.kit.computer.estimate import Estimate, lead_chance
from pbem.kit.computer.walk import points

WEALTH = 0.35  # points a gold or an influence is likely still worth
SCALE = 3.0  # points of lead that make about three to one


def chance(state: Any, seat: str) -> float:
    rows = RULES.score(state)
    worth = {other: points(row) + WEALTH * row.get("gold + influence", 0) for other, row in rows.items()}
    return lead_chance(worth, seat, SCALE)


ESTIMATE = Estimate(chance, horizon=30)
