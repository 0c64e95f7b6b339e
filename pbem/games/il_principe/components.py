"""Il Principe's components as data, read from the template pbem ships
(``templates/il-principe.toml``), and the checks a set of components must pass.

Every value in the template names its source: ``seed 002 text A`` and ``text B`` are the two French
translations of the rules (docs/rules/il-principe.md), ``unverified`` a value of pbem's reference
map where no text gives one (the icons of twelve cities, the regions of thirteen). The companion
(``table.py``) takes from the template only what a text gives: a city whose icons or regions are
unverified there has them stated by the table when it is built, or passed in ``components`` when
a table starts (see ``load``). The whole reference map is for games that need every value, and
for ``pbem templates show il-principe``.

A game reads its components once, from the values its genesis signs (or a table from those its log
starts with), and the rules read every value from the state: nothing here is read at import, so a
group's own copy of the template is played as signed.

Tables and records of the template:

- ``[rules]``: ``{ value = N, source = "..." }``: counts, money, the numbers each player count
  changes and the points the rules give.
- ``[[colour]]``: id, building, cards (in the order of the colours on the board).
- ``[[size]]``: id (small, medium, large), cities, cost, vp, shields, icons, pairs, regions.
- ``[[region]]``: id, name, display (the English name pbem shows; optional).
- ``[[city]]``: id, name, size, cost, vp, shields, icons (colours), regions.
- ``[[role]]``: id, colour, rank, name, name_b, effect, amount.
- ``[[reading]]``: id, default, other: where the two translations disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pbem import gamefile
from pbem.errors import UsageError
from pbem.kit import templates
from pbem.kit.templates import ComponentError

GAME = "il-principe"
TEMPLATE = "il-principe"

# The names the rules code knows. "l'ordre des couleurs sur le plateau (vert, blanc, rouge, bleu et
# jaune)": every tie in colour follows this order, so it is also the order of every table pbem
# prints, and the template must list its colours in it.
COLOURS = ("green", "white", "red", "blue", "yellow")
RANKS = ("major", "minor")
SIZE_NAMES = ("small", "medium", "large")
# What taking a role does; roles.py carries each out.
EFFECTS = ("turn-up", "vp", "draw", "shield", "ducats")
# Where the translations disagree: each reading's id and the two values it may take.
READINGS = {
    "last-round-ducats": ("paid", "none"),
    "short-pile": ("reuse-removed", "game-ends"),
    "two-players-last-round": ("six", "all"),
}
# Words of the table grammar that a role's name must not take.
GRAMMAR_WORDS = frozenset({"round", "game", "nobody", "with", "shields", "for", *COLOURS, *RANKS})
RULE_VALUES = (
    "building_cards",
    "city_cards",
    "regions",
    "families",
    "shields_per_family",
    "coins",
    "face_up_cities",
    "start_ducats",
    "income",
    "draw",
    "reserve",
    "last_round_below_3",
    "last_round_below_4",
    "last_round_below_5",
    "last_round_draw_3",
    "last_round_draw_4",
    "last_round_draw_5",
    "two_players_removed_per_colour",
    "two_players_removed_cities",
    "two_players_income",
    "two_players_draw",
    "two_players_reserve",
    "two_players_last_round_below",
    "two_players_last_round_draw",
    "variant_start_ducats",
    "variant_income",
    "city_major_vp",
    "city_minor_vp",
    "end_major_vp",
    "end_minor_vp",
    "set_vp",
    "most_ducats_vp",
    "most_cards_vp",
    "region_first_vp",
    "region_second_vp",
)


@dataclass(frozen=True)
class Size:
    """ "Les cartes Cité" and "Construire une cité": what a small, medium or large city gives."""

    name: str
    cost: int
    vp: int
    shields: int
    icons: int
    regions: int
    pairs: int = 0  # « (2 du même type) »: medium and large cities have one pair of icons
    cities: int = 0


@dataclass(frozen=True)
class Colour:
    building: str
    cards: int


@dataclass(frozen=True)
class CityCard:
    """A city card as the template gives it, with every value (reference ones included)."""

    id: str
    name: str
    size: Size
    cost: int
    vp: int
    shields: int
    icons: tuple[str, ...]
    regions: tuple[str, ...]


@dataclass(frozen=True)
class Role:
    id: str
    colour: str
    rank: str
    name: str
    name_b: str
    effect: str
    amount: int


@dataclass(frozen=True)
class Reading:
    """Where the translations disagree: the reading followed by default, and the other one."""

    id: str
    default: str
    other: str


@dataclass(frozen=True)
class ComponentSet:
    """Every component of the template, checked."""

    rules: Mapping[str, int]
    colours: Mapping[str, Colour]
    sizes: Mapping[str, Size]
    regions: Mapping[str, str]  # id -> the name the texts call it by
    cities: Mapping[str, CityCard]
    roles: Mapping[str, Role]
    readings: Mapping[str, Reading]
    unverified: frozenset[str]  # ``table [id] field`` paths, as ``templates.unverified`` gives
    # id -> the name pbem shows a player (English; a game's data from before it had one: the id)
    region_names: Mapping[str, str] = field(default_factory=dict)

    def region_name(self, region: str) -> str:
        return self.region_names.get(region, region)

    def __deepcopy__(self, memo: dict[int, object]) -> ComponentSet:
        return self  # immutable: every copy of a table shares one set of components

    def sourced(self, path: str) -> bool:
        """Whether a text gives the value at ``path`` (``city siena icons``)."""
        return path not in self.unverified

    def rule(self, name: str) -> int:
        return self.rules[name]

    @property
    def shields_per_family(self) -> int:
        return self.rules["shields_per_family"]

    def role_names(self) -> dict[tuple[str, str], str]:
        """(colour, rank) -> the role's name (``noble``)."""
        return {(role.colour, role.rank): role.id for role in self.roles.values()}

    def role_by_name(self) -> dict[str, str]:
        """A role's name -> the role as ``blue major``."""
        return {role.id: f"{role.colour} {role.rank}" for role in self.roles.values()}

    def role_effects(self) -> dict[str, tuple[str, int]]:
        """What each role (``blue major``) does when taken: (effect, amount); both ranks of a
        colour do the same."""
        return dict(self._role_effects)

    def role_effect(self, role: str) -> tuple[str, int]:
        """``role_effects()[role]``, read without a copy of the table (at every role's effect)."""
        return self._role_effects[role]

    @cached_property
    def _role_effects(self) -> dict[str, tuple[str, int]]:
        # Read at every role's effect: found once for the components (which never change), and
        # each caller given its own copy.
        return {f"{role.colour} {role.rank}": (role.effect, role.amount) for role in self.roles.values()}


_FIELDS: dict[str, dict[str, type]] = {
    "colour": {"building": str, "cards": int},
    "size": {
        "cities": int,
        "cost": int,
        "vp": int,
        "shields": int,
        "icons": int,
        "pairs": int,
        "regions": int,
    },
    "region": {"name": str, "display": str},
    "city": {
        "name": str,
        "size": str,
        "cost": int,
        "vp": int,
        "shields": int,
        "icons": list,
        "regions": list,
    },
    "role": {
        "colour": str,
        "rank": str,
        "name": str,
        "name_b": str,
        "effect": str,
        "amount": int,
    },
    "reading": {"default": str, "other": str},
}
# Fields a game's data may lack: those added after games were made with the data they then had.
_OPTIONAL: dict[str, tuple[str, ...]] = {"region": ("display",)}
# A city has at most one pair of icons (« 2 du même type »), and no card names more than a
# handful of icons or regions; the bounds keep a group's own values within what the rules handle.
_BOUNDS = {"pairs": (0, 1), "icons": (1, 10), "regions": (1, 6), "amount": (1, 10)}


def parse(data: Mapping[str, Any], *, require_sources: bool = False) -> ComponentSet:
    """Check component data (a template, or its values without sources) and build the set.

    Raises ComponentError naming the first table, record and field that is wrong, in one line.
    Data read before gives the same set (``templates.Parsed``): every game of a process shares it.
    """
    return _PARSED(data, require_sources)


def _parse(data: Mapping[str, Any], require_sources: bool) -> ComponentSet:
    if not isinstance(data, Mapping) or not data:
        raise ComponentError("no component data: an Il Principe game needs its components")
    header = templates.table(data, "template")
    if header.get("game") != GAME:
        raise ComponentError(f"[template] game must be {GAME!r}, not {header.get('game')!r}")
    rules = templates.value_table(templates.table(data, "rules"), "[rules]", RULE_VALUES, require_sources)
    kinds = {
        kind: templates.records(
            data, kind, fields, require_sources, bounds=_BOUNDS, optional=_OPTIONAL.get(kind, ())
        )
        for kind, fields in _FIELDS.items()
    }
    _known("[[colour]]", [fields["id"] for fields in kinds["colour"]], COLOURS, ordered=True)
    _known("[[size]]", [fields["id"] for fields in kinds["size"]], SIZE_NAMES)
    _known("[[reading]]", [fields["id"] for fields in kinds["reading"]], tuple(READINGS))
    sizes = {
        fields["id"]: Size(
            fields["id"],
            fields["cost"],
            fields["vp"],
            fields["shields"],
            fields["icons"],
            fields["regions"],
            fields["pairs"],
            fields["cities"],
        )
        for fields in kinds["size"]
    }
    regions = {fields["id"]: fields["name"] for fields in kinds["region"]}
    cities = {fields["id"]: _city(fields, sizes, regions) for fields in kinds["city"]}
    components = ComponentSet(
        rules=rules,
        colours={fields["id"]: Colour(fields["building"], fields["cards"]) for fields in kinds["colour"]},
        sizes=sizes,
        regions=regions,
        cities=cities,
        roles={fields["id"]: _role(fields) for fields in kinds["role"]},
        readings={fields["id"]: _reading(fields) for fields in kinds["reading"]},
        unverified=frozenset(templates.unverified(data)),
        region_names={fields["id"]: fields["display"] for fields in kinds["region"] if "display" in fields},
    )
    _check_whole(components)
    return components


_PARSED = templates.Parsed(_parse)


def _known(label: str, found: list[str], names: tuple[str, ...], *, ordered: bool = False) -> None:
    if (found if ordered else sorted(found)) != (list(names) if ordered else sorted(names)):
        order = ", in that order" if ordered else ""
        raise ComponentError(f"{label} must be exactly {', '.join(names)}{order}")


def check_icons(size: Size, icons: tuple[str, ...]) -> str | None:
    """Why ``icons`` cannot be a city of ``size``, or None: 3, 4 or 5 icons, and medium and large
    cities have « 2 du même type » (one pair, the rest different)."""
    if len(icons) != size.icons:
        return f"a {size.name} city has {size.icons} building icons"
    if size.pairs:
        counts = sorted(Counter(icons).values(), reverse=True)
        if counts[0] != 2 or counts[1:].count(2) > 0:
            return f"a {size.name} city's icons are one pair and the rest of different colours"
    return None


def _city(fields: Mapping[str, Any], sizes: Mapping[str, Size], regions: Mapping[str, str]) -> CityCard:
    label = f"[[city]] {fields['id']!r}"
    size = sizes.get(fields["size"])
    if size is None:
        raise ComponentError(f"{label}: unknown size {fields['size']!r}; known: {', '.join(SIZE_NAMES)}")
    # The companion charges a city's cost and places its shields by its size ("Les petites cités
    # coûtent 3 ...", « Placer 1 (pour les petites cités) ou 2 »), so a card must agree with it.
    for name in ("cost", "shields"):
        if fields[name] != getattr(size, name):
            raise ComponentError(
                f"{label}: {name} is {fields[name]}, but a {size.name} city's is {getattr(size, name)}"
            )
    unknown = [colour for colour in fields["icons"] if colour not in COLOURS]
    if unknown:
        raise ComponentError(f"{label}: unknown icon {unknown[0]!r}; known: {', '.join(COLOURS)}")
    # Kept in the order the card (or the example) lists them: the order pbem shows them in.
    icons = tuple(fields["icons"])
    problem = check_icons(size, icons)
    if problem:
        raise ComponentError(f"{label}: {problem}")
    touched = fields["regions"]
    unknown = [region for region in touched if region not in regions]
    if unknown:
        raise ComponentError(f"{label}: unknown region {unknown[0]!r}; known: {', '.join(regions)}")
    if len(set(touched)) != len(touched) or len(touched) != size.regions:
        raise ComponentError(f"{label}: a {size.name} city touches {size.regions} different region(s)")
    return CityCard(
        fields["id"],
        fields["name"],
        size,
        fields["cost"],
        fields["vp"],
        fields["shields"],
        icons,
        tuple(sorted(touched)),
    )


def _role(fields: Mapping[str, Any]) -> Role:
    label = f"[[role]] {fields['id']!r}"
    for name, known in (("colour", COLOURS), ("rank", RANKS), ("effect", EFFECTS)):
        if fields[name] not in known:
            raise ComponentError(f"{label}: unknown {name} {fields[name]!r}; known: {', '.join(known)}")
    # The table records one card turned up or one shield placed per effect.
    if fields["effect"] in ("turn-up", "shield") and fields["amount"] != 1:
        raise ComponentError(
            f"{label}: a {fields['effect']} effect is one choice at the table; amount must be 1"
        )
    if fields["id"] in GRAMMAR_WORDS:
        raise ComponentError(f"{label}: the name is a word of the table actions; choose another")
    return Role(**fields)


def _reading(fields: Mapping[str, Any]) -> Reading:
    choices = READINGS[fields["id"]]
    if sorted((fields["default"], fields["other"])) != sorted(choices):
        raise ComponentError(
            f"[[reading]] {fields['id']!r}: default and other must be {choices[0]} and {choices[1]}"
        )
    return Reading(fields["id"], fields["default"], fields["other"])


def _check_whole(components: ComponentSet) -> None:
    """Cross-record checks: counts the texts give, references that resolve, rules that fit."""
    rule = components.rules
    cards = sum(colour.cards for colour in components.colours.values())
    if cards != rule["building_cards"]:
        raise ComponentError(
            f"[[colour]]: {cards} cards, but [rules] building_cards is {rule['building_cards']}"
        )
    if len(components.regions) != rule["regions"]:
        raise ComponentError(
            f"[[region]]: {len(components.regions)} regions, but [rules] regions is {rule['regions']}"
        )
    if len(components.cities) != rule["city_cards"]:
        raise ComponentError(
            f"[[city]]: {len(components.cities)} cities, but [rules] city_cards is {rule['city_cards']}"
        )
    for size in components.sizes.values():
        count = sum(1 for city in components.cities.values() if city.size == size)
        if count != size.cities:
            raise ComponentError(
                f"[[city]]: {count} {size.name} cities, but [[size]] {size.name!r} has {size.cities}"
            )
    touched = {region for city in components.cities.values() for region in city.regions}
    for region in components.regions:
        if region not in touched:
            raise ComponentError(f"[[region]] {region!r}: no city touches it")
    for colour in COLOURS:
        for rank in RANKS:
            held = [
                role.id for role in components.roles.values() if (role.colour, role.rank) == (colour, rank)
            ]
            if len(held) != 1:
                raise ComponentError(f"[[role]]: {len(held)} {colour} {rank} roles; there is one of each")
    for low, high in (
        ("shields_per_family", None),
        ("face_up_cities", None),
        ("draw", None),
        ("two_players_draw", None),
        ("reserve", "draw"),
        ("two_players_reserve", "two_players_draw"),
    ):
        if rule[low] < 1:
            raise ComponentError(f"[rules] {low} must be at least 1")
        if high is not None and rule[low] > rule[high]:
            raise ComponentError(f"[rules] {low} is more than {high}: the reserve comes from the hand")
    fewest = min(colour.cards for colour in components.colours.values())
    if rule["two_players_removed_per_colour"] > fewest:
        raise ComponentError("[rules] two_players_removed_per_colour is more than the cards of a colour")
    if rule["city_cards"] - rule["two_players_removed_cities"] < rule["face_up_cities"]:
        raise ComponentError("[rules] two_players_removed_cities leaves fewer cities than are face up")


def load_set() -> ComponentSet:
    """The components of the template pbem ships, checked with their sources: read only where a
    command needs the defaults (a new game without its own components, a table's set-up)."""
    return parse(gamefile.shipped_template(TEMPLATE), require_sources=True)


# Roles as ``colour rank``, in colour order: the board's, whatever a set of components calls them.
ROLES = tuple(f"{colour} {rank}" for colour in COLOURS for rank in RANKS)


@dataclass(frozen=True)
class City:
    name: str
    size: Size
    vp: int
    icons: tuple[str, ...] | None
    regions: tuple[str, ...] | None


@dataclass(frozen=True)
class Components:
    """What a table plays with: the cities as far as the texts (or the table) give them, the
    regions, and the readings picked where the translations disagree (absent: the default the
    components mark). ``box`` is the set of components they come from: every number a rule needs
    is read from it, so a table or a game plays with the values it was set up with."""

    box: ComponentSet
    cities: Mapping[str, City]
    regions: tuple[str, ...]
    readings: Mapping[str, str] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, object]) -> Components:
        return self  # immutable: every copy of a table shares one set of components

    def reading(self, name: str) -> str:
        return self.readings.get(name, self.box.readings[name].default)

    def rule(self, name: str) -> int:
        return self.box.rules[name]


def _colours(field: str, city: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(colour in COLOURS for colour in value):
        raise UsageError(f"components {field}.{city}: expected a list of colours ({', '.join(COLOURS)})")
    return tuple(sorted(value, key=COLOURS.index))


def readings(given: Any) -> dict[str, str]:
    """A ``readings`` table (reading -> the choice where the translations disagree), checked:
    the companion's ``--components`` and an email game's components both carry one."""
    return _readings(given)


def _readings(given: Any) -> dict[str, str]:
    if not isinstance(given, Mapping):
        raise UsageError("components readings: expected a table of reading = choice")
    for name, choice in given.items():
        if name not in READINGS:
            raise UsageError(f"components readings: unknown reading {name!r}; known: {', '.join(READINGS)}")
        if choice not in READINGS[name]:
            raise UsageError(f"components readings.{name}: expected {' or '.join(READINGS[name])}")
    return dict(given)


def load(overrides: Mapping[str, Any] | None, box: ComponentSet) -> Components:
    """The components of ``box`` as far as a text gives them, with a table's overrides: ``icons``
    and ``regions`` (city -> list of colours/regions), ``vp`` (city -> points printed on its card),
    ``region_names`` (the six regions' names) and ``readings`` (reading -> the choice where the
    translations disagree)."""
    overrides = overrides or {}
    default_names = tuple(sorted(box.regions))
    unknown = set(overrides) - {"icons", "regions", "vp", "region_names", "readings"}
    if unknown:
        raise UsageError(
            f"unknown components {', '.join(sorted(unknown))}; "
            "known: icons, regions, vp, region_names, readings"
        )
    names = tuple(overrides.get("region_names", default_names))
    if (
        len(names) != len(default_names)
        or len(set(names)) != len(names)
        or not all(isinstance(n, str) for n in names)
    ):
        raise UsageError(
            "components region_names: expected six different names (the map of Italy has 6 regions)"
        )
    for field_name in ("icons", "regions", "vp"):
        for city in overrides.get(field_name, {}):
            if city not in box.cities:
                raise UsageError(f"components {field_name}: unknown city {city!r}")
    cities: dict[str, City] = {}
    for name, card in box.cities.items():
        size = card.size
        # Only what a text gives: the examples of "Construire une cité" (Firenze, Lucca, Milano).
        icons = card.icons if box.sourced(f"city {name} icons") else None
        if name in overrides.get("icons", {}):
            icons = _colours("icons", name, overrides["icons"][name])
            problem = check_icons(size, icons)
            if problem:
                raise UsageError(f"components icons.{name}: {problem}")
        known_regions = card.regions if box.sourced(f"city {name} regions") else None
        regions = known_regions if names == default_names else None
        if name in overrides.get("regions", {}):
            given = overrides["regions"][name]
            if not isinstance(given, list | tuple) or not all(region in names for region in given):
                raise UsageError(f"components regions.{name}: expected regions among {', '.join(names)}")
            if len(set(given)) != size.regions:
                raise UsageError(
                    f"components regions.{name}: a {size.name} city touches {size.regions} region(s)"
                )
            regions = tuple(sorted(set(given)))
        vp = overrides.get("vp", {}).get(name, card.vp)
        if not isinstance(vp, int) or isinstance(vp, bool) or vp < 0:
            raise UsageError(f"components vp.{name}: expected a whole number")
        cities[name] = City(name, size, vp, icons, regions)
    return Components(box, cities, names, _readings(overrides.get("readings", {})))
