"""What a seat of a game being played knows, as the kit's computer player takes it
(``pbem.kit.computer.Knowledge``), and its choice: the rules' state as replayed (tokens, never a
card nobody has shown), the cards the seat holds face down as read with its key, the cards shown,
each hidden deck's cards and how many are left in each pile. Nothing here reads another seat's
hidden cards: the engine never holds them in clear, and this takes only the seat's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.engine import play as play_mod
from pbem.engine.ruleset import DeckSpec
from pbem.errors import UsageError
from pbem.kit.dealer import Hands

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger
    from pbem.kit.computer import Choice, Knowledge

# How long a computer seat searches for each move it makes, by default. A budget in playouts
# instead (PBEM_COMPUTER_PLAYOUTS, read by the CLI) makes its choice the same every time.
SECONDS = 1.0


def knowledge(ledger: Ledger, seat: str, hand: Mapping[str, str | None]) -> Knowledge:
    """What ``seat`` knows now, its face-down cards ``hand`` (token -> card, as read with its
    key); refused while one of them cannot be read yet (the others' shares are still to come)."""
    from pbem.kit.computer import Knowledge

    game = play_mod.seated(ledger)
    hands = ledger.info.hands() if ledger.info.hands is not None else None
    state = game.table.state
    own: dict[str, str] = {}
    if hands is not None:
        for token in hands.face_down(state, seat):
            card = hand.get(token)
            if card is None:
                raise UsageError(f"{seat}'s card {token} cannot be read yet: its shares are still to come")
            own[token] = card
    decks = game.table.decks
    specs = tuple(DeckSpec(deck.deck_id, deck.cards) for deck in decks.decks.values()) if decks else ()
    piles = {deck.deck_id: len(deck.pile) for deck in decks.decks.values()} if decks else {}
    shown = dict(hands.shown(state)) if hands is not None else {}
    return Knowledge(game.rules, hands or _NO_HANDS, state, seat, own, shown, specs, piles)  # type: ignore[arg-type]


def choice(
    ledger: Ledger, seat: str, hand: Mapping[str, str | None], *, playouts: int | None = None
) -> Choice:
    """The computer player's move for ``seat``, searched from what it knows for ``playouts``
    playouts (then the same position gives the same choice: the search is seeded by the game and
    its head), else for ``SECONDS``."""
    from pbem.kit.computer import choose

    game = play_mod.seated(ledger)
    return choose(
        game.rules,  # type: ignore[arg-type]
        knowledge(ledger, seat, hand),
        seat,
        playouts=playouts,
        seconds=None if playouts is not None else SECONDS,
        seed=f"{ledger.game_id}:{ledger.head}:{seat}",
        estimate=ledger.info.estimate() if ledger.info.estimate is not None else None,
    )


def _no_cards(state: Any, seat: str) -> tuple[str, ...]:
    return ()


def _nothing_shown(state: Any) -> dict[str, str]:
    return {}


_NO_HANDS: Hands[Any] = Hands(
    held=_no_cards, face_down=_no_cards, shown=_nothing_shown
)  # a game without hidden cards
