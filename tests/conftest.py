"""Shared fixtures: key homes made once per session, a CLI runner, ready-made game files.

Keys are made without a passphrase here so most tests skip scrypt; the tests of passphrase
handling make their own protected keys.

Every game a test plays is the same on every run: a seat's key is derived from its name
(``seeded_keys``) and ``pbem new`` takes its game id from the test's name (``game_ids``), and
since every draw, shuffle and card dealt follows from the keys and the game id, a test that
needs a position reaches it on every run or on none. Hypothesis runs derandomized for the same
reason.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import secrets
import shutil
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner, Result

from pbem.cli import app
from pbem.crypto.identity import SecretKeys
from pbem.keys import KeyStore

# The mail_servers fixture: real SMTP and IMAP servers on the loopback interface.
pytest_plugins = ("tests.mail_servers",)

SEATS = ("a", "b", "c", "d", "e", "f")
CREATED = "2026-01-01T00:00:00Z"

settings.register_profile("pbem", derandomize=True, database=None, print_blob=True)
settings.load_profile("pbem")


def seeded_keys(name: str) -> SecretKeys:
    """The test key of ``name``: the same on every run, unlike a key made by ``pbem key new``."""
    digest = hashlib.sha512(f"pbem test key {name}".encode()).digest()
    return SecretKeys(digest[:32], digest[32:])


def make_key_homes(root: Path, seats: Sequence[str]) -> None:
    """One PBEM_HOME per seat under ``root``, each holding that seat's seeded key without a
    passphrase."""
    for seat in seats:
        KeyStore(root / seat).store(seat, seeded_keys(seat), None, CREATED)


def forget_seen_games(root: Path) -> None:
    """Every pbem home under ``root`` forgets the games it has verified (see seen_heads): for
    tests that take an earlier stage of a game they played on, which no player does."""
    for folder in root.glob("*/seen-games"):
        shutil.rmtree(folder)


@contextmanager
def game_ids(label: str) -> Iterator[None]:
    """Inside this block ``pbem new`` (run in this process) draws its nonce from ``label`` and a
    count, not from chance, and dates the genesis entry ``CREATED``: a game's id is a hash of its
    genesis entry, so with seeded keys the same game comes out on every run (whatever the clock
    says for the entries after it)."""
    from pbem.cli import game_commands

    count = itertools.count()

    def token_hex(size: int | None = None) -> str:
        text = f"{label} {next(count)}".encode()
        return hashlib.sha256(text).hexdigest()[: 2 * (size or 32)]

    with (
        mock.patch.object(secrets, "token_hex", token_hex),
        mock.patch.object(game_commands, "now", lambda: os.environ.get("PBEM_NOW") or CREATED),
    ):
        yield


@pytest.fixture(autouse=True)
def _test_game_ids(request: pytest.FixtureRequest) -> Iterator[None]:
    with game_ids(request.node.nodeid):
        yield


# Typer builds Click's command tree from the app on every invoke (about 20 ms), and the tests
# invoke pbem thousands of times: the tree never changes, so each test process builds it once.
typer.testing._get_command = functools.cache(typer.testing._get_command)  # type: ignore[attr-defined]


def run_cli(home: Path, *args: str, env: dict[str, str] | None = None, input: str | None = None) -> Result:
    """``pbem ARGS`` with ``home`` as PBEM_HOME, the real clock, no passphrase and no colour."""
    environment: dict[str, str | None] = {
        "PBEM_HOME": str(home),
        "PBEM_NOW": "",
        "PBEM_PASSPHRASE": None,
        "NO_COLOR": "1",
        "COLUMNS": None,  # output as to a pipe: one line per item (a test sets a width to wrap)
    }
    environment.update(env or {})
    return CliRunner().invoke(app, list(args), env=environment, input=input)


@pytest.fixture(scope="session")
def _key_homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("homes")
    make_key_homes(root, SEATS)
    return root


@pytest.fixture
def homes(_key_homes: Path, tmp_path: Path) -> dict[str, Path]:
    """One PBEM_HOME per seat (a..f), each holding that seat's unencrypted key."""
    target = tmp_path / "homes"
    shutil.copytree(_key_homes, target)
    return {seat: target / seat for seat in SEATS}


@dataclass
class Cli:
    homes: dict[str, Path]
    cwd: Path

    def __call__(
        self, *args: str, home: str | None = None, env: dict[str, str] | None = None, input: str | None = None
    ) -> Result:
        """``pbem ARGS`` in the home of seat ``home``; ``b@2`` is b's key on a second machine, a
        home of its own that has seen none of the games b's first home has (how a player could
        sign two different entries for one step: a home refuses to do it itself)."""
        if home is not None and home not in self.homes:
            seat = home.split("@", 1)[0]
            self.homes[home] = self.cwd / "elsewhere" / home
            shutil.copytree(self.homes[seat] / "keys", self.homes[home] / "keys")
        return run_cli(self.homes[home] if home else self.cwd / "nohome", *args, env=env, input=input)


@pytest.fixture
def cli(homes: dict[str, Path], tmp_path: Path) -> Cli:
    return Cli(homes, tmp_path)


Once = Callable[[Hashable, Path, Callable[[], None]], Path]


@pytest.fixture(scope="session")
def _made_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Hashable, Path]]:
    return tmp_path_factory.mktemp("made"), {}


@pytest.fixture
def once(_made_files: tuple[Path, dict[Hashable, Path]]) -> Once:
    """``once(key, path, build)``: ``build()`` writes ``path`` through the CLI the first time a key
    is asked for; later tests get a copy of that file. Every seat's key is the same in every test
    (see ``_key_homes``), so a copy is as good as a new game, and a Princes of the Renaissance
    game, whose first entries prove the shuffles of its hidden deck, is made once per session."""
    store, made = _made_files

    def get(key: Hashable, path: Path, build: Callable[[], None]) -> Path:
        if key in made:
            shutil.copyfile(made[key], path)
            return path
        with game_ids(repr(key)):
            build()
        made[key] = store / f"{len(made)}.toml"
        shutil.copyfile(path, made[key])
        return path

    return get


@pytest.fixture
def make_game(cli: Cli, tmp_path: Path, once: Once) -> Callable[..., Path]:
    """Create a game through the CLI; join the given seats; add notes by joined seats. The same
    arguments give the same game (a copy of the first one made), different names different games."""

    def make(
        *,
        seats: Sequence[str] = ("a", "b", "c"),
        joined: Sequence[str] | None = None,
        notes: Sequence[tuple[str, str]] = (),
        game: str = "princes-of-the-renaissance",
        name: str = "game.toml",
        options: Sequence[str] = (),
        roll: bool = False,
    ) -> Path:
        path = tmp_path / name
        key = (
            "make_game",
            tuple(seats),
            None if joined is None else tuple(joined),
            tuple(notes),
            game,
            name,
            tuple(options),
            roll,
        )
        return once(key, path, lambda: build(path, seats, joined, notes, game, options, roll))

    def build(
        path: Path,
        seats: Sequence[str],
        joined: Sequence[str] | None,
        notes: Sequence[tuple[str, str]],
        game: str,
        options: Sequence[str],
        roll: bool,
    ) -> None:
        # The games these tests play are set up without escrow unless a test asks for it: escrow's
        # own tests (test_escrow_*.py, test_silent_seat.py) play its set-up.
        if not any(option.startswith("escrow=") for option in options):
            options = [*options, "escrow=none"]
        extra = [arg for option in options for arg in ("--option", option)]
        result = cli(
            "new",
            str(path),
            "--game",
            game,
            "--players",
            ",".join(seats),
            "--as",
            seats[0],
            *extra,
            home=seats[0],
        )
        assert result.exit_code == 0, result.stderr
        for seat in joined if joined is not None else seats[1:]:
            result = cli("join", str(path), "--as", seat, home=seat)
            assert result.exit_code == 0, result.stderr
        for seat, text in notes:
            result = cli("note", str(path), text, "--as", seat, home=seat)
            assert result.exit_code == 0, result.stderr
        if roll:  # every seat adds randomness to the setup draw, so the bidding can begin
            for seat in seats:
                result = cli("play", str(path), "roll", "--as", seat, home=seat)
                assert result.exit_code == 0, result.stderr

    return make


@pytest.fixture
def game_file(make_game: Callable[..., Path]) -> Iterator[Path]:
    """A three-seat game, everyone joined, then a note from each of b and a."""
    yield make_game(notes=(("b", "I back Venice"), ("a", "agreed")))


def potr_components(edition: str) -> dict[str, Any]:
    """The component values pbem new embeds for a Princes of the Renaissance edition."""
    from pbem.cli.template_files import bundled
    from pbem.kit.templates import values

    template = bundled("princes-of-the-renaissance", edition)
    assert template is not None
    return values(template)
