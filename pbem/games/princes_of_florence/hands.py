"""What a Princes of Florence state says of the cards each seat holds, which the ruleset protocol
does not ask: the dealer that stands in for the engine's decks at the rules level, and a computer
player's knowledge of a seat, read it (``pbem.kit.dealer.Hands``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.princes_of_florence.state import KEEP, Game
from pbem.kit import cards
from pbem.kit.dealer import Hands


def held(game: Game, seat: str) -> Sequence[str]:
    """The profession cards in ``seat``'s hand (those a work is made with), face down or known."""
    return game.player(seat).hand


def face_down(game: Game, seat: str) -> Sequence[str]:
    """Every card only ``seat`` can read: its professions, bonus cards and prestige cards not
    shown, and the cards it drew and is choosing among (the rest go back under their deck)."""
    player = game.player(seat)
    drawn = [
        token for due in game.follow_ups if due.seat == seat and due.kind == KEEP for token in due.tokens
    ]
    return cards.hidden([*player.hand, *player.bonus, *player.prestige_cards, *drawn], game.shown)


def shown(game: Game) -> Mapping[str, str]:
    return game.shown


HANDS = Hands(held=held, face_down=face_down, shown=shown)
