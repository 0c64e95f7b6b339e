"""Every game declares itself once, in its package's ``__init__.py``: name, aliases, player counts,
editions, options, and where its rules, companion-mode tracker, terminal view and picture are. The
registry reads the one tuple of games ``pbem.games.GAMES``; what a declaration names beyond its
options is loaded only when a command needs it, so listing the games imports no game's rules.

What a declaration holds is ``pbem.engine.declaration``'s, named here too for the commands.
"""

from __future__ import annotations

from pbem.engine.declaration import (
    DEADLINE,
    DEADLINE_OPTIONS,
    ESCROW,
    ESCROW_THRESHOLD,
    HIDDEN_DECK_OPTIONS,
    RETIRE_AFTER,
    SEALED_OPTIONS,
    TIMEOUTS,
    GameInfo,
    OptionKind,
    OptionSpec,
    OptionValue,
    Picture,
    TerminalView,
)
from pbem.errors import UsageError

__all__ = [  # what a declaration holds, named here too for the commands
    "DEADLINE",
    "DEADLINE_OPTIONS",
    "ESCROW",
    "ESCROW_THRESHOLD",
    "HIDDEN_DECK_OPTIONS",
    "RETIRE_AFTER",
    "SEALED_OPTIONS",
    "TIMEOUTS",
    "GameInfo",
    "OptionKind",
    "OptionSpec",
    "OptionValue",
    "Picture",
    "TerminalView",
    "declared",
    "games",
    "get",
    "register",
]

_GAMES: dict[str, GameInfo] = {}
_ALIASES: dict[str, str] = {}


def register(info: GameInfo) -> GameInfo:
    """Add a game beyond the tuple of games; only tests do, each with a game of its own."""
    _load()
    _add(info)
    return info


def declared() -> list[GameInfo]:
    """Every game, in the order of the tuple of games (then any a test added)."""
    _load()
    return list(_GAMES.values())


def games() -> list[GameInfo]:
    return sorted(declared(), key=lambda info: info.name)


def get(name: str) -> GameInfo:
    """The game called ``name`` or one of its aliases; an unknown name lists the known ones."""
    _load()
    key = _ALIASES.get(name, name)
    if key not in _GAMES:
        raise UsageError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return _GAMES[key]


def _add(info: GameInfo) -> None:
    _GAMES[info.name] = info
    for alias in info.aliases:
        _ALIASES[alias] = info.name


def _load() -> None:
    if not _GAMES:  # the tuple's games come first, so a game a test adds never stands alone
        from pbem.games import GAMES

        for info in GAMES:
            _add(info)
