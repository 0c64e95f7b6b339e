"""The state of an Il Principe table: each family's ducats, points, hand and cards in front of
it, the round, the reserve being auctioned and the roles. ``apply`` works on a deep copy."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.il_principe.components import COLOURS, Components

UNKNOWN = "unknown"


def by_colour() -> dict[str, int]:
    return dict.fromkeys(COLOURS, 0)


@dataclass
class Seat:
    """One family. ``hand`` counts cards by colour where the table recorded it (cards won at
    auction) and the rest, drawn face down, as ``unknown``."""

    name: str
    ducats: int
    vp: int = 0
    hand: dict[str, int] = field(default_factory=lambda: {**by_colour(), UNKNOWN: 0})
    up: dict[str, int] = field(default_factory=by_colour)
    down: dict[str, int] = field(default_factory=by_colour)
    shields: dict[str, int] = field(default_factory=dict)
    cities: list[str] = field(default_factory=list)
    # This round only: cards put in the reserve, groups won, cities built, cards placed.
    reserved: int = 0
    wins: int = 0
    builds: int = 0
    places: int = 0

    @property
    def hand_size(self) -> int:
        return sum(self.hand.values())

    @property
    def played(self) -> int:
        """Building cards in front of the family, face up or down: the first tie-break."""
        return sum(self.up.values()) + sum(self.down.values())

    def in_front(self, colour: str) -> int:
        return self.up[colour] + self.down[colour]

    @property
    def shields_placed(self) -> int:
        return sum(self.shields.values())


@dataclass(frozen=True)
class Step:
    """One thing phase 4 does next: give a role, auction it, or carry out a role's effect."""

    kind: str  # "give", "auction" or "effect"
    role: str  # "blue major"
    players: tuple[str, ...]  # the holder, or the players tied for the role


@dataclass
class Rules:
    """The numbers that depend on the player count and the variant."""

    start_ducats: int
    income: int
    draw: int
    reserve: int
    threshold: int  # fewer cards than this in the pile at phase 1: the last round
    last_draw: int  # cards drawn from the pile for the last round's auctions
    cities: int
    minor_roles: bool
    build_first_round: bool


@dataclass
class Table:
    players: tuple[str, ...]
    parts: Components
    rules: Rules
    seats: dict[str, Seat]
    principe: str
    deck: int
    round: int = 1
    income_paid: bool = False
    last_round: bool = False
    over: bool = False
    discards: int = 0
    drawn_for_last_round: int = 0
    reserve: dict[str, int] = field(default_factory=by_colour)
    # Once a group is auctioned the reserve is closed: no card joins it until the next round.
    auctions_begun: bool = False
    roles: dict[str, str | None] = field(default_factory=dict)
    roles_started: bool = False
    steps: list[Step] = field(default_factory=list)
    colours_left: list[str] = field(default_factory=list)
    built: dict[str, str] = field(default_factory=dict)  # city -> builder
    city_icons: dict[str, tuple[str, ...]] = field(default_factory=dict)
    city_regions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The families that compete for no comparative bonus of the final scoring: by email, those
    # the rules' defaults play at the end (option retired=compete-none); a table has none.
    aside: tuple[str, ...] = ()

    @property
    def roles_done(self) -> bool:
        return self.roles_started and not self.steps and not self.colours_left

    def holder(self, role: str) -> str | None:
        return self.roles.get(role)
