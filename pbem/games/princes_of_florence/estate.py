"""A player's estate: the grid of squares, the palace in its corner, and the buildings and
landscapes laid on it (seed 001, "Строительство зданий").

Squares are named as on a chessboard: columns ``a``.. from left to right, rows ``1``.. from the
bottom (the side nearest the player); with the template's 7x7 grid, ``a1``..``g7``. A piece is laid
``at`` a square, turned ``rot`` 0, 90, 180 or 270 degrees clockwise and, if its tile has two sides,
``mirrored`` (turned over left to right, before it is turned): the lower-left corner of the piece's
outline, so turned, lies on that square. ``theatre at c3 rot 90`` is one placement.

Everything here is pure: an estate is a frozen value and ``place`` returns a new one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pbem.errors import IllegalMoveError, MoveSyntaxError

Square = tuple[int, int]  # (column, row), from 0; row 0 is the bottom row
Cells = frozenset[Square]

ROTATIONS = (0, 90, 180, 270)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
PALACE = "palace"
PLACEMENT_FORM = "PIECE at SQUARE [rot 0|90|180|270] [mirrored]"


def parse_square(text: str, columns: int = 7, rows: int = 7) -> Square:
    """``c3`` -> (2, 2); a square off the grid or not written as a letter and a number is refused."""
    word = text.strip().lower()
    last = LETTERS[columns - 1]
    if len(word) < 2 or word[0] not in LETTERS or not word[1:].isdigit() or word[1] == "0":
        raise MoveSyntaxError(f"{text!r} is not a square: a column a-{last} and a row 1-{rows}, as 'c3'")
    column, row = LETTERS.index(word[0]), int(word[1:]) - 1
    if column >= columns or row >= rows:
        raise MoveSyntaxError(f"{text!r} is off the estate: columns a-{last}, rows 1-{rows}")
    return column, row


def format_square(square: Square) -> str:
    column, row = square
    return f"{LETTERS[column]}{row + 1}"


def format_squares(squares: Iterable[Square]) -> str:
    """Squares in reading order, bottom row first: ``a1 b1 a2``."""
    return " ".join(format_square(square) for square in sorted(squares, key=lambda square: square[::-1]))


def cells_from_picture(picture: Sequence[str]) -> Cells:
    """A shape drawn row by row from the top, ``#`` a square of the piece: its squares from (0, 0)."""
    height = len(picture)
    return frozenset(
        (column, height - 1 - line)
        for line, text in enumerate(picture)
        for column, mark in enumerate(text)
        if mark == "#"
    )


def normalised(cells: Iterable[Square]) -> Cells:
    """The same shape moved so that its outline's lower-left corner is (0, 0)."""
    squares = list(cells)
    left = min(column for column, _ in squares)
    bottom = min(row for _, row in squares)
    return frozenset((column - left, row - bottom) for column, row in squares)


@functools.lru_cache(maxsize=1024)
def turned(cells: Cells, rotation: int, mirrored: bool = False) -> Cells:
    """The shape turned over left to right (if ``mirrored``), then ``rotation`` degrees clockwise.
    Found once per shape and turn: every piece laid or checked turns its shape."""
    squares: Iterable[Square] = cells
    if mirrored:
        squares = [(-column, row) for column, row in squares]
    for _ in range(ROTATIONS.index(rotation)):
        # A quarter turn clockwise with rows counted upwards: right becomes down, up becomes right.
        squares = [(row, -column) for column, row in squares]
    return normalised(squares)


def connected(cells: Cells) -> bool:
    """Whether the squares form one piece, joined along sides (a polyomino)."""
    if not cells:
        return False
    start = min(cells)
    seen = {start}
    frontier = [start]
    while frontier:
        for near in _sides(frontier.pop()):
            if near in cells and near not in seen:
                seen.add(near)
                frontier.append(near)
    return seen == set(cells)


def _sides(square: Square) -> tuple[Square, ...]:
    column, row = square
    return ((column + 1, row), (column - 1, row), (column, row + 1), (column, row - 1))


@dataclass(frozen=True)
class Placement:
    """Where a piece is laid: the square under its outline's lower-left corner, the turn, the side."""

    piece: str
    at: Square
    rotation: int = 0
    mirrored: bool = False


def parse_placement(text: str, columns: int = 7, rows: int = 7) -> Placement:
    """``theatre at c3 rot 90 [mirrored]``; ``rot`` may be left out for 0."""
    words = text.lower().split()
    if len(words) < 3 or words[1] != "at":
        raise MoveSyntaxError(f"{text!r}: a placement reads {PLACEMENT_FORM!r}")
    at = parse_square(words[2], columns, rows)
    rest = words[3:]
    rotation = 0
    if rest[:1] == ["rot"]:
        if len(rest) < 2 or not rest[1].isdigit() or int(rest[1]) not in ROTATIONS:
            raise MoveSyntaxError(f"{text!r}: rot is 0, 90, 180 or 270 (degrees clockwise)")
        rotation, rest = int(rest[1]), rest[2:]
    mirrored = rest == ["mirrored"]
    if rest and not mirrored:
        raise MoveSyntaxError(f"{text!r}: a placement reads {PLACEMENT_FORM!r}")
    return Placement(words[0], at, rotation, mirrored)


def format_placement(placement: Placement) -> str:
    text = f"{placement.piece} at {format_square(placement.at)} rot {placement.rotation}"
    return text + (" mirrored" if placement.mirrored else "")


class Piece(Protocol):
    """A building or landscape tile as the template gives it."""

    @property
    def id(self) -> str: ...

    @property
    def cells(self) -> Cells: ...

    @property
    def two_sided(self) -> bool: ...

    @property
    def is_building(self) -> bool: ...


@dataclass(frozen=True)
class Placed:
    """A piece on the estate and the squares it covers."""

    piece: str
    building: bool
    squares: Cells
    placement: Placement | None  # None for the palace, which is printed on the board


@dataclass(frozen=True)
class Estate:
    columns: int
    rows: int
    placed: tuple[Placed, ...]

    @classmethod
    def start(cls, columns: int, rows: int, palace: Cells) -> Estate:
        """An estate with nothing on it but the palace."""
        return cls(columns, rows, (Placed(PALACE, True, palace, None),))

    def holder(self, square: Square) -> str | None:
        return next((item.piece for item in self.placed if square in item.squares), None)

    @property
    def empty(self) -> int:
        """The squares nothing covers (the "fewest empty squares" prestige card counts these)."""
        return self.columns * self.rows - sum(len(item.squares) for item in self.placed)

    @property
    def buildings(self) -> tuple[str, ...]:
        """The buildings built, in the order built; the palace is no building in the cards' texts."""
        return tuple(item.piece for item in self.placed if item.building and item.placement is not None)

    @property
    def landscapes(self) -> tuple[str, ...]:
        return tuple(item.piece for item in self.placed if not item.building)

    def picture(self) -> str:
        """The grid as text, top row first: each square the first letter of what covers it, or ``.``;
        the palace is ``P``."""
        lines = []
        for row in reversed(range(self.rows)):
            marks = []
            for column in range(self.columns):
                piece = self.holder((column, row))
                marks.append("." if piece is None else "P" if piece == PALACE else piece[0])
            lines.append(f"{row + 1} {''.join(marks)}")
        return "\n".join([*lines, "  " + LETTERS[: self.columns]])


def squares_of(piece: Piece, placement: Placement) -> Cells:
    """The squares a piece covers once laid, on the grid or off it."""
    left, bottom = placement.at
    shape = turned(piece.cells, placement.rotation, placement.mirrored)
    return frozenset((left + column, bottom + row) for column, row in shape)


def place(
    estate: Estate, piece: Piece, placement: Placement, *, builders: int, touching_from: int = 2
) -> Estate:
    """The estate with ``piece`` laid as ``placement`` says, or IllegalMoveError naming the rule.

    ``builders`` is how many builders the player has; from ``touching_from`` of them (the second,
    in the rules text) buildings may touch along a side.
    """
    said = format_placement(placement)
    if placement.piece != piece.id:
        raise IllegalMoveError(f"{said!r}: the tile given is the {piece.id}, not the {placement.piece}")
    if placement.rotation not in ROTATIONS:
        raise IllegalMoveError(f"{said!r}: a piece is turned 0, 90, 180 or 270 degrees")
    # "Если маркер здания имеет две стороны, то его можно расположить любой стороной": a tile
    # printed on one side only cannot be turned over, so its mirror image cannot be laid.
    if placement.mirrored and not piece.two_sided:
        raise IllegalMoveError(
            f"{said!r}: the {piece.id} tile has one side, so it cannot be laid mirrored (turn it instead)"
        )
    squares = squares_of(piece, placement)
    # "Нельзя, что бы здание или ландшафт выходили за пределы сетки."
    outside = [
        square for square in squares if not (0 <= square[0] < estate.columns and 0 <= square[1] < estate.rows)
    ]
    if outside:
        raise _refused(said, f"the {piece.id} would reach off the estate ({_named(outside)})")
    # "Игрок не может располагать здания или ландшафт внахлест так, что бы они перекрывали друг
    # друга полностью или частично."
    for item in estate.placed:
        covered = squares & item.squares
        if covered:
            raise _refused(said, f"the {piece.id} would cover {_named(covered)}, where the {item.piece} is")
    if piece.is_building:
        # "Игрок может построить в своем поместье только одно здание одного типа."
        if piece.id in estate.buildings:
            raise _refused(said, f"the estate has a {piece.id} already: one building of each type")
        # "Игрок не может располагать здания вплотную к другим зданиям. Здания могут касаться друг
        # друга только углами. Это правило так же применимо и к дворцу. Данное правило отменяется
        # для игрока, как только он приобрел для своего поместья второго строителя." Landscapes
        # are free of it: "Игрок может строить здания вплотную к ландшафту."
        if builders < touching_from:
            for item in estate.placed:
                if not item.building:
                    continue
                near = beside(item.squares)
                touching = [square for square in squares if square in near]
                if touching:
                    raise _refused(
                        said,
                        f"the {piece.id} would touch the {item.piece} along a side at {_named(touching)}; "
                        f"buildings touch only at corners until the second builder",
                    )
    laid = Placed(piece.id, piece.is_building, squares, placement)
    return Estate(estate.columns, estate.rows, (*estate.placed, laid))


@functools.lru_cache(maxsize=1024)
def beside(squares: Cells) -> Cells:
    """The squares along a side of one of ``squares``: a piece touches them there."""
    return frozenset(near for square in squares for near in _sides(square))


def _named(squares: Iterable[Square]) -> str:
    """Squares as the player writes them; a square off the grid by its coordinates."""
    named = []
    for column, row in sorted(squares, key=lambda square: square[::-1]):
        if 0 <= column < len(LETTERS) and row >= 0:
            named.append(format_square((column, row)))
        else:
            named.append(f"column {column + 1} row {row + 1}")
    return " ".join(named)


def _refused(said: str, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"{said!r}: {reason}")
