"""The Treachery deck, behind the few operations the rules use.

For now the deck's order comes from every player's randomness and lies in the state, so anyone
who replays the file can work out every hand (``show`` says so). A hidden deck replaces this
module's bodies without touching the rules that call it.
"""

from __future__ import annotations

from pbem.games.princes_of_the_renaissance.state import Game


def size(game: Game) -> int:
    return len(game.deck)


def hand(game: Game, seat: str) -> list[str]:
    return list(game.players[seat].cards)


def draw(game: Game, seat: str) -> str:
    """The top card into ``seat``'s hand."""
    card = game.deck.pop(0)
    game.players[seat].cards.append(card)
    return card


def holds(game: Game, seat: str, card: str) -> bool:
    return card in game.players[seat].cards


def play(game: Game, seat: str, card: str) -> None:
    """A card played face up: out of the hand, onto the discards."""
    game.players[seat].cards.remove(card)
    game.discards.append(card)


def discard(game: Game, seat: str, card: str) -> None:
    game.players[seat].cards.remove(card)
    game.discards.append(card)


def to_bottom(game: Game, seat: str, card: str) -> None:
    """Bentivogli: the card not kept goes under the deck."""
    game.players[seat].cards.remove(card)
    game.deck.append(card)
