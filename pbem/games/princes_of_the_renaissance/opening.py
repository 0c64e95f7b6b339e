"""The opening of Princes of the Renaissance: turn order and the choice of families.

Rules texts: seed 000 (2016 rulebook, "Выбор Стартовых Семей и Порядок Хода"), seed 003 (2003
summary) and seed 004 (reference manual, setup step 2).

- 2016, ``turn_order=bid``: every player secretly bids gold for turn order; bids are revealed
  together; the highest bidder is first, and so on; ties are broken at random. Then, starting
  from the last player, the player with the lowest bid on the table raises it above the highest
  bid or passes (a pass is final) until all but one have passed. The highest bidder picks a
  family first, then the next highest, so the first to pass picks last. All bids are paid.
- 2016, ``turn_order=dice`` (the beginners' alternative): dice decide the turn order, the player
  with the worst marker picks a family first, then everyone pays 5 gold. Rolling until no two
  players tie is the same as drawing a random order, which is what the engine does.
- 2003, ``turn_order=bid``: the same bidding (seed 004's alternative). 2003, ``turn_order=dice``:
  a randomly chosen first player, turn order clockwise (the seats' order) from them, and families
  picked clockwise from the first player (seed 004, setup and "Turn Order"), with nothing paid.

The random tie-break is drawn from the randomness every player adds with their reveal: it is asked
for once every bid is sealed, so it costs no extra email and nobody can know it while bidding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.crypto.randomness import Draws
from pbem.engine.declaration import OptionValue
from pbem.engine.ruleset import RandomRequest
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import decade
from pbem.games.princes_of_the_renaissance.components import FAMILIES, Components
from pbem.games.princes_of_the_renaissance.state import (
    BID_STEP,
    FAMILY_BIDDING,
    FAMILY_CHOICE,
    ORDER_DRAW,
    SETUP_DRAW,
    TIE_BREAK,
    Game,
    Player,
)
from pbem.kit.stand_in import Defaults

FAMILY_NAMES = {
    "baglioni": "Baglioni",
    "bentivoglio": "Bentivoglio",
    "este": "d'Este",
    "gonzaga": "Gonzaga",
    "malatesta": "Malatesta",
    "montefeltro": "Montefeltro",
}


# What each Family tile does, in short (seed 000, "Описание Тайлов: Тайлы Семей"), shown beside
# each family a player may choose.
FAMILY_POWERS = {
    "baglioni-a": "1 off the price of every auction you win, in gold or influence",
    "baglioni-b": "1 off the price of every auction you win in the currency you declare each decade",
    "bentivoglio-a": "buying a Treachery card, draw 2 and keep 1 (the other goes under the deck); "
    "at the end, you may say which city wins a tie on Artist tiles",
    "bentivoglio-b": "buying a Treachery card, draw 2 and keep 1 (the other goes under the deck)",
    "este-a": "+1 defence in every war you fight as a condottiere; Artillery may be bought in decade I",
    "este-b": "+1 defence in every war you fight as a condottiere",
    "gonzaga-a": "2 gold off the price of every auction in gold you win",
    "gonzaga-b": "1 gold off the price of every auction in gold you win",
    "malatesta-a": "a hand of 3 Treachery cards; one free Treachery card a decade, on your turn",
    "malatesta-b": "a hand of 3 Treachery cards",
    "montefeltro-a": "2 influence off the price of every auction in influence you win",
    "montefeltro-b": "1 influence off the price of every auction in influence you win",
}


def family_power(state: Game, family: str) -> str:
    """What the family's tile does on the side this game plays, with the income it prints."""
    tile = state.components.family(family, state.side)
    return f"{FAMILY_POWERS[tile.ability]}; income {tile.gold} gold, {tile.influence} influence"


def setup(
    seats: Sequence[str], edition: str, options: Mapping[str, OptionValue], components: Components
) -> Game:
    turn_order = str(options["turn_order"])
    gold, influence = components.rule("start_gold"), components.rule("start_influence")
    players = {seat: Player(gold, influence) for seat in seats}
    if turn_order == "dice":
        phase = ORDER_DRAW
    elif components.rule("city_tiles_drawn"):
        phase = SETUP_DRAW  # the City tiles are drawn before anyone bids (2016 setup step 5)
    else:
        phase = BID_STEP
    game = Game(
        edition,
        turn_order,
        str(options["family_side"]),
        components,
        tuple(seats),
        players,
        phase,
        defaults=Defaults.of(options),
    )
    decade.lay_out(game)
    return game


def random_requests(state: Game) -> list[RandomRequest]:
    if state.phase == SETUP_DRAW:
        return [RandomRequest(SETUP_DRAW)]
    if state.phase == ORDER_DRAW:
        return [RandomRequest(ORDER_DRAW)]
    if state.turn_order == "bid" and state.tie_break is None and state.phase == BID_STEP:
        return [RandomRequest(TIE_BREAK, after_sealing=BID_STEP)]
    return []


def resolve(state: Game, context: str, draws: Draws) -> Game:
    state = state.copy()
    if context == SETUP_DRAW:
        decade.draw_setup(state, draws)
        state.phase = BID_STEP
    elif context == TIE_BREAK:
        state.tie_break = draws.shuffle(state.seats)
        if not state.deck:
            decade.draw_setup(state, draws)
        _order_by_bids(state)
    elif context == ORDER_DRAW:
        if state.edition == "2016":
            state.order = draws.shuffle(state.seats)
            state.picks = list(reversed(state.order))
        else:
            first = draws.below(len(state.seats))
            state.order = list(state.seats[first:] + state.seats[:first])
            state.picks = list(state.order)
        state.events.append(f"turn order drawn at random: {', '.join(state.order)}")
        decade.draw_setup(state, draws)
        state.phase = FAMILY_CHOICE
    return state


def _order_by_bids(state: Game) -> None:
    """Once every bid is revealed and the tie-break is drawn, fix the turn order."""
    bids = {seat: player.bid for seat, player in state.players.items()}
    if state.phase != BID_STEP or state.tie_break is None or any(bid is None for bid in bids.values()):
        return
    priority = {seat: index for index, seat in enumerate(state.tie_break)}
    withheld = {seat for seat, player in state.players.items() if player.withheld}
    state.order = sorted(state.seats, key=lambda seat: (-(bids[seat] or 0), seat in withheld, priority[seat]))
    amounts = [bid or 0 for bid in bids.values()]
    note = f"turn order by bids: {', '.join(f'{seat} ({bids[seat]})' for seat in state.order)}"
    if len(set(amounts)) < len(amounts):
        note += "; ties broken at random"
    state.events.append(note)
    state.phase = FAMILY_BIDDING


def withhold(state: Game, seat: str) -> Game:
    """``seat`` sealed a turn-order bid and let the deadline of its reveal pass, having seen the
    others' bids: « Все игроки одновременно вскрываются », so a bid kept back must not be chosen
    after them. It counts as the highest bid it could have sealed, all its gold, and last among
    equal bids: whatever it sealed, keeping it back gains nothing."""
    state = state.copy()
    player = state.players[seat]
    player.withheld = True
    state.events.append(
        f"{seat} kept its sealed turn-order bid back past the deadline: it counts as all its gold "
        f"({player.gold}), last among equal bids"
    )
    player.bid = player.gold
    _order_by_bids(state)
    return state


def bidding_actor(state: Game) -> str:
    """The player with the lowest bid still in; among equal bids, the later in turn order."""
    active = [seat for seat in state.order if not state.players[seat].passed]
    position = {seat: index for index, seat in enumerate(state.order)}
    return min(active, key=lambda seat: (state.players[seat].bid or 0, -position[seat]))


def highest_bid(state: Game) -> int:
    return max(player.bid or 0 for player in state.players.values())


def chooser(state: Game) -> str:
    chosen = sum(1 for player in state.players.values() if player.family is not None)
    return state.picks[chosen]


def free_families(state: Game) -> list[str]:
    taken = {player.family for player in state.players.values()}
    return [family for family in FAMILIES if family not in taken]


def check_bid(state: Game, seat: str, amount: int) -> None:
    player = state.players[seat]
    if state.phase == BID_STEP:
        if player.bid is not None:
            raise IllegalMoveError(f"{seat} has already bid for turn order")
        if amount > player.gold:
            raise IllegalMoveError(f"a turn-order bid cannot exceed your gold: {seat} has {player.gold}")
        return
    if state.phase != FAMILY_BIDDING:
        raise IllegalMoveError(f"no bidding in the {state.phase}")
    _check_turn(seat, bidding_actor(state), "raise or pass")
    top = highest_bid(state)
    if amount <= top:
        raise IllegalMoveError(
            f"a raise must exceed the highest bid on the table ({top}): bid {top + 1} or more"
        )
    if amount > player.gold:
        raise IllegalMoveError(f"a bid cannot exceed your gold: {seat} has {player.gold}")


def check_pass(state: Game, seat: str) -> None:
    if state.phase != FAMILY_BIDDING:
        raise IllegalMoveError(f"passing is part of the family bidding, not the {state.phase}")
    _check_turn(seat, bidding_actor(state), "raise or pass")


def check_family(state: Game, seat: str, family: str) -> None:
    if state.phase != FAMILY_CHOICE:
        raise IllegalMoveError(f"families are chosen after the bidding, not in the {state.phase}")
    _check_turn(seat, chooser(state), "choose a family")
    if family not in free_families(state):
        owner = next(name for name, player in state.players.items() if player.family == family)
        raise IllegalMoveError(f"{FAMILY_NAMES[family]} is already {owner}'s family")


def _check_turn(seat: str, actor: str, what: str) -> None:
    if seat != actor:
        raise IllegalMoveError(f"it is {actor}'s turn to {what}, not {seat}'s")


def apply_bid(state: Game, seat: str, amount: int) -> Game:
    state = state.copy()
    state.players[seat].bid = amount
    if state.phase == BID_STEP:
        _order_by_bids(state)
    else:
        state.events.append(f"{seat} raises to {amount}")
    return state


def apply_pass(state: Game, seat: str) -> Game:
    state = state.copy()
    state.players[seat].passed = True
    state.passes.append(seat)
    state.events.append(f"{seat} passes at {state.players[seat].bid}")
    still_in = [name for name in state.order if not state.players[name].passed]
    if len(still_in) == 1:
        state.picks = [still_in[0], *reversed(state.passes)]
        state.phase = FAMILY_CHOICE
    return state


def apply_family(state: Game, seat: str, family: str) -> Game:
    state = state.copy()
    state.players[seat].family = family
    state.events.append(f"{seat} takes the {FAMILY_NAMES[family]} family")
    if all(player.family is not None for player in state.players.values()):
        _pay_and_start(state)
    return state


def fee(state: Game, player: Player) -> int:
    """The gold ``player`` pays once every family is taken."""
    if state.turn_order == "bid":
        return player.bid or 0
    return state.components.rule("dice_fee")


def _pay_and_start(state: Game) -> None:
    for seat, player in state.players.items():
        due = fee(state, player)
        player.gold -= due
        if due:
            state.events.append(f"{seat} pays {due} gold")
    decade.begin(state, 1, state.order[0])
