"""What Il Principe declares about itself: two to five players (two with the special rules,
« Règles spéciales pour 2 joueurs », which apply by the player count), played by email
(``rules``) or in companion mode (``pbem table``; docs/rules/il-principe.md).

Where the two translations of the rules disagree, the components' template names the reading it
follows (``[[reading]] default``); an option picks the other one, and the genesis records it.
"""

from pbem.engine.registry import DEADLINE, GameInfo, OptionSpec, register


def _reading(name: str, choices: tuple[str, str], help_text: str) -> OptionSpec:
    return OptionSpec(name, "choice", "template", help_text, choices=("template", *choices))


INFO = register(
    GameInfo(
        name="il-principe",
        title="Il Principe",
        aliases=("principe",),
        min_players=2,
        max_players=5,
        editions=("standard",),
        rules="pbem.games.il_principe.rules",
        tracker="pbem.games.il_principe.table",
        options=(
            OptionSpec(
                "rich_start",
                "bool",
                False,
                "the rules' variant: 10 ducats to start, 6 each round, cities may be built in round 1",
            ),
            _reading(
                "last_round_ducats",
                ("paid", "none"),
                "the last round's ducats: paid (text B) or none (text A drops phase 1); template: "
                "the components' default",
            ),
            _reading(
                "short_pile",
                ("reuse-removed", "game-ends"),
                "a last round short of cards: reuse removed cards (text A) or the game ends (text B)",
            ),
            _reading(
                "two_players_last_round",
                ("six", "all"),
                "2 players' last round: 6 cards or all left (text A), or all left (text B)",
            ),
            DEADLINE,
        ),
    )
)
