"""A game played on through the signed ledger while one seat answers nothing: what every game's
test of a silent seat shares (tests/test_silent_seat.py, tests/test_one_deadline.py).

Whenever the silent seat is asked for something, one of the others claims a timeout against it
at once if one is taken then (an absent seat's default that needs a claimant's entry); otherwise
the others act whenever they can, and only when none of them can does the clock pass the silent
seat's deadline for a claim, as players would wait for it: the rules' default for a move, the
escrow's unlock for the shares it owes and for the cards its default shows, a skipped shuffle.
Each such wait is a deadline the others lost to the silent seat, counted by the stage of the game
it fell in. The run fails, saying what is asked, if nobody can act and no timeout is let through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pbem.crypto.identity import SecretKeys
from pbem.engine import play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import DECK_DEMANDS, Demand
from pbem.errors import IllegalMoveError

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

# (the game, the demand answered, its seat's key) -> the game with the seat's move, or None when
# the seat has no move it would make now (its cards still wait for shares)
Mover = Callable[[Ledger, Demand, SecretKeys, str], Ledger | None]
# (the game, the claimant, the time) -> the game with the claimant's timeout against the silent
# seat, or IllegalMoveError saying why none is taken then
Claim = Callable[[Ledger, str, str], tuple[Ledger, dict[str, Any]]]


@dataclass
class Clock:
    now: datetime

    def tick(self, minutes: int = 7) -> str:
        self.now += timedelta(minutes=minutes)
        return self.now.strftime(TIME_FORMAT)

    def late(self, days: int) -> str:
        """A moment past every deadline running now (each ``days`` long)."""
        self.now += timedelta(days=days, minutes=1)
        return self.now.strftime(TIME_FORMAT)


@dataclass
class Silence:
    """What the others did for the silent seat: each timeout claimed, by its step, and each
    deadline they waited for, by the stage of the game (a round, a decade) it fell in."""

    timeouts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    lost: Counter[int] = field(default_factory=Counter)


def answer(game: Ledger, demand: Demand, secret: SecretKeys, at: str, mover: Mover) -> Ledger | None:
    """The entry that answers ``demand``: a reveal, what the seat owes the decks, randomness, or
    its move."""
    seat = demand.seat
    if demand.kind == "reveal":
        return play.reveal(game, seat, secret, at)[0]
    if demand.kind in DECK_DEMANDS:
        return play.sync(game, seat, secret, at)[0]
    if demand.kind == "contribute":
        return play.play(game, seat, play.ROLL, secret, at)[0]
    return mover(game, demand, secret, at)


def play_on(
    game: Ledger,
    keys: Mapping[str, SecretKeys],
    *,
    silent: str,
    quiet: Callable[[Ledger], bool],
    over: Callable[[Ledger], bool],
    mover: Mover,
    clock: Clock,
    days: int,
    limit: int = 4000,
    claim: Claim | None = None,
    stage: Callable[[Ledger], int] = lambda game: 0,
) -> tuple[Ledger, Silence]:
    """``game`` played to its end (``over``), ``silent`` answering nothing once ``quiet`` holds;
    each timeout made by ``claim`` (by default, by the engine's ``play.timeout``)."""
    silence = Silence()
    claimant = next(seat for seat in game.seats if seat != silent)

    def claimed(game: Ledger, at: str) -> tuple[Ledger, dict[str, Any]]:
        if claim is not None:
            play.check_timeout_now(game, claimant, silent, at)  # a claim refused costs no command
            return claim(game, claimant, at)
        return play.timeout(game, claimant, silent, keys[claimant], at)

    while not over(game):
        assert len(game.entries) < limit, f"no end after {limit} entries"
        assert game.table is not None and game.rules is not None
        demands = tables.demands(game.rules, game.table)
        assert demands, "nobody is asked anything"
        hushed = quiet(game)
        asked = hushed and any(demand.seat == silent for demand in demands)
        refused = ""
        if asked:
            moment = clock.now
            try:
                game, entry = claimed(game, clock.tick())  # taken at once, or not at all yet
            except IllegalMoveError as exc:
                clock.now = moment
                refused = str(exc)
            else:
                silence.timeouts[str(entry["step"])] += 1
                continue
        for demand in demands:
            if hushed and demand.seat == silent:
                continue
            made = answer(game, demand, keys[demand.seat], clock.tick(), mover)
            if made is not None:
                game = made
                break
        else:
            if asked:  # nobody else can act: the others wait for the silent seat's deadline
                moment, waited = clock.now, stage(game)
                try:
                    game, entry = claimed(game, clock.late(days))
                except IllegalMoveError as exc:
                    clock.now = moment
                    refused = str(exc)
                    silence.refused[refused.split(":")[0]] += 1
                else:
                    silence.timeouts[str(entry["step"])] += 1
                    silence.lost[waited] += 1
                    continue
            wanted = "; ".join(f"{demand.seat} {demand.kind} {demand.step}" for demand in demands)
            raise AssertionError(f"stuck: {wanted}; the timeout was refused: {refused}")
    return game, silence
