"""The move grammar of Princes of Florence by email: text to moves and back.

Cards a player holds are named by their tokens (``profession:7``, ``bonus:3``, ``prestige:12``):
nobody else knows what they are (``pbem show FILE --as SEAT`` lists a hand). Squares and placements
are the estate's (``theatre at c3 rot 90``, ``estate.parse_placement``).
"""

from __future__ import annotations

import functools
from typing import ClassVar

from pbem.errors import MoveSyntaxError
from pbem.games.princes_of_florence import estate as grid
from pbem.kit.grammar import (
    NAME,
    NUMBER,
    Bid,
    MoveBase,
    Pass,
    bid_or_pass,
    only,
    refusal,
    tokens,
    words,
)

TOKEN = tokens("profession", "bonus", "prestige")
LOT_NAMES = ("forest", "lake", "park", "landscape", "jester", "builder", "prestige-card", "recruitment")


class Return(MoveBase, form="return {token}"):
    token: str


class Nominate(MoveBase, form="auction {lot}"):
    lot: str


class Buy(MoveBase, form="buy {lot}"):
    lot: str


class Place(MoveBase):
    placement: grid.Placement
    shape: ClassVar[str] = "place {piece} at {square} rot {rotation}[ {mirrored}]"

    def parts(self) -> tuple[str, ...]:
        return _placed(self.placement)


class Build(MoveBase):
    placement: grid.Placement
    shape: ClassVar[str] = "build {piece} at {square} rot {rotation}[ {mirrored}]"

    def parts(self) -> tuple[str, ...]:
        return _placed(self.placement)


def _placed(placement: grid.Placement) -> tuple[str, ...]:
    """A placement's words as ``format_placement`` writes them, field by field."""
    return (
        placement.piece,
        grid.format_square(placement.at),
        str(placement.rotation),
        "mirrored" if placement.mirrored else "",
    )


class Freedom(MoveBase, form="freedom {kind}"):
    kind: str


class Take(MoveBase, form="take {deck}[ {card}]"):
    deck: str  # profession or bonus
    card: str = ""  # unofficial rules: the profession face up that is taken


class Keep(MoveBase, form="keep {token}[ under {under}]"):
    token: str
    under: tuple[str, ...] = ()  # the others, in the order they go under the deck


class CreateWork(MoveBase, form="work {profession}[ {bonuses}]"):
    profession: str  # a token
    bonuses: tuple[str, ...] = ()  # tokens


class Payment(MoveBase, form="prestige {prestige}"):
    prestige: int


class Recruit(MoveBase, form="recruit {profession} from {owner}"):
    profession: str
    owner: str


class Reveal(MoveBase, form="reveal {token}"):
    token: str


class Sell(MoveBase, form="sell prestige {points}"):
    points: int


Move = (
    Return
    | Nominate
    | Bid
    | Pass
    | Buy
    | Place
    | Build
    | Freedom
    | Take
    | Keep
    | CreateWork
    | Payment
    | Recruit
) | (Reveal | Sell)

FORMS = {
    "return": "'return TOKEN' (the profession card dealt and not kept, as profession:7)",
    "auction": "'auction LOT' (forest, lake, park, jester, builder, prestige-card or recruitment; "
    "'landscape' with the unofficial rules)",
    "bid": "'bid N' (the last bid and 100 more)",
    "pass": "'pass'",
    "buy": "'buy LOT' (the last player in a round's auctions)",
    "place": f"'place LANDSCAPE at SQUARE [rot 0|90|180|270]' ({grid.PLACEMENT_FORM})",
    "build": f"'build BUILDING at SQUARE [rot 0|90|180|270] [mirrored]' ({grid.PLACEMENT_FORM})",
    "freedom": "'freedom opinion|religion|travel'",
    "take": "'take profession', 'take profession NAME' (unofficial rules) or 'take bonus'",
    "keep": "'keep TOKEN [under TOKEN ...]' (the others drawn, in the order they go under the deck)",
    "work": "'work TOKEN [TOKEN ...]' (a profession card, then the bonus cards played)",
    "prestige": "'prestige K' (K prestige taken instead of 200 florins each; 'prestige 0' for florins)",
    "recruit": "'recruit PROFESSION from SEAT'",
    "reveal": "'reveal TOKEN' (a prestige card, at the end)",
    "sell": "'sell prestige N'",
}


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Move:
    """The move ``text`` writes (a move is a frozen value, so the same text read again, as the
    moves listed are played, is the same move)."""
    move = _parse(*words(text), text)
    if move is None:
        raise refusal(text, FORMS, ", ".join(FORMS.values()))
    return move


def _token(word: str, deck: str) -> bool:
    return bool(TOKEN.fullmatch(word)) and word.startswith(f"{deck}:")


def _parse(verb: str, rest: list[str], text: str) -> Move | None:
    one = only(rest)
    if verb in ("bid", "pass"):
        return bid_or_pass(verb, rest)
    if verb == "return" and _token(one, "profession"):
        return Return(one)
    if verb == "auction" and one in LOT_NAMES:
        return Nominate(one)
    if verb == "buy" and one in LOT_NAMES:
        return Buy(one)
    if verb in ("place", "build") and rest:
        placement = grid.parse_placement(" ".join(rest))
        return Place(placement) if verb == "place" else Build(placement)
    if verb == "freedom" and one and NAME.fullmatch(one):
        return Freedom(one)
    if verb == "take" and rest[:1] == ["bonus"] and len(rest) == 1:
        return Take("bonus")
    if verb == "take" and rest[:1] == ["profession"] and len(rest) <= 2:
        card = rest[1] if len(rest) == 2 else ""
        return Take("profession", card) if not card or NAME.fullmatch(card) else None
    if verb == "keep" and rest and TOKEN.fullmatch(rest[0]):
        under = rest[2:] if rest[1:2] == ["under"] else None
        if len(rest) == 1:
            return Keep(rest[0])
        if under and all(TOKEN.fullmatch(word) for word in under):
            return Keep(rest[0], tuple(under))
        return None
    if verb == "work" and rest and _token(rest[0], "profession"):
        if all(_token(word, "bonus") for word in rest[1:]):
            return CreateWork(rest[0], tuple(rest[1:]))
        raise MoveSyntaxError(f"{text!r}: a work names its profession card, then only bonus cards (bonus:N)")
    if verb == "prestige" and NUMBER.fullmatch(one):
        return Payment(int(one))
    if verb == "recruit" and len(rest) == 3 and rest[1] == "from" and NAME.fullmatch(rest[0]):
        return Recruit(rest[0], rest[2])
    if verb == "reveal" and _token(one, "prestige"):
        return Reveal(one)
    if verb == "sell" and len(rest) == 2 and rest[0] == "prestige" and NUMBER.fullmatch(rest[1]):
        return Sell(int(rest[1]))
    return None


def format_move(move: Move) -> str:
    if isinstance(move, Place):
        return f"place {grid.format_placement(move.placement)}"
    if isinstance(move, Build):
        return f"build {grid.format_placement(move.placement)}"
    return move.said()
