"""``pbem web``: play the library's games in a browser, on a page this machine serves."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from pbem.cli.common import PASSPHRASE_ENV, PASSPHRASE_TRIES, info, reported, typed


def web(
    port: int = typer.Option(0, "--port", help="The port to serve on (default: a free one)."),
    no_open: bool = typer.Option(False, "--no-open", help="Print the address without opening a browser."),
    seats: list[str] | None = typer.Option(
        None, "--as", help="Play only these seats (default: every seat whose key you hold)."
    ),
    lan: bool = typer.Option(
        False, "--lan", help="Serve to the network too, not only this machine (the token still guards it)."
    ),
    tables: list[Path] | None = typer.Option(
        None, "--table", help="A table log (pbem table new) to keep on the page too; repeatable."
    ),
) -> None:
    """Play in the browser: your games, their pictures and moves on a page this machine serves.

    The address printed first holds the page's token; a passphrase is asked once, kept in memory only."""
    with reported():
        from pbem.web import require

        require()
        from pbem.errors import FileAccessError
        from pbem.web.pages import Settings
        from pbem.web.server import serve

        for path in tables or ():
            if not path.is_file():
                raise FileAccessError(f"--table {path}: no such file")
        settings = Settings(tuple(seats or ()), _passphrase())
    with reported():
        # resolved now: the page's requests name a table by its place in this list, never a path
        chosen = [path.resolve() for path in tables or ()]
        serve(settings, port, lan=lan, open_browser=not no_open, tables=chosen)


def _passphrase() -> str | None:
    """The passphrase the page opens keys with: asked once, only where a key of this home has one
    and PBEM_PASSPHRASE does not give it; checked against those keys (again after a mistake).
    Without a terminal to ask on, the page asks it."""
    import sys

    from pbem.errors import IdentityError
    from pbem.web.pages import opens_a_key, sealed_keys

    sealed = sealed_keys()
    if not sealed or os.environ.get(PASSPHRASE_ENV) is not None:
        return None
    if not sys.stdin.isatty():
        info("no terminal to ask the passphrase of your keys on: the page asks it")
        return None
    prompt = "passphrase of your keys (kept in memory while the page runs): "
    for left in range(PASSPHRASE_TRIES - 1, -1, -1):
        value = typed(prompt)
        if opens_a_key(value, sealed):
            return value
        if not left:
            raise IdentityError("the passphrase opens none of your keys")
        prompt = f"that passphrase opens none of your keys, {left} {'tries' if left > 1 else 'try'} left: "
    return None
