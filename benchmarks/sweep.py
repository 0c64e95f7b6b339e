"""A fingerprint of a game's rules, from the command line: seeded random games played to the end,
digested (tests/games/sweep.py says what the digest covers). Run it on two versions of pbem and
compare: a change meant to make the rules faster must leave every game the same. ``--root DIR``
digests the pbem of another checkout with this tree's sweep.

    python benchmarks/sweep.py GAME [--games 150] [--legal | --deep] [--root DIR]
"""

from __future__ import annotations

import argparse
import runpy
import sys
import time
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", help="a game's name, as pbem games lists it")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--legal", action="store_true", help="every legal move after every move too")
    parser.add_argument("--deep", action="store_true", help="every legal move and every state too")
    parser.add_argument("--root", type=Path, default=TREE, help="the checkout whose rules are digested")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))  # its pbem
    sys.path.insert(1, str(TREE))  # this tree's sweep and setups
    found = runpy.run_path(str(TREE / "tests" / "games" / "sweep.py"))
    from pbem.engine.registry import get  # after the root is on the path

    start = time.perf_counter()
    digest, made = found["sweep"](get(args.game), args.games, legal=args.legal, deep=args.deep)
    kind = "deep" if args.deep else "legal" if args.legal else "moves"
    seconds = time.perf_counter() - start
    print(f"{args.game}: {args.games} games, {made} moves, {kind}: {digest} ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
