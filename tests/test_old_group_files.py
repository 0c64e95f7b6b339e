"""Game files made before the hidden decks moved to edwards25519 keep verifying, byte for byte.

tests/fixtures/modp-2048 holds one whole four-player game of each title as the shipped examples
were before: their genesis names no group, so their decks are read in the 2048-bit group.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import Cli

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "modp-2048"


@pytest.mark.parametrize(
    "name", ["four-players.toml", "florence-four-players.toml", "principe-four-players.toml"]
)
def test_a_game_made_in_the_2048_bit_group_still_verifies(cli: Cli, name: str) -> None:
    result = cli("verify", str(FIXTURES / name))
    assert result.exit_code == 0, result.stderr
    assert "every hidden-deck proof checked" in result.stdout
    genesis = tomllib.loads((FIXTURES / name).read_text())["entry"][0]
    assert "group" not in genesis
