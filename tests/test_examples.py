"""The shipped examples: the signed game verifies, the tampered copy is refused."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from pbem.engine.json_shape import snake_scores
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


def hidden_deck_entries(path: Path) -> tuple[list[str], Counter[int], int]:
    """Who shuffled the Treachery deck (in file order), how many decryption shares each slot got
    and how many cards were shown face up, read from the file's entries."""
    entries = tomllib.loads(path.read_text())["entry"]
    shufflers = [
        e["by"] for e in entries for shuffle in e.get("shuffles", []) if shuffle["deck"] == "treachery"
    ]
    shares = Counter(slot for e in entries for table in e.get("shares", []) for slot in table["slots"])
    return shufflers, shares, sum(1 for e in entries if "face_up" in e)


def check_hidden_deck(cli: Cli, path: Path) -> None:
    """The example was dealt from the hidden Treachery deck: every seat shuffled it once, in seat
    order, each draw got a share from each of the three other seats (a card Bentivogli put back
    under the deck may have had fewer, and gets three more when it is drawn again), and verify
    checked it all."""
    verified = cli("verify", str(path))
    assert verified.exit_code == 0, verified.stderr
    assert "every hidden-deck proof checked" in verified.stdout
    shufflers, shares, face_up = hidden_deck_entries(path)
    assert shufflers == ["alice", "bruno", "chiara", "dario"]
    assert shares and face_up > 0
    assert sum(count == 3 for count in shares.values()) > len(shares) // 2


def test_complete_example_game_replays_to_its_final_score(cli: Cli) -> None:
    """The four-player example is a whole game: verify replays every move, show gives the score."""
    import json

    path = EXAMPLES / "four-players.toml"
    check_hidden_deck(cli, path)
    view = json.loads(cli("show", str(path), "--json").stdout)
    assert view["phase"] == "game over" and view["score_final"] is True
    scores = view["score"]
    assert sorted(scores) == ["alice", "bruno", "chiara", "dario"]
    for row in scores.values():
        parts = [value for name, value in row.items() if name not in ("total", "gold_and_influence")]
        assert row["total"] == sum(parts)
    best = max(row["total"] for row in scores.values())
    assert view["winners"] and all(scores[seat]["total"] == best for seat in view["winners"])
    # a game people play: wars fought to the dice, Treachery cards played, and every player
    # holding City tiles and scoring
    events = "\n".join(view["events"])
    assert "starts a war" in events
    assert any(" plays " in event for event in view["events"])
    assert sum(row["war_victories"] for row in scores.values()) > 0
    for seat, player in view["players"].items():
        assert player["city_tiles"] and scores[seat]["city_tiles"] > 0, seat


def test_complete_b_side_example_has_baglionis_declarations(cli: Cli) -> None:
    """The Alternative game (Family tiles' B side): Baglioni, if a player took it, declares its
    discount each decade."""
    import json

    path = EXAMPLES / "four-players-b-side.toml"
    check_hidden_deck(cli, path)
    view = json.loads(cli("show", str(path), "--json").stdout)
    assert view["phase"] == "game over" and view["family_side"] == "b"
    events = "\n".join(view["events"])
    assert "starts a war" in events
    if any(player["family"] == "baglioni" for player in view["players"].values()):
        assert "takes its discount in" in events


def test_table_example_of_princes_of_the_renaissance_scores_as_worked_by_hand(cli: Cli) -> None:
    """examples/table/princes-of-the-renaissance.toml, scored by hand from its actions:
    final statuses Florence 9, Venice 6 (2 Artist tiles), Rome 6 (none), Milan 5, Naples 4, so
    a City tile scores Florence 10, Venice 7 (it wins the tie on Artist tiles), Rome 5, Milan 3,
    Naples 2.
    - alice: 3 Venice tiles 21, Victory 2, most influence (12) 4, one war victory 1 = 28
    - bob: 3 Milan tiles 9, Victory 4 + Victory 2 = 6, 2 Wine Merchants x 1 Merchant tile 2,
      most gold (44) 6, second influence (11) 2, two war victories 1 + 2 = 3 = 28
    - carla: 2 Florence tiles 20, Victory 3 + 3 + 4 = 10, the Pope (won again in decade III) 3,
      second gold (27) 3 = 36
    The Pope carla won in decade I went back at its end, so decade II's income paid her no Pope gold.
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


def test_table_example_of_princes_of_florence_scores_as_worked_by_hand(cli: Cli) -> None:
    """examples/table/princes-of-florence.toml, seven rounds, scored by hand from its actions.
    Works (WP = building 4 + landscape 3 + freedom 3 + 2 per jester + 1 per profession and
    recruitment card + bonus cards), with the prestige taken instead of florins:
    - alice: mathematician 4+3 = 7 (r1); cartographer 3+3+3 = 9 (r2); clockmaker 4+3+3 + buildings
      bonus 3 = 13, prestige 2 (r4); alchemist 4+3+3+2+3 + sizes bonus 2x3 = 21, prestige 6 (r7)
    - bob: poet 4+2+3 = 9, prestige 2 (r1); playwright 4+4+5 = 13, prestige 3 (r3); painter 4+3+6+5
      = 18 (r4); clockmaker recruited from alice 3+3+6+7 = 19 (r5); composer 4+3+3+8+7 = 25,
      prestige 5 (r6); choreographer 4+3+8+7 = 22, prestige 10 (r7)
    - carla: physicist 4+3+3 = 10 (r1); bell-founder 3+3+3 = 9, prestige 2 (r2); botanist 4+3+3+3 +
      forests bonus 4 = 17, prestige 4 (r4); astronomer 4+3+3+4 + landscape-types bonus 6 = 20
      (r6); goldsmith 4+3+5 + small-and-landscapes bonus 1+5 = 18, prestige 4 (r7)
    Best work: r1 carla 10; r2 alice and carla tied at 9, both; r3 bob 13; r4 bob 18; r5 bob 19;
    r6 bob 25; r7 bob 22.
    - alice: 5 buildings 15, 2nd and 3rd builders 6, works 2 + 6 = 8, best work 3 = 32; most
      builders (3 against 1 and 0) 6, most buildings (5 against 4 and 3) 6: 44, 2,200 florins
    - bob: 4 buildings 12, works 2 + 3 + 5 + 10 = 20, best work 5 x 3 = 15: 47, 4,400 florins
    - carla: 3 buildings 9, 2nd and 3rd forests 6, works 2 + 4 + 4 = 10, best work 2 x 3 = 6, sold
      2: 29; most forests (3 against 0 and 0) 7, all landscapes 8: 44, 2,000 florins
    bob wins; alice and carla share second.
    """
    import json

    path = EXAMPLES / "table" / "princes-of-florence.toml"
    assert cli("table", "verify", str(path)).exit_code == 0
    score = json.loads(cli("table", "score", str(path), "--json").stdout)
    assert score["totals"] == {"alice": 44, "bob": 47, "carla": 44}
    report = score["reports"][0]
    assert report["data"]["winners"] == ["bob"]
    # Both cards bought face down are revealed after round 7, so the score is final.
    assert (report["title"], report["data"]["complete"]) == ("Score (final)", True)
    rows = {row[0]: row[1:] for row in report["rows"]}
    assert rows["works"] == [8, 20, 10]
    assert rows["best work"] == [3, 15, 6]
    assert rows["prestige cards"] == [12, 0, 15]
    assert rows["sold"] == [0, 0, -2]
    assert rows["florins (tie-break)"] == [2200, 4400, 2000]


def test_complete_florence_example_replays_to_the_score_the_rules_count(cli: Cli) -> None:
    """examples/florence-four-players.toml, made by examples/play-florence.py: a whole game of
    Princes of Florence played through the command line. verify checks every card dealt, shown and
    put back; show's score is the one the rules give the replayed game and the one the test counts
    from the estates, the works and the rules text; nothing still face down is named in the file."""
    import json

    from pbem.engine import ledger
    from pbem.games.princes_of_florence.rules import RULES
    from tests.games.princes_of_florence.test_ledger import (
        books,
        encodings,
        face_down,
        occurs,
        outside_components,
    )
    from tests.games.princes_of_florence.test_rules_playouts import final_score

    path = EXAMPLES / "florence-four-players.toml"
    verified = cli("verify", str(path))
    assert verified.exit_code == 0, verified.stderr
    assert "Princes of Florence (standard)" in verified.stdout
    assert "every hidden-deck proof checked" in verified.stdout
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    # verify has just checked every proof: the replay here need not pay for them again.
    audited = ledger.audit(data, lambda key, run: None)
    assert audited.ok and audited.ledger is not None and audited.ledger.table is not None
    state = audited.ledger.table.state
    assert state.phase == "over" and state.round == 7
    view = json.loads(cli("show", str(path), "--json").stdout)
    assert view["score"] == snake_scores(RULES.score(state))
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    assert totals == final_score(state, books(state, data["entry"]))
    assert sorted(totals) == ["alice", "bruno", "chiara", "dario"]
    assert view["score_final"] is True and view["winners"]
    best = max(totals.values())
    assert all(totals[seat] == best for seat in view["winners"])
    for row in view["players"]:  # a game people play: estates built on, works made, money spent
        assert len(row["buildings"]) >= 3 and len(row["works"]) >= 2, row["seat"]
        assert row["empty_squares"] < 30 and row["florins"] < 1000 and totals[row["seat"]] > 20, row["seat"]
    shown = cli("show", str(path))
    assert shown.exit_code == 0, shown.stderr
    assert "final score" in shown.stdout and f"winner: {', '.join(view['winners'])}" in shown.stdout
    entries = data["entry"]
    moves = Counter(entry["move"].split()[0] for entry in entries if entry["kind"] == "move")
    for verb in ("auction", "bid", "build", "work", "take", "keep", "reveal"):
        assert moves[verb] > 0, verb
    shufflers = [e["by"] for e in entries for item in e.get("shuffles", []) if item["deck"] == "profession"]
    assert shufflers == ["alice", "bruno", "chiara", "dario"] * 2  # again after the deal
    hidden = outside_components(text)
    for deck, index in face_down(audited.ledger):
        for form in encodings(deck, index):
            assert not occurs(hidden, form), (deck, index, form[:40])


def test_complete_principe_example_replays_to_the_score_the_rules_count() -> None:
    """examples/principe-four-players.toml, made by examples/play-principe.py: a whole game of Il
    Principe played through the command line, to the end the rules give. The replayed game's final
    score is the one the playout test counts from the table, with its winners; once it is over
    nobody is asked for anything, and no card left face down is named in the file. (The replay
    skips the hidden deck's proofs, a few seconds: CI's pbem verify of every example checks them.)"""
    from pbem.engine import ledger
    from pbem.engine import table as tables
    from pbem.games.il_principe.rules import RULES
    from pbem.games.il_principe.view import winners
    from tests.games.il_principe.test_ledger import colour_words, strings
    from tests.games.il_principe.test_rules_playouts import independent_score

    data = tomllib.loads((EXAMPLES / "principe-four-players.toml").read_text(encoding="utf-8"))
    audited = ledger.audit(data, lambda key, run: None)
    assert audited.ok and audited.ledger is not None and audited.ledger.table is not None
    state = audited.ledger.table.state
    assert state.phase == "over" and state.last_round and RULES.over(state)
    assert state.seats == ("alice", "bruno", "chiara", "dario")
    view = RULES.view(state, None)
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    assert totals == independent_score(state)
    assert view["score_final"] is True and view["winners"] == winners(state)[0]
    best = max(totals.values())
    assert view["winners"] and all(totals[seat] == best for seat in view["winners"])
    assert tables.demands(RULES, audited.ledger.table) == []
    moves = Counter(entry["move"].split()[0] for entry in data["entry"] if entry["kind"] == "move")
    for verb in ("show", "bid", "build", "play", "shield"):
        assert moves[verb] > 0, verb
    assert state.built and {entry["kind"] for entry in data["entry"]} >= {"commit", "reveal", "contribute"}
    for seat in state.seats:  # a game people play: every family builds and scores
        assert seat in state.built.values() and totals[seat] > 0, seat
    for field, value in strings(data["entry"]):  # a colour is named only where a card is face up
        assert field in ("card", "cards", "move", "value") or not colour_words(value), (field, value)


def test_example_played_by_email_holds_each_players_address(cli: Cli) -> None:
    """examples/three-players-by-email.toml, made by examples/play-by-email.py: each player gave the
    address its mail goes to when creating or joining (signed, and the creator's hashed into the
    game id), bruno moved his with an address entry before the game started, and one move was
    taken back with everyone's consent."""
    from pbem import gamefile
    from pbem.engine import ledger

    path = EXAMPLES / "three-players-by-email.toml"
    verified = cli("verify", str(path))
    assert verified.exit_code == 0, verified.stderr
    assert "every hidden-deck proof checked" in verified.stdout
    game = ledger.read(gamefile.load(path).data)
    assert game.addresses == {
        "alice": "alice@example.org",
        "bruno": "bruno@example.net",
        "chiara": "chiara@example.org",
    }
    kinds = [entry["kind"] for entry in game.entries]
    assert kinds[:4] == ["genesis", "join", "address", "join"]
    assert {"contribute", "commit", "reveal", "move", "undo", "consent"} <= set(kinds)
    assert len(game.void) == 1
    assert "(undone)" in cli("log", str(path)).stdout
