"""What a game's rules know of the seats the rules' defaults play, for two house rules the
rulebooks cannot give (none of them has a silent player):

- ``retired=compete-none``: a seat the defaults play when the game ends competes for no comparative
  bonus of the final scoring. Its defaults only pass, so it hoards: ducats, cards, influence nobody
  spends; left in the comparisons it takes a prize from a player still playing.
- ``default_places=chance``: where a default must put something (a tile on a city, a shield in a
  region, a landscape on an estate), it takes a place by the game's shared randomness instead of
  the first one in a list, which would always favour the same city or region.

The engine tells the rules (``played_by_defaults``) which seats its defaults play and a value
fixed by every seat's randomness: the last random event decided, or before any, every seat's
chain as the game began. Nobody chooses it; every verifier computes the same. A game made before
these options (their ``absent`` values) keeps ``Defaults()``, and replays as it was made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from pbem.engine.declaration import COMPETE_NONE, OptionValue

T = TypeVar("T")
DOMAIN = b"pbem/default-place/v1"


@dataclass(frozen=True)
class Defaults:
    compete: bool = True  # retired=compete: such a seat competes like any other
    by_chance: bool = False  # default_places=chance
    seats: tuple[str, ...] = ()  # the seats the defaults play now (kept only when they compete for nothing)
    chance: bytes = b""  # kept only with by_chance

    @classmethod
    def of(cls, options: Mapping[str, OptionValue]) -> Defaults:
        return cls(options.get("retired") != COMPETE_NONE, options.get("default_places") == "chance")

    def told(self, seats: Sequence[str], chance: bytes) -> Defaults:
        """These rules once told the engine's news; ``self`` when nothing they read changed, so a
        game made before the options keeps the very state it had."""
        kept = () if self.compete else tuple(seats)
        luck = chance if self.by_chance else b""
        if kept == self.seats and luck == self.chance:
            return self
        return replace(self, seats=kept, chance=luck)

    @property
    def aside(self) -> tuple[str, ...]:
        """The seats that compete for no comparative bonus (none under retired=compete)."""
        return self.seats

    def competing(self, seats: Iterable[str]) -> list[str]:
        return [seat for seat in seats if seat not in self.seats]

    def place(self, places: Sequence[T], *labels: str) -> T:
        """The place a default puts something: the first of ``places`` (their order is the rules'),
        or, by chance, one of them fixed by the shared value and ``labels`` (what is placed, by
        whom, at which step), each equally likely but for a bias below 2**-200."""
        if not places:
            raise ValueError("a default place among none")
        if not self.by_chance or len(places) == 1:
            return places[0]
        digest = hashlib.sha256(DOMAIN)
        for part in (self.chance, *(label.encode("utf-8") for label in labels)):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
        return places[int.from_bytes(digest.digest(), "big") % len(places)]


# The defaults of a game made before the options: it competes, and places first.
OLD_READING = Defaults()


class Told(Protocol):
    @property
    def defaults(self) -> Defaults: ...


G = TypeVar("G", bound=Told)


def told(state: G, seats: Sequence[str], chance: bytes) -> G:
    """``state`` (a dataclass with a ``defaults`` field) told the engine's news; the same object
    when nothing changed."""
    now = state.defaults
    news = now.told(seats, chance)
    return state if news is now else replace(state, defaults=news)  # type: ignore[type-var]
