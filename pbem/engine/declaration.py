"""What a game declares of itself, once, in its package's ``__init__.py``: name, aliases, player
counts, editions, options, and where its rules, companion-mode tracker, terminal view and picture
are (``module:name`` paths, imported by ``imported`` and ``drawn`` only when a command asks for
a part, so a declaration loads nothing heavy). The games import this
module, never the registry, which imports them: no circle.

Options are typed and validated here, so ``pbem new`` and ``pbem verify`` apply the same checks,
and a genesis entry always records every option explicitly (defaults included): a later change of
a default never changes how an existing game replays.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem.companion.tracker import Tracker
    from pbem.engine.ruleset import Ruleset
    from pbem.kit.computer.estimate import Estimate
    from pbem.kit.dealer import Hands

OptionValue = int | str | bool
OptionKind = Literal["int", "choice", "bool"]


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: OptionKind
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0
    # For an option added after games were made: the value a genesis without it means (the way
    # those games were played), which need not be a choice a new game may make. None: every
    # genesis must record it.
    absent: OptionValue | None = None

    def describe(self) -> str:
        if self.kind == "choice":
            allowed = "|".join(self.choices)
        elif self.kind == "bool":
            allowed = "true|false"
        else:
            allowed = f"{self.minimum}..{self.maximum}"
        return f"{self.name}={allowed} (default {_text(self.default)})"

    def parse(self, text: str) -> OptionValue:
        """Read an option from its command-line text."""
        if self.kind == "int":
            try:
                value: OptionValue = int(text, 10)
            except ValueError:
                raise UsageError(f"option {self.name}: {text!r} is not a whole number") from None
        elif self.kind == "bool":
            lowered = text.lower()
            if lowered not in ("true", "false", "yes", "no", "1", "0"):
                raise UsageError(f"option {self.name}: {text!r} is not true or false")
            value = lowered in ("true", "yes", "1")
        else:
            value = text
        return self.check(value)

    def check(self, value: object) -> OptionValue:
        """Validate a stored value; raise UsageError naming what is allowed."""
        if self.kind == "int":
            if type(value) is not int or not self.minimum <= value <= self.maximum:
                raise UsageError(
                    f"option {self.name}: {value!r} is not a whole number in {self.minimum}..{self.maximum}"
                )
            return value
        if self.kind == "bool":
            if type(value) is not bool:
                raise UsageError(f"option {self.name}: {value!r} is not true or false")
            return value
        if value not in self.choices:
            raise UsageError(f"option {self.name}: {value!r} is not one of {', '.join(self.choices)}")
        assert isinstance(value, str)
        return value


def _absent(spec: OptionSpec) -> OptionValue:
    """What a genesis without the option means: how games made before it were played."""
    assert spec.absent is not None, "check_options refuses a genesis without a required option"
    return spec.absent


def _text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


DEADLINE = OptionSpec(
    "deadline_days",
    "int",
    0,
    "days each player has to act before another may claim a timeout (0: no deadline)",
    minimum=0,
    maximum=365,
)
ABSENT = "absent"
TIMEOUTS = OptionSpec(
    "timeouts",
    "choice",
    ABSENT,
    "absent: a timeout makes its seat absent until it signs an entry again, the rules' defaults "
    "playing it meanwhile with no more claims; demand: each timeout stands in for one demand",
    choices=(ABSENT, "demand"),
    absent="demand",
)
COMPETE_NONE = "compete-none"
# House rules for a seat the rules' defaults play (retired, or absent with timeouts=absent): the
# rulebooks have no silent player. Games made before them read as made (``absent``).
RETIRED = OptionSpec(
    "retired",
    "choice",
    COMPETE_NONE,
    "compete-none: a seat the rules' defaults play when the game ends (retired, or absent) takes no "
    "comparative bonus of the final scoring (most, second most, fewest): the others take them as if "
    "it did not compete; compete: it competes like any seat",
    choices=(COMPETE_NONE, "compete"),
    absent="compete",
)
DEFAULT_PLACES = OptionSpec(
    "default_places",
    "choice",
    "chance",
    "chance: a default that must place something (a tile, a shield, a landscape) takes one of the "
    "legal places by the game's shared randomness; first: the first place in the rules' order",
    choices=("chance", "first"),
    absent="first",
)
# What every game with deadlines offers: the deadline, what a timeout claimed after it does, and
# how the rules' defaults play a silent seat.
DEADLINE_OPTIONS = (DEADLINE, TIMEOUTS, RETIRED, DEFAULT_PLACES)
OPEN = "open"
WITHHELD = OptionSpec(
    "withheld",
    "choice",
    OPEN,
    "open: a sealed choice whose maker lets the deadline of its reveal pass, having read the "
    "others' reveals, is opened by the escrow holders (it counts as sealed), and where nothing "
    "opens it counts as the least favourable choice the rules allow it, so withholding never "
    "pays; default: as the rules' default, the choice of a seat that never sealed one",
    choices=(OPEN, "default"),
    absent="default",
)
# What a game with sealed choices offers.
SEALED_OPTIONS = (WITHHELD,)
ESCROW = OptionSpec(
    "escrow",
    "choice",
    "others",
    "others: each seat's deck secret is dealt in escrow to the other seats, so they can read for a "
    "seat that goes silent what the game needs of it (3 or more players; with 2 the default is "
    "none); referee: a referee outside the game holds them (pbem new --referee NAME KEYFILE; the "
    "escrow two players can have); none: no escrow",
    choices=("none", "others", "referee"),
    absent="none",
)
ESCROW_THRESHOLD = OptionSpec(
    "escrow_threshold",
    "int",
    0,
    "with escrow=others, how many of the other seats together unlock a silent seat (0: all of them; "
    "at least 2)",
    minimum=0,
    maximum=9,
    absent=0,
)
RETIRE_AFTER = OptionSpec(
    "retire_after",
    "int",
    3,
    "deadlines a player may miss (with timeouts=absent: times it is made absent) before the rules' "
    "defaults play it for the rest of the game, even if it signs again (0: never)",
    minimum=0,
    maximum=100,
    absent=0,
)
ESCROW_SEALING = OptionSpec(
    "escrow_sealing",
    "choice",
    "proven",
    "proven: each share sealed in escrow carries a proof that its maker knows the secret of its "
    "ephemeral point, so a complaint about it opens no other share (a game made before the option "
    "seals them without: plain)",
    choices=("proven",),
    absent="plain",
)
# What every game with hidden decks offers, after its own options.
HIDDEN_DECK_OPTIONS = (ESCROW, ESCROW_THRESHOLD, ESCROW_SEALING, RETIRE_AFTER)


# A view as text in the terminal (``pbem show``): the game's title, the view a seat may see, and that
# seat's own sealed values by step.
TerminalView = Callable[[str, Mapping[str, Any], Mapping[str, str]], None]


@dataclass(frozen=True)
class Picture:
    """How a game is drawn (``--svg``, ``--html``, ``--png``, and the picture a message carries)."""

    # The SVG of a view (the rules' view by email) as a seat, or every player (None), sees it.
    draw: Callable[[Mapping[str, Any], str, str | None], str]
    # A companion-mode table's state as the view ``draw`` takes; None: tables are not drawn.
    table_view: Callable[[Any], dict[str, Any]] | None = None


def imported(path: str) -> Callable[[], Any]:
    """What ``module:name`` names (a part of a game its declaration names, an engine function a
    command runs), imported when called."""
    module, _, name = path.partition(":")

    def load() -> Any:
        return getattr(importlib.import_module(module), name)

    return load


def drawn(draw: str, table_view: str | None = None) -> Callable[[], Picture]:
    """A game's picture: where its ``draw`` is and, for a companion-mode table, its ``table_view``
    (both ``module:name``), imported when called."""

    def load() -> Picture:
        return Picture(imported(draw)(), None if table_view is None else imported(table_view)())

    return load


class Parts(TypedDict, total=False):
    """The parts of a game a declaration names (``GameInfo``'s fields of the same names)."""

    rules: Callable[[], Ruleset]
    tracker: Callable[[], Tracker[Any]]
    terminal: Callable[[], TerminalView]
    picture: Callable[[], Picture]
    hands: Callable[[], Hands[Any]]
    estimate: Callable[[], Estimate]


def package_parts(
    package: str, draw: str, *, terminal: bool = False, hands: bool = False, estimate: bool = False
) -> Parts:
    """The parts of a game package of the shape every game's has, where it keeps them: its rules
    (``rules.RULES``), its companion-mode tracker and the table's view a picture draws
    (``table/tracker.py``: ``TRACKER``, ``picture_view``), its own terminal view where it has one
    (``terminal.render``), what its state says of the hidden cards seats hold where it has hidden
    decks (``hands.HANDS``), its estimate of how a position will end for the computer player's
    playouts where it has one (``evaluate.ESTIMATE``), and its picture's ``draw``
    (``module:name``, under pbem.render.picture)."""
    parts = Parts(
        rules=imported(f"{package}.rules:RULES"),
        tracker=imported(f"{package}.table.tracker:TRACKER"),
        picture=drawn(draw, f"{package}.table.tracker:picture_view"),
    )
    if terminal:
        parts["terminal"] = imported(f"{package}.terminal:render")
    if hands:
        parts["hands"] = imported(f"{package}.hands:HANDS")
    if estimate:
        parts["estimate"] = imported(f"{package}.evaluate:ESTIMATE")
    return parts


def _given_info(load: Callable[[], Ruleset], info: GameInfo) -> Callable[[], Ruleset]:
    def rules() -> Ruleset:
        ruleset = load()
        ruleset.info = info  # given here: the rules never import their declaration, so no circle
        return ruleset

    return rules


@dataclass(frozen=True)
class GameInfo:
    """A game's declaration. What it names beyond its options is a function that imports it
    (``imported``, ``drawn``; ``package_parts`` names them all for a game package of the usual
    shape), so a command loads only the parts of one game it uses; the rules it loads are given
    the declaration they came from."""

    name: str
    title: str
    min_players: int
    max_players: int
    editions: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    aliases: tuple[str, ...] = ()
    # The rules played by email; None while a game can be set up and joined but not yet played.
    rules: Callable[[], Ruleset] | None = field(default=None, compare=False)
    # Companion mode (``pbem table``); None: the game has none.
    tracker: Callable[[], Tracker[Any]] | None = field(default=None, compare=False)
    # The game's own text for ``pbem show``; None: the view is printed from its shape.
    terminal: Callable[[], TerminalView] | None = field(default=None, compare=False)
    # The game's picture; None: pbem does not draw it.
    picture: Callable[[], Picture] | None = field(default=None, compare=False)
    # What its state says of the hidden cards each seat holds, which the ruleset protocol does not
    # ask (the rules-level dealer and the computer player read it); None: no hidden decks.
    hands: Callable[[], Hands[Any]] | None = field(default=None, compare=False)
    # How a position will likely end, for the computer player's playouts cut short
    # (pbem.kit.computer.estimate); None: its playouts go on to the end.
    estimate: Callable[[], Estimate] | None = field(default=None, compare=False)
    # Extra player-count rules beyond the range, e.g. "2 players needs unofficial_rules=true".
    seats_rule: Callable[[int, Mapping[str, OptionValue]], str | None] | None = field(
        default=None, compare=False
    )

    def __post_init__(self) -> None:
        if self.rules is not None:
            object.__setattr__(self, "rules", _given_info(self.rules, self))

    @property
    def default_edition(self) -> str:
        return self.editions[0]

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise UsageError(
            f"unknown option {name!r} for {self.name}; valid options: "
            + "; ".join(spec.describe() for spec in self.options)
        )

    def check_edition(self, edition: str) -> str:
        if edition not in self.editions:
            raise UsageError(
                f"unknown edition {edition!r} for {self.name}; valid editions: {', '.join(self.editions)}"
            )
        return edition

    def resolve_options(self, given: Mapping[str, str]) -> dict[str, OptionValue]:
        """Command-line ``key=value`` texts to a complete, validated option table."""
        resolved = {spec.name: spec.default for spec in self.options}
        for name, text in given.items():
            resolved[name] = self.option(name).parse(text)
        return resolved

    def check_options(self, options: Mapping[str, object]) -> dict[str, OptionValue]:
        """Validate a stored option table: every option present, none unknown."""
        for name in options:
            self.option(name)
        missing = [spec.name for spec in self.options if spec.name not in options and spec.absent is None]
        if missing:
            raise UsageError(f"options missing for {self.name}: {', '.join(missing)}")
        return {
            spec.name: spec.check(options[spec.name]) if spec.name in options else _absent(spec)
            for spec in self.options
        }

    def check_seats(self, count: int, options: Mapping[str, OptionValue]) -> None:
        if not self.min_players <= count <= self.max_players:
            raise UsageError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, not {count}"
            )
        if self.seats_rule is not None:
            problem = self.seats_rule(count, options)
            if problem:
                raise UsageError(problem)
