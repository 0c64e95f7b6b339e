"""Edits an attacker or a mangling mail client could make to a game file, as text edits; and the
forge harness: an entry changed and signed again with a seat's own key, which passes its signature
so only the replay's own checks (the rules, the proofs, the roster) can refuse it. Any game's file
may be forged: the tests of each give the stage, the entry and the change as their cases."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger
from pbem.engine.decks import ProofCheck, check_now

Change = Callable[[dict[str, Any]], None]


def edit(path: Path, change: Callable[[Any], None]) -> None:
    """Apply ``change`` to the parsed document (tomlkit keeps everything else as written)."""
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


def entry_blocks(text: str) -> tuple[str, list[str]]:
    """Split a game file's text into what precedes the entries and each ``[[entry]]`` block."""
    head, *blocks = text.split("[[entry]]\n")
    return head, ["[[entry]]\n" + block for block in blocks]


def rewrite_entries(path: Path, change: Callable[[list[str]], list[str]]) -> None:
    head, blocks = entry_blocks(path.read_text(encoding="utf-8"))
    path.write_text(head + "".join(change(blocks)), encoding="utf-8")


def signed_again(
    data: Mapping[str, Any],
    position: int,
    change: Change,
    key_of: Callable[[str], SecretKeys],
    signer: str | None = None,
) -> dict[str, Any]:
    """The parsed game ``data`` cut after entry ``position``, that entry changed by ``change`` and
    signed again by ``signer`` (by default the seat the changed entry names as its author) with
    its key, ``key_of(seat)``."""
    entry = copy.deepcopy(data["entry"][position])
    change(entry)
    del entry["sig"]
    signed = ledger.sign_entry(data["game"]["id"], entry, key_of(signer or entry["by"]))
    forged = dict(data, entry=[*data["entry"][:position], signed])
    forged["game"] = dict(data["game"], entries=position + 1)
    return forged


def appended(text: str, entry: Mapping[str, Any], key: SecretKeys) -> dict[str, Any]:
    """The parsed game ``text`` with ``entry`` signed with ``key`` after its last entry."""
    data = tomllib.loads(text)
    entry = {name: value for name, value in copy.deepcopy(dict(entry)).items() if name != "sig"}
    signed = ledger.sign_entry(data["game"]["id"], entry, key)
    forged = dict(data, entry=[*data["entry"], signed])
    forged["game"] = dict(data["game"], entries=len(forged["entry"]))
    return forged


def forged_problems(
    data: Mapping[str, Any],
    position: int,
    change: Change,
    key_of: Callable[[str], SecretKeys],
    check: ProofCheck = check_now,
) -> list[str]:
    """What the audit says of entry ``position`` once changed and signed again by its author
    (``signed_again``): empty if it lets the forgery through."""
    forged = signed_again(data, position, change, key_of)
    return [str(problem) for problem in ledger.audit(forged, check).problems if problem.position == position]


@dataclass(frozen=True)
class Forged:
    """A game to forge: its parsed file, and the key of each seat (``key_of(seat)``)."""

    data: dict[str, Any]
    key_of: Callable[[str], SecretKeys]


@dataclass(frozen=True)
class Forgery:
    """One case of a game's forgeries: the entry to change (the last for which ``at`` holds), how,
    and words the audit's refusal of that entry must contain."""

    at: Callable[[Mapping[str, Any]], bool]
    change: Change
    refusal: str


def forgeries_refused(
    data: Mapping[str, Any],
    key_of: Callable[[str], SecretKeys],
    cases: Mapping[str, Forgery],
    check: ProofCheck = check_now,
) -> dict[str, list[str]]:
    """Each case of ``cases`` forged on the parsed game ``data`` (its entry changed and signed
    again by its author): the cases the audit lets through or refuses for another reason, with
    what it said. Empty when every forgery is refused as its case says."""
    missed = {}
    for name, case in cases.items():
        position = max(index for index, entry in enumerate(data["entry"]) if case.at(entry))
        found = forged_problems(data, position, case.change, key_of, check)
        if not any(case.refusal in problem for problem in found):
            missed[name] = found
    return missed
