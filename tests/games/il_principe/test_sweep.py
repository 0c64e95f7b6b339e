"""Il Principe plays the same games: seeded random games (2 to 5 players, the variant on and off)
digested with every move, every legal move at every step and every final score
(tests/games/il_principe/sweep.py), against the digest the rules gave before they were made faster.

A change to the rules that changes no outcome leaves the digest as it is; one meant to change an
outcome (a rule read anew, a move listed in another order) changes it, and its author records the
new digest here, saying why."""

from __future__ import annotations

from tests.games.il_principe.sweep import sweep

GAMES = 12
DIGEST = "8e786c6cc442e6b37dc2c4460b90775a274c3faf35f5903382a00500234b5cb5"


def test_the_same_games() -> None:
    digest, made = sweep(GAMES, legal=True, mixed=True)
    assert (made, digest) == (2885, DIGEST)
