"""What a message carries, and what the recipient's copy becomes with it.

A message carries either the whole game file (the first message of a game, or ``--full``) or a
*delta*: the entries of the steps some recipient may lack, under a ``[delta]`` table naming the
game, where the entries start and where the sender's copy ends. The sender works out what each
recipient holds from the entries that recipient signed (an entry chains to every step before it)
and from the messages it sent (see ``library``); a recipient that may hold nothing gets the whole
file.

Whatever arrives is combined with the local copy and the whole game verified before anything is
written (``ledger.combine``): a message is a transport, never the authority.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine import ledger as ledger_mod
from pbem.engine.decks import ProofCheck, check_now
from pbem.engine.ledger import Ledger
from pbem.errors import GameFileError, MailContentError, UsageError

DELTA = "delta"


def held_steps(ledger: Ledger, seat: str, known: tuple[int, str] = (0, "")) -> int:
    """How many of ``ledger``'s first steps ``seat`` is known to hold: those before its latest
    entry that chains to this copy's history (and that entry's step too, if nobody else has an
    entry in it), or as many as ``known`` says its copy had (from a message it sent: its steps
    and last step's hash), if that is more."""
    steps, head = known
    from_message = 0
    if 0 < steps <= len(ledger.steps):
        # a step that others' entries joined after the seat's copy was made is not held whole
        from_message = steps if ledger.step_hash(steps - 1) == head else steps - 1
    for position in range(len(ledger.entries) - 1, -1, -1):
        entry = ledger.entries[position]
        if entry.get("by") != seat:
            continue
        step = next(index for index, members in enumerate(ledger.steps) if position in members)
        previous = ledger.step_hash(step - 1) if step > 0 else ""
        if entry.get("prev") == previous:
            whole = ledger.steps[step] == [position]
            return max(from_message, step + 1 if whole else step)
    return from_message


def first_lacked(ledger: Ledger, recipients: Sequence[str], known: Mapping[str, tuple[int, str]]) -> int:
    """The first step some recipient may lack (0: the whole game)."""
    return min((held_steps(ledger, seat, known.get(seat, (0, ""))) for seat in recipients), default=0)


def lacked(ledger: Ledger, recipients: Sequence[str], known: Mapping[str, tuple[int, str]]) -> list[int]:
    """The positions of the entries some recipient may lack: those of a step it may not hold,
    except its own (a seat holds every entry it signed). The recipient merges what arrives with
    its copy, so a step may travel in part."""
    held = {seat: held_steps(ledger, seat, known.get(seat, (0, ""))) for seat in recipients}
    start = min(held.values(), default=0)
    return [
        position
        for index, step in enumerate(ledger.steps[start:], start)
        for position in step
        if any(index >= held[seat] and ledger.entries[position].get("by") != seat for seat in recipients)
    ]


def delta_text(ledger: Ledger, start: int, positions: Sequence[int] | None = None) -> str:
    """A TOML file of the entries of steps ``start`` and later (or of those at ``positions``), as a
    message carries them."""
    import tomlkit

    from pbem.gamefile import entry_table

    doc = tomlkit.document()
    doc.add(
        tomlkit.comment("pbem: entries of a game, to apply with pbem mail import (not a whole game file)")
    )
    doc[DELTA] = {
        "game": ledger.game_id,
        "ruleset": ledger.info.name,
        "from_step": start,
        "steps": len(ledger.steps),
        "head": ledger.head,
    }
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
    overtaken: tuple[str, ...] = ()  # a line for each entry the game went on without


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
        return Applied(merged.ledger, merged.entries, merged.added, carried, tuple(merged.overtaken_lines()))
    if local is None:
        raise MailContentError(
            f"{name} carries the last entries of a game this home does not have: ask the sender to send "
            "the whole game (pbem mail send --full)"
        )
    delta = carried[DELTA]
    if not isinstance(delta, Mapping) or delta.get("game") != local.game_id:
        raise MailContentError(f"{name} carries entries of another game")
    entries = carried.get("entry", [])
    if not isinstance(entries, list) or not entries:
        raise MailContentError(f"{name} carries no entries")
    seqs = [entry["seq"] for entry in entries if isinstance(entry, dict) and type(entry.get("seq")) is int]
    if len(seqs) != len(entries):
        raise MailContentError(f"{name}: its entries are damaged (an entry without a seq)")
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
    return Applied(merged.ledger, merged.entries, merged.added, None, tuple(merged.overtaken_lines()))
