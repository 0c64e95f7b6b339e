"""``pbem templates``: the component templates a game can be set up with (see template_files)."""

from __future__ import annotations

from pathlib import Path

import typer

from pbem.cli.common import print_json, reported
from pbem.cli.template_files import read_template, template_dir

app = typer.Typer(help="List and show the component templates games are set up with.", no_args_is_help=True)


def names() -> list[str]:
    return sorted(path.stem for path in template_dir().glob("*.toml"))


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
