"""Princes of Florence's broken component templates and their refusals, for the template-corruption
harness (tests/games/corruption.py)."""

from __future__ import annotations

from tests.games.corruption import Cases, Data, record, set_value


def _drop_source(data: Data) -> None:
    del record(data, "profession", "poet")["source"]["landscape"]


def _third_forest_liker(data: Data) -> None:
    record(data, "profession", "poet")["landscape"] = "forest"


def _tied_on_two_large(data: Data) -> None:
    card = record(data, "prestige", "two-large")
    card["tied"] = 3
    card["source"]["tied"] = "unverified"


CORRUPTIONS: Cases = {
    "florins as text": (
        set_value(("rules", "start_florins", "value"), "3500"),
        "[rules] start_florins must be a whole number from 0 to 99900",
    ),
    "too many florins": (
        set_value(("rules", "start_florins", "value"), 10**9),
        "[rules] start_florins must be a whole number from 0 to 99900",
    ),
    "unknown rule": (
        set_value(("rules", "tax"), {"value": 1, "source": "unverified"}),
        "[rules] has unknown values: tax",
    ),
    "a minimum that falls": (
        set_value(("minimum_work", "3", "value"), 20),
        "[minimum_work] must rise every round, as the round track's minimum does",
    ),
    "a round without a minimum": (
        lambda data: data["minimum_work"].pop("4"),
        "[minimum_work] is missing 4",
    ),
    "unknown building liked": (
        set_value((("profession", "mathematician"), "building"), "castle"),
        "[[profession]] 'mathematician': unknown building 'castle'; known: atelier, chapel, hospital, "
        "laboratory, library, opera, theatre, tower, university, workshop",
    ),
    "a landscape liked by a different count": (
        _third_forest_liker,
        "[[landscape]] 'forest': professions is 9, but 10 profession cards like it",
    ),
    "value without a source": (
        _drop_source,
        "[[profession]] 'poet' landscape: no source; give the rules text and section, or 'unverified'",
    ),
    "negative prestige": (
        set_value((("prestige", "most-works"), "value"), -1),
        "[[prestige]] 'most-works': value must not be negative",
    ),
    "tied on a card without a lead": (
        _tied_on_two_large,
        "[[prestige]] 'two-large': the card compares no players, so it has no tied value",
    ),
    "a card with a lead without tied": (
        lambda data: record(data, "prestige", "most-parks").pop("tied"),
        "[[prestige]] 'most-parks': a card that compares players needs tied (its value for a shared lead)",
    ),
    "unknown prestige card": (
        set_value((("prestige", "two-large"), "id"), "three-large"),
        "[[prestige]] must be exactly most-works, most-buildings, most-jesters, most-builders, most-forests, "
        "most-lakes, most-parks, most-landscapes, fewest-empty, all-landscapes, all-freedoms, "
        "builder-jester-landscapes, two-large, four-buildings-two-freedoms",
    ),
    "a bonus card counting the unknown": (
        set_value((("bonus", "lakes"), "counts"), ["dragon"]),
        "[[bonus]] 'lakes': counts must name things from building, small-building, medium-building, "
        "large-building, building-size, landscape, landscape-type, forest, lake, park, freedom, builder, "
        "jester, prestige-card, card-in-hand",
    ),
    "a bonus card short": (
        lambda data: data["bonus"].pop(),
        "[[bonus]]: 19 cards, but [rules] bonus_cards is 20",
    ),
    "a shape in two pieces": (
        set_value((("building", "tower"), "shape"), ["#.#"]),
        "[[building]] 'tower': shape must be one piece, its squares joined along their sides",
    ),
    "a shape drawn with other marks": (
        set_value((("building", "tower"), "shape"), ["#x#"]),
        '[[building]] \'tower\': shape is drawn in rows of "#" (a square) and "." (none)',
    ),
    "a shape too long for the estate": (
        set_value((("building", "theatre"), "shape"), ["########"]),
        "[[building]] 'theatre': shape does not fit on the estate",
    ),
    "four large types": (
        set_value((("building", "tower"), "size"), "large"),
        "[[building]]: 4 large types, but [rules] large_types is 3",
    ),
    "an unknown size": (
        set_value((("building", "tower"), "size"), "huge"),
        "[[building]] 'tower': size must be large, medium or small",
    ),
    "a small building as big as a medium one": (
        set_value((("building", "tower"), "shape"), ["####"]),
        "[[building]]: every medium building must cover more squares than every small one",
    ),
    "a park as big as a lake": (
        set_value((("landscape", "park"), "shape"), ["###"]),
        "[[landscape]]: a lake must be smaller than a forest, and a park than a lake",
    ),
    "a freedom marker missing": (
        set_value((("freedom", "travel"), "copies"), 3),
        "[[freedom]]: 11 markers, but [rules] freedom_markers is 12",
    ),
    "two-sided as text": (
        set_value((("building", "opera"), "two_sided"), "yes"),
        "[[building]] 'opera': two_sided must be true or false",
    ),
    "too many jesters": (
        set_value(("jester", "copies"), 5000),
        "[jester]: copies is 5000; it must be from 0 to 999",
    ),
    "builders free before they are cheap": (
        set_value(("builder", "free_from"), 4),
        "[builder] free_from must be from 1 to limit (3)",
    ),
    "a palace off the estate": (
        set_value(("estate", "palace_at"), "g7"),
        "[estate] the palace reaches off the estate",
    ),
    "a palace at no square": (
        set_value(("estate", "palace_at"), "z9"),
        "[estate] palace_at: 'z9' is off the estate: columns a-g, rows 1-7",
    ),
    "another game's template": (
        set_value(("template", "game"), "princes-of-the-renaissance"),
        "[template] game must be 'princes-of-florence', not 'princes-of-the-renaissance'",
    ),
}
