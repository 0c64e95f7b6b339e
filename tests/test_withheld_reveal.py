"""A sealed choice kept back: the last to reveal, having read every other reveal, gains nothing by
letting its deadline pass (option withheld=worst, the default of new games)."""

from __future__ import annotations

import json
from pathlib import Path

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


def claim(cli: Cli, path: Path) -> dict[str, object]:
    result = cli("timeout", str(path), "c", "--as", "a", home="a", env=LATE)
    assert result.exit_code == 0, result.stderr
    assert cli("verify", str(path)).exit_code == 0
    view: dict[str, object] = json.loads(cli("show", str(path), "--json").stdout)
    return view


def test_a_bid_kept_back_counts_as_all_its_gold(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"})
    view = claim(cli, path)
    players = view["players"]
    assert isinstance(players, dict)
    assert players["c"]["bid"] == players["c"]["gold"] > 20
    assert view["turn_order"] == ["c", "b", "a"]
    log = cli("log", str(path)).stdout
    assert "c kept its sealed turn-order bid back past the deadline: it counts as all its gold" in log


def test_a_bid_kept_back_is_last_among_equal_bids(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "all", "b": "6", "c": "3"})
    view = claim(cli, path)
    players = view["players"]
    assert isinstance(players, dict)
    assert players["c"]["bid"] == players["a"]["bid"] == players["a"]["gold"]
    assert view["turn_order"] == ["a", "c", "b"]  # whatever the random tie-break


def test_games_made_before_count_it_as_the_default(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    sealed_bids(cli, path, {"a": "5", "b": "6", "c": "20"}, "withheld=default")
    view = claim(cli, path)
    players = view["players"]
    assert isinstance(players, dict)
    assert players["c"]["bid"] == 0
    assert view["turn_order"] == ["b", "a", "c"]
