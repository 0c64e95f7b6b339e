"""Reading a move by email: the word and number readers every game's grammar shares, and the bid
and pass every auction takes, so that the same words mean the same move in every game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, dataclass_transform

from pbem.errors import MoveSyntaxError

NUMBER = re.compile(r"[0-9]{1,6}")
# A city, region, lot or kind of thing a move names: lower-case letters and hyphens.
NAME = re.compile(r"[a-z][a-z-]{0,39}")


@dataclass_transform(frozen_default=True)
class MoveBase:
    """A move as a grammar reads it: a subclass is a frozen dataclass of what the move names,
    compared and hashed by value, declared with the form it is written in: each field in braces,
    and in square brackets what is left out when its fields are empty
    (``class Keep(MoveBase, form="keep {token}[ under {under}]")``)."""

    form: ClassVar[str]
    # The form its choices are folded in (``pbem moves``, ``kit.forms``): ``form``, unless a move
    # written by hand declares its own, with ``parts`` to match.
    shape: ClassVar[str]
    # Fields that never name a place on the game's picture (cards held, whose names may be a
    # region's too): the page marks no place for them.
    off_picture: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, form: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.form = form
        if "shape" not in cls.__dict__:
            cls.shape = form
        dataclass(frozen=True)(cls)
        declared = fields(cls)  # type: ignore[arg-type]
        lists = {field.name for field in declared if "tuple" in str(field.type)}
        cls.said = _writer(cls.__name__, form, lists)  # type: ignore[method-assign, assignment]

    def said(self) -> str:
        """The move in the words ``parse`` reads back (a list field as its words one after
        another, a piece in square brackets only when a field it names is written non-empty)."""
        raise NotImplementedError

    def parts(self) -> tuple[str, ...]:
        """The words of each field ``shape`` names, in its order (a list field's words joined by
        spaces, an empty one as ``""``)."""
        return tuple(
            " ".join(map(str, value)) if isinstance(value, tuple) else "" if value is None else str(value)
            for value in (getattr(self, name) for name in _FIELD.findall(self.shape))
        )


_OPTIONAL = re.compile(r"\[([^\]]*)\]")
_FIELD = re.compile(r"\{(\w+)\}")


def _writer(name: str, form: str, lists: set[str]) -> Callable[[MoveBase], str]:
    """``said`` for one form, compiled once when its class is made, as the f-string a hand-written
    method would return: every legal move of a game is written out thousands of times a game, and
    filling the form anew each time made the rules a fifth slower."""
    written = sorted(set(_FIELD.findall(form)))
    lines = ["def said(self):"]
    for field in written:
        value = f'" ".join(self.{field})' if field in lists else f"str(self.{field})"
        lines.append(f"    _{field} = {value}")
    parts = []
    for index, text in enumerate(_OPTIONAL.split(form)):
        named = _FIELD.findall(text)
        optional = index % 2 == 1
        if not text or (optional and not named):  # a bracketed piece naming nothing is never written
            continue
        pieces = _FIELD.split(text)  # text and the fields it names, one after the other
        literal = "f" + repr(
            "".join(
                "{_" + piece + "}" if at % 2 else piece.replace("{", "{{").replace("}", "}}")
                for at, piece in enumerate(pieces)
            )
        )
        parts.append(
            f"({literal} if {' or '.join('_' + field for field in named)} else '')" if optional else literal
        )
    lines.append(f"    return {' + '.join(parts) or repr('')}")
    scope: dict[str, Any] = {}
    exec("\n".join(lines), scope)  # the source is built from the class's own form, never from input
    said: Callable[[MoveBase], str] = scope["said"]
    said.__qualname__ = f"{name}.said"
    return said


class Bid(MoveBase, form="bid {amount}"):
    """``bid N``: a bid, a raise, or a sealed bid of N."""

    amount: int


class Pass(MoveBase, form="pass"):
    """``pass``: out of an auction, a turn ended, or what is offered declined."""


def tokens(*decks: str) -> re.Pattern[str]:
    """A hidden card as a move names it, by its deck and slot (``treachery:7``): only its holder
    knows which card it is."""
    return re.compile(rf"({'|'.join(decks)}):[0-9]{{1,4}}")


def words(text: str) -> tuple[str, list[str]]:
    """The verb and the words after it, lower-cased; an empty move has the verb ``""``."""
    found = text.strip().lower().split()
    return (found[0], found[1:]) if found else ("", [])


def only(rest: list[str]) -> str:
    """The one word after the verb, or ``""`` when there is none or more than one."""
    return rest[0] if len(rest) == 1 else ""


def number(word: str) -> int | None:
    """A whole number as a move writes it (at most six digits, no sign), or None."""
    return int(word) if NUMBER.fullmatch(word) else None


def bid_or_pass(verb: str, rest: list[str]) -> Bid | Pass | None:
    """``bid N`` or ``pass``; None for any other words."""
    if verb == "pass" and not rest:
        return Pass()
    amount = number(only(rest)) if verb == "bid" else None
    return None if amount is None else Bid(amount)


def refusal(text: str, forms: Mapping[str, str], every: str) -> MoveSyntaxError:
    """Words that are not a move, refused with the forms of their verb (``forms``), or of every
    move (``every``) for a verb no move has."""
    verb, _ = words(text)
    return MoveSyntaxError(f"{text!r} is not a move: write {forms.get(verb) or every}")
