"""The move grammar of Il Principe by email: text to moves and back.

A building card in a hand is named by its token (``building:17``) while only its holder knows it,
or by its colour once it is public (a card won at auction): ``reserve building:17 red``. Cities
and regions are named by their ids in the game's components (``firenze``, ``brown``).
docs/rules/il-principe.md, "By email", gives each move beside the rule it rests on.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from itertools import product, starmap

from pbem.errors import MoveSyntaxError
from pbem.games.il_principe.components import COLOURS
from pbem.kit.grammar import NAME, Bid, MoveBase, Pass, bid_or_pass, tokens, words

TOKEN = tokens("building")


class Reserve(MoveBase, form="reserve {cards}"):
    cards: tuple[str, ...]


def reserve_words(sets: Iterable[str]) -> list[str]:
    """``Reserve(cards).said()`` for each set of cards given as its words (``" ".join(cards)``),
    written without making the moves: every seat lists its reserves each round, dozens of them."""
    return [f"reserve {words}" for words in sets]


class Show(MoveBase, form="show"):
    """``show``: the reserve turned face up."""


class Build(MoveBase, form="build {city} with {cards}[ shields {shields}]"):
    off_picture = ("cards", "shields")
    city: str
    cards: tuple[str, ...]
    shields: tuple[str, ...] = ()


def build_texts(city: str, cards: Sequence[str], shields: Sequence[tuple[str, ...]]) -> list[str]:
    """``Build(city, c, s).said()`` for each set of cards ``c`` (given as its words, ``" ".join``),
    then each set of regions ``s``: a city's moves run to hundreds, so each is put together from
    pieces written once, the cards' for each set of cards and the shields' for each set of
    regions."""
    heads = [f"build {city} with {words}" for words in cards]
    joined = [" ".join(regions) for regions in shields]
    tails = [f" shields {regions}" if regions else "" for regions in joined]
    # each head with each tail, joined without a loop in Python
    return list(starmap(operator.add, product(heads, tails)))


class Play(MoveBase, form="play {cards}"):
    off_picture = ("cards",)
    cards: tuple[str, ...]


class TurnUp(MoveBase, form="turn up {colour}"):
    colour: str


class Shield(MoveBase, form="shield {region}"):
    region: str


def shield_texts(regions: Iterable[str]) -> list[str]:
    """``Shield(region).said()`` for each region, written without making the moves."""
    return [f"shield {region}" for region in regions]


Move = Reserve | Show | Bid | Pass | Build | Play | TurnUp | Shield

GRAMMAR = (
    "reserve CARD ...; show; bid N; pass; build CITY with CARD ... [shields REGION ...]; "
    "play CARD ...; turn up COLOUR; shield REGION (CARD: a token like building:17, or a colour "
    "for a public card)"
)


def _card(text: str, word: str) -> str:
    if TOKEN.fullmatch(word) or word in COLOURS:
        return word
    raise MoveSyntaxError(
        f"{text!r}: {word!r} is not a card: a token like building:17, or one of {', '.join(COLOURS)}"
    )


def _name(text: str, word: str, what: str) -> str:
    if not NAME.fullmatch(word):
        raise MoveSyntaxError(f"{text!r}: {word!r} is not a {what} name")
    return word


# A move is read several times (checked, then played, and by every seat replaying the game), and
# a game's bids and passes are the same few texts: each text is read once. Moves are frozen, so
# every reader may share one.
@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Move:
    verb, rest = words(text)
    if not verb:
        raise MoveSyntaxError(f"{text!r}: an empty move; moves: {GRAMMAR}")
    if verb == "reserve" and rest:
        return Reserve(tuple(_card(text, word) for word in rest))
    if verb == "show" and not rest:
        return Show()
    auction = bid_or_pass(verb, rest)
    if auction is not None:
        return auction
    if verb == "bid" and len(rest) == 1:
        raise MoveSyntaxError(f"{text!r}: a bid is a whole number of ducats")
    if verb == "build" and len(rest) >= 3 and rest[1] == "with":
        city = _name(text, rest[0], "city")
        after = rest[2:]
        shields: tuple[str, ...] = ()
        if "shields" in after:
            at = after.index("shields")
            shields = tuple(_name(text, word, "region") for word in after[at + 1 :])
            after = after[:at]
        if not after:
            raise MoveSyntaxError(f"{text!r}: name the cards the city takes after 'with'")
        return Build(city, tuple(_card(text, word) for word in after), shields)
    if verb == "play" and rest:
        return Play(tuple(_card(text, word) for word in rest))
    if verb == "turn" and len(rest) == 2 and rest[0] == "up":
        if rest[1] not in COLOURS:
            raise MoveSyntaxError(f"{text!r}: {rest[1]!r} is not a colour: {', '.join(COLOURS)}")
        return TurnUp(rest[1])
    if verb == "shield" and len(rest) == 1:
        return Shield(_name(text, rest[0], "region"))
    raise MoveSyntaxError(f"{text!r}: not a move; moves: {GRAMMAR}")


def format_move(move: Move) -> str:
    return move.said()
