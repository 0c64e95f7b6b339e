"""The Treachery deck, behind the few operations the rules use.

The deck is a hidden deck of the engine: the engine holds every card encrypted, deals a drawn
card so that only the drawer can read it, and checks every card shown face up. The rules never
see a hidden card. They keep a count of the cards left in the deck, each hand as tokens
(``treachery:SLOT``), and a card's name only once its holder shows it (``shown``). A draw is a
request the engine answers with a token; until every request is answered, nobody is asked to
move (a deck still being shuffled cannot be drawn from).
"""

from __future__ import annotations

from pbem.engine.ruleset import CardUse, DeckSpec, DrawRequest
from pbem.games.princes_of_the_renaissance.state import Game
from pbem.kit import cards
from pbem.kit.grammar import tokens
from pbem.kit.seats import FollowUp

DECK = "treachery"
TOKEN = tokens(DECK)


def spec(game: Game) -> DeckSpec:
    """The deck the engine deals: every copy of every card of the template, by id."""
    cards = tuple(card.id for card in game.components.cards for _ in range(card.copies))
    return DeckSpec(DECK, cards)


def total(game: Game) -> int:
    return sum(card.copies for card in game.components.cards)


def size(game: Game) -> int:
    return game.deck


def hand_size(game: Game, seat: str) -> int:
    """Cards held, face up or down, and cards drawn but not dealt yet: what the hand limit counts."""
    return len(game.players[seat].cards) + cards.dealing(game.drawing, seat)


def hidden(game: Game, seat: str) -> list[str]:
    """The tokens ``seat`` holds face down: nobody else knows what they are."""
    return cards.hidden(game.players[seat].cards, game.shown)


def face_down(game: Game, seat: str) -> int:
    """How many cards ``seat`` holds face down, counting those drawn and still being dealt: public,
    like the size of a hand at the table, and all the rules may go by when asking who may play."""
    held = game.players[seat].cards
    if not game.drawing:  # asked several times a move, most often of an empty hand and no deal
        return len(cards.hidden(held, game.shown)) if held else 0
    return len(cards.hidden(held, game.shown)) + cards.dealing(game.drawing, seat)


def face_up(game: Game, seat: str, card: str) -> list[str]:
    """The tokens of ``card`` that ``seat`` has shown and still holds (Bribe Cardinal)."""
    return cards.showing(game.players[seat].cards, game.shown, card)


def draw(game: Game, seat: str) -> None:
    """The top card into ``seat``'s hand: the engine deals it (``card_drawn``)."""
    game.deck -= 1
    game.drawing = (*game.drawing, *cards.draws(DECK, seat))


def showing(game: Game, seat: str, card: str) -> bool:
    """Whether the move being checked shows ``card`` from ``seat``'s hand."""
    token = game.showing
    return bool(token) and token in game.players[seat].cards and game.shown.get(token) == card


def play(game: Game, seat: str, card: str, token: str = "") -> None:
    """A card played face up (the one this move shows, or a token already face up): out of the
    hand, onto the discards."""
    token = token or game.showing
    assert game.shown.get(token) == card, (token, card)
    game.players[seat].cards.remove(token)
    game.discards.append(card)
    game.showing = ""


def discard(game: Game, seat: str, token: str) -> None:
    """Over the hand limit: face down, unless the card was already face up."""
    game.players[seat].cards.remove(token)
    if token in game.shown:
        game.discards.append(game.shown[token])
    else:
        game.buried += 1


def to_bottom(game: Game, seat: str, token: str) -> None:
    """Bentivogli: the card not kept goes under the deck, face down (the engine re-masks it)."""
    game.players[seat].cards.remove(token)
    game.deck += 1


# --- what the engine asks --------------------------------------------------------------------------


def drawn(game: Game, request: DrawRequest, token: str) -> Game:
    """The oldest draw answered: the token into the hand, and into Bentivogli's choice if one is
    waiting for it (nobody moves while a draw is open, so the choice is the one just made)."""
    from pbem.games.princes_of_the_renaissance.state import KEEP

    # Only the drawer's hand and the follow-ups change in place: the rest is shared with ``game``.
    seat = request.seat
    game = game.logged("follow_ups", player=seat)
    game.drawing = cards.answered(game.drawing, request)
    game.players[seat].cards.append(token)
    for index, due in enumerate(game.follow_ups):
        if due.seat == seat and due.kind == KEEP and len(due.what.split()) < 2:
            game.follow_ups[index] = FollowUp(seat, KEEP, f"{due.what} {token}".strip())
            break
    return game


def revealed(game: Game, token: str, card: str) -> Game:
    game = game.logged()  # no container changes in place: the cards shown are a new value
    game.shown = cards.with_shown(game.shown, token, card)
    game.showing = token
    return game


def reveal(card: str) -> CardUse:
    return CardUse("reveal", DECK, card=card)


def discard_use(game: Game, token: str) -> list[CardUse]:
    return cards.discards([token], game.shown, DECK)


def bottom_use(token: str) -> CardUse:
    return cards.bottoms([token], DECK)[0]
