"""What every game's picture is drawn with: the page width, the type styles, a seat's token, lines
of text that wrap, section headings, a seat's heading bar, the score table and the legend.

Each game's drawing (the picture its declaration names) subclasses ``Canvas`` and adds its own
board, so a seat looks the same, and a score reads the same, in the pictures of every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine.json_shape import words
from pbem.render.picture import svg
from pbem.render.picture.seats import patterns, seat_styles
from pbem.render.picture.svg import Element

WIDTH = 640
MARGIN = 12
INNER = WIDTH - 2 * MARGIN
LINE = 16
FONT = 12
SMALL = 10

STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;font-size:12px;fill:#1a1a1a}"
    ".bold{font-weight:bold}.small{font-size:10px}.big{font-size:16px;font-weight:bold}"
    ".name{font-size:14px;font-weight:bold}.muted{fill:#555555}"
    ".on{fill:#FFFFFF}.war{fill:#B00000}.secret{fill:#5A1A70}"
    ".letter{font-weight:bold;font-size:12px;stroke:#FFFFFF;stroke-width:3px;paint-order:stroke}"
)


def wrap(text: str, width: float, size: float = FONT, *, hyphenate: bool = False) -> list[str]:
    """Lines of ``text`` that fit ``width`` at an average glyph width: SVG text does not wrap.
    With ``hyphenate`` (a narrow column's heading), a word longer than a line is broken; one
    letter over is let be, since the average glyph width errs wide and a break costs a line."""
    fits = max(4 if hyphenate else 8, int(width / (size * 0.6)))
    words: list[str] = []
    for whole in text.split(" "):
        rest = whole
        while hyphenate and len(rest) > fits + 1:
            words.append(rest[: fits - 1] + "-")
            rest = rest[fits - 1 :]
        words.append(rest)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > fits:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return lines


# The average glyph width, as a share of the type size: ``wrap``'s for regular type, wider for bold
# (DejaVu Sans Bold runs about a tenth wider).
GLYPH, BOLD_GLYPH = 0.6, 0.68


@dataclass(frozen=True)
class Box:
    """A rectangle of the picture: what a label or a token covers."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def union(self, other: Box) -> Box:
        return Box(
            min(self.left, other.left),
            min(self.top, other.top),
            max(self.right, other.right),
            max(self.bottom, other.bottom),
        )

    def inside(self, frame: Box) -> bool:
        return (
            frame.left <= self.left
            and self.right <= frame.right
            and frame.top <= self.top
            and self.bottom <= frame.bottom
        )


def text_box(
    x: float, y: float, text: str, size: float = FONT, *, anchor: str = "start", bold: bool = False
) -> Box:
    """What a line of text drawn at ``x, y`` (its baseline) covers, at an average glyph width:
    from the ascender's top to the descender's foot."""
    width = len(text) * size * (BOLD_GLYPH if bold else GLYPH)
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    return Box(left, y - size * 0.8, left + width, y + size * 0.25)


def names(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"


def listed(label: str, items: Sequence[str] | None) -> list[str]:
    """``label: a, b`` as a line of its own, or no line when there is nothing to list."""
    return [f"{label}: {', '.join(items)}"] if items else []


def whose(seat: str | None) -> str:
    """The line under a picture's title that says whose picture it is."""
    if seat:
        return f"as {seat} sees it: {seat}'s hidden cards and sealed values are shown"
    return "the public view: no player's hidden cards"


class Canvas:
    """The parts of a picture, drawn top to bottom: ``y`` is how far down the page has come."""

    def __init__(self, seats: Sequence[str]) -> None:
        self.styles = seat_styles(seats)
        self.index = {name: index for index, name in enumerate(seats)}
        self.parts: list[Element] = []
        self.y: float = MARGIN

    def document(self, caption: str, definitions: Element | None = None) -> str:
        """The SVG document of everything drawn; ``caption`` is its title (a tooltip, and the
        name a screen reader gives it)."""
        height = self.y + MARGIN
        if definitions is None:
            definitions = svg.element("defs")
        definitions.children[:0] = patterns(len(self.styles))
        root = svg.svg(
            WIDTH,
            height,
            svg.element("title", caption),
            svg.element("style", STYLE),
            definitions,
            svg.rect(0, 0, WIDTH, height, fill="#FFFFFF"),
            role="img",
        )
        root.extend(self.parts)
        return svg.document(root)

    def marker(self, seat: str, x: float, y: float, size: float = 18) -> Element:
        """A seat's token: its pattern in its colour, and its letter on top."""
        if seat not in self.styles:
            return svg.group()
        _, _, letter = self.styles[seat]
        return svg.group(
            svg.title(seat),
            svg.rect(x, y, size, size, rx=3, fill=f"url(#seat-{self.index[seat]})", stroke="#000000"),
            svg.text(x + size / 2, y + size / 2 + 4.5, letter, class_="letter", text_anchor="middle"),
        )

    def lines(self, x: float, texts: Sequence[str], width: float, **attributes: svg.Value) -> None:
        for text in texts:
            for part in wrap(text, width):
                self.y += LINE
                self.parts.append(svg.text(x, self.y, part, **attributes))

    def heading(self, text: str) -> None:
        self.y += 10
        self.parts.append(svg.line(MARGIN, self.y, WIDTH - MARGIN, self.y, stroke="#999999"))
        self.y += 20
        self.parts.append(svg.text(MARGIN, self.y, text, class_="big"))

    def title(self, title: str, status: Sequence[str], seat: str | None) -> None:
        """The picture's title, the state of play on one line, and whose picture it is."""
        self.y += 6
        self.parts.append(svg.text(MARGIN, self.y + 10, title, class_="big"))
        self.y += 10
        self.lines(MARGIN, [" · ".join(status)], INNER)
        self.lines(MARGIN, [whose(seat)], INNER, class_="small muted")
        self.y += 8

    def seat_bar(self, seat: str, heading: str, badges: Mapping[str, bool], *, own: bool) -> None:
        """The band in the seat's colour that opens the seat's part of the picture, with the
        game's badges that hold for the seat (``first player``, ``to act``) in their order, and
        ``you`` last on the picture's own seat."""
        shown = [badge for badge, holds in {**badges, "you": own}.items() if holds]
        self.y += 14
        top = self.y
        colour = self.styles[seat][0]
        self.parts.append(
            svg.rect(MARGIN, top, INNER, 26, rx=4, fill=colour, fill_opacity=0.25, stroke=colour)
        )
        self.parts.append(self.marker(seat, MARGIN + 4, top + 4))
        self.parts.append(svg.text(MARGIN + 28, top + 18, heading, class_="name"))
        if shown:
            self.parts.append(
                svg.text(WIDTH - MARGIN - 8, top + 18, " · ".join(shown), class_="bold", text_anchor="end")
            )
        self.y = top + 26

    def score(self, view: Mapping[str, Any]) -> None:
        scores: Mapping[str, Mapping[str, int]] = view["score"]
        self.heading("Final score" if view.get("score_final") else "Score so far")
        if view.get("winners"):
            self.lines(MARGIN, [f"won by {', '.join(view['winners'])}"], INNER, class_="bold")
        columns = list(next(iter(scores.values()), {}))
        first = 96
        width = (INNER - first) / max(1, len(columns))
        self.y += 8
        top = self.y
        header_lines = [wrap(words(column), width - 4, SMALL, hyphenate=True) for column in columns]
        depth = max((len(lines) for lines in header_lines), default=1) * 12 + 6
        table = svg.group(svg.title("the score, per player and category"))
        table.add(svg.rect(MARGIN, top, INNER, depth, fill="#EEEEEE"))
        table.add(svg.text(MARGIN + 4, top + 14, "player", class_="small bold"))
        for index, lines in enumerate(header_lines):
            for row, part in enumerate(lines):
                table.add(
                    svg.text(
                        MARGIN + first + index * width + width / 2,
                        top + 14 + row * 12,
                        part,
                        class_="small bold",
                        text_anchor="middle",
                    )
                )
        y = top + depth
        for seat, marks in scores.items():
            table.add(svg.line(MARGIN, y, WIDTH - MARGIN, y, stroke="#CCCCCC"))
            table.add(self.marker(seat, MARGIN + 2, y + 3, 16))
            table.add(svg.text(MARGIN + 22, y + 16, seat))
            for index, column in enumerate(columns):
                table.add(
                    svg.text(
                        MARGIN + first + index * width + width / 2,
                        y + 16,
                        str(marks[column]),
                        text_anchor="middle",
                        **({"class_": "bold"} if column == "total" else {}),
                    )
                )
            y += 22
        self.parts.append(table)
        self.y = y

    def legend(self) -> None:
        self.y += 14
        top = self.y
        x: float = MARGIN
        for seat in self.styles:
            self.parts.append(self.marker(seat, x, top, 14))
            self.parts.append(svg.text(x + 18, top + 11, seat, class_="small"))
            x += 26 + len(seat) * 6.5
            if x > WIDTH - 80:
                x = MARGIN
                top += 18
        self.y = top + 14
