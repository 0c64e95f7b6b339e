"""A picture of a Princes of Florence game: the round and what is on offer, each player's estate
drawn as its grid with the palace, buildings and landscapes on their squares, what each player
holds, and the score.

Drawn from the view ``pbem show`` prints (the game's ``view.view``), or the same shape made from a
table's log (``table.picture_view``). A seat's hidden cards (the profession, bonus and prestige
cards it holds) are named only in the picture drawn for that seat, from the ``hand`` that
``pbem show --as`` adds; every other picture counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.games.princes_of_florence.terminal import short
from pbem.render.picture import svg
from pbem.render.picture.canvas import INNER, MARGIN, WIDTH, Canvas, listed, names
from pbem.render.picture.seats import roster
from pbem.render.picture.svg import Element

CELL = 22
LABELS = 14  # room for the row numbers left of a grid and the column letters under it
GLYPH = 5.6  # the average width of a letter of the grid's 9 px labels
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
# A piece's fill by kind; buildings of every type share one, and their name tells them apart.
FILLS = {"palace": "#B08D57", "forest": "#7FB77E", "lake": "#8EC3E6", "park": "#CDE7A4"}
BUILDING = "#EBD9B4"
EDGE = "#3A2A10"

Corner = Callable[[float, float], tuple[float, float]]  # a square's top-left corner on the page


def draw(view: Mapping[str, Any], title: str, seat: str | None) -> str:
    """The SVG document for ``view``, as ``seat`` sees it (None: the public picture)."""
    drawing = _Drawing(roster(view["players"]))
    drawing.header(view, title, seat)
    drawing.table(view)
    for player in view["players"]:
        drawing.player(view, player, own=player["seat"] == seat)
    if view.get("score"):
        drawing.score(view)
    drawing.legend()
    return drawing.document(f"{title}: round {view.get('round', '')}, {view.get('phase', '')}")


def _square(text: str) -> tuple[int, int]:
    """``c3`` -> (2, 2): column and row from 0, row 0 the bottom row, as the estate names them."""
    return COLUMNS.index(text[0]), int(text[1:]) - 1


class _Drawing(Canvas):
    def header(self, view: Mapping[str, Any], title: str, seat: str | None) -> None:
        least = view.get("minimum_work")
        status = [
            f"round {view.get('round')} of 7",
            f"phase: {view.get('phase', '')}",
            f"minimum work value {least if least is not None else 'not known'}",
        ]
        status += listed("to act", view.get("asked"))
        self.title(title, status, seat)

    def table(self, view: Mapping[str, Any]) -> None:
        self.heading("On the table")
        texts = []
        auction = view.get("auction")
        if auction:
            leader = (
                f"{auction['leader']} leads at {auction['price']}" if auction.get("leader") else "no bid yet"
            )
            texts.append(f"auction of {auction['lot']}: {leader}; {auction['turn']} to bid or pass")
        texts.append(f"first player: {view.get('first_player') or 'none'}")
        texts.append(f"lots sold this round: {names(view.get('lots_sold_this_round') or [])}")
        texts += listed("profession cards face up", view.get("professions_face_up"))
        if view.get("decks"):
            texts.append(
                "cards left: " + ", ".join(f"{deck} {count}" for deck, count in view["decks"].items())
            )
        supply: Mapping[str, int] = view.get("supply") or {}
        lots = [f"{short(item)} {count}" for item, count in supply.items() if ":" not in item]
        buildings = [
            f"{short(item)} {count}" for item, count in supply.items() if item.startswith("building:")
        ]
        freedoms = [f"{short(item)} {count}" for item, count in supply.items() if item.startswith("freedom:")]
        for label, items in (
            ("in the supply", lots),
            ("buildings left", buildings),
            ("freedoms left", freedoms),
        ):
            texts += listed(label, items)
        best = [line for line in view.get("best_works") or [] if " 0 WP " not in line]
        if best:
            texts.append(f"best works: {'; '.join(best)}")
        self.lines(MARGIN, texts, INNER)

    def player(self, view: Mapping[str, Any], data: Mapping[str, Any], *, own: bool) -> None:
        seat = data["seat"]
        badges = {
            "first player": view.get("first_player") == seat,
            "to act": seat in (view.get("asked") or []),
        }
        self.seat_bar(seat, seat, badges, own=own)
        top = self.y + 6
        columns, rows = view.get("estate_grid") or (7, 7)
        estate = self._estate(data, columns, rows, MARGIN + LABELS, top, own=own)
        self.parts.append(estate)
        grid_bottom = top + rows * CELL + LABELS
        placed = [piece["piece"] for piece in data.get("estate_pieces", [])]
        laid = [*data["buildings"], *data["landscapes"]]
        if any(laid.count(piece) > placed.count(piece) for piece in laid):
            # a table's log says what was built, not where
            self.parts.append(
                svg.text(MARGIN, grid_bottom + 12, "squares not recorded at the table", class_="small muted")
            )
            grid_bottom += 14
        left = MARGIN + LABELS + columns * CELL + 14
        width = WIDTH - MARGIN - left
        self.y = top - 6
        self.lines(left, self._texts(view, data), width)
        if own:
            self.lines(left, self._secrets(view, data), width, class_="bold secret")
        self.y = max(self.y, grid_bottom)

    def _texts(self, view: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
        seat = data["seat"]
        score = (view.get("score") or {}).get(seat, {})
        money = f"florins {data['florins']} · prestige {data['prestige']}"
        if "total" in score:
            money += f" · score so far: {score['total']}"
        texts = [
            money,
            f"jesters {data['jesters']} · builders {data['builders']} · freedoms: {names(data['freedoms'])}",
            f"buildings: {names(data['buildings'])}",
            f"landscapes: {names(data['landscapes'])}",
            f"works: {names(data['works'])}",
        ]
        cards = data["profession_cards"]
        held = f"profession cards: {len(cards) if isinstance(cards, list) else cards}"
        if data.get("named_in_hand"):
            held += f" (named: {', '.join(data['named_in_hand'])})"
        if data.get("laid_out"):
            held += f"; laid out: {', '.join(data['laid_out'])}"
        texts.append(held)
        bonus = data["bonus_cards"]
        bonus_text = f"bonus cards: {len(bonus) if isinstance(bonus, list) else bonus}"
        if data.get("bonus_cards_played"):
            bonus_text += f"; played: {', '.join(data['bonus_cards_played'])}"
        texts.append(bonus_text)
        texts.append(
            f"recruitment cards: {data['recruitment_cards']} (used {data['recruitment_cards_used']})"
            f" · prestige cards: {names(data['prestige_cards'])}"
        )
        this_round = data.get("this_round") or {}
        if this_round.get("won") or this_round.get("actions"):
            texts.append(
                f"this round: won {this_round.get('won') or 'nothing'}; "
                f"actions: {names(this_round.get('actions') or [])}"
            )
        if data.get("empty_squares") is not None:
            texts.append(f"empty squares: {data['empty_squares']}")
        return texts

    def _secrets(self, view: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
        """The cards only this seat may read, by name: its ``hand`` maps each token to its card."""
        hand: Mapping[str, str | None] = view.get("hand", {})
        texts = []
        for label, key in (
            ("profession cards", "profession_cards"),
            ("bonus cards", "bonus_cards"),
            ("prestige cards", "prestige_cards"),
        ):
            tokens = [
                token for token in data.get(key, []) if isinstance(data.get(key), list) and token in hand
            ]
            if tokens:
                texts.append(f"your {label} (only you see them):")
                texts.extend(
                    f"  {hand[token]} ({token})" if hand[token] else f"  {token}: not readable yet"
                    for token in tokens
                )
        for step, value in view.get("private", {}).items():
            texts.append(f"your sealed {step}: {value} (only you see it)")
        return texts

    def _estate(
        self, data: Mapping[str, Any], columns: int, rows: int, x: float, y: float, *, own: bool
    ) -> Element:
        seat = data["seat"]
        group = svg.group(svg.title(f"{seat}'s estate, {columns}x{rows} squares"))
        owner: dict[tuple[int, int], int] = {}
        pieces: Sequence[Mapping[str, Any]] = data.get("estate_pieces", [])
        for number, piece in enumerate(pieces):
            for square in piece["squares"]:
                owner[_square(square)] = number

        def corner(column: float, row: float) -> tuple[float, float]:
            return x + column * CELL, y + (rows - 1 - row) * CELL

        for column in range(columns):
            for row in range(rows):
                left, top = corner(column, row)
                held = owner.get((column, row))
                if held is None:
                    fill = "#FFFFFF"
                else:
                    piece = pieces[held]
                    fill = FILLS.get(piece["piece"], BUILDING if piece["building"] else "#DDDDDD")
                square = svg.rect(left, top, CELL, CELL, fill=fill, stroke="#BBBBBB", stroke_width=0.5)
                if own:
                    # the word a move names this square by: the page lets a click on it choose it
                    square.attributes["data-choice"] = f"{COLUMNS[column]}{row + 1}"
                group.add(square)
        # each piece's outline: the sides of its squares that border another piece or nothing
        for (column, row), number in owner.items():
            left, top = corner(column, row)
            for (dc, dr), (x1, y1, x2, y2) in (
                ((0, 1), (left, top, left + CELL, top)),
                ((0, -1), (left, top + CELL, left + CELL, top + CELL)),
                ((-1, 0), (left, top, left, top + CELL)),
                ((1, 0), (left + CELL, top, left + CELL, top + CELL)),
            ):
                if owner.get((column + dc, row + dr)) != number:
                    group.add(
                        svg.line(x1, y1, x2, y2, stroke=EDGE, stroke_width=1.5, stroke_linecap="square")
                    )
        for piece in pieces:
            group.add(_label(piece, [_square(square) for square in piece["squares"]], corner))
        for column in range(columns):
            left, _ = corner(column, 0)
            group.add(
                svg.text(
                    left + CELL / 2,
                    y + rows * CELL + 11,
                    COLUMNS[column],
                    class_="small muted",
                    text_anchor="middle",
                )
            )
        for row in range(rows):
            _, top = corner(0, row)
            group.add(
                svg.text(x - 4, top + CELL / 2 + 4, str(row + 1), class_="small muted", text_anchor="end")
            )
        return group


def _runs(squares: Sequence[tuple[int, int]]) -> list[tuple[bool, tuple[int, int], int]]:
    """Each straight run of a piece's squares: (across, first square, length), ``across`` for a
    run up a column; the first square is the leftmost, or the lowest."""
    cells = set(squares)
    runs = []
    for across, step in ((False, (1, 0)), (True, (0, 1))):
        for column, row in sorted(cells):
            if (column - step[0], row - step[1]) in cells:
                continue
            length = 1
            while (column + step[0] * length, row + step[1] * length) in cells:
                length += 1
            runs.append((across, (column, row), length))
    return runs


def _label(piece: Mapping[str, Any], squares: Sequence[tuple[int, int]], corner: Corner) -> Element:
    """The piece's name along its longest straight run of squares (up the run if it stands
    upright), cut short where it would not fit: the list beside the grid names every piece in full."""
    centre = (sum(c for c, _ in squares) / len(squares), sum(r for _, r in squares) / len(squares))

    def middle(run: tuple[bool, tuple[int, int], int]) -> tuple[float, float]:
        across, (column, row), length = run
        return (column, row + (length - 1) / 2) if across else (column + (length - 1) / 2, row)

    def rank(run: tuple[bool, tuple[int, int], int]) -> tuple[int, bool, float]:
        mid = middle(run)
        return (-run[2], run[0], (mid[0] - centre[0]) ** 2 + (mid[1] - centre[1]) ** 2)

    best = min(_runs(squares), key=rank)
    across, _, length = best
    mid_column, mid_row = middle(best)
    left, top = corner(mid_column, mid_row)
    cx, cy = left + CELL / 2, top + CELL / 2
    name: str = piece["piece"]
    room = length * CELL - 4
    if len(name) * GLYPH > room:
        name = name[: max(2, int(room / GLYPH) - 1)] + "."
    attributes: dict[str, svg.Value] = {"class_": "small bold", "text_anchor": "middle"}
    if across:
        attributes["transform"] = f"rotate(-90 {svg.number(cx)} {svg.number(cy)})"
    return svg.group(svg.title(piece["piece"]), svg.text(cx, cy + 3.5, name, **attributes))
