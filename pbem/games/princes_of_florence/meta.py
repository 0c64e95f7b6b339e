"""What Princes of Florence declares about itself.

The game is for three to five; the rules text also gives unofficial rules for two and for three
players, which ``unofficial_rules=true`` turns on (and which a two-player game needs).
"""

from collections.abc import Mapping

from pbem.engine.registry import DEADLINE, HIDDEN_DECK_OPTIONS, GameInfo, OptionSpec, OptionValue, register


def _seats_rule(count: int, options: Mapping[str, OptionValue]) -> str | None:
    if count == 2 and options.get("unofficial_rules") is not True:
        return "princes-of-florence with 2 players needs --option unofficial_rules=true"
    if count > 3 and options.get("unofficial_rules") is True:
        return "the unofficial rules of princes-of-florence are for 2 or 3 players only"
    return None


INFO = register(
    GameInfo(
        name="princes-of-florence",
        title="Princes of Florence",
        aliases=("pof", "florence"),
        min_players=2,
        max_players=5,
        editions=("standard",),
        rules="pbem.games.princes_of_florence.rules",
        tracker="pbem.games.princes_of_florence.table",
        options=(
            OptionSpec(
                "unofficial_rules",
                "bool",
                False,
                "use the unofficial rules for 2 or 3 players",
            ),
            DEADLINE,
            *HIDDEN_DECK_OPTIONS,
        ),
        seats_rule=_seats_rule,
    )
)
