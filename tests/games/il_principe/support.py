"""Playing Il Principe by email without the engine: a new game, and the shared dealer
(pbem/kit/dealer.py) that answers the rules' draws, shows cards, and decides the random events
as the engine would, from an order fixed by a seed. Sealed reserves are played as the moves their
reveals carry, in seat order. A random player (``playout``) plays a whole game on it, for the
rules' playout tests and the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pbem import gamefile
from pbem.errors import IllegalMoveError
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.hands import HANDS
from pbem.games.il_principe.rounds import RAISE, actors
from pbem.games.il_principe.rules import RULES
from pbem.games.il_principe.state import ACTIONS, BUILD, RESERVE, SHIELD, SHOW, TURN_UP, Game
from pbem.kit import templates
from pbem.kit.dealer import Dealer

COMPONENTS: dict[str, Any] = templates.values(gamefile.shipped_template("il-principe"))
CITY = {card["id"]: card for card in COMPONENTS["city"]}
RULE: dict[str, int] = dict(COMPONENTS["rules"])


def new_game(seats: tuple[str, ...], readings: dict[str, str] | None = None, **options: Any) -> Game:
    """A game as ``pbem new`` sets it up; ``readings``: the ``readings`` table of its components."""
    components = {**COMPONENTS, "readings": readings} if readings else COMPONENTS
    return RULES.setup(seats, "standard", {"deadline_days": 0, **options}, components)


def dealer_for(game: Game, seed: int) -> Dealer[Game]:
    """The deck of ``game`` in an order fixed by ``seed``, and the random events decided from it
    (pbem/kit/dealer.py)."""
    return Dealer.of(RULES, HANDS, events=True).reset(game, seed)


# --- a random player ----------------------------------------------------------------------------


def city_move(game: Game, dealer: Dealer[Game], seat: str, rng: random.Random) -> str | None:
    """The first city, in a random order, the seat can pay and bear the icons of: public cards
    first, then its hidden cards of the colour in hand order; its shields in random regions."""
    player = game.player(seat)
    public = dict(zip(COLOURS, player.known, strict=True))
    # each colour's hidden cards in hand order: a city takes the first ones it needs
    hidden: dict[str, list[str]] = {}
    for token, colour in dealer.hand(game, seat).items():
        hidden.setdefault(colour, []).append(token)
    for city in rng.sample(list(game.face_up), len(game.face_up)):
        card = CITY[city]
        if card["cost"] > player.ducats:
            continue
        known = public.copy()
        taken: dict[str, int] = {}  # hidden cards of each colour taken so far
        chosen: list[str] = []
        for colour in card["icons"]:
            if known[colour]:
                known[colour] -= 1
                chosen.append(colour)
                continue
            tokens = hidden.get(colour, ())
            number = taken.get(colour, 0)
            if number == len(tokens):
                break
            taken[colour] = number + 1
            chosen.append(tokens[number])
        else:
            due = min(card["shields"], RULE["shields_per_family"] - player.shields_placed)
            shields = [rng.choice(card["regions"]) for _ in range(due)]
            tail = f" shields {' '.join(shields)}" if shields else ""
            return f"build {city} with {' '.join(chosen)}{tail}"
    return None


def choose(game: Game, dealer: Dealer[Game], seat: str, rng: random.Random) -> str:
    due = game.follow_ups[0] if game.follow_ups else None
    if game.phase == RESERVE:
        return rng.choice(RULES.legal_moves(game, seat))
    if game.phase == SHOW:
        return "show"
    if due is not None and due.kind in (TURN_UP, SHIELD):
        return rng.choice(RULES.legal_moves(game, seat))
    if due is not None and due.kind == BUILD:
        built = city_move(game, dealer, seat, rng)
        return built if built and rng.random() < 0.9 else "pass"
    if game.auction is not None:
        # The first four bids the rules list (every amount from the least the auction takes to the
        # seat's ducats, then the pass), written without listing them all: a playout bids and
        # passes more than it does anything else.
        least = RAISE.least(game.auction)
        top = min(least + 4, game.player(seat).ducats + 1)
        bids = [f"bid {amount}" for amount in range(least, top)]
        return rng.choice(bids) if bids and rng.random() < 0.6 else "pass"
    assert game.phase == ACTIONS
    built = city_move(game, dealer, seat, rng)
    if built and rng.random() < 0.8:
        return built
    by_colour: dict[str, list[str]] = {}
    for token, colour in dealer.hand(game, seat).items():
        by_colour.setdefault(colour, []).append(token)
    for colour, number in zip(COLOURS, game.player(seat).known, strict=True):
        if number:
            by_colour.setdefault(colour, []).extend([colour] * number)
    if by_colour and rng.random() < 0.8:
        cards = by_colour[rng.choice(sorted(by_colour))]
        return "play " + " ".join(cards[: rng.randint(1, len(cards))])
    return "pass"


def playout(game: Game, dealer: Dealer[Game], rng: random.Random) -> Iterator[tuple[Game, Game, str, str]]:
    """Random moves (``choose``) from ``game`` to the end: each as (the state before, the state
    after, the seat, the move's text)."""
    for _ in range(5000):
        # the seats RULES.demands asks, without writing each one's step and prompt, which a
        # random player does not read
        asked = actors(game)
        if not asked:
            return
        seat = asked[0]
        for _attempt in range(50):
            text = choose(game, dealer, seat, rng)
            try:
                after = dealer.play(game, seat, text)
            except IllegalMoveError:
                continue
            break
        else:
            raise AssertionError(f"{seat} found no move in {RULES.phase(game)}")
        yield game, after, seat, text
        game = after
    raise AssertionError(f"no end after 5000 moves: {RULES.phase(game)}")
