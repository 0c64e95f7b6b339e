"""What came of an entry in a game of Princes of Florence by email, for ``pbem log``: read from
the states before and after it. A lot won and its price, a work made and its WP, the prestige
each player gained (by source), a round's best work and the standings at its end, prestige cards
turned up at the end. Only what lies face up: the state names a card only once it is shown.
"""

from __future__ import annotations

from pbem.engine.ruleset import standings
from pbem.games.princes_of_florence.scoring import breakdown
from pbem.games.princes_of_florence.state import SOURCES, Game, Player


def outcomes(before: Game, after: Game) -> list[str]:
    found: list[str] = []
    for old, new in zip(before.players, after.players, strict=True):
        found += _player(after, old, new)
    if len(after.best) > len(before.best):
        found += _round_end(after, len(after.best))
    cards_before, cards_after = breakdown(before), breakdown(after)
    for player in after.players:
        gained = cards_after[player.seat]["prestige cards"] - cards_before[player.seat]["prestige cards"]
        turned = [
            after.shown[token]
            for token in player.prestige_cards
            if token in after.shown and token not in before.shown
        ]
        if turned:
            found.append(f"{player.seat} turns up {', '.join(turned)}: {gained:+d} prestige")
    return found


def _player(game: Game, old: Player, new: Player) -> list[str]:
    found = []
    if new.bought and new.bought != old.bought:
        paid = old.florins - new.florins
        found.append(f"{new.seat} wins the {new.bought} for {paid} florins")
    for work in new.works[len(old.works) :]:
        bonus = new.played_bonus[len(old.played_bonus) :]
        extra = f" with {', '.join(bonus)}" if bonus else ""
        found.append(f"{new.seat} makes a work: {work.profession}{extra}, {work.value} WP")
    # the best work's prestige is said with the round's end
    for source, was, now in zip(SOURCES, old.prestige, new.prestige, strict=True):
        if source != "best work" and now != was:
            found.append(f"{new.seat} {now - was:+d} prestige ({source}), now {new.points}")
    return found


def _round_end(game: Game, round_: int) -> list[str]:
    value, makers = game.best[round_ - 1]
    points = game.components.rule("best_work_prestige")
    if makers:
        best = f"round {round_}'s best work: {value} WP by {' and '.join(makers)}, +{points} prestige"
    else:
        best = f"round {round_}: no work was made, so no prestige for the best work"
    return [best, f"prestige after round {round_}: {standings(breakdown(game))}"]
