"""Game-neutral mechanics the games' rules compose: pure functions and frozen values over seat
names, below ``pbem.games`` and importing nothing from it."""
