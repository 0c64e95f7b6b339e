"""Every action of the recorded table games can be tapped on the table's page: each word is one
the game's tracker offers after the words before it (the page's buttons, the shell's tab
completion), or a number (the page's keypad). A word nothing offers would have to be typed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pbem.companion.log import tracker_for
from pbem.engine import registry

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples" / "table").glob("*.toml"))
NUMBER = re.compile(r"[+-]?[0-9]+")


def unoffered(log: Path) -> list[str]:
    """Each word of the log's actions that nothing offers: ``action N word K: WORD``."""
    data = tomllib.loads(log.read_text(encoding="utf-8"))
    header = data["table"]
    info = registry.get(header["game"])
    tracker = tracker_for(info)
    state = tracker.start(
        header["players"], header["edition"], info.check_options(header["options"]), data.get("components")
    )
    missing: list[str] = []
    for number, action in enumerate(data["action"], start=1):
        words = action["text"].lower().split()
        for at, word in enumerate(words):
            if NUMBER.fullmatch(word):
                continue
            if word not in tracker.complete(state, words[:at], ""):
                missing.append(f"action {number} ({action['text']}) word {at + 1}: {word}")
        state, _ = tracker.apply(state, action["text"])
    return missing


@pytest.mark.parametrize("log", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_word_of_a_recorded_game_is_offered_or_a_number(log: Path) -> None:
    assert unoffered(log) == []
