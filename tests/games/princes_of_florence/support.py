"""Playing Princes of Florence by email without the engine: a dealer that answers the rules' draws,
shows cards and puts cards under their decks as the engine would, from a deck order fixed by a seed.

Tokens are ``deck:slot``, the slot the card has in the deck the rules declare, as the engine's are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pbem import gamefile
from pbem.engine import templates
from pbem.games.princes_of_florence import rounds
from pbem.games.princes_of_florence.game import Game
from pbem.games.princes_of_florence.moves import Move
from pbem.games.princes_of_florence.rules import RULES, card_uses

COMPONENTS: dict[str, Any] = templates.values(gamefile.shipped_template("princes-of-florence"))


def new_game(seats: tuple[str, ...], unofficial: bool = False) -> Game:
    options = {"unofficial_rules": unofficial, "deadline_days": 0}
    return RULES.setup(seats, "standard", options, COMPONENTS)


@dataclass
class Dealer:
    """The decks in a fixed order: each a list of tokens, top first; ``cards`` names every token."""

    rng: random.Random
    piles: dict[str, list[str]] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_game(cls, game: Game, seed: int) -> Dealer:
        dealer = cls(random.Random(seed))
        for spec in RULES.hidden_decks(game):
            tokens = [f"{spec.deck_id}:{slot}" for slot in range(len(spec.cards))]
            dealer.cards.update(zip(tokens, spec.cards, strict=True))
            dealer.rng.shuffle(tokens)
            dealer.piles[spec.deck_id] = tokens
        return dealer

    def settle(self, game: Game) -> Game:
        """Answer every draw the state waits for, and every reshuffle."""
        for deck in RULES.reshuffle_requests(game):
            self.rng.shuffle(self.piles[deck])
            game = RULES.deck_reshuffled(game, deck)
        while game.drawing:
            draw = game.drawing[0]
            token = self.piles[draw.deck].pop(0)
            game = rounds.drawn(game, draw, token)
            if draw.face_up:
                game = rounds.revealed(game, token, self.cards[token])
        for deck in RULES.reshuffle_requests(game):
            self.rng.shuffle(self.piles[deck])
            game = RULES.deck_reshuffled(game, deck)
        return game

    def show(self, game: Game, seat: str, move: Move) -> Game:
        """The cards the move shows, named to the rules before the check (as the engine does)."""
        for use in card_uses(game, seat, move):
            if use.action == "reveal":
                assert use.token is not None
                game = rounds.revealed(game, use.token, self.cards[use.token])
        return game

    def bottom(self, game: Game, seat: str, move: Move) -> None:
        """The cards the move puts under their decks, in the order listed."""
        for use in card_uses(game, seat, move):
            if use.action == "bottom":
                assert use.token is not None
                self.piles[use.deck_id].append(use.token)

    def play(self, game: Game, seat: str, text: str) -> Game:
        """One move as the engine plays it: cards shown, checked, cards returned, applied, draws."""
        move = RULES.parse(text)
        game = self.show(game, seat, move)
        RULES.check(game, seat, move)
        self.bottom(game, seat, move)
        return self.settle(RULES.apply(game, seat, move))

    def deal(self, game: Game) -> Game:
        """The deal: each seat returns the card dealt last."""
        game = self.settle(game)
        for seat in game.seats:
            game = self.play(game, seat, f"return {game.player(seat).hand[-1]}")
        return game

    def hand(self, game: Game, seat: str) -> dict[str, str]:
        return {self.cards[token]: token for token in game.player(seat).hand}
