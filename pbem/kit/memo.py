"""Results remembered for immutable values, found by the value's identity: ``by_identity(f)`` is
``f`` for a function of one frozen value (an estate, a game state) that is asked again and again for
the same object.

``functools.lru_cache`` finds a result by the argument's hash, and a frozen dataclass's hash is
worked out afresh on every call from every field, nested values and all: for a value of a dozen
nested parts, as long as the work it saves. A state is replaced, never changed, and its unchanged
parts are carried over as the same objects, so the same object is asked about again until it
changes: looked up by ``id``, with the object itself kept beside its result (an ``id`` is reused
only once its object is gone, and the check ``is`` makes sure it is the same one).

Only for values that never change: a mutable argument changed in place would still find its old
result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

__all__ = ["by_identity"]

K = TypeVar("K")
V = TypeVar("V")


def by_identity(function: Callable[[K], V], size: int = 256) -> Callable[[K], V]:
    """``function`` with its results remembered for the last ``size`` objects asked about (all
    forgotten at once when full: the values a game asks about are those of its last few moves).
    A decorator, as ``functools.lru_cache`` is."""
    found: dict[int, tuple[K, V]] = {}

    @functools.wraps(function)
    def remembered(value: K) -> V:
        seen = found.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        result = function(value)
        if len(found) >= size:
            found.clear()
        found[id(value)] = (value, result)
        return result

    return remembered
