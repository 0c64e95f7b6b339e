"""``pbem mail ...``: email as the way a game travels."""

from __future__ import annotations

from pathlib import Path

import typer

from pbem.cli.appending import FILE, KEY, SEAT, append_entry
from pbem.cli.common import info, reported

app = typer.Typer(help="Send and receive a game's moves by email.", no_args_is_help=True)


@app.command("address")
def address(
    file: Path = FILE,
    email: str = typer.Argument(..., help="The new address your moves are mailed to."),
    seat: str = SEAT,
    key: str | None = KEY,
) -> None:
    """Change the address your moves are mailed to: a signed entry, so nobody else can."""
    from pbem.engine import ledger as ledger_mod

    with reported():
        _, entry = append_entry(
            file,
            seat,
            key,
            lambda current: ledger_mod.check_can_address(current, seat, email),
            lambda current, secret, at: ledger_mod.address(current, seat, email, secret, at),
        )
        info(f"{seat}'s mail now goes to {email} (entry {entry['seq']})")
