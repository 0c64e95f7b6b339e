"""A fingerprint of any registered game's rules: seeded random games played to the end through the
kit's walk (the dealer standing in for the hidden decks), digested. A change meant to make a
game's rules faster must leave every game the same: ``benchmarks/sweep.py`` runs it on this tree or
on another checkout (``--root``) and prints the digest.

The digest (sha256) covers every move made (the seat, its text, the phase it was made in) and each
game's final score; ``legal`` adds every legal move of each seat asked to act after every move (a
rule that lists a move in another order shows there); ``deep`` adds the state itself (every field
but those fixed for the whole game). Only ``pbem`` is imported, so the same code digests any
version of it that has the kit's walk and the games' hands.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import fields, is_dataclass
from typing import Any

from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import require_ruleset
from pbem.kit.computer.walk import Walk, WalkRules
from pbem.kit.dealer import Dealer
from tests.games.setups import new_game

SEATS = ("anna", "bruno", "carla", "dario")
# Fixed for the whole game: the signed components, their companion view, the settings.
CONSTANT = frozenset({"components", "parts", "settings", "rules", "options"})


def state_text(state: Any) -> str:
    """Every field that changes during play, as text."""
    if not is_dataclass(state):
        return repr(state)
    changing = [item.name for item in fields(state) if item.name not in CONSTANT]
    return repr([(name, getattr(state, name)) for name in changing])


def sweep(info: GameInfo, games: int, *, legal: bool = False, deep: bool = False) -> tuple[str, int]:
    """The digest of ``games`` seeded four-player games of ``info``, and the moves they made."""
    rules: WalkRules = require_ruleset(info)  # type: ignore[assignment]
    if info.hands is None:
        raise AssertionError(f"{info.name} declares no hands: the dealer cannot deal it")
    hands = info.hands()
    digest = hashlib.sha256()
    made = 0
    for seed in range(games):
        state = new_game(info, SEATS)
        dealer = Dealer.of(rules, hands).reset(state, seed)
        walk = Walk(rules, dealer, dealer.settle(state), random.Random(seed))
        digest.update(f"game {seed}\n".encode())
        while (turn := walk.turn()) is not None:
            phase = walk.phase()
            text = walk.play_any(turn)
            digest.update(f"{turn.seat}|{text}|{phase}|{turn.sealed}\n".encode())
            if legal or deep:
                for demand in rules.demands(walk.state):
                    digest.update(f"{demand.seat}: {rules.legal_moves(walk.state, demand.seat)}\n".encode())
            if deep:
                digest.update(state_text(walk.state).encode())
        made += walk.moves
        digest.update(f"score {sorted(rules.score(walk.state).items())}\n".encode())
        digest.update(f"winners {sorted(rules.view(walk.state, None).get('winners', []))}\n".encode())
    return digest.hexdigest(), made
