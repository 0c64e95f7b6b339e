"""Writing the pictures ``pbem show`` and ``pbem table show`` make: SVG, HTML and PNG.

Imported only when a picture is asked for, so the picture code costs nothing to other commands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.cli.common import info


def write(
    *,
    game: str,
    title: str,
    view: Mapping[str, Any],
    seat: str | None,
    log: Sequence[str],
    svg_path: Path | None,
    html_path: Path | None,
    png_path: Path | None,
) -> None:
    """Draw ``view`` once and write each form asked for; PNG is rendered (and can fail) before
    anything is written, so a failed command leaves no half of what it was asked for."""
    from pbem import gamefile
    from pbem.render.picture import game_svg

    picture = game_svg(game, title, view, seat)
    files: list[tuple[Path, bytes]] = []
    if png_path is not None:
        from pbem.render.picture.png import png

        files.append((png_path, png(picture)))
    if svg_path is not None:
        files.append((svg_path, picture.encode("utf-8")))
    if html_path is not None:
        from pbem.render.picture.page import html_page
        from pbem.render.picture.seats import roster, seat_styles

        whose = f"as {seat} sees it (with {seat}'s hidden cards: keep this page to yourself)" if seat else ""
        page = html_page(
            title,
            picture,
            score=view.get("score"),
            letters=seat_styles(roster(view["players"])),
            log=log,
            note=whose,
        )
        files.append((html_path, page.encode("utf-8")))
    for path, data in files:
        gamefile.write_over(path, data)
        info(f"wrote {path}")
