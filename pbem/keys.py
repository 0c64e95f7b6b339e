"""Identities on disk: private key files and imported public identities under one home directory.

The home is ``PBEM_HOME`` if set, otherwise the platform's user data directory (the same place
platformdirs would choose): ``$XDG_DATA_HOME/pbem`` or ``~/.local/share/pbem`` on Linux,
``~/Library/Application Support/pbem`` on macOS, ``%LOCALAPPDATA%\\pbem`` on Windows.
"""

from __future__ import annotations

import os
import stat
import sys
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.identity import (
    PublicIdentity,
    SecretKeys,
    check_name,
    parse_identity_line,
)
from pbem.crypto.keyfile import KeyFileDamaged, SealedKey, WrongPassphrase, read_sealed, seal, unseal
from pbem.errors import FileAccessError, IdentityError, UsageError

PassphraseSource = Callable[[str], str | None]


def default_home() -> Path:
    override = os.environ.get("PBEM_HOME")
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "pbem"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "pbem"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pbem"


@dataclass(frozen=True)
class KeyEntry:
    name: str
    identity: PublicIdentity
    private: bool
    encrypted: bool
    path: Path
    line: str  # the self-signed identity line to share


class KeyStore:
    """Private keys in ``HOME/keys/NAME.key`` (mode 0600), public identities in ``HOME/identities``."""

    def __init__(self, home: Path | None = None) -> None:
        self.home = home if home is not None else default_home()
        self.keys_dir = self.home / "keys"
        self.identities_dir = self.home / "identities"

    def key_path(self, name: str) -> Path:
        return self.keys_dir / f"{check_name(name, 'key name')}.key"

    def identity_path(self, name: str) -> Path:
        return self.identities_dir / f"{check_name(name, 'identity name')}.pub"

    # --- private keys -------------------------------------------------------------------
    def free_path(self, name: str) -> Path:
        """Where a new key ``name`` goes, or why it cannot go there."""
        path = self.key_path(name)
        if path.is_dir():
            raise IdentityError(f"{path} is a folder, where the key file of {name!r} would go; move it away")
        if path.exists():
            raise IdentityError(f"key {name!r} already exists at {path}; pbem never overwrites a key")
        return path

    def create(self, name: str, passphrase: str | None, created: str) -> PublicIdentity:
        """Make and store a new key; never replaces an existing file."""
        return self.store(name, SecretKeys.generate(), passphrase, created)

    def store(self, name: str, secret: SecretKeys, passphrase: str | None, created: str) -> PublicIdentity:
        """Store a key under ``name``, sealed with ``passphrase``; never replaces an existing file."""
        import tomlkit

        path = self.free_path(name)
        data = seal(secret, name, passphrase, created)
        doc = tomlkit.document()
        doc.add(tomlkit.comment(f"pbem private key {name!r}: keep this file secret."))
        doc.add(tomlkit.comment(f"Share your public identity instead: pbem key export {name}"))
        for key, value in data.items():
            doc[key] = value
        _private_dir(self.keys_dir)
        _create_exclusive(path, (tomlkit.dumps(doc).rstrip("\n") + "\n").encode("utf-8"), 0o600)
        return secret.public(name)

    def _sealed(self, name: str) -> tuple[SealedKey, Path]:
        path = self.key_path(name)
        if path.is_dir():
            raise IdentityError(f"{path} is a folder, not the key file of {name!r}")
        try:
            info = path.stat()
        except FileNotFoundError:
            if self.identity_path(name).is_file():
                raise IdentityError(
                    f"{name!r} is another player's identity, imported: it holds their public keys, "
                    "no private key to sign with"
                ) from None
            raise IdentityError(
                f"no key named {name!r} in {self.keys_dir} (make one with 'pbem key new {name}')"
            ) from None
        if os.name == "posix" and info.st_mode & 0o077:
            mode = stat.S_IMODE(info.st_mode)
            raise IdentityError(
                f"key file {path} is accessible by other users (mode {mode:04o}); run 'chmod 600 {path}'"
            )
        try:
            text = path.read_text(encoding="utf-8")
            if not text.strip():  # a write cut short, or a file made by hand: nothing to call damaged
                raise IdentityError(f"key file {path} is empty: not a pbem key file")
            sealed = read_sealed(tomllib.loads(text))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, KeyFileDamaged) as exc:
            raise IdentityError(f"key file {path} is damaged: {exc}") from None
        except OSError as exc:
            raise IdentityError(f"cannot read key file {path}: {exc.strerror}") from None
        if sealed.identity.name != name:
            raise IdentityError(f"key file {path} holds the key {sealed.identity.name!r}, not {name!r}")
        return sealed, path

    def secret(self, name: str, ask: PassphraseSource, tries: int = 1) -> SecretKeys:
        """Open a private key, asking for its passphrase only if it has one, and again after a
        wrong one while ``tries`` last (a person typing; a passphrase a script gives is wrong
        every time)."""
        sealed, path = self._sealed(name)
        prompt = f"passphrase for key {name!r}"
        left = max(tries, 1)
        while True:
            left -= 1
            passphrase = ask(prompt) if sealed.encrypted else None
            try:
                return unseal(sealed, passphrase)
            except WrongPassphrase as exc:
                if not left:
                    raise IdentityError(f"{exc} for key {name!r}") from None
                prompt = f"{exc}, {left} {'tries' if left > 1 else 'try'} left; passphrase for key {name!r}"
            except KeyFileDamaged as exc:
                raise IdentityError(f"key file {path} is damaged: {exc}") from None

    # --- listing and public identities ---------------------------------------------------
    def entries(self) -> tuple[list[KeyEntry], list[IdentityError]]:
        """Every readable key and identity, and what is wrong with the others."""
        found: list[KeyEntry] = []
        broken: list[IdentityError] = []
        for path in sorted(self.keys_dir.glob("*.key")) if self.keys_dir.is_dir() else []:
            try:
                sealed, _ = self._sealed(_name(path))
            except (IdentityError, UsageError) as exc:
                broken.append(IdentityError(f"{path}: {exc}") if isinstance(exc, UsageError) else exc)
                continue
            found.append(self._own(sealed, path))
        own = {_name(path) for path in self.keys_dir.glob("*.key")} if self.keys_dir.is_dir() else set()
        for path in sorted(self.identities_dir.glob("*.pub")) if self.identities_dir.is_dir() else []:
            if _name(path) in own:
                continue
            try:
                found.append(self._imported(path))
            except (IdentityError, UsageError) as exc:
                broken.append(IdentityError(f"{path}: {exc}") if isinstance(exc, UsageError) else exc)
        return found, broken

    def imported(self) -> dict[str, PublicIdentity]:
        """The identities imported from other players, by local name (unreadable ones left out:
        ``pbem key list`` reports them)."""
        found: dict[str, PublicIdentity] = {}
        if not self.identities_dir.is_dir():
            return found
        for path in sorted(self.identities_dir.glob("*.pub")):
            try:
                entry = self._imported(path)
            except (IdentityError, UsageError):
                continue
            found[entry.name] = entry.identity
        return found

    def public(self, name: str) -> KeyEntry:
        """A key of one's own, or else an imported identity, by local name."""
        if self.key_path(name).exists():
            return self._own(*self._sealed(name))
        path = self.identity_path(name)
        if path.exists():
            return self._imported(path)
        raise IdentityError(f"no key or imported identity named {name!r} in {self.home}")

    def export_line(self, name: str) -> str:
        """The self-signed identity line to share for a key or an imported identity."""
        return self.public(name).line

    def import_identity(self, text: str, source: str, local_name: str | None) -> KeyEntry:
        identity = parse_identity_line(text, source)
        name = check_name(identity.name if local_name is None else local_name, "identity name")
        path = self.identity_path(name)
        if self.key_path(name).exists():
            raise IdentityError(f"{name!r} is one of your own keys; import under another name with --name")
        if path.exists():
            existing = self._imported(path)
            if existing.identity == PublicIdentity(name, identity.sign_public, identity.box_public):
                return existing
            raise IdentityError(
                f"a different identity named {name!r} is already imported; "
                "compare fingerprints, then import under another name with --name"
            )
        stored = PublicIdentity(name, identity.sign_public, identity.box_public)
        try:
            self.identities_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileAccessError(f"cannot create {self.identities_dir}: {exc.strerror}") from None
        # Stored with plain single spaces: mail programs turn spaces into no-break spaces.
        body = next(line for line in text.splitlines() if line.strip() and not line.startswith("#"))
        line = " ".join(body.split())
        _create_exclusive(path, (line + "\n").encode("utf-8"), 0o644)
        return KeyEntry(name, stored, False, False, path, line)

    @staticmethod
    def _own(sealed: SealedKey, path: Path) -> KeyEntry:
        return KeyEntry(_name(path), sealed.identity, True, sealed.encrypted, path, sealed.line)

    def _imported(self, path: Path) -> KeyEntry:
        try:
            text = path.read_text(encoding="utf-8")
            identity = parse_identity_line(text, str(path))
        except (OSError, UnicodeDecodeError) as exc:
            raise IdentityError(f"cannot read identity file {path}: {exc}") from None
        local = PublicIdentity(_name(path), identity.sign_public, identity.box_public)
        return KeyEntry(_name(path), local, False, False, path, text.strip())


def _name(path: Path) -> str:
    """The key or identity name a file holds: its stem, composed (NFC) again where the file
    system decomposed it, as macOS does."""
    return unicodedata.normalize("NFC", path.stem)


def _private_dir(path: Path) -> None:
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            os.chmod(path, 0o700)
    except OSError as exc:
        raise FileAccessError(f"cannot create the key directory {path}: {exc.strerror}") from None


def _create_exclusive(path: Path, data: bytes, mode: int) -> None:
    """Write a whole file that did not exist, atomically: a reader sees all of it or none."""
    from pbem.gamefile import temporary_beside

    tmp: Path | None = None
    try:
        fd, tmp = temporary_beside(path, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise IdentityError(f"{path} already exists; pbem never overwrites it") from None
    except OSError as exc:
        raise FileAccessError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
