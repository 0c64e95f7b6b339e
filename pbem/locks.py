"""Locks that keep two pbem commands from changing one file at once (I/O).

A command reads a file, checks it, changes it and writes it back whole: a game file (read,
verify, append an entry, replace), the game library's index, the messages fetch passed over.
Two commands doing that at once would each write what they read plus their own change, and the
one that wrote last would lose the other's. So each holds the file's lock from its read to its
write, and a second command waits for the first to finish, then reads what it wrote.

The lock is a file beside the locked one, ``.NAME.lock``, locked with the operating system's
advisory lock (``flock`` or ``LockFileEx``, through the filelock library): the system releases it
when the process ends, however it ends, so a command killed with the lock held blocks nobody.
The file stays once released (removing it would let a waiting command lock a file already
unlinked); it is empty, and hidden like the temporary files a write makes.

Where one command holds several locks it takes them in one order, so two commands never wait
for each other: a game file's first, then the library's index, then the passed-over messages.
The library holds its locks only while it reads and writes its own small files, never while it
waits for anything else.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakValueDictionary

from pbem.errors import BusyError, FileAccessError, UsageError

if TYPE_CHECKING:
    from filelock import BaseFileLock

TIMEOUT_ENV = "PBEM_LOCK_TIMEOUT"
# A command holds a lock while it verifies a game, which takes seconds for a long game with
# hidden cards: half a minute outlasts any of those, and is short enough that a player whose
# command waited on a stuck one hears of it.
TIMEOUT = 30.0

# One lock object per file in this process: filelock's locks are reentrant per object, so a
# command that holds a file's lock and calls something that locks it again goes on, where a
# second object would wait for the first until the timeout.
_locks: WeakValueDictionary[str, BaseFileLock] = WeakValueDictionary()


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: beside it, hidden, named after it."""
    return path.parent / f".{path.name}.lock"


def timeout() -> float:
    """How long a command waits for a lock another command holds, in seconds."""
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise UsageError(f"{TIMEOUT_ENV} must be a number of seconds, not {text!r}")
    return seconds


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Hold ``path``'s lock for the block, waiting for another command's at most ``timeout()``
    seconds; BusyError if it is still held then. A file linked to is locked where the link
    points, where its writes go. A file whose folder does not exist is not locked: nothing can
    be read from it, and writing it fails."""
    target = path.resolve()
    if not target.parent.is_dir():
        yield
        return
    wait = timeout()
    lock = _lock(lock_path(target))
    from filelock import Timeout

    try:
        lock.acquire(timeout=wait)
    except Timeout:
        raise BusyError(f"another pbem command is using {path}; try again") from None
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        yield
    finally:
        lock.release()


def _lock(file: Path) -> BaseFileLock:
    from filelock import FileLock

    key = str(file)
    lock = _locks.get(key)
    if lock is None:
        # thread_local=False: the proof checks run in threads, and a lock held by the command is
        # the command's, whichever of its threads asks
        lock = FileLock(file, thread_local=False)
        _locks[key] = lock
    return lock
