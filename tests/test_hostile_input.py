"""Hostile input is bounded: a file built to exhaust a reader gets one line and an exit code."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Cli, run_cli

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


def test_a_key_path_that_is_a_folder_says_so(cli: Cli, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "keys" / "a.key").mkdir(parents=True, mode=0o700)
    for args in (["key", "show", "a"], ["key", "new", "a", "--no-passphrase"]):
        result = run_cli(home, *args)
        assert result.exit_code == 4, result.stderr
        assert f"{home / 'keys' / 'a.key'} is a folder" in result.stderr, result.stderr


def test_a_temporary_file_a_killed_write_left_is_removed_by_the_next(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    game = make_game(roll=True)
    stale = game.with_name(f".{game.name}.4242.tmp")
    stale.write_text("half a game file")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    fresh = game.with_name(f".{game.name}.abcd1234.tmp")  # another pbem writing right now
    fresh.write_text("being written")
    assert cli("play", str(game), "bid", "3", "--as", "a", home="a").exit_code == 0
    assert not stale.exists() and fresh.exists()
    left = [path.name for path in game.parent.iterdir() if path.name.endswith(".tmp")]
    assert left == [fresh.name]
