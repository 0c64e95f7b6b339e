"""Hostile input is bounded: a file built to exhaust a reader gets one line and an exit code."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Cli

THREE = Path(__file__).parent.parent / "examples" / "three-players.toml"
READERS = [
    ["verify"],
    ["status"],
    ["show"],
    ["log"],
    ["moves", "--as", "alice"],
    ["play", "--as", "alice", "pass"],
]


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("depth", [600, 40])
def test_deep_nesting_is_one_line_and_exit_3_for_every_reader(
    cli: Cli, tmp_path: Path, command: list[str], depth: int
) -> None:
    """600 levels exhaust a recursive parser; 40 parse but are far deeper than any game."""
    path = tmp_path / "deep.toml"
    nested = "x = " + "[" * depth + "]" * depth + "\n"
    path.write_text(THREE.read_text(encoding="utf-8").replace("[game]", nested + "[game]", 1))
    before = path.read_bytes()
    result = cli(command[0], str(path), *command[1:], home="a")
    assert result.exit_code == 3, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "nested" in result.stderr, result.stderr
    assert path.read_bytes() == before


def test_deep_nesting_in_a_table_log_or_a_merge_is_refused_too(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    for args in (["table", "verify", str(deep)], ["merge", str(make_game()), str(deep)]):
        result = cli(*args)
        assert result.exit_code == 3 and "nested" in result.stderr, (args, result.stderr)
