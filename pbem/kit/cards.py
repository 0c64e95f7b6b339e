"""Hidden cards over the engine's deck protocol (``pbem.engine.ruleset``): the draws a state waits
for, the cards shown face up, and the cards a seat holds that only it can read.

The rules never hold a hidden card. The engine deals a card as a token (``deck:slot``) only its
drawer can read, and names the card to the rules only once it is shown face up. So a game keeps
two things, and reads everything else from them through these functions:

- its pending draws, oldest first: the engine's own ``DrawRequest``s, so the requests the engine
  reads are the state's and each answer is checked against the one the state asked first;
- ``shown``: token -> card for every card turned face up, never forgotten (a card shown stays
  known to everyone, whoever holds it next).

Both are values, replaced and never changed in place, so a copy of a state may share them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Final, Generic, Protocol, TypeVar

from pbem.engine.ruleset import CardUse, DrawRequest

Pending = tuple[DrawRequest, ...]
NOTHING_SHOWN: Final[Mapping[str, str]] = {}


class Drawing(Protocol):
    """A state that keeps its pending draws."""

    @property
    def drawing(self) -> Pending: ...


D = TypeVar("D", bound=Drawing)


class DrawRules(Generic[D]):
    """The engine asks a ruleset which draws its state waits for: the state's own pending draws,
    oldest first, in every game."""

    def draw_requests(self, state: D) -> list[DrawRequest]:
        return list(state.drawing)


def draws(deck_id: str, seat: str, count: int = 1, face_up: bool = False) -> Pending:
    """``count`` cards from the top of ``deck_id``: into ``seat``'s hand, or, ``face_up``, turned
    up for every seat (``seat`` then only the one they are dealt for)."""
    return (DrawRequest(deck_id, seat, face_up),) * count


def answered(pending: Pending, request: DrawRequest) -> Pending:
    """The draws still pending once the engine answers ``request``, which must be the oldest: the
    engine deals in the order the state asks, and an answer out of it would give a card to the
    wrong seat."""
    assert pending and pending[0] == request, (pending, request)
    return pending[1:]


def dealing(pending: Pending, seat: str) -> int:
    """Cards drawn for ``seat``'s hand and not dealt yet: public, as the size of a hand is at the
    table, so the rules may count them in the hand before the engine deals them."""
    return sum(1 for request in pending if request.seat == seat and not request.face_up)


def dealing_face_up(pending: Pending) -> bool:
    """Whether a card is still being turned face up for everyone: play that needs it waits."""
    return any(request.face_up for request in pending)


def with_shown(shown: Mapping[str, str], token: str, card: str) -> Mapping[str, str]:
    """``shown`` once the card behind ``token`` is known to everyone to be ``card``."""
    return {**shown, token: card}


def name(shown: Mapping[str, str], token: str) -> str:
    """A card's name once it is face up; its token while only its holder knows it."""
    return shown.get(token, token)


def hidden(tokens: Iterable[str], shown: Collection[str]) -> list[str]:
    """The tokens of ``tokens`` not shown yet: cards only their holder can read."""
    return [token for token in tokens if token not in shown]


def showing(tokens: Iterable[str], shown: Mapping[str, str], card: str) -> list[str]:
    """The tokens of ``tokens`` shown to be ``card``."""
    return [token for token in tokens if shown.get(token) == card]


def deck_of(token: str) -> str:
    """The deck a token is a card of (``profession:7`` -> ``profession``)."""
    return token.split(":", 1)[0]


# --- what a move does with hidden cards (``card_uses``) ---------------------------------------------
# Each use names its card's deck: the token's own, or ``deck_id`` where the move names a deck and
# a token typed for it may be of another (the engine then refuses the card as not of that deck).


def reveals(
    tokens: Iterable[str], shown: Collection[str] = NOTHING_SHOWN, deck_id: str | None = None
) -> list[CardUse]:
    """Each card of ``tokens`` shown face up, but for those face up already (the engine refuses a
    card shown twice)."""
    return [
        CardUse("reveal", deck_id or deck_of(token), token=token) for token in tokens if token not in shown
    ]


def discards(tokens: Iterable[str], shown: Collection[str], deck_id: str | None = None) -> list[CardUse]:
    """Each card of ``tokens`` out of the game face down, but for those face up already: the
    rules put them on the discards themselves, as everyone knows them."""
    return [
        CardUse("discard", deck_id or deck_of(token), token=token) for token in tokens if token not in shown
    ]


def bottoms(tokens: Iterable[str], deck_id: str | None = None) -> list[CardUse]:
    """Each card of ``tokens`` under its deck face down, the first listed above the others (so
    drawn before them)."""
    return [CardUse("bottom", deck_id or deck_of(token), token=token) for token in tokens]
