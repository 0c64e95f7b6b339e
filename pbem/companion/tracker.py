"""What every game's table tracker offers companion mode.

A tracker reads one table action at a time in its game's short grammar (``alice wins city
milan/banker for 14``) and applies it to a plain state; the table's state is the replay of its log.
Trackers are pure: ``apply`` never changes the state it is given, and raises ``MoveSyntaxError``
for text its grammar does not read and ``IllegalMoveError`` for an action the game does not allow
(a status above 10, a seventh City tile), naming the action and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pbem.kit.rules import Components, Options

Cell = str | int
# A table's component values, of the type an email game is set up with (``Tracker.start`` takes
# None where the game's template gives them all); the games name their own parts ``Components``.
ComponentValues = Components


@dataclass(frozen=True)
class EventForm:
    """One form of the grammar, with an example a user can copy and what it records."""

    form: str
    example: str
    meaning: str


@dataclass(frozen=True)
class Report:
    """One table of figures: what ``show``, ``score``, ``income`` and ``calc`` print.

    ``columns`` names the cells of each row (the first is the row's label); ``notes`` are lines
    printed under the table (tie rules applied, the winner); ``data`` is the same content for
    ``--json`` where rows alone would lose structure."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...] = ()
    notes: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "columns": list(self.columns),
            "rows": [list(row) for row in self.rows],
            "notes": list(self.notes),
            "data": dict(self.data),
        }


Sheet = tuple[Report, ...]

S = TypeVar("S")


class Tracker(Protocol[S]):
    """A game's companion-mode rules. ``S`` is the game's own state dataclass."""

    def events(self) -> Sequence[EventForm]:
        """Every action form, each with an example."""
        ...

    def queries(self) -> Sequence[EventForm]:
        """Every calculation ``pbem table calc`` answers without recording anything."""
        ...

    def start(
        self, players: Sequence[str], edition: str, options: Options, components: ComponentValues | None
    ) -> S:
        """The table before any action; ``components`` replaces the template's values."""
        ...

    def apply(self, state: S, text: str) -> tuple[S, Sheet]:
        """A new state with ``text`` applied, and what to print about it (may be empty)."""
        ...

    def query(self, state: S, text: str) -> Sheet:
        """Answer a calculation (e.g. the value of a work about to be created)."""
        ...

    def income_action(self, state: S) -> str | None:
        """The action ``pbem table income`` records now, or None if nothing is due."""
        ...

    def show(self, state: S) -> Sheet:
        """The whole table as it stands."""
        ...

    def score(self, state: S) -> Sheet:
        """The final (or if-it-ended-now) breakdown, every tie rule applied, winner named."""
        ...

    def totals(self, state: S) -> dict[str, int]:
        """Each player's final points, as ``score`` gives them."""
        ...

    def complete(self, state: S, words: Sequence[str], incomplete: str) -> list[str]:
        """Candidates for the next word of an action after ``words`` (tab completion)."""
        ...


class Forms:
    """What a tracker answers ``events`` and ``queries`` with: the two tables of forms its game
    keeps beside its grammar, given when the tracker is made (``TRACKER = Game(EVENTS, QUERIES)``)."""

    def __init__(self, events: Sequence[EventForm], queries: Sequence[EventForm]) -> None:
        self._events = tuple(events)
        self._queries = tuple(queries)

    def events(self) -> Sequence[EventForm]:
        return self._events

    def queries(self) -> Sequence[EventForm]:
        return self._queries
