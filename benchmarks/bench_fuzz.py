"""Malformed files through every command that reads one: crashes, anomalies and exit codes.

Run from the repository root::

    python benchmarks/bench_fuzz.py [--files N] [--seed S] [--entries E] [--save DIR] [--json]
                                    [--quick] [FILE ...]

It breaks sound files with the breakers of ``tests/fuzzing.py`` (cut short, bytes and bits
flipped, characters put in or taken out, lines repeated or swapped, arrays nested deep, numbers
too big, values of the wrong type, tables missing or misdeclared, BOM, CR LF and UTF-16, bytes
that are not UTF-8, control characters, very long strings, a reply's quote marks, two files
mixed, a value changed, the same tables in another layout, TOML-ish garbage, random bytes), one
to three at a time, and puts each of N files through ``pbem verify``, ``status``, ``show``,
``log``, ``moves --as SEAT``, ``play --as SEAT pass``, ``note``, ``merge``, ``table verify`` and
``key import``, in this process (Typer's test runner), each file with a fresh pbem home holding
the seats' keys.

The sound files: ``examples/three-players.toml``, the table logs of ``examples/table/``, an
exported identity, a game played here through the signed ledger (E entries, a small hidden deck),
a short game of notes, and the FILEs given (a game file or a table log). It prints the exit codes
per command, and every crash (an exception instead of an exit, with its traceback) and anomaly (a
failure without an ``error:`` line, an exit code pbem does not document, a file changed by a
command that failed); it exits 1 if there is any. ``--save DIR`` keeps the files behind them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the harness lives with the tests

from tests import fuzzing, mutations
from tests.fuzzing import COMMANDS, Fuzzer, Seed


def seeds(args: argparse.Namespace) -> list[Seed]:
    played = mutations.played_game(args.entries, handover=True)
    notes = mutations.notes_game("77" * 16)
    games = [fuzzing.game_seed("played", played.data, "ann"), fuzzing.game_seed("notes", notes.data, "ben")]
    for name in args.files:
        path = Path(name)
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))
        if "table" in data:
            seat = data["table"]["players"][0]
        else:
            seat = next(entry["by"] for entry in data["entry"] if entry["kind"] == "genesis")
        games.append(Seed(path.name, raw, seat))
    return fuzzing.file_seeds(games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE", help="more sound files to break")
    parser.add_argument("--files", dest="count", type=int, default=3000, help="how many broken files")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--entries", type=int, default=20, help="length of the game played here")
    parser.add_argument("--save", type=Path, help="keep the files behind crashes and anomalies here")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a check that every part still runs (60 files through every command), not a measurement",
    )
    args = parser.parse_args()
    if args.quick:
        args.count, args.entries = 60, 12
    start = time.perf_counter()
    sources = seeds(args)
    made = fuzzing.fuzzed(sources, args.count, args.seed)
    # the homes hold the keys of every game's seats, not the identity's: that one is imported
    keys = sorted({source.seat for source in sources if not source.name.startswith("identity")})
    with tempfile.TemporaryDirectory(prefix="pbem-bench-fuzz-") as work:
        fuzzer = Fuzzer(Path(work), keys)
        for item in made:
            before = len(fuzzer.findings.crashes) + len(fuzzer.findings.anomalies)
            fuzzer.run(item, fuzzing.good_copy(item.seed, Path(work)))
            if args.save and len(fuzzer.findings.crashes) + len(fuzzer.findings.anomalies) > before:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"fuzzed-{item.number}.toml").write_bytes(item.raw)
    findings = fuzzer.findings
    breakers: Counter[str] = Counter(name for item in made for name in item.how)
    results: dict[str, Any] = {
        "files": findings.files,
        "runs": findings.runs,
        "seeds": {source.name: sum(item.seed is source for item in made) for source in sources},
        "breakers": dict(breakers.most_common()),
        "exit_codes": {str(code): count for code, count in sorted(findings.histogram().items())},
        "by_command": {
            command: {
                str(code): count for (name, code), count in sorted(findings.exits.items()) if name == command
            }
            for command in COMMANDS
        },
        "crashes": findings.crashes,
        "anomalies": findings.anomalies,
        "slowest_run": {"seconds": round(findings.slowest[0], 2), "run": findings.slowest[1]},
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 1 if findings.crashes or findings.anomalies else 0


def print_report(results: dict[str, Any]) -> None:
    print(f"{results['files']} broken files, {results['runs']} command runs, {results['seconds']} s")
    print("from: " + ", ".join(f"{name} {count}" for name, count in results["seeds"].items()))
    print("broken by: " + ", ".join(f"{name} {count}" for name, count in results["breakers"].items()))
    codes = sorted({code for row in results["by_command"].values() for code in row}, key=int)
    print()
    print(f"{'command':<14}" + "".join(f"{'exit ' + code if code != '-1' else 'crash':>9}" for code in codes))
    for command, row in results["by_command"].items():
        print(f"{command:<14}" + "".join(f"{row.get(code, 0):>9}" for code in codes))
    print(f"{'all':<14}" + "".join(f"{results['exit_codes'].get(code, 0):>9}" for code in codes))
    print()
    print(f"crashes (tracebacks): {len(results['crashes'])}; anomalies: {len(results['anomalies'])}")
    for line in results["crashes"] + results["anomalies"]:
        print(line)
    slowest = results["slowest_run"]
    print(f"slowest run: {slowest['seconds']} s, {slowest['run']}")


if __name__ == "__main__":
    sys.exit(main())
