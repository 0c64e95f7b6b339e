"""Play the opening of a game of Princes of the Renaissance as three players would by email, each
giving the address its moves are mailed to: alice when she creates the game and the others when
they join (`--email`), signed in the file so that nobody can redirect a player's mail; bruno then
moves his with `pbem mail address`, before the game has started. The file goes to whoever `pbem
status` says must act next: the players add randomness to the setup draw (their shuffles of the
hidden Treachery deck riding in those entries), seal and reveal their turn-order bids, and open the
family bidding, where the first bidder takes back a bid with the others' consent (`pbem undo`,
`pbem consent`) and passes instead. No mail server is needed: the file is what each email
carries. Keys are throw-away.

    usage: python3 examples/play-by-email.py OUT.toml [--seed N]
"""

from __future__ import annotations

import functools
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from homes import Runner, answer, arguments

SEATS = ("alice", "bruno", "chiara")
ADDRESSES = {"alice": "alice@example.org", "bruno": "bruno@example.org", "chiara": "chiara@example.org"}
MOVED = "bruno@example.net"  # where bruno's mail goes once he has moved it
BIDS = {"alice": "bid 3", "bruno": "bid 2", "chiara": "bid 1"}  # the turn-order bids, sealed
MOVES_AFTER_UNDO = 3


def main() -> int:
    args = arguments(__doc__).parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-example-") as work:
        run = Runner(Path(work), args.seed)
        game = str(Path(work) / "game.toml")
        for seat in SEATS:
            run(seat, "key", "new", seat, "--no-passphrase")
        creator = SEATS[0]
        players = ",".join(SEATS)
        email = ADDRESSES[creator]
        run(creator, "new", game, "--game", "potr", "--players", players, "--as", creator, "--email", email)
        run("bruno", "join", game, "--as", "bruno", "--email", ADDRESSES["bruno"])
        run("bruno", "mail", "address", game, MOVED, "--as", "bruno")
        run("chiara", "join", game, "--as", "chiara", "--email", ADDRESSES["chiara"])
        entries = opening(run, game)
        run(creator, "verify", game)
        shutil.copy(game, args.out)
    print(f"{args.out}: {entries} entries after joining, one move undone")
    return 0


def status(run: Runner, game: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(run(SEATS[0], "status", game, "--json"))
    return found


def opening(run: Runner, game: str) -> int:
    """Every seat does what it is asked until the family bidding has seen a bid taken back and
    ``MOVES_AFTER_UNDO`` moves more, or has ended; the number of entries made."""
    table = Opening(run, game)
    while table.after is None or table.after < MOVES_AFTER_UNDO:
        now = status(run, game)
        if table.after is not None and now["phase"] != "family bidding":
            break
        seat = now["waiting"][0]["seat"]
        asked = [item for item in now["waiting"] if item["seat"] == seat]
        answer(run, seat, game, asked, functools.partial(table.move, seat, now["phase"]))
        table.entries += 1
    return table.entries


@dataclass
class Opening:
    """A seat's move when asked for one: its sealed turn-order bid, then in the family bidding a
    bid taken back with everyone's consent, and passes."""

    run: Runner
    game: str
    entries: int = 0
    after: int | None = None  # moves in the family bidding since the undo; None before it

    def move(self, seat: str, phase: str) -> None:
        run, game = self.run, self.game
        if phase == "turn-order bid":
            run(seat, "play", game, BIDS[seat], "--as", seat)
            return
        if self.after is None:  # a bid, thought better of
            listed = json.loads(run(seat, "moves", game, "--as", seat, "--json"))["moves"]
            run(seat, "play", game, next(move for move in listed if move.startswith("bid ")), "--as", seat)
            run(seat, "undo", game, "--as", seat)
            for other in SEATS:
                if other != seat:
                    run(other, "consent", game, "--as", other)
            self.entries += len(SEATS) + 1
            self.after = 0
        run(seat, "play", game, "pass", "--as", seat)
        self.after += 1


if __name__ == "__main__":
    sys.exit(main())
