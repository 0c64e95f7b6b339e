"""The replayed state of game files this pbem home has verified, so that ``pbem status``,
``moves`` and ``show`` of a file read here before answer without replaying it.

Replaying a long game (every signature, the rules for every move) costs more than starting pbem.
After a command has read a file and its full replay passed (``ledger.read``: every signature,
link and rule, proofs through this home's proof cache), the parsed file and its ledger are kept
in ``replayed-states/DIGEST``, where DIGEST is the SHA-256 of the file's exact bytes: the same
bytes are the same entries, the same head and the same unsigned copies, so replaying them again
with the same code could only give the same ledger. Any other byte, in an entry, the header or a
comment, is another digest and a full replay.

An entry is pickled, so it is never read unless this home wrote it: each is authenticated with
HMAC-SHA256 under a random key kept in this home (``replayed-states/mac-key``, 0600, made on first
use), over the file's digest, what the replay's result depends on besides the file (pbem's
version, the Python that ran it, the size and time of every module of the pbem package: the
rules' code) and the pickle. An entry copied in from another home, changed, cut short or written
by another version of the code is not unpickled: it is a miss, as an unreadable one is. Whoever
can write to the pbem home could already change its keys or the program, so trusting what it
wrote adds nothing to trust; the key only ties an entry to the home and the code that wrote it.
``pbem verify`` never reads it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger

FOLDER = "replayed-states"
KEY_FILE = "mac-key"
KEY_SIZE = 32
MAGIC = b"pbem replayed state 1\n"
TAG_SIZE = hashlib.sha256().digest_size
# Each entry is about the size of its game file; the newest are kept, the others removed on write.
KEEP = 32


@dataclass(frozen=True)
class Remembered:
    """A game file's parsed data and its ledger, as a full replay in this home left them."""

    data: dict[str, Any]
    ledger: Ledger


class StateCache:
    """``replayed-states/`` under a pbem home: ``recall(raw)`` what ``keep(raw, ...)`` stored."""

    def __init__(self, home: Path) -> None:
        self.folder = home / FOLDER

    def recall(self, raw: bytes) -> Remembered | None:
        """What a full replay of exactly these bytes gave in this home, or None (never seen, or an
        entry that is damaged, from another home or from other code)."""
        key = self._key(create=False)
        if key is None:
            return None
        digest = hashlib.sha256(raw).hexdigest()
        try:
            stored = (self.folder / digest).read_bytes()
        except OSError:
            return None
        if not stored.startswith(MAGIC):
            return None
        tag, body = stored[len(MAGIC) : len(MAGIC) + TAG_SIZE], stored[len(MAGIC) + TAG_SIZE :]
        if not hmac.compare_digest(tag, _tag(key, digest, body)):
            return None
        try:
            data, ledger = pickle.loads(body)  # authenticated: this home wrote it
        except Exception:  # written here, yet not readable now: replay
            return None
        from pbem.engine.ledger import Ledger

        if not isinstance(data, dict) or not isinstance(ledger, Ledger):
            return None
        return Remembered(data, ledger)

    def keep(self, raw: bytes, data: dict[str, Any], ledger: Ledger) -> None:
        """Store what a full replay of ``raw`` gave; skipped if the home cannot be written, or the
        state cannot be pickled."""
        from pbem.gamefile import temporary_beside

        key = self._key(create=True)
        if key is None:
            return
        digest = hashlib.sha256(raw).hexdigest()
        try:
            body = _dumps((data, ledger))
        except Exception:  # a state pickle cannot hold: replayed each time
            return
        path = self.folder / digest
        try:
            descriptor, tmp = temporary_beside(path, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(MAGIC + _tag(key, digest, body) + body)
            os.replace(tmp, path)
        except OSError:
            return
        self._prune()

    def _key(self, *, create: bool) -> bytes | None:
        """This home's key: 32 random bytes in a file only its owner may read and write."""
        path = self.folder / KEY_FILE
        try:
            with path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_mode & 0o077 == 0:
                    key = handle.read(KEY_SIZE + 1)
                    if len(key) == KEY_SIZE:
                        return key
        except OSError:
            pass
        if not create:
            return None
        return self._new_key(path)

    def _new_key(self, path: Path) -> bytes | None:
        """A fresh key, put in place whole (a new file linked to the name, or replacing a key
        that was damaged or open to others): the entries under another key are then misses."""
        from pbem.gamefile import temporary_beside

        key = os.urandom(KEY_SIZE)
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            descriptor, tmp = temporary_beside(path, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(key)
            try:
                os.link(tmp, path)  # never over a key another command just made
            except FileExistsError:
                if self._sound(path):
                    tmp.unlink()
                    return self._key(create=False)
                os.replace(tmp, path)
                return key
            tmp.unlink()
        except OSError:
            return None
        return key

    @staticmethod
    def _sound(path: Path) -> bool:
        try:
            status = path.stat()
        except OSError:
            return False
        return status.st_size == KEY_SIZE and status.st_mode & 0o077 == 0

    def _prune(self) -> None:
        """Keep the KEEP newest entries."""
        try:
            entries = [entry for entry in os.scandir(self.folder) if len(entry.name) == 64]
            entries.sort(key=lambda entry: entry.stat().st_mtime_ns, reverse=True)
            for entry in entries[KEEP:]:
                os.unlink(entry.path)
        except OSError:
            pass


def _tag(key: bytes, digest: str, body: bytes) -> bytes:
    """The entry's MAC: what it is of (the file's digest) and what made it (the code) bound in."""
    mac = hmac.new(key, MAGIC, hashlib.sha256)
    mac.update(f"{digest}\n{code_version()}\n".encode())
    mac.update(body)
    return mac.digest()


_CODE_VERSION: list[str] = []


def code_version() -> str:
    """What the replay's result depends on besides the file: pbem's version, the Python running
    it, and every module of the pbem package (its path, size and time: any edit of the rules'
    code, or another checkout, is another version)."""
    if not _CODE_VERSION:
        import pbem

        package = Path(pbem.__file__).resolve().parent
        found = hashlib.sha256(f"{pbem.__version__}\n{sys.version}\n{package}\n".encode())
        for line in sorted(_modules(package)):
            found.update(line.encode("utf-8", "surrogateescape"))
        _CODE_VERSION.append(found.hexdigest())
    return _CODE_VERSION[0]


def _modules(folder: Path) -> list[str]:
    lines = []
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                lines += _modules(Path(entry.path))
        elif entry.name.endswith(".py"):
            status = entry.stat()
            lines.append(f"{entry.path} {status.st_size} {status.st_mtime_ns}\n")
    return lines


# --- pickling a ledger ----------------------------------------------------------------------------
# A ledger holds a few things that are not its state: its rules (looked up again when asked), the
# proof check the command sets, the table's memo of the rules' demands, and objects pbem keeps
# one of (a game's declaration, a deck group), which are pickled by name to come back as that one.


def _dumps(value: object) -> bytes:
    import io

    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        from pbem.crypto.groups import Group
        from pbem.engine.declaration import GameInfo
        from pbem.engine.ledger import Ledger
        from pbem.engine.table import Table

        if isinstance(obj, Ledger):
            return _ledger, (_fields(obj, "check"),)
        if isinstance(obj, Table):
            return _table, (_fields(obj, "asked"),)
        if isinstance(obj, GameInfo):
            return _game, (obj.name,)
        if isinstance(obj, Group):
            return _group, (obj.name,)
        return NotImplemented


def _fields(obj: Any, *left_out: str) -> dict[str, Any]:
    return {
        field.name: getattr(obj, field.name)
        for field in dataclasses.fields(obj)
        if field.name not in left_out
    }


def _ledger(fields: dict[str, Any]) -> Ledger:
    from pbem.engine.ledger import Ledger

    return Ledger(**fields)


def _table(fields: dict[str, Any]) -> Any:
    from pbem.engine.table import Table

    return Table(**fields)


def _game(name: str) -> Any:
    from pbem.engine import registry

    return registry.get(name)


def _group(name: str) -> Any:
    from pbem.crypto import deck_groups

    return deck_groups.by_name(name)


def for_home() -> StateCache:
    from pbem.keys import default_home

    return StateCache(default_home())
