"""Princes of Florence's components as data, read from the template pbem ships
(``templates/princes-of-florence.toml``), and the checks a set of components must pass.

Every value in the template names its source: ``seed 001`` is the Russian rules text (the
authority), ``notes`` the Princes of Florence section of the project's rules notes (card lists from
translated references), ``unverified`` a value of pbem's reference set where no public text gives
one. The companion (``table.py``) takes from the template only what a source gives: a value that is
unverified there is read from the table (the user records it) or marked ``pbem default`` and may be
replaced through ``components`` when a table starts (see ``overrides``). The whole reference set is
for games that need every value, and for ``pbem templates show princes-of-florence``.

A game reads its components once, from the values its genesis signs (or a table from those its log
starts with), and the rules read every value from the state: nothing here is read at import, so a
group's own copy of the template is played as signed.

Tables and records of the template:

- ``[rules]``, ``[minimum_work]`` (by round) and ``[unofficial]``: ``{ value = N, source = "..." }``.
- ``[estate]``: columns, rows, palace (a shape), palace_at (the square under its lower-left corner).
- ``[[profession]]``: id, name, building, landscape, freedom.
- ``[[building]]``: id, name, size (large, medium, small), copies, shape, two_sided.
- ``[[landscape]]``: id, name, copies, professions (how many profession cards like it), shape,
  two_sided.
- ``[[freedom]]``: id, name, copies.
- ``[builder]``, ``[jester]``, ``[recruitment]``: copies and what each gives.
- ``[[prestige]]``: id, condition, value, tied (only on the cards that compare players).
- ``[[bonus]]``: id, text, wp, counts (what the card counts, ``wp`` for each).

A shape is drawn row by row from the top, ``#`` for a square of the piece.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem import gamefile
from pbem.errors import MoveSyntaxError, UsageError
from pbem.games.princes_of_florence.estate import (
    Cells,
    cells_from_picture,
    connected,
    parse_square,
    turned,
)
from pbem.kit import templates
from pbem.kit.templates import ComponentError

GAME = "princes-of-florence"
TEMPLATE = "princes-of-florence"
MAX_PLAYERS = 5  # the declaration (__init__.py): the game is for 2 to 5

# The names the rules code knows: profession cards name these, and the scoring counts them.
BUILDING_NAMES = (
    "atelier",
    "chapel",
    "hospital",
    "laboratory",
    "library",
    "opera",
    "theatre",
    "tower",
    "university",
    "workshop",
)
SIZES = ("large", "medium", "small")
LANDSCAPES = ("forest", "lake", "park")
FREEDOMS = ("opinion", "religion", "travel")
# The cards that compare players, so a lead may be shared and the tied value applies.
LEAD_CARDS = (
    "most-works",
    "most-buildings",
    "most-jesters",
    "most-builders",
    "most-forests",
    "most-lakes",
    "most-parks",
    "most-landscapes",
    "fewest-empty",
)
PRESTIGE_NAMES = (
    *LEAD_CARDS,
    "all-landscapes",
    "all-freedoms",
    "builder-jester-landscapes",
    "two-large",
    "four-buildings-two-freedoms",
)
# What a bonus card may count in an estate.
COUNTED = (
    "building",
    "small-building",
    "medium-building",
    "large-building",
    "building-size",
    "landscape",
    "landscape-type",
    "forest",
    "lake",
    "park",
    "freedom",
    "builder",
    "jester",
    "prestige-card",
    "card-in-hand",
)
# The auction's and the actions' prices: rule values, and in florins.
_PRICES = (
    "opening_bid",
    "raise",
    "last_player_price",
    "building_price",
    "profession_price",
    "freedom_price",
    "bonus_price",
)
RULE_VALUES = (
    "rounds",
    "start_florins",
    "dealt",
    "start_hand",
    "actions_per_round",
    *_PRICES,
    "cards_drawn",
    "building_prestige",
    "landscape_prestige",
    "best_work_prestige",
    "florins_per_wp",
    "florins_per_prestige",
    "sell_prestige",
    "wp_building",
    "wp_landscape",
    "wp_freedom",
    "wp_card",
    "large_types",
    "medium_types",
    "small_types",
    "profession_cards",
    "prestige_cards",
    "bonus_cards",
    "freedom_markers",
)
UNOFFICIAL_VALUES = (
    "three_players_recruitment_removed",
    "three_players_profession_limit",
    "two_players_recruitment_removed",
    "two_players_building_copies",
    "two_players_profession_limit",
    "professions_turned_up_from",
    "two_players_second_card_from",
    "two_players_opening_bid",
    "two_players_jester_early",
    "two_players_jester_late",
    "two_players_jester_late_from",
)
LETTER_LIMIT = 26  # squares are named by one letter a column
# Prices and the start are in florins, far above the engine's usual bound; this is far above the
# bank's 22,700 (seed 001, Содержимое коробки: 27 по 100, 12 по 500 и 14 по 1000 флоринов).
FLORIN_LIMIT = 99_900
_FLORINS = (0, FLORIN_LIMIT)
_FLORIN_BOUNDS = dict.fromkeys(
    (
        "start_florins",
        *_PRICES,
        "florins_per_wp",
        "florins_per_prestige",
        "sell_prestige",
        "reduced_price",
        "two_players_opening_bid",
        "two_players_jester_early",
        "two_players_jester_late",
    ),
    _FLORINS,
)


@dataclass(frozen=True)
class Profession:
    """What a scholar or artist likes (notes: the profession cards; two rows marked probable)."""

    building: str
    landscape: str
    freedom: str
    name: str


@dataclass(frozen=True)
class Tile:
    """What a building and a landscape share: a tile laid on an estate's squares."""

    id: str
    name: str
    copies: int
    cells: Cells
    two_sided: bool

    @property
    def is_building(self) -> bool:
        return isinstance(self, Building)


@dataclass(frozen=True)
class Building(Tile):
    size: str


@dataclass(frozen=True)
class Landscape(Tile):
    professions: int


@dataclass(frozen=True)
class Freedom:
    id: str
    name: str
    copies: int


@dataclass(frozen=True)
class EstateLayout:
    columns: int
    rows: int
    palace: Cells  # the squares it covers


@dataclass(frozen=True)
class Builders:
    copies: int
    limit: int
    reduced_price: int
    free_from: int
    touching_from: int
    prestige: int
    prestige_from: int


@dataclass(frozen=True)
class Counted:
    """Jesters and recruitment cards: how many there are, and the WP each adds to a work."""

    copies: int
    wp: int


@dataclass(frozen=True)
class PrestigeCard:
    """A prestige card: its value, its value when the lead is shared (None: no lead to share)."""

    value: int
    tied: int | None
    condition: str
    source: str = "notes"


@dataclass(frozen=True)
class BonusCard:
    id: str
    text: str
    wp: int
    counts: tuple[str, ...]


@dataclass(frozen=True)
class Components:
    rules: Mapping[str, int]
    minimum_work: Mapping[int, int]
    unofficial: Mapping[str, int]
    estate: EstateLayout
    professions: Mapping[str, Profession]
    buildings: Mapping[str, Building]
    landscapes: Mapping[str, Landscape]
    freedoms: Mapping[str, Freedom]
    builders: Builders
    jester: Counted
    recruitment: Counted
    prestige: Mapping[str, PrestigeCard]
    bonus: Mapping[str, BonusCard]
    unverified: frozenset[str]  # ``table [id] field`` paths, as ``templates.unverified`` gives

    def __deepcopy__(self, memo: dict[int, object]) -> Components:
        return self  # immutable: every copy of a game shares one set of components

    def rule(self, name: str) -> int:
        return self.rules[name]

    def sourced(self, path: str) -> bool:
        """Whether a public text gives the value at ``path`` (``minimum_work 5``)."""
        return path not in self.unverified

    @property
    def building_names(self) -> tuple[str, ...]:
        return tuple(sorted(self.buildings))

    def size_kinds(self) -> dict[str, int]:
        """How many building types each size has. The template's sizes are pbem's reference set,
        in no source: at a table the players say a type's size when it is first built, and these
        only bound how many types each size has."""
        return {size: self.rules[f"{size}_types"] for size in SIZES}

    def supply(self) -> dict[str, int]:
        """The lots and decks of the box, before the player count or the unofficial rules."""
        return {
            **{name: landscape.copies for name, landscape in self.landscapes.items()},
            "jester": self.jester.copies,
            "builder": self.builders.copies,
            "prestige-card": self.rules["prestige_cards"],
            "recruitment": self.recruitment.copies,
            "bonus": self.rules["bonus_cards"],
        }

    def unofficial_recruitment(self, players: int) -> int | None:
        """The recruitment cards left once the unofficial rules remove some (None: none removed)."""
        key = {2: "two_players_recruitment_removed", 3: "three_players_recruitment_removed"}.get(players)
        return None if key is None else self.recruitment.copies - self.unofficial[key]

    def unofficial_building_copies(self, players: int) -> int | None:
        """With two, "доступно только по одному зданию каждого типа" (None: every tile is used)."""
        return self.unofficial["two_players_building_copies"] if players == 2 else None

    def profession_limit(self, players: int) -> int:
        """ "За всю игру только 6 (4) карт профессий могут приобрести игроки"; players take only the
        cards turned up one a round from round 3 (two more in rounds 6 and 7 with 2 players): 5 in a
        game of three, so the limit of 6 is never reached; 7 in a game of two, so the limit of 4 is."""
        return self.unofficial[
            "two_players_profession_limit" if players == 2 else "three_players_profession_limit"
        ]

    def listed_bonus(self) -> dict[str, str]:
        """The bonus cards a source lists, by name, with their text: at a table only these are
        named; a card in no source is given by the value read off it (``bonus 4``)."""
        return {card.id: card.text for card in self.bonus.values() if self.sourced(f"bonus {card.id} wp")}

    def known_minimums(self) -> dict[int, int]:
        """The minimum work values a source gives. notes: "round 5 is 15 and round 7 is 17"; seed 001
        says only that the minimum is printed on the round track and "возрастает с каждым раундом".
        The others are read off the table."""
        return {
            round_: value
            for round_, value in self.minimum_work.items()
            if self.sourced(f"minimum_work {round_}")
        }


_FIELDS: dict[str, dict[str, type]] = {
    "profession": {"name": str, "building": str, "landscape": str, "freedom": str},
    "building": {"name": str, "size": str, "copies": int, "shape": list, "two_sided": bool},
    "landscape": {"name": str, "copies": int, "professions": int, "shape": list, "two_sided": bool},
    "freedom": {"name": str, "copies": int},
    "prestige": {"condition": str, "value": int, "tied": int},
    "bonus": {"text": str, "wp": int, "counts": list},
}
_ESTATE_FIELDS: dict[str, type] = {"columns": int, "rows": int, "palace": list, "palace_at": str}
_BUILDER_FIELDS: dict[str, type] = dict.fromkeys(Builders.__dataclass_fields__, int)
_COUNTED_FIELDS: dict[str, type] = {"copies": int, "wp": int}


def parse(data: Mapping[str, Any], *, require_sources: bool = False) -> Components:
    """Check component data (a template, or the values a game embeds) and build the components.

    Raises ComponentError naming the first table, record and field that is wrong, in one line.
    """
    if not isinstance(data, Mapping) or not data:
        raise ComponentError("no component data: a Princes of Florence game needs its components")
    header = templates.table(data, "template")
    if header.get("game") != GAME:
        raise ComponentError(f"[template] game must be {GAME!r}, not {header.get('game')!r}")
    rules = templates.value_table(
        templates.table(data, "rules"), "[rules]", RULE_VALUES, require_sources, bounds=_FLORIN_BOUNDS
    )
    if rules["rounds"] < 1:
        raise ComponentError("[rules] rounds must be at least 1")
    rounds = [str(round_) for round_ in range(1, rules["rounds"] + 1)]
    minimums = templates.value_table(
        templates.table(data, "minimum_work"), "[minimum_work]", rounds, require_sources
    )
    unofficial = templates.value_table(
        templates.table(data, "unofficial"),
        "[unofficial]",
        UNOFFICIAL_VALUES,
        require_sources,
        bounds=_FLORIN_BOUNDS,
    )
    single = {
        name: templates.record(
            templates.table(data, name),
            f"[{name}]",
            fields,
            require_sources,
            keyed=False,
            bounds=_FLORIN_BOUNDS,
        )
        for name, fields in (
            ("estate", _ESTATE_FIELDS),
            ("builder", _BUILDER_FIELDS),
            ("jester", _COUNTED_FIELDS),
            ("recruitment", _COUNTED_FIELDS),
        )
    }
    kinds = {
        kind: templates.records(data, kind, fields, require_sources, optional=("tied",))
        for kind, fields in _FIELDS.items()
    }
    unverified = frozenset(templates.unverified(data))
    components = Components(
        rules=rules,
        minimum_work={int(round_): value for round_, value in minimums.items()},
        unofficial=unofficial,
        estate=_estate(single["estate"]),
        professions={
            fields["id"]: Profession(
                fields["building"], fields["landscape"], fields["freedom"], fields["name"]
            )
            for fields in kinds["profession"]
        },
        buildings={
            fields["id"]: Building(
                *_tile(fields, "building"),
                size=fields["size"],
            )
            for fields in kinds["building"]
        },
        landscapes={
            fields["id"]: Landscape(
                *_tile(fields, "landscape"),
                professions=fields["professions"],
            )
            for fields in kinds["landscape"]
        },
        freedoms={fields["id"]: Freedom(**fields) for fields in kinds["freedom"]},
        builders=Builders(**single["builder"]),
        jester=Counted(**single["jester"]),
        recruitment=Counted(**single["recruitment"]),
        prestige={
            fields["id"]: PrestigeCard(
                fields["value"],
                fields.get("tied"),
                fields["condition"],
                _prestige_source(unverified, fields["id"], require_sources),
            )
            for fields in kinds["prestige"]
        },
        bonus={
            fields["id"]: BonusCard(fields["id"], fields["text"], fields["wp"], tuple(fields["counts"]))
            for fields in kinds["bonus"]
        },
        unverified=unverified,
    )
    _check_whole(components)
    return components


def _prestige_source(unverified: frozenset[str], card: str, with_sources: bool) -> str:
    """What the companion says of a card's value: a text's, pbem's default, or the group's own."""
    if not with_sources:
        return "components"
    return "pbem default" if f"prestige {card} value" in unverified else "notes"


def _tile(fields: Mapping[str, Any], kind: str) -> tuple[str, str, int, Cells, bool]:
    """The fields of a ``[[building]]`` or ``[[landscape]]`` every tile has, in ``Tile``'s order."""
    label = f"[[{kind}]] {fields['id']!r}"
    return fields["id"], fields["name"], fields["copies"], _shape(fields["shape"], label), fields["two_sided"]


def _shape(picture: list[str], label: str) -> Cells:
    if not picture or any(set(line) - {"#", "."} for line in picture):
        raise ComponentError(f'{label}: shape is drawn in rows of "#" (a square) and "." (none)')
    cells = cells_from_picture(picture)
    if not connected(cells):
        raise ComponentError(f"{label}: shape must be one piece, its squares joined along their sides")
    return turned(cells, 0)


def _estate(fields: Mapping[str, Any]) -> EstateLayout:
    columns, rows = fields["columns"], fields["rows"]
    for name, value in (("columns", columns), ("rows", rows)):
        if not 1 <= value <= LETTER_LIMIT:
            raise ComponentError(f"[estate] {name} is {value}; it must be from 1 to {LETTER_LIMIT}")
    shape = _shape(fields["palace"], "[estate] palace")
    try:
        left, bottom = parse_square(fields["palace_at"], columns, rows)
    except MoveSyntaxError as exc:
        raise ComponentError(f"[estate] palace_at: {exc}") from None
    palace = frozenset((left + column, bottom + row) for column, row in shape)
    if any(column >= columns or row >= rows for column, row in palace):
        raise ComponentError("[estate] the palace reaches off the estate")
    return EstateLayout(columns, rows, palace)


def _exactly(label: str, found: Mapping[str, object], names: tuple[str, ...]) -> None:
    if sorted(found) != sorted(names):
        raise ComponentError(f"{label} must be exactly {', '.join(names)}")


def _fits(cells: Cells, layout: EstateLayout) -> bool:
    width = 1 + max(column for column, _ in cells)
    height = 1 + max(row for _, row in cells)
    return (width <= layout.columns and height <= layout.rows) or (
        height <= layout.columns and width <= layout.rows
    )


def _check_whole(components: Components) -> None:
    """Cross-record checks: names the rules know, references that resolve, counts the text gives."""
    rule = components.rule
    if rule("start_hand") > rule("dealt"):
        raise ComponentError("[rules] start_hand is more than dealt: a player keeps some of the cards dealt")
    for name in ("actions_per_round", "cards_drawn"):
        if rule(name) < 1:
            raise ComponentError(f"[rules] {name} must be at least 1")
    rising = list(components.minimum_work.values())
    # "Минимальная ценность шедевров возрастает с каждым раундом."
    if any(later <= earlier for earlier, later in itertools.pairwise(rising)):
        raise ComponentError("[minimum_work] must rise every round, as the round track's minimum does")
    _exactly("[[building]]", components.buildings, BUILDING_NAMES)
    _exactly("[[landscape]]", components.landscapes, LANDSCAPES)
    _exactly("[[freedom]]", components.freedoms, FREEDOMS)
    _exactly("[[prestige]]", components.prestige, PRESTIGE_NAMES)
    for kind, found, total in (
        ("profession", components.professions, "profession_cards"),
        ("prestige", components.prestige, "prestige_cards"),
        ("bonus", components.bonus, "bonus_cards"),
    ):
        if len(found) != rule(total):
            raise ComponentError(f"[[{kind}]]: {len(found)} cards, but [rules] {total} is {rule(total)}")
    if rule("dealt") * MAX_PLAYERS > len(components.professions):
        raise ComponentError(
            f"[[profession]]: too few cards to deal {rule('dealt')} to {MAX_PLAYERS} players"
        )
    for card, likes in components.professions.items():
        label = f"[[profession]] {card!r}"
        for what, name, known in (
            ("building", likes.building, components.buildings),
            ("landscape", likes.landscape, components.landscapes),
            ("freedom", likes.freedom, components.freedoms),
        ):
            if name not in known:
                raise ComponentError(f"{label}: unknown {what} {name!r}; known: {', '.join(sorted(known))}")
    layout = components.estate
    for building in components.buildings.values():
        label = f"[[building]] {building.id!r}"
        if building.size not in SIZES:
            raise ComponentError(f"{label}: size must be large, medium or small")
        if not _fits(building.cells, layout):
            raise ComponentError(f"{label}: shape does not fit on the estate")
    # "3 вида больших зданий, 5 видов средних зданий, 2 вида маленьких зданий."
    for size in SIZES:
        count = sum(1 for building in components.buildings.values() if building.size == size)
        if count != rule(f"{size}_types"):
            raise ComponentError(
                f"[[building]]: {count} {size} types, but [rules] {size}_types is {rule(f'{size}_types')}"
            )
    squares = {
        size: [len(b.cells) for b in components.buildings.values() if b.size == size] for size in SIZES
    }
    for larger, smaller in itertools.pairwise(SIZES):
        if min(squares[larger]) <= max(squares[smaller]):
            raise ComponentError(
                f"[[building]]: every {larger} building must cover more squares than every {smaller} one"
            )
    for landscape in components.landscapes.values():
        label = f"[[landscape]] {landscape.id!r}"
        if not _fits(landscape.cells, layout):
            raise ComponentError(f"{label}: shape does not fit on the estate")
        liking = sum(1 for likes in components.professions.values() if likes.landscape == landscape.id)
        if liking != landscape.professions:
            raise ComponentError(
                f"{label}: professions is {landscape.professions}, but {liking} profession cards like it"
            )
    # "озеро меньше по размерам", "парк меньше по размерам" (than the forest, than the lake)
    sizes = [len(components.landscapes[name].cells) for name in LANDSCAPES]
    if not sizes[0] > sizes[1] > sizes[2]:
        raise ComponentError("[[landscape]]: a lake must be smaller than a forest, and a park than a lake")
    markers = sum(freedom.copies for freedom in components.freedoms.values())
    if markers != rule("freedom_markers"):
        raise ComponentError(
            f"[[freedom]]: {markers} markers, but [rules] freedom_markers is {rule('freedom_markers')}"
        )
    for freedom in components.freedoms.values():
        # "Число маркеров свободы каждого типа, доступное в игре, равно количеству игроков минус 1."
        if freedom.copies < MAX_PLAYERS - 1:
            raise ComponentError(
                f"[[freedom]] {freedom.id!r}: {MAX_PLAYERS} players need {MAX_PLAYERS - 1} markers"
            )
    builders = components.builders
    if builders.limit > builders.copies:
        raise ComponentError("[builder] limit is more than copies")
    for name in ("free_from", "touching_from", "prestige_from"):
        if not 1 <= getattr(builders, name) <= builders.limit:
            raise ComponentError(f"[builder] {name} must be from 1 to limit ({builders.limit})")
    if builders.reduced_price > rule("building_price"):
        raise ComponentError("[builder] reduced_price is more than [rules] building_price")
    for name in ("three_players_recruitment_removed", "two_players_recruitment_removed"):
        if components.unofficial[name] > components.recruitment.copies:
            raise ComponentError(f"[unofficial] {name} is more than the recruitment cards")
    for card, prestige in components.prestige.items():
        label = f"[[prestige]] {card!r}"
        if card in LEAD_CARDS and prestige.tied is None:
            raise ComponentError(
                f"{label}: a card that compares players needs tied (its value for a shared lead)"
            )
        if card not in LEAD_CARDS and prestige.tied is not None:
            raise ComponentError(f"{label}: the card compares no players, so it has no tied value")
        if prestige.tied is not None and prestige.tied > prestige.value:
            raise ComponentError(f"{label}: tied is more than value")
    for bonus in components.bonus.values():
        unknown = [name for name in bonus.counts if name not in COUNTED]
        if not bonus.counts or unknown:
            raise ComponentError(f"[[bonus]] {bonus.id!r}: counts must name things from {', '.join(COUNTED)}")


# Components read from sets of values, by the values' text: see ``parsed``.
_PARSED: dict[str, Components] = {}


def parsed(data: Mapping[str, Any]) -> Components:
    """``parse(data)``, read once per set of values: every game sets up its components again, and
    the games of a benchmark or a search, or a file verified again, give the same values each time.
    Found by the values' text (``repr``), which two sets of values (read from TOML or JSON) share only
    when they are equal and in the same order; what ``parse`` gives is a frozen value every game
    that reads it may share, as every copy of a game already does (``Components.__deepcopy__``).
    Values that are refused are read, and refused, each time."""
    key = repr(data)
    found = _PARSED.get(key)
    if found is None:
        found = parse(data)
        if len(_PARSED) >= 16:
            _PARSED.clear()
        _PARSED[key] = found
    return found


def load() -> Components:
    """The components of the template pbem ships, checked with their sources: read only where a
    command needs the defaults (a new game without its own components, a table's set-up)."""
    return parse(gamefile.shipped_template(TEMPLATE), require_sources=True)


@dataclass(frozen=True)
class Overrides:
    """The values a table may replace when it starts: only those the sources leave open."""

    minimums: dict[int, int]
    prestige: dict[str, PrestigeCard]
    sizes: dict[str, str]


def overrides(components: Mapping[str, Any] | None, found: Components) -> Overrides:
    """Read ``components``: ``minimum_work`` ({round: value}), ``prestige_values``
    ({card: value or [value, tied]}) and ``building_sizes`` ({building: large|medium|small}), over
    the values ``found`` gives."""
    given = dict(components or {})
    unknown = set(given) - {"minimum_work", "prestige_values", "building_sizes"}
    if unknown:
        raise UsageError(
            f"princes-of-florence components: unknown {', '.join(sorted(unknown))}; known: "
            "building_sizes, minimum_work, prestige_values"
        )
    minimums = found.known_minimums()
    for key, value in dict(given.get("minimum_work", {})).items():
        round_ = int(key)
        if not 1 <= round_ <= found.rule("rounds") or type(value) is not int or value < 0:
            raise UsageError(f"princes-of-florence components: minimum_work {key}={value!r}")
        minimums[round_] = value
    cards = dict(found.prestige)
    for name, value in dict(given.get("prestige_values", {})).items():
        if name not in cards:
            raise UsageError(f"princes-of-florence components: unknown prestige card {name!r}")
        full, tied = (value, cards[name].tied) if isinstance(value, int) else tuple(value)
        if type(full) is not int or not (tied is None or type(tied) is int):
            raise UsageError(f"princes-of-florence components: prestige_values {name}={value!r}")
        cards[name] = PrestigeCard(full, tied, cards[name].condition, source="components")
    sizes: dict[str, str] = {}
    for name, size in dict(given.get("building_sizes", {})).items():
        if name not in found.buildings or size not in SIZES:
            raise UsageError(f"princes-of-florence components: building_sizes {name}={size!r}")
        sizes[name] = size
    for size, kinds in found.size_kinds().items():
        if sum(1 for value in sizes.values() if value == size) > kinds:
            raise UsageError(f"princes-of-florence components: more than {kinds} {size} building types")
    return Overrides(minimums, cards, sizes)
