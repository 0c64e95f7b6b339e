"""Pictures of a game: an SVG drawn from the view the rules give a seat, and the self-contained
HTML page and the PNG made from it. A game's declaration names its drawing; nothing here is
imported unless a picture is asked for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.declaration import GameInfo, Picture
from pbem.engine.registry import declared, get
from pbem.errors import UsageError


def drawn() -> list[str]:
    """The games pbem draws, in the order of the tuple of games."""
    return [info.name for info in declared() if info.picture is not None]


def game_svg(game: str, title: str, view: Mapping[str, Any], seat: str | None) -> str:
    """The SVG of ``view`` as ``seat`` sees it; ``view`` holds that seat's hand and sealed values
    (``hand``, ``private``) only when the picture is that seat's."""
    picture = _picture(game)
    if picture is None:
        raise UsageError(f"pbem cannot draw {title} yet; it draws {', '.join(drawn())}")
    return picture.draw(view, title, seat)


def companion_view(game: str, title: str, state: object) -> dict[str, Any]:
    """The view a picture of a companion-mode table is drawn from: the shape of the game's view by
    email, so one drawing serves both."""
    picture = _picture(game)
    if picture is None or picture.table_view is None:
        raise UsageError(f"pbem cannot draw a table of {title} yet; it draws {', '.join(drawn())}")
    return picture.table_view(state)


def _picture(game: str) -> Picture | None:
    try:
        info: GameInfo = get(game)
    except UsageError:  # a game pbem does not know is one it cannot draw
        return None
    return None if info.picture is None else info.picture()
