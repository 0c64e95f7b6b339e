"""The state of a Princes of Florence game played by email: frozen dataclasses, replaced, never
changed in place.

Cards in hands are hidden-deck tokens (``profession:7``), as in Princes of the Renaissance: the
rules never see a card until it is shown face up, and then only its name (``shown``). A work lays
its profession card face up and shows its bonus cards; prestige cards stay face down until the
end of the game ("Игроки открывают свои карты престижа").

The estate is the companion's grid (``estate.Estate``), so a building or landscape is placed by the
same rules in both modes; ``as_estate`` gives the companion's counting view of a player, so a work's
value, a bonus card and a prestige card are counted by the same code in both modes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence import estate as grid
from pbem.games.princes_of_florence.components import LANDSCAPES, Components
from pbem.games.princes_of_florence.table.state import Estate
from pbem.games.princes_of_florence.table.state import Work as TableWork
from pbem.kit import cards
from pbem.kit.auction import Auction
from pbem.kit.cards import Pending
from pbem.kit.frozen import evolve
from pbem.kit.seats import FollowUp
from pbem.kit.stand_in import OLD_READING, Defaults

PROFESSION, BONUS, PRESTIGE = "profession", "bonus", "prestige"
DECKS = (PROFESSION, BONUS, PRESTIGE)

# Phases
DEAL = "deal"  # four professions dealt, one returned
AUCTION = "auction"
ACTIONS = "actions"
REVEAL = "reveal"  # the end: prestige cards turned up
OVER = "over"

# Follow-ups: what one player must finish before play goes on.
RETURN = "return"  # the profession card dealt and not kept goes back
KEEP = "keep"  # one card of those drawn is kept, the others go under the deck
PLACE = "place"  # a landscape won is placed at once
PAYMENT = "payment"  # a work's florins, part of them taken as prestige
RECRUIT = "recruit"  # a recruitment card won may be used at once

# Where prestige comes from, in the order a score shows it; the last is the prestige cards' own.
SOURCES = ("buildings", "landscapes", "builders", "works", "best work", "sold")
LOTS = ("forest", "lake", "park", "jester", "builder", "prestige-card", "recruitment")


@dataclass(frozen=True)
class Work:
    profession: str
    round: int
    value: int
    prestige: int = 0  # taken instead of florins, once chosen


@dataclass(frozen=True)
class Player:
    seat: str
    florins: int
    estate: grid.Estate
    prestige: tuple[int, ...] = (0,) * len(SOURCES)  # by SOURCES
    freedoms: tuple[str, ...] = ()
    jesters: int = 0
    builders: int = 0
    hand: tuple[str, ...] = ()  # profession tokens held (hidden, or known from ``shown``)
    laid: tuple[str, ...] = ()  # profession cards laid out face up by the estate, by token
    recruitment: int = 0  # recruitment cards held, not yet used
    recruited: int = 0  # recruitment cards laid out (used)
    bonus: tuple[str, ...] = ()  # bonus tokens held
    played_bonus: tuple[str, ...] = ()  # bonus cards played, by name (out of the game)
    prestige_cards: tuple[str, ...] = ()  # tokens, face down until the end
    works: tuple[Work, ...] = ()
    actions: tuple[str, ...] = ()  # this round's actions
    bought: str = ""  # the lot won this round
    out: bool = False  # takes no further part in this round's auctions

    @property
    def points(self) -> int:
        return sum(self.prestige)

    def gain(self, source: str, points: int) -> Player:
        index = SOURCES.index(source)
        prestige = list(self.prestige)
        prestige[index] += points
        return evolve(self, prestige=tuple(prestige))

    def landscape_count(self, kind: str) -> int:
        return self.estate.landscapes.count(kind)


@dataclass(frozen=True)
class Game:
    components: Components
    seats: tuple[str, ...]
    unofficial: bool
    players: tuple[Player, ...]
    phase: str
    decks: Mapping[str, int]  # cards left in each hidden deck
    supply: Mapping[str, int]  # lots, building tiles and freedom markers left
    round: int = 1
    first: str = ""  # holds the black figure
    nominator: str = ""  # who puts the next lot up
    auctioned: tuple[str, ...] = ()  # lot kinds sold this round ("только один объект одного типа")
    auction: Auction[str] | None = None  # the lot being bid for, put up by ``nominator``
    turn: str = ""  # whose turn it is in the action phase
    # ``what``: the deck (KEEP), the landscape or "landscape" (PLACE), the work's value (PAYMENT);
    # ``tokens``: the cards drawn (KEEP, RETURN)
    follow_ups: tuple[FollowUp, ...] = ()
    drawing: Pending = ()
    shown: Mapping[str, str] = field(default_factory=dict)  # token -> card, once face up
    face_up: tuple[str, ...] = ()  # unofficial rules: profession tokens turned up on the table
    professions_taken: int = 0  # unofficial rules: taken from the cards turned up
    reshuffle: tuple[str, ...] = ()  # decks the rules wait to have shuffled again
    moves: int = 0  # moves made: names each step, so each has its own deadline
    best: tuple[tuple[int, tuple[str, ...]], ...] = ()  # each round's best work and who made it
    # option variant_last_price: with the unofficial rules for two, the last player pays their price
    variant_last: bool = False
    # the seats the rules' defaults play, and the chance their placements read (options retired,
    # default_places)
    defaults: Defaults = OLD_READING

    def player(self, seat: str) -> Player:
        return self.players[self.seats.index(seat)]

    def with_player(self, player: Player) -> Game:
        index = self.seats.index(player.seat)
        players = (*self.players[:index], player, *self.players[index + 1 :])
        return evolve(self, players=players)

    def name(self, token: str) -> str:
        """A card's name once it is face up; its token while only its holder knows it."""
        return cards.name(self.shown, token)

    def minimum(self) -> int:
        """The round's minimum work value, "указанную на треке раундов"."""
        return self.components.minimum_work[self.round]


def refuse(text: str) -> IllegalMoveError:
    return IllegalMoveError(text)


def building_sizes(game: Game, player: Player) -> dict[str, str]:
    return {name: game.components.buildings[name].size for name in player.estate.buildings}


def as_estate(game: Game, player: Player) -> Estate:
    """The companion's counting view of ``player``: what a work's value, a bonus card and a prestige
    card count, so both modes count with the same code (``works``, ``prestige``)."""
    # Every field given to the constructor at once: a work's value is counted from this view for
    # every work a player tries, and setting the fields one by one after their defaults cost twice.
    land = player.estate
    landscapes = land.landscapes
    shown = game.shown
    return Estate(
        florins=player.florins,
        buildings=building_sizes(game, player),
        landscapes={kind: landscapes.count(kind) for kind in LANDSCAPES},
        freedoms=list(player.freedoms),
        jesters=player.jesters,
        builders=player.builders,
        hand=len(player.hand),
        played=[shown.get(token, token) for token in player.laid],
        recruitment=player.recruitment,
        recruited=player.recruited,
        bonus=len(player.bonus),
        prestige_cards=[shown.get(token) for token in player.prestige_cards],
        works=[TableWork(work.profession, work.round, work.value, work.prestige, 0) for work in player.works],
        empty=land.empty,
    )


def setup(components: Components, seats: Sequence[str], unofficial: bool) -> Game:
    """Seed 001, "Подготовка к игре": 3500 florins each; "21 карта профессии перемешивается. Каждому
    игроку сдается по 4 карты"; "Число маркеров свободы каждого типа ... равно количеству игроков
    минус 1"; "Самый старший игрок ... становится первым игроком" (the first seat named)."""
    rule = components.rule
    count = len(seats)
    layout = components.estate
    start = grid.Estate.start(layout.columns, layout.rows, layout.palace)
    players = tuple(Player(seat, rule("start_florins"), start) for seat in seats)
    recruitment = components.recruitment.copies
    copies = {name: building.copies for name, building in components.buildings.items()}
    if unofficial:
        # "Перед началом игры удалите в коробку одну (две) карту найма"; with two, "доступно только
        # по одному зданию каждого типа".
        key = "two_players_recruitment_removed" if count == 2 else "three_players_recruitment_removed"
        recruitment -= components.unofficial[key]
        if count == 2:
            copies = dict.fromkeys(copies, components.unofficial["two_players_building_copies"])
    supply = {
        **{name: landscape.copies for name, landscape in components.landscapes.items()},
        "jester": components.jester.copies,
        "builder": components.builders.copies,
        "recruitment": recruitment,
        **{f"building:{name}": number for name, number in copies.items()},
        **{
            f"freedom:{name}": min(freedom.copies, count - 1) for name, freedom in components.freedoms.items()
        },
    }
    dealt = rule("dealt")
    decks = {
        PROFESSION: len(components.professions) - dealt * count,
        BONUS: len(components.bonus),
        PRESTIGE: len(components.prestige),
    }
    drawing = tuple(draw for seat in seats for draw in cards.draws(PROFESSION, seat, dealt))
    follow_ups = tuple(FollowUp(seat, RETURN) for seat in seats)
    return Game(
        components=components,
        seats=tuple(seats),
        unofficial=unofficial,
        players=players,
        phase=DEAL,
        decks=decks,
        supply=supply,
        first=seats[0],
        nominator=seats[0],
        drawing=drawing,
        follow_ups=follow_ups,
    )
