"""The decades of Princes of the Renaissance: the actions, auctions and the decade's end.

Rules texts: seed 000 (2016 rulebook: "Игровой Процесс", "Действия (подробно)", "Тайлы Событий",
"Важные Правила"), seed 003 (2003 summary: "Round", "Fine di una Decade") and seed 004 (reference
manual §4-5). The war itself is in war.py, the cards and tile powers outside war in powers.py.
Every auction, a war's condottiere auctions too, is bid here; the phase it belongs to settles it
(``settle`` for a tile or the Pope, ``war.condottiere_won``), so this module does not import war.

Functions named ``check_*`` raise IllegalMoveError naming the rule; the others change the game
they are given (the ruleset copies it first).
"""

from __future__ import annotations

from pbem.crypto.randomness import Draws
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import deck, scoring
from pbem.games.princes_of_the_renaissance.components import CITIES
from pbem.games.princes_of_the_renaissance.state import (
    ACTION,
    ATTACKER,
    AUCTION,
    COMPENSATION,
    DECLARE,
    DEFENDER,
    DISCARD,
    END_TURN,
    FOLLOW_UP,
    GAME_OVER,
    KEEP,
    PLACE,
    RANK,
    ROMAN,
    WAR,
    Game,
    Lot,
    Player,
)
from pbem.kit.auction import Auction, Raise
from pbem.kit.frozen import evolve
from pbem.kit.seats import FollowUp, after, first

POPE = "pope"
CARD = "card"
# "Следующий игрок может повысить ставку": any amount above the highest bid
RAISE = Raise(step=1)


# --- setting out ---------------------------------------------------------------------------------


def lay_out(game: Game) -> None:
    """What setup puts on the table before any randomness (2016 setup steps 2-4, 6-7, 9)."""
    parts = game.components
    game.status = {city.id: city.status for city in parts.cities}
    game.artists = dict.fromkeys(game.status, 0)
    game.troop_supply = {troop.id: troop.copies for troop in parts.troops}
    if not parts.rule("city_tiles_drawn"):
        game.city_supply = [tile.id for tile in parts.city_tiles]


def draw_setup(game: Game, draws: Draws) -> None:
    """Draw the City tiles that take part (2016: six per city, at random); the Treachery deck is
    the engine's hidden deck, shuffled by every seat in turn, so only its count is set here."""
    parts = game.components
    drawn = parts.rule("city_tiles_drawn")
    if drawn:
        kept: set[str] = set()
        for city in CITIES:
            tiles = [tile.id for tile in parts.city_tiles if tile.city == city]
            kept.update(draws.shuffle(tiles)[:drawn])
        game.city_supply = [tile.id for tile in parts.city_tiles if tile.id in kept]
        game.events.append(f"City tiles drawn at random, {drawn} per city; the rest leave the game")
    game.deck = deck.total(game)


def begin(game: Game, number: int, first: str) -> None:
    game.decade = number
    game.event_row = [event.id for event in game.components.events if event.decade == number]
    game.wars = 0
    game.decade_over = False
    game.events.append(f"{game.decade_name} begins with {first}")
    _turn(game, first)
    # Baglioni (B side) "должны объявить ... в начале Десятилетия" the currency of its discount
    for seat in game.order:
        if ability(game, seat) == "baglioni-b":
            game.follow_ups.append(FollowUp(seat, DECLARE))
    if game.follow_ups:
        game.phase = FOLLOW_UP


def _turn(game: Game, seat: str) -> None:
    game.active = seat
    game.turn += 1
    game.phase = ACTION
    game.won_this_turn = []
    game.end_offered = False


# --- what a player may hold and pay ------------------------------------------------------------


def ability(game: Game, seat: str) -> str:
    family = game.players[seat].family
    return f"{family}-{game.side}" if family else ""


def tile_abilities(game: Game, seat: str) -> list[str]:
    ability_of, parts = game.components.ability_of, game.components
    return [
        ability_of[tile] if tile in ability_of else parts.city_tile(tile).ability
        for tile in game.players[seat].city_tiles
    ]


def tiles_with(game: Game, seat: str, power: str) -> list[str]:
    """``seat``'s City tiles with this power."""
    ability_of, parts = game.components.ability_of, game.components
    return [
        tile
        for tile in game.players[seat].city_tiles
        if (ability_of[tile] if tile in ability_of else parts.city_tile(tile).ability) == power
    ]


def unused_tiles(game: Game, seat: str, power: str) -> list[str]:
    """``seat``'s City tiles with this power not yet used this decade."""
    return [tile for tile in tiles_with(game, seat, power) if tile not in game.players[seat].used]


def unused_powers(game: Game, seat: str) -> dict[str, list[str]]:
    """``unused_tiles`` for every power at once: each power of ``seat``'s City tiles with the
    tiles that have it not yet used this decade, in the order held."""
    player = game.players[seat]
    found: dict[str, list[str]] = {}
    if not player.city_tiles:
        return found
    for tile, power in zip(player.city_tiles, tile_abilities(game, seat), strict=True):
        if tile not in player.used:
            found.setdefault(power, []).append(tile)
    return found


def hand_limit(game: Game, seat: str) -> int:
    """2, 3 for Malatesta (either side), +1 for each hand-limit City tile (seed 000)."""
    limit = game.components.rule("hand_limit")
    if game.players[seat].family == "malatesta":
        limit += 1
    return limit + tile_abilities(game, seat).count("hand-limit")


_GOLD_DISCOUNTS = {"gonzaga-a": 2, "gonzaga-b": 1, "baglioni-a": 1}
_INFLUENCE_DISCOUNTS = {"montefeltro-a": 2, "montefeltro-b": 1, "baglioni-a": 1}


def discount(game: Game, seat: str, currency: str, kind: str) -> int:
    """What ``seat`` takes off the price of an auction it wins (seed 000, "Тайлы Семей" and
    "Тайлы Городов"): the families' discounts by currency (Baglioni's B side in the currency it
    declared for the decade), the Pope-discount tiles on the Pope, and Swiss Mercenaries and the
    Armourer on a condottiere bid."""
    own = ability(game, seat)
    amount = (_GOLD_DISCOUNTS if currency == "gold" else _INFLUENCE_DISCOUNTS).get(own, 0)
    if own == "baglioni-b" and game.players[seat].declared == currency:
        amount += 1
    if not game.players[seat].city_tiles:
        return amount
    if kind == POPE:
        amount += tile_abilities(game, seat).count("pope-discount")
    if kind in (ATTACKER, DEFENDER):
        amount += sum(1 for power in tile_abilities(game, seat) if power in ("swiss-mercenaries", "armourer"))
    return amount


def cardinals(game: Game, seat: str, kind: str) -> int:
    """Bribe Cardinal "расценивается как 3 Влияния" toward the Pope: influence the cards can pay.
    Only the cards played count (``play bribe-cardinal``): they are the ones chosen to pay, and the
    rules know no card still face down."""
    return 3 * len(deck.face_up(game, seat, "bribe-cardinal")) if kind == POPE else 0


def holding(player: Player, currency: str) -> int:
    return player.gold if currency == "gold" else player.influence


def highest_allowed(game: Game, seat: str, currency: str, kind: str) -> int:
    """A player may bid more than they hold when their discounts cover the difference (and, on
    the Pope, the Bribe Cardinal cards they have played and still hold)."""
    own = holding(game.players[seat], currency) + discount(game, seat, currency, kind)
    return own + cardinals(game, seat, kind) if kind == POPE else own  # no card pays another lot


def city_tile_refusal(game: Game, seat: str, tile_id: str) -> str | None:
    """Why ``seat`` may not take this City tile (6 tiles from at most 3 cities), or None."""
    player = game.players[seat]
    limit, cities = game.components.rule("city_tile_limit"), game.components.rule("city_limit")
    if len(player.city_tiles) >= limit:
        return f"{seat} already holds {len(player.city_tiles)} City tiles, the limit"
    parts, city_of = game.components, game.components.city_of
    held = {city_of[tile] if tile in city_of else parts.city_tile(tile).city for tile in player.city_tiles}
    city = city_of[tile_id] if tile_id in city_of else parts.city_tile(tile_id).city
    if city not in held and len(held) >= cities:
        names = ", ".join(sorted(game.components.city(name).name for name in held))
        return f"{seat} already holds City tiles of {cities} cities ({names}) and cannot add a fourth"
    return None


def open_city_tiles(game: Game, seat: str, tiles: list[str]) -> list[str]:
    """The City tiles of ``tiles`` ``seat`` may take (``city_tile_refusal`` refuses none of them),
    in their order: the tiles it holds are read once for all of them."""
    player = game.players[seat]
    parts = game.components
    if len(player.city_tiles) >= parts.rule("city_tile_limit"):
        return []
    city_of = parts.city_of
    held = {city_of[tile] if tile in city_of else parts.city_tile(tile).city for tile in player.city_tiles}
    if len(held) < parts.rule("city_limit"):
        return list(tiles)
    return [
        tile for tile in tiles if (city_of[tile] if tile in city_of else parts.city_tile(tile).city) in held
    ]


def tile_name(game: Game, tile: str) -> str:
    if tile in (ATTACKER, DEFENDER):
        return f"the {tile}'s condottiere"
    if tile == POPE:
        return game.components.pope.name
    if tile in _event_ids(game):
        return game.components.event(tile).name
    city_tile = game.components.city_tile(tile)
    return f"{city_tile.name} ({game.components.city(city_tile.city).name})"


def _event_ids(game: Game) -> frozenset[str]:
    return game.components.event_ids


def _city_tile_ids(game: Game) -> frozenset[str]:
    return game.components.city_tile_ids


# --- the Buy action --------------------------------------------------------------------------------


def check_buy_troop(game: Game, seat: str, troop_id: str) -> None:
    check_action_turn(game, seat)
    refusal = troop_refusal(game, seat, troop_id)
    if refusal:
        raise IllegalMoveError(refusal)


def troop_refusal(game: Game, seat: str, troop_id: str) -> str | None:
    """Why ``seat`` may not buy this Troop tile now, or None."""
    troop = game.components.troop(troop_id)
    player = game.players[seat]
    if troop_id in player.troops:
        return f"{seat} already has {troop.name}; a player never holds two of a type"
    # d'Este, A side: "Вы можете покупать Артиллерию в первом Десятилетии" (Artillery only)
    exempt = troop_id == "artillery" and ability(game, seat) == "este-a"
    if game.decade == 1 and not troop.decade_one and not exempt:
        return f"{troop.name} cannot be bought in decade I"
    if game.troop_supply[troop_id] <= 0:
        return f"no {troop.name} tiles are left in the supply"
    if troop.cost > player.gold:
        return f"{troop.name} costs {troop.cost} gold; {seat} has {player.gold}"
    return None


def buy_troop(game: Game, seat: str, troop_id: str) -> None:
    troop = game.components.troop(troop_id)
    player = game.players[seat]
    player.gold -= troop.cost
    player.troops.append(troop_id)
    game.troop_supply[troop_id] -= 1
    game.events.append(f"{seat} buys {troop.name} for {troop.cost} gold")
    _after_action(game)


def check_discard_troop(game: Game, seat: str, troop_id: str) -> None:
    check_action_turn(game, seat)
    if troop_id not in game.players[seat].troops:
        raise IllegalMoveError(f"{seat} has no {game.components.troop(troop_id).name} to discard")


def discard_troop(game: Game, seat: str, troop_id: str) -> None:
    game.players[seat].troops.remove(troop_id)
    game.troop_supply[troop_id] += 1
    game.events.append(f"{seat} discards {game.components.troop(troop_id).name}")
    _after_action(game)


def card_refusal(game: Game, seat: str) -> str | None:
    player = game.players[seat]
    gold, influence = game.components.rule("card_gold"), game.components.rule("card_influence")
    if not game.deck:
        return "the Treachery deck is empty"
    if player.gold < gold or player.influence < influence:
        return (
            f"a Treachery card costs {gold} gold and {influence} influence; "
            f"{seat} has {player.gold} and {player.influence}"
        )
    return None


def check_buy_card(game: Game, seat: str) -> None:
    if _compensation_due(game, seat):
        pass
    else:
        check_action_turn(game, seat)
    refusal = card_refusal(game, seat)
    if refusal:
        raise IllegalMoveError(refusal)


def buy_card(game: Game, seat: str) -> None:
    compensation = _compensation_due(game, seat)
    if compensation:
        game.follow_ups.pop(0)
    player = game.players[seat]
    player.gold -= game.components.rule("card_gold")
    player.influence -= game.components.rule("card_influence")
    deck.draw(game, seat)
    game.events.append(f"{seat} buys a Treachery card" + (" as compensation" if compensation else ""))
    if player.family == "bentivoglio" and deck.size(game):
        # Bentivogli, both sides: "вытяните 2 карты, сохраните у себя 1 и верните другую под низ колоды"
        deck.draw(game, seat)
        game.follow_ups.insert(0, FollowUp(seat, KEEP))  # the two tokens arrive as they are dealt
    else:
        check_hand(game, seat)
    if compensation:
        carry_on(game)
    else:
        _after_action(game)


def check_hand(game: Game, seat: str) -> None:
    """Over the hand limit, the player discards at once, before play goes on."""
    if deck.hand_size(game, seat) > hand_limit(game, seat):
        game.follow_ups.insert(0, FollowUp(seat, DISCARD))


def _compensation_due(game: Game, seat: str) -> bool:
    return game.phase == FOLLOW_UP and game.follow_ups[0] == FollowUp(seat, COMPENSATION)


def check_discard_card(game: Game, seat: str, token: str) -> None:
    due = first(game.follow_ups) if game.phase == FOLLOW_UP else None
    if due is None or due.kind != DISCARD or due.seat != seat:
        raise IllegalMoveError(f"{seat} may discard a Treachery card only when over the hand limit")
    if token not in game.players[seat].cards:
        raise IllegalMoveError(f"{seat} holds no Treachery card {token}")


def discard_card(game: Game, seat: str, token: str) -> None:
    shown = game.shown.get(token)
    deck.discard(game, seat, token)
    what = f"{game.components.card(shown).name} (face up)" if shown else "a Treachery card face down"
    game.events.append(f"{seat} discards {what} down to the hand limit")
    if deck.hand_size(game, seat) <= hand_limit(game, seat):
        game.follow_ups.pop(0)
    carry_on(game)


# --- the Auction action ----------------------------------------------------------------------------


def auction_kind(game: Game, tile: str) -> tuple[str, str]:
    """(kind, currency) of a tile put up for auction."""
    if tile == POPE:
        return POPE, game.components.pope.currency
    if tile in _event_ids(game):
        return "event", game.components.event(tile).currency
    return "city", "gold"


def opening_minimum(game: Game, tile: str) -> int:
    """City tiles open at twice the city's status or more; Event tiles and the Pope at 0."""
    if auction_kind(game, tile)[0] != "city":
        return 0
    city = game.components.city_tile(tile).city
    return game.components.rule("city_bid_factor") * game.status[city]


def check_nominate(game: Game, seat: str, tile: str, bid: int) -> None:
    check_action_turn(game, seat)
    if tile == POPE:
        refusal = pope_refusal(game)
        if refusal:
            raise IllegalMoveError(refusal)
    elif tile in _event_ids(game):
        if tile not in game.event_row:
            raise IllegalMoveError(
                f"{tile_name(game, tile)} is not an Event tile of {game.decade_name} still on offer"
            )
    elif tile in _city_tile_ids(game):
        if tile not in game.city_supply:
            raise IllegalMoveError(f"{tile_name(game, tile)} is not in the supply")
        refusal = city_tile_refusal(game, seat, tile)
        if refusal:
            raise IllegalMoveError(refusal)
    else:
        raise IllegalMoveError(f"no tile {tile!r}: see 'pbem moves' for the tiles on offer")
    kind, currency = auction_kind(game, tile)
    low = opening_minimum(game, tile)
    if bid < low:
        status = game.status[game.components.city_tile(tile).city]
        raise IllegalMoveError(
            f"the opening bid for a City tile is at least twice the city's status ({status}): {low} gold"
        )
    _check_affordable(game, seat, bid, currency, kind)


def pope_refusal(game: Game) -> str | None:
    """Why the Pope cannot be sold now, or None. It is sold "если он все еще доступен" (if still
    available): its holder keeps it until the decade's end returns it (``close_decade``), so it is
    sold at most once a decade."""
    if game.pope is not None:
        return f"the Pope is held by {game.pope} until the decade's end"
    return None


def _check_affordable(
    game: Game, seat: str, bid: int, currency: str, kind: str, *, top: int | None = None
) -> None:
    """``bid`` refused if ``seat`` cannot pay it: above ``top``, the most it may bid
    (``highest_allowed``, found here unless given)."""
    if top is None:
        top = highest_allowed(game, seat, currency, kind)
    if bid > top:
        have = holding(game.players[seat], currency)
        off = discount(game, seat, currency, kind)
        reason = f"with a discount of {off}" if off else "and has no discount"
        raise IllegalMoveError(f"{seat} holds {have} {currency} {reason}: a bid of {bid} cannot be paid")


def put_up(game: Game, seat: str, tile: str, bid: int) -> bool:
    """The Auction action: ``tile`` put up, opening at ``bid``; True when nobody can outbid it and
    the auction is over, for ``settle``. It only sets the auction and adds to the events."""
    kind, currency = auction_kind(game, tile)
    open_auction(game, Auction(Lot(tile, kind, currency, seat), tuple(game.order), seat, seat, bid))
    game.events.append(f"{seat} puts {tile_name(game, tile)} up for auction, opening at {bid} {currency}")
    return next_bidder(game)


def open_auction(game: Game, auction: Auction[Lot]) -> None:
    """Every auction, a tile's or a condottiere's: nobody is frozen by Freeze Bid yet."""
    game.auction = auction
    game.frozen = ()
    game.phase = AUCTION


def close_auction(game: Game) -> Auction[Lot]:
    """The auction that is over, taken off the table for its phase to settle."""
    auction = game.auction
    assert auction is not None
    game.auction = None
    game.frozen = ()
    return auction


def condottiere_refusal(game: Game, seat: str, side: str) -> str | None:
    """Why ``seat`` may not bid to be this side's condottiere, or None."""
    war = game.war
    assert war is not None
    if not game.players[seat].troops:
        return f"{seat} has no Troop tile"
    if side == DEFENDER and seat == war.attacker_condottiere:
        return f"{seat} is the attacker's condottiere"
    return None


def bid_refusal(game: Game, seat: str) -> str | None:
    """Why ``seat`` can make no bid at all in the current auction, or None."""
    return bid_room(game, seat)[0]


def bid_room(game: Game, seat: str) -> tuple[str | None, int]:
    """``bid_refusal``, and the most ``seat`` may bid (``highest_allowed``), found on the way (-1
    when a refusal comes before it is asked): the listing of bids needs both."""
    auction = game.auction
    assert auction is not None
    lot = auction.lot
    if lot.kind in (ATTACKER, DEFENDER):
        refusal = condottiere_refusal(game, seat, lot.kind)
        if refusal:
            return refusal, -1
    if seat in game.frozen:
        return f"{seat} is frozen by Freeze Bid", -1
    if lot.kind == "city":
        refusal = city_tile_refusal(game, seat, lot.tile)
        if refusal:
            return refusal, -1
    top = highest_allowed(game, seat, lot.currency, lot.kind)
    if top <= auction.price:
        return f"{seat} cannot outbid {auction.price} {lot.currency}", top
    return None, top


def check_raise(game: Game, seat: str, amount: int) -> None:
    auction = game.auction
    if game.phase != AUCTION or auction is None:
        raise IllegalMoveError(f"no auction is running; it is the {phase_name(game)}")
    if seat in auction.passed:
        refusal = bid_refusal(game, seat)
        raise IllegalMoveError(refusal or f"{seat} has passed in this auction; a pass is final")
    _check_turn(seat, auction.turn, "bid or pass")
    if not RAISE.allows(auction, amount):
        raise IllegalMoveError(
            f"a bid must exceed the highest bid ({auction.price}): bid {RAISE.least(auction)} or more"
        )
    refusal, top = bid_room(game, seat)
    if refusal and "cannot outbid" not in refusal:
        raise IllegalMoveError(refusal)
    _check_affordable(game, seat, amount, auction.lot.currency, auction.lot.kind, top=top)


def raise_bid(game: Game, seat: str, amount: int) -> bool:
    """``seat`` bids ``amount``; True once the auction is over, for its phase to settle (a tile's
    here, ``settle``; a condottiere's in the war)."""
    auction = game.auction
    assert auction is not None
    game.auction = auction.bid(seat, amount)
    game.events.append(f"{seat} bids {amount}")
    return next_bidder(game)


def check_drop_out(game: Game, seat: str) -> None:
    auction = game.auction
    assert auction is not None
    if seat in auction.passed:
        raise IllegalMoveError(f"{seat} has already passed in this auction")
    _check_turn(seat, auction.turn, "bid or pass")


def drop_out(game: Game, seat: str) -> bool:
    """``seat`` passes; True once the auction is over, as for ``raise_bid``."""
    auction = game.auction
    assert auction is not None
    game.auction = auction.passing(seat)
    game.events.append(f"{seat} passes")
    return next_bidder(game)


def next_bidder(game: Game) -> bool:
    """Clockwise from the player who just bid or passed; a player who can make no bid at all
    passes without being asked. True once nobody but the leader is left: the auction is over."""
    while True:
        auction = game.auction
        assert auction is not None
        rivals = auction.rivals  # none left: the auction is over (``over``)
        if not rivals:
            return True
        seat = after(auction.among, auction.turn, rivals)  # auction.next_seat(), its rivals found
        refusal = bid_refusal(game, seat)
        if refusal and not _has_a_say(game, seat, refusal):
            game.auction = auction.passing(seat)
            game.events.append(f"{seat} passes ({refusal})")
            continue
        game.auction = evolve(auction, turn=seat)  # auction.onward(), its next seat found already
        return False


def _has_a_say(game: Game, seat: str, refusal: str) -> bool:
    """A player who cannot bid is still asked if Freeze Bid may be played "даже если Вы принимаете
    решение спасовать", or if the Banker could let it outbid."""
    auction = game.auction
    assert auction is not None
    if "Troop tile" in refusal or "condottiere" in refusal or seat in game.frozen:
        return False  # not a bidder in this auction at all
    others = [s for s in game.order if s != seat and s not in auction.passed and s not in game.frozen]
    # Who holds Freeze Bid or Bribe Cardinal is secret: every player holding a card face down is
    # asked, so being asked shows nothing but the number of cards, which is public.
    if deck.face_down(game, seat) and (others or auction.lot.kind == POPE):
        return True
    if "cannot outbid" not in refusal:
        return False
    banker = bool(unused_tiles(game, seat, "banker"))
    other = "influence" if auction.lot.currency == "gold" else "gold"
    gain = min(3, holding(game.players[seat], other))
    return (
        banker
        and not game.decade_over
        and highest_allowed(game, seat, auction.lot.currency, auction.lot.kind) + gain > auction.price
    )


def price(game: Game, auction: Auction[Lot]) -> int:
    """What the auction's leader pays if it wins at its bid: the bid less its discounts."""
    lot = auction.lot
    return max(0, auction.price - discount(game, auction.leader, lot.currency, lot.kind))


def pay(game: Game, auction: Auction[Lot]) -> str:
    """The winner pays the bid less discounts. On the Pope, the Bribe Cardinal cards the winner
    has played pay first, 3 each, whether or not its influence could pay: playing the card is the
    choice to pay with it ("если используется для оплаты"). A card is spent only while some of
    the price is left to pay; a card kept face down never pays."""
    seat, lot = auction.leader, auction.lot
    player = game.players[seat]
    price_left = price(game, auction)
    cards = 0
    while lot.kind == POPE and price_left > 0 and deck.face_up(game, seat, "bribe-cardinal"):
        deck.play(game, seat, "bribe-cardinal", deck.face_up(game, seat, "bribe-cardinal")[0])
        price_left = max(0, price_left - 3)
        cards += 1
    if lot.currency == "gold":
        player.gold -= price_left
    else:
        player.influence -= price_left
    paid = f"pays {price_left} {lot.currency}" + (
        f" (bid {auction.price})" if price_left != auction.price else ""
    )
    if cards:
        paid += f" and {cards} Bribe Cardinal card{'s' if cards > 1 else ''}"
    if lot.kind in (ATTACKER, DEFENDER):
        game.events.append(f"{seat} becomes the {lot.kind}'s condottiere and {paid}")
    return paid


def settle(game: Game) -> None:
    """A tile's or the Pope's auction is over: the leader pays and takes it."""
    auction = close_auction(game)
    lot, seat = auction.lot, auction.winner
    winner = game.players[seat]
    paid = pay(game, auction)
    game.events.append(f"{seat} wins {tile_name(game, lot.tile)} and {paid}")
    if lot.kind == "city":
        game.city_supply.remove(lot.tile)
        winner.city_tiles.append(lot.tile)
        game.won_this_turn.append(lot.tile)
        if seat != lot.nominator and card_refusal(game, lot.nominator) is None:
            game.follow_ups.append(FollowUp(lot.nominator, COMPENSATION))
    elif lot.kind == POPE:
        game.pope = seat
    else:
        event = game.components.event(lot.tile)
        game.event_row.remove(lot.tile)
        if event.kind in ("artist", "french"):
            game.follow_ups.append(FollowUp(seat, PLACE, lot.tile))
        else:
            winner.events.append(lot.tile)
        if not game.event_row:
            game.decade_over = True
            game.ender = lot.nominator
    _after_action(game)


# --- follow-ups: placing an Artist or French Invade tile -----------------------------------------


def placement_optional(game: Game, tile: str) -> bool:
    """2016: "помещается... Понизьте" (placed, and the city lowered); 2003 summary: the French
    Invade "può (non obbligatorio) essere giocata"; seed 004: "or discarded"."""
    return game.edition == "2003" and game.components.event(tile).kind == "french"


def check_place(game: Game, seat: str, city: str) -> None:
    due = first(game.follow_ups) if game.phase == FOLLOW_UP else None
    if due is None or due.kind != PLACE or due.seat != seat:
        raise IllegalMoveError(f"{seat} has no Event tile to place")
    if city not in game.status:
        raise IllegalMoveError(f"no city {city!r}: the cities are {', '.join(CITIES)}")


def place(game: Game, seat: str, city: str) -> None:
    due = game.follow_ups.pop(0)
    event = game.components.event(due.what)
    before = place_event(game, due.what, city)
    name = game.components.city(city).name
    what = f"{seat} places {event.name} on {name}: status {before} -> {game.status[city]}"
    if not stays_on_city(game, due.what):
        what += "; the tile is discarded"
    game.events.append(what)
    carry_on(game)


def place_event(game: Game, tile: str, city: str) -> int:
    """An Artist or French Invade tile played on ``city``, by email or at a table: the city's
    status moves by the tile's number, within status_min..status_max, and the tile stays there as
    an Artist tile for the ranking's tie-break unless ``stays_on_city`` says otherwise. Returns
    the status before."""
    low, high = game.components.rule("status_min"), game.components.rule("status_max")
    before = game.status[city]
    game.status[city] = min(high, max(low, before + game.components.event(tile).value))
    if stays_on_city(game, tile):
        game.artists[city] += 1
    return before


def stays_on_city(game: Game, tile: str) -> bool:
    """2016: the French Invade "помещается на игровое поле в ячейку Города ..., как тайл
    Искусства", so it counts in the tie-break like an Artist tile. 2003: "La carta viene
    scartata" (the 2003 summary, "Invasione francese"): the tile is discarded once the city has
    lost its 2, and does not count."""
    return not (game.edition == "2003" and game.components.event(tile).kind == "french")


def check_decline(game: Game, seat: str) -> None:
    due = game.follow_ups[0]
    if due.seat != seat:
        raise IllegalMoveError(f"it is {due.seat}'s turn, not {seat}'s")
    if due.kind == PLACE and not placement_optional(game, due.what):
        raise IllegalMoveError(f"{tile_name(game, due.what)} must be placed on a city: place CITY")
    if due.kind == DISCARD:
        raise IllegalMoveError(f"{seat} is over the hand limit and must discard: discard TOKEN")


def decline(game: Game, seat: str) -> None:
    due = game.follow_ups.pop(0)
    if due.kind == PLACE:
        game.events.append(f"{seat} discards {tile_name(game, due.what)} without placing it")
    elif due.kind == RANK:
        tied = ", ".join(due.what.split())
        game.events.append(f"{seat} (Bentivogli) lets the tie stand: {tied} take the lowest place left")
    else:
        game.events.append(f"{seat} buys no compensation card")
    carry_on(game)


# --- the Pass action and moving on -----------------------------------------------------------------


def check_pass_turn(game: Game, seat: str) -> None:
    check_action_turn(game, seat)


def pass_turn(game: Game, seat: str) -> None:
    game.events.append(f"{seat} passes")
    _after_action(game)


def _after_action(game: Game) -> None:
    if game.follow_ups:
        game.phase = FOLLOW_UP
        return
    carry_on(game)


def carry_on(game: Game) -> None:
    """After an action and everything it asked for: the end-of-turn window, the next turn, the
    decade's end, or the game's."""
    if game.follow_ups:
        game.phase = FOLLOW_UP
    elif game.resume:
        game.resume = False
        game.phase = ACTION
    elif game.ended:
        game.phase = GAME_OVER
    elif game.decade_over:
        end_decade(game)
    elif not game.end_offered and end_of_turn_options(game, game.active):
        game.end_offered = True
        game.follow_ups.append(FollowUp(game.active, END_TURN))
        game.phase = FOLLOW_UP
    else:
        _turn(game, after(game.order, game.active))


def end_of_turn_options(game: Game, seat: str) -> bool:
    """Start War is played "В конце Вашего Хода"; a free-card tile may be used on the turn it is
    won. The window is offered to a player who could use it: a free-card tile is public, Start War
    is not, so every player holding a card face down is offered it."""
    if deck.face_down(game, seat):
        return True
    return any(tile in game.won_this_turn for tile in unused_tiles(game, seat, "free-card"))


def check_end_turn(game: Game, seat: str) -> None:
    due = first(game.follow_ups) if game.phase == FOLLOW_UP else None
    if due is None or due.kind != END_TURN:
        raise IllegalMoveError("Start War is played at the end of one's own turn")
    if due.seat != seat:
        raise IllegalMoveError(f"it is the end of {due.seat}'s turn, not {seat}'s")


def after_war(game: Game) -> None:
    """A war is over: the turn carries on (follow-ups, the end-of-turn window, the next turn)."""
    game.phase = ACTION
    carry_on(game)


def income(game: Game, seat: str) -> tuple[int, int]:
    """Gold and influence earned at a decade's end: the sum of ``income_lines``."""
    lines = income_lines(game, seat)
    return sum(line[1] for line in lines), sum(line[2] for line in lines)


def income_lines(game: Game, seat: str) -> list[tuple[str, int, int]]:
    """What ``seat`` earns at a decade's end, source by source, as (what, gold, influence)
    (2016 "В конце каждого Десятилетия" a): every tile's printed income, the Family tile's
    included; 3 gold for the Pope; the Wine Merchants' gold (``scoring.wine_merchant``);
    condottiere pay held on the Family tile."""
    parts = game.components
    player = game.players[seat]
    lines: list[tuple[str, int, int]] = []
    if player.family:
        family = parts.family(player.family, game.side)
        lines.append((f"Family tile: {family.name}", family.gold, family.influence))
    for tile_id in player.city_tiles:
        tile = parts.city_tile(tile_id)
        lines.append((f"City tile: {tile_name(game, tile_id)}", tile.gold, tile.influence))
    for troop_id in player.troops:
        troop = parts.troop(troop_id)
        if troop.influence:
            lines.append((f"Troop tile: {troop.name}", 0, troop.influence))
    if game.pope == seat:
        lines.append((parts.pope.name, parts.pope.income_gold, 0))
    wine, counted = scoring.wine_merchant(game, seat)
    if wine:
        lines.append((f"Wine Merchant: {counted}", wine, 0))
    if player.pay:
        lines.append(("condottiere pay", player.pay, 0))
    return lines


def close_decade(game: Game, how: str) -> None:
    """What ends every decade, the same whether the game is played by email or at a table (where
    the players record ``income``): "В конце каждого Десятилетия выполняется следующее" (2016
    "Игровой Процесс"; the 2003 summary, "Fine di una Decade"): a) income, the condottiere pay
    included; b) the Pope returned, "только не после заключительного Десятилетия"; c) the
    once-a-decade powers ready again (and Baglioni's B side's declaration lapses); d) the wars
    marker back to 0. After decade III the game is over (``ended``). ``how`` says in the events
    what ended the decade."""
    earned = []
    for seat in game.order:
        gold, influence = income(game, seat)
        player = game.players[seat]
        player.gold += gold
        player.influence += influence
        player.pay = 0
        player.used = []
        player.declared = ""
        earned.append(f"{seat} +{gold} gold +{influence} influence")
    game.events.append(f"{game.decade_name} ends ({how}); income: {'; '.join(earned)}")
    game.wars = 0
    if game.decade == len(ROMAN):
        game.ended = True  # its holder keeps the Pope for the final scoring
        return
    if game.pope is not None:
        game.events.append(f"{game.pope} returns the Pope")
        game.pope = None


def end_decade(game: Game) -> None:
    """The decade's end (``close_decade``); then the next decade's Event tiles, and the player after
    the one who ended the decade acts first; or, after decade III, the final scoring."""
    close_decade(game, f"{game.ender} sold its last Event tile")
    if game.ended:
        game.decade_over = False
        game.active = ""
        game.events.append("the game is over: final scoring")
        _bentivogli_ranks(game)
        game.phase = FOLLOW_UP if game.follow_ups else GAME_OVER
        return
    begin(game, game.decade + 1, after(game.order, game.ender))


def tied_groups(game: Game) -> list[list[str]]:
    """Cities tied on status and on Artist tiles, in board order, groups of two or more."""
    groups: dict[tuple[int, int], list[str]] = {}
    for city in CITIES:
        groups.setdefault((game.status[city], game.artists[city]), []).append(city)
    return [group for group in groups.values() if len(group) > 1]


def _bentivogli_ranks(game: Game) -> None:
    """Bentivogli (A side) "можете объявить, какой из них выигрывает спор" in an Artist tie: it is
    asked once for each tied group, and may name the winner or pass ("можете": it may)."""
    holder = next((seat for seat in game.order if ability(game, seat) == "bentivoglio-a"), None)
    if holder is None:
        return
    for group in tied_groups(game):
        game.follow_ups.append(FollowUp(holder, RANK, " ".join(group)))


# --- turn checks -------------------------------------------------------------------------------------


def phase_name(game: Game) -> str:
    if game.phase == ACTION:
        return game.decade_name
    if game.phase == AUCTION:
        return f"{game.decade_name}, auction"
    if game.phase == FOLLOW_UP:
        return f"{game.decade_name}, {game.follow_ups[0].kind}"
    if game.phase == WAR and game.war is not None:
        return f"{game.decade_name}, war ({game.war.stage})"
    return game.phase


def check_action_turn(game: Game, seat: str) -> None:
    if game.phase != ACTION:
        raise IllegalMoveError(f"actions are chosen on a player's turn, not in the {phase_name(game)}")
    _check_turn(seat, game.active, "act")


def _check_turn(seat: str, actor: str, what: str) -> None:
    if seat != actor:
        raise IllegalMoveError(f"it is {actor}'s turn to {what}, not {seat}'s")
