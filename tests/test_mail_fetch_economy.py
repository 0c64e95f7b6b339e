"""pbem mail fetch downloads only what it must: each unseen message's size and headers first, then
the bodies of pbem's messages alone; other mail is never downloaded, nor a message refused at an
earlier fetch (remembered by its Message-ID), which later fetches count instead of refusing again.
What the client reads from the server is counted, byte by byte."""

from __future__ import annotations

import imaplib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pbem.mail.armor import BEGIN
from tests.conftest import Cli
from tests.mail_servers import MailServers
from tests.test_mail_cli import Table
from tests.test_mail_cli import table as table  # noqa: PLC0414  (the fixture, by name)
from tests.test_mail_hostile_headers import BASE, downloads, imap_commands, set_up

MAILPW = {"MAILPW": "pw-b"}


@contextmanager
def received_bytes() -> Iterator[list[int]]:
    """The bytes the IMAP client reads from the server while inside, counted (one total)."""
    total = [0]
    patch = pytest.MonkeyPatch()
    for name in ("read", "readline"):
        original: Callable[..., Any] = getattr(imaplib.IMAP4, name)

        def counted(self: imaplib.IMAP4, *args: Any, _original: Callable[..., Any] = original) -> Any:
            data = _original(self, *args)
            total[0] += len(data)
            return data

        patch.setattr(imaplib.IMAP4, name, counted)
    try:
        yield total
    finally:
        patch.undo()


def holiday_pictures(size: int) -> bytes:
    return (
        b"From: friend@example.org\nSubject: holiday pictures\nMessage-ID: <holiday@example.org>\n"
        b"Content-Type: text/plain\n\n" + (b"x" * 76 + b"\n") * (size // 77)
    )


def test_other_mail_is_never_downloaded_and_a_second_fetch_downloads_nothing(
    cli: Cli, mail_servers: MailServers
) -> None:
    """Two large mails that are not pbem's beside an invitation (the 28 MB of a real folder, here
    2 MB each): only the invitation's body is downloaded, and the next fetch downloads no body."""
    set_up(cli, mail_servers, "b")
    box = mail_servers.maildir("b")
    box.add(holiday_pictures(2 * 2**20))
    box.add(BASE)
    box.add(holiday_pictures(2 * 2**20).replace(b"<holiday@", b"<more@"))
    with imap_commands() as sent, received_bytes() as read:
        first = cli("mail", "fetch", home="b", env=MAILPW)
    assert first.exit_code == 0, first.stdout + first.stderr
    assert "message 2: applied to Princes of the Renaissance" in first.stdout
    assert downloads(sent) == ["2"]
    assert read[0] < len(BASE) + 50_000, f"{read[0]} bytes read for a message of {len(BASE)}"
    with imap_commands() as sent, received_bytes() as read:
        again = cli("mail", "fetch", home="b", env=MAILPW)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert downloads(sent) == [] and read[0] < 5_000, read[0]
    assert [("S" in message.get_flags()) for message in mail_servers.maildir("b")].count(False) == 2


def cut_message() -> bytes:
    return (
        b"From: mallory@pbem.test\nSubject: [pbem] a move\nDate: Tue, 24 Nov 2026 08:44:00 +0000\n"
        b"Message-ID: <cut@pbem.test>\nContent-Type: text/plain\n\nmy move\n\n"
        + BEGIN.encode()
        + b"\neJzLSM3JyVcozy/KSQEAGgQEXQ==\n"
    )


def test_a_refused_message_is_reported_once_then_counted(cli: Cli, mail_servers: MailServers) -> None:
    set_up(cli, mail_servers, "b")
    mail_servers.maildir("b").add(cut_message())
    first = cli("mail", "fetch", home="b", env=MAILPW)
    assert first.exit_code == 3, first.stdout + first.stderr
    (line,) = [line for line in first.stdout.splitlines() if "refused" in line]
    assert line == (
        '  message 1 (of 2026-11-24 08:44, from mallory@pbem.test, "[pbem] a move"): refused, nothing '
        "changed: the armored entries are cut short: the message was truncated"
    )
    with imap_commands() as sent:
        again = cli("mail", "fetch", home="b", env=MAILPW)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "1 message refused earlier is skipped (still unread in the folder)" in again.stderr
    assert "cut short" not in again.stdout and downloads(sent) == []
    assert all("S" not in message.get_flags() for message in mail_servers.maildir("b")), "left unread"


def test_a_message_that_does_not_connect_waits_until_the_copy_changes(
    table: Table, mail_servers: MailServers
) -> None:
    """The note that follows a roll, fetched before the roll: refused once, then counted, not
    downloaded, while b's copy stays as it was; when the roll arrives, both apply in one fetch."""
    from pbem import gamefile
    from pbem.engine import ledger
    from pbem.mail.delivery import delta_text
    from pbem.mail.message import Outgoing, build

    cli = table.cli
    set_up(cli, mail_servers, "b")
    assert cli("play", str(table.copy("a")), "roll", "--as", "a", home="a").exit_code == 0
    roll = table.send("a", "roll").read_bytes()
    assert cli("note", str(table.copy("a")), "over to you", "--as", "a", home="a").exit_code == 0
    game = ledger.read(gamefile.load(table.copy("a")).data)
    note = build(
        Outgoing("a@pbem.test", ("b@pbem.test",), "[pbem] the note", "over to you", delta_text(game, 4),
                 game.game_id, "note.toml", message_id="<note@pbem.test>")
    ).as_bytes()  # fmt: skip
    box = mail_servers.maildir("b")
    box.add(note)
    first = cli("mail", "fetch", home="b", env=MAILPW)
    assert first.exit_code == 3 and "does not connect" in first.stdout, first.stdout + first.stderr
    with imap_commands() as sent:
        again = cli("mail", "fetch", home="b", env=MAILPW)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "1 message refused earlier is skipped" in again.stderr and downloads(sent) == []
    box.add(roll)
    last = cli("mail", "fetch", home="b", env=MAILPW)
    assert last.exit_code == 0, last.stdout + last.stderr
    applied = [line for line in last.stdout.splitlines() if ": applied to " in line]
    assert len(applied) == 2, last.stdout
    assert "refused earlier" not in last.stderr
    assert all("S" in message.get_flags() for message in mail_servers.maildir("b"))
    import tomllib

    assert tomllib.loads(table.copy("b").read_text())["game"]["head"] == game.head
