"""The play-by-email loop through the real CLI: the opening of Princes of the Renaissance."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pbem.engine import registry
from tests.conftest import Cli


def demands(cli: Cli, path: Path) -> list[dict[str, str]]:
    """What the rules ask; what a seat owes the hidden Treachery deck (its shuffle, shares of
    others' draws) rides in its next entry and is listed apart."""
    result = cli("status", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    return [item for item in json.loads(result.stdout)["waiting"] if item["kind"] not in ("shuffle", "share")]


def refused(cli: Cli, path: Path, seat: str, *move: str, code: int = 1) -> str:
    before = path.read_bytes()
    result = cli("play", str(path), *move, "--as", seat, home=seat)
    assert result.exit_code == code, result.stdout + result.stderr
    assert path.read_bytes() == before
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    return lines[0]


def test_the_opening_from_new_to_decade_one(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game()
    # 2016 setup step 5: six City tiles per city are drawn at random before anyone bids
    assert [d["kind"] for d in demands(cli, game)] == ["contribute"] * 3
    # setup step 8, the Treachery deck: the first seat shuffles it first, in its next entry
    waiting = json.loads(cli("status", str(game), "--json").stdout)["waiting"]
    assert [(d["seat"], d["kind"]) for d in waiting if d["kind"] == "shuffle"] == [("a", "shuffle")]
    assert refused(cli, game, "a", "bid", "7") == (
        "error: a is asked only to add randomness to the setup draw: play 'roll'"
    )
    for seat in ("a", "b", "c"):
        assert cli("play", str(game), "roll", "--as", seat, home=seat).exit_code == 0
    drawn = json.loads(cli("show", str(game), "--json").stdout)["city_tiles_on_offer"]
    assert sorted({tile["city"] for tile in drawn}) == ["florence", "milan", "naples", "rome", "venice"]
    assert all(sum(1 for tile in drawn if tile["city"] == city) == 6 for city in {t["city"] for t in drawn})
    assert [d["kind"] for d in demands(cli, game)] == ["commit", "commit", "commit"]

    # wrong phase and a bid above one's gold are refused, the file untouched
    assert refused(cli, game, "a", "pass") == (
        "error: passing is part of the family bidding, not the turn-order bid"
    )
    assert refused(cli, game, "a", "bid", "46") == "error: a turn-order bid cannot exceed your gold: a has 45"
    assert refused(cli, game, "a", "bid", "lots", code=2) == (
        "error: 'bid lots' is not a move: write 'bid N' (N a whole number)"
    )

    # two bids made at the same time on separate copies, then merged
    copy_b = game.with_name("b.toml")
    shutil.copy(game, copy_b)
    assert cli("play", str(game), "bid", "7", "--as", "a", home="a").exit_code == 0
    assert cli("play", str(copy_b), "bid", "7", "--as", "b", home="b").exit_code == 0
    assert cli("merge", str(game), str(copy_b)).exit_code == 0

    # revealing before every seat has sealed is refused
    before = game.read_bytes()
    early = cli("reveal", str(game), "--as", "a", home="a")
    assert early.exit_code == 1
    assert early.stderr == (
        "error: it is not a's turn: c must seal a turn-order bid (bid 0 to 45 gold) with pbem play\n"
    )
    assert game.read_bytes() == before

    assert cli("play", str(game), "bid 2", "--as", "c", home="c").exit_code == 0
    assert b"bid 7" not in game.read_bytes() and b"bid 2" not in game.read_bytes()
    # only a sees a's bid
    mine = json.loads(cli("show", str(game), "--as", "a", "--json", home="a").stdout)
    assert mine["private"] == {"turn-order bid": "bid 7"}
    theirs = cli("show", str(game), "--as", "b", "--json", home="b").stdout
    assert "bid 7" in json.loads(theirs)["private"]["turn-order bid"]  # b's own bid, also 7
    public = json.loads(cli("show", str(game), "--json").stdout)
    assert "private" not in public
    assert public["sealed"] == [{"step": "turn-order bid", "sealed": ["a", "b", "c"], "to_seal": []}]

    for seat in ("c", "a", "b"):
        result = cli("reveal", str(game), "--as", seat, home=seat)
        assert result.exit_code == 0, result.stderr
    view = json.loads(cli("show", str(game), "--json").stdout)
    assert view["phase"] == "family bidding"
    order = view["turn_order"]
    assert order[2] == "c" and sorted(order[:2]) == ["a", "b"]  # a and b tied at 7: broken at random
    assert "ties broken at random" in view["events"][-1]

    # family bidding: the lowest bid acts; others are refused
    (wanted,) = demands(cli, game)
    assert wanted["seat"] == "c"
    assert (
        refused(cli, game, order[0], "pass")
        == f"error: it is not {order[0]}'s turn: c must move in the family bidding "
        "(raise the bid above 7, or pass)"
    )
    assert (
        refused(cli, game, "c", "bid", "7")
        == "error: a raise must exceed the highest bid on the table (7): bid 8 or more"
    )
    assert cli("play", str(game), "bid", "9", "--as", "c", home="c").exit_code == 0
    # now the later of the two tied players acts first
    assert demands(cli, game)[0]["seat"] == order[1]
    assert cli("play", str(game), "pass", "--as", order[1], home=order[1]).exit_code == 0
    assert cli("play", str(game), "pass", "--as", order[0], home=order[0]).exit_code == 0

    # family choice: c (highest bid) first, then the reverse of the pass order
    # each family offered says what it does (seed 000, "Тайлы Семей": Montefeltro's A side,
    # «скидку в 2 Влияния» on auctions in influence), beside the text to play
    listed = json.loads(cli("moves", str(game), "--as", "c", "--json", home="c").stdout)
    assert "family montefeltro" in listed["moves"]
    assert "2 influence off" in listed["notes"]["family montefeltro"]
    lines = cli("moves", str(game), "--as", "c", home="c").stdout.splitlines()
    shown = next(line for line in lines if line.startswith("family montefeltro "))
    assert "(2 influence off the price of every auction in influence you win" in shown
    assert cli("play", str(game), "family", "montefeltro", "--as", "c", home="c").exit_code == 0
    assert refused(cli, game, order[0], "family", "montefeltro").startswith("error: ")
    assert cli("play", str(game), "family", "este", "--as", order[0], home=order[0]).exit_code == 0
    assert cli("play", str(game), "family", "gonzaga", "--as", order[1], home=order[1]).exit_code == 0

    final = json.loads(cli("show", str(game), "--json").stdout)
    assert final["phase"] == "decade I"
    golds = {seat: player["gold"] for seat, player in final["players"].items()}
    assert golds == {"a": 38, "b": 38, "c": 36}
    status = cli("status", str(game)).stdout
    assert "decade I" in status and f"{order[0]}" in status
    assert cli("verify", str(game)).exit_code == 0
    log = cli("log", str(game)).stdout.splitlines()
    assert any("sealed a turn-order bid" in line for line in log)
    assert any("revealed the turn-order bid: bid 2" in line for line in log)


def test_reveal_happens_with_the_seats_next_play(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(roll=True)
    for seat, bid in (("a", "3"), ("b", "2"), ("c", "1")):
        assert cli("play", str(game), "bid", bid, "--as", seat, home=seat).exit_code == 0
    for seat in ("a", "b"):
        assert cli("reveal", str(game), "--as", seat, home=seat).exit_code == 0
    # c's reveal is due: a move the rules refuse writes neither, and says nothing was revealed
    before = game.read_bytes()
    refused = cli("play", str(game), "family", "este", "--as", "c", home="c")
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "error: families are chosen after the bidding, not in the family bidding"
    ]
    assert game.read_bytes() == before
    # c plays its family-bidding move and the reveal goes first
    result = cli("play", str(game), "pass", "--as", "c", home="c")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0].startswith("c revealed the sealed turn-order bid: bid 1 (entry ")
    kinds = [entry["kind"] for entry in tomllib.loads(game.read_text())["entry"]]
    assert kinds[-2:] == ["reveal", "move"]
    assert cli("verify", str(game)).exit_code == 0


def test_dice_variant_asks_everyone_for_randomness(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(options=("turn_order=dice",))
    wanted = demands(cli, game)
    assert [(d["seat"], d["kind"]) for d in wanted] == [
        ("a", "contribute"),
        ("b", "contribute"),
        ("c", "contribute"),
    ]
    assert (
        refused(cli, game, "a", "bid", "3")
        == "error: a is asked only to add randomness to the turn-order draw: play 'roll'"
    )
    for seat in ("a", "b", "c"):
        assert cli("play", str(game), "roll", "--as", seat, home=seat).exit_code == 0
    view = json.loads(cli("show", str(game), "--json").stdout)
    assert view["phase"] == "family choice"
    assert sorted(view["turn_order"]) == ["a", "b", "c"]
    # the worst marker picks first
    assert demands(cli, game)[0]["seat"] == view["turn_order"][-1]


def test_play_before_everyone_joined(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=("b",))
    result = cli("play", str(game), "bid", "3", "--as", "a", home="a")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: the game starts once every seat has joined; waiting for c\n",
    )
    status = json.loads(cli("status", str(game), "--json").stdout)
    assert status == {
        "phase": "joining",
        "over": False,
        "waiting": [
            {
                "seat": "c",
                "kind": "join",
                "step": "joining",
                "prompt": "join the game",
                "command": f"pbem join {game} --as c",
                "note": "",
            }
        ],
        "send_to": ["c"],
        "silent": [],  # the game has no deadlines: nobody is past one
    }


@pytest.fixture
def file_only_game() -> Iterator[str]:
    """A game that can be set up and joined but has no rules to play by."""
    name = "file-only"
    registry.register(
        registry.GameInfo(
            name=name,
            title="File only",
            min_players=2,
            max_players=5,
            editions=("standard",),
            options=(registry.DEADLINE,),
        )
    )
    try:
        yield name
    finally:
        registry._GAMES.pop(name, None)  # no public way out: only tests ever remove a game


def test_games_without_rules_yet_say_so(cli: Cli, tmp_path: Path, file_only_game: str) -> None:
    game = tmp_path / "file-only.toml"
    made = cli("new", str(game), "--game", file_only_game, "--players", "a,b", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    assert cli("join", str(game), "--as", "b", home="b").exit_code == 0
    result = cli("play", str(game), "anything", "--as", "a", home="a")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: the rules of file-only cannot be played by email yet; players can join and write notes\n"
    )


def test_an_illegal_move_is_refused_before_any_passphrase_is_asked(
    cli: Cli, make_game: Callable[..., Path], homes: dict[str, Path], tmp_path: Path
) -> None:
    """b's key is protected and there is no terminal: the rules answer first, not the key store."""
    protected = tmp_path / "protected"
    unlocked = {"PBEM_HOME": str(protected), "PBEM_PASSPHRASE": "pw for tests"}
    made = cli("key", "new", "b", env=unlocked)
    assert made.exit_code == 0
    game = make_game(seats=("a", "b", "c"), joined=())
    assert cli("join", str(game), "--as", "b", env=unlocked).exit_code == 0
    assert cli("join", str(game), "--as", "c", home="c").exit_code == 0
    for seat in ("a", "c"):
        assert cli("play", str(game), "roll", "--as", seat, home=seat).exit_code == 0
    assert cli("play", str(game), "roll", "--as", "b", env=unlocked).exit_code == 0
    result = cli("play", str(game), "bid", "99", "--as", "b", env={"PBEM_HOME": str(protected)})
    assert (result.exit_code, result.stderr) == (
        1,
        "error: a turn-order bid cannot exceed your gold: b has 45\n",
    )
    result = cli("play", str(game), "bid", "9", "--as", "b", env={"PBEM_HOME": str(protected)})
    assert result.exit_code == 4
    assert "no terminal to ask on" in result.stderr


def test_playing_on_a_file_with_an_equivocation_names_the_file(cli: Cli, game_file: Path) -> None:
    first = game_file.with_name("first.toml")
    second = game_file.with_name("second.toml")
    shutil.copy(game_file, first)
    shutil.copy(game_file, second)
    cli("note", str(first), "high", "--as", "b", home="b")
    cli("note", str(second), "low", "--as", "b", home="b@2")
    text = second.read_text()
    first.write_text(first.read_text() + text[text.rindex("[[entry]]") :])
    result = cli("play", str(first), "bid", "1", "--as", "a", home="a")
    assert result.exit_code == 6
    assert result.stderr.startswith(f"error: {first}: entry 5 (by b): b signed two different entries")
