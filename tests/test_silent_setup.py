"""A seat silent before the first card, through the command line: nothing is hidden yet, so after
its deadline the others hand it to a new player, who takes it with keys of its own and deals in
its place, or go on without it where the rules allow the players left, the game set up again.

Princes of Florence with three seats (escrow=others, one-day deadline): c joins, then never deals
its escrow; d takes its seat and the game reaches its first cards. The same with four seats: the
others go on without d. Princes of the Renaissance: d never joins, and the game starts without it.
Il Principe without escrow, the engine's test game with an undo after the drop, and Princes of
Florence with a referee. The clock is set per command (``PBEM_NOW``).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import ledger
from pbem.engine.ruleset import DECK_DEMANDS
from tests import hidden_deck_game, independent_verifier
from tests.conftest import game_ids, make_key_homes
from tests.stages import Played

NEW = "d"
DAY1 = "2026-01-01T00:00:00Z"
EARLY = "2026-01-01T12:00:00Z"  # before any deadline of a one-day game
DAY3 = "2026-01-03T00:00:00Z"  # past the deadlines of DAY1
DAY4 = "2026-01-04T00:00:00Z"
DAY9 = "2026-01-09T00:00:00Z"  # past every deadline of DAY3 and DAY4


def made(played: Played, label: str, game: str, seats: str, *options: str, at: str = DAY1) -> Path:
    """A new game of ``game`` at ``played.game``, made by a, with a one-day deadline."""
    args = [opt for option in options for opt in ("--option", option)]
    with game_ids(label):
        played.step(
            "a", "new", str(played.game), "--game", game, "--players", seats, "--as", "a",
            "--option", "deadline_days=1", *args, at=at,
        )  # fmt: skip
    return played.game


def settled(played: Played, game: Path, at: str, homes: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The game once every seat (and a referee) has given what it owes the hidden decks, each in
    its own home (``homes``: the home that now plays a seat); its status then."""
    homes = homes or {}
    for _ in range(30):
        report: dict[str, Any] = json.loads(played.step("a", "status", str(game), "--json", at=at).stdout)
        owing = [item["seat"] for item in report["waiting"] if item["kind"] in DECK_DEMANDS]
        if not owing:
            return report
        seat = owing[0]
        home = homes.get(seat, seat)
        verb = "referee" if seat == "r" else "sync"
        played.step(home, verb, str(game), "--as", seat, "--key", home, at=at)
    raise AssertionError("the hidden decks still owe something after 30 entries")


def read(path: Path) -> ledger.Ledger:
    return ledger.read(tomllib.loads(path.read_text(encoding="utf-8")))


def independently(path: Path, cards: Mapping[str, list[str]] | None = None) -> independent_verifier.Report:
    report = independent_verifier.verify(path, cards)
    assert report.ok, report.problems
    return report


# --- Princes of Florence, three seats: c silent at its escrow, handed to d ----------------------
@pytest.fixture(scope="module")
def florence(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("silent-setup")
    make_key_homes(root, ("a", "b", "c", NEW, "e"))
    played = Played(root, DAY3)
    exported = root / "d.id"
    exported.write_text(played.step(NEW, "key", "export", NEW).stdout, encoding="utf-8")
    (root / "e.id").write_text(played.step("e", "key", "export", "e").stdout, encoding="utf-8")
    game = str(made(played, "silent setup florence", "florence", "a,b,c"))
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    for seat in ("a", "b", "a"):  # c never deals its escrow, nor shuffles
        played.step(seat, "sync", game, "--as", seat, at=DAY1)
    played.keep("c silent")
    played.stages["early status"] = played.step("a", "status", game, at=EARLY).stdout
    played.stages["status"] = played.step("a", "status", game).stdout
    played.stages["status json"] = played.step("a", "status", game, "--json").stdout
    played.stages["timeout"] = played.run("a", "timeout", game, "c", "--as", "a").stderr
    played.step("a", "handover", game, "--as", "a", "--to", NEW, str(exported), "--silent", "c")
    played.keep("proposed")
    played.step("b", "consent", game, "--as", "b")
    played.keep("handed")
    played.step(NEW, "join", game, "--as", "c", "--key", NEW)
    played.keep("rejoined")
    played.stages["dealt status"] = json.dumps(settled(played, played.game, DAY3, {"c": NEW}))
    played.keep("dealt")
    return played


def test_status_offers_the_others_both_ways_on_once_the_deadline_has_passed(florence: Played) -> None:
    assert "silent past its deadline" not in florence.stages["early status"]
    said = florence.stages["status"]
    assert "c            silent past its deadline (2026-01-02T00:00:00Z) before the first card" in said
    assert f"pbem handover {florence.game} --as a --to NAME KEYFILE --silent c" in said
    # two players of Princes of Florence need its unofficial rules, which this game was not made with
    assert "princes-of-florence with 2 players needs --option unofficial_rules=true" in said
    [silent] = json.loads(florence.stages["status json"])["silent"]
    assert silent["seat"] == "c" and silent["joined"] and silent["go_on_without"] is None
    assert silent["hand_over"] == f"pbem handover {florence.game} --as a --to NAME KEYFILE --silent c"


def test_a_timeout_against_the_silent_escrow_says_where_the_ways_on_are(florence: Played) -> None:
    assert "c owes the escrow of the deck secrets" in florence.stages["timeout"]
    assert "pbem status says how" in florence.stages["timeout"]


def test_the_new_player_joins_deals_and_the_game_reaches_its_first_cards(florence: Played) -> None:
    rejoin = tomllib.loads(florence.stages["rejoined"])["entry"][-1]
    assert (rejoin["kind"], rejoin["by"]) == ("rejoin", "c")
    assert {"deck_key", "deck_key_proof", "escrow_key", "escrow_key_proof"} <= set(rejoin)
    handed = read(florence.file("handed", "handed")).handovers["c"][-1]
    assert handed.anew and handed.holder == NEW
    report = json.loads(florence.stages["dealt status"])
    assert [item["kind"] for item in report["waiting"]] == ["move"] * 3  # each returns a profession card
    game = florence.file("dealt", "dealt")
    for seat, home in (("a", "a"), ("b", "b"), ("c", NEW)):
        hand = florence.hand(game, seat, home)
        assert len(hand) == 4 and all(hand.values()), hand  # four profession cards each can read
    verified = florence.run("a", "verify", str(game))
    assert verified.exit_code == 0, verified.stderr
    assert "(entry 7: handed on to d)" in verified.stdout
    checked = independently(game)
    assert checked.counts["seat set up anew"] == 1 and checked.counts["handover by consent"] == 1


def test_the_log_says_the_decks_are_set_up_again(florence: Played) -> None:
    game = florence.file("dealt", "logged")
    said = florence.step("a", "log", str(game)).stdout
    assert "the hidden decks are set up again, with c's new player's keys" in said
    assert "dealt its deck secret in escrow; acknowledged the escrow of a, b" in said


def test_the_silent_players_key_signs_nothing_after_the_handover(florence: Played) -> None:
    game = florence.file("rejoined", "impostor")
    refused = florence.run("c", "sync", str(game), "--as", "c")
    assert refused.exit_code != 0 and "no longer signs for c" in refused.stderr


@pytest.mark.parametrize(
    ("stage", "home", "command", "at", "said"),
    [
        (
            "c silent",
            "a",
            ("handover", "--as", "a", "--to", NEW, "ID", "--silent", "c"),
            EARLY,
            "error: c's deadline is 2026-01-02T00:00:00Z: the others may stand in for it only after it",
        ),
        (
            "c silent",
            "a",
            ("drop", "c", "--as", "a"),
            EARLY,
            "error: the game cannot go on without c: princes-of-florence with 2 players needs --option "
            "unofficial_rules=true",
        ),
        (
            "c silent",
            "c",
            ("drop", "c", "--as", "c"),
            DAY3,
            "error: c cannot propose going on without itself: name another seat of the game",
        ),
        (
            "c silent",
            "c",
            ("handover", "--as", "c", "--to", NEW, "ID", "--silent", "c"),
            DAY3,
            "error: c cannot hand on 'c': name another seat of the game",
        ),
        (
            "proposed",
            "b",
            ("handover", "--as", "b", "--to", NEW, "ID", "--silent", "c"),
            DAY3,
            "error: play is paused: a proposed handing c's seat on to d, waiting for b to consent or "
            "decline (pbem consent)",
        ),
        (
            "dealt",
            "a",
            ("drop", "b", "--as", "a"),
            DAY9,
            "error: the first cards have been dealt: the others go on without a seat only before them (a "
            "timeout stands in for b now: pbem timeout FILE b --as a)",
        ),
        (
            "dealt",
            "a",
            ("handover", "--as", "a", "--to", "e", "E", "--silent", "b"),
            DAY9,
            "error: b has let no deadline pass (no timeout was claimed against it)",
        ),
    ],
    ids=[
        "before-deadline",
        "too-few",
        "by-itself",
        "itself-handover",
        "second",
        "after-card",
        "after-card-2",
    ],
)
def test_refusals_are_one_line_and_leave_the_file_as_it_was(
    florence: Played, stage: str, home: str, command: tuple[str, ...], at: str, said: str
) -> None:
    game = florence.file(stage, "refused")
    keys = {"ID": florence.root / "d.id", "E": florence.root / "e.id"}
    args = [str(keys[word]) if word in keys else word for word in command]
    refused = florence.run(home, args[0], str(game), *args[1:], at=at)
    assert refused.exit_code == 2, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(said), lines
    assert game.read_text(encoding="utf-8") == florence.stages[stage]


# --- Princes of Florence, four seats: the others go on without d ---------------------------------
@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("silent-setup-four")
    make_key_homes(root, ("a", "b", "c", "d"))
    played = Played(root, DAY3)
    game = str(made(played, "silent setup four", "florence", "a,b,c,d"))
    for seat in ("b", "c", "d"):
        played.step(seat, "join", game, "--as", seat, at=DAY1)
    for seat in ("a", "b", "c"):  # d never deals its escrow
        played.step(seat, "sync", game, "--as", seat, at=DAY1)
    played.keep("d silent")
    played.stages["proposal"] = played.step("a", "drop", game, "d", "--as", "a").stderr
    played.step("b", "consent", game, "--as", "b")
    played.stages["last consent"] = played.step("c", "consent", game, "--as", "c").stderr
    played.keep("without d")
    played.stages["status"] = played.step("a", "status", game).stdout
    played.stages["log"] = played.step("a", "log", game).stdout
    played.stages["dealt status"] = json.dumps(settled(played, played.game, DAY3))
    played.keep("dealt")
    return played


def test_the_others_go_on_without_a_silent_seat_and_the_game_is_set_up_again(four: Played) -> None:
    assert (
        "a proposed going on without d (entry 7); play waits for b, c to consent" in four.stages["proposal"]
    )
    assert "the game goes on without d: set up again for a, b, c" in four.stages["last consent"]
    without = read(four.file("without d", "without"))
    assert without.seats == ("a", "b", "c") and without.dropped == {"d": 9}
    assert without.table is not None and without.table.decks is not None
    assert without.table.decks.seats == ("a", "b", "c") and without.table.decks.escrow is not None
    assert without.table.decks.escrow.threshold == 2 and not without.table.decks.escrow.dealings
    # every seat left deals its escrow again, to the seats left, and the decks start unshuffled
    assert (
        "  a            deal your deck secret in escrow to the other seats; shuffle" in four.stages["status"]
    )
    assert "   9  c            consent    agreed to going on without d (entry 7)" in four.stages["log"]
    assert "the game goes on without d: set up again for a, b, c" in four.stages["log"]


def test_the_game_without_the_seat_reaches_its_first_cards_and_verifies(four: Played) -> None:
    game = four.file("dealt", "dealt-four")
    shown = json.loads(four.step("a", "show", str(game), "--json").stdout)
    assert [player["seat"] for player in shown["players"]] == ["a", "b", "c"]
    assert len(four.hand(game, "a")) == 4
    verified = four.run("a", "verify", str(game))
    assert verified.exit_code == 0, verified.stderr
    assert (
        "  d                " in verified.stdout
        and "the others went on without it in entry 9" in verified.stdout
    )
    text = tomllib.loads(game.read_text(encoding="utf-8"))
    assert text["game"]["seats"] == ["a", "b", "c"] and text["roster"]["d"]["dropped"] == 9
    checked = independently(game)
    assert checked.counts["seat gone on without"] == 1


def test_the_dropped_seat_signs_nothing_more(four: Played) -> None:
    game = four.file("without d", "gone")
    refused = four.run("d", "sync", str(game), "--as", "d")
    assert refused.exit_code == 2 and "d is no longer in the game" in refused.stderr, refused.stderr


def test_a_copy_from_before_the_drop_merges_into_the_game_after_it(four: Played) -> None:
    before = four.file("d silent", "before-drop")
    after = four.file("without d", "after-drop")
    merged = four.run("a", "merge", str(after), str(before))
    assert merged.exit_code == 0, merged.stderr
    assert after.read_text(encoding="utf-8") == four.stages["without d"]


# --- Princes of the Renaissance: d never joins ---------------------------------------------------
@pytest.fixture(scope="module")
def unjoined(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("silent-setup-unjoined")
    make_key_homes(root, ("a", "b", "c", "d", "e"))
    played = Played(root, DAY3)
    game = str(made(played, "silent setup potr", "potr", "a,b,c,d"))
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    played.keep("d never joined")
    played.stages["early"] = played.run("a", "drop", game, "d", "--as", "a", at=EARLY).stderr
    played.stages["status"] = played.step("a", "status", game).stdout
    played.step("a", "drop", game, "d", "--as", "a")
    played.stages["asked status"] = played.step("a", "status", game).stdout
    played.stages["second"] = played.run("b", "drop", game, "d", "--as", "b").stderr
    played.step("b", "consent", game, "--as", "b", "--decline")
    played.keep("declined")
    played.step("a", "drop", game, "d", "--as", "a")
    played.step("b", "consent", game, "--as", "b")
    played.stages["last consent"] = played.step("c", "consent", game, "--as", "c").stderr
    played.keep("started")
    return played


def test_a_seat_that_never_joined_is_gone_on_without_after_the_deadline_to_join(unjoined: Played) -> None:
    assert "d's deadline to join is 2026-01-02T00:00:00Z" in unjoined.stages["early"]
    said = unjoined.stages["status"]
    assert "d            has not joined by its deadline (2026-01-02T00:00:00Z); the others may" in said
    assert f"let a new player take the seat, with their own key: pbem join {unjoined.game} --as d" in said
    assert f"go on without it (the others consent): pbem drop {unjoined.game} d --as a" in said
    assert f"pbem consent {unjoined.game} --as b" in unjoined.stages["asked status"]
    assert unjoined.stages["second"] == (
        "error: a proposed going on without d already (entry 3), waiting for consent (pbem consent)\n"
    )
    assert read(unjoined.file("declined", "declined")).asked is None
    assert "the game goes on without d: it starts for a, b, c" in unjoined.stages["last consent"]
    game = unjoined.file("started", "started")
    started = read(game)
    assert started.seats == ("a", "b", "c") and started.table is not None
    assert started.table.state.seats == ("a", "b", "c")
    assert "setup draw" in unjoined.step("a", "status", str(game)).stdout
    assert unjoined.run("a", "verify", str(game)).exit_code == 0
    checked = independently(game)
    assert checked.counts["drop proposed"] == 2 and checked.counts["seat gone on without"] == 1


def test_a_new_player_takes_a_seat_never_joined_by_joining_it(unjoined: Played) -> None:
    game = unjoined.file("d never joined", "newcomer")
    joined = unjoined.run("e", "join", str(game), "--as", "d", "--key", "e")
    assert joined.exit_code == 0, joined.stderr
    assert read(game).table is not None


def test_the_others_cannot_hand_on_a_seat_that_never_joined(unjoined: Played) -> None:
    game = unjoined.file("d never joined", "no-key")
    exported = unjoined.root / "e.id"
    exported.write_text(unjoined.step("e", "key", "export", "e").stdout, encoding="utf-8")
    refused = unjoined.run(
        "a", "handover", str(game), "--as", "a", "--to", "e", str(exported), "--silent", "d"
    )
    assert refused.exit_code == 2 and "d has not joined, so it has no key to hand on" in refused.stderr


# --- Il Principe without escrow: c never shuffles -------------------------------------------------
def test_without_escrow_the_others_go_on_without_a_seat_silent_at_its_shuffle(tmp_path: Path) -> None:
    make_key_homes(tmp_path, ("a", "b", "c"))
    played = Played(tmp_path, DAY3)
    game = str(made(played, "silent setup principe", "principe", "a,b,c", "escrow=none"))
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    for seat in ("a", "b"):
        played.step(seat, "play", game, "--as", seat, "roll", at=DAY1)  # their randomness and shuffles
    played.step("a", "timeout", game, "c", "--as", "a")  # c's randomness: the others go on without it
    refused = played.run("a", "timeout", game, "c", "--as", "a")  # its shuffle: nobody can stand in
    assert refused.exit_code == 1 and "c owes the hidden deck its shuffle" in refused.stderr, refused.stderr
    before = read(played.game)
    played.step("a", "drop", game, "c", "--as", "a")
    assert "set up again for a, b" in played.step("b", "consent", game, "--as", "b").stderr
    settled(played, played.game, DAY3)
    without = read(played.game)
    assert before.table is not None and before.table.decks is not None
    assert (
        without.table is not None and without.table.decks is not None and without.table.decks.escrow is None
    )
    # a game of two leaves cards of each colour out of the deck, as its rules say
    two, three = (len(game.table.decks.decks["building"].cards) for game in (without, before))  # type: ignore[union-attr]
    assert two < three
    assert played.run("a", "verify", game).exit_code == 0
    independently(played.game)


# --- the engine's test game: an undo after the others went on without a seat -----------------------
@pytest.fixture
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.mark.usefixtures("_test_game")
def test_an_undo_after_a_drop_asks_only_the_seats_left(tmp_path: Path) -> None:
    make_key_homes(tmp_path, ("a", "b", "c", "d"))
    played = Played(tmp_path, DAY3)
    game = str(made(played, "silent setup undo", hidden_deck_game.NAME, "a,b,c,d", "escrow=others"))
    for seat in ("b", "c", "d"):
        played.step(seat, "join", game, "--as", seat, at=DAY1)
    played.step("a", "play", game, "--as", "a", "pass", at=DAY1)  # a move before the first card
    played.step("a", "drop", game, "d", "--as", "a")
    played.step("b", "consent", game, "--as", "b")
    played.step("c", "consent", game, "--as", "c")
    played.step("a", "play", game, "--as", "a", "pass", at=DAY4)
    played.step("a", "undo", game, "--as", "a", at=DAY4)
    played.step("b", "consent", game, "--as", "b", at=DAY4)
    said = played.step("c", "consent", game, "--as", "c", at=DAY4).stderr
    undone = read(played.game)
    assert "is undone" in said and len(undone.void) == 1, said
    assert undone.table is not None and undone.table.last_play is None
    cards = {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)}
    assert independent_verifier.void_moves(
        tomllib.loads(played.game.read_text(encoding="utf-8"))["entry"]
    ) == (undone.void)
    independently(played.game, cards)


# --- Princes of Florence with a referee: c silent at its escrow, handed to d ----------------------
def test_with_a_referee_the_new_player_deals_to_the_referee_in_the_silent_seats_place(tmp_path: Path) -> None:
    make_key_homes(tmp_path, ("a", "b", "c", NEW, "r"))
    played = Played(tmp_path, DAY3)
    referee, exported = tmp_path / "r.id", tmp_path / "d.id"
    referee.write_text(played.step("r", "key", "export", "r").stdout, encoding="utf-8")
    exported.write_text(played.step(NEW, "key", "export", NEW).stdout, encoding="utf-8")
    with game_ids("silent setup referee"):
        played.step(
            "a", "new", str(played.game), "--game", "florence", "--players", "a,b,c", "--as", "a",
            "--option", "deadline_days=1", "--option", "escrow=referee", "--referee", "r", str(referee),
            at=DAY1,
        )  # fmt: skip
    game = str(played.game)
    for seat in ("b", "c"):
        played.step(seat, "join", game, "--as", seat, at=DAY1)
    played.step("r", "referee", game, "--as", "r", at=DAY1)
    for seat in ("a", "b"):
        played.step(seat, "sync", game, "--as", seat, at=DAY1)
    played.step("r", "referee", game, "--as", "r", at=DAY1)
    played.step("a", "handover", game, "--as", "a", "--to", NEW, str(exported), "--silent", "c")
    played.step("b", "consent", game, "--as", "b")
    played.step(NEW, "join", game, "--as", "c", "--key", NEW)
    rejoin = tomllib.loads(played.game.read_text(encoding="utf-8"))["entry"][-1]
    assert "deck_key" in rejoin and "escrow_key" not in rejoin  # the referee holds the escrow
    report = settled(played, played.game, DAY3, {"c": NEW})
    assert [item["kind"] for item in report["waiting"]] == ["move"] * 3
    assert all(played.hand(played.game, "c", NEW).values())
    assert played.run("a", "verify", game).exit_code == 0
    independently(played.game)


@pytest.mark.usefixtures("_test_game")
def test_without_escrow_a_seat_silent_at_its_shuffle_is_handed_to_a_new_player(tmp_path: Path) -> None:
    make_key_homes(tmp_path, ("a", "b", "c", NEW))
    played = Played(tmp_path, DAY3)
    exported = tmp_path / "d.id"
    exported.write_text(played.step(NEW, "key", "export", NEW).stdout, encoding="utf-8")
    game = str(made(played, "silent setup no escrow", hidden_deck_game.NAME, "a,b,c", "escrow=none"))
    for seat in ("b", "c"):
        played.step(seat, "join", game, "--as", seat, at=DAY1)
    for seat in ("a", "b"):  # c never shuffles: without escrow nobody may stand in for it
        played.step(seat, "sync", game, "--as", seat, at=DAY1)
    refused = played.run("a", "timeout", game, "c", "--as", "a")
    assert refused.exit_code == 1 and "which no default can stand in for" in refused.stderr
    played.step("a", "handover", game, "--as", "a", "--to", NEW, str(exported), "--silent", "c")
    played.step("b", "consent", game, "--as", "b")
    played.step(NEW, "join", game, "--as", "c", "--key", NEW)
    rejoin = tomllib.loads(played.game.read_text(encoding="utf-8"))["entry"][-1]
    assert "deck_key" in rejoin and "escrow_key" not in rejoin
    settled(played, played.game, DAY3, {"c": NEW})
    played.step("a", "play", game, "--as", "a", "draw")
    settled(played, played.game, DAY3, {"c": NEW})  # b's and d's shares of a's card
    assert all(played.hand(played.game, "a").values())
    assert played.run("a", "verify", game).exit_code == 0
    independently(played.game, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)})
