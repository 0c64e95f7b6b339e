"""Copies of one game that grew apart: which history goes on, which entries it overtook, and when
two entries signed by one seat prove that the seat signed two histories.

Entries made on separate copies at the same point form one step, so a step can exist in several
*versions*: the sets of its entries that one copy or another held. Each entry of the next step
names in ``prev`` the version it was made on. An entry is **overtaken** when another seat went on
from its step, or from an earlier one, on a version that lacks it: the honest race of play by
email, where moves cross in the post. Its seat makes it again on the history that went on, and
that remade entry reveals the same link of the seat's randomness chain as the lost one.

So two different entries signed by one seat prove equivocation only when both could stand in one
game: each is for the same decision (the same step of the same history, or the same link of the
seat's chain) and neither was overtaken in the history the other was made on. A seat that goes on
without its own entry, no other seat having gone on without it, is signing a second history.

Everything here is a pure function of the entries; the ledger replays what it chooses.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.crypto.signing import pae

STEP_DOMAIN = "pbem/step/v1"


def step_digest(members: Sequence[str]) -> str:
    """What an entry of the next step holds in ``prev``: the hash of a step's only entry, or of its
    entries' hashes in seat order."""
    if len(members) == 1:
        return members[0]
    joined = pae(STEP_DOMAIN, *(bytes.fromhex(member) for member in members))
    return hashlib.sha256(joined).hexdigest()


def beats(
    kept: frozenset[tuple[str, str]], went_on: Iterable[str], other: frozenset[tuple[str, str]]
) -> bool:
    """Whether one version of a step (``kept``: its entries as (hash, seat)), continued by the seats
    ``went_on``, overtakes ``other``: ``other`` has entries that ``kept`` lacks, and a seat besides
    theirs went on without them. A seat going on without only its own entries overtakes nothing."""
    lost = other - kept
    seats = {seat for _, seat in lost}
    return bool(lost) and any(seat not in seats for seat in went_on)


@dataclass(frozen=True)
class Continued:
    """One version of a step that the game went on from: its entries as (hash, seat), the seats
    whose entries of the next step were made on it, and how many entries it bears in all (the
    next step's made on it and every later one made on those)."""

    version: frozenset[tuple[str, str]]
    went_on: tuple[str, ...]
    bears: int


def goes_on(options: Sequence[Continued]) -> int:
    """Which of several versions of one step, each gone on from, the game keeps (its index): the
    one no other overtakes (``beats``). Where each overtakes another, or none does, copies made in
    separate homes raced past one another, every seat acting in good faith on what it held, and a
    game must not die of it: the version that bears the most entries is kept, since a player who
    saw both and played on chose it, then the one more seats went on from, then the fuller one,
    then the one whose smallest entry hash is the smaller, so every home chooses the same. The
    others are overtaken and their seats make their entries again."""
    survivors = [
        index
        for index, option in enumerate(options)
        if not any(
            beats(other.version, other.went_on, option.version)
            for other_index, other in enumerate(options)
            if other_index != index
        )
    ]
    if len(survivors) == 1:
        return survivors[0]
    pool = survivors or list(range(len(options)))
    return min(
        pool,
        key=lambda index: (
            -options[index].bears,
            -len(set(options[index].went_on)),
            -len(options[index].version),
            min(hash_ for hash_, _ in options[index].version),
        ),
    )


@dataclass(frozen=True)
class Node:
    """One entry of the union of the copies."""

    entry: Mapping[str, Any]
    hash: str
    seq: int
    by: str
    prev: str

    @property
    def rand(self) -> str | None:
        value = self.entry.get("rand")
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class Resolution:
    """The entries of the history that goes on (with any entry whose place nothing explains, for
    the replay to name), and the entries it overtook."""

    entries: list[Mapping[str, Any]]
    overtaken: list[Mapping[str, Any]]


@dataclass
class Branches:
    """The versions of every step that the given entries make up, and the histories they form."""

    seats: Sequence[str]
    nodes: list[Node]
    order: dict[str, int] = field(init=False)
    groups: dict[tuple[int, str], list[Node]] = field(init=False)
    versions: dict[str, tuple[int, frozenset[str]]] = field(init=False)
    by_hash: dict[str, Node] = field(init=False)
    by_seq: dict[int, list[Node]] = field(init=False)
    versions_at: dict[int, list[tuple[str, frozenset[str]]]] = field(init=False)

    def __post_init__(self) -> None:
        self.order = {seat: index for index, seat in enumerate(self.seats)}
        self.by_hash = {node.hash: node for node in self.nodes}
        self.groups, self.by_seq = {}, {}
        for node in self.by_hash.values():
            self.groups.setdefault((node.seq, node.prev), []).append(node)
            self.by_seq.setdefault(node.seq, []).append(node)
        self.versions = {}
        for (seq, _), members in self.groups.items():
            members.sort(key=lambda node: self.order.get(node.by, len(self.order)))
            for version in self._versions_of(members):
                self.versions[step_digest([node.hash for node in version])] = (
                    seq,
                    frozenset(node.hash for node in version),
                )
        self.versions_at = {}
        for digest, (step, held) in self.versions.items():
            self.versions_at.setdefault(step, []).append((digest, held))

    @staticmethod
    def _versions_of(members: list[Node]) -> Iterable[list[Node]]:
        """Every set of a step's entries a copy could have held: at most one per seat."""
        by_seat: dict[str, list[Node]] = {}
        for node in members:
            by_seat.setdefault(node.by, []).append(node)
        choices = [[None, *nodes] for nodes in by_seat.values()]
        for picked in itertools.product(*choices):
            version = [node for node in picked if node is not None]
            if version:
                yield sorted(version, key=members.index)

    # --- histories ---------------------------------------------------------------------------
    def history(self, node: Node) -> dict[int, frozenset[str]] | None:
        """The versions of every step before ``node`` that it was made on (None: the entries at
        hand do not show them all)."""
        steps: dict[int, frozenset[str]] = {}
        prev, seq = node.prev, node.seq
        while seq > 0:
            found = self.versions.get(prev)
            if found is None or found[0] != seq - 1:
                return None
            steps[seq - 1] = found[1]
            prev = self.by_hash[next(iter(found[1]))].prev
            seq -= 1
        return steps

    def overtaken_in(self, node: Node, other: Node) -> bool | None:
        """Whether ``node`` was overtaken in the history ``other`` was made on: a seat besides
        ``node``'s went on there without ``node`` or without an entry ``node`` was made on (None:
        a history is not known)."""
        mine, theirs = self.history(node), self.history(other)
        if mine is None or theirs is None:
            return None
        mine[node.seq] = frozenset({node.hash})
        lost_at = None
        for step in range(node.seq + 1):
            held = theirs.get(step)
            if held is None:
                return False  # that history never went past this step
            if held == mine[step]:
                continue
            # a fuller version there: this history's next step was made on another version, so
            # all of it is missing from that history
            lost_at = step if mine[step] - held else step + 1
            break
        if lost_at is None:
            return False
        return any(
            self.by_hash[member].by != node.by
            for step, version in theirs.items()
            if step > lost_at
            for member in version
        )

    def equivocation(self, one: Node, two: Node) -> bool:
        """Whether two different entries by one seat for one decision could both stand in a game:
        neither overtaken in the history of the other. Unknown histories prove nothing."""
        if one.by != two.by or one.hash == two.hash:
            return False
        same_step = one.seq == two.seq and one.prev == two.prev
        if not same_step and (one.rand is None or one.rand != two.rand):
            return False
        return self.overtaken_in(one, two) is False and self.overtaken_in(two, one) is False

    def rivals(self) -> Iterable[tuple[Node, Node]]:
        """Pairs of different entries by one seat for one decision, in the order they were given."""
        decisions: dict[tuple[Any, ...], list[Node]] = {}
        for node in self.by_hash.values():
            decisions.setdefault(("step", node.by, node.seq, node.prev), []).append(node)
            if node.rand is not None:
                decisions.setdefault(("link", node.by, node.rand), []).append(node)
        seen: set[tuple[str, str]] = set()
        for nodes in decisions.values():
            for one, two in itertools.combinations(nodes, 2):
                if (one.hash, two.hash) not in seen:
                    seen.add((one.hash, two.hash))
                    yield one, two

    # --- the history that goes on ----------------------------------------------------------------
    def resolve(self) -> Resolution:
        """Walk the steps from the genesis; where versions of a step were each continued, keep the
        one the game goes on from (``goes_on``). Entries left behind are overtaken; an entry whose
        ``prev`` names no version at hand is kept for the replay to refuse."""
        chosen: list[Node] = []
        prev, seq = "", 0
        while True:
            candidates = self.groups.get((seq, prev))
            if not candidates:
                break
            hashes = frozenset(node.hash for node in candidates)
            went_on: dict[frozenset[str], list[Node]] = {}
            for node in self.by_seq.get(seq + 1, []):
                found = self.versions.get(node.prev)
                if found is not None and found[0] == seq and found[1] <= hashes:
                    went_on.setdefault(found[1], []).append(node)
            if not went_on:
                chosen.extend(candidates)
                break
            versions = list(went_on)
            kept = versions[
                goes_on(
                    [
                        Continued(
                            self._seated(version),
                            tuple(node.by for node in went_on[version]),
                            self._borne(went_on[version]),
                        )
                        for version in versions
                    ]
                )
            ]
            chosen.extend(node for node in candidates if node.hash in kept)
            prev = step_digest([node.hash for node in candidates if node.hash in kept])
            seq += 1
        kept_hashes = {node.hash for node in chosen}
        overtaken: list[Mapping[str, Any]] = []
        entries: list[Mapping[str, Any]] = [node.entry for node in chosen]
        for node in self.by_hash.values():
            if node.hash in kept_hashes:
                continue
            if self.history(node) is not None:
                overtaken.append(node.entry)
            else:
                entries.append(node.entry)  # nothing explains its place: the replay says why
        return Resolution(entries, overtaken)

    def _borne(self, first: Sequence[Node]) -> int:
        """How many entries ``first`` (entries of one step) and every entry made on them bear."""
        count, frontier = 0, list(first)
        while frontier:
            count += len(frontier)
            seq = frontier[0].seq
            held = {node.hash for node in frontier}
            on = {digest for digest, members in self.versions_at.get(seq, []) if members <= held}
            frontier = [node for node in self.by_seq.get(seq + 1, []) if node.prev in on]
        return count

    def _seated(self, version: frozenset[str]) -> frozenset[tuple[str, str]]:
        return frozenset((member, self.by_hash[member].by) for member in version)
