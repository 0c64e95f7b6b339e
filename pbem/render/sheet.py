"""Companion-mode reports as rich tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.companion.tracker import Report

Grid = list[list[str]]


def render(reports: Sequence[Report]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for report in reports:
        if not report.rows:
            console.print(f"[bold]{report.title}[/bold]: none yet")
        else:
            header, *body = _fitted(report, console.width)
            table = Table(*header, title=report.title, title_justify="left")
            for row in body:
                table.add_row(*row)
            console.print(table)
        for note in report.notes:
            console.print(f"  {note}")


def _fitted(report: Report, width: int) -> Grid:
    """The report's grid, turned on its side when it is too wide for the terminal and the turned
    grid is narrower: a score sheet with many categories then reads down, one player a column."""
    grid = [list(report.columns), *[[str(cell) for cell in row] for row in report.rows]]
    if _width(grid) <= width:
        return grid
    turned = [list(column) for column in zip(*grid, strict=True)]
    return turned if _width(turned) < _width(grid) else grid


def _width(grid: Grid) -> int:
    """What rich needs for the grid without wrapping: each column's widest cell plus its padding
    and border."""
    return sum(max(len(row[index]) for row in grid) + 3 for index in range(len(grid[0]))) + 1
