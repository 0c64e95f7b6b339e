"""A seat's legal moves as forms (``pbem.kit.forms``): every text the forms make is a legal move
the rules accept, every legal move is one they make, each move type's declared form writes its
text back field by field; and ``pbem moves`` prints them folded, narrowed by a prefix, or all.

Positions come from the shipped example games, read back entry by entry (without their proofs,
which other tests check): a dozen positions of each game, every seat asked for a move in each."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine import play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.games import GAMES
from pbem.kit import forms
from tests.conftest import Cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BY_GAME = {
    "princes-of-the-renaissance": "four-players.toml",
    "princes-of-florence": "florence-four-players.toml",
    "il-principe": "principe-four-players.toml",
}
_FIELD = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\]]*)\]")


def unchecked(*_: Any) -> None:
    """The proofs are other tests' concern: positions are read without them."""


def at(path: Path, count: int) -> Ledger:
    data = gamefile.load(path).data
    part = {**data, "entry": data["entry"][:count]}
    audited = ledger_mod.audit(part, unchecked)
    assert audited.ledger is not None, audited.problems
    return audited.ledger


def positions(name: str, many: int = 12) -> list[Ledger]:
    path = EXAMPLES / BY_GAME[name]
    total = len(gamefile.load(path).data["entry"])
    return [at(path, count) for count in range(total // many, total + 1, max(1, total // many))]


def written(form: str, values: tuple[str, ...], names: tuple[str, ...]) -> str:
    """The form filled with ``values``; a bracketed piece only where a field it names is filled."""
    given = dict(zip(names, values, strict=True))
    pieces = []
    for index, text in enumerate(_OPTIONAL.split(form)):
        named = _FIELD.findall(text)
        if index % 2 == 1 and not any(given.get(name) for name in named):
            continue
        pieces.append(_FIELD.sub(lambda found: given[found.group(1)], text))
    return "".join(pieces)


def test_every_game_has_an_example_to_take_positions_from() -> None:
    assert set(BY_GAME) == {game.name for game in GAMES}


@pytest.mark.parametrize("name", sorted(BY_GAME))
def test_the_forms_make_exactly_the_legal_moves(name: str) -> None:
    asked = 0
    for game in positions(name):
        assert game.table is not None and game.rules is not None
        for demand in tables.demands(game.rules, game.table):
            if demand.kind != "move":
                continue
            _, legal = play.legal(game, demand.seat)
            folded = forms.fold((text, game.rules.parse(text)) for text in legal)
            assert sorted(forms.texts(folded)) == sorted(legal)
            for form in folded:
                for text, path in zip(form.texts, form.paths, strict=True):
                    assert len(path) == len(form.fields)
                    assert written(form.form, path, form.fields) == text  # the declared form is its grammar
            # the rules accept what the forms make (card plays aside: without the seat's key the
            # rules list a play of every card it might hold)
            for text in legal[:: max(1, len(legal) // 25)]:
                move = game.rules.parse(text)
                if not tables.card_uses(game.rules, game.table, demand.seat, move):
                    game.rules.check(game.table.state, demand.seat, move)
            asked += 1
    assert asked >= 5


def florence_build(tmp_path: Path) -> tuple[Path, str, list[str]]:
    """A Florence position where a seat may build (and do much else): the file, the seat, its
    moves."""
    path = EXAMPLES / BY_GAME["princes-of-florence"]
    data = gamefile.load(path).data
    for count in range(2, len(data["entry"])):
        game = at(path, count)
        if game.table is None or game.rules is None:
            continue  # still joining
        for demand in tables.demands(game.rules, game.table):
            _, legal = play.legal(game, demand.seat)
            if demand.kind == "move" and sum(text.startswith("build ") for text in legal) > 100:
                out = tmp_path / "florence.toml"
                out.write_text(
                    gamefile.render_new(
                        game.header(), game.roster_table(), data["components"], game.entries, ()
                    ),
                    encoding="utf-8",
                )
                return out, demand.seat, legal
    raise AssertionError("no position to build in")


def test_pbem_moves_folds_hundreds_of_moves_into_a_screen(cli: Cli, tmp_path: Path) -> None:
    path, seat, legal = florence_build(tmp_path)
    assert len(legal) > 500
    folded = cli("moves", str(path), "--as", seat)
    assert folded.exit_code == 0, folded.stderr
    lines = folded.stdout.splitlines()
    assert len(lines) <= 20
    assert any(
        re.fullmatch(r"build laboratory at SQUARE rot ROTATION \[MIRRORED\]  \(\d+ ways\)", line)
        for line in lines
    )
    assert f"{len(legal)} moves in all" in folded.stderr
    every = cli("moves", str(path), "--as", seat, "--all")
    assert sorted(every.stdout.splitlines()) == sorted(legal)  # moves that differ in a number, together
    narrowed = cli("moves", str(path), "build", "laboratory", "--as", seat, "--all")
    wanted = [text for text in legal if text.startswith("build laboratory ")]
    assert sorted(narrowed.stdout.splitlines()) == sorted(wanted)
    shown = json.loads(cli("moves", str(path), "build", "laboratory", "--as", seat, "--json").stdout)
    assert shown["moves"] == wanted
    (form,) = shown["forms"]
    assert form["form"] == "build {piece} at {square} rot {rotation}[ {mirrored}]"
    assert form["fields"] == ["piece", "square", "rotation", "mirrored"]
    squares = form["choices"]["laboratory"]
    text = next(iter(next(iter(next(iter(squares.values())).values())).values()))
    assert text in wanted and form["count"] == len(wanted)
    nothing = cli("moves", str(path), "build", "castle", "--as", seat)
    assert nothing.exit_code == 0 and nothing.stdout == ""
    assert f"{seat} has no move that begins with 'build castle'" in nothing.stderr
