"""pbem web on a phone, in headless Chromium at a phone's size (390 by 844 CSS px, touch): a round of
a table game recorded by taps alone on ``pbem web --table``'s page, and a Princes of Florence build
whose estate squares, a dozen pixels across on the whole picture, are zoomed to a finger's size.

Princes of Florence's round is the shortest of the table games to record by the page's buttons:
its example's first round is eleven actions, every word of them a button, the prices and the
round's minimum on the page's keypad, the round's end the income button. Every tap loads a page,
so the round recorded here is that one as alice plays it while bob and carla pass: the minimum,
alice's lot, her two actions and the round's end, each kind of word and number the page offers.

Skipped, as tests/test_web_browser.py is, without Playwright or Chromium, unless
PBEM_BROWSER_TESTS=required.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pbem.web.table_pages import table_page
from tests import test_web_browser as web
from tests.conftest import Cli

from playwright.sync_api import Browser, Locator, Page, ViewportSize  # isort: skip  (test_web_browser skips first without it)

browser = web.browser  # the module's one headless Chromium
PHONE = ViewportSize(width=390, height=844)
FINGER = 44  # CSS px: the least height of a tap target (Apple's and WCAG's 44 by 44)
SQUARE = 32  # CSS px: the least side of an estate square zoomed on the picture
EXAMPLE = web.ROOT / "examples" / "table" / "princes-of-florence"
NOW = "2026-11-21T19:00:00Z"


@contextmanager
def opened_at(browser: Browser, viewport: ViewportSize, *, phone: bool) -> Iterator[Page]:
    """A page of a new browser context at ``viewport``: a phone's, touch and all, if ``phone``."""
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    try:
        page = context.new_page()
        page.set_default_timeout(web.WAIT_MS)
        yield page
    finally:
        context.close()


def tapped(page: Page, target: Locator) -> None:
    """A tap on a link or a button, and the page it leads to loaded."""
    with page.expect_navigation():
        target.tap()


def small_targets(page: Page) -> list[tuple[str, float]]:
    """The links and buttons of the page's recording part less tall than a finger is wide."""
    heights: list[tuple[str, float]] = page.locator("#round a, #round button").evaluate_all(
        "all => all.map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"
    )
    return [(text, height) for text, height in heights if height < FINGER]


# --- a table round by taps -----------------------------------------------------------------------


@contextmanager
def table_served(home: Path, log: Path) -> Iterator[str]:
    """``pbem web --no-open --table LOG``: the address it prints, token and all, once it answers."""
    with web.served(home, NOW, "--table", str(log), PBEM_TABLE_BY="host") as url:
        yield url


def first_round(passing: Sequence[str]) -> list[str]:
    """The example's first round, as typed after ``pbem table add``, to its ``round ends``, the
    players ``passing`` doing nothing in it."""
    actions: list[str] = []
    for line in EXAMPLE.with_suffix(".actions").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and line.split()[0] not in passing:
            actions.append(line.strip())
            if line.strip() == "round ends":
                return actions
    raise AssertionError("no round ends in the example")


def recorded(log: Path) -> list[str]:
    return [action["text"] for action in tomllib.loads(log.read_text(encoding="utf-8")).get("action", [])]


def said(page: Page) -> str:
    """What the table command said, after it went through."""
    kind, text = page.locator("#said").evaluate("said => [said.className, said.innerText.trim()]")
    assert kind == "said ok", text
    return str(text)


def recorded_by_taps(page: Page, action: str, number: int, *, measured: bool = False) -> None:
    """``action`` tapped word by word, a number digit by digit on the keypad, then recorded as
    the log's action ``number``; ``measured``: every link and button of each page on the way is
    big enough for a finger (the round's other pages have the same kinds of them: measured on a
    few, the test runs faster)."""

    def tap(target: Locator) -> None:
        assert not measured or small_targets(page) == []
        tapped(page, target)

    for word in action.split():
        if word.isdigit():
            for digit in word:
                tap(page.locator("#keys").get_by_role("link", name=digit, exact=True))
        else:
            tap(page.locator("#next").get_by_role("link", name=word, exact=True))
    # the words the taps chose, shown and in the box that record sends
    shown = page.evaluate(
        "[document.getElementById('words').innerText, document.getElementById('action-text').value]"
    )
    assert shown == [action, action]
    tap(page.locator("#record"))
    assert said(page).splitlines()[0] == f"recorded action {number}: {action}"


def shown_score(page: Page) -> list[dict[str, Any]]:
    """The score as the page shows it: each report's title, columns, rows and notes."""
    reports: list[dict[str, Any]] = page.locator("#score .report").evaluate_all(
        """all => all.map(report => ({
            title: (report.querySelector("caption") || report.querySelector("strong")).textContent,
            columns: [...report.querySelectorAll("th")].map(cell => cell.textContent),
            rows: [...report.querySelectorAll("tbody tr")].map(
                row => [...row.querySelectorAll("td")].map(cell => cell.textContent)),
            notes: [...report.querySelectorAll(".note")].map(note => note.textContent),
        }))"""
    )
    return reports


def scored(cli: Cli, log: Path) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """``pbem table score LOG --json``: its reports as the page writes them, and the totals."""
    score = json.loads(cli("table", "score", str(log), "--json").stdout)
    reports = [
        {
            "title": report["title"],
            "columns": report["columns"],
            "rows": [[str(cell) for cell in row] for row in report["rows"]],
            "notes": report["notes"],
        }
        for report in score["reports"]
    ]
    return reports, score["totals"]


def new_table(cli: Cli, log: Path, game: str, players: list[str]) -> Path:
    made = cli("table", "new", str(log), "--game", game, "--players", ",".join(players))
    assert made.exit_code == 0, made.stderr
    return log


def test_a_florence_round_is_recorded_on_a_phone_by_taps_alone(
    browser: Browser, cli: Cli, tmp_path: Path
) -> None:
    players = tomllib.loads(EXAMPLE.with_suffix(".toml").read_text(encoding="utf-8"))["table"]["players"]
    log = new_table(cli, tmp_path / "table.toml", "princes-of-florence", players)
    *actions, last = first_round(passing=("bob", "carla"))
    assert last == "round ends" and actions == [
        "minimum 6",
        "alice buys builder for 300",
        "alice builds university large",
        "alice creates work mathematician",
    ]
    with table_served(tmp_path / "home", log) as url, opened_at(browser, PHONE, phone=True) as page:
        page.goto(url)
        link = page.locator('a[href="/table/0"]')
        box = link.bounding_box()
        assert box is not None and box["height"] >= FINGER, box
        tapped(page, link)
        for number, action in enumerate(actions, start=1):
            # the first two meet the next words, the keypad, start again, record, income and undo
            recorded_by_taps(page, action, number, measured=number <= 2)
        assert recorded(log) == actions
        tapped(page, page.locator("#undo"))
        assert said(page) == f"undone action {len(actions)}: {actions[-1]}"
        assert recorded(log) == actions[:-1]
        assert small_targets(page) == []  # redo among them
        tapped(page, page.locator("#redo"))
        assert said(page) == f"redone action {len(actions)}: {actions[-1]}"
        assert recorded(log) == actions
        tapped(page, page.locator("#income"))  # in Princes of Florence, the round's end
        assert said(page).splitlines()[0] == f"recorded action {len(actions) + 1}: {last}"
        reports, totals = scored(cli, log)
        assert shown_score(page) == reports
        assert any(totals.values())  # the round scored something to compare
    assert recorded(log) == [*actions, last]
    assert cli("table", "verify", str(log)).exit_code == 0


def keys(log: Path, words: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = table_page(log, words)["keypad"]
    return found


def test_the_keypad_comes_where_each_games_actions_take_a_number(cli: Cli, tmp_path: Path) -> None:
    digits = list("1234567890")
    florence = new_table(cli, tmp_path / "florence.toml", "princes-of-florence", ["alice", "bob", "carla"])
    assert keys(florence, "minimum") == [(digit, f"minimum {digit}") for digit in digits]
    assert keys(florence, "minimum 6") == [(digit, f"minimum 6{digit}") for digit in digits]
    assert keys(florence, "alice buys builder for")[2] == ("3", "alice buys builder for 3")
    for words in ("", "alice", "alice buys builder", "alice builds university large", "minimum 0"):
        assert keys(florence, words) == [], words
    principe = new_table(cli, tmp_path / "principe.toml", "il-principe", ["ann", "ben", "cat"])
    assert keys(principe, "ann places")[0] == ("1", "ann places 1")  # a number, then a colour
    placed = table_page(principe, "ann places 1")
    assert "red" in placed["following"] and placed["keypad"][0] == ("1", "ann places 11")
    renaissance = new_table(cli, tmp_path / "potr.toml", "princes-of-the-renaissance", ["a", "b", "c"])
    assert [key for key, _ in keys(renaissance, "a gold")] == [*digits, "-"]  # gold may be taken away
    assert keys(renaissance, "a gold -")[2] == ("3", "a gold -3")


# --- Princes of Florence: the estate zoomed on a phone -------------------------------------------


@pytest.fixture(scope="module")
def florence(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[web.Florence, str]]:
    """A Florence game where a seat may build, served once for this module's tests (none plays)."""
    game = web.florence_game(tmp_path_factory.mktemp("florence"))
    with web.served(game.home, web.FLORENCE_NOW) as url:
        yield game, url


def game_opened(page: Page, url: str, game_id: str) -> str:
    """The game's page, reached by its link; the picture's viewBox as drawn."""
    page.goto(url)
    page.locator(f'a[href="/game/{game_id}"]').click()
    page.wait_for_url(f"**/game/{game_id}")
    whole = page.locator(".picture svg").get_attribute("viewBox")
    assert whole
    return whole


def squares_of(page: Page, piece: str) -> list[str]:
    """The squares the composer offers ``piece`` to be built on."""
    build = next(form for form in web.forms(page) if form["form"].startswith("build "))
    return list(build["choices"][piece])


def sides(marked: Locator) -> list[float]:
    """The width and the height on the screen of each marked place, in CSS px."""
    found: list[float] = marked.evaluate_all(
        "all => all.flatMap(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    return found


def test_on_a_phone_the_estate_is_zoomed_to_squares_a_finger_can_tap(
    browser: Browser, florence: tuple[web.Florence, str]
) -> None:
    game, url = florence
    with opened_at(browser, PHONE, phone=True) as page:
        whole = game_opened(page, url, game.game_id)
        svg = page.locator(".picture svg")
        toggle = page.locator(".picture .whole-picture")
        piece, square, turns = web.a_building(page, lambda count: count == 1)
        (rotation,) = turns
        assert toggle.is_hidden() and svg.get_attribute("viewBox") == whole  # nothing marked yet
        page.locator(f'#choices button[data-value="{piece}"]').tap()
        marked = page.locator(".picture svg .choosable")
        assert marked.count() == len(squares_of(page, piece))
        assert svg.get_attribute("viewBox") != whole
        assert min(sides(marked)) >= SQUARE
        # the whole picture when asked for, its squares too small for a finger; zoomed again
        toggle.tap()
        assert svg.get_attribute("viewBox") == whole and max(sides(marked)) < SQUARE
        toggle.tap()
        target = page.locator(f'.picture svg [data-choice="{square}"]')
        box = target.bounding_box()
        assert box is not None and box["width"] >= SQUARE and box["height"] >= SQUARE, box
        toggle_box = toggle.bounding_box()
        assert toggle_box is not None and toggle_box["height"] >= FINGER
        target.tap()
        assert page.locator("#move-text").input_value() == f"build {piece} at {square} rot {rotation}"
        # the square chosen, no field chooses on the picture: it is whole again
        assert marked.count() == 0 and svg.get_attribute("viewBox") == whole and toggle.is_hidden()


def test_on_a_wide_screen_the_picture_is_not_zoomed(
    browser: Browser, florence: tuple[web.Florence, str]
) -> None:
    game, url = florence
    with opened_at(browser, web.DESKTOP, phone=False) as page:
        whole = game_opened(page, url, game.game_id)
        piece, _, _ = web.a_building(page, lambda count: count == 1)
        page.locator(f'#choices button[data-value="{piece}"]').click()
        assert page.locator(".picture svg .choosable").count() == len(squares_of(page, piece))
        assert page.locator(".picture svg").get_attribute("viewBox") == whole
        assert page.locator(".picture .whole-picture").is_hidden()
