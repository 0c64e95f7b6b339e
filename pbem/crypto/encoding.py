"""Text forms of binary values in game and key files."""

from __future__ import annotations

import base64
import binascii


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, length: int | None = None) -> bytes:
    """Decode strict base64; raise ValueError on bad text or an unexpected length."""
    if not isinstance(text, str):
        raise ValueError("not text")
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise ValueError("not valid base64") from exc
    if length is not None and len(data) != length:
        raise ValueError(f"expected {length} bytes, found {len(data)}")
    if b64(data) != text:  # one text per value: no unused bits set, no missing padding
        raise ValueError("not in canonical base64 form")
    return data
