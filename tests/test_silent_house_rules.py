"""House rules for a seat the rules' defaults play, which no rulebook has (docs/rules/*.md): with
``retired=compete-none`` it takes no comparative bonus of the final scoring; with
``default_places=chance`` a default that must place something places it by the game's shared
randomness. New games record both; a genesis without them reads ``compete`` and ``first``, so a
game made before them replays as it was made.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from pbem.engine import ledger, registry
from pbem.engine import table as tables
from pbem.kit.stand_in import OLD_READING, Defaults

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "principe-silent-seat.toml"


@pytest.mark.parametrize("name", ["princes-of-the-renaissance", "princes-of-florence", "il-principe"])
def test_new_games_record_the_house_rules_and_old_ones_read_the_old(name: str) -> None:
    info = registry.get(name)
    made = info.resolve_options({})
    assert (made["retired"], made["default_places"]) == ("compete-none", "chance")
    old = {key: value for key, value in made.items() if key not in ("retired", "default_places")}
    old.pop("variant_last_price", None)
    read = info.check_options(old)
    assert (read["retired"], read["default_places"]) == ("compete", "first")
    assert Defaults.of(read) == OLD_READING
    assert Defaults.of(made) == Defaults(compete=False, by_chance=True)


def test_florence_records_the_variants_price_for_the_last_player() -> None:
    info = registry.get("princes-of-florence")
    assert info.resolve_options({})["variant_last_price"] is True
    old = {key: value for key, value in info.resolve_options({}).items() if key != "variant_last_price"}
    assert info.check_options(old)["variant_last_price"] is False


def test_il_principe_a_retired_family_takes_no_majority() -> None:
    """A game made before the options (the fixture: chiara silent from round 2, retired after three
    missed deadlines) replays as made: chiara, with 32 ducats and 10 cards, takes « 2 PVs pour le
    joueur qui possède le plus de pièces de monnaie » and « le plus de cartes Bâtiment encore dans
    sa main ». Read with retired=compete-none she ranks last in both: the 2 points go to the most
    among the others (alice's ducats, bruno's cards)."""
    data = tomllib.loads(FIXTURE.read_text(encoding="utf-8"))
    assert "retired" not in data["entry"][0]["options"]
    game = ledger.read(data)
    assert game.table is not None and game.rules is not None
    state = game.table.state
    assert state.defaults == OLD_READING  # replayed exactly as made: nothing told the state
    assert tables.stood_in(game.table) == ["chiara"]
    score = game.rules.score(state)
    assert (score["chiara"]["most ducats"], score["chiara"]["most cards in hand"]) == (2, 2)
    assert {seat: row["total"] for seat, row in score.items()} == {
        "alice": 52,
        "bruno": 47,
        "chiara": 6,
        "dario": 55,
    }
    compete_none = replace(state, defaults=Defaults.of({"retired": "compete-none"}))
    told = game.rules.played_by_defaults(compete_none, ("chiara",), b"")  # type: ignore[attr-defined]
    score = game.rules.score(told)
    assert (score["chiara"]["most ducats"], score["chiara"]["most cards in hand"]) == (0, 0)
    assert (score["alice"]["most ducats"], score["bruno"]["most cards in hand"]) == (2, 2)
    assert score["chiara"]["track"] == 2  # its own points stay
    assert {seat: row["total"] for seat, row in score.items()} == {
        "alice": 54,
        "bruno": 49,
        "chiara": 2,
        "dario": 55,
    }


def test_the_chance_is_fixed_by_every_contribution_and_nothing_else() -> None:
    one = tables._chance("g", "war 1 dice", [("a", b"\x01" * 32), ("b", b"\x02" * 32)])
    assert one == tables._chance("g", "war 1 dice", [("a", b"\x01" * 32), ("b", b"\x02" * 32)])
    assert len(one) == 32
    assert one != tables._chance("g", "war 1 dice", [("a", b"\x01" * 32), ("b", b"\x03" * 32)])
    assert one != tables._chance("g", "war 2 dice", [("a", b"\x01" * 32), ("b", b"\x02" * 32)])
    assert one != tables._chance("h", "war 1 dice", [("a", b"\x01" * 32), ("b", b"\x02" * 32)])


def test_a_default_place_is_the_first_unless_by_chance() -> None:
    places = ["venice", "milan", "florence", "rome", "naples"]
    assert OLD_READING.place(places, "x") == "venice"
    chancy = Defaults(by_chance=True)
    picked = {chancy.told((), bytes([n]) * 32).place(places, "place", "a") for n in range(50)}
    assert picked == set(places)
    same = chancy.told((), b"\x07" * 32)
    assert same.place(places, "place", "a", "s") == same.place(places, "place", "a", "s")
    assert Defaults(compete=False).told(("c",), b"z").chance == b""  # kept only by chance
    assert OLD_READING.told(("c",), b"z") is OLD_READING
