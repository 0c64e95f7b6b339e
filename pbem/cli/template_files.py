"""The component templates games are set up with: where pbem's own are, reading one, and the
component values a new game or table embeds.

A template file is ``GAME-EDITION.toml`` (``GAME.toml`` for a game whose rules read one template
whatever the edition); the ones pbem ships live in ``templates/`` (inside the installed
package, or at the top of a source checkout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def template_dir() -> Path:
    from pbem.gamefile import shipped_templates

    return shipped_templates()


def read_template(path: Path) -> dict[str, Any]:
    """A template file's data; a file that cannot be read or parsed is a usage error naming it."""
    from pbem.errors import GameFileError, UsageError
    from pbem.gamefile import parse, read_bytes

    raw = read_bytes(path)
    try:
        return parse(raw, str(path))
    except GameFileError as exc:
        raise UsageError(str(exc).replace("not a valid TOML file", "not a valid TOML template")) from None


def bundled(game: str, edition: str) -> dict[str, Any] | None:
    """The template pbem ships for a game's edition, or None if the game needs none."""
    path = template_dir() / f"{game}-{edition}.toml"
    return read_template(path) if path.is_file() else None


def component_values(game: str, edition: str, path: Path | None) -> dict[str, Any]:
    """The component values a new game or table embeds: pbem's template for the edition, or
    the group's own file; {} for a game that takes none."""
    from pbem.kit import templates

    template = bundled(game, edition) if path is None else read_template(path)
    return {} if template is None else templates.values(template)
