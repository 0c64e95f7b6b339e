"""pbem show of a Princes of Florence game by email: the round and what is on offer, each
player's estate as its grid, the score; with --as, the seat's own cards."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Cli, game_ids


def test_show_draws_each_estate_and_the_round(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "florence.toml"
    with game_ids("florence show"):
        made = cli(
            "new", str(game), "--game", "princes-of-florence", "--players", "a,b,c", "--as", "a",
            "--option", "escrow=none", home="a",
        )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    for seat in "bc":
        assert cli("join", str(game), "--as", seat, home=seat).exit_code == 0
    for seat in "abc":  # every seat shuffles the decks, and the professions are dealt
        assert cli("sync", str(game), "--as", seat, home=seat).exit_code == 0
    shown = cli("show", str(game), home="a", env={"COLUMNS": "100"})
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "Princes of Florence — round 1 of 7, deal; minimum work value 7", lines[0]
    # three estates side by side, each 7 by 7 with the palace in its corner
    assert any(
        line.split() == ["a", "(43", "empty)", "b", "(43", "empty)", "c", "(43", "empty)"] for line in lines
    )
    assert sum(line.split() == ["1", "PPP....", "1", "PPP....", "1", "PPP...."] for line in lines) == 1
    assert "score if the game ended now" in shown.stdout
    narrow = cli("show", str(game), home="a", env={"COLUMNS": "20"})
    assert narrow.exit_code == 0 and sum(line == "1 PPP...." for line in narrow.stdout.splitlines()) == 3
    own = cli("show", str(game), "--as", "a", home="a")
    assert own.exit_code == 0, own.stderr
    assert "profession:" in own.stdout, "a's own hand, by token"
