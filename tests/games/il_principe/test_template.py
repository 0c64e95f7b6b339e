"""The Il Principe component template: its values read back, its sources, and the companion still
playing with what the texts give (the checks that refuse a corrupted set in one line:
template_cases.py).

Rules text: /work/shared/seeds/002 (two French translations), "CONTENU", "La carte", "Les cartes
Cité", "Les tuiles de Rôle", "Construire une cité", "Fin du jeu" / "Fin de la partie", "Règles
spéciales pour 2 joueurs", "Variante".
"""

from __future__ import annotations

import copy
import datetime
import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.errors import IllegalMoveError, UsageError
from pbem.games.il_principe import components
from pbem.games.il_principe.components import load_set, parse
from pbem.games.il_principe.table.state import Table
from pbem.games.il_principe.table.tracker import TRACKER, rules_for
from pbem.kit import templates
from tests.conftest import Cli

Data = dict[str, Any]
COMPONENTS = load_set()


def shipped() -> Data:
    return gamefile.shipped_template("il-principe")


def test_the_cities_read_back_as_the_texts_give_them() -> None:
    cities = COMPONENTS.cities
    assert list(cities)[:5] == ["siena", "orvieto", "venezia", "verona", "perugia"]
    for size, cost, vp, shields, icons, regions in (
        ("small", 3, 4, 1, 3, 1),
        ("medium", 4, 6, 2, 4, 2),
        ("large", 5, 8, 2, 5, 3),
    ):
        of_size = [city for city in cities.values() if city.size.name == size]
        assert len(of_size) == 5
        assert {(c.cost, c.vp, c.shields, len(c.icons), len(c.regions)) for c in of_size} == {
            (cost, vp, shields, icons, regions)
        }
    assert cities["firenze"].icons == ("green", "green", "red", "blue", "yellow")
    assert cities["firenze"].regions == ("brown", "green", "purple")
    assert cities["lucca"].icons == ("white", "white", "red", "blue")
    assert cities["milano"].icons == ("blue", "blue", "red", "yellow")
    assert cities["milano"].regions == ("blue", "green")
    assert cities["firenze"].vp == 8  # the rule, not the example's 6
    assert tuple(COMPONENTS.regions) == ("blue", "brown", "green", "purple", "red", "yellow")
    assert COMPONENTS.regions["purple"] == "violette"


def test_the_cards_roles_and_money_read_back() -> None:
    assert {name: colour.cards for name, colour in COMPONENTS.colours.items()} == dict.fromkeys(
        ("green", "white", "red", "blue", "yellow"), 20
    )
    assert COMPONENTS.colours["red"].building == "town hall"
    rules = COMPONENTS.rules
    assert [rules[name] for name in ("building_cards", "city_cards", "regions", "shields_per_family")] == [
        100,
        15,
        6,
        12,
    ]
    assert [rules[name] for name in ("start_ducats", "income", "variant_start_ducats", "variant_income")] == [
        5,
        5,
        10,
        6,
    ]
    assert [rules[f"last_round_below_{n}"] for n in (3, 4, 5)] == [12, 16, 20]
    assert [rules[f"last_round_draw_{n}"] for n in (3, 4, 5)] == [6, 8, 10]
    effects = {
        role.id: (role.colour, role.rank, role.effect, role.amount) for role in COMPONENTS.roles.values()
    }
    assert effects["master"] == ("green", "major", "turn-up", 1)
    assert effects["priest"] == ("white", "minor", "vp", 1)
    assert effects["notary"] == ("red", "minor", "draw", 1)
    assert effects["noble"] == ("blue", "major", "shield", 1)
    assert effects["merchant"] == ("yellow", "minor", "ducats", 2)
    assert COMPONENTS.roles["gonfalonier"].name_b == "Magistrat"
    readings = {reading.id: (reading.default, reading.other) for reading in COMPONENTS.readings.values()}
    assert readings == {
        "last-round-ducats": ("paid", "none"),
        "short-pile": ("reuse-removed", "game-ends"),
        "two-players-last-round": ("six", "all"),
    }


def test_the_reference_map_is_complete_and_even() -> None:
    icons = Counter(icon for city in COMPONENTS.cities.values() for icon in city.icons)
    assert icons == dict.fromkeys(("green", "white", "red", "blue", "yellow"), 12)
    touched = Counter(region for city in COMPONENTS.cities.values() for region in city.regions)
    assert set(touched) == set(COMPONENTS.regions) and sum(touched.values()) == 30


def test_every_value_has_a_source_and_the_reference_map_is_marked_unverified() -> None:
    data = shipped()
    found = set(templates.unverified(data))
    given = {"firenze", "lucca", "milano"}
    assert {path for path in found if path.endswith(" icons")} == {
        f"city {name} icons" for name in COMPONENTS.cities if name not in given
    }
    assert {path for path in found if path.endswith(" regions")} == {
        f"city {name} regions" for name in COMPONENTS.cities if name not in {"firenze", "milano"}
    }
    assert len(found) == 12 + 13
    # what the texts give carries the text and section, with its words
    firenze = next(city for city in data["city"] if city["id"] == "firenze")
    assert firenze["source"]["icons"].startswith("seed 002 text A, Construire une cité")
    assert "« les régions marron, violette et verte »" in firenze["source"]["regions"]
    assert data["rules"]["start_ducats"]["source"].startswith("seed 002 text B, Mise en place")
    short = next(reading for reading in data["reading"] if reading["id"] == "short-pile")
    assert "réutiliser des cartes déjà défaussées" in short["source"]["default"]
    assert "le jeu prend fin immédiatement" in short["source"]["other"]
    assert "NOT the publisher's" in gamefile.shipped_templates().joinpath("il-principe.toml").read_text()


def test_the_values_without_their_sources_parse_alike() -> None:
    embedded = parse(templates.values(shipped()))
    assert embedded.cities == COMPONENTS.cities
    assert embedded.roles == COMPONENTS.roles
    assert embedded.rules == COMPONENTS.rules
    assert embedded.unverified == frozenset()


def test_the_shipped_template_is_the_one_pbem_reads() -> None:
    assert parse(shipped(), require_sources=True) == COMPONENTS


def test_the_companion_takes_only_what_a_text_gives() -> None:
    parts = components.load(None, COMPONENTS)
    assert {name for name, city in parts.cities.items() if city.icons} == {"firenze", "lucca", "milano"}
    assert {name for name, city in parts.cities.items() if city.regions} == {"firenze", "milano"}
    assert parts.cities["siena"].icons is None and parts.cities["siena"].regions is None
    assert parts.cities["milano"].icons == ("blue", "blue", "red", "yellow")
    assert parts.cities["firenze"].vp == 8 and parts.regions == tuple(sorted(COMPONENTS.regions))
    assert [parts.reading(name) for name in components.READINGS] == ["paid", "reuse-removed", "six"]
    # the numbers of each player count and the variant come from the template's [rules]
    three, two = rules_for(COMPONENTS, 3, False), rules_for(COMPONENTS, 2, False)
    rich = rules_for(COMPONENTS, 4, True)
    assert (three.start_ducats, three.income, three.draw, three.reserve) == (5, 5, 4, 2)
    assert (three.threshold, three.last_draw, three.cities) == (12, 6, 15)
    assert (two.income, two.draw, two.reserve, two.threshold, two.cities) == (6, 5, 3, 10, 10)
    assert (rich.start_ducats, rich.income, rich.threshold) == (10, 6, 16)
    assert [parts.rule(name) for name in ("region_first_vp", "region_second_vp", "set_vp")] == [5, 2, 2]
    assert COMPONENTS.role_effects()["yellow minor"] == ("ducats", 2)


def _table(players: tuple[str, ...], components_given: Data | None = None) -> Table:
    return TRACKER.start(players, "standard", {}, components_given)


def _play(table: Table, *actions: str) -> Table:
    for action in actions:
        table, _ = TRACKER.apply(table, action)
    return table


def _last_round(table: Table, deck: int, discards: int = 0) -> Table:
    table.deck, table.discards = deck, discards
    return _play(table, "round income")


def test_the_default_readings_pay_the_last_rounds_ducats_and_reuse_removed_cards() -> None:
    table = _last_round(_table(("ann", "ben", "cy")), deck=4, discards=3)
    assert table.last_round and all(seat.ducats == 10 for seat in table.seats.values())
    table = _play(table, "round reserves green green red red blue blue")
    assert (table.deck, table.discards) == (0, 1)


def test_a_table_may_pick_the_other_readings() -> None:
    readings = {"readings": {"last-round-ducats": "none", "short-pile": "game-ends"}}
    table = _last_round(_table(("ann", "ben", "cy"), readings), deck=4, discards=3)
    assert table.last_round and all(seat.ducats == 5 for seat in table.seats.values())
    with pytest.raises(IllegalMoveError) as caught:
        _play(table, "round reserves green green red red blue blue")
    assert "so the game ends at once" in str(caught.value) and "`game ends`" in str(caught.value)


def test_the_two_player_last_round_takes_either_count_unless_the_table_picks_one() -> None:
    either = _last_round(_table(("ann", "ben")), deck=8)
    _play(copy.deepcopy(either), "round reserves " + " ".join(["green"] * 6))
    _play(copy.deepcopy(either), "round reserves " + " ".join(["green"] * 8))
    six = _last_round(_table(("ann", "ben"), {"readings": {"two-players-last-round": "six"}}), deck=8)
    with pytest.raises(IllegalMoveError, match="auctions 6 cards"):
        _play(six, "round reserves " + " ".join(["green"] * 8))
    every = _last_round(_table(("ann", "ben"), {"readings": {"two-players-last-round": "all"}}), deck=8)
    with pytest.raises(IllegalMoveError, match="all 8 cards left"):
        _play(every, "round reserves " + " ".join(["green"] * 6))


def test_an_unknown_reading_is_refused_in_one_line() -> None:
    with pytest.raises(UsageError) as caught:
        components.load({"readings": {"short-pile": "shuffle"}}, COMPONENTS)
    assert str(caught.value) == "components readings.short-pile: expected reuse-removed or game-ends"
    with pytest.raises(UsageError, match="unknown reading 'tax'; known: last-round-ducats"):
        components.load({"readings": {"tax": "paid"}}, COMPONENTS)


def test_templates_list_and_show_il_principe(cli: Cli) -> None:
    rows = {row["name"]: row for row in json.loads(cli("templates", "list", "--json").stdout)}
    assert rows["il-principe"]["title"] == "Il Principe (Mind the Move, 2005)"
    assert rows["il-principe"]["unverified"] == 25
    shown = cli("templates", "show", "il-principe")
    assert shown.exit_code == 0
    assert tomllib.loads(shown.stdout) == shipped()
    listed = cli("templates", "show", "il-principe", "--unverified").stdout.splitlines()
    assert "not the publisher's" in listed[0]
    assert "  city siena icons" in listed and "  city pisa regions" in listed
    assert "  city firenze icons" not in listed and "  rules start_ducats" not in listed


def test_a_table_passes_readings_through_its_components_file(cli: Cli, tmp_path: Path) -> None:
    ours = tmp_path / "ours.toml"
    ours.write_text('[readings]\n"last-round-ducats" = "none"\n')
    log = tmp_path / "table.toml"
    made = cli("table", "new", str(log), "--game", "il-principe", "--players", "ann,ben,cy",
               "--components", str(ours))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[readings]\n"last-round-ducats" = "maybe"\n')
    refused = cli("table", "new", str(tmp_path / "other.toml"), "--game", "il-principe",
                  "--players", "ann,ben,cy", "--components", str(bad))  # fmt: skip
    assert refused.exit_code == 2
    assert "expected paid or none" in refused.stderr and len(refused.stderr.splitlines()) == 1


def test_a_city_whose_card_the_texts_give_may_name_its_icons_in_any_order() -> None:
    # Milano's icons are listed as the text gives them (« deux bleus, un rouge et un jaune »);
    # a table naming them in the colour order builds the same card.
    table = _table(("ann", "ben", "cy"))
    table.round = 2
    table.seats["ann"].hand.update({"blue": 2, "red": 1, "yellow": 1})
    built = _play(table, "ann builds milano with red blue yellow blue shields blue green")
    assert built.built == {"milano": "ann"} and built.city_icons["milano"] == (
        "blue",
        "blue",
        "red",
        "yellow",
    )


def test_the_same_data_is_read_once_and_other_data_anew() -> None:
    """Every game set up reads its components: data read before gives the set it gave, and data
    differing in any value, or only in a value's type, is read (and checked) anew."""
    data = templates.values(shipped())
    first = parse(data)
    assert parse(copy.deepcopy(data)) is first
    assert parse(shipped(), require_sources=True) is not first
    data["rules"]["income"] += 1
    assert parse(data).rules["income"] == first.rules["income"] + 1
    for odd in (True, float(first.rules["income"])):  # equal to a whole number, but not one
        data["rules"]["income"] = odd
        with pytest.raises(templates.ComponentError, match="income must be a whole number"):
            parse(data)
    assert templates.frozen({"a": [1, {"b": True}]}) != templates.frozen({"a": [1, {"b": 1}]})
    assert templates.frozen({"a": [1, {"b": 1}]}) != templates.frozen({"a": [1, {"b": 1.0}]})
    assert templates.frozen({"a": [1, 2]}) != templates.frozen({"a": (1, 2)})
    assert templates.frozen({"a": datetime.date(2026, 1, 1)}) is None  # read each time
