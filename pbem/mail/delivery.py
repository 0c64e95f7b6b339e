"""What a message carries, and what the recipient's copy becomes with it.

A message carries either the whole game file (an invitation, or ``--full``) or a *delta*: the
entries some recipient lacks, under a ``[delta]`` table naming the game, where the entries start,
where the sender's copy ends, and (a guess for the next message's size, never trusted) which seat
sent it.

What a seat holds is a set of entries, not a point in the game: a step that several seats made
at once is held in part by each until the others' entries reach it. The sender works out each
recipient's set from the entries it signed, and from what the library remembers of the mail:
the copy each message from it said it had and what it carried, and what each message this home
sent it carried, each with every step its entries chain to. Nothing is assumed of a message
between two other seats: mail crosses and arrives out of order, and a message that relied on
another reaching its recipient first would not apply there. An entry chains to the
whole of the step before it as it stood on its author's copy, so a hash names a set: an entry's
hash, every step before it and the entry; a step's hash (or the hash of a part of a step, the
version of it one copy held), that step or part and every step before it.

Whatever arrives is combined with the local copy and the whole game verified before anything is
written (``ledger.combine``): a message is a transport, never the authority.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine import ledger as ledger_mod
from pbem.engine.branches import step_digest
from pbem.engine.decks import ProofCheck, check_now
from pbem.engine.ledger import Ledger
from pbem.errors import GameFileError, MailContentError, UsageError

DELTA = "delta"


@dataclass(frozen=True)
class Holding:
    """What one copy of the game holds of ``ledger``: its first ``whole`` steps, and the entries
    at ``extra`` (positions in ``ledger.entries``) beyond them."""

    whole: int
    extra: frozenset[int]

    def holds(self, ledger: Ledger, position: int) -> bool:
        return position in self.extra or ledger.entries[position]["seq"] < self.whole

    def joined(self, other: Holding, ledger: Ledger) -> Holding:
        whole = max(self.whole, other.whole)
        extra = {p for p in self.extra | other.extra if ledger.entries[p]["seq"] >= whole}
        # a step held in every entry counts as whole: the steps after it may build on it
        while whole < len(ledger.steps) and set(ledger.steps[whole]) <= extra:
            extra -= set(ledger.steps[whole])
            whole += 1
        return Holding(whole, frozenset(extra))


NOTHING = Holding(0, frozenset())


def named(ledger: Ledger) -> dict[str, Holding]:
    """What each hash a copy may be known by names in ``ledger``: an entry (with every step before
    it), a step or part of a step as one copy held it (with every step before it)."""
    names: dict[str, Holding] = {}
    for step, positions in enumerate(ledger.steps):
        for size in range(1, len(positions) + 1):
            for part in itertools.combinations(positions, size):
                digest = step_digest([ledger.hashes[position] for position in part])
                names[digest] = (
                    Holding(step + 1, frozenset())
                    if size == len(positions)
                    else Holding(step, frozenset(part))
                )
    return names


def holding(
    ledger: Ledger, seat: str, known: Iterable[str] = (), names: Mapping[str, Holding] | None = None
) -> Holding:
    """What ``seat``'s copy holds of ``ledger``: its own latest entry and every step before it,
    and what the hashes ``known`` (from the mail, see ``library``) name; a hash this copy does not
    know names nothing. A seat handed on is its new player's copy: it holds what that player
    signed and what the mail to and from it carried, never what the seat's earlier player held
    (the entries up to the handover, the copies the mail knew before it)."""
    names = named(ledger) if names is None else names
    past = ledger.handovers.get(seat)
    since = past[-1].seq if past else -1  # the step that handed it on, the earlier player's last
    held = NOTHING
    for position in range(len(ledger.entries) - 1, -1, -1):
        entry = ledger.entries[position]
        if entry["seq"] <= since:
            break
        if entry.get("by") == seat:
            held = names[ledger.hashes[position]]
            break
    for digest in known:
        found = names.get(digest)
        if found is not None and (since < 0 or _past(found, since, ledger)):
            held = held.joined(found, ledger)
    return held


def _past(held: Holding, step: int, ledger: Ledger) -> bool:
    """Whether ``held`` holds an entry of a step after ``step``: a copy that does not is one a
    seat's earlier player may have held."""
    return held.whole > step + 1 or any(ledger.entries[position]["seq"] > step for position in held.extra)


def strangers(ledger: Ledger, recipients: Sequence[str], known: Mapping[str, Collection[str]]) -> list[str]:
    """The recipients whose copy holds nothing of the game (a new player a seat was handed on to,
    before anything reached it): a message to them carries the whole game file, which starts the
    game in their home."""
    names = named(ledger)
    return [seat for seat in recipients if holding(ledger, seat, known.get(seat, ()), names).whole == 0]


def lacked(ledger: Ledger, recipients: Sequence[str], known: Mapping[str, Collection[str]]) -> list[int]:
    """The positions of the entries some recipient lacks, in file order: all the recipient needs
    to apply the message, since its copy and these make this one. A step may travel in part."""
    names = named(ledger)
    held = [holding(ledger, seat, known.get(seat, ()), names) for seat in recipients]
    start = min((one.whole for one in held), default=0)
    return [
        position
        for step in ledger.steps[start:]
        for position in step
        if any(not one.holds(ledger, position) for one in held)
    ]


def tips(ledger: Ledger, held: Holding) -> list[str]:
    """The fewest hashes that name ``held``: the last whole step's, and each entry beyond it."""
    return ([ledger.step_hash(held.whole - 1)] if held.whole else []) + [
        ledger.hashes[position] for position in sorted(held.extra)
    ]


def learned(
    ledger: Ledger,
    carried: Mapping[str, Any],
    sender: str | None,
    known: Mapping[str, Collection[str]],
) -> dict[str, list[str]]:
    """What the sender of a message applied to ``ledger`` is known to hold now (with what
    ``known`` said before): the copy the message says it had, and what it carried. Only the
    sender: another seat the message went to may not have it yet (mail crosses and arrives out
    of order), and a message that relied on it would not apply there."""
    delta = carried.get(DELTA)
    said = delta.get("sender") if isinstance(delta, Mapping) else None
    if isinstance(said, str) and said in ledger.participants:
        sender = said
    if sender is None or sender not in ledger.participants:
        return {}
    table = delta if isinstance(delta, Mapping) else carried.get("game")
    head = table.get("head") if isinstance(table, Mapping) else None
    entries = carried.get("entry")
    where = {
        (entry.get("seq"), entry.get("by"), entry.get("sig")): ledger.hashes[position]
        for position, entry in enumerate(ledger.entries)
    }
    hashes = [*known.get(sender, ())]
    hashes += [
        where[key]
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict) and (key := (entry.get("seq"), entry.get("by"), entry.get("sig"))) in where
    ]
    if isinstance(head, str):
        hashes.append(head)
    held = tips(ledger, holding(ledger, sender, hashes))
    return {sender: held} if held else {}


def copied(
    ledger: Ledger, carried: Mapping[str, Any], recipients: str, sender: str | None
) -> dict[str, list[str]]:
    """The seats besides its sender that a message applied to ``ledger`` went to (by their
    addresses in its To and Cc, ``recipients``), each with the copy its sender said it had: what
    they will hold once it reaches them. A guess from headers, for sparing them a message only."""
    delta = carried.get(DELTA)
    table = delta if isinstance(delta, Mapping) else carried.get("game")
    head = table.get("head") if isinstance(table, Mapping) else None
    if not isinstance(head, str):
        return {}
    from email.utils import getaddresses

    went = {address.lower() for _, address in getaddresses([recipients])}
    return {
        seat: [head]
        for seat, address in ledger.addresses.items()
        if seat != sender and address.lower() in went
    }


def delta_text(
    ledger: Ledger,
    start: int,
    positions: Sequence[int] | None = None,
    *,
    sender: str | None = None,
) -> str:
    """A TOML file of the entries of steps ``start`` and later (or of those at ``positions``), as a
    message from ``sender`` carries them."""
    import tomlkit

    from pbem.gamefile import entry_table

    doc = tomlkit.document()
    doc.add(
        tomlkit.comment("pbem: entries of a game, to apply with pbem mail import (not a whole game file)")
    )
    header: dict[str, Any] = {
        "game": ledger.game_id,
        "ruleset": ledger.info.name,
        "from_step": start,
        "steps": len(ledger.steps),
        "head": ledger.head,
    }
    if sender is not None:
        header["sender"] = sender
    doc[DELTA] = header
    entries = tomlkit.aot()
    chosen = positions if positions is not None else [p for step in ledger.steps[start:] for p in step]
    for position in chosen:
        entries.append(entry_table(ledger.entries[position]))
    doc["entry"] = entries
    return tomlkit.dumps(doc)


@dataclass(frozen=True)
class Applied:
    """What a message did to the local copy: the combined ledger, its entries, and how many of
    them were new (0: the copy had everything already)."""

    ledger: Ledger
    entries: list[dict[str, Any]]
    added: int
    whole: Mapping[str, Any] | None  # the carried file, when it was a whole game file
    # the entries the game went on without, not yet made again (``ledger.Merge.overtaken``)
    overtaken: tuple[dict[str, Any], ...] = ()


class NotHere(MailContentError):
    """Entries of a game this home is not in (a delta, which cannot start a game as a whole file
    can): mail meant for another, or come before the game's whole file. Nothing to apply, and
    nothing wrong with the message."""

    def __init__(self, delta: object) -> None:
        table = delta if isinstance(delta, Mapping) else {}
        # said back to the player as the message names it, so only what a game's names are made of
        game, ruleset = (str(table.get(key, "")) for key in ("game", "ruleset"))
        self.game = game[:8] if re.fullmatch(r"[0-9a-f]{8,64}", game) else ""
        self.ruleset = ruleset if re.fullmatch(r"[a-z0-9-]{1,40}", ruleset) else ""
        named = " ".join(text for text in (self.ruleset, self.game) if text)
        super().__init__("entries of a game this home is not in" + (f" ({named})" if named else ""))


def game_of(data: Mapping[str, Any]) -> str:
    """The id of the game carried data belongs to (a whole file's header, or a delta's)."""
    table = data.get(DELTA) if DELTA in data else data.get("game")
    game = table.get("game" if DELTA in data else "id") if isinstance(table, Mapping) else None
    if not isinstance(game, str):
        raise MailContentError("the carried entries name no game")
    return game


def apply(
    local: Ledger | None, carried: Mapping[str, Any], name: str, check: ProofCheck = check_now
) -> Applied:
    """The local copy (None: this home has none) combined with what a message carries."""
    if DELTA not in carried:
        whole = ledger_mod.read(carried, check)  # a whole file verifies on its own
        if local is None:
            return Applied(whole, list(whole.entries), len(whole.entries), carried)
        if whole.game_id != local.game_id:
            raise MailContentError(f"{name} carries another game ({whole.game_id})")
        merged = ledger_mod.combine(local, [(name, whole.entries)], check)
        return Applied(merged.ledger, merged.entries, merged.added, carried, merged.overtaken)
    delta = carried[DELTA]
    game = delta.get("game") if isinstance(delta, Mapping) else None
    if not isinstance(game, str) or not re.fullmatch(r"[0-9a-f]{32}", game):
        raise MailContentError(f"{name}: the carried entries name no game")
    entries = carried.get("entry", [])
    if not isinstance(entries, list) or not entries:
        raise MailContentError(f"{name} carries no entries")
    seqs = [entry["seq"] for entry in entries if isinstance(entry, dict) and type(entry.get("seq")) is int]
    if len(seqs) != len(entries):
        raise MailContentError(f"{name}: its entries are damaged (an entry without a seq)")
    if local is None:  # a game's entries, sound as far as can be told without the game
        raise NotHere(delta)
    if game != local.game_id:
        raise MailContentError(f"{name} carries entries of another game")
    first = min(seqs)
    if first > len(local.steps):
        raise MailContentError(
            f"{name} does not connect to this copy: entries {len(local.steps)} to {first - 1} are missing; "
            "ask the sender to send the whole game (pbem mail send --full)"
        )
    try:
        merged = ledger_mod.combine(local, [(name, entries)], check)
    except UsageError as exc:
        raise MailContentError(f"{name}: {exc}") from None
    except GameFileError as exc:
        if isinstance(exc, MailContentError):
            raise
        raise MailContentError(f"{name}: {exc}") from None
    return Applied(merged.ledger, merged.entries, merged.added, None, merged.overtaken)


# --- who needs a copy now -------------------------------------------------------------------------
# The demands a seat meets without choosing anything: what it owes the hidden decks, a sealed value
# to reveal, randomness (any entry of its adds it). They ride in the seat's next entry, so its
# copy needs them only when nothing else can go on.
AUTOMATIC = ("reveal", "contribute", "shuffle", "share", "escrow", "unlock")
NEW_PLAYER = ("handover", "rejoin")  # the entries that give a seat a new player's key


def knows(ledger: Ledger, held: Holding, position: int) -> bool:
    """Whether a copy that holds ``held`` holds the entry at ``position`` and every entry before
    it in the file (what the state after that entry is made of)."""
    step = int(ledger.entries[position]["seq"])
    if held.whole != step:
        return held.whole > step
    return all(other in held.extra for other in ledger.steps[step] if other <= position)


def needing(
    ledger: Ledger,
    own: Collection[str],
    known: Mapping[str, Collection[str]],
    overtaken: Collection[str] = (),
) -> list[str]:
    """The seats besides ``own`` (this home's) that need what this copy holds now, in seat order;
    the others get it with the next message that goes to them.

    A seat needs it when it is asked for a choice it cannot know of (its copy lacks the entry
    after which it was asked); when it owes what the game waits for (the decks, a reveal,
    randomness) and does not know it, and nothing else can go on; when an entry of its was
    overtaken (``overtaken``) and it lacks the history that went on; when it lacks a join, once the
    game has started, or the entry that gave a seat a new player; when it is asked for a choice
    and cannot read its cards until shares this copy holds reach it; and every seat, once the game
    is over. When this home has done what it was asked and the others are still deciding at once
    (a sealed step, everyone's reveal), its entries go to the first of them in seat order, which
    gathers the step: whoever completes it then holds it whole and tells everyone. What needs no
    choice and nobody else waits on goes round the table: to the next seat in seat order that owes
    it and does not know."""
    from pbem.engine import table as tables

    others = [seat for seat in ledger.participants if seat not in own]
    names = named(ledger)
    held = {seat: holding(ledger, seat, known.get(seat, ()), names) for seat in others}

    def lacks(seat: str) -> bool:
        return any(not held[seat].holds(ledger, position) for position in range(len(ledger.entries)))

    chosen = {seat for seat in overtaken if seat in held and lacks(seat)}
    table, rules = ledger.table, ledger.rules
    # who plays: once the game has started, every seat learns each join (the last one started the
    # game, which every seat must know to police the deadlines it runs) and each seat's new player
    kinds = NEW_PLAYER if table is None else ("join", *NEW_PLAYER)
    players = [position for position, entry in enumerate(ledger.entries) if entry.get("kind") in kinds]
    chosen |= {seat for seat in others if any(not held[seat].holds(ledger, position) for position in players)}
    if table is None or rules is None:
        # joining: the creator gathers the joins; the last one starts the game for everyone
        creator = ledger.participants[0]
        if creator in held and lacks(creator):
            chosen.add(creator)
        return [seat for seat in others if seat in chosen]
    demands = tables.demands(rules, table)
    if not demands:  # over, or stopped: everyone sees how
        return [seat for seat in others if lacks(seat)]
    automatic = [demand for demand in demands if _automatic(ledger, demand)]
    deciding = [demand for demand in demands if demand not in automatic]
    blocking = _blocking(ledger, deciding, demands)
    # a seat the rules' defaults play (absent, retired) acts on nothing it is sent: the others
    # stand in for it, and it catches up with the next message that goes to it
    stood = set(tables.stood_in(table))
    # seats asked for a choice that cannot read their cards until shares this copy holds reach
    # them: while shares are still missing here too, they go to the first such seat, which gathers
    # them (each seat's shares to every other would be a message from each to each); once this copy
    # holds every share the choices wait for, to each that lacks them
    deciders = [seat for seat in ledger.seats if seat not in stood and any(d.seat == seat for d in deciding)]
    readers = [
        seat
        for seat in deciders
        if seat in held
        and _reads(ledger, seat, [p for p in range(len(ledger.entries)) if not held[seat].holds(ledger, p)])
    ]
    if readers:
        if not blocking:
            chosen.update(readers)
        elif deciders[0] in readers:
            chosen.add(deciders[0])
    unaware: list[str] = []  # seats that owe what the game waits for, unaware of it
    for demand in demands:
        seat = demand.seat
        if seat not in held or seat in chosen or seat in stood:
            continue
        since = table.asked_since.get(tables.asked_key(demand), len(ledger.entries) - 1)
        if knows(ledger, held[seat], since):
            continue
        if demand not in automatic or seat in blocking:
            chosen.add(seat)
        elif not deciding:
            unaware.append(seat)
    if unaware:
        # each does it unasked (pbem mail fetch --answer) and passes the game on to the next in
        # seat order: one message each, where telling them all at once costs each seat a message
        # from everyone who answered before it
        me = min((ledger.participants.index(seat) for seat in own if seat in ledger.participants), default=-1)
        chosen.add(
            min(
                unaware,
                key=lambda seat: (ledger.participants.index(seat) - me - 1) % len(ledger.participants),
            )
        )
    if not chosen and not any(demand.seat in own for demand in demands):
        waiting = [
            seat for seat in others if seat not in stood and any(demand.seat == seat for demand in demands)
        ]
        gatherer = next((seat for seat in waiting if lacks(seat)), None)
        if gatherer is not None:
            chosen.add(gatherer)
    return [seat for seat in others if seat in chosen]


def _automatic(ledger: Ledger, demand: Any) -> bool:
    """Whether a demand needs no choice of its seat: what a home answers unasked."""
    from pbem.engine.play import forced

    return demand.kind in AUTOMATIC or (demand.kind == "move" and forced(ledger, demand.seat) is not None)


def _reads(ledger: Ledger, seat: str, positions: Sequence[int]) -> bool:
    """Whether any entry at ``positions`` gives a share (or partial decryptions of a silent seat's
    share) of a hidden card ``seat`` holds: what it needs to read its cards."""
    from pbem.engine.decks import share_items, token
    from pbem.engine.play import held

    if ledger.table is None or ledger.table.decks is None:
        return False
    tokens = set(held(ledger, seat))
    if not tokens:
        return False
    for position in positions:
        entry = ledger.entries[position]
        given = [
            (item.get("deck"), item.get("slot")) for _, item in share_items(entry, "shares", ledger.group)
        ]
        given += [
            (item.get("deck"), slot)
            for item in entry.get("escrow_partials", [])
            if isinstance(item, Mapping)
            for slot in item.get("slots", [])
        ]
        if any(isinstance(slot, int) and token(str(deck), slot) in tokens for deck, slot in given):
            return True
    return False


def _blocking(ledger: Ledger, deciding: Sequence[Any], demands: Sequence[Any]) -> set[str]:
    """The seats whose decryption shares a seat asked for a choice still waits for, and those
    asked for partial decryptions of a silent seat's: the game waits on both."""
    from pbem.engine.play import share_waits

    if ledger.table is None or ledger.table.decks is None:
        return set()
    waits = {
        seat for demand in deciding for seats in share_waits(ledger, demand.seat).values() for seat in seats
    }
    return waits | {demand.seat for demand in demands if demand.kind == "unlock"}
