"""A game on a real table, on the page: the table log as ``pbem table show``, ``score`` and
``log`` give it, and its actions recorded as ``pbem table add``, ``income``, ``undo`` and ``redo``
record them (their own functions run, so the lock, the checks, the entry and the messages are
theirs). The page is made for a phone passed round the table: the next words of an action are
buttons, as the tracker's tab completion offers them, a keypad where the action goes on with a
number (a price, a minimum), and a text box takes any other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.web.pages import LOG_LINES, Done

if TYPE_CHECKING:
    from pbem.companion.log import Table

TABLE_ACTIONS = ("add", "income", "undo", "redo")  # what a POST may ask of the table commands
WORDS = 40  # an action's words the buttons follow; a longer text is no action of any grammar
DIGITS = "1234567890"  # the keypad's keys, in a phone's order


def listed(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The table logs the page serves, in the order given, each with its game when it reads."""
    from pbem.cli.table_commands import _read
    from pbem.errors import PbemError

    rows: list[dict[str, Any]] = []
    for number, path in enumerate(paths):
        row: dict[str, Any] = {"number": number, "name": path.name}
        try:
            table = _read(path)[1]
        except PbemError as exc:
            row["error"] = str(exc)
        else:
            row |= {
                "title": table.info.title,
                "players": table.header["players"],
                "actions": len(table.actions),
            }
        rows.append(row)
    return rows


def _sheet(reports: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "title": r.title,
            "columns": r.columns,
            "rows": [[str(c) for c in row] for row in r.rows],
            "notes": r.notes,
        }
        for r in reports
    ]


def table_page(path: Path, said_words: str) -> dict[str, Any]:
    """Everything a table's page shows: the table and the score as ``show`` and ``score`` print
    them, the log's last lines, whether income is due, and the words an action may go on with
    after ``said_words`` (the buttons)."""
    from pbem.cli.table_commands import _log_text, _read
    from pbem.errors import PbemError

    try:
        table = _read(path)[1]
    except PbemError as exc:
        return {"error": str(exc), "name": path.name}
    words = said_words.split()[:WORDS]
    lowered = [w.lower() for w in words]
    try:
        following = table.tracker.complete(table.state, lowered, "")
        keys = _keys(table, lowered)
    except Exception:  # as at the shell: a completion that fails offers nothing, the text box stays
        following, keys = [], []
    return {
        "name": path.name,
        "title": table.info.title,
        "edition": table.header["edition"],
        "players": table.header["players"],
        "show": _sheet(table.tracker.show(table.state)),
        "score": _sheet(table.tracker.score(table.state)),
        "log": [_log_text(action) for action in table.actions][-LOG_LINES:],
        "undone": len(table.undone),
        "income": table.tracker.income_action(table.state) is not None,
        "can_undo": bool(table.actions),
        "words": " ".join(words),
        "following": following,
        "keypad": keys,  # not "keys": in the template, page.keys is the dict's own method
    }


def _reads(table: Table, words: Sequence[str]) -> bool:
    """Whether ``words`` read as an action of the game, whether or not the table allows it now
    (the tracker's ``apply`` answers on a copy: the table is not changed)."""
    from pbem.errors import MoveSyntaxError, PbemError

    try:
        table.tracker.apply(table.state, " ".join(words))
    except MoveSyntaxError:
        return False
    except PbemError:
        return True  # a price too high, a minimum out of bounds: a number, refused for its value
    return True


def _number_next(table: Table, words: Sequence[str]) -> bool:
    """Whether the action goes on with a number after ``words``, where tab completion offers no
    word (it never offers numbers): ``words`` alone are no action, and with a number after them
    they read as one, or as the start of one that the tracker offers next words to."""
    if not words or table.tracker.complete(table.state, words, "") or _reads(table, words):
        return False
    return bool(table.tracker.complete(table.state, [*words, "1"], "")) or _reads(table, [*words, "1"])


def _keys(table: Table, words: list[str]) -> list[tuple[str, str]]:
    """The keypad where a number comes next, so a price or a minimum is tapped too, not typed:
    each key with the words it leads to. The first key of a number starts a word (a minus sign
    starts it too where the number may be negative); a key after a digit adds to that word."""
    if _number_next(table, words):
        signed = ["-"] if _reads(table, [*words, "-1"]) else []
        return [(key, " ".join([*words, key])) for key in [*DIGITS, *signed]]
    started = words[-1] if words else ""  # a number begun: a sign, or digits not led by a nought
    if re.fullmatch(r"-|-?[1-9][0-9]*", started) and _number_next(table, words[:-1]):
        return [(key, " ".join([*words[:-1], started + key])) for key in DIGITS]
    return []


def table_act(path: Path, action: str, text: str = "") -> Done:
    """Run ``pbem table add FILE TEXT`` (or ``income``, ``undo``, ``redo``) through the command's
    own function; a refusal says the command's own ``error:`` line and leaves the file as it was.
    What the tracker reports after an action is shown by the page's tables, drawn anew."""
    from pbem.cli import table_commands
    from pbem.cli.common import collected
    from pbem.errors import PbemError

    with collected() as said:
        try:
            if action == "add":
                # the words as the shell would pass them unquoted to ``pbem table add``
                words = " ".join(text.split())
                if not words:
                    return Done(False, ["error: no action: choose its words, or type it"])
                table_commands.record(path, words, None, None, None)
            elif action == "income":
                table_commands.record(path, table_commands.income_due(path), None, None, None)
            else:
                table_commands.step(path, "undone" if action == "undo" else "redone")
        except PbemError as exc:
            return Done(False, [*said, f"error: {exc}"])
    return Done(True, said)
