"""The top-level ``pbem`` application and its command list."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperGroup

from pbem import __version__
from pbem.cli import (
    game_commands,
    key_commands,
    mail_commands,
    play_commands,
    table_commands,
    template_commands,
    web_commands,
)
from pbem.errors import EXIT_CODES, PIPE_CLOSED, UsageError


def _exit_codes() -> str:
    """The epilog of ``pbem --help``: one exit code a line."""
    return "\n".join(["Exit codes:", *(f"{code:>3}  {meaning}" for code, meaning in EXIT_CODES.items())])


# Click's UsageError, the kind of every command line it cannot read, whether Typer carries its
# own Click or uses the click package: found from typer.BadParameter, one of its kinds.
_COMMAND_LINE_ERROR: Any = next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "UsageError")


@contextmanager
def _one_line_usage_errors(root: Any, words: list[str]) -> Iterator[None]:
    """A command line pbem cannot read (a missing argument, an unknown command, option or value)
    is one ``error:`` line naming the help to read, with the usage exit code; asking for a group
    with nothing after it (``pbem key``) still shows its help."""
    try:
        yield
    except _COMMAND_LINE_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # Click's way to show a group's help
            raise
        message = exc.format_message().strip().rstrip(".").replace(". Did you mean", "; did you mean")
        message = message[:1].lower() + message[1:]
        context = getattr(exc, "ctx", None)
        where = context.command_path if context is not None else _command_path(root, words)
        sys.stderr.write(f"error: {message} (see {where} --help)\n")
        raise typer.Exit(UsageError.exit_code) from None


def _command_path(root: Any, words: list[str]) -> str:
    """The command ``words`` name (``pbem key new``), for the errors Click raises without it."""
    path, command = ["pbem"], root
    for word in words:
        commands = getattr(command, "commands", None)
        if commands is None:
            break
        if word in commands:
            path.append(word)
            command = commands[word]
        elif not word.startswith("-"):
            break
    return " ".join(path)


class _Commands(TyperGroup):
    """The ``pbem`` group: every command line is parsed under it, subcommands' included."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for info in _DEFERRED:  # after the commands, where Typer puts its groups
            group = _Deferred(info)
            assert group.name is not None  # each is added with its name
            self.commands[group.name] = group

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        words = list(args)
        with _one_line_usage_errors(self, words):
            ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta["pbem.words"] = words
        return ctx

    def invoke(self, ctx: Any) -> Any:
        from pbem.cli.common import keys_held

        with _one_line_usage_errors(self, ctx.meta.get("pbem.words", [])), keys_held():
            return super().invoke(ctx)


class _Deferred(TyperGroup):
    """A group of commands (``pbem key``, ``mail``, ``table``, ``templates``) that Typer builds
    when it is first used: Typer reads every command's signature and type hints to build it,
    about as long as all of pbem's own imports for --help, and a command line names at most one
    group. Until then it holds only what ``pbem --help`` lists of it (name, help, panel), solved
    from its registration as Typer solves them; anything else asked of it builds the group,
    whose every attribute it then takes."""

    def __init__(self, info: Any) -> None:  # not TyperGroup's: its attributes come from the build
        solved = typer.main.solve_typer_info_defaults(info)
        self.__dict__.update(
            name=solved.name,
            help=solved.help,
            short_help=solved.short_help,
            hidden=solved.hidden,
            deprecated=solved.deprecated,
            rich_help_panel=solved.rich_help_panel,
            _registration=info,
        )

    def __getattr__(self, name: str) -> Any:  # only what the instance does not hold yet
        info = self.__dict__.pop("_registration", None)
        if info is None:
            raise AttributeError(name)
        built = typer.main.get_group_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
            suggest_commands=app.suggest_commands,
        )
        self.__dict__.update(built.__dict__)
        return getattr(self, name)


app = typer.Typer(
    name="pbem",
    cls=_Commands,
    help="Play board games by email: signed, hash-chained game files that any player can verify.",
    epilog=_exit_codes(),
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
# registered as Typer registers them, then built by the pbem group only when used (_Deferred)
_DEFERRED = list(app.registered_groups)
app.registered_groups.clear()
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
app.command("handover")(game_commands.handover)
app.command("drop")(game_commands.drop)
app.command("referee")(game_commands.referee)
app.command("verify")(game_commands.verify)
app.command("merge")(game_commands.merge)
app.command("games")(game_commands.games)
app.command("inbox")(mail_commands.inbox)
app.command("web")(web_commands.web)


def main() -> None:
    try:
        app()
    except SystemExit:
        if _pipe_closed():
            # The reader of our output went away (``pbem log | head``): not a failure of pbem, so
            # not exit 1 (which means a refused move).
            _silence_stdout()
            raise SystemExit(PIPE_CLOSED) from None
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
