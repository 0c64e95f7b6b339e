"""Companion mode through the command line: the table log, undo and redo, refusals, signing."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.conftest import Cli

GAME = "princes-of-the-renaissance"


def new_table(cli: Cli, path: Path, players: str = "a,b,c", *extra: str) -> None:
    result = cli("table", "new", str(path), "--game", GAME, "--players", players, *extra)
    assert result.exit_code == 0, result.stderr


def add(cli: Cli, path: Path, text: str, *extra: str, home: str | None = None) -> None:
    result = cli("table", "add", str(path), *text.split(), *extra, home=home)
    assert result.exit_code == 0, result.stderr


def actions(path: Path) -> list[str]:
    return [action["text"] for action in tomllib.loads(path.read_text()).get("action", [])]


def totals(cli: Cli, path: Path) -> dict[str, int]:
    result = cli("table", "score", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    scores: dict[str, int] = json.loads(result.stdout)["totals"]
    return scores


def test_each_action_is_one_entry_with_time_and_who_entered_it(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    result = cli(
        "table",
        "add",
        str(path),
        "a",
        "takes",
        "family",
        "este",
        "--by",
        "zoe",
        env={"PBEM_NOW": "2026-05-01T20:00:00Z"},
    )
    assert result.exit_code == 0, result.stderr
    assert "recorded action 1: a takes family este" in result.stderr
    action = tomllib.loads(path.read_text())["action"][0]
    assert (action["seq"], action["at"], action["by"], action["text"]) == (
        1,
        "2026-05-01T20:00:00Z",
        "zoe",
        "a takes family este",
    )
    listed = cli("table", "log", str(path)).stdout
    assert "zoe" in listed and "a takes family este" in listed


def test_a_refused_action_names_the_rule_and_leaves_the_file_unchanged(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family este")
    before = path.read_bytes()
    cases = {
        "status venice +9": (1, "a city's status stays within 3..10, so not 16"),
        "a buys troop dragons": (2, "unknown troop 'dragons'"),
        "b wins city venice/nowhere for 20": (2, "unknown City tile 'venice/nowhere'"),
        "b wins city venice/doge for 2": (1, "opens at twice its status, 14 gold or more"),
        "b pays 99 gold": (1, "b has 45 gold; it cannot fall below 0"),
        "a takes family este": (1, "a already has the este family"),
        "q buys card": (2, "an action starts with a player"),
    }
    for text, (code, message) in cases.items():
        result = cli("table", "add", str(path), *text.split())
        assert result.exit_code == code, (text, result.stderr)
        assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1
        assert path.read_bytes() == before


def test_a_seventh_city_tile_and_a_fourth_city_are_refused(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a gets 200 gold")
    for tile in ("venice/doge", "venice/merchant-1", "milan/merchant", "milan/armourer", "florence/banker"):
        add(cli, path, f"a wins city {tile} for 20")
    fourth = cli("table", "add", str(path), *["a", "wins", "city", "rome/curia", "for", "20"])
    assert fourth.exit_code == 1 and "cannot add a fourth" in fourth.stderr
    add(cli, path, "a wins city florence/merchant for 20")
    seventh = cli("table", "add", str(path), *["a", "wins", "city", "venice/senate", "for", "20"])
    assert seventh.exit_code == 1 and "already holds 6 City tiles, the limit" in seventh.stderr


def test_undo_and_redo(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family gonzaga")
    add(cli, path, "a wins city venice/doge for 14")  # Gonzaga takes 2 off a gold bid: pays 12
    assert (
        json.loads(cli("table", "show", str(path), "--json").stdout)["reports"][1]["data"]["a"]["gold"] == 33
    )
    undone = cli("table", "undo", str(path))
    assert undone.exit_code == 0 and "undone action 2: a wins city venice/doge for 14" in undone.stderr
    assert actions(path) == ["a takes family gonzaga"]
    assert (
        json.loads(cli("table", "show", str(path), "--json").stdout)["reports"][1]["data"]["a"]["gold"] == 45
    )
    assert cli("table", "redo", str(path)).exit_code == 0
    assert actions(path) == ["a takes family gonzaga", "a wins city venice/doge for 14"]
    nothing = cli("table", "redo", str(path))
    assert nothing.exit_code == 2 and "nothing to redo" in nothing.stderr
    # once something new is recorded, what was undone before stays in the history but not redoable
    assert cli("table", "undo", str(path)).exit_code == 0
    add(cli, path, "b takes family este")
    stale = cli("table", "redo", str(path))
    assert stale.exit_code == 2 and "recorded after the last undo" in stale.stderr
    assert "undone (newest last)" in cli("table", "log", str(path)).stdout
    for _ in range(2):
        assert cli("table", "undo", str(path)).exit_code == 0
    empty = cli("table", "undo", str(path))
    assert empty.exit_code == 2 and "nothing to undo" in empty.stderr


def test_income_is_shown_line_by_line_and_recorded(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family este")
    add(cli, path, "a wins city venice/merchant-1 for 14")
    add(cli, path, "a buys troop pikemen")
    add(cli, path, "b buys troop infantry")
    add(cli, path, "a condottiere venice for 1")
    add(cli, path, "b condottiere milan for 1")
    add(cli, path, "war venice milan won-by a")
    add(cli, path, "c wins pope for 2")
    add(cli, path, "c wins event i-wine-merchant for 3")
    result = cli("table", "income", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)["reports"][0]
    lines = {line["what"]: (line["gold"], line["influence"]) for line in report["data"]["a"]["lines"]}
    assert lines["condottiere pay"] == (7, 0)  # Venice's status when the war was fought
    assert any(what.startswith("City tile: Venetian Merchant") for what in lines)
    assert any(what.startswith("Family tile: ") for what in lines)
    assert report["data"]["b"]["lines"][-1] == {"what": "condottiere pay", "gold": 6, "influence": 0}
    assert any(line["what"] == "Pope" and line["gold"] == 3 for line in report["data"]["c"]["lines"])
    assert actions(path)[-1] == "income"
    # the income is paid: the decade moves on and the pay is collected
    shown = json.loads(cli("table", "show", str(path), "--json").stdout)["reports"]
    players = shown[1]
    assert players["title"] == "Players in decade II"
    assert players["data"]["a"]["pay"] == 0
    template = tomllib.loads(Path("templates/princes-of-the-renaissance-2016.toml").read_text())
    pikemen = next(troop["cost"] for troop in template["troop"] if troop["id"] == "pikemen")
    assert players["data"]["a"]["gold"] == 45 - 14 - pikemen + report["data"]["a"]["gold"]


def test_every_command_has_json_and_events_lists_every_form_with_a_working_example(
    cli: Cli, tmp_path: Path
) -> None:
    forms = json.loads(cli("table", "events", "--game", GAME, "--json").stdout)
    assert len(forms["actions"]) >= 15 and forms["calculations"]
    path = tmp_path / "t.toml"
    new_table(cli, path, "alice,bob,carla,dario")
    setup = [
        "alice takes family este",
        "bob takes family gonzaga",
        "carla takes family montefeltro",
        "dario takes family baglioni",
        "bob buys troop infantry",
        "alice buys troop crossbowmen",
    ]
    for text in setup:
        add(cli, path, text)
    # each example is read by the grammar: it applies, or a rule refuses it (exit 1), never exit 2
    for form in forms["actions"]:
        result = cli("table", "add", str(path), *form["example"].split())
        assert result.exit_code in (0, 1), (form["example"], result.stderr)
    for command in ("show", "score", "log", "verify"):
        assert isinstance(json.loads(cli("table", command, str(path), "--json").stdout), dict)
    assert json.loads(cli("table", "calc", str(path), "income", "--json").stdout)["reports"][0]["data"]


def test_a_tampered_log_is_refused_naming_the_action(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family este")
    add(cli, path, "a gets 5 gold")
    add(cli, path, "b gets 1 gold")
    text = path.read_text()
    path.write_text(text.replace('text = "a gets 5 gold"', 'text = "a gets 50 gold"'))
    result = cli("table", "verify", str(path))
    assert result.exit_code == 3
    assert "action 3 ('b gets 1 gold'): does not chain to the action before it" in result.stderr
    path.write_text(text.replace('players = ["a", "b", "c"]', 'players = ["a", "b", "x"]'))
    assert "does not chain" in cli("table", "verify", str(path)).stderr
    path.write_text(text[: len(text) // 2])  # a truncated email
    cut = cli("table", "show", str(path))
    assert cut.exit_code == 3 and cut.stderr.startswith("error: ")


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("game", "[]"),
        ("game", "{a = 1}"),
        ("id", "5"),
        ("edition", "[2016]"),
        ("created", "1979-05-27T07:32:00Z"),
    ],
)
def test_a_header_field_of_the_wrong_type_is_one_line_for_every_reader(
    cli: Cli, tmp_path: Path, line: str, value: str
) -> None:
    """A list as the game's name was a traceback (unhashable in the registry), as an id of 5
    would have been: each text field of the header is checked to be text."""
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family este")
    text = path.read_text()
    start = text.index(f"\n{line} = ") + 1
    path.write_text(text[:start] + f"{line} = {value}" + text[text.index("\n", start) :])
    before = path.read_bytes()
    for command in (["verify"], ["show"], ["add", "b gets 1 gold"]):
        result = cli("table", command[0], str(path), *command[1:])
        assert result.exit_code == 3, result.stderr
        assert result.stderr == f"error: {path}: table header: {line} must be text\n"
    assert path.read_bytes() == before


def test_signed_actions_verify_and_a_changed_one_is_caught(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path)
    add(cli, path, "a takes family este", "--as", "a", home="a")
    add(cli, path, "b takes family gonzaga", "--as", "b", home="b")
    verified = json.loads(cli("table", "verify", str(path), "--json").stdout)
    assert verified["signed"] == 2 and set(verified["signers"]) == {"a", "b"}
    log = tomllib.loads(path.read_text())["action"]
    assert log[0]["signer"] == "a" and log[0]["by"] == "a" and len(log[0]["sig"]) > 80
    signed = path.read_text()
    path.write_text(signed.replace('by = "b"', 'by = "a"', 1))
    result = cli("table", "verify", str(path))
    assert result.exit_code == 3 and "bad signature by b" in result.stderr
    path.write_text(signed)
    nokey = cli("table", "add", str(path), "c", "gets", "1", "gold", "--as", "c", home="a")
    assert nokey.exit_code == 4 and path.read_text() == signed  # no key named c in a's home
    other = cli("table", "add", str(path), "a", "gets", "1", "gold", "--as", "a", "--key", "b", home="b")
    assert other.exit_code == 4 and "with another key" in other.stderr
    assert path.read_text() == signed


def test_a_new_table_refuses_bad_settings_and_an_existing_file(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    assert cli("table", "new", str(path), "--game", "chess", "--players", "a,b").exit_code == 2
    assert cli("table", "new", str(path), "--game", GAME, "--players", "a,b").exit_code == 2
    assert cli("table", "new", str(path), "--game", GAME, "--players", "a,a,b").exit_code == 2
    new_table(cli, path)
    again = cli("table", "new", str(path), "--game", GAME, "--players", "a,b,c")
    assert again.exit_code == 5 and "already exists" in again.stderr


@pytest.mark.parametrize("edition", ["2016", "2003"])
def test_score_names_the_edition_tie_rules(cli: Cli, tmp_path: Path, edition: str) -> None:
    path = tmp_path / "t.toml"
    new_table(cli, path, "a,b,c", "--edition", edition)
    add(cli, path, "a gets 5 gold")
    add(cli, path, "b gets 5 gold")
    score = json.loads(cli("table", "score", str(path), "--json").stdout)["reports"][0]
    gold = next(row for row in score["rows"] if row[0] == "gold")
    # a and b tie for the most gold: 2016 gives 5 each and no second; 2003 the full 6 and c second
    assert gold[1:] == ([5, 5, 0] if edition == "2016" else [6, 6, 3])


def test_princes_of_florence_score_waits_for_face_down_prestige_cards(cli: Cli, tmp_path: Path) -> None:
    # Seed 001, "Конец игры": "Игроки открывают свои карты престижа". After round 7 a card still
    # face down makes `pbem table score` incomplete, naming who holds it and the action to record.
    path = tmp_path / "pof.toml"
    result = cli("table", "new", str(path), "--game", "princes-of-florence", "--players", "alice,bob,carla")
    assert result.exit_code == 0, result.stderr
    add(cli, path, "alice buys prestige-card for 200")
    for _ in range(7):
        add(cli, path, "round ends")
    shown = cli("table", "score", str(path))
    assert shown.exit_code == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "incomplete" in text and "alice 1 card" in text
    assert "alice reveals prestige-card CARD" in text
    assert "no winner until every prestige card is revealed" in text
    report = json.loads(cli("table", "score", str(path), "--json").stdout)["reports"][0]
    assert (report["data"]["complete"], report["data"]["face_down"]) == (False, {"alice": 1})
    add(cli, path, "alice reveals prestige-card most-jesters")
    report = json.loads(cli("table", "score", str(path), "--json").stdout)["reports"][0]
    assert report["data"]["complete"] is True
    assert report["title"] == "Score (final)"
    # The calculator refuses a bonus card played twice, as the recorded action would.
    twice = cli("table", "calc", str(path), "work", "alice", "poet", "bonus", "lakes", "bonus", "lakes")
    assert twice.exit_code == 1
    assert "the bonus card lakes is played twice" in twice.stderr


def test_a_table_plays_with_the_values_printed_on_its_own_copy(cli: Cli, tmp_path: Path) -> None:
    ours = tmp_path / "ours.toml"
    text = cli("templates", "show", "princes-of-the-renaissance-2016").stdout
    ours.write_text(text.replace('name = "Venice"\nstatus = 7', 'name = "Venice"\nstatus = 8', 1))
    path = tmp_path / "t.toml"
    new_table(cli, path, "a,b,c", "--components", str(ours))
    cities = json.loads(cli("table", "show", str(path), "--json").stdout)["reports"][0]["data"]
    assert cities["venice"]["status"] == 8
    logged = tomllib.loads(path.read_text())
    assert logged["table"]["components_sha256"] and logged["components"]["city"][0]["status"] == 8
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace('name = "Venice"\nstatus = 7', 'name = "Venice"\nstatus = 12', 1))
    refused = cli(
        "table",
        "new",
        str(tmp_path / "u.toml"),
        "--game",
        GAME,
        "--players",
        "a,b,c",
        "--components",
        str(broken),
    )
    assert (
        refused.exit_code == 2
        and "broken.toml" in refused.stderr
        and "status 12 is outside 3..10" in refused.stderr
    )
    assert not (tmp_path / "u.toml").exists()


def printed(header: tuple[str, ...], rows: list[list[str]], width: int, *, turn: bool = False) -> list[str]:
    import io

    from rich.console import Console

    from pbem.render.grid import print_grid

    out = io.StringIO()
    print_grid(Console(file=out, width=width, color_system=None), header, rows, turn=turn)
    return out.getvalue().splitlines()


def test_a_sheet_too_wide_for_the_terminal_is_turned_on_its_side() -> None:
    header = ("player", *(f"category {n}" for n in range(9)))
    lines = printed(header, [["ann", *map(str, range(9))], ["ben", *map(str, range(9))]], 80, turn=True)
    assert max(map(len, lines)) <= 80
    assert [line.split() for line in lines if "player" in line] == [
        ["┃", "player", "┃", "ann", "┃", "ben", "┃"]
    ]
    assert any(line.split()[:4] == ["│", "category", "0", "│"] for line in lines)
    narrow = printed(("city", "status"), [["Venice", "7"]], 80, turn=True)
    assert any("city" in line and "status" in line for line in narrow)
