"""The score of a game by email (seed 001, "Конец игры"): prestige by source, the prestige cards
turned up, counted by the companion's ``prestige.card_points`` so both modes score alike."""

from __future__ import annotations

from pbem.games.princes_of_florence.prestige import card_points, winners
from pbem.games.princes_of_florence.state import SOURCES, Game, as_estate

__all__ = ["breakdown", "winners"]


def breakdown(game: Game) -> dict[str, dict[str, int]]:
    """Each seat's prestige by where it came from; "prestige cards" counts only cards turned up
    ("Игроки открывают свои карты престижа и если они выполнили условия ... получают"); ``florins``
    is the tie-break, not points ("игрок, имеющий наибольшую сумму денег, становится победителем")."""
    estates = {player.seat: as_estate(game, player) for player in game.players}
    scores: dict[str, dict[str, int]] = {}
    for player in game.players:
        row = dict(zip(SOURCES, player.prestige, strict=True))
        cards = [game.shown[token] for token in player.prestige_cards if token in game.shown]
        row["prestige cards"] = sum(
            card_points(card, game.components.prestige[card], estates, game.defaults.aside)[player.seat] or 0
            for card in cards
        )
        row["total"] = sum(row.values())
        row["florins"] = player.florins
        scores[player.seat] = row
    return scores
