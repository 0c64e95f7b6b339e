"""Players passing a game file by hand, for the example scripts (play-a-game.py for Princes of the
Renaissance, play-florence.py for Princes of Florence, play-principe.py for Il Principe): a pbem
home and a mailbox per player, the file copied to whoever `pbem status` says must act next, until
nobody must. Every run with the same seed gives the same file (see ``Runner``).

Run as a script, ``python3 examples/homes.py ARGS`` is ``pbem ARGS`` with the same fixed draws:
the pbem that make-examples.sh and make-table-examples.sh run."""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import json
import os
import random
import shutil
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from typer.testing import CliRunner, Result

from pbem.cli import app

# What a player does when the file reaches it: run, the seat, its copy, what it is asked for, and
# the whole status (its phase).
Turn = Callable[["Runner", str, str, list[dict[str, Any]], dict[str, Any]], None]


DECK_WORK = ("shuffle", "share", "escrow", "unlock")
START = "2026-11-02T18:00:00Z"  # when the first command runs
STEP = timedelta(minutes=1)  # and how long after it each next one does
PARSE = tomllib.loads
KEPT = 8  # the texts whose parse is kept


def arguments(doc: str) -> argparse.ArgumentParser:
    """What every example script takes: where to write the game and the seed of its players' keys
    and choices (a script adds its own before parsing)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--silent",
        metavar="SEAT",
        help="this player answers nothing from round (or decade) --silent-from on: the game is made "
        "with escrow and one-day deadlines, and the others claim timeouts against it",
    )
    parser.add_argument("--silent-from", type=int, default=2, metavar="ROUND")
    parser.add_argument(
        "--replace",
        metavar="NAME",
        help="after the first timeout against the silent player, the others hand its seat on to NAME "
        "(pbem handover --silent, pbem consent), who takes it (pbem join) and plays on",
    )
    return parser


def silence(args: argparse.Namespace) -> Silent | None:
    """What ``--silent`` asks of ``play``, and the options its game is made with."""
    if not args.silent:
        return None
    return Silent(args.silent, args.silent_from, args.replace)


class Silent:
    """A player who stops answering at a round (or decade): the others claim a timeout whenever
    it is asked for something, a day after its deadline, and go on."""

    DAYS = 1
    OPTIONS = ("--option", "deadline_days=1", "--option", "escrow=others")

    def __init__(self, seat: str, start: int, replace: str | None = None) -> None:
        self.seat = seat
        self.start = start
        self.timeouts = 0
        self.replace = replace  # the new player the others hand the seat on to, if any
        self.replaced = False

    def quiet(self, run: Runner, seat: str, game: str) -> bool:
        if self.replaced:
            return False
        view = json.loads(run(seat, "show", game, "--json"))
        return int(view.get("round", view.get("decade", 0)) or 0) >= self.start


def answer(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], move: Callable[[], None]) -> None:
    """Do what ``seat`` is asked: a sealed choice revealed, randomness added, or ``move`` made; what
    it owes the hidden decks rides in that entry, and goes alone with ``pbem sync`` only when the
    seat is asked for nothing else."""
    wanted = next((item for item in asked if item["kind"] not in DECK_WORK), asked[0])
    if wanted.get("waiting_for_shares") and any(item["kind"] in DECK_WORK for item in asked):
        wanted = next(item for item in asked if item["kind"] in DECK_WORK)  # what unblocks the move
    if wanted["kind"] in DECK_WORK:
        run(seat, "sync", game, "--as", seat)
    elif wanted["kind"] == "reveal":
        run(seat, "reveal", game, "--as", seat)
    elif wanted["kind"] == "contribute":
        run(seat, "play", game, "roll", "--as", seat)
    else:
        move()


class Runner:
    """``pbem ARGS`` in a seat's home, run by pbem's own command line in this process; a failure
    ends the script, ``attempt`` returns it.

    The game is the same on every run with the same seed: every command runs a minute after the
    one before (``PBEM_NOW``), and what pbem would draw from the operating system (keys, the
    game's nonce, the nonces of sealed choices) is drawn from the seed, the seat, the time and the
    command instead. Everything else (randomness chains, deck keys, shuffles, proofs) follows
    from the keys and the game."""

    def __init__(self, root: Path, seed: int, start: str = START) -> None:
        self.root = root
        self.seed = seed
        self.time = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        self.parsed: dict[str, dict[str, Any]] = {}

    def parse(self, text: str) -> dict[str, Any]:
        """``tomllib.loads``, once for each text: a player's status, moves, view and move all read
        the same file, and reading a long game file is most of what each command costs."""
        if text not in self.parsed:
            if len(self.parsed) >= KEPT:
                del self.parsed[next(iter(self.parsed))]
            self.parsed[text] = PARSE(text)
        return copy.deepcopy(self.parsed[text])

    def attempt(self, seat: str, *args: str) -> Result:
        self.time += STEP
        at = self.time.strftime("%Y-%m-%dT%H:%M:%SZ")
        env = {"PBEM_HOME": str(self.root / "homes" / seat), "PBEM_NOW": at, "PBEM_PASSPHRASE": None}
        env |= {"NO_COLOR": "1", "COLUMNS": None}
        label = f"pbem example {self.seed} {seat} {at} {' '.join(args).replace(str(self.root), '')}"
        with fixed_draws(label), mock.patch("tomllib.loads", self.parse):
            return CliRunner().invoke(app, list(args), env=env)

    def __call__(self, seat: str, *args: str) -> Any:
        done = self.attempt(seat, *args)
        if done.exit_code != 0:
            sys.exit(f"pbem {' '.join(args)} (as {seat}) failed: {done.stderr.strip()}")
        return done.stdout


@contextlib.contextmanager
def fixed_draws(label: str) -> Iterator[None]:
    """The bytes pbem draws at random, taken from ``label`` and a count instead."""
    count = iter(range(1_000_000))

    def draw(size: int) -> bytes:
        return hashlib.sha512(f"{label} {next(count)}".encode()).digest()[:size]

    def ephemeral() -> X25519PrivateKey:
        return X25519PrivateKey.from_private_bytes(draw(32))

    with (
        mock.patch("os.urandom", draw),
        mock.patch("secrets.token_hex", lambda size: draw(size).hex()),
        mock.patch.object(X25519PrivateKey, "generate", staticmethod(ephemeral)),
    ):
        yield


def send(mail: dict[str, Path], sender: str, receiver: str) -> None:
    """Email the file: the receiver's copy becomes the sender's."""
    if sender != receiver:
        shutil.copy(mail[sender], mail[receiver])


def play(
    run: Runner,
    seats: Sequence[str],
    new: Sequence[str],
    rnd: random.Random,
    *,
    turn: Turn,
    out: Path,
    silent: Silent | None = None,
) -> tuple[int, dict[str, Any]]:
    """Keys made, the game created by the first seat (``pbem new FILE`` then ``new``), joined by the
    others in turn, played until nobody is asked for anything, verified and copied to ``out``; the
    entries after joining and the final view. A ``silent`` player answers nothing from its round
    on: the others claim timeouts against it."""
    if silent is not None:
        new = [*new, *Silent.OPTIONS]
    for seat in seats:
        run(seat, "key", "new", seat, "--no-passphrase")
    mail = {seat: run.root / "mail" / seat / "game.toml" for seat in seats}
    for path in mail.values():
        path.parent.mkdir(parents=True)
    run(seats[0], "new", str(mail[seats[0]]), *new, "--players", ",".join(seats), "--as", seats[0])
    holder = seats[0]
    for seat in seats[1:]:
        send(mail, holder, seat)
        run(seat, "join", str(mail[seat]), "--as", seat)
        holder = seat
    entries = 0
    while True:
        status = json.loads(run(holder, "status", str(mail[holder]), "--json"))
        if not status["waiting"]:
            break
        choices = status["send_to"]
        if silent is not None and silent.quiet(run, holder, str(mail[holder])):
            choices = [seat for seat in choices if seat != silent.seat]
            if silent.seat in status["send_to"] and _claimed(run, mail, holder, silent, seats):
                holder = next(seat for seat in seats if seat != silent.seat)
                entries += 1
                if silent.replace:
                    holder = _hand_on(run, mail, holder, silent, seats)
                    entries += len(seats)
                continue
            if not choices:
                sys.exit(f"stuck: only {silent.seat} is asked, and no timeout is let through")
        seat = rnd.choice(choices)
        send(mail, holder, seat)
        holder = seat
        asked = [item for item in status["waiting"] if item["seat"] == seat]
        turn(run, seat, str(mail[seat]), asked, status)
        entries += 1
    run(holder, "verify", str(mail[holder]))
    shutil.copy(mail[holder], out)
    return entries, json.loads(run(holder, "show", str(out), "--json"))


def _claimed(run: Runner, mail: dict[str, Path], holder: str, silent: Silent, seats: Sequence[str]) -> bool:
    """The first other seat claims a timeout against the silent one, past its deadline; whether it
    was let through (it is not while the others owe the partials that unlock its cards)."""
    claimant = next(seat for seat in seats if seat != silent.seat)
    send(mail, holder, claimant)
    before = run.time
    run.time += timedelta(days=Silent.DAYS, minutes=1)
    done = run.attempt(claimant, "timeout", str(mail[claimant]), silent.seat, "--as", claimant)
    if done.exit_code != 0:
        run.time = before
        return False
    silent.timeouts += 1
    return True


def _hand_on(run: Runner, mail: dict[str, Path], holder: str, silent: Silent, seats: Sequence[str]) -> str:
    """The claimant proposes handing the silent seat on, every other remaining seat consents, and
    the new player takes it. The new player's home is the silent seat's (its key is made there),
    so the seat plays on from it; the holder of the file afterwards."""
    assert silent.replace is not None
    claimant = holder
    keyfile = run.root / f"{silent.replace}.id"
    run(silent.seat, "key", "new", silent.replace, "--no-passphrase")
    run(silent.seat, "key", "export", silent.replace, "--output", str(keyfile))
    game = str(mail[claimant])
    run(
        claimant,
        "handover",
        game,
        "--as",
        claimant,
        "--to",
        silent.replace,
        str(keyfile),
        "--silent",
        silent.seat,
    )
    for seat in seats:
        if seat not in (claimant, silent.seat):
            send(mail, holder, seat)
            run(seat, "consent", str(mail[seat]), "--as", seat)
            holder = seat
    send(mail, holder, silent.seat)
    run(silent.seat, "join", str(mail[silent.seat]), "--as", silent.seat)
    silent.replaced = True
    return silent.seat


def main() -> int:
    """``pbem ARGS`` with what pbem would draw at random drawn from ``PBEM_NOW``, the home's name
    and the arguments instead (file paths by their names), so that the shell scripts that make the
    examples (make-examples.sh) give the same files on every run."""
    args = sys.argv[1:]
    home = Path(os.environ.get("PBEM_HOME", "")).name
    said = " ".join(Path(arg).name if "/" in arg else arg for arg in args)
    with fixed_draws(f"pbem example {os.environ.get('PBEM_NOW', '')} {home} {said}"):
        try:
            app(args, prog_name="pbem")
        except SystemExit as stop:
            return stop.code if isinstance(stop.code, int) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
