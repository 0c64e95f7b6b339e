"""A fingerprint of Il Principe's rules: seeded random games played to the end, digested
(benchmarks/sweep_principe.py runs it from the command line, on this tree or another checkout).

Each game is played by the tests' random player (``support.playout``) from its seed, and the
digest (sha256) covers every move made (the seat, its text, the phase it was made in) and every
final score; ``legal`` adds every legal move of each seat asked to act after every move (a rule
that lists a move in another order shows there), ``deep`` besides the state itself (every field
but the components, which never change: a state that only differs where no later move looks
shows there). ``mixed`` plays 2 to 5 players with the variant on and off instead of four players
only. Only ``pbem`` and ``support`` are imported, so the same code digests any version of them.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import fields

from pbem.games.il_principe.rules import RULES
from pbem.games.il_principe.state import OVER, Game
from pbem.games.il_principe.view import breakdown
from tests.games.il_principe.support import dealer_for, new_game, playout

SEATS = ("anna", "bruno", "carla", "dario", "elena")
# Fixed for the whole game: the signed components, their companion view, the settings.
CONSTANT = frozenset({"components", "parts", "settings"})


def state_text(game: Game) -> str:
    """Every field that changes during play, as text."""
    return repr([(item.name, getattr(game, item.name)) for item in fields(game) if item.name not in CONSTANT])


def sweep(games: int, *, legal: bool = False, deep: bool = False, mixed: bool = False) -> tuple[str, int]:
    """The digest of ``games`` seeded games, and the number of moves they made; ``deep``: with
    every state, ``legal`` (or ``deep``): with every legal move."""
    digest = hashlib.sha256()
    made = 0
    for seed in range(games):
        players = 2 + seed % 4 if mixed else 4
        rich = mixed and seed % 8 >= 4
        game = new_game(SEATS[:players], rich_start=rich)
        dealer = dealer_for(game, seed)
        game = last = dealer.settle(game)
        digest.update(f"game {seed} {players} {rich}\n".encode())
        for before, after, seat, text in playout(game, dealer, random.Random(seed)):
            made += 1
            last = after
            digest.update(f"{seat}|{text}|{RULES.phase(before)}\n".encode())
            if legal or deep:
                for demand in RULES.demands(after):
                    digest.update(f"{demand.seat}: {RULES.legal_moves(after, demand.seat)}\n".encode())
            if deep:
                digest.update(state_text(after).encode())
        if last.phase != OVER:
            raise AssertionError(f"game {seed} did not end")
        digest.update(f"score {sorted(breakdown(last).items())}\n".encode())
    return digest.hexdigest(), made
