"""The move grammar of Princes of the Renaissance by email: text to moves and back.

Moves (text form):
    bid N                 a sealed turn-order bid; a raise in the family bidding; a bid in an auction
    pass                  leave the family bidding or an auction; as an action, do nothing this
                          turn; decline anything optional that is offered
    family NAME           take a family: baglioni, bentivoglio, este (d'Este), gonzaga, malatesta,
                          montefeltro
    buy TROOP | buy card  buy a Troop tile (infantry, crossbowmen, pikemen, cavalry, artillery) or
                          a Treachery card (also as a nominator's compensation)
    discard TROOP|TOKEN   discard a Troop tile instead of buying; a card, face down, when over the
                          hand limit (by its token, ``treachery:N``: ``pbem show --as`` lists them)
    auction TILE N        put a City tile, an Event tile or the Pope (``pope``) up, opening at N
    war CITY CITY         start a war: the attacking city, then the defending one
    place CITY            place a won Artist or French Invade tile
    play CARD [ARGS]      a Treachery card: veto; bad-weather CITY; freeze-bid SEAT;
                          steal-influence SEAT; steal-gold-shipment SEAT; start-war CITY CITY;
                          bribe-troops SEAT TROOP; bribe-cardinal (in a Pope auction: the card
                          pays 3 influence of the Pope's price if its holder wins)
    use TILE [SEAT]       a tile's power on one's turn: Lucrezia Borgia (SEAT), a free card
                          (Alfonso of Aragon, Pallavicino, or ``use malatesta``)
    bank N gold|influence the Banker: N (1-3) gold for as much influence, or the reverse
    league SIDE           the Pope's Holy League with the attacker or the defender
    reroll                Ludovico Sforza: the war's dice rolled again
    declare gold|influence   Baglioni (B side): the decade's discount
    keep TOKEN            Bentivogli: the card kept of the two drawn (the other goes under the deck)
    rank CITY             Bentivogli (A side): the city that wins a tie on status and Artist tiles
                          (``pass`` lets the tie stand)
    give N gold|influence to SEAT
                          a gift to another player, at any time, on one's turn or not
Cities: venice, milan, florence, rome, naples.

``give`` and ``bank`` are free moves: a player may make them whenever the game is on, whoever
is asked to move (the engine lets a free move through without a demand; the rules still check it).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pbem.crypto.identity import valid_name
from pbem.errors import MoveSyntaxError
from pbem.games.princes_of_the_renaissance import components as parts
from pbem.games.princes_of_the_renaissance import deck, exchange
from pbem.games.princes_of_the_renaissance.state import ATTACKER, DEFENDER
from pbem.kit.grammar import NUMBER, Bid, MoveBase, Pass, bid_or_pass, only, refusal, words

FAMILY_ALIASES = {"d'este": "este", "deste": "este", "bentivogli": "bentivoglio"}
NAME = re.compile(r"[a-z0-9][a-z0-9'_-]{0,63}")


class Family(MoveBase, form="family {name}"):
    name: str


class Buy(MoveBase, form="buy {item}"):
    item: str  # a troop type, or "card"


class Discard(MoveBase, form="discard {item}"):
    item: str  # a troop type or a Treachery card's token


class Nominate(MoveBase, form="auction {tile} {bid}"):
    tile: str
    bid: int


class Place(MoveBase, form="place {city}"):
    city: str


class StartWar(MoveBase, form="war {attacker} {defender}"):
    attacker: str
    defender: str


class Play(MoveBase, form="play {card}[ {args}]"):
    card: str
    args: tuple[str, ...] = ()


class Use(MoveBase, form="use {source}[ {target}]"):
    source: str
    target: str = ""


class Bank(MoveBase, form="bank {amount} {currency}"):
    amount: int
    currency: str


class League(MoveBase, form="league {side}"):
    side: str


class Reroll(MoveBase, form="reroll"):
    """``reroll``: Ludovico Sforza has the war's dice rolled again."""


class Declare(MoveBase, form="declare {currency}"):
    currency: str


class Keep(MoveBase, form="keep {card}"):
    card: str  # a token


class Rank(MoveBase, form="rank {city}"):
    city: str  # the tied city Bentivogli declares the winner


class Give(MoveBase, form="give {amount} {currency} to {to}"):
    amount: int
    currency: str
    to: str


Move = (
    (Bid | Pass | Family | Buy | Discard | Nominate | Place | StartWar | Play | Use | Bank | League | Reroll)
    | Declare
    | Keep
    | Rank
    | Give
)
GIFT_WORDS = [[currency, "to"] for currency in exchange.CURRENCIES]
CARD_ARGS = {
    "veto": 0,
    "bad-weather": 1,
    "freeze-bid": 1,
    "steal-influence": 1,
    "steal-gold-shipment": 1,
    "start-war": 2,
    "bribe-troops": 2,
    "bribe-cardinal": 0,
}
FORMS = (
    "'bid N', 'pass', 'family NAME', 'buy TROOP', 'buy card', 'discard TROOP', 'discard TOKEN', "
    "'auction TILE N', 'war CITY CITY', 'place CITY', 'play CARD ...', 'use TILE', 'bank N gold', "
    "'league SIDE', 'reroll', 'declare gold', 'keep TOKEN', 'rank CITY' or 'give N gold to SEAT'"
)
VERB_FORMS = {
    "bid": "'bid N' (N a whole number)",
    "pass": "'pass'",
    "family": "'family NAME'",
    "buy": "'buy TROOP' or 'buy card'",
    "discard": "'discard TROOP' or 'discard TOKEN' (a card's token, treachery:N: pbem show --as SEAT)",
    "auction": "'auction TILE N' (N the opening bid)",
    "war": "'war ATTACKING-CITY DEFENDING-CITY'",
    "place": "'place CITY'",
    "play": "'play veto', 'play bad-weather CITY', 'play freeze-bid SEAT', 'play steal-influence SEAT', "
    "'play steal-gold-shipment SEAT', 'play start-war CITY CITY', 'play bribe-troops SEAT TROOP' or "
    "'play bribe-cardinal'",
    "use": "'use TILE' or 'use TILE SEAT' (Lucrezia Borgia)",
    "bank": "'bank N gold' or 'bank N influence' (N from 1 to 3)",
    "league": "'league attacker' or 'league defender'",
    "reroll": "'reroll'",
    "declare": "'declare gold' or 'declare influence'",
    "keep": "'keep TOKEN' (one of the two cards drawn, treachery:N: pbem show --as SEAT)",
    "rank": "'rank CITY' (the one tied city that wins the tie; 'pass' lets the tie stand)",
    "give": "'give N gold to SEAT' or 'give N influence to SEAT'",
}


# A move is read again from the text it was listed as, every move of a game: the moves read are
# kept (they are values), the oldest let go; a refusal is not kept, and is raised again.
@lru_cache(maxsize=1 << 12)
def parse(text: str) -> Move:
    """The move ``text`` writes, or a MoveSyntaxError with the forms of its verb."""
    move = _parse(*words(text))
    if move is None:
        raise refusal(text, VERB_FORMS, FORMS)
    return move


_BY_TOKEN = (
    "{verb} names a Treachery card by its token, as in '{verb} treachery:7': nobody else knows "
    "which card it is (pbem show FILE --as SEAT lists your hand)"
)


def _parse(verb: str, rest: list[str]) -> Move | None:
    one = only(rest)
    if verb in ("bid", "pass"):
        return bid_or_pass(verb, rest)
    if verb == "reroll" and not rest:
        return Reroll()
    if verb == "family" and one:
        name = FAMILY_ALIASES.get(one, one)
        if name not in parts.FAMILIES:
            raise MoveSyntaxError(f"unknown family {one!r}; families: {', '.join(parts.FAMILIES)}")
        return Family(name)
    if verb == "buy" and one:
        item = "card" if one in ("card", "treachery") else one
        return Buy(item) if item == "card" or item in parts.TROOPS else None
    if verb == "discard" and one:
        if one in parts.CARDS:
            raise MoveSyntaxError(_BY_TOKEN.format(verb="discard"))
        return Discard(one) if one in parts.TROOPS or deck.TOKEN.fullmatch(one) else None
    if verb == "auction" and len(rest) == 2 and NAME.fullmatch(rest[0]) and NUMBER.fullmatch(rest[1]):
        return Nominate(rest[0], int(rest[1]))
    if verb == "war" and len(rest) == 2 and all(city in parts.CITIES for city in rest):
        return StartWar(rest[0], rest[1])
    if verb == "place" and one:
        return Place(one) if one in parts.CITIES else None
    if verb == "play" and rest and rest[0] in CARD_ARGS:
        args = tuple(rest[1:])
        if len(args) == CARD_ARGS[rest[0]] and all(_word(arg) for arg in args):
            return Play(rest[0], args)
        return None
    if verb == "use" and 1 <= len(rest) <= 2 and all(_word(word) for word in rest):
        return Use(rest[0], rest[1] if len(rest) == 2 else "")
    if verb == "bank" and len(rest) == 2 and NUMBER.fullmatch(rest[0]) and rest[1] in parts.CURRENCIES:
        return Bank(int(rest[0]), rest[1])
    if verb == "league" and one in (ATTACKER, DEFENDER):
        return League(one)
    if verb == "declare" and one in parts.CURRENCIES:
        return Declare(one)
    if verb == "keep" and one in parts.CARDS:
        raise MoveSyntaxError(_BY_TOKEN.format(verb="keep"))
    if verb == "keep" and one and deck.TOKEN.fullmatch(one):
        return Keep(one)
    if verb == "rank" and len(rest) > 1 and all(city in parts.CITIES for city in rest):
        raise MoveSyntaxError(
            "Bentivogli names only the city that wins the tie, as in 'rank milan'; the other tied "
            "cities stay tied"
        )
    if verb == "rank" and one in parts.CITIES:
        return Rank(one)
    if verb == "give" and len(rest) == 4 and NUMBER.fullmatch(rest[0]) and rest[1:3] in GIFT_WORDS:
        return Give(int(rest[0]), rest[1], rest[3]) if _word(rest[3]) else None
    return None


def _word(text: str) -> bool:
    """A tile, city or card id, or a seat's name (which may be in any alphabet: José, 李雷)."""
    return bool(NAME.fullmatch(text)) or valid_name(text)
