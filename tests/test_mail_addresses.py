"""Each seat's address is in the entry that brought it in, signed, and changed only by a signed
entry of its own: the file says where to send it, and nobody can redirect a seat's mail."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tomlkit

from pbem import gamefile
from pbem.engine import ledger
from tests.conftest import Cli


def addresses(path: Path) -> dict[str, str]:
    return ledger.read(gamefile.load(path).data).addresses


def test_addresses_given_when_creating_and_joining_and_changed_later(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    made = cli(
        "new",
        str(game),
        "--game",
        "potr",
        "--players",
        "a,b,c",
        "--as",
        "a",
        "--email",
        "a@example.org",
        home="a",
    )
    assert made.exit_code == 0, made.stderr
    assert cli("join", str(game), "--as", "b", "--email", "b@example.org", home="b").exit_code == 0
    assert cli("join", str(game), "--as", "c", home="c").exit_code == 0  # c gives none
    assert addresses(game) == {"a": "a@example.org", "b": "b@example.org"}
    moved = cli("mail", "address", str(game), "bruno@example.net", "--as", "b", home="b")
    assert moved.exit_code == 0, moved.stderr
    assert addresses(game)["b"] == "bruno@example.net"
    assert "mail now goes to bruno@example.net" in cli("log", str(game)).stdout
    same = cli("mail", "address", str(game), "bruno@example.net", "--as", "b", home="b")
    assert same.exit_code == 2 and "already" in same.stderr


def test_a_malformed_address_is_refused_before_anything_is_signed(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    game = make_game(joined=("b",))
    before = game.read_bytes()
    for bad in ("c at example.org", "c@", "Carla <c@example.org>", "c@example.org, d@example.org"):
        result = cli("join", str(game), "--as", "c", "--email", bad, home="c")
        assert result.exit_code == 2 and f"{bad!r} is not an email address" in result.stderr, result.stderr
        assert game.read_bytes() == before


def test_an_address_changed_in_the_file_breaks_the_signature(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    cli("new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a", home="a")
    cli("join", str(game), "--as", "b", "--email", "b@example.org", home="b")
    doc = tomlkit.parse(game.read_text(encoding="utf-8"))
    doc["entry"][1]["email"] = "mallory@example.org"
    game.write_text(tomlkit.dumps(doc), encoding="utf-8")
    result = cli("verify", str(game))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {game}: entry 1 (by b): signature does not verify")
