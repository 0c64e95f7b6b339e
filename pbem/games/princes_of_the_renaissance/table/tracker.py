"""Companion mode for Princes of the Renaissance: a game on a real table, recorded action by action.

The table's state is the email game's own ``Game`` dataclass, so income and the final score come
from the same functions (``decade.income_lines``, ``scoring.breakdown``) whichever way the game is
played. The players run the auctions and roll the dice themselves; the log records their results
(``alice wins city florence/banker for 14``, ``war venice florence won-by bob double``) and pbem
checks each against the rules it can see: the City tile limits, status 3..10, the war limit, who
may bid to be a condottiere, what a player can pay. Treachery cards stay in the players' hands:
the log counts them, never names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.companion import words
from pbem.companion.tracker import Cell, ComponentValues, EventForm, Forms, Report, Sheet
from pbem.engine.json_shape import snake_scores
from pbem.errors import IllegalMoveError, MoveSyntaxError, UsageError
from pbem.games.princes_of_the_renaissance import components as parts_mod
from pbem.games.princes_of_the_renaissance import decade, exchange, opening, scoring, war
from pbem.games.princes_of_the_renaissance.components import CITIES, FAMILIES, TROOPS
from pbem.games.princes_of_the_renaissance.state import ATTACKER, DEFENDER, ROMAN, Game
from pbem.kit.rules import Options

TABLE = "table"
CURRENCIES = ("gold", "influence")

EVENTS = (
    EventForm(
        "SEAT takes family FAMILY [for N]",
        "alice takes family este for 6",
        "a Family tile chosen at setup, paying N gold bid for it",
    ),
    EventForm(
        "SEAT wins city CITY/TILE for N",
        "alice wins city florence/banker for 14",
        "a City tile won at auction for a bid of N gold; pbem takes off the winner's discounts",
    ),
    EventForm(
        "SEAT wins event EVENT [on CITY] for N",
        "bob wins event i-botticelli on venice for 5",
        "an Event tile won for a bid of N in its currency; Artist and French tiles name their city",
    ),
    EventForm(
        "SEAT wins pope for N",
        "carla wins pope for 6",
        "the Pope won for a bid of N influence (discounts and Pope-discount tiles taken off)",
    ),
    EventForm("SEAT buys troop TROOP", "alice buys troop pikemen", "a Troop tile at its printed cost"),
    EventForm("SEAT discards troop TROOP", "alice discards troop pikemen", "a Troop tile back to the supply"),
    EventForm("SEAT buys card", "bob buys card", "a Treachery card at its price (the card is not named)"),
    EventForm("SEAT gets card", "bob gets card", "a Treachery card for free (a tile power, compensation)"),
    EventForm("SEAT plays card | SEAT discards card", "bob plays card", "a Treachery card leaves the hand"),
    EventForm(
        "SEAT condottiere CITY for N",
        "bob condottiere venice for 3",
        "SEAT wins the condottiere auction of CITY for the next war, bidding N influence",
    ),
    EventForm(
        "war ATTACKER DEFENDER [card] won-by SEAT|CITY [double]",
        "war venice florence won-by bob double",
        "a war's result: the winner +1 (+2 when double), the loser -1 (-2); 'card' for Start War",
    ),
    EventForm(
        "war ATTACKER DEFENDER [card] tie | vetoed",
        "war milan rome tie",
        "a war that ends in a tie or is vetoed; it still counts toward the decade's wars",
    ),
    EventForm("status CITY +N|-N|N", "status venice +1", "move a city's status marker (3..10)"),
    EventForm("artist CITY", "artist venice", "correct a city's Artist tile count by one more"),
    EventForm(
        "SEAT gives N gold|influence to SEAT",
        "bob gives 3 gold to carla",
        "gold or influence handed to another player: a deal struck, a Holy League bought",
    ),
    EventForm("SEAT pays N gold|influence", "bob pays 3 influence", "a payment to the bank"),
    EventForm("SEAT gets N gold|influence", "alice gets 2 gold", "a payment from the bank"),
    EventForm("SEAT gold|influence|victories +N|-N", "alice victories +1", "a correction"),
    EventForm("SEAT uses CITY/TILE", "alice uses florence/banker", "a once-per-decade tile power spent"),
    EventForm(
        "SEAT declares gold|influence",
        "dario declares gold",
        "Baglioni (B side): the currency of this decade's discount",
    ),
    EventForm(
        "rank CITY",
        "rank milan",
        "Bentivogli (A side): CITY wins its tie on status and Artist tiles; the others stay tied",
    ),
    EventForm("income", "income", "the decade ends: every player's income is paid (pbem table income)"),
)
QUERIES = (
    EventForm("income", "income", "each player's income if the decade ended now, line by line"),
    EventForm("cities", "cities", "each city's status, Artist tiles and City tile value now"),
)


@dataclass
class TableGame:
    game: Game
    cards: dict[str, int]
    hires: dict[str, tuple[str, int]] = field(default_factory=dict)  # city -> (seat, bid)
    wars: list[str] = field(default_factory=list)  # this decade's wars, as recorded

    def copy(self) -> TableGame:
        return replace(
            self, game=self.game.copy(), cards=dict(self.cards), hires=dict(self.hires), wars=list(self.wars)
        )


class Tracker(Forms):
    def start(
        self, players: Sequence[str], edition: str, options: Options, components: ComponentValues | None
    ) -> TableGame:
        if components is None:
            raise UsageError("a Princes of the Renaissance table needs its component values")
        parts = parts_mod.parse(components, edition=edition)
        game = opening.setup(players, edition, {**options, "turn_order": "bid"}, parts)
        game.phase, game.decade, game.order = TABLE, 1, list(players)
        return TableGame(game, dict.fromkeys(players, 0))

    def apply(self, state: TableGame, text: str) -> tuple[TableGame, Sheet]:
        table = state.copy()
        said = words.split(text)
        if table.game.ended and said[0] != "rank":
            raise IllegalMoveError(f"{text!r}: the game is over (decade III's income is paid)")
        return table, _act(table, text, said)

    def query(self, state: TableGame, text: str) -> Sheet:
        said = words.split(text)
        if said == ["income"]:
            return (_income_report(state.game, paid=False),)
        if said == ["cities"]:
            return (_cities_report(state.game),)
        forms = "; ".join(form.form for form in QUERIES)
        raise MoveSyntaxError(f"{text!r}: not a calculation pbem knows; the forms are: {forms}")

    def income_action(self, state: TableGame) -> str | None:
        return None if state.game.ended else "income"

    def show(self, state: TableGame) -> Sheet:
        return (
            _cities_report(state.game),
            _players_report(state),
            _holdings_report(state.game),
            _wars_report(state),
        )

    def score(self, state: TableGame) -> Sheet:
        return (_score_report(state.game),)

    def totals(self, state: TableGame) -> dict[str, int]:
        return {seat: row["total"] for seat, row in scoring.breakdown(state.game).items()}

    def complete(self, state: TableGame, said: Sequence[str], incomplete: str) -> list[str]:
        game = state.game
        seats = list(game.seats)
        tiles = [tile.id.replace("-", "/", 1) for tile in game.components.city_tiles]
        if not said:
            return words.prefixed([*seats, "war", "status", "artist", "rank", "income"], incomplete)
        first = said[0]
        if (first in ("status", "artist") and len(said) == 1) or (first == "war" and len(said) < 3):
            return words.prefixed(CITIES, incomplete)
        if first == "rank":
            return words.prefixed(CITIES, incomplete)
        if first in seats and len(said) == 1:
            verbs = [
                "takes",
                "wins",
                "buys",
                "discards",
                "gets",
                "gives",
                "plays",
                "condottiere",
                "pays",
                "gold",
                "influence",
                "victories",
                "uses",
                "declares",
            ]
            return words.prefixed(verbs, incomplete)
        if first in seats and len(said) == 2:
            return words.prefixed(_objects(game, said[1], tiles), incomplete)
        if first == "war":
            return words.prefixed(_war_words(said, seats), incomplete)
        if first in seats:
            return words.prefixed(_following(game, said, tiles), incomplete)
        return []


def _following(game: Game, said: Sequence[str], tiles: list[str]) -> list[str]:
    """The words a seat's action may go on with after ``said`` (its third word on), as EVENTS
    write them; none where a number comes next (the page's keypad, the shell's typing)."""
    verb, rest = said[1], list(said[2:])
    seats = list(game.seats)
    if verb == "wins" and rest == ["city"]:
        return tiles
    if verb == "wins" and rest == ["event"]:
        return [event.id for event in game.components.events]
    if verb == "wins" and (rest == ["pope"] or (len(rest) == 2 and rest[0] == "city")):
        return ["for"]
    if verb == "wins" and rest[:1] == ["event"] and len(rest) == 2:
        return ["on", "for"]
    if verb == "wins" and rest[:1] == ["event"] and len(rest) == 3 and rest[2] == "on":
        return list(CITIES)
    if verb == "wins" and rest[:1] == ["event"] and len(rest) == 4 and rest[2] == "on":
        return ["for"]
    if verb == "takes" and rest == ["family"]:
        return list(FAMILIES)
    if verb == "takes" and len(rest) == 2 and rest[0] == "family":
        return ["for"]
    if verb in ("buys", "discards") and rest == ["troop"]:
        return list(TROOPS)
    if verb == "condottiere" and len(rest) == 1:
        return ["for"]
    if verb in ("gives", "pays", "gets") and len(rest) == 1 and rest[0].isdigit():
        return list(CURRENCIES)
    if verb == "gives" and len(rest) == 2 and rest[1] in CURRENCIES:
        return ["to"]
    if verb == "gives" and len(rest) == 3 and rest[2] == "to":
        return [seat for seat in seats if seat != said[0]]
    return []


def _war_words(said: Sequence[str], seats: list[str]) -> list[str]:
    """The words a war's result may go on with after its two cities (``war A D [card] won-by
    SEAT|CITY [double]``, or ``tie`` or ``vetoed``)."""
    rest = list(said[3:])
    if rest in ([], ["card"]):
        return [*([] if rest else ["card"]), "won-by", "tie", "vetoed"]
    if rest[-1:] == ["won-by"]:
        return [*seats, *said[1:3]]
    if len(rest) >= 2 and rest[-2] == "won-by":
        return ["double"]
    return []


def _objects(game: Game, verb: str, tiles: list[str]) -> list[str]:
    return {
        "takes": ["family"],
        "wins": ["city", "event", "pope"],
        "buys": ["troop", "card"],
        "discards": ["troop", "card"],
        "plays": ["card"],
        "condottiere": list(CITIES),
        "uses": tiles,
        "declares": list(CURRENCIES),
    }.get(verb, [])


# --- reading and applying actions --------------------------------------------------------------------


def _act(table: TableGame, text: str, said: list[str]) -> Sheet:
    game = table.game
    first = said[0]
    if said == ["income"]:
        return _end_decade(table)
    if first == "war":
        return _war(table, text, said)
    if first == "status":
        words.expect(text, said, 3, "status CITY +N|-N|N")
        _status(game, text, words.one_of(text, said[1], "city", CITIES), said[2])
        return ()
    if first == "artist":
        words.expect(text, said, 2, "artist CITY")
        game.artists[words.one_of(text, said[1], "city", CITIES)] += 1
        return ()
    if first == "rank":
        words.expect(text, said, 2, "rank CITY")
        _rank(game, text, words.one_of(text, said[1], "city", CITIES))
        return ()
    if first not in game.seats:
        forms = ", ".join(sorted({form.form.split()[0] for form in EVENTS}))
        raise MoveSyntaxError(
            f"{text!r}: an action starts with a player ({', '.join(game.seats)}) or one of: {forms}"
        )
    if len(said) < 2:
        raise MoveSyntaxError(f"{text!r}: what does {first} do? `pbem table events` lists the forms")
    _seat_action(table, text, first, said[1], said[2:])
    return ()


def _seat_action(table: TableGame, text: str, seat: str, verb: str, rest: list[str]) -> None:
    game = table.game
    player = game.players[seat]
    if verb == "takes" and rest[:1] == ["family"] and len(rest) in (2, 4):
        family = words.one_of(text, rest[1], "family", FAMILIES)
        taken = [other for other, held in game.players.items() if held.family == family]
        if taken:
            raise IllegalMoveError(f"{text!r}: {taken[0]} already has the {family} family")
        if player.family:
            raise IllegalMoveError(f"{text!r}: {seat} already has the {player.family} family")
        player.family = family
        if len(rest) == 4:
            _pay(game, text, seat, _for(text, rest[2:]), "gold")
    elif verb == "wins" and rest[:1] == ["city"] and len(rest) == 4:
        tile = _city_tile(game, text, rest[1])
        owner = next((other for other, held in game.players.items() if tile in held.city_tiles), None)
        if owner:
            raise IllegalMoveError(f"{text!r}: {owner} already holds {decade.tile_name(game, tile)}")
        refusal = decade.city_tile_refusal(game, seat, tile)
        if refusal:
            raise IllegalMoveError(f"{text!r}: {refusal}")
        bid = _for(text, rest[2:])
        if bid < decade.opening_minimum(game, tile):
            city = game.components.city(game.components.city_tile(tile).city)
            raise IllegalMoveError(
                f"{text!r}: a {city.name} City tile opens at twice its status, "
                f"{decade.opening_minimum(game, tile)} gold or more"
            )
        _pay(game, text, seat, bid, "gold", kind="city")
        player.city_tiles.append(tile)
    elif verb == "wins" and rest[:1] == ["event"]:
        _win_event(game, text, seat, rest[1:])
    elif verb == "wins" and rest[:1] == ["pope"] and len(rest) == 3:
        refusal = decade.pope_refusal(game)
        if refusal:
            raise IllegalMoveError(f"{text!r}: {refusal}")
        pope = game.components.pope
        _pay(game, text, seat, _for(text, rest[1:]), pope.currency, kind=decade.POPE)
        game.pope = seat
    elif verb in ("buys", "discards") and rest[:1] == ["troop"] and len(rest) == 2:
        troop = words.one_of(text, rest[1], "troop", TROOPS)
        if verb == "buys":
            refusal = decade.troop_refusal(game, seat, troop)
            if refusal:
                raise IllegalMoveError(f"{text!r}: {refusal}")
            player.gold -= game.components.troop(troop).cost
            player.troops.append(troop)
            game.troop_supply[troop] -= 1
        else:
            if troop not in player.troops:
                raise IllegalMoveError(f"{text!r}: {seat} has no {game.components.troop(troop).name}")
            player.troops.remove(troop)
            game.troop_supply[troop] += 1
    elif verb in ("buys", "gets", "plays", "discards") and rest == ["card"]:
        _card(table, text, seat, verb)
    elif verb == "condottiere" and len(rest) == 3:
        _hire(table, text, seat, words.one_of(text, rest[0], "city", CITIES), _for(text, rest[1:]))
    elif verb == "gives" and len(rest) == 4 and rest[2] == "to":
        amount = words.number(text, rest[0], "amount")
        currency = words.one_of(text, rest[1], "currency", CURRENCIES)
        other = words.one_of(text, rest[3], "player", game.seats)
        try:
            exchange.check_give(game, seat, amount, currency, other)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{text!r}: {exc}") from None
        exchange.give(game, seat, amount, currency, other)
    elif verb in ("pays", "gets") and len(rest) == 2:
        amount = words.number(text, rest[0], "amount")
        currency = words.one_of(text, rest[1], "currency", CURRENCIES)
        _adjust(game, text, seat, currency, -amount if verb == "pays" else amount)
    elif verb in ("gold", "influence", "victories") and len(rest) == 1:
        _adjust(game, text, seat, verb, words.number(text, rest[0], "change", signed=True))
    elif verb == "uses" and len(rest) == 1:
        tile = _city_tile(game, text, rest[0])
        if tile not in player.city_tiles:
            raise IllegalMoveError(f"{text!r}: {seat} does not hold {decade.tile_name(game, tile)}")
        if tile in player.used:
            raise IllegalMoveError(f"{text!r}: {seat} has used {decade.tile_name(game, tile)} this decade")
        player.used.append(tile)
    elif verb == "declares" and len(rest) == 1:
        if decade.ability(game, seat) != "baglioni-b":
            raise IllegalMoveError(f"{text!r}: only Baglioni's B side declares a currency")
        player.declared = words.one_of(text, rest[0], "currency", CURRENCIES)
    else:
        forms = [form.form for form in EVENTS if form.form.startswith("SEAT") and verb in form.form.split()]
        shown = "; ".join(forms) or "`pbem table events` lists the forms"
        raise MoveSyntaxError(f"{text!r}: not an action pbem reads; expected {shown}")


def _for(text: str, rest: Sequence[str]) -> int:
    if len(rest) != 2 or rest[0] != "for":
        raise MoveSyntaxError(f"{text!r}: expected 'for N' (the winning bid)")
    return words.number(text, rest[1], "bid")


def _city_tile(game: Game, text: str, name: str) -> str:
    """``florence/banker`` or the tile's id ``florence-banker``."""
    city, sep, rest = name.partition("/")
    tile_id = f"{city}-{rest}" if sep else name
    known = [tile.id for tile in game.components.city_tiles]
    if tile_id not in known:
        city = city if city in CITIES else ""
        listed = [tile.replace("-", "/", 1) for tile in known if not city or tile.startswith(city + "-")]
        raise MoveSyntaxError(f"{text!r}: unknown City tile {name!r}; known: {', '.join(listed)}")
    return tile_id


def _pay(game: Game, text: str, seat: str, bid: int, currency: str, *, kind: str = "") -> int:
    """Pay a winning bid less the winner's discounts; refuse what the player cannot pay."""
    off = min(bid, decade.discount(game, seat, currency, kind)) if kind else 0
    price = bid - off
    player = game.players[seat]
    if decade.holding(player, currency) < price:
        held = decade.holding(player, currency)
        raise IllegalMoveError(f"{text!r}: {seat} cannot pay {price} {currency}; {seat} has {held}")
    if currency == "gold":
        player.gold -= price
    else:
        player.influence -= price
    return price


def _adjust(game: Game, text: str, seat: str, what: str, change: int) -> None:
    player = game.players[seat]
    now = {"gold": player.gold, "influence": player.influence, "victories": player.victories}[what]
    if now + change < 0:
        raise IllegalMoveError(f"{text!r}: {seat} has {now} {what}; it cannot fall below 0")
    setattr(player, what, now + change)


def _status(game: Game, text: str, city: str, change: str) -> None:
    low, high = game.components.rule("status_min"), game.components.rule("status_max")
    signed = change[:1] in "+-"
    value = words.number(text, change, "status", signed=True)
    after = game.status[city] + value if signed else value
    if not low <= after <= high:
        raise IllegalMoveError(f"{text!r}: a city's status stays within {low}..{high}, so not {after}")
    game.status[city] = after


def _win_event(game: Game, text: str, seat: str, rest: list[str]) -> None:
    if not rest:
        raise MoveSyntaxError(f"{text!r}: expected 'SEAT wins event EVENT [on CITY] for N'")
    known = {event.id: event for event in game.components.events}
    event = known.get(rest[0])
    if event is None:
        listed = ", ".join(event_id for event_id, item in known.items() if item.decade == game.decade)
        raise MoveSyntaxError(f"{text!r}: unknown Event tile {rest[0]!r}; this decade's: {listed}")
    if event.decade != game.decade:
        raise IllegalMoveError(f"{text!r}: {event.name} is a tile of decade {ROMAN[event.decade]}")
    owner = next((other for other, held in game.players.items() if event.id in held.events), None)
    if owner:
        raise IllegalMoveError(f"{text!r}: {owner} already won {event.name}")
    placed = event.kind in ("artist", "french")
    city = ""
    if placed and rest[1:2] == ["on"] and len(rest) >= 3:
        city = words.one_of(text, rest[2], "city", CITIES)
        rest = [rest[0], *rest[3:]]
    elif placed and not decade.placement_optional(game, event.id):
        raise MoveSyntaxError(f"{text!r}: {event.name} is placed on a city: '... {event.id} on CITY for N'")
    _pay(game, text, seat, _for(text, rest[1:]), event.currency, kind="event")
    game.players[seat].events.append(event.id)
    if city:
        decade.place_event(game, event.id, city)


def _card(table: TableGame, text: str, seat: str, verb: str) -> None:
    game = table.game
    if verb == "buys":
        gold, influence = game.components.rule("card_gold"), game.components.rule("card_influence")
        player = game.players[seat]
        if player.gold < gold or player.influence < influence:
            raise IllegalMoveError(
                f"{text!r}: a Treachery card costs {gold} gold and {influence} influence; "
                f"{seat} has {player.gold} and {player.influence}"
            )
        player.gold -= gold
        player.influence -= influence
    if verb in ("buys", "gets"):
        table.cards[seat] += 1
    elif table.cards[seat] == 0:
        raise IllegalMoveError(f"{text!r}: {seat} holds no Treachery card")
    else:
        table.cards[seat] -= 1


def _hire(table: TableGame, text: str, seat: str, city: str, bid: int) -> None:
    game = table.game
    if not game.players[seat].troops:
        raise IllegalMoveError(f"{text!r}: only a player with a Troop tile may bid to be a condottiere")
    if city in table.hires:
        raise IllegalMoveError(
            f"{text!r}: {table.hires[city][0]} is already {city}'s condottiere for the next war"
        )
    if any(hired == seat for hired, _ in table.hires.values()):
        raise IllegalMoveError(f"{text!r}: {seat} is already a condottiere in the next war")
    kind = ATTACKER if not table.hires else DEFENDER
    paid = _pay(game, text, seat, bid, "influence", kind=kind)
    table.hires[city] = (seat, paid)


def _war(table: TableGame, text: str, said: list[str]) -> Sheet:
    game = table.game
    if len(said) < 4:
        raise MoveSyntaxError(
            f"{text!r}: expected 'war ATTACKER DEFENDER [card] won-by SEAT|CITY [double]' or '... tie|vetoed'"
        )
    attacker = words.one_of(text, said[1], "city", CITIES)
    defender = words.one_of(text, said[2], "city", CITIES)
    if attacker == defender:
        raise IllegalMoveError(f"{text!r}: a city does not fight itself")
    rest = said[3:]
    card = rest[:1] == ["card"]
    rest = rest[1:] if card else rest
    stray = sorted(set(table.hires) - {attacker, defender})
    if stray:
        raise IllegalMoveError(
            f"{text!r}: {table.hires[stray[0]][0]} was hired for {stray[0]}, which is not in this war"
        )
    if not card and game.wars >= war.limit(game):
        raise IllegalMoveError(
            f"{text!r}: {game.wars} wars were fought this decade, the limit; "
            "only the Start War card starts another"
        )
    outcome = _outcome(table, text, attacker, defender, rest)
    for city, (seat, _) in table.hires.items():
        game.players[seat].pay += game.status[city]  # "equal to its current status", before the battle
    if outcome:
        winner, loser, swing, condottiere = outcome
        low, high = game.components.rule("status_min"), game.components.rule("status_max")
        game.status[winner] = min(high, game.status[winner] + swing)
        game.status[loser] = max(low, game.status[loser] - swing)
        if condottiere:
            game.players[condottiere].victories += 1
    if not card:
        game.wars += 1
    table.wars.append(" ".join(said[1:]))
    table.hires = {}
    return ()


def _outcome(
    table: TableGame, text: str, attacker: str, defender: str, rest: list[str]
) -> tuple[str, str, int, str] | None:
    if rest in (["tie"], ["vetoed"]):
        if rest == ["vetoed"] and table.hires:
            raise IllegalMoveError(f"{text!r}: a vetoed war is stopped before any condottiere is hired")
        return None
    if not rest or rest[0] != "won-by" or len(rest) not in (2, 3) or rest[2:] not in ([], ["double"]):
        raise MoveSyntaxError(
            f"{text!r}: expected 'won-by SEAT|CITY [double]', 'tie' or 'vetoed' after the cities"
        )
    named = rest[1]
    if not table.hires:
        raise IllegalMoveError(
            f"{text!r}: no condottiere was recorded for this war ('SEAT condottiere CITY for N' first); "
            "with no condottiere on either side the war is a tie"
        )
    by_seat = {seat: city for city, (seat, _) in table.hires.items()}
    if named in by_seat:
        winner = by_seat[named]
    elif named in (attacker, defender):
        winner = named
    else:
        hired = ", ".join(f"{seat} for {city}" for seat, city in by_seat.items()) or "nobody"
        raise IllegalMoveError(
            f"{text!r}: {named!r} is neither city nor a condottiere of this war (hired: {hired})"
        )
    loser = defender if winner == attacker else attacker
    condottiere = table.hires.get(winner, ("", 0))[0]
    return winner, loser, 2 if rest[2:] == ["double"] else 1, condottiere


def _rank(game: Game, text: str, city: str) -> None:
    """Bentivogli (A side) declares the winner of a tie; declaring again for the same tie replaces
    the declaration, and leaving it out lets the tie stand."""
    if not any(decade.ability(game, seat) == "bentivoglio-a" for seat in game.seats):
        raise IllegalMoveError(f"{text!r}: only Bentivogli (A side) declares the winner of a tie")
    group = next((group for group in decade.tied_groups(game) if city in group), None)
    if group is None:
        shown = "; ".join(" ".join(group) for group in decade.tied_groups(game)) or "none"
        raise IllegalMoveError(
            f"{text!r}: {city} is not tied with another city on status and Artist tiles (tied now: {shown})"
        )
    others = [other for other in group if other != city]
    game.ranking = [held for held in game.ranking if sorted(held) != sorted(group)] + [[city, *others]]


def _end_decade(table: TableGame) -> Sheet:
    game = table.game
    if table.hires:
        raise IllegalMoveError("'income': a war is still being fought (condottieri hired, no result)")
    report = _income_report(game, paid=True)
    decade.close_decade(game, "income recorded at the table")
    if not game.ended:
        game.decade += 1
    table.wars = []
    return (report,)


# --- reports ---------------------------------------------------------------------------------------


def _income_report(game: Game, *, paid: bool) -> Report:
    rows: list[tuple[Cell, ...]] = []
    data: dict[str, Any] = {}
    for seat in game.seats:
        lines = decade.income_lines(game, seat)
        gold, influence = decade.income(game, seat)
        for what, line_gold, line_influence in lines:
            rows.append((seat, what, line_gold, line_influence))
        rows.append((seat, "total", gold, influence))
        data[seat] = {
            "lines": [{"what": w, "gold": g, "influence": i} for w, g, i in lines],
            "gold": gold,
            "influence": influence,
        }
    title = f"Income at the end of {game.decade_name}" + ("" if paid else " (if it ended now)")
    return Report(title, ("player", "from", "gold", "influence"), tuple(rows), data=data)


def _cities_report(game: Game) -> Report:
    values = scoring.city_values(game.status, game.artists, game.ranking)
    rows = tuple(
        (game.components.city(city).name, game.status[city], game.artists[city], values[city])
        for city in CITIES
    )
    notes = tuple(
        f"Bentivogli declares {group[0]} the winner of its tie with {', '.join(group[1:])}"
        for group in game.ranking
    )
    data = {
        city: {"status": game.status[city], "artists": game.artists[city], "vp": values[city]}
        for city in CITIES
    }
    return Report("Cities", ("city", "status", "artists", "VP per City tile"), rows, notes, data)


def picture_view(table: TableGame) -> dict[str, Any]:
    """The email game's view of the same state, for a picture of the table: what the log does
    not know (the cards in each hand, the Treachery deck) left out, and what only the table
    knows (cards counted, condottieri hired ahead of a war, this decade's wars) put in."""
    from pbem.games.princes_of_the_renaissance.view import view

    game = table.game
    shown = view(game, None)
    shown["phase"] = "game over" if game.ended else f"{game.decade_name}, at the table"
    hidden = ("treachery_deck", "treachery_discards", "treachery_discarded_face_down", "treachery_names")
    for key in (*hidden, "city_tiles_on_offer", "event_tiles_on_offer"):
        shown.pop(key, None)
    shown["active"] = ""
    for seat, player in shown["players"].items():
        player["treachery_cards"] = table.cards[seat]
        player["treachery_face_up"] = []
    shown["condottieri_hired"] = {
        city: {"seat": seat, "bid": bid} for city, (seat, bid) in table.hires.items()
    }
    shown["wars_this_decade"] = list(table.wars)
    shown["score_final"] = game.ended
    if game.ended:
        shown["winners"] = scoring.winners(game, shown["score"])
    return shown


def _players_report(table: TableGame) -> Report:
    game = table.game
    parts = game.components
    rows = []
    data = {}
    for seat in game.seats:
        player = game.players[seat]
        family = parts.family(player.family, game.side).name if player.family else "-"
        rows.append(
            (seat, family, player.gold, player.influence, table.cards[seat], player.victories, player.pay)
        )
        data[seat] = {
            "family": player.family or "",
            "gold": player.gold,
            "influence": player.influence,
            "cards": table.cards[seat],
            "victories": player.victories,
            "pay": player.pay,
            "city_tiles": list(player.city_tiles),
            "troops": list(player.troops),
            "events": list(player.events),
            "pope": game.pope == seat,
            "spent_this_decade": list(player.used),
        }
    title = "Game over" if game.ended else f"Players in {game.decade_name}"
    columns = ("player", "family", "gold", "influence", "cards", "victories", "pay due")
    return Report(title, columns, tuple(rows), data=data)


def _holdings_report(game: Game) -> Report:
    """Each player's tiles, one per row, with the once-per-decade powers spent this decade."""
    parts = game.components
    rows: list[tuple[Cell, ...]] = []
    for seat in game.seats:
        player = game.players[seat]
        for tile in player.city_tiles:
            spent = "used this decade" if tile in player.used else ""
            rows.append((seat, "City tile", decade.tile_name(game, tile), spent))
        rows.extend((seat, "Troop", parts.troop(troop).name, "") for troop in player.troops)
        rows.extend((seat, "Event tile", parts.event(event).name, "") for event in player.events)
        if game.pope == seat:
            rows.append((seat, "Pope", parts.pope.name, ""))
    return Report("Tiles held", ("player", "kind", "tile", "power"), tuple(rows))


def _wars_report(table: TableGame) -> Report:
    game = table.game
    rows = tuple((str(number), fought) for number, fought in enumerate(table.wars, start=1))
    notes = [f"{game.wars} of {war.limit(game)} wars counted this decade"]
    notes += [
        f"{seat} is {city}'s condottiere for the next war (bid {bid})"
        for city, (seat, bid) in table.hires.items()
    ]
    return Report(
        f"Wars in {game.decade_name}",
        ("war", "result"),
        rows,
        tuple(notes),
        {"wars": list(table.wars), "counted": game.wars, "limit": war.limit(game)},
    )


def _score_report(game: Game) -> Report:
    """Categories down the side and players across, so six players still fit a terminal."""
    scores = scoring.breakdown(game)
    columns = ("category", *game.seats)
    labels = (*scoring.CATEGORIES, "total", "gold + influence")
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (label, *[scores[seat][label] for seat in game.seats]) for label in labels
    )
    winners = scoring.winners(game, scores)
    notes = [_majority_note(game, "gold"), _majority_note(game, "influence")]
    values = scoring.city_values(game.status, game.artists, game.ranking)
    notes.append("City tiles: " + ", ".join(f"{game.components.city(c).name} {values[c]}" for c in CITIES))
    best = max(row["total"] for row in scores.values())
    tied = [seat for seat, row in scores.items() if row["total"] == best]
    if len(tied) > 1 and game.edition == "2016":
        notes.append(
            f"tied on {best} points: {', '.join(tied)}; "
            "the most gold + influence wins, then the win is shared"
        )
    state = "final" if game.ended else "if the game ended now"
    notes.append(f"winner ({state}): {' and '.join(winners)}")
    return Report(
        "Score",
        columns,
        rows,
        tuple(notes),
        {"scores": snake_scores(scores), "winners": winners, "final": game.ended},
    )


def _majority_note(game: Game, currency: str) -> str:
    rule = scoring.MAJORITIES[game.edition][currency]
    if rule.second_after_tie:
        return (
            f"most {currency} {rule.first}, second {rule.second} ({game.edition}: ties take the full value)"
        )
    return (
        f"most {currency} {rule.first} (tied: {rule.tied_first} each, no second place), "
        f"second {rule.second} (tied: {rule.tied_second} each)"
    )


TRACKER = Tracker(EVENTS, QUERIES)
