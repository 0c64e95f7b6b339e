"""What ``pbem show``, ``status`` and ``undo`` say in words: each seat's own part of a sealed step,
no internal value, no Python literal, the names a player reads on the board."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.cli.play_commands import sealing
from pbem.engine.table import Table
from pbem.games.il_principe import rounds
from pbem.games.il_principe.rules import RULES as PRINCIPE
from pbem.games.il_principe.state import RESERVE
from pbem.games.princes_of_the_renaissance.rules import RULES as POTR
from pbem.games.princes_of_the_renaissance.state import GAME_OVER, Game
from pbem.render.picture import game_svg
from pbem.render.state import render
from tests import hidden_deck_game
from tests.conftest import Cli, game_ids, make_key_homes, run_cli
from tests.games.il_principe.test_rules import started
from tests.games.princes_of_the_renaissance import support as potr_support


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


def test_undo_with_nothing_played_names_no_internal_value(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game()
    before = game.read_bytes()
    result = cli("undo", str(game), "--as", "a", home="a")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: a has no move to undo: nothing has been played since the game began or the last undo\n",
    )
    assert game.read_bytes() == before


@pytest.fixture(scope="module")
def two_draws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A hidden-deck game where a then b drew a card: c owes a share of each, a one of b's."""
    root = tmp_path_factory.mktemp("shares")
    make_key_homes(root, ("a", "b", "c"))
    game = root / "game.toml"
    with hidden_deck_game.registered(), game_ids("status in a deal"):
        steps = [
            ("a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", "a,b,c", "--as", "a"),
            ("b", "join", str(game), "--as", "b"),
            ("c", "join", str(game), "--as", "c"),
            ("a", "play", str(game), "--as", "a", "pass"),
            ("b", "play", str(game), "--as", "b", "pass"),
            ("c", "play", str(game), "--as", "c", "pass"),
            ("a", "play", str(game), "--as", "a", "draw"),
            ("b", "play", str(game), "--as", "b", "draw"),
        ]
        for seat, *args in steps:
            result = run_cli(root / seat, *args)
            assert result.exit_code == 0, result.stderr
        yield game


def test_status_names_what_a_seat_owes_the_decks_once(two_draws: Path) -> None:
    """c owes two shares: status says so in one line and one pbem sync, not a line pair each;
    --json still lists every share, and its command holds a command alone."""
    root = two_draws.parent
    report = json.loads(run_cli(root / "a", "status", str(two_draws), "--json").stdout)
    owed = [item for item in report["waiting"] if item["seat"] == "c" and item["kind"] == "share"]
    assert len(owed) == 2
    assert {item["command"] for item in owed} == {f"pbem sync {two_draws} --as c"}
    assert {item["note"] for item in owed} == {"or it rides in the seat's next entry"}
    text = run_cli(root / "a", "status", str(two_draws)).stdout
    assert text.count(f"pbem sync {two_draws} --as c") == 1
    assert "give its decryption shares of 2 cards" in text
    assert text.count("give its decryption share of a card") == 1  # a's one share of b's draw, no token


def test_status_and_log_say_a_random_event_and_the_decks_in_the_same_words(cli: Cli, tmp_path: Path) -> None:
    """What randomness is for, as the rules word it (never the name the file binds the draw to);
    shares counted and cards shown named, never a line or a token per card: status asks for it
    and the log says it was given in the same words."""
    game = tmp_path / "game.toml"
    assert (
        cli("new", str(game), "--game", "il-principe", "--players", "a,b,c", "--as", "a", home="a").exit_code
        == 0
    )
    for seat in "bc":
        assert cli("join", str(game), "--as", seat, home=seat).exit_code == 0
    status = cli("status", str(game), home="a").stdout
    assert "add randomness to the draw that turns up the next city cards" in status, status
    assert "after 0 built" not in status
    example = Path(__file__).resolve().parent.parent / "examples" / "principe-four-players.toml"
    logged = {item["seq"]: item["what"] for item in json.loads(cli("log", str(example), "--json").stdout)}
    assert logged[4] == "added randomness to the draw that turns up the next city cards"
    assert logged[10] == "sealed a round 1 reserve [gave its decryption shares of 12 cards]"
    assert logged[18] == "show [showed red, blue]"
    given = [what.partition(" [")[2] for what in logged.values()]  # what an entry gave the decks
    assert not any(re.search(r"[a-z]+:\d", what) for what in given), "no card token"


def test_principe_text_view_has_no_python_literal_and_english_region_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The regions are named in English (the template's display names, the texts' French kept
    apart), and a yes or no reads as a word."""
    game, _ = started()
    view = PRINCIPE.view(game, None)
    assert view["regions"] == {colour: colour for colour in sorted(view["regions"])}
    assert game.components.regions["blue"] == "bleue"  # the texts' own name stays in the data
    render("il-principe", "Il Principe", view, {})
    text = capsys.readouterr().out
    assert not re.search(r"\b(True|False)\b", text)
    assert "last round: no" in text
    assert not re.search(r"\b(bleue|marron|verte|violette|rouge|jaune)\b", text)


POTR_FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "montefeltro", "d": "este"}


def renaissance_decade_one() -> Game:
    state = potr_support.decade_one(game_id="views-words", families=POTR_FAMILIES, phase=None)
    potr_support.grant(state, "b", "milan-armourer")
    return state


def test_renaissance_view_names_powers_in_words_and_prices_troops(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A City tile's power reads as what it does (not ``banker``), and each Troop tile its price."""
    monkeypatch.setenv("COLUMNS", "250")  # a table row on one line
    state = renaissance_decade_one()
    state.city_supply.append("florence-banker")
    render("princes-of-the-renaissance", "Princes of the Renaissance", POTR.view(state, None), {})
    text = " ".join(capsys.readouterr().out.split())
    for ability in ("banker", "armourer"):
        assert not re.search(rf"(?<![-\w]){ability}(?![-\w])", text), ability
    assert "once a decade, turn up to 3 gold into as much influence" in text
    for troop in state.components.troops:
        assert f"{troop.name} │ {troop.cost} gold" in text


def test_renaissance_view_offers_nothing_once_the_game_is_over(capsys: pytest.CaptureFixture[str]) -> None:
    """Once the game is over nothing is for sale: no tiles, no Pope, no troops on offer."""
    state = copy.deepcopy(renaissance_decade_one())
    state.phase = GAME_OVER
    view = POTR.view(state, None)
    assert "city_tiles_on_offer" not in view and not view["pope"]["on_offer"]
    render("princes-of-the-renaissance", "Princes of the Renaissance", view, {})
    assert "on offer" not in capsys.readouterr().out
    assert "on offer" not in game_svg("princes-of-the-renaissance", "Princes of the Renaissance", view, None)
