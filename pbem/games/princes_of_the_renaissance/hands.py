"""What a Princes of the Renaissance state says of the Treachery cards each seat holds, which the
ruleset protocol does not ask: the dealer that stands in for the engine's deck at the rules level,
and a computer player's knowledge of a seat, read it (``pbem.kit.dealer.Hands``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.princes_of_the_renaissance import deck
from pbem.games.princes_of_the_renaissance.state import Game
from pbem.kit.dealer import Hands


def held(game: Game, seat: str) -> Sequence[str]:
    """Every card in ``seat``'s hand, face down or shown (Bribe Cardinal stays face up)."""
    return game.players[seat].cards


def shown(game: Game) -> Mapping[str, str]:
    return game.shown


HANDS = Hands(held=held, face_down=deck.hidden, shown=shown)
