"""A seat's legal moves as forms: each move type's written form (``build {city} with {cards}``)
with the choices that fill it, field by field in the form's order (which cities, then which cards
for each city), instead of every text one after another.

A form is folded from the rules' own legal moves, so every text it makes is one the rules accept
and every legal text is one it makes. Each move type declares its form once, in its grammar
(``MoveBase``'s ``form``, or a ``shape`` where its text is written by hand).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from pbem.kit.grammar import MoveBase

_FIELD = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\]]*)\]")
FOLDED = 20  # at most this many lines for a seat's moves, folded


@dataclass
class Form:
    """One move type's legal moves: its form, its fields in order (``lists``: those that name
    several words, such as a set of cards), and the choices: each value of the first field, then
    of the next for that value, and so on, down to the move's text."""

    form: str
    fields: tuple[str, ...]
    lists: frozenset[str]
    places: tuple[str, ...] = ()  # the fields whose values may be places on the picture
    choices: dict[str, Any] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    paths: list[tuple[str, ...]] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "fields": list(self.fields),
            "lists": sorted(self.lists),
            "places": list(self.places),
            "count": len(self.texts),
            "choices": self.choices,
        }


def shape(move: MoveBase) -> tuple[str, tuple[str, ...], frozenset[str]]:
    """The form ``move`` is written in, its fields in the form's order, and which of them name a
    list of words."""
    form = move.shape
    named = tuple(_FIELD.findall(form))
    declared = {item.name: item for item in fields(move)}  # type: ignore[arg-type]
    lists = frozenset(name for name in named if name in declared and "tuple" in str(declared[name].type))
    return form, named, lists


def fold(moves: Iterable[tuple[str, MoveBase | None]]) -> list[Form]:
    """The forms of ``moves`` (each legal text with the move it reads as, or None for a word of
    the engine's own, such as ``roll``: a form of its own), in the order their first move comes."""
    found: dict[str, Form] = {}
    for text, move in moves:
        form, named, lists = shape(move) if isinstance(move, MoveBase) else (text, (), frozenset[str]())
        held = found.get(form)
        if held is None:
            off = type(move).off_picture if isinstance(move, MoveBase) else ()
            held = found[form] = Form(form, named, lists, tuple(name for name in named if name not in off))
        path = move.parts() if isinstance(move, MoveBase) else ()
        node = held.choices
        for value in path[:-1]:
            node = node.setdefault(value, {})
        if path:
            node[path[-1]] = text
        else:
            held.choices[""] = text
        held.texts.append(text)
        held.paths.append(path)
    return list(found.values())


def texts(forms: Sequence[Form]) -> list[str]:
    """Every text the forms make: the moves they were folded from, each once."""
    made: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            made.append(node)
            return
        for child in node.values():
            walk(child)

    for form in forms:
        walk(form.choices)
    return made


def lines(forms: Sequence[Form], limit: int = FOLDED) -> list[str]:
    """The moves folded for a reader, about ``limit`` lines at most: a form with few moves gives
    them as they are; one with more gives a line for each value of its first field that varies
    (``build laboratory at SQUARE rot ROTATION  (158 ways)``), the fields after it in capitals; a
    list of words, such as a set of cards, by how many it names and which words it may take."""
    total = sum(len(form.texts) for form in forms)
    if total <= limit:
        return [text for form in forms for text in form.texts]
    shown: list[str] = []
    for form in forms:
        if len(form.texts) <= 3:
            shown += form.texts
            continue
        shown += _folded(form)
    return shown


def _folded(form: Form) -> list[str]:
    varying = next(
        (index for index in range(len(form.fields)) if len({path[index] for path in form.paths}) > 1), None
    )
    if varying is None:
        return form.texts[:1]
    name = form.fields[varying]
    if name in form.lists:
        return _by_count(form, varying)
    groups: dict[tuple[str, ...], list[int]] = {}
    for at, path in enumerate(form.paths):
        groups.setdefault(path[: varying + 1], []).append(at)
    if all(len(members) == 1 for members in groups.values()):
        return form.texts  # one move for each value: the values are the moves (a bid's amounts)
    said = []
    for prefix, members in groups.items():
        if len(members) == 1:
            said.append(form.texts[members[0]])
            continue
        said.append(f"{_filled(form, prefix)}  ({len(members)} ways)")
    return said


def _by_count(form: Form, varying: int) -> list[str]:
    """A list field folded by how many words it names: ``play CARDS: 2 of red white green``."""
    groups: dict[tuple[tuple[str, ...], int], list[int]] = {}
    for at, path in enumerate(form.paths):
        groups.setdefault((path[:varying], len(path[varying].split())), []).append(at)
    said = []
    for (prefix, count), members in groups.items():
        if len(members) == 1:
            said.append(form.texts[members[0]])
            continue
        words = dict.fromkeys(word for at in members for word in form.paths[at][varying].split())
        head = _filled(form, prefix)
        said.append(f"{head}: {count} of {' '.join(words)}  ({len(members)} ways)")
    return said


def _filled(form: Form, values: Sequence[str]) -> str:
    """The form with its first fields filled with ``values``, the rest in capitals."""
    given = dict(zip(form.fields, values, strict=False))

    def fill(text: str) -> str:
        return _FIELD.sub(lambda found: given.get(found.group(1), found.group(1).upper()), text)

    pieces = []
    for index, text in enumerate(_OPTIONAL.split(form.form)):
        if index % 2 == 0 or any(name in given and given[name] for name in _FIELD.findall(text)):
            pieces.append(fill(text))
        elif not any(name in given for name in _FIELD.findall(text)):
            pieces.append(" [" + fill(text).strip() + "]" if text.strip() else "")
    filled = "".join(pieces)
    # a list field not given is written where its words go: ``CARDS`` stays one word
    return re.sub(r"\s+", " ", filled).strip()


def narrowed(moves: Sequence[str], prefix: Sequence[str]) -> list[str]:
    """The moves that begin with the words ``prefix`` (``build laboratory``)."""
    wanted = [word.lower() for word in prefix]
    return [text for text in moves if text.split()[: len(wanted)] == wanted]
