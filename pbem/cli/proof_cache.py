"""A cache of hidden-deck proofs this machine has checked, under the pbem home.

Every command replays the whole game file, and a shuffle proof takes a second or two to check in
pure Python. The replay asks this cache before each proof check (``decks.ProofCheck``): a key is
a hash of every input of the check (game, deck, seat, joint key, the decks before and after, the
proof), so a hit means this very statement was checked here before and passed, and a changed
byte anywhere gives a different key and a fresh check. Only passes are written. The cache holds
hashes, nothing secret; it is kept in one file per game, ``checked-proofs/GAME_ID``, one key per
line. Whoever can write to the pbem home can already change the keys or the program, so trusting
it adds nothing to trust. ``pbem verify`` never reads it: that check must stand on the file alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

KEY = re.compile(r"([0-9a-f]{32}):([0-9a-f]{64})")


class ProofCache:
    """``cache(key, run)``: run ``run`` unless ``key`` passed before; ``save()`` writes new passes."""

    def __init__(self, home: Path, *, consult: bool = True) -> None:
        self.folder = home / "checked-proofs"
        self.consult = consult
        self._known: dict[str, set[str]] = {}
        self._new: dict[str, list[str]] = {}

    def __call__(self, key: str, run: Callable[[], None]) -> None:
        from pbem.engine.decks import check_now

        # verify's mode runs every check; otherwise passes seen in this process count too
        checker = check_now if self.consult else _run
        match = KEY.fullmatch(key)
        if match is None:  # not a key this cache can file: just check
            checker(key, run)
            return
        game, digest = match.groups()
        known = self._load(game)
        if self.consult and digest in known:
            return
        checker(key, run)
        if digest not in known:
            known.add(digest)
            self._new.setdefault(game, []).append(digest)

    def _load(self, game: str) -> set[str]:
        if game not in self._known:
            try:
                text = (self.folder / game).read_text(encoding="ascii")
            except (OSError, UnicodeDecodeError):
                text = ""
            self._known[game] = {line for line in text.splitlines() if re.fullmatch(r"[0-9a-f]{64}", line)}
        return self._known[game]

    def save(self) -> None:
        """Append the passes seen since the last save; a cache that cannot be written is skipped."""
        for game, digests in self._new.items():
            if not digests:
                continue
            try:
                self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                # One write of whole lines in append mode: concurrent commands do not tear lines.
                descriptor = os.open(self.folder / game, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                try:
                    os.write(descriptor, "".join(f"{digest}\n" for digest in digests).encode("ascii"))
                finally:
                    os.close(descriptor)
            except OSError:
                pass
        self._new.clear()


def _run(key: str, run: Callable[[], None]) -> None:
    run()


def for_home(*, consult: bool = True) -> ProofCache:
    from pbem.keys import default_home

    return ProofCache(default_home(), consult=consult)
