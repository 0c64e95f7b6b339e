"""The fuzzer on a small scale: malformed files made from the shipped example game, the table logs,
an identity and a short game, each put through ``pbem verify`` and one other reading command in
turn. No command ends in a traceback; every failure is an ``error:`` line with a documented exit
code, and leaves the file as it was. ``benchmarks/bench_fuzz.py`` puts thousands through every
command."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from unittest import mock

import pytest

from tests import fuzzing, mutations
from tests.fuzzing import BREAKERS, COMMANDS, Fuzzer, Seed

FILES = 180
SEED = 2026


@pytest.fixture(scope="module")
def seeds() -> list[Seed]:
    notes = mutations.notes_game("77" * 16)
    return fuzzing.file_seeds([fuzzing.game_seed("notes", notes.data, "ben")])


def test_malformed_files_never_crash_a_command(seeds: list[Seed], tmp_path: Path) -> None:
    made = fuzzing.fuzzed(seeds, FILES, SEED)
    fuzzer = Fuzzer(tmp_path, mutations.SEATS)
    for item in made:
        other = COMMANDS[1 + item.number % (len(COMMANDS) - 1)]
        fuzzer.run(item, fuzzing.good_copy(item.seed, tmp_path), ["verify", other])
    findings = fuzzer.findings
    assert findings.crashes == [], findings.crashes[0]
    assert findings.anomalies == [], findings.anomalies[:5]
    assert (findings.files, findings.runs) == (FILES, 2 * FILES)
    # The sample reaches past the parser: some broken files still read (a layout, a comment), and
    # the commands refuse the others in each of their ways.
    codes = findings.histogram()
    assert codes[0] > 0 and codes[3] > FILES // 2 and codes[4] > 0, codes
    assert {command for command, _ in findings.exits} == set(COMMANDS)
    assert set(BREAKERS) <= {name for item in made for name in item.how}


def test_the_fuzzer_reports_a_crash_and_a_silent_failure(seeds: list[Seed], tmp_path: Path) -> None:
    """The harness can fail: an exception escaping a command is a crash with its traceback, and a
    failure without an error line is an anomaly."""
    item = fuzzing.fuzzed(seeds, 1, SEED)[0]
    fuzzer = Fuzzer(tmp_path, mutations.SEATS)
    with mock.patch("pbem.gamefile.parse", side_effect=RuntimeError("boom")):
        fuzzer.run(item, fuzzing.good_copy(item.seed, tmp_path), ["verify", "status"])
    assert len(fuzzer.findings.crashes) == 2
    assert "RuntimeError: boom" in fuzzer.findings.crashes[0]
    assert fuzzer.findings.exits == Counter({("verify", -1): 1, ("status", -1): 1})
    with mock.patch("pbem.cli.common.fail", lambda message, code: SystemExit(code)):
        fuzzer.run(item, fuzzing.good_copy(item.seed, tmp_path), ["status"])
    assert any("without an error line" in line for line in fuzzer.findings.anomalies)
