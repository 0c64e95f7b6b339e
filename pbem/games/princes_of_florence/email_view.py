"""What ``pbem show`` prints of a game by email, per seat: everything on the table, and of the
cards in hands only what their holder knows (tokens; the engine lets the holder read its own)."""

from __future__ import annotations

from typing import Any

from pbem.companion.tracker import Cell, Report
from pbem.games.princes_of_florence import rounds
from pbem.games.princes_of_florence.game import OVER, SOURCES, Game
from pbem.games.princes_of_florence.scoring import breakdown, winners


def view(game: Game, seat: str | None) -> dict[str, Any]:
    players = []
    for player in game.players:
        own = player.seat == seat
        players.append(
            {
                "seat": player.seat,
                "florins": player.florins,
                "prestige": player.points,
                "prestige by source": dict(zip(SOURCES, player.prestige, strict=True)),
                "estate": player.estate.picture(),
                "empty squares": player.estate.empty,
                "buildings": list(player.estate.buildings),
                "landscapes": list(player.estate.landscapes),
                "freedoms": list(player.freedoms),
                "jesters": player.jesters,
                "builders": player.builders,
                "profession cards": list(player.hand) if own else len(player.hand),
                "laid out": [game.name(token) for token in player.laid],
                "bonus cards": list(player.bonus) if own else len(player.bonus),
                "bonus cards played": list(player.played_bonus),
                "recruitment cards": player.recruitment,
                "recruitment cards used": player.recruited,
                "prestige cards": [
                    game.name(t) if t in game.shown or own else "face down" for t in player.prestige_cards
                ],
                "works": [f"{work.profession} {work.value} WP (round {work.round})" for work in player.works],
                "this round": {"won": player.bought, "actions": list(player.actions)},
            }
        )
    auction = game.auction
    return {
        "round": game.round,
        "phase": game.phase,
        "first player": game.first,
        "minimum work": game.minimum(),
        "asked": rounds.actors(game),
        "auction": None
        if auction is None
        else {"lot": auction.lot, "leader": auction.leader, "price": auction.price, "turn": auction.turn},
        "lots sold this round": list(game.auctioned),
        "professions face up": [game.name(token) for token in game.face_up],
        "decks": dict(game.decks),
        "supply": dict(game.supply),
        "best works": [
            f"round {i + 1}: {value} WP {', '.join(who) or 'none'}"
            for i, (value, who) in enumerate(game.best)
        ],
        "players": players,
        "score": breakdown(game),
        "score_final": game.phase == OVER,
        "winners": winners(breakdown(game)) if game.phase == OVER else [],
    }


PLAYER_COLUMNS = (
    "seat",
    "florins",
    "prestige",
    "buildings",
    "landscapes",
    "freedoms",
    "jesters",
    "builders",
    "professions",
    "bonus cards",
    "prestige cards",
    "works",
)


def reports(view: dict[str, Any]) -> tuple[Report, ...]:
    """What ``pbem show`` prints: the players and the score, drawn from the view alone, so the text
    shows no more than ``--json`` does for the same seat."""
    rows: list[tuple[Cell, ...]] = []
    for player in view["players"]:
        rows.append(
            (
                player["seat"],
                player["florins"],
                player["prestige"],
                ", ".join(player["buildings"]) or "-",
                ", ".join(player["landscapes"]) or "-",
                ", ".join(player["freedoms"]) or "-",
                player["jesters"],
                player["builders"],
                _cards(player["profession cards"], player["laid out"]),
                _cards(player["bonus cards"], []),
                ", ".join(player["prestige cards"]) or "-",
                "; ".join(player["works"]) or "-",
            )
        )
    notes = [f"first player: {view['first player']}; minimum work this round: {view['minimum work']} WP"]
    auction = view["auction"]
    if auction is not None:
        notes.append(f"auction: {auction['lot']}, {auction['leader']} leads at {auction['price']}")
    if view["professions face up"]:
        notes.append(f"professions face up: {', '.join(view['professions face up'])}")
    notes += [f"best work, {line}" for line in view["best works"]]
    title = f"round {view['round']}, {view['phase']}"
    players = Report(title, PLAYER_COLUMNS, tuple(rows), tuple(notes))
    score: dict[str, dict[str, int]] = view["score"]
    categories = list(next(iter(score.values())))
    score_rows: tuple[tuple[Cell, ...], ...] = tuple(
        (seat, *(row[name] for name in categories)) for seat, row in score.items()
    )
    won = view["winners"]
    score_title = "final score" if view["score_final"] else "score if the game ended now"
    winner = (f"winner: {', '.join(won)} (the most prestige, then the most florins)",) if won else ()
    return players, Report(score_title, ("seat", *categories), score_rows, winner)


def _cards(held: list[str] | int, laid: list[str]) -> str:
    """Cards in hand (tokens for their holder, a count for everyone else) and those laid out."""
    text = str(held) if isinstance(held, int) else ", ".join(held) or "0"
    return text + (f"; laid out: {', '.join(laid)}" if laid else "")
