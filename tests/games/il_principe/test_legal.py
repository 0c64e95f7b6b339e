"""Il Principe's legal moves are listed directly, not as candidates each put through ``check``
(pbem/games/il_principe/rules.py, ``_legal``): here every candidate is put through ``check``, in
states of seeded random games, and the moves it lets through are exactly the list, in its order.

The candidates are wider than the list: every bid from nothing to more than the seat holds,
every turn-up colour, every set of a seat's cards of a city's size with any number of shields in
any region the city touches, every play of one card or of a public colour up to one more than is
held. A hidden card is judged as if it were of the colour the move needs (the engine shows it
before ``check`` and refuses a claim it does not bear out), as the listing promises.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from itertools import combinations_with_replacement as repeats

import pytest

from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.moves import TOKEN, Build, Move, Play, Reserve, Shield, Show, TurnUp
from pbem.games.il_principe.rounds import actors
from pbem.games.il_principe.rules import RULES
from pbem.games.il_principe.state import ACTIONS, BUILD, RESERVE, SHOW, Game
from pbem.kit.grammar import Bid, Pass
from tests.games.il_principe.support import dealer_for, new_game, playout

SEATS = ("anna", "bruno", "carla", "dario", "elena")


def as_if_fitting(state: Game, move: Move) -> Game:
    """``state`` with the hidden cards ``move`` names shown in the colours it needs, where its
    public cards leave that possible."""
    if not isinstance(move, Build | Play) or not any(TOKEN.fullmatch(card) for card in move.cards):
        return state
    tokens = [card for card in move.cards if TOKEN.fullmatch(card)]
    public = [card for card in move.cards if card in COLOURS]
    if isinstance(move, Build):
        wanted = list(state.components.cities[move.city].icons)
        for colour in public:
            if colour in wanted:
                wanted.remove(colour)
    else:
        wanted = [public[0] if public else COLOURS[0]] * len(tokens)
    return replace(state, shown={**state.shown, **dict(zip(tokens, wanted, strict=False))})


def candidates(state: Game, seat: str) -> list[Move]:
    player = state.player(seat)
    items = [*player.hand, *(c for c, n in zip(COLOURS, player.known, strict=True) for _ in range(n))]
    due = state.follow_ups[0] if state.follow_ups else None
    found: list[Move] = []
    if state.phase == ACTIONS or (due is not None and due.kind == BUILD):
        for city in state.face_up:
            card = state.components.cities[city]
            # up to two shields, as many as a city takes, in the regions it touches
            regions = [placed for count in range(3) for placed in repeats(card.regions, count)]
            cards = sorted(set(itertools.combinations(items, len(card.icons))))
            found += [Build(city, chosen, placed) for chosen in cards for placed in regions]
    if state.phase == ACTIONS:
        found += [Play((token,)) for token in player.hand]
        for colour, number in zip(COLOURS, player.known, strict=True):
            found += [Play((colour,) * size) for size in range(1, number + 2)]
    found += [TurnUp(colour) for colour in COLOURS]
    found += [Shield(region) for region in sorted(state.components.regions)]
    if state.phase == RESERVE:
        found += [Reserve(chosen) for chosen in sorted(set(itertools.combinations(items, 2)))]
        found += [Reserve(chosen) for chosen in sorted(set(itertools.combinations(items, 3)))]
    found += [Show(), *(Bid(amount) for amount in range(player.ducats + 3)), Pass()]
    return found


def checked(state: Game, seat: str) -> list[Move]:
    return [move for move in candidates(state, seat) if RULES.allowed(as_if_fitting(state, move), seat, move)]


@pytest.mark.parametrize(("players", "rich"), [(2, True), (3, False), (4, False), (5, True)])
def test_the_list_is_what_check_lets_through(players: int, rich: bool) -> None:
    """The candidates come kind by kind in the order the list gives them, so the moves ``check``
    lets through must be the list itself."""
    seed = 10 * players + rich
    game = new_game(SEATS[:players], rich_start=rich)
    dealer = dealer_for(game, seed)
    game = dealer.settle(game)
    looked: set[type] = set()
    for made, (_, after, _, _) in enumerate(playout(game, dealer, random.Random(seed))):
        if after.phase == SHOW or (made % 3 and not after.follow_ups):
            continue  # a third of the states, and every follow-up (the rarer ones)
        for seat in after.seats:
            listed = RULES.legal(after, seat)
            if seat not in actors(after):
                assert listed == [] and RULES.legal_moves(after, seat) == []
                continue
            assert listed == checked(after, seat), (RULES.phase(after), seat)
            assert RULES.legal_moves(after, seat) == [RULES.format(move) for move in listed]
            looked.update(type(move) for move in listed)
    assert looked == {Build, Play, TurnUp, Shield, Reserve, Bid, Pass}
