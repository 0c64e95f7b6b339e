"""Headers crafted to break the standard library's mail parser: on some values (a From of
``<a@b>, <``, an encoded word cut short, a parameter in the charset punycode) it raises IndexError,
UnicodeError and others. pbem reads every header through a guard: a message it cannot read is one
``skipped:`` line, never a traceback; the others beside it are applied; and fetch remembers it, so
the next fetch neither downloads it again nor says it again.

The fuzzing is deterministic: hypothesis runs derandomized (tests/conftest.py), and the corpus the
command-line tests use is drawn from a seeded generator."""

from __future__ import annotations

import functools
import imaplib
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import MailContentError, MailUnreadableError
from pbem.mail.message import Carried, Outgoing, build
from pbem.mail.message import read as read_all
from tests.conftest import Cli
from tests.mail_servers import MailServers
from tests.test_mail_message import read

# a game start kept as it was when the corpus was made: the corpus is drawn from its bytes
GAME = (Path(__file__).parent / "fixtures" / "three-players-e1d3ec57.toml").read_text(encoding="utf-8")
GAME_ID = "e1d3ec578f6814a011748c079147cfcb"
BOUNDARY = "pbem-test-boundary"

# What the parser trips on: address punctuation at the ends of a list, encoded words cut short or
# in charsets that are no charset, RFC 2231 parameters, folding, bytes that are not ASCII.
PIECES = [
    *(bytes([char]) for char in b'<>,"\\();:=@[]\' \t%*?'),
    b"a@b", b"<a@b>", b"a", b"<", b", <", b"text/plain", b"multipart/mixed", b"application/toml",
    b"message/rfc822", b"base64", b"quoted-printable", b"x-uuencode", b"charset=", b"boundary=",
    b"name=", b"filename=", b"filename*=", b"filename*0*=", b"filename*1=", b"charset*=", b"utf-8''",
    b"punycode''", b"idna''", b"us-ascii'en'", b"%E2%82", b"%ZZ", b"x.toml", b"=?", b"?=", b"?q?",
    b"?b?", b"=?utf-8?q?", b"=?utf-8?b?", b"=?iso-2022-jp?b?GyRC?=", b"=?iso-2022-jp?b?",
    b"=?unknown-8bit?q?a?=", b"=?punycode?q?abc?=", b"=?utf-8*en?q?a?=", b"=?x?b?!!?=",
    b"=?utf-8?q?=E2=82?=", b"\r\n ", b"\r\n\t", b"\x80", b"\xff", "é".encode(), "李".encode(),
    b"\x00", b"\x1b$B", b"; a*", b"; ", b"''",
]  # fmt: skip
PARAMETERS = [
    b"a*", b"\x80*", b"charset*=punycode''abc", b"filename*=idna''%ff", b"name*=\x00utf-8''x",
    b"filename*0*=utf-8''%E2%82", b"filename*1=x", b'name="\\', b"charset==?iso-2022-jp?b?GyRC?=",
    b"boundary=", b"x", b"=", b"",
]  # fmt: skip
NAMES = [
    "From", "To", "Cc", "Reply-To", "Subject", "Message-ID", "X-Pbem-Game", "MIME-Version", "Date",
    "Content-Type", "Content-Disposition", "Content-Transfer-Encoding",
]  # fmt: skip
HINTS = ["From", "To", "Subject", "Message-ID", "X-Pbem-Game", "Date"]  # headers pbem only guesses from


# What read is fuzzed with: a few entries, which read parses in no time (the example game takes
# most of the time read takes); the command line is given the whole example.
FEW = f'[delta]\ngame = "{GAME_ID}"\nfrom_step = 5\n\n[[entry]]\nseq = 5\nby = "chiara"\n'


SUBJECT = "[pbem] Princes of the Renaissance e1d3ec57: the setup draw"


def pbem_message(entries: str = GAME) -> bytes:
    """A message pbem makes, carrying the three-player example (or ``entries``), with a boundary
    that is the same on every run."""
    message = build(
        Outgoing(
            sender="alice@example.org",
            recipients=("bruno@example.org",),
            subject=SUBJECT,
            body="bruno: your turn.",
            entries=entries,
            game_id=GAME_ID,
            filename="princes-e1d3ec57.toml",
        )
    )
    message.set_boundary(BOUNDARY)
    return message.as_bytes()


def plain_message() -> bytes:
    message = EmailMessage()
    message["From"] = "friend@example.org"
    message["Subject"] = "lunch?"
    message.set_content("Shall we?\n")
    return message.as_bytes()


BASE = pbem_message()
SMALL = pbem_message(FEW)
PLAIN = plain_message()


def with_header(raw: bytes, name: str, value: bytes, *, where: str = "top", times: int = 1) -> bytes:
    """``raw`` with a header ``name: value`` first in the headers of the message (``top``), of its
    text part (``text``) or of its attached file (``attached``), ``times`` over."""
    lines = f"{name}: ".encode() + value + b"\n"
    if where == "top":
        return lines * times + raw
    marker = b"Content-Type: text/plain" if where == "text" else b"Content-Type: application/toml"
    start = raw.index(marker)
    return raw[:start] + lines * times + raw[start:]


def folded_only(value: bytes) -> bytes:
    """``value`` with every line break a folding one (followed by a space), so the header stays
    one header and the headers after it stay headers."""
    return re.sub(rb"[\r\n]+(?![ \t])", b" ", value)


values = st.lists(st.sampled_from(PIECES) | st.binary(max_size=6), max_size=16).map(b"".join)


def read_safely(raw: bytes) -> Carried | MailContentError | None:
    """What read makes of ``raw``: the (first) entries, None, or the refusal; any other exception
    fails."""
    try:
        found = read_all(raw)
    except MailContentError as exc:
        found = [exc]
    for item in found:
        assert not isinstance(item, MailContentError) or (str(item) and "\n" not in str(item))
    return found[0] if found else None


# --- values of From the parser fails on ------------------------------------------------------------
@pytest.mark.parametrize("sender", ["<a@b>, <", "=?iso-2022-jp?b?GyRC?=", '"\\', "<", ","])
def test_a_from_the_parser_fails_on_does_not_stop_a_message(sender: str) -> None:
    """From is only ever a guess of who sent the message (the entries are what count): pbem reads
    it as it arrived, never through the parser, so the entries are read all the same."""
    raw = with_header(BASE.replace(b"From: alice@example.org\n", b""), "From", sender.encode())
    carried = read(raw)
    assert carried is not None and carried.entries == GAME
    assert carried.sender == sender


@pytest.mark.parametrize(
    ("header", "where", "named"),
    [
        (b"Content-Type: text/plain; charset*=punycode''abc", "top", "the Content-Type header of"),
        (b"Content-Type: text/plain; charset*=punycode''abc", "text", "the Content-Type header of"),
        (b"Content-Type: text/plain; a*", "text", "the Content-Type header of part 2 (IndexError)"),
        (b"Content-Disposition: attachment; a*", "attached", "Content-Disposition header of part 3"),
        (b"Content-Disposition: attachment; filename*=idna''%ff", "attached", "of part 3 (UnicodeError)"),
        (b"Content-Type: text/plain; charset*=\0utf-8''x", "text", "of part 2 (ValueError)"),
        (b"Content-Type: text/plain; charset=" + b"x" * 5000, "text", "of part 2 (5020 characters long)"),
    ],
)
def test_a_part_the_parser_cannot_read_makes_the_message_unreadable(
    header: bytes, where: str, named: str
) -> None:
    """A header pbem must have parsed to find the entries (a part's type, its name, its
    encoding): if the parser fails on it, the message is unreadable, said in one line that names
    the header."""
    name, _, value = header.partition(b": ")
    with pytest.raises(MailUnreadableError, match=re.escape(named)) as refused:
        read(with_header(BASE, name.decode(), value, where=where))
    assert "the mail parser cannot read" in str(refused.value)


# --- fuzzing read ----------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    value=values,
    where=st.sampled_from(["top", "text", "attached"]),
    times=st.integers(1, 3),
    plain=st.booleans(),
)
def test_no_header_makes_read_raise_anything_but_a_refusal(
    name: str, value: bytes, where: str, times: int, plain: bool
) -> None:
    raw = with_header(PLAIN if plain else SMALL, name, value, where="top" if plain else where, times=times)
    outcome = read_safely(raw)
    if plain:
        assert not isinstance(outcome, Carried)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(HINTS), value=values, times=st.integers(1, 3))
def test_a_header_pbem_only_guesses_from_never_keeps_the_entries_from_being_read(
    name: str, value: bytes, times: int
) -> None:
    outcome = read_safely(with_header(SMALL, name, folded_only(value), times=times))
    assert isinstance(outcome, Carried) and outcome.entries == FEW


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    piece=st.sampled_from(PIECES),
    length=st.integers(1, 20_000),
    fold=st.sampled_from([b"", b"\r\n ", b"\n\t"]),
)
def test_long_folded_headers_are_read_or_refused_quickly(
    name: str, piece: bytes, length: int, fold: bytes
) -> None:
    value = (piece + fold) * (length // max(len(piece), 1))
    read_safely(with_header(SMALL, name, value[:40_000], where="top" if name in HINTS else "text"))


@pytest.mark.parametrize(
    "content_type",
    [
        b'multipart/mixed; boundary=""',
        b"multipart/mixed; boundary=",
        b'multipart/mixed; boundary="' + BOUNDARY.encode() + b'"; boundary="other"',
        b"multipart/mixed; boundary*=punycode''" + BOUNDARY.encode(),
        b'multipart/mixed; boundary="=?iso-2022-jp?b?GyRC?="',
        b"multipart/; boundary=" + BOUNDARY.encode(),
        b"/; charset",
        b";;;;",
        b'text/plain; charset="\\',
        b"message/rfc822",
        b'message/partial; id="\\"; number=1; total=2',
    ],
)
def test_a_message_whose_content_type_is_odd_is_read_or_refused(content_type: bytes) -> None:
    raw = SMALL.replace(
        f'Content-Type: multipart/mixed; boundary="{BOUNDARY}"'.encode(), b"Content-Type: " + content_type
    )
    read_safely(raw)


# --- a corpus, the same on every run, for the command line -----------------------------------------
@functools.cache
def corpus(count: int, seed: int = 2026) -> tuple[bytes, ...]:
    """``count`` hostile messages: a header from PIECES on a message pbem made (at the top, on its
    text part or on its attached file) or on other mail, some repeated."""
    chance = random.Random(seed)
    found: list[bytes] = []
    while len(found) < count:
        value = b"".join(chance.choice(PIECES) for _ in range(chance.randrange(1, 12)))
        name = chance.choice(NAMES)
        times = chance.randrange(1, 3)
        if chance.random() < 0.25:
            found.append(with_header(PLAIN, name, value, times=times))
            continue
        where = chance.choice(["top", "text", "attached"])
        if chance.random() < 0.4:  # parameters, where the parser fails most
            name = chance.choice(["Content-Type", "Content-Disposition"])
            value = (b"text/plain; " if name == "Content-Type" else b"attachment; ") + b"; ".join(
                chance.choice(PARAMETERS) for _ in range(chance.randrange(1, 4))
            )
        found.append(with_header(BASE, name, value, where=where, times=times))
    return tuple(found)


@functools.cache
def kind(raw: bytes) -> str:
    """What read makes of one message of the corpus: Carried, NoneType or the refusal's kind."""
    return type(read_safely(raw)).__name__


def test_the_corpus_holds_messages_of_every_kind() -> None:
    """So the command-line tests below see unreadable messages, refused ones and good ones."""
    kinds = {kind(raw) for raw in corpus(80)}
    assert {"Carried", "NoneType", "MailUnreadableError", "MailContentError"} <= kinds, kinds


def test_mail_import_of_a_mailbox_of_hostile_messages_applies_the_good_one(cli: Cli, tmp_path: Path) -> None:
    """An mbox of the corpus, with the message pbem made among them: one line each at most, the
    game applied, exit 3 for those skipped or refused, and never a traceback."""
    import mailbox

    messages = corpus(80)[:40]
    saved = mailbox.mbox(tmp_path / "saved.mbox")
    for raw in [*messages[:20], BASE, *messages[20:]]:
        saved.add(raw)
    saved.flush()
    result = cli("mail", "import", str(tmp_path / "saved.mbox"), home="b")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 3, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    numbers = [re.search(r"saved\.mbox#(\d+)", line) for line in lines]
    assert all(numbers), lines
    assert len({found[1] for found in numbers if found}) == len(lines), "one line per message at most"
    applied = [line for line in lines if "applied to Princes of the Renaissance" in line]
    assert len(applied) == 1 and "new game" in applied[0], lines
    skipped = [line for line in lines if line.strip().startswith("skipped: ")]
    assert skipped and all("the mail parser cannot read" in line for line in skipped), skipped
    assert all(
        line.strip().startswith("skipped: ") or ": refused, nothing changed: " in line
        or ": applied to " in line or ": already had: " in line
        for line in lines
    ), lines  # fmt: skip


def test_mail_import_of_a_file_the_parser_cannot_read_is_one_line(cli: Cli, tmp_path: Path) -> None:
    good = tmp_path / "good.eml"
    good.write_bytes(BASE)
    bad = tmp_path / "bad.eml"
    bad.write_bytes(with_header(BASE, "Content-Type", b"text/plain; charset*=punycode''abc"))
    result = cli("mail", "import", str(bad), str(good), home="b")
    assert result.exit_code == 3, result.stdout + result.stderr
    first, second = result.stdout.splitlines()
    assert first == (
        f'  skipped: {bad} (from alice@example.org, "{SUBJECT}"): the mail parser cannot read the '
        "Content-Type header of the message (UnicodeError)"
    )
    assert second.startswith(f"  {good}: applied to Princes of the Renaissance e1d3ec57 (new game")
    assert not result.stderr


# --- fetch over IMAP -------------------------------------------------------------------------------
def set_up(cli: Cli, servers: MailServers, seat: str) -> None:
    servers.add_user(seat, f"pw-{seat}")
    result = cli(
        "mail", "setup", "--address", servers.address(seat),
        "--imap", f"127.0.0.1:{servers.imap_port}", "--imap-security", "starttls",
        "--password-env", "MAILPW", "--ca-file", str(servers.ca_file),
        home=seat, env={"MAILPW": f"pw-{seat}"},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr


@contextmanager
def imap_commands() -> Iterator[list[tuple[Any, ...]]]:
    """Every UID command the client sends while inside (the command line runs in this process)."""
    sent: list[tuple[Any, ...]] = []
    original: Callable[..., Any] = imaplib.IMAP4.uid

    def uid(self: imaplib.IMAP4, command: str, *args: str) -> Any:
        sent.append((command.upper(), *args))
        return original(self, command, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(imaplib.IMAP4, "uid", uid)
        yield sent


def served(raw: bytes) -> bool:
    """Whether the test's IMAP server (pymap) can serve ``raw``: it reads each message with the
    same parser, and drops the connection on some of these (a server that keeps the bytes as
    they came, as most do, serves them all)."""
    from pymap.mime import MessageContent

    try:
        MessageContent.parse(re.sub(rb"\r?\n", b"\r\n", raw))
    except Exception:
        return False
    return True


def downloads(sent: list[tuple[Any, ...]]) -> list[str]:
    return [str(args[1]) for args in sent if args[0] == "FETCH" and "BODY.PEEK[]" in str(args[2])]


def test_fetch_applies_the_invitation_beside_a_hostile_message_and_remembers_it(
    cli: Cli, mail_servers: MailServers
) -> None:
    """The invitation between a message the parser cannot read and other mail whose From it fails
    on: the invitation is applied, the first is one line, the other mail says nothing (its headers
    say it is not pbem's: it is not downloaded). The next
    fetch downloads neither again and says nothing of them; both stay unread, for the player."""
    set_up(cli, mail_servers, "b")
    box = mail_servers.maildir("b")
    hostile = with_header(
        BASE.replace(b"From: alice@example.org\n", b""),
        "From",
        b"=?iso-2022-jp?b?GyRC?=",
    )
    hostile = with_header(hostile, "Content-Type", b"text/plain; a*", where="text")
    chatter = with_header(PLAIN.replace(b"From: friend@example.org\n", b""), "From", b"<a@b>, <")
    for raw in (hostile, BASE, chatter):
        box.add(raw)
    env = {"MAILPW": "pw-b"}
    with imap_commands() as sent:
        first = cli("mail", "fetch", home="b", env=env)
    assert first.exception is None or isinstance(first.exception, SystemExit), first.exception
    assert first.exit_code == 3, first.stdout + first.stderr
    lines = [line for line in first.stdout.splitlines() if line.startswith("  ")]
    assert lines[0] == (
        f'  skipped: message 1 (from =?iso-2022-jp?b?GyRC?=, "{SUBJECT}"): the mail parser cannot read '
        "the Content-Type header of part 2 (IndexError)"
    ), lines
    assert lines[1].startswith("  message 2: applied to Princes of the Renaissance e1d3ec57 (new game")
    assert not any("message 3" in line for line in first.stdout.splitlines())
    assert sorted(downloads(sent)) == ["1", "2"], "other mail is never downloaded"
    (seen,) = [message for message in mail_servers.maildir("b") if "S" in message.get_flags()]
    assert seen["From"] == "alice@example.org", "the invitation is marked seen, the others not"
    import tomllib

    from pbem.mail.library import PassedOver

    (remembered,) = tomllib.loads(PassedOver(cli.homes["b"]).path.read_text())["folder"].values()
    assert remembered["validity"] and remembered["uids"] == ["1", "3"]

    with imap_commands() as sent:
        again = cli("mail", "fetch", home="b", env=env)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "no new pbem messages" in again.stderr
    assert "message 1" not in again.stdout and "message 3" not in again.stdout
    assert downloads(sent) == [], "nothing passed over is downloaded again"
    assert sum("S" in message.get_flags() for message in mail_servers.maildir("b")) == 1, "both stay unread"


def test_fetch_over_a_folder_of_hostile_messages_never_stops(cli: Cli, mail_servers: MailServers) -> None:
    """A part of the corpus on the server, the message pbem made among them: the game is applied,
    every message the parser cannot read is one line, and a second fetch reads none of them."""
    set_up(cli, mail_servers, "b")
    box = mail_servers.maildir("b")
    messages = [raw for raw in corpus(80) if served(raw)]
    chosen = [*[raw for raw in messages if kind(raw) == "MailUnreadableError"][:3], *messages[:5]]
    assert len(chosen) == 8
    for raw in [*chosen[:4], BASE, *chosen[4:]]:
        box.add(raw)
    env = {"MAILPW": "pw-b"}
    first = cli("mail", "fetch", home="b", env=env)
    assert first.exception is None or isinstance(first.exception, SystemExit), first.exception
    assert first.exit_code == 3, first.stdout + first.stderr
    assert "applied to Princes of the Renaissance e1d3ec57 (new game" in first.stdout
    assert sum(line.startswith("  skipped: message ") for line in first.stdout.splitlines()) >= 3
    with imap_commands() as sent:
        again = cli("mail", "fetch", home="b", env=env)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert downloads(sent) == []
