"""Mailing a game's entries: the message a seat sends after its move (``compose``), sent through
the mail account set up or written to a file (``deliver``), and ``send_after`` for ``--send``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.cli.common import fail, info, now, warn
from pbem.cli.reading import read_game
from pbem.errors import MailTransportError

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.engine.ledger import Ledger
    from pbem.gamefile import LoadedFile
    from pbem.mail.account import Account


# Outcome lines sit under the move in a message body, past its seq and seat columns.
BODY_OUTCOME_INDENT = " " * 21


def mail_account() -> Account | None:
    """The mail account ``pbem mail setup`` saved, or None if there is none."""
    from pbem.keys import default_home
    from pbem.mail import account

    return account.load(default_home())


@dataclass(frozen=True)
class Composed:
    message: EmailMessage
    to: list[str]  # seats the message is mailed to
    entries: int
    addresses: dict[str, str] = field(default_factory=dict)  # each seat of ``to``: its address


@dataclass(frozen=True)
class Mailing:
    """What ``seat`` mails: one message, or two where a seat's copy holds nothing of the game yet
    (the whole game to it, what they lack to the others); and the seats it cannot mail."""

    messages: list[Composed]
    unmailed: list[str]  # seats that gave no address


def compose(
    loaded: LoadedFile,
    ledger: Ledger,
    seat: str,
    *,
    full: bool,
    sender: str,
    to: tuple[str, ...] = (),
    picture: bool = True,
    split: bool = True,
    routed: Sequence[str] | None = None,
    also: Mapping[str, str] | None = None,
) -> Mailing:
    """The message ``seat`` sends after its move: to the seats that must act (the others copied),
    or only to the seats ``routed`` names (those that need it now, ``delivery.needing``),
    carrying the entries some of them lack (all of them with ``full``); or, with ``to``, to those
    addresses (an invitation to players not in the game yet), carrying the whole game. With
    ``split``, a seat whose copy holds nothing of the game (a new player a seat was handed on to)
    gets the whole game in a message of its own, so the others still get only what they lack.
    ``also``: the addresses of seats the game no longer names one for (a seat whose join, which
    gave it, was overtaken: it is told to join again)."""
    from pbem.cli.reading import own_seats
    from pbem.cli.reports import status_report
    from pbem.engine.seats import check_seat
    from pbem.errors import UsageError
    from pbem.keys import default_home
    from pbem.mail.delivery import strangers
    from pbem.mail.library import Library

    check_seat(seat, ledger.participants)  # a referee mails its entries as a seat does
    # the commands a message gives are typed where it is read: by a player who fetched it by mail,
    # with the game's id, which finds the reader's own copy
    report = status_report(ledger, now(), ledger.game_id[:8], mail=True, account=True)
    # a seat handed on from this home is its new player's now, mailed as any other seat
    away = seat in ledger.handovers and seat not in own_seats(ledger)
    asked = [other for other in report["send_to"] if other != seat or away]
    others = [other for other in ledger.participants if (other != seat or away) and other not in asked]
    if routed is not None:
        asked, others = list(routed), []
    recipients = asked + others
    if not recipients:
        raise UsageError("the game has no other seat to send to")
    kept = Library(default_home()).games().get(ledger.game_id)
    known = kept.known if kept else {}
    book = {**(also or {}), **ledger.addresses}
    mailed = [other for other in recipients if other in book]
    if to:
        mailed = [other for other in recipients if book.get(other) in to]
    groups = [mailed]
    if split and not full and not to:
        new = strangers(ledger, mailed, known)
        if new and len(new) < len(mailed):
            groups = [new, [other for other in mailed if other not in new]]
    found = _Found(
        loaded, ledger, seat, report, asked, recipients, known, sender, kept.root if kept else "", book
    )
    messages = [found.message(group, full=full, to=to, picture=picture) for group in groups]
    return Mailing(messages, [other for other in recipients if other not in mailed])


@dataclass(frozen=True)
class _Found:
    """What every message ``seat`` sends now is made from: the game, where it stands, who is
    asked to act, what each seat is known to hold, and the game's thread."""

    loaded: LoadedFile
    ledger: Ledger
    seat: str
    report: dict[str, Any]
    asked: list[str]
    recipients: list[str]
    known: dict[str, list[str]]
    sender: str
    root: str
    book: dict[str, str]  # each seat's address

    def message(self, group: list[str], *, full: bool, to: tuple[str, ...], picture: bool) -> Composed:
        """The message to the seats of ``group`` (or, with ``to``, to those addresses)."""
        from email.utils import make_msgid

        from pbem.mail.delivery import delta_text, lacked
        from pbem.mail.message import Outgoing, build, inline

        ledger = self.ledger
        # what the seats it goes to lack (a seat that is not mailed gets nothing from this message)
        positions = (
            []
            if full or to
            else lacked(ledger, group or self.recipients, self.known) or list(ledger.steps[-1])
        )
        start = min((ledger.entries[position]["seq"] for position in positions), default=0)
        if start == 0:
            positions = [position for step in ledger.steps for position in step]
        carried = self.loaded.text if start == 0 else delta_text(ledger, start, positions, sender=self.seat)
        readers = (
            group if not to else [item["seat"] for item in self.report["waiting"] if item["kind"] == "join"]
        )
        body = self.body(positions, start, readers, inline(carried) is not None)
        name = f"{ledger.info.name}-{ledger.game_id[:8]}"
        if start != 0:  # named for the steps it spans: saved beside the game, it never replaces it
            last = max(ledger.entries[position]["seq"] for position in positions)
            name += f"-delta-{start:04d}-{last:04d}"
        outgoing = Outgoing(
            sender=self.sender,
            recipients=to or tuple(self.book[other] for other in group),
            subject=self.subject(),
            body="\n".join(_wrapped(line) for line in body),
            entries=carried,
            game_id=ledger.game_id,
            filename=f"{name}.toml",
            picture=_picture(ledger) if picture else None,
            date=_date(now()),
            message_id=make_msgid(domain=self.sender.rpartition("@")[2] or "pbem.invalid"),
            root=self.root,
        )
        message = build(outgoing)
        if to:
            return Composed(message, list(to), len(positions))
        mailed_asked = [other for other in self.asked if other in group]
        copied = [other for other in group if other not in mailed_asked]
        if mailed_asked and copied:
            message.replace_header("To", ", ".join(self.book[other] for other in mailed_asked))
            message["Cc"] = ", ".join(self.book[other] for other in copied)
        return Composed(message, group, len(positions), {other: self.book[other] for other in group})

    @cached_property
    def outcomes(self) -> list[list[str]]:
        """What came of each entry (a replay of the game: once, however many messages)."""
        from pbem.cli.reports import entry_outcomes

        return entry_outcomes(self.ledger, self.loaded.data)

    def subject(self) -> str:
        from pbem.cli.reports import log_line
        from pbem.engine import table as tables

        ledger = self.ledger
        last = ledger.entries[-1]
        happened = f"{last['by']}: {log_line(ledger, last)}"
        summary = (
            tables.waiting_summary(ledger.rules, ledger.table)
            if ledger.table is not None and ledger.rules is not None
            else "waiting for " + ", ".join(ledger.waiting_to_join) + " to join"
            if ledger.waiting_to_join
            else f"waiting for the referee {ledger.referee_waiting} to accept"
        )
        return f"[pbem] {ledger.info.title} {ledger.game_id[:8]}: {cut(happened, 60)}; {cut(summary, 60)}"

    def body(self, positions: list[int], start: int, readers: list[str], armored: bool) -> list[str]:
        """What the message says, in the players' words: what happened, where the game stands (as
        status says it, a seat's shares in one line), then to each reader whose move it is, what
        to do and the command to type."""
        from pbem.cli.columns import pad
        from pbem.cli.reports import grouped, log_line, to_do

        ledger, report = self.ledger, self.report
        lines = [f"{ledger.info.title} ({ledger.edition}), game {ledger.game_id}", ""]
        if start == 0:
            lines.append(f"The whole game, {ledger.size()}, so far:")
        else:
            lines.append(f"What happened since step {start}:")
        if len(positions) > 40:
            lines.append(f"  ({len(positions) - 40} entries before these)")
        said = self.outcomes
        for position in positions[-40:]:
            entry = ledger.entries[position]
            lines.append(f"  {entry['seq']:>4}  {pad(entry['by'], 12)} {log_line(ledger, entry)}")
            lines += [BODY_OUTCOME_INDENT + line for line in said[position]]
        waiting = grouped(report["waiting"])
        lines += ["", f"Where the game stands: {report['phase']}."]
        for wanted in waiting:
            due = wanted.get("deadline")
            late = ", OVERDUE" if wanted.get("overdue") else ""
            lines.append(
                f"  {wanted['seat']}: {wanted['prompt']}" + (f" (deadline {due}{late})" if due else "")
            )
        for wanted in to_do(waiting, readers):
            lines += ["", f"{wanted['seat']}, your move: {wanted['prompt']}", f"  {wanted['command']}"]
            if wanted["note"]:
                lines.append(f"  ({wanted['note']})")
        # a timeout that may be claimed now: the command for each reader who may claim it
        overdue = dict.fromkeys(wanted["seat"] for wanted in waiting if wanted.get("overdue"))
        for reader in readers:
            for seat in overdue:
                if seat != reader and reader in ledger.seats:
                    lines += [
                        "",
                        f"{reader}: {seat} let its deadline pass, and a timeout may be claimed now:",
                        f"  pbem timeout {ledger.game_id[:8]} {seat} --as {reader} --send",
                    ]
        where = (
            "The entries are attached, and again below between marker lines"
            if armored
            else "The entries are in the attached file (too long to repeat here: save it and run pbem"
            " mail import on it if your mail program cannot save the message)"
        )
        lines += [
            "",
            "To take these moves into your copy: pbem mail fetch (or save this message and run pbem mail"
            f" import on it). {where}; pbem verifies them with the whole game before it writes anything.",
        ]
        return lines


def _date(moment: str) -> str:
    """An RFC 3339 time (pbem's clock) as a Date header says it."""
    from datetime import UTC, datetime
    from email.utils import format_datetime

    try:
        when = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    except ValueError:  # a PBEM_NOW that is not a time: the real one
        when = datetime.now(UTC)
    return format_datetime(when if when.tzinfo else when.replace(tzinfo=UTC))


def _picture(ledger: Ledger) -> bytes | None:
    """A PNG of the table as every player may see it (never one seat's secrets, since several
    read the message), or None where pbem draws no picture of the game or cannot render PNG: the
    words and the entries are the message, the picture only a help to read it."""
    from pbem.errors import UsageError

    if ledger.info.picture is None or ledger.table is None or ledger.rules is None:
        return None
    try:
        import resvg_py  # noqa: F401  (only to know whether PNG can be made)
    except ImportError:
        return None
    from pbem.render.picture import game_svg
    from pbem.render.picture.png import png

    try:
        view = ledger.rules.view(ledger.table.state, None)
        return png(game_svg(ledger.info.name, ledger.info.title, view, None), zoom=1)
    except UsageError:
        return None


def _wrapped(line: str, width: int = 76) -> str:
    """A body line wrapped at spaces, continued under its text: mail is read in narrow windows."""
    import textwrap

    indent = " " * (len(line) - len(line.lstrip()))
    if len(line) <= width:
        return line
    # an entry's line goes on under its text, past the seq and seat; a paragraph under itself
    lead = BODY_OUTCOME_INDENT + "  " if line.lstrip()[:1].isdigit() else indent + ("  " if indent else "")
    return "\n".join(
        textwrap.wrap(line, width, subsequent_indent=lead, break_long_words=False, break_on_hyphens=False)
    )


_OPEN, _CLOSE = "([{", ")]}"


def cut(text: str, limit: int) -> str:
    """``text``, or as much of it as fits in ``limit`` characters with ``…``, cut where a word
    ends: never inside a word, a token such as ``building:1``, or brackets (a cut there goes
    before the bracket opens). A first word longer than ``limit`` is kept whole."""
    if len(text) <= limit:
        return text
    depth, ends = 0, []
    for index, char in enumerate(text):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(0, depth - 1)
        elif char == " " and depth == 0:
            ends.append(index)
    fits = [end for end in ends if len(text[:end].rstrip(" ,;:")) < limit]
    end = fits[-1] if fits else (ends[0] if ends else len(text))
    head = text[:end].rstrip(" ,;:")
    return head + "…" if end < len(text) else head


def deliver(composed: Composed, *, to_file: Path | None, stdout: bool) -> str:
    """Send the message (or write it), and say where it went."""
    from pbem.errors import UsageError

    raw = composed.message.as_bytes()
    size = f"{composed.entries} entr{'y' if composed.entries == 1 else 'ies'}, {len(raw) // 1024 + 1} KiB"
    if stdout:
        sys.stdout.buffer.write(raw)
        sys.stdout.flush()
        return f"wrote the message to stdout ({size})"
    if to_file is not None:
        from pbem import gamefile

        gamefile.write_new(to_file, raw.decode("utf-8"))
        return f"wrote the message to {to_file} ({size}); send it with your own mail program"
    if not composed.to:
        raise UsageError(
            "no seat to send to has an address in the game (pbem join --email, pbem mail address): "
            "write the message with --to-file OUT.eml and send it yourself"
        )
    account = mail_account()
    if account is None or account.smtp is None:
        raise UsageError("no mail account is set up: pbem mail setup (or --to-file OUT.eml, or --stdout)")
    from pbem.mail.transport import send as smtp_send

    recipients = [
        address.strip()
        for header in ("To", "Cc")
        for address in str(composed.message.get(header, "")).split(",")
        if address.strip()
    ]
    try:
        smtp_send(account.smtp, composed.message, recipients)
    except MailTransportError as exc:
        refused = [seat for seat in composed.to if composed.addresses.get(seat, "\0") in str(exc)]
        if not refused or len(refused) == len(composed.to):
            raise
        got = [seat for seat in composed.to if seat not in refused]
        names = ", ".join(f"{seat} ({composed.addresses[seat]})" for seat in refused)
        raise PartlySent(
            f"sent to {', '.join(got)} ({size}); the mail server refused {names}, who did not get it: "
            "send it again when the address works, or write it with --to-file OUT.eml",
            got,
        ) from None
    return f"sent to {', '.join(composed.to)} ({size})"


class PartlySent(MailTransportError):
    """The message reached some of the seats it was mailed to (``got``), the server refused the
    others: said in one line, as what happened, exit 7 as any refusal."""

    def __init__(self, line: str, got: list[str]) -> None:
        super().__init__(line)
        self.got = got


def send_file(
    file: Path,
    seat: str,
    *,
    full: bool,
    to_file: Path | None,
    stdout: bool,
    to: tuple[str, ...] = (),
    picture: bool | None = None,
    routed: bool = False,
    overtaken: Mapping[str, str] | None = None,
    say: Callable[[str], None] = info,
) -> bool:
    """Mail the game's latest entries from ``seat``; ``routed``: only to the seats that need them
    now (``delivery.needing``), as a command's ``--send`` and ``pbem mail fetch`` do;
    ``overtaken``: seats whose entries were overtaken, each with the address such an entry gave,
    if any. What happened is said with ``say``. Whether anything was sent."""
    from pbem.engine.ledger import check_email

    for address in to:
        check_email(address)
    from pbem.engine.seats import check_seat

    loaded, ledger = read_game(file)
    check_seat(seat, ledger.participants)  # a referee mails its entries as a seat does
    account = mail_account()
    sender = account.address if account is not None else ledger.addresses.get(seat, f"{seat}@invalid")
    if picture is None:  # as the account says: pictures cost each message about 100 KB
        picture = account is not None and account.pictures
    by_file = to_file is not None or stdout
    routes = None
    if routed and not to and not full:
        routes = needed_now(ledger, list(overtaken or {}))
        if not routes:
            return False
    # a message written for the player to send is one message, whoever it goes to
    mailing = compose(
        loaded,
        ledger,
        seat,
        full=full,
        sender=sender,
        to=to,
        picture=picture,
        split=not by_file,
        routed=routes,
        also={seat: address for seat, address in (overtaken or {}).items() if address},
    )
    joining = [seat for seat in mailing.unmailed if seat in ledger.waiting_to_join]
    silent = [seat for seat in mailing.unmailed if seat not in joining]
    if joining:
        say(
            f"{', '.join(joining)} {'has' if len(joining) == 1 else 'have'} not joined yet: the next "
            "message to them from a seat that has these entries carries them"
        )
    if silent:
        warn(
            f"{', '.join(silent)} gave no address in the game: send them the file, or the "
            "message written with --to-file"
        )
    from pbem.keys import default_home
    from pbem.mail.library import Library

    def remember(composed: Composed, got: list[str]) -> None:
        # the seats it was mailed to hold this copy once they apply it (a message written for
        # the player to send teaches nothing: it may never go)
        Library(default_home()).update(
            ledger.game_id,
            known={other: [ledger.head] for other in got},
            message_id=str(composed.message["Message-ID"]),
        )

    for composed in mailing.messages:
        try:
            said = deliver(composed, to_file=to_file, stdout=stdout)
        except PartlySent as exc:
            remember(composed, exc.got)
            raise
        say(said)
        remember(composed, [] if to or by_file else composed.to)
    return True


def needed_now(ledger: Ledger, overtaken: Sequence[str] = ()) -> list[str]:
    """The seats that need this home's copy now (``delivery.needing``), from what the library
    knows each holds."""
    from pbem.cli.reading import own_seats
    from pbem.keys import default_home
    from pbem.mail.delivery import needing
    from pbem.mail.library import Library

    kept = Library(default_home()).games().get(ledger.game_id)
    return needing(ledger, own_seats(ledger, joining=True), kept.holds() if kept else {}, overtaken)


def send_after(file: Path, seat: str) -> None:
    """Mail an entry just written to the seats that need it now; if that fails the entry stays in
    the file, to send again."""
    from pbem.errors import PbemError

    try:
        if not send_file(file, seat, full=False, to_file=None, stdout=False, routed=True):
            info(
                "nobody needs this entry yet: it goes with your next message "
                f"(pbem mail send {file} --as {seat} sends it now)"
            )
    except PartlySent as exc:  # it went, to some: said as what happened
        raise fail(f"the move is in {file}; {exc}", exc.exit_code) from None
    except PbemError as exc:
        raise fail(
            f"the move is in {file} but was not sent: {exc}; send it with pbem mail send {file} --as {seat}",
            exc.exit_code,
        ) from None
