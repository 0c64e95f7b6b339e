"""The reports a Princes of Florence table prints: the table, a work's value, building costs, the
round's best work, the prestige cards and the score."""

from __future__ import annotations

from pbem.companion.tracker import Cell, Report, Sheet
from pbem.engine.json_shape import snake_scores
from pbem.games.princes_of_florence.buildings import buildable, cost, may_touch
from pbem.games.princes_of_florence.components import LANDSCAPES, Components
from pbem.games.princes_of_florence.prestige import (
    all_card_points,
    breakdown,
    face_down,
    reveal_hint,
    winners,
)
from pbem.games.princes_of_florence.table.state import OVER, PRESTIGE_SOURCES, Estate, Table
from pbem.games.princes_of_florence.works import WorkValue, best_work, minimum, minimum_bounds


def minimum_text(table: Table) -> str:
    least = minimum(table.minimums, table.round)
    if least is not None:
        return str(least)
    low, high = minimum_bounds(table.minimums, table.round)
    limits = f" ({low or 1}..{high})" if high is not None else ""
    return f"not known{limits}: read it off the round track and record 'minimum N'"


def _player_row(player: str, estate: Estate) -> tuple[Cell, ...]:
    return (
        player,
        estate.florins,
        estate.points,
        estate.jesters,
        estate.builders,
        estate.hand + len(estate.named),
        f"{estate.recruitment}/{estate.recruited}",
        estate.bonus,
        ", ".join(estate.actions) or "-",
    )


def _estate_row(player: str, estate: Estate) -> tuple[Cell, ...]:
    buildings = ", ".join(f"{name} ({size})" for name, size in sorted(estate.buildings.items()))
    landscapes = ", ".join(
        f"{kind} {estate.landscapes[kind]}" for kind in LANDSCAPES if estate.landscapes[kind]
    )
    return (player, buildings or "-", landscapes or "-", ", ".join(sorted(estate.freedoms)) or "-")


def _cards_row(player: str, estate: Estate) -> tuple[Cell, ...]:
    works = ", ".join(f"{work.profession} {work.value} (r{work.round})" for work in estate.works)
    return (
        player,
        ", ".join(estate.named) or "-",
        ", ".join(estate.played) or "-",
        ", ".join(card or "?" for card in estate.prestige_cards) or "-",
        works or "-",
    )


def table_sheet(table: Table) -> Sheet:
    """Three narrow tables rather than one wide one, so the sheet fits a terminal."""
    rounds = table.components.rule("rounds")
    state = "game over" if table.phase == OVER else f"round {table.round} of {rounds}, {table.phase} phase"
    players = Report(
        title=f"Princes of Florence: {state}",
        columns=(
            "player",
            "florins",
            "prestige",
            "jesters",
            "builders",
            "hand",
            "recruit",
            "bonus",
            "actions",
        ),
        rows=tuple(_player_row(player, table.estates[player]) for player in table.players),
        notes=(
            "hand: profession cards; recruit: recruitment cards held/used; bonus: bonus cards; "
            "actions: this round's",
            f"first player: {table.first}",
            f"minimum work value this round: {minimum_text(table)}",
            f"won at this round's auction: {', '.join(table.auctioned) or 'nothing yet'}",
        ),
        data={"round": table.round, "phase": table.phase, "first": table.first},
    )
    estates = Report(
        title="Estates",
        columns=("player", "buildings", "landscapes", "freedoms"),
        rows=tuple(_estate_row(player, table.estates[player]) for player in table.players),
    )
    cards = Report(
        title="Cards and works",
        columns=("player", "named in hand", "laid out", "prestige cards", "works (WP, round)"),
        rows=tuple(_cards_row(player, table.estates[player]) for player in table.players),
        notes=("in hand: profession cards; '?' is a prestige card not yet revealed",),
    )
    supply = Report(
        title="Supply",
        columns=("item", "left"),
        rows=tuple((item, count) for item, count in table.supply.items()),
    )
    return (players, estates, cards, supply)


def work_report(
    player: str, value: WorkValue, least: int | None, components: Components, notes: tuple[str, ...] = ()
) -> Report:
    """The value line by line against the minimum, and what florins or prestige it would pay."""
    total = value.total
    per_wp, per_prestige = components.rule("florins_per_wp"), components.rule("florins_per_prestige")
    verdict = (
        "minimum not known"
        if least is None
        else ("meets" if total >= least else "below") + f" the round's minimum {least}"
    )
    most = total * per_wp // per_prestige
    return Report(
        title=f"Work: {player}'s {value.profession}",
        columns=("part", "WP"),
        rows=(*((part.label, part.points) for part in value.parts), ("total", total)),
        notes=(
            verdict,
            f"pays {total * per_wp} florins ({per_wp} per WP), or up to {most} prestige "
            f"({per_prestige} florins each): k prestige leave {total * per_wp} - {per_prestige}k florins",
            *notes,
        ),
        data={
            "value": total,
            "minimum": least,
            "options": [
                {"prestige": k, "florins": total * per_wp - k * per_prestige} for k in range(most + 1)
            ],
        },
    )


def building_cost_report(table: Table, player: str) -> Report:
    estate = table.estates[player]
    price = cost(estate.builders, table.components)
    can = buildable(estate.buildings, table.supply, table.components)
    return Report(
        title=f"Building cost: {player}",
        columns=("item", "value"),
        rows=(
            ("builders", estate.builders),
            ("cost of a building", price),
            ("florins", estate.florins),
            ("may build", ", ".join(f"{name} ({table.sizes.get(name, '?')})" for name in can) or "-"),
            (
                "buildings may touch",
                "yes" if may_touch(estate.builders, table.components) else "no (corners only)",
            ),
        ),
        notes=("700 florins; 300 with one or two builders; free with three (seed 001)",),
        data={"cost": price, "buildable": can},
    )


def best_work_report(table: Table, ended: bool = False) -> Report:
    value, best = best_work(table)
    works = [
        (player, work.profession, work.value)
        for player in table.players
        for work in table.estates[player].works
        if work.round == table.round
    ]
    if best:
        gain = "gain" if ended else "would gain"
        points = table.components.rule("best_work_prestige")
        note = f"best work {value} WP: {', '.join(best)} {gain} {points} prestige"
    else:
        note = "no work created this round: no prestige for the best work"
    return Report(
        title=f"Best work of round {table.round}",
        columns=("player", "profession", "WP"),
        rows=tuple(works),
        notes=(note,),
        data={"value": value, "players": best},
    )


def prestige_report(table: Table) -> Report:
    points = all_card_points(table)
    holders = {
        card: player
        for player, estate in table.estates.items()
        for card in estate.prestige_cards
        if card is not None
    }
    rows = []
    for card, rule in table.prestige_cards.items():
        cells: list[Cell] = [card, f"{rule.value}" + (f" ({rule.tied} tied)" if rule.tied else "")]
        cells.extend(
            "?" if points[card][player] is None else (points[card][player] or 0) for player in table.players
        )
        cells.append(holders.get(card, "-"))
        rows.append(tuple(cells))
    notes = [
        "a shared lead gives the tied value, half the card's",
        "fewest-empty needs every player's 'PLAYER empty-squares N'",
    ]
    notes.extend(
        f"{card}: value {rule.value} is {rule.source}, not printed in any source"
        for card, rule in table.prestige_cards.items()
        if rule.source == "pbem default"
    )
    return Report(
        title="Prestige cards: what each would give now",
        columns=("card", "value", *table.players, "held by"),
        rows=tuple(rows),
        notes=tuple(notes),
        data={"points": points, "holders": holders},
    )


def score_sheet(table: Table) -> Sheet:
    """The score; once the game is over it is final only when every prestige card is revealed
    ("Игроки открывают свои карты престижа"): until then it is marked incomplete, names whose
    cards are still face down and the action that reveals them, and names no winner."""
    scores = breakdown(table)
    hidden = face_down(table)
    incomplete = table.phase == OVER and bool(hidden)
    won = [] if incomplete else winners(scores)
    columns = (*PRESTIGE_SOURCES, "prestige cards", "total")
    rows: list[tuple[Cell, ...]] = [
        (category, *(scores[player][category] for player in table.players)) for category in columns
    ]
    rows.append(("florins (tie-break)", *(scores[player]["florins"] for player in table.players)))
    top = max(row["total"] for row in scores.values())
    tied = [player for player, row in scores.items() if row["total"] == top]
    notes = []
    if len(tied) > 1 and not incomplete:
        notes.append(f"{', '.join(tied)} tie on {top} prestige: the most florins wins")
    if len(won) > 1:
        notes.append(
            "still tied on florins: the rules text names no further tie-break, so they share the win"
        )
    if incomplete:
        state = "incomplete: prestige cards face down"
        notes.append(
            f"not final: {reveal_hint(hidden)}; every prestige card is turned up at the end, and a card "
            "still face down is not counted above"
        )
        notes.append("no winner until every prestige card is revealed")
    else:
        if hidden:
            held = ", ".join(f"{player} {count}" for player, count in hidden.items())
            notes.append(
                f"prestige cards held face down ({held}) are not counted until revealed; the final "
                "score waits for them"
            )
        state = "final" if table.phase == OVER else "if the game ended now"
        notes.append(f"{'winner' if len(won) == 1 else 'winners'} ({state}): {', '.join(won)}")
    return (
        Report(
            title=f"Score ({state})",
            columns=("category", *table.players),
            rows=tuple(rows),
            notes=tuple(notes),
            data={
                "scores": snake_scores(scores),
                "winners": won,
                "complete": not incomplete,
                "face_down": hidden,
            },
        ),
    )
