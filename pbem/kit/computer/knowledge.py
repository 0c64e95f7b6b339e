"""What one seat can know of a game, and deals consistent with it.

A seat knows the rules' state (which holds tokens, never the card behind a token nobody has shown),
the cards it holds face down (it reads them with its key), every card shown face up, what each
hidden deck holds in all and how many cards are left in each pile. It does not know the cards the
other seats hold face down, nor the order of a pile. ``determinize`` deals those at random from
the cards not accounted for: a guess the seat could make, built from nothing it may not read.

A seat that put a card back under a deck knows where that card lies; a guess forgets it (the card
is dealt anywhere in the pile), which loses a little knowledge and leaks none.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.ruleset import DeckSpec
from pbem.kit.cards import deck_of
from pbem.kit.dealer import Dealer, DeckRules, Hands

# A guess gives the cards of a pile tokens of slots no real deal uses (``deck:5000`` on), below
# the grammar's four digits, so that no token of the guess can be one the state already names.
GUESSED_SLOTS = 5000


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows at ``state``: ``own``, token -> card of the cards it holds face down;
    ``shown``, token -> card of every card shown face up; ``decks``, each hidden deck's cards as
    the rules declared them; ``piles``, how many cards are left in each deck (public, as a pile's
    height is at the table). ``rules`` and ``hands`` (the game's, to read its state by) are not
    knowledge and take no part in comparing two.

    At a sealed step ``state`` is the state before any seat's choice is played: the engine plays
    the choices only once every seat asked has sealed its own (``walk.Walk`` does the same).
    A token's slot says nothing of its card (the engine's slots are places in a shuffled deck),
    and nothing here reads one."""

    rules: DeckRules = field(compare=False)
    hands: Hands[Any] = field(compare=False)
    state: Any
    seat: str
    own: Mapping[str, str]
    shown: Mapping[str, str]
    decks: tuple[DeckSpec, ...]
    piles: Mapping[str, int]


def knowledge_of(
    rules: DeckRules, hands: Hands[Any], dealer: Dealer[Any], state: Any, seat: str
) -> Knowledge:
    """What ``seat`` knows of a game that ``dealer`` deals: only the cards of its own face-down
    tokens, and of the dealer nothing but the decks' lists and the piles' heights."""
    return Knowledge(
        rules,
        hands,
        state,
        seat,
        {token: dealer.cards[token] for token in hands.face_down(state, seat)},
        dict(hands.shown(state)),
        tuple(dealer.decks),
        {deck: len(pile) for deck, pile in dealer.piles.items()},
    )


def determinize(knowledge: Knowledge, rng: random.Random) -> Dealer[Any]:
    """A dealer for one guess at what ``knowledge.seat`` cannot see: the cards not accounted for
    (its own, and those shown) dealt at random to the other seats' face-down tokens and to the
    piles, the rest out of the game (discarded face down). Its own shuffles (a reshuffle during
    play) follow from ``rng`` too."""
    state, hands, seats = knowledge.state, knowledge.hands, _seats(knowledge.state)
    known = {**knowledge.shown, **knowledge.own}
    held = [token for seat in seats for token in hands.held(state, seat)]
    others = [token for seat in seats if seat != knowledge.seat for token in hands.face_down(state, seat)]
    # Any card in a hand the seat cannot read is guessed, whatever ``face_down`` says of it.
    hidden = list(dict.fromkeys([*others, *(token for token in held if token not in known)]))
    named = set(known) | set(hidden)
    dealer: Dealer[Any] = Dealer.of(knowledge.rules, hands)
    dealer.seed, dealer.rng = "guess", random.Random(rng.getrandbits(64))
    dealer.decks = list(knowledge.decks)
    dealer.cards = dict(known)
    for spec in knowledge.decks:
        deck = spec.deck_id
        left = Counter(spec.cards)
        left.subtract(card for token, card in known.items() if deck_of(token) == deck)
        pool = list((+left).elements())
        rng.shuffle(pool)
        theirs = [token for token in hidden if deck_of(token) == deck]
        height = knowledge.piles.get(deck, 0)
        if len(pool) < len(theirs) + height:
            raise ValueError(f"{deck}: {len(pool)} cards unaccounted for, {len(theirs) + height} to deal")
        dealer.cards.update(zip(theirs, pool, strict=False))
        pile = _fresh(deck, height, named)
        dealer.cards.update(zip(pile, pool[len(theirs) :], strict=False))
        dealer.piles[deck] = pile
    return dealer


def _fresh(deck: str, count: int, named: set[str]) -> list[str]:
    found: list[str] = []
    slot = GUESSED_SLOTS
    while len(found) < count:
        token = f"{deck}:{slot}"
        if token not in named:
            found.append(token)
        slot += 1
    return found


def _seats(state: Any) -> Sequence[str]:
    seats: Sequence[str] = state.seats
    return seats
