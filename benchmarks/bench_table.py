"""How long companion mode takes to replay a table log, against the cost of just reading it.

Run from the repository root::

    python benchmarks/bench_table.py [--repeat R] [--json]

Every ``pbem table`` command reads the log and replays every action, so replay is what a player
waits for after each action typed. For each recorded game in ``examples/table/`` this times, in one
run of the script:

* ``replay``: ``gamefile.load`` + ``companion.log.replay`` (shape, chain, every action applied);
* the floor: reading the file and ``tomllib.loads`` alone, which no command can skip;
* ``record one``: the log less its last action read, replayed, and that action recorded and written
  atomically, the way ``pbem table add`` does (on a scratch copy);
* ``pbem table score`` end to end in a fresh interpreter.

Each figure is the median (and minimum) of R runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pbem import gamefile
from pbem.companion import log

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "table").glob("*.toml"))


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), min(runs)


def replay(path: Path) -> log.Table:
    loaded = gamefile.load(path)
    return log.replay(loaded.data, str(path))


def floor(path: Path) -> object:
    return tomllib.loads(path.read_bytes().decode("utf-8"))


def without_last(path: Path, scratch: Path) -> str:
    """Write the log less its last action to ``scratch``; return that action's text."""
    table = replay(path)
    shorter, last = log.undo(table, str(path))
    shorter.log["undone"] = []
    scratch.write_text(gamefile.render_table_log(shorter.log, []), encoding="utf-8")
    return str(last["text"])


def record_one(shorter: str, text: str, scratch: Path) -> None:
    """What ``pbem table add`` does: read, replay, check and record the action, write atomically."""
    scratch.write_text(shorter, encoding="utf-8")
    loaded = gamefile.load(scratch)
    table = log.replay(loaded.data, str(scratch))
    updated, _ = log.record(table, text, "2026-01-01T00:00:00Z", "bench")
    gamefile.replace(loaded, gamefile.render_table_log(updated.log, []))


def score_cli(path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pbem", "table", "score", str(path), "--json"], check=True, capture_output=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a check that it still runs (1 run of each)")
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in EXAMPLES:
            table = replay(path)
            scratch = Path(tmp) / path.name
            last = without_last(path, scratch)
            shorter = scratch.read_text(encoding="utf-8")
            score_cli(path)  # one untimed run warms the interpreter's caches
            row: dict[str, Any] = {
                "log": path.name,
                "actions": len(table.actions),
                "kib": round(path.stat().st_size / 1024, 1),
                "replay": timed(partial(replay, path), args.repeat),
                "floor": timed(partial(floor, path), args.repeat),
                "record one": timed(partial(record_one, shorter, last, scratch), args.repeat),
                "pbem table score": timed(
                    partial(score_cli, path), max(1 if args.quick else 3, args.repeat // 2)
                ),
            }
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'log':<34} {'actions':>7} {'KiB':>6} {'replay ms':>10} {'floor ms':>9} {'ratio':>6} "
        f"{'record ms':>10} {'score (CLI) ms':>15}"
    )
    for row in rows:
        replay_ms, floor_ms = row["replay"][0] * 1000, row["floor"][0] * 1000
        print(
            f"{row['log']:<34} {row['actions']:>7} {row['kib']:>6} {replay_ms:>10.1f} {floor_ms:>9.1f} "
            f"{replay_ms / floor_ms:>6.1f} {row['record one'][0] * 1000:>10.1f} "
            f"{row['pbem table score'][0] * 1000:>15.0f}"
        )
    print("medians of the runs; replay = load + chain + every action; floor = read + tomllib parse")


if __name__ == "__main__":
    main()
