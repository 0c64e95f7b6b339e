"""Edits an attacker or a mangling mail client could make to a game file, as text edits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit


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
