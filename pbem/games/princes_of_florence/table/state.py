"""The state of a Princes of Florence table: plain dataclasses, deep-copied before each action.

Hands are hidden at a real table, so a player's profession cards are a count of unnamed cards plus
the cards the table has named (taken by name, or recruited from an opponent); a profession is named
when its work is created. Prestige cards are likewise held unnamed until revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.princes_of_florence.components import Components, PrestigeCard

AUCTION = "auction"
ACTIONS = "actions"
OVER = "over"

# Where prestige points came from, in the order the score sheet shows them.
PRESTIGE_SOURCES = ("buildings", "landscapes", "builders", "works", "best work", "sold", "corrections")


@dataclass
class Work:
    profession: str
    round: int
    value: int
    prestige: int  # prestige points taken instead of florins
    florins: int


@dataclass
class Estate:
    florins: int
    prestige: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PRESTIGE_SOURCES, 0))
    buildings: dict[str, str] = field(default_factory=dict)  # type -> size
    landscapes: dict[str, int] = field(default_factory=lambda: {"forest": 0, "lake": 0, "park": 0})
    freedoms: list[str] = field(default_factory=list)
    jesters: int = 0
    builders: int = 0
    hand: int = 0  # unnamed profession cards in hand
    named: list[str] = field(default_factory=list)  # named profession cards in hand
    played: list[str] = field(default_factory=list)  # profession cards laid out face up
    recruitment: int = 0  # recruitment cards in hand, not yet used
    recruited: int = 0  # recruitment cards laid out by the estate (used)
    bonus: int = 0  # bonus cards in hand
    prestige_cards: list[str | None] = field(default_factory=list)  # None: not yet revealed
    works: list[Work] = field(default_factory=list)
    empty: int | None = None  # empty squares as counted on the board
    bought: str | None = None  # what the player won at this round's auction
    actions: list[str] = field(default_factory=list)  # this round's actions

    @property
    def points(self) -> int:
        return sum(self.prestige.values())

    @property
    def cards(self) -> int:
        """Profession and recruitment cards in hand or laid out (each +1 WP)."""
        return self.hand + len(self.named) + len(self.played) + self.recruitment + self.recruited

    @property
    def in_hand(self) -> int:
        """Profession and recruitment cards in hand."""
        return self.hand + len(self.named) + self.recruitment

    @property
    def landscape_count(self) -> int:
        return sum(self.landscapes.values())


@dataclass
class Table:
    # The box's values the table was set up with: every rule reads them from here, never from a
    # file, so a table replays with the values it started with.
    components: Components
    players: tuple[str, ...]
    unofficial: bool
    estates: dict[str, Estate]
    supply: dict[str, int]  # auction objects, bonus deck, profession deck, buildings, freedoms
    minimums: dict[int, int]  # known minimum work value per round
    prestige_cards: dict[str, PrestigeCard]
    sizes: dict[str, str]  # building type -> size, as known so far
    round: int = 1
    phase: str = AUCTION
    first: str = ""
    auctioned: list[str] = field(default_factory=list)  # object kinds won this round
    professions_taken: int = 0  # from the deck, for the unofficial rules' limit
    # option variant_last_price: the last player pays the unofficial rules' price for two
    variant_last: bool = False
