"""How fast are the rules of Princes of the Renaissance, and what do they add to ``pbem verify``?

Run from the repository root::

    python benchmarks/bench_game.py [--games G] [--repeat R] [--seed S] [--json]

It measures, in one run:

* complete random games per second, 4 players, rules only (setup, the opening, three decades and
  final scoring through the ruleset, moves chosen at random among the legal ones);
* one complete 4-player game played through the signed ledger (every entry signed, as
  ``pbem play`` does), written to a temporary file; then on that file:
  (a) ``verify`` in-process: load + audit, which replays every move through the rules;
  (b) the floor: parsing, rebuilding each signed message and checking each Ed25519 signature;
  ``(a) / (b)`` is what the game's rules and bookkeeping add to the unavoidable work, and
  ``(a) / entries`` is the average cost of replaying one entry.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import floor, verify_in_process

from pbem import gamefile
from pbem.cli.template_files import bundled
from pbem.crypto.identity import SecretKeys
from pbem.crypto.randomness import Draws
from pbem.engine import ledger as ledger_mod
from pbem.engine import play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import DECK_DEMANDS
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.keys import KeyStore
from pbem.kit.templates import values

GAME = "princes-of-the-renaissance"
SEATS = ("a", "b", "c", "d")
AT = "2026-01-01T00:00:00Z"


def choose(rnd: random.Random, moves: list[str], auction: bool) -> str:
    """A random legal move, leaning towards auctions so that games end, with wars, cards and
    powers often enough that replay exercises them."""
    by_verb: dict[str, list[str]] = {}
    for move in moves:
        by_verb.setdefault(move.split()[0], []).append(move)
    if auction:
        raises = by_verb.get("bid", [])
        return rnd.choice(raises[:3]) if raises and rnd.random() < 0.4 else "pass"
    weights = {"auction": 5, "buy": 6, "war": 3, "play": 4, "use": 3, "bank": 0.3, "pass": 0.7}
    verbs = list(by_verb)
    verb = rnd.choices(verbs, [weights.get(verb, 1) for verb in verbs])[0]
    if verb == "auction":
        tile = rnd.choice(sorted({move.split()[1] for move in by_verb["auction"]}))
        return min((m for m in by_verb["auction"] if m.split()[1] == tile), key=lambda m: int(m.split()[2]))
    if verb in ("bid", "family"):
        return rnd.choice(by_verb[verb][:12])
    return rnd.choice(by_verb[verb])


def rules_game(seed: int, components: dict[str, Any]) -> list[tuple[str, str]]:
    """One complete game through the ruleset alone; returns the moves (seat, text) made."""
    rnd = random.Random(seed)
    state = RULES.setup(SEATS, "2016", {"turn_order": "bid", "family_side": "a"}, components)
    made: list[tuple[str, str]] = []
    dealt = 0
    while state.phase != "game over":
        requests = RULES.random_requests(state)
        demands = RULES.demands(state)
        if requests and not (requests[0].after_sealing and demands):
            context = requests[0].context
            state = RULES.resolve(
                state, context, Draws("00" * 16, context, [(s, rnd.randbytes(32)) for s in SEATS])
            )
            continue
        demand = rnd.choice(demands)
        # Without the engine nobody can show a hidden card, so the ruleset alone plays none.
        moves = [text for text in RULES.legal_moves(state, demand.seat) if not text.startswith("play ")]
        text = choose(rnd, moves, state.phase == "auction")
        move = RULES.parse(text)
        RULES.check(state, demand.seat, move)
        state = RULES.apply(state, demand.seat, move)
        for request in RULES.draw_requests(state):  # dealt as the engine would, a slot each
            state = RULES.card_drawn(state, request, f"{request.deck_id}:{dealt}")
            dealt += 1
        made.append((demand.seat, text))
    return made


def signed_game(directory: Path, seed: int, components: dict[str, Any]) -> tuple[Path, Ledger]:
    """One complete game through the signed ledger, as players make it with pbem play."""
    rnd = random.Random(seed)
    store = KeyStore(directory / "home")
    keys: dict[str, SecretKeys] = {}
    for seat in SEATS:
        store.create(seat, None, AT)
        keys[seat] = store.secret(seat, lambda prompt: None)
    setup = ledger_mod.plan(game=GAME, edition="2016", options={}, seats=list(SEATS), creator="a")
    game = ledger_mod.new_game(setup, keys["a"], at=AT, nonce=secrets.token_hex(16), components=components)
    for seat in SEATS[1:]:
        game, _ = ledger_mod.join(game, seat, keys[seat], AT)
    assert game.table is not None
    while game.table.state.phase != "game over":
        seat = rnd.choice(sorted({demand.seat for demand in tables.demands(RULES, game.table)}))
        demand, moves = play.legal(game, seat, play.hidden_hand(game, seat, keys[seat]))
        assert demand is not None
        if demand.kind == "reveal":
            game, _ = play.reveal(game, seat, keys[seat], AT)
        elif demand.kind in DECK_DEMANDS:
            game, _ = play.sync(game, seat, keys[seat], AT)
        else:
            text = "roll" if demand.kind == "contribute" else choose(rnd, moves, "auction" in demand.step)
            game, _ = play.play(game, seat, text, keys[seat], AT)
        assert game.table is not None
    path = directory / "game.toml"
    text = gamefile.render_new(
        game.header(), game.roster_table(), components, game.entries, game.status_lines()
    )
    gamefile.write_new(path, text)
    return path, game


def timed(runs: int, work: Callable[[], object]) -> list[float]:
    work()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a check that every part still runs (2 games, 1 run, a deck of one card of each kind), "
        "not a measurement",
    )
    args = parser.parse_args()
    template = bundled(GAME, "2016")
    assert template is not None
    components = values(template)
    if args.quick:
        args.games, args.repeat = 2, 1
        components["treachery"] = [{**card, "copies": 1} for card in components["treachery"]]

    start = time.perf_counter()
    moves = [len(rules_game(args.seed + index, components)) for index in range(args.games)]
    elapsed = time.perf_counter() - start
    results: dict[str, Any] = {
        "rules_games_per_second": round(args.games / elapsed, 2),
        "rules_moves_per_game": round(statistics.mean(moves), 1),
        "rules_ms_per_move": round(elapsed * 1000 / sum(moves), 3),
    }
    with tempfile.TemporaryDirectory(prefix="pbem-bench-game-") as work:
        path, game = signed_game(Path(work), args.seed, components)
        entries = len(game.entries)
        verify = timed(args.repeat, lambda: verify_in_process(path))
        base = timed(args.repeat, lambda: floor(path))
        results.update(
            {
                "signed_game_entries": entries,
                "signed_game_kib": round(path.stat().st_size / 1024, 1),
                "verify_ms": round(statistics.median(verify) * 1000, 1),
                "floor_ms": round(statistics.median(base) * 1000, 1),
                "verify_over_floor": round(statistics.median(verify) / statistics.median(base), 2),
                "verify_ms_per_entry": round(statistics.median(verify) * 1000 / entries, 3),
            }
        )
    example = Path(__file__).resolve().parent.parent / "examples" / "four-players.toml"
    if example.exists():
        verify = timed(args.repeat, lambda: verify_in_process(example))
        base = timed(args.repeat, lambda: floor(example))
        entries = len(ledger_mod.read(gamefile.load(example).data).entries)
        results.update(
            {
                "example_entries": entries,
                "example_verify_ms": round(statistics.median(verify) * 1000, 1),
                "example_floor_ms": round(statistics.median(base) * 1000, 1),
                "example_verify_over_floor": round(statistics.median(verify) / statistics.median(base), 2),
                "example_verify_ms_per_entry": round(statistics.median(verify) * 1000 / entries, 3),
            }
        )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:<28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
