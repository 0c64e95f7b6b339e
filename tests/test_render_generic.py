"""A game without a renderer of its own is shown from its view's shape, never refused: Il Principe
by email, and a view with a board drawn in characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.render.generic import render
from tests.conftest import Cli, game_ids


def test_il_principe_by_email_is_shown(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "principe.toml"
    with game_ids("principe show"):
        made = cli("new", str(game), "--game", "il-principe", "--players", "a,b,c", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    for seat in "bc":
        assert cli("join", str(game), "--as", seat, home=seat).exit_code == 0
    shown = cli("show", str(game), home="a", env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.startswith("Il Principe — ")
    assert "ducats" in shown.stdout and "score" in shown.stdout
    assert all(seat in shown.stdout for seat in "abc")


def test_values_records_and_drawn_boards(capsys: pytest.CaptureFixture[str]) -> None:
    view = {
        "phase": "auctions",
        "round": 2,
        "offer": ["red", "blue"],
        "players": [
            {"seat": "ann", "money": 7, "board": "1 ab\n2 cd"},
            {"seat": "ben", "money": 3, "board": "1 ..\n2 .."},
        ],
        "score": {"ann": {"total": 5}, "ben": {"total": 4}},
        "score_final": False,
    }
    render("A Game", view, {"bid": "12"})
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "A Game — auctions"
    assert "round: 2" in out and "offer: red, blue" in out
    assert "your sealed bid: 12" in out
    assert "ann board\n1 ab\n2 cd" in out and "ben board\n1 ..\n2 .." in out
    assert "money" in out and "total" in out
    assert "score_final" not in out and "final score" not in out
    render("A Game", {**view, "phase": "over", "score_final": True, "winners": ["ann"]}, {})
    out = capsys.readouterr().out
    assert "final score" in out and "winners: ann" in out
