"""Play a whole game of Il Principe through the pbem command line, as four players would by email:
four key homes, four mailboxes, the file copied to whoever `pbem status` says must act next. Each
player picks a random legal move from `pbem moves --json`, keeping to those its own cards bear out
(the notes name the colour behind each building card it holds; the cities' icons are in the
file's components), and leaning towards cities, modest bids and cards played, so the game is a
fair test of the rules rather than a good game. The reserve is sealed with `pbem play` and opened
with `pbem reveal`; the cities are turned up by randomness every player adds (`pbem play ... roll`);
what a player owes the hidden building deck (its shuffle, its shares of the others' draws) rides
in its next entry, or goes alone with `pbem sync`. Keys are throw-away.

    usage: python3 examples/play-principe.py OUT.toml [--seed N] [--pbem PATH]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments, play

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
            run(seat, "play", game, choose(rnd, listed["moves"], listed["notes"], icons), "--as", seat)

        answer(run, seat, game, asked, move)

    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        new = ["--game", "il-principe"]
        entries, view = play(Runner(args.pbem, Path(work)), SEATS, new, rnd, turn=turn, out=args.out)
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
    if words[0] == "play":
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


def choose(
    rnd: random.Random, moves: list[str], notes: dict[str, str], icons: Mapping[str, Sequence[str]]
) -> str:
    """A legal move that keeps the game going: a city whenever the cards allow, modest bids,
    cards played now and then."""
    moves = [text for text in moves if sound(text, notes.get(text, ""), icons)]
    if not moves:
        sys.exit("no move the player's cards bear out")
    builds = [text for text in moves if text.startswith("build ")]
    if builds:
        return rnd.choice(builds)
    bids = [text for text in moves if text.startswith("bid ")]
    if bids and rnd.random() < 0.6:
        return rnd.choice(bids[:4])
    plays = [text for text in moves if text.startswith("play ")]
    if plays and rnd.random() < 0.4:
        return rnd.choice(plays)
    if "pass" in moves and rnd.random() < 0.5:
        return "pass"
    return rnd.choice(moves)


if __name__ == "__main__":
    sys.exit(main())
