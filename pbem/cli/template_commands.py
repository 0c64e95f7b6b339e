"""``pbem templates``: the component templates a game can be set up with.

A template file is ``GAME-EDITION.toml`` (``GAME.toml`` for a game whose rules read one template
whatever the edition); the ones pbem ships live in ``templates/`` (inside the installed
package, or at the top of a source checkout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pbem.cli.common import print_json, reported

app = typer.Typer(help="List and show the component templates games are set up with.", no_args_is_help=True)


def template_dir() -> Path:
    from pbem.gamefile import shipped_templates

    return shipped_templates()


def names() -> list[str]:
    return sorted(path.stem for path in template_dir().glob("*.toml"))


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


def _named(name: str) -> Path:
    from pbem.errors import UsageError

    path = template_dir() / f"{name}.toml"
    if not path.is_file():
        raise UsageError(f"no template {name!r}; templates: {', '.join(names())}")
    return path


@app.command("list")
def list_templates(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The templates pbem ships, with how many of their values no public rules text gives."""
    from pbem.kit import templates

    with reported():
        rows = []
        for name in names():
            data = read_template(template_dir() / f"{name}.toml")
            header = data.get("template", {})
            rows.append(
                {
                    "name": name,
                    "title": header.get("title", ""),
                    "unverified": len(templates.unverified(data)),
                }
            )
        if as_json:
            print_json(rows)
            return
        for row in rows:
            typer.echo(f"{row['name']:<36} {row['title']} ({row['unverified']} values unverified)")


@app.command("show")
def show(
    name: str = typer.Argument(..., help="A template name from 'pbem templates list'."),
    unverified: bool = typer.Option(
        False, "--unverified", help="List only the values no public rules text gives."
    ),
) -> None:
    """Print a template (to copy and edit for 'pbem new --components'), or its unverified values."""
    from pbem.kit import templates

    with reported():
        path = _named(name)
        if not unverified:
            typer.echo(path.read_text(encoding="utf-8"), nl=False)
            return
        data = read_template(path)
        typer.echo(
            f"{name}: values no public rules text gives; pbem's reference values, not the publisher's:"
        )
        for item in templates.unverified(data):
            typer.echo(f"  {item}")
