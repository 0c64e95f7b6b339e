"""The history of each game this pbem home has verified, to notice a copy that is behind it or
that forks from it.

An older copy of a game verifies on its own: nothing in it says that a newer one exists, so a
player could be sent a stale copy (and play on it) without a word: the rollback, or freeze,
attack. Each home therefore keeps, per game, the steps of the furthest copy it has verified, in
``seen-games/GAME_ID``: one line per step, its hash then its entries (``HASH@SEAT``). A copy read
later is compared with it:

- it holds every entry seen, and maybe more: it is the same or newer, and is recorded;
- it holds only entries seen, fewer of them: it is **behind**;
- the two hold entries of the same step that the other lacks, and neither goes further: moves
  made on copies at the same time, which ``pbem merge`` combines (**apart**);
- the copy goes on without entries seen here, all of them by seats whose keys are in this home:
  this player's own moves, made at the same time as others' and overtaken (**overtaken**: the
  player makes them again on this copy, which is recorded);
- anything else: **a fork**, two histories of one game: an entry another seat signed, seen here,
  is gone from a copy that goes on without it.

The file holds hashes and seat names only, nothing secret; a home that cannot be written just
does not learn.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger

LINE = re.compile(r"[0-9a-f]{64}( [0-9a-f]{64}@[^ @]+)+")

Steps = list[tuple[str, frozenset[str]]]  # per step: its hash, and its entries (HASH@SEAT)


@dataclass(frozen=True)
class Comparison:
    """How a copy stands against what this home has seen: ``same``, ``ahead``, ``new`` (never
    seen), ``behind``, ``apart``, ``overtaken`` or ``fork`` (see above)."""

    verdict: str
    steps: int  # the copy's
    head: str
    seen_steps: int
    seen_head: str
    at: int = -1  # the first step where the two differ
    lost: tuple[str, ...] = ()  # the seats whose entries seen here the copy lacks
    own: bool = True  # overtaken: the lost entries are all this home's own

    @property
    def refuses_writes(self) -> bool:
        """Whether a move on this copy would build on a history this home knows to be stale or
        contradicted."""
        return self.verdict in ("behind", "apart", "fork")

    def line(self, *, by_mail: bool = False) -> str:
        """The one line a command prints about it ('' when there is nothing to say); ``by_mail``:
        the game travels by mail, where importing a message combines copies."""
        here = f"step {self.steps - 1}, head {short(self.head)}"
        seen = f"step {self.seen_steps - 1}, head {short(self.seen_head)}"
        if self.verdict == "behind":
            return f"this copy is behind one this home has verified: it ends at {here}; seen: {seen}"
        if self.verdict == "apart":
            return (
                f"this copy and the one this home verified each hold moves of step {self.at} the other "
                f"lacks ({here}; seen: {seen}): "
                + (
                    "pbem mail fetch (or pbem mail import of the message that brought it) combines them"
                    if by_mail
                    else "combine them with pbem merge"
                )
            )
        if self.verdict == "overtaken" and self.own:
            return (
                f"this copy goes on without {', '.join(self.lost)}'s move of step {self.at}, made here at "
                f"the same time as another's ({here}; seen: {seen}): make it again on this copy"
            )
        if self.verdict == "overtaken":
            who = ", ".join(self.lost)
            return (
                f"this copy goes on without {who}'s move of step {self.at}, seen here, made at the same "
                f"time as another's ({here}; seen: {seen}): {who} make{'s' if len(self.lost) == 1 else ''} "
                "it again on this copy"
            )
        if self.verdict == "fork":
            return (
                f"this copy forks from the one this home has verified, at step {self.at}: "
                f"{', '.join(self.lost)}'s entry seen here is gone from it, two histories of one game "
                f"({here}; seen: {seen})"
            )
        return ""


def short(head: str) -> str:
    """A head as players read it to each other: its first 16 hex digits, in fours."""
    return " ".join(head[index : index + 4] for index in range(0, 16, 4))


def steps_of(ledger: Ledger) -> Steps:
    def entry(position: int) -> str:
        return f"{ledger.hashes[position]}@{ledger.entries[position]['by']}"

    return [
        (ledger.step_hash(number), frozenset(entry(position) for position in positions))
        for number, positions in enumerate(ledger.steps)
    ]


def compare(copy: Steps, seen: Steps, own: frozenset[str] = frozenset()) -> Comparison:
    """How ``copy`` stands against ``seen``; ``own``: the seats whose keys this home holds."""
    head = copy[-1][0]
    if not seen:
        return Comparison("new", len(copy), head, 0, "")
    facts = (len(copy), head, len(seen), seen[-1][0])
    at = next(
        (index for index, (mine, theirs) in enumerate(zip(copy, seen, strict=False)) if mine[0] != theirs[0]),
        None,
    )
    if at is None:
        verdict = "same" if len(copy) == len(seen) else "ahead" if len(copy) > len(seen) else "behind"
        return Comparison(verdict, *facts)
    mine, theirs = copy[at][1], seen[at][1]
    copy_ends, seen_ends = at == len(copy) - 1, at == len(seen) - 1
    if seen_ends and mine >= theirs:
        return Comparison("ahead", *facts, at)  # the last step seen, since joined by others' moves
    if copy_ends and theirs >= mine:
        return Comparison("behind", *facts, at)
    if copy_ends and seen_ends:
        return Comparison("apart", *facts, at)
    held = {entry for _, entries in copy for entry in entries}
    lost = {entry for _, entries in seen[at:] for entry in entries} - held
    seats = tuple(sorted({entry.split("@", 1)[1] for entry in lost}))
    if lost and not copy_ends and (set(seats) <= own or _goes_on(copy, seen, at)):
        return Comparison("overtaken", *facts, at, seats, own=set(seats) <= own)
    return Comparison("fork", *facts, at, seats)


def _goes_on(copy: Steps, seen: Steps, at: int) -> bool:
    """Whether the copy's version of step ``at`` is the one the game goes on from, as a merge of
    the two would choose (``branches.goes_on``): the moves seen here were overtaken, not denied."""
    from pbem.engine.branches import Continued, beats, goes_on

    def continued(steps: Steps) -> Continued:
        version = frozenset((entry.split("@", 1)[0], entry.split("@", 1)[1]) for entry in steps[at][1])
        went_on = [entry.split("@", 1)[1] for entry in steps[at + 1][1]] if len(steps) > at + 1 else []
        bears = sum(len(entries) for _, entries in steps[at + 1 :])
        return Continued(version, tuple(went_on), bears)

    mine, theirs = continued(copy), continued(seen)
    only_mine, only_theirs = mine.version - theirs.version, theirs.version - mine.version
    if {seat for _, seat in only_mine} & {seat for _, seat in only_theirs}:
        return False  # a seat signed two entries on the same step: a second history, never a race
    # nobody but the seats whose entries it lacks went on: one of them signing a second history
    return beats(mine.version, mine.went_on, theirs.version) and goes_on([mine, theirs]) == 0


class SeenGames:
    """``seen-games/GAME_ID`` files under a pbem home."""

    def __init__(self, home: Path) -> None:
        self.folder = home / "seen-games"

    def load(self, game_id: str) -> Steps:
        try:
            text = (self.folder / game_id).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        steps: Steps = []
        for line in text.splitlines():
            if not LINE.fullmatch(line):
                return []  # a damaged record teaches nothing: start again from the next copy
            step, *entries = line.split()
            steps.append((step, frozenset(entries)))
        return steps

    def check(self, ledger: Ledger, own: Callable[[], frozenset[str]]) -> Comparison:
        """Compare ``ledger`` with what was seen, and record it if it is the same or newer (or
        overtakes this home's own moves); ``own()`` names the seats whose keys this home holds,
        asked only when the copy goes on without entries seen here."""
        copy = steps_of(ledger)
        seen = self.load(ledger.game_id)
        comparison = compare(copy, seen)
        if comparison.verdict == "fork" or (comparison.verdict == "overtaken" and not comparison.own):
            comparison = compare(copy, seen, own())
        if comparison.verdict in ("new", "ahead", "overtaken"):
            self.record(ledger.game_id, copy)
        return comparison

    def record(self, game_id: str, steps: Steps) -> None:
        from pbem.gamefile import temporary_beside

        text = "".join(f"{step} {' '.join(sorted(entries))}\n" for step, entries in steps)
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = self.folder / game_id
            descriptor, tmp = temporary_beside(path, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except OSError:
            pass
