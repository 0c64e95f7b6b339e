"""Play a whole game of Princes of Florence through the pbem command line, as four players would by
email: four key homes, four mailboxes, the file copied to whoever `pbem status` says must act next.
Each player picks a random legal move from `pbem moves --json` (which offers only the moves pbem
play accepts, works only when the player's own cards make them worth the round's minimum), leaning
towards works, towards what its profession cards like (their buildings, landscapes and freedoms,
read from the component template) and towards the cards, so the game is a fair test of the rules
rather than a good game. What a player owes the three hidden decks (shuffles, decryption shares)
rides in its next entry, or goes alone with `pbem sync`. Keys are throw-away.

    usage: python3 examples/play-florence.py OUT.toml [--seed N] [--pbem PATH]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments, play

SEATS = ("alice", "bruno", "chiara", "dario")
# The moves a player tries first: those that make works and fill the estate, and draw, show and
# turn up the hidden cards; passing comes last. What the player's professions like comes before
# any other building, landscape or freedom.
EAGER = {"work": 0, "reveal": 0, "recruit": 0, "build": 2, "take": 2, "keep": 2, "auction": 2, "buy": 2}
LIKED = 1
SELL_CHANCE = 0.02  # now and then a player sells prestige for florins, unasked


def main() -> int:
    args = arguments(__doc__).parse_args()
    rnd = random.Random(args.seed)
    likes: dict[str, list[str]] = {}

    def turn(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], status: dict[str, Any]) -> None:
        def move() -> None:
            if not likes:
                template = tomllib.loads(run(seat, "templates", "show", "princes-of-florence"))
                for card in template["profession"]:
                    likes[card["id"]] = [card["building"], card["landscape"], card["freedom"]]
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            if listed["free"] and rnd.random() < SELL_CHANCE:
                run(seat, "play", game, rnd.choice(listed["free"]), "--as", seat)
                listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            hand = json.loads(run(seat, "show", game, "--as", seat, "--json")).get("hand", {})
            wanted = {thing for card in hand.values() for thing in likes.get(card, ())}
            # Every move listed is one pbem play accepts, so the first chosen is made (a refusal
            # ends the script).
            run(seat, "play", game, choose(rnd, listed["moves"], wanted)[0], "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "princes-of-florence"]
        entries, view = play(Runner(args.pbem, Path(work)), SEATS, new, rnd, turn=turn, out=args.out)
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    print(f"{args.out}: {entries} entries after joining; prestige {totals}")
    return 0


def choose(rnd: random.Random, moves: list[str], wanted: set[str]) -> list[str]:
    """The moves in the order a player tries them: mostly the eager ones first, what its cards like
    before the rest, passing last."""

    def rank(text: str) -> int:
        words = text.split()
        if words[0] in ("build", "freedom", "auction", "place") and words[1] in wanted:
            return LIKED
        return EAGER.get(words[0], 3 if text != "pass" else 4)

    order = list(moves)
    rnd.shuffle(order)
    if rnd.random() < 0.85:
        order.sort(key=rank)
    return order


if __name__ == "__main__":
    sys.exit(main())
