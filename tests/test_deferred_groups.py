"""The command groups (``pbem key``, ``mail``, ``table``, ``templates``) are built only when a
command line names one: ``pbem --help`` lists them without building their commands, and a group
once used is the group Typer would have built."""

from __future__ import annotations

import pytest
import typer
import typer.main

from pbem.cli import app
from pbem.cli.app import _DEFERRED, _Deferred

GROUPS = ("key", "templates", "table", "mail")


def test_help_lists_the_groups_without_building_them(capsys: pytest.CaptureFixture[str]) -> None:
    root = typer.main.get_command(app)  # a fresh one: the tests' runner keeps its own
    root.main(["--help"], prog_name="pbem", standalone_mode=False)
    listed = capsys.readouterr().out
    commands = root.commands  # type: ignore[attr-defined]
    assert list(commands)[-len(GROUPS) :] == list(GROUPS)  # after the commands, as Typer lists groups
    for name in GROUPS:
        assert f" {name} " in listed
        assert "_registration" in vars(commands[name]), f"{name} was built for --help"


def test_a_group_used_is_the_group_typer_builds() -> None:
    root = typer.main.get_command(app)
    for info in _DEFERRED:
        built = typer.main.get_group_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
            suggest_commands=app.suggest_commands,
        )
        deferred = root.commands[built.name]  # type: ignore[attr-defined]
        assert isinstance(deferred, _Deferred)
        assert (deferred.name, deferred.help, deferred.short_help, deferred.hidden) == (
            built.name,
            built.help,
            built.short_help,
            built.hidden,
        )
        assert list(deferred.commands) == list(built.commands)  # now built
        assert "_registration" not in vars(deferred)
        assert set(vars(deferred)) == set(vars(built))
