"""Final scoring of Il Principe (seed 002, "Calcul des points de Victoire" and "Points de victoire
à la fin de la partie"), on top of the points already on the score track.

Pure functions: the score can be shown at any time as "if the game ended now".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.table.state import Table

CATEGORIES = ("track", "regions", "roles", "sets", "most ducats", "most cards in hand")


def region_points(
    shields: Mapping[str, int], first_vp: int, second_vp: int, aside: Sequence[str] = ()
) -> dict[str, int]:
    """One region: « Si il y a un ou plusieurs joueurs avec le plus de blasons dans une région, ils
    reçoivent chacun 5 points ... aucun autre joueur ... ne reçoit des points »; with one most,
    « un ou plusieurs joueurs ont le second plus grand total ... reçoivent chacun 2 points ».
    A family without a shield in the region is not in its majorities, nor is one ``aside``."""
    present = {name: count for name, count in shields.items() if count > 0 and name not in aside}
    points = dict.fromkeys(shields, 0)
    levels = sorted(set(present.values()), reverse=True)
    if not levels:
        return points
    first = [name for name, count in present.items() if count == levels[0]]
    for name in first:
        points[name] = first_vp
    if len(first) == 1 and len(levels) > 1:
        for name, count in present.items():
            if count == levels[1]:
                points[name] = second_vp
    return points


def regions(table: Table) -> dict[str, dict[str, int]]:
    """Each region's points per family."""
    first, second = table.parts.rule("region_first_vp"), table.parts.rule("region_second_vp")
    return {
        region: region_points(
            {name: seat.shields.get(region, 0) for name, seat in table.seats.items()},
            first,
            second,
            table.aside,
        )
        for region in table.parts.regions
    }


def most(amounts: Mapping[str, int], points: int, aside: Sequence[str] = ()) -> dict[str, int]:
    """« 2 PVs pour le joueur qui possède le plus ... (en cas d'égalité, tous les joueurs concernés
    gagnent 2 PVs) ». Read as written, families tied with none at all also share the 2 points. A
    family ``aside`` ranks last: the most is the most among the others."""
    best = max((amount for name, amount in amounts.items() if name not in aside), default=0)
    return {name: points if amount == best and name not in aside else 0 for name, amount in amounts.items()}


def sets(table: Table, name: str) -> int:
    """« 2 PVs pour chaque carte Bâtiment posée devant lui de la couleur dans laquelle il a le
    moins de cartes », which is « 2 points de victoire pour chaque lot de 5 cartes Bâtiment de
    couleurs différentes »: face up or down alike."""
    seat = table.seats[name]
    return table.parts.rule("set_vp") * min(seat.in_front(colour) for colour in COLOURS)


def role_points(table: Table, name: str) -> int:
    """« 2 PVs pour chaque Rôle Majeur ... 1 PV pour chaque Rôle Mineur contrôlé à la fin »."""
    major, minor = table.parts.rule("end_major_vp"), table.parts.rule("end_minor_vp")
    return sum(
        major if role.endswith("major") else minor for role, holder in table.roles.items() if holder == name
    )


def breakdown(table: Table) -> dict[str, dict[str, int]]:
    """Points per family and category, with ``total``."""
    by_region = regions(table)
    ducats = most(
        {name: seat.ducats for name, seat in table.seats.items()},
        table.parts.rule("most_ducats_vp"),
        table.aside,
    )
    hands = most(
        {name: seat.hand_size for name, seat in table.seats.items()},
        table.parts.rule("most_cards_vp"),
        table.aside,
    )
    scores: dict[str, dict[str, int]] = {}
    for name in table.players:
        row = {
            "track": table.seats[name].vp,
            "regions": sum(points[name] for points in by_region.values()),
            "roles": role_points(table, name),
            "sets": sets(table, name),
            "most ducats": ducats[name],
            "most cards in hand": hands[name],
        }
        row["total"] = sum(row.values())
        scores[name] = row
    return scores


def best_major(table: Table, name: str) -> int | None:
    """Index in the colour order of the first major role the family holds."""
    majors = [
        COLOURS.index(role.split()[0])
        for role, holder in table.roles.items()
        if holder == name and role.endswith("major")
    ]
    return min(majors, default=None)


def winners(table: Table, scores: Mapping[str, Mapping[str, int]]) -> tuple[list[str], list[str]]:
    """The winners and the tie-breaks used: most points; then « celui qui a joué le plus de cartes
    Bâtiment »; then « celui avec la première carte Rôle Majeur dans l'ordre des couleurs ». If
    still tied (no major role among them), the texts say nothing more: the win is shared."""
    best = max(row["total"] for row in scores.values())
    tied: Sequence[str] = [name for name, row in scores.items() if row["total"] == best]
    used: list[str] = []
    if len(tied) > 1:
        played = max(table.seats[name].played for name in tied)
        tied = [name for name in tied if table.seats[name].played == played]
        used.append(f"tied on {best} points: most building cards played ({played})")
    if len(tied) > 1:
        majors = {name: best_major(table, name) for name in tied}
        held = [index for index in majors.values() if index is not None]
        if held:
            first = min(held)
            tied = [name for name in tied if majors[name] == first]
            used.append(f"still tied: the first major role in colour order ({COLOURS[first]} major)")
        else:
            used.append("still tied and none holds a major role: the texts give no further tie-break")
    return list(tied), used
