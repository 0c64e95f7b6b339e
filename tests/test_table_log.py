"""The table log below the command line: replay, undo and redo as a property, the chain."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.companion import log
from pbem.engine import registry
from pbem.errors import GameFileError, IllegalMoveError, PbemError, UsageError
from tests.conftest import potr_components

PLAYERS = ("alice", "bob", "carla")
# A decade of a recorded game; each action depends on those before it (money, troops, hires).
SCRIPT = (
    "alice takes family este for 4",
    "bob takes family gonzaga for 2",
    "carla takes family montefeltro",
    "alice wins city venice/doge for 16",
    "bob wins city naples/merchant for 10",
    "bob wins city naples/fleet for 10",
    "alice buys troop pikemen",
    "bob buys troop infantry",
    "carla wins pope for 4",
    "alice condottiere naples for 2",
    "bob condottiere rome for 1",
    "war naples rome won-by alice double",
    "bob wins event i-botticelli on naples for 4",
    "carla buys card",
    "status florence -1",
    "alice victories +1",
    "income",
)


def new_table(edition: str = "2016") -> log.Table:
    info = registry.get("princes-of-the-renaissance")
    options = info.resolve_options({})
    data = log.new_log(
        info,
        PLAYERS,
        edition=edition,
        options=options,
        components=potr_components(edition),
        table_id="0" * 32,
        created="2026-01-01T00:00:00Z",
    )
    return log.replay(data, "t.toml")


def record_all(table: log.Table, texts: tuple[str, ...] | list[str]) -> log.Table:
    for text in texts:
        table, _ = log.record(table, text, "2026-01-01T00:00:00Z", "host")
    return table


@pytest.fixture(scope="module")
def fresh() -> log.Table:
    return new_table()


def test_the_state_is_the_replay_of_the_log(fresh: log.Table) -> None:
    table = record_all(fresh, SCRIPT)
    replayed = log.replay(copy.deepcopy(table.log), "t.toml")
    assert replayed.tracker.totals(replayed.state) == table.tracker.totals(table.state)
    assert [action["text"] for action in replayed.actions] == list(SCRIPT)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["record", "undo", "redo"]), max_size=40))
def test_any_sequence_of_undo_and_redo_replays_to_the_same_totals(fresh: log.Table, steps: list[str]) -> None:
    """After any mix of recording the script's next action, undo and redo, the table equals a
    fresh table that recorded just the actions left in the log, and the log itself replays."""
    table = fresh
    for step in steps:
        try:
            if step == "record":
                done = len(table.actions)
                if done < len(SCRIPT):
                    table, _ = log.record(table, SCRIPT[done], "2026-01-01T00:00:00Z", "host")
            elif step == "undo":
                table, _ = log.undo(table, "t.toml")
            else:
                table, _ = log.redo(table, "t.toml")
        except UsageError:
            continue  # nothing to undo or redo: the table is unchanged
    texts = [action["text"] for action in table.actions]
    assert texts == list(SCRIPT[: len(texts)])  # the log is always a prefix of what was played
    expected = record_all(fresh, texts)
    assert table.tracker.totals(table.state) == expected.tracker.totals(expected.state)
    assert log.replay(copy.deepcopy(table.log), "t.toml").tracker.totals(
        table.state
    ) == expected.tracker.totals(expected.state)


EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples" / "table").glob("*.toml"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
@settings(max_examples=15, deadline=None)
@given(steps=st.lists(st.sampled_from(["record", "record", "undo", "redo"]), min_size=10, max_size=60))
def test_each_recorded_example_replays_to_the_same_totals_after_any_undo_and_redo(
    example: Path, steps: list[str]
) -> None:
    """Every title: the shipped recorded game, replayed with random undos and redos in between,
    always equals a fresh table that recorded just the actions left in its log."""
    recorded = tomllib.loads(example.read_text())
    header = recorded["table"]
    script = [action["text"] for action in recorded["action"]]
    info = registry.get(header["game"])
    fresh = log.replay(
        log.new_log(
            info,
            header["players"],
            edition=header["edition"],
            options=header["options"],
            components=recorded.get("components", {}),
            table_id="1" * 32,
            created=header["created"],
        ),
        example.name,
    )
    table = fresh
    for step in [*steps, *["record"] * len(script)]:
        try:
            if step == "record" and len(table.actions) < len(script):
                table, _ = log.record(table, script[len(table.actions)], "2026-01-01T00:00:00Z", "host")
            elif step == "undo":
                table, _ = log.undo(table, example.name)
            elif step == "redo":
                table, _ = log.redo(table, example.name)
        except UsageError:
            continue
    texts = [action["text"] for action in table.actions]
    assert texts == script[: len(texts)]
    expected = record_all(fresh, texts)
    assert table.tracker.totals(table.state) == expected.tracker.totals(expected.state)


def test_a_refused_action_changes_nothing(fresh: log.Table) -> None:
    table = record_all(fresh, SCRIPT[:6])
    snapshot = copy.deepcopy(table.log)
    totals = table.tracker.totals(table.state)
    for text in ("bob wins city naples/barons for 9", "status rome 11", "alice condottiere milan for 1"):
        with pytest.raises(PbemError):
            log.record(table, text, "2026-01-01T00:00:00Z", "host")
    assert table.log == snapshot
    assert table.tracker.totals(table.state) == totals


def test_undone_actions_are_kept_and_redo_puts_back_the_latest(fresh: log.Table) -> None:
    table = record_all(fresh, SCRIPT[:3])
    table, first = log.undo(table, "t.toml")
    table, second = log.undo(table, "t.toml")
    assert [action["text"] for action in table.undone] == [SCRIPT[2], SCRIPT[1]]
    table, back = log.redo(table, "t.toml")
    assert back == second and [action["text"] for action in table.actions] == list(SCRIPT[:2])
    table, again = log.redo(table, "t.toml")
    assert again == first and not table.undone


def test_every_action_chains_to_the_header(fresh: log.Table) -> None:
    table = record_all(fresh, SCRIPT[:3])
    changed: dict[str, Any] = copy.deepcopy(table.log)
    changed["table"]["players"] = ["alice", "bob", "mallory"]
    with pytest.raises(GameFileError, match=r"action 1 .* does not chain"):
        log.replay(changed, "t.toml")
    dropped = copy.deepcopy(table.log)
    del dropped["action"][1]
    dropped["action"][1]["seq"] = 2
    with pytest.raises(GameFileError, match=r"action 2 .* does not chain"):
        log.replay(dropped, "t.toml")


def test_a_component_change_is_caught_by_its_hash(fresh: log.Table) -> None:
    changed = copy.deepcopy(fresh.log)
    changed["components"]["city"][0]["status"] = 10
    with pytest.raises(GameFileError, match="does not match its hash"):
        log.replay(changed, "t.toml")


def test_an_action_the_rules_refuse_on_replay_is_named(fresh: log.Table) -> None:
    table = record_all(fresh, SCRIPT[:3])
    forged = copy.deepcopy(table.log)
    forged["action"].append({**forged["action"][-1], "seq": 4, "text": "status venice 12", "prev": table.tip})
    with pytest.raises(GameFileError, match=r"action 4 \('status venice 12'\): refused on replay"):
        log.replay(forged, "t.toml")


def test_the_game_ends_after_decade_three(fresh: log.Table) -> None:
    table = record_all(fresh, ["income", "income", "income"])
    assert table.state.game.ended
    assert table.tracker.income_action(table.state) is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        log.record(table, "alice gets 1 gold", "2026-01-01T00:00:00Z", "host")
