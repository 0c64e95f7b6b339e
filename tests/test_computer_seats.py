"""Seats a computer plays (``pbem new --computer``): their keys made and kept in the creator's
home, sealed like the creator's, their joins signed and marked as a computer's, named so by
``pbem verify`` and the independent verifier; they play whenever a command of that home leaves
them asked, through ``pbem play``'s own function; a join that says ``computer`` as anything but
true is refused."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger as ledger_mod
from pbem.keys import KeyStore
from tests import independent_verifier
from tests.conftest import CREATED, run_cli, seeded_keys
from tests.tamper import signed_again

PASSPHRASE = "the creator's passphrase"
NOW = "2026-11-02T18:00:00Z"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """ann's home: her key, sealed by a passphrase."""
    made = tmp_path / "ann"
    KeyStore(made).store("ann", seeded_keys("ann"), PASSPHRASE, CREATED)
    return made


def pbem(home: Path, *args: str) -> tuple[int, str, str]:
    env = {"PBEM_PASSPHRASE": PASSPHRASE, "PBEM_NOW": NOW, "PBEM_COMPUTER_PLAYOUTS": "4"}
    result = run_cli(home, *args, env=env)
    return result.exit_code, result.stdout, result.stderr


def made_game(home: Path, game: str = "il-principe") -> Path:
    path = home.parent / "game.toml"
    code, _, err = pbem(
        home, "new", str(path), "--game", game, "--players", "ann,bob,cat",
        "--as", "ann", "--computer", "bob", "--computer", "cat",
    )  # fmt: skip
    assert code == 0, err
    assert "bob is played by the computer from this home" in err
    return path


def test_computer_seats_are_joined_at_once_with_keys_kept_here_and_named_as_computers(home: Path) -> None:
    path = made_game(home)
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["entry"]
    joins = {entry["by"]: entry for entry in entries if entry["kind"] == "join"}
    assert set(joins) == {"bob", "cat"} and all(entry["computer"] is True for entry in joins.values())
    store = KeyStore(home)
    for seat in ("bob", "cat"):
        key = store.key_path(seat)
        assert key.stat().st_mode & 0o777 == 0o600
        assert store.public(seat).encrypted  # sealed with the creator's passphrase
        store.secret(seat, lambda _prompt: PASSPHRASE)
    code, out, _ = pbem(home, "verify", str(path), "--json")
    roster = json.loads(out)["roster"]
    assert code == 0 and roster["bob"]["computer"] is True and "computer" not in roster["ann"]
    _, out, err = pbem(home, "verify", str(path))
    assert "(entry 1, played by a computer)" in out + err
    said: list[str] = []
    assert independent_verifier.main([str(path)], out=said.append) == 0
    assert "2 computer seats" in said[-1], said


def test_the_computers_play_when_the_players_command_leaves_them_asked(home: Path) -> None:
    path = made_game(home)
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["entry"]
    # made, the game began at once: every seat's randomness and deck work done by this home, and
    # each computer sealed its round 1 reserve, which leaves ann asked for hers
    assert sorted(entry["by"] for entry in entries if entry["kind"] == "commit") == ["bob", "cat"]
    code, out, err = pbem(home, "moves", str(path), "--as", "ann", "--json")
    assert code == 0, err
    reserve = json.loads(out)["moves"][0]
    code, _, err = pbem(home, "play", str(path), *reserve.split(), "--as", "ann")
    assert code == 0, err
    after = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][len(entries) :]
    kinds = [(entry["by"], entry["kind"]) for entry in after]
    assert ("ann", "commit") in kinds
    # every reserve revealed by this home, then the computers played on until ann is asked again
    assert {("bob", "reveal"), ("cat", "reveal"), ("ann", "reveal")} <= set(kinds), kinds
    assert any(by in ("bob", "cat") and kind == "move" for by, kind in kinds), kinds
    assert "(computer) plays " in err
    code, out, _ = pbem(home, "status", str(path), "--json")
    assert [item["seat"] for item in json.loads(out)["waiting"]][:1] == ["ann"], out
    assert pbem(home, "verify", str(path))[0] == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--computer", "ann"], "error: --computer ann: that is your own seat"),
        (["--computer", "dan"], "error: --computer dan: not a seat of this game (seats: ann, bob, cat)"),
        (["--computer", "bob", "--computer", "bob"], "error: --computer names a seat twice"),
    ],
)
def test_a_computer_seat_that_cannot_be_is_refused_and_nothing_is_made(
    home: Path, args: list[str], said: str
) -> None:
    path = home.parent / "refused.toml"
    code, _, err = pbem(
        home, "new", str(path), "--game", "il-principe", "--players", "ann,bob,cat", "--as", "ann", *args
    )
    assert (code, err.strip()) == (2, said)
    assert not path.exists() and not KeyStore(home).key_path("bob").exists()


def test_a_computer_seat_does_not_take_a_key_of_this_home(home: Path) -> None:
    KeyStore(home).store("bob", seeded_keys("bob"), None, CREATED)
    path = home.parent / "refused.toml"
    code, _, err = pbem(
        home,
        "new",
        str(path),
        "--game",
        "il-principe",
        "--players",
        "ann,bob",
        "--as",
        "ann",
        "--computer",
        "bob",
    )
    assert code == 2 and "a key named bob is in this home already" in err
    assert not path.exists()


def test_a_join_that_says_computer_as_anything_but_true_is_refused(home: Path) -> None:
    path = made_game(home)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    bob = KeyStore(home).secret("bob", lambda _prompt: PASSPHRASE)
    assert isinstance(bob, SecretKeys)
    (index,) = [
        at for at, entry in enumerate(data["entry"]) if entry["by"] == "bob" and entry["kind"] == "join"
    ]
    forged = signed_again(data, index, lambda entry: entry.update(computer="yes"), lambda _seat: bob)
    result = ledger_mod.audit(forged)
    assert not result.ok
    assert "field 'computer' must be true" in str(result.problems[0]), result.problems


def test_a_hint_is_the_computers_choice_from_what_the_seat_sees(home: Path) -> None:
    path = made_game(home)
    code, out, err = pbem(home, "moves", str(path), "--as", "ann", "--json", "--hint")
    assert code == 0, err
    listed = json.loads(out)
    hint = listed["hint"]
    assert hint["move"] in listed["moves"] and 0 <= hint["chance"] <= 1 and hint["playouts"] == 4
    # the same position and budget: the same hint
    again = json.loads(pbem(home, "moves", str(path), "--as", "ann", "--json", "--hint")[1])["hint"]
    assert again == hint
    _, _, said = pbem(home, "moves", str(path), "--as", "ann", "--hint")
    assert said.startswith(f"hint: {hint['move']}  (an estimated "), said
    code, _, err = pbem(home, "moves", str(path), "--as", "bob", "--hint")
    assert (code, err.strip()) == (2, "error: bob has no choice to make now, so no hint")
