"""``pbem key ...``: make, list, show, export and import identities."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pbem.cli.common import info, new_passphrase, now, print_json, reported, warn
from pbem.errors import IdentityError

app = typer.Typer(
    help="Manage your keys and the public identities of other players.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


if TYPE_CHECKING:
    from pbem.keys import KeyStore


def _store() -> KeyStore:
    from pbem.keys import KeyStore

    return KeyStore()


@app.command("new")
def new(
    name: str = typer.Argument(..., help="Name of the key, usually your seat name."),
    no_passphrase: bool = typer.Option(
        False, "--no-passphrase", help="Store the key unencrypted (not recommended)."
    ),
) -> None:
    """Make a new identity: a signing key and an encryption key, passphrase-protected."""
    with reported():
        store = _store()
        path = store.free_path(name)
        passphrase = None if no_passphrase else new_passphrase(name)
        identity = store.create(name, passphrase, now())
        if passphrase is None:
            warn(f"key {name!r} is stored without a passphrase: anyone who can read {path} can sign as you")
        info(f"created key {name!r} in {path}")
        typer.echo(f"{name} {identity.fingerprint}")


@app.command("list")
def list_keys(as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List your keys and the identities you imported."""
    with reported():
        entries, broken = _store().entries()
        for problem in broken:
            sys.stderr.write(f"error: {problem}\n")
        if as_json:
            print_json(
                [
                    {
                        "name": e.name,
                        "fingerprint": e.identity.fingerprint,
                        "private": e.private,
                        "encrypted": e.encrypted,
                        "path": str(e.path),
                    }
                    for e in entries
                ]
            )
        elif not entries and not broken:
            info(f"no keys in {_store().home}; make one with 'pbem key new NAME'")
        else:
            from rich.cells import cell_len

            from pbem.cli.columns import pad

            # a name of 32 letters, or of Chinese ones two columns wide, keeps the columns in line
            width = max([16, *(cell_len(e.name) for e in entries)])
            for e in entries:
                kind = "imported"
                if e.private:
                    kind = "private key" + ("" if e.encrypted else ", no passphrase")
                typer.echo(f"{pad(e.name, width)} {e.identity.fingerprint}  {kind}")
    if broken:  # the readable ones are listed; the exit code still says something is wrong
        raise typer.Exit(IdentityError.exit_code)


@app.command("show")
def show(
    name: str = typer.Argument(..., help="Key or imported identity."),
    as_json: bool = typer.Option(False, "--json", help="Print as JSON."),
) -> None:
    """Show a public identity line and its fingerprint, to compare with its owner out of band."""
    with reported():
        entry = _store().public(name)
        line = entry.line
        if as_json:
            print_json(
                {
                    "name": name,
                    "fingerprint": entry.identity.fingerprint,
                    "identity": line,
                    "private": entry.private,
                }
            )
            return
        typer.echo(line)
        typer.echo(f"fingerprint {entry.identity.fingerprint}")


@app.command("export")
def export(
    name: str = typer.Argument(..., help="Your key, or an imported identity, to export."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Print your public identity for other players to import (never the private key)."""
    with reported():
        entry = _store().public(name)
        text = f"# pbem identity {name}, fingerprint {entry.identity.fingerprint}\n{entry.line}\n"
        if output is None:
            sys.stdout.write(text)
            return
        from pbem.errors import FileAccessError

        try:
            with output.open("x", encoding="utf-8") as handle:
                handle.write(text)
        except FileExistsError:
            raise FileAccessError(f"{output}: already exists") from None
        except OSError as exc:
            raise FileAccessError(f"{output}: cannot write ({exc.strerror})") from None
        info(f"wrote {name}'s public identity to {output}")


@app.command("import")
def import_identity(
    file: str = typer.Argument(..., help="Identity file from 'pbem key export', or - for stdin."),
    name: str | None = typer.Option(None, "--name", help="Store it under this local name."),
) -> None:
    """Import another player's public identity."""
    with reported():
        from pbem.gamefile import read_bytes

        text = sys.stdin.read() if file == "-" else read_bytes(Path(file)).decode("utf-8", "replace")
        entry = _store().import_identity(text, file, name)
        info(f"imported {entry.name!r}; confirm this fingerprint with its owner in person or by phone:")
        typer.echo(f"{entry.name} {entry.identity.fingerprint}")
