"""`pbem new`, `join`, `note`, `games`, `--help` and `--version` through the real Typer app."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import __version__
from tests.conftest import Cli


def test_help_lists_every_command_with_one_line(cli: Cli) -> None:
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("new", "join", "note", "verify", "games", "key"):
        assert f"│ {command} " in result.stdout
    assert "3  integrity failure" in result.stdout


def test_version(cli: Cli) -> None:
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"pbem {__version__}\n"


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout == f"pbem {__version__}\n"


# What --help must not load: the crypto, the TOML writer, the ledger, the picture code with its
# PNG renderer, which only a picture asked for needs, and the web page's server.
HEAVY = (
    "cryptography",
    "tomlkit",
    "pbem.keys",
    "pbem.engine.ledger",
    "pbem.cli.pictures",
    "pbem.render.picture",
    "pbem.render.picture.svg",
    "pbem.render.picture.potr",
    "pbem.render.picture.page",
    "pbem.render.picture.png",
    "resvg_py",
    "pbem.web.app",
    "starlette",
    "uvicorn",
    "jinja2",
)


def test_help_does_not_import_heavy_modules() -> None:
    code = (
        "import sys, runpy; sys.argv = ['pbem', '--help']\n"
        "try:\n    runpy.run_module('pbem', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_new_records_the_setup_with_every_option(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    result = cli(
        "new", str(path), "--game", "potr", "--players", "a,b,c,d", "--as", "b",
        "--edition", "2003", "--option", "turn_order=dice", "--option", "deadline_days=3",
        home="b",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    genesis = data["entry"][0]
    assert genesis["ruleset"] == "princes-of-the-renaissance"
    assert genesis["edition"] == "2003"
    assert genesis["by"] == "b"
    assert genesis["seats"] == ["a", "b", "c", "d"]
    assert genesis["options"] == {
        "family_side": "a",
        "turn_order": "dice",
        "deadline_days": 3,
        "timeouts": "absent",
        "withheld": "open",
        "retired": "compete-none",
        "default_places": "chance",
        "escrow": "others",
        "escrow_threshold": 0,
        "escrow_sealing": "proven",
        "retire_after": 3,
    }
    assert data["game"]["id"] == genesis["game_id"]
    assert list(data["roster"]) == ["b"]
    assert "send it to a, c, d to join" in result.stderr
    assert f"or invite them by mail: pbem mail send {path} --as b --to ADDRESS" in result.stderr
    assert path.read_text(encoding="utf-8").startswith("# pbem: Princes of the Renaissance (2003)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--game", "chess", "--players", "a,b,c"],
            "unknown game 'chess'; known games: il-principe, princes-of-florence, princes-of-the-renaissance",
        ),
        (
            ["--game", "potr", "--players", "a,b,c", "--edition", "1999"],
            "unknown edition '1999' for princes-of-the-renaissance; valid editions: 2016, 2003",
        ),
        (
            ["--game", "potr", "--players", "a,b,c", "--option", "speed=fast"],
            "unknown option 'speed' for princes-of-the-renaissance; valid options: family_side=a|b "
            "(default a); turn_order=bid|dice (default bid); deadline_days=0..365 (default 0); "
            "timeouts=absent|demand (default absent); retired=compete-none|compete (default "
            "compete-none); default_places=chance|first (default chance); "
            "withheld=open|default (default open); "
            "escrow=none|others|referee (default others); "
            "escrow_threshold=0..9 (default 0); escrow_sealing=proven (default proven); "
            "retire_after=0..100 (default 3)",
        ),
        (
            ["--game", "potr", "--players", "a,b,c", "--option", "family_side=c"],
            "option family_side: 'c' is not one of a, b",
        ),
        (
            ["--game", "potr", "--players", "a,b,c", "--option", "deadline_days=soon"],
            "option deadline_days: 'soon' is not a whole number",
        ),
        (
            ["--game", "potr", "--players", "a,b,c", "--option", "deadline_days"],
            "--option 'deadline_days': write it as key=value",
        ),
        (["--game", "potr", "--players", "a,b"], "princes-of-the-renaissance takes 3 to 6 players, not 2"),
        (
            ["--game", "florence", "--players", "a,b"],
            "princes-of-florence with 2 players needs --option unofficial_rules=true",
        ),
        (["--game", "potr", "--players", "a,b,A"], "seat names must differ: a, b, A"),
        (
            ["--game", "potr", "--players", "a,b,c d"],
            "invalid seat name 'c d': use 1 to 32 letters of any alphabet, digits, '-' or '_', starting "
            "with a letter or digit (no spaces)",
        ),
    ],
)
def test_new_refuses_bad_setups(cli: Cli, tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "g.toml"
    result = cli("new", str(path), *args, "--as", "a", home="a")
    assert result.stderr == f"error: {message}\n"
    assert result.exit_code == 2
    assert not path.exists()


def test_new_refuses_a_creator_outside_the_seats(cli: Cli, tmp_path: Path) -> None:
    result = cli(
        "new", str(tmp_path / "g.toml"), "--game", "potr", "--players", "b,c,d", "--as", "a", home="a"
    )
    assert result.exit_code == 2
    assert result.stderr == "error: no seat named 'a' in this game (seats: b, c, d)\n"


def test_new_never_overwrites(cli: Cli, game_file: Path) -> None:
    before = game_file.read_bytes()
    result = cli("new", str(game_file), "--game", "potr", "--players", "a,b,c", "--as", "a", home="a")
    assert result.exit_code == 5
    assert result.stderr == f"error: {game_file}: already exists; choose another name\n"
    assert game_file.read_bytes() == before


def test_new_without_a_key(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    result = cli("new", str(path), "--game", "potr", "--players", "x,b,c", "--as", "x", home="a")
    assert result.exit_code == 4
    assert result.stderr.startswith("error: no key named 'x' in ")
    assert not path.exists()


def test_other_games_can_be_created(make_game: Callable[..., Path], cli: Cli) -> None:
    principe = make_game(game="il-principe", seats=("a", "b"), name="p.toml")
    florence = make_game(
        game="princes-of-florence", seats=("a", "b"), options=("unofficial_rules=true",), name="f.toml"
    )
    for path in (principe, florence):
        assert cli("verify", str(path)).exit_code == 0


def test_join_appends_and_verifies(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=())
    result = cli("join", str(path), "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1] == "send it to b to join"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert [entry["kind"] for entry in data["entry"]] == ["genesis", "join"]
    assert data["game"]["entries"] == 2
    assert "waiting for b to join" in path.read_text(encoding="utf-8")
    assert cli("verify", str(path)).exit_code == 0


@pytest.mark.parametrize(
    ("seat", "home", "code", "message"),
    [
        ("b", "b", 2, "'b' has already joined (entry 1)"),
        ("d", "d", 2, "no seat named 'd' in this game (seats: a, b, c)"),
        ("a", "a", 2, "'a' has already joined (entry 0)"),
    ],
)
def test_join_refusals_leave_the_file_unchanged(
    cli: Cli, make_game: Callable[..., Path], seat: str, home: str, code: int, message: str
) -> None:
    path = make_game(joined=("b",))
    before = path.read_bytes()
    result = cli("join", str(path), "--as", seat, home=home)
    assert (result.exit_code, result.stderr) == (code, f"error: {message}\n")
    assert path.read_bytes() == before


def test_join_with_a_key_of_another_name(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=())
    result = cli("join", str(path), "--as", "b", "--key", "d", home="d")
    assert result.exit_code == 0, result.stderr
    assert cli("verify", str(path)).exit_code == 0


def test_join_refuses_a_tampered_file(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=("b",))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('{family_side = "a"', '{family_side = "b"'), encoding="utf-8")
    before = path.read_bytes()
    result = cli("join", str(path), "--as", "c", home="c")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}: entry 0 (by a): signature does not verify")
    assert path.read_bytes() == before


def test_join_without_the_key_leaves_the_file_unchanged(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=())
    before = path.read_bytes()
    result = cli("join", str(path), "--as", "b", home="c")
    assert result.exit_code == 4
    assert path.read_bytes() == before


def test_comments_added_by_players_survive_a_write(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=("b",))
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "[[entry]]\nseq = 1", "# b joined on the train\n[[entry]]\nseq = 1  # the second entry"
    )
    path.write_text(text + "# over to c\n", encoding="utf-8")
    assert cli("join", str(path), "--as", "c", home="c").exit_code == 0
    after = path.read_text(encoding="utf-8")
    assert "# b joined on the train\n" in after
    assert "seq = 1  # the second entry" in after
    assert "# over to c" in after
    assert "# pbem: setup draw: waiting for a, b, c to add randomness; a to shuffle\n" in after
    assert cli("verify", str(path)).exit_code == 0


def _entries_first(text: str) -> str:
    """The same file with every entry before the header: tomllib reads it as the same tables."""
    cut = text.index("[[entry]]")
    return text[cut:] + "\n" + text[:cut]


def _entries_inline(text: str) -> str:
    """The same file with its entries as one inline array of inline tables."""
    import tomlkit

    doc = tomlkit.parse(text)
    entries = tomlkit.array()
    for entry in tomllib.loads(text)["entry"]:
        table = tomlkit.inline_table()
        table.update(entry)
        entries.append(table)
    del doc["entry"]
    doc["entry"] = entries
    return tomlkit.dumps(doc)


@pytest.mark.parametrize("layout", [_entries_first, _entries_inline])
def test_a_file_laid_out_another_way_takes_a_note(
    cli: Cli, game_file: Path, layout: Callable[[str], str]
) -> None:
    """Layouts tomllib reads as the same tables but tomlkit cannot edit in place: the header
    below the entries was a traceback, the entries as one inline array a refusal (exit 3 for a
    sound file). The file is now edited whole, or else written anew."""
    before = tomllib.loads(game_file.read_text(encoding="utf-8"))
    game_file.write_text(layout(game_file.read_text(encoding="utf-8")), encoding="utf-8")
    assert tomllib.loads(game_file.read_text(encoding="utf-8")) == before
    result = cli("note", str(game_file), "still here", "--as", "b", home="b")
    assert result.exit_code == 0, result.stderr
    after = tomllib.loads(game_file.read_text(encoding="utf-8"))
    assert after["entry"][:-1] == before["entry"] and after["entry"][-1]["text"] == "still here"
    assert cli("verify", str(game_file)).exit_code == 0


def test_note_is_signed_and_verifiable(cli: Cli, game_file: Path) -> None:
    text = 'Deal: I back Venice, "you" back Milan\\n — ok?'
    result = cli("note", str(game_file), text, "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(game_file.read_text(encoding="utf-8"))
    assert data["entry"][-1]["text"] == text
    assert data["entry"][-1]["by"] == "c"
    assert cli("verify", str(game_file)).exit_code == 0


def test_note_by_someone_not_joined_is_refused(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=("b",))
    result = cli("note", str(path), "hello", "--as", "c", home="c")
    assert result.exit_code == 2
    assert result.stderr == "error: 'c' has not joined this game; seats that have: a, b\n"


def test_blank_note_is_refused(cli: Cli, game_file: Path) -> None:
    result = cli("note", str(game_file), "   ", "--as", "b", home="b")
    assert (result.exit_code, result.stderr) == (2, "error: a note needs some text\n")


def test_signing_with_the_wrong_key_is_caught(cli: Cli, game_file: Path) -> None:
    """b signs a note with d's key: refused before anything is written, with both fingerprints."""
    before = game_file.read_bytes()
    b_print = cli("key", "show", "b", home="b").stdout.split()[-1]
    d_print = cli("key", "show", "d", home="d").stdout.split()[-1]
    result = cli("note", str(game_file), "hi", "--as", "b", "--key", "d", home="d")
    assert result.exit_code == 4
    assert result.stderr == (
        f"error: key 'd' (fingerprint {d_print}) is not the key b joined this game with "
        f"(fingerprint {b_print})\n"
    )
    assert game_file.read_bytes() == before


def test_write_refuses_when_the_file_changed_underneath(
    make_game: Callable[..., Path], homes: dict[str, Path]
) -> None:
    from pbem import gamefile
    from pbem.engine import ledger
    from pbem.errors import FileAccessError
    from pbem.keys import KeyStore

    path = make_game()
    loaded = gamefile.load(path)
    current = ledger.read(loaded.data)
    secret = KeyStore(homes["b"]).secret("b", lambda prompt: None)
    updated, entry = ledger.note(current, "b", "hi", secret, "2026-01-01T00:00:00Z")
    path.write_text(path.read_text(encoding="utf-8") + "# someone else saved\n", encoding="utf-8")
    changed = path.read_bytes()
    text = gamefile.append_text(
        loaded, entry, updated.header(), updated.roster_table(), updated.status_lines()
    )
    with pytest.raises(FileAccessError, match="changed on disk"):
        gamefile.replace(loaded, text)
    assert path.read_bytes() == changed
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_atomic_write_keeps_the_old_file_if_writing_fails(
    make_game: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem import gamefile
    from pbem.errors import FileAccessError

    path = make_game()
    before = path.read_bytes()
    loaded = gamefile.load(path)

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(FileAccessError, match="No space left on device"):
        gamefile.replace(loaded, "garbage")
    assert path.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_games_lists_names_counts_editions_and_options(cli: Cli) -> None:
    result = cli("games")
    assert result.exit_code == 0
    assert "princes-of-the-renaissance  (Princes of the Renaissance; 3-6 players; editions: 2016, 2003)" in (
        result.stdout
    )
    assert "il-principe  (Il Principe; 2-5 players; editions: standard)" in result.stdout
    assert "--option unofficial_rules=true|false (default false)" in result.stdout


def test_join_a_file_with_crlf_line_endings(cli: Cli, make_game: Callable[..., Path]) -> None:
    """Mail programs may convert line endings; the file still verifies and takes new entries."""
    path = make_game(joined=("b",))
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert cli("verify", str(path)).exit_code == 0
    result = cli("join", str(path), "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    assert cli("verify", str(path)).exit_code == 0
    assert tomllib.loads(path.read_text(encoding="utf-8"))["entry"][-1]["by"] == "c"


def test_table_moved_below_the_entries_survives_a_write(cli: Cli, make_game: Callable[..., Path]) -> None:
    path = make_game(joined=("b",))
    text = path.read_text(encoding="utf-8")
    start = text.index("[roster.b]")
    block = text[start : text.index("\n[", start) + 1]
    path.write_text(text.replace(block, "") + "\n" + block, encoding="utf-8")
    assert path.read_text(encoding="utf-8").rstrip().endswith('fingerprint = "' + block.split('"')[-2] + '"')
    assert cli("verify", str(path)).exit_code == 0
    assert cli("join", str(path), "--as", "c", home="c").exit_code == 0
    assert cli("verify", str(path)).exit_code == 0
