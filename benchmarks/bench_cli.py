"""How fast do the commands players run most start and answer?

Run from the repository root::

    python benchmarks/bench_cli.py [--checkout PATH] [--runs N] [--quick]

It times, in one run of the script and in fresh interpreters (wall time of a subprocess each):

* a bare Typer app with two commands (written to a temporary file), ``--help``: the least a
  Typer command line costs to start;
* ``pbem --help``;
* ``pbem status examples/four-players.toml`` (the 311-entry Princes of the Renaissance example)
  cold: a fresh pbem home each run, so nothing of the game is known there;
* the same warm: a home where ``pbem status`` of the file ran before (its replayed state, proofs
  and head are kept there).

The four are run in turn, round after round (paired alternation), so drift in the machine's speed
hits them alike; each figure is the median of its runs, each ratio the median of the rounds' own
ratios, of wall time and of CPU time (user and system, the child's own: steadier than wall time
on a machine busy with other work). Bytecode is compiled once before timing, into a temporary
``PYTHONPYCACHEPREFIX`` (the checkout is left as it was), as an installed pbem's would be.

``--checkout PATH`` times the pbem of another checkout (its ``examples/`` too), the script staying
where it is: ``--checkout ../base`` gives the figures before a change. ``--quick`` does 3 runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

RUNS, QUICK_RUNS = 15, 3
EXAMPLE = Path("examples") / "four-players.toml"

BARE_APP = '''
import typer

app = typer.Typer()


@app.command()
def one(name: str) -> None:
    """The first command."""
    typer.echo(name)


@app.command()
def two(count: int = 1) -> None:
    """The second command."""
    typer.echo(str(count))


if __name__ == "__main__":
    app()
'''


Sample = tuple[float, float]  # wall seconds, CPU seconds (user + system) of one run


def run(argv: Sequence[str], env: dict[str, str]) -> Sample:
    """Wall and CPU seconds of one subprocess, which must exit with 0. It runs in the temporary
    folder: ``python -m pbem`` imports pbem from its working directory before PYTHONPATH."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=env["PBEM_BENCH_DIR"], check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv)} exited with {done.returncode}:\n{done.stderr.decode(errors='replace')}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--checkout",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the pbem checkout to time (default: the one this script is in)",
    )
    parser.add_argument("--runs", type=int, help=f"runs of each (default {RUNS}, {QUICK_RUNS} with --quick)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_RUNS} runs of each")
    args = parser.parse_args(argv)
    runs: int = args.runs or (QUICK_RUNS if args.quick else RUNS)
    checkout: Path = args.checkout.resolve()
    example = checkout / EXAMPLE
    if not example.is_file():
        parser.error(f"no {EXAMPLE} in {checkout}")

    with tempfile.TemporaryDirectory(prefix="pbem-bench-cli-") as tmp:
        directory = Path(tmp)
        bare = directory / "bare.py"
        bare.write_text(BARE_APP, encoding="utf-8")
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONDONTWRITEBYTECODE", "PBEM_HOME", "PYTHONPATH")
        }
        env.update(
            PYTHONPATH=str(checkout),
            PYTHONPYCACHEPREFIX=str(directory / "bytecode"),
            PBEM_NOW="2026-11-01T00:00:00Z",
            PBEM_BENCH_DIR=str(directory),
            COLUMNS="120",
        )
        warm_home = directory / "warm-home"
        warm_env = dict(env, PBEM_HOME=str(warm_home))
        python = sys.executable
        status = [python, "-m", "pbem", "status", str(example)]
        cold_count = 0

        def cold() -> Sample:
            nonlocal cold_count
            cold_count += 1
            home = directory / f"cold-home-{cold_count}"
            return run(status, dict(env, PBEM_HOME=str(home)))

        cases: dict[str, Callable[[], Sample]] = {
            "bare Typer app --help": lambda: run([python, str(bare), "--help"], env),
            "pbem --help": lambda: run([python, "-m", "pbem", "--help"], warm_env),
            "pbem status (cold)": cold,
            "pbem status (warm)": lambda: run(status, warm_env),
        }
        # untimed: bytecode compiled, the warm home filled, the file in the page cache
        for work in cases.values():
            work()
        samples: dict[str, list[Sample]] = {name: [] for name in cases}
        names = list(cases)
        for round_number in range(runs):
            # each round starts with a different case, so none always runs first
            for name in names[round_number % len(names) :] + names[: round_number % len(names)]:
                samples[name].append(cases[name]())

    def median_ms(name: str, part: int) -> float:
        return statistics.median(sample[part] for sample in samples[name]) * 1000

    def ratio(top: str, bottom: str, part: int) -> float:
        pairs = zip(samples[top], samples[bottom], strict=True)
        return statistics.median(a[part] / b[part] for a, b in pairs)

    print(f"pbem command line benchmark: {checkout}, {runs} runs each, Python {sys.version.split()[0]}")
    if args.quick:
        print("--quick: a check that the benchmark works; few runs, rough figures")
    width = max(len(name) for name in names)
    print(f"{'median of the runs':<{width}}  {'wall ms':>8}  {'CPU ms':>8}")
    for name in names:
        print(f"{name:<{width}}  {median_ms(name, 0):8.1f}  {median_ms(name, 1):8.1f}")
    ratios = {
        "status warm / --help": ("pbem status (warm)", "pbem --help"),
        "status cold / --help": ("pbem status (cold)", "pbem --help"),
        "--help / bare Typer": ("pbem --help", "bare Typer app --help"),
    }
    print(f"{'median of the rounds':<{width}}  {'wall':>8}  {'CPU':>8}")
    for name, (top, bottom) in ratios.items():
        print(f"{name:<{width}}  {ratio(top, bottom, 0):7.2f}x  {ratio(top, bottom, 1):7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
