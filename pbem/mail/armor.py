"""Entries carried in the body of an email, between marker lines.

A mail client may drop an attachment, and a player may paste a body into another message; so the
entries also travel inline, compressed and in base64 between two marker lines, which survive line
wrapping, quoting (``> ``) and the spaces clients add at the ends of lines.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from pbem.errors import MailContentError

BEGIN = "-----BEGIN PBEM ENTRIES-----"
END = "-----END PBEM ENTRIES-----"
WIDTH = 64
# Bytes of entries once inflated: a whole four-player game's file is 0.5 to 1.3 MB (examples/),
# and grows with the seats. The cost of a block is the work its entries take once inflated
# (parsing them, verifying them), not the few bytes it travels in, so this bounds that work.
LIMIT = 8 * 2**20
_QUOTE = re.compile(r"^(?:\s*>)+\s?")


def armor(text: str) -> str:
    """``text`` (a TOML file of entries) as the lines of an armored block."""
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    lines = [packed[index : index + WIDTH] for index in range(0, len(packed), WIDTH)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def blocks(body: str) -> list[str]:
    """Every armored block in ``body``, unpacked; a damaged block raises MailContentError."""
    return [unpack(packed) for packed in packed_blocks(body)]


def packed_blocks(body: str) -> list[str]:
    """Every armored block in ``body`` as it travels (base64 of compressed entries), so that a
    reader counts them before it pays for unpacking any; MailContentError for broken markers."""
    found: list[str] = []
    inside: list[str] | None = None
    for raw in body.splitlines():
        line = _QUOTE.sub("", raw).strip()
        if line == BEGIN:
            if inside is not None:
                raise MailContentError("an armored block starts inside another (a missing end line)")
            inside = []
        elif line == END:
            if inside is None:
                raise MailContentError("an armored block ends that never started")
            found.append("".join(inside))
            inside = None
        elif inside is not None and line:
            inside.append(line)
    if inside is not None:
        raise MailContentError("the armored entries are cut short: the message was truncated")
    return found


def unpack(packed: str) -> str:
    """A block's entries, inflated no further than LIMIT bytes, whatever the block says."""
    try:
        data = base64.b64decode(packed.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise MailContentError("the armored entries are not base64: the message was altered") from None
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(data, LIMIT)
    except zlib.error:
        raise MailContentError("the armored entries do not unpack: the message was altered or cut") from None
    if inflater.unconsumed_tail:
        raise MailContentError(f"the armored entries unpack to more than {LIMIT} bytes")
    if not inflater.eof:
        raise MailContentError("the armored entries are cut short: the message was truncated")
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        raise MailContentError("the armored entries are not UTF-8 text") from None
