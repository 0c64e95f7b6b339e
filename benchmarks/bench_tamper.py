"""How well verification catches tampering: every class of semantic mutation, thousands of times.

Run from the repository root::

    python benchmarks/bench_tamper.py [--per-class N] [--entries E] [--cli C] [--seed S] [--json]
                                      [--quick] [FILE ...]

It mutates sound game files with the classes of ``tests/mutations.py`` (an entry's text, a bid,
its author, seq, prev, time, randomness link or signature; an entry dropped, repeated, swapped,
cut off or spliced from another game; the header, roster and component copies; the genesis; a
sealed choice; a hidden-deck proof or share; an entry changed and signed again by its own author;
a seat's second entry for one step; a value written another way), N times per class at seeded
random places, and audits each mutated file. A mutation is *caught* when the first problem names
the place it was made (the entry, or the header field or roster seat), *null* when the file reads
exactly as before. C mutations per class and game also go through ``pbem verify``, which must
exit 3 (6 for equivocation) with the audit's first problem, or 0 for a null one.

The games: one played here through the signed ledger (E entries or more, the full Treachery deck,
every kind of entry, steps of several entries, a hidden card shown), ``examples/three-players.toml``,
and the FILEs given, or else the four-player examples where they verify. It exits 1 if any
mutation was missed, named elsewhere, or made the audit raise, or if ``pbem verify`` disagreed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the harness lives with the tests

from tests import mutations
from tests.mutations import CAUGHT, MISNAMED, MISSED, NULL, RAISED, Sound, Tally

OUTCOMES = (CAUGHT, NULL, MISSED, MISNAMED, RAISED)
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def games(args: argparse.Namespace) -> tuple[list[Sound], list[str]]:
    """The sound games to mutate, and a line for each file left out because it does not verify."""
    sounds = [
        mutations.played_game(args.entries, small_deck=args.quick, handover=True),
        mutations.from_file(mutations.EXAMPLE),
    ]
    skipped = []
    paths = [Path(name) for name in args.files] or [
        EXAMPLES / "four-players.toml",
        EXAMPLES / "four-players-b-side.toml",
    ]
    for path in paths:
        try:
            sounds.append(mutations.from_file(path))
        except Exception as exc:
            if args.files:
                raise SystemExit(f"error: {exc}") from None
            skipped.append(f"{path.name}: {exc}")
    return sounds, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE", help="game files to mutate too")
    parser.add_argument("--per-class", type=int, default=50, help="mutations of each class per game")
    parser.add_argument("--entries", type=int, default=150, help="length of the game played here")
    parser.add_argument("--cli", type=int, default=2, help="mutations per class and game through pbem verify")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a check that every part still runs (a short game with a small deck, 3 mutations per "
        "class, one per class through pbem verify), not a measurement",
    )
    args = parser.parse_args()
    if args.quick:
        args.per_class, args.entries, args.cli = 3, 30, 1
    start = time.perf_counter()
    sounds, skipped = games(args)
    donors = [mutations.notes_game("77" * 16), sounds[1]]
    built = time.perf_counter() - start
    tally = Tally()
    per_game: dict[str, dict[str, int]] = {}
    for sound in sounds:
        mine = Tally()
        mutations.run(sound, donors, args.per_class, args.seed, mine)
        per_game[sound.name] = {"entries": len(sound.entries)} | {o: mine.total(o) for o in OUTCOMES}
        for name, row in mine.counts.items():
            total = tally.counts.setdefault(name, dict.fromkeys(OUTCOMES, 0))
            for outcome, count in row.items():
                total[outcome] += count
        tally.failures += mine.failures
    judged = time.perf_counter() - start - built
    with tempfile.TemporaryDirectory(prefix="pbem-bench-tamper-") as work:
        cli_runs, complaints = mutations.through_verify(
            sounds, donors, args.cli, args.seed, Path(work), every_game=not args.quick
        )
    results: dict[str, Any] = {
        "games": per_game,
        "skipped": skipped,
        "classes": tally.counts,
        "mutations": sum(sum(row.values()) for row in tally.counts.values()),
        "totals": {outcome: tally.total(outcome) for outcome in OUTCOMES},
        "verify_runs": cli_runs,
        "verify_disagreements": complaints,
        "failures": [
            f"{mutation.kind}: {mutation.what}: {verdict.outcome}: {verdict.problem or verdict.detail}"
            for mutation, verdict in tally.failures
        ],
        "seconds": {
            "build": round(built, 1),
            "judge": round(judged, 1),
            "total": round(time.perf_counter() - start, 1),
        },
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 1 if tally.failures or complaints else 0


def print_report(results: dict[str, Any]) -> None:
    print(f"{'game':<28} {'entries':>7} " + " ".join(f"{outcome:>8}" for outcome in OUTCOMES))
    for name, row in results["games"].items():
        print(f"{name:<28} {row['entries']:>7} " + " ".join(f"{row[outcome]:>8}" for outcome in OUTCOMES))
    for line in results["skipped"]:
        print(f"skipped (does not verify): {line}")
    print()
    print(f"{'class':<28} {'made':>7} " + " ".join(f"{outcome:>8}" for outcome in OUTCOMES))
    for name, row in results["classes"].items():
        print(f"{name:<28} {sum(row.values()):>7} " + " ".join(f"{row[outcome]:>8}" for outcome in OUTCOMES))
    totals = results["totals"]
    print(
        f"{'all':<28} {results['mutations']:>7} " + " ".join(f"{totals[outcome]:>8}" for outcome in OUTCOMES)
    )
    print()
    disagreements = results["verify_disagreements"]
    print(f"through pbem verify: {results['verify_runs']} files, {len(disagreements)} disagreements")
    for line in results["verify_disagreements"] + results["failures"]:
        print(f"  {line}")
    seconds = results["seconds"]
    print(f"{seconds['total']} s (games built in {seconds['build']} s, judged in {seconds['judge']} s)")


if __name__ == "__main__":
    sys.exit(main())
