"""A game view as rich tables."""

from __future__ import annotations

from typing import Any


def render(title: str, view: dict[str, Any], private: dict[str, str]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{title}[/bold] ({view.get('edition', '')}) — {view['phase']}")
    players = Table("seat", "family", "gold", "influence", "bid", "turn")
    order = view.get("turn_order", [])
    for seat, player in view["players"].items():
        players.add_row(
            seat,
            str(player.get("family") or "-"),
            str(player.get("gold", "")),
            str(player.get("influence", "")),
            "-"
            if player.get("bid") is None
            else str(player["bid"]) + (" (passed)" if player.get("passed") else ""),
            str(order.index(seat) + 1) if seat in order else "-",
        )
    console.print(players)
    for step, seats in view.get("sealed", {}).items():
        if seats:
            console.print(f"sealed {step}: {', '.join(seats)} (values hidden until revealed)")
    for step, value in private.items():
        console.print(f"[bold]your sealed {step}:[/bold] {value} (only you can see this)")
    events = view.get("events", [])
    if events:
        console.print("[bold]so far:[/bold]")
        for event in events:
            console.print(f"  {event}")
