"""What a hidden deck adds to ``pbem verify``: a game with a 25-card hidden deck, 4 and 6 players.

Run from the repository root::

    python benchmarks/bench_hidden_game.py [--players 4,6] [--cards 25] [--draws 12] [--repeat R]
                                           [--pure] [--json]

For each table size it plays a small game through the library, as ``pbem play`` does (every entry
signed and replayed): every seat joins with its deck key, shuffles the deck in turn (each shuffle
riding in an ordinary move), then seats draw in turn (every other seat's share riding in its next
move) and every other card drawn is played face up. On the file it writes, it times:

* (a) full verify: ``gamefile.load`` and ``ledger.audit``, every proof checked, as ``pbem verify``;
* (b) cached: the same with every proof already in the cache of checked proofs, as any other
  command after the first on that machine;
* (c) the floor: parsing, rebuilding each signed message and checking each Ed25519 signature
  (``bench_verify.floor``), the least any verifier does.

It uses gmpy2 when it is installed (``pbem[fast]``); ``--pure`` measures pure Python instead.
Each figure is the median of R runs. The game's rules are this file's ``RULES``: the test game of
``tests/hidden_deck_game.py`` with a deck of N cards.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the test game's rules

from bench_verify import floor

from pbem import gamefile
from pbem.crypto import group
from pbem.crypto.deck_groups import NEW_GROUP
from pbem.crypto.groups import Group
from pbem.crypto.identity import SecretKeys
from pbem.engine import decks as hidden_decks
from pbem.engine import ledger as ledger_mod
from pbem.engine import play, registry
from pbem.engine.registry import DEADLINE, GameInfo
from pbem.engine.ruleset import DeckSpec
from tests.hidden_deck_game import DECK, Rules, State

CARDS = 25
NAME = "hidden-deck-bench"
AT = "2026-01-01T00:00:00Z"


class BenchRules(Rules):
    cards: tuple[str, ...] = tuple(f"card-{index}" for index in range(CARDS))

    def hidden_decks(self, state: State) -> list[DeckSpec]:
        return [DeckSpec(DECK, self.cards)]


RULES = BenchRules()
RULES.info = GameInfo(NAME, "Hidden deck benchmark", 2, 6, ("1",), (DEADLINE,), rules=lambda: RULES)


def make_game(directory: Path, players: int, draws: int, group: Group = NEW_GROUP) -> tuple[Path, int]:
    seats = [f"s{index}" for index in range(players)]
    keys = {seat: SecretKeys.generate() for seat in seats}
    setup = ledger_mod.plan(game=NAME, edition=None, options={}, seats=seats, creator=seats[0])
    nonce = secrets.token_hex(16)
    current = ledger_mod.new_game(setup, keys[seats[0]], at=AT, nonce=nonce, components={}, group=group)
    for seat in seats[1:]:
        current, _ = ledger_mod.join(current, seat, keys[seat], AT)
    turn, drawn, shown = 0, 0, 0
    while drawn < draws or any(play.owes_decks(current, seat) for seat in seats):
        seat = seats[turn % players]
        table = current.table
        assert table is not None and table.decks is not None
        deck = table.decks.decks[DECK]
        readable = play.hidden_hand(current, seat, keys[seat])
        ready = [token for token, card in readable.items() if card is not None]
        if ready and shown < drawn // 2:
            text, shown = f"show {ready[0]}", shown + 1
        elif table.decks.ready(deck) and drawn < draws:
            text, drawn = "draw", drawn + 1
        else:
            text = "pass"
        current, _ = play.play(current, seat, text, keys[seat], AT)
        turn += 1
    path = directory / f"hidden-{players}-{group.name}.toml"
    text = gamefile.render_new(
        current.header(), current.roster_table(), {}, current.entries, current.status_lines()
    )
    gamefile.write_new(path, text)
    return path, len(current.entries)


def timed(runs: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def full_verify(path: Path) -> None:
    hidden_decks._PASSED.clear()  # nothing remembered: every proof checked, as in a new process
    result = ledger_mod.audit(gamefile.load(path).data, lambda key, run: run())
    assert result.ok, result.problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="4,6")
    parser.add_argument("--cards", type=int, default=CARDS)
    parser.add_argument("--draws", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pure", action="store_true", help="pure Python even if gmpy2 is installed")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="a check that it still runs (3 players, 6 cards, 2 draws, 1 run)"
    )
    args = parser.parse_args()
    if args.quick:
        args.players, args.cards, args.draws, args.repeat = "3", 6, 2, 1
    backend = "gmpy2" if group.use_gmpy2(not args.pure) else "pure Python"
    BenchRules.cards = tuple(f"card-{index}" for index in range(args.cards))
    registry.games()
    registry.register(RULES.info)
    sys.modules.setdefault("bench_hidden_game", sys.modules[__name__])
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        for players in (int(part) for part in args.players.split(",")):
            start = time.perf_counter()
            path, entries = make_game(Path(work), players, args.draws)
            made = time.perf_counter() - start
            seen: set[str] = set()

            def remember(key: str, run: Callable[[], None], seen: set[str] = seen) -> None:
                if key not in seen:
                    run()
                    seen.add(key)

            ledger_mod.audit(gamefile.load(path).data, remember)  # fills the cache

            def cached(path: Path = path) -> None:
                ledger_mod.audit(gamefile.load(path).data, remember)

            row = {
                "players": players,
                "backend": backend,
                "cards": args.cards,
                "entries": entries,
                "kib": round(path.stat().st_size / 1024),
                "play_s": round(made, 1),
                "full_verify_s": round(timed(args.repeat, partial(full_verify, path)), 2),
                "cached_verify_s": round(timed(args.repeat, cached), 2),
                "floor_s": round(timed(args.repeat, partial(floor, path)), 3),
            }
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"arithmetic: {backend}")
    print(f"{'players':>7} {'entries':>7} {'KiB':>6} {'play':>7} {'verify':>8} {'cached':>8} {'floor':>7}")
    for row in rows:
        print(
            f"{row['players']:>7} {row['entries']:>7} {row['kib']:>6} {row['play_s']:>6}s "
            f"{row['full_verify_s']:>7}s {row['cached_verify_s']:>7}s {row['floor_s']:>6}s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
