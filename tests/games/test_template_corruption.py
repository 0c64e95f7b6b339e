"""Every game refuses a corrupted component template in one line naming the value: each game's
cases (tests/games/<game>/template_cases.py) run through one harness (tests/games/corruption.py)."""

from __future__ import annotations

import copy

import pytest

from pbem.errors import GameFileError
from pbem.games.il_principe import components as il_principe
from pbem.games.princes_of_florence import components as princes_of_florence
from pbem.games.princes_of_the_renaissance import components as princes_of_the_renaissance
from tests.games.corruption import Data, Game
from tests.games.il_principe import template_cases as il_principe_cases
from tests.games.princes_of_florence import template_cases as princes_of_florence_cases
from tests.games.princes_of_the_renaissance import template_cases as princes_of_the_renaissance_cases


def _renaissance(data: Data) -> object:
    return princes_of_the_renaissance.parse(data, edition="2016", require_sources=True)


GAMES = {
    "il-principe": Game(
        "il-principe",
        lambda data: il_principe.parse(data, require_sources=True),
        il_principe_cases.CORRUPTIONS,
    ),
    "princes-of-florence": Game(
        "princes-of-florence",
        lambda data: princes_of_florence.parse(data, require_sources=True),
        princes_of_florence_cases.CORRUPTIONS,
    ),
    "princes-of-the-renaissance": Game(
        "princes-of-the-renaissance-2016", _renaissance, princes_of_the_renaissance_cases.CORRUPTIONS
    ),
}
CASES = [(name, case) for name, game in GAMES.items() for case in sorted(game.cases)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_template_is_read_without_refusal(game: str) -> None:
    """So that each refusal below comes from the one value a case breaks."""
    GAMES[game].read(GAMES[game].shipped())


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{name}: {case}" for name, case in CASES])
def test_a_corrupted_template_is_refused_in_one_line_naming_the_value(game: str, case: str) -> None:
    change, message = GAMES[game].cases[case]
    data = copy.deepcopy(GAMES[game].shipped())
    change(data)
    with pytest.raises(GameFileError) as caught:
        GAMES[game].read(data)
    assert str(caught.value) == message
    assert "\n" not in message
