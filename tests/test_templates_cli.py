"""Component templates through the command line: list, show, and a group's own values."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Cli

TEMPLATE = "princes-of-the-renaissance-2016"


def test_templates_are_listed_with_their_unverified_count(cli: Cli) -> None:
    rows = json.loads(cli("templates", "list", "--json").stdout)
    names = [row["name"] for row in rows]
    assert names == ["il-principe", "princes-of-florence", "princes-of-the-renaissance-2003", TEMPLATE]
    assert all(row["unverified"] > 0 for row in rows)


def test_show_prints_the_template_and_lists_what_no_rules_text_gives(cli: Cli) -> None:
    shown = cli("templates", "show", TEMPLATE)
    assert shown.exit_code == 0
    data = tomllib.loads(shown.stdout)
    assert data["template"]["edition"] == "2016"
    # every value carries its source
    venice = next(city for city in data["city"] if city["id"] == "venice")
    assert venice["status"] == 7 and venice["source"]["status"].startswith("seed 003")
    unverified = cli("templates", "show", TEMPLATE, "--unverified").stdout.splitlines()
    assert "not the publisher's" in unverified[0]
    assert "  troop cavalry cost" in unverified
    assert not any("city venice status" in line for line in unverified)  # given by the texts
    missing = cli("templates", "show", "monopoly")
    assert missing.exit_code == 2 and "no template 'monopoly'" in missing.stderr


def test_a_group_plays_with_the_values_printed_on_its_own_copy(cli: Cli, tmp_path: Path) -> None:
    text = cli("templates", "show", TEMPLATE).stdout
    ours = tmp_path / "ours.toml"
    # our copy's Infantry costs 5 gold, not the reference set's 4
    ours.write_text(
        text.replace(
            'id = "infantry"\nname = "Infantry"\ncopies = 5\ncost = 4',
            'id = "infantry"\nname = "Infantry"\ncopies = 5\ncost = 5',
        )
    )
    assert ours.read_text() != text
    game = tmp_path / "game.toml"
    made = cli("new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
               "--components", str(ours), home="a")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    embedded = tomllib.loads(game.read_text())["components"]
    infantry = next(troop for troop in embedded["troop"] if troop["id"] == "infantry")
    assert infantry["cost"] == 5 and "source" not in infantry
    assert cli("verify", str(game)).exit_code == 0


def test_a_broken_template_is_refused_before_any_game_file_is_written(cli: Cli, tmp_path: Path) -> None:
    text = cli("templates", "show", TEMPLATE).stdout
    cases = {
        "gold.toml": (
            text.replace(
                'id = "venice"\nname = "Venice"\nstatus = 7',
                'id = "venice"\nname = "Venice"\nstatus = "seven"',
            ),
            "[[city]] 'venice': status must be a whole number",
        ),
        "edition.toml": (
            text.replace('edition = "2016"', 'edition = "2003"', 1),
            "edition is '2003' but the game is the 2016 edition",
        ),
        "toml.toml": (text + "\n[[city\n", "not a valid TOML template"),
        # a start of 2**63 gold would make every list of bids endless
        "huge.toml": (
            text.replace("start_gold = { value = 45,", "start_gold = { value = 9223372036854775807,", 1),
            "[rules] start_gold must be a whole number from 0 to 999",
        ),
        "copies.toml": (
            text.replace(
                'id = "veto"\nname = "Veto"\ncopies = 3', 'id = "veto"\nname = "Veto"\ncopies = 500', 1
            ),
            "[[treachery]] 'veto': copies is 500; it must be from 0 to 20",
        ),
        "deep.toml": (text + "\nx = " + "[" * 600 + "]" * 600 + "\n", "nested too deeply"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content)
        game = tmp_path / f"game-{name}"
        result = cli("new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
                     "--components", str(path), home="a")  # fmt: skip
        assert result.exit_code == 2, (name, result.stderr)
        assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
        assert not game.exists()


def test_the_component_table_cannot_be_edited_after_the_game_began(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    game = make_game()
    text = game.read_text()
    edited = text.replace("cost = 12", "cost = 1", 1)
    assert edited != text
    game.write_text(edited)
    result = cli("verify", str(game))
    assert result.exit_code == 3
    assert "entry 0 (by a): component data does not match the hash in the genesis entry" in result.stderr
