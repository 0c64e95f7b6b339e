"""Princes of Florence's components as data, each with where it comes from.

``seed 001`` is the Russian rules text (the authority); ``notes`` is the Princes of Florence section
of the project's rules notes, which lists the cards from translated card lists. Values that no
source gives are either read from the table (the user records them) or marked ``pbem default``
and may be replaced through ``components`` when a table starts (see ``overrides``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.errors import UsageError

ROUNDS = 7  # seed 001: "Игра длится 7 раундов."
START_FLORINS = 3500  # seed 001: "3500 флоринов."
START_HAND = 3  # seed 001: "сдается по 4 карты ... выбирает из них три"
DEALT = 4
BUILDING_PRESTIGE = 3  # seed 001: "При строительстве здания игрок немедленно получает 3 очка престижа."
REPEAT_PRESTIGE = 3  # seed 001: the second and each further forest (lake, park), builder: 3 PP
BEST_WORK_PRESTIGE = 3  # seed 001: "самый ценный шедевр получает 3 очка престижа"
FLORINS_PER_WP = 100  # seed 001: "Банк платит 100 флоринов за каждый WP."
FLORINS_PER_PRESTIGE = 200  # seed 001: "1 очко престижа стоит 200 флоринов."
SELL_PRESTIGE = 100  # seed 001: "За каждое потерянное очко престижа игрок получает 100 флоринов."
ACTION_PRICE = 300  # seed 001: a profession card, a freedom, a bonus card each cost 300
ACTIONS_PER_ROUND = 2  # seed 001: "Каждый игрок совершает по 2 действия."
OPENING_BID = 200  # seed 001: "начинает аукцион со ставкой 200 флоринов"
RAISE = 100  # seed 001: "Все повышения цены лота происходят ровно на 100 флоринов"
MAX_BUILDERS = 3  # seed 001: "(их не может быть в поместье более трех)"

WP_BUILDING = 4  # seed 001: "ценность шедевра возрастает на 4 WP"
WP_LANDSCAPE = 3
WP_FREEDOM = 3
WP_JESTER = 2
WP_CARD = 1

BUILDINGS = (
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
# seed 001: "3 вида больших зданий, 5 видов средних зданий, 2 вида маленьких зданий"; which type
# has which size is in no source, so the table says it when a type is first built.
SIZE_KINDS = {"large": 3, "medium": 5, "small": 2}
LANDSCAPES = ("forest", "lake", "park")
FREEDOMS = ("opinion", "religion", "travel")


@dataclass(frozen=True)
class Profession:
    """What a scholar or artist likes (notes: the profession cards; two rows marked probable)."""

    building: str
    landscape: str
    freedom: str


PROFESSIONS: dict[str, Profession] = {
    "mathematician": Profession("university", "lake", "religion"),
    "theologian": Profession("university", "park", "travel"),
    "philosopher": Profession("university", "forest", "opinion"),
    "botanist": Profession("laboratory", "park", "religion"),
    "alchemist": Profession("laboratory", "lake", "opinion"),
    "physicist": Profession("laboratory", "forest", "travel"),
    "clockmaker": Profession("workshop", "lake", "travel"),
    "goldsmith": Profession("workshop", "park", "opinion"),
    "bell-founder": Profession("workshop", "forest", "religion"),
    "cartographer": Profession("library", "lake", "religion"),
    "jurist": Profession("library", "forest", "opinion"),
    "choreographer": Profession("opera", "forest", "travel"),
    "composer": Profession("opera", "lake", "opinion"),
    "sculptor": Profession("atelier", "forest", "religion"),  # notes: probable
    "painter": Profession("atelier", "lake", "travel"),
    "pharmacist": Profession("hospital", "park", "opinion"),
    "doctor": Profession("hospital", "forest", "travel"),
    "playwright": Profession("theatre", "park", "religion"),
    "poet": Profession("theatre", "lake", "travel"),
    "astronomer": Profession("tower", "forest", "religion"),
    "organ-builder": Profession("chapel", "forest", "opinion"),  # notes: probable
}

# seed 001, "Содержимое коробки": 6 builders, 7 jesters, 14 prestige, 20 bonus, 5 recruitment cards,
# 3 of each building (30); notes: 6 of each landscape (18 in all).
SUPPLY = {
    "forest": 6,
    "lake": 6,
    "park": 6,
    "jester": 7,
    "builder": 6,
    "prestige-card": 14,
    "recruitment": 5,
    "bonus": 20,
}
BUILDING_COPIES = 3
# The unofficial rules: "удалите в коробку одну карту найма" (3 players), "две карты найма" and
# "только по одному зданию каждого типа" (2 players).
UNOFFICIAL_RECRUITMENT = {2: 3, 3: 4}
UNOFFICIAL_BUILDING_COPIES = {2: 1}
# "За всю игру только 6 (4) карт профессий могут приобрести игроки"; players take only the cards
# turned up one a round from round 3 (two more in rounds 6 and 7 with 2 players): 5 in a game of
# three, so the limit of 6 is never reached; 7 in a game of two, so the limit of 4 is.
UNOFFICIAL_PROFESSION_LIMIT = {2: 4, 3: 6}


@dataclass(frozen=True)
class PrestigeCard:
    """A prestige card: its value, its value when the lead is shared (None: no lead to share)."""

    value: int
    tied: int | None
    condition: str
    source: str = "notes"


# seed 001: "Если ... игрок делит с другим участником игры первенство в требуемой области, то он
# получает лишь половину очков престижа"; notes give the printed tied values (half, rounded up).
PRESTIGE_CARDS: dict[str, PrestigeCard] = {
    "most-works": PrestigeCard(7, 4, "most works"),
    "most-buildings": PrestigeCard(6, 3, "most buildings"),
    "most-jesters": PrestigeCard(6, 3, "most jesters"),
    "most-builders": PrestigeCard(6, 3, "most builders"),
    "most-forests": PrestigeCard(7, 4, "most forests"),
    "most-lakes": PrestigeCard(6, 3, "most lakes"),
    "most-parks": PrestigeCard(5, 3, "most parks"),
    "most-landscapes": PrestigeCard(7, 4, "most landscapes"),
    "all-landscapes": PrestigeCard(8, None, "all three landscape types"),
    "all-freedoms": PrestigeCard(8, None, "all three freedoms"),
    "fewest-empty": PrestigeCard(8, 4, "fewest empty squares"),
    "builder-jester-landscapes": PrestigeCard(7, None, "at least 1 builder, 1 jester, 2 landscapes"),
    "two-large": PrestigeCard(5, None, "at least 2 large buildings"),
    # No source gives this card's value: pbem's default, to be replaced by the printed one.
    "four-buildings-two-freedoms": PrestigeCard(
        6, None, "at least 4 buildings and 2 freedoms", source="pbem default"
    ),
}

# Bonus cards (notes): what each adds to a work. The box holds 20 (seed 001, SUPPLY above); the
# notes list these 13 and say "six more not found", which makes 19, one short of the box. So 7 of
# the 20 cards are in no source (6 if a card comes twice, which no source says); their value is
# read off the card and given as a number (``bonus 4``).
BONUS_CARDS: dict[str, str] = {
    "buildings": "+1 per building",
    "small-and-landscapes": "+1 per small building and per landscape",
    "forests": "+2 per forest",
    "freedoms": "+2 per freedom",
    "builders": "+2 per builder",
    "prestige-and-freedoms": "+1 per prestige card and per freedom",
    "hand": "+1 per profession or recruitment card in hand",
    "large": "+2 per large building",
    "sizes": "+2 per building size owned",
    "lakes": "+2 per lake",
    "jesters": "+2 per jester",
    "builders-and-lakes": "+1 per builder and per lake",
    "landscape-types": "+2 per landscape type",
}
UNLISTED_BONUS_CARDS = SUPPLY["bonus"] - len(BONUS_CARDS)  # 7: the box's 20 less the notes' 13

# notes: "round 5 is 15 and round 7 is 17"; seed 001 says only that the minimum is printed on the
# round track and "возрастает с каждым раундом".
MINIMUM_WORK = {5: 15, 7: 17}


@dataclass(frozen=True)
class Overrides:
    """The values a table may replace when it starts: only those the sources leave open."""

    minimums: dict[int, int]
    prestige: dict[str, PrestigeCard]
    sizes: dict[str, str]


def overrides(components: Mapping[str, Any] | None) -> Overrides:
    """Read ``components``: ``minimum_work`` ({round: value}), ``prestige_values``
    ({card: value or [value, tied]}) and ``building_sizes`` ({building: large|medium|small})."""
    given = dict(components or {})
    unknown = set(given) - {"minimum_work", "prestige_values", "building_sizes"}
    if unknown:
        raise UsageError(
            f"princes-of-florence components: unknown {', '.join(sorted(unknown))}; known: "
            "building_sizes, minimum_work, prestige_values"
        )
    minimums = dict(MINIMUM_WORK)
    for key, value in dict(given.get("minimum_work", {})).items():
        round_ = int(key)
        if not 1 <= round_ <= ROUNDS or type(value) is not int or value < 0:
            raise UsageError(f"princes-of-florence components: minimum_work {key}={value!r}")
        minimums[round_] = value
    cards = dict(PRESTIGE_CARDS)
    for name, value in dict(given.get("prestige_values", {})).items():
        if name not in cards:
            raise UsageError(f"princes-of-florence components: unknown prestige card {name!r}")
        full, tied = (value, cards[name].tied) if isinstance(value, int) else tuple(value)
        if type(full) is not int or not (tied is None or type(tied) is int):
            raise UsageError(f"princes-of-florence components: prestige_values {name}={value!r}")
        cards[name] = PrestigeCard(full, tied, cards[name].condition, source="components")
    sizes: dict[str, str] = {}
    for name, size in dict(given.get("building_sizes", {})).items():
        if name not in BUILDINGS or size not in SIZES:
            raise UsageError(f"princes-of-florence components: building_sizes {name}={size!r}")
        sizes[name] = size
    for size, kinds in SIZE_KINDS.items():
        if sum(1 for value in sizes.values() if value == size) > kinds:
            raise UsageError(f"princes-of-florence components: more than {kinds} {size} building types")
    return Overrides(minimums, cards, sizes)
