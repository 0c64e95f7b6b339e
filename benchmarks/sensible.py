"""The "sensible" players of the example games (``examples/play-*.py``), at the rules level: each
example's own chooser, given what ``pbem moves --json`` and ``pbem show --as SEAT --json`` would
give it (the seat's view, its hidden cards, the notes beside its moves), built from a walk's state
and the dealer's hand for the seat. ``bench_computer.py --opponents sensible`` plays the computer
against three of them.
"""

from __future__ import annotations

import random
import runpy
import sys
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from pbem.cli.template_files import template_dir
from pbem.engine.ruleset import explanation
from pbem.kit.computer import Turn, Walk

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# A player: the move text for ``turn`` (the rules may still refuse it).
Player = Callable[[Walk[Any], Turn, random.Random], str]


@cache
def example(name: str) -> dict[str, Any]:
    """An example script's functions (its ``main`` is not run)."""
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))  # the scripts import their shared homes.py
    return runpy.run_path(str(EXAMPLES / name))


@cache
def template(name: str) -> dict[str, Any]:
    """A shipped component template, as ``pbem templates show NAME`` prints it."""
    return tomllib.loads((template_dir() / f"{name}.toml").read_text(encoding="utf-8"))


def hand(walk: Walk[Any], seat: str) -> dict[str, str]:
    """The seat's hidden cards, by token, as ``pbem show --as SEAT`` reads them with its key."""
    return walk.dealer.hand(walk.state, seat)


def view(walk: Walk[Any], seat: str) -> dict[str, Any]:
    """``pbem show --as SEAT --json``, as far as the choosers read it."""
    return walk.rules.view(walk.state, seat) | {"hand": hand(walk, seat)}


def notes(walk: Walk[Any], seat: str, moves: list[str]) -> dict[str, str]:
    """The notes ``pbem moves --json`` gives beside each move: each hidden card it names, and what
    the rules say it does (as engine.play.move_notes makes them)."""
    held = hand(walk, seat)
    found: dict[str, str] = {}
    for text in moves:
        parts = [held[word] for word in text.split() if word in held]
        parts.append(explanation(walk.rules, walk.state, walk.rules.parse(text)))
        note = "; ".join(part for part in parts if part)
        if note:
            found[text] = note
    return found


def renaissance(walk: Walk[Any], turn: Turn, rng: random.Random) -> str:
    choose = example("play-a-game.py")["choose"]
    moves = walk.options(turn.seat)
    return str(choose(rng, moves, walk.phase(), view(walk, turn.seat), turn.seat))


def florence(walk: Walk[Any], turn: Turn, rng: random.Random) -> str:
    player = example("play-florence.py")["Player"]
    moves = walk.options(turn.seat)
    return str(player(template("princes-of-florence"), view(walk, turn.seat), turn.seat).choose(moves))


def principe(walk: Walk[Any], turn: Turn, rng: random.Random) -> str:
    choose = example("play-principe.py")["choose"]
    moves = walk.options(turn.seat)
    icons = {city["id"]: city["icons"] for city in template("il-principe")["city"]}
    seen = view(walk, turn.seat)
    ducats = next(int(row["ducats"]) for row in seen["players"] if row["seat"] == turn.seat)
    return str(choose(rng, moves, notes(walk, turn.seat, moves), icons, ducats))


# The example games' players, by the game they play.
PLAYERS: dict[str, Player] = {
    "princes-of-the-renaissance": renaissance,
    "princes-of-florence": florence,
    "il-principe": principe,
}
