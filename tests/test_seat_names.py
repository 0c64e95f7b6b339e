"""A seat name typed wrong is said to be wrong, by every command that reads one; a game id that
starts no game's id is said so too. Both are usage errors (exit 2) and change nothing."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Cli

NO_BOB = "error: no seat named 'bob' in this game (seats: a, b, c)\n"


@pytest.mark.parametrize(
    "args",
    [
        ("play", "{game}", "roll", "--as", "bob"),
        ("moves", "{game}", "--as", "bob"),
        ("moves", "{game}", "--as", "bob", "--json"),
        ("reveal", "{game}", "--as", "bob"),
        ("sync", "{game}", "--as", "bob"),
        ("timeout", "{game}", "c", "--as", "bob"),
        ("timeout", "{game}", "bob", "--as", "a"),
        ("undo", "{game}", "--as", "bob"),
        ("consent", "{game}", "--as", "bob"),
        ("show", "{game}", "--as", "bob"),
        ("note", "{game}", "hello", "--as", "bob"),
        ("join", "{game}", "--as", "bob"),
        ("mail", "send", "{game}", "--as", "bob", "--stdout"),
        ("mail", "address", "{game}", "bob@example.org", "--as", "bob"),
    ],
)
def test_a_seat_the_game_does_not_have_is_named_and_the_seats_listed(
    cli: Cli, make_game: Callable[..., Path], args: tuple[str, ...]
) -> None:
    game = make_game()
    before = game.read_bytes()
    result = cli(*(arg.format(game=game) for arg in args), home="a")
    assert (result.exit_code, result.stderr, result.stdout) == (2, NO_BOB, "")
    assert game.read_bytes() == before


def test_a_new_game_created_as_a_seat_it_does_not_have(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    result = cli("new", str(path), "--game", "potr", "--players", "a,b,c", "--as", "bob", home="a")
    assert (result.exit_code, result.stderr) == (2, NO_BOB)
    assert not path.exists()


def test_a_table_action_signed_as_a_player_the_table_does_not_have(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    made = cli("table", "new", str(path), "--game", "potr", "--players", "a,b,c")
    assert made.exit_code == 0, made.stderr
    before = path.read_bytes()
    result = cli(
        "table", "add", str(path), "a", "takes", "family", "este", "for", "5", "--as", "bob", home="a"
    )
    assert (result.exit_code, result.stderr) == (
        2,
        "error: no seat named 'bob' at this table (seats: a, b, c)\n",
    )
    assert path.read_bytes() == before


def test_a_game_id_that_starts_no_games_id_lists_the_games(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = make_game()
    assert cli("note", str(game), "hello", "--as", "a", home="a").exit_code == 0  # a's library keeps it
    game_id = tomllib.loads(game.read_text(encoding="utf-8"))["game"]["id"]
    other = "0" if game_id[0] != "0" else "1"
    listed = f"games: {game_id[:8]} {game.name}"

    found = cli("status", game_id[:4], home="a")
    assert found.exit_code == 0, found.stderr

    result = cli("status", other * 4, home="a")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"error: no file named {other * 4} and no game whose id starts with {other * 4} ({listed})\n"
    )

    short = cli("status", "9", home="a")
    assert short.exit_code == 2
    assert short.stderr == (
        "error: no file named 9 and no game whose id starts with 9 "
        f"(give at least 4 characters of a game's id; {listed})\n"
    )

    empty = cli("log", "9abc", home="b@2")  # a home that has never seen a game
    assert empty.exit_code == 2
    assert empty.stderr.endswith("(no game in your library yet)\n")

    missing = cli("status", "gmae.toml", home="a")  # a file's name: still a missing file
    assert (missing.exit_code, missing.stderr) == (5, "error: gmae.toml: no such file\n")
