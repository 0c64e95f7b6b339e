"""How fast are the rules of Il Principe, what do they and its hidden deck add to ``pbem verify``,
and how many entries and emails does a round take?

Run from the repository root::

    python benchmarks/bench_principe.py [--games G] [--repeat R] [--seed S] [--players 2,4,5]
                                        [--json] [--quick]

It measures, in one run:

* (a) complete random 4-player games per second, rules only: setup, every round's four phases
  and the end with its scoring, through the ruleset, the deck dealt by the tests' stand-in dealer
  (a seeded order, no cryptography), moves chosen by the random player of the rules' playout
  tests (``tests/games/il_principe/support.py``);
* (b) the complete four-player example game (``examples/principe-four-players.toml``, played
  through the command line by ``examples/play-principe.py``): ``verify`` in-process with every
  proof checked, and again with the proofs already checked, against the floor (parsing,
  rebuilding each signed message, checking each Ed25519 signature) measured in the same run;
* (c) what a round costs: whole games played through the signed ledger as pbem plays them (the
  players of ``tests/games/il_principe/test_ledger.py``: every entry signed and replayed, each
  shuffle and share with its proof) for each player count asked, and the example. For each round:
  its entries; the decisions among them (the moves, sealed reserves and their reveals players
  make); the entries only the engine asks for (randomness for a city turned up, a ``sync``
  carrying a shuffle or shares); and the emails, one each time the file changes hands (a seat's
  entries in a row go in one message). What a seat owes the deck rides in its next entry, so it
  costs an entry of its own only when the seat has nothing else to send.

``--quick`` (what CI runs): 2 rules-only games, one run of each timing, and for (c) one 2-player
ledger game to the end of its first round, besides the example.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' players and dealer

from bench_verify import example_verify

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine.ledger import Ledger
from pbem.games.il_principe.state import OVER, Game
from pbem.games.il_principe.view import breakdown
from tests.games.il_principe.support import dealer_for, new_game, playout
from tests.games.il_principe.test_ledger import SEATS, played

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "principe-four-players.toml"
DECISIONS = ("move", "commit", "reveal")  # what players choose; "contribute" and "sync" the engine asks
LEDGER_SEED = 1


def rules_game(seats: Sequence[str], seed: int) -> int:
    """One random complete game through the rules, scored; the number of moves made."""
    game = new_game(tuple(seats))
    dealer = dealer_for(game, seed)
    game = last = dealer.settle(game)
    made = 0
    for _, after, _, _ in playout(game, dealer, random.Random(seed)):
        made, last = made + 1, after
    if last.phase != OVER or not breakdown(last):
        raise SystemExit(f"game {seed} did not end with a score")
    return made


# --- (c) what a round costs --------------------------------------------------------------------


@dataclass
class Round:
    entries: Counter[str] = field(default_factory=Counter)  # by kind
    emails: int = 0

    @property
    def total(self) -> int:
        return sum(self.entries.values())

    @property
    def decisions(self) -> int:
        return sum(self.entries[kind] for kind in DECISIONS)


def per_round(entries: Sequence[dict[str, Any]], rounds: Sequence[int]) -> dict[int, Round]:
    """The entries made during play, each counted in the round its step began in (``rounds``,
    one per entry), and the emails: one for each run of entries by one seat."""
    found: dict[int, Round] = {}
    previous = ""
    for entry, number in zip(entries, rounds, strict=True):
        counted = found.setdefault(number, Round())
        counted.entries[entry["kind"]] += 1
        if entry["by"] != previous:
            counted.emails += 1
        previous = entry["by"]
    return found


def ledger_game(players: int, until_round: int | None) -> tuple[dict[int, Round], bool]:
    """A game played through the signed ledger; its rounds, and whether it reached the end."""
    rounds: list[int] = []
    first: list[int] = []

    def stop(game: Ledger) -> bool:
        assert game.table is not None
        state: Game = game.table.state
        if not first:
            first.append(len(game.entries))
        rounds.append(state.round)
        if until_round is not None and state.round > until_round:
            return True
        return state.phase == OVER

    result = played(SEATS[:players], LEDGER_SEED, until=stop)
    entries = result.ledger.entries[first[0] :]
    rounds.pop()  # the call that stopped play came after the last entry
    state: Game = result.ledger.table.state  # type: ignore[union-attr]
    return per_round(entries, rounds), state.phase == OVER


def example_rounds(path: Path) -> dict[int, Round]:
    """The example's rounds, from a replay of its entries one by one."""
    data = gamefile.load(path).data
    entries: list[dict[str, Any]] = data["entry"]
    game = ledger_mod.admit(None, entries[0], data["components"])
    rounds: list[int] = []
    start = 0
    for index, entry in enumerate(entries[1:], start=1):
        if game.table is None:
            start = index + 1
        else:
            rounds.append(game.table.state.round)
        game = ledger_mod.admit(game, entry)
    assert game.table is not None and game.table.state.phase == OVER
    return per_round(entries[start:], rounds)


def round_rows(name: str, found: dict[int, Round]) -> list[dict[str, Any]]:
    rows = []
    for number, counted in sorted(found.items()):
        rows.append(
            {
                "game": name,
                "round": number,
                "entries": counted.total,
                "decisions": counted.decisions,
                "engine": counted.total - counted.decisions,
                "sync": counted.entries["sync"],
                "contribute": counted.entries["contribute"],
                "emails": counted.emails,
            }
        )
    return rows


def summary(name: str, found: dict[int, Round], ended: bool) -> dict[str, Any]:
    """Totals, and the mean of a middle round (neither the first, with the deck's first shuffles
    and the cities turned up, nor the last, dealt face up without phase 1)."""
    middle = [found[number] for number in sorted(found)[1:-1]] if ended else []
    mean = (lambda pick: round(statistics.mean(pick(r) for r in middle), 1)) if middle else (lambda _: None)
    return {
        "game": name,
        "rounds": len(found),
        "ended": ended,
        "entries": sum(r.total for r in found.values()),
        "decisions": sum(r.decisions for r in found.values()),
        "emails": sum(r.emails for r in found.values()),
        "middle_round_entries": mean(lambda r: r.total),
        "middle_round_decisions": mean(lambda r: r.decisions),
        "middle_round_engine": mean(lambda r: r.total - r.decisions),
        "middle_round_emails": mean(lambda r: r.emails),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", default="2,4,5", help="player counts of the ledger games in (c)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a check that every part still runs")
    args = parser.parse_args()
    counts = [int(number) for number in args.players.split(",")]
    until_round = None
    if args.quick:
        args.games, args.repeat, counts, until_round = 2, 1, [2], 1
    if not EXAMPLE.exists():
        raise SystemExit(f"{EXAMPLE} is missing: python examples/play-principe.py makes it")

    start = time.perf_counter()
    moves = [rules_game(SEATS[:4], args.seed + index) for index in range(args.games)]
    elapsed = time.perf_counter() - start
    results: dict[str, Any] = {
        "rules_games_per_second": round(args.games / elapsed, 2),
        "rules_moves_per_game": round(statistics.mean(moves), 1),
        "rules_ms_per_move": round(elapsed * 1000 / sum(moves), 3),
    }
    results.update(example_verify(EXAMPLE, args.repeat))

    games: list[tuple[str, dict[int, Round], bool]] = []
    for players in counts:
        began = time.perf_counter()
        found, ended = ledger_game(players, until_round)
        if until_round is None and not ended:
            raise SystemExit(f"the {players}-player ledger game did not end")
        games.append((f"{players} players, ledger", found, ended))
        results[f"ledger_{players}_players_seconds"] = round(time.perf_counter() - began, 1)
    games.append(("4 players, example", example_rounds(EXAMPLE), True))
    results["rounds"] = [row for name, found, _ in games for row in round_rows(name, found)]
    results["games"] = [summary(name, found, ended) for name, found, ended in games]

    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    if args.quick:
        print("(--quick: a check that every part runs; its figures measure nothing)")
    for key, value in results.items():
        if not isinstance(value, list):
            print(f"{key:<32} {value}")
    print()
    heads = (
        ("round", 5),
        ("entries", 7),
        ("decisions", 9),
        ("engine", 6),
        ("sync", 4),
        ("roll", 4),
        ("emails", 6),
    )
    print(f"{'game':<20} " + " ".join(f"{name:>{width}}" for name, width in heads))
    for row in results["rounds"]:
        print(
            f"{row['game']:<20} {row['round']:>5} {row['entries']:>7} {row['decisions']:>9} "
            f"{row['engine']:>6} {row['sync']:>4} {row['contribute']:>4} {row['emails']:>6}"
        )
    print()
    print(
        f"{'game':<20} {'rounds':>6} {'entries':>7} {'decisions':>9} {'emails':>6}   "
        "a middle round: entries, decisions, engine, emails"
    )
    for game in results["games"]:
        middle = ", ".join(
            str(game[f"middle_round_{key}"]) for key in ("entries", "decisions", "engine", "emails")
        )
        print(
            f"{game['game']:<20} {game['rounds']:>6} {game['entries']:>7} {game['decisions']:>9} "
            f"{game['emails']:>6}   {middle}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
