"""What came of an entry in a game of Princes of the Renaissance, for ``pbem log``.

The rules already tell what happens in the game's events, in a player's words (an auction won
and its price, a war's dice and what it decided, a decade's income), so an entry's outcomes are
the events it added, less those that only repeat the move itself (``alice bids 13`` under
``bid 13``), and the score once a decade ends. The events hold tokens for hidden cards, never a
card nobody has shown.
"""

from __future__ import annotations

import re

from pbem.engine.ruleset import standings
from pbem.games.princes_of_the_renaissance import scoring
from pbem.games.princes_of_the_renaissance.state import Game

# What the move's own text says already: a bid, a pass, a family chosen, a card bought, a gift.
# (A pass the rules make for a seat, with its reason, is an outcome and stays.)
_ECHO = re.compile(
    r"\S+ (bids \d+|raises to \d+|passes|passes at \d+|takes the .+ family|buys a Treachery card"
    r"|gives \d+ \w+ to \S+)"
)


def outcomes(before: Game, after: Game) -> list[str]:
    added = after.events[len(before.events) :] if len(after.events) >= len(before.events) else []
    found = [event for event in added if not _ECHO.fullmatch(event)]
    if (before.decade and after.decade > before.decade) or (after.ended and not before.ended):
        found.append(f"score after {before.decade_name}: {standings(scoring.breakdown(after))}")
    return found
