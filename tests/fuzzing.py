"""The fuzzer: malformed files made from sound ones, put through every command that reads a file.

A fuzzed file is the bytes of a sound game file, table log or exported identity, broken in one to
three ways (``BREAKERS``): cut short, bytes or bits flipped, characters put in or taken out, lines
repeated or swapped, arrays nested deep, numbers too big for any field, values of the wrong type,
tables missing or misdeclared, a byte-order mark, CR LF or CR line ends, UTF-16, bytes that are
not UTF-8, control characters, very long strings, a reply's quote marks, the parts of two files
mixed, or TOML-ish garbage from nothing. ``Fuzzer.run`` puts one file through ``verify``,
``status``, ``show``, ``log``, ``moves --as SEAT``, ``play --as SEAT pass``, ``note``, ``merge``,
``table verify`` and ``key import`` in this process, and counts their exit codes.

A command that ends in an exception rather than an exit is a *crash* (the traceback is kept). A
command that fails without an ``error:`` line, with an exit code pbem does not document, or after
changing the file it was given is an *anomaly*. Both are bugs in pbem.
"""

from __future__ import annotations

import random
import re
import shutil
import time
import tomllib
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.crypto.identity import identity_line
from pbem.gamefile import shape_problem
from pbem.keys import KeyStore
from tests.conftest import seeded_keys

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "three-players.toml"
TABLE_LOGS = sorted((ROOT / "examples" / "table").glob("*.toml"))
CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T12:00:00Z"
EXIT_CODES = frozenset(range(7))  # README "Exit codes": 0 and 1-6
COMMANDS = ("verify", "status", "show", "log", "moves", "play", "note", "merge", "table verify", "key import")
WRITERS = ("play", "note", "merge")  # commands that may write the file they were given


@dataclass(frozen=True)
class Seed:
    """A sound file to break, the seat its commands act as, and the copy merge takes entries
    from: the same game one entry further where the harness holds a key to make one."""

    name: str
    raw: bytes
    seat: str
    other: bytes | None = None


def identity_seed(seat: str) -> Seed:
    """What ``pbem key export`` writes for a seat's key."""
    secret = seeded_keys(seat)
    identity = secret.public(seat)
    text = f"# pbem identity {seat}, fingerprint {identity.fingerprint}\n{identity_line(identity, secret)}\n"
    return Seed(f"identity-{seat}", text.encode("utf-8"), seat)


def file_seeds(games: Sequence[Seed] = ()) -> list[Seed]:
    """The shipped example game and table logs, an identity, and ``games``."""
    seeds = [Seed(EXAMPLE.name, EXAMPLE.read_bytes(), "alice")]
    seeds += [Seed(path.name, path.read_bytes(), "ann") for path in TABLE_LOGS]
    seeds.append(identity_seed("dora"))  # a player whose key the homes do not hold
    return [*seeds, *games]


def game_seed(name: str, data: dict[str, Any], seat: str) -> Seed:
    """A sound game the harness made with seeded keys, and a copy with a note more by ``seat``."""
    from pbem import gamefile
    from pbem.engine import ledger as ledger_mod

    game = ledger_mod.read(data)
    components = data.get("components", {})
    text = gamefile.render_new(
        game.header(), game.roster_table(), components, game.entries, game.status_lines()
    )
    game, _ = ledger_mod.note(game, seat, "one more entry, for merge", seeded_keys(seat), NOW)
    longer = gamefile.render_new(
        game.header(), game.roster_table(), components, game.entries, game.status_lines()
    )
    return Seed(name, text.encode("utf-8"), seat, longer.encode("utf-8"))


# --- breaking a file -----------------------------------------------------------------------------
Breaker = Callable[[random.Random, bytes, Sequence[Seed]], bytes]
TOMLISH = [
    *"[]{}=\"'.,#\n\t \\+-_:0123456789aeinrstxzTZ",
    "é",
    "ß",
    "\u202e",
    "\u0301",
    "𝄞",
    "\x00",
    "\x7f",
    '"""',
    "'''",
    "[[",
    "]]",
]
VALUE = re.compile(rb"(?m)^([A-Za-z0-9_\"'.-]+ *= *)(.+)$")
INTEGER = re.compile(rb"(?m)^([A-Za-z0-9_\"'.-]+ *= *)(-?[0-9]+)\s*$")
STRING = re.compile(rb'(?m)^([A-Za-z0-9_"\'.-]+ *= *)("[^"\n]*")\s*$')
HEADER = re.compile(rb"(?m)^\[\[?[^\]\n]+\]\]?[ \t]*$")


def _span(rnd: random.Random, raw: bytes) -> tuple[int, int]:
    start = rnd.randrange(len(raw) + 1)
    return start, min(len(raw), start + rnd.choice([1, 2, 8, 64, 512, 4096]))


def truncate(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    return raw[: rnd.randrange(len(raw) + 1)]


def flip_bytes(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    data = bytearray(raw)
    for _ in range(rnd.choice([1, 1, 2, 4, 16])):
        if data:
            data[rnd.randrange(len(data))] = rnd.randrange(256)
    return bytes(data)


def flip_bit(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    data = bytearray(raw)
    if data:
        data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
    return bytes(data)


def insert(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    place = rnd.randrange(len(raw) + 1)
    text = "".join(rnd.choice(TOMLISH) for _ in range(rnd.choice([1, 2, 5, 20])))
    return raw[:place] + text.encode("utf-8") + raw[place:]


def delete(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    start, end = _span(rnd, raw)
    return raw[:start] + raw[end:]


def repeat_line(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    lines = raw.splitlines(keepends=True)
    if not lines:
        return raw
    place = rnd.randrange(len(lines))
    return b"".join([*lines[: place + 1], lines[place], *lines[place + 1 :]])


def swap_lines(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    lines = raw.splitlines(keepends=True)
    if len(lines) < 2:
        return raw
    first, second = rnd.sample(range(len(lines)), 2)
    lines[first], lines[second] = lines[second], lines[first]
    return b"".join(lines)


def _at_table(rnd: random.Random, raw: bytes) -> int:
    """A place just before a table header (so a key put there belongs to a table), or the start."""
    places = [found.start() for found in HEADER.finditer(raw)]
    return rnd.choice(places) if places else 0


def deep_nesting(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    depth = rnd.choice([12, 17, 40, 600, 5000, 100_000])
    brackets = rnd.random() < 0.5
    value = "[" * depth + "]" * depth if brackets else "{a = " * depth + "1" + "}" * depth
    place = _at_table(rnd, raw)
    return raw[:place] + f"deep = {value}\n".encode() + raw[place:]


def huge_number(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    found = list(INTEGER.finditer(raw))
    number = rnd.choice(
        [
            "9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "1" + "0" * 400,
            "-1",
            "1e309",
            "inf",
            "-inf",
            "nan",
            "0x7fffffffffffffff",
            "1_000_000_000_000",
            "-0",
            "99999999999",
        ]
    )
    if not found:
        return raw + f"\nx = {number}\n".encode()
    match = rnd.choice(found)
    return raw[: match.start(2)] + number.encode() + raw[match.end(2) :]


ODD_VALUES = [
    "1",
    '"1"',
    "true",
    "1.5",
    "[]",
    "{}",
    '[1, "a"]',
    "1979-05-27T07:32:00Z",
    "07:32:00",
    "1979-05-27",
    "{x = 1}",
    '""',
    "[[]]",
    "[{a = 1}, 2]",
    "-1",
    "0",
]


def wrong_type(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    found = list(VALUE.finditer(raw))
    if not found:
        return raw
    match = rnd.choice(found)
    return raw[: match.start(2)] + rnd.choice(ODD_VALUES).encode() + raw[match.end(2) :]


def drop_table(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """A table and its keys taken out, up to the next table header; sometimes every one of a kind."""
    headers = list(HEADER.finditer(raw))
    if not headers:
        return raw
    if rnd.random() < 0.3:
        kind = rnd.choice(headers).group()
        blocks = re.split(rb"(?m)(?=^\[)", raw)
        return b"".join(block for block in blocks if not block.startswith(kind))
    index = rnd.randrange(len(headers))
    end = headers[index + 1].start() if index + 1 < len(headers) else len(raw)
    return raw[: headers[index].start()] + raw[end:]


def misdeclare(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """A table header written as an array of tables, or the other way round, or renamed."""
    headers = list(HEADER.finditer(raw))
    if not headers:
        return raw
    match = rnd.choice(headers)
    name = match.group().strip(b"[] \t")
    new = rnd.choice(
        [
            b"[[" + name + b"]]",
            b"[" + name + b"]",
            b"[" + name + b".x]",
            b"[" + name.upper() + b"]",
            b"[entry]",
            b"[[game]]",
            b"[roster]",
        ]
    )
    return raw[: match.start()] + new + raw[match.end() :]


def line_ends(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    choice = rnd.randrange(7)
    if choice == 0:
        return b"\xef\xbb\xbf" + raw
    if choice == 1:
        return raw.replace(b"\n", b"\r\n")
    if choice == 2:
        return b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n")
    if choice == 3:  # mixed: some lines CR LF
        return b"".join(
            line.replace(b"\n", b"\r\n") if rnd.random() < 0.5 else line
            for line in raw.splitlines(keepends=True)
        )
    if choice == 4:
        return raw.replace(b"\n", b"\r")
    if choice == 5:
        return raw.decode("utf-8", "replace").encode("utf-16")
    return b"\xef\xbb\xbf\xef\xbb\xbf" + raw


def not_utf8(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    place = rnd.randrange(len(raw) + 1)
    bad = rnd.choice(
        [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe9", b"\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]
    )
    return raw[:place] + bad + raw[place:]


def control_chars(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    found = list(STRING.finditer(raw))
    # raw (most of which TOML refuses in a string) and as escapes TOML reads: a hostile file's way
    # to put a line break or a terminal's escape into what a command prints
    char = rnd.choice(
        [
            *("\x00", "\x1b[31m", "\x08", "\x7f", "\u2028", "\ud7ff"),
            *("\\u0000", "\\u001b[2J", "\\ud800", "\\nerror: all is well", "\\r", "\\u0007", "\\t"),
        ]
    )
    if not found:
        return raw + char.encode("utf-8", "surrogatepass")
    match = rnd.choice(found)
    place = match.start(2) + 1
    return raw[:place] + char.encode("utf-8", "surrogatepass") + raw[place:]


def long_string(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    size = rnd.choice([5_000, 100_000, 1_000_000])
    text = rnd.choice(["x", "é", "𝄞", "ab "]) * (size // 2)
    choice = rnd.randrange(3)
    if choice == 0:
        found = list(STRING.finditer(raw))
        if found:
            match = rnd.choice(found)
            return raw[: match.start(2)] + f'"{text}"'.encode() + raw[match.end(2) :]
    if choice == 1:
        return raw + f"\n# {text}\n".encode()
    place = _at_table(rnd, raw)
    return raw[:place] + f'"{text[:5000]}" = 1\n'.encode() + raw[place:]


def quoted(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    return b"".join(b"> " + line for line in raw.splitlines(keepends=True))


def mixed(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """The start of this file and the end of another."""
    other = rnd.choice(seeds).raw
    return raw[: rnd.randrange(len(raw) + 1)] + other[rnd.randrange(len(other) + 1) :]


def values_changed(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """One parsed value replaced by another of any type and written out again as TOML."""
    import tomlkit

    try:
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return raw
    if shape_problem(data):  # nested too deep to walk here: the file as it was
        return raw
    paths = list(_paths(data))
    if not paths:
        return raw
    path = rnd.choice(paths)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    odd = [0, -1, 2**70, "", "x" * 300, [], {}, [1], {"a": 1}, True, 1.5, ["a", 3], [{"seq": 1}], "é\u0301"]
    if isinstance(parent, dict) and rnd.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = rnd.choice(odd)
    try:
        return tomlkit.dumps(data).encode("utf-8")
    except Exception:  # a value tomlkit will not write: the file as it was
        return raw


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Any:
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def layout(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """The same tables in another TOML layout, which tomllib reads as before (so the file still
    verifies, and the commands that write get to write): the entries before the header, the
    entries as one inline array, tables as inline tables or written out in full, every line
    indented, a comment after every value."""
    import tomlkit

    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return raw
    if shape_problem(data):
        return raw
    choice = rnd.randrange(6)
    if choice == 0 and "\n[[" in text:
        cut = text.index("\n[[") + 1
        return (text[cut:] + "\n" + text[:cut]).encode("utf-8")
    if choice == 1:
        return "".join(
            rnd.choice(["  ", "\t", " "]) + line for line in text.splitlines(keepends=True)
        ).encode()
    if choice == 2:
        return re.sub(r'(?m)^([A-Za-z_]+ = (?:"[^"\n]*"|[0-9]+|true|false))$', r"\1  # said", text).encode()
    try:
        if choice == 3:
            return tomlkit.dumps(data).encode("utf-8")  # nested tables written out as tables
        doc = tomlkit.document()
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
                items = tomlkit.array()
                items.extend(_inline(item) for item in value)
                doc[key] = items if choice == 4 or rnd.random() < 0.5 else value
            elif isinstance(value, dict) and (choice == 5 or rnd.random() < 0.5):
                doc[key] = _inline(value)
            else:
                doc[key] = value
        return tomlkit.dumps(doc).encode("utf-8")
    except Exception:  # a value tomlkit will not write inline: the file as it was
        return raw


def _inline(value: Any) -> Any:
    import tomlkit

    if isinstance(value, dict):
        table = tomlkit.inline_table()
        for key, item in value.items():
            table[key] = _inline(item)
        return table
    if isinstance(value, list):
        items = tomlkit.array()
        items.extend(_inline(item) for item in value)
        return items
    return value


def garbage(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    """TOML-ish text made from nothing: tables, arrays of tables, keys and values of every kind."""
    lines = []
    for _ in range(rnd.randrange(1, 40)):
        choice = rnd.random()
        if choice < 0.2:
            name = rnd.choice(["game", "entry", "roster.a", "components", "table", "action", "x.y", '"q"'])
            lines.append(f"[[{name}]]" if rnd.random() < 0.5 else f"[{name}]")
        else:
            key = rnd.choice(
                [
                    "seq",
                    "prev",
                    "by",
                    "at",
                    "kind",
                    "sig",
                    "format",
                    "id",
                    "entries",
                    "head",
                    "seats",
                    "text",
                    "k",
                ]
            )
            value = rnd.choice(
                [*ODD_VALUES, '"ann"', "1", '"a" "b"', "= =", "[", '"unterminated', "'x'", '"""\nx"""']
            )
            lines.append(f"{key} = {value}")
    return ("\n".join(lines) + rnd.choice(["", "\n"])).encode("utf-8")


def random_bytes(rnd: random.Random, raw: bytes, seeds: Sequence[Seed]) -> bytes:
    return rnd.randbytes(rnd.choice([0, 1, 16, 1000]))


BREAKERS: dict[str, Breaker] = {
    "truncated": truncate,
    "bytes flipped": flip_bytes,
    "bit flipped": flip_bit,
    "characters inserted": insert,
    "characters deleted": delete,
    "line repeated": repeat_line,
    "lines swapped": swap_lines,
    "nested deep": deep_nesting,
    "huge number": huge_number,
    "wrong type": wrong_type,
    "table missing": drop_table,
    "table misdeclared": misdeclare,
    "BOM, CR LF, UTF-16": line_ends,
    "not UTF-8": not_utf8,
    "control characters": control_chars,
    "very long string": long_string,
    "quoted reply": quoted,
    "two files mixed": mixed,
    "value changed": values_changed,
    "another layout": layout,
    "TOML-ish garbage": garbage,
    "random bytes": random_bytes,
}


@dataclass(frozen=True)
class Fuzzed:
    number: int
    seed: Seed
    how: tuple[str, ...]
    raw: bytes


def fuzzed(seeds: Sequence[Seed], count: int, seed: int) -> list[Fuzzed]:
    """``count`` broken files, each from a seed chosen in turn, broken one to three ways."""
    rnd = random.Random(seed)
    made = []
    names = list(BREAKERS)
    for number in range(count):
        source = seeds[number % len(seeds)]
        raw = source.raw
        how = tuple(rnd.choice(names) for _ in range(rnd.choice([1, 1, 1, 2, 3])))
        for name in how:
            raw = BREAKERS[name](rnd, raw, seeds)
        made.append(Fuzzed(number, source, how, raw))
    return made


# --- running the commands ------------------------------------------------------------------------
@dataclass
class Findings:
    """What the commands did with the fuzzed files."""

    files: int = 0
    runs: int = 0
    exits: Counter[tuple[str, int]] = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)
    anomalies: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")

    def histogram(self) -> Counter[int]:
        codes: Counter[int] = Counter()
        for (_, code), count in self.exits.items():
            codes[code] += count
        return codes


class Fuzzer:
    """Runs the commands on fuzzed files in ``work``, each file with a home of its own holding the
    keys of ``seats`` (so play and note get as far as signing when a file still reads)."""

    def __init__(self, work: Path, seats: Sequence[str], commands: Sequence[str] = COMMANDS) -> None:
        self.work = work
        self.commands = commands
        self.template = work / "home-template"
        store = KeyStore(self.template)
        for seat in seats:
            store.store(seat, seeded_keys(seat), None, CREATED)
        self.findings = Findings()

    def run(self, item: Fuzzed, good: Path, commands: Sequence[str] | None = None) -> None:
        """Every command on one fuzzed file; ``good`` is a sound copy of the same game to merge."""
        from typer.testing import CliRunner

        from pbem.cli import app

        home = self.work / "home"
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(self.template, home)
        path = self.work / f"fuzzed{'.toml' if item.number % 3 else ''}"
        out = self.work / "merged.toml"
        env = {
            "PBEM_HOME": str(home),
            "PBEM_NOW": NOW,
            "PBEM_PASSPHRASE": None,
            "NO_COLOR": "1",
            "COLUMNS": None,
        }
        seat = item.seed.seat
        self.findings.files += 1
        for command in commands or self.commands:
            path.write_bytes(item.raw)
            out.unlink(missing_ok=True)
            args = self._args(command, path, good, out, seat, item.number)
            start = time.perf_counter()
            result = CliRunner().invoke(app, args, env=env)
            took = time.perf_counter() - start
            how = ", ".join(item.how)
            where = f"file {item.number} ({item.seed.name}; {how}): pbem {' '.join(map(str, args))}"
            self.findings.runs += 1
            if took > self.findings.slowest[0]:
                self.findings.slowest = (took, where)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                exc = result.exception
                trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                self.findings.crashes.append(f"{where}\n{trace}")
                self.findings.exits[(command, -1)] += 1
                continue
            code = result.exit_code
            self.findings.exits[(command, code)] += 1
            problem = _anomaly(command, code, result.stderr, path.read_bytes() != item.raw, out.exists())
            if problem:
                self.findings.anomalies.append(f"{where}: {problem}: {result.stderr[:300]!r}")

    @staticmethod
    def _args(command: str, path: Path, good: Path, out: Path, seat: str, number: int) -> list[str]:
        file = str(path)
        return {
            "verify": ["verify", file],
            "status": ["status", file],
            "show": ["show", file, *(["--as", seat] if number % 2 else [])],
            "log": ["log", file],
            "moves": ["moves", file, "--as", seat],
            "play": ["play", file, "--as", seat, "pass"],
            "note": ["note", file, "a word to the table", "--as", seat],
            # the broken file as the copy merged into, or as the copy merged from
            "merge": ["merge", *((file, str(good)) if number % 2 else (str(good), file)), "-o", str(out)],
            "table verify": ["table", "verify", file],
            "key import": ["key", "import", file],
        }[command]


def _anomaly(command: str, code: int, stderr: str, changed: bool, wrote: bool) -> str | None:
    if code not in EXIT_CODES:
        return f"exit {code}, not one pbem documents"
    if "Traceback" in stderr:
        return "a traceback on stderr"
    if code == 0:
        return None
    lines = stderr.splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    if not errors:
        return f"exit {code} without an error line"
    if any(not line.startswith(("error: ", "warning: ")) for line in lines):
        return "a line on stderr that is neither an error nor a warning (a line break from the file?)"
    if any(char in line for line in lines for char in "\r\x1b\x07\x00"):
        return "a control character from the file on stderr"
    if len(errors) > (2 if command == "verify" else 1):  # verify adds the equivocation it found
        return f"{len(errors)} error lines"
    if changed and command in WRITERS:
        return "the file changed although the command failed"
    if wrote:
        return "the merge wrote its output although it failed"
    return None


def good_copy(seed: Seed, work: Path) -> Path:
    """A sound copy of the seed's game, for merge to take entries from."""
    path = work / f"good-{seed.name}"
    if not path.exists():
        path.write_bytes(seed.other or seed.raw)
    return path
