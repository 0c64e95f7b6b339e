"""The Princes of Florence component template: its values read back and its sources (the checks
that refuse a corrupted set in one line: template_cases.py).

Rules text: /work/shared/seeds/001, "Содержимое коробки", "Подготовка к игре", "Описание
объектов", "Создание шедевра", "Строительство зданий"; card lists from the Princes of Florence
section of the rules notes.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from pbem import gamefile
from pbem.games.princes_of_florence.components import load, parse
from pbem.games.princes_of_florence.estate import format_squares
from pbem.kit import templates
from tests.conftest import Cli
from tests.games.corruption import record

Data = dict[str, Any]
COMPONENTS = load()


def shipped() -> Data:
    return gamefile.shipped_template("princes-of-florence")


def test_the_rules_values_read_back_as_the_text_gives_them() -> None:
    rules, builders, unofficial = COMPONENTS.rules, COMPONENTS.builders, COMPONENTS.unofficial
    assert [rules[name] for name in ("rounds", "start_florins", "dealt", "start_hand")] == [7, 3500, 4, 3]
    assert [rules[name] for name in ("opening_bid", "raise", "last_player_price")] == [200, 100, 200]
    assert [rules[name] for name in ("profession_price", "freedom_price", "bonus_price")] == [300, 300, 300]
    assert [rules[name] for name in ("wp_building", "wp_landscape", "wp_freedom", "wp_card")] == [4, 3, 3, 1]
    assert [rules["building_price"], builders.reduced_price, builders.free_from] == [700, 300, 3]
    assert [builders.copies, builders.limit, builders.touching_from, builders.prestige] == [6, 3, 2, 3]
    assert [COMPONENTS.jester.copies, COMPONENTS.jester.wp] == [7, 2]
    assert [COMPONENTS.recruitment.copies, COMPONENTS.recruitment.wp] == [5, 1]
    jesters = [unofficial["two_players_jester_early"], unofficial["two_players_jester_late"]]
    assert unofficial["two_players_opening_bid"] == 500 and jesters == [700, 300]


def test_the_cards_and_tiles_read_back() -> None:
    assert len(COMPONENTS.professions) == 21
    mathematician = COMPONENTS.professions["mathematician"]
    assert (mathematician.building, mathematician.landscape, mathematician.freedom) == (
        "university",
        "lake",
        "religion",
    )
    assert mathematician.name == "Mathematician"
    # "Из 21 артиста и ученого ... девять нуждаются в лесе"; the lake seven, the park five
    assert {name: land.professions for name, land in COMPONENTS.landscapes.items()} == {
        "forest": 9,
        "lake": 7,
        "park": 5,
    }
    sizes = [building.size for building in COMPONENTS.buildings.values()]
    assert (sizes.count("large"), sizes.count("medium"), sizes.count("small")) == (3, 5, 2)
    assert sum(building.copies for building in COMPONENTS.buildings.values()) == 30
    assert {name: freedom.copies for name, freedom in COMPONENTS.freedoms.items()} == {
        "opinion": 4,
        "religion": 4,
        "travel": 4,
    }
    assert len(COMPONENTS.prestige) == 14 and len(COMPONENTS.bonus) == 20
    works = COMPONENTS.prestige["most-works"]
    assert (works.value, works.tied) == (7, 4)
    assert COMPONENTS.prestige["all-freedoms"].tied is None
    lakes = COMPONENTS.bonus["builders-and-lakes"]
    assert (lakes.wp, lakes.counts) == (1, ("builder", "lake"))
    assert COMPONENTS.minimum_work == {1: 7, 2: 9, 3: 11, 4: 13, 5: 15, 6: 16, 7: 17}
    assert format_squares(COMPONENTS.estate.palace) == "a1 b1 c1 a2 b2 c2"
    assert (COMPONENTS.estate.columns, COMPONENTS.estate.rows) == (7, 7)


def test_every_value_has_a_source_and_the_reference_set_is_marked_unverified() -> None:
    found = set(templates.unverified(shipped()))
    # no text gives these
    given_by_none = (
        "minimum_work 1",
        "minimum_work 6",
        "estate palace",
        "building tower size",
        "landscape forest shape",
        "prestige four-buildings-two-freedoms value",
        "bonus parks wp",
    )
    assert found >= set(given_by_none)
    # the texts give these
    given_by_a_text = (
        "minimum_work 5",
        "minimum_work 7",
        "rules start_florins",
        "bonus lakes wp",
        "prestige most-works value",
        "profession sculptor building",
        "landscape lake two_sided",
    )
    assert not found & set(given_by_a_text)
    assert sum(1 for path in found if path.startswith("bonus ") and path.endswith(" wp")) == 7


def test_the_companion_takes_only_what_a_source_gives() -> None:
    # A table records the rest (the minimum off the round track, a bonus card by its value).
    assert COMPONENTS.known_minimums() == {5: 15, 7: 17}
    listed = COMPONENTS.listed_bonus()
    assert len(listed) == 13 and COMPONENTS.rule("bonus_cards") - len(listed) == 7
    assert "parks" not in listed
    assert COMPONENTS.prestige["four-buildings-two-freedoms"].source == "pbem default"
    assert COMPONENTS.prestige["most-works"].source == "notes"
    assert COMPONENTS.supply() == {
        "forest": 6,
        "lake": 6,
        "park": 6,
        "jester": 7,
        "builder": 6,
        "prestige-card": 14,
        "recruitment": 5,
        "bonus": 20,
    }
    assert [COMPONENTS.unofficial_recruitment(count) for count in (2, 3)] == [3, 4]


def test_the_values_a_game_embeds_parse_without_their_sources() -> None:
    embedded = parse(templates.values(shipped()))
    assert embedded.rules == COMPONENTS.rules
    assert embedded.buildings == COMPONENTS.buildings
    assert embedded.bonus == COMPONENTS.bonus
    assert embedded.unverified == frozenset()
    assert embedded.prestige["most-works"].source == "components"


def test_the_shipped_template_is_the_one_pbem_reads() -> None:
    assert parse(shipped(), require_sources=True) == COMPONENTS


def test_templates_list_and_show_princes_of_florence(cli: Cli) -> None:
    rows = {row["name"]: row for row in json.loads(cli("templates", "list", "--json").stdout)}
    assert rows["princes-of-florence"]["title"] == "Princes of Florence (Rio Grande Games)"
    assert rows["princes-of-florence"]["unverified"] == len(templates.unverified(shipped()))
    shown = cli("templates", "show", "princes-of-florence")
    assert shown.exit_code == 0
    data = tomllib.loads(shown.stdout)
    assert data == shipped()
    poet = record(data, "profession", "poet")
    assert poet["building"] == "theatre" and poet["source"]["building"].startswith("notes")
    assert data["rules"]["start_florins"]["source"].startswith("seed 001, Подготовка к игре")
    listed = cli("templates", "show", "princes-of-florence", "--unverified").stdout.splitlines()
    assert "not the publisher's" in listed[0]
    assert "  minimum_work 1" in listed and "  bonus parks wp" in listed
    assert "  minimum_work 5" not in listed and "  rules start_florins" not in listed
