"""Companion-mode reports as rich tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.companion.tracker import Report


def render(reports: Sequence[Report]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for report in reports:
        table = Table(*report.columns, title=report.title, title_justify="left")
        for row in report.rows:
            table.add_row(*(str(cell) for cell in row))
        if report.rows:
            console.print(table)
        else:
            console.print(f"[bold]{report.title}[/bold]: none yet")
        for note in report.notes:
            console.print(f"  {note}")
