"""An Il Principe game by email as text: the view's shape would do (pbem.render.generic), but for
the regions, which the view names by id (a picture's labels) and which a player reads for what
each holds: its cities and each family's shields there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.render.generic import render as render_generic


def render(title: str, view: Mapping[str, Any], private: Mapping[str, str]) -> None:
    render_generic(title, {**view, "regions": regions(view)}, private)


def regions(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A row per region: its name, the cities that count for it, the shields on it by family."""
    names: Mapping[str, str] = view.get("regions") or {}
    return [
        {
            "region": region if name == region else f"{region} ({name})",
            "cities": [
                city["city"] for city in view.get("cities", []) if region in (city.get("regions") or [])
            ],
            "shields": {
                player["seat"]: player["shields"][region]
                for player in view.get("players", [])
                if player["shields"].get(region)
            },
        }
        for region, name in names.items()
    ]
