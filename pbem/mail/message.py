"""The emails that carry a game: built from the entries to send, and read back into them.

A message is a transport, never the authority: what it carries is merged into the local copy
and the whole game verified before anything is written (see ``pbem.mail.delivery``). So reading
a message only has to find the entries it carries, safely: an attachment (``application/toml``)
and the same entries armored in the body, which must agree, within bounds no real message
reaches (a game is well under a megabyte), whatever the sender built.
"""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage, Message

from pbem.errors import MailContentError
from pbem.mail.armor import armor, blocks

GAME_HEADER = "X-Pbem-Game"
MEDIA_TYPE = ("application", "toml")
MESSAGE_LIMIT = 32 * 2**20  # bytes of a whole message: a four-player game's file is about 0.4 MiB
PART_LIMIT = 200
DEPTH_LIMIT = 8


@dataclass(frozen=True)
class Outgoing:
    """A message to send: who from and to, what it says, and the entries it carries."""

    sender: str
    recipients: tuple[str, ...]
    subject: str
    body: str
    entries: str  # a TOML file of the entries (a whole game file with --full)
    game_id: str
    filename: str
    picture: bytes | None = None  # a PNG of the table as every player may see it


@dataclass(frozen=True)
class Carried:
    """The entries a message carries, and what it says of itself."""

    entries: str
    game_id: str  # from the message's header (the entries say it too, and are what counts)
    subject: str
    sender: str
    message_id: str


def build(outgoing: Outgoing) -> EmailMessage:
    message = EmailMessage()
    message["From"] = outgoing.sender
    message["To"] = ", ".join(outgoing.recipients)
    message["Subject"] = outgoing.subject
    message[GAME_HEADER] = outgoing.game_id
    # The entries ride twice: inline, for a client that drops attachments or a player who pastes
    # the body, and attached, for one that mangles long bodies; the reader checks they agree.
    message.set_content(f"{outgoing.body.rstrip()}\n\n{armor(outgoing.entries)}", cte="quoted-printable")
    if outgoing.picture is not None:
        _add_picture(message, outgoing.body, outgoing.picture)
    message.add_attachment(
        outgoing.entries.encode("utf-8"), *MEDIA_TYPE, filename=outgoing.filename, cte="base64"
    )
    return message


PICTURE_ID = "table@pbem"


def _add_picture(message: EmailMessage, body: str, picture: bytes) -> None:
    """An HTML alternative to the plain text: the picture of the table, then the same words. PNG,
    because many mail clients show no SVG. The entries are not in it: the plain part and the
    attachment carry them, and a second armored block would make the message contradict itself."""
    import html

    page = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        f'<p><img src="cid:{PICTURE_ID}" alt="the table" style="max-width:100%;height:auto"></p>'
        f'<pre style="white-space:pre-wrap;font-family:monospace">{html.escape(body.rstrip())}</pre>'
        "</body></html>"
    )
    message.add_alternative(page, subtype="html", cte="quoted-printable")
    alternative = message.get_payload()
    assert isinstance(alternative, list)
    html_part = alternative[-1]
    assert isinstance(html_part, EmailMessage)
    html_part.add_related(picture, "image", "png", cid=f"<{PICTURE_ID}>", filename="table.png")


def read(raw: bytes) -> Carried | None:
    """The entries ``raw`` carries, or None for a message that carries none (not pbem's);
    MailContentError for one that cannot be read safely or contradicts itself."""
    if len(raw) > MESSAGE_LIMIT:
        raise MailContentError(f"the message has {len(raw)} bytes, more than a game's message ever has")
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)  # the default policy makes EmailMessage objects
    attached: list[str] = []
    inline: list[str] = []
    for part in _parts(parsed):
        if part.get_content_type() == "/".join(MEDIA_TYPE) or str(part.get_filename() or "").endswith(
            ".toml"
        ):
            attached.append(_text(part))
        elif part.get_content_maintype() == "text" and not part.is_attachment():
            inline.extend(blocks(_text(part)))
    if not attached and not inline:
        return None
    if len(inline) > 1:
        raise MailContentError(f"the body holds {len(inline)} armored blocks of entries, not one")
    if len(attached) > 1:
        raise MailContentError(f"the message has {len(attached)} attached game files, not one")
    if attached and inline and _data(attached[0], "attached") != _data(inline[0], "armored"):
        raise MailContentError("the entries in the body differ from the attached ones")
    entries = (attached or inline)[0]
    _data(entries, "carried")
    return Carried(
        entries,
        str(parsed.get(GAME_HEADER, "")).strip(),
        str(parsed.get("Subject", "")),
        str(parsed.get("From", "")),
        str(parsed.get("Message-ID", "")),
    )


def _parts(message: EmailMessage) -> Iterator[EmailMessage]:
    """Every leaf part, refusing a nesting or a number of parts no mail program makes."""
    count = 0
    stack: list[tuple[EmailMessage, int]] = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > PART_LIMIT:
            raise MailContentError(f"the message has more than {PART_LIMIT} parts")
        if depth > DEPTH_LIMIT:
            raise MailContentError(f"the message nests parts more than {DEPTH_LIMIT} deep")
        if part.is_multipart():
            payload = part.get_payload()
            children = (
                [child for child in payload if isinstance(child, EmailMessage)]
                if isinstance(payload, list)
                else []
            )
            stack.extend((child, depth + 1) for child in reversed(children))
        else:
            yield part


def _text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset)
    except (LookupError, UnicodeDecodeError):
        raise MailContentError(f"a part of the message is not {charset} text") from None


def _data(text: str, what: str) -> object:
    from pbem.errors import GameFileError
    from pbem.gamefile import parse

    try:
        return parse(text.encode("utf-8"), f"the {what} entries")
    except GameFileError as exc:
        raise MailContentError(f"{exc}: the message was altered or cut") from None
