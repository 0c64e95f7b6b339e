"""Final scoring of Princes of the Renaissance.

Rules texts (in /work/shared/seeds): seed 000, the 2016 rulebook, "Конец Игры" (city ranking, City
tiles, Event tiles, the Pope, gold, influence, War Victory counters, ties between players) and
"Тайлы Событий" (Wine Merchant); seed 003, the 2003 Italian summary, "Fine della partita e Punti
Vittoria"; seed 004, the English reference manual, §6.

Every expected number is the rule text's own, quoted next to it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from functools import partial

import pytest

from pbem.games.princes_of_the_renaissance.components import CITIES
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.scoring import (
    CATEGORIES,
    MAJORITIES,
    breakdown,
    city_values,
    majority,
    victory_points,
    winners,
)
from pbem.games.princes_of_the_renaissance.state import Game
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.support import COMPONENTS, SEATS

GAME_ID = "c0" * 16
FAMILIES = {"a": "baglioni", "b": "bentivoglio", "c": "gonzaga", "d": "malatesta"}
NO_ARTISTS = dict.fromkeys(CITIES, 0)


# --- helpers ---------------------------------------------------------------------------------------
decade_one = partial(potr_support.decade_one, game_id=GAME_ID, families=FAMILIES, first_byte=7)


def plain_table(edition: str = "2016") -> Game:
    """Decade I with nothing that scores told apart: equal gold and influence, no tiles."""
    state = decade_one(edition=edition)
    for player in state.players.values():
        player.gold, player.influence = 20, 10
    return state


def tiles_of(state: Game, city: str, count: int, *, merchant: bool | None = None) -> list[str]:
    """Take ``count`` City tiles of ``city`` out of the supply."""
    parts = state.components
    tiles = [
        tile
        for tile in state.city_supply
        if parts.city_tile(tile).city == city
        and (merchant is None or parts.city_tile(tile).merchant == merchant)
    ][:count]
    assert len(tiles) == count
    for tile in tiles:
        state.city_supply.remove(tile)
    return tiles


def statuses(**values: int) -> dict[str, int]:
    return {city: values[city] for city in CITIES}


# --- city ranking --------------------------------------------------------------------------------------
def test_cities_score_ten_seven_five_three_two_by_status() -> None:
    """Seed 000: the highest status "помещается в кружок '10 ПО', следующий ... - в кружок '7 ПО', и
    так далее"; seed 003: "la prima prende 10 punti, la seconda prende 7, la terza 5, la quarta 3.,
    la quinta 2"."""
    values = city_values(statuses(venice=4, milan=9, florence=6, rome=10, naples=3), NO_ARTISTS)
    assert values == {"rome": 10, "milan": 7, "florence": 5, "venice": 3, "naples": 2}


def test_three_cities_tied_for_second_each_take_three_and_the_next_takes_two() -> None:
    """Seed 000: "если 3 Города спорят за второе место, каждый из них перемещается в кружок четвертой
    позиции, получая 3 ПО каждый; следующий же за ними Город, получит теперь только 2 ПО"."""
    values = city_values(statuses(venice=10, milan=7, florence=7, rome=7, naples=4), NO_ARTISTS)
    assert values == {"venice": 10, "milan": 3, "florence": 3, "rome": 3, "naples": 2}


def test_a_tied_city_with_more_artist_tiles_ranks_higher() -> None:
    """Seed 000: "В случае равенства позиций на ТГС, приоритет остаётся за Городом с большинством
    тайлов Искусств"; seed 003: "In caso di parità la Città con più Artisti ha la maggioranza"."""
    status = statuses(venice=8, milan=8, florence=8, rome=5, naples=4)
    values = city_values(status, {**NO_ARTISTS, "florence": 2, "milan": 1})
    assert values == {"florence": 10, "milan": 7, "venice": 5, "rome": 3, "naples": 2}


def test_cities_tied_on_status_and_artists_take_the_lowest_contested_value() -> None:
    """Seed 000: "Если спорная ситуация по прежнему сохраняется, тогда все вовлеченные в него Города,
    помещаются на наименьшую, из оспариваемых, позицию"."""
    status = statuses(venice=8, milan=8, florence=8, rome=5, naples=4)
    values = city_values(status, {**NO_ARTISTS, "venice": 1, "milan": 1})
    assert values == {"venice": 7, "milan": 7, "florence": 5, "rome": 3, "naples": 2}


def test_all_five_cities_tied_each_score_two() -> None:
    """Seed 000: all five contest the places 10..2, so each takes the lowest, the fifth: 2 VP."""
    assert city_values(dict.fromkeys(CITIES, 6), NO_ARTISTS) == dict.fromkeys(CITIES, 2)
    assert city_values(dict.fromkeys(CITIES, 6), dict.fromkeys(CITIES, 1)) == dict.fromkeys(CITIES, 2)


def test_bentivoglis_winner_of_a_three_way_tie_ranks_first_and_the_other_two_stay_tied() -> None:
    """Seed 000, Bentivogli (A side): "Вы можете объявить, какой из них выигрывает спор" - the city
    declared wins the tie; the others are still tied, so "все вовлеченные в него Города, помещаются
    на наименьшую, из оспариваемых, позицию": Milan and Florence contest the third and fourth places
    and both take the fourth, 3 VP."""
    status = statuses(venice=10, milan=7, florence=7, rome=7, naples=4)
    values = city_values(status, NO_ARTISTS, [["rome", "milan", "florence"]])
    assert values == {"venice": 10, "rome": 7, "milan": 3, "florence": 3, "naples": 2}


def test_bentivoglis_declaration_counts_only_while_its_tie_stands() -> None:
    """A declaration decides the tie it was made for: once Milan leaves it (a table can record a new
    status after the declaration), Florence and Rome are tied on their own and share the place."""
    status = statuses(venice=10, milan=8, florence=7, rome=7, naples=4)
    values = city_values(status, NO_ARTISTS, [["rome", "milan", "florence"]])
    assert values == {"venice": 10, "milan": 7, "florence": 3, "rome": 3, "naples": 2}


def test_the_french_invade_counts_as_an_artist_tile_in_the_tie_break() -> None:
    """Seed 000, French Invade: "этот тайл помещается на игровое поле в ячейку Города по Вашему
    выбору, как тайл Искусства"; seed 004 FAQ: the French Invade "should be counted when resolving
    city status ties". Florence (8) takes the French Invade and falls to 6, level with Milan (6)
    which has no Artist: Florence now ranks above Milan."""
    state = decade_one()
    state.decade = 2
    state.event_row = [event.id for event in state.components.events if event.kind == "french"]
    state.status = statuses(venice=10, milan=6, florence=8, rome=4, naples=3)
    state = RULES.apply(state, "a", RULES.parse(f"auction {state.event_row[0]} 0"))
    while state.phase == "auction":
        (demand,) = RULES.demands(state)
        state = RULES.apply(state, demand.seat, RULES.parse("pass"))
    state = RULES.apply(state, "a", RULES.parse("place florence"))
    assert (state.status["florence"], state.artists["florence"]) == (6, 1)
    values = city_values(state.status, state.artists)
    assert values == {"venice": 10, "florence": 7, "milan": 5, "rome": 3, "naples": 2}


# --- the players' categories -----------------------------------------------------------------------------
def test_two_naples_tiles_when_naples_scores_seven_give_fourteen() -> None:
    """Seed 000, "Городские тайлы": "если у игрока есть два тайла Города Неаполя, а маркер Статуса
    Города Неаполя находится в кружке «7 ПО», этот игрок получает за эти два тайла 14 ПО"."""
    state = plain_table()
    state.status = statuses(venice=9, milan=6, florence=5, rome=4, naples=8)
    state.players["a"].city_tiles = tiles_of(state, "naples", 2)
    assert city_values(state.status, state.artists)["naples"] == 7
    assert breakdown(state)["a"]["city tiles"] == 14


def test_city_tiles_of_several_cities_add_up() -> None:
    """Seed 004 §6: "One VP per tile x city's final VP value (e.g., 3 Florence tiles in top city =
    3 x 10 = 30 VP)"."""
    state = plain_table()
    state.status = statuses(venice=3, milan=4, florence=10, rome=5, naples=6)
    state.players["b"].city_tiles = tiles_of(state, "florence", 3) + tiles_of(state, "venice", 1)
    assert breakdown(state)["b"]["city tiles"] == 3 * 10 + 2


@pytest.mark.parametrize(("counters", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21)])
def test_victory_counters_score_triangular_numbers(counters: int, points: int) -> None:
    """Seed 000: 1 counter 1 VP; 2: 1 + 2 = 3; 3: 6; "4 жетонами, получает 1 + 2 + 3 + 4 = 10 ПО";
    5: 15; "и т. д." and "Нет никакого предела"."""
    assert victory_points(counters) == points
    state = plain_table()
    state.players["c"].victories = counters
    assert breakdown(state)["c"]["war victories"] == points


def test_event_vp_tiles_score_their_printed_points() -> None:
    """Seed 000: "Тайлы Событий: Игроки получают ПО, которые указаны на всех тайлах Событий"; the 2/3/4
    VP tiles ("2/3/4 VPs") are kept to the end."""
    state = plain_table()
    parts = state.components
    vp_tiles = [event for event in parts.events if event.kind == "vp"]
    state.players["d"].events = [vp_tiles[0].id, vp_tiles[1].id]
    assert {vp_tiles[0].value, vp_tiles[1].value} <= {2, 3, 4}, "the texts know 2, 3 and 4 VP tiles"
    assert breakdown(state)["d"]["event tiles"] == vp_tiles[0].value + vp_tiles[1].value
    assert breakdown(state)["a"]["event tiles"] == 0


def test_a_wine_merchant_scores_one_per_merchant_city_tile_and_two_double_it() -> None:
    """Seed 000, Wine Merchant: "Каждый Городской тайл ... со словом «Торговец» ... будет ... стоить
    1 ПО в Конце Игры. Эффект этих тайлов совокупный, так имея оба тайла, каждый Городской тайл
    «Торговец» будет ... стоить 2 ПО"."""
    state = plain_table()
    parts = state.components
    wine = [event.id for event in parts.events if event.kind == "wine-merchant"]
    assert len(wine) == 2, "the text speaks of both Wine Merchant tiles"
    merchants = tiles_of(state, "venice", 2, merchant=True)
    state.players["a"].city_tiles = [*merchants, *tiles_of(state, "venice", 1, merchant=False)]
    assert breakdown(state)["a"]["wine merchants"] == 0, "no Wine Merchant, no bonus"
    state.players["a"].events = [wine[0]]
    assert breakdown(state)["a"]["wine merchants"] == 2
    state.players["a"].events = list(wine)
    assert breakdown(state)["a"]["wine merchants"] == 4
    assert breakdown(state)["a"]["event tiles"] == 0, "a Wine Merchant shows no VP of its own"


def test_a_wine_merchant_without_merchant_tiles_scores_nothing() -> None:
    state = plain_table()
    state.players["b"].city_tiles = tiles_of(state, "rome", 2)
    state.players["b"].events = [next(e.id for e in state.components.events if e.kind == "wine-merchant")]
    assert breakdown(state)["b"]["wine merchants"] == 0


@pytest.mark.parametrize("merchants", [0, 2])
def test_a_2003_wine_merchant_scores_one_vp_whatever_merchant_tiles_are_held(merchants: int) -> None:
    """Seed 003, "Mercante": "il giocatore tiene il mercante fino alla fine della partita. ...
    Guadagna 1 Punto Vittoria alla fine della partita" - 1 VP for the tile, flat."""
    state = plain_table("2003")
    wine = [event.id for event in state.components.events if event.kind == "wine-merchant"]
    state.players["a"].city_tiles = tiles_of(state, "venice", merchants, merchant=True)
    state.players["a"].events = [wine[0]]
    assert breakdown(state)["a"]["wine merchants"] == 1
    state.players["a"].events = list(wine)
    assert breakdown(state)["a"]["wine merchants"] == 2


def test_the_pope_scores_three_for_its_holder() -> None:
    """Seed 000: "Игрок ..., владеющий в конце финального Десятилетия тайлом Папы Римского получает 3
    ПО"; seed 003: "Se possiede il Papa guadagna 3 Punti Vittoria"."""
    state = plain_table()
    assert all(row["pope"] == 0 for row in breakdown(state).values())
    state.pope = "c"
    scores = breakdown(state)
    assert {seat: row["pope"] for seat, row in scores.items()} == {"a": 0, "b": 0, "c": 3, "d": 0}


# --- gold and influence ------------------------------------------------------------------------------------
GOLD_2016 = [
    # Seed 000: "Игрок с большинством Золотых получает 6 ПО ... игрок со вторым наиболее крупным
    # накоплением Золотых получает 3 ПО"
    ({"a": 30, "b": 20, "c": 10, "d": 5}, {"a": 6, "b": 3, "c": 0, "d": 0}),
    # "Если здесь имеется ничейная ситуация, все, спорящие за второе место игроки, получают по 2 ПО"
    ({"a": 30, "b": 20, "c": 20, "d": 5}, {"a": 6, "b": 2, "c": 2, "d": 0}),
    # "Если в данном вопросе есть ничья, все участники спора получают по 5 ПО, и нет никакого
    # победителя за второе место"
    ({"a": 30, "b": 30, "c": 20, "d": 5}, {"a": 5, "b": 5, "c": 0, "d": 0}),
    ({"a": 9, "b": 9, "c": 9, "d": 9}, {"a": 5, "b": 5, "c": 5, "d": 5}),
]
INFLUENCE_2016 = [
    # Seed 000: "Игрок с большинством очков Влияния получает 4 ПО ... со вторым наиболее крупным
    # Влиянием получает 2 ПО"
    ({"a": 3, "b": 12, "c": 8, "d": 0}, {"a": 0, "b": 4, "c": 2, "d": 0}),
    # "Если есть ничья в определении обладателя самого большого Влияния, все спорящие игроки получают
    # по 3 ПО, и нет никакого победителя за второе место"
    ({"a": 12, "b": 12, "c": 8, "d": 0}, {"a": 3, "b": 3, "c": 0, "d": 0}),
    # "Если здесь имеется ничья, все претенденты на второе место, получают по 1 ПО"
    ({"a": 15, "b": 8, "c": 8, "d": 8}, {"a": 4, "b": 1, "c": 1, "d": 1}),
]
GOLD_2003 = [
    # Seed 003: "Se possiede il maggior numero di Monete Oro guadagna 6 Punti Vittoria (in caso di
    # pareggio tutti i giocatori guadagnano 6 Punti Vittoria)"; second "3 Punti Vittoria (in caso di
    # pareggio tutti i giocatori guadagnano 3 Punti Vittoria)"
    ({"a": 30, "b": 20, "c": 10, "d": 5}, {"a": 6, "b": 3, "c": 0, "d": 0}),
    ({"a": 30, "b": 30, "c": 10, "d": 5}, {"a": 6, "b": 6, "c": 3, "d": 0}),
    ({"a": 30, "b": 20, "c": 20, "d": 5}, {"a": 6, "b": 3, "c": 3, "d": 0}),
]
INFLUENCE_2003 = [
    # Seed 003: "Se possiede il maggior numero di Punti Influenza guadagna 4 Punti Vittoria (in caso di
    # pareggio tutti i giocatori guadagnano 4 Punti Vittoria)"; the summary gives no second place.
    ({"a": 3, "b": 12, "c": 8, "d": 0}, {"a": 0, "b": 4, "c": 0, "d": 0}),
    ({"a": 12, "b": 12, "c": 8, "d": 0}, {"a": 4, "b": 4, "c": 0, "d": 0}),
]


@pytest.mark.parametrize(("amounts", "points"), GOLD_2016)
def test_gold_majority_2016(amounts: dict[str, int], points: dict[str, int]) -> None:
    assert majority(amounts, MAJORITIES["2016"]["gold"]) == points
    state = plain_table("2016")
    for seat, amount in amounts.items():
        state.players[seat].gold = amount
    assert {seat: row["gold"] for seat, row in breakdown(state).items()} == points


@pytest.mark.parametrize(("amounts", "points"), INFLUENCE_2016)
def test_influence_majority_2016(amounts: dict[str, int], points: dict[str, int]) -> None:
    assert majority(amounts, MAJORITIES["2016"]["influence"]) == points
    state = plain_table("2016")
    for seat, amount in amounts.items():
        state.players[seat].influence = amount
    assert {seat: row["influence"] for seat, row in breakdown(state).items()} == points


@pytest.mark.parametrize(("amounts", "points"), GOLD_2003)
def test_gold_majority_2003_ties_share_the_full_value(
    amounts: dict[str, int], points: dict[str, int]
) -> None:
    assert majority(amounts, MAJORITIES["2003"]["gold"]) == points
    state = plain_table("2003")
    for seat, amount in amounts.items():
        state.players[seat].gold = amount
    assert {seat: row["gold"] for seat, row in breakdown(state).items()} == points


@pytest.mark.parametrize(("amounts", "points"), INFLUENCE_2003)
def test_influence_majority_2003_has_no_second_place(amounts: dict[str, int], points: dict[str, int]) -> None:
    assert majority(amounts, MAJORITIES["2003"]["influence"]) == points
    state = plain_table("2003")
    for seat, amount in amounts.items():
        state.players[seat].influence = amount
    assert {seat: row["influence"] for seat, row in breakdown(state).items()} == points


def test_2003_gold_second_place_after_a_tie_for_first_is_the_next_amount_below() -> None:
    """pbem's documented decision for a point the 2003 summary leaves open: when the most gold is tied
    (each tied player takes 6), the second place (3) goes to the next amount below, since the summary,
    unlike the 2016 text, never says a tie for first leaves no second place."""
    points = majority({"a": 25, "b": 25, "c": 25, "d": 24}, MAJORITIES["2003"]["gold"])
    assert points == {"a": 6, "b": 6, "c": 6, "d": 3}


def test_2016_a_tie_for_first_leaves_no_second_place_even_far_below() -> None:
    points = majority({"a": 25, "b": 25, "c": 24, "d": 0}, MAJORITIES["2016"]["gold"])
    assert points == {"a": 5, "b": 5, "c": 0, "d": 0}


# --- totals and winners ------------------------------------------------------------------------------------
def scored_table() -> Game:
    """A table where every category scores for someone."""
    state = plain_table()
    parts = state.components
    state.status = statuses(venice=9, milan=7, florence=7, rome=4, naples=5)
    state.artists = {**NO_ARTISTS, "milan": 1}
    wine = next(event.id for event in parts.events if event.kind == "wine-merchant")
    vp = [event.id for event in parts.events if event.kind == "vp"][:2]
    state.players["a"].city_tiles = tiles_of(state, "venice", 2, merchant=True) + tiles_of(
        state, "milan", 1, merchant=False
    )
    state.players["a"].events = [wine, vp[0]]
    state.players["a"].gold = 31
    state.players["b"].city_tiles = tiles_of(state, "florence", 2) + tiles_of(state, "naples", 1)
    state.players["b"].events = [vp[1]]
    state.players["b"].influence = 14
    state.players["b"].victories = 3
    state.players["c"].victories = 1
    state.players["d"].gold = 25
    state.pope = "d"
    return state


def test_the_total_is_the_sum_of_the_categories() -> None:
    """Seed 004 §6: "Total all VP sources"; seed 000 lists the sources under "Затем, каждый игрок
    подсчитывает свои финальные ПО за"."""
    state = scored_table()
    scores = breakdown(state)
    for seat, row in scores.items():
        assert set(CATEGORIES) <= set(row)
        assert row["total"] == sum(row[category] for category in CATEGORIES), seat
    # Worked through by hand: venice 10, milan 7 (Artist tie-break), florence 5, naples 3, rome 2.
    parts = state.components
    vp = [event.value for event in parts.events if event.kind == "vp"][:2]
    assert scores["a"] == {
        "city tiles": 10 + 10 + 7,
        "event tiles": vp[0],
        "wine merchants": 2,
        "pope": 0,
        "gold": 6,
        "influence": 1,  # 10, 10 and 10 tie behind b's 14: 1 each
        "war victories": 0,
        "total": 27 + vp[0] + 2 + 6 + 1,
        "gold + influence": 31 + 10,
    }
    assert scores["b"]["total"] == 5 + 5 + 3 + vp[1] + 0 + 4 + 6
    assert scores["c"]["total"] == 0 + 0 + 1 + 1  # gold 20 is third; influence tied second
    assert scores["d"]["total"] == 3 + 3 + 1  # Pope, second most gold, influence tied second


def test_rules_score_is_the_breakdown_once_the_decades_began() -> None:
    state = scored_table()
    assert RULES.score(state) == breakdown(state)
    opening = RULES.setup(SEATS, "2016", {"turn_order": "bid", "family_side": "a"}, COMPONENTS["2016"])
    assert RULES.score(opening) == {seat: {} for seat in SEATS}


def test_scoring_does_not_change_the_game() -> None:
    state = scored_table()
    before = copy.deepcopy(state)
    breakdown(state)
    RULES.score(state)
    assert state == before


def rows(totals: Mapping[str, tuple[int, int]]) -> dict[str, dict[str, int]]:
    return {seat: {"total": total, "gold + influence": wealth} for seat, (total, wealth) in totals.items()}


def test_2016_a_tie_on_points_goes_to_the_most_gold_and_influence() -> None:
    """Seed 000: "В случае ничьи, побеждает игрок с самой высокой суммой объединенного общего
    количества Золота и Влияния"."""
    game = plain_table("2016")
    scores = rows({"a": (40, 20), "b": (40, 25), "c": (39, 60), "d": (12, 0)})
    assert winners(game, scores) == ["b"]


def test_2016_a_further_tie_is_a_shared_victory() -> None:
    """Seed 000: "Дальнейшие ничьи приводят к общей победе, спорящих игроков"."""
    game = plain_table("2016")
    scores = rows({"a": (40, 25), "b": (40, 25), "c": (40, 24), "d": (12, 90)})
    assert sorted(winners(game, scores)) == ["a", "b"]


def test_2016_no_tie_the_most_points_win() -> None:
    game = plain_table("2016")
    assert winners(game, rows({"a": (41, 0), "b": (40, 99), "c": (3, 0), "d": (2, 0)})) == ["a"]


def test_2003_a_tie_on_points_is_shared() -> None:
    """Seed 003 names no tie-break between players (seed 004: "There is no official tiebreaker in the
    original rules"): tied players share the win, whatever their gold and influence."""
    game = plain_table("2003")
    scores = rows({"a": (40, 20), "b": (40, 25), "c": (39, 60), "d": (12, 0)})
    assert sorted(winners(game, scores)) == ["a", "b"]


def test_winners_from_a_real_breakdown() -> None:
    state = scored_table()
    scores = breakdown(state)
    assert scores["a"]["total"] > max(scores[seat]["total"] for seat in ("b", "c", "d"))
    assert winners(state, scores) == ["a"]


# --- a silent player (house rules, option retired) ---------------------------------------------------
def test_a_player_the_defaults_play_takes_no_gold_or_influence_points() -> None:
    """With retired=compete-none a seat the defaults play at the end ranks last in "Золото: Игрок с
    большинством Золотых получает 6 ПО" and "Влияние ... 4 ПО" (and their second places): the
    others take them as if it did not compete. Its own points still count. A game made before
    the option (retired=compete) scores as it did: the silent seat takes both."""
    state = plain_table()
    state.players["d"].gold, state.players["d"].influence = 41, 30  # it spent nothing
    state.players["a"].gold, state.players["a"].influence = 25, 12
    state.players["b"].influence = 11
    state.players["d"].victories = 2
    old = RULES.played_by_defaults(state, ("d",), b"")
    assert old is state  # the old reading keeps the very state
    before = breakdown(old)
    assert (before["d"]["gold"], before["d"]["influence"]) == (6, 4)
    assert (before["a"]["gold"], before["a"]["influence"]) == (3, 2)
    new = RULES.played_by_defaults(_with_option(state), ("d",), b"")
    after = breakdown(new)
    assert (after["d"]["gold"], after["d"]["influence"]) == (0, 0)
    assert after["d"]["war victories"] == before["d"]["war victories"] == 3  # its own points stay
    # "a" now has the most gold and influence alone; b, c tie second in gold (2 each), b is second
    # in influence
    assert (after["a"]["gold"], after["a"]["influence"]) == (6, 4)
    assert (after["b"]["gold"], after["c"]["gold"]) == (2, 2)
    assert (after["b"]["influence"], after["c"]["influence"]) == (2, 0)
    # the others score as if d did not play
    assert {seat: after[seat]["total"] for seat in "abc"} == {
        seat: breakdown(_without(state, "d"))[seat]["total"] for seat in "abc"
    }


def _with_option(state: Game) -> Game:
    from pbem.kit.stand_in import Defaults

    return dataclasses.replace(state, defaults=Defaults.of({"retired": "compete-none"}))


def _without(state: Game, seat: str) -> Game:
    other = state.copy()
    del other.players[seat]
    return other


def test_a_seat_back_before_the_end_competes_again() -> None:
    """The seats told last are those the defaults play now: a seat that signed again is no longer
    among them, and takes its points."""
    state = _with_option(plain_table())
    state.players["d"].gold = 41
    gone = RULES.played_by_defaults(state, ("d",), b"")
    back = RULES.played_by_defaults(gone, (), b"")
    assert breakdown(gone)["d"]["gold"] == 0 and breakdown(back)["d"]["gold"] == 6
