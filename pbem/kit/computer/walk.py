"""A game played on at the rules level from one state, as the engine would play it: a dealer answers
the draws, random events are decided from a seeded generator, and a sealed step waits until every
seat it asks has chosen, each from the same state, before the choices are played in the order the
rules ask for them (as the engine plays the reveals). So no seat's sealed choice can read another's.

A computer player's search walks a guessed deal (``knowledge.determinize``); a benchmark's table
walks the real one. Free moves (gifts, sales of prestige) are never made: the rules never wait for
them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pbem.crypto.randomness import Draws
from pbem.engine.ruleset import Demand, RandomRequest
from pbem.errors import IllegalMoveError
from pbem.kit.dealer import Dealer, DeckRules

S = TypeVar("S")


class WalkRules(DeckRules, Protocol):
    """What a walk asks of a game's rules beyond the dealer's part: the ruleset protocol."""

    def over(self, state: Any) -> bool: ...
    def demands(self, state: Any) -> list[Demand]: ...
    def random_requests(self, state: Any) -> list[RandomRequest]: ...
    def view(self, state: Any, seat: str | None) -> dict[str, Any]: ...
    def score(self, state: Any) -> dict[str, dict[str, int]]: ...


@dataclass(frozen=True)
class Turn:
    """Who chooses next, and whether the choice is sealed (played once every seat asked has one)."""

    seat: str
    sealed: bool


class Walk(Generic[S]):
    """One game from ``state`` on, with ``dealer`` standing in for the hidden decks; ``rng``
    decides the random events (and nothing else)."""

    def __init__(self, rules: WalkRules, dealer: Dealer[S], state: S, rng: random.Random) -> None:
        self.rules = rules
        self.dealer = dealer
        self.state = state
        self.rng = rng
        self.sealed: dict[str, str] = {}  # the sealed step's choices made so far, by seat
        self.moves = 0  # moves played, sealed ones once their step is played

    def turn(self, prefer: str | None = None) -> Turn | None:
        """Who chooses next (``prefer`` where it is one of the seats asked now), once every random
        event the state waits for is decided and every sealed step whose choices are all made is
        played; None once the game is over."""
        while not self.rules.over(self.state):
            demands = self.rules.demands(self.state)
            sealing = [demand.seat for demand in demands if demand.kind == "sealed"]
            events = [
                request
                for request in self.rules.random_requests(self.state)
                if request.after_sealing is None or not sealing
            ]
            if events:
                self.decide(events[0].context)
                continue
            if sealing:
                waiting = [seat for seat in sealing if seat not in self.sealed]
                if waiting:
                    return Turn(prefer if prefer in waiting else waiting[0], True)
                self.reveal(sealing)
                continue
            if not demands:
                raise AssertionError(f"nobody is asked to move and the game is not over: {self.phase()}")
            asked = [demand.seat for demand in demands]
            return Turn(prefer if prefer in asked else asked[0], False)
        return None

    def options(self, seat: str) -> list[str]:
        """The moves ``seat`` may make now whose cards it holds (the rules may still refuse one
        once its cards are shown: ``play`` tells)."""
        return self.dealer.playable(self.state, seat)

    def accepted(self, turn: Turn) -> list[str]:
        """The moves the rules accept from ``turn.seat`` now, each tried on the side (the walk is
        not moved)."""
        found = []
        for text in self.options(turn.seat):
            move = self.rules.parse(text)
            try:
                self.rules.check(self.dealer.show(self.state, turn.seat, move), turn.seat, move)
            except IllegalMoveError:
                continue
            found.append(text)
        return found

    def play(self, turn: Turn, text: str) -> None:
        """Make a move, or a sealed choice; IllegalMoveError (nothing changed) if the rules refuse
        it."""
        if not turn.sealed:
            self.state = self.dealer.play(self.state, turn.seat, text)
            self.moves += 1
            return
        move = self.rules.parse(text)
        self.rules.check(self.dealer.show(self.state, turn.seat, move), turn.seat, move)
        self.sealed[turn.seat] = text

    def play_any(self, turn: Turn) -> str:
        """A move chosen uniformly at random among those the rules accept from ``turn.seat``."""
        listed = self.rules.legal_moves(self.state, turn.seat)
        while listed:
            # Drawn one at a time, not shuffled: the first is most often accepted, and a listing
            # may hold hundreds of moves (every city with every set of cards).
            index = self.rng.randrange(len(listed))
            text = listed[index]
            listed[index] = listed[-1]
            listed.pop()
            try:
                self.play(turn, text)
            except IllegalMoveError:
                continue
            return text
        raise AssertionError(f"{turn.seat} has no move the rules accept: {self.phase()}")

    def reveal(self, order: list[str]) -> None:
        """The sealed step's choices played in the order the rules asked for them."""
        chosen, self.sealed = self.sealed, {}
        for seat in order:
            self.state = self.dealer.play(self.state, seat, chosen[seat])
            self.moves += 1

    def decide(self, context: str) -> None:
        """A random event decided by contributions drawn from ``rng``, as every seat's would be."""
        seats: tuple[str, ...] = getattr(self.state, "seats", ("chance",))
        contributions = [(seat, self.rng.randbytes(32)) for seat in seats]
        self.state = self.dealer.settle(
            self.rules.resolve(self.state, context, Draws("computer", context, contributions))
        )

    def phase(self) -> str:
        phase = getattr(self.rules, "phase", None)
        return str(phase(self.state)) if callable(phase) else "?"


def winners(rules: WalkRules, state: Any) -> list[str]:
    """The winners the rules name at the end (their own tie-breaks applied)."""
    return list(rules.view(state, None).get("winners", []))


def shares(rules: WalkRules, state: Any) -> dict[str, float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k for each of k winners, 0 otherwise.
    Before the end, the seats leading on points share it so (the rules' score as it stands)."""
    totals = {seat: points(row) for seat, row in rules.score(state).items()}
    named = winners(rules, state) if rules.over(state) else []
    if not named:
        best = max(totals.values(), default=0)
        named = [seat for seat, total in totals.items() if total == best]
    return {seat: (1 / len(named) if seat in named else 0.0) for seat in totals}


def points(row: Mapping[str, int]) -> int:
    """A seat's points in a row of the rules' score: its total, where the row has one."""
    return row["total"] if "total" in row else sum(row.values())
