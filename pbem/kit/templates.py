"""Component templates, whatever the game: values with their sources, and the checks every game's
component data shares.

A template is TOML data in which every value carries its source: a record (a table, alone or in
an array of tables) has a ``source`` table naming the source of each of its fields, and a table
of plain values holds each as ``{ value = ..., source = "..." }``. A source is a rules text and
section, or ``unverified`` where no public text gives the value. A game embeds the values only;
the game's rules check them, with the readers below so that every game's errors read alike.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, TypeVar, cast

from pbem.errors import GameFileError

T = TypeVar("T")

UNVERIFIED = "unverified"

# No printed component comes near this; it keeps a group's own values (``--components``) from making
# the rules enumerate without end (a start of 2**63 gold lists that many bids).
VALUE_LIMIT = 999


class ComponentError(GameFileError):
    """Component data that does not describe a playable set; the message names the record."""


def values(template: Mapping[str, Any]) -> dict[str, Any]:
    """A template without its sources: what a game embeds."""
    stripped: dict[str, Any] = {}
    for key, item in template.items():
        if isinstance(item, list):
            stripped[key] = [_record_values(record) for record in item]
        elif isinstance(item, Mapping) and _is_value_table(item):
            stripped[key] = {name: entry["value"] for name, entry in item.items()}
        else:
            stripped[key] = _record_values(item)
    return stripped


def unverified(template: Mapping[str, Any]) -> list[str]:
    """Every value whose source is ``unverified``, as ``table [id [(side)]] field`` paths."""
    found: list[str] = []
    for key, item in template.items():
        if isinstance(item, list):
            for record in item:
                found.extend(_unverified_fields(key, record))
        elif isinstance(item, Mapping) and _is_value_table(item):
            found.extend(f"{key} {name}" for name, entry in item.items() if entry.get("source") == UNVERIFIED)
        elif isinstance(item, Mapping):
            found.extend(_unverified_fields(key, item))
    return found


# --- each set of component data read once -----------------------------------------------------------
def frozen(data: object) -> bytes | None:
    """``data`` as bytes equal only to those of data of the same structure, types and values
    (``True`` is not ``1``, nor ``1.0``, a list not a tuple, as the readers below tell them
    apart), or None where it holds what marshal does not write (a date, a mapping that is not a
    dict). Format 2, which writes no references to objects met before: equal data whose parts
    are shared differently is written alike."""
    try:
        # whatever it is given: marshal itself refuses what it cannot write
        return marshal.dumps(cast(Any, data), 2)
    except ValueError:
        return None


class Parsed(Generic[T]):
    """A game's reader of component data (``parse(data, require_sources)``), giving again what
    it gave for the same data rather than reading it anew: every game set up, and every game file
    read, checks the same few sets of components record by record. What a reader gives must be
    immutable, as every game with the same data shares it; data it refuses is read again each
    time, to raise again."""

    def __init__(self, parse: Callable[[Mapping[str, Any], bool], T], size: int = 8) -> None:
        self.parse = parse
        self.size = size
        self.found: dict[tuple[bytes, bool], T] = {}

    def __call__(self, data: Mapping[str, Any], require_sources: bool) -> T:
        key = frozen(data)
        if key is None:
            return self.parse(data, require_sources)
        found = self.found.get((key, require_sources))
        if found is None:
            found = self.parse(data, require_sources)
            if len(self.found) >= self.size:  # the oldest goes: a game reads one set, a test a few
                del self.found[next(iter(self.found))]
            self.found[key, require_sources] = found
        return found


# --- reading component data, a template's or a game's embedded values ------------------------------
def table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """The single table ``[name]``."""
    found = data.get(name)
    if not isinstance(found, Mapping):
        raise ComponentError(f"component data has no [{name}] table")
    return found


def value_table(
    found: Mapping[str, Any],
    label: str,
    names: Collection[str],
    require_sources: bool,
    *,
    bounds: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, int]:
    """A table of whole numbers, each ``{ value = N, source = "..." }`` in a template or a bare
    number in embedded values; exactly ``names``, each within ``bounds`` (0..VALUE_LIMIT unless
    named there)."""
    read: dict[str, int] = {}
    for name in names:
        if name not in found:
            raise ComponentError(f"{label} is missing {name}")
        item = found[name]
        if isinstance(item, Mapping):
            check_source(item.get("source"), f"{label} {name}", require_sources)
            item = item.get("value")
        elif require_sources:
            raise ComponentError(f'{label} {name} must be {{ value = N, source = "..." }}')
        low, high = (bounds or {}).get(name, (0, VALUE_LIMIT))
        if type(item) is not int or not low <= item <= high:
            raise ComponentError(f"{label} {name} must be a whole number from {low} to {high}")
        read[name] = item
    extra = sorted(set(found) - set(names))
    if extra:
        raise ComponentError(f"{label} has unknown values: {', '.join(extra)}")
    return read


def records(
    data: Mapping[str, Any],
    kind: str,
    fields: Mapping[str, type],
    require_sources: bool,
    *,
    bounds: Mapping[str, tuple[int, int]] | None = None,
    optional: Collection[str] = (),
) -> list[dict[str, Any]]:
    """The records ``[[kind]]``, each known by its ``id`` (and its ``side``, where it has one)."""
    found = data.get(kind)
    if not isinstance(found, list) or not found:
        raise ComponentError(f"component data has no [[{kind}]] records")
    seen: set[tuple[str, str]] = set()
    built: list[dict[str, Any]] = []
    for number, item in enumerate(found, 1):
        if not isinstance(item, Mapping):
            raise ComponentError(f"[[{kind}]] record {number} is not a table")
        fields_read = record(
            item,
            f"[[{kind}]] record {number}",
            fields,
            require_sources,
            keyed=True,
            bounds=bounds,
            optional=optional,
        )
        key = (fields_read["id"], str(fields_read.get("side", "")))
        if key in seen:
            raise ComponentError(f"[[{kind}]] {fields_read['id']!r} appears twice")
        seen.add(key)
        built.append(fields_read)
    return built


_KINDS = {int: "a whole number", str: "text", bool: "true or false", list: "a list of text"}


def record(
    found: Mapping[str, Any],
    label: str,
    fields: Mapping[str, type],
    require_sources: bool,
    *,
    keyed: bool,
    bounds: Mapping[str, tuple[int, int]] | None = None,
    optional: Collection[str] = (),
) -> dict[str, Any]:
    """One record's fields, each of its type; whole numbers within ``bounds`` (0..VALUE_LIMIT
    unless named there), lists of text only. Every field needs a source in a template."""
    built: dict[str, Any] = {}
    if keyed:
        record_id = found.get("id")
        if not isinstance(record_id, str) or not record_id or record_id != record_id.strip().lower():
            raise ComponentError(f"{label}: id must be a lower-case name")
        if " " in record_id:
            raise ComponentError(f"{label}: id {record_id!r} must not contain spaces")
        built["id"] = record_id
        label = f"{label.split(' record', maxsplit=1)[0]} {record_id!r}"
    sources = found.get("source", {})
    if not isinstance(sources, Mapping):
        raise ComponentError(f"{label}: source must be a table naming the source of each value")
    for name, expected in fields.items():
        if name not in found:
            if name in optional:
                continue
            raise ComponentError(f"{label}: {name} is missing")
        value = found[name]
        if type(value) is not expected or (
            isinstance(value, list) and not all(isinstance(item, str) for item in value)
        ):
            raise ComponentError(f"{label}: {name} must be {_KINDS[expected]}")
        if isinstance(value, int) and expected is int:
            low, high = (bounds or {}).get(name, (0, VALUE_LIMIT))
            if value < 0 and low == 0:
                raise ComponentError(f"{label}: {name} must not be negative")
            if not low <= value <= high:
                raise ComponentError(f"{label}: {name} is {value}; it must be from {low} to {high}")
        check_source(sources.get(name), f"{label} {name}", require_sources)
        built[name] = value
    allowed = {*fields, "id", "source"} if keyed else {*fields, "source"}
    extra = sorted(set(found) - allowed)
    if extra:
        raise ComponentError(f"{label}: unknown fields {', '.join(extra)}")
    return built


def check_source(source: object, label: str, require_sources: bool) -> None:
    """A template names the source of every value; embedded values carry none."""
    if source is None:
        if require_sources:
            raise ComponentError(f"{label}: no source; give the rules text and section, or 'unverified'")
        return
    if not isinstance(source, str) or not source.strip():
        raise ComponentError(f"{label}: source must be text")


def _is_value_table(found: Mapping[str, Any]) -> bool:
    return bool(found) and all(isinstance(entry, Mapping) and "value" in entry for entry in found.values())


def _record_values(found: object) -> object:
    if isinstance(found, Mapping):
        return {name: value for name, value in found.items() if name != "source"}
    return found


def _unverified_fields(key: str, found: object) -> list[str]:
    if not isinstance(found, Mapping) or not isinstance(found.get("source"), Mapping):
        return []
    label = key
    if "id" in found:
        label += f" {found['id']}" + (f" ({found['side']})" if "side" in found else "")
    return [f"{label} {name}" for name, source in found["source"].items() if source == UNVERIFIED]
