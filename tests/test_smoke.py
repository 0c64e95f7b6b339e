from pathlib import Path

from tests.conftest import Cli


def test_verify_accepts_a_fresh_game(cli: Cli, game_file: Path) -> None:
    result = cli("verify", str(game_file))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"ok: {game_file}: Princes of the Renaissance (2016)")
    assert "5 entries" in result.stdout
