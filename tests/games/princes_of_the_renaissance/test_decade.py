"""The decades of Princes of the Renaissance at the rules level: Buy, Auction, War, Pass and the
decade's end.

Rules texts (in /work/shared/seeds): seed 000, the 2016 rulebook ("Игровой Процесс", "Действия
(подробно)", "Тайлы Событий", "Важные Правила", "Описание Тайлов"); seed 003, the 2003 Italian
summary ("Round", "Fine di una Decade"); seed 004, the English reference manual (§5).

Every expected value below comes from the rule text quoted next to it, or from the component data
the rule points at ("по цене, указанной на тайле": the price printed on the tile), never from what
the code under test computes. Every refusal leaves the state as it was and says, in one line,
which rule refused it.

Wars themselves (condottieri, cards in a war, dice) are tested in test_war.py and the cards' and
tiles' powers in test_powers.py; here War is one of the actions of a turn, limited per
decade, and the end-of-turn window (Start War is played "В конце Вашего Хода") is a step a turn
may go through before the next player's.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from functools import partial

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance.components import CITIES, TROOPS
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from pbem.kit.stand_in import Defaults
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.support import (
    DEALER,
    SEATS,
    act,
    give,
    refused,
    to_act,
    with_active,
)

GAME_ID = "5e" * 16
# a: Gonzaga (2 gold auction discount), b: Malatesta (hand limit 3), c: Montefeltro (2 influence
# auction discount), d: d'Este (may buy Artillery in decade I, A side).
FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "montefeltro", "d": "este"}

# Rule values written out from the texts, not read from the code.
CARD_GOLD = CARD_INFLUENCE = 1  # seed 000: "Карты Предательства стоят 1 Золотой и 1 Влияние"
HAND_LIMIT = 2  # seed 000, Важные Правила: "Лимитом Руки (ЛР) в 2 карты Предательства"
MALATESTA_HAND_LIMIT = 3  # seed 000, Malatesta (A and B): "держать 3 карты Предательства"
POPE_GOLD = 3  # seed 000, Тайл Папы Римского: "в конце него получает 3 Золотых Дохода"
STATUS_MIN, STATUS_MAX = 3, 10  # seed 000, Начать Войну: "не может выйти за предел 10 или ... ниже 3"
# seed 000, Начать Войну: "в игре при меньше чем 5 игроках, в Десятилетии может произойти 4 Войны, в
# ином случае – за Десятилетие может пройти 5 Войн"
WAR_LIMIT = {4: 4, 5: 5}
END_OF_TURN = "end of turn"


# --- helpers ---------------------------------------------------------------------------------------
decade_one = partial(potr_support.decade_one, game_id=GAME_ID, families=FAMILIES)


def finish_turn(state: Game) -> Game:
    """Answer 'pass' to the end-of-turn window if the turn stopped there: the active player holds
    a Start War card ("В конце Вашего Хода Вы можете разыграть эту карту") or won a free-card tile
    this turn. The cards come from the shuffled deck, so a test that buys one may meet it."""
    while state.phase == "follow-up" and state.follow_ups[0].kind == END_OF_TURN:
        state = act(state, state.follow_ups[0].seat, "pass")
    return state


def deal_hand(state: Game, seat: str, count: int) -> None:
    """``seat`` holds the top ``count`` cards of the dealer's pile (the deck count follows)."""
    give(state, seat, *DEALER.peek(count))
    for _ in range(count):
        DEALER.pile.pop(0)
    state.deck -= count


def city_tile(state: Game, city: str, *, merchant: bool | None = None, skip: Sequence[str] = ()) -> str:
    """A City tile of ``city`` still in the supply (a Merchant one, or not, if asked)."""
    parts = state.components
    return next(
        tile
        for tile in state.city_supply
        if parts.city_tile(tile).city == city
        and tile not in skip
        and (merchant is None or parts.city_tile(tile).merchant == merchant)
    )


def give_city_tiles(state: Game, seat: str, tiles: Sequence[str]) -> None:
    for tile in tiles:
        state.city_supply.remove(tile)
        state.players[seat].city_tiles.append(tile)


def event_of(state: Game, *, kind: str, currency: str | None = None) -> str:
    parts = state.components
    return next(
        event
        for event in state.event_row
        if parts.event(event).kind == kind and (currency is None or parts.event(event).currency == currency)
    )


def decade_two(state: Game) -> Game:
    """The same table with decade II's Event tiles on offer (to reach the French Invade tile)."""
    state = copy.deepcopy(state)
    state.decade = 2
    state.event_row = [event.id for event in state.components.events if event.decade == 2]
    return state


def everyone_passes(state: Game, *, but: str = "") -> Game:
    """Every seat asked to bid in the running auction passes, except ``but`` (who may not be asked)."""
    while state.phase == "auction":
        seat = to_act(state)
        assert seat != but
        state = act(state, seat, "pass")
    return state


# --- Buy: Troop tiles ---------------------------------------------------------------------------------
def test_a_troop_tile_costs_the_gold_printed_on_it() -> None:
    """Seed 000: "Тайл Войск покупается на Золотые по цене, указанной на тайле"."""
    state = decade_one()
    cost = state.components.troop("infantry").cost
    after = act(state, "a", "buy infantry")
    assert after.players["a"].gold == state.players["a"].gold - cost
    assert after.players["a"].influence == state.players["a"].influence
    assert after.players["a"].troops == ["infantry"]
    assert after.troop_supply["infantry"] == state.troop_supply["infantry"] - 1


def test_a_troop_tile_the_player_cannot_pay_for_is_refused() -> None:
    state = decade_one()
    state.players["a"].gold = state.components.troop("pikemen").cost - 1
    refused(state, "a", "buy pikemen", "costs")


def test_a_second_troop_tile_of_the_same_type_is_refused() -> None:
    """Seed 000: "Игроки никогда не могут покупать тайл Войск, который совпадает с тем, которым они
    уже владеют"; seed 004: "Only one of each troop type allowed per player"."""
    state = decade_one()
    state.players["a"].troops = ["crossbowmen"]
    refused(state, "a", "buy crossbowmen", "never holds two")
    act(state, "a", "buy infantry")  # another type is fine


@pytest.mark.parametrize("troop", ["cavalry", "artillery"])
def test_cavalry_and_artillery_cannot_be_bought_in_decade_one(troop: str) -> None:
    """Seed 000: "игрок не может купить Конницу (Cavalry) или Артиллерию (Artillery) в течение
    первого Десятилетия"; from decade II they can."""
    state = decade_one()
    refused(state, "a", f"buy {troop}", "cannot be bought in decade I")
    later = copy.deepcopy(state)
    later.decade = 2
    after = act(later, "a", f"buy {troop}")
    assert after.players["a"].troops == [troop]


def test_deste_a_side_may_buy_artillery_in_decade_one() -> None:
    """Seed 000, d'Este (A side): "Вы можете покупать Артиллерию в первом Десятилетии"."""
    state = with_active(decade_one(), "d")
    after = act(state, "d", "buy artillery")
    assert after.players["d"].troops == ["artillery"]
    assert after.players["d"].gold == state.players["d"].gold - state.components.troop("artillery").cost


def test_deste_b_side_may_not_buy_artillery_in_decade_one() -> None:
    """Seed 000, d'Este B side: only "+1 к Обороне"; the Artillery exception is the A side's."""
    state = with_active(decade_one(side="b"), "d")
    refused(state, "d", "buy artillery", "cannot be bought in decade I")


def test_deste_a_side_may_not_buy_cavalry_in_decade_one() -> None:
    """Seed 000, d'Este (A side): "Вы можете покупать Артиллерию в первом Десятилетии" - Artillery
    only; the general rule forbids "Конницу (Cavalry) или Артиллерию" in decade I "Если игровой
    тайл не указывает иначе", and the tile says nothing about Cavalry."""
    state = with_active(decade_one(), "d")
    refused(state, "d", "buy cavalry", "cannot be bought in decade I")


def test_one_purchase_per_turn_then_the_turn_passes() -> None:
    """Seed 000: "Игрок может купить только один тайл или карту во время своего Хода. Игрок не может
    купить и тайл, и карту"; "Каждый игрок выполняет ОДНО Действие за Раунд"."""
    state = act(decade_one(), "a", "buy infantry")
    assert (state.phase, state.active) == ("action", "b")
    refused(state, "a", "buy crossbowmen", "it is b's turn")
    refused(state, "a", "buy card", "it is b's turn")


def test_discarding_a_troop_tile_returns_it_to_the_supply_instead_of_buying() -> None:
    """Seed 000: "Игроки могут сбросить тайл Войск, вместо того, чтобы покупать тайл в этом
    Действии. Сброшенный тайл, возвращается в Запас"."""
    state = act(decade_one(), "a", "buy infantry")
    for seat in ("b", "c", "d"):
        state = act(state, seat, "pass")
    supply = state.troop_supply["infantry"]
    gold = state.players["a"].gold
    after = act(state, "a", "discard infantry")
    assert after.players["a"].troops == []
    assert after.troop_supply["infantry"] == supply + 1
    assert after.players["a"].gold == gold  # nothing is paid or refunded
    assert after.active == "b", "discarding is the action of the turn"


def test_discarding_a_troop_tile_not_held_is_refused() -> None:
    refused(decade_one(), "a", "discard pikemen", "no Pikemen")


def test_a_treachery_card_costs_one_gold_and_one_influence_and_goes_to_the_hand() -> None:
    """Seed 000: "Карты Предательства стоят 1 Золотой и 1 Влияние"."""
    state = decade_one()
    (top,) = DEALER.peek()
    (token,) = DEALER.pile[:1]
    after = act(state, "a", "buy card")
    assert after.players["a"].gold == state.players["a"].gold - CARD_GOLD
    assert after.players["a"].influence == state.players["a"].influence - CARD_INFLUENCE
    assert DEALER.cards_in(after, "a") == [top]
    assert after.players["a"].cards == [token], "the state holds the token, never the card"
    assert after.deck == state.deck - 1
    assert finish_turn(after).active == "b"


def test_a_treachery_card_without_the_influence_to_pay_is_refused() -> None:
    state = decade_one()
    state.players["a"].influence = 0
    refused(state, "a", "buy card", "costs 1 gold and 1 influence")


def test_over_the_hand_limit_the_buyer_must_discard_before_play_goes_on() -> None:
    """Seed 000, Важные Правила: "Игрок может превысить Лимит своей Руки, но затем должен немедленно
    сбросить карты, уменьшив их количество, до своего ЛР перед продолжением Хода"."""
    state = decade_one()
    deal_hand(state, "a", HAND_LIMIT)
    over = act(state, "a", "buy card")
    drawn = over.players["a"].cards[-1]
    assert over.phase == "follow-up"
    (demand,) = RULES.demands(over)
    assert demand.seat == "a" and "discard TOKEN" in demand.prompt
    assert len(over.players["a"].cards) == HAND_LIMIT + 1
    refused(over, "b", "pass", "it is a's turn")
    refused(over, "b", "buy infantry", "a must first finish the last action: discard TOKEN")
    refused(over, "a", "pass", "must discard")
    refused(over, "a", "buy infantry", "discard TOKEN")
    refused(over, "a", "discard treachery:99", "holds no")
    after = act(over, "a", f"discard {drawn}")
    assert len(after.players["a"].cards) == HAND_LIMIT
    assert after.discards == [] and after.buried == 1, "discarded face down"
    # Every player holding a card face down is offered the end of its turn (it may hold Start War).
    assert [(due.seat, due.kind) for due in after.follow_ups] == [("a", END_OF_TURN)]
    assert (finish_turn(after).phase, finish_turn(after).active) == ("action", "b")


def test_the_discard_comes_before_the_end_of_turn_window() -> None:
    """The same with a Start War card in hand: the discard first ("немедленно ... перед продолжением
    Хода"), then the window at the end of the turn, then the next player."""
    state = decade_one()
    give(state, "a", "start-war", "veto")
    DEALER.top("bad-weather")  # cards with no use on one's own turn
    over = act(state, "a", "buy card")
    drawn = over.players["a"].cards[-1]
    assert [(due.seat, due.kind) for due in over.follow_ups] == [("a", "discard")]
    after = act(over, "a", f"discard {drawn}")
    assert [(due.seat, due.kind) for due in after.follow_ups] == [("a", END_OF_TURN)]
    assert sorted(DEALER.playable(after, "a")) == sorted(
        ["pass", *(f"play start-war {x} {y}" for x in CITIES for y in CITIES if x != y)]
    )
    assert (finish_turn(after).phase, finish_turn(after).active) == ("action", "b")


def test_malatesta_holds_three_treachery_cards() -> None:
    """Seed 000, Malatesta (both sides): "Вы можете держать 3 карты Предательства вместо нормального
    Лимита Руки"."""
    state = with_active(decade_one(side="b"), "b")  # the B side: no free card to draw (the A side's)
    deal_hand(state, "b", HAND_LIMIT)
    third = act(state, "b", "buy card")
    assert len(third.players["b"].cards) == MALATESTA_HAND_LIMIT
    assert "discard" not in [due.kind for due in third.follow_ups], "three cards are within the limit"
    third = finish_turn(third)
    assert (third.phase, third.active) == ("action", "c")
    fourth = act(with_active(third, "b"), "b", "buy card")
    assert fourth.phase == "follow-up" and to_act(fourth) == "b"
    assert fourth.follow_ups[0].kind == "discard"


def test_a_treachery_card_may_not_be_discarded_when_not_over_the_limit() -> None:
    state = decade_one()
    deal_hand(state, "a", 1)
    refused(state, "a", f"discard {state.players['a'].cards[0]}", "hand limit")


def test_acting_out_of_turn_is_refused() -> None:
    """Seed 000: decade I "начинается с игрока, держащегося маркер ПИХ '1', и продолжается в
    порядке маркеров Игрового Хода"."""
    state = decade_one()
    tile = city_tile(state, "naples")
    for seat in ("b", "c", "d"):
        refused(state, seat, "buy infantry", "it is a's turn")
        refused(state, seat, "buy card", "it is a's turn")
        refused(state, seat, "pass", "it is a's turn")
        refused(state, seat, f"auction {tile} 10", "it is a's turn")
    refused(state, "a", "bid 3", "no auction is running")
    refused(state, "a", "place venice", "no Event tile")
    refused(state, "a", "family baglioni", "families were chosen")


def test_passing_is_an_action_and_the_turn_goes_round_in_turn_order() -> None:
    """Seed 000, Спасовать: "Пропуск одного Хода является добровольной опцией ... игроки не теряют
    право участвовать в следующих раундах Действий"."""
    state = decade_one()
    seen = []
    for _ in range(6):
        seen.append(state.active)
        state = act(state, state.active, "pass")
    assert seen == ["a", "b", "c", "d", "a", "b"]


# --- Auction: City tiles ------------------------------------------------------------------------------
def test_a_city_tile_opens_at_twice_the_citys_status() -> None:
    """Seed 000, Тайл Города: "Начальная ставка за тайл конкретного Города должна быть равна,
    минимум, удвоенному текущему Статусу этого Города"."""
    state = decade_one()
    tile = city_tile(state, "naples")
    state.status["naples"] = 8
    refused(state, "a", f"auction {tile} 15", "at least twice the city's status (8): 16 gold")
    after = act(state, "a", f"auction {tile} 16")
    assert after.phase == "auction"
    assert after.auction is not None and (after.auction.price, after.auction.leader) == (16, "a")
    assert after.auction.lot.currency == "gold", "Городские тайлы продаются с Аукциона только за Золото"


def test_the_nominator_must_bid() -> None:
    """Seed 000: "Активный игрок должен сделать начальную ставку": 'auction TILE' needs a bid."""
    state = decade_one()
    tile = city_tile(state, "naples")
    for text in (f"auction {tile}", "auction pope", f"auction {state.event_row[0]}"):
        with pytest.raises(MoveSyntaxError):
            RULES.parse(text)
    assert not any(
        move.count(" ") == 1 and move.startswith("auction") for move in RULES.legal_moves(state, "a")
    )


def test_bidding_goes_clockwise_from_the_nominator_in_turn_order() -> None:
    """Seed 000: "Ставки продолжаются по часовой стрелке, пока в Аукционе не останется только один
    игрок"; the players sit in turn order ("пересесть за столом в порядке, соответствующем их
    маркерам ПИХ")."""
    state = with_active(decade_one(), "c")
    tile = city_tile(state, "rome")
    state = act(state, "c", f"auction {tile} 10")
    asked = []
    for text in ("pass", "bid 11", "bid 12", "pass", "pass"):  # d, a, b, c, a
        seat = to_act(state)
        asked.append(seat)
        state = act(state, seat, text)
    assert asked == ["d", "a", "b", "c", "a"]
    assert state.auction is None
    assert tile in state.players["b"].city_tiles


def test_a_pass_in_an_auction_is_final() -> None:
    """Seed 000: "После паса игрок не может предлагать ставку снова на этом Аукционе"."""
    state = act(decade_one(), "a", f"auction {city_tile(decade_one(), 'rome')} 10")
    state = act(state, "b", "pass")
    state = act(state, "c", "bid 11")
    state = act(state, "d", "bid 12")
    assert to_act(state) == "a"
    refused(state, "b", "bid 20", "a pass is final")
    state = act(state, "a", "bid 13")
    assert to_act(state) == "c", "b, who passed, is not asked again"
    refused(state, "b", "pass", "already passed")


def test_a_bid_must_exceed_the_highest_bid() -> None:
    state = act(decade_one(), "a", f"auction {city_tile(decade_one(), 'rome')} 10")
    refused(state, "b", "bid 10", "must exceed the highest bid")
    refused(state, "c", "bid 11", "it is b's turn")


def test_a_bid_above_the_players_gold_is_refused_without_a_discount() -> None:
    """Seed 000: a player may bid more than they hold only "если при вычитании из его ставки скидок
    ... выходит разница, которая равна или меньше, количества Золота"; Malatesta has no discount."""
    state = decade_one()
    state.players["b"].gold = 12
    state = act(state, "a", f"auction {city_tile(state, 'rome')} 10")
    refused(state, "b", "bid 13", "cannot be paid")
    act(state, "b", "bid 12")


def test_a_discount_lets_a_player_bid_beyond_their_gold_and_the_winner_pays_bid_minus_discount() -> None:
    """Seed 000: "если у игрока имеется скидок на сумму в 2 Золотых, а у него есть 6 Золотых, он может
    предложить ставку до 8 Золотых"; Gonzaga (A): "скидку в 2 Золотых всякий раз, когда Вы вовлечены
    в Аукцион, который использует Золото"; the winner "платит своё заключительное предложение"
    less the discount."""
    state = decade_one()
    state.status["naples"] = 3  # opens at 6
    state.players["a"].gold = 6
    tile = city_tile(state, "naples")
    refused(state, "a", f"auction {tile} 9", "with a discount of 2")
    state = act(state, "a", f"auction {tile} 8")
    state = everyone_passes(state)
    assert tile in state.players["a"].city_tiles
    assert state.players["a"].gold == 0, "bid 8 less the discount of 2"


def test_a_seventh_city_tile_is_refused() -> None:
    """Seed 000, Важные Правила: "всего не больше, чем 6 Городскими тайлами одновременно"."""
    state = decade_one()
    for city in ("venice", "milan"):
        tiles = [tile for tile in state.city_supply if state.components.city_tile(tile).city == city]
        give_city_tiles(state, "a", tiles[:3])
    state.players["a"].gold = 100
    refused(state, "a", f"auction {city_tile(state, 'venice')} 14", "holds 6 City tiles, the limit")
    refused(state, "a", f"auction {city_tile(state, 'rome')} 10", "holds 6 City tiles, the limit")
    act(state, "a", f"auction {state.event_row[0]} 0")  # Event tiles are still open to them


def test_a_fourth_city_is_refused() -> None:
    """Seed 000, Важные Правила: "Игрок может владеть только Городскими тайлами из 3 различных
    Городов"."""
    state = decade_one()
    give_city_tiles(state, "a", [city_tile(state, city) for city in ("venice", "milan", "florence")])
    refused(state, "a", f"auction {city_tile(state, 'naples')} 10", "cannot add a fourth")
    act(state, "a", f"auction {city_tile(state, 'milan')} 12")  # a city already held is fine


def test_a_player_at_the_city_tile_limits_cannot_bid_for_a_city_tile() -> None:
    """The same limits while bidding: b (three cities) and c (six tiles) cannot take a Naples tile,
    so the auction goes past them; a bid from either is refused."""
    state = decade_one()
    give_city_tiles(state, "b", [city_tile(state, city) for city in ("venice", "milan", "florence")])
    rome = [tile for tile in state.city_supply if state.components.city_tile(tile).city == "rome"]
    give_city_tiles(state, "c", rome[:6])
    state = act(state, "a", f"auction {city_tile(state, 'naples')} 10")
    assert to_act(state) == "d"
    assert any("b passes" in line and "fourth" in line for line in state.events)
    assert any("c passes" in line and "the limit" in line for line in state.events)
    assert RULES.legal_moves(state, "b") == [] and RULES.legal_moves(state, "c") == []
    refused(state, "b", "bid 11", "cannot add a fourth")  # the refusal names the limit
    refused(state, "c", "bid 11", "the limit")


def test_a_freeze_bid_holder_who_may_not_take_the_city_tile_is_listed_no_bid() -> None:
    """Seed 000, Важные Правила: "Игрок может владеть только Городскими тайлами из 3 различных
    Городов"; Freeze Bid is played "когда приходит Ваша очередь предлагать ставку на Аукционе (даже
    если Вы принимаете решение спасовать)". b holds tiles of three cities and a Freeze Bid: in a Naples
    tile's auction b may play the card or pass, and no bid of b's may be listed, since none is legal."""
    state = decade_one()
    give_city_tiles(state, "b", [city_tile(state, city) for city in ("venice", "milan", "florence")])
    give(state, "b", "freeze-bid")
    state = act(state, "a", f"auction {city_tile(state, 'naples')} 10")
    refused(state, "b", "bid 11", "cannot add a fourth")


def test_a_city_tile_not_in_the_supply_is_refused() -> None:
    state = decade_one()
    tile = city_tile(state, "rome")
    give_city_tiles(state, "b", [tile])
    refused(state, "a", f"auction {tile} 10", "not in the supply")
    refused(state, "a", "auction nowhere 10", "no tile")


# --- Auction: Event tiles and the Pope ----------------------------------------------------------------
@pytest.mark.parametrize("currency", ["gold", "influence"])
def test_an_event_tile_opens_at_zero_and_is_paid_in_its_currency(currency: str) -> None:
    """Seed 000, Тайл События: "оплачиваются или Золотом, или Влиянием, в зависимости от того, имеется
    ли на тайле пустой кружок (Золото) или пустой квадратик (Влияние)"; "должен сделать предложение,
    равное хотя бы 0"; "Сохраняет любой тайл События с ПО до Конца Игры". Malatesta (b) has no
    discount."""
    state = decade_one()
    event = event_of(state, kind="vp", currency=currency)
    state = act(state, "a", f"auction {event} 0")
    assert state.auction is not None and state.auction.lot.currency == currency
    state = act(state, "b", "bid 2")
    before = copy.deepcopy(state.players["b"])
    state = everyone_passes(state)
    after = state.players["b"]
    assert after.events == [event]
    spent = {"gold": before.gold - after.gold, "influence": before.influence - after.influence}
    assert spent == {currency: 2, ("influence" if currency == "gold" else "gold"): 0}
    assert event not in state.event_row
    assert (state.phase, state.active) == ("action", "b"), "no compensation after an Event auction"


def test_an_event_tile_not_of_this_decade_is_refused() -> None:
    state = decade_one()
    later = next(event.id for event in state.components.events if event.decade == 2)
    refused(state, "a", f"auction {later} 0", "not an Event tile of decade I")


def test_the_pope_is_bid_in_influence_from_zero_and_stays_with_its_holder_for_the_decade() -> None:
    """Seed 000, Тайл Папы Римского: "продаётся с Аукциона таким же образом как тайлы Событий, за
    исключением того, что ставки за него могут делаться только с использованием Влияния"."""
    state = with_active(decade_one(), "b")
    state = act(state, "b", "auction pope 0")
    assert state.auction is not None and state.auction.lot.currency == "influence"
    state = act(state, "c", "pass")
    state = act(state, "d", "bid 3")
    gold = state.players["d"].gold
    influence = state.players["d"].influence
    state = everyone_passes(state)
    assert state.pope == "d"
    assert state.players["d"].influence == influence - 3
    assert state.players["d"].gold == gold
    assert (state.phase, state.active) == ("action", "c"), "no compensation after the Pope's auction"
    refused(state, "c", "auction pope 0", "held by d until the decade's end")


def test_montefeltro_bids_beyond_their_influence_for_the_pope() -> None:
    """Seed 000, Montefeltro (A): "скидку в 2 Влияния всякий раз, когда Вы вовлечены в Аукцион,
    который использует Влияние"; combined with the rule that a discount covers a bid above one's
    holdings."""
    state = with_active(decade_one(), "c")
    state.players["c"].influence = 1
    refused(state, "c", "auction pope 4", "with a discount of 2")
    state = everyone_passes(act(state, "c", "auction pope 3"))
    assert state.pope == "c"
    assert state.players["c"].influence == 0


def test_a_nominator_who_loses_a_city_tile_auction_may_buy_one_treachery_card() -> None:
    """Seed 000: "Если игрок проигрывает Аукцион за Городской тайл ... который он номинировал, после
    того, как Аукцион закончился, он может купить в качестве компенсации карту Предательства за 1
    Золотой и 1 Влияние"."""
    state = decade_one()
    tile = city_tile(state, "rome")
    state = act(state, "a", f"auction {tile} 10")
    state = act(state, "b", "bid 11")
    state = everyone_passes(state)
    assert tile in state.players["b"].city_tiles
    assert state.phase == "follow-up"
    (demand,) = RULES.demands(state)
    assert demand.seat == "a" and "buy card" in demand.prompt
    assert sorted(RULES.legal_moves(state, "a")) == ["buy card", "pass"]
    refused(state, "b", "buy infantry", "a must first finish the last action: buy card or pass")
    refused(state, "a", "buy infantry", "buy card or pass")
    refused(state, "b", "buy card", "actions are chosen on a player's turn")

    (top,) = DEALER.peek()
    bought = act(state, "a", "buy card")
    assert DEALER.cards_in(bought, "a") == [top]
    assert bought.players["a"].gold == state.players["a"].gold - CARD_GOLD
    assert bought.players["a"].influence == state.players["a"].influence - CARD_INFLUENCE
    assert (finish_turn(bought).phase, finish_turn(bought).active) == ("action", "b")

    declined = act(state, "a", "pass")
    assert declined.players["a"] == state.players["a"]
    assert (declined.phase, declined.active) == ("action", "b")


def test_no_compensation_when_the_nominator_wins_the_city_tile() -> None:
    state = everyone_passes(act(decade_one(), "a", f"auction {city_tile(decade_one(), 'rome')} 10"))
    assert (state.phase, state.active) == ("action", "b")


def test_a_compensation_card_over_the_hand_limit_must_be_discarded_down() -> None:
    """Seed 000: the compensating player "должен соблюдать обычные правила для Лимита своей Руки"."""
    state = decade_one()
    deal_hand(state, "a", HAND_LIMIT)
    state = act(state, "a", f"auction {city_tile(state, 'rome')} 10")
    state = everyone_passes(act(state, "b", "bid 11"))
    state = act(state, "a", "buy card")
    assert state.phase == "follow-up" and to_act(state) == "a"
    assert state.follow_ups[0].kind == "discard"
    state = act(state, "a", f"discard {state.players['a'].cards[0]}")
    assert len(state.players["a"].cards) == HAND_LIMIT
    state = finish_turn(state)
    assert (state.phase, state.active) == ("action", "b")


# --- Artist and French Invade tiles -------------------------------------------------------------------
def win_event(state: Game, event: str, winner: str) -> Game:
    """The active player puts ``event`` up at 0; ``winner`` bids 1 (or wins at 0); the rest pass."""
    nominator = state.active
    state = act(state, nominator, f"auction {event} 0")
    while state.phase == "auction":
        seat = to_act(state)
        leading = state.auction is not None and state.auction.leader == winner
        state = act(state, seat, "bid 1" if seat == winner and not leading else "pass")
    return state


def test_an_artist_tile_raises_the_chosen_city_by_its_number() -> None:
    """Seed 000: "Немедленно помещает тайл События с Искусством ... в ячейку Города по своему выбору и
    поднимает маркер Статуса данного Города на количество клеток равное цифре, указанной на данном
    тайле"."""
    state = decade_one()
    artist = event_of(state, kind="artist")
    value = state.components.event(artist).value
    won = win_event(state, artist, "b")
    assert won.phase == "follow-up"
    (demand,) = RULES.demands(won)
    assert demand.seat == "b" and "place CITY" in demand.prompt
    refused(won, "b", "pass", "must be placed on a city")
    refused(won, "c", "place rome", "has no Event tile to place")
    refused(won, "c", "buy infantry", "b must first finish the last action: place CITY")
    placed = act(won, "b", "place rome")
    assert placed.status["rome"] == state.status["rome"] + value
    assert placed.artists["rome"] == state.artists["rome"] + 1
    assert {city: placed.status[city] for city in CITIES if city != "rome"} == {
        city: state.status[city] for city in CITIES if city != "rome"
    }
    assert artist not in placed.players["b"].events, "the Artist tile lies on the city"
    assert (placed.phase, placed.active) == ("action", "b")


def test_city_status_stays_within_three_and_ten() -> None:
    """Seed 000: "Статус ни одного Города не может выйти за предел 10 или опуститься на ТГС ниже 3"."""
    state = decade_one()
    state.status["venice"] = STATUS_MAX
    placed = act(win_event(state, event_of(state, kind="artist"), "a"), "a", "place venice")
    assert placed.status["venice"] == STATUS_MAX
    assert placed.artists["venice"] == 1

    state = decade_two(decade_one())
    state.status["naples"] = STATUS_MIN + 1
    placed = act(win_event(state, event_of(state, kind="french"), "a"), "a", "place naples")
    assert placed.status["naples"] == STATUS_MIN


def test_the_french_invade_lowers_the_city_by_two_and_counts_as_an_artist_tile() -> None:
    """Seed 000, French Invade: "этот тайл помещается на игровое поле в ячейку Города по Вашему
    выбору, как тайл Искусства. Понизьте, Статус этого Города ... на две позиции"."""
    state = decade_two(decade_one())
    placed = act(win_event(state, event_of(state, kind="french"), "c"), "c", "place venice")
    assert placed.status["venice"] == state.status["venice"] - 2
    assert placed.artists["venice"] == state.artists["venice"] + 1


def test_the_french_invade_must_be_placed_in_2016() -> None:
    """Seed 000: "этот тайл помещается на игровое поле ... Понизьте" - no choice to discard it."""
    state = decade_two(decade_one())
    won = win_event(state, event_of(state, kind="french"), "c")
    assert sorted(RULES.legal_moves(won, "c")) == sorted(f"place {city}" for city in CITIES)
    refused(won, "c", "pass", "must be placed on a city")


def test_a_2003_french_invade_is_discarded_once_placed_and_is_no_artist_tile() -> None:
    """Seed 003, "Invasione francese": "può (non obbligatorio) essere giocata su una Città che perde 2
    del suo Stato. La carta viene scartata" - the city loses 2 and the tile is discarded, so it is
    not on the city to count as an Artist tile ("la Città con più Artisti", "Fine della partita")."""
    state = decade_two(decade_one(edition="2003"))
    french = event_of(state, kind="french")
    placed = act(win_event(state, french, "c"), "c", "place milan")
    assert placed.status["milan"] == state.status["milan"] - 2
    assert placed.artists == state.artists
    assert all(french not in player.events for player in placed.players.values())


def test_the_french_invade_may_be_declined_in_2003() -> None:
    """Seed 003: "Invasione francese: può (non obbligatorio) essere giocata su una Città"; seed 004:
    "Must be played immediately ... or discarded"."""
    state = decade_two(decade_one(edition="2003"))
    french = event_of(state, kind="french")
    won = win_event(state, french, "c")
    assert "pass" in RULES.legal_moves(won, "c")
    declined = act(won, "c", "pass")
    assert declined.status == state.status and declined.artists == state.artists
    assert french not in declined.event_row
    assert all(french not in player.events for player in declined.players.values())
    assert (declined.phase, declined.active) == ("action", "b")
    placed = act(won, "c", "place milan")
    assert placed.status["milan"] == state.status["milan"] - 2


# --- the decade's end -----------------------------------------------------------------------------------
def rich_table() -> Game:
    """Decade I with one Event tile left; every player holds something that earns income."""
    state = decade_one()
    parts = state.components
    merchants = [tile for tile in state.city_supply if parts.city_tile(tile).merchant][:2]
    others = [city_tile(state, "rome"), city_tile(state, "naples", merchant=False)]
    give_city_tiles(state, "a", merchants)
    give_city_tiles(state, "b", others)
    state.players["a"].events = [event_of(state, kind="wine-merchant")]
    state.event_row.remove(state.players["a"].events[0])
    state.players["b"].troops = ["pikemen", "infantry"]
    state.players["c"].pay = 5  # condottiere pay on the Family tile
    state.pope = "d"
    state.event_row = [event_of(state, kind="vp")]
    return state


def expected_income(state: Game, seat: str) -> tuple[int, int]:
    """Seed 000, "В конце каждого Десятилетия": gold is "сумме всех чисел в символах золотых монет
    ... на различных тайлах ... включая тайл Стартовой Семьи", influence the same for the grey
    squares; war pay "помещается на тайл Семьи Кондотьера"; the Pope "получает 3 Золотых Дохода";
    Wine Merchant: "Каждый Городской тайл ... «Торговец» ... будет зарабатывать 1 дополнительное
    Золото, каждое Десятилетие"."""
    parts = state.components
    player = state.players[seat]
    assert player.family is not None
    family = parts.family(player.family, state.side)
    tiles = [parts.city_tile(tile) for tile in player.city_tiles]
    wine = sum(1 for event in player.events if parts.event(event).kind == "wine-merchant")
    gold = family.gold + sum(tile.gold for tile in tiles) + player.pay
    gold += POPE_GOLD if state.pope == seat else 0
    gold += wine * sum(1 for tile in tiles if tile.merchant)
    influence = family.influence + sum(tile.influence for tile in tiles)
    influence += sum(parts.troop(troop).influence for troop in player.troops)
    return gold, influence


def test_winning_the_decades_last_event_tile_ends_the_decade_with_income() -> None:
    """Seed 000: "Десятилетие заканчивается, как только последний тайл Событий для текущего
    Десятилетия выигрывается на Аукционе", then income (a), the Pope back (b), the next decade's
    Event tiles (e); "В следующее Десятилетие ПХ будет сохранен, а начнется оно с игрока, идущего
    следующим, после того, кто закончил предыдущее Десятилетие"."""
    state = with_active(rich_table(), "b")
    last = state.event_row[0]
    income = {seat: expected_income(state, seat) for seat in SEATS}
    troops = sum(state.components.troop(troop).influence for troop in state.players["b"].troops)
    assert troops > 0, "b's Troop tiles show influence, so the test sees it counted"
    state = act(state, "b", f"auction {last} 0")
    end = everyone_passes(state)
    assert end.players["b"].events == [last]
    for seat in SEATS:
        gold, influence = income[seat]
        assert end.players[seat].gold == state.players[seat].gold + gold, seat
        assert end.players[seat].influence == state.players[seat].influence + influence, seat
    assert end.players["c"].pay == 0
    assert end.decade == 2
    assert (end.phase, end.active) == ("action", "c"), "the player after b, who ended decade I"
    assert end.order == list(SEATS)
    assert sorted(end.event_row) == sorted(e.id for e in end.components.events if e.decade == 2)
    assert end.pope is None, "Верните тайл Папы Римского в область тайлов Событий"
    act(end, "c", "auction pope 0")


@pytest.mark.parametrize("number", [1, 2])
def test_the_pope_returns_at_the_end_of_decades_one_and_two(number: int) -> None:
    """Seed 000, "В конце каждого Десятилетия" b): "Верните тайл Папы Римского в область тайлов
    Событий (только не после заключительного Десятилетия)"; its holder first earns "3 Золотых
    Дохода"."""
    state = with_active(rich_table(), "b")
    state.decade = number
    events = state.components.events
    state.event_row = [next(event.id for event in events if event.decade == number and event.kind == "vp")]
    gold = state.players["d"].gold + expected_income(state, "d")[0]
    end = everyone_passes(act(state, "b", f"auction {state.event_row[0]} 0"))
    assert end.decade == number + 1
    assert end.pope is None
    assert end.players["d"].gold == gold
    assert "auction pope 0" in RULES.legal_moves(end, end.active)


def test_the_decade_ends_even_when_someone_else_wins_and_the_next_starts_after_the_nominator() -> None:
    """The player "who ended the decade" is the one who put its last Event tile up ("решит закончить
    Десятилетие, продав последний тайл События"), whoever wins it; after the last seat in turn
    order comes the first."""
    state = with_active(rich_table(), "d")
    state = act(state, "d", f"auction {state.event_row[0]} 0")
    state = act(state, "a", "bid 1")
    end = everyone_passes(state)
    assert end.decade == 2
    assert end.active == "a"


def test_an_artist_tile_that_ends_the_decade_is_placed_first() -> None:
    state = with_active(decade_one(), "c")
    artist = event_of(state, kind="artist")
    state.event_row = [artist]
    won = win_event(state, artist, "b")
    assert (won.phase, won.decade) == ("follow-up", 1)
    end = act(won, "b", "place florence")
    assert end.status["florence"] == state.status["florence"] + state.components.event(artist).value
    assert (end.decade, end.phase, end.active) == (2, "action", "d")


def test_wine_merchants_add_up() -> None:
    """Seed 000, Wine Merchant: "имея оба тайла, каждый Городской тайл «Торговец» будет приносить
    Вам 2 Золота в каждом Десятилетии"."""
    state = with_active(rich_table(), "b")
    second = next(
        event.id for event in state.components.events if event.kind == "wine-merchant" and event.decade == 2
    )
    state.players["a"].events.append(second)
    merchants = sum(1 for tile in state.players["a"].city_tiles if state.components.city_tile(tile).merchant)
    assert merchants == 2
    one = with_active(rich_table(), "b")
    end_two = everyone_passes(act(state, "b", f"auction {state.event_row[0]} 0"))
    end_one = everyone_passes(act(one, "b", f"auction {one.event_row[0]} 0"))
    assert end_two.players["a"].gold - end_one.players["a"].gold == merchants


@pytest.mark.parametrize("merchants", [0, 2])
def test_a_2003_wine_merchant_earns_one_gold_a_decade_whatever_merchants_are_held(merchants: int) -> None:
    """Seed 003, "Mercante": "il giocatore tiene il mercante fino alla fine della partita. Guadagna 1
    Moneta Oro per ogni Decade" - 1 gold a decade for the tile, flat."""
    state = with_active(decade_one(edition="2003"), "b")
    tiles = [tile for tile in state.city_supply if state.components.city_tile(tile).merchant][:merchants]
    give_city_tiles(state, "a", tiles)
    last = event_of(state, kind="vp")
    state.event_row = [last]
    plain = copy.deepcopy(state)
    parts = state.components
    state.players["a"].events = [next(e.id for e in parts.events if e.kind == "wine-merchant")]
    ended = everyone_passes(act(state, "b", f"auction {last} 0"))
    ended_plain = everyone_passes(act(plain, "b", f"auction {last} 0"))
    assert ended.decade == 2
    assert ended.players["a"].gold - ended_plain.players["a"].gold == 1


def test_after_decade_three_the_game_is_over_the_pope_stays_and_score_gives_the_breakdown() -> None:
    """Seed 000: Pope back "только не после заключительного Десятилетия"; "В конце третьего
    Десятилетия, после того, как был получен весь Доход, игроки подсчитывают свои ПО"."""
    state = with_active(rich_table(), "b")
    state.decade = 3
    state.event_row = [next(e.id for e in state.components.events if e.decade == 3 and e.kind == "vp")]
    income = {seat: expected_income(state, seat) for seat in SEATS}
    state = act(state, "b", f"auction {state.event_row[0]} 0")
    end = everyone_passes(state)
    assert end.phase == "game over"
    assert end.pope == "d"
    for seat in SEATS:
        assert end.players[seat].gold == state.players[seat].gold + income[seat][0]
    for seat in SEATS:
        assert RULES.legal_moves(end, seat) == []
        refused(end, seat, "pass", "the game is over")
    assert RULES.demands(end) == []
    scores = RULES.score(end)
    assert set(scores) == set(SEATS)
    for row in scores.values():
        assert {"city tiles", "event tiles", "wine merchants", "pope", "gold", "influence"} <= set(row)
        assert "total" in row
    assert scores["d"]["pope"] == 3  # "тайл Папы Римского присуждает 3 ПО"


def test_a_whole_game_of_passes_and_event_auctions_reaches_game_over() -> None:
    """Three decades, each ended by its fourth Event tile; each starts after the player who ended
    the last one."""
    state = decade_one()
    starters = [state.active]
    while state.phase != "game over":
        decade = state.decade
        state = act(state, state.active, f"auction {state.event_row[0]} 0")
        state = everyone_passes(state)
        if state.phase == "follow-up":
            state = act(state, to_act(state), "place venice")
        if state.decade != decade and state.phase != "game over":
            starters.append(state.active)
    # decade I: a, b, c, d each sell one tile, d ends it; decade II starts with a, ends with d...
    assert starters == ["a", "a", "a"]
    assert state.decade == 3


# --- War: an action, limited per decade -----------------------------------------------------------------
def war_pairs() -> set[str]:
    return {
        f"war {attacker} {defender}" for attacker in CITIES for defender in CITIES if attacker != defender
    }


def test_war_is_an_action_offered_on_ones_turn() -> None:
    """Seed 000, "Действия (подробно)", Начать Войну: "активный игрок решает, какие два из 5 крупнейших
    Городов будут сражаться", the attacking city first; seed 004 §5, Action 3. With nobody holding
    a Troop tile ("Только игрок, имеющий хотя бы один тайл Войск, может принять участие в Аукционе")
    no condottiere is won: "не происходит никаких дальнейших действий (предполагается, что Война ...
    закончилась вничью)", and the war was the turn's action."""
    state = decade_one()
    assert {text for text in RULES.legal_moves(state, "a") if text.startswith("war ")} == war_pairs()
    (demand,) = RULES.demands(state)
    assert "war" in demand.prompt
    refused(state, "a", "war rome rome", "two different cities")
    refused(state, "b", "war venice milan", "it is a's turn")
    after = act(state, "a", "war venice milan")
    assert after.wars == 1, "Сначала, активный игрок передвигает маркер Военного Столкновения"
    assert after.status == state.status, "a war without condottieri is a tie"
    assert all(player.victories == 0 and player.pay == 0 for player in after.players.values())
    assert (after.phase, after.active) == ("action", "b")


def test_war_is_not_offered_outside_ones_action() -> None:
    """War is an action ("Это Действие"): not a bid, nor an answer to an auction or a follow-up."""
    state = decade_one()
    auction = act(state, "a", f"auction {event_of(state, kind='vp')} 0")
    refused(auction, "b", "war venice milan", "an auction is running")
    placing = win_event(state, event_of(state, kind="artist"), "b")
    refused(placing, "b", "war venice milan", "b must first finish the last action: place CITY")


@pytest.mark.parametrize("players", sorted(WAR_LIMIT))
def test_war_is_refused_once_the_decades_limit_is_reached(players: int) -> None:
    """Seed 000, Начать Войну: "Это Действие не может быть выбрано, если маркер Военного Столкновения
    достиг своего предела за текущее Десятилетие (в игре при меньше чем 5 игроках, в Десятилетии может
    произойти 4 Войны, в ином случае – за Десятилетие может пройти 5 Войн)"; at the decade's end
    "Верните маркер Военного Столкновения на клетку '0'"."""
    seats = ("a", "b", "c", "d", "e")[:players]
    state = decade_one(seats, families={**FAMILIES, "e": "baglioni"})
    limit = WAR_LIMIT[players]
    for fought in range(limit):
        assert state.wars == fought
        assert war_pairs() <= set(RULES.legal_moves(state, state.active))
        state = act(state, state.active, "war florence rome")
    assert state.wars == limit
    seat = state.active
    message = refused(state, seat, "war venice milan", "the limit")
    assert f"{limit} wars" in message and f"{players} players" in message, message
    assert not any(text.startswith("war ") for text in RULES.legal_moves(state, seat))
    (demand,) = RULES.demands(state)
    assert "war" not in demand.prompt, demand.prompt
    act(state, seat, "buy infantry")  # the other actions are still there

    state.event_row = [event_of(state, kind="vp")]  # the decade's last Event tile
    state = everyone_passes(act(state, seat, f"auction {state.event_row[0]} 0"))
    assert (state.decade, state.wars) == (2, 0)
    assert war_pairs() <= set(RULES.legal_moves(state, state.active))


# --- the end of a turn ------------------------------------------------------------------------------------
def test_a_start_war_card_in_hand_opens_the_end_of_turn_window() -> None:
    """Seed 000, Start War: "В конце Вашего Хода Вы можете разыграть эту карту и Начать Войну. Это не
    перемещает маркер ВС": after the action, its holder may start a war or pass; the next player
    follows. Without a card the turn passes at once; with any card the window is offered, since
    nobody else knows whether it is a Start War."""
    state = decade_one()
    give(state, "a", "start-war")
    after = act(state, "a", "pass")  # the action; nobody holds a Troop tile, so the war is a tie
    assert (after.phase, after.active) == ("follow-up", "a")
    (demand,) = RULES.demands(after)
    assert (demand.seat, "start-war" in demand.prompt) == ("a", True)
    assert set(DEALER.playable(after, "a")) == {"pass"} | {
        f"play start-war {x} {y}" for x in CITIES for y in CITIES if x != y
    }
    refused(after, "b", "pass", "not b's")
    refused(after, "a", "buy crossbowmen", "a must first finish the last action")
    passed = act(after, "a", "pass")
    assert (passed.phase, passed.active) == ("action", "b")
    assert DEALER.cards_in(passed, "a") == ["start-war"], "the card stays in hand"
    warred = act(after, "a", "play start-war naples rome")
    assert warred.wars == 0, "Это не перемещает маркер ВС"
    assert "start-war" not in DEALER.cards_in(warred, "a") and warred.discards == ["start-war"]
    assert (warred.phase, warred.active) == ("action", "b")

    plain = act(passed, "b", "buy infantry")  # b holds no card
    assert (plain.phase, plain.active) == ("action", "c")


# --- legal moves ------------------------------------------------------------------------------------------
def candidates(state: Game) -> list[str]:
    """Moves of every kind, legal or not."""
    texts = ["pass", "buy card", "family gonzaga", "bid 0", "bid 1", "bid 11", "bid 50"]
    texts += [f"buy {troop}" for troop in TROOPS] + [f"discard {troop}" for troop in TROOPS]
    texts += [f"discard treachery:{slot}" for slot in (0, 1, 2, 1001, 1002, 1003)]
    texts += [f"place {city}" for city in CITIES]
    tiles = [*state.city_supply[::5], *state.event_row, "pope"]
    texts += [f"auction {tile} {bid}" for tile in tiles for bid in (0, 6, 10, 12, 14, 20, 47)]
    texts += ["war venice milan", "war naples rome", "war rome rome", "play start-war venice milan"]
    texts += ["play veto", "play bad-weather venice", "play freeze-bid b", "play freeze-bid a"]
    texts += ["play steal-influence b", "play steal-gold-shipment c", "play bribe-troops b infantry"]
    texts += ["use malatesta", f"use {state.city_supply[0]}", "bank 1 gold", "bank 3 influence"]
    texts += ["keep treachery:0", "declare gold", "rank venice", "league attacker", "reroll"]
    return texts


def situations() -> list[Game]:
    start = decade_one()
    start.players["a"].troops = ["infantry"]
    auction = act(start, "a", f"auction {city_tile(start, 'rome')} 10")
    compensation = everyone_passes(act(auction, "b", "bid 11"))
    placing = win_event(decade_two(start), event_of(decade_two(start), kind="french"), "c")
    over = copy.deepcopy(start)
    deal_hand(over, "a", 3)
    discard = act(over, "a", "buy card")
    window = copy.deepcopy(start)
    give(window, "a", "start-war")
    window = act(window, "a", "pass")
    limit = copy.deepcopy(start)
    limit.wars = WAR_LIMIT[len(SEATS)]
    return [start, auction, compensation, placing, discard, window, limit]


SITUATIONS = ["action", "auction", "compensation", "place", "discard", "end of turn", "war limit"]


@pytest.mark.parametrize("index", range(len(SITUATIONS)), ids=SITUATIONS)
def test_every_listed_move_passes_check_and_no_other_does(index: int) -> None:
    state = situations()[index]
    for seat in SEATS:
        listed = DEALER.playable(state, seat)  # the card plays of the cards the seat holds
        for text in listed:
            move = RULES.parse(text)
            RULES.check(DEALER.show(state, seat, move), seat, move)
        assert len(listed) == len(set(listed)), "no move listed twice"
        wars = {text for text in listed if text.startswith("war ")}
        offered = SITUATIONS[index] == "action" and seat == state.active
        assert wars == (war_pairs() if offered else set()), (seat, wars)
        for text in candidates(state):
            move = RULES.parse(text)
            try:
                RULES.check(DEALER.show(state, seat, move), seat, move)
            except IllegalMoveError:
                assert RULES.format(move) not in listed, (seat, text)
            else:
                assert RULES.format(move) in listed, (seat, text)
    (demand,) = RULES.demands(state)
    assert RULES.legal_moves(state, demand.seat), "the seat asked to act has moves"


def test_war_takes_two_cities() -> None:
    """'war ATTACKER DEFENDER': two of the five cities; anything else is not a move."""
    assert RULES.format(RULES.parse("war Venice Milan")) == "war venice milan"
    for text in ("start war", "war", "war venice", "war venice milan rome", "war venice atlantis"):
        with pytest.raises(MoveSyntaxError) as caught:
            RULES.parse(text)
        assert "\n" not in str(caught.value)


# --- late players: the defaults a timeout applies ------------------------------------------------------
def default_for(state: Game) -> tuple[str, str]:
    (demand,) = RULES.demands(state)
    move = RULES.default_move(state, demand.seat, demand.step)
    assert move is not None, f"no default in the {RULES.phase(state)}"
    RULES.check(state, demand.seat, move)  # a default is always a legal move
    return demand.seat, RULES.format(move)


def test_a_late_player_passes_the_action_and_the_auction() -> None:
    state = decade_one()
    assert default_for(state) == ("a", "pass")
    state = act(state, "a", f"auction {event_of(state, kind='vp')} 0")
    assert default_for(state) == ("b", "pass")


def test_a_late_winner_places_an_artist_on_the_first_city_and_a_2003_french_invade_is_declined() -> None:
    state = decade_one()
    state = everyone_passes(act(state, "a", f"auction {event_of(state, kind='artist')} 0"))
    assert default_for(state) == ("a", f"place {CITIES[0]}")
    old = decade_two(decade_one(edition="2003"))
    old = everyone_passes(act(old, "a", f"auction {event_of(old, kind='french')} 0"))
    assert default_for(old) == ("a", "pass")


def test_a_late_winners_artist_goes_where_the_shared_randomness_says() -> None:
    """With default_places=chance the tile a late player must place goes on a city picked by the
    value the engine gives (fixed by every seat's randomness), not always on Venice: the city
    varies with that value, is the same for the same value, and is always a legal placement."""
    state = decade_one()
    state = everyone_passes(act(state, "a", f"auction {event_of(state, kind='artist')} 0"))
    chancy = dataclasses.replace(state, defaults=Defaults.of({"default_places": "chance"}))
    cities = set()
    for value in range(40):
        told = RULES.played_by_defaults(chancy, (), value.to_bytes(32, "big"))
        seat, move = default_for(told)  # checked legal there
        assert seat == "a" and move.startswith("place ")
        assert default_for(told) == (seat, move)  # every verifier computes the same
        cities.add(move.removeprefix("place "))
    assert cities == set(CITIES)
    # a game made before the option places on the first city, whatever the value
    assert RULES.played_by_defaults(state, (), b"x" * 32) is state
    assert default_for(state) == ("a", f"place {CITIES[0]}")


def test_a_late_player_over_the_hand_limit_discards_the_card_drawn_last() -> None:
    state = decade_one()
    for _ in range(3):  # the hand limit is 2: the third card must be discarded at once
        state = act(with_active(finish_turn(state), "a"), "a", "buy card")
    assert state.follow_ups[0].kind == "discard"
    seat, move = default_for(state)
    assert (seat, move) == ("a", f"discard {state.players['a'].cards[-1]}")


def test_a_late_nominator_declines_the_compensation_card() -> None:
    state = decade_one()
    tile = city_tile(state, "rome")
    state = act(state, "a", f"auction {tile} {2 * state.status['rome']}")
    state = act(state, "b", f"bid {2 * state.status['rome'] + 1}")
    state = everyone_passes(state, but="b")
    assert default_for(state) == ("a", "pass")
