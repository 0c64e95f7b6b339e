"""The one check of a seat name a player types (``--as``, a late seat, a table's signer)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.errors import UsageError


def check_seat(seat: str, seats: Sequence[str], where: str = "in this game") -> str:
    """``seat`` if it is one of ``seats``; else a usage error that lists them, so a name typed
    wrong is said to be wrong rather than taken for a seat whose turn it is not."""
    if seat not in seats:
        raise UsageError(f"no seat named {seat!r} {where} (seats: {', '.join(seats)})")
    return seat
