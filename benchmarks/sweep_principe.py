"""A fingerprint of Il Principe's rules: seeded random games played to the end, digested.

Run it on two versions of pbem and compare the digests: a change meant to make the rules faster
must leave every game the same. Each game is played by the tests' random player
(``tests/games/il_principe/support.py``'s ``playout``) from its seed, and the digest (sha256)
covers every move made (the seat, its text, the phase it was made in) and every final score.

``--deep`` also digests, after every move, every legal move of each seat asked to act and the
state itself (every field but the components, which never change): a faster rule that lists a
move in another order, or leaves a state that only differs where no later move looks, shows there.
``--mixed`` plays 2 to 5 players with the variant on and off instead of four players only.

    python benchmarks/sweep_principe.py --games 150 [--deep] [--mixed]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from dataclasses import fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' players and dealer

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


def sweep(games: int, deep: bool, mixed: bool) -> tuple[str, int]:
    """The digest of ``games`` seeded games, and the number of moves they made."""
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
            if deep:
                for demand in RULES.demands(after):
                    digest.update(f"{demand.seat}: {RULES.legal_moves(after, demand.seat)}\n".encode())
                digest.update(state_text(after).encode())
        if last.phase != OVER:
            raise SystemExit(f"game {seed} did not end")
        digest.update(f"score {sorted(breakdown(last).items())}\n".encode())
    return digest.hexdigest(), made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--deep", action="store_true")
    parser.add_argument("--mixed", action="store_true")
    args = parser.parse_args()
    digest, made = sweep(args.games, args.deep, args.mixed)
    print(f"{args.games} games, {made} moves, deep={args.deep}, mixed={args.mixed}: {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
