"""The state of a game of Princes of the Renaissance: plain dataclasses, copied by the rules.

Nothing here is secret: sealed bids reach the state only once revealed, and the Treachery deck is
a hidden deck the engine deals. A hand holds tokens (``treachery:SLOT``), never cards; a card's
name enters the state only when its holder shows it face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pbem.games.princes_of_the_renaissance.components import Components
from pbem.kit.auction import Auction
from pbem.kit.cards import Pending
from pbem.kit.seats import FollowUp
from pbem.kit.stand_in import OLD_READING, Defaults

ROMAN = {1: "I", 2: "II", 3: "III"}
DECADE_NAMES = {number: f"decade {roman}" for number, roman in ROMAN.items()}

# Phases
SETUP_DRAW = "setup draw"
BID_STEP = "turn-order bid"
TIE_BREAK = "turn-order tie-break"
ORDER_DRAW = "turn-order draw"
FAMILY_BIDDING = "family bidding"
FAMILY_CHOICE = "family choice"
ACTION = "action"
AUCTION = "auction"
FOLLOW_UP = "follow-up"
WAR = "war"
GAME_OVER = "game over"

# Follow-ups: what a player must (or may) still do before the turn moves on.
PLACE = "place"  # place an Artist or French Invade tile on a city
DISCARD = "discard"  # discard Treachery cards down to the hand limit
COMPENSATION = "compensation"  # a nominator who lost a City tile auction may buy a card
KEEP = "keep"  # Bentivogli drew two Treachery cards and keeps one
DECLARE = "declare"  # Baglioni (B side) declares the currency of its discount for the decade
END_TURN = "end of turn"  # the active player may still play Start War or a free card
RANK = "rank"  # Bentivogli (A side) decides a tie between cities with as many Artist tiles

# War stages
WINDOW = "veto window"  # holders of Veto or Bad Weather may play them
LEAGUE = "holy league"  # the Pope's holder may join a side
BRIBES = "bribes"  # attacker, defender, then the Pope may play Bribe Troops
DICE = "dice"  # waiting for every player's randomness
REROLL = "reroll"  # the holder of Ludovico Sforza may have the dice rolled again

# The sides of a war, each with its condottiere auction
ATTACKER, DEFENDER = "attacker", "defender"


@dataclass
class Player:
    gold: int
    influence: int
    bid: int | None = None
    withheld: bool = False  # its sealed turn-order bid was kept back: counted as all its gold, last in ties
    passed: bool = False
    family: str | None = None
    city_tiles: list[str] = field(default_factory=list)
    troops: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # tokens of the Treachery cards held
    victories: int = 0
    pay: int = 0  # condottiere gold held on the Family tile until the decade's end
    used: list[str] = field(default_factory=list)  # once-per-decade powers spent this decade
    declared: str = ""  # Baglioni (B side): the currency of this decade's discount

    def copy(self) -> Player:
        # Four players are copied with every move: their dictionary is copied whole (``_made``)
        # rather than set field by field through ``__init__``.
        copied = self.__dict__.copy()
        copied["city_tiles"] = self.city_tiles.copy()
        copied["troops"] = self.troops.copy()
        copied["events"] = self.events.copy()
        copied["cards"] = self.cards.copy()
        copied["used"] = self.used.copy()
        return _made(Player, copied)


@dataclass(frozen=True)
class Lot:
    """What an auction sells: a tile, the Pope, or a side's condottiere in a war."""

    tile: str  # a City tile id, an Event tile id, "pope", or the side (ATTACKER, DEFENDER)
    kind: str  # city, event, pope, or the side
    currency: str
    nominator: str  # who put it up; in a war, who started it


@dataclass
class War:
    number: int  # wars started in the game so far: names the war's random events
    attacker: str  # city
    defender: str  # city
    starter: str
    counted: bool  # False for a war of the Start War card, which does not move the marker
    stage: str
    asked: list[str] = field(default_factory=list)  # who is still to be asked in this stage
    bad_weather: list[str] = field(default_factory=list)  # one city per Bad Weather card
    attacker_condottiere: str = ""
    defender_condottiere: str = ""
    league: str = ""  # the side the Pope joined: attacker or defender
    pope: str = ""  # the Pope's holder, when in the Holy League
    bribed: list[str] = field(default_factory=list)  # "seat/troop" of bribed Troop tiles
    dice: list[int] = field(default_factory=list)  # attack, defence, counter-attack, counter-defence
    rerolled: bool = False

    def copy(self) -> War:
        copied = self.__dict__.copy()
        copied["asked"] = self.asked.copy()
        copied["bad_weather"] = self.bad_weather.copy()
        copied["bribed"] = self.bribed.copy()
        copied["dice"] = self.dice.copy()
        return _made(War, copied)


@dataclass
class Game:
    edition: str
    turn_order: str
    side: str
    components: Components
    seats: tuple[str, ...]
    players: dict[str, Player]
    phase: str
    tie_break: list[str] | None = None
    order: list[str] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    # the decades
    decade: int = 0
    turn: int = 0  # actions taken so far in the game; names each turn's step
    active: str = ""
    status: dict[str, int] = field(default_factory=dict)
    artists: dict[str, int] = field(default_factory=dict)
    city_supply: list[str] = field(default_factory=list)
    event_row: list[str] = field(default_factory=list)
    pope: str | None = None
    deck: int = 0  # Treachery cards left in the deck (the engine holds them, face down)
    discards: list[str] = field(default_factory=list)  # cards played face up, by id
    buried: int = 0  # cards discarded face down
    shown: Mapping[str, str] = field(default_factory=dict)  # token -> card, for every card shown
    showing: str = ""  # the token the move being checked shows (set by the engine's reveal)
    drawing: Pending = ()  # cards waited for, oldest first
    troop_supply: dict[str, int] = field(default_factory=dict)
    wars: int = 0
    auction: Auction[Lot] | None = None
    frozen: tuple[str, ...] = ()  # Freeze Bid: who may not raise again in this auction
    follow_ups: list[FollowUp] = field(default_factory=list)  # ``what``: the tile, cards or cities
    decade_over: bool = False  # the decade's last Event tile is sold; follow-ups still due
    ender: str = ""  # who sold the decade's last Event tile
    war: War | None = None
    wars_started: int = 0
    # Bentivogli's declarations: each a group of tied cities, the one declared the winner first
    ranking: list[list[str]] = field(default_factory=list)
    won_this_turn: list[str] = field(default_factory=list)  # City tiles won in the current turn
    end_offered: bool = False  # the active player was offered the end-of-turn window
    ended: bool = False  # decade III's income is paid: only Bentivogli's declarations may remain
    resume: bool = False  # a discard interrupted the active player's turn before its action
    # the seats the rules' defaults play, and the chance their placements read (options retired,
    # default_places)
    defaults: Defaults = OLD_READING

    def copy(self) -> Game:
        """A copy whose containers can be changed without touching this one (the components,
        the cards shown and the draws waited for are values, shared). Much cheaper than a deep
        copy, which replay makes per move."""
        copied = self.__dict__.copy()
        copied["players"] = {seat: player.copy() for seat, player in self.players.items()}
        copied["tie_break"] = None if self.tie_break is None else self.tie_break.copy()
        copied["order"] = self.order.copy()
        copied["passes"] = self.passes.copy()
        copied["picks"] = self.picks.copy()
        copied["events"] = self.events.copy()
        copied["status"] = self.status.copy()
        copied["artists"] = self.artists.copy()
        copied["city_supply"] = self.city_supply.copy()
        copied["event_row"] = self.event_row.copy()
        copied["discards"] = self.discards.copy()
        copied["troop_supply"] = self.troop_supply.copy()
        copied["follow_ups"] = self.follow_ups.copy()
        copied["war"] = None if self.war is None else self.war.copy()
        copied["ranking"] = [group.copy() for group in self.ranking]
        copied["won_this_turn"] = self.won_this_turn.copy()
        return _made(Game, copied)

    def logged(self, *changed: str, player: str = "") -> Game:
        """A copy sharing every container with this one but the events, those ``changed`` names
        (lists, dictionaries, the war) and the ``player`` named: for a play that changes no other
        container in place (it changes only those, and sets fields anew)."""
        copied = self.__dict__.copy()
        copied["events"] = self.events.copy()
        for name in changed:
            copied[name] = copied[name].copy()
        if player:
            copied["players"] = {**self.players, player: self.players[player].copy()}
        return _made(Game, copied)

    @property
    def decade_name(self) -> str:
        return DECADE_NAMES.get(self.decade) or f"decade {self.decade}"


_Plain = TypeVar("_Plain", Player, War, Game)


def _made(kind: type[_Plain], fields: dict[str, Any]) -> _Plain:
    """The ``kind`` whose fields are ``fields`` (a copy of another's instance dictionary, some
    containers copied): its dataclass ``__init__`` only stores the fields (no ``__post_init__``),
    so this is the value ``dataclasses.replace`` makes, for a fraction of its cost."""
    made = object.__new__(kind)
    made.__dict__ = fields
    return made
