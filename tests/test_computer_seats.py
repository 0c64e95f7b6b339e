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
from pbem.mail.library import Library
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


def three_seats(home: Path) -> Path:
    """ann and cat play from this home, bob is a computer: every seat joined, the game begun."""
    KeyStore(home).store("cat", seeded_keys("cat"), PASSPHRASE, CREATED)
    path = home.parent / "game.toml"
    code, _, err = pbem(
        home, "new", str(path), "--game", "il-principe", "--players", "ann,bob,cat",
        "--as", "ann", "--computer", "bob",
    )  # fmt: skip
    assert code == 0, err
    code, _, err = pbem(home, "join", str(path), "--as", "cat")
    assert code == 0, err
    return path


def test_a_seat_handed_to_a_computer_of_this_home_is_played_by_it_and_named_so(home: Path) -> None:
    path = three_seats(home)
    before = tomllib.loads(path.read_text(encoding="utf-8"))["entry"]
    code, _, err = pbem(home, "handover", str(path), "--as", "ann", "--to-computer", "annbot")
    assert code == 0, err
    assert "ann is handed on to the computer annbot" in err
    assert "this home's keys read ann's hand from now on" in err
    store = KeyStore(home)
    assert store.key_path("annbot").stat().st_mode & 0o777 == 0o600
    assert store.public("annbot").encrypted  # sealed with ann's passphrase
    after = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][len(before) :]
    (handover,) = [entry for entry in after if entry["kind"] == "handover"]
    assert (handover["by"], handover["name"], handover["computer"]) == ("ann", "annbot", True)
    # the computer took ann's round 1 reserve at once: what is left is cat's
    assert any(entry["by"] == "ann" and entry["kind"] == "commit" for entry in after), after
    code, out, _ = pbem(home, "status", str(path), "--json")
    assert [item["seat"] for item in json.loads(out)["waiting"]] == ["cat"], out
    code, out, _ = pbem(home, "verify", str(path), "--json")
    roster = json.loads(out)["roster"]
    assert code == 0 and roster["ann"]["computer"] is True and "computer" not in roster["cat"]
    said: list[str] = []
    assert independent_verifier.main([str(path)], out=said.append) == 0
    assert "2 computer seats" in said[-1], said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--to-computer", "bob"], "error: --to-computer bob: a key named bob is in this home already"),
        (["--to-computer", "x", "--to", "x", "x.key"], "error: --to-computer makes the computer's key here"),
        (["--to-computer", "x", "--computer"], "error: --computer goes with --to NAME KEYFILE"),
        ([], "error: say who takes your seat: --to NAME KEYFILE"),
    ],
)
def test_a_handover_to_a_computer_that_cannot_be_changes_nothing(
    home: Path, args: list[str], said: str
) -> None:
    path = three_seats(home)
    text = path.read_bytes()
    code, _, err = pbem(home, "handover", str(path), "--as", "ann", *args)
    assert code == 2 and err.startswith(said), err
    assert path.read_bytes() == text and not KeyStore(home).key_path("x").exists()


def test_a_handover_the_game_refuses_leaves_no_computer_key(home: Path) -> None:
    path = three_seats(home)
    reserve = json.loads(pbem(home, "moves", str(path), "--as", "cat", "--json")[1])["moves"][0]
    assert pbem(home, "play", str(path), *reserve.split(), "--as", "cat")[0] == 0
    text = path.read_bytes()
    code, _, err = pbem(home, "handover", str(path), "--as", "cat", "--to-computer", "catbot")
    assert code == 2 and "sealed" in err, err
    assert path.read_bytes() == text and not KeyStore(home).key_path("catbot").exists()


def test_a_seat_handed_to_a_computer_another_home_hosts_says_so(home: Path, tmp_path: Path) -> None:
    path = three_seats(home)
    host = tmp_path / "host"
    KeyStore(host).store("robo", seeded_keys("robo"), None, CREATED)
    exported = tmp_path / "robo.key"
    assert run_cli(host, "key", "export", "robo", "--output", str(exported)).exit_code == 0
    code, _, err = pbem(
        home, "handover", str(path), "--as", "ann", "--to", "robo", str(exported), "--computer"
    )  # fmt: skip
    assert code == 0, err
    assert "a computer plays ann from the home that holds robo's key" in err
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["entry"]
    assert entries[-1]["kind"] == "handover" and entries[-1]["computer"] is True
    assert not any(entry["by"] == "ann" and entry["kind"] == "commit" for entry in entries)
    # the game reaches the host by mail: its import leaves ann asked, and the computer plays it
    message = tmp_path / "game.eml"
    code, _, err = pbem(home, "mail", "send", str(path), "--as", "cat", "--full", "--to-file", str(message))
    assert code == 0, err
    result = run_cli(
        host, "mail", "import", str(message), env={"PBEM_NOW": NOW, "PBEM_COMPUTER_PLAYOUTS": "4"}
    )
    assert result.exit_code == 0, result.stderr
    assert "ann (computer) plays " in result.stderr
    (kept,) = [game.path for game in Library(host).games().values()]
    entries = tomllib.loads(kept.read_text(encoding="utf-8"))["entry"]
    assert any(entry["by"] == "ann" and entry["kind"] == "commit" for entry in entries)
    assert run_cli(host, "verify", str(kept), env={"PBEM_NOW": NOW}).exit_code == 0


def test_a_command_derives_each_keys_passphrase_once_however_many_entries_it_signs(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.crypto import keyfile

    path = made_game(home)
    derived: list[int] = []
    slow = keyfile._derive

    def counted(*args: object, **kwargs: object) -> bytes:
        derived.append(1)
        return slow(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(keyfile, "_derive", counted)
    before = len(tomllib.loads(path.read_text(encoding="utf-8"))["entry"])
    reserve = json.loads(pbem(home, "moves", str(path), "--as", "ann", "--json")[1])["moves"][0]
    derived.clear()
    code, _, err = pbem(home, "play", str(path), *reserve.split(), "--as", "ann")
    assert code == 0, err
    signed = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][before:]
    # ann's reserve, then every seat's reveal and the computers' moves: many entries, three keys
    assert len(signed) > 5 and {entry["by"] for entry in signed} == {"ann", "bob", "cat"}
    assert len(derived) == 3, len(derived)
