"""`audit` takes any parsed TOML and never raises: every odd value is a reported problem."""

from __future__ import annotations

import copy
import itertools
import random
import tomllib
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.engine.ledger import TIME_PATTERN, _valid_time, audit

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three-players.toml"
ODD_VALUES: list[Any] = [None, 0, -1, 2**70, "", "x", [], {}, [1], {"a": 1}, True, 1.5, ["a", 3]]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def test_any_odd_value_anywhere_is_reported_not_raised() -> None:
    original = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    paths = list(_paths(original))
    rng = random.Random(2026)
    tried = 0
    for _ in range(2000):
        data = copy.deepcopy(original)
        path = rng.choice(paths)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        old = parent[path[-1]]
        if rng.random() < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            new = rng.choice(ODD_VALUES)
            if type(new) is type(old) and new == old:
                continue
            parent[path[-1]] = new
        tried += 1
        result = audit(data)  # must not raise
        assert result.problems, (
            f"changing {path} to {parent.get(path[-1]) if isinstance(parent, dict) else '?'}"
        )
        assert not result.ok
    assert tried > 1700


def test_format_true_is_not_format_one() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["game"]["format"] = True
    assert [str(p) for p in audit(data).problems] == [
        "unsupported game file format True; this pbem reads format 1"
    ]


def test_entry_times_are_held_to_strptime() -> None:
    """The time check reads with ``fromisoformat``, for speed; on text of the entry time's shape
    it must accept exactly the moments ``strptime`` with the file format's pattern accepts."""

    def strptime_accepts(text: str) -> bool:
        try:
            datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            return False
        return True

    fields = itertools.product(
        ("0000", "0001", "1900", "2000", "2024", "2026", "2100", "9999"),
        ("00", "01", "02", "04", "09", "12", "13", "99"),
        ("00", "01", "28", "29", "30", "31", "32", "99"),
        ("00", "09", "23", "24", "99"),
        ("00", "59", "60", "99"),
        ("00", "59", "60", "61", "99"),
    )
    for year, month, day, hour, minute, second in fields:
        text = f"{year}-{month}-{day}T{hour}:{minute}:{second}Z"
        assert TIME_PATTERN.fullmatch(text)
        assert _valid_time(text) == strptime_accepts(text), text
