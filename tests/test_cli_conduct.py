"""How the command line behaves around the rules: what it prints, in what width, how it treats
the file it writes and the output it is piped to, the names it takes, and the keys it checks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.keys import KeyStore
from tests.conftest import CREATED, Cli, make_key_homes, run_cli

EXAMPLE = Path(__file__).parent.parent / "examples" / "four-players.toml"
UNDER_WAY = Path(__file__).parent.parent / "examples" / "three-players-by-email.toml"
THREE = Path(__file__).parent.parent / "examples" / "three-players.toml"


def words_kept(text: str, lines: list[str], width: int) -> None:
    """Every line fits ``width`` unless it is one word too long to split, and the words of
    ``text`` come out whole and in order."""
    for line in lines:
        assert len(line) <= width or " " not in line.strip(), line
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())


# --- what is printed ------------------------------------------------------------------------------
def test_status_names_the_file_and_counts_one_entry(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    out = cli("status", str(game)).stdout
    assert ", 1 entry\n" in out.splitlines()[0] + "\n"
    assert f"pbem join {game} --as b" in out
    assert "FILE" not in out


@pytest.mark.parametrize("width", [60, 80])
def test_status_wraps_at_the_terminal_and_cuts_no_word(
    cli: Cli, make_game: Callable[..., Path], width: int
) -> None:
    game = make_game(roll=True)
    wide = cli("status", str(game), env={"COLUMNS": "500"}).stdout.splitlines()
    narrow = cli("status", str(game), env={"COLUMNS": str(width)}).stdout.splitlines()
    assert any(len(line) > width for line in wide), "the test needs a line longer than the width"
    words_kept("\n".join(wide), narrow, width)


@pytest.mark.parametrize("width", [60, 80])
def test_show_cuts_no_id_a_player_must_type(cli: Cli, width: int) -> None:
    # a game under way: once a game is over, nothing is on offer
    view = json.loads(cli("show", str(UNDER_WAY), "--json").stdout)
    ids = [tile["id"] for tile in view["city_tiles_on_offer"]] + [
        e["id"] for e in view["event_tiles_on_offer"]
    ]
    assert ids and any(len(tile) > 12 for tile in ids)
    shown = cli("show", str(UNDER_WAY), env={"COLUMNS": str(width)}).stdout
    assert "…" not in shown
    words = {word.strip("│┃,;()") for word in shown.split()}
    assert set(ids) <= words, sorted(set(ids) - words)
    lines = [line.rstrip() for line in shown.splitlines()]
    assert all(len(line) <= width for line in lines)
    boxed = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert boxed and all(line[-1] in "┓┃┩│┘" for line in boxed), "a table was cropped at the edge"


# --- the file -------------------------------------------------------------------------------------
def test_a_move_through_a_symbolic_link_updates_its_target(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    target = make_game(roll=True)
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    result = cli("play", str(link), "bid", "3", "--as", "a", home="a")
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert tomllib.loads(target.read_text(encoding="utf-8"))["entry"][-1]["kind"] == "commit"
    assert cli("verify", str(target)).exit_code == 0


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_read_only_game_file_is_refused_and_left_as_it_is(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(roll=True)
    before = game.read_bytes()
    game.chmod(0o444)
    try:
        result = cli("play", str(game), "bid", "3", "--as", "a", home="a")
        assert result.exit_code == 5
        assert (
            result.stderr
            == f"error: {game.resolve()}: is read-only; pbem leaves it as it is (make it writable first)\n"
        )
        assert game.read_bytes() == before
    finally:
        game.chmod(0o644)


def test_a_file_saved_with_a_byte_order_mark_and_cr_lf_verifies_and_keeps_both(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    game = make_game(joined=("b",))
    game.write_bytes(b"\xef\xbb\xbf" + game.read_bytes().replace(b"\n", b"\r\n"))
    assert cli("verify", str(game)).exit_code == 0
    result = cli("join", str(game), "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    raw = game.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert raw.count(b"\n") == raw.count(b"\r\n"), "every line still ends in CR LF"
    assert cli("verify", str(game)).exit_code == 0


def test_a_file_quoted_in_a_reply_says_so(cli: Cli, tmp_path: Path) -> None:
    quoted = tmp_path / "quoted.toml"
    quoted.write_text("".join(f"> {line}" for line in THREE.read_text().splitlines(keepends=True)))
    result = cli("verify", str(quoted))
    assert result.exit_code == 3
    assert "its lines start with '> ', as a quoted reply in an email does" in result.stderr


# --- output to a pipe -----------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["show"], ["log"], ["moves", "--as", "alice", "--json"]])
def test_a_reader_that_stops_early_is_no_failure(command: list[str]) -> None:
    """``pbem show | head``: the pipe closes before pbem has written; the exit is 141 (what a shell
    reports for SIGPIPE), not 1, which means a refused move, and nothing goes to stderr."""
    args = [sys.executable, "-m", "pbem", command[0], str(EXAMPLE), *command[1:]]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read()
    assert process.wait() in (0, 141)
    assert b"Traceback" not in error and b"error" not in error


# --- negative numbers -----------------------------------------------------------------------------
def test_a_negative_number_is_a_word_of_the_move_or_action(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game(roll=True)
    refused = cli("play", str(game), "bid", "-5", "--as", "a", home="a")
    assert (refused.exit_code, refused.stderr) == (
        2,
        "error: 'bid -5' is not a move: write 'bid N' (N a whole number)\n",
    )
    night = tmp_path / "night.toml"
    assert cli("table", "new", str(night), "--game", "potr", "--players", "alice,bob,carla").exit_code == 0
    result = cli("table", "add", str(night), "alice", "gold", "-3")
    assert result.exit_code == 0, result.stderr
    log = tomllib.loads(night.read_text(encoding="utf-8"))
    assert log["action"][-1]["text"] == "alice gold -3"


# --- names ----------------------------------------------------------------------------------------
def test_seats_may_be_named_in_any_alphabet(tmp_path: Path) -> None:
    seats = ("José", "李雷", "Zoë")
    make_key_homes(tmp_path, seats)
    game = tmp_path / "game.toml"
    made = run_cli(
        tmp_path / "José", "new", str(game), "--game", "potr", "--players", ",".join(seats), "--as", "José"
    )
    assert made.exit_code == 0, made.stderr
    for seat in seats[1:]:
        assert run_cli(tmp_path / seat, "join", str(game), "--as", seat).exit_code == 0
    verified = run_cli(tmp_path / "José", "verify", str(game))
    assert verified.exit_code == 0, verified.stderr
    assert all(seat in verified.stdout for seat in seats)
    assert set(tomllib.loads(game.read_text(encoding="utf-8"))["roster"]) == set(seats)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("a b,c,d", "invalid seat name 'a b': use 1 to 32 letters of any alphabet"),
        ("José,JOSÉ,c", "seat names must differ"),
        ("Jose\u0301,b,c", "write its accents composed (Unicode NFC)"),
    ],
)
def test_a_name_that_is_not_one_word_of_letters_is_refused_saying_what_is(
    cli: Cli, tmp_path: Path, players: str, message: str
) -> None:
    result = cli(
        "new", str(tmp_path / "g.toml"), "--game", "potr", "--players", players, "--as", "c", home="c"
    )
    assert result.exit_code == 2 and message in result.stderr, result.stderr


# --- keys imported --------------------------------------------------------------------------------
def test_a_seat_whose_key_is_not_the_one_imported_under_its_name_is_reported(
    cli: Cli, make_game: Callable[..., Path], homes: dict[str, Path], tmp_path: Path
) -> None:
    game = make_game()
    impostor = tmp_path / "impostor"
    KeyStore(impostor).create("b", None, CREATED)
    line = KeyStore(impostor).export_line("b")
    assert cli("key", "import", "-", home="a", input=line).exit_code == 0
    verified = cli("verify", str(game), home="a")
    assert verified.exit_code == 4
    (error,) = verified.stderr.splitlines()
    assert error.startswith(f"error: {game}: seat b joined with key ")
    assert "not the key you imported as b" in error
    status = cli("status", str(game), home="a")
    assert status.exit_code == 0 and "warning:" in status.stderr and "imported as b" in status.stderr
    # the real b imported: no word
    assert cli("verify", str(game), home="c").exit_code == 0
    real = cli("key", "export", "b", home="b").stdout
    shutil.rmtree(homes["c"] / "identities", ignore_errors=True)
    assert cli("key", "import", "-", home="c", input=real).exit_code == 0
    clean = cli("verify", str(game), home="c")
    assert clean.exit_code == 0 and not clean.stderr


# --- which games play by email --------------------------------------------------------------------
def test_games_and_new_say_which_games_are_played_by_email(cli: Cli, tmp_path: Path) -> None:
    listed = {game["name"]: game["by_email"] for game in json.loads(cli("games", "--json").stdout)}
    assert listed == {"il-principe": True, "princes-of-florence": True, "princes-of-the-renaissance": True}
    text = cli("games").stdout
    assert "played by email, every move checked by the rules" in text
    made = cli(
        "new", str(tmp_path / "g.toml"), "--game", "il-principe", "--players", "a,b", "--as", "a", home="a"
    )
    assert made.exit_code == 0
    assert "cannot be played by email" not in made.stderr
    # The whole template travels in the game, as Princes of Florence's does.
    written = (tmp_path / "g.toml").read_text(encoding="utf-8")
    assert "[components.template]" in written and "firenze" in written
