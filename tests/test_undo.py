"""Taking a move back: the mover asks, every other seat consents, the move stays in the file void."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Cli, Once


@pytest.fixture
def bidding(cli: Cli, make_game: Callable[..., Path], once: Once, tmp_path: Path) -> Path:
    """A game in the family bidding; c (lowest bid) is to act."""

    def build() -> None:
        game = make_game(roll=True, name="bidding.toml")
        for seat, bid in (("a", "5"), ("b", "4"), ("c", "3")):
            assert cli("play", str(game), "bid", bid, "--as", seat, home=seat).exit_code == 0
        for seat in ("a", "b", "c"):
            assert cli("reveal", str(game), "--as", seat, home=seat).exit_code == 0

    return once("undo: bidding", tmp_path / "bidding.toml", build)


def waiting(cli: Cli, game: Path) -> list[tuple[str, str]]:
    return [(w["seat"], w["kind"]) for w in json.loads(cli("status", str(game), "--json").stdout)["waiting"]]


def test_an_undo_every_other_seat_consents_to(cli: Cli, bidding: Path) -> None:
    assert cli("play", str(bidding), "pass", "--as", "c", home="c").exit_code == 0
    assert waiting(cli, bidding) == [("b", "move")]
    assert cli("undo", str(bidding), "--as", "c", home="c").exit_code == 0
    assert waiting(cli, bidding) == [("a", "consent"), ("b", "consent")]
    paused = cli("play", str(bidding), "pass", "--as", "b", home="b")
    assert paused.exit_code == 1
    assert paused.stderr == "error: b must now consent to (or decline) c's undo of entry 12 (pbem consent)\n"
    assert cli("consent", str(bidding), "--as", "a", home="a").exit_code == 0
    done = cli("consent", str(bidding), "--as", "b", home="b")
    assert done.exit_code == 0
    assert "entry 12 is undone (it stays in the file, marked void)" in done.stderr
    # c is to act again, with the pass gone; the entry is still in the file
    assert waiting(cli, bidding) == [("c", "move")]
    assert [e["kind"] for e in tomllib.loads(bidding.read_text())["entry"]][12:] == [
        "move",
        "undo",
        "consent",
        "consent",
    ]
    assert "pass (undone)" in cli("log", str(bidding)).stdout
    assert cli("play", str(bidding), "bid", "6", "--as", "c", home="c").exit_code == 0
    assert cli("verify", str(bidding)).exit_code == 0


def test_a_declined_undo_leaves_the_move_standing(cli: Cli, bidding: Path) -> None:
    cli("play", str(bidding), "pass", "--as", "c", home="c")
    cli("undo", str(bidding), "--as", "c", home="c")
    assert cli("consent", str(bidding), "--as", "a", home="a").exit_code == 0
    assert cli("consent", str(bidding), "--decline", "--as", "b", home="b").exit_code == 0
    assert waiting(cli, bidding) == [("b", "move")]
    view = json.loads(cli("show", str(bidding), "--json").stdout)
    assert view["players"]["c"]["passed"] is True
    assert cli("verify", str(bidding)).exit_code == 0


@pytest.mark.parametrize("who", ["a", "b"])
def test_only_the_mover_may_ask_and_only_before_anything_else_is_played(
    cli: Cli, bidding: Path, who: str
) -> None:
    cli("play", str(bidding), "pass", "--as", "c", home="c")
    before = bidding.read_bytes()
    result = cli("undo", str(bidding), "--as", who, home=who)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {who} can only undo its own move when nothing has been played since (entry 12 is not)\n"
    )
    assert bidding.read_bytes() == before
    cli("play", str(bidding), "pass", "--as", "b", home="b")
    late = cli("undo", str(bidding), "--as", "c", home="c")
    assert late.exit_code == 1 and "entry 13 is not" in late.stderr


def test_consent_without_an_undo_is_refused(cli: Cli, bidding: Path) -> None:
    result = cli("consent", str(bidding), "--as", "a", home="a")
    assert (result.exit_code, result.stderr) == (1, "error: no undo is waiting for consent\n")


def test_a_sealed_bid_cannot_be_undone(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(roll=True)
    cli("play", str(game), "bid", "5", "--as", "a", home="a")
    result = cli("undo", str(game), "--as", "a", home="a")
    assert result.exit_code == 1
    assert "can only undo its own move" in result.stderr


def test_copies_of_a_game_with_an_undone_move_merge(cli: Cli, bidding: Path, tmp_path: Path) -> None:
    """merge replays the union with the undone moves known, as read does (it once replayed the
    void move and failed, even for two identical copies)."""
    cli("play", str(bidding), "pass", "--as", "c", home="c")
    cli("undo", str(bidding), "--as", "c", home="c")
    cli("consent", str(bidding), "--as", "a", home="a")
    cli("consent", str(bidding), "--as", "b", home="b")
    twin = tmp_path / "twin.toml"
    twin.write_bytes(bidding.read_bytes())
    same = cli("merge", str(bidding), str(twin))
    assert same.exit_code == 0, same.stderr
    assert f"{bidding} already has every entry of {twin}" in same.stderr
    assert cli("play", str(twin), "bid", "6", "--as", "c", home="c").exit_code == 0
    grown = cli("merge", str(bidding), str(twin))
    assert grown.exit_code == 0, grown.stderr
    assert "merged 1 new entry" in grown.stderr
    assert cli("verify", str(bidding)).exit_code == 0
