"""The rounds of a Princes of Florence game by email: the deal, the auction phase, the action phase,
the end of a round and the end of the game (seed 001, "Ход игры" to "Конец игры").

Every ``check_*`` only reads and raises IllegalMoveError in one line naming the rule; every other
public function takes a game and returns a new one (the state is frozen). Hidden cards are tokens:
a draw is a request the state waits for and ``drawn`` answers; a card shown face up is named by
``revealed`` before the move that shows it is checked.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

from pbem.engine.ruleset import DrawRequest
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence import estate as grid
from pbem.games.princes_of_florence.actions import ONCE_PER_ROUND, turned_up
from pbem.games.princes_of_florence.auction import (
    alone_price,
    bid_raise,
    lot_slot,
    once_a_round,
    opening_price,
)
from pbem.games.princes_of_florence.buildings import cost
from pbem.games.princes_of_florence.components import LANDSCAPES, Building, Landscape
from pbem.games.princes_of_florence.state import (
    ACTIONS,
    AUCTION,
    BONUS,
    DEAL,
    KEEP,
    OVER,
    PAYMENT,
    PLACE,
    PRESTIGE,
    PROFESSION,
    RECRUIT,
    RETURN,
    REVEAL,
    Game,
    Player,
    Work,
    as_estate,
)
from pbem.games.princes_of_florence.works import (
    best_of,
    florins_left,
    most_prestige,
    repeat_refusal,
    work_value,
)
from pbem.kit import cards
from pbem.kit.auction import Auction
from pbem.kit.frozen import evolve
from pbem.kit.memo import by_identity
from pbem.kit.seats import FollowUp, after, check_turn, move_step, owed, whose_turn, without

LANDSCAPE = "landscape"  # the unofficial rules' lot: "не называя его тип"
Piece = Building | Landscape

# --- who acts ------------------------------------------------------------------------------------


def actors(game: Game) -> list[str]:
    """The seats asked to move now; none while a card is being dealt."""
    if game.drawing or game.phase == OVER:
        return []
    if game.follow_ups and game.follow_ups[0].kind == RETURN:
        return [item.seat for item in game.follow_ups]  # every seat returns its cards at once
    asked = whose_turn(game.follow_ups, game.auction)
    if asked:
        return list(asked)
    if game.phase == AUCTION:
        return [game.nominator]
    if game.phase == ACTIONS:
        return [game.turn]
    if game.phase == REVEAL:
        return [player.seat for player in game.players if hidden_prestige(game, player) and not player.out]
    return []


@by_identity
def asked(game: Game) -> tuple[str, ...]:
    """``actors``, found once per state: a listing checks a dozen moves of the same state, and
    each check asks whose turn it is."""
    return tuple(actors(game))


def hidden_prestige(game: Game, player: Player) -> list[str]:
    return cards.hidden(player.prestige_cards, game.shown)


def step(game: Game) -> str:
    """The current step's name, unique in the game (each step has its own deadline)."""
    if game.phase == DEAL:
        return "the deal"
    if game.phase == REVEAL:
        return "the end: prestige cards"
    return move_step(game.round, game.phase, game.follow_ups, game.moves)


def _ensure_turn(game: Game, seat: str) -> None:
    check_turn(seat, asked(game), "a card is being dealt")


def _due(game: Game, seat: str, kind: str) -> FollowUp:
    due = owed(game.follow_ups, seat, kind)
    if due is None:
        raise IllegalMoveError(f"{seat} has no {kind} to make now")
    return due


def _without(game: Game, due: FollowUp) -> Game:
    return evolve(game, follow_ups=without(game.follow_ups, due))


# --- cards ---------------------------------------------------------------------------------------


def drawn(game: Game, draw: DrawRequest, token: str) -> Game:
    """The oldest draw answered with ``token``: into the hand at the deal, onto the table when
    turned up, otherwise among the cards a player chooses from."""
    drawing = cards.answered(game.drawing, draw)
    if draw.face_up:
        return evolve(game, drawing=drawing, face_up=(*game.face_up, token))
    player = game.player(draw.seat)
    if game.phase == DEAL:
        return evolve(game, drawing=drawing).with_player(evolve(player, hand=(*player.hand, token)))
    for index, due in enumerate(game.follow_ups):
        if due.seat == draw.seat and due.kind == KEEP and due.what == draw.deck_id:
            follow_ups = list(game.follow_ups)
            follow_ups[index] = evolve(due, tokens=(*due.tokens, token))
            return evolve(game, drawing=drawing, follow_ups=tuple(follow_ups))
    raise AssertionError(f"no choice waits for {token}")


def revealed(game: Game, token: str, card: str) -> Game:
    return evolve(game, shown=cards.with_shown(game.shown, token, card))


def reshuffled(game: Game, deck: str) -> Game:
    return evolve(game, reshuffle=tuple(name for name in game.reshuffle if name != deck))


def _draw(game: Game, seat: str, deck: str) -> Game:
    """Seed 001: "берет 5 верхних карт из соответствующей колоды (или все карты, если их в колоде
    меньше пяти), выбирает одну"."""
    count = min(game.components.rule("cards_drawn"), game.decks[deck])
    return evolve(
        game,
        decks={**game.decks, deck: game.decks[deck] - count},
        drawing=(*game.drawing, *cards.draws(deck, seat, count)),
        follow_ups=(*game.follow_ups, FollowUp(seat, KEEP, deck)),
    )


# --- the deal --------------------------------------------------------------------------------------


def check_return(game: Game, seat: str, token: str) -> None:
    """Seed 001: "Каждый игрок смотрит сданные карты, выбирает из них три, которые оставляет себе,
    а оставшуюся карту сбрасывает обратно в колоду"."""
    _ensure_turn(game, seat)
    _due(game, seat, RETURN)
    if token not in game.player(seat).hand:
        held = ", ".join(game.player(seat).hand)
        raise IllegalMoveError(f"{seat} was not dealt {token}: return one of {held}")


def return_card(game: Game, seat: str, token: str) -> Game:
    player = game.player(seat)
    game = game.with_player(evolve(player, hand=tuple(t for t in player.hand if t != token)))
    game = _without(game, _due(game, seat, RETURN))
    game = evolve(game, decks={**game.decks, PROFESSION: game.decks[PROFESSION] + 1})
    if game.follow_ups:
        return game
    # "Колода вновь перемешивается и кладется рядом с общим игровым полем."
    return begin_round(evolve(game, reshuffle=(*game.reshuffle, PROFESSION)), 1)


# --- rounds ----------------------------------------------------------------------------------------


def begin_round(game: Game, round_: int) -> Game:
    """A round starts with the auction phase; with the unofficial rules, from round 3, "одна верхняя
    карта профессии берется из колоды, переворачивается и кладется на стол" (two more, one in each
    of rounds 6 and 7, with two players)."""
    players = tuple(evolve(player, actions=(), bought="", out=False) for player in game.players)
    game = evolve(
        game,
        round=round_,
        phase=AUCTION,
        players=players,
        auctioned=(),
        auction=None,
        nominator=game.first,
        turn="",
    )
    if game.unofficial:
        count = len(game.seats)
        turn = turned_up(count, round_) - turned_up(count, round_ - 1)
        turn = min(turn, game.decks[PROFESSION])
        if turn:
            game = evolve(
                game,
                decks={**game.decks, PROFESSION: game.decks[PROFESSION] - turn},
                drawing=(*game.drawing, *cards.draws(PROFESSION, game.first, turn, face_up=True)),
            )
    return _settle_auctions(game)


def _bidders(game: Game) -> list[str]:
    """Players still in this round's auctions: "Игроки, которые уже приобрели объекты в данный раунд,
    не могут принимать участия в торгах до конца раунда"."""
    return [player.seat for player in game.players if not player.bought and not player.out]


def _settle_auctions(game: Game) -> Game:
    """Pick who puts up the next lot, or end the auction phase once nobody is left in it ("После
    того, как все игроки приобрели объекты или решили вовсе не приобретать объекты")."""
    left = _bidders(game)
    if not left:
        return evolve(game, phase=ACTIONS, turn=game.first, nominator="")
    if game.nominator not in left:
        return evolve(game, nominator=after(game.seats, game.nominator, left))
    return game


def last_player(game: Game) -> bool:
    """ "Торги длятся до тех пор, пока не останется один игрок, который не приобрел объект": that
    player may take a lot alone for 200 florins (``alone_price``), or nothing."""
    return game.phase == AUCTION and game.auction is None and len(_bidders(game)) == 1


def last_price(game: Game, lot: str) -> int:
    """What the last player pays for ``lot`` (``alone_price``)."""
    return alone_price(
        game.components,
        lot,
        players=len(game.seats),
        unofficial=game.unofficial,
        round_=game.round,
        variant_last=game.variant_last,
    )


def last_prices(game: Game) -> str:
    """The last player's prices, in words: ``200 florins`` or, where lots differ, each lot's."""
    found = {lot: last_price(game, lot) for lot in lots(game)}
    if len(set(found.values())) <= 1:
        return f"{next(iter(found.values()), last_price(game, ''))} florins"
    return ", ".join(f"{lot} {cost}" for lot, cost in found.items()) + " florins"


def lots(game: Game) -> list[str]:
    """The lots that may be put up now, whoever puts them up."""
    found = []
    kinds = [LANDSCAPE] if game.unofficial else list(LANDSCAPES)
    for lot in (*kinds, "jester", "builder", "prestige-card", "recruitment"):
        if _lot_refusal(game, lot) is None:
            found.append(lot)
    return found


def _supply(game: Game, lot: str) -> int:
    if lot == LANDSCAPE:
        return sum(game.supply[kind] for kind in LANDSCAPES)
    if lot == "prestige-card":
        return game.decks[PRESTIGE]
    return game.supply[lot]


def _lot_refusal(game: Game, lot: str) -> str | None:
    if lot_slot(lot, unofficial=game.unofficial) in game.auctioned:
        return (
            f"a {lot_slot(lot, unofficial=game.unofficial)} was sold this round, and "
            f"{once_a_round(game.unofficial, lot)}"
        )
    if _supply(game, lot) <= 0:
        return f"no {lot} is left, and a lot is put up only while some are left"
    return None


def price(game: Game, lot: str) -> int:
    return opening_price(
        lot, game.components, players=len(game.seats), unofficial=game.unofficial, round_=game.round
    )


def _wants_refusal(game: Game, seat: str, lot: str) -> str | None:
    """Why ``seat`` may not win ``lot`` at all: a fourth builder, or a landscape with no room."""
    player = game.player(seat)
    limit = game.components.builders.limit
    if lot == "builder" and player.builders >= limit:
        return f"{seat} has {limit} builders, the most an estate may have"
    if lot in (*LANDSCAPES, LANDSCAPE):
        kinds = [lot] if lot in LANDSCAPES else [kind for kind in LANDSCAPES if game.supply[kind] > 0]
        if not any(has_room(game, player, kind) for kind in kinds):
            # Reading: a landscape won is placed at once ("немедленно располагает его в своем
            # поместье"), so a player with no room for one does not take part.
            return f"{seat}'s estate has no room for a {lot} (a landscape won is placed at once)"
    return None


def check_nominate(game: Game, seat: str, lot: str) -> None:
    """Seed 001: "Первый игрок выбирает объект одного типа и выставляет его на торги. Он
    автоматически начинает аукцион со ставкой 200 флоринов"."""
    _ensure_turn(game, seat)
    if game.phase != AUCTION or game.auction is not None:
        raise IllegalMoveError(
            "no lot can be put up now: the auction phase is over or a lot is being bid for"
        )
    if last_player(game):
        raise IllegalMoveError(
            f"{seat} is the last player in this round's auctions, who takes a lot without an auction: "
            f"'buy LOT' for {last_prices(game)}, or pass"
        )
    if game.unofficial and lot in LANDSCAPES:
        raise IllegalMoveError(
            "with the unofficial rules a landscape is put up without naming its kind, as 'auction "
            "landscape'; the winner chooses the kind"
        )
    if lot == LANDSCAPE and not game.unofficial:
        raise IllegalMoveError("name the landscape: 'auction forest', 'auction lake' or 'auction park'")
    refusal = _lot_refusal(game, lot) or _wants_refusal(game, seat, lot)
    if refusal:
        raise IllegalMoveError(refusal)
    opening = price(game, lot)
    if game.player(seat).florins < opening:
        raise IllegalMoveError(f"a {lot} opens at {opening} florins; {seat} has {game.player(seat).florins}")


def nominate(game: Game, seat: str, lot: str) -> Game:
    auction = Auction(lot, tuple(_bidders(game)), turn=seat, leader=seat, price=price(game, lot))
    return _next_bidder(game, auction)


def _next_bidder(game: Game, auction: Auction[str]) -> Game:
    """Bidding on ``auction`` (the game's once this move is made) goes clockwise among those still
    bidding; the lot is sold once "все игроки кроме одного не спасуют"."""
    if auction.over:
        return _win(evolve(game, auction=None), auction.winner, auction.lot, auction.price, game.nominator)
    return evolve(game, auction=auction.onward())


def check_bid(game: Game, seat: str, amount: int) -> None:
    """Seed 001: "каждый участник игры может принять участие в торгах, подняв ставку на 100
    флоринов. Все повышения цены лота происходят ровно на 100 флоринов, ни больше, ни меньше"."""
    auction = game.auction
    if game.phase != AUCTION or auction is None:
        raise IllegalMoveError("no lot is being bid for: the nominator puts one up with 'auction LOT'")
    if seat in auction.passed:
        raise IllegalMoveError(
            f"{seat} passed on this {auction.lot}, and a player who passes bids no more for that lot"
        )
    if seat not in _bidders(game):
        raise IllegalMoveError(
            f"{seat} won a lot this round or left its auctions, and takes no further part in them this round"
        )
    _ensure_turn(game, seat)
    wanted = bid_raise(game.components).least(auction)
    if not bid_raise(game.components).allows(auction, amount):
        raise IllegalMoveError(
            f"the next bid for the {auction.lot} is {wanted}, not {amount}: every bid raises the last "
            f"by exactly {game.components.rule('raise')}"
        )
    refusal = _wants_refusal(game, seat, auction.lot)
    if refusal:
        raise IllegalMoveError(refusal)
    if amount > game.player(seat).florins:
        raise IllegalMoveError(f"{seat} has {game.player(seat).florins} florins, not {amount}")


def bid(game: Game, seat: str, amount: int) -> Game:
    assert game.auction is not None
    return _next_bidder(game, game.auction.bid(seat, amount))


def check_pass(game: Game, seat: str) -> None:
    _ensure_turn(game, seat)


def pass_auction(game: Game, seat: str) -> Game:
    """A pass in a lot's bidding is final for that lot ("более не может принимать участие в торгах
    за данный объект в этом раунде"). A pass instead of putting a lot up leaves the round's
    auctions: reading "решили вовсе не приобретать объекты в данный раунд", which the text allows
    the last player in so many words."""
    if game.auction is not None:
        auction = game.auction
        return _next_bidder(game, auction.passing(seat))
    game = game.with_player(evolve(game.player(seat), out=True))
    if seat == game.nominator:
        left = _bidders(game)
        game = evolve(game, nominator=after(game.seats, seat, left) if left else seat)
    return _settle_auctions(game)


def check_buy(game: Game, seat: str, lot: str) -> None:
    """Seed 001: the last player "может просто заплатить в банк 200 флоринов и взять один из
    доступных объектов"."""
    _ensure_turn(game, seat)
    if not last_player(game):
        raise IllegalMoveError(
            "only the last player in a round's auctions takes a lot without bidding: put it up with "
            "'auction LOT'"
        )
    if game.unofficial and lot in LANDSCAPES:
        raise IllegalMoveError("with the unofficial rules a landscape is taken as 'buy landscape'")
    refusal = _lot_refusal(game, lot) or _wants_refusal(game, seat, lot)
    if refusal:
        raise IllegalMoveError(refusal)
    cost = last_price(game, lot)
    if game.player(seat).florins < cost:
        raise IllegalMoveError(
            f"the last player pays {cost} florins for a {lot} taken alone; {seat} has "
            f"{game.player(seat).florins}"
        )


def buy(game: Game, seat: str, lot: str) -> Game:
    return _win(game, seat, lot, last_price(game, lot), seat)


def _win(game: Game, seat: str, lot: str, paid: int, nominator: str) -> Game:
    """The winner "платит деньги в банк, забирает объект себе"; a nominator who lost puts up the
    next lot, one who won hands it to "первый из доступных игроков ..., сидящий по левую сторону"."""
    player = evolve(game.player(seat), florins=game.player(seat).florins - paid, bought=lot)
    follow_ups = list(game.follow_ups)
    supply = dict(game.supply)
    if lot in (*LANDSCAPES, LANDSCAPE):
        follow_ups.append(FollowUp(seat, PLACE, lot))
    else:
        if lot != "prestige-card":
            supply[lot] -= 1
        if lot == "jester":
            player = evolve(player, jesters=player.jesters + 1)
        elif lot == "builder":
            player = evolve(player, builders=player.builders + 1)
            # "Если игрок приобрел второго строителя, он немедленно получает 3 очка престижа. Если
            # игрок приобрел третьего строителя, он так же немедленно получает 3 очка престижа."
            if player.builders >= game.components.builders.prestige_from:
                player = player.gain("builders", game.components.builders.prestige)
        elif lot == "recruitment":
            player = evolve(player, recruitment=player.recruitment + 1)
            # "он может использовать ее немедленно или отложить"
            if recruitable(game, seat):
                follow_ups.append(FollowUp(seat, RECRUIT))
    game = evolve(
        game.with_player(player),
        supply=supply,
        follow_ups=tuple(follow_ups),
        auctioned=(*game.auctioned, lot_slot(lot, unofficial=game.unofficial)),
        nominator=nominator,
    )
    if lot == "prestige-card":
        game = _draw(game, seat, PRESTIGE)
    return _settle_auctions(game) if not game.follow_ups else game


# --- placing buildings and landscapes ------------------------------------------------------------


# What a piece's placements depend on: its id, its shape and whether it has two sides. A listing
# finds its placements by these, whose hashes Python keeps, not by the tile, whose hash it works
# out from every field on every listing.
Outline = tuple[str, grid.Cells, bool]


def outline(tile: Piece) -> Outline:
    return tile.id, tile.cells, tile.two_sided


@functools.lru_cache(maxsize=256)
def on_grid(piece: Outline, columns: int, rows: int) -> tuple[tuple[grid.Placement, int], ...]:
    """Every placement of a piece (``outline``) that lies on an empty grid, one per set of squares
    covered, with the squares it covers as a mask (``_mask``)."""
    name, cells, two_sided = piece
    sides = (False, True) if two_sided else (False,)
    # The shape each way it may be laid, found once: its width, height and squares as a mask from
    # the grid's corner, which a placement's square shifts (a shape that fits wraps no row).
    shapes: dict[tuple[int, bool], tuple[int, int, int]] = {}
    for rotation, mirrored in itertools.product(grid.ROTATIONS, sides):
        shape = grid.turned(cells, rotation, mirrored)
        width = max((x for x, _ in shape), default=-1) + 1
        height = max((y for _, y in shape), default=-1) + 1
        mask = sum(1 << (y * columns + x) for x, y in shape) if width <= columns else 0
        shapes[rotation, mirrored] = (width, height, mask)
    found: dict[int, grid.Placement] = {}
    for row, column, rotation, mirrored in itertools.product(
        range(rows), range(columns), grid.ROTATIONS, sides
    ):
        width, height, mask = shapes[rotation, mirrored]
        if column + width <= columns and row + height <= rows:
            squares = mask << (row * columns + column)
            if squares not in found:
                found[squares] = grid.Placement(name, (column, row), rotation, mirrored)
    return tuple((placement, squares) for squares, placement in found.items())


def _mask(squares: Iterable[grid.Square], columns: int, rows: int) -> int:
    """Squares as the bits of one number (square (x, y) is bit ``y * columns + x``), those off the
    grid left out: a placement is tested against an estate with one ``&``, not a set's
    intersection, as every building's placements are listed on every turn of the action phase."""
    return sum({1 << (y * columns + x) for x, y in squares if 0 <= x < columns and 0 <= y < rows})


@by_identity
def _blocked(land: grid.Estate) -> tuple[int, int]:
    """The squares no new piece may cover on ``land``, as masks: those covered; and those covered or
    beside a building, where buildings may not touch along a side. An estate is a frozen value kept
    as the same object until a piece is laid, so this is found once per estate, not on every
    listing of its placements."""
    covered = near = 0
    for item in land.placed:
        own, beside = _masks(item.squares, land.columns, land.rows)
        covered |= own
        if item.building:
            near |= beside
    return covered, covered | near


@functools.lru_cache(maxsize=4096)
def _masks(squares: grid.Cells, columns: int, rows: int) -> tuple[int, int]:
    """A piece's squares and the squares beside them, as masks: found once per piece laid."""
    return _mask(squares, columns, rows), _mask(grid.beside(squares), columns, rows)


def piece(game: Game, name: str) -> Piece:
    found = game.components.buildings.get(name) or game.components.landscapes.get(name)
    if found is None:
        raise IllegalMoveError(f"no building or landscape {name!r}")
    return found


def blocked(game: Game, player: Player, building: bool) -> int:
    """The squares of the player's estate a new building (or landscape) may not cover, as a mask."""
    touching = building and player.builders < game.components.builders.touching_from
    return _blocked(player.estate)[touching]


def placing(game: Game, player: Player, name: str) -> tuple[Outline, int, int, int]:
    """What the placements of ``name`` on the player's estate depend on: the piece's outline, the
    grid and the squares it may not cover (a mask); those of ``on_grid`` that cover none of them."""
    tile = piece(game, name)
    land = player.estate
    return outline(tile), land.columns, land.rows, blocked(game, player, tile.is_building)


def placements(game: Game, player: Player, name: str) -> list[grid.Placement]:
    """Where ``name`` may lie on the player's estate now: the placements ``estate.place`` accepts,
    found fast (one per set of squares covered)."""
    tile, columns, rows, blocked = placing(game, player, name)
    return [placement for placement, squares in on_grid(tile, columns, rows) if not squares & blocked]


def has_room(game: Game, player: Player, name: str) -> bool:
    """Whether ``name`` may lie anywhere on the player's estate now (``placements`` is not empty)."""
    return _room(*placing(game, player, name))


@functools.lru_cache(maxsize=4096)
def _room(tile: Outline, columns: int, rows: int, blocked: int) -> bool:
    return any(not squares & blocked for _, squares in on_grid(tile, columns, rows))


def _place(game: Game, player: Player, placement: grid.Placement) -> grid.Estate:
    return grid.place(
        player.estate,
        piece(game, placement.piece),
        placement,
        builders=player.builders,
        touching_from=game.components.builders.touching_from,
    )


def check_place(game: Game, seat: str, placement: grid.Placement) -> None:
    """Seed 001: "Если игрок выиграл торги за лес, он немедленно располагает его в своем поместье";
    the unofficial rules: "Победитель аукциона забирает себе тот тип ландшафта, который желает"."""
    check_landscape(game, seat, placement)
    _place(game, game.player(seat), placement)


def check_landscape(game: Game, seat: str, placement: grid.Placement) -> None:
    """``check_place`` but for where the landscape lies: all a placement ``placements`` lists needs."""
    _ensure_turn(game, seat)
    due = _due(game, seat, PLACE)
    kind = placement.piece
    if kind not in LANDSCAPES or (due.what not in (LANDSCAPE, kind)):
        wanted = "forest, lake or park" if due.what == LANDSCAPE else due.what
        raise IllegalMoveError(f"{seat} places the {wanted} won, not a {kind}")
    if game.supply[kind] <= 0:
        raise IllegalMoveError(f"no {kind} is left")


def place(game: Game, seat: str, placement: grid.Placement) -> Game:
    player = game.player(seat)
    kind = placement.piece
    player = evolve(player, estate=_place(game, player, placement))
    # "Если хозяин поместья размещает в нем второй лес ... он сразу же получает 3 очка престижа ...
    # третий лес ... вновь получает 3 очка престижа и т. д."; lakes and parks "так же, как и лес".
    if player.landscape_count(kind) >= 2:
        player = player.gain("landscapes", game.components.rule("landscape_prestige"))
    game = evolve(
        game.with_player(player),
        supply={**game.supply, kind: game.supply[kind] - 1},
    )
    return _carry_on(_without(game, _due(game, seat, PLACE)))


# --- the action phase ----------------------------------------------------------------------------


def _check_action(game: Game, seat: str, action: str) -> Player:
    _ensure_turn(game, seat)
    if game.phase != ACTIONS or game.follow_ups:
        raise IllegalMoveError(f"{action} is an action of the action phase; the round is in its {game.phase}")
    player = game.player(seat)
    limit = game.components.rule("actions_per_round")
    if len(player.actions) >= limit:
        raise IllegalMoveError(
            f"{seat} has taken {limit} actions this round, and each player takes {limit} actions a round"
        )
    if action in ONCE_PER_ROUND and action in player.actions:
        raise IllegalMoveError(
            f"{seat} already took a {action} this round, and a {action} is taken only once a round"
        )
    return player


def _afford(player: Player, amount: int, what: str) -> None:
    if amount > player.florins:
        raise IllegalMoveError(f"{what} costs {amount} florins; {player.seat} has {player.florins}")


def _pay(player: Player, amount: int, what: str) -> Player:
    _afford(player, amount, what)
    return evolve(player, florins=player.florins - amount)


def _acted(game: Game, player: Player, action: str) -> Game:
    return game.with_player(evolve(player, actions=(*player.actions, action)))


def building_cost(game: Game, player: Player) -> int:
    return cost(player.builders, game.components)


def check_build(game: Game, seat: str, placement: grid.Placement) -> None:
    """Seed 001, "Строительство зданий": 700 florins, 300 with one or two builders, nothing with
    three; "только одно здание одного типа"; "не может строить здание, если соответствующие маркеры
    закончились"; the placement rules of ``estate.place``."""
    check_building(game, seat, placement)
    _place(game, game.player(seat), placement)


def check_building(game: Game, seat: str, placement: grid.Placement) -> None:
    """``check_build`` but for where the building lies: all a placement ``placements`` lists needs."""
    player = _check_action(game, seat, "build")
    refusal = tile_refusal(game, player, placement.piece)
    if refusal:
        raise IllegalMoveError(refusal)
    _afford_building(game, player)


def check_builder(game: Game, seat: str) -> None:
    """``check_building`` but for the building: what any building needs (the action, the price)."""
    _afford_building(game, _check_action(game, seat, "build"))


def tile_refusal(game: Game, player: Player, name: str) -> str | None:
    """Why ``player`` may not build ``name`` whatever the action and the price allow, or None."""
    if name not in game.components.buildings:
        return f"no building {name!r}; buildings: {', '.join(sorted(game.components.buildings))}"
    if name in player.estate.buildings:
        return f"{player.seat} has a {name} already, and an estate has only one building of each type"
    if game.supply[f"building:{name}"] <= 0:
        return f"no {name} tile is left, and a building is built only while its tiles last"
    return None


def _afford_building(game: Game, player: Player) -> None:
    _afford(player, building_cost(game, player), f"a building with {player.builders} builder(s)")


def build(game: Game, seat: str, placement: grid.Placement) -> Game:
    player = game.player(seat)
    player = _pay(player, building_cost(game, player), "a building")
    player = evolve(player, estate=_place(game, player, placement))
    # "При строительстве здания игрок немедленно получает 3 очка престижа."
    player = player.gain("buildings", game.components.rule("building_prestige"))
    key = f"building:{placement.piece}"
    game = evolve(game, supply={**game.supply, key: game.supply[key] - 1})
    return _carry_on(_acted(game, player, "build"))


def check_freedom(game: Game, seat: str, kind: str) -> None:
    """Seed 001, "Обеспечение свободы": 300 florins; "Игрок может лишь раз обеспечить в своем
    поместье свободу каждого типа. Если маркеры свободы более недоступны, то игрок не может"."""
    player = _check_action(game, seat, "freedom")
    refusal = freedom_refusal(game, player, kind)
    if refusal:
        raise IllegalMoveError(refusal)
    _afford(player, game.components.rule("freedom_price"), "a freedom")


def check_freedoms(game: Game, seat: str) -> None:
    """``check_freedom`` but for the freedom: what any freedom needs (the action, the price)."""
    player = _check_action(game, seat, "freedom")
    _afford(player, game.components.rule("freedom_price"), "a freedom")


def freedom_refusal(game: Game, player: Player, kind: str) -> str | None:
    """Why ``player`` may not take the ``kind`` freedom whatever the action and the price allow."""
    if kind not in game.components.freedoms:
        return f"no freedom {kind!r}; freedoms: {', '.join(sorted(game.components.freedoms))}"
    if kind in player.freedoms:
        return f"{player.seat} has {kind} freedom already, and an estate takes each freedom only once"
    if game.supply[f"freedom:{kind}"] <= 0:
        return (
            f"no {kind} marker is left (the game has {len(game.seats) - 1} of each, one fewer than the "
            "players)"
        )
    return None


def freedom(game: Game, seat: str, kind: str) -> Game:
    player = _pay(game.player(seat), game.components.rule("freedom_price"), "a freedom")
    player = evolve(player, freedoms=(*player.freedoms, kind))
    key = f"freedom:{kind}"
    game = evolve(game, supply={**game.supply, key: game.supply[key] - 1})
    return _carry_on(_acted(game, player, "freedom"))


def check_take(game: Game, seat: str, deck: str, card: str = "") -> None:
    """Seed 001, "Взятие карты профессии" and "Взятие карты бонуса": 300 florins, one of the top
    five cards; "Если колода ... опустела, игроки более не могут приобретать соответствующие
    карты". With the unofficial rules a profession is taken from those turned face up."""
    action = "profession" if deck == PROFESSION else "bonus"
    player = _check_action(game, seat, action)
    if deck == PROFESSION and game.unofficial:
        _check_face_up(game, card)
    elif card:
        raise IllegalMoveError(f"a {action} card is drawn from the deck, not named ('take {action}')")
    elif game.decks[deck] <= 0:
        raise IllegalMoveError(f"the {deck} deck is empty, so no {deck} card can be taken")
    _afford(player, game.components.rule(f"{action}_price"), f"a {action} card")


def _check_face_up(game: Game, card: str) -> None:
    """Unofficial rules: "За всю игру только 6 (4) карт профессий могут приобрести игроки в общей
    сумме"; "Любая карта профессии из числа карт, перевернутых рубашкой ..., может быть взята"."""
    limit = game.components.unofficial[
        "two_players_profession_limit" if len(game.seats) == 2 else "three_players_profession_limit"
    ]
    if game.professions_taken >= limit:
        raise IllegalMoveError(
            f"the {limit} profession cards a game of {len(game.seats)} allows are taken (unofficial rules: "
            f"the players take at most {limit} profession cards in the whole game)"
        )
    on_table = [game.shown[token] for token in turned(game)]
    if not on_table:
        waiting = " (the card turned up this round waits for every player's share)" if game.face_up else ""
        raise IllegalMoveError(
            "no profession card lies face up (unofficial rules: cards are turned up one a round from "
            f"round 3, and only those may be taken){waiting}"
        )
    if card not in on_table:
        raise IllegalMoveError(f"take one of the professions face up: {', '.join(on_table)}")


def turned(game: Game) -> list[str]:
    """The profession cards on the table that everyone can read: a card dealt face up is opened only
    once every player's share is in, and until then it is no card anyone can name or take."""
    return [token for token in game.face_up if token in game.shown]


def take(game: Game, seat: str, deck: str, card: str = "") -> Game:
    action = "profession" if deck == PROFESSION else "bonus"
    player = _pay(game.player(seat), game.components.rule(f"{action}_price"), f"a {action} card")
    if deck == PROFESSION and game.unofficial:
        token = cards.showing(turned(game), game.shown, card)[0]
        player = evolve(player, hand=(*player.hand, token))
        game = evolve(
            game,
            face_up=tuple(t for t in game.face_up if t != token),
            professions_taken=game.professions_taken + 1,
        )
        return _carry_on(_acted(game, player, action))
    return _draw(_acted(game, player, action), seat, deck)


def check_keep(game: Game, seat: str, token: str, under: Sequence[str]) -> None:
    """Seed 001: "выбирает одну ... Оставшиеся четыре карты игрок кладет обратно под низ колоды,
    располагая их в желаемом порядке"."""
    _ensure_turn(game, seat)
    due = _due(game, seat, KEEP)
    if token not in due.tokens:
        raise IllegalMoveError(f"{token} is not one of the cards drawn: {', '.join(due.tokens)}")
    rest = [t for t in due.tokens if t != token]
    if under and sorted(under) != sorted(rest):
        raise IllegalMoveError(f"'under' lists the other cards drawn, each once: {', '.join(rest)}")


def kept_rest(game: Game, seat: str, token: str, under: Sequence[str]) -> list[str]:
    """The cards that go under the deck, in the order they go: as listed, or as drawn."""
    due = _due(game, seat, KEEP)
    return list(under) if under else [t for t in due.tokens if t != token]


def keep(game: Game, seat: str, token: str, under: Sequence[str]) -> Game:
    due = _due(game, seat, KEEP)
    rest = kept_rest(game, seat, token, under)
    player = game.player(seat)
    if due.what == PROFESSION:
        player = evolve(player, hand=(*player.hand, token))
    elif due.what == BONUS:
        player = evolve(player, bonus=(*player.bonus, token))
    else:
        player = evolve(player, prestige_cards=(*player.prestige_cards, token))
    game = evolve(game.with_player(player), decks={**game.decks, due.what: game.decks[due.what] + len(rest)})
    return _carry_on(_without(game, due))


# --- works ------------------------------------------------------------------------------------------


def check_work(game: Game, seat: str, profession: str, bonuses: Sequence[str]) -> None:
    """Seed 001, "Создание шедевра": a profession card from the hand; bonus cards held, "Каждой
    картой бонуса игрок может играть лишь раз"; the value at least the round's minimum."""
    player = _check_action(game, seat, "work")
    if profession not in player.hand:
        raise IllegalMoveError(
            f"{seat} holds no {game.name(profession)}, and a work is made with a profession card from "
            "the hand"
        )
    for token in bonuses:
        if token not in player.bonus:
            raise IllegalMoveError(f"{seat} holds no bonus card {game.name(token)}")
    unseen = cards.hidden((profession, *bonuses), game.shown)
    if unseen:
        raise IllegalMoveError(f"a work shows its cards face up: {', '.join(unseen)} not shown")
    twice = [token for token in set(bonuses) if list(bonuses).count(token) > 1]
    if twice:
        raise IllegalMoveError(
            f"the bonus card {game.name(twice[0])} is played twice in one work, and each bonus card is "
            "played only once"
        )
    repeat = repeat_refusal(seat, game.name(profession), (work.profession for work in player.works))
    if repeat:
        raise IllegalMoveError(repeat)
    value = work_points(game, seat, profession, bonuses)
    least = game.minimum()
    if value < least:
        raise IllegalMoveError(
            f"the work is worth {value} WP, below round {game.round}'s minimum {least}, and a work must "
            "be worth at least the round's minimum"
        )


def work_points(game: Game, seat: str, profession: str, bonuses: Sequence[str]) -> int:
    """The value with the card laid out first ("кладет ее рядом со своим игровым полем", then
    "подсчитывает ценность"), counted by the companion's ``work_value``."""
    player = game.player(seat)
    laid = evolve(
        player, hand=tuple(t for t in player.hand if t != profession), laid=(*player.laid, profession)
    )
    estate = as_estate(game, laid)
    cards = [game.name(token) for token in bonuses]
    return work_value(estate, game.name(profession), cards, game.components).total


def work(game: Game, seat: str, profession: str, bonuses: Sequence[str]) -> Game:
    """The bank pays "100 флоринов за каждый WP"; the player then chooses how much to take as prestige
    (a ``PAYMENT`` follow-up), "1 очко престижа стоит 200 флоринов"."""
    value = work_points(game, seat, profession, bonuses)
    player = game.player(seat)
    player = evolve(
        player,
        hand=tuple(t for t in player.hand if t != profession),
        laid=(*player.laid, profession),
        bonus=tuple(t for t in player.bonus if t not in bonuses),
        played_bonus=(*player.played_bonus, *(game.name(t) for t in bonuses)),
        works=(*player.works, Work(game.name(profession), game.round, value)),
        florins=player.florins + value * game.components.rule("florins_per_wp"),
    )
    game = _acted(game, player, "work")
    return evolve(game, follow_ups=(*game.follow_ups, FollowUp(seat, PAYMENT, str(value))))


def check_payment(game: Game, seat: str, points: int) -> None:
    """Seed 001: "Игрок может немедленно взять полную стоимость шедевра (но не больше) или часть его
    стоимости очками престижа"; "Игрок не может конвертировать в очки престижа деньги, которые он
    не получил от создания данного шедевра"."""
    _ensure_turn(game, seat)
    due = _due(game, seat, PAYMENT)
    most = most_prestige(int(due.what), game.components)
    if points > most:
        pays = int(due.what) * game.components.rule("florins_per_wp")
        each = game.components.rule("florins_per_prestige")
        raise IllegalMoveError(
            f"a {due.what} WP work pays {pays} florins: at most {most} prestige at {each} each"
        )


def payment(game: Game, seat: str, points: int) -> Game:
    due = _due(game, seat, PAYMENT)
    value = int(due.what)
    player = game.player(seat)
    refund = value * game.components.rule("florins_per_wp") - florins_left(value, points, game.components)
    works = (*player.works[:-1], evolve(player.works[-1], prestige=points))
    player = evolve(player.gain("works", points), florins=player.florins - refund, works=works)
    return _carry_on(_without(game.with_player(player), due))


# --- recruitment ---------------------------------------------------------------------------------


def recruitable(game: Game, seat: str) -> list[tuple[str, str]]:
    """(profession, owner) pairs a recruitment card of ``seat`` could take now."""
    return [
        (game.name(token), other.seat) for other in game.players if other.seat != seat for token in other.laid
    ]


def check_recruit(game: Game, seat: str, profession: str, owner: str) -> None:
    """Seed 001, "Карты найма": the player "выбирает одну карту профессии, лежащую в раскрытом виде
    у поместья оппонента, берет ее в свою руку"; it may be used at once or "в любой момент фазы
    действия, во время своего хода" (not one of the two actions)."""
    _ensure_turn(game, seat)
    offered = any(due.seat == seat and due.kind == RECRUIT for due in game.follow_ups[:1])
    if not offered and (game.phase != ACTIONS or game.follow_ups):
        raise IllegalMoveError(
            "a recruitment card is played when it is won, or on one's own turn in the action phase"
        )
    player = game.player(seat)
    if player.recruitment <= 0:
        raise IllegalMoveError(f"{seat} holds no recruitment card")
    if owner not in game.seats or owner == seat:
        raise IllegalMoveError("a recruitment card takes a card laid out by an opponent's estate")
    if (profession, owner) not in recruitable(game, seat):
        laid = ", ".join(game.name(t) for t in game.player(owner).laid) or "none"
        raise IllegalMoveError(
            f"the {profession} does not lie face up by {owner}'s estate (laid out: {laid})"
        )


def recruit(game: Game, seat: str, profession: str, owner: str) -> Game:
    other = game.player(owner)
    token = next(t for t in other.laid if game.name(t) == profession)
    game = game.with_player(evolve(other, laid=tuple(t for t in other.laid if t != token)))
    player = game.player(seat)
    player = evolve(
        player, hand=(*player.hand, token), recruitment=player.recruitment - 1, recruited=player.recruited + 1
    )
    game = game.with_player(player)
    offered = [due for due in game.follow_ups[:1] if due.seat == seat and due.kind == RECRUIT]
    if offered:
        return _carry_on(_without(game, offered[0]))
    return game


def decline(game: Game, seat: str) -> Game:
    """An offer left: a recruitment card kept for later."""
    return _carry_on(_without(game, _due(game, seat, RECRUIT)))


def end_turn(game: Game, seat: str) -> Game:
    """ "Каждый участник игры ... может совершить 2 действия": fewer is allowed; a pass ends the turn."""
    player = game.player(seat)
    limit = game.components.rule("actions_per_round")
    game = game.with_player(
        evolve(player, actions=(*player.actions, *["pass"] * (limit - len(player.actions))))
    )
    return _carry_on(game)


# --- moving on -----------------------------------------------------------------------------------


def _carry_on(game: Game) -> Game:
    """After a move and its follow-ups: the auction goes on, or the turn passes, or the round ends."""
    if game.follow_ups:
        return game
    if game.phase == AUCTION:
        return _settle_auctions(game)
    if game.phase != ACTIONS:
        return game
    player = game.player(game.turn)
    if len(player.actions) < game.components.rule("actions_per_round"):
        return game
    following = after(game.seats, game.turn)
    if following != game.first:
        return evolve(game, turn=following)
    return end_round(game)


def end_round(game: Game) -> Game:
    """Seed 001, "Определение лучшего шедевра": the round's best work gains 3 prestige, every tied
    player too; "Если никто ... не создал шедевр в данный раунд, очки престижа ... не начисляются".
    "Новый раунд": the black figure passes to the left. "Игра заканчивается в конце 7 раунда.
    Игроки открывают свои карты престижа"."""
    best = {
        player.seat: max(work.value for work in player.works if work.round == game.round)
        for player in game.players
        if any(work.round == game.round for work in player.works)
    }
    value, makers = best_of(best, game.seats)
    for seat in makers:
        game = game.with_player(
            game.player(seat).gain("best work", game.components.rule("best_work_prestige"))
        )
    game = evolve(game, best=(*game.best, (value, tuple(makers))))
    if game.round < game.components.rule("rounds"):
        return begin_round(evolve(game, first=after(game.seats, game.first)), game.round + 1)
    players = tuple(evolve(player, out=False) for player in game.players)
    game = evolve(game, players=players, turn="", phase=REVEAL)
    return game if actors(game) else evolve(game, phase=OVER)


def check_reveal(game: Game, seat: str, token: str) -> None:
    """The card is named (``revealed``) before this check, so the seat is asked by the phase, not by
    the cards it still holds face down; the engine refuses a card shown twice."""
    if game.phase != REVEAL or game.player(seat).out:
        raise IllegalMoveError("prestige cards are turned up only at the end of the game")
    if token not in game.player(seat).prestige_cards:
        raise IllegalMoveError(f"{seat} holds no prestige card {token}")


def reveal(game: Game, seat: str, token: str) -> Game:
    return evolve(game, phase=REVEAL) if actors(game) else evolve(game, phase=OVER)


def keep_hidden(game: Game, seat: str) -> Game:
    """A prestige card left face down at the end scores nothing: only a card turned up is checked
    ("открывают свои карты престижа и если они выполнили условия")."""
    game = game.with_player(evolve(game.player(seat), out=True))
    return game if actors(game) else evolve(game, phase=OVER)


# --- selling prestige ----------------------------------------------------------------------------


def check_sell(game: Game, seat: str, points: int) -> None:
    """Seed 001, "Получение денег": "Игрок может переместить свою фигурку назад по треку престижа.
    За каждое потерянное очко престижа игрок получает 100 флоринов"."""
    if game.phase in (DEAL, OVER):
        raise IllegalMoveError("prestige is sold while the rounds are played")
    player = game.player(seat)
    if points < 1 or points > player.points:
        raise IllegalMoveError(f"{seat} has {player.points} prestige on the track, not {points}")


def sell(game: Game, seat: str, points: int) -> Game:
    player = game.player(seat)
    player = evolve(
        player.gain("sold", -points), florins=player.florins + points * game.components.rule("sell_prestige")
    )
    return game.with_player(player)
