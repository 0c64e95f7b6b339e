"""Il Principe's components: building colours, role tiles, the 15 cities and the 6 regions.

Values come from the rules texts in seed 002 ("CONTENU", "Les cartes Cité", "Les tuiles de
Rôle") unless marked otherwise. The texts give the icons of three cities only (Firenze, Lucca,
Milano, in their examples) and which regions touch two of them (Firenze, Milano); for the other
cities the table states icons and regions when it records the build, or passes them in
``components`` (see ``load``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.errors import UsageError

# "l'ordre des couleurs sur le plateau (vert, blanc, rouge, bleu et jaune)": every tie in colour
# follows this order, so it is also the order of every table pbem prints.
COLOURS = ("green", "white", "red", "blue", "yellow")
BUILDINGS = {
    "green": "university",
    "white": "cathedral",
    "red": "town hall",
    "blue": "castle",
    "yellow": "market",
}
CARDS_PER_COLOUR = 20
# "Règles spéciales pour 2 joueurs": « 7 bâtiments de chaque couleur » go back in the box.
TWO_PLAYER_REMOVED_PER_COLOUR = 7
TWO_PLAYER_REMOVED_CITIES = 5
SHIELDS_PER_FAMILY = 12

RANKS = ("major", "minor")
# "Les tuiles de Rôle": Maître/Apprenti, Evêque/Prêtre, Gonfalonier (Magistrat)/Notaire,
# Noble (Seigneur)/Chevalier, Banquier/Marchand.
ROLE_NAMES = {
    ("green", "major"): "master",
    ("green", "minor"): "apprentice",
    ("white", "major"): "bishop",
    ("white", "minor"): "priest",
    ("red", "major"): "gonfalonier",
    ("red", "minor"): "notary",
    ("blue", "major"): "noble",
    ("blue", "minor"): "knight",
    ("yellow", "major"): "banker",
    ("yellow", "minor"): "merchant",
}
ROLES = tuple(f"{colour} {rank}" for colour in COLOURS for rank in RANKS)
ROLE_BY_NAME = {name: f"{colour} {rank}" for (colour, rank), name in ROLE_NAMES.items()}

# Regions are named by their colour on the map: the examples name brown, purple and green
# (Firenze: « les régions marron, violette et verte »), blue and green (Milano), and blue, green,
# red and yellow (the final scoring example) — six names for the six regions of "CONTENU".
REGIONS = ("blue", "brown", "green", "purple", "red", "yellow")


@dataclass(frozen=True)
class Size:
    """ "Les cartes Cité" and "Construire une cité": what a small, medium or large city gives."""

    name: str
    cost: int
    vp: int
    shields: int
    icons: int
    regions: int


SIZES = {
    "small": Size("small", cost=3, vp=4, shields=1, icons=3, regions=1),
    "medium": Size("medium", cost=4, vp=6, shields=2, icons=4, regions=2),
    "large": Size("large", cost=5, vp=8, shields=2, icons=5, regions=3),
}

CITY_SIZES = {
    **dict.fromkeys(("siena", "orvieto", "venezia", "verona", "perugia"), "small"),
    **dict.fromkeys(("urbino", "padova", "lucca", "milano", "bologna"), "medium"),
    **dict.fromkeys(("mantova", "firenze", "ferrara", "pisa", "rimini"), "large"),
}

# The examples of "Construire une cité": Firenze « 2 Universités, 1 Hôtel de Ville, 1 château et
# une place de marché »; Lucca « 2 Cathédrales, 1 château et un Hôtel de Ville »; Milan « deux
# bleus, un rouge et un jaune ».
KNOWN_ICONS = {
    "firenze": ("green", "green", "red", "blue", "yellow"),
    "lucca": ("white", "white", "red", "blue"),
    "milano": ("blue", "blue", "red", "yellow"),
}
KNOWN_REGIONS = {
    "firenze": ("brown", "green", "purple"),
    "milano": ("blue", "green"),
}


@dataclass(frozen=True)
class City:
    name: str
    size: Size
    vp: int
    icons: tuple[str, ...] | None
    regions: tuple[str, ...] | None


@dataclass(frozen=True)
class Components:
    cities: Mapping[str, City]
    regions: tuple[str, ...]


def _colours(field: str, city: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(colour in COLOURS for colour in value):
        raise UsageError(f"components {field}.{city}: expected a list of colours ({', '.join(COLOURS)})")
    return tuple(sorted(value, key=COLOURS.index))


def check_icons(size: Size, icons: tuple[str, ...]) -> str | None:
    """Why ``icons`` cannot be a city of ``size``, or None: 3, 4 or 5 icons, and medium and large
    cities have « 2 du même type » (one pair, the rest different)."""
    if len(icons) != size.icons:
        return f"a {size.name} city has {size.icons} building icons"
    if size.name != "small":
        counts = sorted((icons.count(colour) for colour in set(icons)), reverse=True)
        if counts[0] != 2 or counts[1:].count(2) > 0:
            return f"a {size.name} city's icons are one pair and the rest of different colours"
    return None


def load(overrides: Mapping[str, Any] | None) -> Components:
    """The components, with a table's overrides: ``icons`` and ``regions`` (city -> list of
    colours/regions), ``vp`` (city -> points printed on its card) and ``region_names`` (the six
    regions' names)."""
    overrides = overrides or {}
    unknown = set(overrides) - {"icons", "regions", "vp", "region_names"}
    if unknown:
        raise UsageError(
            f"unknown components {', '.join(sorted(unknown))}; known: icons, regions, vp, region_names"
        )
    names = tuple(overrides.get("region_names", REGIONS))
    if (
        len(names) != len(REGIONS)
        or len(set(names)) != len(names)
        or not all(isinstance(n, str) for n in names)
    ):
        raise UsageError(
            "components region_names: expected six different names (« une carte de l'Italie avec 6 régions »)"
        )
    for field in ("icons", "regions", "vp"):
        for city in overrides.get(field, {}):
            if city not in CITY_SIZES:
                raise UsageError(f"components {field}: unknown city {city!r}")
    cities: dict[str, City] = {}
    for name, size_name in CITY_SIZES.items():
        size = SIZES[size_name]
        icons = KNOWN_ICONS.get(name)
        if name in overrides.get("icons", {}):
            icons = _colours("icons", name, overrides["icons"][name])
            problem = check_icons(size, icons)
            if problem:
                raise UsageError(f"components icons.{name}: {problem}")
        regions = KNOWN_REGIONS.get(name) if names == REGIONS else None
        if name in overrides.get("regions", {}):
            given = overrides["regions"][name]
            if not isinstance(given, list | tuple) or not all(region in names for region in given):
                raise UsageError(f"components regions.{name}: expected regions among {', '.join(names)}")
            if len(set(given)) != size.regions:
                raise UsageError(
                    f"components regions.{name}: a {size.name} city touches {size.regions} region(s)"
                )
            regions = tuple(sorted(set(given)))
        vp = overrides.get("vp", {}).get(name, size.vp)
        if not isinstance(vp, int) or isinstance(vp, bool) or vp < 0:
            raise UsageError(f"components vp.{name}: expected a whole number")
        cities[name] = City(name, size, vp, icons, regions)
    return Components(cities, names)
