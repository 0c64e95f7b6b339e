"""A refusal says its rule in the player's words first, in all three games and both modes.

The rules texts are Russian (Princes of the Renaissance, Princes of Florence), Italian and French
(Princes of the Renaissance's first edition, Il Principe). A refusal may quote one, but only once
its first sentence has said the rule in English: no Cyrillic letter and no French quotation mark
before the first sentence ends. Checked on every string the games' code holds (docstrings aside),
on the refusals met while seeded games are played by email (``test_legal_moves_accepted``'s games,
each seat trying moves it was not offered), and at the table (each tracker's example actions tried
while a seeded table goes on).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pbem.companion.tracker import Tracker
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.il_principe.table.tracker import TRACKER as IP_TABLE
from pbem.games.princes_of_florence.table.tracker import TRACKER as POF_TABLE
from pbem.games.princes_of_the_renaissance.table.tracker import TRACKER as POTR_TABLE
from tests.conftest import potr_components
from tests.test_legal_moves_accepted import GAMES, Point, free, listed

GAMES_CODE = Path(__file__).resolve().parent.parent / "pbem" / "games"
ORIGINAL = re.compile(r"[\u0400-\u04ff«»]")  # a Cyrillic letter or a French quotation mark
SENTENCE_END = ". "


def english_first(message: str) -> bool:
    """No word of an original before the first sentence has ended."""
    return not ORIGINAL.search(message.split(SENTENCE_END, 1)[0])


def test_the_shape_itself() -> None:
    assert english_first("bruno passed on this jester, and a player who passes bids no more for it")
    assert english_first("a player bids once a lot. The text: 'Спасовавший игрок более не может'")
    assert not english_first("bruno passed on this jester ('спасовавший игрок более не может')")
    assert not english_first("the cards played must be « toutes de la même couleur », not blue")


# --- every string in the games' code --------------------------------------------------------------


def strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each whole string expression (an f-string's values as ``{}``), docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    inner = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if id(node) in docstrings or id(node) in inner:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            parts = [
                part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "{}"
                for part in node.values
            ]
            yield node.lineno, "".join(parts)


def test_every_string_of_the_games_says_its_rule_in_english_first() -> None:
    found = [
        f"{path.relative_to(GAMES_CODE)}:{line}: {text!r}"
        for path in sorted(GAMES_CODE.rglob("*.py"))
        for line, text in strings(ast.parse(path.read_text(encoding="utf-8")))
        if not english_first(text)
    ]
    assert not found, found


# --- refusals met by email -------------------------------------------------------------------------


def refusals_by_email(point: Point, tried: Sequence[str]) -> Iterator[str]:
    """What each seat is told when it tries ``tried`` (moves offered elsewhere) here."""
    for seat in point.seats:
        offered = {*listed(point, seat), *free(point, seat)}
        for text in tried:
            if text in offered:
                continue
            try:
                move = point.rules.parse(text)
                point.rules.check(point.show(point.state, seat, move), seat, move)
            except (IllegalMoveError, MoveSyntaxError) as refusal:
                yield str(refusal)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_refusals_by_email_say_the_rule_in_english_first(name: str) -> None:
    rng = random.Random(name)
    seen: list[str] = []  # moves offered to any seat so far
    messages: set[str] = set()
    for index, point in enumerate(GAMES[name]()):
        for seat in point.seats:
            seen.extend(listed(point, seat)[:40])
        if index % 5 == 0:
            tried = rng.sample(seen, min(60, len(seen)))
            messages.update(refusals_by_email(point, [*tried, "pass", "bid 1", "nonsense 7"]))
    wrong = [message for message in messages if not english_first(message)]
    assert not wrong, wrong[:10]
    assert len(messages) >= 10


# --- refusals met at the table ---------------------------------------------------------------------

TABLES: dict[str, tuple[Tracker[Any], tuple[str, ...], Mapping[str, Any], Any]] = {
    "princes-of-florence": (
        POF_TABLE,
        ("alice", "bob", "carla"),
        {"unofficial_rules": False},
        {"minimum_work": {"1": 6, "2": 8, "3": 10, "4": 12}},
    ),
    "il-principe": (IP_TABLE, ("alice", "bob", "carol"), {"rich_start": False}, None),
    "princes-of-the-renaissance": (
        POTR_TABLE,
        ("alice", "bob", "carla", "dario"),
        {"family_side": "a", "turn_order": "bid"},
        potr_components("2016"),
    ),
}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_refusals_at_the_table_say_the_rule_in_english_first(game: str) -> None:
    tracker, players, options, components = TABLES[game]
    rng = random.Random(game)
    examples = [form.example for form in tracker.events()]
    state = tracker.start(players, "2016" if "renaissance" in game else "standard", options, components)
    messages: set[str] = set()
    for _ in range(12):
        for text in rng.sample(examples, len(examples)):
            try:
                after, _ = tracker.apply(state, text)
            except (IllegalMoveError, MoveSyntaxError) as refusal:
                messages.add(str(refusal))
                continue
            if rng.random() < 0.5:
                state = after
    wrong = [message for message in messages if not english_first(message)]
    assert not wrong, wrong[:10]
    assert len(messages) >= 10
