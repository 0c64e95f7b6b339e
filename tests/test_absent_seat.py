"""A seat a timeout was claimed against is absent (option timeouts=absent, what new games have):
the rules' defaults play it, with no further claim, until it signs an entry again; a default that
needs a claimant's entry is claimed at once. `pbem status` and `pbem inbox` say OVERDUE only where
`pbem timeout` is taken then, with that command (with --send in a game by mail), and never for
what no timeout settles: a consent, what the referee owes.

The engine's test game is played through the command line with seeded keys and a one-day
deadline, each command at the time the test sets (``PBEM_NOW``).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.engine import ledger
from tests import hidden_deck_game, independent_verifier
from tests.conftest import game_ids, make_key_homes
from tests.stages import Played

DAY1 = "2026-01-01T00:00:00Z"
DAY3 = "2026-01-03T00:00:00Z"  # a day after DAY1's demands began: their deadlines have passed
DAY5 = "2026-01-05T00:00:00Z"
DECKS = {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)}


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


def new_game(played: Played, seats: tuple[str, ...], label: str, *extra: str) -> str:
    make_key_homes(played.root, seats)
    game = str(played.game)
    with game_ids(label):
        played.step(
            seats[0], "new", game, "--game", hidden_deck_game.NAME, "--players", ",".join(seats),
            "--as", seats[0], "--option", "deadline_days=1", *extra, at=DAY1,
        )  # fmt: skip
    return game


def status(played: Played, home: str, at: str) -> tuple[dict[str, Any], str]:
    game = str(played.game)
    shown = json.loads(played.step(home, "status", game, "--json", at=at).stdout)
    return shown, played.step(home, "status", game, at=at).stdout


def replayed(played: Played) -> ledger.Ledger:
    return ledger.read(gamefile.load(played.game).data)


def timeouts(played: Played) -> int:
    return [entry["kind"] for entry in gamefile.load(played.game).data["entry"]].count("timeout")


# --- a referee game -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def refereed(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """a and b, r their referee, a game by mail; b answers nothing once a has drawn deck:0."""
    root = tmp_path_factory.mktemp("absent-referee")
    played = Played(root, DAY3)
    make_key_homes(root, ("r",))
    exported = root / "r.id"
    exported.write_text(played.step("r", "key", "export", "r").stdout, encoding="utf-8")
    game = new_game(
        played, ("a", "b"), "absent referee", "--email", "a@example.org", "--referee", "r", str(exported)
    )
    played.step("b", "join", game, "--as", "b", "--email", "b@example.org", at=DAY1)
    played.step("r", "referee", game, "--as", "r", at=DAY1)
    played.step("a", "sync", game, "--as", "a", at=DAY1)
    played.step("b", "sync", game, "--as", "b", at=DAY1)
    played.step("r", "referee", game, "--as", "r", at=DAY1)
    for seat, verb in (("a", "pass"), ("b", "pass"), ("a", "draw")):
        played.step(seat, "play", game, "--as", seat, verb, at=DAY1)
    played.stages["early"] = status(played, "a", DAY1)[1]
    shown, text = status(played, "a", DAY3)
    played.stages["late json"], played.stages["late"] = json.dumps(shown), text
    played.stages["inbox"] = played.step("a", "inbox", at=DAY3).stdout
    played.step("a", "timeout", game, "b", "--as", "a")  # b's turn, a pass; b is absent
    shown, text = status(played, "a", DAY5)
    played.stages["claimed json"], played.stages["claimed"] = json.dumps(shown), text
    played.stages["again"] = played.run("a", "timeout", game, "b", "--as", "a", at=DAY5).stderr
    played.step("r", "referee", game, "--as", "r", at=DAY5)  # the referee's partial: b's share
    played.keep("unlocked")
    return played


def test_in_a_referee_game_one_claim_and_the_referees_partial_let_play_go_on(refereed: Played) -> None:
    played, game = refereed, str(refereed.game)
    assert played.hand(played.game, "a")["deck:0"] in hidden_deck_game.CARDS
    # a plays on: b's turns are passes made for it, and each card a draws is unlocked for b, the
    # referee's partial the only answer it waits for
    for turn in range(2):
        played.step("a", "play", game, "--as", "a", "draw", at=DAY5)
        shown, _ = status(played, "a", DAY5)
        owed = [(item["seat"], item["kind"]) for item in shown["waiting"]]
        assert ("r", "unlock") in owed and not any(seat == "b" for seat, _ in owed), owed
        played.step("r", "referee", game, "--as", "r", at=DAY5)
        assert played.hand(played.game, "a")[f"deck:{turn + 1}"] in hidden_deck_game.CARDS
    assert timeouts(played) == 1
    state = replayed(played)
    assert state.table is not None and state.table.absent == {"b"} and state.table.missed == {"b": 1}
    assert played.run("a", "verify", game).exit_code == 0
    report = independent_verifier.verify(played.game, DECKS)
    assert report.ok, report.problems
    assert report.counts["timeout"] == 1 and report.counts["share unlocked"] == 3


def test_status_gives_the_timeout_command_with_send_only_once_it_is_taken(refereed: Played) -> None:
    command = f"pbem timeout {refereed.game} b --as a --send"
    assert (
        "OVERDUE" not in refereed.stages["early"]
        and "deadline 2026-01-02T00:00:00Z" in refereed.stages["early"]
    )
    late = json.loads(refereed.stages["late json"])
    overdue = [(item["seat"], item["step"], item["timeout"]) for item in late["waiting"] if item["overdue"]]
    assert overdue == [("b", "turn", command)]  # the claim settles b's turn: only it is overdue
    assert (
        refereed.stages["late"].count("OVERDUE") == 1 and f"OVERDUE: {command}\n" in refereed.stages["late"]
    )
    # the inbox names the game by its id (the first word after the title), which finds the copy
    short = refereed.stages["inbox"].split(": ", 1)[0].split()[-1]
    assert f"b overdue: pbem timeout {short} b --as a --send" in refereed.stages["inbox"]


def test_the_referees_part_and_a_seat_waiting_for_it_are_never_overdue(refereed: Played) -> None:
    claimed = json.loads(refereed.stages["claimed json"])
    assert claimed["absent"] == ["b"]
    by_seat = {item["seat"]: item for item in claimed["waiting"]}
    assert by_seat["r"]["kind"] == "unlock" and by_seat["r"]["deadline"] is None
    assert by_seat["a"]["waiting_for_shares"] == {"deck:0": ["b"]} and by_seat["a"]["deadline"] is None
    assert not any(item["overdue"] for item in claimed["waiting"])
    assert "OVERDUE" not in refereed.stages["claimed"] and "deadline" not in refereed.stages["claimed"]
    assert "b is absent (a timeout was claimed against it)" in refereed.stages["claimed"]
    assert refereed.stages["again"] == "error: b owes nothing now\n"
    against_referee = refereed.run("a", "timeout", str(refereed.game), "r", "--as", "a", at=DAY5)
    assert (against_referee.exit_code, against_referee.stderr) == (
        2,
        "error: no seat named 'r' in this game (seats: a, b)\n",
    )


# --- three seats, no escrow -----------------------------------------------------------------------
def test_a_consent_past_its_deadline_is_not_overdue_and_takes_no_claim(tmp_path: Path) -> None:
    played = Played(tmp_path, DAY3)
    game = new_game(played, ("a", "b", "c"), "absent consent", "--option", "escrow=none")
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    played.step("a", "play", game, "--as", "a", "pass", at=DAY1)
    played.step("a", "undo", game, "--as", "a", at=DAY1)
    shown, text = status(played, "a", DAY5)
    assert [(item["seat"], item["kind"], item["deadline"], item["overdue"]) for item in shown["waiting"]] == [
        ("b", "consent", None, False),
        ("c", "consent", None, False),
    ]
    assert "OVERDUE" not in text and "deadline" not in text
    refused = played.run("a", "timeout", game, "b", "--as", "a", at=DAY5)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: nobody can stand in for b in the undo of entry 3\n",
    )


def test_an_absent_seat_comes_back_by_signing_and_each_absence_counts_toward_retire_after(
    tmp_path: Path,
) -> None:
    played = Played(tmp_path, DAY3)
    game = new_game(
        played, ("a", "b", "c"), "absent return", "--option", "escrow=none", "--option", "retire_after=2"
    )
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    played.step("a", "play", game, "--as", "a", "pass", at=DAY1)
    played.step("b", "play", game, "--as", "b", "pass", at=DAY1)
    played.step("a", "timeout", game, "c", "--as", "a", at=DAY3)  # c's pass; c is absent
    played.step("a", "play", game, "--as", "a", "pass", at=DAY3)
    played.step("b", "play", game, "--as", "b", "pass", at=DAY3)  # c's turn: passed for it at once
    state = replayed(played).table
    assert state is not None and state.state.seats[state.state.turn] == "a" and state.absent == {"c"}
    played.step("c", "note", game, "back again", "--as", "c", at=DAY3)  # c signs: it plays itself again
    played.step("a", "play", game, "--as", "a", "pass", at=DAY3)
    played.step("b", "play", game, "--as", "b", "pass", at=DAY3)
    shown, text = status(played, "a", DAY3)
    # c's turn, and its shuffle, which nobody stands in for without escrow
    assert {item["seat"] for item in shown["waiting"]} == {"c"} and shown["absent"] == []
    assert "is absent" not in text and "OVERDUE" not in text  # its new deadline runs from DAY3
    early = played.run("a", "timeout", game, "c", "--as", "a", at=DAY3)
    assert "c's deadline for the turn is 2026-01-04T00:00:00Z" in early.stderr
    played.step("a", "timeout", game, "c", "--as", "a", at=DAY5)  # its second absence: retired
    state = replayed(played).table
    assert state is not None and state.missed == {"c": 2}
    played.step("c", "note", game, "still here", "--as", "c", at=DAY5)  # retired: signing changes nothing
    _, text = status(played, "a", DAY5)
    assert "c missed 2 deadlines: the rules' defaults play it for the rest of the game" in text
    report = independent_verifier.verify(played.game, DECKS)
    assert report.ok and report.counts["timeout"] == 2, report.problems


def test_an_absent_seats_default_that_needs_a_claimants_entry_is_claimed_at_once(tmp_path: Path) -> None:
    """c's default puts its first card under the deck, re-masked by the claimant: pbem cannot make
    it alone, so each such default takes a claim, but only the first waits for a deadline."""
    played = Played(tmp_path, DAY3)
    game = new_game(
        played, ("a", "b", "c"), "absent bottom", "--option", "escrow=others", "--option", "default=bottom"
    )
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    steps = (
        ("a", "pass"), ("b", None), ("c", None), ("a", None), ("b", "pass"),
        ("c", "draw"), ("a", "pass"), ("b", "pass"), ("c", "draw"), ("a", "pass"), ("b", "pass"),
    )  # fmt: skip
    for seat, verb in steps:
        args = ("sync", game, "--as", seat) if verb is None else ("play", game, "--as", seat, verb)
        played.step(seat, *args, at=DAY1)
    played.step("a", "timeout", game, "c", "--as", "a", at=DAY3)  # deck:0 under the deck; c absent
    played.step("a", "play", game, "--as", "a", "pass", at=DAY3)
    played.step("b", "play", game, "--as", "b", "pass", at=DAY3)  # c's turn: deck:1 waits for a re-mask
    shown, text = status(played, "b", DAY3)
    command = f"pbem timeout {played.game} c --as b"
    assert [(item["seat"], item["overdue"], item["timeout"]) for item in shown["waiting"]] == [
        ("c", True, command)
    ]
    assert f"absent: its default takes a claim, made at once: {command}" in text
    played.step("b", "timeout", game, "c", "--as", "b", at=DAY3)  # no deadline waited for
    state = replayed(played).table
    assert state is not None and state.state.hands["c"] == () and state.missed == {"c": 1}
    assert timeouts(played) == 2
    report = independent_verifier.verify(played.game, DECKS)
    assert report.ok and report.counts["timeout"] == 2, report.problems


# --- a game made before the option --------------------------------------------------------------
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "principe-silent-seat.toml"


def test_a_game_made_before_the_option_replays_as_it_did(tmp_path: Path) -> None:
    """A four-player game of Il Principe made by pbem before the option existed (by
    examples/play-principe.py --silent chiara): its genesis has no timeouts, and it keeps taking
    a claim per demand: chiara's reserve, her shares, her shown reserve, each a timeout, the third
    retiring her (retire_after 3). Both verifiers accept it, and the score is the one it had."""
    data = tomllib.loads(FIXTURE.read_text(encoding="utf-8"))
    assert "timeouts" not in data["entry"][0]["options"]
    claims = [(entry["late"], entry["step"]) for entry in data["entry"] if entry["kind"] == "timeout"]
    assert claims == [
        ("chiara", "round 2 reserve"),
        ("chiara", "share of building:20"),
        ("chiara", "round 2 show move 45"),
    ]
    game = ledger.read(data)
    assert game.table is not None and not game.table.absence and game.table.absent == set()
    assert game.table.missed == {"chiara": 3}
    # made before escrow_sealing too: its shares are sealed without proofs, and verify as they did
    assert "escrow_sealing" not in data["entry"][0]["options"]
    dealings = [entry["escrow"] for entry in data["entry"] if "escrow" in entry]
    assert len(dealings) == 4 and not any("ephemeral_proofs" in dealing for dealing in dealings)
    assert game.table.decks is not None and game.table.decks.escrow is not None
    assert not game.table.decks.escrow.proven
    played = Played(tmp_path, "2026-12-01T00:00:00Z")
    assert played.run("x", "verify", str(FIXTURE)).exit_code == 0
    shown = json.loads(played.step("x", "show", str(FIXTURE), "--json").stdout)
    assert {seat: row["total"] for seat, row in shown["score"].items()} == {
        "alice": 52,
        "bruno": 47,
        "chiara": 6,
        "dario": 55,
    }
    assert "chiara missed 3 deadlines" in played.step("x", "status", str(FIXTURE)).stdout
    report = independent_verifier.verify(FIXTURE)
    assert report.ok, report.problems
    assert report.counts["timeout"] == 3 and report.counts["share unlocked"] == 73


def test_an_absent_seat_handed_on_keeps_its_unlocked_shares_for_both_verifiers(tmp_path: Path) -> None:
    """c is absent, its share of a's card being unlocked, when the others hand its seat on to d:
    the unlock goes on (a's and b's partials after the handover), and the independent verifier,
    which took partials for the absent c of any slot it could owe, keeps taking those."""
    played = Played(tmp_path, DAY3)
    game = new_game(played, ("a", "b", "c"), "absent handed on", "--option", "escrow=others")
    make_key_homes(tmp_path, ("d",))
    exported = tmp_path / "d.id"
    exported.write_text(played.step("d", "key", "export", "d").stdout, encoding="utf-8")
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    for seat, verb in (("a", "pass"), ("b", None), ("c", None), ("b", "pass"), ("c", "pass"), ("a", "draw")):
        args = ("sync", game, "--as", seat) if verb is None else ("play", game, "--as", seat, verb)
        played.step(seat, *args, at=DAY1)
    played.step("b", "play", game, "--as", "b", "pass", at=DAY1)  # b's share of deck:0; c says nothing
    played.step("a", "timeout", game, "c", "--as", "a")  # c absent: its share of deck:0 is unlocked
    played.step("a", "handover", game, "--as", "a", "--to", "d", str(exported), "--silent", "c")
    played.step("b", "consent", game, "--as", "b")
    played.step("a", "sync", game, "--as", "a")  # the partials of c's share, after the handover
    played.step("b", "sync", game, "--as", "b")
    assert played.hand(played.game, "a")["deck:0"] in hidden_deck_game.CARDS
    assert played.run("a", "verify", game).exit_code == 0
    report = independent_verifier.verify(played.game, DECKS)
    assert report.ok, report.problems
    assert report.counts["partial decryption"] == 2 and report.counts["share unlocked"] == 1
