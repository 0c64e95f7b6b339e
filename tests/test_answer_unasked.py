"""What a seat is asked that needs no choice, which its home does unasked (``--send``, ``pbem mail
fetch --answer``): its sealed value revealed once every seat's is in, a move that is the only
one open to it; never a choice. Read off the four-player Il Principe example, step by step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine import play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import Demand

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "principe-four-players.toml"
SEATS = ("alice", "bruno", "chiara", "dario")


@pytest.fixture(scope="module")
def after() -> Callable[[int], Ledger]:
    """The example's game after its first ``count`` entries."""
    data = gamefile.load(EXAMPLE).data

    def ledger(count: int) -> Ledger:
        made = ledger_mod.audit(dict(data, entry=data["entry"][:count])).ledger
        assert made is not None
        return made

    return ledger


def test_a_reveal_is_done_unasked_once_every_reserve_is_sealed(after: Callable[[int], Ledger]) -> None:
    sealed = after(14)  # the four reserves of round 1 sealed, none revealed
    assert {seat: play.answer_needed(sealed, seat) for seat in SEATS} == dict.fromkeys(SEATS, ("reveal", ""))
    one = after(15)  # alice's revealed
    assert play.answer_needed(one, "alice") is None and play.answer_needed(one, "bruno") == ("reveal", "")


def test_a_move_that_is_the_only_one_open_is_made_unasked(after: Callable[[int], Ledger]) -> None:
    shown = after(18)  # every reserve revealed: each seat shows its reserve's cards, the one move open
    assert {seat: play.answer_needed(shown, seat) for seat in SEATS} == dict.fromkeys(SEATS, ("move", "show"))
    assert play.answer_needed(after(19), "dario") is None  # dario's shown: nothing more of it


def test_a_choice_is_never_made_unasked(after: Callable[[int], Ledger]) -> None:
    bidding = after(22)  # the first auction of round 1: bruno to bid or pass
    (asked,) = {demand.seat for demand in moves_asked(bidding)}
    assert asked == "bruno"
    assert play.forced(bidding, "bruno") is None and play.answer_needed(bidding, "bruno") is None


def test_a_seat_that_may_make_a_free_move_first_has_a_choice(
    after: Callable[[int], Ledger], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = after(18)
    monkeypatch.setattr(play, "free_moves", lambda ledger, seat: ["give 1 gold to bruno"])
    assert play.forced(shown, "alice") is None and play.answer_needed(shown, "alice") is None


def moves_asked(ledger: Ledger) -> list[Demand]:

    assert ledger.table is not None and ledger.rules is not None
    return [demand for demand in tables.demands(ledger.rules, ledger.table) if demand.kind == "move"]
