"""How an Il Principe position is likely to end, for the computer's playouts cut short: the
points as the final scoring would count them now, plus what ducats and cards in hand are still
worth (a city costs 3 to 5 ducats and the cards of its colours, and brings 4 to 8 points and its
region's majority).

Money is worth what it will still buy: less than a city brings for its ducats and cards (else
hoarding them beats building, and a seat with 26 ducats and 15 cards builds nothing), and less
and less as the end nears (at the end they bring only the majorities the scoring already counts).
"""

from __future__ import annotations

from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.state import Game
from pbem.games.il_principe.view import breakdown
from pbem.kit.computer.estimate import Estimate, lead_chance

DUCAT = 0.9  # points a ducat is likely still worth, with rounds enough left to spend it
CARD = 0.5  # points a card in hand is likely still worth, so
# A city a seat could pay for with its ducats and cards (about 4 ducats and 3 cards a city): worth
# more than its ducats and cards apart, less than the city built (4 to 8 points and its shields).
CITY = 1.5
CITY_DUCATS, CITY_CARDS = 4, 3
ROUNDS = 3  # rounds left from which money keeps all its worth
LAST = 0.1  # the share of it money keeps in the last round
SCALE = 4.0  # points of lead that make about three to one


def chance(state: Game, seat: str) -> float:
    rows = breakdown(state)
    kept = still_worth(state)
    worth = {}
    for player in state.players:
        ducats, cards = player.ducats, player.hand_size
        auction = state.auction
        # The leader of an auction as good as pays for the lot already: a bid is judged by what
        # it costs against what it brings, not left unseen until the others have all passed.
        if auction is not None and auction.leader == player.seat and auction.lot in COLOURS:
            ducats -= auction.price
            cards += state.reserve[COLOURS.index(auction.lot)]
        money = DUCAT * ducats + CARD * cards + CITY * min(ducats // CITY_DUCATS, cards // CITY_CARDS)
        worth[player.seat] = rows[player.seat]["total"] + kept * money
    return lead_chance(worth, seat, SCALE)


def still_worth(state: Game) -> float:
    """The share of their worth ducats and cards keep: all of it with ``ROUNDS`` rounds or more
    to go (the pile falls by every seat's draw a round, and the game's last round begins once it
    is below the rules' threshold), less as the end nears."""
    if state.last_round:
        return LAST
    rules = state.settings.rules
    rounds_left = 1 + max(0, state.deck - rules.threshold) / (rules.draw * len(state.seats))
    return max(LAST, min(1.0, rounds_left / ROUNDS))


ESTIMATE = Estimate(chance, horizon=60)
