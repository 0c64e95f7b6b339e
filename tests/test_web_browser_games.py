"""pbem web played by clicks alone in Il Principe and Princes of the Renaissance: positions of the
shipped example games, each read up to some entry (as tests/test_move_forms.py reads them), served
to a home holding the key of the seat to move, made again from the example's seed; the move is made
by the composer's buttons and the places the picture marks, and the entry it makes is checked in
the game file.

With the seat's key the page reads the seat's hand, so the composer offers only the cards and
treachery cards it holds (the rules alone, without the hand, offer far more), and Play signs.
"""

from __future__ import annotations

import importlib.util
import shutil
import tomllib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.engine import play
from pbem.mail.library import Library
from tests import test_web_browser as web
from tests.test_move_forms import BY_GAME, EXAMPLES, at

from playwright.sync_api import Browser, Page  # isort: skip  (test_web_browser skips first without it)

browser = web.browser  # the module's one headless Chromium
# both examples (play-principe.py, play-a-game.py) were played from seed 1 by these seats, each
# key made in this order by one examples/homes.py Runner: the same keys in both games
SEED = 1
SEATS = ("alice", "bruno", "chiara", "dario")
Opened = Callable[[str, int, str], tuple["Position", Page]]
NOW = "2026-12-01T12:00:00Z"  # after both examples' last entries


@pytest.fixture(scope="module")
def example_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every seat's key of the seed-1 examples, made again as examples/homes.py's ``play`` made
    them: the same seed, clock and draws give the same keys."""
    spec = importlib.util.spec_from_file_location("example_homes", web.ROOT / "examples" / "homes.py")
    assert spec is not None and spec.loader is not None
    homes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(homes)
    root = tmp_path_factory.mktemp("example-keys")
    run = homes.Runner(root, SEED)
    for seat in SEATS:
        run(seat, "key", "new", seat, "--no-passphrase")
    return root / "homes"


@dataclass
class Position:
    home: Path
    game: Path
    game_id: str
    seat: str
    unfiltered: list[str]  # the seat's moves as the rules give them, without its hand


def position(tmp_path: Path, keys: Path, name: str, count: int, seat: str) -> Position:
    """The example of game ``name`` read up to entry ``count``, in the library of a copy of
    ``seat``'s home."""
    path = EXAMPLES / BY_GAME[name]
    data = gamefile.load(path).data
    game = at(path, count)
    out = tmp_path / f"{name}.toml"
    out.write_text(
        gamefile.render_new(game.header(), game.roster_table(), data["components"], game.entries, ()),
        encoding="utf-8",
    )
    home = tmp_path / "home"
    shutil.copytree(keys / seat, home)
    game_id = tomllib.loads(out.read_text(encoding="utf-8"))["game"]["id"]
    Library(home).register(game_id, out)
    _, unfiltered = play.legal(game, seat)
    return Position(home, out, game_id, seat, unfiltered)


@pytest.fixture
def opened(browser: Browser, example_keys: Path, tmp_path: Path) -> Iterator[Opened]:
    """``opened(game, count, seat)``: the page of that position, served to the seat's home."""
    with ExitStack() as stack:

        def open_at(name: str, count: int, seat: str) -> tuple[Position, Page]:
            where = position(tmp_path, example_keys, name, count, seat)
            url = stack.enter_context(web.served(where.home, NOW))
            return where, stack.enter_context(web.game_page(browser, url, where.game_id))

        yield open_at


def form(page: Page, starts: str) -> dict[str, Any]:
    return next(shown for shown in web.forms(page) if shown["form"].startswith(starts))


def texts(node: Any) -> Iterator[str]:
    """The moves under a node of a form's choices."""
    if isinstance(node, str):
        yield node
    else:
        for child in node.values():
            yield from texts(child)


def marked(page: Page) -> list[str]:
    places: list[str] = page.locator(".picture svg .choosable").evaluate_all(
        "all => all.map(e => e.getAttribute('data-choice'))"
    )
    return sorted(set(places))  # a place may be drawn in more than one piece


def played_as(where: Position, move: str) -> None:
    """The seat's last move is ``move``; what follows it, the seat did without a choice."""
    entries = tomllib.loads(where.game.read_text(encoding="utf-8"))["entry"]
    at = max(index for index, entry in enumerate(entries) if entry["kind"] == "move")
    assert (entries[at]["by"], entries[at]["move"]) == (where.seat, move)
    assert all(entry["by"] == where.seat and entry["kind"] != "move" for entry in entries[at + 1 :])


# --- Il Principe ---------------------------------------------------------------------------------

# chiara, before entry 153 of principe-four-players.toml: she built Pisa there, and may play cards
PRINCIPE_BUILD = ("il-principe", 153, "chiara")
PISA = "build pisa with building:8 building:19 building:49 building:50 green shields blue blue"


def test_an_il_principe_city_is_built_with_cards_the_seat_holds(opened: Opened) -> None:
    where, page = opened(*PRINCIPE_BUILD)
    builds = list(texts(form(page, "build ")["choices"]))
    rules = [text for text in where.unfiltered if text.startswith("build ")]
    assert PISA in builds
    assert set(builds) < set(rules)  # the hand, read with the key, leaves out what it cannot pay
    clicks = web.Clicks()
    clicks(page.locator('#choices button[data-value="pisa"]'))
    assert marked(page) == []  # the cards are no place on the picture
    clicks(page.locator('#choices button[data-value="building:8 building:19 building:49 building:50 green"]'))
    clicks(page.locator('#choices button[data-value="blue blue"]'))
    assert page.locator("#move-text").input_value() == PISA
    web.played(page, clicks)
    assert clicks.count == 4
    played_as(where, PISA)


def test_an_il_principe_city_to_build_may_be_clicked_on_the_picture(opened: Opened) -> None:
    _, page = opened(*PRINCIPE_BUILD)
    page.locator('.picture svg [data-choice="pisa"]').first.click()
    assert "build pisa with CARDS" in page.locator("#choices").inner_text()


def test_il_principe_cards_are_played_by_their_button(opened: Opened) -> None:
    where, page = opened(*PRINCIPE_BUILD)
    cards = form(page, "play ")["choices"]
    rules = [text for text in where.unfiltered if text.startswith("play ")]
    assert "play green" in cards.values()
    assert set(cards.values()) <= set(rules)
    # green is a card's colour and a region's name: the region is no place to play cards on
    assert page.locator('.picture svg [data-choice="green"]').count() > 0
    assert "green" not in marked(page)
    clicks = web.Clicks()
    row = page.locator("#choices .form").filter(has_text="play CARDS")
    clicks(row.locator('button[data-value="green"]'))
    assert page.locator("#move-text").input_value() == "play green"
    web.played(page, clicks)
    assert clicks.count == 2
    played_as(where, "play green")


def test_an_il_principe_shield_is_placed_by_clicking_its_region(opened: Opened) -> None:
    where, page = opened("il-principe", 102, "dario")  # where dario placed a shield in yellow
    regions = list(form(page, "shield ")["choices"])
    assert marked(page) == sorted(regions)
    clicks = web.Clicks()
    clicks(page.locator('.picture svg [data-choice="yellow"]').first)
    assert page.locator("#move-text").input_value() == "shield yellow"
    web.played(page, clicks)
    assert clicks.count == 2
    played_as(where, "shield yellow")


# --- Princes of the Renaissance ------------------------------------------------------------------

RENAISSANCE = "princes-of-the-renaissance"


def test_a_renaissance_tile_is_put_up_for_auction_by_its_buttons(opened: Opened) -> None:
    where, page = opened(RENAISSANCE, 24, "bruno")  # where bruno put up the Doge at 14
    clicks = web.Clicks()
    clicks(page.locator("#choices button", has_text="auction TILE BID"))
    clicks(page.locator('#choices button[data-value="venice-doge"]'))
    clicks(page.locator('#choices button[data-value="14"]'))
    assert page.locator("#move-text").input_value() == "auction venice-doge 14"
    web.played(page, clicks)
    assert clicks.count == 4
    played_as(where, "auction venice-doge 14")


def test_a_renaissance_auction_bid_is_made_by_its_buttons(opened: Opened) -> None:
    where, page = opened(RENAISSANCE, 25, "alice")  # the Doge's auction, alice to bid first
    clicks = web.Clicks()
    clicks(page.locator("#choices button", has_text="bid AMOUNT"))
    assert "15" in form(page, "bid ")["choices"]
    clicks(page.locator('#choices button[data-value="15"]'))
    assert page.locator("#move-text").input_value() == "bid 15"
    web.played(page, clicks)
    assert clicks.count == 3
    played_as(where, "bid 15")


def test_a_renaissance_war_is_declared_on_a_city_clicked_on_the_picture(opened: Opened) -> None:
    where, page = opened(RENAISSANCE, 115, "bruno")  # where bruno sent Venice to war on Milan
    clicks = web.Clicks()
    clicks(
        page.locator("#choices .form")
        .filter(has_text="war ATTACKER DEFENDER")
        .locator('[data-value="venice"]')
    )
    assert marked(page) == ["florence", "milan", "naples", "rome"]
    clicks(page.locator('.picture svg [data-choice="milan"]').first)
    assert page.locator("#move-text").input_value() == "war venice milan"
    web.played(page, clicks)
    assert clicks.count == 3
    played_as(where, "war venice milan")


def test_a_treachery_card_the_seat_holds_is_played_on_a_city_clicked_on_the_picture(opened: Opened) -> None:
    where, page = opened(RENAISSANCE, 148, "dario")  # where dario played Bad Weather on Venice
    cards = form(page, "play ")["choices"]
    assert list(cards) == ["bad-weather"]  # the one treachery card in his hand
    assert "play veto" in where.unfiltered  # the rules, not knowing his hand, offer one more
    clicks = web.Clicks()
    clicks(page.locator("#choices button", has_text="play CARD"))
    assert marked(page) == sorted(cards["bad-weather"])
    clicks(page.locator('.picture svg [data-choice="venice"]').first)
    assert page.locator("#move-text").input_value() == "play bad-weather venice"
    web.played(page, clicks)
    assert clicks.count == 3
    played_as(where, "play bad-weather venice")
