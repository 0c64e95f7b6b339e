"""A picture of a Princes of the Renaissance table, drawn from the view the rules give a seat.

Everything drawn comes from ``view(state, seat)`` (plus the hand and sealed values ``pbem show
--as`` adds for that seat), so a picture shows exactly what its seat may see: the hidden cards
of a hand appear only in the picture of the seat that holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from pbem.render.generic import sealed_lines
from pbem.render.picture import svg
from pbem.render.picture.canvas import INNER, LINE, MARGIN, Canvas, listed, names
from pbem.render.picture.svg import Element

STATUS_LOW, STATUS_HIGH = 3, 10


def _points(text: str) -> tuple[tuple[int, int], ...]:
    pairs = (pair.split(",") for pair in text.split())
    return tuple((int(x), int(y)) for x, y in pairs)


# A sketch of Italy in map units (north up) and where each city sits on it.
ITALY = _points(
    "30,70 80,45 150,40 210,35 255,50 250,75 232,95 245,120 270,150 300,195 335,240 372,262 368,282 "
    "405,305 432,325 428,345 402,335 375,318 355,330 350,360 335,395 312,400 318,360 305,335 280,318 "
    "252,300 225,280 198,255 172,228 150,195 130,165 105,135 75,120 45,125 28,100"
)
SICILY = _points("250,392 300,380 318,402 280,418 246,410")
MAP_X, MAP_Y = 125, 6
MAP_HEIGHT = 426
CARD_WIDTH, CARD_HEIGHT = 170, 124


class Spot(NamedTuple):
    """Where a city sits on the sketch, and where its card stands beside it (from the map's corner)."""

    city: tuple[int, int]
    card: tuple[int, int]


CITY_SPOTS = {
    "milan": Spot((90, 92), (8, 8)),
    "venice": Spot((222, 88), (440, 8)),
    "florence": Spot((158, 162), (8, 150)),
    "rome": Spot((198, 238), (8, 292)),
    "naples": Spot((262, 298), (440, 296)),
}
NOWHERE = Spot((0, 0), (0, 0))


def draw(view: Mapping[str, Any], title: str, seat: str | None) -> str:
    """The SVG document for ``view``, as ``seat`` sees it (None: the public picture)."""
    seats = list(view["players"])
    drawing = _Drawing(seats)
    drawing.header(view, title, seat)
    drawing.map(view)
    drawing.table(view)
    for name in seats:
        drawing.player(view, name, own=name == seat)
    if "score" in view:
        drawing.score(view)
    drawing.legend()
    return drawing.document(f"{title}: {view.get('phase', '')}", _definitions())


def _definitions() -> Element:
    return svg.element("defs").add(
        svg.element(
            "marker",
            id="arrow",
            viewBox="0 0 10 10",
            refX=9,
            refY=5,
            markerWidth=7,
            markerHeight=7,
            orient="auto",
        ).add(svg.element("path", d="M0,0 L10,5 L0,10 z", fill="#B00000"))
    )


def _card_right(x: float, y: float, text: str, class_: str) -> Element:
    """A text on a city card's right edge (``x`` is the card's left)."""
    return svg.text(x + CARD_WIDTH - 8, y, text, class_=class_, text_anchor="end")


def _roman(decade: int) -> str:
    return {1: "I", 2: "II", 3: "III"}.get(decade, str(decade))


class _Drawing(Canvas):
    # --- sections ---------------------------------------------------------------------------

    def header(self, view: Mapping[str, Any], title: str, seat: str | None) -> None:
        edition = f" ({view['edition']})" if view.get("edition") else ""
        decade = view.get("decade")
        where = [f"phase: {view.get('phase', '')}"]
        if decade:
            where.insert(0, f"decade {_roman(decade)}")
        if view.get("active"):
            where.append(f"to act: {view['active']}")
        self.title(title + edition, where, seat)

    def map(self, view: Mapping[str, Any]) -> None:
        top = self.y
        cities: Mapping[str, Any] = view.get("cities", {})
        offer: dict[str, int] = {}
        for tile in view.get("city_tiles_on_offer", []):
            offer[tile["city"]] = offer.get(tile["city"], 0) + 1

        def spot(point: tuple[float, float]) -> tuple[float, float]:
            return MAP_X + point[0], top + MAP_Y + point[1]

        group = svg.group(svg.title("the five cities on a sketch of Italy"))
        group.add(svg.rect(MARGIN, top, INNER, MAP_HEIGHT, rx=6, fill="#EAF3FA", stroke="#9DB8CC"))
        land: dict[str, svg.Value] = {"fill": "#F2E8D2", "stroke": "#8A7A5A", "stroke_width": 1.5}
        group.add(svg.polygon([spot(point) for point in ITALY], **land))
        group.add(svg.polygon([spot(point) for point in SICILY], **land))
        war = view.get("war")
        if war:
            ax, ay = spot(CITY_SPOTS.get(war["attacker"], NOWHERE).city)
            dx, dy = spot(CITY_SPOTS.get(war["defender"], NOWHERE).city)
            group.add(
                svg.line(
                    ax,
                    ay,
                    dx,
                    dy,
                    stroke="#B00000",
                    stroke_width=3,
                    stroke_dasharray="8 4",
                    marker_end="url(#arrow)",
                )
            )
        for city, (point, card) in CITY_SPOTS.items():
            cx, cy = spot(point)
            card_x, card_y = card[0] + MARGIN, card[1] + top
            edge_x = card_x + CARD_WIDTH if card_x < cx else card_x
            group.add(
                svg.line(edge_x, card_y + CARD_HEIGHT / 2, cx, cy, stroke="#8A7A5A", stroke_dasharray="3 3")
            )
            # a city is named in moves by this word (place, war, rank): the page lets a click on
            # its point or its card choose it
            group.add(
                svg.circle(cx, cy, 7, fill="#7A1F1F", stroke="#FFFFFF", stroke_width=2, data_choice=city)
            )
            group.add(
                self._city_card(
                    city,
                    data=cities.get(city),
                    on_offer=offer.get(city, 0) if "city_tiles_on_offer" in view else None,
                    x=card_x,
                    y=card_y,
                    war=war,
                )
            )
        self.parts.append(group)
        self.y = top + MAP_HEIGHT

    def _city_card(
        self,
        city: str,
        *,
        data: Mapping[str, Any] | None,
        on_offer: int | None,
        x: float,
        y: float,
        war: Mapping[str, Any] | None,
    ) -> Element:
        name = data["name"] if data else city.capitalize()
        card = svg.group(svg.title(name), data_choice=city)
        at_war = bool(war) and city in (war["attacker"], war["defender"]) if war else False
        card.add(
            svg.rect(
                x,
                y,
                CARD_WIDTH,
                CARD_HEIGHT,
                rx=5,
                fill="#FFFFFF",
                fill_opacity=0.94,
                stroke="#B00000" if at_war else "#5A4A2A",
                stroke_width=2.5 if at_war else 1,
            )
        )
        card.add(svg.text(x + 8, y + 18, name, class_="name"))
        if data is None:
            card.add(svg.text(x + 8, y + 38, "City tiles not drawn yet", class_="small muted"))
            return card
        status = int(data["status"])
        card.add(svg.text(x + 8, y + 36, f"status {status}", class_="bold"))
        card.add(_card_right(x, y + 36, f"{data['vp']} VP a City tile", "small"))
        cell = (CARD_WIDTH - 16) / (STATUS_HIGH - STATUS_LOW + 1)
        track = svg.group(svg.title(f"status track {STATUS_LOW}..{STATUS_HIGH}: {name} at {status}"))
        for step in range(STATUS_LOW, STATUS_HIGH + 1):
            left = x + 8 + (step - STATUS_LOW) * cell
            here = step == status
            track.add(
                svg.rect(left, y + 42, cell, 16, fill="#3A2A10" if here else "#F7F1E3", stroke="#5A4A2A")
            )
            track.add(
                svg.text(
                    left + cell / 2,
                    y + 54,
                    str(step),
                    class_="small bold on" if here else "small",
                    text_anchor="middle",
                )
            )
        card.add(track)
        artists = int(data["artists"])
        card.add(svg.text(x + 8, y + 76, f"Artist / French Invade tiles: {artists}", class_="small"))
        for index in range(min(artists, 10)):
            left = x + 8 + index * 16
            card.add(svg.rect(left, y + 82, 12, 12, fill="#C9A227", stroke="#5A4A2A"))
            card.add(svg.text(left + 6, y + 91.5, "A", class_="small", text_anchor="middle"))
        if on_offer is not None:
            card.add(svg.text(x + 8, y + 112, f"City tiles on offer: {on_offer}", class_="small"))
        if at_war and war is not None:
            side = "attacks" if city == war["attacker"] else "defends"
            card.add(_card_right(x, y + 18, f"at war: {side}", "small bold war"))
        return card

    def table(self, view: Mapping[str, Any]) -> None:
        self.heading("On the table")
        pope = view.get("pope")
        if pope is not None:
            holder = pope.get("holder")
            self.y += 4
            top = self.y
            if holder:
                self.parts.append(self.marker(holder, MARGIN, top + 4))
                self.parts.append(
                    svg.text(MARGIN + 24, top + 17, f"the Pope: held by {holder}", class_="bold")
                )
            elif pope.get("on_offer"):
                self.parts.append(svg.text(MARGIN, top + 17, "the Pope: on offer", class_="bold"))
            self.y = top + 20
        texts: list[str] = []
        decade = view.get("decade")
        events = view.get("event_tiles_on_offer")
        if events is not None:
            named = [
                f"{event['name']} ({event['kind']} {event['value']:+d}, {event['currency']})"
                for event in events
            ]
            texts.append(f"Event tiles on offer in decade {_roman(decade or 0)}: {names(named)}")
        tiles = view.get("city_tiles_on_offer")
        if tiles is not None:
            texts.append(f"City tiles on offer: {len(tiles)}")
        if "wars_fought" in view:
            texts.append(f"wars this decade: {view['wars_fought']} of {view['war_limit']}")
        texts += listed("turn order", view.get("turn_order"))
        if "treachery_deck" in view:
            texts.append(
                f"Treachery deck: {view['treachery_deck']} cards; "
                f"played: {names(view['treachery_discards'])}; "
                f"discarded face down: {view['treachery_discarded_face_down']}"
            )
        supply = view.get("troop_supply")
        if supply:
            texts.append(
                "Troop tiles left: " + ", ".join(f"{troop} {count}" for troop, count in supply.items())
            )
        self.lines(MARGIN, texts, INNER)
        auction = view.get("auction")
        if auction:
            self.y += 4
            high = (
                f"high bid {auction['bid']} {auction['currency']} by {auction['high_bidder']}"
                if auction.get("high_bidder")
                else f"opening bid {auction['bid']} {auction['currency']}"
            )
            self.lines(
                MARGIN,
                [
                    f"auction: {auction['name']}, put up by {auction['nominator']}; {high}; "
                    f"to act: {auction['to_act']}; passed: {names(auction['passed'])}"
                ],
                INNER,
                class_="bold",
            )
        war = view.get("war")
        if war:
            self.war(view, war)
        self.hired(view)
        fought = view.get("wars_this_decade")
        if fought:
            self.lines(MARGIN, [f"wars fought this decade: {'; '.join(fought)}"], INNER)
        for waiting in view.get("waiting_for", []):
            what = f"{waiting['seat']} still to {waiting['what']}" + (
                f" ({waiting['tile']})" if waiting["tile"] else ""
            )
            self.lines(MARGIN, [what], INNER)
        self.lines(MARGIN, sealed_lines(view), INNER)

    def war(self, view: Mapping[str, Any], war: Mapping[str, Any]) -> None:
        cities = view.get("cities", {})

        def city_name(city: str) -> str:
            return str(cities.get(city, {}).get("name", city))

        attacker, defender = city_name(war["attacker"]), city_name(war["defender"])
        self.y += 8
        top = self.y
        box = svg.group(svg.title(f"war: {attacker} attacks {defender}"))
        rows = 3 + bool(war.get("dice"))
        box.add(svg.rect(MARGIN, top, INNER, 24 + rows * LINE, rx=5, fill="#FBEAEA", stroke="#B00000"))
        box.add(
            svg.text(MARGIN + 8, top + 18, f"war in progress: {attacker} attacks {defender}", class_="bold")
        )
        y = top + 18
        for side, city in (("attacker", attacker), ("defender", defender)):
            y += LINE
            hired = war.get(f"{side}_condottiere") or ""
            if hired:
                box.add(self.marker(hired, MARGIN + 8, y - 13, 16))
            text = f"{city}'s condottiere: {hired}" if hired else f"{city}'s condottiere: none yet"
            box.add(svg.text(MARGIN + 30, y, text))
        y += LINE
        extra = [f"stage: {war['stage']}", f"started by {war['started_by']}"]
        if war.get("holy_league"):
            extra.append(f"the Holy League joins the {war['holy_league']}")
        if war.get("bad_weather"):
            extra.append("Bad Weather on " + ", ".join(city_name(city) for city in war["bad_weather"]))
        if war.get("bribed"):
            extra.append("bribed: " + ", ".join(war["bribed"]))
        if war.get("waiting_for"):
            extra.append("waiting for " + ", ".join(war["waiting_for"]))
        box.add(svg.text(MARGIN + 8, y, "; ".join(extra), class_="small"))
        if war.get("dice"):
            y += LINE
            box.add(
                svg.text(MARGIN + 8, y, "dice: " + ", ".join(str(die) for die in war["dice"]), class_="small")
            )
        self.parts.append(box)
        self.y = y + 10

    def hired(self, view: Mapping[str, Any]) -> None:
        """At a table, condottieri are hired ahead of the war they fight (pbem table's log)."""
        cities = view.get("cities", {})
        for city, hire in view.get("condottieri_hired", {}).items():
            self.y += 4
            top = self.y
            name = cities.get(city, {}).get("name", city)
            self.parts.append(self.marker(hire["seat"], MARGIN, top + 4, 16))
            text = f"{name}'s condottiere for the next war: {hire['seat']} (bid {hire['bid']} influence)"
            self.parts.append(svg.text(MARGIN + 22, top + 17, text))
            self.y = top + 20

    def player(self, view: Mapping[str, Any], seat: str, *, own: bool) -> None:
        data: Mapping[str, Any] = view["players"][seat]
        family = data.get("family")
        badges = {
            "to act": view.get("active") == seat,
            "holds the Pope": (view.get("pope") or {}).get("holder") == seat,
        }
        self.seat_bar(seat, seat + (f" — {family}" if family else ""), badges, own=own)
        texts = []
        money = f"gold {data.get('gold', 0)} · influence {data.get('influence', 0)}"
        if "treachery_cards" in data:
            money += f" · Treachery cards in hand: {data['treachery_cards']} of {data['hand_limit']}"
        scores = view.get("score", {})
        if seat in scores:
            money += f" · score so far: {scores[seat]['total']}"
        texts.append(money)
        if "city_tiles" not in data:
            bid = data.get("bid")
            if bid is not None:
                texts.append(f"bid {bid}" + (" (passed)" if data.get("passed") else ""))
            self.lines(MARGIN + 6, texts, INNER - 12)
        else:
            self.lines(MARGIN + 6, texts, INNER - 12)
            self._victories(int(data["war_victories"]))
            tiles = [f"{tile['name']} ({tile['city'].capitalize()})" for tile in data["city_tiles"]]
            more = [
                f"City tiles: {names(tiles)}",
                f"Troop tiles: {names(data['troops'])}",
                f"Event tiles: {names(data['event_tiles'])}",
            ]
            more += listed("Treachery cards face up", data.get("treachery_face_up"))
            if data.get("condottiere_pay"):
                more.append(f"condottiere pay due: {data['condottiere_pay']} gold")
            more += listed("spent this decade", data.get("spent_this_decade"))
            self.lines(MARGIN + 6, more, INNER - 12)
        if own:
            self._secrets(view)

    def _victories(self, count: int) -> None:
        self.y += 6
        top = self.y
        label = f"war victories: {count}"
        self.parts.append(svg.text(MARGIN + 6, top + 12, label))
        for index in range(min(count, 12)):
            left = MARGIN + 116 + index * 18
            self.parts.append(
                svg.group(
                    svg.title("a war victory counter"),
                    svg.circle(left + 7, top + 8, 7, fill="#D9C27A", stroke="#5A4A2A"),
                    svg.text(left + 7, top + 11.5, "V", class_="small bold", text_anchor="middle"),
                )
            )
        self.y = top + 12

    def _secrets(self, view: Mapping[str, Any]) -> None:
        names: Mapping[str, str] = view.get("treachery_names", {})
        hand: Mapping[str, str | None] = view.get("hand", {})
        texts = []
        if hand:
            texts.append("your hidden Treachery cards (only you see them):")
            # one card a line, so no name is split between lines
            texts.extend(
                f"  {names.get(card, card)} ({token})" if card else f"  {token}: not readable yet"
                for token, card in hand.items()
            )
        for step, value in view.get("private", {}).items():
            texts.append(f"your sealed {step}: {value} (only you see it)")
        if texts:
            self.lines(MARGIN + 6, texts, INNER - 12, class_="bold secret")
