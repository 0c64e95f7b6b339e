"""The Princes of the Renaissance ruleset as the engine sees it: what each phase asks, the moves
it allows (their text forms are in moves.py), and each move checked and played through the
table of moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from pbem.crypto.randomness import Draws
from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import CardUse, DeckSpec, Demand, DrawRequest, RandomRequest
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import components as parts
from pbem.games.princes_of_the_renaissance import (
    decade,
    deck,
    exchange,
    listing,
    opening,
    powers,
    scoring,
    war,
)
from pbem.games.princes_of_the_renaissance.moves import (
    Bank,
    Buy,
    Declare,
    Discard,
    Family,
    Give,
    Keep,
    League,
    Move,
    Nominate,
    Place,
    Play,
    Rank,
    Reroll,
    StartWar,
    Use,
    parse,
)
from pbem.games.princes_of_the_renaissance.state import (
    ACTION,
    ATTACKER,
    AUCTION,
    BID_STEP,
    BRIBES,
    COMPENSATION,
    DECLARE,
    DEFENDER,
    DICE,
    DISCARD,
    END_TURN,
    FAMILY_BIDDING,
    FAMILY_CHOICE,
    FOLLOW_UP,
    GAME_OVER,
    KEEP,
    LEAGUE,
    PLACE,
    RANK,
    REROLL,
    WAR,
    WINDOW,
    Game,
)
from pbem.kit import stand_in
from pbem.kit.cards import DrawRules
from pbem.kit.grammar import Bid, Pass
from pbem.kit.rules import Checks, Components, MoveTable, Options, Plays, TableRules, seat_named

OPENING_PHASES = (BID_STEP, FAMILY_BIDDING, FAMILY_CHOICE)
# Moves a player may make at any time the game is on, asked or not.
FREE = (Give, Bank)
# Cards played on one's own turn whatever the phase asks (powers.on_own_turn judges the turn).
ON_OWN_TURN = (*powers.STEALS, "bribe-cardinal")
# The moves the opening, an auction and a war take (tuples: checked for every move judged).
OPENING_MOVES = (Bid, Pass, Family)
AUCTION_MOVES = (Bid, Pass)
WAR_MOVES = (Pass, League, Reroll)


class Rules(TableRules[Game, Move], DrawRules[Game]):
    info: GameInfo  # its declaration, which gives it (see the package's _rules)
    # A gift is judged in every phase, the opening and the game's end included; the Banker, free
    # for the engine too, only after the opening and before the end (``first``).
    free = (Give,)

    def setup(self, seats: Sequence[str], edition: str, options: Options, components: Components) -> Game:
        return opening.setup(seats, edition, options, parts.parse(components, edition=edition))

    def phase(self, state: Game) -> str:
        return decade.phase_name(state)

    def over(self, state: Game) -> bool:
        """Once the final scoring is reached: after decade III's income, Bentivogli may still
        declare how an Artist tie is broken."""
        return state.phase == GAME_OVER

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
        actor = _actor(state)
        if not actor:
            return []  # nobody moves while a card is being dealt
        return [Demand(actor, "move", _step(state), _prompt(state))]

    def legal(self, state: Game, seat: str) -> list[Move]:
        return listing.moves(_legal(state, seat))

    def legal_moves(self, state: Game, seat: str) -> list[str]:
        return listing.texts(_legal(state, seat))

    def outcomes(self, before: Game, after: Game) -> list[str]:
        from pbem.games.princes_of_the_renaissance.outcomes import outcomes

        return outcomes(before, after)

    def event_words(self, context: str) -> str:
        """What a random event is for, in the players' words (the context names it in the file):
        a war's dice (``war 2 dice``) are the dice of the war."""
        words = context.split()
        if len(words) == 3 and words[0] == "war" and words[2] in ("dice", "reroll"):
            return f"{'dice' if words[2] == 'dice' else 'reroll'} of war {words[1]}"
        return context

    def explain(self, state: Game, move: Move) -> str:
        """What a family does, beside each family a player may choose."""
        if isinstance(move, Family):
            return opening.family_power(state, move.name)
        return ""

    def is_free(self, move: Move) -> bool:
        return isinstance(move, FREE)

    def free_moves(self, state: Game, seat: str) -> list[str]:
        """The gifts ``seat`` may make now, and the Banker's exchanges if it holds one unused."""
        if seat not in state.players or state.phase == GAME_OVER or state.ended:
            return []
        found: list[Move] = [
            Give(amount, currency, other)
            for currency in exchange.CURRENCIES
            for other in state.seats
            if other != seat
            for amount in range(1, exchange.spare(state, seat, currency) + 1)
        ]
        found += [
            Bank(amount, currency)
            for currency in parts.CURRENCIES
            for amount in range(1, 4)
            if self.allowed(state, seat, Bank(amount, currency))
        ]
        return [self.format(move) for move in found]

    def parse(self, text: str) -> Move:
        return parse(text)

    def format(self, move: Move) -> str:
        return move.said()

    def first(self, state: Game, seat: str, move: Move) -> None:
        """What the phase refuses before a move's own rule judges it, in this order: the
        opening takes only its own moves; the Banker is used at any time after it ("в любое
        время"); nothing else is played while a card is dealt or the war's dice wait; the stealing
        cards, Bribe Cardinal and a tile's power are judged by their own rules (on one's own
        turn, in any phase); an action may be any move (each refused by its own rule); and an
        auction, a war or a follow-up takes only the moves it asks for."""
        phase = state.phase
        if phase in OPENING_PHASES:
            if not isinstance(move, OPENING_MOVES):
                raise IllegalMoveError(
                    f"the opening comes first: it is the {phase}; the decades' actions follow it"
                )
            return
        if isinstance(move, Bank):
            return
        if state.drawing:
            raise IllegalMoveError("a Treachery card is being dealt: the deck waits for every seat's shuffle")
        if phase == WAR and state.war is not None and state.war.stage == DICE:
            raise IllegalMoveError(
                "the war waits for every player's randomness (pbem play FILE --as SEAT roll)"
            )
        if isinstance(move, Use) or (isinstance(move, Play) and move.card in ON_OWN_TURN) or phase == ACTION:
            return
        refusal = _OUT_OF_PLACE.get(phase, _waiting)(state, move)
        if refusal:
            raise IllegalMoveError(refusal)

    def default_move(self, state: Game, seat: str, step: str) -> Move | None:
        """A missing sealed bid counts as zero; a missing turn in the family bidding, in an
        auction, in a war's windows or for an action is a pass; the rules have no pass for the
        choice of family, so a late player gets the first family still free in the rulebook's
        order. An Artist tile (or a 2016 French Invade) must be placed: a late player's goes on a
        city the game's shared randomness picks (option default_places=chance), or in games made
        before it on the first city in the board's order (Venice, Milan, Florence, Rome, Naples),
        which always moved the same city; a late
        player over the hand limit discards the card drawn last; Bentivogli keeps the first card
        drawn; Baglioni's B side takes its discount in gold; an optional compensation card or
        French Invade, and Bentivogli's declaration of a tie's winner, are declined."""
        if state.phase == BID_STEP:
            return Bid(0)
        if state.phase in (FAMILY_BIDDING, ACTION, AUCTION, WAR):
            return Pass()
        if state.phase == FAMILY_CHOICE:
            return Family(opening.free_families(state)[0])
        if state.phase == FOLLOW_UP:
            due = state.follow_ups[0]
            if due.kind == DISCARD:
                return Discard(state.players[seat].cards[-1])  # a token: the card drawn last
            if due.kind == PLACE and not decade.placement_optional(state, due.what):
                return Place(state.defaults.place(parts.CITIES, "place", seat, due.what, step))
            if due.kind == KEEP:
                return Keep(due.what.split()[0])  # the first card drawn
            if due.kind == DECLARE:
                return Declare("gold")
            return Pass()
        return None

    def withhold(self, state: Game, seat: str, step: str) -> Game:
        """A sealed turn-order bid whose reveal ``seat`` let pass (option withheld=worst): see
        ``opening.withhold``. The bid is the only sealed step."""
        if step != BID_STEP or state.phase != BID_STEP:
            raise IllegalMoveError(f"nothing sealed in the {step} can be kept back")
        return opening.withhold(state, seat)

    def played_by_defaults(self, state: Game, seats: tuple[str, ...], chance: bytes) -> Game:
        return stand_in.told(state, seats, chance)

    def random_requests(self, state: Game) -> list[RandomRequest]:
        return opening.random_requests(state) + war.random_requests(state)

    def resolve(self, state: Game, context: str, draws: Draws) -> Game:
        if context.startswith("war "):
            state = state.copy()
            war.roll(state, draws)
            return state
        return opening.resolve(state, context, draws)

    def view(self, state: Game, seat: str | None) -> dict[str, Any]:
        from pbem.games.princes_of_the_renaissance.view import view

        return view(state, seat)

    def score(self, state: Game) -> dict[str, dict[str, int]]:
        if state.decade == 0:
            return {seat: {} for seat in state.seats}
        return scoring.breakdown(state)

    # --- the hidden Treachery deck ---
    def hidden_decks(self, state: Game) -> list[DeckSpec]:
        return [deck.spec(state)]

    def card_drawn(self, state: Game, request: DrawRequest, token: str) -> Game:
        return deck.drawn(state, request, token)

    def card_uses(self, state: Game, seat: str, move: Move) -> list[CardUse]:
        """A card played is shown face up, as the engine checks; a discard over the hand limit is
        face down; Bentivogli's card not kept goes under the deck."""
        if state.phase in OPENING_PHASES or seat not in state.players:
            return []
        if isinstance(move, Play):
            return [deck.reveal(move.card)]
        if isinstance(move, Discard) and deck.TOKEN.fullmatch(move.item):
            return deck.discard_use(state, move.item) if move.item in state.players[seat].cards else []
        if isinstance(move, Keep):
            other = powers.kept_other(state, seat, move.card)
            return [deck.bottom_use(other)] if other else []
        return []

    def card_revealed(self, state: Game, token: str, card: str) -> Game:
        return deck.revealed(state, token, card)


# --- who acts, and what they are asked --------------------------------------------------------------------


def _actor(state: Game) -> str:
    if state.drawing:
        return ""  # a card is being dealt: the deck waits for every seat's shuffle
    if state.phase == ACTION:
        return state.active
    if state.phase == AUCTION and state.auction is not None:
        return state.auction.turn
    if state.phase == FOLLOW_UP and state.follow_ups:
        return state.follow_ups[0].seat
    if state.phase == WAR and state.war is not None and state.war.asked:
        return state.war.asked[0]
    return ""


def _prompt(state: Game) -> str:
    if state.phase == ACTION:
        wars = "" if state.wars >= war.limit(state) else ", war"
        return f"your turn: buy, auction{wars} or pass"
    if state.phase == AUCTION:
        auction = state.auction
        assert auction is not None
        lot = auction.lot
        if lot.kind in (ATTACKER, DEFENDER):
            lead = f"{auction.leader} leads at {auction.price}" if auction.leader else "no bid yet"
            return f"bid influence to be the {lot.kind}'s condottiere ({lead}), or pass"
        return (
            f"bid more than {auction.price} {lot.currency} for "
            f"{decade.tile_name(state, lot.tile)} ({auction.leader} leads), or pass"
        )
    if state.phase == WAR:
        stage = state.war.stage if state.war else ""
        return {
            WINDOW: "play veto, play bad-weather CITY, or pass",
            LEAGUE: "the Pope may join a side: league attacker, league defender, or pass",
            BRIBES: "play bribe-troops SEAT TROOP, or pass",
            REROLL: "Ludovico Sforza: reroll, or pass",
        }.get(stage, stage)
    due = state.follow_ups[0]
    if due.kind == PLACE:
        what = "place CITY" + (
            ", or pass to discard it" if decade.placement_optional(state, due.what) else ""
        )
        return f"place {decade.tile_name(state, due.what)} on a city: {what}"
    if due.kind == DISCARD:
        limit = decade.hand_limit(state, due.seat)
        return (
            f"discard Treachery cards, face down, down to your hand limit of {limit}: discard TOKEN "
            f"({', '.join(state.players[due.seat].cards)})"
        )
    if due.kind == KEEP:
        return (
            f"Bentivogli: keep one of the two cards drawn ({' or '.join(due.what.split())}); the other "
            "goes under the deck: keep TOKEN"
        )
    if due.kind == DECLARE:
        return "Baglioni: declare gold or declare influence for this decade's discount"
    if due.kind == END_TURN:
        return "the end of your turn: play start-war CITY CITY, use TILE, or pass"
    if due.kind == RANK:
        tied = due.what.split()
        return (
            f"Bentivogli: {', '.join(tied)} are tied on status and Artist tiles; name the one that "
            f"wins the tie (rank {tied[0]}), or pass to let them all take the lowest place they contest"
        )
    return "you lost the City tile you put up: buy card (1 gold + 1 influence), or pass"


def _step(state: Game) -> str:
    """The name of the current step: unique in the game, so each has its own deadline."""
    base = f"{state.decade_name} turn {state.turn}"
    if state.phase == AUCTION:
        kind = state.auction.lot.kind if state.auction else ""
        return f"{base} {kind} auction" if kind in (ATTACKER, DEFENDER) else f"{base} auction"
    if state.phase == FOLLOW_UP:
        return f"{base} {state.follow_ups[0].kind}"
    if state.phase == WAR and state.war is not None:
        return f"{base} war {state.war.number} {state.war.stage}"
    return base


# --- checking and applying ---------------------------------------------------------------------------
# ``Rules.first`` refuses a move out of its place; the table below then judges it by its own rule,
# which for a move several phases take is the rule of the phase it is made in.


def _in_auction(state: Game, move: Move) -> str | None:
    if isinstance(move, AUCTION_MOVES) or (isinstance(move, Play) and move.card == "freeze-bid"):
        return None
    auction = state.auction
    assert auction is not None
    if isinstance(move, Play):
        return f"{move.card} cannot be played in an auction: {_card_timing(move.card)}"
    return f"an auction is running: {auction.turn} must bid or pass"


def _in_war(state: Game, move: Move) -> str | None:
    if isinstance(move, WAR_MOVES):
        return None
    if isinstance(move, Play) and move.card in ("veto", "bad-weather", "bribe-troops"):
        return None
    return f"a war is being fought: {move.said()!r} cannot be played in it now"


def _in_follow_up(state: Game, move: Move) -> str | None:
    due = state.follow_ups[0]
    if _answers(due.kind, move):
        return None
    wanted = {
        PLACE: "place CITY",
        DISCARD: "discard TOKEN",
        COMPENSATION: "buy card or pass",
        KEEP: "keep TOKEN",
        DECLARE: "declare gold or declare influence",
        END_TURN: "play start-war CITY CITY, use TILE, or pass",
        RANK: "rank CITY or pass",
    }[due.kind]
    return f"{due.seat} must first finish the last action: {wanted}"


def _answers(kind: str, move: Move) -> bool:
    """Whether ``move`` answers a follow-up of ``kind``: a pass declines any but a choice of card
    or of discount."""
    if isinstance(move, Pass):
        return kind not in (KEEP, DECLARE)
    if isinstance(move, Discard):
        return kind == DISCARD and bool(deck.TOKEN.fullmatch(move.item))
    if isinstance(move, Play):
        return kind == END_TURN and move.card == "start-war"
    if isinstance(move, Buy):
        return kind == COMPENSATION and move.item == "card"
    wanted: dict[str, type[Move]] = {PLACE: Place, KEEP: Keep, DECLARE: Declare, RANK: Rank}
    return kind in wanted and isinstance(move, wanted[kind])


def _waiting(state: Game, move: Move) -> str | None:
    return f"the {state.phase} is waiting for every player's randomness (pbem play FILE --as SEAT roll)"


_OUT_OF_PLACE: dict[str, Callable[[Game, Move], str | None]] = {
    AUCTION: _in_auction,
    WAR: _in_war,
    FOLLOW_UP: _in_follow_up,
}


def _in(phases: Sequence[str], rule: Checks, otherwise: Checks) -> Checks:
    """The check of a move judged by ``rule`` in ``phases``, and by ``otherwise`` elsewhere."""

    def check(game: Game, seat: str, *fields: Any) -> None:
        (rule if game.phase in phases else otherwise)(game, seat, *fields)

    return check


def _on_copy(play: Callable[..., None]) -> Plays[Game]:
    """A play of the decades: it changes a copy of the state, and the card the move showed is
    shown no longer."""

    def played(game: Game, seat: str, *fields: Any) -> Game:
        game = game.copy()
        play(game, seat, *fields)
        game.showing = ""
        return game

    return played


def _changing(play: Callable[..., None], *changed: str) -> Plays[Game]:
    """A play of the decades that changes in place only the moving seat's player, the events and
    the containers ``changed`` names, and sets fields anew: it is played on a copy sharing the
    others (Game.logged). That holds while the decade is not over: carrying on then ends it, and
    its end pays every seat, so the play is made on a whole copy (``_on_copy``)."""
    whole = _on_copy(play)

    def played(game: Game, seat: str, *fields: Any) -> Game:
        if game.decade_over:
            return whole(game, seat, *fields)
        game = game.logged(*changed, player=seat)
        play(game, seat, *fields)
        game.showing = ""
        return game

    return played


def _until_sold(game: Game, step: Callable[..., bool], seat: str, *fields: Any) -> Game:
    """A play by ``step`` that opens an auction, or bids or passes in it, and tells whether the
    auction is over (decade.put_up, raise_bid, drop_out). Most moves of a game are such, and until
    the auction is over they change only the auction and the events (``step`` and
    decade.next_bidder rebind ``auction`` and add to ``events``, nothing else): the game is copied
    sharing its other containers (Game.logged), and copied further only for its phase to settle
    the auction that is over (``_for_settling``), as _on_copy of the whole play would."""
    game = game.logged()
    if step(game, seat, *fields):
        game = _for_settling(game)
        _settle_if_over(game, True)
    game.showing = ""
    return game


def _for_settling(game: Game) -> Game:
    """A copy of ``game`` its auction that is over can be settled on. A tile's or the Pope's
    (decade.settle) changes in place only its winner's player, the supply of City tiles, the Event
    tiles left, the tiles won this turn, the follow-ups, the discards (a Bribe Cardinal paying) and
    the events, unless it ends the decade (its last Event tile sold, or the decade over already:
    its end pays every seat); a condottiere's moves the war on. Those are copied whole."""
    auction = game.auction
    if auction is None or auction.lot.kind in (ATTACKER, DEFENDER) or game.decade_over:
        return game.copy()
    if auction.lot.kind not in ("city", decade.POPE) and len(game.event_row) <= 1:  # an Event tile
        return game.copy()
    changed = ("city_supply", "event_row", "won_this_turn", "follow_ups", "discards")
    return game.logged(*changed, player=auction.winner)


def _declined(game: Game, seat: str) -> Game:
    """A pass in a war (war.decline). Until the war's stage is over it changes only the war and
    the events (war.declined): the game is copied sharing its other containers, and copied whole
    only for the war to move on (war.move_on)."""
    game = game.logged("war")
    if war.declined(game, seat):
        game = game.copy()
        war.move_on(game)
    game.showing = ""
    return game


def _turn_ended(game: Game) -> Game:
    """A pass that closes the end-of-turn window while the decade goes on: carrying on only moves
    the turn, changing the follow-ups and setting fields anew (decade.carry_on), so the game is
    copied sharing its other containers."""
    game = game.logged("follow_ups")
    game.follow_ups.pop(0)
    decade.carry_on(game)
    game.showing = ""
    return game


def _play_pass(game: Game, seat: str) -> Game:
    """A pass, played on the copy its phase needs: one changing only what a pass in an auction
    (``_until_sold``), in a war (``_declined``) or closing the end-of-turn window (``_turn_ended``,
    unless the decade is over) changes, as these are most of a game's moves; the opening's own
    copy; a whole copy otherwise."""
    phase = game.phase
    if phase == AUCTION:
        return _until_sold(game, decade.drop_out, seat)
    if phase == WAR and game.war is not None:
        return _declined(game, seat)
    if phase == FOLLOW_UP and game.follow_ups[0].kind == END_TURN and not game.decade_over:
        return _turn_ended(game)
    if phase in OPENING_PHASES:
        return opening.apply_pass(game, seat)
    return _PASS_ON_COPY(game, seat)


def _play_bid(game: Game, seat: str, amount: int) -> Game:
    """A bid: in an auction on the copy ``_until_sold`` makes, in the opening on its own copy."""
    if game.phase == AUCTION:
        return _until_sold(game, decade.raise_bid, seat, amount)
    if game.phase in OPENING_PHASES:
        return opening.apply_bid(game, seat, amount)
    return _RAISE_ON_COPY(game, seat, amount)


def _nominate(game: Game, seat: str, tile: str, bid: int) -> Game:
    """A tile put up for auction, on the copy ``_until_sold`` makes."""
    return _until_sold(game, decade.put_up, seat, tile, bid)


def _check_bid(game: Game, seat: str, amount: int) -> None:
    if game.phase in OPENING_PHASES:
        opening.check_bid(game, seat, amount)
    elif game.phase == AUCTION:
        decade.check_raise(game, seat, amount)
    else:
        raise IllegalMoveError("no auction is running: put a tile up with 'auction TILE N'")


def _check_pass(game: Game, seat: str) -> None:
    phase = game.phase
    if phase in OPENING_PHASES:
        opening.check_pass(game, seat)
    elif phase == AUCTION:
        decade.check_drop_out(game, seat)
    elif phase == WAR:
        war.check_pass(game, seat)
    elif phase == FOLLOW_UP and game.follow_ups[0].kind == END_TURN:
        decade.check_end_turn(game, seat)
    elif phase == FOLLOW_UP:
        decade.check_decline(game, seat)
    else:
        decade.check_pass_turn(game, seat)


def _check_buy(game: Game, seat: str, item: str) -> None:
    if item == "card":
        decade.check_buy_card(game, seat)
    else:
        decade.check_buy_troop(game, seat, item)


def _buy(game: Game, seat: str, item: str) -> None:
    if item == "card":
        decade.buy_card(game, seat)
    else:
        decade.buy_troop(game, seat, item)


def _check_discard(game: Game, seat: str, item: str) -> None:
    if game.phase == FOLLOW_UP:
        decade.check_discard_card(game, seat, item)
    elif item not in parts.TROOPS:
        raise IllegalMoveError("a Treachery card is discarded only when over the hand limit")
    else:
        decade.check_discard_troop(game, seat, item)


def _discard(game: Game, seat: str, item: str) -> None:
    if item in parts.TROOPS:
        decade.discard_troop(game, seat, item)
    else:
        decade.discard_card(game, seat, item)


def _pass(game: Game, seat: str) -> None:
    if game.phase == AUCTION:
        _settle_if_over(game, decade.drop_out(game, seat))
    elif game.phase == WAR:
        war.decline(game, seat)
    elif game.phase == FOLLOW_UP and game.follow_ups[0].kind == END_TURN:
        game.follow_ups.pop(0)
        decade.carry_on(game)
    elif game.phase == FOLLOW_UP:
        decade.decline(game, seat)
    else:
        decade.pass_turn(game, seat)


def _check_play(game: Game, seat: str, card: str, args: tuple[str, ...]) -> None:
    if card in powers.STEALS:
        powers.check_steal(game, seat, card, seat_named(game, args[0]))
    elif card == "bribe-cardinal":
        powers.check_cardinal(game, seat)
    elif game.phase == AUCTION:  # Freeze Bid, the one card an auction takes
        powers.check_freeze(game, seat, seat_named(game, args[0]))
    elif game.phase == WAR and card == "bribe-troops":
        war.check_bribe(game, seat, seat_named(game, args[0]), args[1])
    elif game.phase == WAR:  # Veto or Bad Weather
        war.check_window(game, seat, card, args[0] if args else "")
    elif game.phase == FOLLOW_UP:  # Start War, at the end of one's turn
        _check_start_war_card(game, seat, args)
    else:
        raise IllegalMoveError(f"{card} cannot be played now: {_card_timing(card)}")


def _play(game: Game, seat: str, card: str, args: tuple[str, ...]) -> None:
    if card in powers.STEALS:
        powers.steal(game, seat, card, seat_named(game, args[0]))
    elif card == "freeze-bid":
        powers.freeze(game, seat, seat_named(game, args[0]))
    elif card == "bribe-cardinal":
        powers.show_cardinal(game, seat)
    elif card == "veto":
        war.veto(game, seat)
    elif card == "bad-weather":
        war.bad_weather(game, seat, args[0])
    elif card == "bribe-troops":
        war.bribe(game, seat, seat_named(game, args[0]), args[1])
    else:
        war.start_war_card(game, seat, args[0], args[1])


def _check_start_war_card(game: Game, seat: str, cities: tuple[str, ...]) -> None:
    decade.check_end_turn(game, seat)
    if not deck.showing(game, seat, "start-war"):
        raise IllegalMoveError(f"{seat} holds no Start War")
    war.check_cities(game, cities[0], cities[1])


def _check_use(game: Game, seat: str, source: str, target: str) -> None:
    powers.check_use(game, seat, source, _seat_or_blank(game, target))


def _use(game: Game, seat: str, source: str, target: str) -> None:
    powers.use(game, seat, source, _seat_or_blank(game, target))


def _check_give(game: Game, seat: str, amount: int, currency: str, to: str) -> None:
    exchange.check_give(game, seat, amount, currency, seat_named(game, to))


def _give(game: Game, seat: str, amount: int, currency: str, to: str) -> Game:
    game = game.copy()
    exchange.give(game, seat, amount, currency, seat_named(game, to))
    return game


_NOT_NOW = {
    League: "the Pope's Holy League comes in a war, after the condottiere auctions",
    Reroll: "Ludovico Sforza's reroll comes in a war, once the dice are rolled",
    Keep: "Bentivogli keeps a card when buying one",
    Declare: "Baglioni declares its discount at the start of a decade",
    Rank: "Bentivogli names the winner of a tie between cities at the end of the game",
}


def _not_an_action(kind: type[Move]) -> Checks:
    """The refusal of a move that is not an action, made on one's turn: it says when it comes."""
    timing = _NOT_NOW.get(kind, "it is not an action: buy, auction, war or pass")

    def refuse(game: Game, seat: str, *fields: Any) -> None:
        raise IllegalMoveError(f"'{kind(*fields).said()}' cannot be made now: {timing}")

    return refuse


def _card_timing(card: str) -> str:
    return {
        "veto": "when a war is declared, before the condottiere auctions",
        "bad-weather": "when a war is declared, before the condottiere auctions",
        "freeze-bid": "on one's turn to bid in an auction",
        "start-war": "at the end of one's own turn",
        "bribe-troops": "in a war, after the condottieri are known and before the dice",
        "bribe-cardinal": "in a Pope auction on one's turn to bid, or on one's turn to put the Pope up",
    }.get(card, "on one's own turn")


def _refuse(message: str) -> Checks:
    def refuse(game: Game, seat: str, *fields: Any) -> None:
        raise IllegalMoveError(message)

    return refuse


def _seat_or_blank(game: Game, name: str) -> str:
    return seat_named(game, name) if name else ""


def _settle_if_over(game: Game, over: bool) -> None:
    """An auction that is over is settled by its phase: a condottiere's by the war."""
    auction = game.auction
    if not over or auction is None:
        return
    if auction.lot.kind in (ATTACKER, DEFENDER):
        war.condottiere_won(game)
    else:
        decade.settle(game)


def _raise(game: Game, seat: str, amount: int) -> None:
    _settle_if_over(game, decade.raise_bid(game, seat, amount))


# The passes and bids played on a whole copy: outside an auction, a war and the end of a turn.
_PASS_ON_COPY = _on_copy(_pass)
_RAISE_ON_COPY = _on_copy(_raise)

# Each move's check, once ``Rules.first`` has let it through in the phase it is made in, and its
# play. A move several phases take is judged by the rule of its phase; a move that is no action,
# made on one's turn, is refused saying when it comes.
MOVES = MoveTable[Game, Game](
    {
        Bid: (_check_bid, _play_bid),
        Pass: (_check_pass, _play_pass),
        Family: (
            _in(OPENING_PHASES, opening.check_family, _refuse("families were chosen in the opening")),
            opening.apply_family,
        ),
        # decade.buy_troop and buy_card, the troops' supply, the card's draw and the follow-ups
        Buy: (_check_buy, _changing(_buy, "troop_supply", "follow_ups")),
        # decade.discard_troop and discard_card: the troops' supply, the discards, the follow-ups
        Discard: (_check_discard, _changing(_discard, "troop_supply", "discards", "follow_ups")),
        Nominate: (decade.check_nominate, _nominate),
        StartWar: (war.check_war, _on_copy(war.start_war)),
        Place: (
            _in((FOLLOW_UP,), decade.check_place, _refuse("there is no Event tile waiting to be placed")),
            _changing(decade.place, "status", "artists", "follow_ups"),
        ),
        Play: (_check_play, _on_copy(_play)),
        Use: (_check_use, _on_copy(_use)),
        Bank: (powers.check_bank, _on_copy(powers.bank)),
        League: (_in((WAR,), war.check_league, _not_an_action(League)), _on_copy(war.league)),
        Reroll: (_in((WAR,), war.check_reroll, _not_an_action(Reroll)), _on_copy(war.reroll)),
        Declare: (_in((FOLLOW_UP,), powers.check_declare, _not_an_action(Declare)), _on_copy(powers.declare)),
        Keep: (_in((FOLLOW_UP,), powers.check_keep, _not_an_action(Keep)), _on_copy(powers.keep)),
        Rank: (_in((FOLLOW_UP,), powers.check_rank, _not_an_action(Rank)), _on_copy(powers.rank)),
        Give: (_check_give, _give),
    }
)


# --- legal moves --------------------------------------------------------------------------------------
# Listed as runs (listing.py): the same runs come back move after move, each built once with its text.

PASSING = listing.one(Pass)
CARDINAL = listing.one(Play, "bribe-cardinal")
VETO = listing.one(Play, "veto")
REROLLING = listing.one(Reroll)
LEAGUES = listing.run([League(ATTACKER), League(DEFENDER)])
DECLARING = listing.run([Declare("gold"), Declare("influence")])
PLACES = listing.run(Place(city) for city in parts.CITIES)
WARS = listing.run(StartWar(a, d) for a in parts.CITIES for d in parts.CITIES if a != d)
WAR_CARDS = listing.run(Play("start-war", (a, d)) for a in parts.CITIES for d in parts.CITIES if a != d)


def _legal(state: Game, seat: str) -> list[listing.Run]:
    """Every move ``seat`` may make now, built from the rules rather than by trying each text."""
    player = state.players[seat]
    if state.phase == BID_STEP and player.bid is None:
        return [listing.bids(0, player.gold)]
    if state.phase == FAMILY_BIDDING and opening.bidding_actor(state) == seat:
        return [listing.bids(opening.highest_bid(state) + 1, player.gold), PASSING]
    if state.phase == FAMILY_CHOICE and opening.chooser(state) == seat:
        return [listing.one(Family, name) for name in opening.free_families(state)]
    if _actor(state) != seat:
        return []
    extras = _extras(state, seat)
    if state.phase == ACTION:
        offer = state.pope is None and deck.face_down(state, seat)
        cardinal = [CARDINAL] if offer else []
        return extras + cardinal + _actions(state, seat)
    if state.phase == AUCTION and state.auction is not None:
        auction = state.auction
        refusal, top = decade.bid_room(state, seat)
        bids: list[listing.Run] = []
        if refusal is None or "cannot outbid" in refusal:  # asked only for Freeze Bid or the Banker
            bids = [listing.bids(auction.price + 1, top)]
        # Every card a player may hold is offered to any player holding one face down: the rules
        # cannot know which it holds, and the engine refuses a card the player cannot show.
        cards: list[listing.Run] = []
        if deck.face_down(state, seat):
            others = [
                s for s in state.order if s != seat and s not in auction.passed and s not in state.frozen
            ]
            cards = [listing.one(Play, "freeze-bid", (other.lower(),)) for other in others]
            if auction.lot.kind == decade.POPE and seat not in state.frozen:
                cards.append(CARDINAL)
        return extras + bids + cards + [PASSING]
    if state.phase == WAR and state.war is not None:
        return extras + _war_moves(state, seat)
    if state.phase == FOLLOW_UP:
        return extras + _follow_up_moves(state, seat)
    return []


def _extras(state: Game, seat: str) -> list[listing.Run]:
    """Moves that do not end what the seat is asked to do: the Banker, and on one's own turn the
    stealing cards, Lucrezia Borgia and the free cards."""
    moves: list[listing.Run] = []
    unused = decade.unused_powers(state, seat)
    if unused.get("banker") and not state.decade_over and not state.ended:
        player = state.players[seat]
        for currency, have in (("gold", player.gold), ("influence", player.influence)):
            moves.extend(listing.one(Bank, amount, currency) for amount in range(1, min(3, have) + 1))
    if not powers.on_own_turn(state, seat):
        return moves
    others = [other.lower() for other in state.order if other != seat]
    if deck.face_down(state, seat):
        moves.append(_steals(tuple(others)))
    for tile in unused.get("lucrezia-borgia", ()):
        moves.extend(listing.one(Use, tile, other) for other in others)
    if deck.size(state):
        for tile in unused.get("free-card", ()):
            moves.append(listing.one(Use, tile))
        if decade.ability(state, seat) == "malatesta-a" and powers.MALATESTA not in state.players[seat].used:
            moves.append(listing.one(Use, powers.MALATESTA))
    return moves


@lru_cache(maxsize=1 << 8)
def _steals(others: tuple[str, ...]) -> listing.Run:
    """Each stealing card played on each of ``others``."""
    return listing.run(Play(card, (other,)) for card in powers.STEALS for other in others)


def _actions(state: Game, seat: str) -> list[listing.Run]:
    player = state.players[seat]
    moves: list[listing.Run] = [
        listing.one(Buy, troop.id)
        for troop in state.components.troops
        if decade.troop_refusal(state, seat, troop.id) is None  # the turn is seat's: _legal asked
    ]
    if decade.card_refusal(state, seat) is None:
        moves.append(listing.one(Buy, "card"))
    moves.extend(listing.one(Discard, troop) for troop in player.troops)
    offered = decade.open_city_tiles(state, seat, state.city_supply)
    offered += state.event_row
    if state.pope is None:
        offered.append(decade.POPE)
    moves += _nominations(state, seat, offered)
    if state.wars < war.limit(state):
        moves.append(WARS)
    moves.append(PASSING)
    return moves


def _nominations(state: Game, seat: str, tiles: list[str]) -> list[listing.Run]:
    """Each of ``tiles`` put up at every opening bid from the lowest it takes
    (``decade.opening_minimum``) to the most ``seat`` may bid for it (``decade.highest_allowed``):
    every action lists them for every tile on offer, so each lot's kind is read here at once and
    what the seat may bid is found once per kind and currency."""
    parts = state.components
    events, city_of, status = parts.event_ids, parts.city_of, state.status
    factor = parts.rule("city_bid_factor")
    ladder_of = listing.nominations
    city_top: int | None = None  # every City tile is bid for in gold
    tops: dict[tuple[str, str], int] = {}
    found: list[listing.Run] = []
    for tile in tiles:
        if tile != decade.POPE and tile not in events:
            if city_top is None:
                city_top = decade.highest_allowed(state, seat, "gold", "city")
            top = city_top
            low = factor * status[city_of.get(tile) or parts.city_tile(tile).city]
        else:
            if tile == decade.POPE:
                kind, currency = decade.POPE, parts.pope.currency
            else:
                kind, currency = "event", parts.event(tile).currency
            known = tops.get((kind, currency))
            top = tops[kind, currency] = (
                decade.highest_allowed(state, seat, currency, kind) if known is None else known
            )
            low = 0
        ladder = ladder_of(tile)
        if low >= 0 and top < len(ladder.moves):  # the part made already, read without a call
            found.append((ladder.moves, ladder.texts, low, top + 1))
        else:
            found.append(ladder.part(low, top))
    return found


def _war_moves(state: Game, seat: str) -> list[listing.Run]:
    current = state.war
    assert current is not None
    moves: list[listing.Run] = []
    if current.stage == WINDOW:
        if deck.face_down(state, seat):
            moves.append(VETO)
            moves.extend(
                listing.one(Play, "bad-weather", (city,)) for city in (current.attacker, current.defender)
            )
    elif current.stage == LEAGUE:
        moves.append(LEAGUES)
    elif current.stage == BRIBES and deck.face_down(state, seat):
        for target in war.targets(state):
            owner, troop = target.split("/")
            moves.append(listing.one(Play, "bribe-troops", (owner.lower(), troop)))
    elif current.stage == REROLL:
        moves.append(REROLLING)
    return [*moves, PASSING]


def _follow_up_moves(state: Game, seat: str) -> list[listing.Run]:
    due = state.follow_ups[0]
    player = state.players[seat]
    if due.kind == DISCARD:
        return [listing.one(Discard, token) for token in player.cards]
    if due.kind == PLACE:
        return [PLACES, PASSING] if decade.placement_optional(state, due.what) else [PLACES]
    if due.kind == KEEP:
        return [listing.one(Keep, token) for token in due.what.split()]
    if due.kind == DECLARE:
        return [DECLARING]
    if due.kind == RANK:
        return [*(listing.one(Rank, city) for city in due.what.split()), PASSING]
    if due.kind == END_TURN:
        return [WAR_CARDS, PASSING] if deck.face_down(state, seat) else [PASSING]
    return [listing.one(Buy, "card"), PASSING] if decade.card_refusal(state, seat) is None else [PASSING]


RULES = Rules(MOVES)
