"""How fast is ``pbem verify`` on a long game, and how close is it to the cost of its unavoidable work?

Run from the repository root::

    python benchmarks/bench_verify.py [--entries N] [--repeat R] [--json] [--quick]

The script builds a realistic game file (six seats of Princes of the Renaissance, one genesis entry,
five joins, then signed notes round-robin until there are N entries) in a temporary directory,
through the library exactly as ``pbem new``, ``pbem join`` and ``pbem note`` do. It then times, in
one process run and on that one file:

* ``verify``: ``gamefile.load`` + ``ledger.audit``, what ``pbem verify`` does once started;
* the floor: parsing the file with tomllib, rebuilding every entry's signed message and checking
  every Ed25519 signature with ``cryptography`` directly (each public key loaded once). No
  verifier can skip any of this, so ``verify / floor`` is the overhead of pbem's own checks;
* the floor's parts separately (parse, messages, signatures);
* ``pbem verify FILE`` end to end in a fresh interpreter;
* appending one note the way ``pbem note`` does (a write goes through tomlkit), with its steps;
* cold start: ``pbem --help`` against an empty ``python -c pass``.

Each figure is the median (and minimum) of R runs; the subprocess ones follow one untimed run.

``--quick`` is a check that the benchmark works, not a measurement: a file of QUICK_ENTRIES
entries and one run of everything, in a few seconds, every step as in a full run (the file built
and verified, every row timed, the appended file checked, each command's exit code); it exits
non-zero if anything fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from base64 import b64decode
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import cryptography
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

import pbem
from pbem import gamefile
from pbem.cli.template_files import bundled
from pbem.crypto.identity import SecretKeys
from pbem.crypto.signing import entry_message
from pbem.engine import decks
from pbem.engine import ledger as ledger_mod
from pbem.keys import KeyStore
from pbem.kit.templates import values

GAME = "princes-of-the-renaissance"
SEATS = ("a", "b", "c", "d", "e", "f")
START = datetime(2026, 1, 1, tzinfo=UTC)
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
NOTE_MIN, NOTE_MAX = 20, 200
ENTRIES, REPEAT = 1000, 5
# --quick: the six seats join, then each writes nine notes
QUICK_ENTRIES, QUICK_REPEAT = 60, 1

# Table talk of a Princes of the Renaissance game by email: offers, deals, reminders, recaps.
CITIES = ("Florence", "Venice", "Milan", "Rome", "Naples", "Urbino", "Mantua", "Ferrara")
FAMILIES = ("Medici", "Sforza", "Este", "Gonzaga", "Borgia", "Montefeltro", "Malatesta", "Orsini")
TEMPLATES = (
    "{other}: I'll back {city} in the war if you leave the {family} tile for me next round. Deal?",
    "Agreed with {other}: {gold} gold for my vote on the {city}-{city2} battle, "
    "paid at the start of round {round}.",
    "Sealed bid for turn order as agreed. Reminder that {other} still owes me {gold} gold "
    "from round {round}.",
    'Not selling the "{family}" family for less than {gold} gold. Counter-offers welcome until Friday.',
    "{other}, your troops in {city} are worth more to me than the Pope's favour: {gold} gold and my "
    "support on the next vote?",
    "Round {round} recap: {city} lost to {city2}, {other} took the {family} tile, "
    "I passed on the condottiere.",
    "Happy to ally against {other} for two rounds; no attacks on {city} from either of us. "
    "Reply if you agree.",
    "Perfetto, affare fatto: {gold} gold to {other} for the {family} family. Grazie mille!",
    "Can we hold the next move until Sunday? Travelling; I'll answer by Monday morning at the latest.",
    "Proposal to the table: whoever wins the {city} war pays the loser {gold} gold back, "
    "so nobody is knocked out of the bidding before round {round}. {other} and I already agree; votes?",
    "I bid {gold} for the {family} family.",
    "Pass.  (Sorry, {other} \u2014 not this time.)",
    "Confirming: {gold} gold paid to {other}; the {city} influence token is mine.",
    "{other} broke our truce over {city}. Noted for the record; the deal from round {round} is off.",
    "Treasury check before the vote: I count {gold} gold left, {other} has about {gold2}.",
    "Counter-offer to {other}: {gold2} now and {gold} after the {city} battle, or no deal.",
    "The {family} are overrated in a {count}-player game; I'd rather spend on troops in {city}.",
    "Thanks all, good round! \u00c0 la prochaine: next bids by Wednesday 20:00 CET please.",
)


# --- building the game file -------------------------------------------------------------------
class Clock:
    """Times that move forward by a few minutes to a few hours, as moves by email do."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.now = START

    def tick(self) -> str:
        self.now += timedelta(minutes=self.rng.randint(1, 240), seconds=self.rng.randint(0, 59))
        return self.now.strftime(TIME_FORMAT)


def note_text(rng: random.Random, seat: str) -> str:
    """One negotiation message of NOTE_MIN..NOTE_MAX characters."""
    others = [other for other in SEATS if other != seat]
    city, city2 = rng.sample(CITIES, 2)
    fields = {
        "other": rng.choice(others),
        "city": city,
        "city2": city2,
        "family": rng.choice(FAMILIES),
        "gold": rng.randint(1, 40),
        "gold2": rng.randint(1, 40),
        "round": rng.randint(1, 6),
        "count": len(SEATS),
    }
    text = rng.choice(TEMPLATES).format(**fields)
    if len(text) < NOTE_MAX // 2 and rng.random() < 0.3:
        text = f"{text} {rng.choice(TEMPLATES).format(**fields)}"
    if len(text) > NOTE_MAX:
        text = text[: NOTE_MAX - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    return text if len(text) >= NOTE_MIN else f"{text} (see my last email)"


def build_game(directory: Path, entries: int, seed: int) -> tuple[Path, KeyStore]:
    """A game file of exactly ``entries`` entries, made and written through the library."""
    rng = random.Random(seed)
    clock = Clock(rng)
    home = directory / "home"
    store = KeyStore(home)
    keys: dict[str, SecretKeys] = {}
    for seat in SEATS:
        store.create(seat, None, "2026-01-01T00:00:00Z")
        keys[seat] = KeyStore(home).secret(seat, lambda prompt: None)
    setup = ledger_mod.plan(game=GAME, edition=None, options={}, seats=list(SEATS), creator="a")
    template = bundled(GAME, setup.edition)
    assert template is not None
    components = values(template)
    ledger = ledger_mod.new_game(
        setup, keys["a"], at=clock.tick(), nonce=secrets.token_hex(16), components=components
    )
    for seat in SEATS[1:]:
        ledger, _ = ledger_mod.join(ledger, seat, keys[seat], clock.tick())
    turn = 0
    while len(ledger.entries) < entries:
        seat = SEATS[turn % len(SEATS)]
        ledger, _ = ledger_mod.note(ledger, seat, note_text(rng, seat), keys[seat], clock.tick())
        turn += 1
    path = directory / "game.toml"
    text = gamefile.render_new(
        ledger.header(), ledger.roster_table(), components, ledger.entries, ledger.status_lines()
    )
    gamefile.write_new(path, text)
    return path, store


# --- timing ---------------------------------------------------------------------------------------
@dataclass
class Result:
    key: str
    label: str
    samples: list[float] = field(default_factory=list)  # seconds

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def min_ms(self) -> float:
        return min(self.samples) * 1000

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "median_ms": round(self.median_ms, 3),
            "min_ms": round(self.min_ms, 3),
            "runs": len(self.samples),
        }


def timed(key: str, label: str, runs: int, work: Callable[[], object]) -> Result:
    result = Result(key, label)
    for _ in range(runs):
        start = time.perf_counter()
        work()
        result.samples.append(time.perf_counter() - start)
    return result


def verify_in_process(path: Path) -> None:
    result = ledger_mod.audit(gamefile.load(path).data)
    if not result.ok:
        raise SystemExit(f"benchmark file does not verify: {result.problems[0]}")


def floor(path: Path) -> None:
    """The least any verifier does: parse, rebuild each signed message, check each signature."""
    data = tomllib.loads(path.read_bytes().decode("utf-8"))
    entries = data["entry"]
    game_id = entries[0]["game_id"]
    keys: dict[str, Ed25519PublicKey] = {}
    for entry in entries:
        by = entry["by"]
        key = keys.get(by)
        if key is None:  # genesis and join entries carry the signer's key
            key = keys[by] = Ed25519PublicKey.from_public_bytes(b64decode(entry["sign"]))
        key.verify(b64decode(entry["sig"]), entry_message(game_id, entry))  # raises if invalid


def example_verify(path: Path, repeat: int) -> dict[str, Any]:
    """``verify`` of a complete example game in-process against the floor, measured in the same run.

    A verification checks every proof whose statement the process has not seen pass; once one
    has, later ones skip it (decks.check_now; a pbem home's proof cache does the same between
    commands), and measure the replay of the rules and the bookkeeping. The first verification
    in the process also pays what happens once (imports, tables and caches filled): it is
    reported on its own. Then ``repeat`` rounds of a floor, a verification with every proof
    checked (the passes seen forgotten first) and one with every proof known, in turn, so that
    drift in the machine's speed hits the three alike. Each time is the median of its runs, and
    each ratio the median of the rounds' own ratios.
    """
    first = seconds(lambda: verify_in_process(path))
    base: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(repeat):
        base.append(seconds(lambda: floor(path)))
        forget_passes()
        cold.append(seconds(lambda: verify_in_process(path)))
        warm.append(seconds(lambda: verify_in_process(path)))
    floor_s = statistics.median(base)
    return {
        "example_entries": len(gamefile.load(path).data["entry"]),
        "example_kib": round(path.stat().st_size / 1024, 1),
        "example_floor_ms": round(floor_s * 1000, 1),
        "example_verify_first_ms": round(first * 1000, 1),
        "example_first_over_floor": round(first / floor_s, 2),
        "example_verify_every_proof_ms": round(statistics.median(cold) * 1000, 1),
        "example_every_proof_over_floor": round(round_ratio(cold, base), 2),
        "example_verify_proofs_known_ms": round(statistics.median(warm) * 1000, 1),
        "example_proofs_known_over_floor": round(round_ratio(warm, base), 2),
    }


def seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def forget_passes() -> None:
    """Forget every proof this process has seen pass, so the next verification checks them all."""
    decks._PASSED.clear()


def round_ratio(times: Sequence[float], floors: Sequence[float]) -> float:
    """The median of each round's time over that round's floor."""
    return statistics.median(time / floor_time for time, floor_time in zip(times, floors, strict=True))


def parse_only(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_bytes().decode("utf-8"))


def signed_parts(
    data: dict[str, Any],
) -> tuple[str, list[dict[str, Any]], list[tuple[Ed25519PublicKey, bytes, bytes]]]:
    entries: list[dict[str, Any]] = data["entry"]
    game_id: str = entries[0]["game_id"]
    keys: dict[str, Ed25519PublicKey] = {}
    checks: list[tuple[Ed25519PublicKey, bytes, bytes]] = []
    for entry in entries:
        if "sign" in entry:
            keys[entry["by"]] = Ed25519PublicKey.from_public_bytes(b64decode(entry["sign"]))
        checks.append((keys[entry["by"]], b64decode(entry["sig"]), entry_message(game_id, entry)))
    return game_id, entries, checks


def messages_only(game_id: str, entries: Sequence[dict[str, Any]]) -> None:
    for entry in entries:
        entry_message(game_id, entry)


def signatures_only(checks: Sequence[tuple[Ed25519PublicKey, bytes, bytes]]) -> None:
    for key, signature, message in checks:
        key.verify(signature, message)


class Appender:
    """One ``pbem note`` on the game file, step by step as the command does it, each step timed."""

    STEPS = (
        ("load", "gamefile.load (tomllib)"),
        ("read", "ledger.read (audit)"),
        ("note", "open key + ledger.note (sign)"),
        ("render", "gamefile.append_text (tomlkit)"),
        ("write", "gamefile.replace (fsync, rename)"),
    )

    def __init__(self, source: Path, target: Path, store: KeyStore, rng: random.Random) -> None:
        self.source = source
        self.target = target
        self.store = store
        self.rng = rng
        self.total = Result("append", "(e) append one note (pbem note path)")
        self.steps = [Result(f"append_{key}", f"    {label}") for key, label in self.STEPS]

    def reset(self) -> None:
        shutil.copyfile(self.source, self.target)  # every run appends to the same N-entry file

    def run(self) -> None:
        marks = [time.perf_counter()]
        loaded = gamefile.load(self.target)
        marks.append(time.perf_counter())
        current = ledger_mod.read(loaded.data)
        marks.append(time.perf_counter())
        seat = SEATS[len(current.entries) % len(SEATS)]
        secret = self.store.secret(seat, lambda prompt: None)
        last = datetime.strptime(current.entries[-1]["at"], TIME_FORMAT)
        at = (last + timedelta(hours=1)).strftime(TIME_FORMAT)
        updated, entry = ledger_mod.note(current, seat, note_text(self.rng, seat), secret, at)
        marks.append(time.perf_counter())
        text = gamefile.append_text(
            loaded, entry, updated.header(), updated.roster_table(), updated.status_lines()
        )
        marks.append(time.perf_counter())
        gamefile.replace(loaded, text)
        marks.append(time.perf_counter())
        for step, start, end in zip(self.steps, marks, marks[1:], strict=False):
            step.samples.append(end - start)
        self.total.samples.append(marks[-1] - marks[0])


def run_command(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv)} exited with {done.returncode}:\n{done.stderr.decode(errors='replace')}"
        )
    return done


def timed_command(key: str, label: str, runs: int, argv: list[str], env: dict[str, str]) -> Result:
    run_command(argv, env)  # untimed: warm the file cache and any bytecode
    return timed(key, label, runs, lambda: run_command(argv, env))


def interleaved(runs: int, cases: Sequence[tuple[Result, Callable[[], object]]]) -> None:
    """Run the cases in turn, ``runs`` rounds, so drift in machine speed hits them all alike."""
    for _ in range(runs):
        for result, work in cases:
            start = time.perf_counter()
            work()
            result.samples.append(time.perf_counter() - start)


# --- reporting ------------------------------------------------------------------------------------
def ratio(numerator: Result, denominator: Result) -> tuple[float, float]:
    """Of the medians and of the minimums (the steadier one on a busy machine)."""
    return numerator.median_ms / denominator.median_ms, numerator.min_ms / denominator.min_ms


def print_table(meta: dict[str, Any], rows: Sequence[Result], ratios: dict[str, tuple[float, float]]) -> None:
    print(
        f"pbem {meta['pbem']} verify benchmark: {meta['entries']} entries, "
        f"{meta['file_bytes'] / 1024:.0f} KiB, {meta['repeat']} runs "
        f"({meta['repeat'] * 2} for start-up); Python {meta['python']}, {meta['platform']}, "
        f"{meta['cpus']} CPUs"
    )
    if meta["quick"]:
        print("--quick: a check that the benchmark works; these figures measure nothing")
    width = max(len(row.label) for row in rows)
    print()
    print(f"{'measurement':<{width}}  {'median ms':>10}  {'min ms':>10}")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 10}")
    for row in rows:
        print(f"{row.label:<{width}}  {row.median_ms:>10.1f}  {row.min_ms:>10.1f}")
    print()
    print(f"{'ratio':<{width}}  {'of medians':>10}  {'of mins':>10}")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 10}")
    for name, (of_medians, of_minimums) in ratios.items():
        print(f"{name:<{width}}  {of_medians:>9.2f}x  {of_minimums:>9.2f}x")


# --- main -----------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--entries",
        type=int,
        help=f"entries in the game file (default {ENTRIES}, {QUICK_ENTRIES} with --quick)",
    )
    parser.add_argument(
        "--repeat", type=int, help=f"runs per measurement (default {REPEAT}, {QUICK_REPEAT} with --quick)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--seed", type=int, default=2026, help="seed for the notes' text (default 2026)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="check that the benchmark works: a small file, one run of everything, a few seconds",
    )
    args = parser.parse_args(argv)
    if args.entries is None:
        args.entries = QUICK_ENTRIES if args.quick else ENTRIES
    if args.repeat is None:
        args.repeat = QUICK_REPEAT if args.quick else REPEAT
    if args.entries < len(SEATS):
        parser.error(f"--entries must be at least {len(SEATS)} (a genesis and {len(SEATS) - 1} joins)")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    runs: int = args.repeat

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        directory = Path(tmp)
        progress(f"building a {args.entries}-entry game file in {directory} ...")
        start = time.perf_counter()
        path, store = build_game(directory, args.entries, args.seed)
        progress(f"  built in {time.perf_counter() - start:.1f} s ({path.stat().st_size} bytes)")
        verify_in_process(path)  # the file must be sound before anything is timed

        progress("timing verify and its floor in-process ...")
        verify = Result("verify", "(a) verify in-process: load + audit")
        floor_total = Result("floor", "(b) floor: tomllib + messages + Ed25519")
        parse = Result("floor_parse", "(c)   tomllib parse alone")
        messages = Result("floor_messages", "(c)   entry messages alone")
        signatures = Result("floor_signatures", "(c)   Ed25519 checks alone")
        game_id, entries, checks = signed_parts(parse_only(path))
        interleaved(
            runs,
            [
                (verify, lambda: verify_in_process(path)),
                (floor_total, lambda: floor(path)),
                (parse, lambda: parse_only(path)),
                (messages, lambda: messages_only(game_id, entries)),
                (signatures, lambda: signatures_only(checks)),
            ],
        )

        progress("timing one appended note ...")
        appender = Appender(path, directory / "append.toml", store, random.Random(args.seed + 1))
        for _ in range(runs):
            appender.reset()
            appender.run()
        appended = gamefile.load(appender.target)
        check = ledger_mod.audit(appended.data)
        if not check.ok or check.ledger is None or len(check.ledger.entries) != args.entries + 1:
            raise SystemExit("the appended game file does not verify")

        progress("timing the note merged into a copy without it ...")
        merged = Result("merge", "(g) merge that note into the N-entry file (mail)")
        source, after = gamefile.load(path), check.ledger
        text = ""

        def merge() -> None:
            nonlocal text
            text = gamefile.rewrite_entries(
                source, after.entries, after.header(), after.roster_table(), after.status_lines()
            )

        interleaved(runs, [(merged, merge)])
        if gamefile.parse(text.encode("utf-8"), "merged")["entry"] != appended.data["entry"]:
            raise SystemExit("the merged file does not hold the appended note")

        progress("timing the command line in subprocesses ...")
        env = dict(os.environ, PBEM_HOME=str(directory / "home"))
        cli_verify = timed_command(
            "cli_verify",
            "(d) pbem verify FILE (subprocess)",
            runs,
            [sys.executable, "-m", "pbem", "verify", str(path)],
            env,
        )
        help_runs = Result("cli_help", "(f) pbem --help (subprocess)")
        python_runs = Result("python_startup", "(f) python -c pass (subprocess)")
        help_argv = [sys.executable, "-m", "pbem", "--help"]
        python_argv = [sys.executable, "-c", "pass"]
        run_command(help_argv, env)
        run_command(python_argv, env)
        interleaved(
            runs * 2,
            [
                (help_runs, lambda: run_command(help_argv, env)),
                (python_runs, lambda: run_command(python_argv, env)),
            ],
        )
        size = path.stat().st_size

    rows = [
        verify,
        floor_total,
        parse,
        messages,
        signatures,
        cli_verify,
        appender.total,
        *appender.steps,
        help_runs,
        python_runs,
        merged,
    ]
    for row in rows:  # every step ran, and ran the number of times asked
        expected = runs * 2 if row in (help_runs, python_runs) else runs
        if len(row.samples) != expected or min(row.samples) <= 0:
            raise SystemExit(f"{row.label.strip()}: {len(row.samples)} runs, expected {expected}")
    ratios = {
        "verify / floor": ratio(verify, floor_total),
        "merge one entry / append's render": ratio(merged, appender.steps[3]),
        "pbem --help / python startup": ratio(help_runs, python_runs),
    }
    meta = {
        "pbem": pbem.__version__,
        "entries": args.entries,
        "repeat": runs,
        "file_bytes": size,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "cryptography": cryptography.__version__,
        "quick": args.quick,
    }
    if args.json:
        report = {
            **meta,
            "results": {row.key: row.as_dict() for row in rows},
            "ratios": {
                name: {"median": round(of_medians, 3), "min": round(of_minimums, 3)}
                for name, (of_medians, of_minimums) in ratios.items()
            },
        }
        print(json.dumps(report, indent=2))
    else:
        print_table(meta, rows, ratios)
    return 0


if __name__ == "__main__":
    sys.exit(main())
