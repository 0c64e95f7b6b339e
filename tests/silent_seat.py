"""A game played on through the signed ledger while one seat answers nothing: what every game's
test of a silent seat shares (tests/test_silent_seat.py).

The others act whenever they can; whenever the silent seat is asked for something, one of them
lets its deadline pass and claims a timeout, as players would: the rules' default for a move,
the escrow's unlock for the shares it owes and for the cards its default shows, a skipped
shuffle. A timeout refused (the unlock still waits for partials) lets the others act first. The
run fails, saying what is asked, if nobody can act and no timeout is let through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

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
    """What the others did for the silent seat: each timeout claimed, by its step."""

    timeouts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)


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
) -> tuple[Ledger, Silence]:
    """``game`` played to its end (``over``), ``silent`` answering nothing once ``quiet`` holds."""
    silence = Silence()
    claimants = [seat for seat in game.seats if seat != silent]
    while not over(game):
        assert len(game.entries) < limit, f"no end after {limit} entries"
        assert game.table is not None and game.rules is not None
        demands = tables.demands(game.rules, game.table)
        assert demands, "nobody is asked anything"
        hushed = quiet(game)
        refused = ""
        if hushed and any(demand.seat == silent for demand in demands):
            moment = clock.now
            at = clock.late(days)
            try:
                game, entry = play.timeout(game, claimants[0], silent, keys[claimants[0]], at)
            except IllegalMoveError as exc:
                clock.now = moment  # nothing was claimed: the others go on first
                refused = str(exc)
                silence.refused[refused.split(":")[0]] += 1
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
            asked = "; ".join(f"{demand.seat} {demand.kind} {demand.step}" for demand in demands)
            raise AssertionError(f"stuck: {asked}; the timeout was refused: {refused}")
    return game, silence
