"""Il Principe's broken component templates and their refusals, for the template-corruption
harness (tests/games/corruption.py)."""

from __future__ import annotations

from tests.games.corruption import Cases, Data, record, set_value


def _swap_colours(data: Data) -> None:
    data["colour"][0], data["colour"][1] = data["colour"][1], data["colour"][0]


def _grey_region(data: Data) -> None:
    data["region"].append({"id": "grey", "name": "grise", "source": {"name": "unverified"}})
    data["rules"]["regions"]["value"] = 7


def _second_green_major(data: Data) -> None:
    record(data, "role", "apprentice")["rank"] = "major"


CORRUPTIONS: Cases = {
    "another game's template": (
        set_value(("template", "game"), "princes-of-florence"),
        "[template] game must be 'il-principe', not 'princes-of-florence'",
    ),
    "ducats as text": (
        set_value(("rules", "start_ducats", "value"), "5"),
        "[rules] start_ducats must be a whole number from 0 to 999",
    ),
    "endless ducats": (
        set_value(("rules", "income", "value"), 10**9),
        "[rules] income must be a whole number from 0 to 999",
    ),
    "an unknown rule": (
        set_value(("rules", "tax"), {"value": 1, "source": "unverified"}),
        "[rules] has unknown values: tax",
    ),
    "a value without a source": (
        lambda data: record(data, "city", "siena")["source"].pop("icons"),
        "[[city]] 'siena' icons: no source; give the rules text and section, or 'unverified'",
    ),
    "a colour out of order": (
        _swap_colours,
        "[[colour]] must be exactly green, white, red, blue, yellow, in that order",
    ),
    "an unknown colour": (
        set_value((("colour", "yellow"), "id"), "purple"),
        "[[colour]] must be exactly green, white, red, blue, yellow, in that order",
    ),
    "a card short": (
        set_value((("colour", "blue"), "cards"), 19),
        "[[colour]]: 99 cards, but [rules] building_cards is 100",
    ),
    "an unknown size": (
        set_value((("city", "pisa"), "size"), "huge"),
        "[[city]] 'pisa': unknown size 'huge'; known: small, medium, large",
    ),
    "a city priced off its size": (
        set_value((("city", "siena"), "cost"), 4),
        "[[city]] 'siena': cost is 4, but a small city's is 3",
    ),
    "an icon of no colour": (
        set_value((("city", "siena"), "icons"), ["white", "red", "gold"]),
        "[[city]] 'siena': unknown icon 'gold'; known: green, white, red, blue, yellow",
    ),
    "too few icons": (
        set_value((("city", "lucca"), "icons"), ["white", "white", "red"]),
        "[[city]] 'lucca': a medium city has 4 building icons",
    ),
    "two pairs": (
        set_value((("city", "lucca"), "icons"), ["white", "white", "red", "red"]),
        "[[city]] 'lucca': a medium city's icons are one pair and the rest of different colours",
    ),
    "a region that resolves to none": (
        set_value((("city", "siena"), "regions"), ["tuscany"]),
        "[[city]] 'siena': unknown region 'tuscany'; known: blue, brown, green, purple, red, yellow",
    ),
    "a large city in two regions": (
        set_value((("city", "pisa"), "regions"), ["blue", "brown"]),
        "[[city]] 'pisa': a large city touches 3 different region(s)",
    ),
    "a region named twice for a city": (
        set_value((("city", "milano"), "regions"), ["blue", "blue"]),
        "[[city]] 'milano': a medium city touches 2 different region(s)",
    ),
    "a city twice": (
        set_value((("city", "pisa"), "id"), "rimini"),
        "[[city]] 'rimini' appears twice",
    ),
    "a city missing": (
        lambda data: data["city"].pop(),
        "[[city]]: 14 cities, but [rules] city_cards is 15",
    ),
    "six small cities": (
        set_value(("rules", "city_cards", "value"), 16),
        "[[city]]: 15 cities, but [rules] city_cards is 16",
    ),
    "a region too many": (
        lambda data: data["region"].append({"id": "grey", "name": "grise", "source": {"name": "unverified"}}),
        "[[region]]: 7 regions, but [rules] regions is 6",
    ),
    "a region no city touches": (
        _grey_region,
        "[[region]] 'grey': no city touches it",
    ),
    "a pair on a card that has none": (
        set_value((("size", "small"), "pairs"), 2),
        "[[size]] 'small': pairs is 2; it must be from 0 to 1",
    ),
    "negative points": (
        set_value((("city", "firenze"), "vp"), -1),
        "[[city]] 'firenze': vp must not be negative",
    ),
    "a role with an unknown effect": (
        set_value((("role", "banker"), "effect"), "steal"),
        "[[role]] 'banker': unknown effect 'steal'; known: turn-up, vp, draw, shield, ducats",
    ),
    "two green majors": (
        _second_green_major,
        "[[role]]: 2 green major roles; there is one of each",
    ),
    "a role named like a colour": (
        set_value((("role", "banker"), "id"), "yellow"),
        "[[role]] 'yellow': the name is a word of the table actions; choose another",
    ),
    "two shields at once": (
        set_value((("role", "noble"), "amount"), 2),
        "[[role]] 'noble': a shield effect is one choice at the table; amount must be 1",
    ),
    "an unknown reading": (
        set_value((("reading", "short-pile"), "other"), "shuffle"),
        "[[reading]] 'short-pile': default and other must be reuse-removed and game-ends",
    ),
    "a reading missing": (
        lambda data: data["reading"].pop(),
        "[[reading]] must be exactly last-round-ducats, short-pile, two-players-last-round",
    ),
    "a reserve larger than the draw": (
        set_value(("rules", "reserve", "value"), 5),
        "[rules] reserve is more than draw: the reserve comes from the hand",
    ),
    "no shields": (
        set_value(("rules", "shields_per_family", "value"), 0),
        "[rules] shields_per_family must be at least 1",
    ),
}
