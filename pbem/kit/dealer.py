"""The engine's hidden decks, simulated at the rules level for any game: a dealer that deals each
deck the rules declare from a seeded order, answers the rules' draws (and reshuffles, and random
events if asked), shows the cards a move uses and puts the cards it returns under their deck, all
through the ruleset's hidden-deck protocol (``pbem.engine.ruleset``), as the engine does once
every proof and share is in. The rules never see a card before it is shown; a test, or a computer
player, reads hands through the dealer.

Tokens are ``deck:slot``, the slot the card has in the deck the rules declare, so that a test may
name a card by its token; the pile is those tokens in a shuffled order, top first. A dealer made
for a computer player's guess (``pbem.kit.computer``) gives its tokens other slots.

What the protocol does not ask of the rules, which tokens a seat holds and which of them only it
can read, each game declares in its package (``hands.py``: ``Hands``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pbem.crypto.randomness import Draws
from pbem.engine.ruleset import CardUse, DeckSpec, DrawRequest, RandomRequest, reshuffle_rules

S = TypeVar("S")


class DeckRules(Protocol):
    """What the dealer asks of a game's rules: the engine's ruleset protocol, hidden decks part."""

    def hidden_decks(self, state: Any) -> list[DeckSpec]: ...
    def draw_requests(self, state: Any) -> list[DrawRequest]: ...
    def card_drawn(self, state: Any, request: DrawRequest, token: str) -> Any: ...
    def card_uses(self, state: Any, seat: str, move: Any) -> list[CardUse]: ...
    def card_revealed(self, state: Any, token: str, card: str) -> Any: ...
    def random_requests(self, state: Any) -> list[RandomRequest]: ...
    def resolve(self, state: Any, context: str, draws: Draws) -> Any: ...
    def legal_moves(self, state: Any, seat: str) -> list[str]: ...
    def parse(self, text: str) -> Any: ...
    def check(self, state: Any, seat: str, move: Any) -> None: ...
    def apply(self, state: Any, seat: str, move: Any) -> Any: ...


@dataclass(frozen=True)
class Hands(Generic[S]):
    """What a game's state says of the hidden cards, which the ruleset protocol does not ask.

    ``held``: the tokens a seat holds in its hand (face up or down), in the order the state keeps
    them; ``face_down``: every token only that seat can read (its hand's hidden cards, and any
    others it holds or drew: cards it is choosing among, cards put aside face down); ``shown``:
    token -> card of every card turned face up, as ``card_revealed`` told the state.
    """

    held: Callable[[S, str], Sequence[str]]
    face_down: Callable[[S, str], Sequence[str]]
    shown: Callable[[S], Mapping[str, str]]


class Dealer(Generic[S]):
    """One game's hidden decks in a fixed order.

    ``held``: the tokens a seat holds in a state (face up or down), the one thing the protocol
    does not ask of the rules; ``face_down``: those nobody else knows (``held`` if not given);
    ``of`` takes both from the game's ``Hands``. ``events``: the dealer also decides the random
    events the state waits for, from its seed (otherwise the test decides them with draws of its
    own).
    """

    def __init__(
        self,
        rules: DeckRules,
        held: Callable[[S, str], Sequence[str]],
        *,
        face_down: Callable[[S, str], Sequence[str]] | None = None,
        events: bool = False,
    ) -> None:
        self.rules = rules
        # Asked after every move: found once, as the rules' methods do not change.
        self.reshuffles = reshuffle_rules(rules)
        self.held = held
        self.face_down = face_down or held
        self.events = events
        self.seed: int | str = 0
        self.rng = random.Random(0)
        self.decks: list[DeckSpec] = []  # as the rules declared them
        self.piles: dict[str, list[str]] = {}  # deck -> its tokens left, top first
        self.cards: dict[str, str] = {}  # token -> card
        self.decided = 0  # random events decided
        self.given = 0  # cards given from outside the decks

    @classmethod
    def of(cls, rules: DeckRules, hands: Hands[S], *, events: bool = False) -> Dealer[S]:
        """A dealer for a game whose package declares its ``hands``."""
        return cls(rules, hands.held, face_down=hands.face_down, events=events)

    def reset(self, state: S, seed: int | str) -> Dealer[S]:
        """Deal every deck the rules declare for ``state`` anew, in an order fixed by ``seed``."""
        self.seed, self.rng = seed, random.Random(seed)
        self.piles, self.cards = {}, {}
        self.decided = self.given = 0
        self.decks = self.rules.hidden_decks(state)
        for spec in self.decks:
            tokens = [f"{spec.deck_id}:{slot}" for slot in range(len(spec.cards))]
            self.cards.update(zip(tokens, spec.cards, strict=True))
            self.rng.shuffle(tokens)
            self.piles[spec.deck_id] = tokens
        return self

    def copy(self) -> Dealer[S]:
        """A dealer at the same point that deals on without touching this one."""
        other = copy.copy(self)
        other.decks = list(self.decks)
        other.piles = {deck: list(pile) for deck, pile in self.piles.items()}
        other.cards = dict(self.cards)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    @property
    def pile(self) -> list[str]:
        """The pile of a game with one hidden deck."""
        (pile,) = self.piles.values()
        return pile

    @pile.setter
    def pile(self, tokens: list[str]) -> None:
        (deck,) = self.piles
        self.piles[deck] = tokens

    # --- what a seat reads with its key -------------------------------------------------------
    def card(self, token: str) -> str:
        return self.cards[token]

    def hand(self, state: S, seat: str) -> dict[str, str]:
        """Token -> card of every card ``seat`` holds, in the order the state keeps them."""
        return {token: self.cards[token] for token in self.held(state, seat)}

    def cards_in(self, state: S, seat: str) -> list[str]:
        """The cards ``seat`` holds, by name, in the order the state keeps them."""
        return [self.cards[token] for token in self.held(state, seat)]

    def hidden_hand(self, state: S, seat: str) -> list[str]:
        """The cards ``seat`` holds face down, by name."""
        return [self.cards[token] for token in self.face_down(state, seat)]

    # --- arranging the decks ------------------------------------------------------------------
    def top(self, *cards: str, deck: str | None = None) -> None:
        """Put a card of each name on top of the pile, in this order."""
        pile = self.piles[deck] if deck else self.pile
        for card in reversed(cards):
            token = next(token for token in pile if self.cards[token] == card)
            pile.remove(token)
            pile.insert(0, token)

    def peek(self, count: int = 1, deck: str | None = None) -> list[str]:
        """The cards on top of the pile, top first."""
        pile = self.piles[deck] if deck else self.pile
        return [self.cards[token] for token in pile[:count]]

    def extra(self, *cards: str, deck: str | None = None) -> list[str]:
        """Tokens for cards from outside the pile (the pile is not touched): to give a seat a hand."""
        deck = deck or next(iter(self.piles))
        tokens = []
        for card in cards:
            self.given += 1
            token = f"{deck}:{1000 + self.given}"
            self.cards[token] = card
            tokens.append(token)
        return tokens

    # --- the engine's part --------------------------------------------------------------------
    def settle(self, state: S) -> S:
        """Answer every reshuffle and draw the state waits for (and random event, with
        ``events``), oldest first, as the engine does after each entry: no draw from a deck until
        its reshuffle is done, a card dealt face up shown to everyone."""
        rules, reshuffles = self.rules, self.reshuffles
        while True:
            if reshuffles is not None and (decks := reshuffles.reshuffle_requests(state)):
                self.rng.shuffle(self.piles[decks[0]])
                state = reshuffles.deck_reshuffled(state, decks[0])
                continue
            if requests := rules.draw_requests(state):
                request = requests[0]
                token = self.piles[request.deck_id].pop(0)
                state = rules.card_drawn(state, request, token)
                if request.face_up:
                    state = rules.card_revealed(state, token, self.cards[token])
                continue
            if self.events and (events := rules.random_requests(state)):
                self.decided += 1
                contribution = ("dealer", f"{self.seed}:{self.decided}".encode())
                state = rules.resolve(
                    state, events[0].context, Draws("test-game", events[0].context, [contribution])
                )
                continue
            return state

    def show(self, state: S, seat: str, move: Any) -> S:
        """The cards ``move`` shows, named to the rules before they check it: a card claimed by
        name is found among ``seat``'s face-down cards; a card the seat does not hold is not shown
        (and the rules refuse the move)."""
        return self._shown(state, seat, self.rules.card_uses(state, seat, move))

    def _shown(self, state: S, seat: str, uses: list[CardUse]) -> S:
        cards = self.cards
        for use in uses:
            if use.action != "reveal":
                continue
            token = use.token
            if token:  # the card named by its token, the use most made: shown if it is one
                if token in cards and use.card in (None, cards[token]):
                    state = self.rules.card_revealed(state, token, cards[token])
                continue
            found = next(
                (t for t in self.face_down(state, seat) if t in cards and use.card in (None, cards[t])), None
            )
            if found is not None:
                state = self.rules.card_revealed(state, found, cards[found])
        return state

    def returned(self, state: S, seat: str, move: Any) -> None:
        """The cards ``move`` puts under their deck, in the order listed, to the bottom of its pile."""
        self._returned(self.rules.card_uses(state, seat, move))

    def _returned(self, uses: list[CardUse]) -> None:
        for use in uses:
            if use.action == "bottom":
                assert use.token is not None
                self.piles[use.deck_id].append(use.token)

    def play(self, state: S, seat: str, text: str) -> S:
        """One move as the engine plays it: cards shown, checked, cards returned, applied, and
        every draw it leads to answered. The cards a move uses are asked once, of the state before
        any is shown, as the engine asks them (``pbem.engine.table.check_move``); most moves use
        none."""
        rules = self.rules
        move = rules.parse(text)
        uses = rules.card_uses(state, seat, move)
        if uses:
            state = self._shown(state, seat, uses)
        rules.check(state, seat, move)
        if uses:
            self._returned(uses)
        after: S = rules.apply(state, seat, move)
        return self.settle(after)

    def playable(self, state: S, seat: str) -> list[str]:
        """The legal moves whose cards ``seat`` holds, as ``pbem moves --as SEAT`` lists them."""
        moves = self.rules.legal_moves(state, seat)
        hand = self.hidden_hand(state, seat)
        if not hand:  # only a seat holding a face-down card is offered a move that shows one
            return moves
        kept = []
        for text in moves:
            uses = self.rules.card_uses(state, seat, self.rules.parse(text))
            wanted = [use.card for use in uses if use.action == "reveal" and use.card is not None]
            free = list(hand)
            if all(card in free and not free.remove(card) for card in wanted):  # type: ignore[func-returns-value]
                kept.append(text)
        return kept
