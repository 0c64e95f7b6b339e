"""A sealed choice kept back: the last to reveal, having read every other reveal, gains nothing by
letting its deadline pass (option withheld=open, the default of new games). With escrow the
holders open what it sealed; without, it counts as the least favourable choice the rules allow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.crypto import sealing
from tests.conftest import Cli

START = {"PBEM_NOW": "2026-11-01T10:00:00Z"}
SEALED = {"PBEM_NOW": "2026-11-02T10:00:00Z"}
LATE = {"PBEM_NOW": "2026-11-06T10:00:00Z"}


def sealed_bids(cli: Cli, path: Path, bids: dict[str, str], *options: str) -> None:
    """a, b and c seal ``bids`` (``all`` for all one's gold); a and b reveal theirs."""
    extra = [word for option in ("deadline_days=3", *options) for word in ("--option", option)]
    assert cli("new", str(path), "--game", "potr", "--players", "a,b,c", "--as", "a", *extra,
               home="a", env=START).exit_code == 0  # fmt: skip
    for seat in ("b", "c"):
        assert cli("join", str(path), "--as", seat, home=seat, env=START).exit_code == 0
    for seat in ("a", "b", "c"):
        assert cli("play", str(path), "roll", "--as", seat, home=seat, env=START).exit_code == 0
    gold = json.loads(cli("show", str(path), "--json").stdout)["players"]["a"]["gold"]
    for seat, bid in bids.items():
        amount = str(gold) if bid == "all" else bid
        result = cli("play", str(path), "bid", amount, "--as", seat, home=seat, env=SEALED)
        assert result.exit_code == 0, result.stderr
    for seat in ("a", "b"):
        assert cli("reveal", str(path), "--as", seat, home=seat, env=SEALED).exit_code == 0


def claim(cli: Cli, path: Path) -> None:
    result = cli("timeout", str(path), "c", "--as", "a", home="a", env=LATE)
    assert result.exit_code == 0, result.stderr
    assert cli("verify", str(path)).exit_code == 0


def shown(cli: Cli, path: Path) -> tuple[dict[str, dict[str, int]], list[str]]:
    view = json.loads(cli("show", str(path), "--json").stdout)
    return view["players"], view["turn_order"]


def test_the_escrow_opens_a_bid_kept_back(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"})
    claim(cli, path)
    status = cli("status", str(path), env=LATE).stdout
    assert "give a partial decryption that opens c's sealed turn-order bid" in status
    assert "(the others are opening it from c's escrow)" in status
    assert "the rules' default is made for it" not in status
    refused = cli("timeout", str(path), "c", "--as", "b", home="b", env=LATE)
    assert refused.exit_code == 1
    assert "c's sealed turn-order bid is being opened from its escrow" in refused.stderr
    for seat in ("a", "b"):
        assert cli("sync", str(path), "--as", seat, home=seat, env=LATE).exit_code == 0
    assert cli("verify", str(path)).exit_code == 0
    players, order = shown(cli, path)
    assert players["c"]["bid"] == 20  # what c sealed, not 0, and not chosen after the others
    assert order == ["c", "b", "a"]
    assert "gave its partial decryption opening c's sealed turn-order bid" in cli("log", str(path)).stdout


def test_a_value_sealed_to_the_escrow_amiss_counts_as_the_worst(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.toml"
    honest = sealing.seal_to_point

    def cheating(point: bytes, game_id: str, step: str, seat: str, opening: sealing.Opening) -> bytes:
        return honest(point, game_id, step, seat, sealing.Opening("bid 0", opening.nonce))

    monkeypatch.setattr(sealing, "seal_to_point", cheating)
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"})
    claim(cli, path)
    for seat in ("a", "b"):
        assert cli("sync", str(path), "--as", seat, home=seat, env=LATE).exit_code == 0
    assert cli("verify", str(path)).exit_code == 0
    players, order = shown(cli, path)
    assert players["c"]["bid"] == players["c"]["gold"] > 20
    assert order == ["c", "b", "a"]
    status = cli("status", str(path)).stdout
    assert "c's sealed turn-order bid, opened from the escrow, does not match its commitment" in status


def test_without_escrow_a_bid_kept_back_counts_as_all_its_gold(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"}, "escrow=none")
    claim(cli, path)
    players, order = shown(cli, path)
    assert players["c"]["bid"] == players["c"]["gold"] > 20
    assert order == ["c", "b", "a"]
    log = cli("log", str(path)).stdout
    assert "c kept its sealed turn-order bid back past the deadline: it counts as all its gold" in log


def test_a_bid_kept_back_is_last_among_equal_bids(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "all", "b": "6", "c": "3"}, "escrow=none")
    claim(cli, path)
    players, order = shown(cli, path)
    assert players["c"]["bid"] == players["a"]["bid"] == players["a"]["gold"]
    assert order == ["a", "c", "b"]  # whatever the random tie-break


def test_games_made_before_count_it_as_the_default(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"}, "withheld=default")
    claim(cli, path)
    players, order = shown(cli, path)
    assert players["c"]["bid"] == 0
    assert order == ["b", "a", "c"]
