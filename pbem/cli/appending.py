"""Signing and appending entries to a game file for a command, and what to do with the file next."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from inspect import Parameter, Signature
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.common import info, now, open_key, reported
from pbem.cli.reading import compare_with_seen, default_key, editing, own_seats, read_game, register
from pbem.cli.reports import log_line

if TYPE_CHECKING:
    from pbem.crypto.identity import SecretKeys
    from pbem.engine.ledger import Ledger
    from pbem.gamefile import LoadedFile

FILE = typer.Argument(..., help="The game file.")
SEAT = typer.Option(..., "--as", help="Your seat.")
KEY = typer.Option(None, "--key", help="Key to sign with (default: the seat name).")
JSON = typer.Option(False, "--json", help="Print as JSON.")
SEND = typer.Option(False, "--send", help="Then mail it as 'pbem mail send' does.")


def signing_key(ledger: Ledger, seat: str, key: str | None) -> SecretKeys:
    """The seat's secret keys, refusing a key other than the one the seat joined with."""
    from pbem.engine import ledger as ledger_mod

    name = key or default_key(ledger, seat)
    secret = open_key(name)
    ledger_mod.check_signer(ledger, seat, secret, name)
    return secret


def write_entries(loaded: LoadedFile, entries: list[dict[str, Any]], after: Ledger) -> None:
    """Append ``entries`` in one atomic write, keeping what players wrote in the file."""
    from pbem import gamefile

    if len(entries) == 1:
        text = gamefile.append_text(
            loaded, entries[0], after.header(), after.roster_table(), after.status_lines()
        )
    else:
        everything = [*loaded.data["entry"], *entries]
        text = gamefile.rewrite_entries(
            loaded, everything, after.header(), after.roster_table(), after.status_lines()
        )
    gamefile.replace(loaded, text)
    compare_with_seen(after)
    register(after, loaded.path)


def append_command(
    file: Path,
    seat: str,
    key: str | None,
    precheck: Callable[[Ledger], object],
    build: Callable[[Ledger, SecretKeys, str], tuple[Ledger, dict[str, Any]]],
    said: Callable[[Ledger, dict[str, Any]], object],
    *,
    send: bool,
) -> None:
    """The body of a command that signs one entry: read and verify the file, check the request
    before any key is opened, sign, append, and say what the entry did (``said``). A refusal is
    one ``error:`` line; with ``--send`` the entry is mailed once it is written, outside the
    refusal's reporting, as a failed send says itself what became of the entry."""
    from pbem.cli.sending import send_after

    with reported(), editing(file):
        loaded, ledger = read_game(file, writing=True, seat=seat)
        precheck(ledger)
        secret = signing_key(ledger, seat, key)
        current, entry = build(ledger, secret, now())
        # mailed, it goes with what the seat is then asked for without a choice (a reveal, its
        # randomness, the decks, a forced move): one message, not one each
        after, unasked = answered(current, seat, secret) if send else (current, [])
        write_entries(loaded, [entry, *unasked], after)
        said(current, entry)
        for made in unasked:
            info(f"{seat} then, without a choice to make: {log_line(after, made)} (entry {made['seq']})")
    if send:
        send_after(file, seat)
    computers_after(file, send=send)


def computers_after(file: Path, *, send: bool) -> None:
    """The computers this home hosts play what they are then asked (``computers.play_turns``)."""
    from pbem.cli.computers import play_turns

    with reported():
        play_turns(file, send=send)


ANSWERS = 12  # entries a seat makes unasked at once, at most: each answers what the one before asks


def answered(ledger: Ledger, seat: str, secret: SecretKeys) -> tuple[Ledger, list[dict[str, Any]]]:
    """The entries by which ``seat`` does at once what the game then asks of it that needs no
    choice (``play.answer``), and the ledger after them."""
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError

    made: list[dict[str, Any]] = []
    for _ in range(ANSWERS):
        try:
            found = play_mod.answer(ledger, seat, secret, now())
        except PbemError:
            break  # what it needs is not in yet (another seat's shares, say): its next entry gives it
        if found is None:
            break
        ledger, entry = found
        made.append(entry)
    return ledger, made


def answer_game(file: Path, seats: Sequence[str]) -> list[dict[str, Any]]:
    """In the game ``file`` holds, what each of ``seats`` is asked that needs no choice, done and
    written (``answered``), again while one seat's answer asks another of them for more (a seat
    of this home after another's move, in a game played at one home): the entries made."""
    from pbem.engine import play as play_mod

    made: list[dict[str, Any]] = []
    for _ in range(ANSWERS):
        _, ledger = read_game(file)
        asked = [seat for seat in seats if play_mod.answer_needed(ledger, seat) is not None]
        if ledger.table is None or not asked:
            break
        before = len(made)
        for seat in asked:
            with editing(file):
                loaded, ledger = read_game(file, writing=True, seat=seat)
                ledger, entries = answered(ledger, seat, signing_key(ledger, seat, None))
                if entries:
                    write_entries(loaded, entries, ledger)
                    made += entries
        if len(made) == before:
            break
    return made


@dataclass(frozen=True)
class Asked:
    """What a command that signs one entry was asked: the file, the seat, whether to mail the
    entry (--send), and the command's own argument where it takes one."""

    file: Path
    seat: str
    send: bool
    value: str | None = None


def entry_command(
    doc: str,
    check: str,
    make: str,
    said: Callable[[Asked, Ledger, dict[str, Any]], object],
    argument: tuple[str, Any] | None = None,
) -> Callable[..., None]:
    """A command by which a seat signs one entry that asks nothing but the seat and, where it takes
    one, the command's own ``argument`` (its name and its ``typer.Argument``): FILE [ARGUMENT]
    --as --key --send, in that order on every such command. ``check``, which refuses before a key
    is opened, and ``make`` are engine functions named ``module:name``, imported only when the
    command runs (--help loads no engine); each takes the ledger, the seat and the argument
    (``make`` then the secret keys and the time). ``said`` says what the entry did."""

    def command(file: Path, seat: str, key: str | None, send: bool, **own: str) -> None:
        from pbem.engine.declaration import imported

        values = tuple(own.values())
        asked = Asked(file, seat, send, *values)
        append_command(
            file,
            seat,
            key,
            lambda ledger: imported(check)()(ledger, seat, *values),
            lambda ledger, secret, at: imported(make)()(ledger, seat, *values, secret, at),
            lambda current, entry: said(asked, current, entry),
            send=send,
        )

    def parameter(name: str, default: Any, annotation: Any) -> Parameter:
        return Parameter(name, Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=annotation)

    # Typer reads a command's parameters from its signature: the one argument takes its own name.
    command.__signature__ = Signature(  # type: ignore[attr-defined]
        [
            parameter("file", FILE, Path),
            *([] if argument is None else [parameter(*argument, str)]),
            parameter("seat", SEAT, str),
            parameter("key", KEY, str | None),
            parameter("send", SEND, bool),
        ]
    )
    command.__doc__ = doc
    return command


def send_advice(ledger: Ledger, seat: str, send_to: Sequence[str], *, sent: bool) -> str:
    """What to do with the file once ``seat`` has written its entry, in the way the game travels:
    nothing when ``--send`` mails it now (the send says where it went); to whom to send it, never
    the seats this home plays itself; or, in a game played by mail, the command that mails it."""
    if sent:
        return ""
    others = [other for other in send_to if other != seat and other not in own_seats(ledger)]
    if not others:
        return ""
    if ledger.addresses:
        return f"mail it to {', '.join(others)}: pbem mail send {ledger.game_id[:8]} --as {seat}"
    return f"send the file to {', '.join(others)}"
