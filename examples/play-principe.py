"""Play a whole game of Il Principe through the pbem command line, as four players would by email:
four key homes, four mailboxes, the file copied to whoever `pbem status` says must act next. Each
player makes the move a player of some sense would, from those `pbem moves --json` offers,
keeping to those its own cards bear out (the notes name the colour behind each building card it
holds; the cities' icons are in the file's components): the biggest city its cards and ducats
allow, bids within what it can spare, cards played in the colour it holds most of, to take that
colour's role; the same seed gives the same game. The reserve is sealed with `pbem play` and opened
with `pbem reveal`; the cities are turned up by randomness every player adds (`pbem play ... roll`);
what a player owes the hidden building deck (its shuffle, its shares of the others' draws) rides
in its next entry, or goes alone with `pbem sync`. Keys are throw-away.

    usage: python3 examples/play-principe.py OUT.toml [--seed N]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments, play, silence

SEATS = ("alice", "bruno", "chiara", "dario")
COLOURS = ("green", "white", "red", "blue", "yellow")


def main() -> int:
    args = arguments(__doc__).parse_args()
    rnd = random.Random(args.seed)
    icons: dict[str, list[str]] = {}

    def turn(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], status: dict[str, Any]) -> None:
        def move() -> None:
            if not icons:
                cities = tomllib.loads(Path(game).read_text(encoding="utf-8"))["components"]["city"]
                icons.update({city["id"]: city["icons"] for city in cities})
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))
            view = json.loads(run(seat, "show", game, "--as", seat, "--json"))
            ducats = next(int(row["ducats"]) for row in view["players"] if row["seat"] == seat)
            text = choose(rnd, listed["moves"], listed["notes"], icons, ducats)
            run(seat, "play", game, text, "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "il-principe"]
        entries, view = play(
            Runner(Path(work), args.seed), SEATS, new, rnd, turn=turn, out=args.out, silent=silence(args)
        )
    totals = {seat: row["total"] for seat, row in view["score"].items()}
    print(f"{args.out}: {entries} entries after joining; round {view['round']}; points {totals}")
    return 0


def colours(text: str, note: str) -> list[str]:
    """The colours of the cards a move names: public cards by their colour, the seat's own
    hidden cards by the note ``pbem moves`` gives (their colours, in the order named)."""
    hidden = iter(note.split("; ") if note else ())
    return [word if word in COLOURS else next(hidden, "?") for word in cards_of(text)]


def cards_of(text: str) -> list[str]:
    words = text.split()
    if words[0] in ("play", "reserve"):
        return words[1:]
    end = words.index("shields") if "shields" in words else len(words)
    return words[3:end]  # build CITY with CARD ...


def sound(text: str, note: str, icons: Mapping[str, Sequence[str]]) -> bool:
    """Whether the cards a build or a play names are of the colours it needs: the rules list a
    city or a play for any cards, since only their holder knows their colours."""
    if text.startswith("build "):
        return sorted(colours(text, note)) == sorted(icons[text.split()[1]])
    if text.startswith("play "):
        return len(set(colours(text, note))) == 1
    return True


BID_BUDGET = 3  # the most a player bids for a group or a role, beyond what a city would cost it
CITY_PRICE = 4  # what a player keeps back for its next city


def choose(
    rnd: random.Random,
    moves: list[str],
    notes: dict[str, str],
    icons: Mapping[str, Sequence[str]],
    ducats: int,
) -> str:
    """What a player of some sense does: the biggest city its cards and ducats allow, bids within
    what it can spare, its cards played in the colour it holds most of (to take that colour's
    role), and into the reserve the cards it needs least."""
    moves = [text for text in moves if sound(text, notes.get(text, ""), icons)]
    if not moves:
        sys.exit("no move the player's cards bear out")
    builds = [text for text in moves if text.startswith("build ")]
    if builds:  # the biggest city, its shields where the cities need them least
        return max(builds, key=lambda text: (len(icons[text.split()[1]]), -builds.index(text)))
    bids = sorted((text for text in moves if text.startswith("bid ")), key=lambda text: int(text.split()[1]))
    if bids and int(bids[0].split()[1]) <= min(BID_BUDGET, max(0, ducats - CITY_PRICE) + 1):
        return bids[0]
    reserves = [text for text in moves if text.startswith("reserve ")]
    if reserves:  # keep back the colours the cities ask for most
        wanted = Counter(colour for city in icons.values() for colour in city)
        return min(
            reserves, key=lambda text: (sum(wanted[c] for c in colours(text, notes.get(text, ""))), text)
        )
    plays = [text for text in moves if text.startswith("play ")]
    if plays:
        best = max(plays, key=lambda text: (len(text.split()), -plays.index(text)))
        if len(best.split()) > 2 or rnd.random() < 0.3:
            return best
    if "pass" in moves:
        return "pass"
    return rnd.choice(moves)


if __name__ == "__main__":
    sys.exit(main())
