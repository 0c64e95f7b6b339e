"""Pictures of a Princes of the Renaissance table: the SVG, the HTML page and the PNG.

A picture shows what its seat may see and nothing more: the names of a seat's hidden cards are
in that seat's own picture and in no other. The hidden deck is played through the command line
once per module, as far as the first card a player can read.
"""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem import gamefile
from pbem.companion import log
from pbem.errors import UsageError
from pbem.games.il_principe.rules import RULES as PRINCIPE
from pbem.games.il_principe.state import Game as PrincipeGame
from pbem.games.princes_of_florence import estate as grid
from pbem.games.princes_of_florence.rules import RULES as FLORENCE
from pbem.games.princes_of_florence.state import Game as FlorenceGame
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game, War
from pbem.render.picture import companion_view, game_svg, svg
from pbem.render.picture.canvas import Box, text_box
from pbem.render.picture.page import html_page
from pbem.render.picture.seats import seat_styles
from tests.conftest import Cli, game_ids, make_key_homes
from tests.games.il_principe import support as ip_support
from tests.games.princes_of_florence import support as pof_support
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.test_hidden_deck import Played, step

SVG_TEXT = "{http://www.w3.org/2000/svg}text"
TITLE = "Princes of the Renaissance"
FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "bentivoglio", "d": "este"}
EXAMPLE_TABLE = Path(__file__).parent.parent / "examples" / "table" / "princes-of-the-renaissance.toml"

decade_one = partial(potr_support.decade_one, game_id="5e" * 16, families=FAMILIES)


def texts(picture: str) -> list[str]:
    """Every <text> of an SVG document, which must parse as XML."""
    root = ET.fromstring(picture.encode("utf-8"))
    return ["".join(node.itertext()) for node in root.iter(SVG_TEXT)]


def position() -> Game:
    """Decade I with the statuses spread, Artist tiles, the Pope held and a war under way."""
    state = copy.deepcopy(decade_one())
    state.status = {"venice": 4, "milan": 9, "florence": 6, "rome": 10, "naples": 3}
    state.artists = {"venice": 0, "milan": 2, "florence": 1, "rome": 0, "naples": 0}
    state.pope = "d"
    state.players["a"].victories = 2
    potr_support.grant(state, "b", "florence-banker")
    state.war = War(
        1, "venice", "milan", "a", True, "bribes", attacker_condottiere="b", defender_condottiere="c"
    )
    state.phase = "war"
    return state


def test_the_svg_names_every_city_status_seat_and_score() -> None:
    view = RULES.view(position(), None)
    found = texts(game_svg("princes-of-the-renaissance", TITLE, view, None))
    for city, status in {"venice": 4, "milan": 9, "florence": 6, "rome": 10, "naples": 3}.items():
        assert view["cities"][city]["status"] == status
        assert f"status {status}" in found, city
    assert "Artist / French Invade tiles: 2" in found
    joined = "\n".join(found)
    for seat, row in view["score"].items():
        assert seat in found
        assert f"score so far: {row['total']}" in joined
    assert "Venice's condottiere: b" in found and "Milan's condottiere: c" in found
    assert "war in progress: Venice attacks Milan" in found
    assert "the Pope: held by d" in found
    assert "Banker (Florence)" in joined


def test_each_seat_has_a_colour_a_pattern_and_a_letter() -> None:
    picture = game_svg("princes-of-the-renaissance", TITLE, RULES.view(position(), None), None)
    styles = seat_styles(["a", "b", "c", "d"])
    assert len({colour for colour, _, _ in styles.values()}) == 4
    assert [letter for _, _, letter in styles.values()] == ["A", "B", "C", "D"]
    for index in range(4):
        assert f'<pattern id="seat-{index}"' in picture
        assert f'fill="url(#seat-{index})"' in picture
    # scales to the width of the screen it is shown on
    assert 'viewBox="0 0 640 ' in picture and 'width="100%"' in picture


def test_text_is_escaped_and_characters_xml_refuses_are_replaced() -> None:
    picture = svg.document(svg.svg(10, 10, svg.text(0, 0, 'a<b>&"c"\x01'), svg.group(title='x"<y')))
    assert texts(picture) == ['a<b>&"c"\ufffd']


def test_a_game_pbem_cannot_draw_yet_is_refused() -> None:
    with pytest.raises(UsageError, match="cannot draw Another Game yet"):
        game_svg("another-game", "Another Game", {"players": {}}, None)
    with pytest.raises(UsageError, match="cannot draw a table of Another Game yet"):
        companion_view("another-game", "Another Game", object())


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def self_contained(page: str) -> None:
    """No element of the page loads anything: no script, no address in src or href, no style
    that imports or points elsewhere."""
    parser = _Tags()
    parser.feed(page)
    names = [tag for tag, _ in parser.tags]
    assert "script" not in names and "link" not in names and "iframe" not in names
    for tag, attributes in parser.tags:
        for name in ("src", "href", "xlink:href", "action"):
            value = attributes.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
    styles = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    assert not any("@import" in style or re.search(r"url\((?!#)", style) for style in styles)
    assert "http://" not in "".join(styles) and "https://" not in "".join(styles)


def test_the_page_is_self_contained_whatever_the_log_says() -> None:
    hostile = '<script src="https://example.org/x.js"></script><img src="http://example.org/p.png">'
    page = html_page(
        TITLE,
        game_svg("princes-of-the-renaissance", TITLE, RULES.view(position(), None), None),
        score={"a": {"total": 3}},
        letters=seat_styles(["a"]),
        log=[f"   4  a            note       {hostile!r}"],
    )
    self_contained(page)
    assert "&lt;script src=" in page
    assert page.count("<svg") == 1


# --- through the command line ------------------------------------------------------------------


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A three-player game played until a seat can read a card it holds face down."""
    seats = ("a", "b", "c")
    root = tmp_path_factory.mktemp("pictures")
    make_key_homes(root, seats)
    played = Played(root, root / "game.toml")
    with game_ids("potr hidden deck"):
        played.ok("a", "new", str(played.game), "--game", "potr", "--players", ",".join(seats), "--as", "a")
    for seat in seats[1:]:
        played.ok(seat, "join", str(played.game), "--as", seat)
    for _ in range(200):
        if any(card for seat in seats for card in played.hand(seat).values()):
            return played
        step(played)
    pytest.fail("the seeded game no longer deals a readable card: choose another game id label")


def picture(played: Played, seat: str, path: Path, *args: str) -> str:
    played.ok(seat, "show", str(played.game), *args)
    return path.read_text(encoding="utf-8")


def test_a_hidden_card_is_only_in_its_holders_picture(dealt: Played, tmp_path: Path) -> None:
    seats = ("a", "b", "c")
    public = json.loads(dealt.ok("a", "show", str(dealt.game), "--json").stdout)
    names = public["treachery_names"]
    holder = next(seat for seat in seats if any(dealt.hand(seat).values()))
    held = {token: names[card] for token, card in dealt.hand(holder).items() if card}
    pictures: dict[str, str] = {}
    for seat in seats:
        out = tmp_path / f"{seat}.svg"
        pictures[seat] = picture(dealt, seat, out, "--as", seat, "--svg", str(out))
    out = tmp_path / "public.svg"
    pictures["public"] = picture(dealt, "a", out, "--svg", str(out))
    page = tmp_path / "own.html"
    own_page = picture(dealt, holder, page, "--as", holder, "--html", str(page))
    for token, name in held.items():
        assert f"{name} ({token})" in "\n".join(texts(pictures[holder]))
        assert f"{name} ({token})" in own_page
        for other, text in pictures.items():
            if other == holder:
                continue
            assert f"{name} ({token})" not in text, other  # tokens are public, what they hide is not
            # the name may be there only as a card of the same kind played, or held by that seat
            own = {names[card] for card in dealt.hand(other).values() if card} if other in seats else set()
            if name not in own and name not in public["treachery_discards"]:
                assert name not in text, other
    for seat, text in pictures.items():
        found = texts(text)
        for city in public["cities"].values():
            assert f"status {city['status']}" in found
        assert all(name in found for name in seats), seat
    self_contained(own_page)
    # one item per entry (``pbem log`` also prints what came of each, under it)
    entries = json.loads(dealt.ok("a", "log", str(dealt.game), "--json").stdout)
    assert own_page.count("<li>") == len(entries)


def test_the_page_holds_the_score_and_the_log(dealt: Played, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    page = picture(dealt, "b", out, "--html", str(out))
    self_contained(page)
    view = json.loads(dealt.ok("a", "show", str(dealt.game), "--json").stdout)
    for row in view["score"].values():
        assert f"<td>{row['total']}</td>" in page
    first_line = dealt.ok("a", "log", str(dealt.game)).stdout.splitlines()[0]
    assert svg.escape_text(first_line) in page


def test_the_png_is_the_picture_rendered(dealt: Played, tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    out = tmp_path / "game.png"
    dealt.ok("a", "show", str(dealt.game), "--png", str(out))
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 1280, "twice the picture's 640 units"


# --- companion mode ----------------------------------------------------------------------------


def test_a_companion_table_is_drawn_from_its_log(cli: Cli, tmp_path: Path) -> None:
    table = log.replay(gamefile.load(EXAMPLE_TABLE).data, str(EXAMPLE_TABLE))
    game: Game = table.state.game
    out, page = tmp_path / "table.svg", tmp_path / "table.html"
    result = cli("table", "show", str(EXAMPLE_TABLE), "--svg", str(out), "--html", str(page))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    found = texts(out.read_text(encoding="utf-8"))
    joined = "\n".join(found)
    for city, status in game.status.items():
        name = game.components.city(city).name
        assert name in found and f"status {status}" in found
    for seat, total in table.tracker.totals(table.state).items():
        assert seat in found
        assert f"score so far: {total}" in joined
    html = page.read_text(encoding="utf-8")
    self_contained(html)
    assert html.count("<li>") == len(table.actions)
    assert "alice wins city" in html


def test_a_game_before_its_first_decade_is_drawn_too(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game()
    out = tmp_path / "start.svg"
    result = cli("show", str(game), "--svg", str(out), home="a")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"wrote {out}\n"
    found = texts(out.read_text(encoding="utf-8"))
    assert {"a", "b", "c"} <= set(found)
    assert found.count("City tiles not drawn yet") == 5
    # made again each turn: a second picture replaces the first
    assert cli("show", str(game), "--svg", str(out), home="a").exit_code == 0


# --- Princes of Florence and Il Principe -------------------------------------------------------


def titles(picture: str) -> list[str]:
    """Every <title> of an SVG document: the tooltips that name a piece, a region, a seat."""
    root = ET.fromstring(picture.encode("utf-8"))
    return ["".join(node.itertext()) for node in root.iter("{http://www.w3.org/2000/svg}title")]


def mentions(picture: str, token: str) -> bool:
    """Whether ``token`` is in the picture as itself (``building:4``, not part of ``building:41``)."""
    return re.search(re.escape(token) + r"(?!\d)", picture) is not None


def florence() -> tuple[FlorenceGame, dict[str, str]]:
    """Three seats after the deal, with buildings and landscapes on two estates and a prestige
    card face down in ann's hand; and the name of every hidden card, by token."""
    game = pof_support.new_game(("ann", "bob", "cy"))
    dealer = pof_support.dealer_for(game, 5)
    game = pof_support.deal(game, dealer)
    parts = game.components

    def laid(estate: grid.Estate, *placements: tuple[str, str]) -> grid.Estate:
        for piece, at in placements:
            found = parts.buildings.get(piece) or parts.landscapes[piece]
            estate = grid.place(estate, found, grid.Placement(piece, grid.parse_square(at)), builders=3)
        return estate

    ann, bob, cy = game.players
    prestige = dealer.piles["prestige"][0]
    ann = replace(
        ann,
        estate=laid(ann.estate, ("theatre", "d1"), ("forest", "a4")),
        prestige_cards=(prestige,),
        jesters=1,
    )
    bob = replace(bob, estate=laid(bob.estate, ("tower", "a7"), ("lake", "e5")), builders=1)
    return replace(game, players=(ann, bob, cy)), dealer.cards


def florence_picture(game: FlorenceGame, cards: Mapping[str, str], seat: str | None) -> str:
    """The picture pbem show --svg [--as SEAT] draws: the seat's view and, for its own, its hand."""
    view = FLORENCE.view(game, seat)
    if seat is not None:
        player = game.player(seat)
        view["hand"] = {token: cards[token] for token in (*player.hand, *player.prestige_cards)}
    return game_svg("princes-of-florence", "Princes of Florence", view, seat)


def test_a_florence_picture_draws_each_estate_and_what_each_player_holds() -> None:
    game, cards = florence()
    picture = florence_picture(game, cards, None)
    found = texts(picture)
    joined = "\n".join(found)
    scores = FLORENCE.view(game, None)["score"]
    for player in game.players:
        assert player.seat in found
        assert f"florins {player.florins} · prestige {player.points} · score so far: " in joined
        assert f"score so far: {scores[player.seat]['total']}" in joined
    assert "buildings: theatre" in found and "landscapes: forest" in found
    assert "buildings: tower" in found and "landscapes: lake" in found
    # the pieces on their squares, each labelled (the palace too) and named in full in a tooltip
    assert found.count("palace") == 3
    assert {"theatre", "forest", "tower", "lake"} <= set(found) | set(titles(picture))
    assert "round 1 of 7 · phase: auction · minimum work value 7" in joined
    assert 'viewBox="0 0 640 ' in picture


def test_a_florence_seats_hidden_cards_are_only_in_its_own_picture() -> None:
    game, cards = florence()
    pictures = {seat: florence_picture(game, cards, seat) for seat in game.seats}
    pictures["public"] = florence_picture(game, cards, None)
    for seat in game.seats:
        player = game.player(seat)
        held = [*player.hand, *player.prestige_cards]
        assert held, seat
        for token in held:
            shown = f"{cards[token]} ({token})"
            assert shown in texts(pictures[seat]), (seat, shown)
            for other, picture in pictures.items():
                if other != seat:
                    assert shown not in picture and not mentions(picture, token), (other, shown)
    assert "prestige cards: face down" in "\n".join(texts(pictures["bob"]))


def principe() -> tuple[PrincipeGame, dict[str, str]]:
    """Four seats in round 1 with three cities built, shields in four regions and two roles held;
    and the name of every hidden card, by token."""
    game = ip_support.new_game(("andrea", "barbara", "tom", "nick"))
    dealer = ip_support.dealer_for(game, 3)
    game = dealer.settle(game)
    andrea, barbara, tom, nick = game.players
    players = (
        replace(andrea, shields={"brown": 1, "green": 2, "purple": 1}, cities=("firenze",)),
        replace(barbara, shields={"blue": 1, "green": 1}, cities=("milano",)),
        replace(tom, shields={"red": 1}, cities=("venezia",)),
        nick,
    )
    built = {"firenze": "andrea", "milano": "barbara", "venezia": "tom"}
    roles = {"green major": "andrea", "blue minor": "tom"}
    return replace(game, players=players, built=built, roles=roles), dealer.cards


def principe_picture(game: PrincipeGame, cards: Mapping[str, str], seat: str | None) -> str:
    view = PRINCIPE.view(game, seat)
    if seat is not None:
        view["hand"] = {token: cards[token] for token in game.player(seat).hand}
    return game_svg("il-principe", "Il Principe", view, seat)


def city_group(picture: str, name: str) -> ET.Element:
    """The <g> that draws the city ``name``: its title begins with the name."""
    root = ET.fromstring(picture.encode("utf-8"))
    for node in root.iter("{http://www.w3.org/2000/svg}g"):
        first = node.find("{http://www.w3.org/2000/svg}title")
        if first is not None and (first.text or "").startswith(f"{name}: "):
            return node
    raise AssertionError(f"no city {name}")


def test_a_principe_picture_draws_the_map_the_roles_and_each_family() -> None:
    game, cards = principe()
    picture = principe_picture(game, cards, None)
    found = texts(picture)
    joined = "\n".join(found)
    for card in game.components.cities.values():
        assert card.name in found, card.name
    for city, builder in game.built.items():
        drawn = city_group(picture, game.components.cities[city].name)
        assert f"built by {builder}" in "".join(drawn.itertext())
        assert builder in titles(ET.tostring(drawn, encoding="unicode")), "the builder's token on it"
    unbuilt = city_group(picture, "Siena")
    assert "built by" not in "".join(unbuilt.itertext())
    tips = titles(picture)
    assert "region green: andrea 2, barbara 1" in tips
    assert "region red: tom 1" in tips and "region yellow: no shields" in tips
    assert "andrea" in found and "tom" in found  # the holders of green major and blue minor
    assert "on the board" in found
    scores = PRINCIPE.view(game, None)["score"]
    for player in game.players:
        assert player.seat in found
        assert f"score so far: {scores[player.seat]['total']}" in joined


def test_a_principe_regions_shields_stay_inside_the_map() -> None:
    """Every family with shields in each outer region: the rows at the ring's far left and right
    are the widest there can be, and each marker and count still falls inside the map's frame."""
    game, cards = principe()
    everywhere = dict.fromkeys(("blue", "red", "yellow", "purple", "brown"), 1)
    game = replace(game, players=tuple(replace(player, shields=everywhere) for player in game.players))
    root = ET.fromstring(principe_picture(game, cards, None).encode("utf-8"))
    frame = next(
        node for node in root.iter("{http://www.w3.org/2000/svg}rect") if node.get("fill") == "#FBF8F0"
    )
    left, width = float(frame.get("x", "0")), float(frame.get("width", "0"))
    rows = 0
    for node in root.iter("{http://www.w3.org/2000/svg}g"):
        tip = node.find("{http://www.w3.org/2000/svg}title")
        if tip is None or not (tip.text or "").startswith("region "):
            continue
        rows += 1
        for text in node.iter("{http://www.w3.org/2000/svg}text"):
            x = float(text.get("x", "0"))
            assert left <= x <= left + width - 20, (tip.text, text.text, x)
    assert rows == 6


def test_a_principe_familys_hand_is_only_in_its_own_picture() -> None:
    game, cards = principe()
    pictures = {seat: principe_picture(game, cards, seat) for seat in game.seats}
    pictures["public"] = principe_picture(game, cards, None)
    for seat in game.seats:
        hand = game.player(seat).hand
        assert hand, seat
        for token in hand:
            assert f"{cards[token]} ({token})" in texts(pictures[seat])
            for other, picture in pictures.items():
                if other != seat:
                    assert not mentions(picture, token), (other, token)
        assert f"hand: {len(hand)} cards" in "\n".join(texts(pictures["public"]))


@pytest.mark.parametrize(
    ("example", "seats"),
    [("princes-of-florence.toml", ("alice", "bob", "carla")), ("il-principe.toml", ("ann", "ben", "cat"))],
)
def test_a_companion_table_of_each_game_is_drawn_from_its_log(
    cli: Cli, tmp_path: Path, example: str, seats: tuple[str, ...]
) -> None:
    path = EXAMPLE_TABLE.with_name(example)
    table = log.replay(gamefile.load(path).data, str(path))
    out, page = tmp_path / "table.svg", tmp_path / "table.html"
    result = cli("table", "show", str(path), "--svg", str(out), "--html", str(page))
    assert result.exit_code == 0, result.stderr
    picture = out.read_text(encoding="utf-8")
    found = texts(picture)
    joined = "\n".join(found)
    assert set(seats) <= set(found)
    for seat, total in table.tracker.totals(table.state).items():
        assert f"score so far: {total}" in joined, seat
    assert "Final score" in found
    html = page.read_text(encoding="utf-8")
    self_contained(html)
    assert html.count("<li>") == len(table.actions)
    if example == "il-principe.toml":
        for city, builder in table.state.built.items():
            drawn = city_group(picture, city.capitalize())
            assert builder in titles(ET.tostring(drawn, encoding="unicode"))
        assert "region yellow: ben 1, cat 2" in titles(picture)
        assert "cities whose regions are not known yet:" in found
    else:
        estates = table.state.estates
        for seat in seats:
            assert f"buildings: {', '.join(estates[seat].buildings)}" in joined
        assert found.count("squares not recorded at the table") == 3


SVG = "{http://www.w3.org/2000/svg}"


def map_boxes(picture: str, title: str, only: str = "") -> list[tuple[str, Box]]:
    """What each text (of class ``only``, if given) and each seat's token on the map (the group
    titled ``title``) covers, at the average glyph widths the pictures wrap text with; a token's
    letter lies within its token."""
    root = ET.fromstring(picture.encode("utf-8"))
    group = next(
        node for node in root.iter(f"{SVG}g") if (node.findtext(f"{SVG}title") or "").startswith(title)
    )
    boxes: list[tuple[str, Box]] = []
    for node in group.iter():
        kind = (node.get("class") or "").split()
        if node.tag == f"{SVG}text" and "letter" not in kind and (not only or only in kind):
            size = 10 if "small" in kind else 14 if "name" in kind else 16 if "big" in kind else 12
            bold = bool({"bold", "name", "big"} & set(kind))
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            anchor = node.get("text-anchor") or "start"
            boxes.append((node.text or "", text_box(x, y, node.text or "", size, anchor=anchor, bold=bold)))
        elif node.tag == f"{SVG}rect" and (node.get("fill") or "").startswith("url(#seat-"):
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            width, height = float(node.get("width", "0")), float(node.get("height", "0"))
            boxes.append(("a seat's token", Box(x, y, x + width, y + height)))
    return boxes


def overlapping(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    return [
        (first, second)
        for index, (first, one) in enumerate(boxes)
        for second, other in boxes[index + 1 :]
        if one.overlaps(other)
    ]


def test_no_two_labels_or_tokens_on_the_principe_map_overlap() -> None:
    """Every city built (a builder's token on each) and every family's shields in every region:
    no city's name or points, region name, shield count or token covers another."""
    game, cards = principe()
    everywhere = dict.fromkeys(("blue", "red", "yellow", "purple", "brown", "green"), 1)
    seats = game.seats
    built = {city: seats[index % len(seats)] for index, city in enumerate(sorted(game.components.cities))}
    game = replace(
        game,
        built=built,
        players=tuple(replace(player, shields=everywhere) for player in game.players),
    )
    picture = principe_picture(game, cards, None)
    boxes = map_boxes(picture, "the regions and cities")
    assert len([name for name, _ in boxes if name == "a seat's token"]) >= len(built)
    for card in game.components.cities.values():
        assert card.name in [name for name, _ in boxes], card.name
    assert overlapping(boxes) == []


def test_no_two_city_names_on_the_renaissance_map_overlap() -> None:
    """The cities' cards and their names, with the tokens of the Pope and the war's sides."""
    picture = game_svg("princes-of-the-renaissance", TITLE, RULES.view(position(), None), None)
    boxes = map_boxes(picture, "the five cities", only="name")
    assert len(boxes) >= 5
    assert boxes and overlapping(boxes) == []


def choices(picture: str) -> dict[str, list[str]]:
    """The words the picture marks as choosable (``data-choice``), each with the tags marked by it."""
    marked: dict[str, list[str]] = {}
    for node in ET.fromstring(picture.encode("utf-8")).iter():
        if "data-choice" in node.attrib:
            marked.setdefault(node.attrib["data-choice"], []).append(node.tag.rsplit("}", 1)[-1])
    return marked


def test_each_picture_marks_the_places_a_move_names_by_the_moves_word() -> None:
    """What the page lets a click choose: each square of the seat's own estate (only its own,
    and only in its own picture), each Renaissance city, each Il Principe city and region."""
    game, cards = florence()
    own = choices(florence_picture(game, cards, "ann"))
    assert sorted(own) == sorted(f"{column}{row}" for column in "abcdefg" for row in range(1, 8))
    assert all(tags == ["rect"] for tags in own.values())
    assert choices(florence_picture(game, cards, None)) == {}
    potr = choices(game_svg("princes-of-the-renaissance", TITLE, RULES.view(position(), None), None))
    assert potr == {city: ["circle", "g"] for city in ("milan", "venice", "florence", "rome", "naples")}
    principe_game, principe_cards = principe()
    places = choices(principe_picture(principe_game, principe_cards, None))
    assert {city for city, tags in places.items() if tags == ["g"]} == set(principe_game.components.cities)
    regions = {region for region, tags in places.items() if tags == ["polygon", "g"]}
    assert regions == set(PRINCIPE.view(principe_game, None)["regions"])
