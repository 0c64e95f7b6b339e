"""How well and how fast does the computer player (``pbem.kit.computer``) play each game?

Run from the repository root::

    python benchmarks/bench_computer.py [--games N] [--playouts N | --seconds T] [--game NAME]
                                        [--opponents tests|uniform|sensible] [--seed S] [--json]
                                        [--horizon H] [--prior N] [--quick]

For each game in the registry (or ``--game``), four-player games at the rules level (the tests'
dealer standing in for the hidden decks, pbem/kit/dealer.py): one seat played by the computer,
with a budget of playouts (or seconds) per move, against three random players: the random players
of the game's own tests where it has them (``--opponents tests``: Princes of the Renaissance's
playout tests, Il Principe's ``support.choose``; Princes of Florence's tests and benchmark play
uniformly), or a move drawn uniformly among those the rules accept (``--opponents uniform``, what
the computer's own playouts play), or the "sensible" players of the example games
(``--opponents sensible``: each ``examples/play-*.py``'s own chooser, given what ``pbem moves`` and
``pbem show --as`` would give it; benchmarks/sensible.py). The computer's seat goes round the
table from game to game. Its playouts are cut short after the game's horizon and judged by the
game's own estimate (``evaluate.py`` in its package) unless ``--to-the-end`` (``--horizon``: cut
after so many moves instead of the game's own; ``--prior``: the playouts' worth of the estimate
one move on each root move starts with, 0 for none).
Per game: the games played, the computer's share of the wins (a k-way tie counts 1/k; three random
players and a random fourth would get 0.25), its average rank (1 best; a tie on points goes as the
rules' tie-breaks say, else to the better rank), the seconds per move it searched, and the moves it
made without a choice.

In the same run, as the baseline: complete random games per second through the rules alone (every
move drawn uniformly, as in a playout), so a move's cost reads as so many random games.

``--quick`` (what CI runs): one game of each, 2 playouts per move, one baseline game: a check that
everything runs, not a measurement.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' players and setups

import sensible

from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import require_ruleset
from pbem.errors import IllegalMoveError
from pbem.games import GAMES
from pbem.kit.computer import Turn, Walk, choose, knowledge_of
from pbem.kit.computer.estimate import Estimate
from pbem.kit.computer.walk import WalkRules, shares
from pbem.kit.dealer import Dealer, Hands
from tests.games.setups import new_game

SEATS = ("anna", "bruno", "carla", "dario")
# A random player: the move text for ``turn`` (the rules may still refuse it).
Player = Callable[[Walk[Any], Turn, random.Random], str]


def potr_player(walk: Walk[Any], turn: Turn, rng: random.Random) -> str:
    from tests.games.princes_of_the_renaissance.test_playouts import choose as potr_choose

    return potr_choose(rng, walk.state, walk.options(turn.seat))


def principe_player(walk: Walk[Any], turn: Turn, rng: random.Random) -> str:
    from tests.games.il_principe.support import choose as principe_choose

    return principe_choose(walk.state, walk.dealer, turn.seat, rng)


# The random players of a game's own tests; a game not named here is played uniformly.
TEST_PLAYERS: dict[str, Player] = {
    "princes-of-the-renaissance": potr_player,
    "il-principe": principe_player,
}


@dataclass
class Results:
    """One game's figures, over every game the computer played."""

    game: str
    shares: list[float] = field(default_factory=list)
    ranks: list[float] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)  # seconds per move searched
    playouts: list[int] = field(default_factory=list)
    forced: int = 0  # moves made without a choice
    moves: int = 0  # every seat's moves, sealed choices included
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        searched = self.searched or [0.0]
        return {
            "game": self.game,
            "games": len(self.shares),
            "win_share": round(statistics.mean(self.shares), 3),
            "average_rank": round(statistics.mean(self.ranks), 2),
            "seconds_per_move": round(statistics.mean(searched), 3),
            "playouts_per_move": round(statistics.mean(self.playouts or [0]), 1),
            "moves_searched": len(self.searched),
            "moves_forced": self.forced,
            "moves_per_game": round(self.moves / max(1, len(self.shares)), 1),
            "seconds": round(self.seconds, 1),
        }


def rules_and_hands(info: GameInfo) -> tuple[WalkRules, Hands[Any]]:
    rules: WalkRules = require_ruleset(info)  # type: ignore[assignment]
    if info.hands is None:
        raise SystemExit(f"{info.name} declares no hands: the dealer cannot deal it")
    return rules, info.hands()


def walk_for(info: GameInfo, seed: str) -> tuple[WalkRules, Hands[Any], Dealer[Any], Walk[Any]]:
    rules, hands = rules_and_hands(info)
    state = new_game(info, SEATS)
    dealer = Dealer.of(rules, hands).reset(state, seed)
    return rules, hands, dealer, Walk(rules, dealer, dealer.settle(state), random.Random(seed))


def baseline(info: GameInfo, games: int, seed: int) -> dict[str, Any]:
    """Complete random games through the rules alone, every move drawn uniformly."""
    moves = 0
    start = time.perf_counter()
    for index in range(games):
        _, _, _, walk = walk_for(info, f"{seed}:baseline:{index}")
        while (turn := walk.turn()) is not None:
            walk.play_any(turn)
        moves += walk.moves
    elapsed = time.perf_counter() - start
    return {
        "random_games_per_second": round(games / elapsed, 2),
        "random_moves_per_game": round(moves / games, 1),
        "random_ms_per_move": round(elapsed * 1000 / moves, 3),
    }


def opponent_move(player: Player | None, walk: Walk[Any], turn: Turn, rng: random.Random) -> None:
    """The opponent's move; a move the rules refuse is chosen again, then drawn uniformly (as
    after a chooser that finds nothing it likes)."""
    if player is not None:
        for _attempt in range(20):
            try:
                walk.play(turn, player(walk, turn, rng))
            except (IllegalMoveError, SystemExit):
                continue
            return
    walk.play_any(turn)


def rank(rules: WalkRules, state: Any, seat: str) -> float:
    """1 + the seats ahead of ``seat``: a winner it is not, or more points than it."""
    won = shares(rules, state)
    totals = {other: row.get("total", 0) for other, row in rules.score(state).items()}
    ahead = [
        other
        for other in totals
        if other != seat and ((won[other] > 0 and won[seat] == 0) or totals[other] > totals[seat])
    ]
    return 1.0 + len(ahead)


def play_game(
    info: GameInfo, index: int, args: argparse.Namespace, results: Results, player: Player | None
) -> None:
    """One game: the computer in seat ``index`` mod 4, the others random."""
    rules, hands, dealer, walk = walk_for(info, f"{args.seed}:{index}")
    computer = SEATS[index % len(SEATS)]
    rng = random.Random(f"{args.seed}:{index}:players")
    while (turn := walk.turn(prefer=computer)) is not None:
        if turn.seat != computer:
            opponent_move(player, walk, turn, rng)
            continue
        knowledge = knowledge_of(rules, hands, dealer, walk.state, computer)
        began = time.perf_counter()
        choice = choose(
            rules,
            knowledge,
            computer,
            playouts=args.playouts,
            seconds=args.seconds,
            seed=f"{args.seed}:{index}:{walk.moves}",
            estimate=estimate_for(info, args),
            prior=args.prior,
        )
        if choice.playouts:
            results.searched.append(time.perf_counter() - began)
            results.playouts.append(choice.playouts)
        else:
            results.forced += 1
        walk.play(turn, choice.move)
    results.shares.append(shares(rules, walk.state)[computer])
    results.ranks.append(rank(rules, walk.state, computer))
    results.moves += walk.moves


def estimate_for(info: GameInfo, args: argparse.Namespace) -> Estimate | None:
    """The game's declared estimate, cut after ``--horizon`` moves where given; none with
    ``--to-the-end``."""
    if args.to_the_end or info.estimate is None:
        return None
    declared: Estimate = info.estimate()
    return declared if args.horizon is None else Estimate(declared.chance, args.horizon)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=8, help="games of each game played (default 8)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, help="playouts per move (default 200)")
    budget.add_argument("--seconds", type=float, help="seconds per move, instead of playouts")
    parser.add_argument("--game", action="append", help="only this game (by name; may be repeated)")
    parser.add_argument("--opponents", choices=("tests", "uniform", "sensible"), default="tests")
    parser.add_argument(
        "--to-the-end",
        action="store_true",
        help="every playout to the end, not cut short and judged by the game's estimate",
    )
    parser.add_argument("--horizon", type=int, help="moves before a playout is judged (default: the game's)")
    parser.add_argument(
        "--prior", type=int, help="playouts' worth of the estimate one move on (default: the game's)"
    )
    parser.add_argument("--baseline", type=int, default=5, help="random games for the baseline (default 5)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="one game of each, 2 playouts a move")
    args = parser.parse_args()
    if args.quick:
        args.games, args.playouts, args.seconds, args.baseline = 1, 2, None, 1
    if args.playouts is None and args.seconds is None:
        args.playouts = 200
    games = [info for info in GAMES if not args.game or info.name in args.game]
    if not games:
        raise SystemExit(f"no game named {', '.join(args.game)}")

    found: list[dict[str, Any]] = []
    for info in games:
        results = Results(info.name)
        player = {"tests": TEST_PLAYERS, "sensible": sensible.PLAYERS}.get(args.opponents, {}).get(info.name)
        began = time.perf_counter()
        for index in range(args.games):
            play_game(info, index, args, results, player)
            print(  # progress, on stderr: a full run takes minutes a game
                f"{info.name} game {index + 1}/{args.games}: share {results.shares[-1]:.2f}, "
                f"rank {results.ranks[-1]:.0f}, {time.perf_counter() - began:.0f} s so far",
                file=sys.stderr,
            )
        results.seconds = time.perf_counter() - began
        found.append({**results.summary(), **baseline(info, args.baseline, args.seed)})

    budget_said = f"{args.playouts} playouts" if args.playouts else f"{args.seconds} s"
    if args.json:
        print(json.dumps({"budget": budget_said, "opponents": args.opponents, "games": found}, indent=2))
        return 0
    if args.quick:
        print("(--quick: a check that every part runs; its figures measure nothing)")
    against = "the example games' sensible players" if args.opponents == "sensible" else "random players"
    print(f"the computer, {budget_said} a move, against three of {against} ({args.opponents})")
    heads = (
        "game",
        "games",
        "win share",
        "rank",
        "s/move",
        "playouts",
        "searched",
        "forced",
        "random games/s",
    )
    print(f"{heads[0]:<28} " + " ".join(f"{head:>9}" for head in heads[1:]))
    for row in found:
        cells = (
            row["games"],
            row["win_share"],
            row["average_rank"],
            row["seconds_per_move"],
            row["playouts_per_move"],
            row["moves_searched"],
            row["moves_forced"],
            row["random_games_per_second"],
        )
        print(f"{row['game']:<28} " + " ".join(f"{cell:>9}" for cell in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
