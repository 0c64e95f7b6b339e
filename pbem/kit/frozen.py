"""Frozen dataclasses changed the fast way: ``evolve(state, field=value)`` is
``dataclasses.replace``, for the hot paths of rules that random playouts run by the million.

``dataclasses.replace`` reads every field by name and calls the class's ``__init__``, which sets
every field again through ``object.__setattr__``: about ten microseconds for a game state of thirty
fields, replaced several times a move. A frozen dataclass whose ``__init__`` only stores its fields
is fully described by its instance dictionary, so a copy of that dictionary with the changed
fields is the same value, made for the cost of one dictionary copy.

That holds only where ``__init__`` does nothing else, so anything else falls back to
``dataclasses.replace``: a class with ``__post_init__`` (it may check or derive a field), an
``InitVar`` or a field left out of ``__init__``, a hand-written ``__init__``, slots, a class that
is not frozen; an instance holding anything but its fields (a cached property, a generic alias's
``__orig_class__``); a change naming no field (``replace`` raises its TypeError). The type
checker sees ``dataclasses.replace`` itself, so a field's name and type are checked as before.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import TYPE_CHECKING, Any

__all__ = ["evolve"]

if TYPE_CHECKING:
    from dataclasses import replace as evolve
else:
    _new = object.__new__
    _set = object.__setattr__
    # class -> how many fields its instances hold where copying the instance dictionary is the
    # same as ``replace``, or -1 where it is not (looked up on every call, found once per class)
    _FIELDS: dict[type, int] = {}

    def _plain(kind: type) -> frozenset[str] | None:
        if not dataclasses.is_dataclass(kind) or "__slots__" in kind.__dict__:
            return None
        if not kind.__dataclass_params__.init or hasattr(kind, "__post_init__"):
            return None
        # only a frozen instance is sure to hold every field (nothing deletes one from it)
        if not kind.__dataclass_params__.frozen:
            return None
        # dataclass keeps an __init__ written in the class body: only the one it wrote itself (its
        # source compiled from a string) is known to store the fields and nothing else
        if getattr(getattr(kind.__init__, "__code__", None), "co_filename", None) != "<string>":
            return None
        found = dataclasses.fields(kind)
        names = frozenset(item.name for item in found)
        # fields() leaves InitVars out, which replace must be given: __init__ takes exactly the
        # fields, or this is not a plain copy
        taken = list(inspect.signature(kind.__init__).parameters)[1:]
        if any(not item.init for item in found) or sorted(taken) != sorted(names):
            return None
        return names

    def _counted(kind: type) -> int:
        names = _plain(kind)
        return -1 if names is None else len(names)

    def evolve(obj: Any, /, **changes: Any) -> Any:
        kind = obj.__class__
        try:
            count = _FIELDS[kind]
        except KeyError:
            count = _FIELDS[kind] = _counted(kind)
        if count < 0:
            return dataclasses.replace(obj, **changes)
        # dict.copy clones the table whole (an instance's shared-key dictionary too), where
        # filling an empty one inserts each field again
        copied = obj.__dict__.copy()
        copied.update(changes)
        # One count tells both apart at once: an instance holds every field (its __init__ or this
        # function stored them all, and nothing deletes a dataclass's field), so the copy holds
        # more than the fields exactly where the instance holds anything else or a change names
        # no field, and replace does (or refuses) that one
        if len(copied) == count:
            new = _new(kind)
            _set(new, "__dict__", copied)
            return new
        return dataclasses.replace(obj, **changes)
