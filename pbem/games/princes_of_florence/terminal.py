"""A Princes of Florence game by email as text: the round and what is on offer, each player's
estate drawn as its grid, and the score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine.json_shape import words
from pbem.render.generic import sealed_lines
from pbem.render.grid import print_grid


def render(title: str, view: Mapping[str, Any], private: Mapping[str, str]) -> None:
    from pbem.render import console as new_console

    console = new_console()
    console.print(
        f"[bold]{title}[/bold] — round {view['round']} of 7, {view['phase']}; "
        f"minimum work value {view['minimum_work']}"
    )
    asked = view.get("asked") or []
    if asked:
        console.print(f"to act: {', '.join(asked)}")
    auction = view.get("auction")
    if auction:
        leader = f"{auction['leader']} leads at {auction['price']}" if auction.get("leader") else "no bid yet"
        console.print(f"auction of {auction['lot']}: {leader}; {auction['turn']} to bid or pass")
    sold = view.get("lots_sold_this_round") or []
    console.print(f"lots sold this round: {', '.join(sold) or 'none'}")
    if view.get("professions_face_up"):
        console.print(f"professions face up: {', '.join(view['professions_face_up'])}")
    console.print("decks: " + ", ".join(f"{name} {count}" for name, count in view["decks"].items()))
    console.print("supply: " + ", ".join(f"{short(name)} {count}" for name, count in view["supply"].items()))
    for line in sealed_lines(view):
        console.print(line, markup=False, highlight=False)
    for step, value in private.items():
        console.print(f"[bold]your sealed {step}:[/bold] {value} (only you can see this)")
    _players(console, view["players"])
    _estates(console, view["players"])
    for line in view.get("best_works") or []:
        console.print(f"best work, {line}")
    final, winners = bool(view.get("score_final")), view.get("winners") or []
    _score(console, view.get("score") or {}, final=final, winners=winners)


def short(name: str) -> str:
    """A supply item without its kind (``building:tower`` is ``tower``), as the tables and the
    picture print it."""
    return name.split(":", 1)[1] if ":" in name else name


def _cards(value: object) -> str:
    """A hand as its holder sees it (tokens) or as the others do (a count)."""
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "-"
    return str(value)


def _laid(laid: Sequence[str]) -> str:
    return f"; laid out: {', '.join(laid)}" if laid else ""


def _players(console: Any, players: Sequence[Mapping[str, Any]]) -> None:
    header = (
        "seat",
        "florins",
        "prestige",
        "buildings",
        "landscapes",
        "freedoms",
        "jesters",
        "builders",
        "professions",
        "bonus",
        "prestige cards",
        "works",
    )
    rows = [
        [
            player["seat"],
            str(player["florins"]),
            str(player["prestige"]),
            ", ".join(player["buildings"]) or "-",
            ", ".join(player["landscapes"]) or "-",
            ", ".join(player["freedoms"]) or "-",
            str(player["jesters"]),
            str(player["builders"]),
            _cards(player["profession_cards"]) + _laid(player.get("laid_out") or []),
            _cards(player["bonus_cards"]),
            ", ".join(player["prestige_cards"]) or "-",
            "; ".join(player["works"]) or "-",
        ]
        for player in players
    ]
    print_grid(console, header, rows, title="players", turn=True)


def _estates(console: Any, players: Sequence[Mapping[str, Any]]) -> None:
    """The estates side by side where the terminal is wide enough, else one under another: a grid
    is read as a picture, so it is never wrapped."""
    blocks = [
        [f"{player['seat']} ({player['empty_squares']} empty)", *str(player["estate"]).splitlines()]
        for player in players
    ]
    width = max(len(line) for block in blocks for line in block) + 3
    per_row = max(1, console.width // width)
    for start in range(0, len(blocks), per_row):
        group = blocks[start : start + per_row]
        for index in range(max(len(block) for block in group)):
            line = "".join((block[index] if index < len(block) else "").ljust(width) for block in group)
            console.print(line.rstrip(), markup=False, highlight=False)
        console.print()


def _score(
    console: Any, scores: Mapping[str, Mapping[str, int]], *, final: bool, winners: Sequence[str]
) -> None:
    if not scores:
        return
    categories = list(next(iter(scores.values())))
    rows = [[seat, *(str(row[name]) for name in categories)] for seat, row in scores.items()]
    title = "final score" if final else "score if the game ended now"
    print_grid(console, ("seat", *map(words, categories)), rows, title=title, turn=True)
    if winners:
        console.print(f"[bold]winner:[/bold] {', '.join(winners)} (the most prestige, then the most florins)")
