"""Playing Il Principe by email without the engine: a dealer that answers the rules' draws, shows
cards, and decides the random events as the engine would, from an order fixed by a seed. Sealed
reserves are played as the moves their reveals carry, in seat order. A random player (``playout``)
plays a whole game on it, for the rules' playout tests and the benchmark.

Tokens are ``building:slot``, the slot the card has in the deck the rules declare, as the engine's
are.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem import gamefile
from pbem.crypto.randomness import Draws
from pbem.engine import templates
from pbem.errors import IllegalMoveError
from pbem.games.il_principe import rounds
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.game import ACTIONS, BUILD, RESERVE, SHIELD, SHOW, TURN_UP, Game
from pbem.games.il_principe.moves import Move
from pbem.games.il_principe.rules import RULES, card_uses

COMPONENTS: dict[str, Any] = templates.values(gamefile.shipped_template("il-principe"))
CITY = {card["id"]: card for card in COMPONENTS["city"]}
RULE: dict[str, int] = dict(COMPONENTS["rules"])


def new_game(seats: tuple[str, ...], readings: dict[str, str] | None = None, **options: Any) -> Game:
    """A game as ``pbem new`` sets it up; ``readings``: the ``readings`` table of its components."""
    components = {**COMPONENTS, "readings": readings} if readings else COMPONENTS
    return RULES.setup(seats, "standard", {"deadline_days": 0, **options}, components)


@dataclass
class Dealer:
    rng: random.Random
    seed: int
    pile: list[str] = field(default_factory=list)
    cards: dict[str, str] = field(default_factory=dict)
    events: int = 0

    @classmethod
    def for_game(cls, game: Game, seed: int) -> Dealer:
        dealer = cls(random.Random(seed), seed)
        (spec,) = RULES.hidden_decks(game)
        tokens = [f"{spec.deck_id}:{slot}" for slot in range(len(spec.cards))]
        dealer.cards.update(zip(tokens, spec.cards, strict=True))
        dealer.rng.shuffle(tokens)
        dealer.pile = tokens
        return dealer

    def settle(self, game: Game) -> Game:
        """Answer every draw and random event the state waits for."""
        while True:
            requests = RULES.draw_requests(game)
            if requests:
                request = requests[0]
                token = self.pile.pop(0)
                game = RULES.card_drawn(game, request, token)
                if request.face_up:
                    game = RULES.card_revealed(game, token, self.cards[token])
                continue
            events = RULES.random_requests(game)
            if events:
                self.events += 1
                draws = Draws(
                    "test-game", events[0].context, [("dealer", f"{self.seed}:{self.events}".encode())]
                )
                game = RULES.resolve(game, events[0].context, draws)
                continue
            return game

    def show(self, game: Game, seat: str, move: Move) -> Game:
        for use in card_uses(game, seat, move):
            if use.action == "reveal":
                assert use.token is not None
                game = rounds.revealed(game, use.token, self.cards[use.token])
        return game

    def play(self, game: Game, seat: str, text: str) -> Game:
        """One move as the engine plays it: cards shown, checked, applied, draws answered."""
        move = RULES.parse(text)
        game = self.show(game, seat, move)
        RULES.check(game, seat, move)
        return self.settle(RULES.apply(game, seat, move))

    def hand(self, game: Game, seat: str) -> dict[str, str]:
        """The seat's hidden cards, token -> colour, as its holder reads them."""
        return {token: self.cards[token] for token in game.player(seat).hand}


# --- a random player ----------------------------------------------------------------------------


def city_move(game: Game, dealer: Dealer, seat: str, rng: random.Random) -> str | None:
    player = game.player(seat)
    hand = dealer.hand(game, seat)
    for city in rng.sample(list(game.face_up), len(game.face_up)):
        card = CITY[city]
        if card["cost"] > player.ducats:
            continue
        known = dict(zip(COLOURS, player.known, strict=True))
        chosen: list[str] = []
        free = dict(hand)
        for colour in card["icons"]:
            if known[colour]:
                known[colour] -= 1
                chosen.append(colour)
                continue
            token = next((t for t, c in free.items() if c == colour), None)
            if token is None:
                break
            del free[token]
            chosen.append(token)
        else:
            due = min(card["shields"], RULE["shields_per_family"] - player.shields_placed)
            shields = [rng.choice(card["regions"]) for _ in range(due)]
            tail = f" shields {' '.join(shields)}" if shields else ""
            return f"build {city} with {' '.join(chosen)}{tail}"
    return None


def choose(game: Game, dealer: Dealer, seat: str, rng: random.Random) -> str:
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
        legal = RULES.legal_moves(game, seat)
        bids = [move for move in legal if move != "pass"][:4]
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


def playout(game: Game, dealer: Dealer, rng: random.Random) -> Iterator[tuple[Game, Game, str, str]]:
    """Random moves (``choose``) from ``game`` to the end: each as (the state before, the state
    after, the seat, the move's text)."""
    for _ in range(5000):
        asked = RULES.demands(game)
        if not asked:
            return
        seat = asked[0].seat
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
