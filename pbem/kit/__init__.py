"""Game-neutral mechanics the games' rules compose: below pbem.games, beside pbem.engine."""
