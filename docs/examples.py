"""The worked examples of docs/game-file.md, made by playing real games with pbem.

Every example block of the document (the commands, what they printed, the entries, the hashes,
the worked values of each proof, what verify says of edited files) is written here, between
marker lines in the document:

    <!-- begin example NAME: made by docs/examples.py; edit that, not this -->
    ...
    <!-- end example NAME -->

Usage:
    python docs/examples.py                   write every block into docs/game-file.md
    python docs/examples.py --check           exit 1, naming each block the document shows
                                              otherwise than pbem gives it today
    python docs/examples.py --check --only intro     the same for one group of blocks

The games are the same on every run: keys are derived from the seat names, every command runs
at a fixed time (``PBEM_NOW``), and the nonces pbem draws when it creates a game or seals a
choice are fixed too. Everything else (randomness chains, deck keys, shuffles, proofs) follows
from the keys and the game, so the same script gives the same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any
from unittest import mock

from typer.testing import CliRunner, Result

from pbem import gamefile
from pbem.cli import app
from pbem.cli.template_files import component_values
from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto import randomness
from pbem.crypto.canonical import canonical_bytes
from pbem.crypto.deck_groups import by_name
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.groups import Element, Group
from pbem.crypto.identity import SecretKeys
from pbem.crypto.signing import entry_hash, entry_message, pae
from pbem.engine import ledger, registry
from pbem.engine.ruleset import hidden_deck_rules, ruleset_for
from pbem.keys import KeyStore
from pbem.kit import templates

HERE = Path(__file__).resolve().parent
DOC = HERE / "game-file.md"
CHECKER = HERE / "check_pbem.py"
VERIFIER = HERE.parent / "tests" / "independent_verifier.py"
BEGIN = re.compile(r"<!-- begin example ([a-z0-9-]+): made by docs/examples\.py; edit that, not this -->\n")
END = "<!-- end example {name} -->"
POTR = "princes-of-the-renaissance"
PRINCIPE = "il-principe"


# --- playing ---------------------------------------------------------------------------------
def seeded_keys(name: str) -> SecretKeys:
    """A seat's key, the same on every run (``pbem key new`` draws one at random)."""
    digest = hashlib.sha512(f"pbem docs key {name}".encode()).digest()
    return SecretKeys(digest[:32], digest[32:])


class Clock:
    """The time each command runs at: ``PBEM_NOW``, a second after the one before."""

    def __init__(self, start: str) -> None:
        self.time = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)

    def tick(self) -> str:
        self.time += timedelta(seconds=1)
        return self.time.strftime("%Y-%m-%dT%H:%M:%SZ")


@contextlib.contextmanager
def fixed_draws(label: str) -> Iterator[None]:
    """The nonce and the ephemeral key pbem draws when it seals a choice, taken from ``label``
    and a count instead of the operating system, so a sealed bid is the same on every run."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    count = iter(range(1_000_000))

    def draw(size: int) -> bytes:
        return hashlib.sha256(f"{label} {next(count)}".encode()).digest()[:size]

    def ephemeral() -> X25519PrivateKey:
        return X25519PrivateKey.from_private_bytes(draw(32))

    with (
        mock.patch("pbem.crypto.sealing.os.urandom", draw),
        mock.patch.object(X25519PrivateKey, "generate", staticmethod(ephemeral)),
    ):
        yield


class Table:
    """Players with a key home each, in one folder, running pbem as they would at a shell.

    Every command is kept as the line a player would type, for the document."""

    def __init__(self, root: Path, seats: Sequence[str], start: str) -> None:
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.seats = tuple(seats)
        self.clock = Clock(start)
        self.lines: list[str] = []
        self.cleans = 0

    def home(self, name: str) -> Path:
        """``ha`` for seat a; ``ha2`` is a's key in a second home, which has seen none of the
        games the first has (a home never signs two entries for one step, so the document's
        forks and equivocations are made in second homes)."""
        home = self.root / f"h{name}"
        seat = name.rstrip("0123456789")
        if not (home / "keys" / f"{seat}.key").exists():
            KeyStore(home).store(seat, seeded_keys(seat), None, "2026-01-01T00:00:00Z")
        return home

    def path(self, name: str) -> Path:
        return self.root / name

    def new(
        self,
        name: str,
        *,
        creator: str = "a",
        game: str = POTR,
        options: Mapping[str, str] | None = None,
        email: str | None = None,
    ) -> None:
        """``pbem new``, through the library so that the game's nonce is fixed."""
        options = dict(options or {})
        setup = ledger.plan(game=game, edition=None, options=options, seats=self.seats, creator=creator)
        # A game whose rules read one template for every edition (Il Principe's) embeds that.
        data = component_values(setup.info.name, setup.edition, None) or (
            templates.values(gamefile.shipped_template(game)) if registry.get(game).rules else {}
        )
        nonce = hashlib.sha256(f"pbem docs game {self.root.name} {name}".encode()).hexdigest()[:32]
        made = ledger.new_game(
            setup, seeded_keys(creator), at=self.clock.tick(), nonce=nonce, components=data, email=email
        )
        text = gamefile.render_new(
            made.header(), made.roster_table(), data, made.entries, made.status_lines()
        )
        gamefile.write_new(self.path(name), text)
        extra = "".join(f" --option {key}={value}" for key, value in options.items())
        extra += f" --email {email}" if email else ""
        self.lines.append(
            f"PBEM_HOME=$PWD/h{creator} pbem new {name} --game {game} "
            f"--players {','.join(self.seats)} --as {creator}{extra}"
        )

    def pbem(
        self, home: str | None, *args: str, code: int | None = 0, record: bool = True, comment: str = ""
    ) -> Result:
        """``pbem ARGS`` in a seat's home, at the next time. With no home, in a home with no key;
        with ``@``, in a new one, which has verified nothing yet (so says nothing of other copies)."""
        if home == "@":
            self.cleans += 1
            where = self.root / f"clean{self.cleans}"
        else:
            where = self.home(home) if home else self.root / "nobody"
        env = {
            "PBEM_HOME": str(where),
            "PBEM_NOW": self.clock.tick(),
            "PBEM_PASSPHRASE": None,
            "NO_COLOR": "1",
            "COLUMNS": None,
        }
        with contextlib.chdir(self.root), fixed_draws(f"{home} {' '.join(args)}"):
            result = CliRunner().invoke(app, list(args), env=env)
        if code is not None and result.exit_code != code:
            raise SystemExit(
                f"pbem {shlex.join(args)} (in h{home}) exited {result.exit_code}, not {code}:\n"
                f"{result.stdout}{result.stderr}"
            )
        if record:
            prefix = f"PBEM_HOME=$PWD/h{home} " if home and home != "@" else ""
            self.lines.append(prefix + "pbem " + shlex.join(args) + (f"  # {comment}" if comment else ""))
        return result

    def copy(self, source: str, *targets: str, comment: str = "") -> None:
        for target in targets:
            shutil.copyfile(self.path(source), self.path(target))
        line = "; ".join(f"cp {source} {target}" for target in targets)
        self.lines.append(line + (f"  # {comment}" if comment else ""))

    def data(self, name: str) -> dict[str, Any]:
        return tomllib.loads(self.text(name))

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")

    def write(self, name: str, data: Mapping[str, Any]) -> None:
        """A file with these tables, written as pbem writes one (an edited copy, for instance)."""
        status = ["an edited copy, for docs/game-file.md"]
        text = gamefile.render_new(
            data["game"], data.get("roster", {}), data.get("components", {}), data["entry"], status
        )
        self.path(name).write_text(text, encoding="utf-8")

    def commands(self, start: int = 0) -> str:
        """The lines recorded from ``start`` on, as a ``sh`` block."""
        return fence("sh", "\n".join(self.lines[start:]))


# --- showing ---------------------------------------------------------------------------------
def fence(language: str, text: str) -> str:
    return f"```{language}\n{text.rstrip()}\n```"


def printed(result: Result, command: str | None = None, *, stderr_first: bool = False) -> str:
    """What a command printed, as the reader's terminal shows it."""
    lines = [f"$ {command}"] if command else []
    parts = (result.stderr, result.stdout) if stderr_first else (result.stdout, result.stderr)
    return "\n".join(lines + [part.rstrip("\n") for part in parts if part])


def entry_blocks(text: str) -> list[str]:
    """Each ``[[entry]]`` block of a game file, as pbem wrote it."""
    return ["[[entry]]\n" + block.rstrip("\n") for block in text.split("[[entry]]\n")[1:]]


def cut(value: str, keep: int = 16) -> str:
    return f"{value[:keep]}…" if len(value) > keep + 8 else value


def cut_long_values(text: str, longer_than: int = 100) -> str:
    """Every quoted value longer than ``longer_than`` characters cut to its first characters."""
    return re.sub(rf'"([A-Za-z0-9+/=]{{{longer_than},}})"', lambda m: f'"{cut(m.group(1))}"', text)


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


DECK_FIELDS = ("shuffles", "shares", "face_up", "remask", "escrow_partials", "escrow_reshares")
ESCROW_TABLES = (
    "escrow",
    "escrow_complaint",
    "escrow_reshare_complaint",
)  # one table each, never cut: short values
# The packed lists of a compact group's hidden-deck tables: what each value is, and its size.
PACKED = {
    "cards": ("ciphertexts", 64),
    "commitments_a": ("points", 32),
    "commitments_b": ("points", 32),
    "product_commitment": ("points", 32),
    "hadamard_commitments": ("points", 32),
    "zero_commitments": ("points", 32),
    "svp_commitments": ("points", 32),
    "multi_exp_commitments": ("points", 32),
    "multi_exp_ciphertexts": ("ciphertexts", 64),
    "zero_responses": ("scalars", 32),
    "svp_responses": ("scalars", 32),
    "multi_exp_responses": ("scalars", 32),
    "partials": ("points", 32),
}


def readable(entry: Mapping[str, Any], *, short: bool) -> str:
    """An entry one field a line, its hidden-deck tables as ``[[entry.shuffles]]`` and so on; with
    ``short``, each long value cut to its first characters (a packed list saying what it packs)
    and each array to its first value."""
    lines = ["[[entry]]"]
    tables = (*DECK_FIELDS, *ESCROW_TABLES)
    lines += [f"{key} = {toml_value(value)}" for key, value in entry.items() if key not in tables]
    for key in ESCROW_TABLES:
        if key in entry:
            lines += ["", f"[entry.{key}]"]
            lines += [f"{name} = {toml_value(value)}" for name, value in entry[key].items()]
    for key in DECK_FIELDS:
        for item in entry.get(key, []):
            lines += ["", f"[[entry.{key}]]"]
            for name, value in item.items():
                if isinstance(value, list) and short and all(isinstance(each, str) for each in value):
                    more = f", …{len(value) - 1} more" if len(value) > 1 else ""
                    lines.append(f"{name} = [{toml_value(cut(value[0]))}{more}]")
                elif isinstance(value, str) and short and name in PACKED:
                    what_, size = PACKED[name]
                    count = len(unb64(value)) // size
                    note = f"{count} {what_}, {count * size} bytes, {len(value)} characters"
                    lines.append(f"{name} = {toml_value(cut(value))}  # {note}")
                elif isinstance(value, str) and short:
                    lines.append(f"{name} = {toml_value(cut(value))}")
                else:
                    lines.append(f"{name} = {toml_value(value)}")
    return "\n".join(lines)


def annotate(text: str, notes: Sequence[tuple[str, str]]) -> str:
    """``notes``: (a pattern a line starts with, a comment), taken in order: the first note whose
    pattern fits a line is used for it. A comment that starts with ``^`` goes on lines of its own
    before the line, any other after it."""
    out: list[str] = []
    pending = list(notes)
    for line in text.splitlines():
        match = next((note for note in pending if re.match(note[0], line)), None)
        if match is None:
            out.append(line)
            continue
        pending.remove(match)
        comment = match[1]
        if comment.startswith("^"):
            out += [f"# {part}".rstrip() for part in comment[1:].split("\n")] + [line]
        else:
            out.append(f"{line}  # {comment}")
    if pending:
        raise SystemExit(f"no line starts with {pending[0][0]!r}")
    return "\n".join(out)


def number(value: Element, group: Group) -> str:
    """A group value by the first 16 and last 8 hex digits of its encoding (an element) or of
    its bytes (a scalar)."""
    digits = (group.scalar_bytes(value) if isinstance(value, int) else group.encode(value)).hex()
    return f"{digits[:16]}…{digits[-8:]}"


def message_text(message: bytes) -> str:
    return message.decode("utf-8")


def short_hex(text: str) -> str:
    """Hex runs of 16 digits or more cut to 8, for a table a reader scans."""
    return re.sub(r"[0-9a-f]{16,}", lambda m: f"{m.group(0)[:8]}…", text)


# --- the games ---------------------------------------------------------------------------------
class Games:
    """The games the document shows, each played once, when a block first needs it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @cached_property
    def intro(self) -> Table:
        """Three players; a note; c adds randomness to the setup draw."""
        table = Table(self.root / "intro", "abc", "2026-11-22T02:30:04Z")
        table.new("game.toml")
        table.pbem("b", "join", "game.toml", "--as", "b")
        table.pbem("c", "join", "game.toml", "--as", "c")
        table.pbem("b", "note", "game.toml", "hello", "--as", "b")
        self.intro_printed = table.pbem("c", "play", "game.toml", "roll", "--as", "c")
        return table

    @cached_property
    def together(self) -> Table:
        """Joins at the same time, then sealed bids and reveals at the same time."""
        table = Table(self.root / "together", "abc", "2026-11-22T02:30:19Z")
        table.new("game.toml")
        table.copy("game.toml", "b.toml", "c.toml", comment="a sends the file to b and to c")
        table.pbem("b", "join", "b.toml", "--as", "b", comment="b joins on b's copy")
        table.pbem("c", "join", "c.toml", "--as", "c", comment="c joins on c's copy")
        self.merge_printed = table.pbem(
            None,
            "merge",
            "b.toml",
            "c.toml",
            "-o",
            "merged.toml",
            comment="anyone can merge: no key is needed",
        )
        table.pbem("a", "note", "merged.toml", "hello", "--as", "a")
        self.together_end = len(table.lines)
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
        return table

    @cached_property
    def copies(self) -> Blocks:
        return copies(self)

    @cached_property
    def mail(self) -> Table:
        """Addresses: a's given when creating the game, b's when joining and then moved, c none."""
        table = Table(self.root / "mail", "abc", "2026-11-22T03:10:00Z")
        table.new("mail.toml", email="a@example.org")
        table.pbem("b", "join", "mail.toml", "--as", "b", "--email", "b@example.org")
        table.pbem("b", "mail", "address", "mail.toml", "b@example.net", "--as", "b")
        table.pbem("c", "join", "mail.toml", "--as", "c")
        return table

    @cached_property
    def escrow(self) -> Table:
        """Il Principe with escrow and a one-day deadline: each seat deals its deck secret to the
        other two, the decks deal each seat four cards, and c answers nothing more; a day later
        a and b unlock c's shares of their cards. ``answered.toml`` is a copy on which c gave its
        shares after all, for comparison."""
        table = Table(self.root / "escrow", "abc", "2026-11-23T08:00:00Z")
        name = "escrow.toml"
        table.new(name, game=PRINCIPE, options={"escrow": "others", "deadline_days": "1"})
        table.pbem("b", "join", name, "--as", "b")
        table.pbem("c", "join", name, "--as", "c")
        for seat in "abc":
            table.pbem(seat, "play", name, "roll", "--as", seat)
        table.pbem("a", "sync", name, "--as", "a", comment="a acknowledges b's and c's dealings")
        table.pbem("b", "sync", name, "--as", "b", comment="b acknowledges c's: the decks deal")
        self.escrow_dealt = len(table.lines)
        table.pbem("a", "sync", name, "--as", "a", comment="a's shares of b's and c's cards")
        table.pbem("b", "sync", name, "--as", "b", comment="b's shares of a's and c's cards; c sends nothing")
        table.copy(name, "answered.toml", comment="for comparison: a copy on which c answers after all")
        table.pbem("c", "sync", "answered.toml", "--as", "c")
        table.clock.time += timedelta(days=1)
        table.lines.append("# a day later, c's deadline has passed")
        table.pbem(
            "a",
            "timeout",
            name,
            "c",
            "--as",
            "a",
            comment="c's reserve: the default; c is absent, its shares unlocked",
        )
        table.pbem("a", "sync", name, "--as", "a", comment="a's partial decryptions")
        table.pbem("b", "sync", name, "--as", "b", comment="b's: with two, c's shares")
        return table

    @cached_property
    def handed(self) -> Table:
        """``escrow.toml`` played on in ``handed.toml``: c, absent, is handed to d by a's proposal
        and b's consent; d takes the seat with its own key, and a and b seal it their shares of
        c's secret. Its own clock, so that it is the same whichever blocks are made first."""
        escrow = self.escrow
        table = Table(escrow.root, "abc", "2026-11-25T08:00:00Z")
        name = "handed.toml"
        table.pbem("d", "key", "export", "d", "--output", "d.id", comment="d's public identity, for a")
        table.copy("escrow.toml", name)
        table.pbem(
            "a", "handover", name, "--as", "a", "--to", "d", "d.id", "--silent", "c",
            comment="the proposal: a replace entry",
        )  # fmt: skip
        table.pbem("b", "consent", name, "--as", "b", comment="the last consent: c is d's")
        table.pbem("d", "join", name, "--as", "c", "--key", "d", comment="d takes c's seat: a rejoin entry")
        table.pbem("a", "sync", name, "--as", "a", comment="a's share of c's secret, sealed to d")
        table.pbem("b", "sync", name, "--as", "b", comment="b's: with two, d rebuilds c's secret")
        return table

    @cached_property
    def deck(self) -> Table:
        """``played.toml`` played on until a Treachery card is shown face up: ``deck.toml``."""
        table = self.together
        shutil.copyfile(table.path("played.toml"), table.path("deck.toml"))
        Autoplay(table, "deck.toml").run()
        return table


FAMILIES = {"a": "bentivoglio", "b": "gonzaga", "c": "montefeltro"}


@dataclass
class Autoplay:
    """A game played on, as players would, until a Treachery card has been drawn, one put under
    the deck by Bentivoglio, and one played face up: every seat passes in the family bidding,
    takes the family above, and buys a card whenever it can, until one can play a stealing card."""

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
        play = self.table.pbem
        if wanted["kind"] in ("shuffle", "share"):
            play(seat, "sync", self.name, "--as", seat, record=False)
        elif wanted["kind"] == "contribute":
            play(seat, "play", self.name, "roll", "--as", seat, record=False)
        elif wanted["kind"] == "reveal":
            play(seat, "reveal", self.name, "--as", seat, record=False)
        else:
            moves = self.json(seat, "moves", self.name, "--as", seat)["moves"]
            move = self.choose(seat, status["phase"], moves)
            play(seat, "play", self.name, *move.split(), "--as", seat, record=False)

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


# --- the blocks ----------------------------------------------------------------------------------
Blocks = dict[str, str]

INTRO_NOTES = (
    (
        r"\[game\]",
        "^^ status lines: not signed, rewritten by pbem on every write\n\n"
        "Header: unsigned copies, each checked against the entries.",
    ),
    ("format = 1", "file format version"),
    ("id = ", "= game_id of the genesis entry"),
    ("ruleset = ", "= ruleset of the genesis entry"),
    ("edition = ", "= edition of the genesis entry"),
    ("seats = ", "= seats of the genesis entry"),
    ("entries = ", "number of [[entry]] tables"),
    ("head = ", "hash of the last step"),
    (r"\[roster\.a\]", "^Roster: unsigned copies of the keys each seat signed in its genesis or join entry."),
    (r"\[components\]", "^Component data: its hash is the genesis 'components'."),
    (r"\[\[entry\]\]", "^Entry 0: the genesis, signed by the creator with the key it introduces."),
    ("seq = 0", "step 0 holds the genesis entry alone"),
    (r'prev = ""', "empty: nothing comes before the genesis"),
    ("nonce = ", "16 random bytes drawn by pbem new"),
    ("options = ", "every option, defaults too"),
    ("seats = ", "seating order"),
    ("components = ", "hash of the component data"),
    ("sign = ", "a's Ed25519 public key"),
    ("box = ", "a's X25519 public key"),
    ("game_id = ", "a hash of the fields above"),
    ("rand_tip = ", "tip of a's randomness chain"),
    ("deck_key = ", "a's key for hidden decks: a point of edwards25519"),
    ("deck_key_proof = ", "a Schnorr proof that a knows its secret"),
    (r"\[\[entry\]\]", "^Entry 1: b joins, signing with the key the entry introduces."),
    ('prev = "[0-9a-f]', "hash of step 0"),
    (r"\[\[entry\]\]", "^Entry 2: c joins. c is the last seat to join, so the game starts at this step."),
    (r"\[\[entry\]\]", "^Entry 3: a note from b, signed with the key b joined with."),
    ("rand = ", "b's first link: hashes to b's rand_tip"),
    (r"\[\[entry\]\]", "^Entry 4: c adds its randomness to the setup draw (the City tiles)."),
    ("rand = ", "c's first link: c's contribution to the draw"),
)


def intro_blocks(games: Games) -> Blocks:
    table = games.intro
    data = table.data("game.toml")
    entries = data["entry"]
    game_id = entries[0]["game_id"]
    blocks: Blocks = {
        "check-script": fence("python", CHECKER.read_text(encoding="utf-8")),
        "intro-commands": table.commands(),
        "intro-printed": fence("text", printed(games.intro_printed)),
    }
    head, _, rest = table.text("game.toml").partition("[components.")
    shown = (
        head.rstrip("\n")
        + "\n\n[components]\n# ... the 2016 template's values\n\n"
        + "\n\n".join(entry_blocks(rest))
    )
    blocks["intro-file"] = fence("toml", annotate(shown, INTRO_NOTES))
    # As the document says: the file with these comments, and its component data, verifies.
    components = "[components." + rest.partition("[[entry]]")[0]
    whole = annotate(shown, INTRO_NOTES).replace(
        "[components]\n# ... the 2016 template's values\n", components
    )
    table.path("annotated.toml").write_text(whole + "\n", encoding="utf-8")
    table.pbem("@", "verify", "annotated.toml", record=False)
    verified = table.pbem("@", "verify", "game.toml", record=False)
    blocks["intro-verify"] = fence("text", printed(verified, "pbem verify game.toml"))
    as_json = table.pbem("@", "verify", "--json", "game.toml", record=False)
    blocks["verify-json"] = fence("json", printed(as_json, "pbem verify --json game.toml"))
    empty = ledger.components_hash({})
    blocks["components-empty"] = fence("text", f'{empty}   # SHA-256 of "pbem/components/v1 2 {{}}"')

    genesis = entries[0]
    core = {name: value for name, value in genesis.items() if name not in ledger.DERIVED_GENESIS_FIELDS}
    hashed = pae(ledger.GAME_ID_DOMAIN, canonical_bytes(core))
    digest = hashlib.sha256(hashed).hexdigest()
    blocks["game-id"] = fence(
        "text",
        f"the bytes hashed ({len(hashed)}):\n{message_text(hashed)}\n\n"
        f"SHA-256:  {digest}\ngame_id:  {digest[:32]}",
    )

    note = entries[3]
    message = entry_message(game_id, note)
    blocks["signed-message"] = fence("text", message_text(message))

    rows = ["| Entry | Its hash, and so the hash of its step | Appears as |", "|---|---|---|"]
    names = ("genesis by a", "join by b", "join by c", "note by b", "contribute by c")
    for index, entry in enumerate(entries):
        digest = entry_hash(entry_message(game_id, entry), unb64(entry["sig"]))
        where = f"`prev` of entry {index + 1}" if index + 1 < len(entries) else "`head` in `[game]`"
        rows.append(f"| {index} ({names[index]}) | `{digest}` | {where} |")
    blocks["chain-hashes"] = "\n".join(rows)

    link = bytes.fromhex(note["rand"])
    back = randomness.step_back(game_id, "b", link)
    blocks["rand-link"] = fence(
        "text",
        f"rand of b's note (w1):   {note['rand']}\n"
        f'SHA-256(pae("pbem/rand-chain/v1", "{game_id}", "b", w1))\n'
        f"                       = {back.hex()}\n"
        f"rand_tip of b's join:    {entries[1]['rand_tip']}",
    )

    cards = hd_cards(data.get("components", {}))
    group = by_name(data["entry"][0].get("group"))
    first = group.encode(hd.encode_card(0, group=group))
    blocks["treachery-cards"] = fence(
        "text",
        "\n".join(card_ranges(cards)) + f"\n\ncard(0) = {first.hex()} ({group.name})",
    )
    return blocks


def card_ranges(cards: Sequence[str]) -> list[str]:
    """The cards of a deck, one line for each run of copies: ``cards 0 to 3: bribe-troops``."""
    ranges: list[str] = []
    for index, name in enumerate(cards):
        if index and cards[index - 1] == name:
            continue
        last = next((i - 1 for i in range(index + 1, len(cards)) if cards[i] != name), len(cards) - 1)
        ranges.append(f"cards {index} to {last}: {name}" if last > index else f"card {index}: {name}")
    return ranges


def decks_of(game: str, seats: Sequence[str]) -> dict[str, list[str]]:
    """The decks pbem's rules deal for ``game`` with the template's values and these seats."""
    info = registry.get(game)
    rules = ruleset_for(info)
    hidden = hidden_deck_rules(rules)
    assert rules is not None and hidden is not None
    setup = ledger.plan(game=game, edition=None, options={}, seats=seats, creator=seats[0])
    data = templates.values(gamefile.shipped_template(game))  # what pbem new embeds
    state = rules.setup(tuple(seats), setup.edition, dict(setup.options), data)
    return {spec.deck_id: list(spec.cards) for spec in hidden.hidden_decks(state)}


def cards_blocks(games: Games) -> Blocks:
    """The decks of Princes of Florence and Il Principe, as pbem's rules deal them from the
    template's component values."""
    florence = decks_of("princes-of-florence", "abcd")
    lines: list[str] = []
    for deck, cards in florence.items():
        named = ", ".join(cards)
        lines += [
            f"{deck}, cards 0 to {len(cards) - 1}:",
            *textwrap.wrap(named, 96, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False),
        ]
    principe = {seats: decks_of("il-principe", "abcd"[:seats])["building"] for seats in (4, 2)}
    shown: list[str] = []
    for seats, cards in principe.items():
        more = "three seats or more" if seats > 2 else "two seats"
        shown += [
            f"building, with {more} ({len(cards)} cards):",
            *(f"  {line}" for line in card_ranges(cards)),
        ]
    return {
        "florence-cards": fence("text", "\n".join(lines)),
        "principe-cards": fence("text", "\n".join(shown)),
    }


MAIL_NOTES = (
    (r"\[\[entry\]\]", "^Entry 1: b joins, giving the address its mail goes to."),
    ("email = ", "signed with the rest: nobody else can change it"),
    (r"\[\[entry\]\]", "^Entry 2: b moves its mail, before the game has started (c has not joined)."),
    ("email = ", "where b's mail goes from this entry on"),
    ("rand = ", "b's first link, as a note's would be"),
)


def mail_blocks(games: Games) -> Blocks:
    table = games.mail
    data = table.data("mail.toml")
    entries = data["entry"]
    shown = "\n\n".join(cut_long_values(block) for block in entry_blocks(table.text("mail.toml"))[1:3])
    blocks: Blocks = {
        "mail-commands": table.commands(),
        "mail-entries": fence("toml", annotate(shown, MAIL_NOTES)),
        "mail-log": fence("text", printed(table.pbem(None, "log", "mail.toml", record=False))),
    }
    genesis = entries[0]
    core = {name: value for name, value in genesis.items() if name not in ledger.DERIVED_GENESIS_FIELDS}
    hashed = pae(ledger.GAME_ID_DOMAIN, canonical_bytes(core))
    digest = hashlib.sha256(hashed).hexdigest()
    assert digest[:32] == genesis["game_id"] and "email" in core
    blocks["mail-game-id"] = fence(
        "text",
        f"the bytes hashed ({len(hashed)}):\n{message_text(hashed)}\n\n"
        f"SHA-256:  {digest}\ngame_id:  {digest[:32]}",
    )
    return blocks


def referee_blocks(games: Games) -> Blocks:
    """The game id of a genesis that names a referee: its ``referee`` table is hashed with the
    rest (the genesis is made and checked, never played)."""
    seats = ("a", "b", "c")
    referee = seeded_keys("r")
    identity = referee.public("r")
    setup = ledger.plan(game=PRINCIPE, edition=None, options={"escrow": "referee"}, seats=seats, creator="a")
    data = component_values(setup.info.name, setup.edition, None) or templates.values(
        gamefile.shipped_template(PRINCIPE)
    )
    made = ledger.new_game(
        setup,
        seeded_keys("a"),
        at="2026-11-22T03:20:00Z",
        nonce=hashlib.sha256(b"pbem docs game referee").hexdigest()[:32],
        components=data,
        referee=ledger.Referee(identity, referee.sign(identity.binding_message())),
    )
    genesis = made.entries[0]
    core = {name: value for name, value in genesis.items() if name not in ledger.DERIVED_GENESIS_FIELDS}
    hashed = pae(ledger.GAME_ID_DOMAIN, canonical_bytes(core))
    digest = hashlib.sha256(hashed).hexdigest()
    assert digest[:32] == genesis["game_id"] and "referee" in core and "group" in core
    return {
        "referee-game-id": fence(
            "text",
            f"the bytes hashed ({len(hashed)}):\n{message_text(hashed)}\n\n"
            f"SHA-256:  {digest}\ngame_id:  {digest[:32]}",
        )
    }


def hd_cards(components: Mapping[str, Any]) -> list[str]:
    return [record["id"] for record in components.get("treachery", []) for _ in range(record["copies"])]


TOGETHER_NOTES = (
    (r"\[\[entry\]\]", "^Step 0: the genesis entry."),
    (r"\[\[entry\]\]", "^Step 1, first entry: b's join, made on b.toml."),
    ('prev = "[0-9a-f]', "hash of step 0"),
    (
        r"\[\[entry\]\]",
        "^Step 1, second entry: c's join, made on c.toml. Same seq, same prev; c comes after b in seats.",
    ),
    ('prev = "[0-9a-f]', "hash of step 0"),
    (r"\[\[entry\]\]", "^Step 2: a's note, made on merged.toml."),
    ('prev = "[0-9a-f]', "hash of step 1"),
)


def together_blocks(games: Games) -> Blocks:
    table = games.together
    blocks: Blocks = {
        "together-commands": fence("sh", "\n".join(table.lines[: games.together_end])),
        "together-merge-printed": fence("text", printed(games.merge_printed)),
    }
    merged = table.text("merged.toml")
    shown = "\n\n".join(cut_long_values(block) for block in entry_blocks(merged))
    blocks["together-entries"] = fence("toml", annotate(shown, TOGETHER_NOTES))
    data = table.data("merged.toml")
    entries, game_id = data["entry"], data["entry"][0]["game_id"]
    hashes = [entry_hash(entry_message(game_id, entry), unb64(entry["sig"])) for entry in entries]
    step1 = hashlib.sha256(
        pae("pbem/step/v1", bytes.fromhex(hashes[1]), bytes.fromhex(hashes[2]))
    ).hexdigest()
    rows = [
        "| Entry or step | Hash | Appears as |",
        "|---|---|---|",
        f"| entry 0 (genesis by a), and step 0 | `{hashes[0]}` | `prev` of both entries of step 1 |",
        f"| entry 1 (join by b) | `{hashes[1]}` | `h1` of step 1 |",
        f"| entry 1 (join by c) | `{hashes[2]}` | `h2` of step 1 |",
        f"| step 1: SHA-256 of `pbem/step/v1 32 ` h1 ` 32 ` h2 | `{step1}` | `prev` of entry 2 |",
        f"| entry 2 (note by a), and step 2 | `{hashes[3]}` | `head` in `[game]` |",
    ]
    blocks["together-hashes"] = "\n".join(rows)
    verified = table.pbem("@", "verify", "merged.toml", record=False)
    blocks["together-verify"] = fence("text", printed(verified, "pbem verify merged.toml"))

    blocks["bids-commands"] = fence("sh", "\n".join(table.lines[games.together_end :]))
    blocks["bids-log"] = fence("text", printed(table.pbem(None, "log", "played.toml", record=False)))
    played = table.data("played.toml")["entry"]
    commit = next(e for e in played if e["kind"] == "commit" and e["by"] == "c")
    reveal = next(e for e in played if e["kind"] == "reveal" and e["by"] == "a")
    blocks["bids-entries"] = fence(
        "toml", readable(commit, short=True) + "\n\n" + readable(reveal, short=True)
    )
    blocks["tie-break"] = fence("text", tie_break(table, played))
    return blocks


def tie_break(table: Table, entries: Sequence[Mapping[str, Any]]) -> str:
    """The turn-order tie-break drawn again from the links of the three reveals, draw by draw."""
    game_id = entries[0]["game_id"]
    since = max(e["seq"] for e in entries if e["kind"] == "commit")
    seats = entries[0]["seats"]
    links = {}
    for seat in seats:
        links[seat] = next(e["rand"] for e in entries if e["by"] == seat and e["seq"] > since and "rand" in e)
    context = "turn-order tie-break"
    contributions = [(seat, bytes.fromhex(links[seat])) for seat in seats]
    stream = randomness.stream(game_id, f"{context}#0", contributions, 255 * 32)
    lines = [
        f"context: {context}, asked for at step {since}; the contributions, in seat order:",
        *(f"  {seat}: {links[seat]}" for seat in seats),
        f"block(0) starts: {stream[:8].hex()} …",
    ]
    order, offset = list(seats), 0
    for i in range(len(order) - 1, 0, -1):
        bound = i + 1
        width = (bound - 1).bit_length()
        size = (width + 7) // 8
        while True:
            raw = stream[offset : offset + size]
            offset += size
            candidate = int.from_bytes(raw, "big") & ((1 << width) - 1)
            verdict = "taken" if candidate < bound else "too big: the next byte"
            bits = f"{width} bit{'s' if width > 1 else ''}"
            lines.append(f"  below {bound}: byte {raw.hex()}, its low {bits}: {candidate}, {verdict}")
            if candidate < bound:
                break
        order[i], order[candidate] = order[candidate], order[i]
        lines.append(f"  swap items {i} and {candidate}: {', '.join(order)}")
    check = randomness.Draws(game_id, context, contributions).shuffle(seats)
    assert check == order, (check, order)
    shown = json.loads(table.pbem(None, "show", "played.toml", "--json", record=False).stdout)
    said = next(event for event in shown["events"] if event.startswith("turn order by bids"))
    lines += [f"priority order: {', '.join(order)}", f"pbem show played.toml: {said}"]
    return "\n".join(lines)


@dataclass(frozen=True)
class DeckEntries:
    """The entries of the hidden-deck game the document shows: a shuffle, shares, a card put
    under the deck, a card shown face up."""

    shuffled: dict[str, Any]
    shares: dict[str, Any]
    remasked: dict[str, Any]
    shown: dict[str, Any]

    @classmethod
    def of(cls, entries: Sequence[dict[str, Any]]) -> DeckEntries:
        return cls(
            next(e for e in entries if e.get("shuffles") and e["by"] == entries[0]["seats"][0]),
            next(e for e in entries if e.get("shares")),
            next(e for e in entries if e.get("remask")),
            next(e for e in entries if e.get("face_up")),
        )


def what(entry: Mapping[str, Any]) -> str:
    kind = entry["kind"]
    said = {"move": f"move `{entry.get('move')}`", "commit": f"sealed {entry.get('step')}"}
    return f"entry {entry['seq']}: {entry['by']}'s {said.get(kind, kind)}"


def places(items: Sequence[Mapping[str, Any]]) -> list[tuple[str, int]]:
    """The deck and slot of each share a ``shares`` or ``face_up`` list carries, in order: each
    table holds a run of slots of one deck."""
    return [(str(item["deck"]), int(slot)) for item in items for slot in item["slots"]]


def given_shares(
    items: Sequence[Mapping[str, Any]], group: Group
) -> list[tuple[str, int, Element, str | None]]:
    """Deck, slot, share and (shown face up) card of each share a list carries, in order."""
    found: list[tuple[str, int, Element, str | None]] = []
    for index, item in enumerate(items):
        values = group.parse_elements(item["shares"], f"[{index}] shares")
        cards = item.get("cards", [None] * len(values))
        found += [
            (str(item["deck"]), int(slot), value, card)
            for slot, value, card in zip(item["slots"], values, cards, strict=True)
        ]
    return found


def token_list(found: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{deck}:{slot}" for deck, slot in found)


def holders(entries: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Who drew each slot given shares: the one seat that gave none for it (three seats)."""
    seats = entries[0]["seats"]
    givers: dict[int, set[str]] = {}
    for entry in entries:
        for _, slot in places(entry.get("shares", [])):
            givers.setdefault(slot, set()).add(entry["by"])
    return {
        slot: next(s for s in seats if s not in given) for slot, given in givers.items() if len(given) == 2
    }


def deck_blocks(games: Games) -> Blocks:
    table = games.deck
    data = table.data("deck.toml")
    entries = data["entry"]
    chosen = DeckEntries.of(entries)
    drawn = holders(entries)
    blocks: Blocks = {"deck-log": fence("text", printed(table.pbem(None, "log", "deck.toml", record=False)))}
    shuffle = chosen.shuffled["shuffles"][0]
    notes = {
        "deck-shuffle-entry": (
            chosen.shuffled,
            f"{what(chosen.shuffled)}, carrying its shuffle of the {shuffle['deck']} deck",
        ),
        "deck-shares-entry": (
            chosen.shares,
            f"{what(chosen.shares)}: its shares of "
            + ", ".join(
                f"{deck}:{slot} (drawn by {drawn[slot]})" for deck, slot in places(chosen.shares["shares"])
            ),
        ),
        "deck-remask-entry": (
            chosen.remasked,
            f"{what(chosen.remasked)}, which puts "
            + ", ".join(f"{i['deck']}:{i['slot']}" for i in chosen.remasked["remask"])
            + " under the deck",
        ),
        "deck-face-up-entry": (
            chosen.shown,
            f"{what(chosen.shown)}, which shows {token_list(places(chosen.shown['face_up']))} face up",
        ),
    }
    for name, (entry, note) in notes.items():
        body = readable(entry, short=name == "deck-shuffle-entry")
        blocks[name] = fence("toml", f"# {note}\n{body}")
    blocks["deck-worked"] = fence("text", worked(entries, data, chosen))
    return blocks


def worked(entries: Sequence[Mapping[str, Any]], data: Mapping[str, Any], chosen: DeckEntries) -> str:
    """The checks of the example's hidden-deck entries, with their intermediate values."""
    game_id = entries[0]["game_id"]
    seats = entries[0]["seats"]
    creator = seats[0]
    group = by_name(entries[0].get("group"))
    cards = hd_cards(data.get("components", {}))
    keys = {e["by"]: group.parse_element(e["deck_key"], "deck_key") for e in entries if "deck_key" in e}
    joint = hd.joint_key((keys[seat] for seat in seats), group=group)
    genesis = entries[0]
    proof = hd.parse_proof(genesis["deck_key_proof"], "proof", group=group)
    h = keys[genesis["by"]]
    t = group.divide(group.base_power(proof.response), group.power(h, proof.challenge))
    again = group.challenge(
        hd.KEY_PROOF_DOMAIN,
        game_id.encode(),
        genesis["by"].encode(),
        b"",
        group.encode(h),
        group.encode(t),
    )
    key_domain = group.domain(hd.KEY_PROOF_DOMAIN)
    out = [
        f"In the group {group.name}:",
        "",
        f"The deck key of {genesis['by']} (entry 0):",
        f"  h = deck_key       = {number(h, group)}",
        f"  c (first 32 bytes) = {proof.challenge:064x}",
        f"  s (next {group.scalar_size} bytes) = {number(proof.response, group)}",
        f"  t = g^s · h^(-c)   = {number(t, group)}",
        f'  H("{key_domain}", "{game_id}", "{genesis["by"]}", "", h, t)',
        f"                     = {again:064x}: c, so the proof holds",
        "",
        f"The joint key H = {' · '.join(f'h_{seat}' for seat in seats)} = {number(joint, group)}",
        "The open deck's slot 0: (g, card(0) · H) = "
        f"(g, {number(group.multiply(hd.encode_card(0, group=group), joint), group)})",
    ]
    assert creator == genesis["by"]
    deck = hd.open_deck(len(cards), joint, group=group)
    given: dict[int, dict[str, Element]] = {}
    for entry in entries:
        by = entry["by"]
        for item in entry.get("shuffles", []):
            deck = hd.parse_deck(item["cards"], "cards", group=group)
        shares = given_shares(entry.get("shares", []), group)
        for _, slot, d, _ in shares:
            given.setdefault(slot, {})[by] = d
        if entry is chosen.shares:
            tokens = token_list([(deck_id, slot) for deck_id, slot, _, _ in shares])
            out += ["", f"{by}'s shares of {tokens} ({what(entry)}), and its one shares_proof:"]
            out += shares_lines(
                entry["shares_proof"],
                [(deck_id, slot, deck[slot], d) for deck_id, slot, d, _ in shares],
                keys[by],
                group,
                game_id=game_id,
                seat=by,
            )
        if entry is chosen.shown:
            shown = given_shares(entry["face_up"], group)
            deck_id, slot, d, card = shown[0]
            out += [
                "",
                f"{by}'s card shown face up, {deck_id}:{slot} ({what(entry)}):",
                f"  {by}'s own share, in face_up, and face_up_proof, checked as above:",
            ]
            out += shares_lines(
                entry["face_up_proof"],
                [(deck_id, slot, deck[slot], d) for deck_id, slot, d, _ in shown],
                keys[by],
                group,
                game_id=game_id,
                seat=by,
            )
            opened_by = {**given.get(slot, {}), by: d}
            opened = group.divide(deck[slot].c2, group.product(opened_by.values()))
            index = next(i for i in range(len(cards)) if hd.encode_card(i, group=group) == opened)
            assert cards[index] == card, (cards[index], card)
            names = " · ".join(f"d_{seat}" for seat in sorted(opened_by))
            others = " and ".join(seat for seat in sorted(opened_by) if seat != by)
            out += [
                f"  with {others}'s shares of {deck_id}:{slot}, from their shares lists:",
                f"  m = c2 / ({names}) = {number(opened, group)}",
                f"  card({index})            = {number(hd.encode_card(index, group=group), group)}: "
                f"card {index} of the deck,",
                f"  {cards[index]}, the card named",
            ]
        for item in entry.get("remask", []):
            slot = item["slot"]
            after = hd.parse_ciphertext(item["card"], "card", group=group)
            if entry is chosen.remasked and item is entry["remask"][0]:
                out += ["", f"{by}'s card put under the deck, {item['deck']}:{slot} ({what(entry)}):"]
                out += remask_lines(item, deck[slot], after, group, joint=joint, game_id=game_id, seat=by)
            deck[slot] = after
            given.pop(slot, None)
    return "\n".join(out)


def shares_lines(
    proof_text: str,
    shares: Sequence[tuple[str, int, hd.Ciphertext, Element]],
    h: Element,
    group: Group,
    *,
    game_id: str,
    seat: str,
) -> list[str]:
    """The check of the one proof of a list of shares: its statement, weights and weighted sums."""
    proof = hd.parse_proof(proof_text, "proof", group=group)
    parts = [game_id.encode(), seat.encode(), group.encode(h)]
    for deck_id, slot, ct, d in shares:
        parts += [deck_id.encode(), str(slot).encode(), *(group.encode(v) for v in (ct.c1, ct.c2, d))]
    statement = hashlib.sha256(pae(group.domain(hd.SHARES_PROOF_DOMAIN), *parts)).digest()
    weights = [
        group.challenge(hd.SHARES_WEIGHT_DOMAIN, statement, str(i).encode()) for i in range(len(shares))
    ]
    c1s = group.product(group.power(ct.c1, z) for (_, _, ct, _), z in zip(shares, weights, strict=True))
    ds = group.product(group.power(d, z) for (_, _, _, d), z in zip(shares, weights, strict=True))
    t1 = group.divide(group.base_power(proof.response), group.power(h, proof.challenge))
    t2 = group.divide(group.power(c1s, proof.response), group.power(ds, proof.challenge))
    again = group.challenge(hd.SHARES_PROOF_DOMAIN, statement, group.encode(t1), group.encode(t2))
    if again != proof.challenge:
        raise SystemExit(f"the proof of {seat}'s shares does not verify as the document says")

    def n(value: Element | int) -> str:
        return number(value, group)

    lines = []
    for i, (deck_id, slot, ct, d) in enumerate(shares):
        lines += [
            f"  {deck_id}:{slot}: c1_{i} = {n(ct.c1)}, c2_{i} = {n(ct.c2)}",
            f"  {' ' * len(f'{deck_id}:{slot}')}  d_{i}  = {n(d)}",
        ]
    named = [
        f'"{deck_id}", "{slot}", c1_{i}, c2_{i}, d_{i}' for i, (deck_id, slot, _, _) in enumerate(shares)
    ]
    lines.append(f'  S = SHA-256(pae("{group.domain(hd.SHARES_PROOF_DOMAIN)}", game_id, "{seat}", h_{seat},')
    lines += [f"        {part}{',' if i < len(named) - 1 else '))'}" for i, part in enumerate(named)]
    lines += [
        f"    = {statement.hex()}",
        f'  z_i = H("{group.domain(hd.SHARES_WEIGHT_DOMAIN)}", S, decimal(i)):',
    ]
    lines += [f"  z_{i} = {z:064x}" for i, z in enumerate(weights)]
    sums = [
        ("C", " · ".join(f"c1_{i}^z_{i}" for i in range(len(shares))), c1s),
        ("D", " · ".join(f"d_{i}^z_{i}" for i in range(len(shares))), ds),
    ]
    width = max(len(formula) for _, formula, _ in sums)
    lines += [f"  {name} = {formula:<{width}} = {n(value)}" for name, formula, value in sums]
    lines += [
        f"  c (first 32 bytes) = {proof.challenge:064x}",
        f"  s (next 32 bytes)  = {n(proof.response)}",
        f"  t1 = g^s · h_{seat}^(-c) = {n(t1)}",
        f"  t2 = C^s · D^(-c)   = {n(t2)}",
        f'  H("{group.domain(hd.SHARES_PROOF_DOMAIN)}", S, t1, t2)',
        f"    = {again:064x}: c, so {'every share is' if len(shares) > 1 else 'the share is'} {seat}'s",
    ]
    return lines


def remask_lines(
    item: Mapping[str, Any],
    before: hd.Ciphertext,
    after: hd.Ciphertext,
    group: Group,
    *,
    joint: Element,
    game_id: str,
    seat: str,
) -> list[str]:
    """The check of the re-mask proof of a card put under the deck, every value shown."""
    proof = hd.parse_proof(item["proof"], "proof", group=group)
    deck_id, slot = item["deck"], item["slot"]
    domain = group.domain(hd.REMASK_PROOF_DOMAIN)
    statement = hashlib.sha256(
        pae(
            domain,
            game_id.encode(),
            deck_id.encode(),
            str(slot).encode(),
            seat.encode(),
            group.encode(joint),
            *(group.encode(v) for v in (before.c1, before.c2, after.c1, after.c2)),
        )
    ).digest()
    c, s = proof.challenge, proof.response
    t1 = group.divide(group.base_power(s), group.power(group.divide(after.c1, before.c1), c))
    t2 = group.divide(group.power(joint, s), group.power(group.divide(after.c2, before.c2), c))
    again = group.challenge(hd.REMASK_PROOF_DOMAIN, statement, group.encode(t1), group.encode(t2))
    if again != c:
        raise SystemExit(f"the re-mask proof of {deck_id}:{slot} does not verify as the document says")

    def n(value: Element | int) -> str:
        return number(value, group)

    return [
        f"  before (the slot's ciphertext): c1  = {n(before.c1)}, c2  = {n(before.c2)}",
        f"  after (card):                   c1' = {n(after.c1)}, c2' = {n(after.c2)}",
        f'  S = SHA-256(pae("{domain}", game_id, "{deck_id}", "{slot}", "{seat}",',
        "        H, c1, c2, c1', c2'))",
        f"    = {statement.hex()}",
        f"  c (first 32 bytes) = {c:064x}",
        f"  s (next 32 bytes)  = {n(s)}",
        f"  t1 = g^s · (c1' / c1)^(-c) = {n(t1)}",
        f"  t2 = H^s · (c2' / c2)^(-c) = {n(t2)}",
        f'  H("{domain}", S, t1, t2)',
        f"    = {again:064x}: c, so the card is the same one, re-masked",
    ]


# --- the escrow ----------------------------------------------------------------------------------
ESCROW_SETUP_NOTES = (
    (r"\[\[entry\]\]", "^Entry 2: c joins, with its receiving key beside its deck key."),
    ("escrow_key = ", "Y_c: the others seal c's shares of their secrets to it"),
    ("escrow_key_proof = ", 'a Schnorr proof that c knows y_c, context "escrow"'),
    (
        r"\[\[entry\]\]",
        "^Entry 4: b's randomness for the cities, carrying everything b owed: its answer to a's\n"
        "dealing (entry 3), its own dealing, its shuffle.",
    ),
    ("escrow_acks = ", "b unsealed its share of a's secret and checked it against a's commitments"),
    (r"\[entry\.escrow\]", "b's dealing: K = 2; its holders are a (i = 1) and c (i = 2)"),
    ("commitments = ", "C_0 (b's deck_key), C_1: 2 points"),
    ("ephemeral = ", "R_1 (for a), R_2 (for c): 2 points"),
    ("masked = ", "masked_1, masked_2: 2 scalars"),
    (
        "ephemeral_proofs = ",
        "for each R_i a Schnorr proof that b knows its r_i, for this sealing alone: 2 proofs",
    ),
    (r"\[\[entry\]\]", "^Entry 6: a answers the dealings of b and c, made after its own."),
    ("escrow_acks = ", "with this, every seat has dealt and only b's answer to c is missing"),
)

COMPLAINT_NOTES = (
    (r"\[entry\.escrow\]", "b's own dealing, as in escrow.toml"),
    (r"\[entry\.escrow_complaint\]", 'in place of escrow_acks = ["a"]'),
    ("opened = ", "R_1^y_b: what unseals b's share"),
    ("proof = ", "a Chaum-Pedersen proof that log_g Y_b = log_R_1 opened"),
)

ESCROW_UNLOCK_NOTES = (
    (r"\[\[entry\]\]", "^Entry 10: a claims the timeout against c, past its deadline."),
    ("step = ", "the first thing c owes; c is then absent, and every share it owes is unlocked"),
    (r"\[\[entry\]\]", "^Entry 11: a's partial decryptions of c's shares, one table for c and the deck."),
    ("slots = ", "the 8 cards a and b hold, whose shares c owed"),
    ("proof = ", "one batched Chaum-Pedersen proof, against g^f(1) of c's dealing"),
)


def escrow_blocks(games: Games) -> Blocks:
    table = games.escrow
    data = table.data("escrow.toml")
    entries = data["entry"]
    blocks: Blocks = {
        "escrow-commands": table.commands(),
    }
    join_c = next(e for e in entries if e["kind"] == "join" and e["by"] == "c")
    dealt_b = next(e for e in entries if e["by"] == "b" and "escrow" in e)
    acks_a = next(e for e in entries if e["by"] == "a" and "escrow" not in e and e.get("escrow_acks"))
    shown = "\n\n".join(readable(e, short=True) for e in (join_c, dealt_b, acks_a))
    blocks["escrow-setup-entries"] = fence("toml", annotate(shown, ESCROW_SETUP_NOTES))
    claim = next(e for e in entries if e["kind"] == "timeout")
    partial_a = next(e for e in entries if e["by"] == "a" and "escrow_partials" in e)
    shown = "\n\n".join(readable(e, short=True) for e in (claim, partial_a))
    blocks["escrow-unlock-entries"] = fence("toml", annotate(shown, ESCROW_UNLOCK_NOTES))
    game = ledger.read(data)  # every proof checked once, for both worked examples
    blocks["escrow-seal-worked"] = fence("text", sealed_share(data, game))
    blocks["escrow-unlock-worked"] = fence("text", unlocked_share(table, data, game))
    blocks.update(complaint(table, data))
    return blocks


HANDED_NOTES = (
    (r"\[\[entry\]\]", "^The proposal: a hands c, silent, to d."),
    ("seat = ", "the silent seat"),
    ("name = ", "the new player, whose keys follow"),
    (r"\[\[entry\]\]", "^The last consent: from the next entry on, d's key signs for c."),
    (r"\[\[entry\]\]", "^d takes the seat: no rand, a new chain, and d's receiving key Y'."),
    ("rand_tip = ", "w[0] of d's chain for c: c's next rand is its w[1]"),
    ("escrow_key = ", "Y': the holders seal d their shares of c's secret to it"),
    (r"\[\[entry\]\]", "^a's share of c's secret, sealed to d, riding a's sync."),
    ("seat = ", "the seat handed on, whose dealing a holds a share of (i = 1)"),
    ("ephemeral = ", "R = g^r: 1 point"),
    ("masked = ", "s_1 + mask: 1 scalar"),
    (r"\[roster\.c\]", "c's roster table, as pbem writes it after the last consent"),
    ("holder = ", "the name in the replace"),
    ("handed_over = ", "the seq of the last consent, not of the replace"),
    ("held_before = ", "the fingerprint of c's key before"),
)


def handed_blocks(games: Games) -> Blocks:
    table = games.handed
    data = table.data("handed.toml")
    entries = data["entry"]
    replace = next(e for e in entries if e["kind"] == "replace")
    consent = next(e for e in entries if e["kind"] == "consent" and e["target"] == replace["seq"])
    rejoin = next(e for e in entries if e["kind"] == "rejoin")
    resealed = next(e for e in entries if e["by"] == "a" and "escrow_reshares" in e)
    roster = table.text("handed.toml").partition("[roster.c]")[2].partition("\n\n")[0]
    shown = "\n\n".join(
        [
            *(cut_long_values(readable(e, short=True)) for e in (replace, consent, rejoin)),
            readable(resealed, short=True),
            "[roster.c]" + roster,
        ]
    )
    game = ledger.read(data)
    return {
        "handed-commands": table.commands(),
        "handed-entries": fence("toml", annotate(shown, HANDED_NOTES)),
        "handed-reshare-worked": fence("text", resealed_share(data, game)),
    }


def seal_nonce(
    group: Any, seed: bytes, *, game_id: str, dealer: str, holder: str, index: int, commitments: Sequence[Any]
) -> int:
    """The ``r`` a sealed share was made with, as docs/game-file.md writes it: from the sealer's
    seed, the game, whose secret, the holder, its index and the dealing's commitments."""
    return int(
        group.hash_to_scalar(
            group.domain(es.SEAL_NONCE_DOMAIN),
            seed,
            game_id.encode(),
            dealer.encode(),
            holder.encode(),
            str(index).encode(),
            *(group.encode(value) for value in commitments),
        )
    )


def resealed_share(data: Mapping[str, Any], game: ledger.Ledger) -> str:
    """a's share of c's secret sealed to d, c's new player: unsealed and checked by d, then the
    complaint d would make of it, every value shown."""
    entries = data["entry"]
    group, game_id = game.group, game.game_id
    seat, holder, player = "c", "a", "d"
    seq, dealing, _ = escrow_of(entries, seat, group)
    index = dealing.index(holder)
    commitments = dealing.commitments
    at, entry = next((i, e) for i, e in enumerate(entries) if e["by"] == holder and "escrow_reshares" in e)
    item = next(item for item in entry["escrow_reshares"] if item["seat"] == seat)
    ephemeral = group.parse_element(item["ephemeral"], "ephemeral")
    (masked,) = group.parse_scalars(item["masked"], "masked")
    rejoin = next(e for e in entries if e["kind"] == "rejoin" and e["by"] == seat)
    receiving = group.parse_element(rejoin["escrow_key"], "escrow_key")
    # d's own key material for the seat, from its key and "GAME_ID c handed on in N"
    material = game.secret_seed(seat, seeded_keys(player))
    y = es.receive_secret(hd.deck_seed(material), game_id, seat, group=group)
    assert group.base_power(y) == receiving
    opened = group.power(ephemeral, y)
    # the holder's side: its deck seed and Y' seal it
    seed = hd.deck_seed(game.secret_seed(holder, seeded_keys(holder))) + group.encode(receiving)
    r = seal_nonce(
        group, seed, game_id=game_id, dealer=seat, holder=holder, index=index, commitments=commitments
    )
    assert group.base_power(r) == ephemeral and group.power(receiving, r) == opened
    named = {"dealer": seat, "game": game_id, "holder": holder, "index": index}
    mask = group.hash_to_scalar(
        group.domain(es.SEAL_MASK_DOMAIN),
        *(f"{name}={value}".encode() for name, value in named.items()),
        group.encode(receiving),
        group.encode(ephemeral),
        group.encode(opened),
    )
    share = (masked - mask) % group.order
    sealed = es.Sealed(holder, index, ephemeral, masked)
    assert share == es.unseal(sealed, y, dealing, game_id=game_id, group=group).value
    public = es.holder_key(dealing, index, group=group)
    if group.base_power(share) != public:
        raise SystemExit("a's share of c's secret sealed to d does not check as the document says")
    # the complaint d would sign, had the share not matched: its statement and check
    complaint = es.complain(sealed, y, dealing, game_id=game_id, group=group)
    c, s = complaint.proof.challenge, complaint.proof.response
    t1 = group.divide(group.base_power(s), group.power(receiving, c))
    t2 = group.divide(group.power(ephemeral, s), group.power(complaint.opened, c))
    statement = [
        game_id.encode(),
        seat.encode(),
        holder.encode(),
        str(index).encode(),
        *(group.encode(value) for value in commitments),
        group.encode(receiving),
        group.encode(ephemeral),
        group.scalar_bytes(masked),
        group.encode(complaint.opened),
    ]
    again = group.challenge(es.COMPLAINT_PROOF_DOMAIN, *statement, group.encode(t1), group.encode(t2))
    verdict = es.at_fault(complaint, sealed, dealing, receiving, game_id=game_id, group=group)
    if again != c or complaint.opened != opened or verdict != holder:
        raise SystemExit("d's complaint does not check as the document says")
    others = " and ".join(f"{each} (i = {dealing.index(each)})" for each in dealing.holders)

    def n(value: Element | int) -> str:
        return number(value, group)

    labels = ", ".join(f'"{name}={value}"' for name, value in named.items())
    domain = group.domain(es.COMPLAINT_PROOF_DOMAIN)
    return "\n".join(
        [
            f"c's dealing (entry {seq}): K = {dealing.threshold}, holders {others}.",
            f"  C_0 = {n(commitments[0])}  (c's deck_key), C_1 = {n(commitments[1])}",
            f"a's escrow_reshares table for c (entry {at}), holder a, i = {index}:",
            f"  R      = ephemeral = {n(ephemeral)}",
            f"  masked = masked    = {n(masked)}",
            f"  Y' = escrow_key of c's rejoin (entry {rejoin['seq']}) = {n(receiving)}",
            "",
            "a sealed it with (a's deck seed is a's secret; shown here for the example)",
            f'  r = H("{group.domain(es.SEAL_NONCE_DOMAIN)}";',
            f'        a\'s seed || Y\', game_id, "{seat}", "{holder}", "{index}", C_0, C_1)',
            f"  g^r = {n(group.base_power(r))}: R",
            "",
            "d's receiving secret for c (secret: shown here for the example):",
            f"  y' = {n(y)}, g^y' = Y'",
            "d unseals it:",
            f"  R^y' = {n(opened)}  (= Y'^r)",
            f'  mask = H("{group.domain(es.SEAL_MASK_DOMAIN)}";',
            f"           {labels},",
            "           Y', R, R^y')",
            f"       = {n(mask)}",
            f"  s_{index} = masked - mask mod the order = {n(share)}",
            f"  g^s_{index} = {n(group.base_power(share))}",
            f"  C_0 · C_1^{index} = {n(public)}: the same, so d keeps it (with b's, it rebuilds c's secret)",
            "",
            'The complaint d would sign of it: holder = "a", opened = R^y\', and its proof (c, s):',
            f"  opened = {n(complaint.opened)}",
            f"  c = {c:064x}",
            f"  s = {n(s)}",
            "  t1 = g^s · Y'^(-c)        = " + n(t1),
            "  t2 = R^s · opened^(-c)    = " + n(t2),
            f'  H("{domain}",',
            f'    game_id, "{seat}", "{holder}", "{index}", C_0, C_1, Y\', R, masked, opened, t1, t2)',
            f"    = {again:064x}: c, so the proof holds",
            f"  masked - mask(opened) = {n(share)}, which matches c's commitments: the share is sound,",
            "  so such a complaint would show that c's new player lied, and the game would stop",
        ]
    )


def escrow_of(
    entries: Sequence[Mapping[str, Any]], dealer: str, group: Group
) -> tuple[int, es.Dealing, dict[str, Any]]:
    """The entry of ``dealer``'s dealing, its position, and the dealing it carries."""
    seats = entries[0]["seats"]
    seq, entry = next((i, e) for i, e in enumerate(entries) if e["by"] == dealer and "escrow" in e)
    commitments = group.parse_elements(entry["escrow"]["commitments"], "commitments")
    holders = tuple(seat for seat in seats if seat != dealer)
    return seq, es.Dealing(dealer, holders, tuple(commitments)), entry["escrow"]


def sealed_share(data: Mapping[str, Any], game: ledger.Ledger) -> str:
    """a's share for b, unsealed and checked by b, every value shown."""
    entries = data["entry"]
    group, game_id = game.group, game.game_id
    dealer, holder = "a", "b"
    seq, dealing, item = escrow_of(entries, dealer, group)
    index = dealing.index(holder)
    commitments = dealing.commitments
    ephemeral = group.parse_elements(item["ephemeral"], "ephemeral")[index - 1]
    masked = group.parse_scalars(item["masked"], "masked")[index - 1]
    deck_key = group.parse_element(entries[0]["deck_key"], "deck_key")
    assert commitments[0] == deck_key
    join = next(e for e in entries if e["kind"] == "join" and e["by"] == holder)
    receiving = group.parse_element(join["escrow_key"], "escrow_key")
    y = es.receive_secret(
        hd.deck_seed(game.secret_seed(holder, seeded_keys(holder))), game_id, holder, group=group
    )
    assert group.base_power(y) == receiving
    opened = group.power(ephemeral, y)
    # the dealer's side: what it sealed with
    seed = hd.deck_seed(game.secret_seed(dealer, seeded_keys(dealer)))
    r = seal_nonce(
        group, seed, game_id=game_id, dealer=dealer, holder=holder, index=index, commitments=commitments
    )
    assert group.base_power(r) == ephemeral and group.power(receiving, r) == opened
    size = 32 + group.scalar_size
    proof = hd.parse_proof(
        b64(unb64(item["ephemeral_proofs"])[(index - 1) * size : index * size]), "proof", group=group
    )
    t = group.divide(group.base_power(proof.response), group.power(ephemeral, proof.challenge))
    proven = group.challenge(
        es.EPHEMERAL_PROOF_DOMAIN,
        game_id.encode(),
        es.DEALT.encode(),
        dealer.encode(),
        holder.encode(),
        str(index).encode(),
        group.encode(receiving),
        group.encode(ephemeral),
        group.encode(t),
    )
    if proven != proof.challenge:
        raise SystemExit("the proof of a's ephemeral point for b does not check as the document says")
    named = {"dealer": dealer, "game": game_id, "holder": holder, "index": index}
    mask = group.hash_to_scalar(
        group.domain(es.SEAL_MASK_DOMAIN),
        *(f"{name}={value}".encode() for name, value in named.items()),
        group.encode(receiving),
        group.encode(ephemeral),
        group.encode(opened),
    )
    share = (masked - mask) % group.order
    assert (
        share
        == es.unseal(
            es.Sealed(holder, index, ephemeral, masked), y, dealing, game_id=game_id, group=group
        ).value
    )
    left, right = group.base_power(share), group.multiply(commitments[0], commitments[1])
    if left != right or right != es.holder_key(dealing, index, group=group):
        raise SystemExit("a's escrow share for b does not check as the document says")
    others = " and ".join(f"{seat} (i = {dealing.index(seat)})" for seat in dealing.holders)

    def n(value: Element | int) -> str:
        return number(value, group)

    labels = ", ".join(f'"{name}={value}"' for name, value in named.items())
    return "\n".join(
        [
            f"In the group {group.name}: a's dealing (entry {seq}), K = {dealing.threshold}, "
            f"holders {others}.",
            f"Holder {holder}, i = {index}:",
            f"  C_0 = commitments[0] = {n(commitments[0])}  (a's deck_key)",
            f"  C_1 = commitments[1] = {n(commitments[1])}",
            f"  R_{index} = ephemeral[{index - 1}]   = {n(ephemeral)}",
            f"  masked_{index} = masked[{index - 1}] = {n(masked)}",
            "",
            f"Every verifier first checks that a knows the secret of R_{index} "
            f"(ephemeral_proofs[{index - 1}]):",
            f"  c (first 32 bytes) = {proof.challenge:064x}",
            f"  s (next 32 bytes)  = {n(proof.response)}",
            f"  t = g^s · R_{index}^(-c) = {n(t)}",
            f'  H("{group.domain(es.EPHEMERAL_PROOF_DOMAIN)}", game_id, "{es.DEALT}", "{dealer}",',
            f'    "{holder}", "{index}", Y, R_{index}, t)',
            f"    = {proven:064x}: c, so a knows r, and R_{index}^y tells a nothing it could not compute",
            "",
            f"{holder}'s receiving secret, from its deck seed (secret: shown here for the example):",
            f'  y = H("{group.domain(es.RECEIVE_DOMAIN)}"; seed, game_id, "{holder}")',
            f"    = {n(y)}",
            f"  Y = g^y = {n(receiving)}: escrow_key of {holder}'s join",
            "",
            f"{holder} unseals its share:",
            f"  R_{index}^y = {n(opened)}",
            f'  (a sealed it with r = H("{group.domain(es.SEAL_NONCE_DOMAIN)}";',
            f'                          a\'s seed, game_id, "{dealer}", "{holder}", "{index}", C_0, C_1):',
            f"   g^r = R_{index}, and Y^r = {n(group.power(receiving, r))}, the same point)",
            f'  mask = H("{group.domain(es.SEAL_MASK_DOMAIN)}";',
            f"           {labels},",
            f"           Y, R_{index}, R_{index}^y)",
            f"       = {n(mask)}",
            f"  s_{index} = masked_{index} - mask mod the order = {n(share)}",
            "",
            f"{holder} checks it against the commitments (Feldman):",
            f"  g^s_{index}       = {n(left)}",
            f"  C_0 · C_1^{index} = {n(right)}: the same, so {holder} acknowledges a's dealing",
            f"  (C_0 · C_1^{index} is g^f({index}), what {holder}'s partials are later proven against)",
        ]
    )


def unlocked_share(table: Table, data: Mapping[str, Any], game: ledger.Ledger) -> str:
    """c's share of a card a holds, from a's and b's partials, and the card it opens."""
    entries = data["entry"]
    group, game_id = game.group, game.game_id
    assert game.table is not None and game.table.decks is not None
    silent, drawer = "c", "a"
    seq, dealing, _ = escrow_of(entries, silent, group)
    deck = game.table.decks.decks["building"]
    slot = min(held for held, seat in deck.held.items() if seat == drawer)
    place = f"{deck.deck_id}:{slot}"
    cipher = deck.slots[slot]
    last = [i for i, e in enumerate(entries) if e.get("shuffles")][-1]
    size = 2 * group.element_size
    assert values_of(entries[last]["shuffles"][0]["cards"], size)[slot] == group.encode(
        cipher.c1
    ) + group.encode(cipher.c2)
    commitments = dealing.commitments
    keys = {i: es.holder_key(dealing, i, group=group) for i in (1, 2)}
    given: dict[str, tuple[int, Element, int]] = {}  # holder -> entry, partial, place in its table
    proved: list[str] = []
    for position, entry in enumerate(entries):
        for item in entry.get("escrow_partials", []):
            if item["seat"] != silent:
                continue
            values = group.parse_elements(item["partials"], "partials")
            places = [hd.Place(item["deck"], each, deck.slots[each]) for each in item["slots"]]
            proof = hd.parse_proof(item["proof"], "proof", group=group)
            es.check_partials(dealing, entry["by"], places, values, proof, game_id=game_id, group=group)
            at = item["slots"].index(slot)
            given[entry["by"]] = (position, values[at], at)
            if not proved:
                proved = partials_lines(
                    dealing, entry["by"], places, values, proof, game_id=game_id, group=group
                )
    weights = es.lagrange_at_zero([1, 2], group.order)
    assert weights[0] == 2 and weights[1] == group.order - 1
    p1, p2 = given[dealing.holders[0]][1], given[dealing.holders[1]][1]
    combined = group.multi_power([p1, p2], weights)
    assert combined == deck.shares[slot][silent].value
    answered = table.data("answered.toml")["entry"][-1]
    own = next(d for _, at, d, _ in given_shares(answered["shares"], group) if at == slot)
    if own != combined:
        raise SystemExit("the partials do not give c's own share, as the document says")
    share_b = next(
        d
        for e in entries
        if e["by"] == "b"
        for _, at, d, _ in given_shares(e.get("shares", []), group)
        if at == slot
    )
    x = hd.derive_secret(
        hd.deck_seed(game.secret_seed(drawer, seeded_keys(drawer))), game_id, drawer, group=group
    )
    assert group.base_power(x) == game.table.decks.keys[drawer]
    share_a = group.power(cipher.c1, x)
    opened = group.divide(cipher.c2, group.product([share_a, share_b, combined]))
    card = next(i for i in range(len(deck.cards)) if hd.encode_card(i, group=group) == opened)
    shown = json.loads(
        table.pbem(drawer, "show", "escrow.toml", "--as", drawer, "--json", record=False).stdout
    )
    if shown["hand"][place] != deck.cards[card]:
        raise SystemExit(f"{drawer}'s hand shows {place} otherwise than the document says")

    def n(value: Element | int) -> str:
        return number(value, group)

    holders = " and ".join(f"{seat} (i = {dealing.index(seat)})" for seat in dealing.holders)
    return "\n".join(
        [
            f"{place}, drawn by {drawer}; its ciphertext since the last shuffle (entry {last}):",
            f"  c1 = {n(cipher.c1)}, c2 = {n(cipher.c2)}",
            "",
            f"{silent}'s dealing (entry {seq}): K = {dealing.threshold}, holders {holders}:",
            f"  C_0 = {n(commitments[0])}  ({silent}'s deck_key), C_1 = {n(commitments[1])}",
            f"  g^f(1) = C_0 · C_1   = {n(keys[1])}  (a's public value)",
            f"  g^f(2) = C_0 · C_1^2 = {n(keys[2])}  (b's)",
            "",
            f"a's partials (entry {given['a'][0]}), v_j of slot_j = its slots[j], and their one proof:",
            *proved,
            "",
            f"The partials of {place}, b's table checked in the same way against g^f(2):",
            f"  p_1 = c1^s_1, a's (entry {given['a'][0]}, its v_{given['a'][2]}) = {n(p1)}",
            f"  p_2 = c1^s_2, b's (entry {given['b'][0]}, its v_{given['b'][2]}) = {n(p2)}",
            "Their Lagrange weights at 0, for the holders 1 and 2:",
            "  λ_1 = 2 / (2 - 1) = 2",
            f"  λ_2 = 1 / (1 - 2) = -1 = the order - 1 = {group.order - 1:064x}",
            f"  d_{silent} = p_1^λ_1 · p_2^λ_2 = {n(combined)}",
            f"  {silent}'s own share of {place} (answered.toml, where {silent} gave it) = {n(own)}: the same",
            "",
            f"The card {drawer} reads, with b's share (entry "
            f"{next(i for i, e in enumerate(entries) if e['by'] == 'b' and e.get('shares'))}) and its own:",
            f"  d_b                        = {n(share_b)}",
            f"  d_a = c1^x_a               = {n(share_a)}  (a's own share: a computes it, never writes it)",
            f"  m = c2 / (d_a · d_b · d_{silent}) = {n(opened)}",
            f"  {f'card({card})':<26} = {n(hd.encode_card(card, group=group))}: "
            f"card {card} of the {deck.deck_id} deck, {deck.cards[card]}",
            f"  pbem show escrow.toml --as a: {place} is {shown['hand'][place]}",
        ]
    )


def partials_lines(
    dealing: es.Dealing,
    holder: str,
    places: Sequence[hd.Place],
    values: Sequence[Element],
    proof: hd.Proof,
    *,
    game_id: str,
    group: Group,
) -> list[str]:
    """The check of one table of partials: its statement, weights and weighted products."""
    index = dealing.index(holder)
    key = es.holder_key(dealing, index, group=group)
    parts = [game_id.encode(), dealing.dealer.encode(), holder.encode(), str(index).encode()]
    parts += [group.encode(dealing.commitments[0]), group.encode(key)]
    for place, value in zip(places, values, strict=True):
        parts += [place.deck_id.encode(), str(place.position).encode()]
        parts += [group.encode(place.ciphertext.c1), group.encode(value)]
    domain = group.domain(es.PARTIALS_PROOF_DOMAIN)
    statement = hashlib.sha256(pae(domain, *parts)).digest()
    weights = [
        group.challenge(es.PARTIALS_WEIGHT_DOMAIN, statement, str(j).encode()) for j in range(len(places))
    ]
    c1s = group.multi_power([place.ciphertext.c1 for place in places], weights)
    ps = group.multi_power(list(values), weights)
    c, s = proof.challenge, proof.response
    t1 = group.divide(group.base_power(s), group.power(key, c))
    t2 = group.divide(group.power(c1s, s), group.power(ps, c))
    again = group.challenge(es.PARTIALS_PROOF_DOMAIN, statement, group.encode(t1), group.encode(t2))
    if again != c:
        raise SystemExit(f"the proof of {holder}'s partials does not verify as the document says")

    def n(value: Element | int) -> str:
        return number(value, group)

    last = len(places) - 1
    return [
        f"  v_0 = {n(values[0])}, … v_{last} = {n(values[last])}",
        f'  S = SHA-256(pae("{domain}", game_id, "{dealing.dealer}", "{holder}", "{index}",',
        f'        C_0, g^f({index}), "{places[0].deck_id}", "{places[0].position}", c1_0, v_0, … '
        f'"{places[last].deck_id}", "{places[last].position}", c1_{last}, v_{last}))',
        f"    = {statement.hex()}",
        f'  z_j = H("{group.domain(es.PARTIALS_WEIGHT_DOMAIN)}", S, decimal(j)):',
        f"  z_0 = {weights[0]:064x}, …",
        f"  C = c1_0^z_0 · … · c1_{last}^z_{last} = {n(c1s)}",
        f"  V = v_0^z_0 · … · v_{last}^z_{last}   = {n(ps)}",
        f"  c (first 32 bytes) = {c:064x}",
        f"  s (next 32 bytes)  = {n(s)}",
        f"  t1 = g^s · g^f({index})^(-c) = {n(t1)}",
        f"  {'t2 = C^s · V^(-c)':<22} = {n(t2)}",
        f'  H("{domain}", S, t1, t2)',
        f"    = {again:064x}: c, so every partial is c1^s_{index} of its slot",
    ]


def complaint(table: Table, data: Mapping[str, Any]) -> Blocks:
    """a's share for b made bad (``complaint.toml``): b's complaint, and what pbem says of it."""
    forged = copy.deepcopy(dict(data))
    entries = forged["entry"]
    game_id = entries[0]["game_id"]
    seq = next(i for i, e in enumerate(entries) if e["by"] == "a" and "escrow" in e)
    del entries[seq + 1 :]
    masked = values_of(entries[seq]["escrow"]["masked"], 32)
    group = by_name(entries[0].get("group"))
    bad = (int.from_bytes(masked[0], "little") + 1) % group.order
    masked[0] = bad.to_bytes(32, "little")
    entries[seq]["escrow"]["masked"] = b64(b"".join(masked))
    resign(entries[seq], game_id)
    table.write("complaint.toml", refreshed(forged))
    lines = []
    # b and c in second homes: their first have seen escrow.toml go on past a's dealing
    for home, args, code in (
        ("b2", ("sync", "complaint.toml", "--as", "b"), 0),
        ("@", ("status", "complaint.toml"), 0),
        ("c2", ("sync", "complaint.toml", "--as", "c"), 1),
        ("@", ("verify", "complaint.toml"), 0),
    ):
        result = table.pbem(home, *args, code=code, record=False)
        lines.append(printed(result, "pbem " + shlex.join(args)))
        if result.exit_code:
            lines.append(f"# exit {result.exit_code}")
    said = table.data("complaint.toml")["entry"][-1]
    assert "escrow_complaint" in said and said.get("shuffles")
    said.pop("shuffles")
    return {
        "escrow-complaint-entry": fence(
            "toml",
            annotate(
                f"# {what(said)}, carrying its complaint (and b's shuffle, left out here)\n"
                + readable(said, short=True),
                COMPLAINT_NOTES,
            ),
        ),
        "escrow-complaint-printed": fence("text", "\n".join(lines)),
    }


# --- edited files ------------------------------------------------------------------------------
def resign(entry: dict[str, Any], game_id: str) -> None:
    """The entry signed again by its author, as that player could."""
    entry.pop("sig", None)
    entry["sig"] = b64(seeded_keys(entry["by"]).sign(entry_message(game_id, entry)))


def link(data: Mapping[str, Any], seat: str, count: int) -> str:
    """The ``count``-th link of ``seat``'s randomness chain in this game, as its entries reveal it."""
    entries = data["entry"]
    game_id = entries[0]["game_id"]
    if seat == entries[0]["by"]:
        bound = game_id
    else:
        genesis = entries[0]
        bound = f"genesis {entry_hash(entry_message(game_id, genesis), unb64(genesis['sig']))}"
    seed = randomness.seed_for(seeded_keys(seat).for_game(bound), game_id, seat)
    return randomness.chain(seed, game_id, seat)[count].hex()


def refreshed(data: dict[str, Any]) -> dict[str, Any]:
    """The header's ``entries`` and ``head`` as the entries say, so that only the edit shows."""
    audit = ledger.audit(data)
    assert audit.ledger is not None
    data["game"]["entries"] = len(data["entry"])
    data["game"]["head"] = audit.ledger.head
    return data


def flip(text: str, index: int = -1) -> str:
    """A base64 value with one byte changed."""
    raw = bytearray(unb64(text))
    raw[index] ^= 1
    return b64(bytes(raw))


def low_bit(value: bytes) -> bytes:
    """A scalar's 32 little-endian bytes with its lowest bit changed: still below the order."""
    return bytes([value[0] ^ 1]) + value[1:]


@dataclass
class Tamper:
    """One row of the table: what was done to which file, and what ``pbem verify --all`` said."""

    table: Table
    rows: list[str]
    count: int = 0

    def row(self, description: str, source: str, edit: Callable[[dict[str, Any]], Any]) -> None:
        data = copy.deepcopy(self.table.data(source))
        edit(data)
        self.count += 1
        name = f"edit{self.count}.toml"
        self.table.write(name, data)
        self.rows.append(f"| {description} | {self.said(name)} |")

    def row_as_is(self, description: str, name: str) -> None:
        """A row for a file made elsewhere, as it is."""
        self.rows.append(f"| {description} | {self.said(name)} |")

    def said(self, name: str) -> str:
        result = self.table.pbem("@", "verify", "--all", name, code=None, record=False)
        if result.exit_code == 0:
            raise SystemExit(f"{name}: the edit went unnoticed")
        messages = []
        for line in result.stderr.splitlines():
            text = line.removeprefix(f"error: {name}: ")
            if re.fullmatch(r"header field 'head' is '[0-9a-f]+', but the entries say '[0-9a-f]+'", text):
                messages.append("a `head` mismatch")
                continue
            text = re.sub(
                r": its 'prev' is not that hash \(an entry was changed, inserted or reordered\)", ": …", text
            )
            text = re.sub(
                r"('s key): the entry was altered, or was signed for another game or by another key",
                r"\1: …",
                text,
            )
            messages.append(f"`{short_hex(text)}`".replace("|", "\\|"))
        exit_note = f" (exit {result.exit_code})" if result.exit_code != 3 else ""
        return "<br>".join(messages) + exit_note


def tamper_blocks(games: Games) -> Blocks:
    intro, together = games.intro, games.deck
    assert games.copies  # both.toml
    rows = ["| Edit | What `pbem verify --all` reports |", "|---|---|"]
    t = Tamper(intro, rows)
    gid = intro.data("game.toml")["entry"][0]["game_id"]

    def entry(data: dict[str, Any], seq: int, by: str | None = None) -> dict[str, Any]:
        found: dict[str, Any] = next(
            e for e in data["entry"] if e["seq"] == seq and (by is None or e["by"] == by)
        )
        return found

    def set_and_sign(seq: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
            target = entry(data, seq)
            for key, value in fields.items():
                if value is None:
                    target.pop(key, None)
                else:
                    target[key] = value
            resign(target, data["entry"][0]["game_id"])

        return change

    t.row('b\'s note: `text = "hullo"`', "game.toml", lambda d: entry(d, 3).update(text="hullo"))
    t.row(
        "a genesis option: `deadline_days = 7`",
        "game.toml",
        lambda d: d["entry"][0]["options"].update(deadline_days=7),
    )
    t.row(
        "the genesis `nonce` changed, the genesis signed again by a",
        "game.toml",
        set_and_sign(0, nonce="0" * 32),
    )
    t.row(
        "the genesis `game_id` and the header's `id` changed to another id",
        "game.toml",
        lambda d: (d["entry"][0].update(game_id="0" * 32), d["game"].update(id="0" * 32)),
    )
    t.row("an entry removed from the middle (b's join)", "game.toml", lambda d: d["entry"].pop(1))
    t.row(
        "an entry duplicated (b's note, twice in a row)",
        "game.toml",
        lambda d: d["entry"].insert(3, d["entry"][3]),
    )
    t.row(
        "two entries by one seat swapped (b's join and b's note)",
        "game.toml",
        lambda d: d["entry"].__setitem__(slice(1, 4), [d["entry"][3], d["entry"][2], d["entry"][1]]),
    )
    t.row("`seq` of b's note edited to 5", "game.toml", lambda d: entry(d, 3).update(seq=5))
    t.row("the last entry cut off, header left alone", "game.toml", lambda d: d["entry"].pop())
    intro.new("other.toml")
    intro.pbem("b", "join", "other.toml", "--as", "b", record=False)
    other_join = intro.data("other.toml")["entry"][1]
    t.row(
        "an entry spliced in from another game (b's join in another game between the same players, same key)",
        "game.toml",
        lambda d: d["entry"].__setitem__(1, other_join),
    )
    t.row(
        "a roster key replaced (b's `sign` by c's)",
        "game.toml",
        lambda d: d["roster"]["b"].update(sign=d["roster"]["c"]["sign"]),
    )
    t.row("a signature stripped (c's contribution)", "game.toml", lambda d: entry(d, 4).pop("sig"))
    t.row(
        "a signature copied from another entry (b's note's onto c's contribution)",
        "game.toml",
        lambda d: entry(d, 4).update(sig=entry(d, 3)["sig"]),
    )
    t.row(
        "the `sig` text rewritten to other text for the same 64 bytes (the last character before `==`)",
        "game.toml",
        lambda d: entry(d, 4).update(sig=other_text(entry(d, 4)["sig"])),
    )
    t.row(
        'a field added to an entry (`mood = "smug"` in c\'s contribution)',
        "game.toml",
        lambda d: entry(d, 4).update(mood="smug"),
    )

    def second_genesis(data: dict[str, Any]) -> None:
        extra = dict(data["entry"][0], seq=5, prev=data["game"]["head"])
        resign(extra, gid)
        data["entry"].append(extra)

    t.row(
        "a second genesis entry appended (`seq = 5`, `prev` the old `head`, signed by a)",
        "game.toml",
        second_genesis,
    )
    t.row("a header field changed (`id`)", "game.toml", lambda d: d["game"].update(id="0" * 32))
    t.row(
        "a header value of the wrong type (`entries = 5.0`)",
        "game.toml",
        lambda d: d["game"].update(entries=5.0),
    )
    t.row(
        "the component data changed (`start_gold = 46`)",
        "game.toml",
        lambda d: d["components"]["rules"].update(start_gold=46),
    )
    t.row(
        "an invalid time (`2026-02-30T00:00:00Z` in c's contribution)",
        "game.toml",
        lambda d: entry(d, 4).update(at="2026-02-30T00:00:00Z"),
    )
    t.row(
        "the genesis `ruleset` replaced by an alias (`potr`)",
        "game.toml",
        lambda d: d["entry"][0].update(ruleset="potr"),
    )
    t.row(
        "one digit of a `rand` changed (b's note)",
        "game.toml",
        lambda d: entry(d, 3).update(
            rand=("1" if entry(d, 3)["rand"][0] != "1" else "2") + entry(d, 3)["rand"][1:]
        ),
    )
    data0 = intro.data("game.toml")
    t.row(
        "b's note signed again by b with b's second link, skipping the first",
        "game.toml",
        set_and_sign(3, rand=link(data0, "b", 2)),
    )
    t.row('b\'s note signed again by b with `rand = "XYZ"`', "game.toml", set_and_sign(3, rand="XYZ"))
    t.row("b's note signed again by b without `rand`", "game.toml", set_and_sign(3, rand=None))
    t.row('c\'s join signed again by c with `rand_tip = "xyz"`', "game.toml", set_and_sign(2, rand_tip="xyz"))
    t.row(
        "c's join signed again by c with b's `deck_key_proof`",
        "game.toml",
        set_and_sign(2, deck_key_proof=data0["entry"][1]["deck_key_proof"]),
    )
    t.row(
        "c's join signed again by c with a `deck_key` of small order (the point of order 4, 32 zero bytes)",
        "game.toml",
        set_and_sign(2, deck_key=b64(bytes(32))),
    )
    t.row(
        'c\'s contribution signed again by c for another event (`event = "turn-order tie-break"`)',
        "game.toml",
        set_and_sign(4, event="turn-order tie-break"),
    )

    def early_move(data: dict[str, Any]) -> None:
        del data["entry"][2:]
        move = {"seq": 2, "prev": "", "by": "a", "at": "2026-11-22T02:31:00Z", "kind": "move", "move": "pass"}
        data["game"]["entries"] = 2
        move["prev"] = ledger.audit(data).ledger.head  # type: ignore[union-attr]
        move["rand"] = link(data, "a", 1)
        resign(move, gid)
        data["entry"].append(move)
        data["roster"].pop("c")
        refreshed(data)

    t.row(
        'a move signed by a, made before c joined (`move = "pass"`; header and roster as for that file)',
        "game.toml",
        early_move,
    )
    # merged.toml, played.toml and deck.toml
    t.table = together
    t.row(
        "`merged.toml`: the two entries of step 1 swapped (c's join before b's)",
        "merged.toml",
        lambda d: d["entry"].__setitem__(slice(1, 3), [d["entry"][2], d["entry"][1]]),
    )
    t.row("`merged.toml`: c's join removed, header left alone", "merged.toml", lambda d: d["entry"].pop(2))
    t.row("`merged.toml`: c's join duplicated", "merged.toml", lambda d: d["entry"].insert(2, d["entry"][2]))

    def note_by_c(data: dict[str, Any]) -> None:
        merged_id = data["entry"][0]["game_id"]
        note = {"seq": 1, "prev": data["entry"][1]["prev"], "by": "c", "at": "2026-11-22T02:31:00Z"}
        note |= {"kind": "note", "text": "hi", "rand": link(data, "c", 1)}
        resign(note, merged_id)
        data["entry"].insert(3, note)

    t.row(
        "`merged.toml`: a note by c added to step 1, after c's join (`prev` the hash of step 0, signed by c)",
        "merged.toml",
        note_by_c,
    )
    t.row_as_is(
        "`both.toml` (see [`pbem verify` output](#pbem-verify-output)): b's notes from two copies, "
        "both in one file",
        "both.toml",
    )
    played = together.data("played.toml")
    a_commit = next(e for e in played["entry"] if e["kind"] == "commit" and e["by"] == "a")["seq"]
    a_reveal = next(e for e in played["entry"] if e["kind"] == "reveal" and e["by"] == "a")["seq"]

    def reveal_of_a(**fields: Any) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
            target = entry(data, a_reveal, "a")
            target.update(fields)
            resign(target, data["entry"][0]["game_id"])
            refreshed(data)

        return change

    t.row(
        "`played.toml`: a's revealed bid changed to `bid 9`, signed again by a (header updated)",
        "played.toml",
        reveal_of_a(value="bid 9"),
    )
    t.row(
        "`played.toml`: the nonce of a's reveal replaced by 32 zeros, signed again by a (header updated)",
        "played.toml",
        reveal_of_a(nonce="0" * 32),
    )
    t.row(
        "`played.toml`: the nonce of a's reveal replaced by `abc`, signed again by a (header updated)",
        "played.toml",
        reveal_of_a(nonce="abc"),
    )
    t.row(
        "`played.toml`: c's commit removed, header left alone",
        "played.toml",
        lambda d: d["entry"].remove(next(e for e in d["entry"] if e["kind"] == "commit" and e["by"] == "c")),
    )

    def commit_of_a(**fields: Any) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
            data["entry"] = [e for e in data["entry"] if e["seq"] <= a_commit]
            target = entry(data, a_commit, "a")
            for key, value in fields.items():
                if value is None:
                    target.pop(key, None)
                else:
                    target[key] = value
            resign(target, data["entry"][0]["game_id"])
            refreshed(data)

        return change

    commit = entry(played, a_commit, "a")
    up_to = f"`played.toml` cut after a's commit (entry {a_commit}, header updated), and a's commit"
    t.row(
        f'{up_to} signed again for another sealed step (`step = "family bidding"`)',
        "played.toml",
        commit_of_a(step="family bidding"),
    )
    t.row(f"{up_to} signed again with `step = 1`, an integer", "played.toml", commit_of_a(step=1))
    t.row(
        f"{up_to} signed again with its `commitment` in upper-case hex",
        "played.toml",
        commit_of_a(commitment=commit["commitment"].upper()),
    )
    t.row(
        f"{up_to} signed again with the last character of `sealed` removed",
        "played.toml",
        commit_of_a(sealed=commit["sealed"][:-1]),
    )
    t.row(
        f'{up_to} made an open move instead (`kind = "move"`, `move = "bid 7"`), signed again',
        "played.toml",
        commit_of_a(kind="move", move="bid 7", step=None, commitment=None, sealed=None),
    )
    t.row(f"{up_to} signed again without its shuffle", "played.toml", commit_of_a(shuffles=None))

    def shuffle_edit(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        def edit(data: dict[str, Any]) -> None:
            shuffle = copy.deepcopy(entry(data, a_commit, "a")["shuffles"][0])
            change(shuffle)
            commit_of_a(shuffles=[shuffle])(data)

        return edit

    point = by_name(played["entry"][0].get("group")).element_size

    def packed_edit(
        name: str, size: int, change: Callable[[list[bytes]], Any]
    ) -> Callable[[dict[str, Any]], None]:
        """An edit of the values one packed list of a's shuffle holds, ``size`` bytes each."""

        def edit(shuffle: dict[str, Any]) -> None:
            values = values_of(shuffle[name], size)
            change(values)
            shuffle[name] = b64(b"".join(values))

        return shuffle_edit(edit)

    t.row(
        f"{up_to}'s proof of shuffle with the lowest bit of its first `multi_exp_responses` value "
        "changed, signed again",
        "played.toml",
        packed_edit("multi_exp_responses", point, lambda values: values.__setitem__(0, low_bit(values[0]))),
    )
    t.row(
        f"{up_to}'s shuffle with two cards of the new deck swapped, signed again",
        "played.toml",
        packed_edit("cards", 2 * point, lambda cards: cards.__setitem__(slice(0, 2), [cards[1], cards[0]])),
    )
    t.row(
        f"{up_to}'s shuffle with its last card left out, signed again",
        "played.toml",
        packed_edit("cards", 2 * point, lambda cards: cards.pop()),
    )
    t.row(
        f"{up_to}'s shuffle with the second half of card 3 of the new deck replaced by {point} zero bytes "
        "(a point of small order), signed again",
        "played.toml",
        packed_edit("cards", 2 * point, lambda cards: cards.__setitem__(3, cards[3][:point] + bytes(point))),
    )
    t.row(
        f"{up_to}'s proof of shuffle with its first `svp_responses` value replaced by {point} bytes "
        "0xff (not below the group order), signed again",
        "played.toml",
        packed_edit("svp_responses", point, lambda values: values.__setitem__(0, b"\xff" * point)),
    )
    deck = together.data("deck.toml")
    chosen = DeckEntries.of(deck["entry"])
    giver, shown_by = chosen.shares["by"], chosen.shown["by"]
    first_slot = places(chosen.shares["shares"])[0][1]
    other_giver = next(
        e["by"]
        for e in deck["entry"]
        if e["by"] != giver and any(slot == first_slot for _, slot in places(e.get("shares", [])))
    )
    unused = len(hd_cards(deck.get("components", {}))) - 1

    def deck_edit(seq: int, change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        def edit(data: dict[str, Any]) -> None:
            data["entry"] = [e for e in data["entry"] if e["seq"] <= seq]
            target = entry(data, seq)
            change(target)
            resign(target, data["entry"][0]["game_id"])
            refreshed(data)

        return edit

    def cut_at(entry_: Mapping[str, Any], edit: str) -> str:
        signed = f"signed again by {entry_['by']}"
        return f"`deck.toml` cut after {what(entry_)} (header updated), and {edit}, {signed}"

    sharing = chosen.shares["seq"]
    size = by_name(deck["entry"][0].get("group")).element_size

    def repacked(change: Callable[[list[int], list[bytes]], None]) -> Callable[[dict[str, Any]], None]:
        """An edit of the slots and the packed shares of the first table of an entry's shares."""

        def edit(target: dict[str, Any]) -> None:
            item = target["shares"][0]
            slots, values = list(item["slots"]), values_of(item["shares"], size)
            change(slots, values)
            item.update(slots=slots, shares=b64(b"".join(values)))

        return edit

    def add_unused(slots: list[int], values: list[bytes]) -> None:
        slots.append(unused)
        values.append(values[0])

    def drop_last(slots: list[int], values: list[bytes]) -> None:
        del slots[-1], values[-1]

    t.row(
        cut_at(chosen.shares, f"one byte of {giver}'s `shares_proof` changed"),
        "deck.toml",
        deck_edit(sharing, lambda e: e.update(shares_proof=flip(e["shares_proof"], 0))),
    )
    t.row(
        cut_at(chosen.shares, f"{giver}'s first share replaced by {other_giver}'s share of the same slot"),
        "deck.toml",
        deck_edit(
            sharing,
            repacked(lambda _, values: values.__setitem__(0, share_of(deck, other_giver, first_slot))),
        ),
    )
    t.row(
        cut_at(
            chosen.shares,
            f"a share of slot {unused}, which nobody drew, added to {giver}'s (the slot to `slots`, "
            "a copy of the first share to `shares`)",
        ),
        "deck.toml",
        deck_edit(sharing, repacked(add_unused)),
    )
    t.row(
        cut_at(chosen.shares, f"{giver}'s last share left out (its slot and its share)"),
        "deck.toml",
        deck_edit(sharing, repacked(drop_last)),
    )
    t.row(
        cut_at(chosen.shares, f"the last byte of {giver}'s packed `shares` cut off"),
        "deck.toml",
        deck_edit(sharing, lambda e: e["shares"][0].update(shares=b64(unb64(e["shares"][0]["shares"])[:-1]))),
    )
    t.row(
        cut_at(
            chosen.remasked,
            "one byte of the challenge (the first 32 bytes of `proof`) of the card put under the deck "
            "changed",
        ),
        "deck.toml",
        deck_edit(
            chosen.remasked["seq"],
            lambda e: e["remask"][0].update(proof=flip(e["remask"][0]["proof"], 0)),
        ),
    )
    t.row(
        cut_at(chosen.remasked, "the card put under the deck replaced by the slot's old ciphertext"),
        "deck.toml",
        deck_edit(chosen.remasked["seq"], lambda e: e["remask"][0].update(card=slot_before(deck, e))),
    )
    shown_card = chosen.shown["face_up"][0]["cards"][0]
    other_card = "veto" if shown_card != "veto" else "bad-weather"
    t.row(
        cut_at(chosen.shown, f"the card shown named `{other_card}`"),
        "deck.toml",
        deck_edit(chosen.shown["seq"], lambda e: e["face_up"][0].update(cards=[other_card])),
    )
    t.row(
        cut_at(chosen.shown, f"one byte of {shown_by}'s share of the card shown changed"),
        "deck.toml",
        deck_edit(
            chosen.shown["seq"], lambda e: e["face_up"][0].update(shares=flip(e["face_up"][0]["shares"]))
        ),
    )
    return {"tamper-table": "\n".join(rows)}


def other_text(sig: str) -> str:
    """Another base64 text for the same 64 bytes: the last character before the padding with its
    unused low bits set."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = alphabet.index(sig[-3])
    return sig[:-3] + alphabet[last | 1 if last % 2 == 0 else last & ~1] + sig[-2:]


def values_of(text: str, size: int) -> list[bytes]:
    """The encodings a packed list holds, ``size`` bytes each."""
    raw = unb64(text)
    return [raw[start : start + size] for start in range(0, len(raw), size)]


def share_of(data: Mapping[str, Any], seat: str, slot: int) -> bytes:
    """``seat``'s share of ``slot`` in the hidden-deck game: the share's encoding."""
    size = by_name(data["entry"][0].get("group")).element_size
    for item in (item for e in data["entry"] if e["by"] == seat for item in e.get("shares", [])):
        if slot in item["slots"]:
            return values_of(str(item["shares"]), size)[int(item["slots"].index(slot))]
    raise LookupError(f"{seat} gave no share of slot {slot}")


def slot_before(data: Mapping[str, Any], remasked: Mapping[str, Any]) -> str:
    """The ciphertext the slot a move puts under the deck held before: the last shuffle's."""
    slot = remasked["remask"][0]["slot"]
    last = [e for e in data["entry"] if e.get("shuffles")][-1]
    size = 2 * by_name(data["entry"][0].get("group")).element_size
    return b64(values_of(last["shuffles"][0]["cards"], size)[slot])


def copies_blocks(games: Games) -> Blocks:
    return dict(games.copies)


def copies(games: Games) -> Blocks:
    """Copies that cannot be merged, and a file that holds an equivocation (``both.toml``)."""
    table = games.together
    blocks: Blocks = {}
    start = len(table.lines)
    # ct.toml: c.toml with the time of c's join edited.
    text = table.text("c.toml")
    join_at = table.data("c.toml")["entry"][1]["at"]
    table.path("ct.toml").write_text(
        text.replace(f'at = "{join_at}"', 'at = "2026-11-22T09:00:00Z"'), encoding="utf-8"
    )
    lines = []
    refused = table.pbem(None, "merge", "b.toml", "ct.toml", "-o", "m1.toml", code=3, record=False)
    lines += [printed(refused, "pbem merge b.toml ct.toml -o m1.toml"), "# exit 3"]
    table.new("other.toml")
    refused = table.pbem(None, "merge", "merged.toml", "other.toml", "-o", "m2.toml", code=2, record=False)
    lines += [printed(refused, "pbem merge merged.toml other.toml -o m2.toml"), "# exit 2"]
    table.copy("merged.toml", "x1.toml", "x2.toml")
    table.pbem("b2", "note", "x1.toml", "I bid high", "--as", "b", record=False)
    table.pbem("b3", "note", "x2.toml", "I bid low", "--as", "b", record=False)
    refused = table.pbem(None, "merge", "x1.toml", "x2.toml", "-o", "m3.toml", code=6, record=False)
    lines += [printed(refused, "pbem merge x1.toml x2.toml -o m3.toml", stderr_first=True), "# exit 6"]
    blocks["merge-refusals"] = fence("text", "\n".join(lines))
    # both.toml: x1.toml with b's note from x2.toml added at the end.
    data = table.data("x1.toml")
    data["entry"].append(table.data("x2.toml")["entry"][-1])
    table.write("both.toml", data)
    shown = table.pbem("@", "verify", "both.toml", code=6, record=False)
    blocks["verify-equivocation"] = fence("text", printed(shown, "pbem verify both.toml", stderr_first=True))
    # one.toml and two.toml: b and then c on one copy, a on the other, from the same point.
    table.copy("merged.toml", "one.toml", "two.toml")
    table.pbem("b4", "note", "one.toml", "I back Venice", "--as", "b", record=False)
    table.pbem("c2", "note", "one.toml", "So do I", "--as", "c", record=False)
    table.pbem("a2", "note", "two.toml", "Milan, anyone?", "--as", "a", record=False)
    merged = table.pbem("@", "merge", "two.toml", "one.toml", record=False)
    blocks["merge-apart"] = fence("text", printed(merged, "pbem merge two.toml one.toml"))
    del table.lines[start:]
    return blocks


def checker_blocks(games: Games) -> Blocks:
    """docs/check_pbem.py and tests/independent_verifier.py, run on the example files and on
    edited copies, as a reader would run them."""
    intro, together = games.intro, games.deck
    assert games.copies  # both.toml
    blocks: Blocks = {}
    shutil.copyfile(CHECKER, intro.root / "check_pbem.py")
    shutil.copyfile(CHECKER, together.root / "check_pbem.py")
    ok = [run(intro, "python3 check_pbem.py game.toml"), run(together, "python3 check_pbem.py played.toml")]
    blocks["check-ok"] = fence("text", "\n".join(ok))
    played = together.data("played.toml")["entry"]
    c_join = next(e for e in played if e["kind"] == "join" and e["by"] == "c")["at"]
    b_bid = next(e for e in played if e["kind"] == "reveal" and e["by"] == "b")["value"]
    a_rand = next(e for e in played if e["kind"] == "commit" and e["by"] == "a")["rand"]
    digit = "0" if a_rand[0] != "0" else "1"
    game = intro.data("game.toml")["entry"]
    sig = game[-1]["sig"]
    edits = [
        (together, f"sed '/^by = \"c\"/{{n;s/{c_join}/{c_join[:-3]}59Z/}}' played.toml > edited.toml"),
        (together, f'sed \'s/value = "{b_bid}"/value = "bid 9"/\' played.toml > edited.toml'),
        (together, f"sed 's/rand = \"{a_rand[:8]}/rand = \"{digit}{a_rand[1:8]}/' played.toml > edited.toml"),
        (intro, 'sed \'s/text = "hello"/text = "hullo"/\' game.toml > edited.toml'),
        (intro, f"sed 's/{sig[-10:]}/{other_text(sig)[-10:]}/' game.toml > edited.toml"),
    ]
    shown = []
    for table, command in edits:
        subprocess.run(["sh", "-c", command], cwd=table.root, check=True)
        shown.append(f"$ {command}\n" + run(table, "python3 check_pbem.py edited.toml", code=1))
    shutil.copyfile(together.path("both.toml"), intro.path("both.toml"))
    shown.append(run(intro, "python3 check_pbem.py both.toml", code=1))
    blocks["check-edits"] = fence("text", "\n\n".join(shown))
    shutil.copyfile(VERIFIER, together.root / "independent_verifier.py")
    for name in ("game.toml",):
        shutil.copyfile(intro.path(name), together.path("intro.toml"))
    shutil.copyfile(games.mail.path("mail.toml"), together.path("mail.toml"))
    data = together.data("played.toml")
    shuffled = next(e for e in data["entry"] if e.get("shuffles"))
    data["entry"] = [e for e in data["entry"] if e["seq"] <= shuffled["seq"]]
    shuffled["shuffles"][0]["multi_exp_responses"] = flip(shuffled["shuffles"][0]["multi_exp_responses"], 0)
    resign(shuffled, data["entry"][0]["game_id"])
    together.write("flipped.toml", refreshed(data))
    verified = [
        run(together, f"python3 independent_verifier.py {name}", code=code)
        for name, code in (
            ("intro.toml", 0),
            ("mail.toml", 0),
            ("played.toml", 0),
            ("deck.toml", 0),
            ("flipped.toml", 1),
        )
    ]
    about = (
        "# intro.toml is game.toml of the example, mail.toml the game of address (its addresses);\n"
        f"# flipped.toml is played.toml cut after {what(shuffled)},\n"
        "# with the lowest bit of a response of its proof of shuffle changed, "
        f"and signed again by {shuffled['by']}"
    )
    blocks["independent"] = fence("text", "\n".join([about, *verified]))
    return blocks


def run(table: Table, command: str, code: int = 0) -> str:
    """A ``python3 SCRIPT ARGS`` command run with this Python, and what it printed."""
    args = shlex.split(command)
    result = subprocess.run(
        [sys.executable, *args[1:]], cwd=table.root, capture_output=True, text=True, check=False
    )
    if result.returncode != code:
        raise SystemExit(f"{command} exited {result.returncode}, not {code}:\n{result.stdout}{result.stderr}")
    return f"$ {command}\n{result.stdout.rstrip()}"


GROUPS: dict[str, Callable[[Games], Blocks]] = {
    "intro": intro_blocks,
    "mail": mail_blocks,
    "cards": cards_blocks,
    "together": together_blocks,
    "deck": deck_blocks,
    "escrow": escrow_blocks,
    "handed": handed_blocks,
    "referee": referee_blocks,
    "copies": copies_blocks,
    "tamper": tamper_blocks,
    "checkers": checker_blocks,
}


# --- the document --------------------------------------------------------------------------------
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


def make(only: Sequence[str], folder: Path) -> Blocks:
    """The blocks of the groups named (every group if none), from games played in ``folder``."""
    games = Games(folder)
    made: Blocks = {}
    for name in only or GROUPS:
        made.update(GROUPS[name](games))
    return made


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare the document, change nothing")
    parser.add_argument("--only", action="append", choices=sorted(GROUPS), default=[], help="only this group")
    parser.add_argument("--show", action="store_true", help="print the blocks, change nothing")
    parser.add_argument("--keep", type=Path, help="play the games in this folder, and keep them")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        folder = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pbem-docs-")))
        made = make(args.only, folder)
    if args.show:
        for name, block in made.items():
            print(f"=== {name}\n{block}\n")
        return 0
    text = DOC.read_text(encoding="utf-8")
    spans = blocks_in(text)
    missing = sorted(set(made) - set(spans))
    unmade = sorted(set(spans) - set(made)) if not args.only else []
    if missing or unmade:
        print(f"{DOC.name}: no place for {missing}, or no example for {unmade}", file=sys.stderr)
        return 1
    stale = [name for name in made if text[slice(*spans[name])] != made[name] + "\n"]
    if args.check:
        for name in stale:
            print(
                f"{DOC.name}: example {name} is not what pbem gives now (run docs/examples.py)",
                file=sys.stderr,
            )
        if not stale:
            print(f"{DOC.name}: {len(made)} examples checked, each as pbem gives it now")
        return 1 if stale else 0
    for name in sorted(stale, key=lambda name: spans[name][0], reverse=True):
        start, end = spans[name]
        text = text[:start] + made[name] + "\n" + text[end:]
    DOC.write_text(text, encoding="utf-8")
    print(f"{DOC.name}: {len(stale)} of {len(made)} examples written anew")
    return 0


if __name__ == "__main__":
    sys.exit(main())
