"""How fast pbem web answers a player: the first paint of a game's page, and a move from the click
on Play to its signed entry on disk, against ``pbem play`` making the same move in the same run.

The page is served by ``pbem web --no-open`` (as a player starts it) and opened in headless system
Chromium driven by Playwright, as tests/test_web_browser.py does.

- **First paint**: the Il Principe example's page (examples/principe-four-players.toml, in the
  library of a home), loaded twice to warm the server, then ``--repeat`` times, each time the
  browser's own ``first-contentful-paint`` time for the navigation.
- **A move**: a Princes of Florence build (the position and the seat's key of
  tests/test_move_forms.py's ``florence_build``), on a fresh copy each time: in the page, from the
  click on Play until the file on disk holds the entry; on the command line, ``pbem play FILE
  --as SEAT MOVE`` from start to exit, the same move on another fresh copy.

    usage: python benchmarks/bench_web.py [--repeat N] [--json] [--quick]

Needs the ``web`` extra, Playwright and a system Chromium.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the test homes and positions live with the tests

from pbem import gamefile  # noqa: E402
from pbem.mail.library import Library  # noqa: E402


def first_paints(browser: Any, url: str, game_id: str, repeat: int) -> list[float]:
    """The first-contentful-paint time of the game's page, in ms, after two loads that warm the
    server (and the replayed state it keeps)."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url)  # the token becomes the cookie
    address = url.split("/?", 1)[0] + f"/game/{game_id}"
    paints = []
    for at in range(repeat + 2):
        page.goto(address, wait_until="load")
        # the paint entries come once the frame is drawn, which may be just after the load event
        painted = page.evaluate(
            """() => new Promise((done) => {
                const seen = () => performance.getEntriesByName("first-contentful-paint")[0];
                if (seen()) return done(seen().startTime);
                new PerformanceObserver(() => seen() && done(seen().startTime)).observe(
                    {type: "paint", buffered: true});
                setTimeout(() => done(null), 5000);
            })"""
        )
        if at >= 2 and painted is not None:
            paints.append(float(painted))
    context.close()
    return paints


def web_move(
    browser: Any, served: Any, home: Path, game: Path, *, game_id: str, move: str, now: str
) -> float:
    """Seconds from the click on Play (the move's text in the box) until the file holds its entry."""
    before = game.read_bytes()
    with served(home, now) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.goto(url)
        page.goto(url.split("/?", 1)[0] + f"/game/{game_id}")
        page.locator("#move-text").fill(move)
        start = time.perf_counter()
        page.locator("#play-button").click()
        while game.read_bytes() == before:
            time.sleep(0.001)
        took = time.perf_counter() - start
        page.wait_for_load_state()
        context.close()
    return took


def cli_move(home: Path, game: Path, seat: str, move: str, now: str) -> float:
    """Seconds ``pbem play`` takes to make the same move, from start to exit."""
    import os

    env = os.environ | {"PBEM_HOME": str(home), "PBEM_NOW": now}
    env.pop("PBEM_PASSPHRASE", None)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "play", str(game), "--as", seat, *move.split()],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pbem play failed: {done.stderr.strip()}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="one of each: checks the script runs")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat

    from playwright.sync_api import sync_playwright

    from tests.test_web_browser import CHROMIUM, FLORENCE_NOW, florence_game, served

    if CHROMIUM is None:
        raise SystemExit("no Chromium on this machine")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-web-") as folder, sync_playwright() as driver:
        root = Path(folder)
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        # the Il Principe example in a home's library
        viewer = root / "viewer"
        viewer.mkdir()
        example = root / "principe.toml"
        shutil.copyfile(ROOT / "examples" / "principe-four-players.toml", example)
        principe_id = gamefile.load(example).data["game"]["id"]
        Library(viewer).register(principe_id, example)
        with served(viewer, FLORENCE_NOW) as url:
            paints = first_paints(browser, url, principe_id, repeat)
        # the Florence build, on fresh copies
        (root / "florence").mkdir()
        florence = florence_game(root / "florence")
        moves = [
            text
            for text in _legal(florence.game, florence.seat)
            if text.startswith("build ") and not text.endswith("mirrored")
        ]
        move = moves[0]
        web, cli = [], []
        for at in range(repeat):
            # each move from a home of its own, as it was before any move: a home remembers the
            # head it last saw of a game, and a copy behind it is refused
            home, copy = root / f"web-{at}", root / f"web-{at}.toml"
            shutil.copytree(florence.home, home)
            shutil.copyfile(florence.game, copy)
            Library(home).register(florence.game_id, copy)
            web.append(
                web_move(browser, served, home, copy, game_id=florence.game_id, move=move, now=FLORENCE_NOW)
            )
            home, copy = root / f"cli-{at}", root / f"cli-{at}.toml"
            shutil.copytree(florence.home, home)
            shutil.copyfile(florence.game, copy)
            Library(home).register(florence.game_id, copy)
            cli.append(cli_move(home, copy, florence.seat, move, FLORENCE_NOW))
        browser.close()
    result = {
        "first_paint_ms_median": round(statistics.median(paints), 1) if paints else None,
        "first_paints_ms": [round(paint, 1) for paint in paints],
        "move": move,
        "web_click_to_disk_s_median": round(statistics.median(web), 3),
        "cli_pbem_play_s_median": round(statistics.median(cli), 3),
        "web_over_cli": round(statistics.median(web) / statistics.median(cli), 2),
        "repeat": repeat,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    note = "  (--quick: one of each; the figures measure nothing)" if args.quick else ""
    print(f"pbem web, {repeat} of each{note}")
    paint = result["first_paint_ms_median"]
    print(f"  first paint of the Il Principe example's page, warm: {paint} ms (median)")
    print(f"  a Florence build ({move}):")
    print(f"    click on Play to the entry on disk   {result['web_click_to_disk_s_median']} s")
    print(f"    pbem play, start to exit             {result['cli_pbem_play_s_median']} s")
    print(f"    web / pbem play                      {result['web_over_cli']}")
    return 0


def _legal(game: Path, seat: str) -> list[str]:
    from pbem.engine import ledger as ledger_mod
    from pbem.engine import play

    data = gamefile.load(game).data
    read = ledger_mod.read(data, lambda *_: None)
    _, texts = play.legal(read, seat)
    return texts


if __name__ == "__main__":
    raise SystemExit(main())
