"""What ``pbem show`` prints of a game by email, per seat: everything on the table, and of the
cards in hands only what their holder knows (tokens; the engine lets the holder read its own)."""

from __future__ import annotations

from typing import Any

from pbem.engine.json_shape import snake, snake_scores
from pbem.games.princes_of_florence import estate as grid
from pbem.games.princes_of_florence import rounds
from pbem.games.princes_of_florence.scoring import breakdown, winners
from pbem.games.princes_of_florence.state import OVER, SOURCES, Game


def view(game: Game, seat: str | None) -> dict[str, Any]:
    players = []
    for player in game.players:
        own = player.seat == seat
        players.append(
            {
                "seat": player.seat,
                "florins": player.florins,
                "prestige": player.points,
                "prestige_by_source": {
                    snake(source): points for source, points in zip(SOURCES, player.prestige, strict=True)
                },
                "estate": player.estate.picture(),
                "estate_pieces": pieces(player.estate),
                "empty_squares": player.estate.empty,
                "buildings": list(player.estate.buildings),
                "landscapes": list(player.estate.landscapes),
                "freedoms": list(player.freedoms),
                "jesters": player.jesters,
                "builders": player.builders,
                "profession_cards": list(player.hand) if own else len(player.hand),
                "laid_out": [game.name(token) for token in player.laid],
                "bonus_cards": list(player.bonus) if own else len(player.bonus),
                "bonus_cards_played": list(player.played_bonus),
                "recruitment_cards": player.recruitment,
                "recruitment_cards_used": player.recruited,
                "prestige_cards": [
                    game.name(t) if t in game.shown or own else "face down" for t in player.prestige_cards
                ],
                "works": [f"{work.profession} {work.value} WP (round {work.round})" for work in player.works],
                "this_round": {"won": player.bought, "actions": list(player.actions)},
            }
        )
    auction = game.auction
    return {
        "round": game.round,
        "phase": game.phase,
        "estate_grid": [game.components.estate.columns, game.components.estate.rows],
        "first_player": game.first,
        "minimum_work": game.minimum(),
        "asked": rounds.actors(game),
        "auction": None
        if auction is None
        else {"lot": auction.lot, "leader": auction.leader, "price": auction.price, "turn": auction.turn},
        "lots_sold_this_round": list(game.auctioned),
        "professions_face_up": [game.name(token) for token in game.face_up],
        "decks": dict(game.decks),
        "supply": dict(game.supply),
        "best_works": [
            f"round {i + 1}: {value} WP {', '.join(who) or 'none'}"
            for i, (value, who) in enumerate(game.best)
        ],
        "players": players,
        "score": snake_scores(breakdown(game)),
        "score_final": game.phase == OVER,
        "winners": winners(breakdown(game)) if game.phase == OVER else [],
    }


def pieces(estate: grid.Estate) -> list[dict[str, Any]]:
    """What lies on an estate and the squares each piece covers, so a picture can draw the grid
    (the text ``estate`` shows each piece by its first letter only)."""
    return [
        {"piece": item.piece, "building": item.building, "squares": grid.format_squares(item.squares).split()}
        for item in estate.placed
    ]
