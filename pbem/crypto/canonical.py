"""Canonical bytes of signed data.

Signed data is restricted to what TOML and JSON both carry exactly: strings, integers in the
signed 64-bit range, booleans, arrays and tables with string keys. The encoding is compact JSON
with keys sorted by code point and UTF-8 text, so anyone can recompute it with a JSON library:
``json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import GameFileError

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1


def check_signable(value: Any, path: str = "") -> None:
    """Raise GameFileError naming the first value that may not appear in signed data."""
    where = path or "value"
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise GameFileError(f"{where}: integer {value} is outside the 64-bit range")
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise GameFileError(f"{where}: text is not valid unicode") from exc
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise GameFileError(f"{where}: table key {key!r} is not text")
            check_signable(key, f"{path}.{key}" if path else key)
            check_signable(item, f"{path}.{key}" if path else key)
        return
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        for index, item in enumerate(value):
            check_signable(item, f"{where}[{index}]")
        return
    kind = type(value).__name__
    raise GameFileError(f"{where}: a {kind} may not appear in signed data")


def canonical_bytes(value: Any) -> bytes:
    """The one byte string that represents ``value`` for signing and hashing."""
    check_signable(value)
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")
