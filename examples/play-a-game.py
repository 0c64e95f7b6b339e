"""Play a whole game of Princes of the Renaissance through the pbem command line, as four players
would by email: four key homes, four mailboxes, the file copied to whoever `pbem status` says
must act next. Each player picks a random legal move (from `pbem moves --json`, which lists only the
Treachery cards the player holds), so the game is a fair test of the rules rather than a good game.
What a player owes the hidden Treachery deck rides in its next entry, or goes alone with `pbem sync`.
Keys are throw-away.

    usage: python3 examples/play-a-game.py OUT.toml [--seed N] [--edition 2016|2003] [--side a|b]
                                           [--pbem PATH]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments, play

SEATS = ("alice", "bruno", "chiara", "dario")
FAMILIES = ("baglioni", "bentivoglio", "malatesta", "este", "gonzaga", "montefeltro")
GIFT_CHANCE = 0.02  # now and then a player hands another gold or influence (or uses the Banker)


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--edition", default="2016")
    parser.add_argument("--side", default="a", help="Family tile side: a or b")
    args = parser.parse_args()
    rnd = random.Random(args.seed)

    def turn(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], status: dict[str, Any]) -> None:
        def move() -> None:
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            if listed["free"] and rnd.random() < GIFT_CHANCE:  # a deal struck: a gift on the way
                run(seat, "play", game, rnd.choice(listed["free"]), "--as", seat)
                listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            run(seat, "play", game, choose(rnd, listed["moves"], status["phase"]), "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "potr", "--edition", args.edition, "--option", f"family_side={args.side}"]
        entries, view = play(Runner(args.pbem, Path(work)), SEATS, new, rnd, turn=turn, out=args.out)
    print(f"{args.out}: {entries} moves after joining; winners: {', '.join(view['winners'])}")
    return 0


def choose(rnd: random.Random, moves: list[str], phase: str) -> str:
    """A random legal move, leaning towards moves that bring the game to its end, and trying the
    cards, powers and wars the players hold often enough to show them."""
    if phase == "family bidding":
        return "pass" if rnd.random() < 0.6 else moves[0]
    if phase == "family choice":  # the families whose powers show most in a game, first
        return next(f"family {name}" for name in FAMILIES if f"family {name}" in moves)
    if phase.startswith(("turn-order", "family")):
        return rnd.choice(moves[:12])
    by_verb: dict[str, list[str]] = {}
    for move in moves:
        by_verb.setdefault(move.split()[0], []).append(move)
    if phase.endswith("auction"):
        if "play" in by_verb and rnd.random() < 0.5:
            return rnd.choice(by_verb["play"])
        raises = by_verb.get("bid", [])
        return rnd.choice(raises[:3]) if raises and rnd.random() < 0.45 else "pass"
    weights = {
        "auction": 5, "buy": 6, "war": 3, "play": 4, "use": 3, "bank": 0.3, "league": 3, "reroll": 2,
        "place": 1, "discard": 1, "keep": 1, "declare": 1, "rank": 1, "pass": 0.7,
    }  # fmt: skip
    verbs = [verb for verb in by_verb if weights.get(verb, 1) > 0]
    verb = rnd.choices(verbs, [weights.get(verb, 1) for verb in verbs])[0]
    if verb == "buy" and "buy card" in by_verb["buy"] and rnd.random() < 0.5:
        return "buy card"  # cards make the windows, wars and auctions more eventful
    if verb == "auction":
        tile = rnd.choice(sorted({move.split()[1] for move in by_verb["auction"]}))
        return min((m for m in by_verb["auction"] if m.split()[1] == tile), key=lambda m: int(m.split()[2]))
    return rnd.choice(by_verb[verb])


if __name__ == "__main__":
    sys.exit(main())
