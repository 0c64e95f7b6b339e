"""Play a whole game of Princes of the Renaissance through the pbem command line, as four players
would by email: four key homes, four mailboxes, the file copied to whoever `pbem status` says
must act next. Each player makes a sensible legal move (from `pbem moves --json`, which lists only the
Treachery cards the player holds): bids within a budget, tiles of the cities worth most, troops,
wars from its own cities, its cards played; the game is the same for the same seed.
What a player owes the hidden Treachery deck rides in its next entry, or goes alone with `pbem sync`.
Keys are throw-away.

    usage: python3 examples/play-a-game.py OUT.toml [--seed N] [--edition 2016|2003] [--side a|b]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments, play, silence

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
            view = json.loads(run(seat, "show", game, "--as", seat, "--json"))
            run(seat, "play", game, choose(rnd, listed["moves"], status["phase"], view, seat), "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "potr", "--edition", args.edition, "--option", f"family_side={args.side}"]
        entries, view = play(
            Runner(Path(work), args.seed), SEATS, new, rnd, turn=turn, out=args.out, silent=silence(args)
        )
    print(f"{args.out}: {entries} moves after joining; winners: {', '.join(view['winners'])}")
    return 0


def choose(rnd: random.Random, moves: list[str], phase: str, view: dict[str, Any], seat: str) -> str:
    """What a player of some sense does: it bids for City tiles within a budget that keeps gold for
    troops, opens auctions for the tiles of the cities worth most, buys troops and goes to war when
    it has an army, backs the side where its own tiles lie, and plays its Treachery cards when they
    can help it; the opening and the family bids stay lightly random."""
    me = view["players"][seat]
    gold = int(me["gold"])
    if phase == "family bidding":
        return "pass" if rnd.random() < 0.6 else moves[0]
    if phase == "family choice":  # the families whose powers show most in a game, first
        return next(f"family {name}" for name in FAMILIES if f"family {name}" in moves)
    if phase == "turn-order bid":
        return next((text for text in moves if text == f"bid {gold // 12}"), moves[0])
    if phase.startswith(("turn-order", "family")):
        return rnd.choice(moves[:12])
    by_verb: dict[str, list[str]] = {}
    for move in moves:
        by_verb.setdefault(move.split()[0], []).append(move)
    if phase.endswith("auction"):
        raises = sorted(by_verb.get("bid", []), key=lambda text: int(text.split()[1]))
        if raises and int(raises[0].split()[1]) <= gold * BUDGET:
            return raises[0]
        if "play" in by_verb:  # priced out: a card played against the leader may still help
            return by_verb["play"][0]
        return "pass" if "pass" in moves else moves[0]
    if "pass" not in moves:  # a question the rules put to the player: its cities' side
        return max(moves, key=lambda text: (sum(side(text, me)), -moves.index(text)))
    return main_turn(rnd, by_verb, view, me)


BUDGET = 0.45  # of its gold, the most a player bids for one tile
ARMY = 3  # the troops a player wants before going to war


def side(text: str, me: dict[str, Any]) -> list[int]:
    """How many of the player's City tiles lie in each city a move names."""
    return [sum(tile["city"] == word for tile in me["city_tiles"]) for word in text.split()]


def main_turn(
    rnd: random.Random, by_verb: dict[str, list[str]], view: dict[str, Any], me: dict[str, Any]
) -> str:
    gold, troops = int(me["gold"]), len(me["troops"])
    if "use" in by_verb and rnd.random() < 0.5:
        return by_verb["use"][0]
    if "play" in by_verb and rnd.random() < 0.4:
        return rnd.choice(by_verb["play"])
    if "war" in by_verb and troops >= ARMY and rnd.random() < 0.5:
        # attack from a city where its tiles lie, to raise that city's status
        return max(by_verb["war"], key=lambda text: (side(text, me)[1] - side(text, me)[2], rnd.random()))
    if "auction" in by_verb:
        worth = {city: int(row["status"]) for city, row in view["cities"].items()}

        def value(text: str) -> tuple[int, int]:
            tile, price = text.split()[1], int(text.split()[2])
            return (worth.get(tile.split("-")[0], 4), -price)

        best = max(by_verb["auction"], key=value)
        if int(best.split()[2]) <= gold * BUDGET:
            return best
    troop_buys = [text for text in by_verb.get("buy", []) if text != "buy card"]
    if troop_buys and troops < ARMY + int(view["decade"]) and gold >= 12:
        return rnd.choice(troop_buys)
    if (
        "buy card" in by_verb.get("buy", [])
        and int(me["treachery_cards"]) < int(me["hand_limit"])
        and gold >= 15
    ):
        return "buy card"
    if "league" in by_verb and rnd.random() < 0.3:
        return by_verb["league"][0]
    return "pass"


if __name__ == "__main__":
    sys.exit(main())
