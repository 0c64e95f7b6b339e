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
    the replay to name), the entries it overtook, and the step where two histories both went on
    (``split``; -1 when there is none)."""

    entries: list[Mapping[str, Any]]
    overtaken: list[Mapping[str, Any]]
    split: int = -1
    sides: tuple[tuple[str, ...], ...] = ()


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
        one no other overtakes. Entries left behind are overtaken; an entry whose ``prev`` names
        no version at hand is kept for the replay to refuse."""
        chosen: list[Node] = []
        prev, seq = "", 0
        split: int = -1
        sides: tuple[tuple[str, ...], ...] = ()
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
            seated = {version: self._seated(version) for version in went_on}
            survivors = [
                version
                for version in went_on
                if not any(
                    beats(seated[other], (node.by for node in went_on[other]), seated[version])
                    for other in went_on
                    if other != version
                )
            ]
            if len(survivors) != 1:
                split = seq
                sides = tuple(tuple(sorted({node.by for node in went_on[version]})) for version in went_on)
                chosen.extend(candidates)
                break
            kept = survivors[0]
            chosen.extend(node for node in candidates if node.hash in kept)
            prev = step_digest([node.hash for node in candidates if node.hash in kept])
            seq += 1
        kept_hashes = {node.hash for node in chosen}
        overtaken: list[Mapping[str, Any]] = []
        entries: list[Mapping[str, Any]] = [node.entry for node in chosen]
        for node in self.by_hash.values():
            if node.hash in kept_hashes:
                continue
            if split < 0 and self.history(node) is not None:
                overtaken.append(node.entry)
            else:
                entries.append(node.entry)  # nothing explains its place: the replay says why
        return Resolution(entries, overtaken, split, sides)

    def _seated(self, version: frozenset[str]) -> frozenset[tuple[str, str]]:
        return frozenset((member, self.by_hash[member].by) for member in version)
