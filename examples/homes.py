"""Players passing a game file by hand, for the example scripts (play-a-game.py for Princes of the
Renaissance, play-florence.py for Princes of Florence, play-principe.py for Il Principe): a pbem
home and a mailbox per player, the file copied to whoever `pbem status` says must act next, until
nobody must."""

from __future__ import annotations

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
