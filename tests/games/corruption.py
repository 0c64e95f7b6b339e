"""The template-corruption harness: a game's shipped component template with one value broken must
be refused by the game's own component checks, in one line that names the value. Each game gives
its cases as data (``tests/games/<game>/template_cases.py``): a name, how to break the template and
the exact refusal; ``tests/games/test_template_corruption.py`` runs them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem import gamefile

Data = dict[str, Any]
Change = Callable[[Data], None]
# case name -> (how the template is broken, the refusal, word for word)
Cases = Mapping[str, tuple[Change, str]]


@dataclass(frozen=True)
class Game:
    """One game's part in the harness: its shipped template, how pbem reads a template with its
    sources (raising GameFileError), and its cases."""

    template: str
    read: Callable[[Data], object]
    cases: Cases

    def shipped(self) -> Data:
        return gamefile.shipped_template(self.template)


def record(data: Data, kind: str, record_id: str) -> Data:
    """The ``[[kind]]`` record whose id is ``record_id``."""
    found: Data = next(item for item in data[kind] if item["id"] == record_id)
    return found


def set_value(path: tuple[Any, ...], value: Any) -> Change:
    """A change that sets the value at ``path``: keys, or (kind, id) pairs for a record."""

    def change(data: Data) -> None:
        target = data
        for key in path[:-1]:
            target = record(target, key[0], key[1]) if isinstance(key, tuple) else target[key]
        target[path[-1]] = value

    return change
