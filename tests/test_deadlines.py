"""Deadlines: status shows who is late; after a deadline another seat may claim a timeout."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.engine import ledger, play
from pbem.errors import GameFileError
from pbem.keys import KeyStore
from tests.conftest import Cli, Once

START = "2026-11-01T10:00:00Z"


@pytest.fixture
def timed_game(cli: Cli, tmp_path: Path, once: Once) -> Path:
    path = tmp_path / "g.toml"
    return once("deadlines: timed game", path, lambda: make_timed_game(cli, path))


def make_timed_game(cli: Cli, path: Path) -> None:
    start = {"PBEM_NOW": START}
    assert cli("new", str(path), "--game", "potr", "--players", "a,b,c", "--as", "a",
               "--option", "deadline_days=3", home="a", env=start).exit_code == 0  # fmt: skip
    for seat in ("b", "c"):
        assert cli("join", str(path), "--as", seat, home=seat, env=start).exit_code == 0
    for seat in ("a", "b", "c"):  # the setup draw
        assert cli("play", str(path), "roll", "--as", seat, home=seat, env=start).exit_code == 0
    for seat, bid in (("a", "4"), ("b", "6")):
        result = cli(
            "play", str(path), "bid", bid, "--as", seat, home=seat, env={"PBEM_NOW": "2026-11-02T10:00:00Z"}
        )
        assert result.exit_code == 0


def test_status_shows_deadlines_and_who_is_overdue(cli: Cli, timed_game: Path) -> None:
    early = json.loads(
        cli("status", str(timed_game), "--json", env={"PBEM_NOW": "2026-11-03T10:00:00Z"}).stdout
    )
    (wanted,) = early["waiting"]
    assert (wanted["seat"], wanted["deadline"], wanted["overdue"]) == ("c", "2026-11-04T10:00:00Z", False)
    late = json.loads(
        cli("status", str(timed_game), "--json", env={"PBEM_NOW": "2026-11-04T10:00:00Z"}).stdout
    )
    assert late["waiting"][0]["overdue"] is True
    text = cli("status", str(timed_game), env={"PBEM_NOW": "2026-11-05T00:00:00Z"}).stdout
    assert "deadline 2026-11-04T10:00:00Z  OVERDUE" in text


def test_a_timeout_claim_before_the_deadline_is_refused(cli: Cli, timed_game: Path) -> None:
    before = timed_game.read_bytes()
    result = cli(
        "timeout", str(timed_game), "c", "--as", "a", home="a", env={"PBEM_NOW": "2026-11-04T09:59:59Z"}
    )
    assert (result.exit_code, result.stderr) == (
        1,
        "error: c's deadline for the turn-order bid is 2026-11-04T10:00:00Z; "
        "a timeout can be claimed only after it\n",
    )
    assert timed_game.read_bytes() == before


def test_a_missing_sealed_bid_counts_as_zero(cli: Cli, timed_game: Path) -> None:
    result = cli(
        "timeout", str(timed_game), "c", "--as", "a", home="a", env={"PBEM_NOW": "2026-11-04T10:00:00Z"}
    )
    assert result.exit_code == 0, result.stderr
    assert cli("verify", str(timed_game)).exit_code == 0
    for seat in ("a", "b"):
        assert cli("reveal", str(timed_game), "--as", seat, home=seat).exit_code == 0
    # c is absent since the claim: the tie-break is decided without its randomness, unasked
    refused = cli("play", str(timed_game), "roll", "--as", "c", home="c")
    assert (
        refused.stderr
        == "error: it is not c's turn: a must move in the family bidding (raise the bid above 6, or pass)\n"
    )
    view = json.loads(cli("show", str(timed_game), "--json").stdout)
    assert view["players"]["c"]["bid"] == 0
    assert view["turn_order"] == ["b", "a", "c"]
    assert cli("verify", str(timed_game)).exit_code == 0


def test_a_missing_turn_in_the_bidding_is_a_pass(cli: Cli, timed_game: Path) -> None:
    cli("play", str(timed_game), "bid", "2", "--as", "c", home="c", env={"PBEM_NOW": "2026-11-02T12:00:00Z"})
    for seat in ("a", "b", "c"):
        assert (
            cli(
                "reveal", str(timed_game), "--as", seat, home=seat, env={"PBEM_NOW": "2026-11-02T13:00:00Z"}
            ).exit_code
            == 0
        )
    (wanted,) = json.loads(
        cli("status", str(timed_game), "--json", env={"PBEM_NOW": "2026-11-06T00:00:00Z"}).stdout
    )["waiting"]
    assert (wanted["seat"], wanted["step"], wanted["overdue"]) == ("c", "family bidding", True)
    result = cli(
        "timeout", str(timed_game), "c", "--as", "b", home="b", env={"PBEM_NOW": "2026-11-06T00:00:00Z"}
    )
    assert result.exit_code == 0, result.stderr
    view = json.loads(cli("show", str(timed_game), "--json").stdout)
    assert view["players"]["c"]["passed"] is True


def test_claims_the_rules_do_not_allow(cli: Cli, timed_game: Path, make_game: Callable[..., Path]) -> None:
    late = {"PBEM_NOW": "2026-12-01T00:00:00Z"}
    assert cli("timeout", str(timed_game), "c", "--as", "c", home="c", env=late).stderr == (
        "error: a seat cannot claim a timeout against itself\n"
    )
    assert cli("timeout", str(timed_game), "a", "--as", "b", home="b", env=late).stderr == (
        "error: a owes nothing now\n"
    )
    untimed = make_game(name="untimed.toml")
    assert cli("timeout", str(untimed), "c", "--as", "a", home="a", env=late).stderr == (
        "error: this game has no deadlines (option deadline_days is 0)\n"
    )


def test_verify_refuses_a_claim_dated_before_the_deadline(timed_game: Path, homes: dict[str, Path]) -> None:
    """Even a correctly signed claim is refused if its own time is before the recorded deadline."""
    data = tomllib.loads(timed_game.read_text(encoding="utf-8"))
    current = ledger.read(data)
    secret = KeyStore(homes["a"]).secret("a", lambda prompt: None)
    entry = current.next_entry("a", "2026-11-03T00:00:00Z", "timeout")
    entry["late"] = "c"
    entry["step"] = "turn-order bid"
    entry["rand"] = ledger.contribution(current, "a", secret)
    signed = ledger.sign_entry(current.game_id, entry, secret)
    with pytest.raises(GameFileError, match="a timeout can be claimed only after it"):
        ledger.admit(current, signed)
    assert play.deadlines(ledger.read(data)) == {"c|commit|turn-order bid": "2026-11-04T10:00:00Z"}
