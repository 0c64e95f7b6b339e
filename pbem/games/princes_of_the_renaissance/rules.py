"""The Princes of the Renaissance ruleset as the engine sees it.

Moves (text form):
    bid N          a sealed turn-order bid, or a raise in the family bidding (N is the new total)
    pass           leave the family bidding
    family NAME    take a family: baglioni, bentivoglio, este (d'Este), gonzaga, malatesta,
                   montefeltro
The game currently runs from setup through the opening to the start of decade I; the decade's
actions are not yet playable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pbem.crypto.randomness import Draws
from pbem.engine.registry import OptionValue
from pbem.engine.ruleset import Demand, RandomRequest
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance import opening
from pbem.games.princes_of_the_renaissance.meta import INFO
from pbem.games.princes_of_the_renaissance.opening import Opening

FAMILY_ALIASES = {"d'este": "este", "deste": "este", "d'este's": "este", "bentivogli": "bentivoglio"}


@dataclass(frozen=True)
class Bid:
    amount: int


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Family:
    name: str


Move = Bid | Pass | Family
FORMS = "'bid N', 'pass' or 'family NAME'"


class Rules:
    info = INFO

    def setup(self, seats: Sequence[str], edition: str, options: Mapping[str, OptionValue]) -> Opening:
        return opening.setup(seats, edition, options)

    def phase(self, state: Opening) -> str:
        return state.phase

    def demands(self, state: Opening) -> list[Demand]:
        if state.phase == opening.BID_STEP:
            return [
                Demand(seat, "sealed", opening.BID_STEP, f"bid 0 to {player.gold} gold")
                for seat, player in state.players.items()
                if player.bid is None
            ]
        if state.phase == opening.FAMILY_BIDDING:
            actor = opening.bidding_actor(state)
            top = opening.highest_bid(state)
            return [Demand(actor, "move", opening.FAMILY_BIDDING, f"raise the bid above {top}, or pass")]
        if state.phase == opening.FAMILY_CHOICE:
            actor = opening.chooser(state)
            names = ", ".join(opening.free_families(state))
            return [Demand(actor, "move", opening.FAMILY_CHOICE, f"choose a family: {names}")]
        if state.phase == opening.DECADE_ONE:
            return [Demand(state.order[0], "move", opening.DECADE_ONE, "take the first action of decade I")]
        return []

    def legal_moves(self, state: Opening, seat: str) -> list[str]:
        moves: list[Move] = []
        player = state.players[seat]
        if state.phase == opening.BID_STEP and player.bid is None:
            moves = [Bid(amount) for amount in range(player.gold + 1)]
        elif state.phase == opening.FAMILY_BIDDING and opening.bidding_actor(state) == seat:
            moves = [Bid(amount) for amount in range(opening.highest_bid(state) + 1, player.gold + 1)]
            moves.append(Pass())
        elif state.phase == opening.FAMILY_CHOICE and opening.chooser(state) == seat:
            moves = [Family(name) for name in opening.free_families(state)]
        return [self.format(move) for move in moves]

    def parse(self, text: str) -> Move:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "bid" and re.fullmatch(r"[0-9]{1,6}", words[1]):
            return Bid(int(words[1]))
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "family":
            name = FAMILY_ALIASES.get(words[1], words[1])
            if name in opening.FAMILIES:
                return Family(name)
            raise MoveSyntaxError(
                f"{text!r}: unknown family {words[1]!r}; families: {', '.join(opening.FAMILIES)}"
            )
        raise MoveSyntaxError(f"{text!r} is not a move: write {FORMS}")

    def format(self, move: Move) -> str:
        if isinstance(move, Bid):
            return f"bid {move.amount}"
        if isinstance(move, Pass):
            return "pass"
        return f"family {move.name}"

    def check(self, state: Opening, seat: str, move: Move) -> None:
        if state.phase == opening.DECADE_ONE:
            raise IllegalMoveError("the opening is over; the actions of decade I are not playable yet")
        if isinstance(move, Bid):
            opening.check_bid(state, seat, move.amount)
        elif isinstance(move, Pass):
            opening.check_pass(state, seat)
        else:
            opening.check_family(state, seat, move.name)

    def apply(self, state: Opening, seat: str, move: Move) -> Opening:
        if isinstance(move, Bid):
            return opening.apply_bid(state, seat, move.amount)
        if isinstance(move, Pass):
            return opening.apply_pass(state, seat)
        return opening.apply_family(state, seat, move.name)

    def default_move(self, state: Opening, seat: str, step: str) -> Move | None:
        """A missing sealed bid counts as zero and a missing turn in the bidding as a pass; the
        rules have no pass for the choice of family, so a late player gets the first family
        still free in the rulebook's order."""
        if step == opening.BID_STEP:
            return Bid(0)
        if step == opening.FAMILY_BIDDING:
            return Pass()
        if step == opening.FAMILY_CHOICE:
            return Family(opening.free_families(state)[0])
        return None

    def random_requests(self, state: Opening) -> list[RandomRequest]:
        return opening.random_requests(state)

    def resolve(self, state: Opening, context: str, draws: Draws) -> Opening:
        return opening.resolve(state, context, draws)

    def view(self, state: Opening, seat: str | None) -> dict[str, Any]:
        # Nothing in this state is secret: sealed bids reach it only once revealed.
        return {
            "phase": state.phase,
            "edition": state.edition,
            "turn_order": list(state.order),
            "players": {name: asdict(player) for name, player in state.players.items()},
            "events": list(state.events),
        }

    def score(self, state: Opening) -> dict[str, dict[str, int]]:
        return {seat: {} for seat in state.seats}


RULES = Rules()
