"""Princes of Florence (Wolfgang Kramer, Richard Ulrich): its declaration.

The game is for three to five; the rules text also gives unofficial rules for two and for three
players, which ``unofficial_rules=true`` turns on (and which a two-player game needs). Played by
email (``rules``) or in companion mode (``tracker``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pbem.engine.declaration import (
    DEADLINE,
    HIDDEN_DECK_OPTIONS,
    GameInfo,
    OptionSpec,
    OptionValue,
    Picture,
    TerminalView,
)

if TYPE_CHECKING:
    from pbem.engine.ruleset import Ruleset
    from pbem.games.princes_of_florence.table.tracker import PrincesOfFlorence


def _seats_rule(count: int, options: Mapping[str, OptionValue]) -> str | None:
    if count == 2 and options.get("unofficial_rules") is not True:
        return "princes-of-florence with 2 players needs --option unofficial_rules=true"
    if count > 3 and options.get("unofficial_rules") is True:
        return "the unofficial rules of princes-of-florence are for 2 or 3 players only"
    return None


def _rules() -> Ruleset:
    from pbem.games.princes_of_florence.rules import RULES

    RULES.info = INFO  # given here: the rules never import their declaration, so no circle
    return RULES


def _tracker() -> PrincesOfFlorence:
    from pbem.games.princes_of_florence.table.tracker import TRACKER

    return TRACKER


def _terminal() -> TerminalView:
    from pbem.games.princes_of_florence.terminal import render

    return render


def _picture() -> Picture:
    from pbem.games.princes_of_florence.table.tracker import picture_view
    from pbem.render.picture.florence import draw

    return Picture(draw, picture_view)


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
        DEADLINE,
        *HIDDEN_DECK_OPTIONS,
    ),
    rules=_rules,
    tracker=_tracker,
    terminal=_terminal,
    picture=_picture,
    seats_rule=_seats_rule,
)
