"""The auction phase as the table records it: each lot's winner and price (seed 001, "Фаза
аукциона" and "Описание объектов")."""

from __future__ import annotations

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence.components import LANDSCAPES, Components
from pbem.games.princes_of_florence.table.state import AUCTION, Table
from pbem.kit.auction import Raise
from pbem.kit.memo import by_identity

LOTS = ("forest", "lake", "park", "jester", "builder", "prestige-card", "recruitment")

# Unofficial rules for 2 players: "стартовая цена за карту престижа, карту найма или маркер
# строителя всегда 500 флоринов. Стартовая цена за шута в раунды с первого по четвертый всегда 700
# флоринов, в раунды с пятого по седьмой 300 флоринов."
TWO_PLAYER_OPENING_LOTS = ("prestige-card", "recruitment", "builder")


def variant_price(
    lot: str, components: Components, *, players: int, unofficial: bool, round_: int
) -> int | None:
    """The unofficial rules' "стартовая цена" of ``lot`` (two players only: the rules for three
    give none), or None where they give none (landscapes, and every lot with 3 or more)."""
    if not (unofficial and players == 2):
        return None
    extra = components.unofficial
    if lot == "jester":
        late = round_ >= extra["two_players_jester_late_from"]
        return extra["two_players_jester_late" if late else "two_players_jester_early"]
    if lot in TWO_PLAYER_OPENING_LOTS:
        return extra["two_players_opening_bid"]
    return None


def opening_price(lot: str, components: Components, *, players: int, unofficial: bool, round_: int) -> int:
    """The bid an auction of ``lot`` opens with: 200 ("начинает аукцион со ставкой 200
    флоринов"), or the unofficial rules' "стартовая цена" for two players."""
    found = variant_price(lot, components, players=players, unofficial=unofficial, round_=round_)
    return components.rule("opening_bid") if found is None else found


@by_identity
def bid_raise(components: Components) -> Raise:
    """ "Все повышения цены лота происходят ровно на 100 флоринов, ни больше, ни меньше". Made once
    per set of components: every bid, and every prompt for one, asks."""
    return Raise(components.rule("raise"), exact=True)


def alone_price(
    components: Components,
    lot: str = "",
    *,
    players: int = 0,
    unofficial: bool = False,
    round_: int = 1,
    variant_last: bool = False,
) -> int:
    """What the last player without a lot pays to take one without an auction: "Этот игрок может
    просто заплатить в банк 200 флоринов и взять один из доступных объектов". The standard game's
    200 is the bid every auction opens with, so the last player pays what a lot opens at. The
    unofficial rules for two say "Во время аукциона стартовая цена за карту престижа, карту найма
    или маркер строителя всегда 500 флоринов" (and the jester's 700, then 300): "всегда", always,
    so with option variant_last_price the last player pays those prices too, else a two-player
    game would let half its lots escape them. Games made before the option (``variant_last``
    False) read the text's 200 for any lot, as they were played."""
    alone = components.rule("last_player_price")
    if not variant_last:
        return alone
    found = variant_price(lot, components, players=players, unofficial=unofficial, round_=round_)
    return alone if found is None else found


def opening(table: Table, lot: str) -> int:
    return opening_price(
        lot, table.components, players=len(table.players), unofficial=table.unofficial, round_=table.round
    )


def lot_slot(lot: str, *, unofficial: bool) -> str:
    """The kind a lot counts as for "только один объект одного типа" per round; with the unofficial
    rules "только один тип ландшафта может быть выставлен на аукцион", so all landscapes are one."""
    return "landscape" if unofficial and lot in (*LANDSCAPES, "landscape") else lot


def once_a_round(unofficial: bool, lot: str) -> str:
    """The rule a second lot of a kind in one round breaks, in words: "В каждый раунд на аукцион
    может быть выставлен только один объект одного типа"; with the unofficial rules "За один раунд
    только один тип ландшафта может быть выставлен на аукцион"."""
    if unofficial and lot in (*LANDSCAPES, "landscape"):
        return "with the unofficial rules only one landscape is put up a round"
    return "only one lot of each kind is put up a round"


def slot(table: Table, lot: str) -> str:
    return lot_slot(lot, unofficial=table.unofficial)


def buy(table: Table, text: str, player: str, lot: str, *, price: int, card: str | None) -> None:
    """Record ``player`` winning ``lot`` for ``price`` on ``table`` (already a copy)."""
    estate = table.estates[player]
    parts = table.components
    most_builders, step = parts.builders.limit, parts.rule("raise")

    def refuse(problem: str) -> IllegalMoveError:
        return IllegalMoveError(f"{text!r}: {problem}")

    if table.phase != AUCTION:
        raise refuse(
            f"round {table.round}'s auction phase is over once actions are recorded (each round has "
            "its auction phase, then its action phase)"
        )
    if estate.bought is not None:
        raise refuse(
            f"{player} already won the {estate.bought} this round, and a player wins only one lot a round"
        )
    if slot(table, lot) in table.auctioned:
        raise refuse(
            f"a {slot(table, lot)} was already auctioned this round, and "
            f"{once_a_round(table.unofficial, lot)}"
        )
    if table.supply[lot] <= 0:
        raise refuse(f"no {lot} is left, and a lot is put up only while some are left")
    if lot == "builder" and estate.builders >= most_builders:
        raise refuse(f"{player} has {most_builders} builders already, the most an estate may have")
    # The table does not record who is the last player in the round's auctions (passes and turn
    # order go unrecorded), so a lot may be won at an auction or taken alone.
    least = opening(table, lot)
    alone = alone_price(
        parts,
        lot,
        players=len(table.players),
        unofficial=table.unofficial,
        round_=table.round,
        variant_last=table.variant_last,
    )
    if price != alone and not bid_raise(parts).reaches(least, price):
        raise refuse(
            f"a {lot} is won at an auction for {least}, {least + step}, {least + 2 * step}... (it opens "
            f"at {least} and every bid adds exactly {step}), or taken alone for {alone} by the last "
            "player without a lot"
        )
    if price > estate.florins:
        raise refuse(
            f"{player} has {estate.florins} florins, not {price}, and the winner pays the price to the bank"
        )
    if card is not None:
        _check_unheld(table, text, card)
    estate.florins -= price
    table.supply[lot] -= 1
    estate.bought = lot
    table.auctioned.append(slot(table, lot))
    if lot in LANDSCAPES:
        estate.landscapes[lot] += 1
        # "Если хозяин поместья размещает в нем второй лес ... 3 очка престижа ... третий лес ...
        # вновь 3 очка престижа и т. д."; lakes and parks "так же, как и лес".
        if estate.landscapes[lot] >= 2:
            estate.prestige["landscapes"] += parts.rule("landscape_prestige")
    elif lot == "jester":
        estate.jesters += 1
    elif lot == "builder":
        estate.builders += 1
        # "Если игрок приобрел второго строителя ... 3 очка престижа ... третьего ... так же"
        if estate.builders >= parts.builders.prestige_from:
            estate.prestige["builders"] += parts.builders.prestige
    elif lot == "recruitment":
        estate.recruitment += 1
    else:
        estate.prestige_cards.append(card)


def _check_unheld(table: Table, text: str, card: str) -> None:
    """Each of the 14 prestige cards is a different card, so one named card has one holder."""
    for other, estate in table.estates.items():
        if card in estate.prestige_cards:
            raise IllegalMoveError(f"{text!r}: {other} already holds the prestige card {card}")


def reveal(table: Table, text: str, player: str, card: str) -> None:
    """Name a prestige card held face down ("кладет ... на стол в закрытом виде")."""
    estate = table.estates[player]
    if None not in estate.prestige_cards:
        raise IllegalMoveError(f"{text!r}: {player} holds no unrevealed prestige card")
    _check_unheld(table, text, card)
    estate.prestige_cards[estate.prestige_cards.index(None)] = card


def recruit(table: Table, text: str, player: str, profession: str, owner: str) -> None:
    """Seed 001, "Карты найма": the player "выбирает одну карту профессии, лежащую в раскрытом виде
    у поместья оппонента, берет ее в свою руку, а карту найма кладет ... у своего поместья"."""
    estate = table.estates[player]
    if estate.recruitment <= 0:
        raise IllegalMoveError(f"{text!r}: {player} holds no recruitment card (one is won at the auction)")
    if owner == player:
        raise IllegalMoveError(f"{text!r}: a recruitment card takes a card laid out by an opponent's estate")
    if profession not in table.estates[owner].played:
        laid = ", ".join(table.estates[owner].played) or "none"
        raise IllegalMoveError(
            f"{text!r}: the {profession} does not lie face up by {owner}'s estate (laid out: {laid})"
        )
    table.estates[owner].played.remove(profession)
    estate.named.append(profession)
    estate.recruitment -= 1
    estate.recruited += 1
