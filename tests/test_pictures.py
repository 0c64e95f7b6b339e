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
from collections.abc import Callable
from functools import partial
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem import gamefile
from pbem.companion import log
from pbem.errors import UsageError
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game, War
from pbem.render.picture import game_svg, svg
from pbem.render.picture.page import html_page
from pbem.render.picture.seats import seat_styles
from tests import potr_support
from tests.conftest import Cli, game_ids, make_key_homes
from tests.test_potr_hidden_deck import Played, step

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
    with pytest.raises(UsageError, match="cannot draw Princes of Florence yet"):
        game_svg("princes-of-florence", "Princes of Florence", {"players": {}}, None)


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
    assert own_page.count("<li>") == len(dealt.ok("a", "log", str(dealt.game)).stdout.splitlines())


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


def test_a_companion_table_of_another_game_is_refused(cli: Cli, tmp_path: Path) -> None:
    other = EXAMPLE_TABLE.with_name("il-principe.toml")
    result = cli("table", "show", str(other), "--svg", str(tmp_path / "x.svg"))
    assert result.exit_code == 2
    assert "cannot draw a table of Il Principe yet" in result.stderr


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
