"""Princes of the Renaissance's broken component templates and their refusals, for the
template-corruption harness (tests/games/corruption.py)."""

from __future__ import annotations

from tests.games.corruption import Cases, Data, record, set_value


def _status_bounds_crossed(data: Data) -> None:
    data["rules"]["status_min"]["value"] = 8
    data["rules"]["status_max"]["value"] = 7


def _family_side_missing(data: Data) -> None:
    data["family"] = [tile for tile in data["family"] if (tile["id"], tile["side"]) != ("baglioni", "b")]


def _no_decade_three(data: Data) -> None:
    data["event"] = [event for event in data["event"] if event["decade"] != 3]


CORRUPTIONS: Cases = {
    "another game's template": (
        set_value(("template", "game"), "il-principe"),
        "[template] game must be 'princes-of-the-renaissance', not 'il-principe'",
    ),
    "another edition": (
        set_value(("template", "edition"), "2003"),
        "[template] edition is '2003' but the game is the 2016 edition",
    ),
    "status as text": (
        set_value((("city", "venice"), "status"), "seven"),
        "[[city]] 'venice': status must be a whole number",
    ),
    "endless gold": (
        set_value(("rules", "start_gold", "value"), 2**63 - 1),
        "[rules] start_gold must be a whole number from 0 to 999",
    ),
    "a card in 500 copies": (
        set_value((("treachery", "veto"), "copies"), 500),
        "[[treachery]] 'veto': copies is 500; it must be from 0 to 20",
    ),
    "an unknown rule": (
        set_value(("rules", "tax"), {"value": 1, "source": "unverified"}),
        "[rules] has unknown values: tax",
    ),
    "a value without a source": (
        lambda data: record(data, "troop", "infantry")["source"].pop("cost"),
        "[[troop]] 'infantry' cost: no source; give the rules text and section, or 'unverified'",
    ),
    "a city missing": (
        lambda data: data["city"].pop(),
        "[[city]] must be exactly venice, milan, florence, rome, naples",
    ),
    "status bounds crossed": (
        _status_bounds_crossed,
        "[rules] status_min is above status_max",
    ),
    "a city's status off the track": (
        set_value((("city", "rome"), "status"), 11),
        "[[city]] 'rome': status 11 is outside 3..10",
    ),
    "a family with one side": (
        _family_side_missing,
        "[[family]] 'baglioni' has no side 'b'",
    ),
    "a family ability nobody plays": (
        set_value((("family", "baglioni"), "ability"), "flight"),
        "[[family]] 'baglioni' (a): unknown ability 'flight'",
    ),
    "a city tile of no city": (
        set_value((("city_tile", "venice-doge"), "city"), "genoa"),
        "[[city_tile]] 'venice-doge': unknown city 'genoa'",
    ),
    "an unknown troop": (
        set_value((("troop", "infantry"), "id"), "dragoons"),
        "[[troop]] 'dragoons': troop types are infantry, crossbowmen, pikemen, cavalry, artillery",
    ),
    "an event in a fourth decade": (
        set_value((("event", "i-victory-2"), "decade"), 4),
        "[[event]] 'i-victory-2': decade must be 1, 2 or 3",
    ),
    "a decade without events": (
        _no_decade_three,
        "[[event]]: decade 3 has no Event tiles, so it could never end",
    ),
    "a pope bid for in wine": (
        set_value(("pope", "currency"), "wine"),
        "[pope] currency must be gold or influence",
    ),
    "an unknown treachery card": (
        set_value((("treachery", "veto"), "id"), "poison"),
        "[[treachery]] 'poison': Treachery cards are bribe-troops, bribe-cardinal, freeze-bid, "
        "steal-influence, steal-gold-shipment, veto, start-war, bad-weather",
    ),
}
