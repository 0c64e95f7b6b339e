"""What a hidden deck costs: shuffles with their proof or audit, draws, plays, in 2048-bit groups.

Run from the repository root::

    python benchmarks/bench_hidden_deck.py [--cards N] [--players 4,6] [--repeat R] [--json]

For each table size it makes every seat's key (with its proof), deals the open deck of N cards
(default 25, the Treachery deck), and has every seat shuffle in turn, timing:

* one seat's shuffle (re-mask and permute every card), the proof of it, and checking that proof;
* the audited alternative: the seed commitment and the audit of one shuffle, and the end-of-game
  audit of every seat's shuffle (what a verifier does once the seeds are revealed);
* checking every seat's shuffle proof (what a verifier of the whole file does instead);
* a private draw: one seat's decryption share with its proof, checking one share, and the drawer
  reading its card from the others' shares; a card played face up: checking every share and
  the claim.

The baseline, measured in the same run, is one 2048-bit modular exponentiation with a full-size
exponent (``pow(y, x, p)``, x below q); every figure is also given as a multiple of it. Everything
runs in pure Python first; if gmpy2 happens to be importable the whole table is measured again
with it. Each figure is the median of its samples (one per seat, or R runs).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from pbem.crypto import group
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.groups import Element

GAME = "0123456789abcdef0123456789abcdef"
DECK = "treachery"

ROWS = (
    ("modexp", "baseline: one 2048-bit modexp"),
    ("fixed_base", "g^x with g's table"),
    ("key", "one seat's key + proof, checked"),
    ("shuffle", "one seat's shuffle (re-mask, permute)"),
    ("prove", "  its proof of shuffle"),
    ("check", "  checking that proof"),
    ("commit", "  or: its seed commitment"),
    ("audit", "  or: auditing it from the seed"),
    ("all_checks", "every seat's shuffle proof checked"),
    ("all_audits", "end-of-game audit of every shuffle"),
    ("share", "one decryption share + proof"),
    ("share_check", "checking one share"),
    ("read", "drawer reads its card (others' shares)"),
    ("play_check", "card played: every share + claim"),
)


def median_ms(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1000


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def measure(players: int, cards: int, repeat: int, rng: random.Random) -> dict[str, float]:
    """Median milliseconds of every row for one table size."""
    seats = [chr(ord("a") + i) for i in range(players)]
    samples: dict[str, list[float]] = {key: [] for key, _ in ROWS}

    base = group.hash_to_element("bench", b"base")
    for _ in range(repeat):
        exponent = rng.randrange(group.Q)
        samples["modexp"].append(timed(lambda: group.power(base, exponent)))  # noqa: B023
        samples["fixed_base"].append(timed(lambda: group.GENERATOR(exponent)))  # noqa: B023

    secrets: dict[str, int] = {}
    publics: dict[str, Element] = {}
    for seat in seats:

        def key(seat: str = seat) -> None:
            secret = hd.derive_secret(rng.randbytes(32), GAME, seat)
            public = hd.public_key(secret)
            hd.check_key(public, hd.prove_key(secret, GAME, seat), GAME, seat)
            secrets[seat], publics[seat] = secret, public

        samples["key"].append(timed(key))
    joint = hd.joint_key(publics.values())
    group.fixed_base(joint)(1)  # the joint key's table is built once per game, not per shuffle

    deck = hd.open_deck(cards, joint)
    audits: list[Callable[[], None]] = []
    checks: list[Callable[[], None]] = []
    for seat in seats:
        seed = rng.randbytes(32)
        before = deck
        start = time.perf_counter()
        after, secret = sh.shuffle(before, joint, seed, game_id=GAME, deck_id=DECK, seat=seat)
        samples["shuffle"].append(time.perf_counter() - start)
        start = time.perf_counter()
        proof = sp.prove_shuffle(
            sh.ShuffleStatement(before, after, joint, game_id=GAME, deck_id=DECK, seat=seat), secret
        )
        samples["prove"].append(time.perf_counter() - start)
        start = time.perf_counter()
        committed = sh.seed_commitment(seed, game_id=GAME, deck_id=DECK, seat=seat)
        samples["commit"].append(time.perf_counter() - start)

        def check(
            b: list[hd.Ciphertext] = before,
            a: list[hd.Ciphertext] = after,
            s: str = seat,
            p: sp.ShuffleProof = proof,
        ) -> None:
            sp.check_shuffle(sh.ShuffleStatement(b, a, joint, game_id=GAME, deck_id=DECK, seat=s), p)

        def audit(
            b: list[hd.Ciphertext] = before,
            a: list[hd.Ciphertext] = after,
            s: str = seat,
            seed: bytes = seed,
            committed: str = committed,
        ) -> None:
            sh.audit_shuffle(b, a, joint, seed, committed, game_id=GAME, deck_id=DECK, seat=s)

        samples["check"].append(timed(check))
        samples["audit"].append(timed(audit))
        checks.append(check)
        audits.append(audit)
        deck = after
    samples["all_checks"].append(sum(timed(check) for check in checks))
    samples["all_audits"].append(sum(timed(audit) for audit in audits))

    for run in range(repeat):
        position = run % cards
        drawer = seats[run % players]
        ct = deck[position]
        others = []
        for seat in seats:
            if seat == drawer:
                continue
            start = time.perf_counter()
            given = hd.share(secrets[seat], ct, game_id=GAME, deck_id=DECK, position=position, seat=seat)
            samples["share"].append(time.perf_counter() - start)
            samples["share_check"].append(
                timed(
                    lambda given=given, position=position, ct=ct: hd.check_share(  # type: ignore[misc]
                        publics[given.seat], ct, given, game_id=GAME, deck_id=DECK, position=position
                    )
                )
            )
            others.append(given)
        start = time.perf_counter()
        card = hd.read_card(secrets[drawer], ct, [given.value for given in others], cards)
        samples["read"].append(time.perf_counter() - start)
        own = hd.share(secrets[drawer], ct, game_id=GAME, deck_id=DECK, position=position, seat=drawer)
        start = time.perf_counter()
        hd.check_play(
            ct, [*others, own], publics, card, cards=cards, game_id=GAME, deck_id=DECK, position=position
        )
        samples["play_check"].append(time.perf_counter() - start)
    return {key: median_ms(values) for key, values in samples.items()}


def print_table(title: str, results: dict[int, dict[str, float]]) -> None:
    sizes = sorted(results)
    width = max(len(label) for _, label in ROWS)
    print(title)
    header = "  ".join(f"{f'{n} players ms':>14}  {'modexps':>8}" for n in sizes)
    print(f"{'measurement':<{width}}  {header}")
    print(f"{'-' * width}  {'  '.join('-' * 14 + '  ' + '-' * 8 for _ in sizes)}")
    for key, label in ROWS:
        cells = []
        for n in sizes:
            value = results[n][key]
            cells.append(f"{value:>14.1f}  {value / results[n]['modexp']:>7.1f}x")
        print(f"{label:<{width}}  {'  '.join(cells)}")
    print()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cards", type=int, default=25, help="cards in the deck (default 25)")
    parser.add_argument("--players", default="4,6", help="table sizes, comma-separated (default 4,6)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of the small measurements (default 5)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--seed", type=int, default=2026, help="seed for keys and shuffles (default 2026)")
    parser.add_argument(
        "--quick", action="store_true", help="a check that it still runs (3 players, 6 cards, 1 run)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.cards, args.players, args.repeat = 6, "3", 1
    sizes = [int(part) for part in args.players.split(",")]
    if args.cards < 2 or args.repeat < 1 or any(n < 2 or n > 26 for n in sizes):
        parser.error("need at least 2 cards, 1 run, and 2 to 26 players")

    backends = [("pure Python", False)]
    if group.gmpy2_available():
        backends.append(("gmpy2", True))
    report: dict[str, Any] = {
        "cards": args.cards,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "gmpy2": group.gmpy2_available(),
        "results": {},
    }
    for name, enabled in backends:
        group.use_gmpy2(enabled)
        results: dict[int, dict[str, float]] = {}
        for n in sizes:
            print(f"measuring {n} players, {args.cards} cards, {name} ...", file=sys.stderr, flush=True)
            results[n] = measure(n, args.cards, args.repeat, random.Random(args.seed))
        report["results"][name] = {str(n): {k: round(v, 2) for k, v in r.items()} for n, r in results.items()}
        if not args.json:
            print_table(
                f"hidden deck, {args.cards} cards, {name}; Python {report['python']}, "
                f"{report['platform']}, {report['cpus']} CPUs",
                results,
            )
    group.use_gmpy2(True)
    if args.json:
        print(json.dumps(report, indent=2))
    elif not group.gmpy2_available():
        print("gmpy2 is not importable here: pure Python only.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
