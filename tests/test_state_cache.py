"""The replayed state a home keeps of the files it verified (pbem/cli/state_cache.py): a hit
says exactly what a full replay says, and nothing but this home's own entry for these very bytes
is ever used."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest

from pbem.cli import state_cache
from pbem.cli.state_cache import FOLDER, KEY_FILE, MAGIC, TAG_SIZE, StateCache
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = sorted(EXAMPLES.glob("*.toml"))
FIXED = {"PBEM_NOW": "2026-11-01T00:00:00Z"}


def commands(path: Path) -> list[tuple[str, ...]]:
    """What a player runs most on a game: where it stands, each seat's moves, the board."""
    import tomllib

    seats = tomllib.loads(path.read_text(encoding="utf-8"))["game"]["seats"]
    return [
        ("status", str(path)),
        ("status", str(path), "--json"),
        ("show", str(path)),
        ("show", str(path), "--json"),
        *[("moves", str(path), "--as", seat) for seat in seats],
        ("moves", str(path), "--as", seats[0], "--json"),
    ]


def said(home: Path, *args: str) -> tuple[int, str, str]:
    result = run_cli(home, *args, env=FIXED)
    return result.exit_code, result.stdout, result.stderr


def entries(home: Path) -> list[Path]:
    return sorted(path for path in (home / FOLDER).glob("*") if path.name != KEY_FILE)


@pytest.mark.parametrize("game", GAMES, ids=[path.stem for path in GAMES])
def test_a_hit_says_what_a_full_replay_says(game: Path, tmp_path: Path) -> None:
    copy = tmp_path / game.name
    shutil.copyfile(game, copy)
    cold_home, warm_home = tmp_path / "cold", tmp_path / "warm"
    said(warm_home, "status", str(copy))  # the warm home replays the file once, and keeps it
    assert len(entries(warm_home)) == 1
    replays = mock.patch("pbem.engine.ledger.read", side_effect=AssertionError("replayed"))
    for args in commands(copy):
        shutil.rmtree(cold_home, ignore_errors=True)  # nothing kept: a full replay
        cold = said(cold_home, *args)
        with replays:  # the warm home must answer without replaying
            warm = said(warm_home, *args)
        assert warm == cold, args


def test_verify_never_reads_the_kept_state(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    said(tmp_path / "home", "status", str(copy))
    with mock.patch.object(StateCache, "recall", side_effect=AssertionError("recalled")):
        assert said(tmp_path / "home", "verify", str(copy))[0] == 0


def test_another_byte_is_another_file_replayed_in_full(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    home = tmp_path / "home"
    said(home, "status", str(copy))
    # A signed field changed in the last entry: the same head to a careless reader, not to the
    # digest; the replay finds the broken signature.
    text = copy.read_text(encoding="utf-8")
    last = text.rindex('at = "')
    changed = text[:last] + text[last:].replace('at = "2', 'at = "1', 1)
    copy.write_text(changed, encoding="utf-8")
    code, _, error = said(home, "status", str(copy))
    assert code != 0 and "signature" in error
    # an unsigned copy changed (a comment): replayed, still fine, and kept as a second entry
    copy.write_text(text + "# a note of mine\n", encoding="utf-8")
    assert said(home, "status", str(copy))[0] == 0
    assert len(entries(home)) == 2


def tampered(home: Path, change: Callable[[bytes], bytes]) -> None:
    (entry,) = entries(home)
    entry.write_bytes(change(entry.read_bytes()))


def body_flipped(stored: bytes) -> bytes:
    at = len(stored) - 10
    return stored[:at] + bytes([stored[at] ^ 1]) + stored[at + 1 :]


def tag_replaced(stored: bytes) -> bytes:
    return MAGIC + bytes(TAG_SIZE) + stored[len(MAGIC) + TAG_SIZE :]


@pytest.mark.parametrize(
    "change",
    [body_flipped, tag_replaced, lambda stored: stored[: len(stored) // 2], lambda stored: b"junk"],
    ids=["body", "tag", "cut", "junk"],
)
def test_a_damaged_or_forged_entry_is_not_unpickled(change: Callable[[bytes], bytes], tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    home = tmp_path / "home"
    before = said(home, "status", str(copy))
    tampered(home, change)
    with mock.patch("pickle.loads", side_effect=AssertionError("unpickled")):
        assert StateCache(home).recall(copy.read_bytes()) is None
    assert said(home, "status", str(copy)) == before  # replayed in full, and kept again
    assert StateCache(home).recall(copy.read_bytes()) is not None


def test_an_entry_from_another_home_is_not_used(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    said(mine, "status", str(copy))
    said(theirs, "status", str(copy))
    (entry,) = entries(theirs)
    shutil.copyfile(entry, mine / FOLDER / entry.name)  # their entry, under my key: a miss
    with mock.patch("pickle.loads", side_effect=AssertionError("unpickled")):
        assert StateCache(mine).recall(copy.read_bytes()) is None


def test_an_entry_of_other_code_is_not_used(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    home = tmp_path / "home"
    said(home, "status", str(copy))
    assert StateCache(home).recall(copy.read_bytes()) is not None
    with mock.patch.object(state_cache, "code_version", lambda: "another pbem"):
        assert StateCache(home).recall(copy.read_bytes()) is None


def test_the_key_is_the_owners_alone(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    home = tmp_path / "home"
    said(home, "status", str(copy))
    key = home / FOLDER / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / FOLDER).stat().st_mode) == 0o700
    assert all(stat.S_IMODE(entry.stat().st_mode) == 0o600 for entry in entries(home))
    # a key others may read is not trusted: its entries are misses, and the next write makes a new one
    os.chmod(key, 0o644)
    assert StateCache(home).recall(copy.read_bytes()) is None
    old = key.read_bytes()
    said(home, "status", str(copy))
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.read_bytes() != old
    assert StateCache(home).recall(copy.read_bytes()) is not None


def test_a_home_that_cannot_be_written_still_answers(tmp_path: Path) -> None:
    copy = tmp_path / "game.toml"
    shutil.copyfile(EXAMPLES / "three-players.toml", copy)
    home = tmp_path / "home"
    home.mkdir()
    (home / FOLDER).write_text("not a folder", encoding="utf-8")
    assert said(home, "status", str(copy))[0] == 0
    assert said(home, "status", str(copy))[0] == 0
