"""A picture of an Il Principe game: a schematic map (the regions as areas, each with every
family's shields on it, and the cities as labelled points where their regions meet), the role
tiles and who holds them, each family's cards, ducats and score.

Drawn from the view ``pbem show`` prints (the game's ``view.view``), or the same shape made from a
table's log (``table.picture_view``). A family's hand is counted in every picture; its cards are
named only in the picture drawn for that seat, from the ``hand`` that ``pbem show --as`` adds.

The map is a sketch, not the board: the reference map (templates/il-principe.toml) puts green at
the heart, touching each of the others, and the other five in a ring where each touches the next
(Mantova joins blue, green and red; Ferrara green, red and yellow; ...). A city sits where its
regions meet, so the sketch shows which regions each city counts for. Regions named otherwise are
drawn as a ring.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.render.picture import svg
from pbem.render.picture.canvas import FONT, INNER, MARGIN, SMALL, WIDTH, Box, Canvas, listed, names, text_box
from pbem.render.picture.seats import roster
from pbem.render.picture.svg import Element

COLOURS = ("green", "white", "red", "blue", "yellow")
# The reference map's regions: None at the heart, the others by their bearing (degrees clockwise
# from north), so the ring reads roughly as Italy does (blue to the north-west, purple south).
WHEEL: Mapping[str, float | None] = {
    "green": None,
    "red": 36,
    "yellow": 108,
    "purple": 180,
    "brown": 252,
    "blue": 324,
}
TINTS = {
    "green": "#D3ECD3",
    "red": "#F6D3CD",
    "yellow": "#FAEFBE",
    "purple": "#E5D6EE",
    "brown": "#E8DAC8",
    "blue": "#D3E5F5",
    "white": "#F4F4F4",
}
MAP_HEIGHT = 440
RADIUS_X, RADIUS_Y = 296, 200  # the ring's outer edge
HEART = 0.4  # the heart's size, as a share of the ring's
# Where a city sits, as a share of the ring's radius: a region's own cities, and the place of a
# region that a city joins with others (cities where two or three regions meet fall on their
# border, those joining the heart nearer the centre).
OWN, JOINED = 0.6, 0.7
SIZES = {"small": 5, "medium": 7, "large": 9}
ROLE_WIDTH = INNER / len(COLOURS)


def draw(view: Mapping[str, Any], title: str, seat: str | None) -> str:
    """The SVG document for ``view``, as ``seat`` sees it (None: the public picture)."""
    drawing = _Drawing(roster(view["players"]))
    drawing.header(view, title, seat)
    drawing.map(view)
    drawing.table(view)
    drawing.roles(view)
    for player in view["players"]:
        drawing.player(view, player, own=player["seat"] == seat)
    if view.get("score"):
        drawing.score({**view, "score_final": view.get("phase") == "over"})
    drawing.legend()
    return drawing.document(f"{title}: {view.get('phase', '')}")


def _bearings(regions: Sequence[str]) -> dict[str, float | None]:
    """Each region's bearing on the sketch, or None for the one at the heart."""
    if set(regions) == set(WHEEL):
        return dict(WHEEL)
    return {region: 360 * index / len(regions) for index, region in enumerate(regions)}


def _point(bearing: float, share: float) -> tuple[float, float]:
    """A point of the sketch from its centre: ``share`` of the ring's radius on ``bearing``."""
    angle = math.radians(bearing)
    return RADIUS_X * share * math.sin(angle), -RADIUS_Y * share * math.cos(angle)


def _spots(
    cities: Sequence[Mapping[str, Any]], bearings: Mapping[str, float | None]
) -> dict[str, tuple[float, float]]:
    """Where each city with known regions sits: the middle of its regions' places, cities at the
    same place one above another (their names are written beside them)."""
    spots: dict[str, tuple[float, float]] = {}
    for city in cities:
        regions = [region for region in city.get("regions") or [] if region in bearings]
        if not regions:
            continue
        share = OWN if len(regions) == 1 else JOINED
        places = [(0.0, 0.0) if bearings[r] is None else _point(bearings[r] or 0.0, share) for r in regions]
        spots[city["city"]] = (
            sum(x for x, _ in places) / len(places),
            sum(y for _, y in places) / len(places),
        )
    shared: dict[tuple[float, float], list[str]] = {}
    for name, spot in spots.items():
        shared.setdefault((round(spot[0]), round(spot[1])), []).append(name)
    for together in shared.values():
        for index, name in enumerate(together):
            x, y = spots[name]
            spots[name] = (x, y + (index - (len(together) - 1) / 2) * 36)
    return spots


BADGE = 13  # the size of the builder's token on a city
SIDES = ("right", "left", "below", "above")
NUDGES = (0, -8, 8, -16, 16, -24, 24, -32, 32)  # how far a label may move up or down its side


@dataclass(frozen=True)
class _Label:
    """Where a city's name and, under it, its points go, and what the two lines cover."""

    x: float
    y: float
    anchor: str
    detail: str
    box: Box

    @classmethod
    def at(cls, city: Mapping[str, Any], x: float, y: float, *, side: str, nudge: float = 0) -> _Label:
        radius = SIZES.get(city["size"], 6)
        builder = city.get("built_by")
        # the builder shows as its token on the city: a name would crowd the sketch
        shown = "" if builder else ("face up" if city.get("face_up") else "")
        detail = f"{city['vp']} VP" + (f" · {shown}" if shown else "")
        anchor = {"right": "start", "left": "end"}.get(side, "middle")
        tx = x + radius + 3 if side == "right" else x - radius - 3 if side == "left" else x
        ty = {"right": y + 4, "left": y + 4, "below": y + radius + 12, "above": y - radius - 17}[side] + nudge
        box = text_box(tx, ty, city["name"], FONT, anchor=anchor, bold=True)
        return cls(tx, ty, anchor, detail, box.union(text_box(tx, ty + 12, detail, SMALL, anchor=anchor)))


def _covered(city: Mapping[str, Any], spot: tuple[float, float]) -> Box:
    """What a city's point covers, with its builder's token above it."""
    x, y = spot
    radius = SIZES.get(city["size"], 6)
    dot = Box(x - radius, y - radius, x + radius, y + radius)
    if not city.get("built_by"):
        return dot
    return dot.union(Box(x + radius - 4, y - radius - 10, x + radius - 4 + BADGE, y - radius - 10 + BADGE))


def _label(
    city: Mapping[str, Any], spot: tuple[float, float], side: str, *, taken: Sequence[Box], frame: Box
) -> _Label:
    """The first place for the city's label, its own side first, then the others, each moved up
    or down a little further, that covers no other label, token or city and stays on the map."""
    x, y = spot
    sides = (side, *(other for other in SIDES if other != side))
    for nudge in NUDGES:
        for each in sides:
            label = _Label.at(city, x, y, side=each, nudge=nudge)
            if label.box.inside(frame) and not any(label.box.overlaps(box) for box in taken):
                return label
    return _Label.at(city, x, y, side=side)


class _Drawing(Canvas):
    def __init__(self, seats: Sequence[str]) -> None:
        super().__init__(seats)
        self.taken: list[Box] = []  # what the map's labels and tokens cover so far

    def header(self, view: Mapping[str, Any], title: str, seat: str | None) -> None:
        status = [f"round {view.get('round')}" + (" (the last)" if view.get("last_round") else "")]
        status.append(f"phase: {view.get('phase', '')}")
        status += listed("to act", view.get("asked"))
        self.title(title, status, seat)

    def map(self, view: Mapping[str, Any]) -> None:
        regions: Mapping[str, str] = view.get("regions") or {}
        cities: Sequence[Mapping[str, Any]] = view.get("cities") or []
        bearings = _bearings(list(regions))
        top = self.y
        cx, cy = MARGIN + INNER / 2, top + MAP_HEIGHT / 2 + 4
        group = svg.group(svg.title("the regions and cities, a sketch of the map"))
        group.add(svg.rect(MARGIN, top, INNER, MAP_HEIGHT, rx=6, fill="#FBF8F0", stroke="#C9BFA8"))
        ring = [bearing for bearing in bearings.values() if bearing is not None]
        half = 180 / max(1, len(ring))
        for region, bearing in bearings.items():
            if bearing is None:
                outline = [_point(b, HEART) for b in range(0, 360, 12)]
                label_at = (0.0, -6.0)
            else:
                steps = [bearing - half + index * half / 3 for index in range(7)]
                inner = HEART if None in bearings.values() else 0.1
                outline = [_point(b, 1.0) for b in steps] + [_point(b, inner) for b in reversed(steps)]
                label_at = _point(bearing, 0.92)
            group.add(
                svg.polygon(
                    [(cx + x, cy + y) for x, y in outline],
                    fill=TINTS.get(region, "#EEEEEE"),
                    stroke="#8A7A5A",
                    stroke_width=1.5,
                    # the word a move names the region by (shield): the page lets a click choose it
                    data_choice=region,
                )
            )
            name = regions[region]
            label = region if name == region else f"{region} ({name})"
            group.add(self._region(view, region, label, cx + label_at[0], cy + label_at[1]))
        spots = {name: (cx + x, cy + y) for name, (x, y) in _spots(cities, bearings).items()}
        placed = [city for city in cities if city["city"] in spots]
        taken = [*self.taken, *(_covered(city, spots[city["city"]]) for city in placed)]
        frame = Box(MARGIN, top, MARGIN + INNER, top + MAP_HEIGHT)
        for city in placed:
            x, y = spots[city["city"]]
            # named on the side away from the centre, but a region's own cities towards it,
            # leaving the ring's outer edge to the regions' names and shields; elsewhere if
            # that side is taken
            inward = len(city["regions"]) == 1 and bearings.get(city["regions"][0]) is not None
            side = "below" if abs(x - cx) <= 8 else "right" if (x > cx) != inward else "left"
            name_at = _label(city, (x, y), side, taken=taken, frame=frame)
            taken.append(name_at.box)
            group.add(self._city(view, city, x, y, name_at))
        self.parts.append(group)
        self.y = top + MAP_HEIGHT
        unplaced = [city for city in cities if city["city"] not in spots]
        if unplaced:
            self.y += 6
            self.lines(MARGIN, ["cities whose regions are not known yet:"], INNER, class_="small muted")
            self.y += 6
            x = MARGIN + 10.0
            for city in unplaced:
                if x > WIDTH - MARGIN - 90:
                    x = MARGIN + 10
                    self.y += 34
                name_at = _Label.at(city, x, self.y + 6, side="right")
                self.parts.append(self._city(view, city, x, self.y + 6, name_at))
                x += 120
            self.y += 30

    def _region(self, view: Mapping[str, Any], region: str, label: str, x: float, y: float) -> Element:
        """The region's name and, under it, each family's shields there."""
        holders = [
            (player["seat"], player["shields"].get(region, 0))
            for player in view["players"]
            if player["shields"].get(region, 0)
        ]
        said = ", ".join(f"{seat} {count}" for seat, count in holders) or "no shields"
        group = svg.group(svg.title(f"region {label}: {said}"), data_choice=region)
        # A region on the ring's far left or right would put its row of shields past the map's
        # frame: the name and the row move in until both fit.
        half = max(len(holders) * 40 / 2, 48)
        x = min(max(x, MARGIN + half + 4), MARGIN + INNER - half - 4)
        group.add(svg.text(x, y, label, class_="small bold", text_anchor="middle"))
        left = x - len(holders) * 40 / 2
        self.taken.append(text_box(x, y, label, SMALL, anchor="middle", bold=True))
        if holders:
            self.taken.append(Box(left, y + 4, left + (len(holders) - 1) * 40 + 32, y + 18))
        for index, (seat, count) in enumerate(holders):
            spot = left + index * 40
            group.add(self.marker(seat, spot, y + 4, 14))
            group.add(svg.text(spot + 16, y + 15, f"x{count}", class_="small bold"))
        return group

    def _city(
        self, view: Mapping[str, Any], city: Mapping[str, Any], x: float, y: float, label: _Label
    ) -> Element:
        builder = city.get("built_by")
        state = f"built by {builder}" if builder else ("face up" if city.get("face_up") else "")
        regions = ", ".join(city.get("regions") or []) or "regions not known"
        group = svg.group(
            svg.title(f"{city['name']}: {city['size']}, {city['vp']} VP, {regions}; {state or 'not built'}"),
            data_choice=city["city"],  # the word a move names the city by (build)
        )
        radius = SIZES.get(city["size"], 6)
        group.add(
            svg.circle(
                x,
                y,
                radius,
                fill="#7A1F1F" if builder else ("#FFFFFF" if city.get("face_up") else "#C8BBA0"),
                stroke="#3A2A10",
                stroke_width=2 if city.get("face_up") else 1,
            )
        )
        group.add(svg.text(label.x, label.y, city["name"], class_="bold", text_anchor=label.anchor))
        group.add(svg.text(label.x, label.y + 12, label.detail, class_="small", text_anchor=label.anchor))
        if builder:
            # the builder's token on the city, as its shield is on the board
            group.add(self.marker(builder, x + radius - 4, y - radius - 10, BADGE))
        return group

    def table(self, view: Mapping[str, Any]) -> None:
        self.heading("On the table")
        texts = [
            f"Il Principe: {view.get('il_principe') or 'nobody'}",
            f"building cards in the pile: {view.get('pile')}",
        ]
        reserve = view.get("reserve") or {}
        texts.append(
            "reserve: " + (", ".join(f"{count} {colour}" for colour, count in reserve.items()) or "empty")
        )
        removed = view.get("removed_from_play")
        if isinstance(removed, Mapping):
            removed = ", ".join(f"{count} {colour}" for colour, count in removed.items()) or "none"
        texts.append(f"removed from play: {removed}")
        if "cities_face_up" in view:
            texts.append(f"cities face up: {names(view['cities_face_up'])}")
        if view.get("cities_still_to_turn_up") is not None:
            texts.append(f"cities still to turn up: {view['cities_still_to_turn_up']}")
        auction = view.get("auction")
        if auction:
            leader = (
                f"{auction['leader']} leads at {auction['price']}" if auction.get("leader") else "no bid yet"
            )
            texts.append(f"auction of {auction['lot']}: {leader}; {auction['turn']} to bid or pass")
        self.lines(MARGIN, texts, INNER)

    def roles(self, view: Mapping[str, Any]) -> None:
        """The ten role tiles, a major and a minor of each colour, with their holders' tokens."""
        held: Mapping[str, str] = view.get("roles") or {}
        self.y += 10
        top = self.y
        group = svg.group(svg.title("the role tiles and who holds them"))
        for column, colour in enumerate(COLOURS):
            for row, rank in enumerate(("major", "minor")):
                role = f"{colour} {rank}"
                holder = held.get(role)
                x, y = MARGIN + column * ROLE_WIDTH, top + row * 44
                group.add(svg.rect(x + 2, y, ROLE_WIDTH - 4, 40, rx=4, fill=TINTS[colour], stroke="#5A4A2A"))
                group.add(svg.text(x + 8, y + 16, role, class_="small bold"))
                if holder:
                    group.add(self.marker(holder, x + 8, y + 20, 14))
                    group.add(svg.text(x + 26, y + 32, holder, class_="small"))
                else:
                    group.add(svg.text(x + 8, y + 32, "on the board", class_="small muted"))
        self.parts.append(group)
        self.y = top + 88

    def player(self, view: Mapping[str, Any], data: Mapping[str, Any], *, own: bool) -> None:
        seat = data["seat"]
        badges = {
            "Il Principe": view.get("il_principe") == seat,
            "to act": seat in (view.get("asked") or []),
        }
        self.seat_bar(seat, seat, badges, own=own)
        score = (view.get("score") or {}).get(seat, {})
        money = f"ducats {data['ducats']} · VP on the track {data['vp']}"
        if "total" in score:
            money += f" · score so far: {score['total']}"
        hand = data["hand"]
        public = hand.get("public") or {}
        held = f"hand: {hand['cards']} cards" + (
            f" (known: {', '.join(f'{count} {colour}' for colour, count in public.items())})"
            if public
            else ""
        )

        def colours(cards: Mapping[str, int]) -> str:
            return ", ".join(f"{colour} {count}" for colour, count in cards.items() if count) or "none"

        shields = data.get("shields") or {}
        texts = [
            money,
            held,
            f"in front, face up: {colours(data['face_up'])}; face down: {colours(data['face_down'])}",
            f"shields: {colours(shields)} ({sum(shields.values())} placed)",
            f"roles: {names(data['roles'])}",
            f"cities: {names(data['cities'])}",
        ]
        if "reserve" in data and data["reserve"] != 0:
            texts.append(f"put in the reserve this round: {_reserve(view, data)}")
        self.lines(MARGIN + 6, texts, INNER - 12)
        if own:
            self._secrets(view, hand)

    def _secrets(self, view: Mapping[str, Any], hand: Mapping[str, Any]) -> None:
        cards: Mapping[str, str | None] = view.get("hand", {})
        tokens = [token for token in hand.get("tokens", []) if token in cards]
        texts = []
        if tokens:
            texts.append("your hidden cards (only you see them):")
            texts.extend(f"  {cards[t]} ({t})" if cards[t] else f"  {t}: not readable yet" for t in tokens)
        for step, value in view.get("private", {}).items():
            texts.append(f"your sealed {step}: {value} (only you see it)")
        if texts:
            self.lines(MARGIN + 6, texts, INNER - 12, class_="bold secret")


def _reserve(view: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """A count once revealed; until then what this seat has done (``pbem show``'s sealed steps)."""
    if data["reserve"] is not None:
        return str(data["reserve"])
    for step in view.get("sealed", []):
        if data["seat"] in step["sealed"]:
            return "sealed, not yet revealed"
    return "not sealed yet"
