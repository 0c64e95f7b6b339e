"""What every game's ruleset shares: one table of its moves instead of two parallel ladders, the
checks every move passes before its own rule, and the types of what a game is set up with.

A table pairs each move type with the rule that judges it and the one that plays it, so a move
cannot be judged one way and played another, nor added to one ladder and forgotten in the other.
Each rule takes the state, the seat and the move's fields in the order the move declares them
(``Keep(token, under)`` reaches ``check_keep(state, seat, token, under)``): the game's rule
modules keep their own signatures, and the table names them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pbem.engine.declaration import OptionValue
from pbem.errors import IllegalMoveError

# What a game is set up with, beside its seats and edition (``Ruleset.setup``).
Options = Mapping[str, OptionValue]
Components = Mapping[str, Any]


class Seated(Protocol):
    @property
    def seats(self) -> Sequence[str]: ...


S = TypeVar("S", bound=Seated)
M = TypeVar("M")
T = TypeVar("T")
R = TypeVar("R")

# A move's check raises IllegalMoveError naming the rule; its play gives the state after it (or
# changes a copy in place and gives None, in a game whose state is mutable).
Checks = Callable[..., None]
Plays = Callable[..., R]


class MoveTable(Generic[T, R]):
    """Each move type with its (check, play), called with the state, the seat and the move's
    fields."""

    def __init__(self, rules: Mapping[type[Any], tuple[Checks, Plays[R]]]) -> None:
        self.rules = dict(rules)
        # A move's fields are read by names found once per type: replay and the listing of legal
        # moves check thousands of moves, and dataclasses.fields is slow to ask each time.
        self._read = {kind: _reader(kind) for kind in self.rules}

    def check(self, state: T, seat: str, move: object) -> None:
        kind = type(move)
        self.rules[kind][0](state, seat, *self._read[kind](move))

    def apply(self, state: T, seat: str, move: object) -> R:
        kind = type(move)
        return self.rules[kind][1](state, seat, *self._read[kind](move))


def _reader(kind: type[Any]) -> Callable[[object], tuple[Any, ...]]:
    """The fields of a move of ``kind``, in the order it declares them. Not dataclasses.astuple:
    it would take a move's own dataclass fields (a placement) apart."""
    names = tuple(field.name for field in fields(kind))
    if not names:
        return lambda move: ()
    if len(names) == 1:
        (name,) = names
        return lambda move: (getattr(move, name),)
    return attrgetter(*names)


def seat_named(state: Seated, name: str) -> str:
    """The seat a move names, in any case (``recruit painter from Alice``)."""
    for seat in state.seats:
        if seat.lower() == name.lower():
            return seat
    raise IllegalMoveError(f"no player {name!r}: the players are {', '.join(state.seats)}")


class TableRules(Generic[S, M]):
    """The part of a ruleset its move table answers: ``check`` and ``apply``, and the moves a seat
    may make as text. A game gives its table, its grammar's ``format``, its ``legal`` moves, and
    where it needs them: the moves that are ``free`` (made at any time the game is on, even at its
    end, and not counted as a step), what a seat must answer ``first``, and what every other move
    changes (``moved``)."""

    free: ClassVar[tuple[type[Any], ...]] = ()

    def __init__(self, table: MoveTable[S, S]) -> None:
        self.table = table

    def over(self, state: S) -> bool:
        raise NotImplementedError

    def format(self, move: M) -> str:
        raise NotImplementedError

    def legal(self, state: S, seat: str) -> list[M]:
        """Every move ``seat`` may make now."""
        raise NotImplementedError

    def first(self, state: S, seat: str, move: M) -> None:
        """Refuse ``move`` while ``seat``, or another seat, must first answer something else."""

    def moved(self, state: S) -> S:
        """``state`` as any move but a free one leaves it before its own rule plays it."""
        return state

    def check(self, state: S, seat: str, move: M) -> None:
        if seat not in state.seats:
            raise IllegalMoveError(f"{seat!r} has no seat in this game")
        if not isinstance(move, self.free):
            if self.over(state):
                raise IllegalMoveError("the game is over")
            self.first(state, seat, move)
        self.table.check(state, seat, move)

    def apply(self, state: S, seat: str, move: M) -> S:
        if not isinstance(move, self.free):
            state = self.moved(state)
        return self.table.apply(state, seat, move)

    def allowed(self, state: S, seat: str, move: M) -> bool:
        """Whether ``check`` lets ``move`` through now."""
        try:
            self.check(state, seat, move)
        except IllegalMoveError:
            return False
        return True

    def legal_moves(self, state: S, seat: str) -> list[str]:
        return [self.format(move) for move in self.legal(state, seat)]
