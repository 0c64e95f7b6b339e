"""A new game of any game in the registry, at the rules level, as ``pbem new`` sets one up with
the game's first edition, its default options and the component template pbem ships."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.cli.template_files import component_values, read_template, template_dir
from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import require_ruleset
from pbem.kit import templates


def components(info: GameInfo, edition: str) -> dict[str, Any]:
    """The template of the edition, or the game's one template for every edition."""
    found = component_values(info.name, edition, None)
    whole = template_dir() / f"{info.name}.toml"
    return found or (templates.values(read_template(whole)) if whole.is_file() else {})


def new_game(info: GameInfo, seats: Sequence[str]) -> Any:
    edition = info.default_edition
    rules = require_ruleset(info)
    return rules.setup(tuple(seats), edition, info.resolve_options({}), components(info, edition))
