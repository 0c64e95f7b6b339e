"""Play a whole game of Princes of Florence through the pbem command line, as four players would by
email: four key homes, four mailboxes, the file copied to whoever `pbem status` says must act next.
Each player picks a random legal move from `pbem moves --json` (which offers works only with the
profession and bonus cards the player holds), leaning towards works, buildings and the cards, so the
game is a fair test of the rules rather than a good game. What a player owes the three hidden decks
(shuffles, decryption shares) rides in its next entry, or goes alone with `pbem sync`. Keys are
throw-away.

    usage: python3 examples/play-florence.py OUT.toml [--seed N] [--pbem PATH]
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
# The moves a player tries first: those that make works and fill the estate, and draw, show and
# turn up the hidden cards; passing comes last.
EAGER = {"work": 0, "reveal": 0, "recruit": 0, "build": 1, "take": 1, "keep": 1, "auction": 1, "buy": 1}
SELL_CHANCE = 0.02  # now and then a player sells prestige for florins, unasked


def main() -> int:
    args = arguments(__doc__).parse_args()
    rnd = random.Random(args.seed)

    def turn(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], status: dict[str, Any]) -> None:
        def move() -> None:
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            if listed["free"] and rnd.random() < SELL_CHANCE:
                run(seat, "play", game, rnd.choice(listed["free"]), "--as", seat)
                listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            for text in choose(rnd, listed["moves"]):
                done = run.attempt(seat, "play", game, text, "--as", seat)
                if done.returncode == 0:
                    return
                # A work below the round's minimum is refused once its cards are shown: try another.
                if not text.startswith("work "):
                    sys.exit(f"pbem play {text!r} (as {seat}) failed: {done.stderr.strip()}")
            sys.exit(f"none of {seat}'s moves was accepted: {listed['moves']}")

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "princes-of-florence"]
        entries, view = play(Runner(args.pbem, Path(work)), SEATS, new, rnd, turn=turn, out=args.out)
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    print(f"{args.out}: {entries} entries after joining; prestige {totals}")
    return 0


def choose(rnd: random.Random, moves: list[str]) -> list[str]:
    """The moves in the order a player tries them: mostly the eager ones first, passing last."""
    order = list(moves)
    rnd.shuffle(order)
    if rnd.random() < 0.85:
        order.sort(key=lambda text: EAGER.get(text.split()[0], 3 if text != "pass" else 4))
    return order


if __name__ == "__main__":
    sys.exit(main())
