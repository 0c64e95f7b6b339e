"""pbem web played as a player plays it: ``pbem web`` serving a home's library, its address
opened in headless Chromium, and every move made by clicks alone, the buttons of the composer
and the places the picture marks; the entry each makes is checked in the game file.

Chromium comes from the system's packages, driven by Playwright (no browser of Playwright's own);
where either is missing the module is skipped, unless PBEM_BROWSER_TESTS=required says it must
run, as CI does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.library import Library
from tests.test_move_forms import florence_build
from tests.test_web import answered, pbem_web

REQUIRED = os.environ.get("PBEM_BROWSER_TESTS") == "required"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if importlib.util.find_spec("playwright") is None or CHROMIUM is None:
    if REQUIRED:
        pytest.fail("no Playwright or no Chromium here, and PBEM_BROWSER_TESTS=required", pytrace=False)
    pytest.skip("no Playwright or no Chromium on this machine", allow_module_level=True)

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = ViewportSize(width=1280, height=1000)
# after the example game's last entry: a move is never dated before the one it follows
FLORENCE_NOW = "2026-12-01T12:00:00Z"
POTR_NOW = "2026-03-01T12:00:00Z"
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@contextmanager
def served(home: Path, now: str, *args: str, **env: str) -> Iterator[str]:
    """``pbem web --no-open ARGS`` serving ``home``'s library at ``now``; the address it prints,
    token and all, once it answers."""
    with pbem_web(home, *args, PBEM_NOW=now, **env) as (url, port):
        answered(f"http://127.0.0.1:{port}/")
        yield url


@contextmanager
def game_page(browser: Browser, url: str, game_id: str) -> Iterator[Page]:
    """The game's page, reached as a player does: the printed address, then the game's link."""
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(url)
        page.locator(f'a[href="/game/{game_id}"]').click()
        page.wait_for_url(f"**/game/{game_id}")
        yield page
    finally:
        context.close()


@dataclass
class Clicks:
    """The clicks a move took."""

    count: int = 0

    def __call__(self, target: Any) -> None:
        target.click()
        self.count += 1


def last_entry(path: Path) -> dict[str, Any]:
    entry: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][-1]
    return entry


def played(page: Page, clicks: Clicks) -> None:
    """Play, and the page fetched again after the POST saying the command went through."""
    with page.expect_navigation():
        clicks(page.locator("#play-button"))
    said = page.locator("#said")
    assert "said ok" in (said.get_attribute("class") or ""), said.inner_text()


# --- Princes of Florence: a build chosen on the estate -------------------------------------------


@dataclass
class Florence:
    home: Path
    game: Path
    game_id: str
    seat: str


def example_key(root: Path, seat: str) -> Path:
    """``seat``'s key of the Florence example, made again as examples/play-florence.py made it:
    the same seed, clock and draws give the same key, so this home may sign the seat's moves."""
    spec = importlib.util.spec_from_file_location("example_homes", ROOT / "examples" / "homes.py")
    assert spec is not None and spec.loader is not None
    homes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(homes)
    seats = ("alice", "bruno", "chiara", "dario")  # examples/play-florence.py's, in its order
    run = homes.Runner(root, 3)
    for each in seats[: seats.index(seat) + 1]:
        run(each, "key", "new", each, "--no-passphrase")
    home: Path = root / "homes" / seat
    return home


def florence_game(root: Path) -> Florence:
    """A home holding the key of a Florence seat that may build, its library the game at that point."""
    path, seat, _ = florence_build(root)
    home = example_key(root / "keys", seat)
    game_id = tomllib.loads(path.read_text(encoding="utf-8"))["game"]["id"]
    Library(home).register(game_id, path)
    return Florence(home, path, game_id, seat)


def forms(page: Page) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = json.loads(page.locator("#forms").text_content() or "[]")
    return shown


def a_building(page: Page, rotations: Callable[[int], bool]) -> tuple[str, str, dict[str, Any]]:
    """A building, a square it may stand on, and its rotations there, each without a mirrored
    way, their number as ``rotations`` asks."""
    build = next(form for form in forms(page) if form["form"].startswith("build "))
    for piece, squares in build["choices"].items():
        for square, turns in squares.items():
            if rotations(len(turns)) and all(list(way) == [""] for way in turns.values()):
                return piece, square, turns
    raise AssertionError("no such building")


def test_a_florence_build_is_chosen_on_the_estate_in_four_clicks(browser: Browser, tmp_path: Path) -> None:
    florence = florence_game(tmp_path)
    with served(florence.home, FLORENCE_NOW) as url, game_page(browser, url, florence.game_id) as page:
        piece, square, turns = a_building(page, lambda count: count > 1)
        clicks = Clicks()
        clicks(page.locator(f'#choices button[data-value="{piece}"]'))
        marked = page.locator(".picture svg .choosable")
        squares = next(form for form in forms(page) if form["form"].startswith("build "))["choices"][piece]
        assert sorted(marked.evaluate_all("all => all.map(e => e.getAttribute('data-choice'))")) == sorted(
            squares
        )
        clicks(page.locator(f'.picture svg [data-choice="{square}"]'))
        assert page.locator(".picture svg .choosable").count() == 0  # the rotation is no square
        rotation = list(turns)[-1]
        clicks(page.locator(f'#choices button[data-value="{rotation}"]'))
        move = f"build {piece} at {square} rot {rotation}"
        assert page.locator("#move-text").input_value() == move
        played(page, clicks)
        assert clicks.count == 4
    entry = last_entry(florence.game)
    assert (entry["kind"], entry["by"], entry["move"]) == ("move", florence.seat, move)


def test_a_building_that_stands_one_way_round_needs_no_rotation(browser: Browser, tmp_path: Path) -> None:
    florence = florence_game(tmp_path)
    with served(florence.home, FLORENCE_NOW) as url, game_page(browser, url, florence.game_id) as page:
        piece, square, turns = a_building(page, lambda count: count == 1)
        (rotation,) = turns
        page.locator(f'#choices button[data-value="{piece}"]').click()
        page.locator(f'.picture svg [data-choice="{square}"]').click()
        assert page.locator("#move-text").input_value() == f"build {piece} at {square} rot {rotation}"
        page.locator("#choices button", has_text="start again").click()
        assert page.locator(".picture svg .choosable").count() == 0
        assert page.locator(f'#choices button[data-value="{piece}"]').count() == 1


# --- Princes of the Renaissance: a sealed bid by its buttons -------------------------------------


def test_a_sealed_turn_order_bid_is_made_by_its_buttons(
    browser: Browser, make_game: Callable[..., Path], homes: dict[str, Path]
) -> None:
    game = make_game(roll=True)
    before = len(tomllib.loads(game.read_text(encoding="utf-8"))["entry"])
    game_id = tomllib.loads(game.read_text(encoding="utf-8"))["game"]["id"]
    Library(homes["a"]).register(game_id, game)
    with served(homes["a"], POTR_NOW) as url, game_page(browser, url, game_id) as page:
        clicks = Clicks()
        clicks(page.locator('#choices button[data-value="5"]'))
        assert page.locator("#move-text").input_value() == "bid 5"
        played(page, clicks)
        assert clicks.count == 2
        assert "Your sealed turn-order bid: bid 5" in page.locator("#play").inner_text()
    entries = tomllib.loads(game.read_text(encoding="utf-8"))["entry"]
    assert len(entries) == before + 1
    assert (entries[-1]["kind"], entries[-1]["by"]) == ("commit", "a")


def test_a_whole_move_is_previewed_before_it_is_played(
    browser: Browser, make_game: Callable[..., Path], homes: dict[str, Path]
) -> None:
    game = make_game(roll=True)
    before = game.read_bytes()
    game_id = tomllib.loads(game.read_text(encoding="utf-8"))["game"]["id"]
    Library(homes["a"]).register(game_id, game)
    with served(homes["a"], POTR_NOW) as url, game_page(browser, url, game_id) as page:
        page.locator('#choices button[data-value="5"]').click()
        shown = page.locator("#preview")
        shown.locator("svg").wait_for()  # fetched under the page's content security policy
        assert "bid 5 is sealed" in shown.inner_text()
    assert game.read_bytes() == before
