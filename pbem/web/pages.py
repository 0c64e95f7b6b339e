"""What the page shows and does, each through the function of the command that does it: the
library as ``pbem inbox`` lists it; a game as ``status``, ``moves --json``, ``show --svg --as``
and ``log`` give it; a move, a reveal or the deck work as ``pbem play``, ``reveal`` and ``sync``
make it (their own functions run, so the entry, the lock, the checks and the messages are theirs);
a timeout, an undo and a consent as ``pbem timeout``, ``undo`` and ``consent`` make them. A move's
preview is the rules' own check and apply, on a copy of the table: nothing is signed or written.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

LOG_LINES = 12  # the log's last entries a game's page shows
# what a POST on a game may ask of the commands
ACTIONS = ("play", "reveal", "sync", "timeout", "undo", "consent", "join", "handover")


@dataclass(frozen=True)
class Settings:
    """What ``pbem web`` was started with: the seats it plays (``--as``; none: every seat whose
    key this home holds) and the passphrase typed at its start, if any (held in memory only)."""

    seats: tuple[str, ...] = ()
    passphrase: str | None = field(default=None, repr=False)


def library_rows() -> list[dict[str, Any]]:
    """The games of this home's library, as ``pbem inbox --json`` gives them. Looking here does
    not mark their messages seen: that is left to ``pbem inbox``, as a page only reads."""
    from pbem.cli.common import given_passphrase
    from pbem.cli.mail_commands import inbox_rows
    from pbem.keys import default_home
    from pbem.mail.library import Library

    with given_passphrase(None):
        return inbox_rows(Library(default_home()))


def can_fetch() -> bool:
    """Whether this home has a mailbox to fetch from (``pbem mail setup --imap``)."""
    from pbem.cli.sending import mail_account

    account = mail_account()
    return account is not None and account.imap is not None


def fetch_mail(settings: Settings) -> Done:
    """``pbem mail fetch --answer``, through the command's own function: the messages applied,
    the games passed on, what needs no choice done and mailed."""
    from pbem.cli.common import collected, given_passphrase
    from pbem.cli.mail_commands import fetched

    with collected() as said, given_passphrase(settings.passphrase):
        try:
            fetched(answer=True, inbox=False)
        except typer.Exit as exc:
            return Done(exc.exit_code == 0, said)
    return Done(True, said)


def sealed_keys() -> list[str]:
    """The names of this home's private keys that a passphrase seals."""
    from pbem.keys import KeyStore

    return [entry.name for entry in KeyStore().entries()[0] if entry.private and entry.encrypted]


def opens_a_key(passphrase: str, names: list[str]) -> bool:
    """Whether ``passphrase`` opens one of the keys ``names``."""
    from pbem.errors import IdentityError
    from pbem.keys import KeyStore

    store = KeyStore()
    for name in names:
        try:
            store.secret(name, lambda _prompt: passphrase)
        except IdentityError:
            continue
        return True
    return False


def needs_passphrase(settings: Settings) -> bool:
    """Whether the page must ask the passphrase: a key here is sealed, none was given at the
    start, and PBEM_PASSPHRASE does not give it."""
    import os

    from pbem.cli.common import PASSPHRASE_ENV

    return settings.passphrase is None and PASSPHRASE_ENV not in os.environ and bool(sealed_keys())


def kept(game_id: str) -> Path | None:
    """The file the library keeps for exactly this game id; None for any other text."""
    from pbem.keys import default_home
    from pbem.mail.library import Library

    found = Library(default_home()).games().get(game_id)
    return found.path if found is not None else None


def playing(ledger: Any, settings: Settings) -> list[str]:
    """The seats of this game the page plays: this home's (``--as`` narrows them), in seat order."""
    from pbem.cli.reading import own_seats

    own = own_seats(ledger)
    return [seat for seat in ledger.seats if seat in own and (not settings.seats or seat in settings.seats)]


# Each game as last read, by its file: the bytes' hash, the file and ledger read from them, and what
# reading said (a warning a second look would say again). A page looked at again, or by another
# seat of this home, replays nothing until the file changes; a copy whose bytes changed is read
# and verified anew, as a command would.
_read: dict[Path, tuple[bytes, Any, Any, list[str]]] = {}
_reading = threading.Lock()


def read_kept(path: Path, said: list[str]) -> tuple[Any, Any]:
    """``read_game(path)``, kept while the file's bytes stay the same."""
    from pbem.cli.reading import read_game

    digest = hashlib.sha256(path.read_bytes()).digest()
    with _reading:
        held = _read.get(path)
    if held is not None and held[0] == digest:
        said.extend(held[3])
        return held[1], held[2]
    before = len(said)
    loaded, ledger = read_game(path)
    with _reading:
        _read[path] = (digest, loaded, ledger, said[before:])
    return loaded, ledger


def game_page(path: Path, settings: Settings, wanted: str | None) -> dict[str, Any]:
    """Everything a game's page shows, for the seat ``wanted`` (else the first of this home's
    seats the game waits for, else its first): where the game stands, the picture as that seat
    sees it, its hand, its moves by their forms, what it owes (a reveal, the decks' work), the
    log's last lines; and what the commands said on the way (warnings, a key that did not open)."""
    from pbem.cli.common import collected, given_passphrase, now
    from pbem.cli.play_commands import forms_of, log_items, moves_report, seat_secrets, shown_view
    from pbem.cli.reports import status_report
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError
    from pbem.render.picture import game_svg

    page: dict[str, Any] = {
        "seat": None,
        "seats": [],
        "picture": None,
        "moves": None,
        "owed": None,
        "hand": {},
        "private": {},
        "joinable": [],
    }
    with collected() as said, given_passphrase(settings.passphrase):
        try:
            loaded, ledger = read_kept(path, said)
        except PbemError as exc:
            return page | {"error": str(exc), "said": said}
        report = status_report(ledger, now(), ledger.game_id[:8])
        seats = playing(ledger, settings)
        page["joinable"] = joinable(ledger, report, settings)
        asked = [item["seat"] for item in report["waiting"] if item["seat"] in seats]
        seat = wanted if wanted in seats else (asked or seats or [None])[0]
        page |= {
            "title": ledger.info.title,
            "game_id": ledger.game_id,
            "edition": ledger.edition,
            "report": report,
            "seat": seat,
            "seats": seats,
            "log": log_items(ledger, loaded.data)[-LOG_LINES:],
        }
        try:
            game = play_mod.seated(ledger)
        except PbemError as exc:  # still joining: nothing to draw or to play yet
            return page | {"note": str(exc), "said": said}
        secrets: dict[str, Any] = {}
        if seat is not None:
            try:
                secrets = seat_secrets(ledger, seat, None)
            except PbemError as exc:
                said.append(f"{seat}'s hand and sealed choices are not shown: {exc}")
        view = shown_view(game.rules, game.table, seat) | secrets
        try:
            page["picture"] = game_svg(ledger.info.name, ledger.info.title, view, seat if secrets else None)
        except PbemError as exc:
            said.append(str(exc))
        page["hand"] = secrets.get("hand", {})
        page["private"] = secrets.get("private", {})
        if seat is not None:
            demand, moves = moves_report(ledger, seat, secrets.get("hand") if secrets else None)
            page["moves"] = moves
            # what the seat may do at any time (a gift) joins the composer as forms of its own
            free = [form.json() | {"free": True} for form in forms_of(ledger, moves["free"])]
            page["composer"] = moves["forms"] + free
            page["free_forms"] = [form["form"] for form in free]
            page["owed"] = owed(demand, seat)
            page["undo"] = may_undo(ledger, seat)
            page["handover"] = may_hand_over(ledger, seat)
            # a claim is signed by the seat shown, unless it is the late one: then by another of ours
            page["claimants"] = {
                item["seat"]: next(own for own in [seat, *seats] if own != item["seat"])
                for item in report["waiting"]
                if item["timeout"] and any(own != item["seat"] for own in seats)
            }
    return page | {"said": said}


def hint(path: Path, settings: Settings, seat: str) -> dict[str, Any]:
    """The computer player's choice for ``seat``, as ``pbem moves --hint`` gives it (``move``,
    ``chance``, ``playouts``); or what stands in the way (``error``)."""
    from pbem.cli.common import collected, given_passphrase
    from pbem.cli.play_commands import hint_for, seat_hand
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError

    with collected(), given_passphrase(settings.passphrase):
        try:
            _, ledger = read_kept(path, [])
            if seat not in playing(ledger, settings):
                return {"error": f"this page does not play seat {seat!r} of this game"}
            hand = seat_hand(ledger, seat, None, path)
            return hint_for(ledger, seat, hand, play_mod.demand_for(ledger, seat))
        except PbemError as exc:
            return {"error": str(exc)}


def may_undo(ledger: Any, seat: str) -> bool:
    """Whether ``pbem undo --as SEAT`` would ask now (the button is offered only then)."""
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError

    try:
        play_mod.check_undo(ledger, seat)
    except PbemError:
        return False
    return True


def joinable(ledger: Any, report: dict[str, Any], settings: Settings) -> list[str]:
    """The seats still to join (or to take a seat handed on) whose key this home holds: each is
    a button that joins as ``pbem join --as SEAT`` does."""
    from pbem.cli.reading import own_seats

    ours = own_seats(ledger, joining=True)
    return [
        item["seat"]
        for item in report["waiting"]
        if item["kind"] == "join"
        and item["command"].startswith("pbem join ")
        and item["seat"] in ours
        and (not settings.seats or item["seat"] in settings.seats)
    ]


def may_hand_over(ledger: Any, seat: str) -> bool:
    """Whether the seat may be handed on now (the form is offered only then): its own player
    still holds it and the game is not over."""
    from pbem.engine import play as play_mod

    game = play_mod.seated(ledger)
    return seat in ledger.roster and not game.rules.over(game.table.state)


NO_CARD_PREVIEW = "no preview for a move that shows hidden cards: only playing it shows them"


def preview(path: Path, settings: Settings, seat: str, text: str) -> dict[str, Any]:
    """The game as ``seat`` would see it after ``text``: the rules' check and apply, as ``pbem
    play`` makes them, run on a copy of the table, so the file and the game as read stay as they
    were. A sealed choice is shown sealed; a move that shows hidden cards is not previewed, as
    which cards it shows needs the seat's key and the others' shares."""
    from pbem.cli.common import collected, given_passphrase
    from pbem.cli.play_commands import shown_view
    from pbem.engine import play as play_mod
    from pbem.engine import table as tables
    from pbem.errors import PbemError
    from pbem.render.picture import game_svg

    with collected() as said, given_passphrase(settings.passphrase):
        try:
            _, ledger = read_kept(path, said)
            if seat not in playing(ledger, settings):
                return {"error": f"this page does not play seat {seat!r} of this game"}
            if not text.strip():
                return {"error": "no move: choose one, or type it"}
            game = play_mod.seated(ledger)
            demand, move = play_mod.precheck(ledger, seat, text)
            table = game.table.snapshot()
            if demand.kind == "contribute":
                note = f"adds randomness to the {demand.step}; nothing else changes until every seat has"
            elif demand.kind == "commit":
                # the value stays sealed: the copy only records that this seat has sealed one
                tables.apply_commit(table, seat, demand.step, "0" * 64, "")
                note = (
                    f"{game.rules.format(move)} is sealed; it stays secret until every seat has sealed theirs"
                )
            elif tables.card_uses(game.rules, table, seat, move):
                return {"note": NO_CARD_PREVIEW}
            else:
                checked = tables.check_move(game.rules, table, seat, text)
                tables.apply_move(game.rules, table, seat, checked)
                note = f"after {game.rules.format(checked.move)}"
            view = shown_view(game.rules, table, seat)
            picture = game_svg(ledger.info.name, ledger.info.title, view, None)
        except PbemError as exc:
            return {"error": str(exc)}
        waiting = [f"{one.seat}: {one.prompt}" for one in tables.demands(game.rules, table)]
        return {"note": note, "phase": game.rules.phase(table.state), "waiting": waiting, "picture": picture}


def owed(demand: Any, seat: str) -> dict[str, str] | None:
    """The entry ``seat`` owes that takes no move, in the words ``pbem moves`` says it with: the
    action that makes it (reveal or sync) and the button's words."""
    from pbem.engine.ruleset import DECK_DEMANDS

    if demand is None:
        return None
    if demand.kind == "reveal":
        return {"action": "reveal", "label": f"reveal the sealed {demand.step}", "command": "pbem reveal"}
    if demand.kind in DECK_DEMANDS:
        return {"action": "sync", "label": str(demand.prompt), "command": "pbem sync"}
    return None


@dataclass(frozen=True)
class Done:
    """What an action did: whether the command went through, and what it said."""

    ok: bool
    said: list[str]


def act(path: Path, settings: Settings, seat: str, action: str, form: dict[str, str]) -> Done:
    """Run ``pbem play FILE TEXT --as SEAT`` (or ``reveal``, ``sync``, ``undo``, ``timeout FILE
    LATE``, ``consent [--decline]``, ``join``, ``handover --to NAME KEYFILE [--email]``) through
    the command's own function, mailed as ``--send`` mails it where the game travels by mail and
    this home has a mail account; then what this home's seats are asked that needs no choice (a
    reveal, the decks' work, randomness) is done too, as ``pbem mail fetch --answer`` does it. A
    refusal says the command's own ``error:`` line and leaves the file as it was."""
    from pbem.cli import game_commands, play_commands
    from pbem.cli.common import collected, given_passphrase, now
    from pbem.cli.reading import read_game
    from pbem.cli.reports import status_report
    from pbem.cli.sending import mail_account
    from pbem.errors import PbemError

    text = form.get("text", "")
    commands: dict[str, Callable[[bool], None]] = {
        "play": lambda send: play_commands.play(file=path, move=[text], seat=seat, key=None, send=send),
        "reveal": lambda send: play_commands.reveal(file=path, seat=seat, key=None, send=send),
        "sync": lambda send: play_commands.sync(file=path, seat=seat, key=None, send=send),
        "undo": lambda send: play_commands.undo(file=path, seat=seat, key=None, send=send),
        "timeout": lambda send: play_commands.timeout(
            file=path, late=form.get("late", ""), seat=seat, key=None, send=send
        ),
        "consent": lambda send: play_commands.consent(
            file=path, seat=seat, decline=form.get("agree") == "no", key=None, send=send
        ),
        "join": lambda send: game_commands.join(file=path, seat=seat, key=None, email=None, send=send),
        "handover": lambda send: _hand_over(path, seat, form, send),
    }
    with collected() as said, given_passphrase(settings.passphrase):
        try:
            _, ledger = read_game(path)
        except PbemError as exc:
            return Done(False, [*said, f"error: {exc}"])
        # a seat joins from this page only if it is to join and its key is here; else it plays
        ours = (
            joinable(ledger, status_report(ledger, now(), ledger.game_id[:8]), settings)
            if action == "join"
            else playing(ledger, settings)
        )
        if seat not in ours:
            return Done(False, [f"error: this page does not play seat {seat!r} of this game"])
        if action == "play" and not text.strip():
            return Done(False, ["error: no move: choose one, or type it"])
        send = bool(ledger.addresses) and mail_account() is not None
        said.clear()  # the read's warnings: the command says them again
        try:
            commands[action](send)
        except typer.Exit as exc:
            if exc.exit_code != 0:
                return Done(False, said)
        said.extend(answer_here(path, settings, send))
    return Done(True, said)


def answer_here(path: Path, settings: Settings, send: bool) -> list[str]:
    """What the seats this page plays are then asked that needs no choice, done (and mailed, as
    ``--send`` mails): one line of what each did, or why it could not."""
    from pbem.cli.appending import answer_game
    from pbem.cli.reading import read_game
    from pbem.cli.reports import log_line
    from pbem.cli.sending import send_file
    from pbem.errors import PbemError

    lines: list[str] = []
    try:
        _, ledger = read_game(path)
        made = answer_game(path, playing(ledger, settings))
        if not made:
            return lines
        _, ledger = read_game(path)
        for entry in made:
            lines.append(f"{entry['by']} then, without a choice to make: {log_line(ledger, entry)}")
        if send:
            for seat in dict.fromkeys(entry["by"] for entry in made):
                send_file(path, seat, full=False, to_file=None, stdout=False, routed=True, say=lines.append)
    except PbemError as exc:
        lines.append(f"not done without a choice: {exc}")
    return lines


def _hand_over(path: Path, seat: str, form: dict[str, str], send: bool) -> None:
    """``pbem handover FILE --as SEAT --to NAME KEYFILE [--email ADDRESS]``, the identity pasted
    in the page (the one line ``pbem key export NAME`` writes) given to it as its file."""
    import tempfile

    from pbem.cli import game_commands

    with tempfile.TemporaryDirectory() as scratch:
        keyfile = Path(scratch) / "identity.txt"
        keyfile.write_text(form.get("identity", "").strip() + "\n", encoding="utf-8")
        game_commands.handover(
            file=path,
            seat=seat,
            to=(form.get("name", "").strip(), keyfile),
            to_computer=None,
            computer=False,
            key=None,
            email=form.get("email", "").strip() or None,
            silent=None,
            send=send,
        )
