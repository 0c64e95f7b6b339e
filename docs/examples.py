"""The worked examples of docs/game-file.md, made by playing real games with pbem.

Every example block of the document (the commands, what they printed, the entries, the hashes,
the worked values of each proof) is written here, between marker lines:

    <!-- begin example NAME: made by docs/examples.py; edit that, not this -->
    ...
    <!-- end example NAME -->

Usage:
    python docs/examples.py                 write every block into docs/game-file.md
    python docs/examples.py --check         exit 1, naming each block the document shows
                                            differently from what pbem gives today
    python docs/examples.py --check --only intro     only the blocks of one group

The games are the same on every run: keys are derived from the seat names, every command runs
at a fixed time (``PBEM_NOW``), and the nonces pbem draws when it creates a game or seals a
choice are fixed too. Everything else (randomness chains, deck keys, shuffles, proofs) follows
from the keys and the game, so the same script gives the same bytes.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from typer.testing import CliRunner, Result

from pbem import gamefile
from pbem.cli import app
from pbem.cli.template_commands import component_values
from pbem.crypto import group, sealing
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.identity import SecretKeys
from pbem.crypto.signing import entry_hash, entry_message, pae
from pbem.engine import ledger
from pbem.keys import KeyStore

DOC = Path(__file__).resolve().parent / "game-file.md"
BEGIN = re.compile(r"<!-- begin example ([a-z0-9-]+): made by docs/examples\.py; edit that, not this -->\n")
END = "<!-- end example {name} -->"
WIDTH = 100  # of the document's prose; code blocks may be wider


# --- playing ---------------------------------------------------------------------------------
def seeded_keys(name: str) -> SecretKeys:
    """A seat's key, the same on every run (``pbem key new`` draws one at random)."""
    digest = hashlib.sha512(f"pbem docs key {name}".encode()).digest()
    return SecretKeys(digest[:32], digest[32:])


class Clock:
    """The time each command runs at: ``PBEM_NOW``, a few seconds after the one before."""

    def __init__(self, start: str) -> None:
        self.time = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)

    def tick(self, seconds: int = 1) -> str:
        self.time += timedelta(seconds=seconds)
        return self.time.strftime("%Y-%m-%dT%H:%M:%SZ")


@contextlib.contextmanager
def fixed_secrets(label: str) -> Iterator[None]:
    """The nonces and ephemeral keys pbem draws when it seals a choice, taken from ``label`` and
    a count instead of the operating system, so a sealed bid is the same on every run."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    count = iter(range(1_000_000))

    def draw(size: int) -> bytes:
        return hashlib.sha256(f"{label} {next(count)}".encode()).digest()[:size]

    def ephemeral() -> X25519PrivateKey:
        return X25519PrivateKey.from_private_bytes(draw(32))

    with (
        mock.patch.object(sealing.os, "urandom", draw),
        mock.patch.object(X25519PrivateKey, "generate", staticmethod(ephemeral)),
    ):
        yield


class Table:
    """Players with a key home each, in one folder, running pbem as they would at a shell.

    Every command is kept as the shell line a player would type, for the document."""

    def __init__(self, root: Path, seats: Sequence[str], start: str) -> None:
        self.root = root
        self.seats = tuple(seats)
        self.clock = Clock(start)
        self.lines: list[str] = []
        for seat in seats:
            home = self.home(seat)
            if not (home / "keys" / f"{seat}.key").exists():
                KeyStore(home).store(seat, seeded_keys(seat), None, "2026-01-01T00:00:00Z")

    def home(self, seat: str) -> Path:
        return self.root / f"h{seat}"

    def path(self, name: str) -> Path:
        return self.root / name

    def new(self, name: str, *, seats: Sequence[str], creator: str, options: Mapping[str, str] = {}) -> None:
        """``pbem new``, through the library so that the game's nonce is fixed."""
        setup = ledger.plan(
            game="princes-of-the-renaissance", edition=None, options=options, seats=seats, creator=creator
        )
        data = component_values(setup.info.name, setup.edition, None)
        nonce = hashlib.sha256(f"pbem docs game {name}".encode()).hexdigest()[:32]
        made = ledger.new_game(setup, seeded_keys(creator), at=self.clock.tick(), nonce=nonce, components=data)
        text = gamefile.render_new(made.header(), made.roster_table(), data, made.entries, made.status_lines())
        gamefile.write_new(self.path(name), text)
        extra = "".join(f" --option {key}={value}" for key, value in options.items())
        self.lines.append(
            f"PBEM_HOME=$PWD/h{creator} pbem new {name} --game princes-of-the-renaissance "
            f"--players {','.join(seats)} --as {creator}{extra}"
        )

    def pbem(self, seat: str | None, *args: str, code: int = 0, record: bool = True) -> Result:
        """``pbem ARGS`` in ``seat``'s home (or in a home with no key), at the next time."""
        home = self.home(seat) if seat else self.root / "nobody"
        env = {
            "PBEM_HOME": str(home),
            "PBEM_NOW": self.clock.tick(),
            "PBEM_PASSPHRASE": None,
            "NO_COLOR": "1",
            "COLUMNS": None,
        }
        with contextlib.chdir(self.root), fixed_secrets(f"{seat} {' '.join(args)}"):
            result = CliRunner().invoke(app, list(args), env=env)
        if result.exit_code != code:
            raise SystemExit(
                f"pbem {shlex.join(args)} (as {seat}) exited {result.exit_code}, not {code}:\n"
                f"{result.stdout}{result.stderr}"
            )
        if record:
            prefix = f"PBEM_HOME=$PWD/h{seat} " if seat else ""
            self.lines.append(prefix + "pbem " + shlex.join(args))
        return result

    def copy(self, source: str, *targets: str, comment: str = "") -> None:
        for target in targets:
            shutil.copyfile(self.path(source), self.path(target))
        line = "; ".join(f"cp {source} {target}" for target in targets)
        self.lines.append(line + (f"  # {comment}" if comment else ""))

    def data(self, name: str) -> dict[str, Any]:
        return tomllib.loads(self.path(name).read_text(encoding="utf-8"))

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")

    def commands(self, start: int = 0, comments: Mapping[int, str] = {}) -> str:
        """The shell lines recorded from ``start`` on, as a ``sh`` block."""
        shown = []
        for index, line in enumerate(self.lines[start:], start):
            comment = comments.get(index)
            shown.append(line + (f"  # {comment}" if comment else ""))
        return fence("sh", "\n".join(shown))


# --- showing ---------------------------------------------------------------------------------
def fence(language: str, text: str) -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def output(result: Result, command: str | None = None) -> str:
    """What a command printed, stdout then stderr, as the reader's terminal shows it."""
    lines = [f"$ {command}"] if command else []
    text = result.stdout + result.stderr
    return fence("text", "\n".join(lines) + ("\n" if lines else "") + text)


def entry_texts(text: str) -> list[str]:
    """Each ``[[entry]]`` block of a game file, as pbem wrote it (without the blank line after)."""
    blocks = text.split("[[entry]]\n")[1:]
    return ["[[entry]]\n" + block.rstrip("\n") for block in blocks]


SHORT = 16  # characters of a long value kept in a shortened entry


def shortened(entry: Mapping[str, Any]) -> str:
    """An entry with the hidden-deck arrays cut short, one field a line, for a reader: each long
    base64 value keeps its first characters, and each array its first item and a count."""
    lines = ["[[entry]]"]
    for key, value in entry.items():
        if key in ("shuffles", "remask", "shares", "face_up"):
            continue
        lines.append(f"{key} = {toml_value(value)}")
    for key in ("shuffles", "shares", "face_up", "remask"):
        for item in entry.get(key, []):
            lines.append("")
            lines.append(f"[[entry.{key}]]")
            for name, value in item.items():
                if isinstance(value, list):
                    first = toml_value(cut(value[0])) if value else ""
                    more = f", …{len(value) - 1} more" if len(value) > 1 else ""
                    lines.append(f"{name} = [{first}{more}]")
                else:
                    lines.append(f"{name} = {toml_value(cut(value) if key == 'shuffles' else value)}")
    return "\n".join(lines)


def cut(value: Any) -> Any:
    if isinstance(value, str) and len(value) > SHORT + 8:
        return f"{value[:SHORT]}…"
    return value


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + "}"
    raise TypeError(type(value))


def annotate(text: str, notes: Mapping[str, str]) -> str:
    """Comments for the reader after lines of a TOML text: ``notes`` maps a line's start
    (``'seq = 0'``, or ``'[[entry]]#3'`` for the fourth entry's header) to its comment."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for line in text.splitlines():
        key = line
        seen[key] = seen.get(key, 0) + 1
        matched = None
        for start, comment in notes.items():
            head, _, nth = start.partition("#")
            if line.startswith(head) and (not nth or int(nth) == seen[key] - 1):
                matched = comment
                break
        if matched is not None and matched.startswith("^"):
            out.append(f"# {matched[1:]}")
            out.append(line)
        elif matched is not None:
            out.append(f"{line}  # {matched}")
        else:
            out.append(line)
    return "\n".join(out)


# --- the groups of blocks --------------------------------------------------------------------
Blocks = dict[str, str]


def intro(root: Path) -> Blocks:
    """The first example: three players, a note, a contribution to a random event."""
    table = Table(root / "intro", "abc", "2026-11-22T02:30:04Z")
    table.root.mkdir(parents=True, exist_ok=True)
    start = len(table.lines)
    table.new("game.toml", seats="abc", creator="a")
    table.pbem("b", "join", "game.toml", "--as", "b")
    table.pbem("c", "join", "game.toml", "--as", "c")
    table.pbem("b", "note", "game.toml", "hello", "--as", "b")
    last = table.pbem("c", "play", "game.toml", "roll", "--as", "c")
    blocks: Blocks = {"intro-commands": table.commands(start)}
    blocks["intro-printed"] = output(last)
    blocks["intro-file"] = fence("toml", intro_file(table.text("game.toml")))
    blocks["intro-verify"] = output(table.pbem(None, "verify", "game.toml", record=False), "pbem verify game.toml")
    return blocks


def intro_file(text: str) -> str:
    head, _, rest = text.partition("[components.")
    entries = "[[entry]]" + rest.partition("[[entry]]")[2]
    return head.rstrip("\n") + "\n\n[components]  # ...\n\n" + entries


def together(root: Path) -> Blocks:
    """Joining at the same time, sealed bids, reveals and the tie-break, then play until a
    Treachery card is drawn, its shares given, and a card played face up."""
    table = Table(root / "together", "abc", "2026-11-22T02:30:19Z")
    table.root.mkdir(parents=True, exist_ok=True)
    table.new("game.toml", seats="abc", creator="a")
    table.copy("game.toml", "b.toml", "c.toml", comment="a sends the file to b and to c")
    table.pbem("b", "join", "b.toml", "--as", "b")
    table.pbem("c", "join", "c.toml", "--as", "c")
    merged = table.pbem(None, "merge", "b.toml", "c.toml", "-o", "merged.toml")
    table.pbem("a", "note", "merged.toml", "hello", "--as", "a")
    blocks: Blocks = {"together-commands": table.commands(), "together-merge-printed": output(merged)}
    start = len(table.lines)
    table.copy("merged.toml", "played.toml")
    table.pbem("b", "play", "played.toml", "roll", "--as", "b")
    table.pbem("c", "play", "played.toml", "roll", "--as", "c")
    table.pbem("a", "play", "played.toml", "bid", "7", "--as", "a")
    table.copy("played.toml", "pb.toml", "pc.toml")
    table.pbem("b", "play", "pb.toml", "bid", "5", "--as", "b")
    table.pbem("c", "play", "pc.toml", "bid", "7", "--as", "c")
    table.pbem(None, "merge", "played.toml", "pb.toml", "pc.toml")
    table.lines.append("for s in a b c; do cp played.toml r$s.toml; done")
    for seat in "abc":
        shutil.copyfile(table.path("played.toml"), table.path(f"r{seat}.toml"))
    for seat in "abc":
        table.pbem(seat, "reveal", f"r{seat}.toml", "--as", seat)
    table.pbem(None, "merge", "played.toml", "ra.toml", "rb.toml", "rc.toml")
    blocks["bids-commands"] = table.commands(start)
    blocks["bids-log"] = output(table.pbem(None, "log", "played.toml", record=False))
    table.copy("played.toml", "deck.toml")
    Autoplay(table, "deck.toml").run()
    blocks["deck-log"] = output(table.pbem(None, "log", "deck.toml", record=False))
    return blocks


FAMILIES = {"a": "bentivoglio", "b": "gonzaga", "c": "montefeltro"}


@dataclass
class Autoplay:
    """The game played on, as players would, until a Treachery card has been drawn, put under the
    deck by Bentivoglio and played face up: every seat passes in the family bidding, takes the
    family above, and buys a card whenever it can, until one can play a stealing card."""

    table: Table
    name: str
    kept: bool = False
    shown: bool = False

    def json(self, seat: str | None, *args: str) -> Any:
        return json.loads(self.table.pbem(seat, *args, "--json", record=False).stdout)

    def run(self) -> None:
        for _ in range(200):
            if self.shown:
                return
            self.step()
        raise SystemExit("the example game no longer reaches a card played face up")

    def step(self) -> None:
        status = self.json(None, "status", self.name)
        first = status["waiting"][0]
        waits = set()
        if first["kind"] == "move":
            waits = {seat for seats in first["waiting_for_shares"].values() for seat in seats}
        seat = min(waits) if waits else first["seat"]
        asked = [item for item in status["waiting"] if item["seat"] == seat]
        wanted = next((item for item in asked if item["kind"] not in ("shuffle", "share")), asked[0])
        if wanted["kind"] in ("shuffle", "share"):
            self.table.pbem(seat, "sync", self.name, "--as", seat)
        elif wanted["kind"] == "contribute":
            self.table.pbem(seat, "play", self.name, "roll", "--as", seat)
        elif wanted["kind"] == "reveal":
            self.table.pbem(seat, "reveal", self.name, "--as", seat)
        else:
            moves = self.json(seat, "moves", self.name, "--as", seat)["moves"]
            move = self.choose(seat, status["phase"], moves)
            self.table.pbem(seat, "play", self.name, *move.split(), "--as", seat)

    def choose(self, seat: str, phase: str, moves: list[str]) -> str:
        if phase == "family bidding":
            return "pass"
        if phase == "family choice":
            return f"family {FAMILIES[seat]}"
        keeps = [move for move in moves if move.startswith("keep ")]
        if keeps:
            self.kept = True
            return keeps[0]
        discards = [move for move in moves if move.startswith("discard treachery:")]
        if discards:
            hand = self.json(seat, "show", self.name, "--as", seat)["hand"]
            plain = [move for move in discards if not str(hand.get(move.split()[1])).startswith("steal-")]
            return (plain or discards)[0]
        steals = [move for move in moves if move.startswith("play steal-")]
        if steals and self.kept:
            self.shown = True
            return steals[0]
        if "buy card" in moves:
            return "buy card"
        return "pass"


GROUPS: dict[str, Callable[[Path], Blocks]] = {"intro": intro, "together": together}


# --- the document ----------------------------------------------------------------------------
def blocks_in(text: str) -> dict[str, tuple[int, int]]:
    """Each block's name and the span of its content (after the begin line, before the end)."""
    found: dict[str, tuple[int, int]] = {}
    for match in BEGIN.finditer(text):
        name = match.group(1)
        end = text.find(END.format(name=name), match.end())
        if end < 0:
            raise SystemExit(f"{DOC.name}: example {name} has no end line")
        found[name] = (match.end(), end)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare the document, change nothing")
    parser.add_argument("--only", action="append", choices=sorted(GROUPS), help="only this group")
    parser.add_argument("--show", action="store_true", help="print the blocks, change nothing")
    parser.add_argument("--keep", type=Path, help="play the games in this new folder, and keep them")
    args = parser.parse_args(argv)
    made: Blocks = {}
    with contextlib.ExitStack() as stack:
        folder = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pbem-docs-")))
        for name in args.only or GROUPS:
            made.update(GROUPS[name](folder))
    if args.show:
        for name, block in made.items():
            print(f"=== {name}\n{block}\n")
        return 0
    text = DOC.read_text(encoding="utf-8")
    spans = blocks_in(text)
    missing = sorted(set(made) - set(spans))
    if missing:
        print(f"{DOC.name} has no place for the examples {', '.join(missing)}", file=sys.stderr)
        return 1
    stale = [name for name in made if text[slice(*spans[name])] != made[name] + "\n"]
    if args.check:
        for name in stale:
            print(f"{DOC.name}: example {name} differs from what pbem gives now", file=sys.stderr)
        if not stale:
            print(f"{DOC.name}: {len(made)} examples checked, all as pbem gives them now")
        return 1 if stale else 0
    for name in sorted(stale, key=lambda name: spans[name][0], reverse=True):
        start, end = spans[name]
        text = text[:start] + made[name] + "\n" + text[end:]
    DOC.write_text(text, encoding="utf-8")
    print(f"{DOC.name}: {len(stale)} of {len(made)} examples rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
