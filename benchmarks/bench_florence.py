"""How fast are the rules of Princes of Florence, and what do they and its hidden decks add to
``pbem verify``?

Run from the repository root::

    python benchmarks/bench_florence.py [--games G] [--repeat R] [--seed S] [--json] [--quick]

It measures, in one run:

* complete random games per second, 4 players, rules only: setup, the deal, seven rounds of
  auctions and actions, the end and its scoring, through the ruleset, with the decks dealt by
  the tests' stand-in dealer (a seeded order, no cryptography), moves chosen at random among
  the legal ones;
* the complete four-player example game (``examples/florence-four-players.toml``, played through
  the command line with every card dealt from the hidden decks): (a) ``verify`` in-process, load
  and audit with every proof checked; (b) the floor, parsing, rebuilding each signed message and
  checking each Ed25519 signature. ``(a) / (b)`` is what the rules, the bookkeeping and the hidden
  decks' proofs add to the unavoidable work.

``--quick`` (what CI runs): 2 games and one run of each timing, to check every part still works.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' stand-in dealer

from bench_verify import example_verify

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence.rules import RULES
from tests.games.princes_of_florence.support import dealer_for, new_game

SEATS = ("a", "b", "c", "d")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "florence-four-players.toml"


def rules_game(seed: int) -> int:
    """One random complete game through the rules; the number of moves made."""
    rnd = random.Random(seed)
    game = new_game(SEATS)
    dealer = dealer_for(game, seed)
    game = dealer.settle(game)
    made = 0
    while RULES.demands(game):
        seat = rnd.choice([demand.seat for demand in RULES.demands(game)])
        listed = RULES.legal_moves(game, seat)
        rnd.shuffle(listed)
        for text in listed:
            try:  # a work's value is known only once its cards are shown: some are refused
                game = dealer.play(game, seat, text)
            except IllegalMoveError:
                continue
            made += 1
            break
        else:
            raise SystemExit(f"no listed move applies for {seat} in {RULES.phase(game)}: {listed}")
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="2 games, one run of each timing")
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 2, 1
    start = time.perf_counter()
    moves = [rules_game(args.seed + index) for index in range(args.games)]
    elapsed = time.perf_counter() - start
    results: dict[str, Any] = {
        "rules_games_per_second": round(args.games / elapsed, 2),
        "rules_moves_per_game": round(statistics.mean(moves), 1),
        "rules_ms_per_move": round(elapsed * 1000 / sum(moves), 3),
    }
    if not EXAMPLE.exists():
        raise SystemExit(f"{EXAMPLE} is missing: python examples/play-florence.py makes it")
    results.update(example_verify(EXAMPLE, args.repeat))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:<32} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
