"""One deadline, one timeout: a seat that goes silent costs the others at most one deadline per
round (option timeouts=absent, what new games have). The one claim makes the seat absent: its
sealed choice and moves are the rules' defaults, its shares are unlocked from the escrow and its
default that shows cards is made once the others' partials are in, all with no further claim,
until it signs an entry again. `pbem status` says OVERDUE only where `pbem timeout` is taken
then, with that command; a seat that waits for the silent one's shares is never overdue.

A four-player game of Il Principe is played through the signed ledger with seeded keys, escrow
and one-day deadlines; cat answers nothing from round 2. Whenever nobody else can act, the clock
passes cat's deadline and ann claims the timeout through the command line (tests/silent_seat.py),
after `pbem status` in text and JSON. The game is the same on every run.
"""

from __future__ import annotations

import json
import random
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import Demand
from pbem.errors import IllegalMoveError
from pbem.kit import templates
from tests import independent_verifier
from tests.conftest import make_key_homes, run_cli, seeded_keys
from tests.silent_seat import Clock, Silence, play_on

SEATS = ("ann", "ben", "cat", "dan")
SILENT = "cat"
START = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)


@dataclass
class Course:
    """A game played with one seat silent: the game, what the others did for the silent seat, the
    file, and what `pbem status` said (JSON and text) before each timeout was claimed."""

    game: Ledger
    silence: Silence
    path: Path
    said: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def round_of(game: Ledger) -> int:
    assert game.table is not None
    return int(game.table.state.round)


def principe(root: Path, timeouts: str, *, last_round: int | None = None) -> Course:
    """Il Principe played by SEATS until it ends (or reaches ``last_round``), cat silent from
    round 2, each timeout claimed with `pbem timeout` in ann's home."""
    from tests.games.il_principe.test_ledger import choose as pick
    from tests.games.il_principe.test_ledger import sound

    make_key_homes(root, SEATS)
    keys = {seat: seeded_keys(seat) for seat in SEATS}
    clock = Clock(START)
    components = templates.values(gamefile.shipped_template("il-principe"))
    options = {"deadline_days": "1", "escrow": "others", "timeouts": timeouts}
    setup = ledger.plan(
        game="il-principe", edition="standard", options=options, seats=list(SEATS), creator=SEATS[0]
    )
    game = ledger.new_game(setup, keys[SEATS[0]], at=clock.tick(), nonce=f"{7:032x}", components=components)
    for seat in SEATS[1:]:
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    course = Course(game, Silence(), root / "game.toml")
    rnd = random.Random(7)

    def mover(game: Ledger, demand: Demand, secret: SecretKeys, at: str) -> Ledger | None:
        hand = play.hidden_hand(game, demand.seat, secret)
        _, moves = play.legal(game, demand.seat, hand)
        assert game.table is not None
        state = game.table.state
        if None in hand.values() or not any(sound(state, text, hand) for text in moves):
            return None  # a player reads every card it holds before it chooses
        return play.play(game, demand.seat, pick(rnd, state, demand, moves, hand), secret, at)[0]

    def claim(game: Ledger, claimant: str, at: str) -> tuple[Ledger, dict[str, Any]]:
        course.path.write_text(
            gamefile.render_new(game.header(), game.roster_table(), components, game.entries, ()),
            encoding="utf-8",
        )
        home, env = root / claimant, {"PBEM_NOW": at}
        shown = run_cli(home, "status", str(course.path), "--json", env=env)
        text = run_cli(home, "status", str(course.path), env=env)
        course.said.append((json.loads(shown.stdout), text.stdout))
        result = run_cli(home, "timeout", str(course.path), SILENT, "--as", claimant, env=env)
        if result.exit_code != 0:
            raise IllegalMoveError(result.stderr)
        entry = tomllib.loads(course.path.read_text(encoding="utf-8"))["entry"][-1]
        return ledger.admit(game, entry), entry

    assert game.rules is not None
    rules = game.rules
    course.game, course.silence = play_on(
        game,
        keys,
        silent=SILENT,
        quiet=lambda game: round_of(game) >= 2,
        over=lambda game: (
            game.table is not None
            and (rules.over(game.table.state) or (last_round is not None and round_of(game) >= last_round))
        ),
        mover=mover,
        clock=clock,
        days=1,
        claim=claim,
        stage=round_of,
    )
    course.path.write_text(
        gamefile.render_new(
            course.game.header(), course.game.roster_table(), components, course.game.entries, ()
        ),
        encoding="utf-8",
    )
    return course


@pytest.fixture(scope="module")
def absent(tmp_path_factory: pytest.TempPathFactory) -> Course:
    return principe(tmp_path_factory.mktemp("one-deadline"), "absent")


def test_a_silent_seat_costs_the_others_one_deadline_for_the_rest_of_the_game(absent: Course) -> None:
    game = absent.game
    assert game.table is not None and game.rules is not None and game.rules.over(game.table.state)
    # one deadline lost in round 2, none in rounds 3 to the end: one claim in the whole game
    assert dict(absent.silence.lost) == {2: 1}
    assert [entry["kind"] for entry in game.entries].count("timeout") == 1
    assert game.table.absent == {SILENT} and game.table.missed == {SILENT: 1}
    # its shares were unlocked and its reserves shown for it, by the others' partials alone
    shown = [entry for entry in game.entries if entry.get("face_up")]
    assert any(entry["by"] != SILENT for entry in shown)
    partials = [item for entry in game.entries for item in entry.get("escrow_partials", [])]
    assert {item["seat"] for item in partials} == {SILENT} and len(partials) >= 3 * 4
    assert run_cli(absent.path.parent / "ann", "verify", str(absent.path)).exit_code == 0
    report = independent_verifier.verify(absent.path)
    assert report.ok, report.problems
    assert report.counts["timeout"] == 1 and report.counts["share unlocked"] > 0


def test_status_says_overdue_only_for_the_silent_seat_with_the_command(absent: Course) -> None:
    (shown, text), *_ = absent.said
    path = absent.path
    command = f"pbem timeout {path} {SILENT} --as ann"
    overdue = [item for item in shown["waiting"] if item["overdue"]]
    assert [(item["seat"], item["timeout"]) for item in overdue] == [(SILENT, command)]
    # the others wait for cat's shares to read their cards: not overdue, and on no clock
    blocked = [item for item in shown["waiting"] if item["waiting_for_shares"]]
    assert {item["seat"] for item in blocked} == {"ann", "ben", "dan"}
    for item in blocked:
        assert item["deadline"] is None and item["timeout"] is None
        assert all(SILENT in seats for seats in item["waiting_for_shares"].values())
    assert text.count("OVERDUE") == 1 and f"OVERDUE: {command}\n" in text
    assert "(cannot act on it yet: building:" in text and f"wait for the shares of {SILENT})" in text


def test_after_the_claim_the_others_play_on_and_nobody_is_overdue(absent: Course, tmp_path: Path) -> None:
    data = tomllib.loads(absent.path.read_text(encoding="utf-8"))
    claim = next(index for index, entry in enumerate(data["entry"]) if entry["kind"] == "timeout")
    cut = tmp_path / "claimed.toml"
    audit = ledger.audit({**data, "entry": data["entry"][: claim + 1]})
    assert audit.ledger is not None
    cut.write_text(
        gamefile.render_new(
            audit.ledger.header(), audit.ledger.roster_table(), data["components"], audit.ledger.entries, ()
        ),
        encoding="utf-8",
    )
    late = "2026-06-30T00:00:00Z"  # long after every deadline
    shown = json.loads(run_cli(tmp_path, "status", str(cut), "--json", env={"PBEM_NOW": late}).stdout)
    assert shown["absent"] == [SILENT]
    assert not any(item["overdue"] for item in shown["waiting"])
    # what cat owed the decks is now the others' partials, each riding in their next entry
    assert {item["seat"] for item in shown["waiting"] if item["kind"] == "unlock"} == {"ann", "ben", "dan"}
    assert not any(item["seat"] == SILENT for item in shown["waiting"])
    text = run_cli(tmp_path, "status", str(cut), env={"PBEM_NOW": late}).stdout
    assert f"{SILENT} is absent (a timeout was claimed against it)" in text and "OVERDUE" not in text
    make_key_homes(tmp_path, ["ann"])  # a home that has not seen the game go on past the claim
    refused = run_cli(tmp_path / "ann", "timeout", str(cut), SILENT, "--as", "ann", env={"PBEM_NOW": late})
    assert (refused.exit_code, refused.stderr) == (1, f"error: {SILENT} owes nothing now\n")


def test_a_game_that_takes_a_claim_per_demand_keeps_doing_so(tmp_path: Path) -> None:
    """timeouts=demand (what a genesis made before the option means): the claim for cat's reserve
    leaves its shares owed, and the others wait again for each of them."""
    course = principe(tmp_path, "demand", last_round=3)
    assert course.silence.lost[2] > 1, course.silence.lost
    assert course.game.table is not None and course.game.table.absent == set()
