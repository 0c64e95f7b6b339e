"""What ``pbem show``, ``status`` and ``undo`` say in words: each seat's own part of a sealed step,
no internal value, no Python literal, the names a player reads on the board."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.cli.play_commands import sealing
from pbem.engine.table import Table
from pbem.games.il_principe import rounds
from pbem.games.il_principe.game import RESERVE
from pbem.games.il_principe.rules import RULES as PRINCIPE
from pbem.render.picture import game_svg
from pbem.render.state import render
from tests.test_ip_rules import started


def principe_one_sealed() -> tuple[dict[str, Any], str, str]:
    """The view ``pbem show`` gives of an Il Principe game in its first reserve, where andrea has
    sealed its choice and the others have not."""
    game, _ = started()
    assert game.phase == RESERVE
    table = Table("0" * 32, game.seats, game, 0)
    step = rounds.step(game)
    table.commitments[step] = {"andrea": "00"}
    table.sealed[step] = {"andrea": "AA=="}
    return PRINCIPE.view(game, None) | {"sealed": sealing(PRINCIPE, table)}, step, "andrea"


def test_principe_show_says_which_seat_sealed_its_reserve(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the seat that sealed its reserve is said to have: the JSON, the text and the picture
    each say who has sealed and who has still to."""
    view, step, done = principe_one_sealed()
    assert view["sealed"] == [{"step": step, "sealed": [done], "to_seal": ["barbara", "tom", "nick"]}]
    assert [player["reserve"] for player in view["players"]] == [None] * 4  # a count once revealed
    render("il-principe", "Il Principe", view, {})
    text = capsys.readouterr().out
    assert f"{step}: sealed by andrea; still to seal: barbara, tom, nick" in text
    assert "sealed" not in text.replace(f"{step}: sealed by", "")
    picture = game_svg("il-principe", "Il Principe", view, None)
    assert picture.count("put in the reserve this round: sealed, not yet revealed") == 1
    assert picture.count("put in the reserve this round: not sealed yet") == 3
