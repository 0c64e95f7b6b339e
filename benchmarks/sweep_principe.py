"""A fingerprint of Il Principe's rules, from the command line: seeded random games played to the
end, digested (tests/games/il_principe/sweep.py says what the digest covers). Run it on two
versions of pbem and compare the digests: a change meant to make the rules faster must leave every
game the same. ``--root DIR`` digests the pbem and the tests' random player of another checkout
with this tree's sweep (tests/games/il_principe/test_sweep.py keeps the digest of a few games).

    python benchmarks/sweep_principe.py --games 150 [--legal | --deep] [--mixed] [--root DIR]
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--legal", action="store_true", help="every legal move after every move too")
    parser.add_argument("--deep", action="store_true", help="every legal move and every state too")
    parser.add_argument("--mixed", action="store_true", help="2 to 5 players, the variant on and off")
    parser.add_argument("--root", type=Path, default=TREE, help="the checkout whose rules are digested")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))  # its pbem and its tests' random player
    found = runpy.run_path(str(TREE / "tests" / "games" / "il_principe" / "sweep.py"))
    digest, made = found["sweep"](args.games, legal=args.legal, deep=args.deep, mixed=args.mixed)
    kind = "deep" if args.deep else "legal" if args.legal else "moves"
    print(f"{args.games} games, {made} moves, {kind}, mixed={args.mixed}: {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
