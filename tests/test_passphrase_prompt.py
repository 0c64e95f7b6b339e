"""Passphrases as a person types them: asked again after a wrong one at a terminal (three tries in
all, never again when PBEM_PASSPHRASE or a script gave it), a new one long enough; and the keys
pbem cannot sign with said to be what they are.

The terminal is faked: ``common.at_terminal`` says a person is typing, ``common.typed`` answers.
The protected key is sealed with the cheapest scrypt cost a key file may carry, to keep each try
short; the cost is the file's, so the key opens the same way as any other.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.cli import common
from pbem.crypto import keyfile
from pbem.keys import KeyStore
from tests.conftest import CREATED, Cli

PASSPHRASE = "plover harbour"
ACTION = ("p", "takes", "family", "este", "for", "5")


@pytest.fixture(scope="module")
def _protected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("protected")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keyfile, "SCRYPT_LOG_N", min(keyfile.LOG_N_RANGE))
        KeyStore(home).create("p", PASSPHRASE, CREATED)
    yield home


@pytest.fixture
def protected(_protected: Path, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(_protected, home)
    return home


def terminal(monkeypatch: pytest.MonkeyPatch, *answers: str) -> list[str]:
    """A person at a terminal who types ``answers`` in turn; returns the prompts shown."""
    prompts: list[str] = []
    typed = iter(answers)

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    monkeypatch.setattr(common, "at_terminal", lambda: True)
    monkeypatch.setattr(common, "typed", answer)
    return prompts


def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(prompt: str) -> str:
        raise AssertionError(f"asked at a terminal: {prompt}")

    monkeypatch.setattr(common, "typed", refuse)


def signed_action(
    cli: Cli, home: Path, tmp_path: Path, passphrase: str | None = None
) -> tuple[int, str, bool]:
    """Record an action at a table signed with p's protected key: the exit code, stderr, and
    whether the action was recorded."""
    path = tmp_path / "table.toml"
    made = cli("table", "new", str(path), "--game", "potr", "--players", "p,b,c")
    assert made.exit_code == 0, made.stderr
    before = path.read_bytes()
    env = {"PBEM_HOME": str(home)} | ({"PBEM_PASSPHRASE": passphrase} if passphrase is not None else {})
    result = cli("table", "add", str(path), *ACTION, "--as", "p", env=env)
    return result.exit_code, result.stderr, path.read_bytes() != before


def test_a_mistyped_passphrase_is_asked_for_again(
    cli: Cli, protected: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = terminal(monkeypatch, "plover harbor", PASSPHRASE)
    code, stderr, recorded = signed_action(cli, protected, tmp_path)
    assert (code, recorded) == (0, True), stderr
    assert prompts == [
        "passphrase for key 'p': ",
        "wrong passphrase, 2 tries left; passphrase for key 'p': ",
    ]


def test_three_wrong_passphrases_and_nothing_is_written(
    cli: Cli, protected: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = terminal(monkeypatch, "one", "two", "three", PASSPHRASE)
    code, stderr, recorded = signed_action(cli, protected, tmp_path)
    assert (code, stderr) == (4, "error: wrong passphrase for key 'p'\n")
    assert prompts[1:] == [
        "wrong passphrase, 2 tries left; passphrase for key 'p': ",
        "wrong passphrase, 1 try left; passphrase for key 'p': ",
    ]
    assert not recorded


def test_a_wrong_passphrase_from_the_environment_is_not_asked_again(
    cli: Cli, protected: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_terminal(monkeypatch)
    tries: list[str | None] = []
    unseal = keyfile.unseal

    def counted(sealed: keyfile.SealedKey, passphrase: str | None) -> object:
        tries.append(passphrase)
        return unseal(sealed, passphrase)

    monkeypatch.setattr("pbem.keys.unseal", counted)
    code, stderr, recorded = signed_action(cli, protected, tmp_path, passphrase="plover harbor")
    assert (code, stderr) == (4, "error: wrong passphrase for key 'p'\n")
    assert tries == ["plover harbor"]
    assert not recorded


def test_no_terminal_and_no_passphrase_is_said_at_once(
    cli: Cli, protected: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_terminal(monkeypatch)  # the runner's standard input is no terminal
    code, stderr, recorded = signed_action(cli, protected, tmp_path)
    assert (code, stderr) == (
        4,
        "error: passphrase for key 'p': no terminal to ask on; set PBEM_PASSPHRASE\n",
    )
    assert not recorded


SHORT = (
    "error: a passphrase of {} characters is too short: use at least 8 "
    "(a few words are easy to remember); nothing was written\n"
)


@pytest.mark.parametrize("passphrase", ["pw", "1234567"])
def test_a_short_new_passphrase_is_refused(cli: Cli, tmp_path: Path, passphrase: str) -> None:
    home = tmp_path / "fresh"
    result = cli("key", "new", "p", env={"PBEM_HOME": str(home), "PBEM_PASSPHRASE": passphrase})
    assert (result.exit_code, result.stderr) == (4, SHORT.format(len(passphrase)))
    assert not home.exists()


def test_a_short_passphrase_typed_twice_is_refused(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal(monkeypatch, "seven77", "seven77")
    home = tmp_path / "fresh"
    result = cli("key", "new", "p", env={"PBEM_HOME": str(home)})
    assert (result.exit_code, result.stderr) == (4, SHORT.format(7))
    assert not home.exists()


def test_the_examples_passphrase_is_long_enough(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The examples' scripts set PBEM_PASSPHRASE="example only"; 8 characters are enough."""
    monkeypatch.setattr(keyfile, "SCRYPT_LOG_N", min(keyfile.LOG_N_RANGE))
    for name, passphrase in (("p", "example only"), ("q", "8 chars!")):
        result = cli(
            "key", "new", name, env={"PBEM_HOME": str(tmp_path / name), "PBEM_PASSPHRASE": passphrase}
        )
        assert result.exit_code == 0, result.stderr


def test_signing_with_another_players_identity_says_it_holds_no_private_key(
    cli: Cli, homes: dict[str, Path], tmp_path: Path
) -> None:
    exported = cli("key", "export", "b", home="b")
    assert cli("key", "import", "-", home="a", input=exported.stdout).exit_code == 0
    path = tmp_path / "game.toml"
    result = cli(
        "new", str(path), "--game", "potr", "--players", "a,b,c", "--as", "a", "--key", "b", home="a"
    )
    assert (result.exit_code, result.stderr) == (
        4,
        "error: 'b' is another player's identity, imported: it holds their public keys, "
        "no private key to sign with\n",
    )
    assert not path.exists()


@pytest.mark.parametrize("content", ["", "# a comment\n", "hello\n", "[game]\nid = '7e26'\n"])
def test_importing_a_file_with_no_identity_says_so(
    cli: Cli, homes: dict[str, Path], tmp_path: Path, content: str
) -> None:
    source = tmp_path / "not-an-identity.txt"
    source.write_text(content, encoding="utf-8")
    result = cli("key", "import", str(source), home="a")
    assert (result.exit_code, result.stderr) == (
        4,
        f"error: {source}: holds no pbem identity (a line 'pbem-identity/1 NAME SIGNKEY BOXKEY SIG', "
        "as 'pbem key export' writes it)\n",
    )
    assert not (homes["a"] / "identities").exists()
