"""The tamper harness on a small scale: every class of mutation in ``tests/mutations.py``, at seeded
random places in the shipped three-player example and in a game played here through the signed
ledger, is caught by the audit where it was made, and ``pbem verify`` prints the same first
problem. ``benchmarks/bench_tamper.py`` runs thousands of them and prints the counts."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.engine.ledger import KIND_FIELDS
from tests import mutations
from tests.mutations import CAUGHT, CLASSES, MISNAMED, MISSED, NULL, NULL_CLASSES, Mutation, Sound, Tally

PER_CLASS = 6
SEED = 2026


@pytest.fixture(scope="module")
def played() -> Sound:
    return mutations.played_game(40, handover=True)


@pytest.fixture(scope="module")
def example() -> Sound:
    return mutations.from_file(mutations.EXAMPLE)


@pytest.fixture(scope="module")
def donor() -> Sound:
    return mutations.notes_game("77" * 16)


def report(tally: Tally) -> str:
    return "\n".join(
        f"{mutation.kind}: {mutation.what}: {verdict.outcome}: {verdict.problem or verdict.detail}"
        for mutation, verdict in tally.failures
    )


def test_the_played_game_holds_every_kind_of_entry(played: Sound) -> None:
    """So that every class finds places to mutate: every entry kind, what the hidden deck adds,
    and steps of several entries (made at once on copies, then merged)."""
    entries = played.entries
    assert {entry["kind"] for entry in entries} == set(KIND_FIELDS)
    for name in ("shuffles", "shares", "face_up"):
        assert any(name in entry for entry in entries), name
    assert len({entry["seq"] for entry in entries}) < len(entries)


def test_the_played_game_is_the_same_file_on_every_run(played: Sound) -> None:
    """Sealed bids draw a nonce and an ephemeral key: the harness fixes both, so a mutation found
    at one place is found there again."""
    assert played.text == mutations.played_game(40, handover=True).text


@pytest.mark.parametrize("game", ["example", "played"])
def test_every_mutation_is_caught_where_it_was_made(
    game: str, request: pytest.FixtureRequest, donor: Sound, example: Sound
) -> None:
    sound: Sound = request.getfixturevalue(game)
    tally = Tally()
    made = mutations.run(sound, [donor, example], PER_CLASS, SEED, tally)
    assert not tally.failures, report(tally)
    for name in CLASSES:
        row = tally.counts.get(name, {})
        if name in NULL_CLASSES:
            assert row[NULL] == PER_CLASS, (name, row)
        elif game == "example" and name in (
            "move text",
            "amount",
            "sealed",
            "play fields",
            "re-signed",
            "equivocation",
        ):
            assert not row, (name, row)  # no move, sealed choice or key of the example's seats
        else:
            assert row[CAUGHT] >= PER_CLASS - 2, (name, row)
    assert len(made) >= PER_CLASS * (len(CLASSES) - (6 if game == "example" else 0))


def test_verify_prints_the_audits_first_problem(
    example: Sound, played: Sound, donor: Sound, tmp_path: Path
) -> None:
    """Mutations of each class through the command line: exit 3 (6 for equivocation) with the
    audit's first problem as the first line, and exit 0 for a value written another way. pbem
    verify checks every proof each time, so the example (three key proofs) serves where it can,
    the played game (a shuffle proof per seat) for the classes the example has no place for."""
    ran, complaints = mutations.through_verify(
        [example, played], [donor], 1, SEED, tmp_path, every_game=False
    )
    assert complaints == []
    assert ran >= len(CLASSES) - 2  # TOML carries a few mutated values only in memory


def test_the_judge_tells_a_null_change_from_a_miss_and_a_misplaced_problem(
    example: Sound, donor: Sound
) -> None:
    """The harness can fail: a sound file of another game is a miss, a problem named at another
    entry than the one changed is misnamed, and the same values are null, not caught."""
    nothing = Mutation("none", "no change", copy.deepcopy(example.data), frozenset({0}))
    assert mutations.judge(example, nothing).outcome == NULL
    other = Mutation("none", "another sound game", copy.deepcopy(donor.data), frozenset({0}))
    assert mutations.judge(example, other).outcome == MISSED
    data = copy.deepcopy(example.data)
    data["entry"][3]["text"] = "forged"
    assert mutations.judge(example, Mutation("x", "note 3", data, frozenset({3}))).outcome == CAUGHT
    assert mutations.judge(example, Mutation("x", "note 3", data, frozenset({4}))).outcome == MISNAMED
