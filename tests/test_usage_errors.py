"""A command line pbem cannot read is one ``error:`` line and exit 2; ``--help`` stays whole.

The help lists every exit code pbem defines, and no help text carries a line break of its own
inside a paragraph (the help renderer keeps it, which cut ``pbem show``'s line in two).
"""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from pbem.cli import app
from pbem.errors import EXIT_CODES, PbemError
from tests.conftest import run_cli


def commands(command: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and group of ``pbem``, with the words that name it."""
    command = command if command is not None else typer.main.get_command(app)
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, (*path, name))


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["status"], "error: missing argument 'file' (see pbem status --help)"),
        (["key", "new"], "error: missing argument 'name' (see pbem key new --help)"),
        (["mail", "send"], "error: missing argument 'file' (see pbem mail send --help)"),
        (["table", "add"], "error: missing argument 'file' (see pbem table add --help)"),
        # Commands made by one factory (entry_command) keep their own argument's name.
        (["note", "game.toml"], "error: missing argument 'text' (see pbem note --help)"),
        (["mail", "address", "game.toml"], "error: missing argument 'email' (see pbem mail address --help)"),
        (["sync", "game.toml"], "error: missing option '--as' (see pbem sync --help)"),
        (["play", "game.toml", "bid", "7"], "error: missing option '--as' (see pbem play --help)"),
        (["bogus"], "error: no such command 'bogus' (see pbem --help)"),
        (["key", "forge", "x"], "error: no such command 'forge' (see pbem key --help)"),
        (["mail", "post"], "error: no such command 'post'; did you mean 'import'? (see pbem mail --help)"),
        (["--bogus"], "error: no such option: --bogus (see pbem --help)"),
        (["key", "new", "x", "--bogus"], "error: no such option: --bogus (see pbem key new --help)"),
        (["table", "new", "t.toml", "--frob"], "error: no such option: --frob (see pbem table new --help)"),
        (
            ["log", "game.toml", "--json=3"],
            "error: option '--json' does not take a value (see pbem log --help)",
        ),
        (
            ["mail", "send", "game.toml", "--as"],
            "error: option '--as' requires an argument (see pbem mail send --help)",
        ),
        (
            ["key", "new", "x", "--no-passphrase=yes"],
            "error: option '--no-passphrase' does not take a value (see pbem key new --help)",
        ),
    ],
)
def test_a_command_line_pbem_cannot_read_is_one_error_line(
    tmp_path: Path, args: list[str], line: str
) -> None:
    assert one_error_line(run_cli(tmp_path, *args)) == line


def test_a_bad_option_value_is_one_error_line(tmp_path: Path) -> None:
    picture = tmp_path / "folder"
    picture.mkdir()
    line = one_error_line(run_cli(tmp_path, "show", "game.toml", "--svg", str(picture)))
    assert line.startswith("error: invalid value for '--svg': ")
    assert line.endswith(" (see pbem show --help)")


def test_a_group_with_nothing_after_it_still_shows_its_help(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "key")
    assert "Manage your keys" in result.output
    assert "error:" not in result.output


def test_help_is_pretty_and_whole(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "table", "add", "--help", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert "Usage: pbem table add" in result.stdout
    assert "╭─ Options" in result.stdout


def test_help_lists_every_exit_code_pbem_defines(tmp_path: Path) -> None:
    def kinds(kind: type[PbemError]) -> Iterator[type[PbemError]]:
        yield kind
        for sub in kind.__subclasses__():
            yield from kinds(sub)

    assert {kind.exit_code for kind in kinds(PbemError)} <= set(EXIT_CODES)
    for columns in ("80", "120"):
        epilog = run_cli(tmp_path, "--help", env={"COLUMNS": columns}).stdout.split("Exit codes:")[1]
        listed = {int(match) for match in re.findall(r"^\s*(\d+)  \S", epilog, re.MULTILINE)}
        assert listed == set(EXIT_CODES)
        for code, meaning in EXIT_CODES.items():
            assert f"{code}  {meaning}" in epilog


def test_no_help_text_breaks_a_line_of_its_own() -> None:
    """The help renderer keeps a docstring's single line breaks, where they fall mid-phrase
    whatever the width: a paragraph of help is one line of source text."""
    broken = []
    for path, command in commands():
        for paragraph in inspect.cleandoc(command.help or "").split("\n\n"):
            if "\n" in paragraph:
                broken.append(f"pbem {' '.join(path)}: {paragraph!r}")
        for param in command.params:
            if "\n" in (getattr(param, "help", None) or ""):
                broken.append(f"pbem {' '.join(path)} {param.name}: {param.help!r}")
    assert broken == []


def forced_breaks(text: str) -> list[tuple[str, str]]:
    """Lines of a help's panels cut before they were full: the next line of the same cell starts
    with a word that would have fit (the renderer wraps at the width, so only a line break in the
    help text itself does that). Typer's own notes (``[required]``, ``[default: ...]``) start
    lines of their own; a line that starts with an option, or an argument's name and type, starts
    a row."""
    found = []
    for before, after in itertools.pairwise(text.splitlines()):
        if not (before.startswith("│") and after.startswith("│")):
            continue
        cell, previous = after[1:-1], before[1:-1]
        indent = len(cell) - len(cell.lstrip())
        words = cell.split()
        if indent <= 1 or not words or words[0].startswith(("[", "-", "*")):
            continue  # a new row (a command, an option), an empty line, Typer's note
        if len(words) > 1 and words[1].startswith("<"):
            continue  # a new row: an argument that may be left out, its name then its type
        room = len(previous) - len(previous.rstrip()) - 1  # the panel's right padding stays
        if len(words[0]) + 1 <= room:
            found.append((before.strip(" │"), after.strip(" │")))
    return found


@pytest.mark.parametrize("columns", ["80", "120"])
def test_no_help_line_is_cut_before_it_is_full(columns: str) -> None:
    """Every command's --help, at 80 columns and at 120."""
    cut = []
    for path, _ in commands():
        result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": columns, "NO_COLOR": "1"})
        assert result.exit_code == 0
        cut += [(" ".join(path), *pair) for pair in forced_breaks(result.stdout)]
    assert cut == []
