"""A tiny game with one hidden deck, registered for tests only: the engine's hidden-deck
groundwork exercised without any real game's rules.

Seats move in turn. A move is ``pass``, ``draw`` (the top card into your hand, face down),
``deal`` (the top card face up onto the table, for everyone to see), ``reshuffle`` (every seat
shuffles the cards left in the deck again), ``dice`` (a die every seat adds randomness to, before
anyone moves again), ``end`` (the game is over, and the top card is dealt face up as it ends, as a
game's last card turned up for its score), ``play CARD`` (show a card of that name from your
hand), ``show TOKEN`` (show that card), ``bottom TOKEN ...`` (put those cards under the deck,
unseen, in the order given), ``discard TOKEN`` (face down, out of the game) or ``discard-up TOKEN``
(shown, then out of the game). The state keeps tokens, never cards, until the engine says what a
shown card was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.crypto import hidden_deck as hd
from pbem.crypto.deck_groups import GROUPS
from pbem.crypto.randomness import Draws
from pbem.engine import registry
from pbem.engine.registry import (
    DEADLINE_OPTIONS,
    ESCROW,
    HIDDEN_DECK_OPTIONS,
    GameInfo,
    OptionSpec,
    OptionValue,
)
from pbem.engine.ruleset import CardUse, DeckSpec, Demand, DrawRequest, RandomRequest
from pbem.errors import IllegalMoveError, MoveSyntaxError

NAME = "hidden-deck-test"
DECK = "deck"
# Hyphens never occur in base64 or hex, so a card name found in a file was written there as text.
CARDS = ("ace-of-ashes", "king-of-keys", "queen-of-quills", "jack-of-jade", "ten-of-tides", "two-of-thorns")
VERBS = ("play", "show", "bottom", "discard", "discard-up")
SIMPLE = ("pass", "draw", "deal", "reshuffle", "dice", "end")


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    turn: int = 0
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # seat -> tokens
    known: Mapping[str, str] = field(default_factory=dict)  # token -> card, once shown
    wanted: tuple[DrawRequest, ...] = ()
    events: tuple[str, ...] = ()
    rolling: tuple[str, ...] = ()  # dice waiting for every seat's randomness
    table: tuple[str, ...] = ()  # tokens dealt face up, in the order dealt
    reshuffling: tuple[str, ...] = ()  # decks to shuffle again
    ended: bool = False
    default: str = "pass"  # what a late seat's turn does (option default): pass, or a verb for its first card


class Rules:
    info: GameInfo

    def setup(
        self,
        seats: Sequence[str],
        edition: str,
        options: Mapping[str, OptionValue],
        components: Mapping[str, Any],
    ) -> State:
        return State(
            tuple(seats), hands=dict.fromkeys(seats, ()), default=str(options.get("default", "pass"))
        )

    def phase(self, state: State) -> str:
        return "over" if state.ended else "play"

    def over(self, state: State) -> bool:
        return state.ended

    def demands(self, state: State) -> list[Demand]:
        if state.rolling or state.ended:
            return []
        return [Demand(state.seats[state.turn], "move", "turn", "draw, play a card or pass")]

    def legal_moves(self, state: State, seat: str) -> list[str]:
        if seat != state.seats[state.turn]:
            return []
        tokens = state.hands[seat]
        return [
            *SIMPLE,
            *(f"{verb} {token}" for token in tokens for verb in VERBS if verb != "play"),
        ]

    def parse(self, text: str) -> tuple[str, str]:
        verb, _, rest = text.strip().partition(" ")
        if verb in SIMPLE and not rest:
            return verb, ""
        if verb in VERBS and rest:
            return verb, " ".join(rest.split())
        raise MoveSyntaxError(f"cannot read {text!r}: {', '.join(SIMPLE)}, or {'|'.join(VERBS)} CARD")

    def format(self, move: tuple[str, str]) -> str:
        return " ".join(part for part in move if part)

    def check(self, state: State, seat: str, move: tuple[str, str]) -> None:
        if state.ended:
            raise IllegalMoveError("the game is over")
        if seat != state.seats[state.turn]:
            raise IllegalMoveError(f"it is {state.seats[state.turn]}'s turn")
        verb, what = move
        if verb == "play":
            if not any(state.known.get(token) == what for token in state.hands[seat]):
                raise IllegalMoveError(f"{seat} has no {what} in hand")
        elif verb == "bottom":
            tokens = what.split()
            if len(set(tokens)) != len(tokens) or not set(tokens) <= set(state.hands[seat]):
                raise IllegalMoveError(f"{seat} does not hold each of {what} once")
        elif verb in VERBS and what not in state.hands[seat]:
            raise IllegalMoveError(f"{seat} does not hold {what}")

    def apply(self, state: State, seat: str, move: tuple[str, str]) -> State:
        verb, what = move
        hands = dict(state.hands)
        events = list(state.events)
        wanted = state.wanted
        rolling = state.rolling
        reshuffling = state.reshuffling
        ended = state.ended
        if verb == "draw":
            wanted = (*wanted, DrawRequest(DECK, seat))
        elif verb == "end":
            ended = True
            wanted = (*wanted, DrawRequest(DECK, seat, face_up=True))
        elif verb == "deal":
            wanted = (*wanted, DrawRequest(DECK, seat, face_up=True))
        elif verb == "reshuffle":
            reshuffling = (*reshuffling, DECK)
        elif verb == "bottom":
            hands[seat] = tuple(t for t in hands[seat] if t not in what.split())
            events.append(f"{seat} puts {what} under the deck")
        elif verb == "dice":
            rolling = (*rolling, f"die {len(events)}")
        elif verb == "play":
            token = next(token for token in hands[seat] if state.known.get(token) == what)
            hands[seat] = tuple(t for t in hands[seat] if t != token)
            events.append(f"{seat} plays {what}")
        elif verb in VERBS:
            hands[seat] = tuple(t for t in hands[seat] if t != what)
            shown = state.known.get(what)
            events.append(f"{seat} {verb}s {what}" + (f" ({shown})" if shown else ""))
        turn = (state.turn + 1) % len(state.seats)
        return replace(
            state,
            turn=turn,
            hands=hands,
            wanted=wanted,
            events=tuple(events),
            rolling=rolling,
            reshuffling=reshuffling,
            ended=ended,
        )

    def default_move(self, state: State, seat: str, step: str) -> tuple[str, str] | None:
        if state.default != "pass" and state.hands.get(seat):
            return (state.default, state.hands[seat][0])
        return ("pass", "")

    def random_requests(self, state: State) -> list[RandomRequest]:
        return [RandomRequest(context) for context in state.rolling]

    def resolve(self, state: State, context: str, draws: Draws) -> State:
        rolled = f"{context}: {draws.die()}"
        return replace(state, rolling=state.rolling[1:], events=(*state.events, rolled))

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return {
            "phase": "play",
            "turn": state.seats[state.turn],
            "players": {name: {"cards": len(state.hands[name])} for name in state.seats},
            "events": list(state.events),
            "table": [state.known.get(token, token) for token in state.table],
        }

    def score(self, state: State) -> dict[str, dict[str, int]]:
        return {}

    # --- the hidden deck ---
    def hidden_decks(self, state: State) -> list[DeckSpec]:
        return [DeckSpec(DECK, CARDS)]

    def draw_requests(self, state: State) -> list[DrawRequest]:
        return list(state.wanted)

    def card_drawn(self, state: State, request: DrawRequest, token: str) -> State:
        if request.face_up:
            return replace(state, table=(*state.table, token), wanted=state.wanted[1:])
        hands = dict(state.hands)
        hands[request.seat] = (*hands[request.seat], token)
        return replace(state, hands=hands, wanted=state.wanted[1:])

    def card_uses(self, state: State, seat: str, move: tuple[str, str]) -> list[CardUse]:
        verb, what = move
        if verb == "play":
            return [CardUse("reveal", DECK, card=what)]
        if verb in ("show", "discard-up"):
            return [CardUse("reveal", DECK, token=what)]
        if verb == "bottom":
            return [CardUse("bottom", DECK, token=token) for token in what.split()]
        if verb == "discard":
            return [CardUse("discard", DECK, token=what)]
        return []

    def card_revealed(self, state: State, token: str, card: str) -> State:
        events = state.events
        if token in state.table:
            events = (*events, f"{token} dealt face up: {card}")
        return replace(state, known={**state.known, token: card}, events=events)

    # --- reshuffles ---
    def reshuffle_requests(self, state: State) -> list[str]:
        return list(state.reshuffling)

    def deck_reshuffled(self, state: State, deck_id: str) -> State:
        return replace(
            state, reshuffling=state.reshuffling[1:], events=(*state.events, f"{deck_id} reshuffled")
        )


RULES = Rules()
# What a late seat's turn does by default: a pass, or show, put under the deck or discard the
# first card it holds (the defaults that move a silent seat's hidden cards).
DEFAULT = OptionSpec(
    "default",
    "choice",
    "pass",
    "a late seat's default turn",
    choices=("pass", "show", "bottom", "discard"),
    absent="pass",
)
# The engine's tests of its hidden decks build on a set-up without escrow unless they ask for it.
TEST_OPTIONS = tuple(
    replace(spec, default="none") if spec is ESCROW else spec for spec in HIDDEN_DECK_OPTIONS
)
# The engine's tests of its hidden decks build on a set-up without escrow unless they ask for it.
TEST_OPTIONS = tuple(
    replace(spec, default="none") if spec is ESCROW else spec for spec in HIDDEN_DECK_OPTIONS
)
INFO = GameInfo(
    NAME,
    "Hidden deck test",
    2,
    4,
    ("1",),
    (*DEADLINE_OPTIONS, *TEST_OPTIONS, DEFAULT),
    rules=lambda: RULES,
)
RULES.info = INFO


@contextmanager
def registered() -> Iterator[None]:
    """The test game in the registry (after the shipped games, which load on first use), and out
    of it again afterwards, so other tests see only the shipped games."""
    registry.games()
    registry.register(INFO)
    try:
        yield
    finally:
        registry._GAMES.pop(NAME, None)  # no public way out: only tests ever remove a game


def element_forms(index: int) -> list[str]:
    """Every way a file could carry card ``index``'s group element in clear, in either group: its
    text form, and its number (hex and decimal) or its bytes in hex."""
    forms: list[str] = []
    for group in GROUPS.values():
        element = hd.encode_card(index, group=group)
        forms.append(group.element_text(element))
        if isinstance(element, int):
            forms += [format(element, "x"), str(element)]
        else:
            forms.append(element.hex())
    return forms
