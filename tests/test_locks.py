"""Two pbem commands at once in one home: each file a command rewrites is locked from its read to
its write, so neither loses what the other wrote, and a command that cannot have the lock in time
says so in one line.

The races are run with real processes, started in pairs at the same moment, many pairs side by
side: the window a lock closes is a small part of a command's run, so a single pair would hit it
rarely. Without the locks, a third to a half of the pairs of notes lost a game from the library,
and nearly every note written while a message was applied was refused ("changed on disk")."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem import locks
from pbem.errors import BusyError
from pbem.mail.library import Kept, Library
from tests.conftest import Cli, run_cli

TRIALS = 20  # pairs of each kind, each in a home of its own
OTHERS = 100  # games in the library besides, in the first test
AT_ONCE = 4  # pairs running side by side: enough to keep both cores busy, not so many they crawl
ROOT = "<root-of-the-game@pbem.test>"
HEAD = "0" * 64


@dataclass(frozen=True)
class Ran:
    args: tuple[str, ...]
    code: int
    stderr: str


@pytest.fixture(scope="session")
def bytecode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the processes keep the bytecode of pbem's modules: compiled once, not in every
    process (which, where PYTHONDONTWRITEBYTECODE is set, doubles the time each takes to start),
    and outside the source tree."""
    return tmp_path_factory.mktemp("bytecode")


def pbem_process(home: Path, bytecode: Path, *args: str) -> subprocess.Popen[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in ("PBEM_PASSPHRASE", "PBEM_NOW", "COLUMNS", "PBEM_LOCK_TIMEOUT", "PYTHONDONTWRITEBYTECODE")
    }
    environment.update({"PBEM_HOME": str(home), "NO_COLOR": "1", "PYTHONPYCACHEPREFIX": str(bytecode)})
    return subprocess.Popen(
        [sys.executable, "-m", "pbem", *args],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def together(home: Path, bytecode: Path, first: Sequence[str], second: Sequence[str]) -> list[Ran]:
    """Two pbem commands started at the same moment in ``home``; what each gave."""
    processes = [(tuple(args), pbem_process(home, bytecode, *args)) for args in (first, second)]
    ran = []
    for args, process in processes:
        _, stderr = process.communicate(timeout=120)
        ran.append(Ran(args, process.returncode, stderr))
    return ran


def records(home: Path) -> dict[str, Any]:
    """The games of ``home``'s library as its index holds them."""
    index = tomllib.loads((home / "games" / "index.toml").read_text(encoding="utf-8"))
    games: dict[str, Any] = index["games"]
    return games


def notes(path: Path) -> list[str]:
    return [entry["text"] for entry in tomllib.loads(path.read_text())["entry"] if entry["kind"] == "note"]


def game_id(path: Path) -> str:
    return str(tomllib.loads(path.read_text())["game"]["id"])


@dataclass(frozen=True)
class Trial:
    """One home with its own copies of the games, and what it holds before the pair runs."""

    home: Path
    games: tuple[Path, ...]


def trial_home(
    keys: Path, where: Path, games: Sequence[Path], recorded: Sequence[Path], others: int = 0
) -> Trial:
    """A home at ``where`` with ``keys``' keys and copies of ``games``; the library knows those
    of ``recorded``, and ``others`` games besides, each with what a message taught it (what a seat
    holds, a message applied, the game's first message), so a lost record shows."""
    home = where / "home"
    shutil.copytree(keys / "keys", home / "keys")
    copies = []
    for game in games:
        copy = where / game.name
        shutil.copyfile(game, copy)
        copies.append(copy)
    known = [
        (game_id(copy), copy.resolve()) for game, copy in zip(games, copies, strict=True) if game in recorded
    ]
    known += [(other_id(number), where / f"other{number}.toml") for number in range(others)]
    Library(home).save({game: Kept(game, path, {"c": [HEAD]}, 1, ROOT) for game, path in known})
    return Trial(home, tuple(copies))


def other_id(number: int) -> str:
    return hashlib.sha256(f"another game {number}".encode()).hexdigest()[:32]


def run_trials(
    trials: Sequence[Trial],
    commands: Sequence[tuple[Sequence[str], Sequence[str]]],
    bytecode: Path,
    game: Path,
) -> list[list[Ran]]:
    """Each trial's pair of commands, AT_ONCE pairs at a time; what each command gave."""
    # one command first, in a home of its own, compiles the modules the others import (``game``'s)
    warm = pbem_process(trials[0].home.parent / "warm", bytecode, "verify", str(game))
    assert warm.wait(timeout=120) == 0
    with ThreadPoolExecutor(AT_ONCE) as pool:
        return list(
            pool.map(
                lambda pair: together(pair[0].home, bytecode, *pair[1]), zip(trials, commands, strict=True)
            )
        )


def failures(ran: Sequence[Ran]) -> list[str]:
    return [
        f"pbem {' '.join(one.args[:2])}: exit {one.code}: {one.stderr.strip()}" for one in ran if one.code
    ]


@pytest.fixture
def two_games(cli: Cli, tmp_path: Path) -> tuple[Path, Path]:
    """Two games b started, with c still to join: a note is the one entry either takes."""
    made = []
    for name in ("first", "second"):
        path = tmp_path / f"{name}.toml"
        result = cli("new", str(path), "--game", "il-principe", "--players", "b,c", "--as", "b", home="b")
        assert result.exit_code == 0, result.stderr
        made.append(path)
    return made[0], made[1]


def test_notes_on_two_games_at_once_both_reach_the_library(
    two_games: tuple[Path, Path], homes: dict[str, Path], tmp_path: Path, bytecode: Path
) -> None:
    """Each note registers its game in the index: the one written last keeps the other's game
    and its records. One of the two games is in the library before, in turn each, with games
    of a player's years of play, which make the index take a while to read and write."""
    first, second = two_games
    trials = [
        trial_home(homes["b"], tmp_path / f"notes{number}", two_games, [(first, second)[number % 2]], OTHERS)
        for number in range(TRIALS)
    ]
    commands = [
        (
            ("note", str(trial.games[0]), "on the first", "--as", "b"),
            ("note", str(trial.games[1]), "on the second", "--as", "b"),
        )
        for trial in trials
    ]
    ran = run_trials(trials, commands, bytecode, first)
    wrong = {}
    for number, (trial, pair) in enumerate(zip(trials, ran, strict=True)):
        problems = failures(pair)
        held = records(trial.home)
        for copy, text in zip(trial.games, ("on the first", "on the second"), strict=True):
            if notes(copy) != [text]:
                problems.append(f"{copy.name} holds the notes {notes(copy)}")
            kept = held.get(game_id(copy))
            if kept is None or kept["path"] != str(copy.resolve()):
                problems.append(f"{copy.name} is not in the library")
            elif copy.name == (first, second)[number % 2].name and (
                kept.get("known"),
                kept.get("applied"),
                kept.get("root"),
            ) != ({"c": [HEAD]}, 1, ROOT):
                problems.append(f"{copy.name} lost its records: {kept}")
        if len(held) != OTHERS + 2 or any(held[other_id(n)]["root"] != ROOT for n in range(OTHERS)):
            problems.append(f"the library holds {len(held)} games, not {OTHERS + 2}")
        if problems:
            wrong[number] = problems
    assert not wrong, f"{len(wrong)} of {TRIALS} pairs went wrong: {wrong}"


@pytest.fixture
def message(cli: Cli, tmp_path: Path) -> tuple[Path, Path]:
    """b's copy of a game of a, b and c in which a and b joined, and a message from a carrying a
    note b's copy lacks."""
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    result = cli(
        "new",
        str(a),
        "--game",
        "il-principe",
        "--players",
        "a,b,c",
        "--as",
        "a",
        "--email",
        "a@pbem.test",
        home="a",
    )
    assert result.exit_code == 0, result.stderr
    shutil.copyfile(a, b)
    result = cli("join", str(b), "--as", "b", "--email", "b@pbem.test", home="b")
    assert result.exit_code == 0, result.stderr
    shutil.copyfile(b, a)
    result = cli("note", str(a), "from a", "--as", "a", home="a")
    assert result.exit_code == 0, result.stderr
    mail = tmp_path / "note.eml"
    result = cli("mail", "send", str(a), "--as", "a", "--to-file", str(mail), home="a")
    assert result.exit_code == 0, result.stderr
    return b, mail


def test_a_note_and_a_message_applied_at_once_keep_both(
    message: tuple[Path, Path], homes: dict[str, Path], tmp_path: Path, bytecode: Path
) -> None:
    """b writes a note while pbem mail import applies a's to the same copy: whichever comes
    second reads what the first wrote, so the copy ends with both notes, and the library with
    what the message taught as well as what it knew."""
    game, mail = message
    trials = [trial_home(homes["b"], tmp_path / f"mail{number}", [game], [game]) for number in range(TRIALS)]
    commands = [
        (("note", str(trial.games[0]), "from b", "--as", "b"), ("mail", "import", str(mail)))
        for trial in trials
    ]
    ran = run_trials(trials, commands, bytecode, game)
    wrong = {}
    for number, (trial, pair) in enumerate(zip(trials, ran, strict=True)):
        problems = failures(pair)
        (copy,) = trial.games
        if sorted(notes(copy)) != ["from a", "from b"]:
            problems.append(f"the copy holds the notes {notes(copy)}")
        kept = records(trial.home).get(game_id(copy), {})
        if (kept.get("path"), kept.get("applied"), kept.get("root"), set(kept.get("known", {}))) != (
            str(copy.resolve()),
            2,
            ROOT,
            {"a", "c"},
        ):
            problems.append(f"the library holds {kept}")
        if problems:
            wrong[number] = problems
    assert not wrong, f"{len(wrong)} of {TRIALS} pairs went wrong: {wrong}"


# --- a lock held too long ---------------------------------------------------------------------
@contextmanager
def held_elsewhere(path: Path) -> Iterator[None]:
    """``path``'s lock, held by another process for the block."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from filelock import FileLock; lock = FileLock(sys.argv[1]); lock.acquire(); "
            "print('held', flush=True); sys.stdin.read()",
            str(locks.lock_path(path.resolve())),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def test_a_command_that_cannot_have_the_lock_in_time_says_so_in_one_line(
    two_games: tuple[Path, Path], homes: dict[str, Path]
) -> None:
    game = two_games[0]
    before = game.read_bytes()
    with held_elsewhere(game):
        result = run_cli(
            homes["b"], "note", str(game), "hello", "--as", "b", env={"PBEM_LOCK_TIMEOUT": "0.2"}
        )
    assert result.exit_code == BusyError.exit_code == 8
    assert result.stderr == f"error: another pbem command is using {game}; try again\n"
    assert game.read_bytes() == before
    # once the other command is done, the same command goes through
    result = run_cli(homes["b"], "note", str(game), "hello", "--as", "b", env={"PBEM_LOCK_TIMEOUT": "0.2"})
    assert result.exit_code == 0, result.stderr
    assert notes(game) == ["hello"]


def test_a_message_kept_from_its_game_is_not_applied_and_says_why(
    message: tuple[Path, Path], homes: dict[str, Path]
) -> None:
    game, mail = message
    Library(homes["b"]).register(game_id(game), game)
    before = game.read_bytes()
    with held_elsewhere(game):
        result = run_cli(homes["b"], "mail", "import", str(mail), env={"PBEM_LOCK_TIMEOUT": "0.1"})
    assert result.exit_code == 8
    assert f"not applied, nothing changed: another pbem command is using {game.resolve()}; try again" in (
        result.stdout
    )
    assert game.read_bytes() == before


def test_the_library_waits_for_its_index_and_then_gives_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = Library(tmp_path)
    library.register("0" * 32, tmp_path / "game.toml")
    monkeypatch.setenv(locks.TIMEOUT_ENV, "0.1")
    with (
        held_elsewhere(library.index),
        pytest.raises(BusyError, match=r"another pbem command is using .*index\.toml; try again"),
    ):
        library.register("1" * 32, tmp_path / "other.toml")
    assert set(library.games()) == {"0" * 32}


def test_a_lock_held_is_taken_again_in_the_same_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that holds a game's lock and then writes the file (whose write takes the lock
    again, named another way) goes on at once; the lock leaves one hidden file beside the game."""
    path = tmp_path / "game.toml"
    path.write_text("")
    (tmp_path / "link.toml").symlink_to(path)
    monkeypatch.setenv(locks.TIMEOUT_ENV, "0")
    with locks.held(path), locks.held(tmp_path / "." / "game.toml"), locks.held(tmp_path / "link.toml"):
        pass
    assert {item.name for item in tmp_path.iterdir()} == {"game.toml", "link.toml", ".game.toml.lock"}


def test_a_timeout_that_is_not_a_number_of_seconds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.errors import UsageError

    for text in ("soon", "-1", "inf", "nan"):
        monkeypatch.setenv(locks.TIMEOUT_ENV, text)
        with pytest.raises(UsageError, match=locks.TIMEOUT_ENV):
            locks.timeout()
    monkeypatch.setenv(locks.TIMEOUT_ENV, "2.5")
    assert locks.timeout() == 2.5
    monkeypatch.delenv(locks.TIMEOUT_ENV)
    assert locks.timeout() == locks.TIMEOUT


def test_a_message_for_a_game_whose_file_is_gone_writes_it_into_the_library(
    cli: Cli, message: tuple[Path, Path], homes: dict[str, Path], tmp_path: Path
) -> None:
    """The library names a file that is no longer there: the game arrives in ``games/`` as a
    new game would, its lock taken there."""
    game, _ = message
    full = tmp_path / "full.eml"
    sent = cli(
        "mail", "send", str(tmp_path / "a.toml"), "--as", "a", "--full", "--to-file", str(full), home="a"
    )
    assert sent.exit_code == 0, sent.stderr
    Library(homes["b"]).register(game_id(game), game)
    game.unlink()
    result = run_cli(homes["b"], "mail", "import", str(full))
    assert result.exit_code == 0, result.stdout + result.stderr
    path = Library(homes["b"]).games()[game_id(tmp_path / "a.toml")].path
    assert path.parent == homes["b"] / "games" and notes(path) == ["from a"]


def test_a_new_game_received_twice_at_once_is_written_once(
    cli: Cli, message: tuple[Path, Path], homes: dict[str, Path], tmp_path: Path, bytecode: Path
) -> None:
    """Two imports of a game this home does not know yet: the second waits for the first to
    write the game into the library, then finds it there, as it would one after the other."""
    full = tmp_path / "full.eml"
    sent = cli(
        "mail", "send", str(tmp_path / "a.toml"), "--as", "a", "--full", "--to-file", str(full), home="a"
    )
    assert sent.exit_code == 0, sent.stderr
    trials = [trial_home(homes["b"], tmp_path / f"new{number}", [], []) for number in range(TRIALS // 4)]
    commands = [(("mail", "import", str(full)), ("mail", "import", str(full))) for _ in trials]
    ran = run_trials(trials, commands, bytecode, tmp_path / "a.toml")
    wrong = {}
    for number, (trial, pair) in enumerate(zip(trials, ran, strict=True)):
        problems = failures(pair)
        held = records(trial.home)
        written = sorted(path.name for path in (trial.home / "games").glob("*.toml"))
        if (
            len(held) != 1
            or len(written) != 2
            or notes(Path(next(iter(held.values()))["path"])) != ["from a"]
        ):
            problems.append(f"the library holds {held}, its folder {written}")
        if problems:
            wrong[number] = problems
    assert not wrong, f"{len(wrong)} of {len(trials)} pairs went wrong: {wrong}"
