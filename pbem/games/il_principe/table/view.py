"""What the tracker prints: the table, the final score, and the calculations of ``pbem table calc``."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.companion.tracker import Report, Sheet
from pbem.engine.json_shape import snake_scores
from pbem.games.il_principe import roles, scoring
from pbem.games.il_principe.actions import next_group, role_points
from pbem.games.il_principe.components import COLOURS, ROLES, City
from pbem.games.il_principe.table.state import Table
from pbem.kit.seats import after


def _hand(table: Table, name: str) -> str:
    seat = table.seats[name]
    known = [f"{seat.hand[card]} {card}" for card in COLOURS if seat.hand[card]]
    return f"{seat.hand_size}" + (f" ({', '.join(known)})" if known else "")


def _cards(table: Table, name: str) -> str:
    seat = table.seats[name]
    parts = [
        f"{card} {seat.up[card]}" + (f"+{seat.down[card]}down" if seat.down[card] else "")
        for card in COLOURS
        if seat.in_front(card)
    ]
    return ", ".join(parts) or "-"


def families(table: Table) -> Report:
    rows = []
    for name in table.players:
        seat = table.seats[name]
        held = [role for role in ROLES if table.holder(role) == name]
        rows.append(
            (
                name,
                seat.ducats,
                seat.vp,
                _hand(table, name),
                _cards(table, name),
                f"{seat.shields_placed}/{table.parts.box.shields_per_family}",
                ", ".join(held) or "-",
                ", ".join(seat.cities) or "-",
            )
        )
    stage = "over" if table.over else ("last round" if table.last_round else f"round {table.round}")
    notes = [
        f"{stage}; Il Principe: {table.principe}; pile: {table.deck} cards",
        f"building cards removed from play: {table.discards}",
        f"cities built: {len(table.built)} of {table.rules.cities}",
    ]
    if any(table.reserve.values()):
        notes.append("reserve: " + ", ".join(f"{table.reserve[c]} {c}" for c in COLOURS if table.reserve[c]))
    waiting = roles.waiting(table)
    if waiting:
        notes.append(f"waiting: {waiting}")
    return Report(
        "Il Principe",
        ("family", "ducats", "VP", "hand", "in front (up+down)", "shields", "roles", "cities"),
        tuple(rows),
        tuple(notes),
        {
            "round": table.round,
            "over": table.over,
            "last_round": table.last_round,
            "principe": table.principe,
            "deck": table.deck,
            "reserve": dict(table.reserve),
            "roles": {role: table.holder(role) for role in ROLES},
            "families": {
                name: {
                    "ducats": seat.ducats,
                    "vp": seat.vp,
                    "hand": dict(seat.hand),
                    "up": dict(seat.up),
                    "down": dict(seat.down),
                    "shields": dict(seat.shields),
                    "cities": list(seat.cities),
                }
                for name, seat in table.seats.items()
            },
        },
    )


def regions(table: Table) -> Report:
    points = scoring.regions(table)
    rows = []
    for region in table.parts.regions:
        shields = ", ".join(
            f"{name} {table.seats[name].shields[region]}"
            for name in table.players
            if table.seats[name].shields.get(region)
        )
        scored = ", ".join(f"{name} {value}" for name, value in points[region].items() if value)
        rows.append((region, shields or "-", scored or "-"))
    first, second = table.parts.rule("region_first_vp"), table.parts.rule("region_second_vp")
    notes = (
        f"one family with the most shields: {first} VP, and {second} VP to each family second; several "
        f"tied for the most: {first} VP each and nobody else scores",
    )
    return Report("Regions", ("region", "shields", "VP"), tuple(rows), notes, {"points": points})


def role_majorities(table: Table) -> Report:
    rows = []
    for card in COLOURS:
        found = roles.majority(table, card)
        rows.append(
            (
                card,
                ", ".join(
                    f"{name} {table.seats[name].up[card]}"
                    for name in table.players
                    if table.seats[name].up[card]
                )
                or "-",
                " or ".join(found.major) or "-",
                " or ".join(found.minor) or "-",
                found.reading,
                table.holder(f"{card} major") or "-",
                table.holder(f"{card} minor") or "-",
            )
        )
    notes = (
        "if phase 4 were now (face-up cards only); 'x or y': the tied players bid for the role",
        "a) one most and one second take major and minor; b) one most takes the major, the tied "
        "seconds bid for the minor; c) the tied most bid for the major, the minor stays",
    )
    return Report(
        "Roles",
        ("colour", "face up", "major", "minor", "reading", "major now", "minor now"),
        tuple(rows),
        notes,
    )


def city(table: Table, found: City, icons: Sequence[str] | None) -> Report:
    cards = found.icons or (tuple(icons) if icons else None)
    rows: list[tuple[str | int, ...]] = [
        ("size", found.size.name),
        ("cost", found.size.cost),
        ("VP", found.vp),
        ("shields", found.size.shields),
        ("icons", " ".join(cards) if cards else "not in the texts: add `with <colour> ...`"),
        (
            "regions",
            ", ".join(found.regions) if found.regions else "not in the texts: the builder names them",
        ),
    ]
    notes = []
    if found.name in table.built:
        notes.append(f"already built by {table.built[found.name]}")
    if cards:
        for builder in table.players:
            gains = role_points(table, builder, cards)
            text = ", ".join(f"{name} +{points}" for name, points in gains.items()) or "nobody"
            rows.append((f"if {builder} builds, roles score", text))
    return Report(f"City {found.name}", ("", "value"), tuple(rows), tuple(notes))


def auction(table: Table) -> Report:
    order = []
    reserve = dict(table.reserve)
    while (card := next_group(reserve)) is not None:
        order.append((card, reserve[card]))
        reserve[card] = 0
    start = after(table.players, table.principe)
    notes = (
        "fewest cards first, ties in colour order green, white, red, blue, yellow",
        f"each auction opens with {start}, left of Il Principe ({table.principe})",
    )
    return Report("Auction order", ("colour", "cards"), tuple(order), notes)


def end(table: Table) -> Report:
    face_up = min(4, table.rules.cities - len(table.built))
    rows = (
        ("city cards face up", face_up, "fewer than 4 at the start of phase 1: the game ends"),
        (
            "building cards in the pile",
            table.deck,
            f"fewer than {table.rules.threshold} at phase 1: last round",
        ),
    )
    notes = ("the game is over",) if table.over else (("this is the last round",) if table.last_round else ())
    return Report("End of the game", ("condition", "now", "rule"), rows, notes)


def score(table: Table) -> Sheet:
    scores = scoring.breakdown(table)
    won, used = scoring.winners(table, scores)
    columns = ("family", *scoring.CATEGORIES, "total", "cards played", "first major")
    rows: list[tuple[str | int, ...]] = []
    for name in table.players:
        first = scoring.best_major(table, name)
        rows.append(
            (
                name,
                *(scores[name][category] for category in scoring.CATEGORIES),
                scores[name]["total"],
                table.seats[name].played,
                "-" if first is None else COLOURS[first],
            )
        )
    title = "Final score" if table.over else "Score if the game ended now"
    notes = (*used, f"winner: {', '.join(won)}" if len(won) == 1 else f"shared win: {', '.join(won)}")
    data = {"scores": snake_scores(scores), "winners": won}
    return (Report(title, columns, tuple(rows), notes, data), regions(table))
