"""The games a player keeps: which file holds each, and what the other seats are known to hold.

The library remembers where the player keeps each game (``games/index.toml`` under the pbem
home), rather than keeping copies of its own: the player's file stays the one true copy, and a
command given a game id finds it there. A game that first arrives by mail, before the player has
a file for it, is written into ``games/`` and registered like any other.

For each game it also records, per seat, what that seat's copy is known to hold, as a few hashes
that each name an entry or a step with everything before it (``delivery.named``): the copy a
message from it said it had and carried, what a message this home sent it carried. With the
entries the seat signed itself, that tells a sender which entries a recipient lacks, so a
message carries only those.

And it remembers the messages ``pbem mail fetch`` read and passed over in an IMAP folder (other
mail, messages refused, messages too large to be a game's): they stay unread, for the player, and
the next fetch neither downloads nor reports them again (``games/passed-over.toml``): by UID in
that folder, and by Message-ID wherever the message is, for one refused or too large.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pbem import locks
from pbem.errors import UsageError

ID = re.compile(r"[0-9a-f]{32}")
MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII but < and >, as make_msgid writes
PREFIX = re.compile(r"[0-9a-f]{4,32}")
REFUSED = 1000  # messages remembered by Message-ID as refused, the latest
HASH = re.compile(r"[0-9a-f]{64}")
HELD = 16  # hashes kept per seat: a step's entries made at once, and the step after


@dataclass
class Kept:
    """One game of the library."""

    game_id: str
    path: Path
    known: dict[str, list[str]] = field(default_factory=dict)  # seat -> hashes naming what it holds
    applied: int = 0  # messages applied since the player last looked (pbem inbox)
    root: str = ""  # the game's first message (its Message-ID), which every message answers
    # seat -> hashes naming what a message another seat sent it carried (seen in its To or Cc here):
    # what it will hold, to spare passing that on to it; never what a message to it leaves out
    copied: dict[str, list[str]] = field(default_factory=dict)

    def holds(self) -> dict[str, list[str]]:
        """What each seat holds or will hold: ``known`` with ``copied``."""
        return {
            seat: [*self.known.get(seat, []), *self.copied.get(seat, [])]
            for seat in {*self.known, *self.copied}
        }


class Library:
    """``games/index.toml`` under a pbem home."""

    def __init__(self, home: Path) -> None:
        self.folder = home / "games"
        self.index = self.folder / "index.toml"

    def games(self) -> dict[str, Kept]:
        try:
            data = tomllib.loads(self.index.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise UsageError(f"the game library {self.index} cannot be read ({exc}); move it away") from None
        kept: dict[str, Kept] = {}
        for game_id, item in data.get("games", {}).items():
            if (
                not ID.fullmatch(game_id)
                or not isinstance(item, dict)
                or not isinstance(item.get("path"), str)
            ):
                continue  # a damaged record: the game is found again when next read or received
            known = item.get("known", {})
            copied = item.get("copied", {})
            kept[game_id] = Kept(
                game_id,
                Path(item["path"]),
                {seat: copy for seat, text in known.items() if (copy := _hashes(text))}
                if isinstance(known, dict)
                else {},
                item.get("applied", 0) if type(item.get("applied")) is int else 0,
                _root(item),
                {seat: copy for seat, text in copied.items() if (copy := _hashes(text))}
                if isinstance(copied, dict)
                else {},
            )
        return kept

    def save(self, games: dict[str, Kept]) -> None:
        import tomlkit

        doc = tomlkit.document()
        doc.add(tomlkit.comment("pbem's game library: where each game is kept (pbem inbox lists them)"))
        table = tomlkit.table(is_super_table=True)
        for game_id, kept in sorted(games.items()):
            item = tomlkit.table()
            item["path"] = str(kept.path)
            item["applied"] = kept.applied
            if kept.known:
                item["known"] = {seat: hashes for seat, hashes in sorted(kept.known.items()) if hashes}
            if kept.root:
                item["root"] = kept.root
            if kept.copied:
                item["copied"] = {seat: hashes for seat, hashes in sorted(kept.copied.items()) if hashes}
            table[game_id] = item
        doc["games"] = table
        _write(self.index, tomlkit.dumps(doc))

    @contextmanager
    def changing(self) -> Iterator[None]:
        """The index's lock, held from a read of the index to the write of it changed (see
        pbem.locks): two commands recording a game each would otherwise write the index as each
        read it, and the one that wrote last would drop the other's game. Held only for that,
        so any command waits for it briefly, whatever else it holds."""
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with locks.held(self.index):
            yield

    def register(self, game_id: str, path: Path) -> Kept:
        """Remember that ``game_id`` is kept at ``path`` (the latest path given wins)."""
        with self.changing():
            games = self.games()
            kept = games.get(game_id) or Kept(game_id, path.resolve())
            kept.path = path.resolve()
            games[game_id] = kept
            self.save(games)
        return kept

    def find(self, text: str) -> Kept | None:
        """The game ``text`` names by id or unique prefix of it, or None if it names none;
        UsageError if the prefix fits several."""
        if not PREFIX.fullmatch(text):
            return None
        matches = [kept for game_id, kept in self.games().items() if game_id.startswith(text)]
        if len(matches) > 1:
            ids = ", ".join(kept.game_id[:12] for kept in matches)
            raise UsageError(f"{text!r} is the start of more than one game's id ({ids}): give more of it")
        return matches[0] if matches else None

    def update(
        self,
        game_id: str,
        *,
        known: Mapping[str, Sequence[str]] | None = None,
        applied: int = 0,
        message_id: str | None = None,
        copied: Mapping[str, Sequence[str]] | None = None,
        root: str | None = None,
    ) -> None:
        """Record what a message taught: what seats hold (each seat's hashes replace those it had),
        messages applied, and the game's first message, if not known yet: the one a message sent
        or applied answers (``root``, the first its References name), else that message itself.
        Every later message answers it, so a mail client shows the game as one shallow thread."""
        if not self.index.exists():
            return  # no game to update, and no folder to make for the index's lock
        with self.changing():
            games = self.games()
            kept = games.get(game_id)
            if kept is None:
                return
            for seat, hashes in (known or {}).items():
                kept.known[seat] = [digest for digest in hashes if HASH.fullmatch(digest)][-HELD:]
            for seat, hashes in (copied or {}).items():
                kept.copied[seat] = [digest for digest in hashes if HASH.fullmatch(digest)][-HELD:]
            kept.applied += applied
            if not kept.root:
                kept.root = next(
                    (text for text in (root, message_id) if text and MESSAGE_ID.fullmatch(text)), ""
                )
            self.save(games)

    def looked(self) -> None:
        """The player has seen every game: the counts of messages applied start again."""
        with self.changing():
            games = self.games()
            for kept in games.values():
                kept.applied = 0
            self.save(games)


class PassedOver:
    """``games/passed-over.toml`` under a pbem home: per IMAP folder, the UIDs of messages fetch
    passed over. A UID names one message only while the folder's UIDVALIDITY stays the same, so
    the UIDs are kept with it, and forgotten when it changes."""

    def __init__(self, home: Path) -> None:
        self.path = home / "games" / "passed-over.toml"

    def _data(self) -> dict[str, object]:
        try:
            return tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return {}  # lost or damaged: messages are read once more, and remembered again

    def _all(self) -> dict[str, dict[str, object]]:
        folders = self._data().get("folder", {})
        return {
            name: item
            for name, item in (folders.items() if isinstance(folders, dict) else [])
            if isinstance(item, dict)
        }

    def uids(self, folder: str, validity: str) -> set[str]:
        """The messages of ``folder`` passed over while its UIDVALIDITY was ``validity``."""
        item = self._all().get(folder, {})
        uids = item.get("uids")
        if item.get("validity") != validity or not isinstance(uids, list):
            return set()
        return {uid for uid in uids if isinstance(uid, str) and uid.isdigit()}

    @contextmanager
    def changing(self) -> Iterator[None]:
        """The file's lock, held from its read to its write, as ``Library.changing`` holds the
        index's: two fetches at once would otherwise each drop what the other passed over."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with locks.held(self.path):
            yield

    def keep(self, folder: str, validity: str, uids: Iterable[str]) -> None:
        """Remember exactly ``uids`` for ``folder`` (a message read since, or gone, is dropped)."""
        with self.changing():
            folders = self._all()
            chosen = sorted(set(uids), key=lambda uid: (len(uid), uid))
            kept: dict[str, object] = {"validity": validity, "uids": chosen}
            if folders.get(folder, {"validity": validity, "uids": []}) == kept:
                return  # as it is on disk: nothing to write
            if chosen:
                folders[folder] = kept
            else:
                del folders[folder]
            self._save(folders, self.refused())

    def refused(self) -> dict[str, str]:
        """The messages fetch refused or found too large, by Message-ID: ``refused``, ``too large``,
        ``retry COPY`` for one refused against the copies of the games as they were then (COPY,
        see ``pbem.cli.mail_commands._copies``), or ``elsewhere COPY`` for one that carries entries
        of a game this home is not in: either is read again once the copies have changed."""
        table = self._data().get("refused", {})
        return {
            key: value
            for key, value in (table.items() if isinstance(table, dict) else [])
            if MESSAGE_ID.fullmatch(key) and isinstance(value, str)
        }

    def refuse(self, changes: dict[str, str | None]) -> None:
        """Remember (or, for None, forget) messages by Message-ID; the oldest are forgotten past
        REFUSED, a fetch then reads them once more."""
        with self.changing():
            refused = self.refused()
            before = dict(refused)
            for key, value in changes.items():
                refused.pop(key, None)
                if value is not None and MESSAGE_ID.fullmatch(key):
                    refused[key] = value
            refused = dict(list(refused.items())[-REFUSED:])
            if refused != before:
                self._save(self._all(), refused)

    def _save(self, folders: dict[str, dict[str, object]], refused: dict[str, str]) -> None:
        import tomlkit

        doc = tomlkit.document()
        doc.add(tomlkit.comment("messages pbem mail fetch passed over, not to be read again"))
        table = tomlkit.table(is_super_table=True)
        for name, item in sorted(folders.items()):
            table[name] = item
        doc["folder"] = table
        doc["refused"] = refused
        _write(self.path, tomlkit.dumps(doc))


def _write(path: Path, text: str) -> None:
    """Replace ``path`` (readable by its owner only) with ``text`` in one step."""
    from pbem.gamefile import temporary_beside

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor, tmp = temporary_beside(path, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _root(item: dict[str, object]) -> str:
    """The game's first message as the index names it; in an index of an earlier version, which
    kept the last ten Message-IDs (``thread``), the oldest of them."""
    root = item.get("root")
    if isinstance(root, str) and MESSAGE_ID.fullmatch(root):
        return root
    thread = item.get("thread")
    for text in thread if isinstance(thread, list) else []:
        if isinstance(text, str) and MESSAGE_ID.fullmatch(text):
            return text
    return ""


def _hashes(value: object) -> list[str]:
    """The hashes a seat is known by, as written in the index: a list, or ``STEPS:HEAD`` as
    earlier versions wrote it (the head names the same copy); nothing for anything else."""
    if isinstance(value, str):
        value = [value.partition(":")[2]]
    if not isinstance(value, list):
        return []
    return [digest for digest in value if isinstance(digest, str) and HASH.fullmatch(digest)][-HELD:]
