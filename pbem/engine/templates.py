"""Component templates, whatever the game: values with their sources.

A template is TOML data in which every value carries its source: a record (a table, alone or in
an array of tables) has a ``source`` table naming the source of each of its fields, and a table
of plain values holds each as ``{ value = ..., source = "..." }``. A source is a rules text and
section, or ``unverified`` where no public text gives the value. A game embeds the values only;
the game's rules check them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNVERIFIED = "unverified"


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


def _is_value_table(table: Mapping[str, Any]) -> bool:
    return bool(table) and all(isinstance(entry, Mapping) and "value" in entry for entry in table.values())


def _record_values(record: object) -> object:
    if isinstance(record, Mapping):
        return {name: value for name, value in record.items() if name != "source"}
    return record


def _unverified_fields(key: str, record: object) -> list[str]:
    if not isinstance(record, Mapping) or not isinstance(record.get("source"), Mapping):
        return []
    label = key
    if "id" in record:
        label += f" {record['id']}" + (f" ({record['side']})" if "side" in record else "")
    return [f"{label} {name}" for name, source in record["source"].items() if source == UNVERIFIED]
