"""Princes of Florence (Wolfgang Kramer, Richard Ulrich): its declaration.

The game is for three to five; the rules text also gives unofficial rules for two and for three
players, which ``unofficial_rules=true`` turns on (and which a two-player game needs). Played by
email (``rules``) or in companion mode (``tracker``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.engine.declaration import (
    DEADLINE_OPTIONS,
    HIDDEN_DECK_OPTIONS,
    GameInfo,
    OptionSpec,
    OptionValue,
    package_parts,
)


def _seats_rule(count: int, options: Mapping[str, OptionValue]) -> str | None:
    if count == 2 and options.get("unofficial_rules") is not True:
        return "princes-of-florence with 2 players needs --option unofficial_rules=true"
    if count > 3 and options.get("unofficial_rules") is True:
        return "the unofficial rules of princes-of-florence are for 2 or 3 players only"
    return None


INFO = GameInfo(
    name="princes-of-florence",
    title="Princes of Florence",
    aliases=("pof", "florence"),
    min_players=2,
    max_players=5,
    editions=("standard",),
    options=(
        OptionSpec(
            "unofficial_rules",
            "bool",
            False,
            "use the unofficial rules for 2 or 3 players",
        ),
        OptionSpec(
            "variant_last_price",
            "bool",
            True,
            "with the unofficial rules for 2 players, the last player without a lot pays their price "
            "too (500 for a prestige card, recruitment card or builder; a jester 700, from round 5 "
            "300); false: 200 for any lot",
            absent=False,
        ),
        *DEADLINE_OPTIONS,
        *HIDDEN_DECK_OPTIONS,
    ),
    **package_parts(__name__, "pbem.render.picture.florence:draw", terminal=True, hands=True, estimate=True),
    seats_rule=_seats_rule,
)
