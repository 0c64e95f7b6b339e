"""Gold and influence that change hands between players.

Seed 000, "Общие правила": «В любой момент во время игры игроки могут вести переговоры. Между
собой игроки могут обмениваться ТОЛЬКО Золотом и Влиянием. Соглашения могут иметь любую природу,
но НЕ обязывают игроков к их соблюдению.» (At any moment of the game players may negotiate.
Between themselves players may exchange ONLY gold and influence. Deals may be of any nature but
do NOT bind the players.) A Holy League or a condottiere's favour is bought this way, so a gift
may be made at any time, on one's turn or not, and nothing obliges the other side in return.

Money already promised stays where it is: a player may not give away what a bid they lead (or,
in the opening, their bid for turn order) will cost them when the bidding ends, nor gold while
the sealed turn-order bids are being made, since nobody but the bidder knows what they must keep.
Once decade III's income is paid, gold and influence are counted for victory points and no
longer change hands.
"""

from __future__ import annotations

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import decade, opening
from pbem.games.princes_of_the_renaissance.state import (
    BID_STEP,
    FAMILY_BIDDING,
    FAMILY_CHOICE,
    GAME_OVER,
    ORDER_DRAW,
    TIE_BREAK,
    Game,
)

CURRENCIES = ("gold", "influence")


def promised(game: Game, seat: str, currency: str) -> int:
    """What ``seat`` must keep of ``currency`` to pay for what it has already bid."""
    player = game.players[seat]
    if game.phase in (TIE_BREAK, ORDER_DRAW, FAMILY_BIDDING, FAMILY_CHOICE):
        return opening.fee(game, player) if currency == "gold" else 0
    auction = game.auction
    if auction is not None and auction.leader == seat and auction.lot.currency == currency:
        return max(0, decade.price(game, auction) - decade.cardinals(game, seat, auction.lot.kind))
    return 0


def spare(game: Game, seat: str, currency: str) -> int:
    """How much ``seat`` may give away of ``currency`` now."""
    if game.phase == BID_STEP and currency == "gold":
        return 0
    return max(0, decade.holding(game.players[seat], currency) - promised(game, seat, currency))


def check_give(game: Game, seat: str, amount: int, currency: str, to: str) -> None:
    if seat not in game.players:
        raise IllegalMoveError(f"{seat} is not a player of this game")
    if game.phase == GAME_OVER or game.ended:
        raise IllegalMoveError("the game is over: gold and influence are counted, and change hands no more")
    if to == seat:
        raise IllegalMoveError(f"{seat} cannot give to themselves")
    if amount < 1:
        raise IllegalMoveError("give at least 1")
    if game.phase == BID_STEP and currency == "gold":
        raise IllegalMoveError(
            "gold does not change hands while the sealed turn-order bids are made: every bid must "
            "stay payable, and only its bidder knows it (influence may be given)"
        )
    have = decade.holding(game.players[seat], currency)
    if amount > have:
        raise IllegalMoveError(f"{seat} has {have} {currency}")
    kept = promised(game, seat, currency)
    if amount > have - kept:
        raise IllegalMoveError(
            f"{seat} must keep {kept} {currency} for the bid it has made, so can give at most {have - kept}"
        )


def give(game: Game, seat: str, amount: int, currency: str, to: str) -> None:
    transfer(game, seat, to, currency, amount)
    game.events.append(f"{seat} gives {amount} {currency} to {to}")


def transfer(game: Game, source: str, to: str, currency: str, amount: int) -> None:
    """``amount`` of ``currency`` from one player to another: a gift, or a steal."""
    giver, taker = game.players[source], game.players[to]
    if currency == "gold":
        giver.gold -= amount
        taker.gold += amount
    else:
        giver.influence -= amount
        taker.influence += amount
