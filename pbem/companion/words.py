"""Reading the words of a table action: shared by every game's grammar so that errors read alike.

Every error names the whole action text and what was expected, e.g.
``'alice buys troop dragons': unknown troop 'dragons'; known: cavalry, infantry, ...``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.errors import MoveSyntaxError


def split(text: str) -> list[str]:
    """The action's words, lower-cased; an empty action is refused."""
    words = text.lower().split()
    if not words:
        raise MoveSyntaxError("empty action; `pbem table events` lists the forms")
    return words


def number(text: str, word: str, what: str, *, signed: bool = False) -> int:
    """A whole number (``+2``/``-1`` accepted when ``signed``); the error names ``what``."""
    body = word[1:] if signed and word[:1] in "+-" else word
    if not body.isdigit():
        raise MoveSyntaxError(f"{text!r}: {what} {word!r} is not a whole number")
    return int(word)


def one_of(text: str, word: str, what: str, known: Iterable[str]) -> str:
    """``word`` if it is one of ``known``; otherwise an error listing them."""
    choices = list(known)
    if word not in choices:
        raise MoveSyntaxError(f"{text!r}: unknown {what} {word!r}; known: {', '.join(sorted(choices))}")
    return word


def player(text: str, word: str, players: Sequence[str]) -> str:
    return one_of(text, word, "player", players)


def expect(text: str, words: Sequence[str], length: int, form: str) -> None:
    """Refuse an action with the wrong number of words, showing the form it should have."""
    if len(words) != length:
        raise MoveSyntaxError(f"{text!r}: expected {form!r}")


def prefixed(candidates: Iterable[str], incomplete: str) -> list[str]:
    """Completion candidates that start with what has been typed so far."""
    return sorted(word for word in set(candidates) if word.startswith(incomplete.lower()))
