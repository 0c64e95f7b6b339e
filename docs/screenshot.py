"""The README's picture of the page pbem web serves: a Princes of Florence game as the seat to
move sees it in a desktop browser, a building chosen and the squares of the estate it may
stand on marked. Drawn by the page itself in headless Chromium, with the browser tests' game.

Usage:
    python docs/screenshot.py          write docs/web-game.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.test_web_browser import (  # noqa: E402
    CHROMIUM,
    FLORENCE_NOW,
    a_building,
    florence_game,
    game_page,
    served,
)

OUT = ROOT / "docs" / "web-game.png"


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        florence = florence_game(Path(scratch))
        with served(florence.home, FLORENCE_NOW) as url, game_page(browser, url, florence.game_id) as page:
            piece, _, _ = a_building(page, lambda count: count > 1)
            page.locator(f'#choices button[data-value="{piece}"]').click()
            page.mouse.move(0, 0)  # no button left hovered
            page.screenshot(path=str(OUT), full_page=False)
        browser.close()
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
