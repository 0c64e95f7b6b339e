"""How an Il Principe position is likely to end, for the computer's playouts cut short: the
points as the final scoring would count them now, plus what ducats and cards in hand are still
worth (a city costs 3 to 5 ducats and the cards of its colours, and brings 4 to 8 points and its
region's majority)."""

from __future__ import annotations

from pbem.games.il_principe.state import Game
from pbem.games.il_principe.view import breakdown
from pbem.kit.computer.estimate import Estimate, lead_chance

DUCAT = 0.3  # points a ducat is likely still worth
CARD = 0.5  # points a card in hand is likely still worth
SCALE = 4.0  # points of lead that make about three to one


def chance(state: Game, seat: str) -> float:
    rows = breakdown(state)
    worth = {
        player.seat: rows[player.seat]["total"] + DUCAT * player.ducats + CARD * player.hand_size
        for player in state.players
    }
    return lead_chance(worth, seat, SCALE)


ESTIMATE = Estimate(chance, horizon=60)
