"""The state of an Il Principe game played by email: frozen dataclasses, replaced, never changed
in place (seed 002; docs/rules/il-principe.md, "By email").

Building cards drawn from the pile are hidden-deck tokens (``building:17``): only their holder
knows them, their number is public. A card becomes public when it is turned face up (in the
reserve, or played in front of its owner); it then leaves the engine's deck and the rules count it
by colour, so a card won at auction sits in a hand as a colour (``known``), not as a token.

``as_table`` gives the companion's view of the state, so the role majorities, the points a city
gives the roles and the final scoring are computed by the same code in both modes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.games.il_principe.components import COLOURS, City, Components, ComponentSet
from pbem.games.il_principe.table import state as companion
from pbem.games.il_principe.table.tracker import rules_for
from pbem.kit.auction import Auction
from pbem.kit.cards import Pending
from pbem.kit.frozen import evolve
from pbem.kit.seats import FollowUp
from pbem.kit.stand_in import OLD_READING, Defaults

DECK = "building"

# Phases of a round
RESERVE = "reserve"  # phase 1: the sealed choice of the cards put in the reserve
SHOW = "show"  # the reserve's cards turned face up, each seat its own
AUCTION = "auction"  # phase 2: the groups of colour auctioned
ACTIONS = "actions"  # phase 3: build a city or play cards
ROLES = "roles"  # phase 4: the roles given, auctioned and carried out
OVER = "over"

# Follow-ups: one seat's choice that play waits for.
BUILD = "build"  # the winner of a group may build one city at once
TURN_UP = "turn-up"  # green role: a face-down card (not green) turned up
SHIELD = "shield"  # blue role: a shield in a region of the holder's choice

# Random events: the cities turned up; the removed cards reused in a short last round.
CITIES = "cities"
REUSE = "reuse"


def counts(colours: Sequence[str] = ()) -> tuple[int, ...]:
    # a list made then frozen: a generator is slower for five items, and this is asked every turn
    return tuple([colours.count(colour) for colour in COLOURS])


def add(by_colour: tuple[int, ...], colour: str, amount: int = 1) -> tuple[int, ...]:
    index = COLOURS.index(colour)
    return (*by_colour[:index], by_colour[index] + amount, *by_colour[index + 1 :])


@dataclass(frozen=True)
class Settings:
    """What the genesis fixes beyond the components: the player count's numbers (« Règles
    spéciales pour 2 joueurs »), the « Variante » and the reading of each disagreement."""

    rules: companion.Rules
    readings: Mapping[str, str]
    rich_start: bool


@dataclass(frozen=True)
class Player:
    seat: str
    ducats: int
    vp: int = 0
    hand: tuple[str, ...] = ()  # tokens only the holder can read
    known: tuple[int, ...] = (0,) * len(COLOURS)  # public cards in hand, by colour (won at auction)
    up: tuple[int, ...] = (0,) * len(COLOURS)  # in front, face up
    down: tuple[int, ...] = (0,) * len(COLOURS)  # in front, face down (half turned by a major role)
    shields: Mapping[str, int] = field(default_factory=dict)
    cities: tuple[str, ...] = ()
    reserved: tuple[str, ...] | None = None  # this round: tokens and colours put in the reserve
    wins: int = 0  # groups won this round (each lets its winner build a city at once)

    @property
    def hand_size(self) -> int:
        return len(self.hand) + sum(self.known)

    @property
    def shields_placed(self) -> int:
        return sum(self.shields.values())


@dataclass(frozen=True)
class Game:
    components: ComponentSet
    parts: Components  # the companion's view of the same components
    settings: Settings
    seats: tuple[str, ...]
    players: tuple[Player, ...]
    phase: str
    principe: str
    deck: int  # cards left in the pile
    round: int = 1
    last_round: bool = False
    drawing: Pending = ()  # draws waited for, oldest first
    shown: Mapping[str, str] = field(default_factory=dict)  # token -> colour, once face up
    reserve: tuple[int, ...] = (0,) * len(COLOURS)  # face-up cards waiting for auction
    dealt_up: tuple[str, ...] = ()  # last round: cards dealt face up from the pile, not yet seen
    removed: tuple[int, ...] = (0,) * len(COLOURS)  # groups nobody bid on, out of play
    auction: Auction[str] | None = None  # a group of cards (a colour) or a tied role ("blue major")
    follow_ups: tuple[FollowUp, ...] = ()  # BUILD, TURN_UP or SHIELD; ``what``: the role whose effect it is
    turn: str = ""  # phase 3: whose action it is
    acted: tuple[str, ...] = ()  # phase 3: who has acted
    face_up: tuple[str, ...] = ()  # the cities that may be built
    pool: tuple[str, ...] = ()  # the city cards not yet turned up
    cities_left: int = 0  # city cards still to be turned up (5 fewer with 2 players)
    built: Mapping[str, str] = field(default_factory=dict)  # city -> builder
    city_draws: int = 0  # cities waiting to be turned up (a random event)
    reuse: int = 0  # removed cards waiting to be drawn again (a random event)
    roles: Mapping[str, str] = field(default_factory=dict)  # "blue major" -> holder
    role_steps: tuple[companion.Step, ...] = ()
    colours_left: tuple[str, ...] = ()
    moves: int = 0  # names each step, so each has its own deadline
    # the seats the rules' defaults play, and the chance their placements read (options retired,
    # default_places)
    defaults: Defaults = OLD_READING

    def player(self, seat: str) -> Player:
        return self.players[self.seats.index(seat)]

    def seated(self, player: Player) -> tuple[Player, ...]:
        """The players with ``player`` in its seat: for a state that changes more than a player,
        made in one copy (``evolve(game, players=game.seated(player), ...)``)."""
        index = self.seats.index(player.seat)
        return (*self.players[:index], player, *self.players[index + 1 :])

    def with_player(self, player: Player) -> Game:
        return evolve(self, players=self.seated(player))

    def reading(self, name: str) -> str:
        return self.settings.readings[name]

    def rule(self, name: str) -> int:
        return self.components.rules[name]


def companion_parts(found: ComponentSet, readings: Mapping[str, str]) -> Components:
    """Every city with the values of the game's components (the reference map included)."""
    cities = {
        name: City(name, card.size, card.vp, card.icons, card.regions) for name, card in found.cities.items()
    }
    return Components(found, cities, tuple(sorted(found.regions)), dict(readings))


def as_table(game: Game) -> companion.Table:
    """The companion's view of ``game``: what the shared role and scoring functions read. Tokens
    count as cards of unknown colour, as the companion counts cards drawn face down."""
    seats = {}
    for player in game.players:
        hand = {**dict(zip(COLOURS, player.known, strict=True)), companion.UNKNOWN: len(player.hand)}
        seats[player.seat] = companion.Seat(
            player.seat,
            player.ducats,
            vp=player.vp,
            hand=hand,
            up=dict(zip(COLOURS, player.up, strict=True)),
            down=dict(zip(COLOURS, player.down, strict=True)),
            shields=dict(player.shields),
            cities=list(player.cities),
        )
    return companion.Table(
        players=game.seats,
        parts=game.parts,
        rules=game.settings.rules,
        seats=seats,
        principe=game.principe,
        deck=game.deck,
        round=game.round,
        roles=dict(game.roles),
        built=dict(game.built),
        aside=game.defaults.aside,
    )


def settings(found: ComponentSet, seats: int, rich_start: bool, chosen: Mapping[str, str]) -> Settings:
    """``chosen``: the readings a game picked; the others are those the components mark as the
    default (``[[reading]] default``)."""
    readings = {name: chosen.get(name, found.readings[name].default) for name in found.readings}
    return Settings(rules_for(found, seats, rich_start), readings, rich_start)


def new_game(found: ComponentSet, seats: Sequence[str], config: Settings) -> Game:
    """« Mise en place »: the pile of building cards (7 of each colour fewer with 2 players), the
    start ducats (« 5 ducats comme capital de départ », 10 with the « Variante »), the first seat
    as Il Principe; the four cities are turned up by a random event every seat contributes to."""
    two = len(seats) == 2
    removed = found.rules["two_players_removed_per_colour"] if two else 0
    deck = sum(colour.cards - removed for colour in found.colours.values())
    players = tuple(Player(seat, config.rules.start_ducats) for seat in seats)
    return Game(
        components=found,
        parts=companion_parts(found, config.readings),
        settings=config,
        seats=tuple(seats),
        players=players,
        phase=RESERVE,
        principe=seats[0],
        deck=deck,
        pool=tuple(found.cities),
        cities_left=config.rules.cities,
    )
