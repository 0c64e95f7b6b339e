"""The ruleset protocol: what the engine asks of every game's rules.

A ruleset is pure: states are plain dataclasses, ``apply`` returns a new state and never reads the
clock or a global random generator. Randomness reaches a ruleset only through ``resolve``, with
draws made from every seat's committed contributions; secrets reach it only once revealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pbem.crypto.randomness import Draws
from pbem.engine.declaration import GameInfo, OptionValue
from pbem.errors import UsageError

DemandKind = Literal[
    "move", "sealed", "commit", "reveal", "contribute", "consent", "shuffle", "share", "escrow", "unlock"
]
CardAction = Literal["reveal", "bottom", "discard"]
# What a seat owes the hidden decks: not asked by the rules, carried by its next entry of any kind.
DECK_DEMANDS = ("shuffle", "share", "escrow", "unlock")


@dataclass(frozen=True)
class Demand:
    """What one seat must provide now.

    ``move``: an ordinary move; ``sealed``: a secret choice (the engine turns it into a commit,
    then a reveal); ``contribute``: any entry, to add randomness to a pending event;
    ``shuffle`` and ``share``: what a seat owes a hidden deck, carried by its next entry.
    """

    seat: str
    kind: DemandKind
    step: str
    prompt: str


@dataclass(frozen=True)
class RandomRequest:
    """A random event the state waits for.

    With ``after_sealing``, the engine asks for it only once every seat has sealed its choice for
    that step, so the draw comes from contributions made after the choices are fixed and nobody
    can know the outcome while still choosing.
    """

    context: str
    after_sealing: str | None = None


@dataclass(frozen=True)
class DeckSpec:
    """A hidden deck a ruleset declares at setup: its id and its cards (names may repeat).

    The engine deals it face down: every seat shuffles it in turn and nobody learns a card
    until the rules have it drawn (only the drawer reads it) or played face up.
    """

    deck_id: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DrawRequest:
    """A draw the state waits for: the top card of ``deck_id`` into ``seat``'s hand.

    The engine answers it with ``card_drawn(state, request, token)`` once the deck is shuffled
    (and not being reshuffled); the state keeps the token (``deck:slot``) and never the card,
    which only the drawer can read.

    With ``face_up``, the card is dealt face up to everyone instead: it goes into no hand, every
    seat (``seat`` included) owes its decryption share of it, and once the last share is in the
    engine opens it and calls ``card_revealed(state, token, card)``. ``seat`` is then only the
    seat the rules deal the card for (the one that asked, say): the engine hands it back in
    ``card_drawn`` and gives it no other part.
    """

    deck_id: str
    seat: str
    face_up: bool = False


@dataclass(frozen=True)
class CardUse:
    """What a move does with a hidden card ``seat`` holds.

    ``reveal``: the card is shown face up (named by ``card`` or by ``token``); the engine checks
    the claim and tells the rules with ``card_revealed`` before the move is checked. ``bottom``:
    the card (``token``) goes face down under the deck, re-masked so nobody can follow it.
    Several ``bottom`` uses of one move go under one after another in the order listed, so the
    first listed lies above the later ones and is drawn before them. ``discard``: the card
    (``token``) leaves the game face down. A face-up discard is a reveal followed by whatever
    the rules do with the card.
    """

    action: CardAction
    deck_id: str
    token: str | None = None
    card: str | None = None


class HiddenDeckRules(Protocol):
    """The optional methods of a ruleset that plays with hidden decks (all five, or none)."""

    def hidden_decks(self, state: Any) -> list[DeckSpec]:
        """The hidden decks of the game, read once, right after ``setup``."""

    def draw_requests(self, state: Any) -> list[DrawRequest]:
        """Private draws the state waits for, oldest first; answered by ``card_drawn``."""

    def card_drawn(self, state: Any, request: DrawRequest, token: str) -> Any:
        """The state once ``request`` is answered with ``token``; it must no longer list it."""

    def card_uses(self, state: Any, seat: str, move: Any) -> list[CardUse]:
        """The hidden cards ``move`` uses (empty for most moves); read before ``check``."""

    def card_revealed(self, state: Any, token: str, card: str) -> Any:
        """The state once the card behind ``token`` is known to everyone to be ``card``."""


def hidden_deck_rules(rules: object) -> HiddenDeckRules | None:
    """The ruleset's hidden-deck methods, or None for a ruleset without hidden decks."""
    names = ("hidden_decks", "draw_requests", "card_drawn", "card_uses", "card_revealed")
    if all(callable(getattr(rules, name, None)) for name in names):
        return rules  # type: ignore[return-value]
    return None


class ReshuffleRules(Protocol):
    """The optional methods of a ruleset that reshuffles a hidden deck during play (both, or
    neither).

    The engine shuffles the cards still in a deck listed by ``reshuffle_requests`` (those put
    under it included) again: every seat in seat order, each with its proof, as at setup; no draw
    from the deck is answered until the last seat's shuffle is in. Then it calls
    ``deck_reshuffled``. A deck is listed until then: listing it while its reshuffle runs starts
    no other.
    """

    def reshuffle_requests(self, state: Any) -> list[str]:
        """The ids of the hidden decks whose remaining cards must be shuffled again now."""

    def deck_reshuffled(self, state: Any, deck_id: str) -> Any:
        """The state once every seat has reshuffled ``deck_id``; it must no longer list it."""


def reshuffle_rules(rules: object) -> ReshuffleRules | None:
    """The ruleset's reshuffle methods, or None for a ruleset that never reshuffles a deck."""
    names = ("reshuffle_requests", "deck_reshuffled")
    if hidden_deck_rules(rules) is not None and all(callable(getattr(rules, name, None)) for name in names):
        return rules  # type: ignore[return-value]
    return None


class FreeMoveRules(Protocol):
    """The optional methods of a ruleset with free moves (both, or neither): moves a seat may make
    whenever the game is on, asked to move or not, as a note can be written. The rules still
    check each one; the engine only lets it through without a demand."""

    def is_free(self, move: Any) -> bool:
        """Whether ``move`` is a free move."""

    def free_moves(self, state: Any, seat: str) -> list[str]:
        """Every free move ``seat`` may make now, in the text ``parse`` reads."""


def free_move_rules(rules: object) -> FreeMoveRules | None:
    """The ruleset's free-move methods, or None for a ruleset without free moves."""
    if callable(getattr(rules, "is_free", None)) and callable(getattr(rules, "free_moves", None)):
        return rules  # type: ignore[return-value]
    return None


class DefaultsRules(Protocol):
    """The optional method of a ruleset whose defaults or final score read which seats the
    defaults play (house rules for a silent seat, which the rulebooks do not have)."""

    def played_by_defaults(self, state: Any, seats: tuple[str, ...], chance: bytes) -> Any:
        """``state`` knowing the seats the rules' defaults play now (retired, or absent), in seat
        order, and ``chance``: a value fixed by every seat's randomness (the last random event
        decided, or the seats' chains as the game began) that a default choosing a place may
        read. The same object when nothing it keeps changed. The engine tells it before each
        change of the state until the game is over, so the seats it knows at the end are those
        the defaults played when the game ended."""


def defaults_rules(rules: object) -> DefaultsRules | None:
    return rules if callable(getattr(rules, "played_by_defaults", None)) else None  # type: ignore[return-value]


def is_free(rules: object, move: Any) -> bool:
    free = free_move_rules(rules)
    return free is not None and free.is_free(move)


def explanation(rules: object, state: Any, move: Any) -> str:
    """What a move does, in a few words, where the ruleset says (its optional ``explain``):
    shown beside the move in ``pbem moves``, e.g. what each family a player may choose does."""
    explain = getattr(rules, "explain", None)
    return str(explain(state, move)) if callable(explain) else ""


def event_words(rules: object, context: str) -> str:
    """A random event in the players' words, what the randomness is for (``the draw that turns up
    the next city cards``), where the ruleset says (its optional ``event_words``); else the name
    it gave the event. The name itself stays as it is: entries record it and the draw is bound
    to it."""
    words = getattr(rules, "event_words", None)
    return str(words(context)) if callable(words) else context


class OutcomeRules(Protocol):
    """The optional method of a ruleset that says what came of a move (``pbem log``)."""

    def outcomes(self, before: Any, after: Any) -> list[str]:
        """What changed from ``before`` to ``after`` (the state before and after one entry), in
        a player's words: an auction won, a war decided, cards removed, a round's income. Only
        what every seat may see: the state holds tokens, never a hidden card."""


def outcomes(rules: Ruleset, before: Any, after: Any) -> list[str]:
    """What came of one entry: the ruleset's own ``outcomes`` (none for a ruleset without it),
    then, for the entry that ends the game, the final score and the winners as its public view
    gives them, so every game says its end alike. ``before`` is None for the entry that sets the
    game up (nothing came before it to compare with)."""
    if before is None or before is after:
        return []
    said = getattr(rules, "outcomes", None)
    found = [str(line) for line in said(before, after)] if callable(said) else []
    if rules.over(after) and not rules.over(before):
        shown = rules.view(after, None)
        found.append("final score: " + standings(shown.get("score", {})))
        winners = list(shown.get("winners", []))
        if winners:
            found.append(f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} the game")
    return found


def standings(score: Mapping[str, Mapping[str, int]]) -> str:
    """Each seat's total, highest first (ties in seat order): ``bruno 21, alice 18``."""
    ranked = sorted(score.items(), key=lambda item: -item[1]["total"])
    return ", ".join(f"{seat} {row['total']}" for seat, row in ranked)


class Ruleset(Protocol):
    info: GameInfo

    def setup(
        self,
        seats: Sequence[str],
        edition: str,
        options: Mapping[str, OptionValue],
        components: Mapping[str, Any],
    ) -> Any:
        """The state once every seat has joined, with the component data the genesis entry
        names (raise GameFileError if it does not describe a playable set)."""

    def phase(self, state: Any) -> str:
        """A short name for where the game stands, e.g. ``turn-order bid``."""

    def over(self, state: Any) -> bool:
        """Whether the game has ended: the score is final and nobody plays on.

        The engine then asks nobody for anything the hidden decks would need to go on: no shuffle
        or reshuffle, no share of a card in a hand (nobody will play it). Only a card being dealt
        face up still takes every seat's share, since the rules asked for it to be seen. A game
        that turns cards up for its final score does so before it says it is over.
        """

    def demands(self, state: Any) -> list[Demand]:
        """Who must act now and what each must provide (``move`` or ``sealed`` demands)."""

    def legal_moves(self, state: Any, seat: str) -> list[str]:
        """Every move ``seat`` may make now, in the text ``parse`` reads."""

    def parse(self, text: str) -> Any:
        """Move text to a move; raise MoveSyntaxError."""

    def format(self, move: Any) -> str:
        """A move back to its text."""

    def check(self, state: Any, seat: str, move: Any) -> None:
        """Raise IllegalMoveError naming the rule if ``seat`` may not make ``move`` now."""

    def apply(self, state: Any, seat: str, move: Any) -> Any:
        """The state after a checked move."""

    def default_move(self, state: Any, seat: str, step: str) -> Any | None:
        """The move made for ``seat`` when it lets the deadline of ``step`` pass (None: none)."""

    def random_requests(self, state: Any) -> list[RandomRequest]:
        """Random events the state is waiting for, oldest first."""

    def resolve(self, state: Any, context: str, draws: Draws) -> Any:
        """The state after the random event ``context`` is decided by ``draws``."""

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (or an onlooker, for None) may see; other seats' secrets stripped."""

    def score(self, state: Any) -> dict[str, dict[str, int]]:
        """Points per seat and category."""


def ruleset_for(info: GameInfo) -> Ruleset | None:
    """The rules of a game, or None while the game can be set up and joined but not yet played."""
    return None if info.rules is None else info.rules()


def require_ruleset(info: GameInfo) -> Ruleset:
    ruleset = ruleset_for(info)
    if ruleset is None:
        raise UsageError(
            f"the rules of {info.name} cannot be played by email yet; players can join and write notes"
        )
    return ruleset
