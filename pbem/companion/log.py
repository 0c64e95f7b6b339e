"""The table log: what happened at a physical table, one action at a time, replayed into a state.

A log is plain data (what its TOML file holds): a ``table`` header (game, edition, players,
options, the hash of its component values), the ``action`` list, oldest first, and the ``undone``
list, the actions taken back by ``undo``, most recent last. Nothing derived is stored: the state
is always the replay of the actions, so an undo is simply one action fewer.

Every action carries ``prev``, the hash of the one before (the header's hash for the first), so
the actions form a chain. An action may be signed by a seat (``signer``, ``key``, ``sig``): the
signature covers the action and, through ``prev``, the header and every action before it, so a
finished table game signed by its players can be verified like an email game. An undone action
keeps its ``prev``; ``redo`` puts back the most recent undone action that still chains to the
current last action, so anything recorded since an undo leaves the older undone actions in the
history for reference but no longer redoable.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.companion.tracker import Sheet, Tracker
from pbem.crypto.canonical import canonical_bytes
from pbem.crypto.signing import pae, signature_valid
from pbem.engine.declaration import GameInfo
from pbem.engine.seats import check_seat
from pbem.errors import GameFileError, IdentityError, PbemError, UsageError
from pbem.kit.rules import Components, Options

FORMAT = "pbem-table/1"
ACTION_DOMAIN = "pbem/table-action/v1"
HEADER_FIELDS = ("format", "id", "game", "edition", "players", "options", "created", "components_sha256")
ACTION_FIELDS = ("seq", "at", "by", "text", "prev")
SIGNED_FIELDS = ("signer", "key", "sig")


def tracker_for(info: GameInfo) -> Tracker[Any]:
    if info.tracker is None:
        raise UsageError(f"{info.name} has no companion mode")
    return info.tracker()


def components_hash(components: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_bytes(dict(components))).hexdigest()


def new_log(
    info: GameInfo,
    players: Sequence[str],
    *,
    edition: str,
    options: Options,
    components: Components,
    table_id: str,
    created: str,
) -> dict[str, Any]:
    """A log with no actions, after checking the table can be set up."""
    tracker_for(info).start(players, edition, options, components or None)
    header = {
        "format": FORMAT,
        "id": table_id,
        "game": info.name,
        "edition": edition,
        "players": list(players),
        "options": dict(options),
        "created": created,
        "components_sha256": components_hash(components) if components else "",
    }
    return {"table": header, "components": dict(components), "action": [], "undone": []}


def header_hash(header: Mapping[str, Any]) -> str:
    return hashlib.sha256(pae(ACTION_DOMAIN, canonical_bytes(dict(header)))).hexdigest()


def action_message(table_id: str, action: Mapping[str, Any]) -> bytes:
    """What a signed action's signature covers: the action without its signature."""
    body = {key: value for key, value in action.items() if key != "sig"}
    return pae(ACTION_DOMAIN, table_id.encode("utf-8"), canonical_bytes(body))


def action_hash(table_id: str, action: Mapping[str, Any]) -> str:
    sig = str(action.get("sig", "")).encode("ascii")
    return hashlib.sha256(action_message(table_id, action) + sig).hexdigest()


@dataclass(frozen=True)
class Table:
    """A log replayed: the tracker's state after every action, and what each action reported."""

    info: GameInfo
    tracker: Tracker[Any]
    log: dict[str, Any]
    state: Any
    reports: tuple[Sheet, ...]

    @property
    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = self.log["table"]
        return header

    @property
    def actions(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = self.log["action"]
        return actions

    @property
    def undone(self) -> list[dict[str, Any]]:
        undone: list[dict[str, Any]] = self.log["undone"]
        return undone

    @property
    def tip(self) -> str:
        """The hash the next action must carry as ``prev``."""
        if not self.actions:
            return header_hash(self.header)
        return action_hash(self.header["id"], self.actions[-1])

    def signers(self) -> dict[str, str]:
        """Each seat that signed an action, with its signing key (base64)."""
        return {action["signer"]: action["key"] for action in self.actions if "sig" in action}


def replay(data: Mapping[str, Any], source: str) -> Table:
    """Check a log's shape, chain and signatures, and replay its actions; the first problem
    raises GameFileError naming ``source`` and the action's number."""
    from pbem.engine import registry

    log = _shape(data, source)
    header = log["table"]
    try:
        info = registry.get(header["game"])
        info.check_edition(header["edition"])
        options = info.check_options(header["options"])
    except UsageError as exc:
        raise GameFileError(f"{source}: table header: {exc}") from None
    components = log["components"]
    if (components_hash(components) if components else "") != header["components_sha256"]:
        raise GameFileError(f"{source}: the [components] table does not match its hash in the header")
    tracker = tracker_for(info)
    try:
        state = tracker.start(header["players"], header["edition"], options, components or None)
    except PbemError as exc:
        raise GameFileError(f"{source}: table header: {exc}") from None
    prev = header_hash(header)
    keys: dict[str, str] = {}
    reports: list[Sheet] = []
    for index, action in enumerate(log["action"], start=1):
        where = f"{source}: action {index} ({action['text']!r})"
        if action["seq"] != index:
            raise GameFileError(f"{where}: numbered {action['seq']}, expected {index}")
        if action["prev"] != prev:
            raise GameFileError(f"{where}: does not chain to the action before it (edited or reordered)")
        if "sig" in action:
            _check_signature(header, action, keys, where)
        try:
            state, report = tracker.apply(state, action["text"])
        except PbemError as exc:
            raise GameFileError(f"{where}: refused on replay: {exc}") from None
        reports.append(report)
        prev = action_hash(header["id"], action)
    return Table(info, tracker, log, state, tuple(reports))


def _check_signature(
    header: Mapping[str, Any], action: Mapping[str, Any], keys: dict[str, str], where: str
) -> None:
    signer, key = action["signer"], action["key"]
    if signer not in header["players"]:
        raise GameFileError(f"{where}: signed by {signer!r}, who is not a player at this table")
    if keys.setdefault(signer, key) != key:
        raise GameFileError(f"{where}: signed by {signer} with a different key from its earlier actions")
    try:
        public = base64.b64decode(key, validate=True)
        signature = base64.b64decode(action["sig"], validate=True)
    except (binascii.Error, ValueError):
        raise GameFileError(f"{where}: its key or signature is not base64") from None
    if not signature_valid(public, action_message(header["id"], action), signature):
        raise GameFileError(f"{where}: bad signature by {signer} (the action was changed after signing)")


@dataclass(frozen=True)
class Signer:
    """A seat signing the actions it records: its public key and its signing function."""

    seat: str
    public: bytes
    sign: Callable[[bytes], bytes]


def record(table: Table, text: str, at: str, by: str, signer: Signer | None = None) -> tuple[Table, Sheet]:
    """The table with ``text`` recorded, or the tracker's refusal (nothing recorded)."""
    if signer is not None:
        check_seat(signer.seat, table.header["players"], "at this table")
    if signer is not None:
        known = table.signers().get(signer.seat)
        if known is not None and known != base64.b64encode(signer.public).decode("ascii"):
            raise IdentityError(f"{signer.seat} signed this table's earlier actions with another key")
    state, report = table.tracker.apply(table.state, text)
    action: dict[str, Any] = {
        "seq": len(table.actions) + 1,
        "at": at,
        "by": by,
        "text": " ".join(text.split()),
    }
    action["prev"] = table.tip
    if signer is not None:
        action["signer"] = signer.seat
        action["key"] = base64.b64encode(signer.public).decode("ascii")
        signature = signer.sign(action_message(table.header["id"], action))
        action["sig"] = base64.b64encode(signature).decode("ascii")
    log = {**table.log, "action": [*table.actions, action]}
    return Table(table.info, table.tracker, log, state, (*table.reports, report)), report


def undo(table: Table, source: str) -> tuple[Table, dict[str, Any]]:
    if not table.actions:
        raise UsageError(f"{source}: nothing to undo")
    last = table.actions[-1]
    log = {**table.log, "action": table.actions[:-1], "undone": [*table.undone, last]}
    return replay(log, source), last


def redo(table: Table, source: str) -> tuple[Table, dict[str, Any]]:
    tip = table.tip
    for index in range(len(table.undone) - 1, -1, -1):
        action = table.undone[index]
        if action["prev"] == tip:
            undone = table.undone[:index] + table.undone[index + 1 :]
            log = {**table.log, "action": [*table.actions, action], "undone": undone}
            return replay(log, source), action
    if table.undone:
        raise UsageError(f"{source}: nothing to redo (actions were recorded after the last undo)")
    raise UsageError(f"{source}: nothing to redo")


def _shape(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The log's tables with every field of the right type, or an error naming the first that
    is not (a person may have edited the file by hand)."""
    header = data.get("table")
    if not isinstance(header, Mapping) or header.get("format") != FORMAT:
        hint = "; it is a game file, for 'pbem verify'" if isinstance(data.get("game"), Mapping) else ""
        raise GameFileError(f"{source}: not a pbem table log (no [table] with format = {FORMAT!r}){hint}")
    for name in HEADER_FIELDS:
        if name not in header:
            raise GameFileError(f"{source}: table header: missing {name!r}")
    extra = sorted(set(header) - set(HEADER_FIELDS))
    if extra:
        raise GameFileError(f"{source}: table header: unknown field {extra[0]!r}")
    for name in ("id", "game", "edition", "created", "components_sha256"):
        if not isinstance(header[name], str):
            raise GameFileError(f"{source}: table header: {name} must be text")
    players = header["players"]
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise GameFileError(f"{source}: table header: players must be a list of names")
    if not isinstance(header["options"], Mapping):
        raise GameFileError(f"{source}: table header: options must be a table")
    components = data.get("components", {})
    if not isinstance(components, Mapping):
        raise GameFileError(f"{source}: [components] must be a table")
    logs = {name: _actions(data.get(name, []), name, source) for name in ("action", "undone")}
    return {"table": dict(header), "components": dict(components), **logs}


def _actions(items: object, name: str, source: str) -> list[dict[str, Any]]:
    if not isinstance(items, list):
        raise GameFileError(f"{source}: [[{name}]] must be an array of tables")
    out = []
    for index, item in enumerate(items, start=1):
        where = f"{source}: {name} {index}"
        if not isinstance(item, Mapping):
            raise GameFileError(f"{where}: not a table")
        for field in ACTION_FIELDS:
            expected = int if field == "seq" else str
            if type(item.get(field)) is not expected:
                raise GameFileError(f"{where}: missing or malformed {field!r}")
        signed = [field for field in SIGNED_FIELDS if field in item]
        if signed and len(signed) != len(SIGNED_FIELDS):
            raise GameFileError(f"{where}: a signed action needs signer, key and sig")
        if any(not isinstance(item[field], str) for field in signed):
            raise GameFileError(f"{where}: signer, key and sig must be text")
        extra = sorted(set(item) - set(ACTION_FIELDS) - set(SIGNED_FIELDS))
        if extra:
            raise GameFileError(f"{where}: unknown field {extra[0]!r}")
        out.append(dict(item))
    return out
