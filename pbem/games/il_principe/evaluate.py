"""How an Il Principe position is likely to end, for the computer's playouts cut short: the
points as the final scoring would count them now, plus what ducats and cards in hand are still
worth (a city costs 3 to 5 ducats and the cards of its colours, and brings 4 to 8 points and its
region's majority)."""

from __future__ import annotations

from pbem.games.il_principe.state import Game
from pbem.games.il_principe.view import breakdown
from pbem.kit.computer.estimate import Estimate, lead_chance

DUCAT = 1.5  # points a ducat is likely still worth
CARD = 0.6  # points a card in hand is likely still worth
# A city a seat could pay for with its ducats and cards (about 4 ducats and 3 cards a city): worth
# more than its ducats and cards apart, less than the city built (4 to 8 points and its shields).
CITY = 1.5
CITY_DUCATS, CITY_CARDS = 4, 3
SCALE = 4.0  # points of lead that make about three to one


def chance(state: Game, seat: str) -> float:
    rows = breakdown(state)
    worth = {
        player.seat: rows[player.seat]["total"]
        + DUCAT * player.ducats
        + CARD * player.hand_size
        + CITY * min(player.ducats // CITY_DUCATS, player.hand_size // CITY_CARDS)
        for player in state.players
    }
    return lead_chance(worth, seat, SCALE)


ESTIMATE = Estimate(chance, horizon=60)
