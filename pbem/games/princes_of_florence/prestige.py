"""Prestige cards and the final score (seed 001, "Карты престижа" and "Конец игры").

Scoring is pure: it can be shown at any time as "if the game ended now".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbem.games.princes_of_florence.components import FREEDOMS, LANDSCAPES, PrestigeCard
from pbem.games.princes_of_florence.table.state import PRESTIGE_SOURCES, Estate, Table

Measure = Callable[[Estate], int | None]

# "Most" and "fewest" cards compare one count across every estate. "Дворец не считается зданием в
# текстах карт престижа", so buildings are the built ones only.
MOST: dict[str, Measure] = {
    "most-works": lambda estate: len(estate.works),
    "most-buildings": lambda estate: len(estate.buildings),
    "most-jesters": lambda estate: estate.jesters,
    "most-builders": lambda estate: estate.builders,
    "most-forests": lambda estate: estate.landscapes["forest"],
    "most-lakes": lambda estate: estate.landscapes["lake"],
    "most-parks": lambda estate: estate.landscapes["park"],
    "most-landscapes": lambda estate: estate.landscape_count,
}
FEWEST: dict[str, Measure] = {"fewest-empty": lambda estate: estate.empty}
HAS: dict[str, Callable[[Estate], bool]] = {
    "all-landscapes": lambda estate: all(estate.landscapes[kind] for kind in LANDSCAPES),
    "all-freedoms": lambda estate: set(estate.freedoms) == set(FREEDOMS),
    "builder-jester-landscapes": lambda estate: (
        estate.builders >= 1 and estate.jesters >= 1 and estate.landscape_count >= 2
    ),
    "two-large": lambda estate: list(estate.buildings.values()).count("large") >= 2,
    "four-buildings-two-freedoms": lambda estate: len(estate.buildings) >= 4 and len(estate.freedoms) >= 2,
}


def card_points(
    card: str, rule: PrestigeCard, estates: Mapping[str, Estate], aside: Sequence[str] = ()
) -> dict[str, int | None]:
    """What ``card`` would give each player now: full value, the tied value where the lead is
    shared ("делит с другим участником игры первенство ... получает лишь половину"), 0, or None
    where the table has not recorded what the condition needs (empty squares). A player ``aside``
    (by email, one the rules' defaults play at the end, with option retired=compete-none) ranks
    last in every "most" and "fewest": the lead is the others'."""
    if card in HAS:
        return {player: rule.value if HAS[card](estate) else 0 for player, estate in estates.items()}
    measure = MOST.get(card) or FEWEST[card]
    amounts = {player: measure(estate) for player, estate in estates.items() if player not in aside}
    if not amounts:
        return dict.fromkeys(estates, 0)
    if any(amount is None for amount in amounts.values()):
        return dict.fromkeys(estates)
    known = {player: amount for player, amount in amounts.items() if amount is not None}
    # Reading: a player with none of a thing does not have "the most" of it.
    best = max(known.values()) if card in MOST else min(known.values())
    leaders = [
        player for player, amount in known.items() if amount == best and (card in FEWEST or amount > 0)
    ]
    tied = rule.tied if rule.tied is not None else rule.value
    return {
        player: (rule.value if len(leaders) == 1 else tied) if player in leaders else 0 for player in estates
    }


def all_card_points(table: Table) -> dict[str, dict[str, int | None]]:
    return {card: card_points(card, rule, table.estates) for card, rule in table.prestige_cards.items()}


def breakdown(table: Table) -> dict[str, dict[str, int]]:
    """Each player's prestige by where it came from, the revealed prestige cards ("Игроки открывают
    свои карты престижа и если они выполнили условия ... получают"), the total, and florins (the
    tie-break, not points)."""
    points = all_card_points(table)
    scores: dict[str, dict[str, int]] = {}
    for player, estate in table.estates.items():
        row = {source: estate.prestige[source] for source in PRESTIGE_SOURCES}
        row["prestige cards"] = sum(
            points[card][player] or 0 for card in estate.prestige_cards if card is not None
        )
        row["total"] = sum(row.values())
        row["florins"] = estate.florins
        scores[player] = row
    return scores


def face_down(table: Table) -> dict[str, int]:
    """Each player who still holds prestige cards face down, with how many: "Игроки открывают
    свои карты престижа" at the end, so the final score waits for them."""
    held = {player: table.estates[player].prestige_cards.count(None) for player in table.players}
    return {player: count for player, count in held.items() if count}


def reveal_hint(hidden: Mapping[str, int]) -> str:
    """Who holds prestige cards face down and the action that turns each up."""
    who = ", ".join(f"{player} {count} card{'s' if count > 1 else ''}" for player, count in hidden.items())
    first = next(iter(hidden))
    action = f"'{first} reveals prestige-card CARD'"
    if len(hidden) > 1:
        action = f"'PLAYER reveals prestige-card CARD' (e.g. {action})"
    return f"prestige cards still face down: {who}; record {action} for each card as it is turned up"


def winners(scores: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Seed 001: most prestige wins; "Если несколько игроков обладают наивысшим количеством очков
    престижа, то игрок, имеющий наибольшую сумму денег, становится победителем." Players still
    tied share the win (the text says nothing further)."""
    best = max(row["total"] for row in scores.values())
    tied = [player for player, row in scores.items() if row["total"] == best]
    richest = max(scores[player]["florins"] for player in tied)
    return [player for player in tied if scores[player]["florins"] == richest]
