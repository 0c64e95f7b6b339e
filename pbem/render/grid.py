"""Grids of text printed to fit the terminal without cutting a word.

A rich table squeezed into a narrow terminal shortens its cells with an ellipsis, and a player
cannot type a tile id it shows as ``venice-mercha…``. A grid too wide for the terminal is turned
on its side where that helps (one row a column), and otherwise printed as blocks, a row each,
one ``column: value`` line per cell, wrapped at spaces only.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

Grid = list[list[str]]


def print_grid(
    console: Any, header: Sequence[str], rows: Sequence[Sequence[str]], *, title: str = "", turn: bool = False
) -> None:
    """Print a table of ``header`` and ``rows``; with ``turn``, a table too wide may be printed
    turned on its side (as a score sheet reads down, one player a column)."""
    from rich.table import Table

    width = console.width
    grid: Grid = [list(header), *[list(row) for row in rows]]
    if turn and natural(grid) > width:
        turned = [list(column) for column in zip(*grid, strict=True)]
        if natural(turned) < natural(grid):
            grid = turned
    if least(grid) <= width:
        table = Table(title=title or None, title_justify="left")
        for name, column_width in zip(grid[0], _column_widths(grid, width), strict=True):
            table.add_column(name, width=column_width)
        for row in grid[1:]:
            table.add_row(*row)
        console.print(table)
        return
    if title:
        console.print(f"[bold]{title}[/bold]")
    names = grid[0]
    label = max(len(name) for name in names[1:]) if len(names) > 1 else 0
    for row in grid[1:]:
        console.print(row[0], markup=False, highlight=False, soft_wrap=True)
        for name, cell in zip(names[1:], row[1:], strict=True):
            lead = f"  {name + ':':<{label + 1}} "
            lines = textwrap.wrap(
                cell or "-",
                width=max(width, len(lead) + 20),
                initial_indent=lead,
                subsequent_indent=" " * len(lead),
                break_long_words=False,
                break_on_hyphens=False,
            )
            for line in lines:
                console.print(line, markup=False, highlight=False, soft_wrap=True)


def natural(grid: Grid) -> int:
    """The grid's width with no cell wrapped: each column's widest cell plus padding and border."""
    return _width(grid, len)


def least(grid: Grid) -> int:
    """The narrowest the grid can be printed with cells wrapped at spaces and no word cut."""
    return _width(grid, _longest_word)


def _longest_word(cell: str) -> int:
    return max((len(word) for word in cell.split()), default=0)


def _column_widths(grid: Grid, width: int) -> list[int]:
    """Each column's width: its widest cell where the grid fits, else the widest columns narrowed
    first, none below its longest word, so cells wrap at spaces and no word is cut. (Left to
    itself, rich narrows every column alike and shortens words with an ellipsis.)"""
    columns = range(len(grid[0]))
    widths = [max(len(row[index]) for row in grid) for index in columns]
    floors = [max(_longest_word(row[index]) for row in grid) for index in columns]
    excess = sum(widths) + 3 * len(widths) + 1 - width
    while excess > 0:
        narrowable = [index for index in columns if widths[index] > floors[index]]
        if not narrowable:
            break
        widest = max(narrowable, key=lambda index: widths[index])
        widths[widest] -= 1
        excess -= 1
    return widths


def _width(grid: Grid, measure: Callable[[str], int]) -> int:
    return sum(max(measure(row[index]) for row in grid) + 3 for index in range(len(grid[0]))) + 1
