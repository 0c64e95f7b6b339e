"""Final scoring of Princes of the Renaissance (2016 rulebook "Конец Игры"; 2003 summary "Fine
della partita e Punti Vittoria"; seed 004 §6).

Pure functions over a finished (or any) game: the score can be shown at any time as "if the game
ended now", and is final once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.games.princes_of_the_renaissance.components import CITIES
from pbem.games.princes_of_the_renaissance.state import Game

CITY_VP = (10, 7, 5, 3, 2)
CATEGORIES = (
    "city tiles",
    "event tiles",
    "wine merchants",
    "pope",
    "gold",
    "influence",
    "war victories",
)


@dataclass(frozen=True)
class Majority:
    """Points for the most and second most of a resource, and how ties are paid."""

    first: int
    second: int
    tied_first: int
    tied_second: int
    # 2016: a tie for the most leaves no second place; 2003: the next amount is second.
    second_after_tie: bool


# 2016: most gold 6 (tied 5 each, no second), second 3 (tied 2 each); most influence 4 (tied 3,
# no second), second 2 (tied 1). 2003 summary: ties take the full value; no second for influence.
MAJORITIES = {
    "2016": {"gold": Majority(6, 3, 5, 2, False), "influence": Majority(4, 2, 3, 1, False)},
    "2003": {"gold": Majority(6, 3, 6, 3, True), "influence": Majority(4, 0, 4, 0, True)},
}


def city_values(
    status: Mapping[str, int], artists: Mapping[str, int], ranking: Sequence[Sequence[str]] = ()
) -> dict[str, int]:
    """VP per city tile: 10, 7, 5, 3, 2 by status; a tie goes to the city with more Artist tiles
    (the French Invade counts as one where it stays on the city); cities still tied all take the
    lowest contested value. Bentivogli (A side) may declare which city wins such a tie
    (``ranking``: each declaration is the tied group, its winner first): the winner takes the best
    place, and the others, still tied, the lowest place left. A declaration counts only while its
    group is still exactly the tie (at a table the statuses can change after it is recorded)."""

    def tie(city: str) -> tuple[int, int]:
        return (-status[city], -artists[city])

    winners = {
        group[0] for group in ranking if {city for city in CITIES if tie(city) == tie(group[0])} == set(group)
    }

    def key(city: str) -> tuple[int, int, int]:
        return (*tie(city), 0 if city in winners else 1)

    ranked = sorted(CITIES, key=key)
    values: dict[str, int] = {}
    position = 0
    while position < len(ranked):
        group = [city for city in ranked[position:] if key(city) == key(ranked[position])]
        lowest = CITY_VP[min(position + len(group), len(CITY_VP)) - 1]
        for city in group:
            values[city] = lowest
        position += len(group)
    return values


def majority(amounts: Mapping[str, int], rule: Majority) -> dict[str, int]:
    points = dict.fromkeys(amounts, 0)
    if not amounts:
        return points
    levels = sorted(set(amounts.values()), reverse=True)
    top = [seat for seat, amount in amounts.items() if amount == levels[0]]
    for seat in top:
        points[seat] = rule.first if len(top) == 1 else rule.tied_first
    if len(levels) < 2 or (len(top) > 1 and not rule.second_after_tie):
        return points
    second = [seat for seat, amount in amounts.items() if amount == levels[1]]
    for seat in second:
        points[seat] = rule.second if len(second) == 1 else rule.tied_second
    return points


def wine_merchant(game: Game, seat: str) -> tuple[int, str]:
    """What ``seat``'s Wine Merchant tiles earn, the same in gold at each decade's end and in VP at
    the end, and how it is counted. 2016: "Каждый Городской тайл, который Вы имеете со словом
    «Торговец» ... в титуле, будет зарабатывать 1 дополнительное Золото, каждое Десятилетие, и
    стоить 1 ПО в Конце Игры. Эффект этих тайлов совокупный" (1 per Merchant City tile, for each
    Wine Merchant). 2003 (the summary, "Mercante"): "Guadagna 1 Moneta Oro per ogni Decade.
    Guadagna 1 Punto Vittoria alla fine della partita" (1 for each Wine Merchant, flat)."""
    parts = game.components
    player = game.players[seat]
    wine = sum(1 for event in player.events if parts.event(event).kind == "wine-merchant")
    if game.edition == "2003":
        return wine, f"{wine} tile{'s' if wine > 1 else ''}, 1 each"
    merchants = sum(1 for tile in player.city_tiles if parts.city_tile(tile).merchant)
    return wine * merchants, f"{wine} x {merchants} Merchant tiles"


def victory_points(counters: int) -> int:
    """1, 3, 6, 10, 15...: n counters score n(n+1)/2."""
    return counters * (counters + 1) // 2


def breakdown(game: Game) -> dict[str, dict[str, int]]:
    parts = game.components
    values = city_values(game.status, game.artists, game.ranking)
    rules = MAJORITIES[game.edition]
    # retired=compete-none: a seat the defaults play takes no place in the majorities, the others
    # taking them as if it did not compete (its defaults spend nothing, so it would hoard them).
    competing = game.defaults.competing(game.players)
    gold = majority({seat: game.players[seat].gold for seat in competing}, rules["gold"])
    influence = majority({seat: game.players[seat].influence for seat in competing}, rules["influence"])
    scores: dict[str, dict[str, int]] = {}
    for seat, player in game.players.items():
        tiles = [parts.city_tile(tile) for tile in player.city_tiles]
        events = [parts.event(event) for event in player.events]
        row = {
            "city tiles": sum(values[tile.city] for tile in tiles),
            "event tiles": sum(event.value for event in events if event.kind == "vp"),
            "wine merchants": wine_merchant(game, seat)[0],
            "pope": parts.pope.vp if game.pope == seat else 0,
            "gold": gold.get(seat, 0),
            "influence": influence.get(seat, 0),
            "war victories": victory_points(player.victories),
        }
        row["total"] = sum(row.values())
        row["gold + influence"] = player.gold + player.influence  # the tie-break, not points
        scores[seat] = row
    return scores


def winners(game: Game, scores: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Most points; 2016: a tie goes to the most gold + influence, then the win is shared.
    The 2003 texts give no tie-break, so tied players share the win."""
    best = max(row["total"] for row in scores.values())
    tied: Sequence[str] = [seat for seat, row in scores.items() if row["total"] == best]
    if game.edition == "2016" and len(tied) > 1:
        wealth = max(scores[seat]["gold + influence"] for seat in tied)
        tied = [seat for seat in tied if scores[seat]["gold + influence"] == wealth]
    return list(tied)
