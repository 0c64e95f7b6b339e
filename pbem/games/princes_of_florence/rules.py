"""The Princes of Florence ruleset as the engine sees it: a thin adapter over ``rounds`` (the rules)
and ``moves`` (the grammar). docs/rules/princes-of-florence.md, "By email", gives every move with
the text of seed 001 it rests on.

Three hidden decks: the professions, the bonus cards and the prestige cards. A draw is a request the
engine answers with a token; a card shown (a work's profession and bonus cards, prestige cards at
the end) is checked by the engine and named to the rules before the move is checked; the cards a
player does not keep go under their deck, in the order the move lists them.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from pbem.crypto.randomness import Draws
from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import CardUse, DeckSpec, Demand, RandomRequest
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence import components as parts
from pbem.games.princes_of_florence import rounds, view
from pbem.games.princes_of_florence import state as game  # the email game's phases and kinds
from pbem.games.princes_of_florence.auction import bid_raise
from pbem.games.princes_of_florence.components import LANDSCAPES
from pbem.games.princes_of_florence.estate import Placement
from pbem.games.princes_of_florence.moves import (
    Build,
    Buy,
    CreateWork,
    Freedom,
    Keep,
    Move,
    Nominate,
    Payment,
    Place,
    Recruit,
    Return,
    Reveal,
    Sell,
    Take,
    format_move,
    parse,
)
from pbem.games.princes_of_florence.outcomes import outcomes as entry_outcomes
from pbem.games.princes_of_florence.scoring import breakdown
from pbem.games.princes_of_florence.state import Game, setup
from pbem.kit import cards, stand_in
from pbem.kit.cards import DrawRules
from pbem.kit.frozen import evolve
from pbem.kit.grammar import Bid, Pass
from pbem.kit.memo import by_identity
from pbem.kit.rules import Components, MoveTable, Options, TableRules, seat_named
from pbem.kit.seats import owed
from pbem.kit.stand_in import Defaults


class Rules(TableRules[Game, Move], DrawRules[Game]):
    info: GameInfo  # its declaration, which gives it (see the package's _rules)
    free = (Sell,)

    def setup(self, seats: Sequence[str], edition: str, options: Options, components: Components) -> Game:
        started = setup(parts.parsed(components), seats, options.get("unofficial_rules") is True)
        return evolve(
            started, variant_last=options.get("variant_last_price") is True, defaults=Defaults.of(options)
        )

    def phase(self, state: Game) -> str:
        if state.follow_ups and state.phase != game.DEAL:
            return f"round {state.round} {state.phase}: {state.follow_ups[0].kind}"
        if state.phase in (game.AUCTION, game.ACTIONS):
            return f"round {state.round} {state.phase}"
        return state.phase

    def over(self, state: Game) -> bool:
        """Only once every prestige card a player turns up is shown ("Игроки открывают свои
        карты престижа"): those reveals are moves of the game, not of its end."""
        return state.phase == game.OVER

    def demands(self, state: Game) -> list[Demand]:
        return list(_demands(state))

    def parse(self, text: str) -> Move:
        return parse(text)

    def format(self, move: Move) -> str:
        return format_move(move)

    def first(self, state: Game, seat: str, move: Move) -> None:
        """A follow-up (but the return of a card dealt, made by every seat at once) is answered
        before anything else: by its seat, with the move it asks for."""
        due = state.follow_ups[0] if state.follow_ups else None
        if due is not None and due.kind != game.RETURN and not _answers(move, due.kind):
            if seat == due.seat:
                raise IllegalMoveError(f"{seat} must first finish: {_prompt(state, seat)}")
            raise IllegalMoveError(f"it is not {seat}'s turn: {due.seat} must first finish a {due.kind}")

    def moved(self, state: Game) -> Game:
        return evolve(state, moves=state.moves + 1)

    def legal(self, state: Game, seat: str) -> list[Move]:
        """Every move ``seat`` may make now, built from the rules (a placement once per set of
        squares it covers; a card shown is offered by token, and the engine refuses a claim the
        seat cannot show)."""
        found: list[Move] = []
        for item in _listing(state, seat):
            if isinstance(item, _Group):
                found.extend(_group_moves(item.kind, item.key))
            else:
                found.append(item[0])
        return found

    def legal_moves(self, state: Game, seat: str) -> list[str]:
        """``legal`` as text: a group's texts are written once, not on every listing."""
        found: list[str] = []
        for item in _listing(state, seat):
            if isinstance(item, _Group):
                found.extend(_group_texts(item.kind, item.key))
            else:
                found.append(item[1])
        return found

    def default_move(self, state: Game, seat: str, step: str) -> Move | None:
        """A late player passes: in an auction (a pass on the lot, or no lot put up), in the action
        phase (no action) and on a recruitment offer. At the end its prestige cards are turned up,
        one by one, and score, as its player would have done (in a game with escrow the others
        unlock them; see ``keyless_default``). What must be done is done the first way the lists
        give: the card dealt last goes back, the first card drawn is kept (the rest under the deck
        as drawn), a landscape goes on a square the game's shared randomness picks among those it
        fits (option default_places=chance; in games made before it on the first, always the same
        corner), and a work's florins are all taken as florins."""
        if seat not in rounds.actors(state):
            return None
        if state.phase == game.REVEAL:
            hidden = rounds.hidden_prestige(state, state.player(seat))
            return Reveal(hidden[0]) if hidden else Pass()
        due = owed(state.follow_ups, seat)
        if due is not None and due.kind == game.RETURN:
            return Return(state.player(seat).hand[-1])
        if due is not None and due.kind == game.KEEP and due.tokens:
            return Keep(due.tokens[0])
        if due is not None and due.kind == game.PLACE:
            places = [move for move in self.legal(state, seat) if isinstance(move, Place)]
            return state.defaults.place(places, "place", seat, step)
        if due is not None and due.kind == game.PAYMENT:
            return Payment(0)
        return Pass()

    def keyless_default(self, state: Game, seat: str, step: str) -> Move | None:
        """Without escrow nobody else can turn a late player's prestige cards up: they stay face
        down and score nothing, so the game can end."""
        if seat in rounds.actors(state) and state.phase == game.REVEAL:
            return Pass()
        return None

    def played_by_defaults(self, state: Game, seats: tuple[str, ...], chance: bytes) -> Game:
        return stand_in.told(state, seats, chance)

    def random_requests(self, state: Game) -> list[RandomRequest]:
        return []

    def resolve(self, state: Game, context: str, draws: Draws) -> Game:
        raise AssertionError(f"princes-of-florence asks for no random event ({context})")

    def view(self, state: Game, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcomes(self, before: Game, after: Game) -> list[str]:
        return entry_outcomes(before, after)

    def score(self, state: Game) -> dict[str, dict[str, int]]:
        return breakdown(state)

    def is_free(self, move: Move) -> bool:
        return isinstance(move, self.free)

    def free_moves(self, state: Game, seat: str) -> list[str]:
        if seat not in state.seats or state.phase in (game.DEAL, "over"):
            return []
        return [format_move(Sell(points)) for points in range(1, state.player(seat).points + 1)]

    # --- hidden decks ---
    def hidden_decks(self, state: Game) -> list[DeckSpec]:
        found = state.components
        return [
            DeckSpec(game.PROFESSION, tuple(found.professions)),
            DeckSpec(game.BONUS, tuple(found.bonus)),
            DeckSpec(game.PRESTIGE, tuple(found.prestige)),
        ]

    # What a card dealt, a move's hidden cards and a card shown do: the rounds' own rules.
    card_drawn = staticmethod(rounds.drawn)
    card_revealed = staticmethod(rounds.revealed)

    def card_uses(self, state: Game, seat: str, move: Move) -> list[CardUse]:
        return card_uses(state, seat, move)

    def reshuffle_requests(self, state: Game) -> list[str]:
        return list(state.reshuffle)

    def deck_reshuffled(self, state: Game, deck_id: str) -> Game:
        return rounds.reshuffled(state, deck_id)


def card_uses(state: Game, seat: str, move: Move) -> list[CardUse]:
    """A returned card and the cards not kept go under their deck (in the order listed); a work
    shows its profession card (unless already face up, as a recruited one is) and its bonus cards;
    a prestige card is shown at the end."""
    if seat not in state.seats:
        return []
    if isinstance(move, Return):
        return cards.bottoms([move.token], game.PROFESSION)
    if isinstance(move, Keep):
        due = owed(state.follow_ups, seat, game.KEEP)
        if due is None or move.token not in due.tokens:
            return []
        rest = rounds.kept_rest(state, seat, move.token, move.under)
        return cards.bottoms([token for token in rest if token in due.tokens], due.what)
    if isinstance(move, CreateWork):
        return cards.reveals([move.profession, *dict.fromkeys(move.bonuses)], state.shown)
    if isinstance(move, Reveal):
        return cards.reveals([move.token], deck_id=game.PRESTIGE)
    return []


def _answers(move: Move, kind: str) -> bool:
    wanted: dict[str, tuple[type, ...]] = {
        game.KEEP: (Keep,),
        game.PLACE: (Place,),
        game.PAYMENT: (Payment,),
        game.RECRUIT: (Recruit, Pass),
    }
    return isinstance(move, wanted[kind])


def _check_pass(state: Game, seat: str) -> None:
    rounds.check_pass(state, seat)
    if state.phase == game.DEAL:
        raise IllegalMoveError(f"{seat} returns one of the four cards dealt: 'return TOKEN'")


def _pass(state: Game, seat: str) -> Game:
    if state.follow_ups and state.follow_ups[0].kind == game.RECRUIT:
        return rounds.decline(state, seat)
    if state.phase == game.AUCTION:
        return rounds.pass_auction(state, seat)
    if state.phase == game.REVEAL:
        return rounds.keep_hidden(state, seat)
    return rounds.end_turn(state, seat)


def _check_recruit(state: Game, seat: str, profession: str, owner: str) -> None:
    rounds.check_recruit(state, seat, profession, seat_named(state, owner))


def _recruit(state: Game, seat: str, profession: str, owner: str) -> Game:
    return rounds.recruit(state, seat, profession, seat_named(state, owner))


MOVES = MoveTable[Game, Game](
    {
        Return: (rounds.check_return, rounds.return_card),
        Nominate: (rounds.check_nominate, rounds.nominate),
        Bid: (rounds.check_bid, rounds.bid),
        Buy: (rounds.check_buy, rounds.buy),
        Place: (rounds.check_place, rounds.place),
        Build: (rounds.check_build, rounds.build),
        Freedom: (rounds.check_freedom, rounds.freedom),
        Take: (rounds.check_take, rounds.take),
        Keep: (rounds.check_keep, rounds.keep),
        CreateWork: (rounds.check_work, rounds.work),
        Payment: (rounds.check_payment, rounds.payment),
        Recruit: (_check_recruit, _recruit),
        Reveal: (rounds.check_reveal, rounds.reveal),
        Sell: (rounds.check_sell, rounds.sell),
        Pass: (_check_pass, _pass),
    }
)


# --- what a seat may do ----------------------------------------------------------------------------


@by_identity
def _demands(state: Game) -> tuple[Demand, ...]:
    """A state's demands, asked for again and again (by the engine's loop, a walk's every turn)."""
    return tuple(
        Demand(seat, "move", rounds.step(state), _prompt(state, seat)) for seat in rounds.asked(state)
    )


def _prompt(state: Game, seat: str) -> str:
    due = owed(state.follow_ups, seat)
    if due is not None:
        return {
            game.RETURN: "return one of the four profession cards dealt: return TOKEN",
            game.KEEP: f"keep one of the {due.what} cards drawn: keep TOKEN [under TOKEN ...]",
            game.PLACE: f"place the {due.what} won: place KIND at SQUARE rot R",
            game.PAYMENT: f"the work is worth {due.what} WP: prestige K (K prestige for "
            f"{state.components.rule('florins_per_prestige')} florins each)",
            game.RECRUIT: "use the recruitment card now (recruit PROFESSION from SEAT) or keep it: pass",
        }[due.kind]
    if state.phase == game.AUCTION and state.auction is not None:
        auction = state.auction
        following = bid_raise(state.components).least(auction)
        return f"bid {following} for the {auction.lot} ({auction.leader} leads at {auction.price}), or pass"
    if state.phase == game.AUCTION:
        if rounds.last_player(state):
            return f"the last player: buy LOT for {rounds.last_prices(state)}, or pass"
        return "put a lot up: auction LOT, or pass to take no lot this round"
    if state.phase == game.ACTIONS:
        done = len(state.player(seat).actions)
        allowed = state.components.rule("actions_per_round")
        return f"action {done + 1} of {allowed}: build, freedom, take profession, take bonus, work; or pass"
    return "reveal TOKEN for each prestige card, or pass to leave the rest face down"


class _Group(NamedTuple):
    """Moves the rules judge alike, listed together and checked once: every placement of one piece
    a player may lay now ("build" or "place"; ``key`` is the tile's outline, the grid and the
    squares it may not cover, as ``rounds.placing`` gives them), or every way to keep one card of
    those drawn ("keep"; ``key`` is the tokens drawn)."""

    kind: str
    key: tuple[Any, ...]


@functools.lru_cache(maxsize=4096)
def _group_moves(kind: str, key: Any) -> tuple[Move, ...]:
    if kind == game.KEEP:
        return tuple(_keeps(key))
    tile, columns, rows, blocked = key
    return tuple(move for squares, move, _ in _laid(kind, tile, columns, rows) if not squares & blocked)


@functools.lru_cache(maxsize=4096)
def _group_texts(kind: str, key: Any) -> tuple[str, ...]:
    if kind == game.KEEP:
        return tuple(_keep_texts(key))
    tile, columns, rows, blocked = key
    return tuple(text for squares, _, text in _laid(kind, tile, columns, rows) if not squares & blocked)


def _any(kind: str, key: Any) -> Move | None:
    """A move of a group's kind and piece, which its rules judge as they judge every move of the
    group (``_listing``); None if the piece has no placement at all."""
    if kind == game.KEEP:
        return Keep(key[0]) if key else None
    tile, columns, rows, _ = key
    laid = _laid(kind, tile, columns, rows)
    return laid[0][1] if laid else None


@functools.lru_cache(maxsize=256)
def _laid(kind: str, tile: rounds.Outline, columns: int, rows: int) -> tuple[tuple[int, Move, str], ...]:
    """Every placement of ``tile`` on an empty grid (``rounds.on_grid``: the squares it covers as a
    mask) as a ``kind`` move (build or place) and its text, made once per tile: an estate's listing
    only leaves out those its blocked squares refuse."""
    verb = Build if kind == "build" else Place
    found: list[tuple[int, Move, str]] = []
    for placement, squares in rounds.on_grid(tile, columns, rows):
        move = verb(placement)
        found.append((squares, move, format_move(move)))
    return tuple(found)


def _keeps(drawn: tuple[str, ...]) -> list[Move]:
    """Each card drawn kept, the others going under the deck as drawn or in any other order."""
    moves: list[Move] = []
    for token in drawn:
        rest = [t for t in drawn if t != token]
        moves.append(Keep(token))
        moves.extend(Keep(token, order) for order in itertools.permutations(rest) if list(order) != rest)
    return moves


def _keep_texts(drawn: tuple[str, ...]) -> list[str]:
    """``_keeps`` as ``Keep.said`` writes them, without making the hundred and twenty moves of five
    cards drawn: each draw brings other cards, so they are seldom listed twice."""
    texts: list[str] = []
    for token in drawn:
        rest = [t for t in drawn if t != token]
        texts.append(f"keep {token}")
        texts.extend(
            f"keep {token} under {' '.join(order)}"
            for order in itertools.permutations(rest)
            if list(order) != rest
        )
    return texts


_Offer = tuple[Move, str]  # a move listed, and its text


@functools.lru_cache(maxsize=4096)
def _offer(kind: Callable[..., Move], *fields: Any) -> _Offer:
    """A move ``kind(*fields)`` and its text, made once: a move is a frozen value, and the same
    moves are offered listing after listing (the freedoms, the lots, pass)."""
    move = kind(*fields)
    return move, format_move(move)


def _listing(state: Game, seat: str) -> list[_Offer | _Group]:
    """The moves ``seat`` may make now, a group's moves judged by one of them. A placement listed
    is one the estate has room for (``rounds.placements`` lists only those ``estate.place``
    accepts), so the rest of its rules (``_LISTED``: the turn, the follow-up, the supply, the
    price, a building built already) judge every placement of the piece alike; and a card kept is
    judged alike whatever the order the others go under the deck. So a piece with two hundred
    placements is checked once, not two hundred times, and its squares not at all; and what every
    building, or every freedom, needs (the action, the price) once for all of them, each then only
    for what is its own (``rounds.tile_refusal``, ``rounds.freedom_refusal``)."""
    if seat not in rounds.asked(state):
        return []
    found: list[_Offer | _Group] = []
    player = state.player(seat)
    common: dict[type, bool] = {}  # whether the seat may build, or take a freedom, at all
    for item in _candidates(state, seat):
        if isinstance(item, _Group):
            if item.kind == "build":
                name = item.key[0][0]
                if Build not in common:  # where it lies is not read
                    _common(common, state, seat, Build(Placement(name, (0, 0))))
                allowed = common[Build] and rounds.tile_refusal(state, player, name) is None
            else:
                move = _any(item.kind, item.key)
                judge = RULES if item.kind == game.KEEP else _LISTED
                allowed = move is not None and judge.allowed(state, seat, move)
            if allowed and _group_texts(item.kind, item.key):
                found.append(item)
        elif isinstance(move := item[0], Freedom):
            if (
                _common(common, state, seat, move)
                and rounds.freedom_refusal(state, player, move.kind) is None
            ):
                found.append(item)
        elif _allowed(state, seat, move):
            found.append(item)
    return found


def _common(common: dict[type, bool], state: Game, seat: str, move: Build | Freedom) -> bool:
    """What every move of the kind of ``move`` needs (``_LISTED``), judged once per listing."""
    kind = type(move)
    if kind not in common:
        common[kind] = _LISTED.allowed(state, seat, move)
    return common[kind]


def _allowed(state: Game, seat: str, move: Move) -> bool:
    if isinstance(move, CreateWork):
        # A card it shows is not face up yet (what card_uses would show): checked once the cards
        # are shown; see _works. The seat is one asked to move, so one of the game's.
        shown = state.shown
        if move.profession not in shown or any(token not in shown for token in move.bonuses):
            return True
    return RULES.allowed(state, seat, move)


def _candidates(state: Game, seat: str) -> list[_Offer | _Group]:
    player = state.player(seat)
    due = owed(state.follow_ups, seat)
    if due is not None:
        if due.kind == game.RETURN:
            return [_offer(Return, token) for token in player.hand]
        if due.kind == game.KEEP:
            return [_Group(game.KEEP, due.tokens)]
        if due.kind == game.PLACE:
            kinds = LANDSCAPES if due.what == rounds.LANDSCAPE else (due.what,)
            return [
                _Group(game.PLACE, rounds.placing(state, player, kind))
                for kind in kinds
                if state.supply[kind]
            ]
        if due.kind == game.PAYMENT:
            return [_offer(Payment, points) for points in range(int(due.what) // 2 + 1)]
        return [*_recruits(state, seat), _offer(Pass)]
    if state.phase == game.AUCTION and state.auction is not None:
        return [_offer(Bid, bid_raise(state.components).least(state.auction)), _offer(Pass)]
    if state.phase == game.AUCTION:
        lots = rounds.lots(state)
        if rounds.last_player(state):
            return [*(_offer(Buy, lot) for lot in lots), _offer(Pass)]
        return [*(_offer(Nominate, lot) for lot in lots), _offer(Pass)]
    if state.phase == game.ACTIONS:
        listed: list[_Offer | _Group] = [*_recruits(state, seat)]
        built = player.estate.buildings
        land = player.estate
        blocked = rounds.blocked(state, player, building=True)  # the same for every building
        listed.extend(
            _Group("build", (rounds.outline(tile), land.columns, land.rows, blocked))
            for name, tile in state.components.buildings.items()
            if name not in built
        )
        listed.extend(_offer(Freedom, kind) for kind in state.components.freedoms)
        if state.unofficial:
            listed.extend(_offer(Take, game.PROFESSION, state.shown[token]) for token in rounds.turned(state))
        else:
            listed.append(_offer(Take, game.PROFESSION))
        listed.append(_offer(Take, game.BONUS))
        listed.extend(_works(state, seat))
        return [*listed, _offer(Pass)]
    if state.phase == game.REVEAL:
        return [*(_offer(Reveal, token) for token in rounds.hidden_prestige(state, player)), _offer(Pass)]
    return []


def _recruits(state: Game, seat: str) -> list[_Offer]:
    if not state.player(seat).recruitment:
        return []
    return [_offer(Recruit, name, owner) for name, owner in rounds.recruitable(state, seat)]


def _works(state: Game, seat: str) -> list[_Offer]:
    """Works with every profession card held and every set of bonus cards: their value is known only
    once the cards are shown, so they are listed while the player has an action left."""
    player = state.player(seat)
    if len(player.actions) >= state.components.rule("actions_per_round"):
        return []
    sets = [
        combo for size in range(len(player.bonus) + 1) for combo in itertools.combinations(player.bonus, size)
    ]
    return [_offer(CreateWork, token, combo) for token in player.hand for combo in sets]


def _check_builder(state: Game, seat: str, placement: Placement) -> None:
    rounds.check_builder(state, seat)


def _check_freedoms(state: Game, seat: str, kind: str) -> None:
    rounds.check_freedoms(state, seat)


RULES = Rules(MOVES)
# The rules for a placement ``rounds.placements`` lists: all but where it lies, which ``estate.place``
# would find again for every placement of every piece on every listing; for a building or a freedom
# only what any of them needs (``_listing`` asks ``rounds.tile_refusal`` and
# ``rounds.freedom_refusal`` for each).
_LISTED = Rules(
    MoveTable[Game, Game](
        {
            Build: (_check_builder, rounds.build),
            Freedom: (_check_freedoms, rounds.freedom),
            Place: (rounds.check_landscape, rounds.place),
        }
    )
)
