"""The game-neutral move grammar and rules base of pbem/kit: what every game's moves rest on."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, replace

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.kit.grammar import Bid, MoveBase, Pass, bid_or_pass, number, refusal, tokens, words
from pbem.kit.rules import MoveTable, TableRules, seat_named


class Keep(MoveBase, form="keep {token}[ under {under}]"):
    token: str
    under: tuple[str, ...] = ()


class Give(MoveBase, form="give {amount} to {to}"):
    amount: int
    to: str


def test_a_move_is_written_in_its_form_with_an_empty_optional_part_left_out() -> None:
    assert Keep("bonus:1").said() == "keep bonus:1"
    assert Keep("bonus:1", ("bonus:2", "bonus:3")).said() == "keep bonus:1 under bonus:2 bonus:3"
    assert Give(3, "Bruno").said() == "give 3 to Bruno"
    assert Give(1, "a{to}b").said() == "give 1 to a{to}b"  # a value is written, never read as a form
    assert (Bid(300).said(), Pass().said()) == ("bid 300", "pass")


def test_a_move_is_a_frozen_value() -> None:
    assert Keep("bonus:1") == Keep("bonus:1") != Keep("bonus:2")
    assert len({Bid(1), Bid(1), Pass(), Pass()}) == 2
    with pytest.raises(FrozenInstanceError):
        Bid(1).amount = 2  # type: ignore[misc]


def test_the_readers_of_words_numbers_and_tokens() -> None:
    assert words("  Bid 300 ") == ("bid", ["300"])
    assert words("   ") == ("", [])
    assert (number("0300"), number("-3"), number("1234567"), number("x")) == (300, None, None, None)
    card = tokens("profession", "bonus")
    assert card.fullmatch("bonus:17") and not card.fullmatch("prestige:17") and not card.fullmatch("bonus:")


def test_bid_and_pass_are_read_alike_in_every_game() -> None:
    assert bid_or_pass("bid", ["300"]) == Bid(300)
    assert bid_or_pass("pass", []) == Pass()
    assert bid_or_pass("bid", ["many"]) is None
    assert bid_or_pass("bid", ["1", "2"]) is None
    assert bid_or_pass("pass", ["now"]) is None


def test_a_refusal_names_the_forms_of_its_verb_or_of_every_move() -> None:
    forms = {"bid": "'bid N'"}
    assert str(refusal("bid lots", forms, "'bid N' or 'pass'")) == "'bid lots' is not a move: write 'bid N'"
    assert (
        str(refusal("dance", forms, "'bid N' or 'pass'")) == "'dance' is not a move: write 'bid N' or 'pass'"
    )
    assert isinstance(refusal("", forms, "x"), MoveSyntaxError)


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    log: tuple[str, ...] = ()
    over: bool = False
    moves: int = 0


def _check_give(state: Table, seat: str, amount: int, to: str) -> None:
    if amount > 5:
        raise IllegalMoveError(f"{seat} has only 5")


def _give(state: Table, seat: str, amount: int, to: str) -> Table:
    return replace(state, log=(*state.log, f"{seat} gives {amount} to {seat_named(state, to)}"))


def _check_keep(state: Table, seat: str, token: str, under: tuple[str, ...]) -> None:
    return None


def _keep(state: Table, seat: str, token: str, under: tuple[str, ...]) -> Table:
    return replace(state, log=(*state.log, f"{seat} keeps {token} over {len(under)}"))


class Rules(TableRules[Table, Keep | Give]):
    free = (Give,)

    def over(self, state: Table) -> bool:
        return state.over

    def format(self, move: Keep | Give) -> str:
        return move.said()

    def legal(self, state: Table, seat: str) -> list[Keep | Give]:
        return [Give(amount, other) for other in state.seats if other != seat for amount in (1, 9)]

    def first(self, state: Table, seat: str, move: Keep | Give) -> None:
        if seat != state.seats[0]:
            raise IllegalMoveError(f"{state.seats[0]} first")

    def moved(self, state: Table) -> Table:
        return replace(state, moves=state.moves + 1)


RULES = Rules(MoveTable[Table, Table]({Give: (_check_give, _give), Keep: (_check_keep, _keep)}))


def test_the_table_hands_each_rule_the_moves_fields_in_order() -> None:
    state = Table(("Ada", "Bruno"))
    after = RULES.apply(state, "Ada", Keep("bonus:1", ("bonus:2", "bonus:3")))
    assert after.log == ("Ada keeps bonus:1 over 2",)
    assert RULES.apply(after, "Ada", Give(2, "bruno")).log[-1] == "Ada gives 2 to Bruno"
    with pytest.raises(IllegalMoveError, match="Ada has only 5"):
        RULES.check(state, "Ada", Give(9, "bruno"))


@dataclass(frozen=True)
class Square:
    column: str
    row: int


class Put(MoveBase, form="put {square}"):
    square: Square


class Bell(MoveBase, form="bell"):
    """A move without fields."""


class Say(MoveBase, form="say {word}"):
    word: str


def test_a_table_hands_no_field_one_field_and_a_fields_own_dataclass_whole() -> None:
    seen: list[tuple[object, ...]] = []

    def note(state: object, seat: str, *fields: object) -> None:
        seen.append((seat, *fields))

    table = MoveTable[object, None]({Put: (note, note), Bell: (note, note), Say: (note, note)})
    table.check(None, "Ada", Put(Square("c", 3)))
    table.apply(None, "Ada", Bell())
    table.check(None, "Bruno", Say("hello"))
    assert seen == [("Ada", Square("c", 3)), ("Ada",), ("Bruno", "hello")]


def test_every_move_passes_the_shared_checks_but_a_free_move_skips_the_end_and_the_turn() -> None:
    state = Table(("Ada", "Bruno"))
    with pytest.raises(IllegalMoveError, match="'Cleo' has no seat in this game"):
        RULES.check(state, "Cleo", Give(1, "ada"))
    with pytest.raises(IllegalMoveError, match="Ada first"):
        RULES.check(state, "Bruno", Keep("bonus:1"))
    with pytest.raises(IllegalMoveError, match="the game is over"):
        RULES.check(replace(state, over=True), "Ada", Keep("bonus:1"))
    RULES.check(replace(state, over=True), "Bruno", Give(1, "ada"))
    assert RULES.apply(state, "Bruno", Give(1, "ada")).moves == 0
    assert RULES.apply(state, "Ada", Keep("bonus:1")).moves == 1


def test_legal_moves_are_written_and_a_seat_named_in_a_move_is_found_in_any_case() -> None:
    state = Table(("Ada", "Bruno"))
    assert RULES.legal_moves(state, "Ada") == ["give 1 to Bruno", "give 9 to Bruno"]
    assert RULES.allowed(state, "Ada", Give(1, "bruno")) and not RULES.allowed(state, "Ada", Give(9, "x"))
    assert seat_named(state, "BRUNO") == "Bruno"
    with pytest.raises(IllegalMoveError, match="no player 'cleo': the players are Ada, Bruno"):
        seat_named(state, "cleo")
