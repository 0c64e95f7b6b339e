"""``pbem web``: a page on this machine to play the games of the library in a browser.

The page does what the commands do through their own functions (pbem.cli): it lists the library
as ``pbem inbox`` does, shows a game as ``status``, ``moves --json``, ``show --svg --as`` and
``log`` give it, and plays with ``pbem play``, ``reveal`` and ``sync`` themselves, so a move made
here is the entry the command line would make. Starlette, uvicorn and Jinja2 come with the web
extra; nothing here is imported unless ``pbem web`` runs.
"""

from __future__ import annotations

from pbem.errors import UsageError

NEEDED = ("starlette", "uvicorn", "jinja2")


def require() -> None:
    """Refuse, in one line, to serve the page without the web extra installed."""
    import importlib.util

    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(
            f"pbem web needs {', '.join(missing)}, which the web extra brings: pip install 'pbem[web]'"
        )
