"""Text laid out in columns by the width it takes on a terminal, not its length: a seat named in
Chinese or Japanese letters takes two columns a letter, and a column padded by ``len`` would
push the rest of its line out of line."""

from __future__ import annotations


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` terminal columns (none if it is wider)."""
    from rich.cells import cell_len

    return text + " " * max(0, width - cell_len(text))
