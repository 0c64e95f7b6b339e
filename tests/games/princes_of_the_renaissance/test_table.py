"""Princes of the Renaissance at a real table: the tracker's rules, against the rulebooks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pbem.engine import registry
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_the_renaissance.table.tracker import TRACKER, TableGame
from tests.conftest import potr_components


def table(
    *actions: str, players: Sequence[str] = ("a", "b", "c"), edition: str = "2016", side: str = "a"
) -> TableGame:
    options = registry.get("princes-of-the-renaissance").resolve_options({"family_side": side})
    state = TRACKER.start(players, edition, options, potr_components(edition))
    for text in actions:
        state, _ = TRACKER.apply(state, text)
    return state


def score(state: TableGame) -> dict[str, dict[str, int]]:
    report = TRACKER.score(state)[0]
    scores: dict[str, dict[str, int]] = report.data["scores"]
    return scores


def test_two_naples_tiles_score_fourteen_when_naples_is_worth_seven() -> None:
    # seed 000, "Конец Игры": "если у игрока есть два тайла Города Неаполя, а маркер Статуса Города
    # Неаполя находится в кружке «7 ПО», этот игрок получает за эти два тайла 14 ПО"
    state = table(
        "a wins city naples/merchant for 10",
        "a wins city naples/fleet for 10",
        "status naples 9",  # above Venice (7): second place, 7 VP
        "status venice 10",
    )
    assert TRACKER.show(state)[0].data["naples"]["vp"] == 7
    assert score(state)["a"]["city_tiles"] == 14


def test_a_war_won_with_a_double_total_moves_both_cities_two() -> None:
    state = table(
        "a buys troop infantry",
        "b buys troop infantry",
        "a condottiere venice for 1",
        "b condottiere milan for 1",
        "war venice milan won-by a double",
    )
    game = state.game
    assert (game.status["venice"], game.status["milan"]) == (9, 4)
    assert game.players["a"].victories == 1 and game.players["b"].victories == 0
    # each city pays its condottiere its status as it was when the war was fought
    assert (game.players["a"].pay, game.players["b"].pay) == (7, 6)
    assert game.wars == 1


def test_status_stays_within_three_and_ten_after_a_war() -> None:
    state = table("status venice 10", "status milan 3", "b buys troop infantry", "b condottiere venice for 0")
    state, _ = TRACKER.apply(state, "war milan venice won-by venice double")
    assert (state.game.status["venice"], state.game.status["milan"]) == (10, 3)


def test_an_unrepresented_city_wins_without_a_victory_counter() -> None:
    state = table("b buys troop infantry", "b condottiere venice for 0", "war venice milan won-by milan")
    assert state.game.status["milan"] == 7 and state.game.status["venice"] == 6
    assert state.game.players["b"].victories == 0


def test_a_war_with_no_condottiere_is_a_tie() -> None:
    with pytest.raises(IllegalMoveError, match="no condottiere on either side the war is a tie"):
        table("war venice milan won-by venice")
    state = table("war venice milan tie")
    assert state.game.status["venice"] == 7 and state.game.wars == 1


def test_the_war_limit_and_the_start_war_card() -> None:
    # 4 wars a decade with fewer than 5 players; a vetoed war still counts
    state = table(
        "war venice milan vetoed", "war venice rome tie", "war milan rome tie", "war naples rome tie"
    )
    with pytest.raises(IllegalMoveError, match="4 wars were fought this decade, the limit"):
        TRACKER.apply(state, "war venice naples tie")
    after, _ = TRACKER.apply(state, "war venice naples card tie")  # Start War: not counted
    assert after.game.wars == 4
    five = table(
        *[f"war venice milan {result}" for result in ("tie", "tie", "tie", "tie", "vetoed")],
        players=("a", "b", "c", "d", "e"),
    )
    assert five.game.wars == 5


def test_only_a_player_with_a_troop_may_be_a_condottiere() -> None:
    with pytest.raises(IllegalMoveError, match="only a player with a Troop tile"):
        table("a condottiere venice for 1")
    with pytest.raises(IllegalMoveError, match="not in this war"):
        table("a buys troop infantry", "a condottiere rome for 1", "war venice milan tie")
    with pytest.raises(IllegalMoveError, match="vetoed war is stopped before any condottiere"):
        table("a buys troop infantry", "a condottiere venice for 1", "war venice milan vetoed")


def test_discounts_come_off_the_winning_bid() -> None:
    # Gonzaga (A): 2 gold off; Montefeltro (A): 2 influence off (seed 000, "Тайлы Семей")
    state = table(
        "a takes family gonzaga",
        "b takes family montefeltro",
        "a wins city venice/doge for 14",
        "b wins pope for 5",
    )
    assert state.game.players["a"].gold == 45 - 12
    assert state.game.players["b"].influence == 12 - 3
    assert state.game.pope == "b"


def test_a_player_may_bid_more_than_they_hold_when_discounts_cover_it() -> None:
    # seed 000: "если у игрока имеется скидок на сумму в 2 Золотых, а у него есть 6 Золотых, он
    # может предложить ставку до 8 Золотых" (i-victory-2 is sold for gold in pbem's template)
    state = table("a takes family gonzaga", "a pays 39 gold")
    after, _ = TRACKER.apply(state, "a wins event i-victory-2 for 8")
    assert after.game.players["a"].gold == 0
    with pytest.raises(IllegalMoveError, match="cannot pay 9 gold; a has 6"):
        TRACKER.apply(state, "a wins event i-victory-2 for 11")
    with pytest.raises(IllegalMoveError, match="cannot pay 7 gold; a has 6"):
        TRACKER.apply(table("a pays 39 gold"), "a wins event i-victory-2 for 7")


def test_event_tiles_belong_to_their_decade_and_artists_name_a_city() -> None:
    with pytest.raises(IllegalMoveError, match="a tile of decade II"):
        table("a wins event ii-victory-3 for 1")
    with pytest.raises(MoveSyntaxError, match="placed on a city"):
        table("a wins event i-botticelli for 1")
    state = table("a wins event i-botticelli on rome for 1")
    assert state.game.artists["rome"] == 1 and state.game.status["rome"] > 5


def test_powers_spent_this_decade_are_shown_and_refreshed_by_income() -> None:
    state = table("a wins city florence/banker for 12", "a uses florence/banker")
    held = TRACKER.show(state)[2]
    assert ("a", "City tile", "Banker (Florence)", "used this decade") in held.rows
    with pytest.raises(IllegalMoveError, match="has used Banker"):
        TRACKER.apply(state, "a uses florence/banker")
    after, _ = TRACKER.apply(state, "income")
    assert after.game.players["a"].used == []


def test_a_second_pope_sale_in_one_decade_is_refused() -> None:
    # seed 000, "Аукцион тайла Города, тайла Событий или тайла Папы Римского": the Pope is put up
    # "если он все еще доступен" (if still available); its holder keeps it to the decade's end
    state = table("c wins pope for 0")
    with pytest.raises(IllegalMoveError, match="held by c until the decade's end"):
        TRACKER.apply(state, "a wins pope for 1")
    assert state.game.players["a"].influence == 12


def test_the_pope_returns_at_a_decades_end() -> None:
    # seed 000, "Тайл Папы Римского": "его тайл всегда возвращается в Запас в конце Десятилетия";
    # "В конце каждого Десятилетия" b): "Верните тайл Папы Римского в область тайлов Событий
    # (только не после заключительного Десятилетия)"
    state = table("c wins pope for 0")
    pope = "Pope"  # the template's name for the tile, as the income lines show it
    paid = TRACKER.apply(state, "income")[1][0].data["c"]["lines"]
    assert {"what": pope, "gold": 3, "influence": 0} in paid, "its holder earns 3 gold first"
    after, _ = TRACKER.apply(state, "income")
    assert after.game.pope is None
    assert all(line["what"] != pope for line in TRACKER.query(after, "income")[0].data["c"]["lines"])
    assert score(after)["c"]["pope"] == 0
    again, _ = TRACKER.apply(after, "a wins pope for 1")
    assert again.game.pope == "a"


def test_the_holder_of_the_pope_after_decade_three_keeps_it_for_the_score() -> None:
    state = table("income", "income", "c wins pope for 0", "income")
    assert state.game.ended and state.game.pope == "c"
    assert score(state)["c"]["pope"] == 3  # "присуждает 3 ПО игроку, который имеет его в конце"


def test_income_pays_a_wine_merchant_per_merchant_tile() -> None:
    state = table(
        "a wins city venice/merchant-1 for 14",
        "a wins city venice/merchant-2 for 14",
        "a wins event i-wine-merchant for 1",
    )
    lines = TRACKER.query(state, "income")[0].data["a"]["lines"]
    assert {"what": "Wine Merchant: 1 x 2 Merchant tiles", "gold": 2, "influence": 0} in lines


def test_a_2003_wine_merchant_pays_one_gold_whatever_merchant_tiles_are_held() -> None:
    # seed 003, "Mercante": "Guadagna 1 Moneta Oro per ogni Decade. Guadagna 1 Punto Vittoria alla
    # fine della partita"
    state = table(
        "a wins city venice/merchant-1 for 14",
        "a wins city venice/merchant-2 for 14",
        "a wins event i-wine-merchant for 1",
        edition="2003",
    )
    lines = TRACKER.query(state, "income")[0].data["a"]["lines"]
    assert [line["gold"] for line in lines if line["what"].startswith("Wine Merchant")] == [1]
    assert score(state)["a"]["wine_merchants"] == 1


def test_a_2003_french_invade_is_discarded_and_counts_as_no_artist_tile() -> None:
    # seed 003, "Invasione francese": "può ... essere giocata su una Città che perde 2 del suo Stato.
    # La carta viene scartata"
    state = table("income", "a wins event ii-french-invade on venice for 1", edition="2003")
    assert state.game.status["venice"] == 7 - 2
    assert state.game.artists["venice"] == 0


def test_bentivogli_declares_the_winner_of_a_tie_only() -> None:
    # seed 000, Bentivogli (A side): "Вы можете объявить, какой из них выигрывает спор"; the others
    # stay tied: "все вовлеченные в него Города, помещаются на наименьшую, из оспариваемых, позицию"
    with pytest.raises(IllegalMoveError, match="only Bentivogli"):
        table("rank milan")
    state = table("a takes family bentivoglio", "status rome 6", "rank rome")
    cities = TRACKER.show(state)[0].data
    order = ("venice", "rome", "milan", "florence", "naples")
    assert [cities[city]["vp"] for city in order] == [10, 7, 3, 3, 2]
    with pytest.raises(IllegalMoveError, match="venice is not tied with another city"):
        TRACKER.apply(state, "rank venice")
    with pytest.raises(MoveSyntaxError, match="expected 'rank CITY'"):
        TRACKER.apply(state, "rank milan florence")
    again, _ = TRACKER.apply(state, "rank florence")  # a new declaration for the same tie replaces it
    cities = TRACKER.show(again)[0].data
    assert (cities["florence"]["vp"], cities["rome"]["vp"], cities["milan"]["vp"]) == (7, 3, 3)


def test_the_2016_tie_on_points_goes_to_gold_and_influence() -> None:
    # a: most gold shared (5) + second influence (2); b: most gold shared (5) + a 2 VP Event tile
    state = table(
        "a gets 5 gold",
        "b gets 5 gold",
        "c gets 10 influence",
        "b pays 1 influence",
        "b wins event i-victory-2 for 0",
        "income",
        "income",
        "income",
    )
    totals = TRACKER.totals(state)
    assert totals["a"] == totals["b"] == 7
    assert score(state)["a"]["gold_and_influence"] == score(state)["b"]["gold_and_influence"] + 1
    report = TRACKER.score(state)[0]
    assert report.data["winners"] == ["a"] and report.data["final"]
    assert any("the most gold + influence wins" in note for note in report.notes)


def test_tab_completion_offers_the_next_word() -> None:
    state = table()
    assert TRACKER.complete(state, [], "") == ["a", "artist", "b", "c", "income", "rank", "status", "war"]
    assert TRACKER.complete(state, ["a"], "w") == ["wins"]
    assert TRACKER.complete(state, ["a", "wins", "city"], "rome/c") == [
        "rome/cesare-borgia",
        "rome/colonna-family",
        "rome/curia",
    ]
    assert TRACKER.complete(state, ["war", "venice"], "m") == ["milan"]


def test_gold_and_influence_handed_to_another_player_move_between_them() -> None:
    """Seed 000: «Между собой игроки могут обмениваться ТОЛЬКО Золотом и Влиянием»; the same
    checks as the email game's ``give`` (exchange.check_give)."""
    state = table("b gives 5 gold to c", "c gives 2 influence to a")
    players = state.game.players
    assert (players["b"].gold, players["c"].gold) == (40, 50)
    assert (players["c"].influence, players["a"].influence) == (10, 14)
    for text, phrase in (
        ("a gives 46 gold to b", "a has 45 gold"),
        ("a gives 1 gold to a", "cannot give to themselves"),
        ("a gives 0 gold to b", "give at least 1"),
    ):
        with pytest.raises(IllegalMoveError, match=phrase):
            TRACKER.apply(state, text)
    with pytest.raises(MoveSyntaxError, match="unknown player 'zed'"):
        TRACKER.apply(state, "a gives 1 gold to zed")
