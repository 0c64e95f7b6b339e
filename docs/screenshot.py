"""The README's pictures of the pages pbem web serves, each drawn by the page itself in headless
Chromium (the system's, driven by Playwright), most of them at positions the browser tests play:

    docs/web-library.png       "Your games" (/): a home holding a Princes of the Renaissance and an
                               Il Principe game of the shipped examples, a Princes of Florence game
                               waiting for a player to join, and a table log (desktop)
    docs/web-game.png          a Princes of Florence game as the seat to move sees it, a building
                               chosen and the squares of the estate it may stand on marked (desktop)
    docs/web-principe.png      an Il Principe game: the seat's building cards, the cities it may
                               build marked on the picture, the cards it may play (desktop)
    docs/web-renaissance.png   a Princes of the Renaissance game during a City tile's auction, the
                               seat holding a Treachery card (desktop)
    docs/web-table-phone.png   companion mode's table page (pbem web --table LOG) for a table log of
                               a few actions, on a phone (390x844), the whole page
    docs/web-game-phone.png    the Il Principe game page on a phone (390x844)

Every game, key and table log is made again in a temporary directory, at fixed times and with
the examples' fixed draws, so each run draws the same pages (only the fonts are the machine's).

Usage:
    python docs/screenshot.py               write every picture
    python docs/screenshot.py --only NAME   write one: library, game, principe, renaissance,
                                            table-phone or game-phone
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, FloatRect, Page, ViewportSize, sync_playwright  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from pbem.cli import app  # noqa: E402
from pbem.mail.library import Library  # noqa: E402
from tests.test_web_browser import (  # noqa: E402
    CHROMIUM,
    DESKTOP,
    FLORENCE_NOW,
    WAIT_MS,
    a_building,
    florence_game,
    game_page,
)
from tests.test_web_browser import served as web_served  # noqa: E402
from tests.test_web_browser_games import NOW, PRINCIPE_BUILD, SEATS, SEED, Position, position  # noqa: E402

DOCS = ROOT / "docs"
PHONE = ViewportSize(width=390, height=844)
MARGIN = 24  # CSS pixels kept under a page's content
# Princes of the Renaissance before entry 49 of the example: alice bids in the auction of a Venice
# merchant tile, holding the Treachery card she bought at entry 40
RENAISSANCE_AUCTION = ("princes-of-the-renaissance", 49, "alice")
TABLE_GAME = "princes-of-the-renaissance"
TABLE_PLAYERS = "alice,bob,carla"
TABLE_ACTIONS = 10  # the first actions of examples/table/princes-of-the-renaissance.actions
TABLE_START = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)  # then an action a minute, as record.sh
TABLE_WORDS = ("carla", "wins")  # the action's first words, chosen by their buttons


@dataclass
class Scratch:
    """A temporary directory, with the seed-1 examples' keys made in it once."""

    root: Path
    _keys: Path | None = None
    _homes: ModuleType | None = None
    _made: int = 0

    def homes(self) -> ModuleType:
        if self._homes is None:
            spec = importlib.util.spec_from_file_location("example_homes", ROOT / "examples" / "homes.py")
            assert spec is not None and spec.loader is not None
            self._homes = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(self._homes)
        return self._homes

    def keys(self) -> Path:
        """Every seat's key of the seed-1 examples (Il Principe, Princes of the Renaissance), made
        again as examples/homes.py made them; their homes' directory."""
        if self._keys is None:
            run = self.homes().Runner(self.root / "keys", SEED)
            for seat in SEATS:
                run(seat, "key", "new", seat, "--no-passphrase")
            self._keys = self.root / "keys" / "homes"
        return self._keys

    def fresh(self) -> Path:
        self._made += 1
        made = self.root / f"{self._made}"
        made.mkdir(parents=True)
        return made

    def position(self, name: str, count: int, seat: str) -> Position:
        """The example of game ``name`` before entry ``count``, in the library of ``seat``'s home."""
        return position(self.fresh(), self.keys(), name, count, seat)


@contextmanager
def served(home: Path, now: str, tables: tuple[Path, ...] = ()) -> Iterator[str]:
    """``pbem web --no-open [--table LOG ...]`` serving ``home``'s library at ``now``: the address
    it prints first, token and all, once the server answers."""
    with web_served(home, now, *(arg for table in tables for arg in ("--table", str(table)))) as url:
        yield url


@contextmanager
def phone(browser: Browser, url: str) -> Iterator[Page]:
    """A page on a phone's screen, at the printed address (the library)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(url)
        yield page
    finally:
        context.close()


@contextmanager
def desktop(browser: Browser, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(url)
        yield page
    finally:
        context.close()


def shot(page: Page, name: str, *, full_page: bool = False, to_end: bool = False) -> None:
    """docs/web-NAME.png: what the screen shows, or the whole page; ``to_end``: the screen's top
    down to where the page's content ends, without the empty screen under it."""
    page.mouse.move(0, 0)  # no button left hovered
    out = DOCS / f"web-{name}.png"
    clip: FloatRect | None = None
    if to_end:
        viewport = page.viewport_size
        end = page.locator("main").bounding_box()
        assert viewport is not None and end is not None
        height = min(viewport["height"], end["y"] + end["height"] + MARGIN)
        clip = FloatRect(x=0, y=0, width=viewport["width"], height=height)
    page.screenshot(path=str(out), full_page=full_page, clip=clip)
    print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes)")


def pbem(*args: str, now: str) -> None:
    """``pbem ARGS`` run by pbem's own command line, at ``now``, recorded by the host."""
    env = {"PBEM_NOW": now, "PBEM_TABLE_BY": "host", "NO_COLOR": "1", "COLUMNS": None}
    done = CliRunner().invoke(app, list(args), env=env)
    if done.exit_code != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed: {done.stderr.strip()}")


def stamp(minutes: int) -> str:
    return (TABLE_START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def table_log(scratch: Scratch) -> Path:
    """A companion-mode table log, ``pbem table new`` then a ``pbem table add`` for each of the
    example's first actions, a minute apart, as examples/table/record.sh records them."""
    log = scratch.fresh() / "table.toml"
    pbem("table", "new", str(log), "--game", TABLE_GAME, "--players", TABLE_PLAYERS, now=stamp(0))
    lines = (ROOT / "examples" / "table" / f"{TABLE_GAME}.actions").read_text(encoding="utf-8").splitlines()
    actions = [line for line in lines if line.strip() and not line.startswith("#")][:TABLE_ACTIONS]
    for minute, action in enumerate(actions, start=1):
        pbem("table", "add", str(log), *action.split(), now=stamp(minute))
    return log


def library(browser: Browser, scratch: Scratch) -> None:
    """alice's library: the Renaissance auction she must bid in, Il Principe where chiara must
    build, a Princes of Florence game she made that chiara has yet to join, and a table."""
    home = scratch.position(*RENAISSANCE_AUCTION).home
    principe = scratch.position(*PRINCIPE_BUILD)
    Library(home).register(principe.game_id, principe.game)
    run = scratch.homes().Runner(scratch.root / "keys", SEED, "2026-11-30T18:00:00Z")
    florence = scratch.root / "keys" / "florence.toml"  # under the runner's root: the same draws
    made = ("--game", "princes-of-florence", "--players", "alice,bruno,chiara", "--as", "alice")
    run("alice", "new", str(florence), *made)
    run("bruno", "join", str(florence), "--as", "bruno")
    Library(home).register(tomllib.loads(florence.read_text(encoding="utf-8"))["game"]["id"], florence)
    with served(home, NOW, (table_log(scratch),)) as url, desktop(browser, url) as page:
        page.locator("table.games").wait_for()
        shot(page, "library", to_end=True)


def florence(browser: Browser, scratch: Scratch) -> None:
    game = florence_game(scratch.fresh())
    with served(game.home, FLORENCE_NOW) as url, game_page(browser, url, game.game_id) as page:
        piece, _, _ = a_building(page, lambda count: count > 1)
        page.locator(f'#choices button[data-value="{piece}"]').click()
        shot(page, "game")


def principe(browser: Browser, scratch: Scratch) -> None:
    where = scratch.position(*PRINCIPE_BUILD)
    with served(where.home, NOW) as url, game_page(browser, url, where.game_id) as page:
        page.locator(".picture svg .choosable").first.wait_for()
        shot(page, "principe")


def renaissance(browser: Browser, scratch: Scratch) -> None:
    where = scratch.position(*RENAISSANCE_AUCTION)
    with served(where.home, NOW) as url, game_page(browser, url, where.game_id) as page:
        page.locator("#choices button", has_text="bid AMOUNT").click()
        shot(page, "renaissance")


def table_phone(browser: Browser, scratch: Scratch) -> None:
    with served(scratch.fresh(), NOW, (table_log(scratch),)) as url, phone(browser, url) as page:
        page.locator('a[href="/table/0"]').click()
        page.wait_for_url("**/table/0")
        for word in TABLE_WORDS:
            page.locator("#next a.big", has_text=word).click()
            page.locator("#words", has_text=word).wait_for()
        shot(page, "table-phone", full_page=True)


def game_phone(browser: Browser, scratch: Scratch) -> None:
    where = scratch.position(*PRINCIPE_BUILD)
    with served(where.home, NOW) as url, phone(browser, url) as page:
        page.locator(f'a[href="/game/{where.game_id}"]').click()
        page.wait_for_url(f"**/game/{where.game_id}")
        page.locator(".picture svg .choosable").first.wait_for()
        page.locator("#choices").evaluate("node => node.scrollIntoView({block: 'start'})")
        shot(page, "game-phone")


PICTURES: dict[str, Callable[[Browser, Scratch], None]] = {
    "library": library,
    "game": florence,
    "principe": principe,
    "renaissance": renaissance,
    "table-phone": table_phone,
    "game-phone": game_phone,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=" ".join((__doc__ or "").split("\n\n")[0].split()))
    parser.add_argument("--only", choices=sorted(PICTURES), metavar="NAME", help="write this picture only")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(PICTURES)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            for name in names:
                PICTURES[name](browser, Scratch(Path(scratch) / name))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
