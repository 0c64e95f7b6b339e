"""What Il Principe declares about itself: two to five players (two with the special rules),
played in companion mode (``pbem table``; docs/rules/il-principe.md)."""

from pbem.engine.registry import DEADLINE, GameInfo, OptionSpec, register

INFO = register(
    GameInfo(
        name="il-principe",
        title="Il Principe",
        aliases=("principe",),
        min_players=2,
        max_players=5,
        editions=("standard",),
        tracker="pbem.games.il_principe.table",
        options=(
            OptionSpec(
                "rich_start",
                "bool",
                False,
                "the rules' variant: 10 ducats to start, 6 each round, cities may be built in round 1",
            ),
            DEADLINE,
        ),
    )
)
