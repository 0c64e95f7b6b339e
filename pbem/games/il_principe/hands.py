"""What an Il Principe state says of the building cards each seat holds, which the ruleset
protocol does not ask: the dealer that stands in for the engine's deck at the rules level, and a
computer player's knowledge of a seat, read it (``pbem.kit.dealer.Hands``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.il_principe import rounds
from pbem.games.il_principe.state import Game
from pbem.kit import cards
from pbem.kit.dealer import Hands


def held(game: Game, seat: str) -> Sequence[str]:
    """The hidden cards in ``seat``'s hand (a card won at auction is public, counted by colour)."""
    return game.player(seat).hand


def face_down(game: Game, seat: str) -> Sequence[str]:
    """Its hand, and the cards it put in the reserve face down and has not shown yet."""
    player = game.player(seat)
    return cards.hidden([*player.hand, *rounds.unshown(player)], game.shown)


def shown(game: Game) -> Mapping[str, str]:
    return game.shown


HANDS = Hands(held=held, face_down=face_down, shown=shown)
