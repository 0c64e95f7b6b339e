"""Any game's view as text, from its shape alone: the values one per line, a list of records
(the players) as one table, text of several lines (a board drawn in characters) as it is. A game
without a renderer of its own is shown this way, never refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine.json_shape import words
from pbem.render.grid import print_grid


def render(title: str, view: Mapping[str, Any], private: Mapping[str, str]) -> None:
    from pbem.render import console as new_console

    console = new_console()
    console.print(f"[bold]{title}[/bold] — {view.get('phase', '')}", highlight=False)
    blocks: list[tuple[str, str]] = []
    for key, value in view.items():
        if key in ("phase", "score", "score_final", "sealed") or value in (None, [], {}, ""):
            continue
        if isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value):
            _records(console, key, value, blocks)
        elif isinstance(value, str) and "\n" in value:
            blocks.append((key, value))
        else:
            console.print(f"{words(key)}: {_text(value)}", markup=False, highlight=False)
    for line in sealed_lines(view):
        console.print(line, markup=False, highlight=False)
    for step, value in private.items():
        console.print(f"[bold]your sealed {step}:[/bold] {value} (only you can see this)")
    for name, block in blocks:
        console.print(words(name), markup=False, highlight=False)
        console.print(block, markup=False, highlight=False)
    scores = view.get("score")
    if isinstance(scores, Mapping) and scores:
        categories = list(next(iter(scores.values())))
        rows = [[seat, *(str(row.get(name, "")) for name in categories)] for seat, row in scores.items()]
        title = "final score" if view.get("score_final") else "score"
        print_grid(console, ("seat", *map(words, categories)), rows, title=title, turn=True)


def sealed_lines(view: Mapping[str, Any]) -> list[str]:
    """Who has sealed each step's choice and who has still to, as ``pbem show`` says it."""
    lines = []
    for step in view.get("sealed", []):
        done = f"sealed by {', '.join(step['sealed'])}" if step["sealed"] else "nobody has sealed yet"
        still = f"; still to seal: {', '.join(step['to_seal'])}" if step["to_seal"] else ""
        lines.append(f"{step['step']}: {done}{still} (values hidden until revealed)")
    return lines


def _records(
    console: Any, title: str, records: Sequence[Mapping[str, Any]], blocks: list[tuple[str, str]]
) -> None:
    """One table, a record a row; a value of several lines goes below it, named by the record."""
    columns = [key for key in records[0] if not _is_block(records[0][key])]
    name = columns[0] if columns else ""
    rows = [[_text(record.get(column)) for column in columns] for record in records]
    print_grid(console, [words(column) for column in columns], rows, title=words(title), turn=True)
    for record in records:
        for key, value in record.items():
            if _is_block(value):
                blocks.append((f"{record.get(name, '')} {words(key)}".strip(), str(value)))


def _is_block(value: object) -> bool:
    return isinstance(value, str) and "\n" in value


def _text(value: object) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{words(str(key))} {_text(item)}" for key, item in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(_text(item) for item in value) or "-"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
