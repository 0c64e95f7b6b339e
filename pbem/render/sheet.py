"""Companion-mode reports as rich tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.companion.tracker import Report


def render(reports: Sequence[Report]) -> None:
    from pbem.render import console as new_console
    from pbem.render.grid import print_grid

    console = new_console()
    for report in reports:
        if not report.rows:
            console.print(f"[bold]{report.title}[/bold]: none yet")
        else:
            rows = [[str(cell) for cell in row] for row in report.rows]
            print_grid(console, report.columns, rows, title=report.title, turn=True)
        for note in report.notes:
            console.print(f"  {note}")
