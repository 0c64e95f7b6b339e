"""Several pbem messages in one mail, as players forward them: as ``message/rfc822`` parts (mutt's
``;f`` with MIME forwarding), inline in the body (a forward without MIME), or one message whose
HTML part repeats its text. Each set of entries is read on its own, in any order; exact repeats
count once; an unsound one is refused in its own line while the others apply."""

from __future__ import annotations

import email
import email.policy
import tomllib
from email.message import EmailMessage

import pytest

from pbem.mail.armor import BEGIN, armor
from tests.test_mail_cli import Table, parsed
from tests.test_mail_cli import table as table  # noqa: PLC0414  (the fixture, by name)


def two_messages(table: Table) -> tuple[bytes, bytes, str]:
    """a's roll as pbem mail send writes it, and a note that follows it (carrying the note alone,
    so it connects only once the roll is in); and the game's head after both."""
    from pbem import gamefile
    from pbem.engine import ledger
    from pbem.mail.delivery import delta_text
    from pbem.mail.message import Outgoing, build

    assert table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a").exit_code == 0
    roll = table.send("a", "roll").read_bytes()
    assert table.cli("note", str(table.copy("a")), "over to you", "--as", "a", home="a").exit_code == 0
    game = ledger.read(gamefile.load(table.copy("a")).data)
    note = build(
        Outgoing("a@pbem.test", ("b@pbem.test",), "[pbem] the note", "over to you", delta_text(game, 4),
                 game.game_id, "note.toml", date="Tue, 24 Nov 2026 08:44:00 +0000",
                 message_id="<note@pbem.test>")
    ).as_bytes()  # fmt: skip
    return roll, note, game.head


def forward(*messages: bytes) -> EmailMessage:
    """A mail forwarding ``messages`` as mutt does with MIME forwarding: each a message/rfc822 part."""
    mail = EmailMessage()
    mail["From"] = "c@pbem.test"
    mail["To"] = "b@pbem.test"
    mail["Subject"] = "Fwd: [pbem] what you missed"
    mail.set_content("Here are the two messages you asked for.\n")
    for raw in messages:
        inner = email.message_from_bytes(raw, policy=email.policy.default)
        mail.add_attachment(inner)
    return mail


def inline(*messages: bytes) -> EmailMessage:
    """A forward without MIME: each message's text pasted into one body, the second quoted."""
    mail = EmailMessage()
    mail["From"] = "c@pbem.test"
    mail["To"] = "b@pbem.test"
    mail["Subject"] = "Fwd: [pbem] what you missed"
    texts = []
    for number, raw in enumerate(messages):
        body = parsed_bytes(raw).get_body(preferencelist=("plain",))
        assert isinstance(body, EmailMessage)
        text = body.get_content()
        if number % 2:
            text = "".join(f"> {line}\n" for line in text.splitlines())
        texts.append(f"----- Forwarded message from a@pbem.test -----\n\n{text}\n----- End -----\n")
    mail.set_content("\n".join(texts))
    return mail


def parsed_bytes(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def head(table: Table, seat: str) -> str:
    return str(tomllib.loads(table.copy(seat).read_text(encoding="utf-8"))["game"]["head"])


@pytest.mark.parametrize("make", [forward, inline], ids=["as message/rfc822 parts", "inline"])
def test_two_forwarded_messages_are_both_applied_in_any_order(table: Table, make: object) -> None:
    assert callable(make)
    roll, note, after = two_messages(table)
    path = table.root / "forwarded.eml"
    # the note first, though it follows the roll; and the roll forwarded twice, which counts once
    path.write_bytes(make(note, roll, roll).as_bytes())
    lines = table.receive("b", path)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"  {path}, 1 of 2: applied to Princes of the Renaissance"), lines
    assert lines[1].startswith(f"  {path}, 2 of 2: applied to Princes of the Renaissance"), lines
    assert head(table, "b") == after


def test_an_html_part_repeating_the_text_is_one_block(table: Table) -> None:
    """A client that sends the text again as HTML repeats the armored block: one block, and it
    still agrees with the attachment."""
    two_messages(table)
    message = parsed(table.root / "roll.eml")
    body = message.get_body(preferencelist=("plain",))
    assert isinstance(body, EmailMessage)
    text = body.get_content()
    assert BEGIN in text
    body.add_alternative(f"<html><body><pre>\n{text}\n</pre></body></html>\n", subtype="html")
    path = table.root / "html.eml"
    path.write_bytes(message.as_bytes())
    before = head(table, "b")
    (line,) = table.receive("b", path)
    assert line.startswith(f"  {path}: applied to Princes of the Renaissance"), line
    assert head(table, "b") != before


def test_an_unsound_block_is_refused_in_its_own_line_while_the_other_applies(table: Table) -> None:
    roll, note, _ = two_messages(table)
    altered = parsed_bytes(note)
    for part in altered.walk():
        if part.get_content_type() == "text/plain":
            part.set_content("over to you\n\n" + armor("[delta]\ngame = 'not a game'\n"))
        elif part.get_content_type() == "application/toml":
            part.set_content(b"[delta]\ngame = 'not a game'\n", "application", "toml", filename="n.toml")
    path = table.root / "forwarded.eml"
    path.write_bytes(forward(roll, altered.as_bytes()).as_bytes())
    before = head(table, "b")
    result = table.cli("mail", "import", str(path), home="b")
    assert result.exit_code == 3, result.stdout + result.stderr
    first, second = result.stdout.splitlines()
    assert first.startswith(f"  {path}, 1 of 2: applied to Princes of the Renaissance"), first
    assert second.startswith(
        f'  {path} (from c@pbem.test, "Fwd: [pbem] what you missed"), 2 of 2: refused, nothing changed'
    ), second
    assert head(table, "b") != before, "the sound one applied"
