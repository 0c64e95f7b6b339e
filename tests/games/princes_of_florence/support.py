"""Playing Princes of Florence by email without the engine: a new game, and the shared dealer
(pbem/kit/dealer.py) that answers the rules' draws, shows cards and puts cards under their decks
as the engine would, from a deck order fixed by a seed.
"""

from __future__ import annotations

from typing import Any

from pbem import gamefile
from pbem.games.princes_of_florence.hands import HANDS
from pbem.games.princes_of_florence.rules import RULES
from pbem.games.princes_of_florence.state import Game
from pbem.kit import templates
from pbem.kit.dealer import Dealer

COMPONENTS: dict[str, Any] = templates.values(gamefile.shipped_template("princes-of-florence"))


def new_game(seats: tuple[str, ...], unofficial: bool = False) -> Game:
    options = {"unofficial_rules": unofficial, "deadline_days": 0}
    return RULES.setup(seats, "standard", options, COMPONENTS)


def dealer_for(game: Game, seed: int) -> Dealer[Game]:
    """The decks of ``game`` in an order fixed by ``seed`` (pbem/kit/dealer.py)."""
    return Dealer.of(RULES, HANDS).reset(game, seed)


def deal(game: Game, dealer: Dealer[Game]) -> Game:
    """The deal: each seat returns the card dealt last."""
    game = dealer.settle(game)
    for seat in game.seats:
        game = dealer.play(game, seat, f"return {game.player(seat).hand[-1]}")
    return game
