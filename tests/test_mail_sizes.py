"""What a message costs to read is bounded by what a game's message needs, not by the bytes a
sender chose: every size is checked before the work it would cost (the message's as the server
declares it, each part's once decoded, the armored entries' once inflated), the entries are
parsed once, and a message refused for what it is is not read again, in the same run or the
next fetch."""

from __future__ import annotations

import base64
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import MailContentError
from pbem.mail import message as message_mod
from pbem.mail.armor import BEGIN, END, LIMIT, WIDTH
from tests.conftest import Cli
from tests.mail_servers import MailServers
from tests.test_mail_hostile_headers import BASE, downloads, imap_commands, set_up
from tests.test_mail_message import read

MiB = 2**20


def armored(packed: bytes) -> str:
    text = base64.b64encode(packed).decode("ascii")
    return "\n".join([BEGIN, *(text[i : i + WIDTH] for i in range(0, len(text), WIDTH)), END]) + "\n"


def bomb(inflated: int) -> bytes:
    """Entries-like text of ``inflated`` bytes (a TOML table of many small values, what costs most
    to parse), compressed as pbem armors entries."""
    line = b"k0000000 = 12345\n"
    return zlib.compress(line * (inflated // len(line)), 1)


def with_body(body: str) -> bytes:
    return (
        b"From: mallory@example.org\nSubject: [pbem] a move\nMIME-Version: 1.0\n"
        b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 7bit\n\n'
    ) + body.encode("ascii")


def counting(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[Any]:
    """Calls of ``owner.name`` from now on, recorded (and made as before)."""
    calls: list[Any] = []
    original: Callable[..., Any] = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return calls


def test_armored_entries_that_inflate_past_any_game_are_refused_before_they_are_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A message of a few kilobytes that inflate to 32 MiB of values. It used to be
    inflated whole and parsed (minutes, hundreds of megabytes); it is refused once 8 MiB are out."""
    from pbem import gamefile

    raw = with_body("my move\n\n" + armored(bomb(32 * MiB)))
    assert len(raw) < MiB
    parsed = counting(monkeypatch, gamefile, "parse")
    tracemalloc.start()
    try:
        with pytest.raises(MailContentError, match=f"the armored entries unpack to more than {LIMIT} bytes"):
            read(raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parsed == []
    assert peak < 3 * LIMIT, f"{peak} bytes at the most"


@pytest.mark.parametrize(
    ("head", "encode"),
    [
        (b"Content-Type: application/toml\nContent-Transfer-Encoding: base64\n", base64.encodebytes),
        (b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n", lambda data: data),
        (b"Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n", lambda data: data),
    ],
    ids=["attached, base64", "text, quoted-printable", "text, 8bit"],
)
def test_a_part_larger_than_any_game_is_refused_before_it_is_decoded(
    head: bytes, encode: Callable[[bytes], bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its size once decoded is known from its encoded length: three bytes in four characters of
    base64, at most one in one otherwise. It is refused without decoding it."""
    from email.message import EmailMessage

    payload = (b"x" * 75 + b"\n") * ((LIMIT + MiB) // 76)
    raw = (
        b"From: mallory@example.org\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n'
        + head
        + b"\n"
        + encode(payload)
        + b"\n--b--\n"
    )
    decoded = counting(monkeypatch, EmailMessage, "get_payload")
    with pytest.raises(MailContentError, match=r"part 2 is \d+ bytes once decoded, more than a game's"):
        read(raw)
    assert not [call for call in decoded if call[1].get("decode")], "nothing was decoded"


def test_a_body_of_more_blocks_than_any_forward_is_refused_before_any_is_unpacked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Several blocks are read each on its own (pbem messages forwarded together), but no more
    than CARRIED_LIMIT: they are counted before the first is unpacked."""
    unpacked = counting(monkeypatch, message_mod, "unpack")
    blocks = [armored(bomb(2 * MiB + 17 * index)) for index in range(message_mod.CARRIED_LIMIT + 1)]
    raw = with_body("and again\n".join(blocks))
    with pytest.raises(MailContentError, match="the message carries 17 sets of entries, more than any"):
        message_mod.read(raw)
    assert unpacked == []


def test_the_entries_a_message_carries_are_parsed_once(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attached and armored, the same entries: parsed once to read the message, and not again to
    apply it (they were parsed three times, then once more)."""
    from pbem import gamefile

    parsed = counting(monkeypatch, gamefile, "parse")
    carried = read(BASE)
    assert carried is not None and len(parsed) == 1
    path = tmp_path / "invitation.eml"
    path.write_bytes(BASE)
    parsed.clear()
    result = cli("mail", "import", str(path), home="b")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "new game" in result.stdout
    assert len(parsed) == 1


def test_a_message_refused_for_what_it_is_is_not_read_again_in_the_same_run(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message that does not connect yet is tried again once others apply; one refused for what
    it is (cut, altered, too large) would say the same, and is not."""
    import mailbox

    reads = counting(monkeypatch, message_mod, "read")
    saved = mailbox.mbox(tmp_path / "saved.mbox")
    saved.add(with_body("my move\n\n" + armored(bomb(LIMIT + MiB))))
    saved.add(BASE)
    saved.flush()
    result = cli("mail", "import", str(tmp_path / "saved.mbox"), home="b")
    assert result.exit_code == 3, result.stdout + result.stderr
    first, second = result.stdout.splitlines()
    assert '#1 (from mallory@example.org, "[pbem] a move"): refused, nothing changed: the armored' in first
    assert "the armored entries unpack to more than" in first
    assert "#2: applied to" in second
    assert len(reads) == 2


def test_fetch_refuses_a_message_on_the_size_the_server_declares_without_downloading_it(
    cli: Cli, mail_servers: MailServers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server says how large each message is before pbem downloads any: one larger than a
    game's message ever is is one warning naming it, never downloaded, and not asked about again
    (it stays unread, for the player). The invitation beside it is applied."""
    monkeypatch.setattr(message_mod, "MESSAGE_LIMIT", 200_000)  # the test's stand-in for 32 MiB
    set_up(cli, mail_servers, "b")
    box = mail_servers.maildir("b")
    box.add(with_body("holiday pictures\n" + ("x" * 76 + "\n") * 4000))
    box.add(BASE)
    env = {"MAILPW": "pw-b"}
    with imap_commands() as sent:
        first = cli("mail", "fetch", home="b", env=env)
    assert first.exit_code == 0, first.stdout + first.stderr
    (warning,) = [line for line in first.stderr.splitlines() if line.startswith("warning:")]
    assert warning.startswith('warning: message from mallory@example.org, "[pbem] a move": the message has ')
    assert warning.endswith(
        "bytes, more than a game's message ever has (200000); it was not downloaded and stays unread"
    )
    lines = [line for line in first.stdout.splitlines() if line.startswith("  ")]
    assert "message 2: applied to Princes of the Renaissance" in lines[0]
    assert downloads(sent) == ["2"]
    with imap_commands() as sent:
        again = cli("mail", "fetch", home="b", env=env)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "message 1" not in again.stdout + again.stderr and downloads(sent) == []
    assert not any("RFC822.SIZE" in str(command) for command in sent), "nothing left to ask about"
    assert ["S" in message.get_flags() for message in mail_servers.maildir("b")].count(False) == 1


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (
            b"From: x@example.org\n"
            + b"".join(
                b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(2000)
            )
            + b"Content-Type: text/plain\n\nhi\n",
            "the message names a boundary 2000 times over 6004 lines, more than a game's message ever does",
        ),
        (
            b"Subject: " + b"a\r\n " * (2**20) + b"\r\n\r\nbody\r\n",
            "the message has 1048579 lines, more than a game's message ever has",
        ),
    ],
    ids=["parts nested 2000 deep", "a subject folded over a million lines"],
)
def test_a_message_that_would_cost_the_parser_more_than_a_game_is_refused_before_it_is_parsed(
    raw: bytes, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parser's cost grows with the lines, and with the lines times the boundaries open
    around them (parts nested 2000 deep in 100 KB took it seconds): both are counted first."""
    import email

    parsed = counting(monkeypatch, email, "message_from_bytes")
    with pytest.raises(MailContentError, match=reason):
        message_mod.read(raw)
    assert parsed == []
