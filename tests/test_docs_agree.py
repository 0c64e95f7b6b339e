"""What the README and docs/ say the commands do, and what they do: the same."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import Result

from pbem.keys import KeyStore
from tests import hidden_deck_game
from tests.conftest import CREATED, Cli, run_cli, seeded_keys

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PRINCIPE = Path(__file__).resolve().parent / "fixtures" / "principe-silent-seat.toml"
TABLE = EXAMPLES / "table" / "il-principe.toml"


# --- one wrapping rule ----------------------------------------------------------------------------
READS = [
    ["show", str(PRINCIPE)],
    ["log", str(EXAMPLES / "four-players.toml")],
    ["table", "show", str(TABLE)],
    ["table", "score", str(TABLE)],
    ["table", "log", str(TABLE)],
]


@pytest.mark.parametrize("command", READS, ids=lambda command: " ".join(command[:-1]))
def test_output_off_a_terminal_keeps_each_item_on_one_line(cli: Cli, command: list[str]) -> None:
    piped = cli(*command)
    assert piped.exit_code == 0, piped.stderr
    wide = cli(*command, env={"COLUMNS": "100000"}).stdout
    assert piped.stdout == wide, "output to a pipe was wrapped"
    assert any(cell_len(line.rstrip()) > 80 for line in piped.stdout.splitlines()), (
        "the test needs a long line"
    )


@pytest.mark.parametrize("command", READS, ids=lambda command: " ".join(command[:-1]))
def test_at_a_terminal_every_command_wraps_at_its_width(
    cli: Cli, command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wide = cli(*command).stdout
    monkeypatch.setattr("pbem.render.terminal_width", lambda: 60)
    narrow = cli(*command).stdout
    assert narrow != wide
    assert all(cell_len(line.rstrip()) <= 60 for line in narrow.splitlines()), narrow
    if "log" in command:  # plain text: the same words, in the same order, none cut
        assert narrow.split() == wide.split()


def test_output_width_is_the_terminals_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import render

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(render, "terminal_width", lambda: None)
    assert render.output_width() is None and render.console().width >= 100000
    monkeypatch.setattr(render, "terminal_width", lambda: 72)
    assert render.output_width() == 72 and render.console().width == 72
    monkeypatch.setenv("COLUMNS", "50")
    assert render.output_width() == 50 and render.console().width == 50


# --- pbem moves --key -----------------------------------------------------------------------------
@pytest.fixture
def dave_plays_a(tmp_path: Path) -> Iterator[tuple[Path, Callable[..., Result]]]:
    """A game of the engine's test deck game in which dave's key plays seat a and a holds a card
    it can read."""
    root = tmp_path / "homes"
    for seat in ("dave", "b", "c"):
        KeyStore(root / seat).store(seat, seeded_keys(seat), None, CREATED)
    game = tmp_path / "game.toml"

    def step(home: str, *args: str) -> Result:
        result = run_cli(root / home, *args)
        assert result.exit_code == 0, result.stderr
        return result

    with hidden_deck_game.registered():
        step(
            "dave",
            "new",
            str(game),
            "--game",
            hidden_deck_game.NAME,
            "--players",
            "a,b,c",
            "--as",
            "a",
            "--key",
            "dave",
        )
        step("b", "join", str(game), "--as", "b")
        step("c", "join", str(game), "--as", "c")
        for home, seat, verb in (
            ("dave", "a", "pass"), ("b", "b", None), ("b", "b", "pass"), ("c", "c", "pass"),
            ("dave", "a", "draw"), ("b", "b", "pass"), ("c", "c", "draw"),
        ):  # fmt: skip
            key = ("--key", "dave") if home == "dave" else ()
            args = (
                ("sync", str(game), "--as", seat) if verb is None else ("play", str(game), "--as", seat, verb)
            )
            step(home, *args, *key)
        yield game, lambda *args: run_cli(root / "dave", *args)


def test_moves_reads_the_hand_with_the_key_named(dave_plays_a: tuple[Path, Callable[..., Result]]) -> None:
    game, dave = dave_plays_a
    unfiltered = dave("moves", str(game), "--as", "a")
    assert unfiltered.exit_code == 0, unfiltered.stderr
    said = unfiltered.stderr
    assert f"pbem moves {game} --as a --key NAME" in said and "pbem key new" not in said, said
    listed = dave("moves", str(game), "--as", "a", "--key", "dave")
    assert listed.exit_code == 0, listed.stderr
    assert "not filtered" not in listed.stderr
    # read with the key, the hand names the card each move would use
    noted = re.findall(r"^show deck:0 +\((.+)\)$", listed.stdout, re.MULTILINE)
    assert len(noted) == 1 and noted[0] in hidden_deck_game.CARDS, listed.stdout
    assert "show deck:0\n" in unfiltered.stdout


# --- --json on every table command that reports -----------------------------------------------------
def test_table_new_undo_and_redo_take_json(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "table.toml"
    made = cli("table", "new", str(log), "--game", "il-principe", "--players", "ann,ben,cat", "--json")
    assert made.exit_code == 0, made.stderr
    started = json.loads(made.stdout)
    assert started["table"]["players"] == ["ann", "ben", "cat"] and started["reports"]
    assert cli("table", "add", str(log), "round", "income").exit_code == 0
    for command, done in (("undo", "undone"), ("redo", "redone")):
        result = cli("table", command, str(log), "--json")
        assert result.exit_code == 0, result.stderr
        said = json.loads(result.stdout)
        assert said[done]["text"] == "round income" and said["reports"], said


# --- the library ----------------------------------------------------------------------------------
def test_the_readme_says_which_commands_put_a_game_in_the_library(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "any command that read it" not in readme
    assert "a command that only reads a file (`status`, `show`, `log`, `verify`) does not" in readme
    game = tmp_path / "elsewhere.toml"
    shutil.copyfile(make_game(roll=True), game)
    game_id = json.loads(cli("verify", str(game), "--json", home="c@2").stdout)["game"]["id"]
    for command in ("status", "show", "log", "verify"):
        assert cli(command, str(game), home="c@2").exit_code == 0
    assert cli("status", game_id[:8], home="c@2").exit_code != 0, "a read put the game in the library"
    assert cli("play", str(game), "bid", "3", "--as", "c", home="c@2").exit_code == 0
    assert cli("status", game_id[:8], home="c@2").exit_code == 0, "a write did not"


# --- a copy behind ----------------------------------------------------------------------------------
def test_a_copy_behind_says_the_merge_to_type(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game(roll=True)
    copy = tmp_path / "copy.toml"
    shutil.copyfile(game, copy)
    assert cli("play", str(game), "bid", "3", "--as", "a", home="a").exit_code == 0
    refused = cli("play", str(copy), "bid", "4", "--as", "a", home="a")
    assert refused.exit_code == 3
    (line,) = refused.stderr.splitlines()
    merge = f"pbem merge {copy} {game.resolve()}"
    assert "is behind" in line and merge in line, line
    merged = cli(*merge.split()[1:], home="a")
    assert merged.exit_code == 0, merged.stderr
    assert "behind" not in cli("status", str(copy), home="a").stderr


# --- keys -----------------------------------------------------------------------------------------
def test_table_verify_names_each_signer_by_fingerprint(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "table.toml"
    assert cli("table", "new", str(log), "--game", "il-principe", "--players", "a,b,c").exit_code == 0
    assert cli("table", "add", str(log), "round", "income", "--as", "a", home="a").exit_code == 0
    fingerprint = seeded_keys("a").public("a").fingerprint
    verified = cli("table", "verify", str(log), home="a")
    assert verified.exit_code == 0, verified.stderr
    (line,) = [line for line in verified.stdout.splitlines() if line.startswith("  a ")]
    assert fingerprint in line and "=" not in line, line
    unknown = cli("table", "verify", str(log), home="b").stdout
    assert "import a's identity (pbem key import) to see its fingerprint" in unknown, unknown


def test_key_list_keeps_its_columns_with_wide_and_long_names(cli: Cli, homes: dict[str, Path]) -> None:
    names = ("王芳", "x" * 32, "李娜娜娜娜娜娜娜娜娜")
    for name in names:
        KeyStore(homes["a"]).store(name, seeded_keys(name), None, CREATED)
    listed = cli("key", "list", home="a")
    assert listed.exit_code == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 4
    starts = {cell_len(line[: re.search(r"[A-Z2-7]{4}-", line).start()]) for line in lines}  # type: ignore[union-attr]
    assert len(starts) == 1, lines


def test_an_empty_key_file_is_said_to_be_empty(cli: Cli, homes: dict[str, Path]) -> None:
    empty = homes["a"] / "keys" / "blank.key"
    empty.touch(mode=0o600)
    for command in (["key", "show", "blank"], ["key", "export", "blank"]):
        result = cli(*command, home="a")
        assert result.exit_code == 4
        assert result.stderr == f"error: key file {empty} is empty: not a pbem key file\n", result.stderr


# --- Il Principe's regions ------------------------------------------------------------------------
def test_il_principe_shows_each_region_once_with_what_it_holds(cli: Cli) -> None:
    shown = cli("show", str(PRINCIPE))
    assert shown.exit_code == 0, shown.stderr
    view = json.loads(cli("show", str(PRINCIPE), "--json").stdout)
    assert "blue blue" not in shown.stdout
    rows = {
        cells[0]: cells[1:]
        for line in shown.stdout.splitlines()
        if (cells := [cell.strip() for cell in line.strip("│").split("│")])[0] in view["regions"]
    }
    assert set(rows) == set(view["regions"])
    for region, (cities, shields) in rows.items():
        assert cities.split(", ") == [city["city"] for city in view["cities"] if region in city["regions"]]
        held = {player["seat"]: player["shields"].get(region, 0) for player in view["players"]}
        assert shields == (", ".join(f"{seat} {n}" for seat, n in held.items() if n) or "-")


# --- docs/game-file.md ----------------------------------------------------------------------------
def test_the_turn_order_bid_is_not_said_to_come_each_decade() -> None:
    text = " ".join((ROOT / "docs" / "game-file.md").read_text(encoding="utf-8").split())
    assert "turn-order bid` of each decade" not in text
    assert "the turn-order bid, comes once a game" in text
