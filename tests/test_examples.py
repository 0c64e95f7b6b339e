"""The shipped examples: the signed game verifies, the tampered copy is refused."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_game_verifies(cli: Cli) -> None:
    result = cli("verify", str(EXAMPLES / "three-players.toml"))
    assert result.exit_code == 0, result.stderr
    assert "Princes of the Renaissance (2016)" in result.stdout
    assert "5 entries" in result.stdout


def test_tampered_example_is_refused(cli: Cli) -> None:
    path = EXAMPLES / "tampered" / "forged-note.toml"
    result = cli("verify", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}: entry 4 (by alice): signature does not verify")


def test_complete_example_game_replays_to_its_final_score(cli: Cli) -> None:
    """The four-player example is a whole game: verify replays every move, show gives the score."""
    import json

    path = EXAMPLES / "four-players.toml"
    assert cli("verify", str(path)).exit_code == 0
    view = json.loads(cli("show", str(path), "--json").stdout)
    assert view["phase"] == "game over" and view["score_final"] is True
    scores = view["score"]
    assert sorted(scores) == ["alice", "bruno", "chiara", "dario"]
    for row in scores.values():
        parts = [value for name, value in row.items() if name not in ("total", "gold + influence")]
        assert row["total"] == sum(parts)
    best = max(row["total"] for row in scores.values())
    assert view["winners"] and all(scores[seat]["total"] == best for seat in view["winners"])
    # a game with wars fought to the dice, Treachery cards played and tile powers used
    events = "\n".join(view["events"])
    signs = (
        "starts a war",
        "becomes the attacker's condottiere",
        "plays Veto",
        "plays Bad Weather",
        "Holy League",
        "bribes",
        "plays Freeze Bid",
        "uses the Banker",
        "keeps one card",
    )
    for sign in signs:
        assert sign in events, sign
    assert sum(row["war victories"] for row in scores.values()) > 0


def test_complete_b_side_example_has_baglionis_declarations_and_ludovicos_rerolls(cli: Cli) -> None:
    """The Alternative game (Family tiles' B side): Baglioni declares its discount each decade."""
    import json

    path = EXAMPLES / "four-players-b-side.toml"
    assert cli("verify", str(path)).exit_code == 0
    view = json.loads(cli("show", str(path), "--json").stdout)
    assert view["phase"] == "game over" and view["family_side"] == "b"
    events = "\n".join(view["events"])
    for sign in ("takes its discount in", "uses Ludovico Sforza", "Start War card", "starts a war"):
        assert sign in events, sign


def test_table_example_of_princes_of_the_renaissance_scores_as_worked_by_hand(cli: Cli) -> None:
    """examples/table/princes-of-the-renaissance.toml, scored by hand from its actions:
    final statuses Florence 9, Venice 6 (2 Artist tiles), Rome 6 (none), Milan 5, Naples 4, so
    a City tile scores Florence 10, Venice 7 (it wins the tie on Artist tiles), Rome 5, Milan 3,
    Naples 2.
    - alice: 3 Venice tiles 21, Victory 2, most influence (12) 4, one war victory 1 = 28
    - bob: 3 Milan tiles 9, Victory 4 + Victory 2 = 6, 2 Wine Merchants x 1 Merchant tile 2,
      most gold (44) 6, second influence (11) 2, two war victories 1 + 2 = 3 = 28
    - carla: 2 Florence tiles 20, Victory 3 + 3 + 4 = 10, the Pope 3, second gold (30) 3 = 36
    """
    import json

    path = EXAMPLES / "table" / "princes-of-the-renaissance.toml"
    assert cli("table", "verify", str(path)).exit_code == 0
    score = json.loads(cli("table", "score", str(path), "--json").stdout)
    assert score["totals"] == {"alice": 28, "bob": 28, "carla": 36}
    report = score["reports"][0]
    assert report["data"]["final"] is True and report["data"]["winners"] == ["carla"]
    rows = {row[0]: row[1:] for row in report["rows"]}
    assert rows["city tiles"] == [21, 9, 20]
    assert rows["wine merchants"] == [0, 2, 0]
    assert rows["war victories"] == [1, 3, 0]


def test_table_example_of_il_principe_scores_as_worked_by_hand(cli: Cli) -> None:
    """examples/table/il-principe.toml, two rounds with the rich_start variant, then the table
    ends the game. By hand from its actions:
    - track: ann Firenze 8 + role points 2 + 2 + 2 = 14; ben red major 2 + Milano 6 = 8;
      cat bishop 1 + Lucca 6 + bishop 1 = 8
    - regions (5 to the most, 2 to a lone second, 5 each to tied firsts): brown ann 5; green ann
      and ben tied 5 each; red ann and cat tied 5 each; blue ben 5; yellow cat 5, ben 2:
      ann 15, ben 12, cat 10
    - roles (major 2, minor 1): ann master + banker 4; ben noble 2; cat bishop + knight 3
    - most ducats: ben (14, against 12 and 12) 2; most cards in hand: cat (3) 2
    - ann 33, ben 24, cat 23
    """
    import json

    path = EXAMPLES / "table" / "il-principe.toml"
    assert cli("table", "verify", str(path)).exit_code == 0
    score = json.loads(cli("table", "score", str(path), "--json").stdout)
    assert score["totals"] == {"ann": 33, "ben": 24, "cat": 23}
    rows = {row[0]: row[1:8] for row in score["reports"][0]["rows"]}
    assert rows["ann"] == [14, 15, 4, 0, 0, 0, 33]
    assert rows["cat"] == [8, 10, 3, 0, 0, 2, 23]
