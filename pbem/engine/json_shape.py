"""The one JSON shape every command prints (docs/json.md): a key that names a field is snake_case.
A score's categories are names the rules give in words (``city tiles``, ``gold + influence``);
they become keys here, where a view or a report leaves the rules, and a text renderer turns a key
back into words with ``words``."""

from __future__ import annotations

import re
from collections.abc import Mapping


def snake(name: str) -> str:
    """``gold + influence`` is ``gold_and_influence``, ``best work`` is ``best_work``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("+", " and ")).strip("_")


def words(key: str) -> str:
    """A key as a heading: ``gold_and_influence`` is ``gold and influence``."""
    return key.replace("_", " ")


def snake_scores(scores: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Points per seat (a map keyed by seat) and category (snake_case)."""
    return {
        seat: {snake(category): points for category, points in row.items()} for seat, row in scores.items()
    }
