"""What ``pbem show`` prints of an Il Principe game by email, per seat: everything on the table,
and of the cards in hands only their number, but for the holder (tokens; the engine lets the
holder read its own). The score is the companion's (``scoring.breakdown``), over ``as_table``; once
the game is over it is final and names the winners."""

from __future__ import annotations

from typing import Any

from pbem.engine.json_shape import snake_scores
from pbem.games.il_principe import rounds, scoring
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.state import OVER, Game, as_table


def breakdown(game: Game) -> dict[str, dict[str, int]]:
    """Points per seat and category, as if the game ended now (« Calcul des points de Victoire »)."""
    return scoring.breakdown(as_table(game))


def winners(game: Game) -> tuple[list[str], list[str]]:
    """The winners and the tie-breaks used (most cards played, then the first major role)."""
    table = as_table(game)
    return scoring.winners(table, scoring.breakdown(table))


def view(game: Game, seat: str | None) -> dict[str, Any]:
    players = []
    for player in game.players:
        own = player.seat == seat
        public = {c: n for c, n in zip(COLOURS, player.known, strict=True) if n}
        players.append(
            {
                "seat": player.seat,
                "ducats": player.ducats,
                "vp": player.vp,
                "hand": {
                    "cards": player.hand_size,
                    "public": public,
                    **({"tokens": list(player.hand)} if own else {}),
                },
                "face_up": dict(zip(COLOURS, player.up, strict=True)),
                "face_down": dict(zip(COLOURS, player.down, strict=True)),
                "shields": dict(sorted(player.shields.items())),
                "cities": list(player.cities),
                "roles": [role for role, holder in game.roles.items() if holder == player.seat],
                # None until revealed: whether the seat has sealed its choice is the engine's to
                # say (``pbem show`` adds it), not the state's
                "reserve": None if player.reserved is None else len(player.reserved),
            }
        )
    auction = game.auction
    shown = {
        "round": game.round,
        "phase": game.phase,
        "last_round": game.last_round,
        "il_principe": game.principe,
        "asked": rounds.actors(game),
        "pile": game.deck,
        "cities_face_up": list(game.face_up),
        "cities_still_to_turn_up": game.cities_left + game.city_draws,
        "reserve": {c: n for c, n in zip(COLOURS, game.reserve, strict=True) if n},
        "removed_from_play": {c: n for c, n in zip(COLOURS, game.removed, strict=True) if n},
        "auction": None
        if auction is None
        else {"lot": auction.lot, "leader": auction.leader, "price": auction.price, "turn": auction.turn},
        "roles": dict(game.roles),
        "regions": {region: game.components.region_name(region) for region in game.components.regions},
        "cities": [
            {
                "city": city,
                "name": card.name,
                "size": card.size.name,
                "vp": card.vp,
                "regions": list(card.regions),
                "built_by": game.built.get(city),
                "face_up": city in game.face_up,
            }
            for city, card in game.components.cities.items()
        ],
        "players": players,
        "score": snake_scores(breakdown(game)),
        "score_final": game.phase == OVER,
        "winners": winners(game)[0] if game.phase == OVER else [],
    }
    if game.phase == OVER:
        shown["winners"] = winners(game)[0]
    return shown
