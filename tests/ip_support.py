"""Playing Il Principe by email without the engine: a dealer that answers the rules' draws, shows
cards, and decides the random events as the engine would, from an order fixed by a seed. Sealed
reserves are played as the moves their reveals carry, in seat order.

Tokens are ``building:slot``, the slot the card has in the deck the rules declare, as the engine's
are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pbem import gamefile
from pbem.crypto.randomness import Draws
from pbem.engine import templates
from pbem.games.il_principe import rounds
from pbem.games.il_principe.game import Game
from pbem.games.il_principe.moves import Move
from pbem.games.il_principe.rules import RULES, card_uses

COMPONENTS: dict[str, Any] = templates.values(gamefile.shipped_template("il-principe"))


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
