"""Replay settles the table after every entry (events decided, decks dealt, demands noted), except
after a note that follows an entry which settled with nothing pending and no seat stood in: such a
note changes nothing settling reads, and the step after it begins with the table as the note's
step began but for its link. Proved here by replaying games with notes everywhere (while a random
event waits for contributions, which a note's link gives, several in a row, with deadlines
running) both ways: the same ledger (the table as the last step began included), the same
problems, the same state after every entry."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine import table as tables
from pbem.engine.ruleset import DECK_DEMANDS
from tests.conftest import Cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def settle_always(self: Any, entry: dict[str, Any]) -> None:
    """What replay did after every entry before notes were let through."""
    ledger = self.ledger
    if ledger is not None and ledger.table is not None and ledger.rules is not None:
        tables.settle(ledger.rules, ledger.table, entry["seq"])
        tables.track(ledger.rules, ledger.table, entry["at"], ledger.deadline_days)
        tables.note_asked(ledger.rules, ledger.table, len(ledger.entries) - 1)


def assert_same_both_ways(path: Path) -> tuple[int, int]:
    """The file replayed with and without the shortcut gives the same; how many settles and
    snapshots of the table it saved."""
    data = gamefile.load(path).data
    settles = mock.patch.object(tables, "settle", wraps=tables.settle)
    snapshots = mock.patch.object(tables.Table, "snapshot", autospec=True, side_effect=tables.Table.snapshot)
    with settles as settled, snapshots as copied:
        quick = ledger_mod.audit(data)
        quick_states = ledger_mod.states(data)
    with mock.patch.object(ledger_mod._Replay, "_settle", settle_always), snapshots as copied_before:
        slow = ledger_mod.audit(data)
        slow_states = ledger_mod.states(data)
    assert quick.problems == slow.problems
    assert quick.ledger == slow.ledger
    assert quick.ledger is not None and slow.ledger is not None
    assert quick.ledger.table == slow.ledger.table
    assert quick_states == slow_states
    return 2 * len(data["entry"]) - settled.call_count, copied_before.call_count - copied.call_count


def play_with_notes(cli: Cli, game: Path, seats: tuple[str, ...], turns: int) -> None:
    """Whoever is asked does the first thing it may, then one to three notes follow."""
    for turn in range(turns):
        waiting = json.loads(cli("status", str(game), "--json", home=seats[0]).stdout)["waiting"]
        if not waiting:
            return
        seat, kind = waiting[0]["seat"], waiting[0]["kind"]
        if kind == "reveal":
            result = cli("reveal", str(game), "--as", seat, home=seat)
        elif kind in DECK_DEMANDS:
            result = cli("sync", str(game), "--as", seat, home=seat)
        else:  # a move, a sealed choice, a roll: the first the seat may make
            moves = json.loads(cli("moves", str(game), "--as", seat, "--json", home=seat).stdout)["moves"]
            result = cli("play", str(game), *moves[0].split(), "--as", seat, home=seat)
        assert result.exit_code == 0, result.stderr
        for count in range(1 + turn % 3):  # one to three notes in a row, each a step of its own
            writer = seats[(turn + count) % len(seats)]
            result = cli("note", str(game), f"turn {turn}", "--as", writer, home=writer)
            assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("options", [(), ("deadline_days=3",)], ids=["no deadlines", "deadlines"])
def test_notes_between_moves_replay_the_same(
    cli: Cli, make_game: Callable[..., Path], options: tuple[str, ...]
) -> None:
    seats = ("a", "b", "c")
    # notes before the setup draw has every seat's randomness: each note's link is a contribution
    game = make_game(seats=seats, notes=(("a", "first"), ("b", "second")), options=options)
    play_with_notes(cli, game, seats, turns=12)
    settles, snapshots = assert_same_both_ways(game)
    assert settles > 0 and snapshots > 0


@pytest.mark.parametrize("name", ["three-players.toml", "four-players.toml", "principe-four-players.toml"])
def test_the_examples_replay_the_same(name: str) -> None:
    assert_same_both_ways(EXAMPLES / name)
