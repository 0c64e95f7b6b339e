"""Every game plays the same games: seeded random games through the kit's walk, digested with every
move, every legal move at every step and every final score (tests/games/sweep.py), against the
digest its rules gave before they were made faster. A game keeps its digest in
``tests/games/<package>/sweep.digest`` (the games, the moves, the digest); one meant to change an
outcome (a rule read anew, a move listed in another order) records the new digest there, saying
why in its commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine.declaration import GameInfo
from pbem.engine.registry import games
from tests.games.sweep import sweep

HERE = Path(__file__).resolve().parent


def digest_file(info: GameInfo) -> Path:
    return HERE / info.name.replace("-", "_") / "sweep.digest"


KEPT = [info for info in games() if digest_file(info).is_file()]


@pytest.mark.parametrize("info", KEPT, ids=lambda info: info.name)
def test_the_same_games(info: GameInfo) -> None:
    count, moves, digest = digest_file(info).read_text().split()
    assert sweep(info, int(count), legal=True) == (digest, int(moves))
