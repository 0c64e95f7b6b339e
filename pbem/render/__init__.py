"""Rendering views and reports for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def console() -> Console:
    """A rich console whose closed pipe (``pbem show | head``) ends the command as any other
    write to a closed pipe does, rather than with rich's own exit 1."""
    import errno
    import os

    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    return _Console()
