"""Rendering views and reports for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

# Wide enough that no line a command prints is ever cut: rich needs a width, and off a terminal
# a script reading the output wants each item on one line, however long.
UNWRAPPED = 1_000_000


def terminal_width() -> int | None:
    """The width of the terminal the output goes to, or None when it goes to a file or a pipe."""
    import shutil
    import sys

    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def output_width() -> int | None:
    """The width every command wraps its text at: $COLUMNS if set, else the terminal's, else None
    (output that goes to a file or a pipe keeps one line per item, for scripts)."""
    import os

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return terminal_width()


def console() -> Console:
    """A rich console at the width of ``output_width`` (lines never cut where there is none), whose
    closed pipe (``pbem show | head``) ends the command as any other write to a closed pipe does,
    rather than with rich's own exit 1."""
    import errno
    import os

    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    width = output_width()
    return _Console(width=width or UNWRAPPED)
