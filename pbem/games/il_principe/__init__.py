"""Il Principe (Emanuele Ornella): its declaration. Two to five players (two with the special
rules, « Règles spéciales pour 2 joueurs », which apply by the player count), played by email
(``rules``) or in companion mode (``tracker``; docs/rules/il-principe.md). ``pbem show`` prints
its view from the view's shape.

Where the two translations of the rules disagree, the components' template names the reading it
follows (``[[reading]] default``); a game picks the other one with a ``readings`` table in the
components it embeds (``pbem new --components FILE``), which the genesis signs. Options would not
do: every option must be stated in every game file and table log, so a new one would make the
files made before it unreadable.
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
    name="il-principe",
    title="Il Principe",
    aliases=("principe",),
    min_players=2,
    max_players=5,
    editions=("standard",),
    options=(
        OptionSpec(
            "rich_start",
            "bool",
            False,
            "the rules' variant: 10 ducats to start, 6 each round, cities may be built in round 1",
        ),
        *DEADLINE_OPTIONS,
        *SEALED_OPTIONS,
        *HIDDEN_DECK_OPTIONS,
    ),
    **package_parts(__name__, "pbem.render.picture.principe:draw", terminal=True, hands=True, estimate=True),
)
