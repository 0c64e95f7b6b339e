"""How a Princes of the Renaissance position is likely to end, for the computer's playouts cut
short: the victory points as the final scoring would count them now, plus what gold and
influence are still worth (they buy the city tiles, troops and cards that bring points).

A bid not yet paid counts as paid, and the lot its leader stands to win as won: a bid is judged
by what it costs against what it brings when it is made, not only once every other seat has
passed (a search of a few dozen playouts seldom sees that far, and then through random bids)."""

from __future__ import annotations

from typing import Any

from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.scoring import city_values
from pbem.games.princes_of_the_renaissance.state import BID_STEP, FAMILY_BIDDING, FAMILY_CHOICE, Game
from pbem.kit.computer.estimate import Estimate, lead_chance
from pbem.kit.computer.walk import points

WEALTH = 0.35  # points a gold or an influence is likely still worth
EVENT = 2.0  # points an Event tile that brings none at the end is likely still worth
SCALE = 3.0  # points of lead that make about three to one
OPENING = (BID_STEP, FAMILY_BIDDING, FAMILY_CHOICE)  # the phases whose bids are paid at their end


def chance(state: Any, seat: str) -> float:
    rows = RULES.score(state)
    worth = {
        other: points(row)
        + WEALTH * (row.get("gold + influence", 0) - owed(state, other))
        + lot(state, other)
        for other, row in rows.items()
    }
    return lead_chance(worth, seat, SCALE)


def owed(state: Game, seat: str) -> int:
    """What ``seat`` has bid and not yet paid: the opening's bid (every bid is paid once the
    families are all taken), or the price of the auction it leads."""
    if state.phase in OPENING and state.turn_order == "bid":
        return state.players[seat].bid or 0
    auction = state.auction
    if auction is not None and auction.leader == seat and auction.lot.kind in ("city", "event", "pope"):
        return auction.price
    return 0


def lot(state: Game, seat: str) -> float:
    """The points the lot ``seat`` leads the auction of would bring it as things stand."""
    auction = state.auction
    if auction is None or auction.leader != seat:
        return 0.0
    parts, sold = state.components, auction.lot
    if sold.kind == "city":
        return float(city_values(state.status, state.artists, state.ranking)[parts.city_tile(sold.tile).city])
    if sold.kind == "event":
        event = parts.event(sold.tile)
        return float(event.value) if event.kind == "vp" else EVENT
    if sold.kind == "pope":
        return float(parts.pope.vp)
    return 0.0


ESTIMATE = Estimate(chance, horizon=30)
