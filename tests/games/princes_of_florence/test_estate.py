"""A Princes of Florence estate: squares, placements and the rules of "Строительство зданий".

Rules text: /work/shared/seeds/001, "Строительство зданий": pieces lie along the grid lines
("как угодно ориентированным по линиям сетки"), never off the grid or over one another, a two-sided
building tile either side up; buildings touch other buildings and the palace only at corners until
the second builder; buildings may touch landscapes; one building of each type.

The pieces are drawn here rather than taken from the template, whose shapes are pbem's reference
set and may be replaced: the rules must hold whatever the shapes are.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_florence.components import Building, Landscape, load
from pbem.games.princes_of_florence.estate import (
    Cells,
    Estate,
    Placement,
    cells_from_picture,
    format_placement,
    format_square,
    format_squares,
    parse_placement,
    parse_square,
    place,
    squares_of,
    turned,
)

COMPONENTS = load()


@dataclass(frozen=True)
class Tile:
    id: str
    cells: Cells
    two_sided: bool
    is_building: bool


def tile(name: str, *picture: str, building: bool = True, two_sided: bool = True) -> Tile:
    return Tile(name, cells_from_picture(picture), two_sided, building)


# An L of four squares: its four turns and its mirror image are all different.
LAB = tile("laboratory", "###", "#..")
TOWER = tile("tower", "###")
THEATRE = tile("theatre", "####")
CHAPEL = tile("chapel", "#", "#")
FOREST = tile("forest", "##", "##", building=False, two_sided=False)
PARK = tile("park", "##", building=False, two_sided=False)


def new_estate() -> Estate:
    layout = COMPONENTS.estate
    return Estate.start(layout.columns, layout.rows, layout.palace)


def laid(estate: Estate, piece: Tile, text: str, builders: int = 0) -> Estate:
    return place(estate, piece, parse_placement(text), builders=builders)


def refused(estate: Estate, piece: Tile, text: str, builders: int = 0) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        laid(estate, piece, text, builders)
    message = str(caught.value)
    assert "\n" not in message
    return message


def picture(*rows: str) -> str:
    """The expected grid, top row (7) first, as ``Estate.picture`` draws it."""
    return "\n".join([*(f"{7 - number} {row}" for number, row in enumerate(rows)), "  abcdefg"])


# --- squares and placements ----------------------------------------------------------------------


def test_squares_are_named_by_column_letter_and_row_number_from_the_bottom_left() -> None:
    assert parse_square("a1") == (0, 0)
    assert parse_square("c3") == (2, 2)
    assert parse_square("G7") == (6, 6)
    assert format_square((2, 2)) == "c3"
    assert format_squares([(1, 1), (0, 0), (1, 0)]) == "a1 b1 b2"
    assert [format_square(parse_square(name)) for name in ("a1", "d4", "g7")] == ["a1", "d4", "g7"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h1", "'h1' is off the estate: columns a-g, rows 1-7"),
        ("a8", "'a8' is off the estate: columns a-g, rows 1-7"),
        ("a0", "'a0' is not a square: a column a-g and a row 1-7, as 'c3'"),
        ("c", "'c' is not a square: a column a-g and a row 1-7, as 'c3'"),
        ("3c", "'3c' is not a square: a column a-g and a row 1-7, as 'c3'"),
    ],
)
def test_a_square_off_the_grid_or_misspelt_is_refused(text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_square(text)
    assert str(caught.value) == message


def test_a_placement_reads_piece_square_turn_and_side() -> None:
    assert parse_placement("theatre at c3 rot 90") == Placement("theatre", (2, 2), 90, False)
    assert parse_placement("tower at a4") == Placement("tower", (0, 3), 0, False)
    assert parse_placement("opera at b5 rot 270 mirrored") == Placement("opera", (1, 4), 270, True)
    assert format_placement(Placement("opera", (1, 4), 270, True)) == "opera at b5 rot 270 mirrored"
    assert format_placement(parse_placement("tower at a4")) == "tower at a4 rot 0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("theatre c3", "'theatre c3': a placement reads 'PIECE at SQUARE [rot 0|90|180|270] [mirrored]'"),
        ("theatre at c3 rot 45", "'theatre at c3 rot 45': rot is 0, 90, 180 or 270 (degrees clockwise)"),
        ("theatre at c3 rot", "'theatre at c3 rot': rot is 0, 90, 180 or 270 (degrees clockwise)"),
        (
            "theatre at c3 flipped",
            "'theatre at c3 flipped': a placement reads 'PIECE at SQUARE [rot 0|90|180|270] [mirrored]'",
        ),
        ("theatre at k3", "'k3' is off the estate: columns a-g, rows 1-7"),
    ],
)
def test_a_misspelt_placement_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_placement(text)
    assert str(caught.value) == message


# --- the grid, the palace, the empty squares --------------------------------------------------------


def test_the_estate_starts_with_the_palace_in_the_lower_left_corner() -> None:
    estate = new_estate()
    assert format_squares(estate.placed[0].squares) == "a1 b1 c1 a2 b2 c2"
    assert estate.holder((0, 0)) == "palace" and estate.holder((3, 0)) is None
    # 7 x 7 = 49 squares, 6 under the palace
    assert estate.empty == 43
    assert estate.buildings == () and estate.landscapes == ()


def test_the_empty_squares_are_counted_from_the_grid() -> None:
    estate = laid(new_estate(), FOREST, "forest at a3")  # a3 b3 a4 b4
    estate = laid(estate, TOWER, "tower at e1")  # e1 f1 g1, clear of the palace
    assert estate.empty == 43 - 4 - 3
    estate = laid(estate, PARK, "park at f6 rot 90")  # f6 f7
    assert estate.empty == 43 - 4 - 3 - 2
    assert estate.buildings == ("tower",) and estate.landscapes == ("forest", "park")
    assert estate.picture() == picture(
        ".....p.",
        ".....p.",
        ".......",
        "ff.....",
        "ff.....",
        "PPP....",
        "PPP.ttt",
    )


# --- rotations and mirror images ---------------------------------------------------------------------


def test_a_piece_turns_clockwise_in_quarter_turns_and_a_full_turn_brings_it_back() -> None:
    # ###        ##       ..#      #.
    # #..  90->  .#  180-> ###  270-> #.
    #            .#                ##
    assert turned(LAB.cells, 90) == cells_from_picture(["##", ".#", ".#"])
    assert turned(LAB.cells, 180) == cells_from_picture(["..#", "###"])
    assert turned(LAB.cells, 270) == cells_from_picture(["#.", "#.", "##"])
    assert turned(turned(turned(turned(LAB.cells, 90), 90), 90), 90) == LAB.cells
    assert turned(LAB.cells, 0, mirrored=True) == cells_from_picture(["###", "..#"])
    assert len({turned(LAB.cells, turn, side) for turn in (0, 90, 180, 270) for side in (False, True)}) == 8


def test_a_turned_piece_lies_with_its_outline_lower_left_corner_on_the_square() -> None:
    assert format_squares(squares_of(THEATRE, parse_placement("theatre at c3"))) == "c3 d3 e3 f3"
    assert format_squares(squares_of(THEATRE, parse_placement("theatre at c3 rot 90"))) == "c3 c4 c5 c6"
    assert format_squares(squares_of(LAB, parse_placement("laboratory at d3 rot 90"))) == "e3 e4 d5 e5"
    estate = laid(new_estate(), LAB, "laboratory at d4 rot 180")
    assert estate.picture() == picture(
        ".......",
        ".......",
        ".....l.",
        "...lll.",
        ".......",
        "PPP....",
        "PPP....",
    )


def test_a_two_sided_building_may_lie_mirrored_a_one_sided_tile_may_not() -> None:
    # "Если маркер здания имеет две стороны, то его можно расположить любой стороной."
    estate = laid(new_estate(), LAB, "laboratory at d4 mirrored")
    assert format_squares(estate.placed[-1].squares) == "f4 d5 e5 f5"
    one_sided = tile("laboratory", "###", "#..", two_sided=False)
    assert refused(new_estate(), one_sided, "laboratory at d4 mirrored") == (
        "'laboratory at d4 rot 0 mirrored': the laboratory tile has one side, so it cannot be laid "
        "mirrored (turn it instead)"
    )
    assert refused(new_estate(), FOREST, "forest at d4 rot 90 mirrored").startswith(
        "'forest at d4 rot 90 mirrored': the forest tile has one side"
    )


# --- the placement rules --------------------------------------------------------------------------------


def test_no_piece_may_reach_off_the_grid() -> None:
    # "Нельзя, что бы здание или ландшафт выходили за пределы сетки."
    assert refused(new_estate(), THEATRE, "theatre at e5") == (
        "'theatre at e5 rot 0': the theatre would reach off the estate (h5)"
    )
    assert refused(new_estate(), THEATRE, "theatre at g5 rot 90") == (
        "'theatre at g5 rot 90': the theatre would reach off the estate (g8)"
    )
    assert refused(new_estate(), FOREST, "forest at g7") == (
        "'forest at g7 rot 0': the forest would reach off the estate (h7 g8 h8)"
    )


def test_no_piece_may_cover_another_or_the_palace() -> None:
    # "Игрок не может располагать здания или ландшафт внахлест"
    assert refused(new_estate(), FOREST, "forest at b2") == (
        "'forest at b2 rot 0': the forest would cover b2 c2, where the palace is"
    )
    estate = laid(new_estate(), FOREST, "forest at d4")
    assert (
        refused(estate, PARK, "park at c5")
        == "'park at c5 rot 0': the park would cover d5, where the forest is"
    )
    assert refused(estate, TOWER, "tower at e2 rot 90", builders=2) == (
        "'tower at e2 rot 90': the tower would cover e4, where the forest is"
    )


def test_buildings_touch_other_buildings_and_the_palace_only_at_corners_until_the_second_builder() -> None:
    # "Здания могут касаться друг друга только углами. Это правило так же применимо и к дворцу.
    # Данное правило отменяется для игрока, как только он приобрел ... второго строителя."
    start = new_estate()
    assert refused(start, TOWER, "tower at d1") == (
        "'tower at d1 rot 0': the tower would touch the palace along a side at d1; "
        "buildings touch only at corners until the second builder"
    )
    assert refused(start, TOWER, "tower at d1", builders=1).startswith(
        "'tower at d1 rot 0': the tower would touch"
    )
    with_two = laid(start, TOWER, "tower at d1", builders=2)
    assert with_two.buildings == ("tower",)
    # corner to corner is allowed: d3 meets the palace's c2 at a corner only
    estate = laid(start, THEATRE, "theatre at d3")
    assert refused(estate, CHAPEL, "chapel at d4") == (
        "'chapel at d4 rot 0': the chapel would touch the theatre along a side at d4; "
        "buildings touch only at corners until the second builder"
    )
    assert laid(estate, CHAPEL, "chapel at c4").buildings == ("theatre", "chapel")
    assert laid(estate, CHAPEL, "chapel at d4", builders=3).buildings == ("theatre", "chapel")


def test_landscapes_may_touch_anything_and_buildings_may_touch_landscapes() -> None:
    # "Лес может быть расположен вплотную к зданиям и другим типам ландшафта";
    # "Игрок может строить здания вплотную к ландшафту."
    estate = laid(new_estate(), PARK, "park at d1")  # beside the palace's c1
    estate = laid(estate, FOREST, "forest at d2")  # on the park
    estate = laid(estate, TOWER, "tower at d4")  # on the forest
    assert estate.landscapes == ("park", "forest") and estate.buildings == ("tower",)
    assert estate.empty == 43 - 2 - 4 - 3


def test_an_estate_has_one_building_of_each_type() -> None:
    # "Игрок может построить в своем поместье только одно здание одного типа."
    estate = laid(new_estate(), TOWER, "tower at e1", builders=3)
    assert refused(estate, TOWER, "tower at a7", builders=3) == (
        "'tower at a7 rot 0': the estate has a tower already: one building of each type"
    )
    # landscapes are not limited: "любое количество одинаковых объектов"
    estate = laid(laid(estate, PARK, "park at a7"), PARK, "park at c7")
    assert estate.landscapes == ("park", "park")


def test_the_tile_must_be_the_piece_the_placement_names() -> None:
    assert refused(new_estate(), TOWER, "theatre at e5") == (
        "'theatre at e5 rot 0': the tile given is the tower, not the theatre"
    )


def test_a_refused_placement_leaves_the_estate_as_it_was() -> None:
    estate = laid(new_estate(), FOREST, "forest at d4")
    before = estate.picture()
    refused(estate, PARK, "park at c5")
    assert estate.picture() == before and estate.empty == 39


def test_every_template_piece_can_be_laid_on_an_empty_estate_in_every_turn() -> None:
    pieces: list[Building | Landscape] = [*COMPONENTS.buildings.values(), *COMPONENTS.landscapes.values()]
    for piece in pieces:
        for turn in (0, 90, 180, 270):
            estate = place(new_estate(), piece, Placement(piece.id, (3, 3), turn), builders=0)
            assert estate.empty == 43 - len(piece.cells)
