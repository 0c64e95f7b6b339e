"""Players passing a game file by hand, for the example scripts (play-a-game.py for Princes of the
Renaissance, play-florence.py for Princes of Florence, play-principe.py for Il Principe): a pbem
home and a mailbox per player, the file copied to whoever `pbem status` says must act next, until
nobody must."""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# What a player does when the file reaches it: run, the seat, its copy, what it is asked for, and
# the whole status (its phase).
Turn = Callable[["Runner", str, str, list[dict[str, Any]], dict[str, Any]], None]


DECK_WORK = ("shuffle", "share")


def arguments(doc: str) -> argparse.ArgumentParser:
    """What every example script takes: where to write the game, the seed of its players' choices
    and which pbem to run (a script adds its own before parsing)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pbem", default=shutil.which("pbem") or "pbem")
    return parser


def answer(run: Runner, seat: str, game: str, asked: list[dict[str, Any]], move: Callable[[], None]) -> None:
    """Do what ``seat`` is asked: a sealed choice revealed, randomness added, or ``move`` made; what
    it owes the hidden decks rides in that entry, and goes alone with ``pbem sync`` only when the
    seat is asked for nothing else."""
    wanted = next((item for item in asked if item["kind"] not in DECK_WORK), asked[0])
    if wanted["kind"] in DECK_WORK:
        run(seat, "sync", game, "--as", seat)
    elif wanted["kind"] == "reveal":
        run(seat, "reveal", game, "--as", seat)
    elif wanted["kind"] == "contribute":
        run(seat, "play", game, "roll", "--as", seat)
    else:
        move()


class Runner:
    """``pbem ARGS`` in a seat's home; a failure ends the script, ``attempt`` returns it."""

    def __init__(self, pbem: str, root: Path) -> None:
        self.pbem = pbem
        self.root = root

    def attempt(self, seat: str, *args: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PBEM_HOME=str(self.root / "homes" / seat), PBEM_PASSPHRASE="example only")
        return subprocess.run([self.pbem, *args], env=env, capture_output=True, text=True, check=False)

    def __call__(self, seat: str, *args: str) -> Any:
        done = self.attempt(seat, *args)
        if done.returncode != 0:
            sys.exit(f"pbem {' '.join(args)} (as {seat}) failed: {done.stderr.strip()}")
        return done.stdout


def send(mail: dict[str, Path], sender: str, receiver: str) -> None:
    """Email the file: the receiver's copy becomes the sender's."""
    if sender != receiver:
        shutil.copy(mail[sender], mail[receiver])


def play(
    run: Runner, seats: Sequence[str], new: Sequence[str], rnd: random.Random, *, turn: Turn, out: Path
) -> tuple[int, dict[str, Any]]:
    """Keys made, the game created by the first seat (``pbem new FILE`` then ``new``), joined by the
    others in turn, played until nobody is asked for anything, verified and copied to ``out``; the
    entries after joining and the final view."""
    for seat in seats:
        run(seat, "key", "new", seat)
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
        seat = rnd.choice(status["send_to"])
        send(mail, holder, seat)
        holder = seat
        asked = [item for item in status["waiting"] if item["seat"] == seat]
        turn(run, seat, str(mail[seat]), asked, status)
        entries += 1
    run(holder, "verify", str(mail[holder]))
    shutil.copy(mail[holder], out)
    return entries, json.loads(run(holder, "show", str(out), "--json"))
