"""Shared helpers for the Princes of the Renaissance rules tests.

Each test file keeps its own game id and default families (the draws, and so the shuffled deck and
the City tiles the 2016 setup leaves in the supply, depend on them) and binds them with
``functools.partial(decade_one, game_id=..., families=...)``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

import pytest

from pbem.crypto.randomness import Draws
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance.hands import HANDS
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from pbem.kit.dealer import Dealer
from tests.conftest import potr_components

SEATS = ("a", "b", "c", "d")
COMPONENTS = {edition: potr_components(edition) for edition in ("2016", "2003")}


# The engine's hidden Treachery deck, simulated at the rules level (pbem/kit/dealer.py); the
# rules never see a card before it is shown, and the tests read hands through the dealer.
DEALER: Dealer[Game] = Dealer.of(RULES, HANDS)


def give(state: Game, seat: str, *cards: str) -> list[str]:
    """``seat``'s hand becomes ``cards`` (from outside the deck: the deck's count is not touched)."""
    tokens = DEALER.extra(*cards)
    state.players[seat].cards = tokens
    return tokens


def draws(game_id: str, context: str, seats: Sequence[str], first_byte: int = 1) -> Draws:
    """Every seat's randomness for ``context``: seat ``i`` contributes the byte ``first_byte + i``."""
    contributions = [(seat, bytes([first_byte + index]) * 32) for index, seat in enumerate(seats)]
    return Draws(game_id, context, contributions)


def decade_one(
    seats: Sequence[str] = SEATS,
    edition: str = "2016",
    side: str = "a",
    *,
    families: Mapping[str, str],
    game_id: str,
    first_byte: int = 1,
    phase: str | None = "action",
) -> Game:
    """A game at the start of decade I, with turn order ``seats`` and the given families.

    The opening is played by the rules: distinct sealed bids (the first seat bids most, so the
    turn order is the seats' order), everyone but the first passes in the family bidding, and the
    families are picked in turn order. The game is then in ``phase`` (the first action); with
    ``phase=None`` it may be elsewhere, as when Baglioni's B side still has to declare its discount.
    """
    state = RULES.setup(seats, edition, {"turn_order": "bid", "family_side": side}, COMPONENTS[edition])
    DEALER.reset(state, f"{game_id}/{first_byte}")
    for request in RULES.random_requests(state):
        if request.after_sealing is None:
            state = RULES.resolve(state, request.context, draws(game_id, request.context, seats, first_byte))
    for rank, seat in enumerate(seats):
        state = RULES.apply(state, seat, RULES.parse(f"bid {len(seats) - 1 - rank}"))
    for request in RULES.random_requests(state):
        state = RULES.resolve(state, request.context, draws(game_id, request.context, seats, first_byte))
    assert state.order == list(seats)
    while state.phase in ("family bidding", "family choice"):
        (demand,) = RULES.demands(state)
        text = "pass" if state.phase == "family bidding" else f"family {families[demand.seat]}"
        state = RULES.apply(state, demand.seat, RULES.parse(text))
    assert (state.decade, state.active) == (1, seats[0])
    if phase is not None:
        assert state.phase == phase
    return state


def act(state: Game, seat: str, text: str) -> Game:
    """Play a legal move: it must pass check and be listed by legal_moves; the dealer shows the
    cards it uses and deals the cards it draws, as the engine would."""
    move = RULES.parse(text)
    assert RULES.format(move) in RULES.legal_moves(state, seat), (seat, text)
    shown = DEALER.show(state, seat, move)
    RULES.check(shown, seat, move)
    before = copy.deepcopy(shown)
    after = RULES.apply(shown, seat, move)
    assert shown == before, "apply must not change the state it is given"
    DEALER.returned(state, seat, move)
    return DEALER.settle(after)


def refused(state: Game, seat: str, text: str, phrase: str) -> str:
    """``text`` from ``seat`` is refused with a one-line message containing ``phrase``; nothing changes."""
    before = copy.deepcopy(state)
    move = RULES.parse(text)
    with pytest.raises(IllegalMoveError) as caught:
        RULES.check(DEALER.show(state, seat, move), seat, move)
    message = str(caught.value)
    assert message.strip() and "\n" not in message, message
    assert phrase in message, message
    assert RULES.format(move) not in DEALER.playable(state, seat)
    assert state == before
    return message


def to_act(state: Game) -> str:
    (demand,) = RULES.demands(state)
    return demand.seat


def with_active(state: Game, seat: str) -> Game:
    state = copy.deepcopy(state)
    state.active = seat
    return state


def grant(state: Game, seat: str, *tiles: str) -> None:
    """Give City tiles (from the supply when the setup drew them; the 2016 setup leaves some out)."""
    for tile in tiles:
        if tile in state.city_supply:
            state.city_supply.remove(tile)
        state.players[seat].city_tiles.append(tile)


def end_decade(state: Game) -> Game:
    """The active player sells the decade's last Event tile (a VP tile at 0, everyone passes)."""
    assert state.phase == "action"
    state = copy.deepcopy(state)
    events = state.components.events
    state.event_row = [next(e.id for e in events if e.decade == state.decade and e.kind == "vp")]
    state = act(state, state.active, f"auction {state.event_row[0]} 0")
    while state.phase == "auction":
        state = act(state, to_act(state), "pass")
    return state


def spent(state: Game, seat: str) -> list[str]:
    """The cards and tiles ``seat`` has used this decade, as its view shows them."""
    names: list[str] = RULES.view(state, seat)["players"][seat]["spent_this_decade"]
    return names
