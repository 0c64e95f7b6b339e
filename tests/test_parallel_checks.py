"""Proofs checked in threads once the replay is over give what checking each in its place gives."""

from __future__ import annotations

import base64
import copy
import threading
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pbem.cli.proof_cache import ProofCache
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.engine import decks as hidden_decks
from pbem.engine import ledger as ledger_mod
from pbem.engine import proof_checks
from pbem.errors import GameFileError
from tests.mutations import Sound, played_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# (field, item field) of proofs in ``played``: ben's shuffle (the second of three), the one
# proof of an entry's decryption shares, a card put back under the deck with fresh randomness
PROOFS = [("shuffles", "multi_exp_responses"), ("shares_proof", ""), ("remask", "proof")]


def position(sound: Sound, field: str) -> int:
    """The entry of ``played`` whose proof in ``field`` is changed: the second to carry one for
    shuffles (ben's), the first for the others."""
    found = [index for index, entry in enumerate(sound.data["entry"]) if field in entry]
    return found[1] if field == "shuffles" else found[0]


@pytest.fixture(scope="module")
def played() -> Sound:
    return played_game(30, seed=2027)  # a seed whose game puts a card back under the deck


def every(key: str, run: Callable[[], None]) -> None:
    """Every proof checked, none remembered (as ``pbem verify``)."""
    run()


def flipped(text: str) -> str:
    raw = bytearray(base64.b64decode(text))
    raw[1] ^= 1
    return base64.b64encode(bytes(raw)).decode("ascii")


def tampered(sound: Sound, field: str, name: str) -> dict[str, Any]:
    """The game with one bit of a proof changed (``entry[field][0][name]``, or ``entry[field]``
    with no name), and the entry signed again by its seat."""
    index = position(sound, field)
    data = copy.deepcopy(sound.data)
    entry = data["entry"][index]
    if not name:
        entry[field] = flipped(entry[field])
        data["entry"][index] = ledger_mod.sign_entry(
            data["entry"][0]["game_id"], entry, sound.keys[entry["by"]]
        )
        return data
    item = entry[field][0]
    if isinstance(item[name], list):
        item[name][0] = flipped(item[name][0])
    else:
        item[name] = flipped(item[name])
    data["entry"][index] = ledger_mod.sign_entry(data["entry"][0]["game_id"], entry, sound.keys[entry["by"]])
    return data


def audited(data: dict[str, Any], workers: int, monkeypatch: pytest.MonkeyPatch, check: Any = every) -> Any:
    monkeypatch.setenv(proof_checks.WORKERS_VARIABLE, str(workers))
    return ledger_mod.audit(copy.deepcopy(data), check)


def problems(result: ledger_mod.Audit) -> list[dict[str, Any]]:
    return [problem.as_dict() for problem in result.problems]


@pytest.mark.parametrize(("field", "name"), PROOFS)
@pytest.mark.parametrize("later", [False, True])
def test_a_bad_proof_is_named_as_checking_in_place_names_it(
    played: Sound, monkeypatch: pytest.MonkeyPatch, field: str, name: str, later: bool
) -> None:
    index = position(played, field)
    data = tampered(played, field, name)
    if later:  # and a later entry broken another way
        data["entry"][-2]["at"] = "2020-01-01T00:00:00Z"
    in_place = audited(data, 1, monkeypatch)
    threaded = audited(data, 2, monkeypatch)
    assert problems(threaded) == problems(in_place)  # every one, as `verify --all` lists them
    first = in_place.problems[0]
    assert first.position == index
    assert "does not verify" in first.message
    monkeypatch.setenv(proof_checks.WORKERS_VARIABLE, "2")
    with pytest.raises(GameFileError) as raised:
        ledger_mod.read(copy.deepcopy(data), every)
    assert str(raised.value) == str(first)


def test_the_checks_run_in_the_pools_threads(played: Sound, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: set[str] = set()
    real = hd.check_shares

    def check_shares(*args: Any, **kwargs: Any) -> None:
        threads.add(threading.current_thread().name)
        real(*args, **kwargs)

    monkeypatch.setattr(hd, "check_shares", check_shares)
    assert audited(played.data, 2, monkeypatch).ok
    assert threads and threading.main_thread().name not in threads
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("pbem-proofs")]


def test_a_decks_shuffles_are_checked_together_in_threads_and_each_alone_in_place(
    played: Sound, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[list[str]] = []
    alone: list[str] = []
    together, each = bg.shuffles_hold, bg.check_shuffle_bg

    def shuffles_hold(shuffles: Sequence[bg.Shuffle], *, threads: int) -> bool:
        assert threads == 2  # the batch shares the workers' threads
        batches.append([shuffle.statement.seat for shuffle in shuffles])
        return together(shuffles, threads=threads)

    def check_shuffle_bg(statement: sh.ShuffleStatement, proof: bg.BGProof) -> None:
        alone.append(statement.seat)
        each(statement, proof)

    monkeypatch.setattr(bg, "shuffles_hold", shuffles_hold)
    monkeypatch.setattr(bg, "check_shuffle_bg", check_shuffle_bg)
    shufflers = [entry["by"] for entry in played.data["entry"] for _ in entry.get("shuffles", [])]
    assert len(shufflers) > 1
    assert audited(played.data, 2, monkeypatch).ok
    assert (batches, alone) == ([shufflers], [])
    batches.clear()
    assert audited(played.data, 1, monkeypatch).ok
    assert (batches, alone) == ([], shufflers)


def test_a_failed_batch_is_each_of_its_checks_failing(played: Sound, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that does not hold is checked again shuffle by shuffle, in place: the problem is
    the one bad shuffle's, even when the batch is refused for no reason at all."""
    monkeypatch.setattr(bg, "shuffles_hold", lambda shuffles, *, threads: False)
    assert audited(played.data, 2, monkeypatch).ok
    field, name = PROOFS[0]
    data = tampered(played, field, name)
    assert problems(audited(data, 2, monkeypatch)) == problems(audited(data, 1, monkeypatch))


def test_an_untouched_example_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    data = tomllib.loads((EXAMPLES / "florence-four-players.toml").read_text(encoding="utf-8"))
    result = audited(data, 2, monkeypatch)
    assert result.ok, result.problems[:1]
    assert result.ledger is not None and result.ledger.check is every


def test_only_passes_are_remembered_as_in_place(
    played: Sound, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = tampered(played, *PROOFS[1])
    remembered = []
    for workers in (1, 2):
        hidden_decks._PASSED.clear()
        audited(data, workers, monkeypatch, hidden_decks.check_now)
        remembered.append(set(hidden_decks._PASSED))
    assert remembered[0] == remembered[1]
    recorded = []
    for workers in (1, 2):
        cache = ProofCache(tmp_path / str(workers), consult=False)
        audited(data, workers, monkeypatch, cache)
        cache.save()
        recorded.append(
            (tmp_path / str(workers) / "checked-proofs" / played.entries[0]["game_id"]).read_text()
        )
    assert recorded[0] == recorded[1]
    # the bad share's key is in neither: one check fewer than in the sound game
    hidden_decks._PASSED.clear()
    audited(played.data, 2, monkeypatch, hidden_decks.check_now)
    assert remembered[1] < hidden_decks._PASSED


def test_any_other_failure_of_a_check_is_raised(played: Sound, monkeypatch: pytest.MonkeyPatch) -> None:
    def check_shares(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("out of memory")

    monkeypatch.setattr(hd, "check_shares", check_shares)
    for workers in (1, 2):
        with pytest.raises(RuntimeError, match="out of memory"):
            audited(played.data, workers, monkeypatch)
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("pbem-proofs")]


def test_a_check_sees_its_list_as_it_was_given() -> None:
    """The replay goes on, and may change a list in place (a deck's slots), before the check runs:
    a check that saw the change would fail, and the replay would be made again."""
    changed = threading.Event()
    replays: list[int] = []

    def replay(check: hidden_decks.ProofCheck) -> None:
        replays.append(1)
        cards = [1, 2, 3]

        def run() -> None:
            changed.wait()
            if cards != [1, 2, 3]:
                raise GameFileError("the cards changed under the check")

        check("key", run)
        cards[0] = 9
        changed.set()

    proof_checks.replayed(every, replay, workers=2)
    assert replays == [1]


def test_a_failed_check_replays_in_place_without_running_the_passes_again() -> None:
    runs: Counter[str] = Counter()  # not a list: a check has no output, and its lists are copied
    lock = threading.Lock()

    def replay(check: hidden_decks.ProofCheck) -> list[str]:
        found = []
        for key in ("a", "b", "c"):

            def run(key: str = key) -> None:
                with lock:
                    runs[key] += 1
                if key == "b":
                    raise GameFileError("b does not verify")

            try:
                check(key, run)
            except GameFileError as exc:
                found.append(str(exc))
        return found

    assert proof_checks.replayed(every, replay, workers=2) == ["b does not verify"]
    assert runs["b"] == 2 and runs["a"] == 1
