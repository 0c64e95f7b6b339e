"""The ruleset protocol: what the engine asks of every game's rules.

A ruleset is pure: states are plain dataclasses, ``apply`` returns a new state and never reads the
clock or a global random generator. Randomness reaches a ruleset only through ``resolve``, with
draws made from every seat's committed contributions; secrets reach it only once revealed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pbem.crypto.randomness import Draws
from pbem.engine.registry import GameInfo, OptionValue
from pbem.errors import UsageError

DemandKind = Literal["move", "sealed", "commit", "reveal", "contribute", "consent"]


@dataclass(frozen=True)
class Demand:
    """What one seat must provide now.

    ``move``: an ordinary move; ``sealed``: a secret choice (the engine turns it into a commit,
    then a reveal); ``contribute``: any entry, to add randomness to a pending event.
    """

    seat: str
    kind: DemandKind
    step: str
    prompt: str


@dataclass(frozen=True)
class RandomRequest:
    """A random event the state waits for.

    With ``after_sealing``, the engine asks for it only once every seat has sealed its choice for
    that step, so the draw comes from contributions made after the choices are fixed and nobody
    can know the outcome while still choosing.
    """

    context: str
    after_sealing: str | None = None


class Ruleset(Protocol):
    info: GameInfo

    def setup(
        self,
        seats: Sequence[str],
        edition: str,
        options: Mapping[str, OptionValue],
        components: Mapping[str, Any],
    ) -> Any:
        """The state once every seat has joined, with the component data the genesis entry
        names (raise GameFileError if it does not describe a playable set)."""

    def phase(self, state: Any) -> str:
        """A short name for where the game stands, e.g. ``turn-order bid``."""

    def demands(self, state: Any) -> list[Demand]:
        """Who must act now and what each must provide (``move`` or ``sealed`` demands)."""

    def legal_moves(self, state: Any, seat: str) -> list[str]:
        """Every move ``seat`` may make now, in the text ``parse`` reads."""

    def parse(self, text: str) -> Any:
        """Move text to a move; raise MoveSyntaxError."""

    def format(self, move: Any) -> str:
        """A move back to its text."""

    def check(self, state: Any, seat: str, move: Any) -> None:
        """Raise IllegalMoveError naming the rule if ``seat`` may not make ``move`` now."""

    def apply(self, state: Any, seat: str, move: Any) -> Any:
        """The state after a checked move."""

    def default_move(self, state: Any, seat: str, step: str) -> Any | None:
        """The move made for ``seat`` when it lets the deadline of ``step`` pass (None: none)."""

    def random_requests(self, state: Any) -> list[RandomRequest]:
        """Random events the state is waiting for, oldest first."""

    def resolve(self, state: Any, context: str, draws: Draws) -> Any:
        """The state after the random event ``context`` is decided by ``draws``."""

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (or an onlooker, for None) may see; other seats' secrets stripped."""

    def score(self, state: Any) -> dict[str, dict[str, int]]:
        """Points per seat and category."""


def ruleset_for(info: GameInfo) -> Ruleset | None:
    """The rules of a game, or None while the game can be set up and joined but not yet played."""
    if info.rules is None:
        return None
    module = importlib.import_module(info.rules)
    ruleset: Ruleset = module.RULES
    return ruleset


def require_ruleset(info: GameInfo) -> Ruleset:
    ruleset = ruleset_for(info)
    if ruleset is None:
        raise UsageError(
            f"the rules of {info.name} cannot be played by email yet; players can join and write notes"
        )
    return ruleset
