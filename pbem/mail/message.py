"""The emails that carry a game: built from the entries to send, and read back into them.

A message is a transport, never the authority: what it carries is merged into the local copy
and the whole game verified before anything is written (see ``pbem.mail.delivery``). So reading
a message only has to find the entries it carries, safely: an attachment (``application/toml``)
and the same entries armored in the body, which must agree, within bounds no real message
reaches (a whole game is a megabyte or so), whatever the sender built. A player may forward
several of pbem's messages in one (as ``message/rfc822`` parts, or pasted in the body): each set
of entries is read on its own, an exact repeat once, and one unsound set refused alone.

Whatever the sender built includes headers crafted to break the standard library's mail parser,
which raises IndexError, UnicodeError and others on some of them: every header and part is read
through a guard, so a message pbem cannot read is MailUnreadableError, never a traceback. And
every size is checked before the work it would cost: the message's, each part's once decoded
(from its encoded length, before decoding it), and the entries' once inflated.
"""

from __future__ import annotations

import codecs
import email
import re
import tomllib
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import EmailPolicy
from typing import Any, TypeVar

from pbem.errors import MailContentError, MailUnreadableError
from pbem.mail.armor import LIMIT as ENTRIES_LIMIT
from pbem.mail.armor import armor, packed_blocks, unpack
from pbem.mail.library import MESSAGE_ID

GAME_HEADER = "X-Pbem-Game"
MEDIA_TYPE = ("application", "toml")
MESSAGE_LIMIT = 32 * 2**20  # bytes of a whole message: a whole four-player game's file is 0.5 to 1.3 MB
PART_LIMIT = 200
DEPTH_LIMIT = 8
# A part pbem decodes (a text part that may hold the armored entries, or the attached file) holds
# at most the entries, which are at most ENTRIES_LIMIT: the armored copy is compressed, and the
# words around it are a few lines.
TEXT_LIMIT = ENTRIES_LIMIT
# Characters of the armored entries a message repeats in its body: a median message's are under
# 2,000; a set-up's shuffles come to 30,000 to 45,000, and ride attached only.
INLINE_LIMIT = 16 * 1024
# Characters of a header pbem has the mail parser read (Content-Type, Content-Disposition,
# Content-Transfer-Encoding): a real one is a line or two; the parser's cost on a crafted
# parameter (in a charset such as punycode) grows faster than its length.
HEADER_LIMIT = 4096
# The parser's cost is per line (about a microsecond), and per line again for each multipart
# boundary open around it: so the lines of a message are counted, and the times it names a
# boundary (an upper bound on how deep its parts nest), before it is parsed. A game's message
# is at most a few hundred thousand lines of base64 inside three boundaries.
LINE_LIMIT = 2**20
NESTING_LIMIT = 2**21  # lines times boundaries
# Sets of entries in one message (forwarded messages, as parts or inline), counted before any is
# unpacked, and the bytes they come to in all once unpacked: each set is within ENTRIES_LIMIT.
CARRIED_LIMIT = 16
TOTAL_LIMIT = MESSAGE_LIMIT
DESCRIBED_LIMIT = 2**16  # bytes of a message's start read for the headers that name it
_T = TypeVar("_T")


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
    date: str = ""  # the Date header (RFC 5322)
    message_id: str = ""  # this message's Message-ID, <...>
    root: str = ""  # the game's first message, which every later one answers


@dataclass(frozen=True)
class Carried:
    """The entries a message carries, and what it says of itself."""

    entries: str
    game_id: str  # from the message's header (the entries say it too, and are what counts)
    subject: str
    sender: str  # the From header as it arrived, unparsed (see _hint)
    message_id: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)  # the entries, parsed
    root: str = ""  # the first Message-ID its References name: the game's first message
    # the To and Cc headers as they arrived, unparsed: the seats a message went to besides this one
    # will hold what it carries, which spares passing it on to them (a guess, never trusted)
    recipients: str = ""


def inline(entries: str) -> str | None:
    """The armored block that repeats ``entries`` in the body, or None when they are too long to
    repeat: a message that carries several shuffles (the set-up's, to seats not yet known to hold
    them) would come to twice their size, and so long a body is what clients clip or mangle, where
    the attachment arrives whole."""
    armored = armor(entries)
    return armored if len(armored) <= INLINE_LIMIT else None


def build(outgoing: Outgoing) -> EmailMessage:
    message = EmailMessage()
    message["From"] = outgoing.sender
    message["To"] = ", ".join(outgoing.recipients)
    message["Subject"] = outgoing.subject
    if outgoing.date:
        message["Date"] = outgoing.date
    if outgoing.message_id:
        message["Message-ID"] = outgoing.message_id
    if outgoing.root:  # one conversation, and a shallow one: every message answers the first
        message["In-Reply-To"] = outgoing.root
        message["References"] = outgoing.root
    message[GAME_HEADER] = outgoing.game_id
    # The entries ride twice: inline, for a client that drops attachments or a player who pastes
    # the body, and attached, for one that mangles long bodies; the reader checks they agree.
    # Past INLINE_LIMIT they ride once, attached (see ``inline``).
    armored = inline(outgoing.entries)
    text = outgoing.body.rstrip() + (f"\n\n{armored}" if armored is not None else "\n")
    message.set_content(text, cte="quoted-printable")
    if outgoing.picture is not None:
        _add_picture(message, outgoing.body, outgoing.picture)
    # Quoted-printable, not base64: the entries are mostly base64 text already, which
    # quoted-printable carries almost as it is (a tenth more) where base64 adds a third.
    message.add_attachment(
        outgoing.entries.encode("utf-8"), *MEDIA_TYPE, filename=outgoing.filename, cte="quoted-printable"
    )
    return message


PICTURE_ID = "table@pbem"


def _add_picture(message: EmailMessage, body: str, picture: bytes) -> None:
    """An HTML alternative to the plain text: the picture of the table, then the same words. PNG,
    because many mail clients show no SVG. The entries are not in it: the plain part and the
    attachment carry them."""
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


def check_size(size: int) -> None:
    """MailContentError for a message of ``size`` bytes, more than any game's message: checked on
    the size a mail server declares, before the message is downloaded, and on the bytes read."""
    if size > MESSAGE_LIMIT:
        raise MailContentError(
            f"the message has {size} bytes, more than a game's message ever has ({MESSAGE_LIMIT})"
        )


def _check_lines(raw: bytes) -> None:
    """MailContentError for a message whose lines, or lines and boundaries, would cost the parser
    more than any game's message does (see LINE_LIMIT)."""
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")  # however they end
    if lines > LINE_LIMIT:
        raise MailContentError(f"the message has {lines} lines, more than a game's message ever has")
    boundaries = raw.lower().count(b"boundary")
    if lines * boundaries > NESTING_LIMIT:
        raise MailContentError(
            f"the message names a boundary {boundaries} times over {lines} lines, more than a "
            "game's message ever does"
        )


def read(raw: bytes) -> list[Carried | MailContentError]:
    """Every set of entries ``raw`` carries, each read on its own: a message may carry several
    (pbem messages forwarded together, as parts or inline), and one that is unsound is its own
    MailContentError in the list while the others still count. An empty list for a message that
    carries none (not pbem's). MailContentError is raised for a message that cannot be read
    safely as a whole, and its kind MailUnreadableError for one the mail parser cannot read."""
    check_size(len(raw))
    _check_lines(raw)
    parsed = _readable("the message", lambda: email.message_from_bytes(raw, policy=_PARSING))
    assert isinstance(parsed, EmailMessage)  # the policy makes EmailMessage objects
    units: dict[int, _Unit] = {}
    for where, part, holder in _parts(parsed):
        kind = _kind(part, where)
        if kind is None:
            continue
        unit = units.setdefault(id(holder), _Unit(holder))
        if kind == "attached":
            unit.attached.append((where, part))
        else:
            unit.packed.extend(packed_blocks(_text(part, where, TEXT_LIMIT)))
    seen: set[str] = set()
    for unit in units.values():  # an exact repeat (an HTML part repeating the text) is one block
        unit.packed = [block for block in dict.fromkeys(unit.packed) if block not in seen]
        seen.update(unit.packed)
    count = sum(len(unit.packed) + len(unit.attached) for unit in units.values())
    if count > CARRIED_LIMIT:
        raise MailContentError(
            f"the message carries {count} sets of entries, more than any forward of games' "
            f"messages does ({CARRIED_LIMIT})"
        )
    found: list[Carried | MailContentError] = []
    texts: set[str] = set()
    budget = [TOTAL_LIMIT]
    for unit in units.values():
        for item in _unit_entries(unit, budget):
            if isinstance(item, Carried):
                if item.entries in texts:
                    continue
                texts.add(item.entries)
            found.append(item)
    return found


@dataclass
class _Unit:
    """One message's parts that carry entries: the message itself, or a message forwarded in it
    (``message/rfc822``), whose headers say who sent it and when."""

    holder: EmailMessage
    attached: list[tuple[str, EmailMessage]] = field(default_factory=list)
    packed: list[str] = field(default_factory=list)


def _unit_entries(unit: _Unit, budget: list[int]) -> list[Carried | MailContentError]:
    """The entries of one unit. A message pbem made carries them twice, armored in the body and
    attached, and both must agree (one copy altered on the way, or cut, is caught even where the
    shorter copy would still verify); a unit with other than one of each holds several messages'
    entries (an inline forward), each read on its own."""
    holder = unit.holder
    hints = (_hint(holder, GAME_HEADER), _hint(holder, "Subject"), _hint(holder, "From"))
    message = _hint(holder, "Message-ID")
    root = next(iter(_hint(holder, "References").split()), "")
    if len(unit.packed) == 1 and len(unit.attached) == 1:
        try:
            where, part = unit.attached[0]
            entries = _spend(budget, _text(part, where, ENTRIES_LIMIT))
            inline = unpack(unit.packed[0])
            data = _data(entries, "attached")
            if inline != entries and _data(inline, "armored") != data:
                raise MailContentError("the entries in the body differ from the attached ones")
        except MailContentError as exc:
            return [exc]
        recipients = f"{_hint(holder, 'To')}, {_hint(holder, 'Cc')}"
        return [Carried(entries, *hints, message, data, root, recipients)]
    single = len(unit.packed) + len(unit.attached) == 1
    # several messages' entries in one body were forwarded: From is the forwarder, not the seat
    # whose copy each describes
    game, subject, sender = hints if single else (hints[0], hints[1], "")
    found: list[Carried | MailContentError] = []
    readers = [lambda packed=packed: unpack(packed) for packed in unit.packed] + [
        lambda where=where, part=part: _text(part, where, ENTRIES_LIMIT) for where, part in unit.attached
    ]
    for reader in readers:
        try:
            entries = _spend(budget, reader())
            found.append(Carried(entries, game, subject, sender, message, _data(entries, "carried"), root))
        except MailContentError as exc:
            found.append(exc)
    return found


def _spend(budget: list[int], entries: str) -> str:
    """``entries``, counted against what one message's entries may come to in all (TOTAL_LIMIT)."""
    budget[0] -= len(entries)
    if budget[0] < 0:
        raise MailContentError(
            f"the entries of the message come to more than {TOTAL_LIMIT} bytes in all, more than "
            "a game's messages ever do"
        )
    return entries


def describe(raw: bytes) -> str:
    """A message as its reader knows it, from its headers as they arrived (``raw`` may be the
    headers alone): when, from whom, and its subject; empty if it says none of them."""
    from email.parser import BytesHeaderParser
    from email.utils import parsedate_to_datetime

    head = raw[:DESCRIBED_LIMIT]
    try:
        headers = BytesHeaderParser(policy=_PARSING).parsebytes(head)
    except Exception:  # the parser raises whatever its code trips on (see _readable)
        return ""
    assert isinstance(headers, EmailMessage)
    date, sender, subject = (_hint(headers, name) for name in ("Date", "From", "Subject"))
    with suppress(TypeError, ValueError, IndexError, OverflowError):  # else shown as it came
        date = parsedate_to_datetime(date).strftime("%Y-%m-%d %H:%M") if date else ""
    said = [f"of {date[:40]}" if date else "", f"from {sender[:80]}" if sender else ""]
    if subject:
        said.append(f'"{subject[:77]}..."' if len(subject) > 80 else f'"{subject}"')
    return ", ".join(text for text in said if text)


def maybe_pbem(headers: bytes) -> bool:
    """Whether a message whose headers are ``headers`` may carry a game: it has pbem's header, or
    names pbem in its subject (as pbem's messages do, and forwards of them: ``Fwd: [pbem] ...``)."""
    return bool(header(headers, GAME_HEADER)) or "pbem" in header(headers, "Subject").lower()


def header(raw: bytes, name: str) -> str:
    """One header of a message (or of its headers alone), as it arrived; empty if it has none."""
    from email.parser import BytesHeaderParser

    try:
        headers = BytesHeaderParser(policy=_PARSING).parsebytes(raw[:DESCRIBED_LIMIT])
    except Exception:  # as in describe
        return ""
    assert isinstance(headers, EmailMessage)
    return _hint(headers, name)


def message_id(text: str) -> str | None:
    """``text`` if it is one Message-ID pbem may repeat in In-Reply-To and References, else None."""
    text = text.strip()
    return text if MESSAGE_ID.fullmatch(text) else None


def saved(raw: bytes) -> Carried | None:
    """The entries of a game's attachment saved on its own from a mail client (a delta, or the
    whole game file), or None for anything else; MailContentError for one too large."""
    check_size(len(raw))
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
        data = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
    if not isinstance(data.get("entry"), list):
        return None
    delta, game = data.get("delta"), data.get("game")
    if isinstance(delta, dict):
        game_id = delta.get("game")
    elif isinstance(game, dict):
        game_id = game.get("id")
    else:
        return None
    if not isinstance(game_id, str):
        return None
    return Carried(text, game_id, "", "", "", _data(text, "saved"))


class _HeaderUnreadable(Exception):
    """Raised by the policy when the mail parser fails on a header: names the header."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(name, why)
        self.name = name
        self.why = why


class _Policy(EmailPolicy):
    """The default policy, but a header the parser fails on, or one too long to be worth parsing,
    raises _HeaderUnreadable naming it. While the message is parsed (``lenient``) such a header
    reads as empty instead: the parser reads each part's Content-Type as it goes, and a failure
    there could not say which part it was in; the part is read again, strictly, when its turn
    comes (see _parts), and fails then, named."""

    lenient = False

    def header_fetch_parse(self, name: str, value: str) -> Any:
        try:
            if isinstance(value, str) and len(value) > HEADER_LIMIT:
                raise _HeaderUnreadable(name, f"{len(value)} characters long")
            try:
                return super().header_fetch_parse(name, value)
            except Exception as exc:  # the parser raises whatever its code trips on: IndexError, ...
                raise _HeaderUnreadable(name, type(exc).__name__) from None
        except _HeaderUnreadable:
            if self.lenient:
                return super().header_fetch_parse(name, "")
            raise


class _Lenient(_Policy):
    lenient = True


_READING = _Policy()
_PARSING = _Lenient()


def _readable(where: str, call: Callable[[], _T]) -> _T:
    """What ``call`` reads of the message at ``where``; MailUnreadableError if the mail parser
    fails on it. The email package raises many kinds of exception on crafted input (IndexError,
    ValueError, UnicodeError, AttributeError, ...), and ``call`` is only ever a call into it, so
    any of them means the same: this message cannot be read."""
    try:
        return call()
    except _HeaderUnreadable as exc:
        raise MailUnreadableError(
            f"the mail parser cannot read the {exc.name.title()} header of {where} ({exc.why})"
        ) from None
    except MailContentError:
        raise
    except Exception as exc:
        raise MailUnreadableError(f"the mail parser cannot read {where} ({type(exc).__name__})") from None


def _hint(message: EmailMessage, name: str) -> str:
    """A header as it arrived, unfolded, never parsed: pbem only guesses from these (how far the
    sender's copy goes, from the addresses in From), and the parser fails on some values any
    sender can write (IndexError on a From of ``<a@b>, <``)."""
    for key, value in message.raw_items():
        if str(key).lower() == name.lower():
            text = re.sub(r"\r?\n[ \t]*", " ", str(value)).strip()
            # bytes that are not ASCII arrive as surrogates; as text they are replaced
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return ""


def _parts(message: EmailMessage) -> Iterator[tuple[str, EmailMessage, EmailMessage]]:
    """Every leaf part, named for messages, with the message that holds it (``message``, or a
    message forwarded in it as a ``message/rfc822`` part), refusing a nesting or a number of parts
    no mail program makes."""
    count = 0
    stack: list[tuple[EmailMessage, int, EmailMessage]] = [(message, 0, message)]
    while stack:
        part, depth, holder = stack.pop()
        part.policy = _READING
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
            where = "the message" if part is message else f"part {count}"
            forwarded = _readable(where, part.get_content_type) == "message/rfc822"
            stack.extend((child, depth + 1, child if forwarded else holder) for child in reversed(children))
        else:
            yield ("the message" if part is message else f"part {count}"), part, holder


def _kind(part: EmailMessage, where: str) -> str | None:
    """``attached`` for a game file attached, ``text`` for a text part that may hold the armored
    entries, None for any other part (a picture, a file of something else)."""
    content_type = _readable(where, part.get_content_type)
    filename = _readable(where, part.get_filename)
    if content_type == "/".join(MEDIA_TYPE) or str(filename or "").endswith(".toml"):
        return "attached"
    if content_type.startswith("text/") and not _readable(where, part.is_attachment):
        return "text"
    return None


def _text(part: EmailMessage, where: str, limit: int) -> str:
    """The text of a part, refused before it is decoded if it would be more than ``limit`` bytes."""
    encoding = _readable(where, lambda: str(part.get("Content-Transfer-Encoding", "")).strip().lower())
    encoded = _readable(where, part.get_payload)
    length = len(encoded) if isinstance(encoded, str) else 0
    # base64 holds three bytes in four characters; every other encoding at most one in one
    size = length * 3 // 4 if encoding == "base64" else length
    if size > limit:
        raise MailContentError(
            f"{where} is {size} bytes once decoded, more than a game's message ever holds ({limit})"
        )
    payload = _readable(where, lambda: part.get_payload(decode=True))
    if not isinstance(payload, bytes):
        return ""
    charset = _readable(where, part.get_content_charset) or "utf-8"
    codec = _codec(charset)
    if codec is None:
        raise MailContentError(f"{where} is in the charset {charset!r}, which no game's message uses")
    try:
        return payload.decode(codec)
    except UnicodeError:
        raise MailContentError(f"{where} is not {charset} text") from None


# The codecs of the charsets mail is written in, each decoding in time linear in its input (not,
# for one, punycode, whose decoder is quadratic); a part in any other is not a game's message.
_CODECS = re.compile(
    r"ascii|utf-8(-sig)?|utf-(16|32)(-[bl]e)?|utf-7|iso8859-\d+|cp\d+|mac-[a-z]+|koi8-[a-z]+|tis-620"
    r"|shift_jis(_2004|x0213)?|euc_(jp|jis_2004|jisx0213|kr)|iso2022_(jp(_[123]|_2004|_ext)?|kr)"
    r"|gb2312|gbk|gb18030|hz|big5(hkscs)?|johab"
)


def _codec(charset: str) -> str | None:
    try:
        name = codecs.lookup(charset).name
    except (LookupError, ValueError, TypeError):
        return None
    return name if _CODECS.fullmatch(name) else None


def _data(text: str, what: str) -> dict[str, Any]:
    from pbem.errors import GameFileError
    from pbem.gamefile import parse

    try:
        return parse(text.encode("utf-8"), f"the {what} entries")
    except GameFileError as exc:
        raise MailContentError(f"{exc}: the message was altered or cut") from None
