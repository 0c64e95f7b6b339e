"""What every command shares: error reporting, passphrases, the clock, JSON output."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import typer

from pbem.errors import IdentityError, PbemError

# Declared here, where both show commands find them; the picture code itself is imported only
# when one of them is given (pbem.cli.pictures).
SVG = typer.Option(
    None, "--svg", help="Also write a picture of the table as SVG to this file.", dir_okay=False
)
HTML = typer.Option(
    None, "--html", help="Also write a page with the picture, the score and the log.", dir_okay=False
)
PNG = typer.Option(None, "--png", help="Also write the picture as PNG (needs resvg-py).", dir_okay=False)

if TYPE_CHECKING:
    from pbem.crypto.identity import SecretKeys

PASSPHRASE_ENV = "PBEM_PASSPHRASE"
NOW_ENV = "PBEM_NOW"
PASSPHRASE_TRIES = 3  # at a terminal: a mistyped passphrase is asked for again
MIN_PASSPHRASE = 8  # characters of a new passphrase

# The web page runs the commands' own functions and shows what they say: inside ``collected``,
# the lines meant for the terminal are kept for it, per request (a context, not the process's
# stderr, which other requests share).
_COLLECTED: ContextVar[list[str] | None] = ContextVar("pbem_collected", default=None)
# The keys one command line opened, by key file and its contents (``keys_held``).
_HELD: ContextVar[dict[tuple[str, str], SecretKeys] | None] = ContextVar("pbem_keys_held", default=None)
# A passphrase the player typed once at the start of ``pbem web``, held in memory for its requests.
_GIVEN: ContextVar[str | None] = ContextVar("pbem_passphrase", default=None)


@contextmanager
def collected() -> Iterator[list[str]]:
    """The lines a command says in this block (messages, warnings, its ``error:`` line, and the
    report lines it wraps for the reader with ``echo_wrapped``), in the list given, instead of on
    stderr and stdout: for the web page, which has neither."""
    lines: list[str] = []
    token = _COLLECTED.set(lines)
    try:
        yield lines
    finally:
        _COLLECTED.reset(token)


@contextmanager
def given_passphrase(passphrase: str | None) -> Iterator[None]:
    """Keys opened in this block take ``passphrase`` (None: asked as usual)."""
    token = _GIVEN.set(passphrase)
    try:
        yield
    finally:
        _GIVEN.reset(token)


def _say(line: str) -> None:
    kept = _COLLECTED.get()
    if kept is not None:
        kept.append(line)
    else:
        sys.stderr.write(f"{line}\n")


def fail(message: str, code: int) -> typer.Exit:
    _say(f"error: {message}")
    return typer.Exit(code)


@contextmanager
def reported() -> Iterator[None]:
    """Turn a PbemError into one ``error:`` line on stderr and its documented exit code."""
    try:
        yield
    except PbemError as exc:
        raise fail(str(exc), exc.exit_code) from None


def warn(message: str) -> None:
    _say(f"warning: {message}")


def info(message: str) -> None:
    """Messages for the person at the terminal go to stderr; data goes to stdout."""
    _say(message)


def ask_passphrase(prompt: str) -> str:
    """The passphrase from PBEM_PASSPHRASE, or else typed at the terminal (never echoed)."""
    value = _GIVEN.get()
    if value is not None:
        return value
    value = os.environ.get(PASSPHRASE_ENV)
    if value is not None:
        return value
    if not at_terminal():
        raise IdentityError(f"{prompt}: no terminal to ask on; set {PASSPHRASE_ENV}")
    return typed(f"{prompt}: ")


def typed(prompt: str) -> str:
    """What the player types at the terminal after ``prompt``, not echoed."""
    import getpass

    return getpass.getpass(prompt)


def at_terminal() -> bool:
    """Whether a passphrase is typed by a person, who may mistype it, rather than given by
    PBEM_PASSPHRASE or a script's standard input, which would be as wrong the next time."""
    return _GIVEN.get() is None and os.environ.get(PASSPHRASE_ENV) is None and sys.stdin.isatty()


@contextmanager
def keys_held() -> Iterator[None]:
    """Each key opened in this block (one command line) is opened once: a command that signs
    many entries (a player's move, then the computers' answers, each seat's shares) derives each
    passphrase's key once, not once per entry (the derivation is made slow on purpose). The keys
    are dropped when the block ends; a key file changed meanwhile is opened again."""
    token = _HELD.set({})
    try:
        yield
    finally:
        _HELD.reset(token)


def open_key(name: str) -> SecretKeys:
    """Your private key ``name``, asking for its passphrase if it has one: again after a wrong
    one at a terminal, up to PASSPHRASE_TRIES times in all."""
    import hashlib

    from pbem.keys import KeyStore

    store = KeyStore()
    held = _HELD.get()
    path = store.key_path(name)
    try:
        kept = (str(path), hashlib.sha256(path.read_bytes()).hexdigest()) if held is not None else None
    except OSError:
        kept = None  # opened below, which says what is wrong with it
    if held is not None and kept is not None and kept in held:
        return held[kept]
    secret = store.secret(name, ask_passphrase, PASSPHRASE_TRIES if at_terminal() else 1)
    if held is not None and kept is not None:
        held[kept] = secret
    return secret


def new_passphrase(name: str) -> str:
    value = os.environ.get(PASSPHRASE_ENV)
    if value is None:
        value = ask_passphrase(f"new passphrase for key {name!r}")
        if ask_passphrase("the same passphrase again") != value:
            raise IdentityError("the two passphrases differ; nothing was written")
    if not value:
        raise IdentityError("empty passphrase; use --no-passphrase to store the key unencrypted")
    if len(value) < MIN_PASSPHRASE:
        raise IdentityError(
            f"a passphrase of {len(value)} characters is too short: use at least {MIN_PASSPHRASE} "
            "(a few words are easy to remember); nothing was written"
        )
    return value


def now() -> str:
    """The current UTC time as RFC 3339; PBEM_NOW fixes it for tests and reproducible examples."""
    fixed = os.environ.get(NOW_ENV)
    if fixed:
        return fixed
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def output_width() -> int | None:
    """The width to wrap plain text at, the same as rich's tables (``pbem.render.output_width``)."""
    from pbem.render import output_width as width

    return width()


def echo_wrapped(text: str, *, first: str | None = None, indent: int = 0) -> None:
    """Print ``text`` wrapped to the output's width at spaces only, so no word a player may type
    (a tile id, a command) is ever split; continuation lines are indented by ``indent``."""
    import textwrap

    import typer

    lead = " " * indent if first is None else first
    kept = _COLLECTED.get()
    if kept is not None:
        kept.append((lead + text).strip())
        return
    width = output_width()
    if width is None:
        typer.echo(lead + text)
        return
    from rich.cells import cell_len

    width = max(width, cell_len(lead) + 20)
    if cell_len(lead + text) != len(lead + text):
        typer.echo("\n".join(wrap_cells(text, width, lead, " " * indent)))
        return
    lines = textwrap.wrap(
        text,
        width=width,
        initial_indent=lead,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    typer.echo("\n".join(lines or [lead.rstrip()]))


def wrap_cells(text: str, width: int, lead: str, indent: str) -> list[str]:
    """``text`` wrapped at spaces to ``width`` terminal columns: a Chinese or Japanese letter takes
    two, which ``textwrap`` (counting letters) does not know."""
    from rich.cells import cell_len

    lines: list[str] = []
    line = lead
    for word in text.split():
        if line.strip() and cell_len(line) + 1 + cell_len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line += (" " if line.strip() else "") + word
    lines.append(line if line.strip() else lead.rstrip())
    return lines


def print_json(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def option_texts(items: list[str]) -> dict[str, str]:
    """``--option key=value`` texts as a table; a malformed one is a usage error."""
    from pbem.errors import UsageError

    options: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--option {item!r}: write it as key=value")
        options[name.strip()] = value.strip()
    return options
