"""The page and the PNG as a player sees them: the HTML page of each game opened in a real headless
browser at a phone's width and a desktop's, and each screenshot, like the PNG pbem renders, must
show a picture, not a blank page.

Chromium comes from the system's packages (.ci/run installs it); where it is missing the browser
tests are skipped, unless PBEM_BROWSER_TESTS=required says they must run, as CI does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pbem.games.il_principe.rules import RULES as PRINCIPE
from pbem.games.princes_of_florence.rules import RULES as FLORENCE
from pbem.render.picture.page import html_page
from pbem.render.picture.seats import roster, seat_styles
from tests.conftest import run_cli
from tests.png_pixels import Pixels, read
from tests.test_pictures import florence, florence_picture, principe, principe_picture

EXAMPLE = Path(__file__).parent.parent / "examples" / "four-players.toml"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if found is None:
        if os.environ.get("PBEM_BROWSER_TESTS") == "required":
            pytest.fail("no Chromium on this machine, and PBEM_BROWSER_TESTS=required")
        pytest.skip("no Chromium on this machine (.ci/run installs it)")
    return found


def a_picture(pixels: Pixels) -> None:
    """Not blank: a good part of the image is drawn, in many colours (cities, seats, text)."""
    assert pixels.share_unlike() > 0.05, f"{pixels.share_unlike():.1%} of the image is drawn"
    assert len(pixels.colours()) > 20


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A page of each game: Princes of the Renaissance's through pbem show, the others' drawn
    from the positions tests/test_pictures.py builds (the command's page is tested there)."""
    out = tmp_path_factory.mktemp("page")
    result = run_cli(out / "home", "show", str(EXAMPLE), "--html", str(out / "potr.html"))
    assert result.exit_code == 0, result.stderr
    made = {"princes-of-the-renaissance": out / "potr.html"}
    for game, title, (view, picture) in (
        ("princes-of-florence", "Princes of Florence", _florence()),
        ("il-principe", "Il Principe", _principe()),
    ):
        letters = seat_styles(roster(view["players"]))
        page = html_page(title, picture, score=view["score"], letters=letters, log=[])
        made[game] = out / f"{game}.html"
        made[game].write_text(page, encoding="utf-8")
    return made


def _florence() -> tuple[dict[str, Any], str]:
    game, cards = florence()
    return FLORENCE.view(game, None), florence_picture(game, cards, None)


def _principe() -> tuple[dict[str, Any], str]:
    game, cards = principe()
    return PRINCIPE.view(game, None), principe_picture(game, cards, None)


@pytest.mark.parametrize("game", ["princes-of-the-renaissance", "princes-of-florence", "il-principe"])
@pytest.mark.parametrize("size", sorted(WIDTHS))
def test_the_page_shows_the_table_in_a_real_browser(
    pages: dict[str, Path], game: str, size: str, tmp_path: Path
) -> None:
    width, height = WIDTHS[size]
    shot = tmp_path / f"{size}.png"
    done = subprocess.run(
        [
            browser(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            pages[game].as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.exists(), done.stderr.decode(errors="replace")[-2000:]
    pixels = read(shot.read_bytes())
    assert (pixels.width, pixels.height) == (width, height)
    a_picture(pixels)


def test_the_png_of_another_game_shows_its_table() -> None:
    """One of the games drawn since (reading a PNG's pixels in Python is what costs here)."""
    pytest.importorskip("resvg_py")
    from pbem.render.picture.png import png

    _, picture = _florence()
    a_picture(read(png(picture, zoom=1)))


def test_the_png_shows_the_table(tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    result = run_cli(tmp_path / "home", "show", str(EXAMPLE), "--png", str(tmp_path / "table.png"))
    assert result.exit_code == 0, result.stderr
    a_picture(read((tmp_path / "table.png").read_bytes()))


def test_a_blank_image_is_told_apart(tmp_path: Path) -> None:
    """The check above can fail: a white page is no picture."""
    import zlib

    white = b"".join(b"\x00" + b"\xff\xff\xff" * 8 for _ in range(8))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", (8).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0]))
        + chunk(b"IDAT", zlib.compress(white))
        + chunk(b"IEND", b"")
    )
    with pytest.raises(AssertionError):
        a_picture(read(png))
