"""Handing a seat on to another player (``pbem handover``), through the command line.

A three-seat game of the engine's test game with escrow is played once per module: b draws a
card, then hands its seat on to carol, who reads b's hand with her own key and plays the card.
Refusals are forged from its stages by re-signing one entry, as a player who edits the file would.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem import gamefile
from pbem.crypto import hidden_deck as hd
from pbem.crypto.encoding import b64
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger
from pbem.keys import KeyStore
from tests import hidden_deck_game, independent_verifier
from tests.conftest import CREATED, forget_seen_games, game_ids, make_key_homes, run_cli, seeded_keys
from tests.hidden_deck_game import DECK
from tests.tamper import signed_again

SEATS = ("a", "b", "c")
HANDOVER = 12  # the seq of b's handover in the module's game


@dataclass
class Played:
    root: Path
    stages: dict[str, str]
    card: str  # the card b drew, and carol plays

    def run(self, home: str, *args: str) -> Result:
        return run_cli(self.root / home, *args)

    def data(self, stage: str) -> dict[str, Any]:
        return tomllib.loads(self.stages[stage])

    def secret(self, name: str) -> SecretKeys:
        return KeyStore(self.root / name).secret(name, lambda prompt: None)

    def file(self, text: str, name: str) -> Path:
        path = self.root / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        forget_seen_games(self.root)
        return path

    def identity(self, name: str) -> Path:
        """``name``'s exported identity, as the new player sends it to the one leaving."""
        path = self.root / f"{name}.id"
        if not path.exists():
            result = self.run(name, "key", "export", name, "--output", str(path))
            assert result.exit_code == 0, result.stderr
        return path


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("handover")
    make_key_homes(root, (*SEATS, "carol"))
    game = root / "game.toml"
    stages: dict[str, str] = {}

    def step(home: str, *args: str) -> Result:
        result = run_cli(root / home, *args)
        assert result.exit_code == 0, result.stderr
        return result

    with game_ids("handover"):
        step(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            "--option", "escrow=others",
        )  # fmt: skip
    step("b", "join", str(game), "--as", "b")
    step("c", "join", str(game), "--as", "c")
    step("a", "play", str(game), "--as", "a", "pass")  # 3: a deals its deck secret and shuffles
    step("b", "sync", str(game), "--as", "b")  # 4
    step("c", "sync", str(game), "--as", "c")  # 5
    step("b", "play", str(game), "--as", "b", "pass")  # 6
    step("c", "play", str(game), "--as", "c", "pass")  # 7
    step("a", "play", str(game), "--as", "a", "draw")  # 8
    step("b", "play", str(game), "--as", "b", "draw")  # 9
    step("c", "play", str(game), "--as", "c", "pass")  # 10
    step("a", "play", str(game), "--as", "a", "pass")  # 11: b's card is b's to read now
    stages["before"] = game.read_text(encoding="utf-8")
    hand = stages["b's show"] = step("b", "show", str(game), "--as", "b").stdout
    card = next(name for name in hidden_deck_game.CARDS if name in hand)
    step("carol", "key", "export", "carol", "--output", str(root / "carol.id"))
    step("b", "handover", str(game), "--as", "b", "--to", "carol", str(root / "carol.id"))  # 12
    stages["handed over"] = game.read_text(encoding="utf-8")
    stages["carol's show"] = step("carol", "show", str(game), "--as", "b").stdout
    step("carol", "play", str(game), "--as", "b", f"play {card}")  # 13
    step("c", "play", str(game), "--as", "c", "pass")  # 14
    step("a", "play", str(game), "--as", "a", "draw")  # 15
    step("carol", "play", str(game), "--as", "b", "pass")  # 16
    stages["played on"] = game.read_text(encoding="utf-8")
    return Played(root, stages, card)


def resigned(
    played: Played, stage: str, position: int, change: Callable[[dict[str, Any]], None], signer: str
) -> str:
    """The game at ``stage`` cut after entry ``position``, that entry changed and signed by ``signer``."""
    data = played.data(stage)
    forged = signed_again(data, position, change, played.secret, signer)
    game = ledger.audit(forged).ledger
    assert game is not None
    return gamefile.render_new(
        game.header(), game.roster_table(), data.get("components", {}), forged["entry"], ()
    )


def problems(text: str) -> list[str]:
    return [str(problem) for problem in ledger.audit(tomllib.loads(text)).problems]


def handover_entry(played: Played) -> dict[str, Any]:
    entry: dict[str, Any] = played.data("handed over")["entry"][HANDOVER]
    return entry


# --- the handover, as played -------------------------------------------------------------------------
def test_the_handover_carries_the_new_players_identity_and_a_sealed_secret(played: Played) -> None:
    entry = handover_entry(played)
    carol = seeded_keys("carol").public("carol")
    assert (entry["kind"], entry["by"], entry["name"]) == ("handover", "b", "carol")
    assert (entry["sign"], entry["box"]) == (b64(carol.sign_public), b64(carol.box_public))
    # b's secret for the game, its deck seed and deck secret are nowhere in the file in clear
    game = ledger.read(played.data("before"))
    secret = game.secret_seed("b", played.secret("b"))
    text = played.stages["played on"]
    deck_secret = hd.derive_secret(hd.deck_seed(secret), game.game_id, "b", group=game.group)
    for form in (secret.hex(), b64(secret), hd.deck_seed(secret).hex(), b64(hd.deck_seed(secret))):
        assert form not in text
    assert str(deck_secret) not in text and format(deck_secret, "x") not in text


def test_the_new_player_reads_the_seats_hand_with_her_own_key(played: Played) -> None:
    def hand(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("your hidden card")]

    assert hand(played.stages["carol's show"]) == hand(played.stages["b's show"])
    assert played.card in hand(played.stages["carol's show"])[0]


def test_the_new_player_plays_the_seats_card_and_the_whole_file_verifies(played: Played) -> None:
    path = played.file(played.stages["played on"], "played-on")
    result = played.run("a", "verify", str(path))
    assert result.exit_code == 0, result.stderr
    carol = seeded_keys("carol").public("b").fingerprint
    old = seeded_keys("b").public("b").fingerprint
    assert f"b                {carol}  (entry {HANDOVER}: handed on to carol)" in result.stdout
    assert f"{old}  (held it from entry 1 to entry {HANDOVER})" in result.stdout
    entries = played.data("played on")["entry"]
    assert entries[HANDOVER + 1]["move"] == f"play {played.card}"
    assert entries[HANDOVER + 1]["face_up"]  # the card shown, with the seat's share


def test_entries_before_the_handover_verify_with_the_old_key_and_after_with_the_new(played: Played) -> None:
    game = ledger.read(played.data("played on"))
    old, new = seeded_keys("b").public("b"), seeded_keys("carol").public("b")
    assert game.roster["b"] == new
    assert game.key_at("b", 9) == old
    assert game.key_at("b", HANDOVER) == old  # the handover is signed by the key it hands on from
    assert game.key_at("b", HANDOVER + 1) == new
    roster = played.data("played on")["roster"]["b"]
    assert roster["fingerprint"] == new.fingerprint
    assert (roster["holder"], roster["handed_over"], roster["held_before"]) == (
        "carol",
        HANDOVER,
        [old.fingerprint],
    )
    assert "holder" not in played.data("played on")["roster"]["a"]


def test_the_json_report_says_who_held_the_seat_before(played: Played) -> None:
    path = played.file(played.stages["played on"], "json")
    result = played.run("a", "verify", str(path), "--json")
    report = json.loads(result.stdout)
    assert report["roster"]["b"]["held_before"] == [
        {"fingerprint": seeded_keys("b").public("b").fingerprint, "until": HANDOVER}
    ]
    assert report["roster"]["b"]["holder"] == "carol"


def test_the_old_key_no_longer_signs_for_the_seat(played: Played) -> None:
    path = played.file(played.stages["played on"], "old-key")
    result = played.run("b", "note", str(path), "still here", "--as", "b")
    assert result.exit_code == 4
    assert result.stderr.strip().endswith(
        f"no longer signs for b: the seat was handed on to carol in entry {HANDOVER} "
        f"(fingerprint {seeded_keys('carol').public('b').fingerprint})"
    )
    # an entry the old key signs anyway is refused by every verifier
    forged = resigned(played, "played on", HANDOVER + 4, lambda entry: None, "b")
    assert problems(forged)[0].startswith(
        f"entry {HANDOVER + 4} (by b): signature does not verify against b's key"
    )


def test_the_moves_log_says_who_the_seat_went_to(played: Played) -> None:
    path = played.file(played.stages["played on"], "log")
    result = played.run("a", "log", str(path))
    assert result.exit_code == 0, result.stderr
    assert "handover   handed the seat on to carol" in result.stdout


# --- refusals ------------------------------------------------------------------------------------------
def test_a_handover_forged_by_an_impostor_is_refused(played: Played) -> None:
    forged = resigned(played, "handed over", HANDOVER, lambda entry: None, "c")
    assert problems(forged)[0].startswith(
        f"entry {HANDOVER} (by b): signature does not verify against b's key"
    )
    path = played.file(played.stages["before"], "impostor")
    result = played.run(
        "c", "handover", str(path), "--as", "b", "--key", "c", "--to", "carol", str(played.identity("carol"))
    )
    assert result.exit_code == 4
    assert "is not the key b joined this game with" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_handover_for_another_seat_is_refused(played: Played) -> None:
    path = played.file(played.stages["before"], "other-seat")
    result = played.run(
        "b", "handover", str(path), "--as", "a", "--key", "b", "--to", "carol", str(played.identity("carol"))
    )
    assert result.exit_code == 4
    assert "is not the key a joined this game with" in result.stderr


def test_a_handover_to_a_key_already_seated_is_refused(played: Played) -> None:
    path = played.file(played.stages["before"], "seated")
    result = played.run("b", "handover", str(path), "--as", "b", "--to", "c", str(played.identity("c")))
    assert result.exit_code != 0
    assert result.stderr.strip().splitlines() == [
        f"error: c's key (fingerprint {seeded_keys('c').public('c').fingerprint}) already signs for seat "
        "c: a seat is handed on to a player who holds none"
    ]
    c = seeded_keys("c")
    identity = c.public("c")

    def to_c(entry: dict[str, Any]) -> None:
        entry["name"] = "c"
        entry["sign"], entry["box"] = b64(identity.sign_public), b64(identity.box_public)
        entry["identity_sig"] = b64(c.sign(identity.binding_message()))

    forged = resigned(played, "handed over", HANDOVER, to_c, "b")
    assert problems(forged)[0].endswith(
        "already signs for seat c: a seat is handed on to a player who holds none"
    )


def test_an_identity_the_new_key_did_not_sign_is_refused(played: Played) -> None:
    def renamed(entry: dict[str, Any]) -> None:
        entry["name"] = "mallory"

    forged = resigned(played, "handed over", HANDOVER, renamed, "b")
    assert problems(forged)[0] == (
        f"entry {HANDOVER} (by b): identity_sig is not mallory's self-signature: the new holder's key "
        "did not vouch for this identity"
    )


def test_a_keyfile_of_another_player_is_refused(played: Played) -> None:
    path = played.file(played.stages["before"], "other-name")
    result = played.run(
        "b", "handover", str(path), "--as", "b", "--to", "dave", str(played.identity("carol"))
    )
    assert result.exit_code != 0
    assert result.stderr.strip() == f"error: {played.identity('carol')} holds carol's identity, not dave's"


def test_a_sealed_secret_that_is_not_the_seats_is_refused_to_the_new_player(played: Played) -> None:
    """Nobody but carol can open what b sealed, so the file verifies; carol's pbem checks it
    against b's deck key before she plays on it."""
    carol = seeded_keys("carol").public("carol")
    game_id = played.data("before")["game"]["id"]

    def wrong_secret(entry: dict[str, Any]) -> None:
        from pbem.crypto import sealing

        opening = sealing.Opening(bytes(32).hex(), bytes(16))
        sealed = sealing.seal(carol.box_public, game_id, f"handover {HANDOVER}", "b", opening)
        entry["sealed_secret"] = b64(sealed)

    path = played.file(resigned(played, "handed over", HANDOVER, wrong_secret, "b"), "wrong-secret")
    assert problems(path.read_text(encoding="utf-8")) == []
    result = played.run("carol", "show", str(path), "--as", "b")
    assert result.exit_code == 4
    assert f"the secret sealed in entry {HANDOVER} is not seat b's (its deck key differs)" in result.stderr


def test_a_handover_in_a_game_that_is_over_is_refused(tmp_path: Path) -> None:
    make_key_homes(tmp_path, ("a", "b", "carol"))
    game = tmp_path / "over.toml"

    def run(home: str, *args: str) -> Result:
        return run_cli(tmp_path / home, *args)

    for home, args in (
        ("a", ("new", str(game), "--game", hidden_deck_game.NAME, "--players", "a,b", "--as", "a")),
        ("b", ("join", str(game), "--as", "b")),
        ("a", ("play", str(game), "--as", "a", "end")),
        ("carol", ("key", "export", "carol", "--output", str(tmp_path / "carol.id"))),
    ):
        result = run(home, *args)
        assert result.exit_code == 0, result.stderr
    result = run("b", "handover", str(game), "--as", "b", "--to", "carol", str(tmp_path / "carol.id"))
    assert result.exit_code != 0
    assert result.stderr.strip() == "error: the game is over: there is no seat to hand on"


def test_the_handover_entry_is_made_at_its_place_in_the_chain(played: Played) -> None:
    entry = handover_entry(played)
    before = ledger.read(played.data("before"))
    assert (entry["seq"], entry["prev"]) == (HANDOVER, before.head)
    assert entry["at"] >= CREATED


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.toml")), ids=lambda p: p.name
)
def test_a_game_file_made_before_handovers_still_verifies_with_its_roster_unchanged(path: Path) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    game = ledger.read(data)
    assert game.handovers == {}
    assert game.roster_table() == data["roster"]


# --- the independent verifier, which shares no code with pbem -------------------------------------
def independently(played: Played, text: str, name: str) -> independent_verifier.Report:
    return independent_verifier.verify(played.file(text, name), {DECK: list(hidden_deck_game.CARDS)})


def test_the_independent_verifier_follows_the_key_change(played: Played) -> None:
    report = independently(played, played.stages["played on"], "independent")
    assert report.problems == []
    assert report.counts["handover"] == 1


def test_the_independent_verifier_refuses_the_old_key_after_the_handover(played: Played) -> None:
    forged = resigned(played, "played on", HANDOVER + 4, lambda entry: None, "b")
    report = independently(played, forged, "independent-old-key")
    assert report.problems == [
        f"entry {HANDOVER + 4} (by b, position {HANDOVER + 4}): the signature does not verify"
    ]


def test_the_independent_verifier_refuses_an_impostors_handover(played: Played) -> None:
    forged = resigned(played, "handed over", HANDOVER, lambda entry: None, "c")
    report = independently(played, forged, "independent-impostor")
    assert (
        report.problems[0] == f"entry {HANDOVER} (by b, position {HANDOVER}): the signature does not verify"
    )


def test_the_independent_verifier_refuses_a_handover_to_a_seated_key(played: Played) -> None:
    c = seeded_keys("c")
    identity = c.public("c")

    def to_c(entry: dict[str, Any]) -> None:
        entry["name"] = "c"
        entry["sign"], entry["box"] = b64(identity.sign_public), b64(identity.box_public)
        entry["identity_sig"] = b64(c.sign(identity.binding_message()))

    report = independently(played, resigned(played, "handed over", HANDOVER, to_c, "b"), "independent-seated")
    assert (
        f"entry {HANDOVER} (by b, position {HANDOVER}): the new holder's key holds seat c already"
        in report.problems
    )


def test_imported_identities_are_checked_against_the_new_holder(played: Played, tmp_path: Path) -> None:
    """A player who imported b's and carol's identities is told nothing; one who imported
    another key as carol is told the seat went to another key."""
    home = tmp_path / "a"
    shutil.copytree(played.root / "a", home)
    path = played.file(played.stages["played on"], "imported")
    for name in ("b", "carol"):
        result = run_cli(home, "key", "import", str(played.identity(name)))
        assert result.exit_code == 0, result.stderr
    assert run_cli(home, "verify", str(path)).exit_code == 0
    other = tmp_path / "dave"
    make_key_homes(tmp_path, ("dave",))
    exported = tmp_path / "dave.id"
    assert run_cli(other, "key", "export", "dave", "--output", str(exported)).exit_code == 0
    shutil.rmtree(home / "identities")
    result = run_cli(home, "key", "import", str(exported), "--name", "carol")
    assert result.exit_code == 0, result.stderr
    result = run_cli(home, "verify", str(path))
    assert result.exit_code == 4
    assert (
        f"seat b was handed on to carol in entry {HANDOVER} with key "
        f"{seeded_keys('carol').public('b').fingerprint}, not the key you imported as carol" in result.stderr
    )


def test_a_handover_made_beside_another_seats_entry_merges(played: Played) -> None:
    """b hands its seat on while a writes a note on another copy: one step, and carol plays on."""
    handed = played.file(played.stages["handed over"], "merge-handed")
    noted = played.file(played.stages["before"], "merge-noted")
    result = played.run("a", "note", str(noted), "meanwhile", "--as", "a")
    assert result.exit_code == 0, result.stderr
    result = played.run("carol", "merge", str(handed), str(noted))
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(handed.read_text(encoding="utf-8"))
    assert [(entry["seq"], entry["kind"]) for entry in data["entry"][HANDOVER:]] == [
        (HANDOVER, "note"),
        (HANDOVER, "handover"),
    ]
    result = played.run("carol", "play", str(handed), "--as", "b", f"play {played.card}")
    assert result.exit_code == 0, result.stderr
    assert ledger.read(tomllib.loads(handed.read_text(encoding="utf-8"))).roster["b"] == seeded_keys(
        "carol"
    ).public("b")


def test_a_seat_whose_sealed_choice_waits_is_not_handed_on() -> None:
    """Only the seat's present box key opens its sealed bid, so the bid is revealed first: the
    engine refuses to sign the handover, and replay refuses one signed anyway."""
    from pbem.engine import play
    from pbem.engine import table as tables
    from pbem.engine.ruleset import DECK_DEMANDS
    from pbem.errors import UsageError
    from tests import mutations

    keys = {seat: seeded_keys(seat) for seat in ("ann", "ben", "cat")}
    clock = mutations._Clock()
    setup = ledger.plan(game="potr", edition="2016", options={}, seats=list(keys), creator="ann")
    game = ledger.new_game(
        setup, keys["ann"], at=clock.tick(), nonce="ab" * 16, components=mutations._components(True)
    )
    for seat in ("ben", "cat"):
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    while True:
        assert game.table is not None and game.rules is not None
        demands = tables.demands(game.rules, game.table)
        demand = next((demand for demand in demands if demand.seat == "ben"), demands[0])
        if demand.kind in DECK_DEMANDS:
            game, _ = play.sync(game, demand.seat, keys[demand.seat], clock.tick())
        elif demand.kind == "contribute":
            game, _ = play.play(game, demand.seat, play.ROLL, keys[demand.seat], clock.tick())
        else:
            assert (demand.seat, demand.kind) == ("ben", "commit")
            game, _ = play.play(game, "ben", "bid 1", keys["ben"], clock.tick())
            break
    carol = seeded_keys("carol")
    identity = carol.public("carol")
    message = (
        "ben's sealed turn-order bid is not revealed yet, and only ben's present key opens it: reveal "
        "it first, then hand the seat on"
    )
    with pytest.raises(UsageError) as refused:
        newcomer = ledger.Newcomer(identity, carol.sign(identity.binding_message()))
        ledger.handover(game, "ben", newcomer, keys["ben"], at=clock.tick())
    assert str(refused.value) == message
    entry = game.next_entry("ben", clock.tick(), "handover")
    entry |= {
        "name": "carol",
        "sign": b64(identity.sign_public),
        "box": b64(identity.box_public),
        "identity_sig": b64(carol.sign(identity.binding_message())),
        "sealed_secret": b64(bytes(128)),
        "rand": ledger.contribution(game, "ben", keys["ben"]),
    }
    data = game.data()
    data["entry"] = [*data["entry"], ledger.sign_entry(game.game_id, entry, keys["ben"])]
    found = [str(problem) for problem in ledger.audit(data).problems if problem.seq is not None]
    assert found == [f"entry {entry['seq']} (by ben): {message}"]


def test_the_short_checker_in_the_docs_follows_the_key_change(played: Played) -> None:
    import subprocess
    import sys

    checker = Path(__file__).resolve().parent.parent / "docs" / "check_pbem.py"

    def check(text: str, name: str) -> subprocess.CompletedProcess[str]:
        path = played.file(text, name)
        return subprocess.run(
            [sys.executable, str(checker), str(path)], capture_output=True, text=True, check=False
        )

    done = check(played.stages["played on"], "short-check")
    assert done.returncode == 0, done.stdout
    assert f"  b                {seeded_keys('carol').public('b').fingerprint}" in done.stdout
    forged = resigned(played, "played on", HANDOVER + 4, lambda entry: None, "b")
    done = check(forged, "short-check-old-key")
    assert done.returncode == 1
    assert f"entry {HANDOVER + 4} (move by b): signature does not verify against b's key" in done.stdout


def test_a_roster_copy_that_still_shows_the_old_key_is_refused(played: Played) -> None:
    data = played.data("played on")
    before = played.data("before")["roster"]["b"]
    data["roster"]["b"] = before
    found = [str(problem) for problem in ledger.audit(data).problems]
    assert found == [
        f"entry {HANDOVER} (by b): roster keys for 'b' differ from the keys b signed in entry {HANDOVER}"
    ]
