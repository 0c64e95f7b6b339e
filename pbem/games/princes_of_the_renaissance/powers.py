"""Treachery cards and tile powers outside war (2016 rulebook, "Описание Тайлов" and "Описание
карт Предательства").

Powers used "on your turn" (Steal Influence, Steal Gold Shipment, Lucrezia Borgia, the free
cards) are extra moves of the active player before its action, or in the end-of-turn window;
they never end the turn. The Banker may be used by its holder whenever it is asked to move.
Once-per-decade powers are marked in the player's ``used`` list until the decade ends.
"""

from __future__ import annotations

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import decade, deck, exchange
from pbem.games.princes_of_the_renaissance.state import (
    ACTION,
    AUCTION,
    DECLARE,
    END_TURN,
    FOLLOW_UP,
    GAME_OVER,
    KEEP,
    RANK,
    Game,
)
from pbem.kit.seats import first

STEALS = {"steal-influence": ("influence", 2), "steal-gold-shipment": ("gold", 3)}
MALATESTA = "malatesta"  # the Malatesta A side's free card, named like a tile in 'use'


def on_own_turn(game: Game, seat: str) -> bool:
    """The active player, before its action or in its end-of-turn window (never in an auction)."""
    if game.phase == ACTION:
        return game.active == seat
    if game.phase == FOLLOW_UP and game.follow_ups:
        due = game.follow_ups[0]
        return due.kind == END_TURN and due.seat == seat
    return False


def _check_own_turn(game: Game, seat: str, what: str) -> None:
    if not on_own_turn(game, seat):
        raise IllegalMoveError(f"{what} is played on one's own turn, outside auctions and wars")


def _victim(game: Game, seat: str, target: str) -> None:
    if target not in game.players:
        raise IllegalMoveError(f"no player {target!r}: the players are {', '.join(game.order)}")
    if target == seat:
        raise IllegalMoveError("a player cannot steal from itself")


# --- Steal Influence, Steal Gold Shipment, Lucrezia Borgia -------------------------------------------


def check_steal(game: Game, seat: str, card: str, target: str) -> None:
    _check_own_turn(game, seat, game.components.card(card).name)
    if not deck.showing(game, seat, card):
        raise IllegalMoveError(f"{seat} holds no {game.components.card(card).name}")
    _victim(game, seat, target)


def steal(game: Game, seat: str, card: str, target: str) -> None:
    deck.play(game, seat, card)
    currency, amount = STEALS[card]
    _take(game, seat, target, currency, amount, source=game.components.card(card).name)


def _take(game: Game, seat: str, target: str, currency: str, amount: int, *, source: str) -> None:
    taken = min(amount, decade.holding(game.players[target], currency))  # no more than the other has
    exchange.transfer(game, target, seat, currency, taken)
    game.events.append(f"{seat} plays {source}: takes {taken} {currency} from {target}")


def check_use(game: Game, seat: str, source: str, target: str) -> None:
    """``use TILE [SEAT]``: Lucrezia Borgia (steal 2 influence) or a free Treachery card."""
    _check_own_turn(game, seat, "a tile's power")
    player = game.players[seat]
    if source == MALATESTA:
        if f"{player.family}-{game.side}" != "malatesta-a":
            raise IllegalMoveError("only Malatesta's A side draws a free card once a decade")
        power = "free-card"
    else:
        if source not in player.city_tiles:
            raise IllegalMoveError(f"{seat} holds no City tile {source!r}")
        power = game.components.city_tile(source).ability
        if power not in ("lucrezia-borgia", "free-card"):
            raise IllegalMoveError(f"{source} has no power to use on one's turn")
    if source in player.used:
        raise IllegalMoveError(f"{source} has already been used this decade")
    if power == "lucrezia-borgia":
        _victim(game, seat, target)
    elif target:
        raise IllegalMoveError(f"{source} takes no player")
    elif not deck.size(game):
        raise IllegalMoveError("the Treachery deck is empty")


def use(game: Game, seat: str, source: str, target: str) -> None:
    game.players[seat].used.append(source)
    if source != MALATESTA and game.components.city_tile(source).ability == "lucrezia-borgia":
        _take(game, seat, target, "influence", 2, source="Lucrezia Borgia")
        return
    deck.draw(game, seat)
    name = "Malatesta" if source == MALATESTA else game.components.city_tile(source).name
    game.events.append(f"{seat} draws a free Treachery card ({name})")
    decade.check_hand(game, seat)
    if game.follow_ups and game.phase == ACTION:
        game.resume = True  # the discard comes first; then the turn goes on
        game.phase = FOLLOW_UP


# --- the Banker ----------------------------------------------------------------------------------------


def check_bank(game: Game, seat: str, amount: int, currency: str) -> None:
    """Once a decade, up to 3 gold for as much influence or the reverse, "в любое время" (at any
    time, one's turn or not) but never after the decade's last Event tile is sold and never at
    final scoring; never what a bid the player leads will cost (``exchange.promised``)."""
    tiles = decade.unused_tiles(game, seat, "banker")
    if not decade.tiles_with(game, seat, "banker"):
        raise IllegalMoveError(f"{seat} holds no Banker")
    if not tiles:
        raise IllegalMoveError("the Banker has already been used this decade")
    if game.decade_over or game.ended or game.phase == GAME_OVER:
        raise IllegalMoveError("the Banker cannot be used once the decade's last Event tile is sold")
    if not 1 <= amount <= 3:
        raise IllegalMoveError("the Banker exchanges 1 to 3")
    player = game.players[seat]
    have = player.gold if currency == "gold" else player.influence
    if amount > have:
        raise IllegalMoveError(f"{seat} has {have} {currency}")
    kept = exchange.promised(game, seat, currency)
    if amount > have - kept:
        raise IllegalMoveError(f"{seat} must keep {kept} {currency} for the bid it leads")


def bank(game: Game, seat: str, amount: int, currency: str) -> None:
    player = game.players[seat]
    player.used.append(decade.unused_tiles(game, seat, "banker")[0])
    if currency == "gold":
        player.gold -= amount
        player.influence += amount
        other = "influence"
    else:
        player.influence -= amount
        player.gold += amount
        other = "gold"
    game.events.append(f"{seat} uses the Banker: {amount} {currency} for {amount} {other}")


# --- Freeze Bid -------------------------------------------------------------------------------------------


def check_freeze(game: Game, seat: str, target: str) -> None:
    auction = game.auction
    if game.phase != AUCTION or auction is None:
        raise IllegalMoveError("Freeze Bid is played in an auction, on one's turn to bid")
    if seat in auction.passed:
        raise IllegalMoveError(f"{seat} has dropped out of this auction")
    if auction.turn != seat:
        raise IllegalMoveError(f"it is {auction.turn}'s turn to bid, not {seat}'s")
    if not deck.showing(game, seat, "freeze-bid"):
        raise IllegalMoveError(f"{seat} holds no Freeze Bid")
    if target not in game.players or target == seat:
        raise IllegalMoveError("Freeze Bid names another player")
    if target in auction.passed or target in game.frozen:
        raise IllegalMoveError(f"{target} can no longer raise in this auction anyway")


def check_cardinal(game: Game, seat: str) -> None:
    """Bribe Cardinal played in a Pope auction on one's turn to bid, or on one's turn before putting
    the Pope up (to open with a bid it backs): its holder chooses to pay for the Pope with it. It
    lies face up in the hand, counts as 3 influence toward the Pope, and pays as soon as its holder
    wins the Pope (``decade.pay``)."""
    auction = game.auction
    if game.phase == ACTION and game.pope is None and game.active == seat:
        if not deck.showing(game, seat, "bribe-cardinal"):
            raise IllegalMoveError(f"{seat} holds no Bribe Cardinal")
        return
    if game.phase != AUCTION or auction is None or auction.lot.kind != "pope":
        raise IllegalMoveError(
            "Bribe Cardinal is shown in a Pope auction on one's turn to bid, "
            "or on one's turn to put the Pope up"
        )
    if seat in auction.passed:
        raise IllegalMoveError(f"{seat} has dropped out of this auction")
    if auction.turn != seat:
        raise IllegalMoveError(f"it is {auction.turn}'s turn to bid, not {seat}'s")
    if seat in game.frozen:
        raise IllegalMoveError(f"{seat} is frozen by Freeze Bid and may not raise again")
    if not deck.showing(game, seat, "bribe-cardinal"):
        raise IllegalMoveError(f"{seat} holds no Bribe Cardinal")


def show_cardinal(game: Game, seat: str) -> None:
    game.showing = ""  # the card stays in the hand, face up
    count = len(deck.face_up(game, seat, "bribe-cardinal"))
    game.events.append(
        f"{seat} plays Bribe Cardinal to pay for the Pope: {3 * count} influence from cards played"
    )


def freeze(game: Game, seat: str, target: str) -> None:
    deck.play(game, seat, "freeze-bid")
    game.frozen = (*game.frozen, target)
    game.events.append(f"{seat} plays Freeze Bid on {target}: {target} may not raise again in this auction")


# --- follow-ups: Baglioni's declaration, Bentivogli's keep and ranking -----------------------------------


def due(game: Game, seat: str, kind: str, what: str) -> str:
    current = first(game.follow_ups) if game.phase == FOLLOW_UP else None
    if current is None or current.kind != kind or current.seat != seat:
        raise IllegalMoveError(f"{seat} has nothing to {what} now")
    return current.what


def check_declare(game: Game, seat: str, currency: str) -> None:
    due(game, seat, DECLARE, "declare")
    if currency not in ("gold", "influence"):
        raise IllegalMoveError("Baglioni declares gold or influence")


def declare(game: Game, seat: str, currency: str) -> None:
    game.follow_ups.pop(0)
    game.players[seat].declared = currency
    game.events.append(f"{seat} (Baglioni) takes its discount in {currency} this decade")
    if not game.follow_ups:
        game.phase = ACTION  # the decade's first turn, which the declaration came before


def check_keep(game: Game, seat: str, token: str) -> None:
    drawn = due(game, seat, KEEP, "keep").split()
    if token not in drawn:
        raise IllegalMoveError(f"keep one of the two cards drawn: {' or '.join(drawn)}")


def kept_other(game: Game, seat: str, token: str) -> str:
    """The card Bentivogli puts under the deck when keeping ``token`` ("" if it is not a choice)."""
    current = first(game.follow_ups) if game.phase == FOLLOW_UP else None
    if current is None or current.kind != KEEP or current.seat != seat:
        return ""
    drawn = current.what.split()
    return next((other for other in drawn if other != token), "") if token in drawn else ""


def keep(game: Game, seat: str, token: str) -> None:
    drawn = game.follow_ups.pop(0).what.split()
    drawn.remove(token)
    deck.to_bottom(game, seat, drawn[0])
    game.events.append(f"{seat} (Bentivogli) keeps one card and puts the other under the deck")
    decade.check_hand(game, seat)
    decade.carry_on(game)


def check_rank(game: Game, seat: str, city: str) -> None:
    tied = due(game, seat, RANK, "rank").split()
    if city not in tied:
        raise IllegalMoveError(
            f"Bentivogli names one of the tied cities as the winner of the tie ({', '.join(tied)}), or passes"
        )


def rank(game: Game, seat: str, city: str) -> None:
    """Bentivogli (A side) "можете объявить, какой из них выигрывает спор": ``city`` wins the tie;
    the rest of the group stays tied and takes the lowest place left, as any tie does."""
    tied = game.follow_ups.pop(0).what.split()
    game.ranking.append([city, *(other for other in tied if other != city)])
    game.events.append(f"{seat} (Bentivogli) declares that {city} wins the tie between {', '.join(tied)}")
    decade.carry_on(game)
