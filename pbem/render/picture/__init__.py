"""Pictures of a game: an SVG drawn from the view the rules give a seat, and the self-contained
HTML page and the PNG made from it. Nothing here is imported unless a picture is asked for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import UsageError

DRAWN = ("princes-of-the-renaissance",)


def game_svg(game: str, title: str, view: Mapping[str, Any], seat: str | None) -> str:
    """The SVG of ``view`` as ``seat`` sees it; ``view`` holds that seat's hand and sealed values
    (``hand``, ``private``) only when the picture is that seat's."""
    if game != "princes-of-the-renaissance":
        raise UsageError(f"pbem cannot draw {title} yet; it draws {', '.join(DRAWN)}")
    from pbem.render.picture import potr

    return potr.draw(view, title, seat)


def companion_view(game: str, title: str, state: object) -> dict[str, Any]:
    """The view a picture of a companion-mode table is drawn from."""
    if game != "princes-of-the-renaissance":
        raise UsageError(f"pbem cannot draw a table of {title} yet; it draws {', '.join(DRAWN)}")
    from pbem.games.princes_of_the_renaissance.table import TableGame, picture_view

    if not isinstance(state, TableGame):
        raise TypeError(f"not a Princes of the Renaissance table: {type(state).__name__}")
    return picture_view(state)
