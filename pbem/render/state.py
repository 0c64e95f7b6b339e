"""A game view as rich tables: the game's own terminal view where its declaration names one, else
drawn from the view's shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(game: str, title: str, view: Mapping[str, Any], private: Mapping[str, str]) -> None:
    """``view`` as text, with the seat's own sealed values (``private``, by step)."""
    from pbem.engine.registry import get

    terminal = get(game).terminal
    if terminal is None:
        from pbem.render.generic import render as render_generic

        render_generic(title, view, private)
        return
    terminal()(title, view, private)
