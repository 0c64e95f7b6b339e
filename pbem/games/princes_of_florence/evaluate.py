"""How a Princes of Florence position is likely to end, for the computer's playouts cut short:
the prestige points as the final scoring would count them now, plus what florins are still worth
(they buy buildings, landscapes and works that bring prestige; at the end they bring none)."""

from __future__ import annotations

from typing import Any

from pbem.games.princes_of_florence.rules import RULES
from pbem.kit.computer.estimate import Estimate, lead_chance
from pbem.kit.computer.walk import points

FLORIN = 1 / 400  # prestige points a florin is likely still worth
SCALE = 4.0  # points of lead that make about three to one


def chance(state: Any, seat: str) -> float:
    rows = RULES.score(state)
    worth = {other: points(row) + FLORIN * row.get("florins", 0) for other, row in rows.items()}
    return lead_chance(worth, seat, SCALE)


# No prior: a building, a landscape or a work costs florins now and brings its prestige only
# later, so the position one move on would call every purchase a loss (with the prior the
# computer won 0.67 of its games against uniform random players, against 1.0 without).
ESTIMATE = Estimate(chance, horizon=40, prior=0)
