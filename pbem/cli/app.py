"""The top-level ``pbem`` application and its command list."""

from __future__ import annotations

import os
import sys

import typer

from pbem import __version__
from pbem.cli import (
    game_commands,
    key_commands,
    mail_commands,
    play_commands,
    table_commands,
    template_commands,
)

app = typer.Typer(
    name="pbem",
    help="Play board games by email: signed, hash-chained game files that any player can verify.",
    epilog="Exit codes: 0 success, 1 refused by the rules, 2 usage, 3 integrity failure, "
    "4 key or identity problem, 5 file access, 6 equivocation.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbem {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Play board games by email: signed, hash-chained game files that any player can verify."""


app.add_typer(key_commands.app, name="key")
app.add_typer(template_commands.app, name="templates")
app.add_typer(table_commands.app, name="table")
app.add_typer(mail_commands.app, name="mail")
app.command("new")(game_commands.new)
app.command("join")(game_commands.join)
app.command("status")(play_commands.status)
app.command("moves")(play_commands.moves)
# A move's words may be negative numbers ("bid -5", refused by the rules): words, not options.
app.command("play", context_settings={"ignore_unknown_options": True})(play_commands.play)
app.command("reveal")(play_commands.reveal)
app.command("sync")(play_commands.sync)
app.command("timeout")(play_commands.timeout)
app.command("undo")(play_commands.undo)
app.command("consent")(play_commands.consent)
app.command("show")(play_commands.show)
app.command("log")(play_commands.log)
app.command("note")(game_commands.note)
app.command("verify")(game_commands.verify)
app.command("merge")(game_commands.merge)
app.command("games")(game_commands.games)
app.command("inbox")(mail_commands.inbox)


def main() -> None:
    try:
        app()
    except SystemExit:
        if _pipe_closed():
            # The reader of our output went away (``pbem log | head``): not a failure of pbem, so
            # not exit 1 (which means a refused move); 141 is what a shell reports for SIGPIPE.
            _silence_stdout()
            raise SystemExit(141) from None
        raise


def _pipe_closed() -> bool:
    """Whether stdout's reader closed the pipe: Typer's Click then wraps stdout in its
    ``PacifyFlushWrapper`` so that the flush at exit stays quiet."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _silence_stdout() -> None:
    """Point stdout at the null device, so the flush at exit cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
