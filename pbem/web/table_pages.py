"""A game on a real table, on the page: the table log as ``pbem table show``, ``score`` and
``log`` give it, and its actions recorded as ``pbem table add``, ``income``, ``undo`` and ``redo``
record them (their own functions run, so the lock, the checks, the entry and the messages are
theirs). The page is made for a phone passed round the table: the next words of an action are
buttons, as the tracker's tab completion offers them, and a text box takes any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.web.pages import LOG_LINES, Done

TABLE_ACTIONS = ("add", "income", "undo", "redo")  # what a POST may ask of the table commands
WORDS = 40  # an action's words the buttons follow; a longer text is no action of any grammar


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
    try:
        following = table.tracker.complete(table.state, [w.lower() for w in words], "")
    except Exception:  # as at the shell: a completion that fails offers nothing, the text box stays
        following = []
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
    }


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
