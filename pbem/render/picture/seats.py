"""How a seat looks in every picture: a colour, a pattern and a letter, never colour alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.render.picture import svg
from pbem.render.picture.svg import Element

# Okabe and Ito's palette, which people with the common colour-vision deficiencies tell apart;
# yellow is left out, too pale on white. Each colour comes with the text colour readable on it.
PALETTE = (
    ("#E69F00", "#000000"),
    ("#56B4E9", "#000000"),
    ("#009E73", "#000000"),
    ("#CC79A7", "#000000"),
    ("#0072B2", "#FFFFFF"),
    ("#D55E00", "#000000"),
)
# A pattern per seat as well as a colour and a letter: the picture still tells seats apart
# printed in black and white, or seen by someone to whom two of the colours look alike.
PATTERNS = ("stripes", "dots", "bars", "checks", "columns", "slants")
LETTERS = "ABCDEFGHIJKL"


def seat_styles(seats: Sequence[str]) -> dict[str, tuple[str, str, str]]:
    """Each seat's colour, text colour and letter, by roster order: the same in every picture
    of a game, whoever's picture it is."""
    return {
        name: (
            PALETTE[index % len(PALETTE)][0],
            PALETTE[index % len(PALETTE)][1],
            LETTERS[index % len(LETTERS)],
        )
        for index, name in enumerate(seats)
    }


def patterns(count: int) -> list[Element]:
    """One fill pattern per seat, ``url(#seat-N)``, its colour under dark marks."""
    made = []
    ink: dict[str, svg.Value] = {"stroke": "#000000", "stroke_opacity": 0.55, "stroke_width": 1.2}
    for index in range(count):
        colour = PALETTE[index % len(PALETTE)][0]
        pattern = svg.element("pattern", id=f"seat-{index}", width=6, height=6, patternUnits="userSpaceOnUse")
        pattern.add(svg.rect(0, 0, 6, 6, fill=colour))
        kind = PATTERNS[index % len(PATTERNS)]
        if kind == "stripes":
            pattern.add(svg.line(0, 6, 6, 0, **ink))
        elif kind == "dots":
            pattern.add(svg.circle(3, 3, 1.3, fill="#000000", fill_opacity=0.55))
        elif kind == "bars":
            pattern.add(svg.line(0, 3, 6, 3, **ink))
        elif kind == "checks":
            pattern.add(svg.rect(0, 0, 3, 3, fill="#000000", fill_opacity=0.35))
            pattern.add(svg.rect(3, 3, 3, 3, fill="#000000", fill_opacity=0.35))
        elif kind == "columns":
            pattern.add(svg.line(3, 0, 3, 6, **ink))
        else:
            pattern.add(svg.line(0, 0, 6, 6, **ink))
        made.append(pattern)
    return made


def roster(players: Mapping[str, object] | Sequence[Mapping[str, Any]]) -> list[str]:
    """The seats of a view's ``players``, in roster order: a view keys them by seat or lists
    them as records, each with its ``seat``."""
    if isinstance(players, Mapping):
        return list(players)
    return [str(player["seat"]) for player in players]
