"""Pictures of a game: an SVG drawn from the view the rules give a seat, and the self-contained
HTML page and the PNG made from it. Nothing here is imported unless a picture is asked for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import UsageError

DRAWN = ("princes-of-the-renaissance", "princes-of-florence", "il-principe")


def game_svg(game: str, title: str, view: Mapping[str, Any], seat: str | None) -> str:
    """The SVG of ``view`` as ``seat`` sees it; ``view`` holds that seat's hand and sealed values
    (``hand``, ``private``) only when the picture is that seat's."""
    if game == "princes-of-the-renaissance":
        from pbem.render.picture import potr

        return potr.draw(view, title, seat)
    if game == "princes-of-florence":
        from pbem.render.picture import florence

        return florence.draw(view, title, seat)
    if game == "il-principe":
        from pbem.render.picture import principe

        return principe.draw(view, title, seat)
    raise UsageError(f"pbem cannot draw {title} yet; it draws {', '.join(DRAWN)}")


def companion_view(game: str, title: str, state: object) -> dict[str, Any]:
    """The view a picture of a companion-mode table is drawn from: the shape of the game's view by
    email, so one drawing serves both."""
    if game == "princes-of-the-renaissance":
        from pbem.games.princes_of_the_renaissance.table import TableGame
        from pbem.games.princes_of_the_renaissance.table import picture_view as potr_view

        if not isinstance(state, TableGame):
            raise TypeError(f"not a Princes of the Renaissance table: {type(state).__name__}")
        return potr_view(state)
    if game == "princes-of-florence":
        from pbem.games.princes_of_florence.state import Table as FlorenceTable
        from pbem.games.princes_of_florence.table import picture_view as florence_view

        if not isinstance(state, FlorenceTable):
            raise TypeError(f"not a Princes of Florence table: {type(state).__name__}")
        return florence_view(state)
    if game == "il-principe":
        from pbem.games.il_principe.state import Table as PrincipeTable
        from pbem.games.il_principe.table import picture_view as principe_view

        if not isinstance(state, PrincipeTable):
            raise TypeError(f"not an Il Principe table: {type(state).__name__}")
        return principe_view(state)
    raise UsageError(f"pbem cannot draw a table of {title} yet; it draws {', '.join(DRAWN)}")
