"""Princes of the Renaissance's components as data, and the checks a template must pass.

A template (``templates/princes-of-the-renaissance-EDITION.toml``) gives every component with a
``source`` for each value: the rules text and section it comes from, or ``unverified`` where no
public text gives it. A game embeds the template's values (without the sources) in its
``[components]`` table, whose hash the genesis entry signs, so every player replays the same
components even if the group edited the numbers to match their own copy.

Record kinds (arrays of tables, each record with an ``id`` and a ``source`` table naming the
source of every other field):

- ``[rules]``: ``start_gold``, ``start_influence``, ``dice_fee``, ``status_min``, ``status_max``,
  ``city_tile_limit``, ``city_limit``, ``hand_limit``, ``city_tiles_drawn`` (0: all used),
  ``city_bid_factor``, ``card_gold``, ``card_influence``, ``wars_small``, ``wars_large``,
  ``unrepresented_bonus``, each ``{ value = N, source = "..." }``.
- ``[[city]]``: id, name, status.
- ``[[family]]``: id, side (a or b), name, gold, influence, ability.
- ``[[city_tile]]``: id, name, city, gold, influence, ability, merchant.
- ``[[troop]]``: id, name, copies, cost, attack, defence, influence, decade_one.
- ``[[event]]``: id, name, decade, currency (gold or influence), kind (vp, artist, french,
  wine-merchant), value (VP, or the status change).
- ``[pope]``: name, currency, income_gold, vp (a single table with its own ``source``).
- ``[[treachery]]``: id, name, copies.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from threading import Lock
from typing import Any, TypeVar

from pbem.kit import templates
from pbem.kit.templates import VALUE_LIMIT, ComponentError

GAME = "princes-of-the-renaissance"
CITIES = ("venice", "milan", "florence", "rome", "naples")
FAMILIES = ("baglioni", "bentivoglio", "este", "gonzaga", "malatesta", "montefeltro")
TROOPS = ("infantry", "crossbowmen", "pikemen", "cavalry", "artillery")
CARDS = (
    "bribe-troops",
    "bribe-cardinal",
    "freeze-bid",
    "steal-influence",
    "steal-gold-shipment",
    "veto",
    "start-war",
    "bad-weather",
)
EVENT_KINDS = ("vp", "artist", "french", "wine-merchant")
CURRENCIES = ("gold", "influence")
# The abilities the engine knows (seed 000, "Описание Тайлов"); a template may only name these.
CITY_ABILITIES = (
    "",
    "banker",
    "lucrezia-borgia",
    "pope-discount",
    "ludovico-sforza",
    "free-card",
    "hand-limit",
    "caterina-sforza",
    "genoese-crossbow",
    "swiss-mercenaries",
    "armourer",
    "spanish-infantry",
)
FAMILY_ABILITIES = tuple(f"{family}-{side}" for family in FAMILIES for side in ("a", "b"))
RULE_VALUES = (
    "start_gold",
    "start_influence",
    "dice_fee",
    "status_min",
    "status_max",
    "city_tile_limit",
    "city_limit",
    "hand_limit",
    "city_tiles_drawn",
    "city_bid_factor",
    "card_gold",
    "card_influence",
    "wars_small",
    "wars_large",
    "unrepresented_bonus",
)


@dataclass(frozen=True)
class City:
    id: str
    name: str
    status: int


@dataclass(frozen=True)
class FamilyTile:
    id: str
    side: str
    name: str
    gold: int
    influence: int
    ability: str


@dataclass(frozen=True)
class CityTile:
    id: str
    name: str
    city: str
    gold: int
    influence: int
    ability: str
    merchant: bool


@dataclass(frozen=True)
class Troop:
    id: str
    name: str
    copies: int
    cost: int
    attack: int
    defence: int
    influence: int
    decade_one: bool


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    decade: int
    currency: str
    kind: str
    value: int


@dataclass(frozen=True)
class Pope:
    name: str
    currency: str
    income_gold: int
    vp: int


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    copies: int


@dataclass(frozen=True)
class Components:
    edition: str
    rules: Mapping[str, int]
    cities: tuple[City, ...]
    families: tuple[FamilyTile, ...]
    city_tiles: tuple[CityTile, ...]
    troops: tuple[Troop, ...]
    events: tuple[Event, ...]
    pope: Pope
    cards: tuple[Card, ...]

    def __deepcopy__(self, memo: dict[int, object]) -> Components:
        return self  # immutable: a game's copies share one set of components

    def rule(self, name: str) -> int:
        return self.rules[name]

    # Each lookup reads a table built once from the components, the first record of an id kept as
    # the search it replaces found it: the rules look tiles up by id hundreds of times a move. An id
    # missing from the table is searched for as before, so it fails as before.
    @cached_property
    def _cities(self) -> dict[str, City]:
        return _by_id(self.cities)

    @cached_property
    def _city_tiles(self) -> dict[str, CityTile]:
        return _by_id(self.city_tiles)

    @cached_property
    def _families(self) -> dict[tuple[str, str], FamilyTile]:
        found: dict[tuple[str, str], FamilyTile] = {}
        for tile in self.families:
            found.setdefault((tile.id, tile.side), tile)
        return found

    @cached_property
    def _troops(self) -> dict[str, Troop]:
        return _by_id(self.troops)

    @cached_property
    def _events(self) -> dict[str, Event]:
        return _by_id(self.events)

    @cached_property
    def _cards(self) -> dict[str, Card]:
        return _by_id(self.cards)

    def city(self, city_id: str) -> City:
        found = self._cities.get(city_id)
        return found if found is not None else next(city for city in self.cities if city.id == city_id)

    def city_tile(self, tile_id: str) -> CityTile:
        found = self._city_tiles.get(tile_id)
        return found if found is not None else next(tile for tile in self.city_tiles if tile.id == tile_id)

    def family(self, family_id: str, side: str) -> FamilyTile:
        found = self._families.get((family_id, side))
        if found is not None:
            return found
        return next(tile for tile in self.families if tile.id == family_id and tile.side == side)

    def troop(self, troop_id: str) -> Troop:
        found = self._troops.get(troop_id)
        return found if found is not None else next(troop for troop in self.troops if troop.id == troop_id)

    def event(self, event_id: str) -> Event:
        found = self._events.get(event_id)
        return found if found is not None else next(event for event in self.events if event.id == event_id)

    def card(self, card_id: str) -> Card:
        found = self._cards.get(card_id)
        return found if found is not None else next(card for card in self.cards if card.id == card_id)

    @cached_property
    def city_of(self) -> dict[str, str]:
        """The city of each City tile, by the tile's id."""
        return {tile_id: tile.city for tile_id, tile in self._city_tiles.items()}

    @cached_property
    def ability_of(self) -> dict[str, str]:
        """The ability of each City tile, by the tile's id."""
        return {tile_id: tile.ability for tile_id, tile in self._city_tiles.items()}

    @cached_property
    def event_ids(self) -> frozenset[str]:
        """The ids of every Event tile."""
        return frozenset(event.id for event in self.events)

    @cached_property
    def city_tile_ids(self) -> frozenset[str]:
        """The ids of every City tile."""
        return frozenset(tile.id for tile in self.city_tiles)


_Record = TypeVar("_Record", City, CityTile, Troop, Event, Card)


def _by_id(records: tuple[_Record, ...]) -> dict[str, _Record]:
    """Each record by its id, the first of an id kept."""
    found: dict[str, _Record] = {}
    for record in records:
        found.setdefault(record.id, record)
    return found


COPIES_LIMIT = 20  # of one Treachery card or Troop tile: the hidden deck's proofs grow with it
# An Event tile's value is a status change, which may be negative.
_BOUNDS = {"value": (-VALUE_LIMIT, VALUE_LIMIT), "copies": (0, COPIES_LIMIT)}

# field name -> expected type, per record kind
_FIELDS: dict[str, dict[str, type]] = {
    "city": {"name": str, "status": int},
    "family": {"side": str, "name": str, "gold": int, "influence": int, "ability": str},
    "city_tile": {
        "name": str,
        "city": str,
        "gold": int,
        "influence": int,
        "ability": str,
        "merchant": bool,
    },
    "troop": {
        "name": str,
        "copies": int,
        "cost": int,
        "attack": int,
        "defence": int,
        "influence": int,
        "decade_one": bool,
    },
    "event": {"name": str, "decade": int, "currency": str, "kind": str, "value": int},
    "treachery": {"name": str, "copies": int},
}
_POPE_FIELDS: dict[str, type] = {"name": str, "currency": str, "income_gold": int, "vp": int}


# Components already built, by the data they were built from (``marshal``: the same bytes are the
# same values of the same types, so 1, 1.0 and true stay apart), so that every game set up from
# one template's values, and every replay of a game, is not checked again: a handful, the oldest
# let go. Data marshal cannot write is built each time.
_BUILT: dict[tuple[bytes, str, bool], Components] = {}
_BUILT_KEPT = 8
_KEEPING = Lock()  # one thread at a time lets the oldest go (a web server sets up many games)


def parse(data: Mapping[str, Any], *, edition: str, require_sources: bool = False) -> Components:
    """Check component data (a template, or a game's embedded values) and build the components.

    Raises ComponentError naming the first record and field that is wrong.
    """
    key = _built_key(data, edition, require_sources)
    if key is None:
        return _parse(data, edition=edition, require_sources=require_sources)
    built = _BUILT.get(key)
    if built is None:
        built = _parse(data, edition=edition, require_sources=require_sources)
        with _KEEPING:
            if len(_BUILT) >= _BUILT_KEPT:
                del _BUILT[next(iter(_BUILT))]
            _BUILT[key] = built
    return built


def _built_key(
    data: Mapping[str, Any], edition: str, require_sources: bool
) -> tuple[bytes, str, bool] | None:
    """What ``_BUILT`` keeps components by, or None for data marshal cannot write (a Mapping of
    another type, a date): those are built each time."""
    if not isinstance(data, dict):
        return None
    try:
        return marshal.dumps(data), edition, require_sources
    except ValueError:
        return None


def _parse(data: Mapping[str, Any], *, edition: str, require_sources: bool) -> Components:
    if not isinstance(data, Mapping) or not data:
        raise ComponentError("no component data: a Princes of the Renaissance game needs its components")
    header = templates.table(data, "template")
    if header.get("game") != GAME:
        raise ComponentError(f"[template] game must be {GAME!r}, not {header.get('game')!r}")
    if header.get("edition") != edition:
        raise ComponentError(
            f"[template] edition is {header.get('edition')!r} but the game is the {edition} edition"
        )
    rules = templates.value_table(templates.table(data, "rules"), "[rules]", RULE_VALUES, require_sources)
    cities = tuple(City(**fields) for fields in _records(data, "city", require_sources))
    families = tuple(FamilyTile(**fields) for fields in _records(data, "family", require_sources))
    city_tiles = tuple(CityTile(**fields) for fields in _records(data, "city_tile", require_sources))
    troops = tuple(Troop(**fields) for fields in _records(data, "troop", require_sources))
    events = tuple(Event(**fields) for fields in _records(data, "event", require_sources))
    cards = tuple(Card(**fields) for fields in _records(data, "treachery", require_sources))
    pope_fields = templates.record(
        templates.table(data, "pope"), "pope", _POPE_FIELDS, require_sources, keyed=False, bounds=_BOUNDS
    )
    components = Components(
        edition, rules, cities, families, city_tiles, troops, events, Pope(**pope_fields), cards
    )
    _check_whole(components)
    return components


def _records(data: Mapping[str, Any], kind: str, require_sources: bool) -> list[dict[str, Any]]:
    return templates.records(data, kind, _FIELDS[kind], require_sources, bounds=_BOUNDS)


def _check_whole(components: Components) -> None:
    """Cross-record checks: references resolve and the set can be played."""
    ids = [city.id for city in components.cities]
    if sorted(ids) != sorted(CITIES):
        raise ComponentError(f"[[city]] must be exactly {', '.join(CITIES)}")
    low, high = components.rule("status_min"), components.rule("status_max")
    if low > high:
        raise ComponentError("[rules] status_min is above status_max")
    for city in components.cities:
        if not low <= city.status <= high:
            raise ComponentError(f"[[city]] {city.id!r}: status {city.status} is outside {low}..{high}")
    for family in FAMILIES:
        for side in ("a", "b"):
            matches = [tile for tile in components.families if tile.id == family and tile.side == side]
            if not matches:
                raise ComponentError(f"[[family]] {family!r} has no side {side!r}")
    for family_tile in components.families:
        label = f"[[family]] {family_tile.id!r} ({family_tile.side})"
        if family_tile.id not in FAMILIES or family_tile.side not in ("a", "b"):
            raise ComponentError(f"{label}: unknown family or side")
        if family_tile.ability not in FAMILY_ABILITIES:
            raise ComponentError(f"{label}: unknown ability {family_tile.ability!r}")
    drawn = components.rule("city_tiles_drawn")
    for tile in components.city_tiles:
        if tile.city not in CITIES:
            raise ComponentError(f"[[city_tile]] {tile.id!r}: unknown city {tile.city!r}")
        if tile.ability not in CITY_ABILITIES:
            raise ComponentError(f"[[city_tile]] {tile.id!r}: unknown ability {tile.ability!r}")
    for city_id in CITIES:
        count = sum(1 for tile in components.city_tiles if tile.city == city_id)
        if count == 0 or count < drawn:
            raise ComponentError(
                f"[[city_tile]]: {city_id} has {count} tiles; at least {max(drawn, 1)} needed"
            )
    for troop in components.troops:
        if troop.id not in TROOPS:
            raise ComponentError(f"[[troop]] {troop.id!r}: troop types are {', '.join(TROOPS)}")
    for event in components.events:
        if event.decade not in (1, 2, 3):
            raise ComponentError(f"[[event]] {event.id!r}: decade must be 1, 2 or 3")
        if event.currency not in CURRENCIES:
            raise ComponentError(f"[[event]] {event.id!r}: currency must be gold or influence")
        if event.kind not in EVENT_KINDS:
            raise ComponentError(f"[[event]] {event.id!r}: kind must be one of {', '.join(EVENT_KINDS)}")
    for decade in (1, 2, 3):
        if not any(event.decade == decade for event in components.events):
            raise ComponentError(f"[[event]]: decade {decade} has no Event tiles, so it could never end")
    if components.pope.currency not in CURRENCIES:
        raise ComponentError("[pope] currency must be gold or influence")
    for card in components.cards:
        if card.id not in CARDS:
            raise ComponentError(f"[[treachery]] {card.id!r}: Treachery cards are {', '.join(CARDS)}")
