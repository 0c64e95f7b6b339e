"""Every game's replay refuses an entry its own author changed and signed again, which passes its
signature: each game's forgeries (tests/games/<game>/forge_cases.py) through one forge harness
(tests/tamper.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType

import pytest

from tests.games.il_principe import forge_cases as il_principe
from tests.games.princes_of_florence import forge_cases as princes_of_florence
from tests.games.princes_of_the_renaissance import forge_cases as princes_of_the_renaissance
from tests.tamper import Forged, forgeries_refused

GAMES: Mapping[str, ModuleType] = {
    "il-principe": il_principe,
    "princes-of-florence": princes_of_florence,
    "princes-of-the-renaissance": princes_of_the_renaissance,
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_forged_entry_is_refused_where_it_was_made(game: str) -> None:
    build: Callable[[], Forged] = GAMES[game].game
    forged = build()
    assert forgeries_refused(forged.data, forged.key_of, GAMES[game].FORGERIES) == {}
