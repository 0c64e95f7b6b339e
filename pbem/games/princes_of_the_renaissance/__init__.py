"""Princes of the Renaissance (Martin Wallace; Warfrog 2003, Mercury Games 2016): its declaration.

Editions: ``2016`` (the Mercury Games rulebook, the default) and ``2003`` (the Warfrog original).
Six families sit at most; wars per decade are counted for "fewer than 5" and "5 or 6" players,
and the game is for three to six. Played by email (``rules``) or in companion mode (``tracker``).
"""

from __future__ import annotations

from pbem.engine.declaration import (
    DEADLINE_OPTIONS,
    HIDDEN_DECK_OPTIONS,
    SEALED_OPTIONS,
    GameInfo,
    OptionSpec,
    package_parts,
)

INFO = GameInfo(
    name="princes-of-the-renaissance",
    title="Princes of the Renaissance",
    aliases=("potr", "princes"),
    min_players=3,
    max_players=6,
    editions=("2016", "2003"),
    options=(
        OptionSpec(
            "family_side",
            "choice",
            "a",
            "Family tile side: a (standard game) or b (the alternative, less aggressive game)",
            choices=("a", "b"),
        ),
        OptionSpec(
            "turn_order",
            "choice",
            "bid",
            "bid: sealed gold bid for turn order, then bidding for families; "
            "dice: the beginners' dice roll, worst marker picks first, all pay 5 gold",
            choices=("bid", "dice"),
        ),
        *DEADLINE_OPTIONS,
        *SEALED_OPTIONS,
        *HIDDEN_DECK_OPTIONS,
    ),
    **package_parts(__name__, "pbem.render.picture.potr:draw", terminal=True, hands=True, estimate=True),
)
