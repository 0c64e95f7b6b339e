"""What ``pbem show`` prints for a game of Princes of the Renaissance, per seat."""

from __future__ import annotations

from typing import Any

from pbem.engine.json_shape import snake_scores
from pbem.games.princes_of_the_renaissance import decade, deck, scoring
from pbem.games.princes_of_the_renaissance.state import GAME_OVER, Game
from pbem.games.princes_of_the_renaissance.war import limit as war_limit

# What each City tile power does, in the words of docs/rules/princes-of-the-renaissance.md ("City
# tiles", "Attack and defence values"); a tile without a power has "".
POWERS = {
    "": "",
    "banker": "once a decade, turn up to 3 gold into as much influence, or the reverse",
    "lucrezia-borgia": "once a decade, on your turn, take 2 influence from another player",
    "free-card": "once a decade, on your turn, draw a free Treachery card",
    "ludovico-sforza": "once a decade, have a war's dice rolled again",
    "hand-limit": "+1 Treachery hand limit",
    "pope-discount": "the Pope costs 1 influence less",
    "caterina-sforza": "its condottiere's defence +2, with a Troop tile not bribed",
    "genoese-crossbow": "Crossbowmen defence +1",
    "swiss-mercenaries": "Pikemen attack and defence +1; a condottiere bid 1 influence less",
    "armourer": "Cavalry attack +1; a condottiere bid 1 influence less",
    "spanish-infantry": "its condottiere's Infantry attack and defence +1",
}


def view(game: Game, seat: str | None) -> dict[str, Any]:
    parts = game.components
    result: dict[str, Any] = {
        "phase": decade.phase_name(game),
        "edition": game.edition,
        "family_side": game.side,
        "turn_order": list(game.order),
        "players": {name: _player(game, name) for name in game.seats},  # the same for every seat
        "events": list(game.events),
    }
    if not game.city_supply and game.decade == 0:
        return result  # the City tiles are not drawn yet
    values = scoring.city_values(game.status, game.artists, game.ranking)
    over = game.phase == GAME_OVER
    if not over:  # nothing is for sale once the game has ended
        result["city_tiles_on_offer"] = [_city_tile(game, tile) for tile in game.city_supply]
        result["event_tiles_on_offer"] = [_event(game, event) for event in game.event_row]
        result["troops_for_sale"] = [
            {
                **_copied(troop, "id", "name", "cost", "attack", "defence"),
                "left": game.troop_supply.get(troop.id, 0),
            }
            for troop in parts.troops
        ]
    result.update(
        {
            "decade": game.decade,
            "active": game.active,
            "cities": {
                city.id: {
                    "name": city.name,
                    "status": game.status[city.id],
                    "artists": game.artists[city.id],
                    "vp": values[city.id],
                }
                for city in parts.cities
            },
            "pope": {"holder": game.pope, "on_offer": game.pope is None and not over},
            "troop_supply": dict(game.troop_supply),
            "treachery_deck": game.deck,
            # every kind of card, public in the components: a seat's hand (read with its key) names
            # cards by id, and a picture of that seat shows their names
            "treachery_names": {card.id: card.name for card in parts.cards},
            "treachery_discards": [parts.card(card).name for card in game.discards],
            "treachery_discarded_face_down": game.buried,
            "wars_fought": game.wars,
            "war_limit": war_limit(game),
        }
    )
    if game.auction is not None:
        auction = game.auction
        result["auction"] = {
            "tile": auction.lot.tile,
            "name": decade.tile_name(game, auction.lot.tile),
            "currency": auction.lot.currency,
            "nominator": auction.lot.nominator,
            "high_bidder": auction.leader,
            "bid": auction.price,
            "to_act": auction.turn,
            "passed": list(auction.passed),
        }
    if game.war is not None:
        war = game.war
        result["war"] = {
            "attacker": war.attacker,
            "defender": war.defender,
            "started_by": war.starter,
            "stage": war.stage,
            "waiting_for": list(war.asked),
            "attacker_condottiere": war.attacker_condottiere,
            "defender_condottiere": war.defender_condottiere,
            "holy_league": war.league,
            "bad_weather": list(war.bad_weather),
            "bribed": list(war.bribed),
            "dice": list(war.dice),
        }
    if game.follow_ups:
        result["waiting_for"] = [
            {"seat": due.seat, "what": due.kind, "tile": due.what} for due in game.follow_ups
        ]
    if game.decade == 0:
        return result
    scores = scoring.breakdown(game)
    result["score"] = snake_scores(scores)
    result["score_final"] = game.phase == GAME_OVER
    if game.phase == GAME_OVER:
        result["winners"] = scoring.winners(game, scores)
    return result


def _player(game: Game, name: str) -> dict[str, Any]:
    player = game.players[name]
    parts = game.components
    shown: dict[str, Any] = {
        "gold": player.gold,
        "influence": player.influence,
        "bid": player.bid,
        "passed": player.passed,
        "family": player.family,
    }
    if game.decade == 0:
        return shown
    shown.update(
        {
            "city_tiles": [_city_tile(game, tile) for tile in player.city_tiles],
            "troops": [parts.troop(troop).name for troop in player.troops],
            "event_tiles": [parts.event(event).name for event in player.events],
            "treachery_cards": deck.hand_size(game, name),
            "treachery_tokens": list(player.cards),
            "treachery_face_up": [
                parts.card(game.shown[token]).name for token in player.cards if token in game.shown
            ],
            "hand_limit": decade.hand_limit(game, name),
            "war_victories": player.victories,
            "condottiere_pay": player.pay,
            "spent_this_decade": [_power_name(game, power) for power in player.used],
            "declared_discount": player.declared,
        }
    )
    return shown  # a hand face down is read with the seat's key, never from the state (pbem show --as)


def _city_tile(game: Game, tile_id: str) -> dict[str, Any]:
    tile = game.components.city_tile(tile_id)
    return {
        **_copied(tile, "id", "name", "city", "gold", "influence", "ability"),
        "power": POWERS[tile.ability],
        "merchant": tile.merchant,
    }


def _event(game: Game, event_id: str) -> dict[str, Any]:
    return _copied(game.components.event(event_id), "id", "name", "kind", "value", "currency")


def _copied(component: object, *names: str) -> dict[str, Any]:
    """A component's printed values as the view shows them, under their own names."""
    return {name: getattr(component, name) for name in names}


def _power_name(game: Game, power: str) -> str:
    if power == "holy-league":
        return "Holy League"
    if power == "malatesta":
        return "Malatesta's free card"
    return game.components.city_tile(power).name
