"""Play a whole game of Princes of Florence through the pbem command line, as four players would by
email: four key homes, four mailboxes, the file copied to whoever `pbem status` says must act next.
Each player makes the move a player of some sense would, from those `pbem moves --json` offers
(only moves pbem play accepts; works only when the player's own cards make them worth the round's
minimum): it bids for what its profession cards want (their buildings, landscapes and freedoms,
read from the component template) within a budget that leaves florins for its actions, builds and
frees what they want, makes a work as soon as it can, and spends what is left by the end; the same
seed gives the same game. What a player owes the three hidden decks (shuffles, decryption shares)
rides in its next entry, or goes alone with `pbem sync`. Keys are throw-away.

    usage: python3 examples/play-florence.py OUT.toml [--seed N]
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
from homes import Runner, answer, arguments, play, silence

SEATS = ("alice", "bruno", "chiara", "dario")
LOTS = ("forest", "lake", "park")
# What a lot is worth to a player, in florins, before it asks what its cards want: a jester adds
# 2 WP to every later work, a builder makes every later building cheaper (less so late on), a
# prestige card pays at the end.
WORTH = {"jester": 500, "builder": 500, "recruitment": 300, "prestige-card": 400}
RESERVE = 700  # what a player keeps out of the auction for its actions, but in the last round
LAST_ROUND = 7


def main() -> int:
    args = arguments(__doc__).parse_args()
    rnd = random.Random(args.seed)
    template: dict[str, Any] = {}

    def turn(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], status: dict[str, Any]) -> None:
        def move() -> None:
            if not template:
                template.update(tomllib.loads(run(seat, "templates", "show", "princes-of-florence")))
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            view = json.loads(run(seat, "show", game, "--as", seat, "--json"))
            run(seat, "play", game, Player(template, view, seat).choose(listed["moves"]), "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "princes-of-florence"]
        entries, view = play(
            Runner(Path(work), args.seed), SEATS, new, rnd, turn=turn, out=args.out, silent=silence(args)
        )
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    print(f"{args.out}: {entries} entries after joining; prestige {totals}")
    return 0


class Player:
    """A player who knows what its profession cards want (their building, landscape and freedom,
    from the component template) and goes after it: it bids for what they want within a budget that
    leaves money for its actions, builds and frees what they want, makes a work as soon as one is
    worth the round's minimum, and spends what is left on buildings and cards by the end."""

    def __init__(self, template: dict[str, Any], view: dict[str, Any], seat: str) -> None:
        self.rules = {name: item["value"] for name, item in template["rules"].items()}
        self.likes = {card["id"]: card for card in template["profession"]}
        self.view = view
        self.me = next(row for row in view["players"] if row["seat"] == seat)
        self.round = int(view["round"])
        self.florins = int(self.me["florins"])
        hand = [name for name in view.get("hand", {}).values() if name in self.likes]
        self.wanted = {
            self.likes[name][kind] for name in hand for kind in ("building", "landscape", "freedom")
        }
        self.have = {*self.me["buildings"], *self.me["landscapes"], *self.me["freedoms"]}

    @property
    def budget(self) -> int:
        """What the player may spend at the auction."""
        return self.florins - (0 if self.round == LAST_ROUND else RESERVE)

    def worth(self, lot: str) -> int:
        if lot in LOTS:
            return 600 if lot in self.wanted - self.have else 300
        if lot == "builder" and self.round > 3:
            return 300
        if lot == "prestige-card" and self.round < 3:
            return 200
        return WORTH.get(lot, 0)

    def build_price(self) -> int:
        builders = int(self.me["builders"])
        return 0 if builders >= 3 else self.rules["building_price"] if builders == 0 else 300

    def choose(self, moves: list[str]) -> str:
        """The move the player likes best; among placements, the one nearest the palace."""
        best = max(self.rank(text) for text in moves)
        return min((text for text in moves if self.rank(text) == best), key=nearness)

    def rank(self, text: str) -> int:
        words = text.split()
        verb = words[0]
        if verb in ("work", "recruit", "reveal", "return", "keep"):
            return self.card_rank(text)
        if verb == "prestige":  # florins or prestige for a work: prestige once money is no worry
            return (
                100 + int(words[1])
                if self.florins >= 1500 or self.round == LAST_ROUND
                else 100 - int(words[1])
            )
        if verb in ("auction", "buy"):
            worth = self.worth(words[1])
            return (
                worth
                if worth >= self.rules["opening_bid"] and self.budget >= self.rules["opening_bid"]
                else -1
            )
        if verb == "bid":
            lot = (self.view.get("auction") or {}).get("lot", "")
            return 1 if int(words[1]) <= min(self.worth(lot), self.budget) else -1
        if verb == "place":
            return 1
        spare = self.florins - (0 if self.round == LAST_ROUND else 300)
        if verb == "build":
            wanted = words[1] in self.wanted
            price = self.build_price()
            return (80 if wanted else 40) if self.florins >= price and (wanted or spare >= price) else -1
        price = self.rules["freedom_price"]
        if verb == "freedom":
            return (
                70 if words[1] in self.wanted and self.florins >= price else 15 if spare >= 2 * price else -1
            )
        if text == "take profession":
            unplayed = len(self.view.get("hand", {}))
            return (60 if unplayed < 2 else 20) if self.round < LAST_ROUND and spare >= price else -1
        if text == "take bonus":
            return 25 if spare >= price else -1
        return 0  # pass

    def card_rank(self, text: str) -> int:
        """Works first, the one with fewest bonus cards (the others keep for a higher minimum);
        then recruiting; a card kept or given back by what its profession shares with the
        estate."""
        words = text.split()
        if words[0] == "work":
            return 200 - len(words)
        if words[0] == "keep":
            name = self.view.get("hand", {}).get(words[1], "")
            return (
                90 + sum(self.likes[name][kind] in self.have for kind in ("building", "landscape", "freedom"))
                if name in self.likes
                else 90
            )
        if words[0] == "return":  # give back the card that shares least with the other two
            name = self.view.get("hand", {}).get(words[1], "")
            others = [
                self.likes[n]
                for t, n in self.view.get("hand", {}).items()
                if t != words[1] and n in self.likes
            ]
            shared = (
                sum(
                    self.likes[name][kind] == card[kind]
                    for card in others
                    for kind in ("building", "landscape", "freedom")
                )
                if name in self.likes
                else 0
            )
            return 90 - shared
        return 150


def nearness(text: str) -> tuple[int, str]:
    """How far a placement's square lies from the palace in the lower-left corner (a1): estates
    fill from there outwards, leaving room for the large pieces."""
    words = text.split()
    square = words[words.index("at") + 1] if "at" in words else ""
    if len(square) < 2:
        return (0, text)
    return (ord(square[0]) - ord("a") + int(square[1:]), text)


if __name__ == "__main__":
    sys.exit(main())
