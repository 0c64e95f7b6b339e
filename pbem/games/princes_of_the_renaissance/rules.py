"""The Princes of the Renaissance ruleset as the engine sees it.

Moves (text form):
    bid N               a sealed turn-order bid; a raise in the family bidding; a bid in an auction
    pass                leave the family bidding or an auction; as an action, do nothing this turn;
                        decline an optional compensation card or French Invade placement
    family NAME         take a family: baglioni, bentivoglio, este (d'Este), gonzaga, malatesta,
                        montefeltro
    buy TROOP           buy a Troop tile: infantry, crossbowmen, pikemen, cavalry, artillery
    buy card            buy a Treachery card (also as a nominator's compensation)
    discard TROOP       discard a Troop tile instead of buying
    discard CARD        discard a Treachery card when over the hand limit
    auction TILE N      put a City tile, an Event tile or the Pope (``pope``) up for auction,
                        opening the bidding at N
    place CITY          place a won Artist or French Invade tile: venice, milan, florence, rome,
                        naples
War is the next part of the rules and is not offered yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.crypto.randomness import Draws
from pbem.engine.registry import OptionValue
from pbem.engine.ruleset import Demand, RandomRequest
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance import components as parts
from pbem.games.princes_of_the_renaissance import decade, opening, scoring
from pbem.games.princes_of_the_renaissance.meta import INFO
from pbem.games.princes_of_the_renaissance.state import (
    ACTION,
    AUCTION,
    BID_STEP,
    COMPENSATION,
    DISCARD,
    FAMILY_BIDDING,
    FAMILY_CHOICE,
    FOLLOW_UP,
    GAME_OVER,
    PLACE,
    Game,
)

FAMILY_ALIASES = {"d'este": "este", "deste": "este", "bentivogli": "bentivoglio"}
OPENING_PHASES = (BID_STEP, FAMILY_BIDDING, FAMILY_CHOICE)
NAME = re.compile(r"[a-z0-9][a-z0-9'-]{0,63}")


@dataclass(frozen=True)
class Bid:
    amount: int


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Family:
    name: str


@dataclass(frozen=True)
class Buy:
    item: str  # a troop type, or "card"


@dataclass(frozen=True)
class Discard:
    item: str  # a troop type or a Treachery card


@dataclass(frozen=True)
class Nominate:
    tile: str
    bid: int


@dataclass(frozen=True)
class Place:
    city: str


Move = Bid | Pass | Family | Buy | Discard | Nominate | Place
FORMS = (
    "'bid N', 'pass', 'family NAME', 'buy TROOP', 'buy card', 'discard TROOP', 'discard CARD', "
    "'auction TILE N' or 'place CITY'"
)

VERB_FORMS = {
    "bid": "'bid N' (N a whole number)",
    "pass": "'pass'",
    "family": "'family NAME'",
    "buy": "'buy TROOP' or 'buy card'",
    "discard": "'discard TROOP' or 'discard CARD'",
    "auction": "'auction TILE N' (N the opening bid)",
    "place": "'place CITY'",
}


class Rules:
    info = INFO

    def setup(
        self,
        seats: Sequence[str],
        edition: str,
        options: Mapping[str, OptionValue],
        components: Mapping[str, Any],
    ) -> Game:
        return opening.setup(seats, edition, options, parts.parse(components, edition=edition))

    def phase(self, state: Game) -> str:
        return decade.phase_name(state)

    def demands(self, state: Game) -> list[Demand]:
        if state.phase == BID_STEP:
            return [
                Demand(seat, "sealed", BID_STEP, f"bid 0 to {player.gold} gold")
                for seat, player in state.players.items()
                if player.bid is None
            ]
        if state.phase == FAMILY_BIDDING:
            actor = opening.bidding_actor(state)
            top = opening.highest_bid(state)
            return [Demand(actor, "move", FAMILY_BIDDING, f"raise the bid above {top}, or pass")]
        if state.phase == FAMILY_CHOICE:
            actor = opening.chooser(state)
            names = ", ".join(opening.free_families(state))
            return [Demand(actor, "move", FAMILY_CHOICE, f"choose a family: {names}")]
        if state.phase == ACTION:
            return [Demand(state.active, "move", _step(state), "your turn: buy, auction or pass")]
        if state.phase == AUCTION:
            auction = state.auction
            assert auction is not None
            prompt = (
                f"bid more than {auction.bid} {auction.currency} for "
                f"{decade.tile_name(state, auction.tile)} ({auction.bidder} leads), or pass"
            )
            return [Demand(auction.turn, "move", _step(state), prompt)]
        if state.phase == FOLLOW_UP:
            due = state.follow_ups[0]
            if due.kind == PLACE:
                what = "place CITY" + (
                    ", or pass to discard it" if decade.placement_optional(state, due.tile) else ""
                )
                prompt = f"place {decade.tile_name(state, due.tile)} on a city: {what}"
            elif due.kind == DISCARD:
                limit = decade.hand_limit(state, due.seat)
                prompt = f"discard Treachery cards down to your hand limit of {limit}: discard CARD"
            else:
                prompt = "you lost the City tile you put up: buy card (1 gold + 1 influence), or pass"
            return [Demand(due.seat, "move", _step(state), prompt)]
        return []

    def legal_moves(self, state: Game, seat: str) -> list[str]:
        return [self.format(move) for move in _legal(state, seat)]

    def parse(self, text: str) -> Move:
        words = text.strip().lower().split()
        number = re.compile(r"[0-9]{1,6}")
        if len(words) == 2 and words[0] == "bid" and number.fullmatch(words[1]):
            return Bid(int(words[1]))
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "family":
            name = FAMILY_ALIASES.get(words[1], words[1])
            if name in parts.FAMILIES:
                return Family(name)
            raise MoveSyntaxError(
                f"{text!r}: unknown family {words[1]!r}; families: {', '.join(parts.FAMILIES)}"
            )
        if len(words) == 2 and words[0] == "buy":
            item = "card" if words[1] in ("card", "treachery") else words[1]
            if item == "card" or item in parts.TROOPS:
                return Buy(item)
            raise MoveSyntaxError(f"{text!r}: buy one of {', '.join(parts.TROOPS)}, or 'buy card'")
        if len(words) == 2 and words[0] == "discard":
            if words[1] in parts.TROOPS or words[1] in parts.CARDS:
                return Discard(words[1])
            raise MoveSyntaxError(
                f"{text!r}: discard a Troop tile ({', '.join(parts.TROOPS)}) "
                f"or a Treachery card ({', '.join(parts.CARDS)})"
            )
        if (
            len(words) == 3
            and words[0] == "auction"
            and NAME.fullmatch(words[1])
            and number.fullmatch(words[2])
        ):
            return Nominate(words[1], int(words[2]))
        if len(words) == 2 and words[0] == "place":
            if words[1] in parts.CITIES:
                return Place(words[1])
            raise MoveSyntaxError(f"{text!r}: the cities are {', '.join(parts.CITIES)}")
        verb = words[0] if words else ""
        raise MoveSyntaxError(f"{text!r} is not a move: write {VERB_FORMS.get(verb, FORMS)}")

    def format(self, move: Move) -> str:
        if isinstance(move, Bid):
            return f"bid {move.amount}"
        if isinstance(move, Pass):
            return "pass"
        if isinstance(move, Family):
            return f"family {move.name}"
        if isinstance(move, Buy):
            return f"buy {move.item}"
        if isinstance(move, Discard):
            return f"discard {move.item}"
        if isinstance(move, Nominate):
            return f"auction {move.tile} {move.bid}"
        return f"place {move.city}"

    def check(self, state: Game, seat: str, move: Move) -> None:
        _checker(state, move)(state, seat)

    def apply(self, state: Game, seat: str, move: Move) -> Game:
        if state.phase in OPENING_PHASES:
            if isinstance(move, Bid):
                return opening.apply_bid(state, seat, move.amount)
            if isinstance(move, Pass):
                return opening.apply_pass(state, seat)
            assert isinstance(move, Family)
            return opening.apply_family(state, seat, move.name)
        state = state.copy()
        _applier(state, move)(state, seat)
        return state

    def default_move(self, state: Game, seat: str, step: str) -> Move | None:
        """A missing sealed bid counts as zero; a missing turn in the family bidding, in an
        auction or for an action is a pass; the rules have no pass for the choice of family, so
        a late player gets the first family still free in the rulebook's order. An Artist tile
        (or a 2016 French Invade) must be placed: a late player's goes on the first city in the
        board's order (Venice, Milan, Florence, Rome, Naples); a late player over the hand limit
        discards the card drawn last; an optional compensation card or French Invade is declined."""
        if state.phase == BID_STEP:
            return Bid(0)
        if state.phase in (FAMILY_BIDDING, ACTION, AUCTION):
            return Pass()
        if state.phase == FAMILY_CHOICE:
            return Family(opening.free_families(state)[0])
        if state.phase == FOLLOW_UP:
            due = state.follow_ups[0]
            if due.kind == DISCARD:
                return Discard(state.players[seat].cards[-1])
            if due.kind == PLACE and not decade.placement_optional(state, due.tile):
                return Place(parts.CITIES[0])
            return Pass()
        return None

    def random_requests(self, state: Game) -> list[RandomRequest]:
        return opening.random_requests(state)

    def resolve(self, state: Game, context: str, draws: Draws) -> Game:
        return opening.resolve(state, context, draws)

    def view(self, state: Game, seat: str | None) -> dict[str, Any]:
        from pbem.games.princes_of_the_renaissance.view import view

        return view(state, seat)

    def score(self, state: Game) -> dict[str, dict[str, int]]:
        if state.decade == 0:
            return {seat: {} for seat in state.seats}
        return scoring.breakdown(state)


def _step(state: Game) -> str:
    """The name of the current step: unique in the game, so each has its own deadline."""
    base = f"{state.decade_name} turn {state.turn}"
    if state.phase == AUCTION:
        return f"{base} auction"
    if state.phase == FOLLOW_UP:
        return f"{base} {state.follow_ups[0].kind}"
    return base


Check = Callable[[Game, str], None]


def _checker(state: Game, move: Move) -> Check:
    """The rule that judges ``move`` in the current phase (raising IllegalMoveError when it
    does not belong there)."""
    phase = state.phase
    if phase in OPENING_PHASES:
        if isinstance(move, Bid):
            return lambda game, seat: opening.check_bid(game, seat, move.amount)
        if isinstance(move, Pass):
            return opening.check_pass
        if isinstance(move, Family):
            return lambda game, seat: opening.check_family(game, seat, move.name)
        return _refuse(f"the opening comes first: it is the {phase}; the decades' actions follow it")
    if phase == GAME_OVER:
        return _refuse("the game is over")
    if phase == ACTION:
        return _action_checker(move)
    if phase == AUCTION:
        if isinstance(move, Bid):
            return lambda game, seat: decade.check_raise(game, seat, move.amount)
        if isinstance(move, Pass):
            return decade.check_drop_out
        auction = state.auction
        assert auction is not None
        return _refuse(f"an auction is running: {auction.turn} must bid or pass")
    if phase == FOLLOW_UP:
        return _follow_up_checker(state, move)
    return _refuse(f"the {phase} is waiting for every player's randomness (pbem play FILE --as SEAT roll)")


def _action_checker(move: Move) -> Check:
    if isinstance(move, Pass):
        return decade.check_pass_turn
    if isinstance(move, Buy):
        if move.item == "card":
            return decade.check_buy_card
        return lambda game, seat: decade.check_buy_troop(game, seat, move.item)
    if isinstance(move, Discard) and move.item in parts.TROOPS:
        return lambda game, seat: decade.check_discard_troop(game, seat, move.item)
    if isinstance(move, Nominate):
        return lambda game, seat: decade.check_nominate(game, seat, move.tile, move.bid)
    if isinstance(move, Bid):
        return _refuse("no auction is running: put a tile up with 'auction TILE N'")
    if isinstance(move, Family):
        return _refuse("families were chosen in the opening")
    if isinstance(move, Place):
        return _refuse("there is no Event tile waiting to be placed")
    return _refuse("a Treachery card is discarded only when over the hand limit")


def _follow_up_checker(state: Game, move: Move) -> Check:
    due = state.follow_ups[0]
    if due.kind == PLACE and isinstance(move, Place):
        return lambda game, seat: decade.check_place(game, seat, move.city)
    if due.kind == DISCARD and isinstance(move, Discard) and move.item in parts.CARDS:
        return lambda game, seat: decade.check_discard_card(game, seat, move.item)
    if due.kind == COMPENSATION and move == Buy("card"):
        return decade.check_buy_card
    if isinstance(move, Pass):
        return decade.check_decline
    wanted = {
        PLACE: "place CITY",
        DISCARD: "discard CARD",
        COMPENSATION: "buy card or pass",
    }[due.kind]
    return _refuse(f"{due.seat} must first finish the last action: {wanted}")


def _refuse(message: str) -> Check:
    def refuse(game: Game, seat: str) -> None:
        raise IllegalMoveError(message)

    return refuse


def _applier(state: Game, move: Move) -> Check:
    if isinstance(move, Bid):
        return lambda game, seat: decade.raise_bid(game, seat, move.amount)
    if isinstance(move, Pass):
        if state.phase == AUCTION:
            return decade.drop_out
        if state.phase == FOLLOW_UP:
            return decade.decline
        return decade.pass_turn
    if isinstance(move, Buy):
        if move.item == "card":
            return decade.buy_card
        return lambda game, seat: decade.buy_troop(game, seat, move.item)
    if isinstance(move, Discard):
        if move.item in parts.TROOPS:
            return lambda game, seat: decade.discard_troop(game, seat, move.item)
        return lambda game, seat: decade.discard_card(game, seat, move.item)
    if isinstance(move, Nominate):
        return lambda game, seat: decade.nominate(game, seat, move.tile, move.bid)
    assert isinstance(move, Place)
    return lambda game, seat: decade.place(game, seat, move.city)


def _legal(state: Game, seat: str) -> list[Move]:
    """Every move ``seat`` may make now, built from the rules rather than by trying each text."""
    player = state.players[seat]
    if state.phase == BID_STEP and player.bid is None:
        return [Bid(amount) for amount in range(player.gold + 1)]
    if state.phase == FAMILY_BIDDING and opening.bidding_actor(state) == seat:
        raises: list[Move] = [
            Bid(amount) for amount in range(opening.highest_bid(state) + 1, player.gold + 1)
        ]
        return [*raises, Pass()]
    if state.phase == FAMILY_CHOICE and opening.chooser(state) == seat:
        return [Family(name) for name in opening.free_families(state)]
    if state.phase == ACTION and state.active == seat:
        return _actions(state, seat)
    if state.phase == AUCTION and state.auction is not None and state.auction.turn == seat:
        auction = state.auction
        top = decade.highest_allowed(state, seat, auction.currency, auction.kind)
        return [*(Bid(amount) for amount in range(auction.bid + 1, top + 1)), Pass()]
    if state.phase == FOLLOW_UP and state.follow_ups[0].seat == seat:
        due = state.follow_ups[0]
        if due.kind == DISCARD:
            return [Discard(card) for card in dict.fromkeys(player.cards)]
        if due.kind == PLACE:
            places: list[Move] = [Place(city) for city in parts.CITIES]
            return [*places, Pass()] if decade.placement_optional(state, due.tile) else places
        options: list[Move] = [Buy("card")] if decade.card_refusal(state, seat) is None else []
        return [*options, Pass()]
    return []


def _actions(state: Game, seat: str) -> list[Move]:
    player = state.players[seat]
    moves: list[Move] = []
    for troop in state.components.troops:
        try:
            decade.check_buy_troop(state, seat, troop.id)
        except IllegalMoveError:
            continue
        moves.append(Buy(troop.id))
    if decade.card_refusal(state, seat) is None:
        moves.append(Buy("card"))
    moves.extend(Discard(troop) for troop in player.troops)
    offered = [tile for tile in state.city_supply if decade.city_tile_refusal(state, seat, tile) is None]
    offered += list(state.event_row)
    if state.pope is None:
        offered.append(decade.POPE)
    for tile in offered:
        kind, currency = decade.auction_kind(state, tile)
        top = decade.highest_allowed(state, seat, currency, kind)
        moves.extend(Nominate(tile, bid) for bid in range(decade.opening_minimum(state, tile), top + 1))
    moves.append(Pass())
    return moves


RULES = Rules()
