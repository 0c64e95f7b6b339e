"""Every move ``pbem moves`` lists is one ``pbem play`` accepts, in each of the three games.

Seeded random games of Princes of the Renaissance, Princes of Florence and Il Principe are played
at the rules level, with the tests' dealer standing in for the engine's hidden decks
(pbem/kit/dealer.py). At every state reached, for every seat: the moves the rules list, kept
as ``pbem moves --as SEAT`` keeps them for the hidden cards the seat holds (``play.playable``),
and the free moves, each pass the rules' check once the cards they show are shown, as
``pbem play`` checks them. The rules cannot know a hidden card, so they
list a card play before its cards are known; only the seat's own cards tell which it can make.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from pbem.crypto.randomness import Draws
from pbem.engine.play import playable
from pbem.engine.ruleset import free_move_rules
from pbem.errors import IllegalMoveError
from pbem.games.il_principe.hands import HANDS as IP_HANDS
from pbem.games.il_principe.rules import RULES as IP
from pbem.games.princes_of_florence.hands import HANDS as POF_HANDS
from pbem.games.princes_of_florence.rules import RULES as POF
from pbem.games.princes_of_the_renaissance.hands import HANDS as POTR_HANDS
from pbem.games.princes_of_the_renaissance.rules import RULES as POTR
from tests.games.il_principe import support as ip_support
from tests.games.princes_of_florence import support as pof_support
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.test_playouts import choose as potr_choose

NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio")
Hand = Mapping[str, str | None]  # a seat's hidden cards, token -> card, as its own key reads them


@dataclass(frozen=True)
class Point:
    """A state a game reached, with what the engine knows there."""

    rules: Any  # the game's ruleset
    state: Any
    seats: Sequence[str]
    hands: Mapping[str, Hand]
    show: Callable[[Any, str, Any], Any]  # the state once the cards a seat's move shows are shown


def listed(point: Point, seat: str) -> list[str]:
    """The moves ``pbem moves --as SEAT`` lists, the free moves left out."""
    texts = point.rules.legal_moves(point.state, seat)
    return playable(point.rules, point.state, seat, texts, point.hands[seat])


def free(point: Point, seat: str) -> list[str]:
    """The free moves ``pbem moves`` lists under "at any time"."""
    rules = free_move_rules(point.rules)
    return rules.free_moves(point.state, seat) if rules is not None else []


def refused(point: Point) -> list[str]:
    """Every move listed for any seat that the rules then refuse, with the refusal."""
    found = []
    for seat in point.seats:
        for text in [*listed(point, seat), *free(point, seat)]:
            move = point.rules.parse(text)
            try:
                point.rules.check(point.show(point.state, seat, move), seat, move)
            except IllegalMoveError as refusal:
                found.append(f"{seat}: {text!r}: {refusal}")
    return found


def eager(rng: random.Random, moves: Sequence[str], first: Mapping[str, int]) -> str:
    """A random move, most often one of the verbs ``first`` ranks first; passing last."""
    order = list(moves)
    rng.shuffle(order)
    if rng.random() < 0.8:
        order.sort(key=lambda text: first.get(text.split()[0], 8 if text == "pass" else 5))
    return order[0]


# --- Princes of Florence ---------------------------------------------------------------------------

POF_FIRST = {"work": 0, "recruit": 0, "build": 1, "auction": 1, "buy": 1, "take": 2, "freedom": 2, "bid": 2}


def florence(players: int, unofficial: bool, seed: int) -> Iterator[Point]:
    rng = random.Random(seed)
    game = pof_support.new_game(NAMES[:players], unofficial)
    dealer = pof_support.dealer_for(game, seed)
    game = dealer.settle(game)

    def hand(seat: str) -> Hand:
        return {token: dealer.cards[token] for token in POF_HANDS.face_down(game, seat)}

    while POF.demands(game):
        point = Point(POF, game, game.seats, {seat: hand(seat) for seat in game.seats}, dealer.show)
        yield point
        seat = rng.choice([demand.seat for demand in POF.demands(game)])
        free = POF.free_moves(game, seat)
        text = (
            rng.choice(free) if free and rng.random() < 0.02 else eager(rng, listed(point, seat), POF_FIRST)
        )
        game = dealer.play(game, seat, text)


# --- Princes of the Renaissance --------------------------------------------------------------------


def renaissance(players: int, edition: str, turn_order: str, side: str, seed: int) -> Iterator[Point]:
    rng = random.Random(seed)
    game_id = rng.randbytes(16).hex()
    seats = NAMES[:players]
    options = {"turn_order": turn_order, "family_side": side}
    state = POTR.setup(seats, edition, options, potr_support.COMPONENTS[edition])
    dealer = potr_support.DEALER
    dealer.reset(state, game_id)
    while state.phase != "game over":
        demands = POTR.demands(state)
        sealing = any(demand.kind == "sealed" for demand in demands)
        ready = [r for r in POTR.random_requests(state) if r.after_sealing is None or not sealing]
        if ready:
            context = ready[0].context
            draws = Draws(game_id, context, [(seat, rng.randbytes(32)) for seat in seats])
            state = dealer.settle(POTR.resolve(state, context, draws))
            continue
        hands = {
            seat: {token: dealer.card(token) for token in POTR_HANDS.face_down(state, seat)} for seat in seats
        }
        point = Point(POTR, state, seats, hands, dealer.show)
        yield point
        seat = rng.choice(demands).seat
        gifts = POTR.free_moves(state, seat)
        text = (
            rng.choice(gifts)
            if gifts and rng.random() < 0.03
            else potr_choose(rng, state, listed(point, seat))
        )
        move = POTR.parse(text)
        after = POTR.apply(dealer.show(state, seat, move), seat, move)
        dealer.returned(state, seat, move)
        state = dealer.settle(after)


# --- Il Principe -----------------------------------------------------------------------------------

IP_FIRST = {"build": 0, "play": 1, "bid": 2}


def principe(players: int, options: Mapping[str, Any], seed: int) -> Iterator[Point]:
    rng = random.Random(seed)
    game = ip_support.new_game(NAMES[:players], **options)
    dealer = ip_support.dealer_for(game, seed)
    game = dealer.settle(game)

    def hand(seat: str) -> Hand:
        return {token: dealer.cards[token] for token in IP_HANDS.face_down(game, seat)}

    while IP.demands(game):
        point = Point(IP, game, game.seats, {seat: hand(seat) for seat in game.seats}, dealer.show)
        yield point
        seat = IP.demands(game)[0].seat
        game = dealer.play(game, seat, eager(rng, listed(point, seat), IP_FIRST))


# --- the property ----------------------------------------------------------------------------------

READINGS = {"last-round-ducats": "none", "short-pile": "game-ends", "two-players-last-round": "all"}
GAMES: dict[str, Callable[[], Iterator[Point]]] = {
    "florence 2 unofficial": lambda: florence(2, True, 11),
    "florence 3 unofficial": lambda: florence(3, True, 12),
    "florence 4": lambda: florence(4, False, 13),
    "florence 5": lambda: florence(5, False, 14),
    "renaissance 3 2016 bid a": lambda: renaissance(3, "2016", "bid", "a", 21),
    "renaissance 4 2003 dice b": lambda: renaissance(4, "2003", "dice", "b", 22),
    "principe 2": lambda: principe(2, {"readings": READINGS}, 31),
    "principe 3": lambda: principe(3, {}, 41),
    "principe 4": lambda: principe(4, {}, 42),
    "principe 5 rich start": lambda: principe(5, {"rich_start": True}, 33),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_move_listed_is_accepted(name: str) -> None:
    states = 0
    for point in GAMES[name]():
        states += 1
        problems = refused(point)
        assert not problems, (point.rules.phase(point.state), problems[:5])
    assert states > 50
