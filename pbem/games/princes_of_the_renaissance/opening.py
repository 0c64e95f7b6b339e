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

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.crypto.randomness import Draws
from pbem.engine.registry import OptionValue
from pbem.engine.ruleset import RandomRequest
from pbem.errors import IllegalMoveError

# Starting money: 2016 rulebook setup step 9 (45 gold, 12 influence); 2003 summary: 40 gold.
START_GOLD = {"2016": 45, "2003": 40}
START_INFLUENCE = 12
DICE_FEE = 5  # 2016 beginners' alternative: "then all players return 5 gold to the supply"
FAMILIES = ("baglioni", "bentivoglio", "este", "gonzaga", "malatesta", "montefeltro")
FAMILY_NAMES = {
    "baglioni": "Baglioni",
    "bentivoglio": "Bentivoglio",
    "este": "d'Este",
    "gonzaga": "Gonzaga",
    "malatesta": "Malatesta",
    "montefeltro": "Montefeltro",
}

BID_STEP = "turn-order bid"
TIE_BREAK = "turn-order tie-break"
ORDER_DRAW = "turn-order draw"
FAMILY_BIDDING = "family bidding"
FAMILY_CHOICE = "family choice"
DECADE_ONE = "decade I"


@dataclass
class Player:
    gold: int
    influence: int
    bid: int | None = None
    passed: bool = False
    family: str | None = None


@dataclass
class Opening:
    edition: str
    turn_order: str
    seats: tuple[str, ...]
    players: dict[str, Player]
    phase: str
    tie_break: list[str] | None = None
    order: list[str] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def setup(seats: Sequence[str], edition: str, options: Mapping[str, OptionValue]) -> Opening:
    turn_order = str(options["turn_order"])
    players = {seat: Player(START_GOLD[edition], START_INFLUENCE) for seat in seats}
    phase = BID_STEP if turn_order == "bid" else ORDER_DRAW
    return Opening(edition, turn_order, tuple(seats), players, phase)


def random_requests(state: Opening) -> list[RandomRequest]:
    if state.turn_order == "bid" and state.tie_break is None:
        return [RandomRequest(TIE_BREAK, after_sealing=BID_STEP)]
    if state.phase == ORDER_DRAW:
        return [RandomRequest(ORDER_DRAW)]
    return []


def resolve(state: Opening, context: str, draws: Draws) -> Opening:
    state = copy.deepcopy(state)
    if context == TIE_BREAK:
        state.tie_break = draws.shuffle(state.seats)
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
        state.phase = FAMILY_CHOICE
    return state


def _order_by_bids(state: Opening) -> None:
    """Once every bid is revealed and the tie-break is drawn, fix the turn order."""
    bids = {seat: player.bid for seat, player in state.players.items()}
    if state.phase != BID_STEP or state.tie_break is None or any(bid is None for bid in bids.values()):
        return
    priority = {seat: index for index, seat in enumerate(state.tie_break)}
    state.order = sorted(state.seats, key=lambda seat: (-(bids[seat] or 0), priority[seat]))
    amounts = [bid or 0 for bid in bids.values()]
    note = f"turn order by bids: {', '.join(f'{seat} ({bids[seat]})' for seat in state.order)}"
    if len(set(amounts)) < len(amounts):
        note += "; ties broken at random"
    state.events.append(note)
    state.phase = FAMILY_BIDDING


def bidding_actor(state: Opening) -> str:
    """The player with the lowest bid still in; among equal bids, the later in turn order."""
    active = [seat for seat in state.order if not state.players[seat].passed]
    position = {seat: index for index, seat in enumerate(state.order)}
    return min(active, key=lambda seat: (state.players[seat].bid or 0, -position[seat]))


def highest_bid(state: Opening) -> int:
    return max(player.bid or 0 for player in state.players.values())


def chooser(state: Opening) -> str:
    chosen = sum(1 for player in state.players.values() if player.family is not None)
    return state.picks[chosen]


def free_families(state: Opening) -> list[str]:
    taken = {player.family for player in state.players.values()}
    return [family for family in FAMILIES if family not in taken]


def check_bid(state: Opening, seat: str, amount: int) -> None:
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


def check_pass(state: Opening, seat: str) -> None:
    if state.phase != FAMILY_BIDDING:
        raise IllegalMoveError(f"passing is part of the family bidding, not the {state.phase}")
    _check_turn(seat, bidding_actor(state), "raise or pass")


def check_family(state: Opening, seat: str, family: str) -> None:
    if state.phase != FAMILY_CHOICE:
        raise IllegalMoveError(f"families are chosen after the bidding, not in the {state.phase}")
    _check_turn(seat, chooser(state), "choose a family")
    if family not in free_families(state):
        owner = next(name for name, player in state.players.items() if player.family == family)
        raise IllegalMoveError(f"{FAMILY_NAMES[family]} is already {owner}'s family")


def _check_turn(seat: str, actor: str, what: str) -> None:
    if seat != actor:
        raise IllegalMoveError(f"it is {actor}'s turn to {what}, not {seat}'s")


def apply_bid(state: Opening, seat: str, amount: int) -> Opening:
    state = copy.deepcopy(state)
    state.players[seat].bid = amount
    if state.phase == BID_STEP:
        _order_by_bids(state)
    else:
        state.events.append(f"{seat} raises to {amount}")
    return state


def apply_pass(state: Opening, seat: str) -> Opening:
    state = copy.deepcopy(state)
    state.players[seat].passed = True
    state.passes.append(seat)
    state.events.append(f"{seat} passes at {state.players[seat].bid}")
    still_in = [name for name in state.order if not state.players[name].passed]
    if len(still_in) == 1:
        state.picks = [still_in[0], *reversed(state.passes)]
        state.phase = FAMILY_CHOICE
    return state


def apply_family(state: Opening, seat: str, family: str) -> Opening:
    state = copy.deepcopy(state)
    state.players[seat].family = family
    state.events.append(f"{seat} takes the {FAMILY_NAMES[family]} family")
    if all(player.family is not None for player in state.players.values()):
        _pay_and_start(state)
    return state


def _fee(state: Opening, player: Player) -> int:
    if state.turn_order == "bid":
        return player.bid or 0
    return DICE_FEE if state.edition == "2016" else 0


def _pay_and_start(state: Opening) -> None:
    for seat, player in state.players.items():
        fee = _fee(state, player)
        player.gold -= fee
        if fee:
            state.events.append(f"{seat} pays {fee} gold")
    state.phase = DECADE_ONE
    state.events.append(f"decade I begins with {state.order[0]}")
