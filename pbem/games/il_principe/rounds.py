"""The rounds of an Il Principe game by email (seed 002, "Tour de jeu" to "Fin du jeu"): phase 1's
ducats, draws and sealed reserve, the auctions of phase 2, the actions of phase 3, the roles of
phase 4 and the two ends of the game.

Every ``check_*`` only reads and raises IllegalMoveError in one line naming the rule; every other
public function takes a game and returns a new one. What the companion computes is computed here by
the same functions (``actions.next_group``, ``actions.city_role_points``, ``roles.majority_of``,
``roles.steps``, ``roles.turned_down``), read from the game's own state: the companion's table
(``state.as_table``) is made only for the scoring.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from pbem.engine.ruleset import DrawRequest
from pbem.errors import IllegalMoveError
from pbem.games.il_principe import actions, roles
from pbem.games.il_principe.components import COLOURS, check_icons
from pbem.games.il_principe.moves import TOKEN
from pbem.games.il_principe.state import (
    ACTIONS,
    AUCTION,
    BUILD,
    DECK,
    OVER,
    RESERVE,
    ROLES,
    SHIELD,
    SHOW,
    TURN_UP,
    Game,
    Player,
    add,
    counts,
)
from pbem.games.il_principe.table.state import Step
from pbem.kit.auction import Auction, Raise
from pbem.kit.cards import answered, dealing_face_up, draws, with_shown
from pbem.kit.frozen import evolve
from pbem.kit.seats import FollowUp, after, check_turn, clockwise, first, move_step

# --- who acts ------------------------------------------------------------------------------------


def waiting(game: Game) -> bool:
    """Whether play waits for the engine: a card drawn, a card dealt face up, a random event."""
    return bool(game.drawing or game.dealt_up or game.city_draws or game.reuse)


def actors(game: Game) -> list[str]:
    # Asked several times a move (who is asked, who may move, the legal moves): ``waiting`` and
    # ``whose_turn`` written out.
    if game.phase == OVER or game.drawing or game.dealt_up or game.city_draws or game.reuse:
        return []
    if game.follow_ups:
        return [game.follow_ups[0].seat]
    if game.auction is not None:
        return [game.auction.turn]
    if game.phase == RESERVE:
        return [player.seat for player in game.players if player.reserved is None]
    if game.phase == SHOW:
        return [player.seat for player in game.players if unshown(player)]
    if game.phase == ACTIONS:
        return [game.turn]
    return []


def unshown(player: Player) -> list[str]:
    return list(filter(_is_token, player.reserved or ()))  # no Python frame for each card


@functools.cache
def _is_token(card: str) -> bool:
    """Whether a card of a reserve is a token, found once for each card (no more than the deck's
    tokens and the colours): who has a reserve to show is asked several times a move."""
    return TOKEN.fullmatch(card) is not None


def step(game: Game) -> str:
    """The current step's name, unique in the game; the sealed reserve is one step for all."""
    if game.phase == RESERVE:
        return f"round {game.round} reserve"
    return move_step(game.round, game.phase, game.follow_ups, game.moves)


def _ensure_turn(game: Game, seat: str) -> None:
    asked = actors(game)
    if seat not in asked:  # every move is checked: the refusal is written only when there is one
        check_turn(seat, asked, "a card or a city is being turned up")


# --- cards ---------------------------------------------------------------------------------------


def drawn(game: Game, request: DrawRequest, token: str) -> Game:
    drawing = game.drawing
    # The request the state asked (the dealer hands it back) is the oldest without comparing
    # its fields; any other is checked by ``answered``.
    drawing = drawing[1:] if drawing and drawing[0] is request else answered(drawing, request)
    if request.face_up:
        return evolve(game, drawing=drawing, dealt_up=(*game.dealt_up, token))
    player = game.player(request.seat)
    return evolve(game, drawing=drawing, players=game.seated(evolve(player, hand=(*player.hand, token))))


def revealed(game: Game, token: str, card: str) -> Game:
    if token in game.dealt_up:
        # The last round: « les cartes sont tirées de la pioche pour la mise aux enchères ».
        game = evolve(
            game,
            dealt_up=tuple(t for t in game.dealt_up if t != token),
            reserve=add(game.reserve, card),
        )
        return _advance(game)
    return evolve(game, shown=with_shown(game.shown, token, card))


def turn_up_cities(game: Game, order: Sequence[str]) -> Game:
    """« Une nouvelle carte Cité est tirée de la pioche et posée face visible »: the first of a
    uniform order of the cards not yet turned up."""
    taken = tuple(order[: game.city_draws])
    pool = tuple(city for city in game.pool if city not in taken)
    return _advance(evolve(game, face_up=(*game.face_up, *taken), pool=pool, city_draws=0))


def reuse_removed(game: Game, order: Sequence[str]) -> Game:
    """Text A: « S'il n'y a pas assez de cartes dans la pioche, réutiliser des cartes déjà
    défaussées »: the first of a uniform order of the cards removed from play."""
    taken = list(order[: game.reuse])
    removed, reserve = game.removed, game.reserve
    for colour in taken:
        removed = add(removed, colour, -1)
        reserve = add(reserve, colour)
    return _advance(evolve(game, removed=removed, reserve=reserve, reuse=0))


def removed_cards(game: Game) -> list[str]:
    return [colour for colour, number in zip(COLOURS, game.removed, strict=True) for _ in range(number)]


def _turn_up_city(game: Game) -> Game:
    if game.cities_left <= 0:
        return game
    return evolve(game, city_draws=game.city_draws + 1, cities_left=game.cities_left - 1)


# --- phase 1 -------------------------------------------------------------------------------------


def start(game: Game) -> Game:
    """« Tirer les 4 premières cartes Cité et les mettre face visible », then the first round."""
    wanted = game.rule("face_up_cities")
    game = evolve(game, city_draws=wanted, cities_left=game.cities_left - wanted)
    return begin_round(game, 1)


def begin_round(game: Game, round_: int) -> Game:
    """Phase 1. The game ends at once if « il reste moins de 4 cartes Cités disponibles »; a pile
    below 12/16/20 cards (10 with 2 players) makes this the last round, without phase 1's draw and
    with the auction's cards drawn from the pile. Otherwise each seat « Reçoit 5 pièces de monnaie
    ... Pioche 4 cartes » (6 ducats with the « Variante » or 2 players; 5 cards with 2 players)."""
    rules = game.settings.rules
    if len(game.face_up) + game.city_draws < game.rule("face_up_cities") or game.deck < rules.threshold:
        game = _new_round(game, round_, tuple(evolve(p, reserved=None, wins=0) for p in game.players))
        if len(game.face_up) + game.city_draws < game.rule("face_up_cities"):
            return evolve(game, phase=OVER)
        return _last_round(game)
    # The round set up and phase 1's ducats and draws, in one copy.
    order = clockwise(game.seats, game.principe)
    players = tuple(evolve(p, reserved=None, wins=0, ducats=p.ducats + rules.income) for p in game.players)
    drawing = tuple(request for seat in order for request in draws(DECK, seat, rules.draw))
    return _new_round(
        game,
        round_,
        players,
        deck=game.deck - len(drawing),
        drawing=(*game.drawing, *drawing),
        phase=RESERVE,
    )


def _new_round(game: Game, round_: int, players: tuple[Player, ...], **more: Any) -> Game:
    """``game`` at the start of round ``round_``: the last round's reserve, auction, turns and
    role steps cleared, ``players`` seated, and ``more`` set, in one copy."""
    return evolve(
        game,
        round=round_,
        players=players,
        reserve=counts(),
        auction=None,
        follow_ups=(),
        turn="",
        acted=(),
        role_steps=(),
        colours_left=(),
        **more,
    )


def last_draw(game: Game) -> tuple[int, int] | None:
    """The last round's cards for auction: (from the pile, from the cards removed), or None when
    text B's reading ends the game (« Si il n'y a pas assez de cartes dans la pile, le jeu prend fin
    immédiatement »). 3 to 5 players: « 6 cartes pour 3 joueurs, 8 ... 4 joueurs et 10 ... 5
    joueurs »; 2 players: « tirer 6 cartes ... (ou toutes celles restantes) » (text A) or « toutes
    les cartes restantes » (text B)."""
    wanted = game.settings.rules.last_draw
    if not wanted:
        if game.reading("two-players-last-round") == "all":
            return game.deck, 0
        return min(game.rule("two_players_last_round_draw"), game.deck), 0
    if game.deck >= wanted:
        return wanted, 0
    if game.reading("short-pile") == "game-ends":
        return None
    return game.deck, min(wanted - game.deck, sum(game.removed))


def _last_round(game: Game) -> Game:
    found = last_draw(game)
    if found is None:
        return evolve(game, phase=OVER)
    from_pile, reused = found
    # Text B: « les joueurs reçoivent uniquement leurs ducats »; text A: « La phase 1 est supprimée ».
    paid = 0 if game.reading("last-round-ducats") == "none" else game.settings.rules.income
    players = tuple(evolve(p, ducats=p.ducats + paid, reserved=()) for p in game.players)
    game = evolve(
        game,
        players=players,
        last_round=True,
        phase=AUCTION,
        deck=game.deck - from_pile,
        drawing=(*game.drawing, *draws(DECK, game.principe, from_pile, face_up=True)),
        reuse=reused,
    )
    return _advance(game)


def check_reserve(game: Game, seat: str, cards: Sequence[str]) -> None:
    """« Choisit 2 cartes édifices de sa main et les pose face cachée » (3 with 2 players)."""
    if game.phase != RESERVE:
        raise IllegalMoveError(f"the reserve is made in phase 1; now is round {game.round}'s {game.phase}")
    _ensure_turn(game, seat)
    wanted = game.settings.rules.reserve
    if len(cards) != wanted:
        raise IllegalMoveError(
            f"each seat puts {wanted} cards from its hand face down in the reserve, not {len(cards)}"
        )
    _check_held(game.player(seat), cards)


def _check_held(player: Player, cards: Sequence[str]) -> None:
    tokens = [card for card in cards if TOKEN.fullmatch(card)]
    if len(set(tokens)) != len(tokens):
        raise IllegalMoveError("a card is named twice")
    for token in tokens:
        if token not in player.hand:
            raise IllegalMoveError(f"{player.seat} holds no {token}")
    # each colour named, in the order first named (a Counter's, at a fraction of its cost)
    public = [card for card in cards if card in COLOURS]
    for colour in dict.fromkeys(public):
        number = public.count(colour)
        held = player.known[COLOURS.index(colour)]
        if number > held:
            raise IllegalMoveError(f"{player.seat} holds {held} public {colour} card(s), not {number}")


def _take(player: Player, cards: Sequence[str], reserved: tuple[str, ...] | None = None) -> Player:
    """``player`` without ``cards``, and with ``reserved`` as its reserve where given (set in
    the same copy)."""
    known = player.known
    for card in cards:
        if card in COLOURS:
            known = add(known, card, -1)
    hand = tuple(t for t in player.hand if t not in cards)
    if reserved is None:
        return evolve(player, hand=hand, known=known)
    return evolve(player, hand=hand, known=known, reserved=reserved)


def reserve(game: Game, seat: str, cards: Sequence[str]) -> Game:
    """A sealed reserve, revealed: public cards join the reserve now, the others once shown."""
    players = game.seated(_take(game.player(seat), cards, reserved=tuple(cards)))
    public = [card for card in cards if card in COLOURS]
    pooled = tuple(a + b for a, b in zip(game.reserve, counts(public), strict=True))
    if any(p.reserved is None for p in players):
        return evolve(game, players=players, reserve=pooled)
    return _advance(evolve(game, players=players, reserve=pooled, phase=SHOW))


def check_show(game: Game, seat: str) -> None:
    if game.phase != SHOW:
        raise IllegalMoveError("the reserve's cards are turned face up once every reserve is revealed")
    _ensure_turn(game, seat)


def show(game: Game, seat: str) -> Game:
    """« Retourner face visible les cartes qui viennent d'être posées et les grouper par couleur »."""
    player = game.player(seat)
    colours = [game.shown[token] for token in unshown(player)]
    public = [card for card in player.reserved or () if card in COLOURS]
    return _advance(
        evolve(
            game,
            players=game.seated(evolve(player, reserved=(*public, *colours))),
            reserve=tuple(a + b for a, b in zip(game.reserve, counts(colours), strict=True)),
        )
    )


# --- phase 2 and the auctions of phase 4 -----------------------------------------------------------

# « Chaque enchère doit être plus élevée que la précédente »: the first bid may be 0.
RAISE = Raise(step=1)


def _open(game: Game, lot: str, among: Sequence[str], steps: tuple[Step, ...] | None = None) -> Game:
    """« Le joueur à la gauche de Il Principe commence chaque enchère »; ``steps``: phase 4's
    steps left after this auction, set in the same copy."""
    pool = tuple(seat for seat in game.seats if seat in among)
    auction = Auction(lot, pool, after(game.seats, game.principe, pool))
    if steps is None:
        return evolve(game, auction=auction)
    return evolve(game, auction=auction, role_steps=steps)


def check_bid(game: Game, seat: str, amount: int) -> None:
    """« Chaque enchère doit être plus élevée que la précédente », paid « à la banque »."""
    _ensure_turn(game, seat)
    auction = game.auction
    if auction is None:
        raise IllegalMoveError("nothing is being auctioned now")
    if not RAISE.allows(auction, amount):
        raise IllegalMoveError(
            f"{amount} is not more than {auction.leader}'s {auction.price}: each bid must be higher "
            "than the one before"
        )
    ducats = game.player(seat).ducats
    if amount > ducats:
        raise IllegalMoveError(f"{seat} has {ducats} ducats and cannot bid {amount}")


def bid(game: Game, seat: str, amount: int) -> Game:
    auction = game.auction
    assert auction is not None
    return _after_turn(game, auction.answered(seat, amount))


def check_pass_bid(game: Game, seat: str) -> None:
    _ensure_turn(game, seat)


def pass_bid(game: Game, seat: str) -> Game:
    """« Les joueurs qui ont passé leur tour ne peuvent plus participer à l'enchère »."""
    auction = game.auction
    assert auction is not None
    return _after_turn(game, auction.answered(seat, None))


def _after_turn(game: Game, auction: Auction[str]) -> Game:
    """« Les enchères continuent jusqu'à ce qu'il ne reste plus qu'un seul joueur à ne pas
    passer »; « Si tout le monde passe ... le groupe de cartes est retiré du jeu ». ``auction``
    has its turn moved on already where it goes on."""
    if auction.over:
        return _won(game, auction.lot, auction.winner, auction.price)
    return evolve(game, auction=auction)


def _won(game: Game, lot: str, seat: str, price: int) -> Game:
    """The auction of ``game`` is over: it closes, and ``seat`` ("" for nobody) takes the lot."""
    if lot in COLOURS:
        count = game.reserve[COLOURS.index(lot)]
        reserve = add(game.reserve, lot, -count)
        if not seat:
            return _advance(
                evolve(game, auction=None, reserve=reserve, removed=add(game.removed, lot, count))
            )
        player = game.player(seat)
        player = evolve(
            player, ducats=player.ducats - price, known=add(player.known, lot, count), wins=player.wins + 1
        )
        # « Peut construire 1 cité »: asked only where the table does not already rule it out.
        follow_ups = (FollowUp(seat, BUILD),) if _could_build(game, player) else game.follow_ups
        players = game.seated(player)
        return _advance(
            evolve(game, auction=None, reserve=reserve, players=players, principe=seat, follow_ups=follow_ups)
        )
    # A tied role: « paie la somme à la banque, gagne la tuile du Rôle et le pion Il Principe »;
    # « Si tout le monde passe ... la tuile de Rôle reste sur le plateau ».
    if seat:
        player = evolve(game.player(seat), ducats=game.player(seat).ducats - price)
        return _advance(_give(evolve(game, auction=None, principe=seat), lot, player, game.role_steps))
    return _advance(evolve(game, auction=None))


# --- building a city -------------------------------------------------------------------------------


def builds_allowed(game: Game) -> bool:
    """« au premier tour du jeu, il est interdit de construire une Cité », but for the « Variante »."""
    return game.round > 1 or game.settings.rules.build_first_round


def could_build(game: Game, seat: str) -> bool:
    """Whether what everyone sees leaves ``seat`` a city it might build."""
    return _could_build(game, game.player(seat))


def _could_build(game: Game, player: Player) -> bool:
    if not builds_allowed(game):
        return False
    return any(
        game.components.cities[city].cost <= player.ducats
        and len(game.components.cities[city].icons) <= player.hand_size
        for city in game.face_up
    )


def shields_due(game: Game, player: Player, city: str) -> int:
    """« Si un joueur n'a plus de bouclier, il n'en place plus »."""
    left = game.rule("shields_per_family") - player.shields_placed
    return min(game.components.cities[city].shields, left)


def _colours_of(game: Game, cards: Sequence[str]) -> list[str]:
    return [card if card in COLOURS else game.shown.get(card, "?") for card in cards]


def check_build(game: Game, seat: str, city: str, cards: Sequence[str], regions: Sequence[str]) -> None:
    """« Construire une cité »: a face-up city, a card from the hand per icon, its cost, and 1 or 2
    shields « sur les régions adjacentes à la cité »."""
    _ensure_turn(game, seat)
    due = first(game.follow_ups)
    if due is not None and due.kind != BUILD:
        raise IllegalMoveError(f"{seat} must first finish the {due.kind} of the {due.what}")
    if due is None and game.phase != ACTIONS:
        raise IllegalMoveError("a city is built in phase 3, or at once by the winner of a group")
    if not builds_allowed(game):
        raise IllegalMoveError("no city may be built in the first round of the game")
    if city not in game.face_up:
        up = ", ".join(game.face_up) or "none"
        raise IllegalMoveError(f"{city!r} is not face up, and only the cities face up may be built: {up}")
    card = game.components.cities[city]
    player = game.player(seat)
    _check_held(player, cards)
    colours = sorted(_colours_of(game, cards), key=lambda c: COLOURS.index(c) if c in COLOURS else 9)
    icons = sorted(card.icons, key=COLOURS.index)
    if colours != icons:
        raise IllegalMoveError(
            f"{city} takes {' '.join(icons)}, one building card for each of its icons, "
            f"not {' '.join(colours)}"
        )
    problem = check_icons(card.size, card.icons)
    if problem:
        raise IllegalMoveError(f"{city}: {problem}")
    if player.ducats < card.cost:
        raise IllegalMoveError(f"{seat} has {player.ducats} ducats; {city} costs {card.cost}")
    wanted = shields_due(game, player, city)
    if len(regions) != wanted:
        raise IllegalMoveError(
            f"{seat} places {wanted} shield(s) for {city} (1 for a small city, 2 for a larger one, "
            f"while shields remain): 'shields REGION ...', not {len(regions)}"
        )
    for region in regions:
        if region not in card.regions:
            raise IllegalMoveError(
                f"{region!r} does not touch {city}, and shields go in the regions it touches: "
                f"{', '.join(card.regions)}"
            )


def build(game: Game, seat: str, city: str, cards: Sequence[str], regions: Sequence[str]) -> Game:
    """The builder pays, scores the card, places its shields; every other seat scores its roles in
    the city's colours (« 2 PVs pour chaque Rôle Majeur concerné, 1 PV pour chaque Rôle Mineur »,
    once a colour); a new city is turned up."""
    card = game.components.cities[city]
    colours = _colours_of(game, cards)
    player = _take(game.player(seat), cards)
    shields = dict(player.shields)
    for region in regions:
        shields[region] = shields.get(region, 0) + 1
    up = tuple(a + b for a, b in zip(player.up, counts(colours), strict=True))
    player = evolve(
        player,
        ducats=player.ducats - card.cost,
        vp=player.vp + card.vp,
        up=up,
        shields=shields,
        cities=(*player.cities, city),
    )
    game = game.with_player(player)
    for name, points in actions.city_role_points(game.roles, game.components, seat, card.icons).items():
        other = game.player(name)
        game = game.with_player(evolve(other, vp=other.vp + points))
    game = evolve(
        game,
        face_up=tuple(c for c in game.face_up if c != city),
        built={**game.built, city: seat},
    )
    game = _turn_up_city(game)
    if game.follow_ups and game.follow_ups[0].kind == BUILD:
        return _advance(evolve(game, follow_ups=game.follow_ups[1:]))
    return _end_action(game, seat)


def check_decline(game: Game, seat: str) -> None:
    _ensure_turn(game, seat)
    due = first(game.follow_ups)
    if due is not None and due.kind == SHIELD:
        raise IllegalMoveError(f"the {due.what} must place a shield: 'shield REGION'")
    if due is None and game.auction is None and game.phase != ACTIONS:
        raise IllegalMoveError(f"there is nothing to pass in the {game.phase}")


def decline(game: Game, seat: str) -> Game:
    """A pass: on a bid, on the city a win allows, on the green role's card, or on phase 3's action."""
    if game.follow_ups:
        return _advance(evolve(game, follow_ups=game.follow_ups[1:]))
    if game.auction is not None:
        return pass_bid(game, seat)
    return _end_action(game, seat)


# --- phase 3 ---------------------------------------------------------------------------------------


def _begin_actions(game: Game) -> Game:
    """« En commençant par le joueur Il Principe ... chaque joueur fait une seule action »."""
    return evolve(game, phase=ACTIONS, turn=game.principe, acted=())


def check_play(game: Game, seat: str, cards: Sequence[str]) -> None:
    """« autant de cartes Bâtiment qu'il le souhaite mais elles doivent être toutes de la même
    couleur »."""
    _ensure_turn(game, seat)
    if game.phase != ACTIONS or game.follow_ups or game.auction is not None:
        raise IllegalMoveError("cards are played from the hand as phase 3's action")
    _check_held(game.player(seat), cards)
    colours = set(_colours_of(game, cards))
    if len(colours) > 1:
        raise IllegalMoveError(
            f"the cards played must all be of one colour, not {', '.join(sorted(colours))}"
        )


def play(game: Game, seat: str, cards: Sequence[str]) -> Game:
    colours = _colours_of(game, cards)
    player = _take(game.player(seat), cards)
    up = tuple(a + b for a, b in zip(player.up, counts(colours), strict=True))
    return _end_action(game, seat, game.seated(evolve(player, up=up)))


def _end_action(game: Game, seat: str, players: tuple[Player, ...] | None = None) -> Game:
    """The next seat's action, or phase 4 once every seat has acted: « Chaque joueur replace les
    tuiles des Rôles », then the colours in order. ``players``: as the action left them, set in
    the same copy."""
    acted = (*game.acted, seat)
    players = game.players if players is None else players
    if len(acted) == len(game.seats):
        roles_begun = evolve(
            game,
            players=players,
            acted=acted,
            turn="",
            phase=ROLES,
            roles={},
            role_steps=(),
            colours_left=COLOURS,
        )
        return _advance(roles_begun)
    return _advance(evolve(game, players=players, acted=acted, turn=after(game.seats, seat)))


# --- phase 4 ---------------------------------------------------------------------------------------


def _give(game: Game, role: str, player: Player, steps: tuple[Step, ...]) -> Game:
    """The holder (``player`` as it stands) takes the tile and turns half its face-up cards of the
    colour down (a major role); its effect comes next (« le joueur contrôlant le Rôle Majeur en
    premier »), before the role ``steps`` left."""
    colour, rank = role.split()
    seat = player.seat
    if rank == "major":
        turned = roles.turned_down(player.up[COLOURS.index(colour)])
        player = evolve(player, up=add(player.up, colour, -turned), down=add(player.down, colour, turned))
    return evolve(
        game,
        players=game.seated(player),
        roles={**game.roles, role: seat},
        role_steps=(Step("effect", role, (seat,)), *steps),
    )


def _effect(game: Game, role: str, seat: str, steps: tuple[Step, ...]) -> Game:
    """« Les tuiles de Rôle »: turn a card up (not of the role's colour), 1 VP, draw a card, place
    a shield, 2 ducats. ``steps``: phase 4's steps left after it, set in the same copy."""
    colour = role.split(maxsplit=1)[0]
    kind, amount = game.components.role_effect(role)
    player = game.player(seat)
    if kind == "vp":
        return evolve(game, players=game.seated(evolve(player, vp=player.vp + amount)), role_steps=steps)
    if kind == "ducats":
        players = game.seated(evolve(player, ducats=player.ducats + amount))
        return evolve(game, players=players, role_steps=steps)
    if kind == "draw":
        drawn = min(amount, game.deck)
        drawing = (*game.drawing, *draws(DECK, seat, drawn))
        return evolve(game, deck=game.deck - drawn, drawing=drawing, role_steps=steps)
    if kind == "turn-up":
        if any(player.down[i] for i, other in enumerate(COLOURS) if other != colour):
            return evolve(game, follow_ups=(FollowUp(seat, TURN_UP, role),), role_steps=steps)
        return evolve(game, role_steps=steps)
    if player.shields_placed < game.rule("shields_per_family"):
        return evolve(game, follow_ups=(FollowUp(seat, SHIELD, role),), role_steps=steps)
    return evolve(game, role_steps=steps)


def check_turn_up(game: Game, seat: str, colour: str) -> None:
    """Green: « Le joueur retourne 1 carte Bâtiment (sauf une verte) devant lui »."""
    _ensure_turn(game, seat)
    due = first(game.follow_ups)
    if due is None or due.kind != TURN_UP:
        raise IllegalMoveError("a card is turned up only by the green role's effect")
    own = due.what.split()[0]
    if colour == own:
        raise IllegalMoveError(f"the {due.what} turns up a card of any colour but {own}")
    if not game.player(seat).down[COLOURS.index(colour)]:
        raise IllegalMoveError(f"{seat} has no face-down {colour} card")


def turn_up(game: Game, seat: str, colour: str) -> Game:
    player = game.player(seat)
    player = evolve(player, down=add(player.down, colour, -1), up=add(player.up, colour))
    return _advance(evolve(game.with_player(player), follow_ups=game.follow_ups[1:]))


def check_shield(game: Game, seat: str, region: str) -> None:
    """Blue: « place l'un de ses blasons dans n'importe quelle région »."""
    _ensure_turn(game, seat)
    due = first(game.follow_ups)
    if due is None or due.kind != SHIELD:
        raise IllegalMoveError("a shield is placed alone only by the blue role's effect")
    if region not in game.components.regions:
        raise IllegalMoveError(f"no region {region!r}: {', '.join(sorted(game.components.regions))}")


def shield(game: Game, seat: str, region: str) -> Game:
    player = game.player(seat)
    shields = {**player.shields, region: player.shields.get(region, 0) + 1}
    game = game.with_player(evolve(player, shields=shields))
    return _advance(evolve(game, follow_ups=game.follow_ups[1:]))


# --- moving on -------------------------------------------------------------------------------------


def _advance(game: Game) -> Game:
    """Go on until a seat must choose or the engine must deal: the next group, phase 3, the next
    role step, the next round."""
    while not game.follow_ups and game.auction is None and game.phase != OVER:
        if game.phase == SHOW:
            if any(unshown(player) for player in game.players):
                return game
            game = evolve(game, phase=AUCTION)
            continue
        if game.phase == AUCTION:
            if game.dealt_up or game.reuse or dealing_face_up(game.drawing):
                return game
            colour = actions.next_group(dict(zip(COLOURS, game.reserve, strict=True)))
            if colour is None:
                return _begin_actions(game)
            return _open(game, colour, game.seats)
        if game.phase == ROLES:
            game = _role_step(game)
            continue
        return game
    return game


def _role_step(game: Game) -> Game:
    if game.role_steps:
        head, rest = game.role_steps[0], game.role_steps[1:]
        if head.kind == "give":
            return _give(game, head.role, game.player(head.players[0]), rest)
        if head.kind == "auction":
            return _open(game, head.role, head.players, rest)
        return _effect(game, head.role, head.players[0], rest)
    # The next colour whose cards give a role: roles.plan, read from the players' cards face up
    # rather than from a table made of them. A colour nobody holds face up gives none, and play
    # moves on to the next in the same copy.
    left = game.colours_left
    while left:
        colour, left = left[0], left[1:]
        index = COLOURS.index(colour)
        counts = {player.seat: player.up[index] for player in game.players if player.up[index] > 0}
        found = roles.majority_of(colour, counts, game.seats, game.settings.rules.minor_roles)
        steps = tuple(roles.steps(found))
        if steps:
            return evolve(game, colours_left=left, role_steps=steps)
    if game.last_round:
        return evolve(game, colours_left=left, phase=OVER)
    return begin_round(game, game.round + 1)  # which sets colours_left aside with the round's rest
