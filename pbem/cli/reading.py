"""Reading a game file for a command: the file a name or a game id names, verified, compared
with the furthest copy this home has seen, and the seats whose keys this home holds."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.cli.common import warn

if TYPE_CHECKING:
    from pbem.cli.seen_heads import Comparison
    from pbem.crypto.identity import PublicIdentity
    from pbem.engine.ledger import Handover, Ledger
    from pbem.gamefile import LoadedFile


def resolve(file: Path) -> Path:
    """The game file ``file`` names: the file itself, or else the file the game library keeps for
    the game whose id starts with it (``pbem status 7e26``). What can only be an id (hex digits,
    no file of that name) and starts no game's id is said so, with the games there are."""
    if file.exists():
        return file
    import re

    from pbem.errors import UsageError
    from pbem.keys import default_home
    from pbem.mail.library import PREFIX, Library

    library = Library(default_home())
    kept = library.find(str(file))
    if kept is not None:
        return kept.path
    text = str(file)
    if not re.fullmatch(r"[0-9a-f]{1,32}", text):
        return file  # a file's name: reading it says it is missing
    games = sorted(library.games().values(), key=lambda game: game.game_id)
    known = ", ".join(f"{game.game_id[:8]} {game.path.name}" for game in games[:10])
    known += f", and {len(games) - 10} more" if len(games) > 10 else ""
    short = "" if PREFIX.fullmatch(text) else "give at least 4 characters of a game's id; "
    raise UsageError(
        f"no file named {text} and no game whose id starts with {text} "
        f"({short}{'games: ' + known if games else 'no game in your library yet'})"
    )


@contextmanager
def editing(file: Path) -> Iterator[None]:
    """Hold the lock of the game file ``file`` names (see pbem.locks) for the block: from the
    read a command verifies to the write of what it appends, so that a second command changing
    the file waits, then reads the first one's entries and appends after them."""
    from pbem import gamefile

    with gamefile.locked(resolve(file)):
        yield


def register(ledger: Ledger, file: Path) -> None:
    """Remember where the player keeps this game (a library that cannot be written is skipped)."""
    import contextlib

    from pbem.errors import PbemError
    from pbem.keys import default_home
    from pbem.mail.library import Library

    with contextlib.suppress(OSError, PbemError):
        Library(default_home()).register(ledger.game_id, file)


def read_game(
    file: Path, *, writing: bool = False, seat: str | None = None, remembered: bool = False
) -> tuple[LoadedFile, Ledger]:
    """The file and its verified ledger; any problem is reported naming the file, and a ``seat``
    (what ``--as`` names) that is none of the game's.

    Hidden-deck proofs already checked on this machine are not checked again (see proof_cache).
    With ``remembered`` (the commands that only read: status, moves, show), a file whose exact
    bytes this home has replayed before is not replayed again (see state_cache), and one replayed
    now is remembered. The copy is compared with the furthest one this home has verified (see
    seen_heads): a copy behind it, apart from it or forking from it is said in one line, and
    refused if ``writing``, since a move on it would build on a stale or contradicted history.
    """
    from pbem.errors import GameFileError

    loaded, ledger = _remembered(file) if remembered else _replayed(file)
    if seat is not None:
        ledger.check_seat(seat)
    for line in roster_mismatches(ledger):
        warn(f"{file}: {line}")
    comparison = compare_with_seen(ledger)
    line = comparison.line(by_mail=bool(ledger.addresses))
    if comparison.verdict == "behind":
        line += f": bring it up to date with pbem merge {file} {_newer_copy(ledger, file)}"
    if line:
        if writing and comparison.refuses_writes:
            raise GameFileError(f"{file}: {line}; nothing was written")
        warn(f"{file}: {line}")
    return loaded, ledger


def _replayed(file: Path, loaded: LoadedFile | None = None) -> tuple[LoadedFile, Ledger]:
    """The file (``loaded``, else read now), and its ledger from a full replay (``ledger.read``)."""
    from pbem import gamefile
    from pbem.cli.proof_cache import for_home
    from pbem.engine import ledger as ledger_mod
    from pbem.errors import EquivocationError, GameFileError

    loaded = loaded or gamefile.load(resolve(file))
    cache = for_home()
    try:
        ledger = ledger_mod.read(loaded.data, cache)
        cache.save()
    except EquivocationError as exc:
        raise EquivocationError(f"{file}: {exc}", exc.evidence) from None
    except GameFileError as exc:
        raise GameFileError(f"{file}: {exc}") from None
    return loaded, ledger


def _remembered(file: Path) -> tuple[LoadedFile, Ledger]:
    """The file and its ledger as this home's full replay of these very bytes left them, else
    replayed now, and remembered once it has verified."""
    from pbem import gamefile
    from pbem.cli import proof_cache, state_cache

    path = resolve(file)
    states = state_cache.for_home()
    raw = gamefile.read_game_bytes(path)
    found = states.recall(raw)
    if found is not None:
        # what later moves on this ledger check their proofs with, as ledger.read sets it
        found.ledger.check = proof_cache.for_home()
        return gamefile.LoadedFile(path, raw, found.data), found.ledger
    loaded, ledger = _replayed(file, gamefile.LoadedFile(path, raw, gamefile.parse(raw, str(path))))
    states.keep(raw, loaded.data, ledger)
    return loaded, ledger


def _newer_copy(ledger: Ledger, file: Path) -> str:
    """Where the copy that is further on is likely kept: the library's file of the game, the one
    last written here; else a word for the player to put its name in place of."""
    import contextlib

    from pbem.errors import PbemError
    from pbem.keys import default_home
    from pbem.mail.library import Library

    with contextlib.suppress(OSError, PbemError):
        kept = Library(default_home()).games().get(ledger.game_id)
        if kept is not None and kept.path.is_file() and not (file.is_file() and kept.path.samefile(file)):
            return str(kept.path)
    return "NEWER_COPY"


def compare_with_seen(ledger: Ledger) -> Comparison:
    """How this copy stands against the furthest this home has verified; recorded if newer."""
    from pbem.cli.seen_heads import SeenGames
    from pbem.keys import default_home

    return SeenGames(default_home()).check(ledger, lambda: own_seats(ledger))


def own_seats(ledger: Ledger, *, joining: bool = False) -> frozenset[str]:
    """The seats whose private keys this home holds (the keys they joined with); with
    ``joining``, also each seat still to join that a private key here is named for (the key
    ``pbem join --as SEAT`` would sign with)."""
    from pbem.errors import PbemError
    from pbem.keys import KeyStore

    store = KeyStore()
    own: set[str] = set()
    for seat in ledger.seats:
        identity = ledger.roster.get(seat)
        if identity is None and not joining:
            continue
        # a seat handed on is played with its new holder's key, kept under the holder's name
        for name in dict.fromkeys((seat, default_key(ledger, seat))):
            try:
                entry = store.public(name)
            except PbemError:
                continue
            if entry.private and (identity is None or entry.identity.sign_public == identity.sign_public):
                own.add(seat)
    referee = ledger.referee
    if referee is not None:  # a referee's home answers for it as a player's does for a seat
        try:
            entry = store.public(referee.name)
        except PbemError:
            return frozenset(own)
        if entry.private and entry.identity.sign_public == referee.sign_public:
            own.add(referee.name)
    return frozenset(own)


def roster_mismatches(ledger: Ledger) -> list[str]:
    """A line for each seat that joined with a key other than the one imported under its name
    (``pbem key import``): someone else may have taken that player's seat."""
    from pbem.keys import KeyStore

    imported = KeyStore().imported()
    lines = []
    for seat, identity in ledger.roster.items():
        past = ledger.handovers.get(seat)
        if past:
            lines += _handed_on_mismatches(seat, identity, past, imported)
            continue
        known = imported.get(seat)
        if known is not None and (known.sign_public, known.box_public) != (
            identity.sign_public,
            identity.box_public,
        ):
            lines.append(
                f"seat {seat} joined with key {identity.fingerprint}, not the key you imported as "
                f"{seat} ({known.fingerprint}): check the fingerprint with {seat} before playing on"
            )
    return lines


def _handed_on_mismatches(
    seat: str, identity: PublicIdentity, past: Sequence[Handover], imported: Mapping[str, PublicIdentity]
) -> list[str]:
    """For a seat handed on: the identity imported under the new holder's name must be the key
    the seat went to; one imported under the seat's name may be any key that held the seat."""
    holder, seq = past[-1].holder, past[-1].seq
    held = [(key.sign_public, key.box_public) for key in (identity, *(h.before for h in past))]
    lines = []
    known = imported.get(holder)
    if known is not None and (known.sign_public, known.box_public) != held[0]:
        lines.append(
            f"seat {seat} was handed on to {holder} in entry {seq} with key {identity.fingerprint}, not "
            f"the key you imported as {holder} ({known.fingerprint}): check the fingerprint with "
            f"{holder} before playing on"
        )
    known = imported.get(seat)
    if known is not None and (known.sign_public, known.box_public) not in held:
        lines.append(
            f"seat {seat} was never held by the key you imported as {seat} ({known.fingerprint}): "
            f"check the fingerprints with {seat}'s players before playing on"
        )
    return lines


def default_key(ledger: Ledger, seat: str) -> str:
    """The key ``--as SEAT`` signs with unless ``--key`` names one: the seat's name, or for a
    seat handed on, the name of the player it was handed on to."""
    from pbem.keys import KeyStore

    past = ledger.handovers.get(seat)
    if past and KeyStore().key_path(past[-1].holder).exists():
        return past[-1].holder
    # the seat's own name even so: signing with it then says the seat was handed on
    return seat
