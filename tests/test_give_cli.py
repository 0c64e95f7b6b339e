"""Gifts of gold and influence through the command line: a free move, made on anyone's turn, that
merges with the move of the player whose turn it is when both were made on copies of the file."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Cli


def purses(cli: Cli, game: Path) -> dict[str, tuple[int, int]]:
    players = json.loads(cli("show", str(game), "--json").stdout)["players"]
    return {seat: (player["gold"], player["influence"]) for seat, player in players.items()}


def test_a_gift_out_of_turn_is_signed_and_merges_with_the_turns_move(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game(roll=True)
    before = purses(cli, game)
    listed = json.loads(cli("moves", str(game), "--as", "c", "--json", home="c").stdout)
    assert "give 2 influence to b" in listed["free"]
    assert "give 1 gold to b" not in listed["free"], "no gold moves while the sealed bids are made"
    shown = cli("moves", str(game), "--as", "c", home="c").stdout
    assert "at any time:\n" in shown and "  give 1..12 influence to a\n" in shown

    copy = tmp_path / "c-copy.toml"
    shutil.copyfile(game, copy)
    result = cli("play", str(copy), "give", "2", "influence", "to", "b", "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    assert cli("play", str(game), "bid", "3", "--as", "a", home="a").exit_code == 0
    merged = cli("merge", str(game), str(copy))
    assert merged.exit_code == 0, merged.stderr
    entries = tomllib.loads(game.read_text(encoding="utf-8"))["entry"]
    step = [(entry["by"], entry["kind"]) for entry in entries if entry["seq"] == entries[-1]["seq"]]
    assert step == [("a", "commit"), ("c", "move")], "one step: neither saw the other"
    verified = cli("verify", str(game))
    assert verified.exit_code == 0
    # the step's two entries share a number, which is how every message names an entry
    assert f", {len(entries)} entries in {len(entries) - 1} steps, " in verified.stdout
    after = purses(cli, game)
    assert after["c"] == (before["c"][0], before["c"][1] - 2)
    assert after["b"] == (before["b"][0], before["b"][1] + 2)
    refused = cli("play", str(game), "give", "99", "influence", "to", "b", "--as", "c", home="c")
    assert refused.exit_code == 1 and refused.stderr == "error: c has 10 influence\n"
