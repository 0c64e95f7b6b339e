"""``pbem key ...`` and the opening of keys: passphrases, damaged and exposed key files, identities.

Protected keys cost a scrypt run each, so the tests that only open one copy a key made once per module.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem.cli import common
from pbem.crypto.encoding import b64
from pbem.errors import IdentityError
from pbem.keys import KeyStore, default_home
from tests.conftest import CREATED, Cli

FINGERPRINT = re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$")
PASSPHRASE = "plover harbour 93 quietly"
GAME = "princes-of-the-renaissance"
NAME_RULE = (
    "use 1 to 32 letters of any alphabet, digits, '-' or '_', starting with a letter or digit (no spaces)"
)
BAD_NAMES = ["../x", "a b", "", "x" * 33, "_x", "a.b", "a/b", "☃", "é\u200b"]

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

NO_IDENTITY = (
    "holds no pbem identity (a line 'pbem-identity/1 NAME SIGNKEY BOXKEY SIG', "
    "as 'pbem key export' writes it)"
)
LINE_FORM = "pbem-identity/1 NAME SIGNKEY BOXKEY SIG"
SEAL_BROKEN = "its sealed fields or scrypt parameters were edited (the seal does not verify)"


# --- helpers --------------------------------------------------------------------------------------


def home_env(home: Path, passphrase: str | None = None) -> dict[str, str]:
    env = {"PBEM_HOME": str(home)}
    if passphrase is not None:
        env["PBEM_PASSPHRASE"] = passphrase
    return env


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file and directory under ``root`` with its bytes (None for a directory)."""
    if not root.exists():
        return {}
    return {
        path.relative_to(root).as_posix(): (path.read_bytes() if path.is_file() else None)
        for path in sorted(root.rglob("*"))
    }


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def fingerprint_of(home: Path, name: str) -> str:
    return KeyStore(home).public(name).identity.fingerprint


def identity_line_of(home: Path, name: str) -> str:
    return KeyStore(home).export_line(name)


def error(result: Result, code: int) -> str:
    """Check a failure: the exit code, nothing on stdout, one ``error:`` line; return that line."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def start_game(cli: Cli, home: Path, directory: Path, seat: str, passphrase: str | None = None) -> Result:
    """``pbem new`` signs the genesis entry, so it opens the seat's private key."""
    return cli(
        "new",
        str(directory / "game.toml"),
        "--game",
        GAME,
        "--players",
        f"{seat},b,c",
        "--as",
        seat,
        env=home_env(home, passphrase),
    )


def edit_key_file(path: Path, change: Callable[[str], str]) -> None:
    """Rewrite a key file's text, keeping its mode."""
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    os.chmod(path, 0o600)


def field(text: str, name: str) -> str:
    """The string value of ``name = "..."`` in a key file."""
    match = re.search(rf'^{name} = "([^"]*)"$', text, re.MULTILINE)
    assert match, name
    return match.group(1)


def replace_field(text: str, name: str, value: str) -> str:
    return re.sub(rf'^{name} = "[^"]*"$', f'{name} = "{value}"', text, count=1, flags=re.MULTILINE)


def flip_char(text: str, index: int) -> str:
    """``text`` with one base64 character changed to another base64 character."""
    new = "B" if text[index] == "A" else "A"
    return text[:index] + new + text[index + 1 :]


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def _protected_homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two homes, each with a different passphrase-protected key named 'p'."""
    root = tmp_path_factory.mktemp("protected")
    for home in ("one", "two"):
        KeyStore(root / home).create("p", PASSPHRASE, CREATED)
    return root


@pytest.fixture
def protected(_protected_homes: Path, tmp_path: Path) -> Path:
    """A fresh copy of a home holding the protected key 'p' (its file mode kept)."""
    target = tmp_path / "protected"
    shutil.copytree(_protected_homes / "one", target)
    return target


@pytest.fixture
def other_protected(_protected_homes: Path, tmp_path: Path) -> Path:
    """A home holding another protected key, also named 'p'."""
    target = tmp_path / "other-protected"
    shutil.copytree(_protected_homes / "two", target)
    return target


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """A home that does not exist yet."""
    return tmp_path / "fresh-home"


# --- pbem key new ---------------------------------------------------------------------------------


def test_key_new_writes_a_passphrase_protected_key(cli: Cli, fresh: Path) -> None:
    result = cli("key", "new", "p", env=home_env(fresh, PASSPHRASE))
    assert result.exit_code == 0, result.stderr
    path = fresh / "keys" / "p.key"
    assert result.stderr == f"created key 'p' in {path}\n"
    name, fingerprint = result.stdout.rstrip("\n").split(" ")
    assert result.stdout == f"p {fingerprint}\n"
    assert name == "p"
    assert FINGERPRINT.fullmatch(fingerprint)

    assert sorted(p.name for p in (fresh / "keys").iterdir()) == ["p.key"]
    if os.name == "posix":
        assert mode(path) == 0o600
        assert mode(fresh / "keys") == 0o700

    raw = path.read_bytes()
    data = tomllib.loads(raw.decode("utf-8"))
    assert data["name"] == "p"
    assert data["fingerprint"] == fingerprint
    assert data["secret"]["kdf"] == "scrypt"
    assert "keys" not in data["secret"]

    # Opening needs the passphrase, and gives the keys behind the printed fingerprint.
    store = KeyStore(fresh)
    with pytest.raises(IdentityError, match=r"^wrong passphrase for key 'p'$"):
        store.secret("p", lambda _prompt: PASSPHRASE + "!")
    secret = store.secret("p", lambda _prompt: PASSPHRASE)
    assert secret.public("p").fingerprint == fingerprint

    # Neither the passphrase nor the private keys appear anywhere in clear.
    shown = (result.stdout + result.stderr).encode("utf-8")
    for needle in (
        PASSPHRASE.encode("utf-8"),
        secret.sign_seed,
        secret.box_secret,
        b64(secret.sign_seed).encode("ascii"),
        b64(secret.box_secret).encode("ascii"),
        b64(secret.sign_seed + secret.box_secret).encode("ascii"),
        secret.sign_seed.hex().encode("ascii"),
        secret.box_secret.hex().encode("ascii"),
    ):
        assert needle not in raw
        assert needle not in shown


def test_key_new_never_replaces_a_key(cli: Cli, fresh: Path) -> None:
    first = cli("key", "new", "p", env=home_env(fresh, PASSPHRASE))
    assert first.exit_code == 0, first.stderr
    path = fresh / "keys" / "p.key"
    before = snapshot(fresh)

    again = cli("key", "new", "p", env=home_env(fresh, "another passphrase"))
    assert error(again, 4) == f"error: key 'p' already exists at {path}; pbem never overwrites a key"
    unprotected = cli("key", "new", "p", "--no-passphrase", env=home_env(fresh))
    assert error(unprotected, 4) == f"error: key 'p' already exists at {path}; pbem never overwrites a key"
    assert snapshot(fresh) == before
    if os.name == "posix":
        assert mode(path) == 0o600


def test_key_new_refuses_an_empty_passphrase(cli: Cli, fresh: Path) -> None:
    result = cli("key", "new", "p", env=home_env(fresh, ""))
    assert error(result, 4) == ("error: empty passphrase; use --no-passphrase to store the key unencrypted")
    assert not fresh.exists()


def test_key_new_without_passphrase_or_terminal(cli: Cli, fresh: Path) -> None:
    result = cli("key", "new", "p", env=home_env(fresh))
    assert error(result, 4) == (
        "error: new passphrase for key 'p': no terminal to ask on; set PBEM_PASSPHRASE"
    )
    assert not fresh.exists()


def test_key_new_asks_twice_and_refuses_different_answers(
    cli: Cli, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []
    answers = iter(["first answer", "second answer"])

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr(common, "ask_passphrase", typed)
    result = cli("key", "new", "p", env=home_env(fresh))
    assert error(result, 4) == "error: the two passphrases differ; nothing was written"
    assert prompts == ["new passphrase for key 'p'", "the same passphrase again"]
    assert not fresh.exists()


def test_key_new_with_a_typed_passphrase(cli: Cli, fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "ask_passphrase", lambda _prompt: PASSPHRASE)
    result = cli("key", "new", "p", env=home_env(fresh))
    assert result.exit_code == 0, result.stderr
    assert PASSPHRASE not in result.stdout + result.stderr
    assert PASSPHRASE.encode("utf-8") not in (fresh / "keys" / "p.key").read_bytes()
    secret = KeyStore(fresh).secret("p", lambda _prompt: PASSPHRASE)
    assert result.stdout == f"p {secret.public('p').fingerprint}\n"


def test_key_new_without_passphrase_warns(cli: Cli, fresh: Path) -> None:
    result = cli("key", "new", "u", "--no-passphrase", env=home_env(fresh))
    assert result.exit_code == 0, result.stderr
    path = fresh / "keys" / "u.key"
    assert result.stderr == (
        f"warning: key 'u' is stored without a passphrase: anyone who can read {path} can sign as you\n"
        f"created key 'u' in {path}\n"
    )
    assert result.stdout == f"u {fingerprint_of(fresh, 'u')}\n"
    assert FINGERPRINT.fullmatch(result.stdout.split()[1])
    assert tomllib.loads(path.read_text(encoding="utf-8"))["secret"]["kdf"] == "none"
    if os.name == "posix":
        assert mode(path) == 0o600
        assert mode(fresh / "keys") == 0o700


def test_key_new_accepts_a_32_character_name(cli: Cli, fresh: Path) -> None:
    name = "A" + "b" * 29 + "-_"
    result = cli("key", "new", name, "--no-passphrase", env=home_env(fresh))
    assert result.exit_code == 0, result.stderr
    assert (fresh / "keys" / f"{name}.key").is_file()


@pytest.mark.parametrize("name", BAD_NAMES)
def test_key_new_refuses_invalid_names(cli: Cli, fresh: Path, tmp_path: Path, name: str) -> None:
    for extra in ([], ["--no-passphrase"]):
        result = cli("key", "new", name, *extra, env=home_env(fresh, PASSPHRASE))
        assert error(result, 2) == f"error: invalid key name {name!r}: {NAME_RULE}"
    assert not fresh.exists()
    assert not (tmp_path / "x.key").exists()


# --- opening a key to sign ------------------------------------------------------------------------


def test_right_passphrase_opens_the_key(cli: Cli, protected: Path, tmp_path: Path) -> None:
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "game.toml").is_file()
    assert PASSPHRASE not in result.stdout + result.stderr
    assert PASSPHRASE not in (tmp_path / "game.toml").read_text(encoding="utf-8")


def test_unprotected_key_opens_without_asking(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    result = start_game(cli, homes["a"], tmp_path, "a")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "game.toml").is_file()


def test_wrong_passphrase(cli: Cli, protected: Path, tmp_path: Path) -> None:
    before = snapshot(protected)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE + " ")
    assert error(result, 4) == "error: wrong passphrase for key 'p'"
    assert not (tmp_path / "game.toml").exists()
    assert snapshot(protected) == before


def test_protected_key_without_passphrase_or_terminal(cli: Cli, protected: Path, tmp_path: Path) -> None:
    result = start_game(cli, protected, tmp_path, "p")
    assert error(result, 4) == "error: passphrase for key 'p': no terminal to ask on; set PBEM_PASSPHRASE"
    assert not (tmp_path / "game.toml").exists()


def test_missing_key(cli: Cli, homes: dict[str, Path], fresh: Path, tmp_path: Path) -> None:
    result = start_game(cli, homes["b"], tmp_path, "a")
    keys = homes["b"] / "keys"
    assert error(result, 4) == f"error: no key named 'a' in {keys} (make one with 'pbem key new a')"

    result = start_game(cli, fresh, tmp_path, "a")
    assert error(result, 4) == (
        f"error: no key named 'a' in {fresh / 'keys'} (make one with 'pbem key new a')"
    )
    assert not (tmp_path / "game.toml").exists()
    assert not fresh.exists()


def test_key_file_holding_another_key(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    path = homes["a"] / "keys" / "x.key"
    shutil.copy2(homes["a"] / "keys" / "a.key", path)
    result = start_game(cli, homes["a"], tmp_path, "x")
    assert error(result, 4) == f"error: key file {path} holds the key 'a', not 'x'"
    assert not (tmp_path / "game.toml").exists()


def test_key_file_that_is_not_toml(cli: Cli, protected: Path, tmp_path: Path) -> None:
    path = protected / "keys" / "p.key"
    text = "format = pbem-key/1\n[[secret\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError) as parse_error:
        tomllib.loads(text)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: {parse_error.value}"
    assert not (tmp_path / "game.toml").exists()
    assert path.read_text(encoding="utf-8") == text


def test_key_file_that_is_not_utf8(cli: Cli, protected: Path, tmp_path: Path) -> None:
    path = protected / "keys" / "p.key"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4).startswith(f"error: key file {path} is damaged: ")
    assert not (tmp_path / "game.toml").exists()


@pytest.mark.parametrize(
    ("removed", "reason"),
    [
        ("format", "format is None, expected 'pbem-key/1'"),
        ("name", "missing field 'name'"),
        ("sign_public", "missing field 'sign_public'"),
        ("box_public", "missing field 'box_public'"),
        ("fingerprint", "fingerprint does not match the public keys"),
        ("identity", "the identity line does not match the public keys"),
        ("salt", "missing field secret.salt"),
        ("nonce", "missing field secret.nonce"),
        ("ciphertext", "missing field secret.ciphertext"),
        ("seal", "missing field secret.seal"),
        ("cipher", "missing field secret.cipher"),
        ("log_n", "missing field secret.log_n"),
    ],
)
def test_key_file_with_a_field_removed(
    cli: Cli, protected: Path, tmp_path: Path, removed: str, reason: str
) -> None:
    path = protected / "keys" / "p.key"
    edit_key_file(path, lambda text: re.sub(rf"^{removed} = .*\n", "", text, count=1, flags=re.MULTILINE))
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: {reason}"
    assert not (tmp_path / "game.toml").exists()


def test_key_file_without_secret_table(cli: Cli, protected: Path, tmp_path: Path) -> None:
    path = protected / "keys" / "p.key"
    edit_key_file(path, lambda text: text.split("[secret]")[0])
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: missing field 'secret'"


def test_altered_ciphertext_is_damage_not_a_wrong_passphrase(
    cli: Cli, protected: Path, tmp_path: Path
) -> None:
    path = protected / "keys" / "p.key"
    edit_key_file(
        path, lambda text: replace_field(text, "ciphertext", flip_char(field(text, "ciphertext"), 10))
    )
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: {SEAL_BROKEN}"
    assert not (tmp_path / "game.toml").exists()


def test_altered_salt_is_damage_not_a_wrong_passphrase(cli: Cli, protected: Path, tmp_path: Path) -> None:
    path = protected / "keys" / "p.key"
    edit_key_file(path, lambda text: replace_field(text, "salt", flip_char(field(text, "salt"), 3)))
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: {SEAL_BROKEN}"


def test_edited_scrypt_parameters_are_refused_before_scrypt_runs(
    cli: Cli, protected: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """log_n = 20 would make scrypt take a GiB and then fail, calling the right passphrase wrong.
    The seal is a signature by the key itself: nobody without the passphrase can make it again,
    and it is checked first."""
    from pbem.crypto import keyfile

    def no_scrypt(*args: object) -> bytes:
        raise AssertionError("scrypt ran on parameters nobody signed")

    path = protected / "keys" / "p.key"
    edit_key_file(path, lambda text: text.replace("log_n = 17", "log_n = 20"))
    monkeypatch.setattr(keyfile, "_derive", no_scrypt)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: {SEAL_BROKEN}"


def test_a_key_file_made_before_the_seal_still_opens_but_only_with_pbems_parameters(
    cli: Cli, protected: Path, tmp_path: Path
) -> None:
    """An older key file carries an unkeyed checksum instead of the seal: it opens with its
    passphrase, and since anyone can recompute that checksum, only the scrypt parameters pbem
    wrote are accepted in it."""
    from pbem.crypto import keyfile

    path = protected / "keys" / "p.key"
    data = tomllib.loads(path.read_text(encoding="utf-8"))

    def older(text: str, log_n: int) -> str:
        secret = data["secret"]
        checksum = keyfile._checksum(
            f"scrypt:{log_n}:8:1", secret["salt"], secret["nonce"], secret["ciphertext"],
            data["name"], data["sign_public"], data["box_public"],
        )  # fmt: skip
        text = re.sub(r"^seal = .*$", f'checksum = "{checksum}"', text, count=1, flags=re.MULTILINE)
        return text.replace("log_n = 17", f"log_n = {log_n}")

    original = path.read_text(encoding="utf-8")
    edit_key_file(path, lambda text: older(text, 17))
    opened = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert opened.exit_code == 0, opened.stderr
    path.write_text(original, encoding="utf-8")
    edit_key_file(path, lambda text: older(text, 18))
    refused = start_game(cli, protected, tmp_path / "again", "p", PASSPHRASE)
    assert error(refused, 4) == (
        f"error: key file {path} is damaged: "
        "scrypt parameters differ from those pbem wrote: the file was edited"
    )


def test_swapped_public_key_is_damage(
    cli: Cli, protected: Path, other_protected: Path, tmp_path: Path
) -> None:
    path = protected / "keys" / "p.key"
    other = (other_protected / "keys" / "p.key").read_text(encoding="utf-8")
    edit_key_file(path, lambda text: replace_field(text, "sign_public", field(other, "sign_public")))
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == (
        f"error: key file {path} is damaged: fingerprint does not match the public keys"
    )
    assert not (tmp_path / "game.toml").exists()


def test_malformed_public_key_is_damage(cli: Cli, protected: Path, tmp_path: Path) -> None:
    path = protected / "keys" / "p.key"
    edit_key_file(path, lambda text: replace_field(text, "box_public", "not base64!"))
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == f"error: key file {path} is damaged: bad public key (not valid base64)"


def test_public_half_of_another_key_is_damage_not_a_wrong_passphrase(
    cli: Cli, protected: Path, other_protected: Path, tmp_path: Path
) -> None:
    """Every public field taken, consistently, from another key of the same name.

    The passphrase is right; the sealed keys just do not belong to these public keys.
    """
    path = protected / "keys" / "p.key"
    other = (other_protected / "keys" / "p.key").read_text(encoding="utf-8")

    def swap(text: str) -> str:
        for name in ("sign_public", "box_public", "fingerprint", "identity"):
            text = replace_field(text, name, field(other, name))
        return text

    edit_key_file(path, swap)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4).startswith(f"error: key file {path} is damaged: ")
    assert not (tmp_path / "game.toml").exists()


def test_public_half_of_another_unprotected_key_is_damage(
    cli: Cli, homes: dict[str, Path], tmp_path: Path
) -> None:
    other_home = tmp_path / "other"
    KeyStore(other_home).create("a", None, CREATED)
    other = (other_home / "keys" / "a.key").read_text(encoding="utf-8")
    path = homes["a"] / "keys" / "a.key"

    def swap(text: str) -> str:
        for name in ("sign_public", "box_public", "fingerprint", "identity"):
            text = replace_field(text, name, field(other, name))
        return text

    edit_key_file(path, swap)
    result = start_game(cli, homes["a"], tmp_path, "a")
    assert error(result, 4) == (
        f"error: key file {path} is damaged: the secret keys do not match the public keys"
    )
    assert not (tmp_path / "game.toml").exists()


@posix_only
@pytest.mark.parametrize("too_open", [0o644, 0o640, 0o604, 0o660])
def test_key_file_readable_by_others(cli: Cli, protected: Path, tmp_path: Path, too_open: int) -> None:
    path = protected / "keys" / "p.key"
    os.chmod(path, too_open)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert error(result, 4) == (
        f"error: key file {path} is accessible by other users (mode {too_open:04o}); run 'chmod 600 {path}'"
    )
    assert not (tmp_path / "game.toml").exists()
    assert mode(path) == too_open

    os.chmod(path, 0o600)
    result = start_game(cli, protected, tmp_path, "p", PASSPHRASE)
    assert result.exit_code == 0, result.stderr


# --- pbem key list --------------------------------------------------------------------------------


@pytest.fixture
def mixed_home(cli: Cli, homes: dict[str, Path], protected: Path) -> Path:
    """Home a: its unprotected key 'a', the protected key 'p', and b's imported identity."""
    home = homes["a"]
    shutil.copy2(protected / "keys" / "p.key", home / "keys" / "p.key")
    exported = cli("key", "export", "b", home="b")
    assert exported.exit_code == 0, exported.stderr
    imported = cli("key", "import", "-", env=home_env(home), input=exported.stdout)
    assert imported.exit_code == 0, imported.stderr
    return home


def test_key_list(cli: Cli, mixed_home: Path, homes: dict[str, Path]) -> None:
    result = cli("key", "list", env=home_env(mixed_home))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    fp_a, fp_p, fp_b = (fingerprint_of(mixed_home, name) for name in ("a", "p", "b"))
    assert fp_b == fingerprint_of(homes["b"], "b")
    assert result.stdout == (
        f"{'a':<16} {fp_a}  private key, no passphrase\n"
        f"{'p':<16} {fp_p}  private key\n"
        f"{'b':<16} {fp_b}  imported\n"
    )
    assert PASSPHRASE not in result.stdout


def test_key_list_json(cli: Cli, mixed_home: Path) -> None:
    result = cli("key", "list", "--json", env=home_env(mixed_home))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    entries: list[dict[str, Any]] = json.loads(result.stdout)
    assert entries == [
        {
            "name": "a",
            "fingerprint": fingerprint_of(mixed_home, "a"),
            "private": True,
            "encrypted": False,
            "path": str(mixed_home / "keys" / "a.key"),
        },
        {
            "name": "p",
            "fingerprint": fingerprint_of(mixed_home, "p"),
            "private": True,
            "encrypted": True,
            "path": str(mixed_home / "keys" / "p.key"),
        },
        {
            "name": "b",
            "fingerprint": fingerprint_of(mixed_home, "b"),
            "private": False,
            "encrypted": False,
            "path": str(mixed_home / "identities" / "b.pub"),
        },
    ]


def test_key_list_needs_no_passphrase(cli: Cli, protected: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(prompt: str) -> str:
        raise AssertionError(f"asked: {prompt}")

    monkeypatch.setattr(common, "ask_passphrase", refuse)
    result = cli("key", "list", env=home_env(protected))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{'p':<16} {fingerprint_of(protected, 'p')}  private key\n"


def test_key_list_in_an_empty_home(cli: Cli, fresh: Path) -> None:
    result = cli("key", "list", env=home_env(fresh))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"no keys in {fresh}; make one with 'pbem key new NAME'\n"
    assert not fresh.exists()

    result = cli("key", "list", "--json", env=home_env(fresh))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == []
    assert not fresh.exists()


# --- pbem key show --------------------------------------------------------------------------------


def test_key_show(cli: Cli, homes: dict[str, Path]) -> None:
    result = cli("key", "show", "a", home="a")
    assert result.exit_code == 0, result.stderr
    line = identity_line_of(homes["a"], "a")
    fingerprint = fingerprint_of(homes["a"], "a")
    assert line.startswith("pbem-identity/1 a ")
    assert len(line.split()) == 5
    assert result.stdout == f"{line}\nfingerprint {fingerprint}\n"
    assert FINGERPRINT.fullmatch(fingerprint)
    assert result.stderr == ""


def test_key_show_protected_key_needs_no_passphrase(cli: Cli, protected: Path) -> None:
    result = cli("key", "show", "p", env=home_env(protected))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1] == f"fingerprint {fingerprint_of(protected, 'p')}"


def test_key_show_json(cli: Cli, mixed_home: Path) -> None:
    result = cli("key", "show", "a", "--json", env=home_env(mixed_home))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {
        "name": "a",
        "fingerprint": fingerprint_of(mixed_home, "a"),
        "identity": identity_line_of(mixed_home, "a"),
        "private": True,
    }
    result = cli("key", "show", "b", "--json", env=home_env(mixed_home))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {
        "name": "b",
        "fingerprint": fingerprint_of(mixed_home, "b"),
        "identity": identity_line_of(mixed_home, "b"),
        "private": False,
    }


def test_key_show_unknown_name(cli: Cli, homes: dict[str, Path]) -> None:
    result = cli("key", "show", "zed", home="a")
    assert error(result, 4) == f"error: no key or imported identity named 'zed' in {homes['a']}"
    result = cli("key", "show", "a b", home="a")
    assert error(result, 2) == f"error: invalid key name 'a b': {NAME_RULE}"


# --- pbem key export / import ---------------------------------------------------------------------


def test_key_export(cli: Cli, homes: dict[str, Path]) -> None:
    result = cli("key", "export", "a", home="a")
    assert result.exit_code == 0, result.stderr
    fingerprint = fingerprint_of(homes["a"], "a")
    assert result.stdout == (
        f"# pbem identity a, fingerprint {fingerprint}\n{identity_line_of(homes['a'], 'a')}\n"
    )
    assert result.stderr == ""
    secret_text = (homes["a"] / "keys" / "a.key").read_text(encoding="utf-8")
    assert tomllib.loads(secret_text)["secret"]["keys"] not in result.stdout


def test_export_then_import_from_a_file(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    exported_file = tmp_path / "a.identity"
    result = cli("key", "export", "a", "-o", str(exported_file), home="a")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"wrote a's public identity to {exported_file}\n"
    assert exported_file.read_text(encoding="ascii") == cli("key", "export", "a", home="a").stdout

    fingerprint = fingerprint_of(homes["a"], "a")
    result = cli("key", "import", str(exported_file), home="b")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"a {fingerprint}\n"
    assert result.stderr == ("imported 'a'; confirm this fingerprint with its owner in person or by phone:\n")
    stored = homes["b"] / "identities" / "a.pub"
    assert stored.read_text(encoding="ascii") == identity_line_of(homes["a"], "a") + "\n"

    shown = cli("key", "show", "a", home="b")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == f"{identity_line_of(homes['a'], 'a')}\nfingerprint {fingerprint}\n"

    # The same identity again is fine and changes nothing.
    before = snapshot(homes["b"])
    again = cli("key", "import", str(exported_file), home="b")
    assert again.exit_code == 0, again.stderr
    assert again.stdout == f"a {fingerprint}\n"
    assert snapshot(homes["b"]) == before


def test_import_from_stdin(cli: Cli, homes: dict[str, Path]) -> None:
    exported = cli("key", "export", "c", home="c").stdout
    result = cli("key", "import", "-", home="d", input=exported)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"c {fingerprint_of(homes['c'], 'c')}\n"
    assert fingerprint_of(homes["d"], "c") == fingerprint_of(homes["c"], "c")

    # A bare identity line, as pasted from an email, with CRLF line ends and surrounding blanks.
    line = identity_line_of(homes["c"], "c")
    result = cli("key", "import", "-", home="e", input=f"\r\n  {line}  \r\n\r\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"c {fingerprint_of(homes['c'], 'c')}\n"
    assert (homes["e"] / "identities" / "c.pub").read_text(encoding="ascii") == line + "\n"


def test_import_of_a_protected_key_identity(cli: Cli, protected: Path, homes: dict[str, Path]) -> None:
    exported = cli("key", "export", "p", env=home_env(protected))
    assert exported.exit_code == 0, exported.stderr
    assert PASSPHRASE not in exported.stdout
    result = cli("key", "import", "-", home="a", input=exported.stdout)
    assert result.exit_code == 0, result.stderr
    assert fingerprint_of(homes["a"], "p") == fingerprint_of(protected, "p")


def test_import_of_a_different_identity_under_a_taken_name(
    cli: Cli, homes: dict[str, Path], tmp_path: Path
) -> None:
    impostor_home = tmp_path / "impostor"
    KeyStore(impostor_home).create("a", None, CREATED)
    genuine = cli("key", "export", "a", home="a").stdout
    impostor = cli("key", "export", "a", env=home_env(impostor_home)).stdout
    assert cli("key", "import", "-", home="b", input=genuine).exit_code == 0

    before = snapshot(homes["b"])
    result = cli("key", "import", "-", home="b", input=impostor)
    assert error(result, 4) == (
        "error: a different identity named 'a' is already imported; "
        "compare fingerprints, then import under another name with --name"
    )
    assert snapshot(homes["b"]) == before
    assert fingerprint_of(homes["b"], "a") == fingerprint_of(homes["a"], "a")

    result = cli("key", "import", "-", "--name", "a2", home="b", input=impostor)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"a2 {fingerprint_of(impostor_home, 'a')}\n"
    assert fingerprint_of(homes["b"], "a2") == fingerprint_of(impostor_home, "a")
    assert fingerprint_of(homes["b"], "a") == fingerprint_of(homes["a"], "a")

    listed = cli("key", "list", home="b")
    assert [line.split()[0] for line in listed.stdout.splitlines()] == ["b", "a", "a2"]


def test_import_under_the_name_of_ones_own_key(cli: Cli, homes: dict[str, Path]) -> None:
    own = cli("key", "export", "a", home="a").stdout
    theirs = cli("key", "export", "b", home="b").stdout
    before = snapshot(homes["a"])

    result = cli("key", "import", "-", home="a", input=own)
    assert error(result, 4) == "error: 'a' is one of your own keys; import under another name with --name"
    result = cli("key", "import", "-", "--name", "a", home="a", input=theirs)
    assert error(result, 4) == "error: 'a' is one of your own keys; import under another name with --name"
    assert snapshot(homes["a"]) == before


def test_import_under_an_invalid_name(cli: Cli, homes: dict[str, Path]) -> None:
    theirs = cli("key", "export", "b", home="b").stdout
    before = snapshot(homes["a"])
    result = cli("key", "import", "-", "--name", "../b", home="a", input=theirs)
    assert error(result, 2) == f"error: invalid identity name '../b': {NAME_RULE}"
    assert snapshot(homes["a"]) == before


def _tamper_sign_key(fields: list[str]) -> None:
    fields[2] = flip_char(fields[2], 20)


def _tamper_box_key(fields: list[str]) -> None:
    fields[3] = flip_char(fields[3], 20)


def _tamper_signature(fields: list[str]) -> None:
    fields[4] = flip_char(fields[4], 30)


def _tamper_name(fields: list[str]) -> None:
    fields[1] = "mallory"


@pytest.mark.parametrize(
    "tamper",
    [_tamper_sign_key, _tamper_box_key, _tamper_signature, _tamper_name],
    ids=["sign-key", "box-key", "signature", "name"],
)
def test_import_of_a_tampered_identity(
    cli: Cli, homes: dict[str, Path], tmp_path: Path, tamper: Callable[[list[str]], None]
) -> None:
    fields = identity_line_of(homes["a"], "a").split(" ")
    tamper(fields)
    source = tmp_path / "tampered.identity"
    source.write_text(" ".join(fields) + "\n", encoding="ascii")
    before = snapshot(homes["b"])

    result = cli("key", "import", str(source), home="b")
    assert error(result, 4) == f"error: {source}: identity self-signature does not verify (line altered?)"
    result = cli("key", "import", "-", home="b", input=" ".join(fields) + "\n")
    assert error(result, 4) == "error: -: identity self-signature does not verify (line altered?)"
    assert snapshot(homes["b"]) == before


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"hello world\n", NO_IDENTITY),
        (b"\x89PNG\r\n\x1a\n\x00\xff\xfe", NO_IDENTITY),
        (b"", NO_IDENTITY),
        (b"# only a comment\n\n", NO_IDENTITY),
        (b"pbem-identity/1 a AAAA\n", f"not a pbem identity line (expected '{LINE_FORM}')"),
        (b"pbem-identity/1 a AAAA AAAA AAAA\n", "damaged identity line (expected 32 bytes, found 3)"),
        (b"pbem-identity/1 a ?? ?? ??\n", "damaged identity line (not valid base64)"),
        (b"pbem-identity/1 ../a AAAA AAAA AAAA\n", "invalid identity name '../a'"),
    ],
    ids=["words", "binary", "empty", "comment", "few-fields", "short-keys", "not-base64", "bad-name"],
)
def test_import_of_garbage(
    cli: Cli, homes: dict[str, Path], tmp_path: Path, content: bytes, reason: str
) -> None:
    source = tmp_path / "garbage"
    source.write_bytes(content)
    before = snapshot(homes["b"])
    result = cli("key", "import", str(source), home="b")
    assert error(result, 4) == f"error: {source}: {reason}"
    assert snapshot(homes["b"]) == before


def test_import_of_two_identities_at_once(cli: Cli, homes: dict[str, Path]) -> None:
    both = cli("key", "export", "a", home="a").stdout + cli("key", "export", "c", home="c").stdout
    result = cli("key", "import", "-", home="b", input=both)
    assert error(result, 4) == "error: -: holds 2 identities; import them one file at a time"
    assert not (homes["b"] / "identities").exists()


def test_import_of_a_line_with_non_ascii_spaces(cli: Cli, homes: dict[str, Path]) -> None:
    """Mail programs turn spaces into no-break spaces; the command must not crash on them.

    Either the line, which still verifies, is imported, or it is refused with an error line.
    """
    line = identity_line_of(homes["a"], "a").replace(" ", "\u00a0")
    result = cli("key", "import", "-", home="b", input=line + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        assert result.stdout == f"a {fingerprint_of(homes['a'], 'a')}\n"
        assert fingerprint_of(homes["b"], "a") == fingerprint_of(homes["a"], "a")
    else:
        error(result, 4)
        assert not (homes["b"] / "identities" / "a.pub").exists()


def test_import_of_a_missing_file(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.identity"
    result = cli("key", "import", str(missing), home="b")
    assert error(result, 5) == f"error: {missing}: no such file"


def test_export_never_overwrites(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "taken.identity"
    target.write_text("keep me\n", encoding="ascii")
    result = cli("key", "export", "a", "-o", str(target), home="a")
    assert error(result, 5) == f"error: {target}: already exists"
    assert target.read_text(encoding="ascii") == "keep me\n"


def test_export_of_an_unknown_key(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "out.identity"
    result = cli("key", "export", "zed", "-o", str(target), home="a")
    assert error(result, 4) == f"error: no key or imported identity named 'zed' in {homes['a']}"
    assert not target.exists()


# --- where keys live ------------------------------------------------------------------------------


def test_default_home_is_pbem_home_when_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_home() == tmp_path / "elsewhere"
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PBEM_HOME", "~/pbem-keys")
    assert default_home() == tmp_path / "pbem-keys"


def test_default_home_on_linux(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_home() == tmp_path / "xdg" / "pbem"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_home() == tmp_path / "user" / ".local" / "share" / "pbem"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert default_home() == tmp_path / "user" / ".local" / "share" / "pbem"
    monkeypatch.setenv("PBEM_HOME", "")
    assert default_home() == tmp_path / "user" / ".local" / "share" / "pbem"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG_DATA_HOME is used on Linux")
def test_cli_keys_live_under_xdg_data_home_without_pbem_home(cli: Cli, tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    result = cli("key", "new", "k", "--no-passphrase", env={"PBEM_HOME": "", "XDG_DATA_HOME": str(xdg)})
    assert result.exit_code == 0, result.stderr
    assert (xdg / "pbem" / "keys" / "k.key").is_file()
    listed = cli("key", "list", env={"PBEM_HOME": "", "XDG_DATA_HOME": str(xdg)})
    assert listed.stdout.split()[0] == "k"


def test_cli_keys_live_under_pbem_home(cli: Cli, tmp_path: Path) -> None:
    home = tmp_path / "chosen"
    xdg = tmp_path / "xdg"
    env = {"PBEM_HOME": str(home), "XDG_DATA_HOME": str(xdg)}
    result = cli("key", "new", "k", "--no-passphrase", env=env)
    assert result.exit_code == 0, result.stderr
    assert (home / "keys" / "k.key").is_file()
    assert not xdg.exists()


def test_list_reports_a_damaged_key_and_still_lists_the_others(cli: Cli, homes: dict[str, Path]) -> None:
    store = homes["a"]
    broken = store / "keys" / "zz.key"
    broken.write_text("not toml [", encoding="utf-8")
    broken.chmod(0o600)
    result = cli("key", "list", home="a")
    assert result.exit_code == 4
    assert result.stdout.startswith("a ")
    assert result.stderr.startswith(f"error: key file {broken} is damaged: ")


def test_new_key_in_a_home_that_cannot_be_created(cli: Cli, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = cli("key", "new", "q", "--no-passphrase", env={"PBEM_HOME": str(blocker / "home")})
    assert result.exit_code == 5
    assert result.stderr.splitlines()[-1].startswith("error: cannot create the key directory ")


def test_new_key_that_exists_is_refused_before_asking_a_passphrase(cli: Cli, homes: dict[str, Path]) -> None:
    result = cli("key", "new", "a", home="a")  # no PBEM_PASSPHRASE and no terminal
    assert result.exit_code == 4
    assert result.stderr == (
        f"error: key 'a' already exists at {homes['a'] / 'keys' / 'a.key'}; pbem never overwrites a key\n"
    )


def test_non_ascii_text_in_a_sealed_field_is_damage(cli: Cli, tmp_path: Path) -> None:
    home = tmp_path / "p"
    made = cli("key", "new", "p", env={"PBEM_HOME": str(home), "PBEM_PASSPHRASE": "pw for tests"})
    assert made.exit_code == 0
    path = home / "keys" / "p.key"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'^salt = "', 'salt = "é', text, flags=re.MULTILINE), encoding="utf-8")
    result = cli(
        "new", str(tmp_path / "g.toml"), "--game", "potr", "--players", "p,b,c", "--as", "p",
        env={"PBEM_HOME": str(home), "PBEM_PASSPHRASE": "pw for tests"},
    )  # fmt: skip
    assert result.exit_code == 4
    assert result.stderr.startswith(f"error: key file {path} is damaged: ")


def test_import_from_a_file_with_no_break_spaces(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    line = identity_line_of(homes["a"], "a").replace(" ", "\u00a0")
    source = tmp_path / "pasted.pub"
    source.write_text(line + "\n", encoding="utf-8")
    result = cli("key", "import", str(source), home="b")
    assert result.exit_code == 0, result.stderr
    stored = (homes["b"] / "identities" / "a.pub").read_text(encoding="ascii")
    assert stored == " ".join(line.split()) + "\n"


def test_key_file_with_a_public_key_that_is_not_text(cli: Cli, homes: dict[str, Path]) -> None:
    path = homes["a"] / "keys" / "a.key"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        re.sub(r"^sign_public = .*$", "sign_public = 5", text, flags=re.MULTILINE), encoding="utf-8"
    )
    result = cli("key", "list", home="a")
    assert result.exit_code == 4
    assert result.stderr.startswith(f"error: key file {path} is damaged: bad public key")
