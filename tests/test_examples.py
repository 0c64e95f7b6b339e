"""The shipped examples: the signed game verifies, the tampered copy is refused."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_game_verifies(cli: Cli) -> None:
    result = cli("verify", str(EXAMPLES / "three-players.toml"))
    assert result.exit_code == 0, result.stderr
    assert "Princes of the Renaissance (2016)" in result.stdout
    assert "5 entries" in result.stdout


def test_tampered_example_is_refused(cli: Cli) -> None:
    path = EXAMPLES / "tampered" / "forged-note.toml"
    result = cli("verify", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}: entry 4 (by alice): signature does not verify")
