"""War in Princes of the Renaissance, at the rules level: the third action step by step.

Rules texts (in /work/shared/seeds): seed 000, the 2016 rulebook ("Начать Войну"; "Описание
Тайлов": the Family and City tiles that act in a war; "Описание карт Предательства": Veto, Bad
Weather, Bribe Troops, Start War); seed 004, the English reference manual (§5 Action 3 and §7 FAQ).

Every expected value comes from the rule text quoted next to it: a side's attack and defence are
written out by hand from the printed Troop values and the tiles' texts, and the battle is worked out
by ``battle`` below, which follows "Сражение" line by line; nothing is read back from the code under
test. The dice are fixed by giving ``RULES.resolve`` draws whose dice are chosen (``Dice``), except in
the test of the dice themselves, which uses every player's randomness. Every refusal leaves the
state as it was, is one line naming the rule, and is not among the legal moves.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from functools import partial

import pytest

from pbem.crypto.randomness import Draws
from pbem.games.princes_of_the_renaissance.components import CITIES
from pbem.games.princes_of_the_renaissance.rules import RULES
from pbem.games.princes_of_the_renaissance.state import Game
from tests.games.princes_of_the_renaissance import support as potr_support
from tests.games.princes_of_the_renaissance.support import (
    DEALER,
    SEATS,
    act,
    end_decade,
    give,
    grant,
    refused,
    spent,
    to_act,
    with_active,
)

GAME_ID = "a7" * 16
# Families with no power in a war, except d'Este (d), whose +1 defence is tested on its own.
FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "bentivoglio", "d": "este"}
SPARE_FAMILIES = ("baglioni", "montefeltro")

# Rule values written out from the texts, not read from the code.
STATUS_MIN, STATUS_MAX = 3, 10  # "Статус ни одного Города не может выйти за предел 10 или ... ниже 3"
UNREPRESENTED = 3  # "не представленный ни кем Город сражается с модификатором +3"
# Printed Troop values (attack, defence), as the template gives them from the tiles.
INFANTRY, CROSSBOWMEN, PIKEMEN, CAVALRY, ARTILLERY = (1, 2), (2, 2), (2, 3), (4, 2), (5, 1)
# City tiles that act in a war (2016 ids).
LUDOVICO = "milan-ludovico-sforza"
CATERINA = "milan-caterina-sforza"
GENOESE = "milan-genoese-crossbow"
SWISS = "milan-swiss-mercenaries"
ARMOURER = "milan-armourer"
SPANISH = "naples-spanish-infantry"

Side = tuple[int, int]  # a side's attack and defence before the die


# --- helpers (the shared ones are in support.py) -------------------------------------------------
decade_one = partial(potr_support.decade_one, game_id=GAME_ID, families=FAMILIES)


def table(troops: Mapping[str, Sequence[str]], **options: object) -> Game:
    state = decade_one(**options)  # type: ignore[arg-type]
    for seat, held in troops.items():
        state.players[seat].troops = list(held)
    return state


class Dice(Draws):
    """Draws whose dice are chosen. The rules take four dice, in the order the War records them:
    the attack die, the defence die, then the counter-attack's attack and defence dice."""

    def __init__(self, *values: int) -> None:
        super().__init__(GAME_ID, "chosen dice", [])
        self.values = list(values)

    def die(self, sides: int = 6) -> int:
        return self.values.pop(0)


def roll(state: Game, dice: Sequence[int]) -> Game:
    (request,) = RULES.random_requests(state)
    assert request.context.startswith("war ")
    return RULES.resolve(state, request.context, Dice(*dice))


def pass_war_steps(state: Game) -> Game:
    """Everyone asked in the war's window, Holy League or bribes passes."""
    while state.phase == "war" and state.war is not None and state.war.stage != "dice":
        state = act(state, to_act(state), "pass")
    return state


def auctions(state: Game, attacker: str = "", defender: str = "") -> Game:
    """The two condottiere auctions: ``attacker`` and ``defender`` bid 0 when first asked, everyone
    else passes ("" for a side nobody bids on)."""
    while state.phase == "auction":
        assert state.auction is not None
        seat = to_act(state)
        wanted = attacker if state.auction.lot.kind == "attacker" else defender
        state = act(state, seat, "bid 0" if seat == wanted and not state.auction.leader else "pass")
    return state


def war_to_dice(state: Game, starter: str, cities: str, attacker: str = "", defender: str = "") -> Game:
    """``starter`` declares the war (``cities``: 'ATTACKER DEFENDER'); nobody plays Veto or Bad
    Weather; the named seats become the condottieri. The war then waits for the Holy League, the
    bribes or the dice."""
    state = act(with_active(state, starter), starter, f"war {cities}")
    return auctions(pass_war_steps(state), attacker, defender)


def battle(attacker: Side, defender: Side, dice: Sequence[int]) -> tuple[str, int]:
    """Seed 000, "Сражение", worked out: (winner, status swing); ("", 0) for a tie.

    "Если Нападающий выигрывает битву, Война немедленно заканчивается победой Нападающего"; "Если
    результат - ничья или Защитник побеждает ... Защитник контратакует ... своей величины Атаки ...
    Предыдущий Нападавший использует свою величину Обороны"; "Если эта контратака успешна ...
    оригинальный Защитник выигрывает Войну. Любой другой результат означает ... вничью"; "Если
    Боевая Сумма последнего броска победителя, по крайней мере, вдвое больше, чем Боевая Сумма
    проигравшего, Статус ... на 2 уровня"."""
    attack, defence = attacker[0] + dice[0], defender[1] + dice[1]
    if attack > defence:
        return "attacker", 2 if attack >= 2 * defence else 1
    counter, guard = defender[0] + dice[2], attacker[1] + dice[3]
    if counter > guard:
        return "defender", 2 if counter >= 2 * guard else 1
    return "", 0


def moved(status: Mapping[str, int], attacker: str, defender: str, result: tuple[str, int]) -> dict[str, int]:
    """The statuses after a war: the winner's city up, the loser's down, each within 3..10."""
    winner, swing = result
    after = dict(status)
    if winner:
        up, down = (attacker, defender) if winner == "attacker" else (defender, attacker)
        after[up] = min(STATUS_MAX, after[up] + swing)
        after[down] = max(STATUS_MIN, after[down] - swing)
    return after


ALL_ROLLS = list(itertools.product(range(1, 7), repeat=4))


def telling_roll(expected: tuple[Side, Side], other: tuple[Side, Side]) -> tuple[int, ...]:
    """A roll whose outcome differs between the expected strengths and another reading of them."""
    for dice in ALL_ROLLS:
        if battle(*expected, dice) != battle(*other, dice):
            return dice
    raise AssertionError(f"no roll tells {expected} from {other}")


def check_battle(state: Game, expected: tuple[Side, Side], other: tuple[Side, Side]) -> Game:
    """Roll a die that tells ``expected`` from ``other`` and check the statuses follow ``expected``."""
    assert state.war is not None and state.war.stage == "dice"
    attacker, defender = state.war.attacker, state.war.defender
    dice = telling_roll(expected, other)
    after = roll(state, dice)
    assert after.war is None, "the war is over"
    assert after.status == moved(state.status, attacker, defender, battle(*expected, dice)), dice
    return after


# --- declaring a war: the marker and the limit ---------------------------------------------------------
def test_declaring_a_war_moves_the_marker_and_names_the_attacking_and_defending_cities() -> None:
    """Seed 000, Начать Войну: "Сначала, активный игрок передвигает маркер Военного Столкновения на
    одну клетку вперёд ... Затем активный игрок решает, какие два из 5 крупнейших Городов будут
    сражаться (fight), помещая маркер Нападающего ... а маркер Защитника"."""
    state = table({"a": ["infantry"]})
    assert "war" in RULES.demands(state)[0].prompt
    after = act(state, "a", "war venice milan")
    assert after.wars == 1
    assert after.war is not None
    assert (after.war.attacker, after.war.defender, after.war.starter) == ("venice", "milan", "a")
    assert after.phase == "auction", "nobody holds Veto or Bad Weather: the attacker's auction"


def test_the_war_shows_in_the_view_before_the_auctions() -> None:
    """Seed 000, Начать Войну: the marker ("маркер Военного Столкновения") and the two cities ("маркер
    Нападающего ... маркер Защитника") are on the board for all to see."""
    state = table({"a": ["infantry"]})
    give(state, "b", "veto")
    state = act(state, "a", "war venice milan")
    view = RULES.view(state, "a")
    assert view["wars_fought"] == 1 and view["war_limit"] == 4
    assert (view["war"]["attacker"], view["war"]["defender"]) == ("venice", "milan")
    assert view["war"]["waiting_for"] == ["b"]


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_the_view_during_a_condottiere_auction(side: str) -> None:
    """Seed 000, Начать Войну: "Аукционом, использующим Влияние, определяется Кондотьер" - the condottiere
    auctions are part of the war; ``pbem show`` must work in them."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    state = act(state, "a", "war venice milan")
    if side == "defender":
        state = act(act(state, "a", "bid 0"), "b", "pass")
    assert state.auction is not None and state.auction.lot.kind == side
    view = RULES.view(state, "b")
    assert view["war"]["attacker"] == "venice"
    assert view["auction"]["currency"] == "influence"


def test_a_war_needs_two_different_cities() -> None:
    """Seed 000: "какие два из 5 крупнейших Городов будут сражаться"."""
    refused(decade_one(), "a", "war rome rome", "two different cities")


def test_four_wars_a_decade_with_fewer_than_five_players_then_war_is_refused() -> None:
    """Seed 000: "Это Действие не может быть выбрано, если маркер Военного Столкновения достиг своего
    предела ... (в игре при меньше чем 5 игроках, в Десятилетии может произойти 4 Войны"; seed 004:
    "4 wars per decade if <5 players". Nobody holds a Troop tile, so each war ends at once."""
    state = decade_one()
    for seat in SEATS:
        state = act(state, seat, "war venice milan")
        assert state.phase == "action" and state.war is None
    assert state.wars == 4
    assert state.active == "a"
    assert "war" not in RULES.demands(state)[0].prompt
    assert not any(move.startswith("war ") for move in RULES.legal_moves(state, "a"))
    refused(state, "a", "war rome naples", "4 wars have been fought this decade, the limit with 4 players")
    act(state, "a", "pass")  # other actions remain


@pytest.mark.parametrize("players", [5, 6])
def test_five_wars_a_decade_with_five_or_six_players(players: int) -> None:
    """Seed 000: "в ином случае – за Десятилетие может пройти 5 Войн"; seed 004: "5 wars per decade
    if 5–6 players"."""
    seats = ("a", "b", "c", "d", "e", "f")[:players]
    names = ("gonzaga", "malatesta", "bentivoglio", "este", *SPARE_FAMILIES)
    families = dict(zip(seats, names[:players], strict=True))
    state = decade_one(seats=seats, families=families)
    state.wars = 4
    fifth = act(state, "a", "war venice milan")
    assert fifth.wars == 5
    state.wars = 5
    refused(state, "a", "war venice milan", f"5 wars have been fought this decade, the limit with {players}")


def test_the_war_marker_returns_to_zero_at_the_decades_end() -> None:
    """Seed 000, "В конце каждого Десятилетия" d): "Верните маркер Военного Столкновения на клетку
    '0'"."""
    state = decade_one()
    for seat in SEATS:
        state = act(state, seat, "war venice milan")
    state = end_decade(state)
    assert (state.decade, state.wars) == (2, 0)
    act(state, state.active, "war venice milan")


# --- the window: Veto and Bad Weather -----------------------------------------------------------------
def test_the_window_is_offered_to_every_card_holder_in_turn_order_from_the_starter() -> None:
    """Seed 000: "Теперь любой игрок может сыграть Вето (Veto) или Плохую Погоду (Bad Weather), если у
    него есть эти карты"; over email every player holding a card face down is asked, clockwise from
    the starter, since nobody else knows which cards it holds (the number is public)."""
    state = with_active(table({"a": ["infantry"], "b": ["pikemen"]}), "b")
    give(state, "a", "veto")
    give(state, "c", "bad-weather")
    give(state, "d", "steal-influence")
    state = act(state, "b", "war rome naples")
    assert state.war is not None and state.war.stage == "veto window"
    assert to_act(state) == "c"
    assert sorted(RULES.legal_moves(state, "c")) == [
        "pass",
        "play bad-weather naples",
        "play bad-weather rome",
        "play veto",
    ], "every card of the window is listed to any holder"
    assert sorted(DEALER.playable(state, "c")) == [
        "pass",
        "play bad-weather naples",
        "play bad-weather rome",
    ]
    refused(state, "a", "play veto", "it is c's turn")
    refused(state, "d", "pass", "it is c's turn")
    refused(state, "c", "play bad-weather venice", "Bad Weather names one of the warring cities")
    refused(state, "c", "play veto", "c holds no Veto")
    state = act(state, "c", "pass")
    assert to_act(state) == "d", "d holds a card: asked, though it can only pass"
    assert DEALER.playable(state, "d") == ["pass"]
    state = act(state, "d", "pass")
    assert to_act(state) == "a"
    assert sorted(DEALER.playable(state, "a")) == ["pass", "play veto"]
    refused(state, "c", "play bad-weather rome", "it is a's turn")
    state = act(state, "a", "pass")
    assert state.phase == "auction", "the window closes: the attacker's condottiere auction"


def test_without_a_card_held_the_war_goes_straight_to_the_auction() -> None:
    """Seed 000: "Теперь любой игрок может сыграть Вето ... или Плохую Погоду ..., если у него есть эти
    карты": with no card held, nobody is asked and "Если на Войну не накладывают Вето, Аукционом ...
    определяется Кондотьер"."""
    state = table({"a": ["infantry"]})
    state = act(state, "a", "war venice milan")
    assert state.phase == "auction" and state.auction is not None
    assert state.auction.lot.kind == "attacker"


def test_a_veto_makes_the_war_a_tie_the_marker_stays_and_the_action_is_over() -> None:
    """Seed 000: "Если игрок наложил Вето на Войну, Война считается зашедшей в цейтнот (tie), но маркер
    Военного Столкновения НЕ передвигается назад, и Действие считается законченным"; Veto: "Никакой
    Войны не происходит, но маркер ВС двигается на 1 клетку"; seed 004 FAQ: "Does a vetoed war count
    toward the decade limit? Yes"."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    give(state, "c", "veto")
    before = copy.deepcopy(state)
    state = act(state, "a", "war venice milan")
    after = act(state, "c", "play veto")
    assert after.war is None
    assert after.wars == 1
    assert after.status == before.status
    assert DEALER.cards_in(after, "c") == [] and after.discards == ["veto"]
    assert all(after.players[seat].pay == 0 and after.players[seat].victories == 0 for seat in SEATS)
    assert all(after.players[seat].influence == before.players[seat].influence for seat in SEATS)
    assert (after.phase, after.active) == ("action", "b")


def test_a_vetoed_war_counts_toward_the_limit() -> None:
    """Seed 000, "3. Начать Войну — перемещение маркера Военного Столкновения (даже если на Войну
    накладывается Вето)"."""
    state = decade_one()
    state.wars = 3
    give(state, "b", "veto")
    state = act(state, "a", "war venice milan")
    state = act(state, "b", "play veto")
    assert state.wars == 4
    refused(state, "b", "war rome naples", "the limit")


def test_bad_weather_already_played_is_discarded_without_effect_by_a_veto() -> None:
    """Seed 000, Bad Weather: "Эта карта отменяется и сбрасывается без эффекта, если на Войну
    накладывается Вето"."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    give(state, "b", "bad-weather")
    give(state, "c", "veto")
    state = act(state, "a", "war venice milan")
    state = act(state, "b", "play bad-weather venice")
    assert state.war is not None and state.war.bad_weather == ["venice"]
    assert to_act(state) == "c"
    after = act(state, "c", "play veto")
    assert after.war is None
    assert sorted(after.discards) == ["bad-weather", "veto"]
    assert DEALER.cards_in(after, "b") == [] and DEALER.cards_in(after, "c") == []
    assert after.status == state.status


def test_bad_weather_on_the_attacking_city_takes_one_from_its_attack() -> None:
    """Seed 000, Bad Weather: "Вы немедленно выбираете один Город, Кондотьер которого получает -1 Атаку
    (если Город будет выбран Нападающим)". Attacker a: Infantry 1/2; defender b: Infantry 1/2."""
    state = table({"a": ["infantry"], "b": ["infantry"]})
    give(state, "c", "bad-weather")
    state = act(state, "a", "war venice milan")
    state = act(state, "c", "play bad-weather venice")
    assert state.discards == ["bad-weather"]
    state = auctions(pass_war_steps(state), "a", "b")
    check_battle(state, ((0, 2), (1, 2)), other=((1, 2), (1, 2)))


def test_bad_weather_on_the_defending_city_takes_one_from_its_defence() -> None:
    """Seed 000, Bad Weather: "-1 Оборону (если Город будет выбран Защищающимся)"."""
    state = table({"a": ["infantry"], "b": ["infantry"]})
    give(state, "c", "bad-weather")
    state = act(state, "a", "war venice milan")
    state = act(state, "c", "play bad-weather milan")
    state = auctions(pass_war_steps(state), "a", "b")
    check_battle(state, ((1, 2), (1, 1)), other=((1, 2), (1, 2)))


# --- the condottiere auctions -----------------------------------------------------------------------------
def test_the_condottiere_auctions_are_in_influence_among_troop_holders_starter_first() -> None:
    """Seed 000: "Аукционом, использующим Влияние, определяется Кондотьер для Нападающего Города.
    Только игрок, имеющий хотя бы один тайл Войск, может принять участие в Аукционе. Активный игрок
    получает возможность первым предложить ставку, но может и спасовать. ... Если игрок пасует, он
    больше не может делать ставки на данном Аукционе. Как только остаётся лишь один участник
    торгов, этот игрок становится Нападающим Кондотьером, платя Влияние"."""
    state = table({"a": ["infantry"], "c": ["pikemen"], "d": ["crossbowmen"]})
    state = act(with_active(state, "c"), "c", "war rome naples")
    assert state.phase == "auction" and state.auction is not None
    assert (state.auction.lot.kind, state.auction.lot.currency) == ("attacker", "influence")
    assert to_act(state) == "c", "the player who started the war bids first"
    assert "bid 0" in RULES.legal_moves(state, "c"), "no minimum bid"
    state = act(state, "c", "pass")
    assert to_act(state) == "d"
    refused(state, "b", "bid 1", "it is d's turn")
    state = act(state, "d", "bid 2")
    assert to_act(state) == "a"
    state = act(state, "a", "bid 3")
    assert to_act(state) == "d", "b holds no Troop tile and c passed: a pass is final"
    assert any("b passes (b has no Troop tile)" in event for event in state.events)
    refused(state, "b", "bid 4", "no Troop tile")
    refused(state, "c", "bid 4", "c has passed")
    gold = {seat: state.players[seat].gold for seat in SEATS}
    influence = state.players["a"].influence
    state = act(state, "d", "pass")
    assert state.war is not None and state.war.attacker_condottiere == "a"
    assert state.players["a"].influence == influence - 3, "Gonzaga has no influence discount"
    assert {seat: state.players[seat].gold for seat in SEATS} == gold, "the bid is paid in influence"
    assert state.auction is not None and state.auction.lot.kind == "defender"


def test_the_attackers_condottiere_is_excluded_from_the_defenders_auction() -> None:
    """Seed 000: "Вторым Аукционом определяется Кондотьер для Защищающегося Города. Он следует тем же
    правилам ... за исключением того, что Нападающий Кондотьер исключается из Аукциона"."""
    state = table({"a": ["infantry"], "b": ["pikemen"], "c": ["crossbowmen"]})
    state = act(state, "a", "war venice milan")
    state = act(state, "a", "bid 0")
    state = act(state, "b", "pass")
    state = act(state, "c", "pass")
    assert state.auction is not None and state.auction.lot.kind == "defender"
    assert to_act(state) == "b", "a, the starter, is the attacker's condottiere and is passed over"
    refused(state, "a", "bid 5", "a is the attacker's condottiere")
    state = act(state, "b", "bid 1")
    state = act(state, "c", "pass")
    assert state.war is not None
    assert (state.war.attacker_condottiere, state.war.defender_condottiere) == ("a", "b")


DISCOUNTS = [
    # (family of seat a, side, City tiles of seat a, influence discount on a condottiere bid)
    ("gonzaga", "a", (), 0),
    ("montefeltro", "a", (), 2),  # "скидку в 2 Влияния ... Аукцион, который использует Влияние"
    ("montefeltro", "b", (), 1),  # B side: "скидку в 1 Влияние"
    ("baglioni", "a", (), 1),  # "скидку в 1 Золотой и/или в 1 Влияние ... в Аукцион"
    ("gonzaga", "a", (SWISS,), 1),  # "скидку в 1 Влияние, предлагая ставку, в качестве Кондотьера"
    ("gonzaga", "a", (ARMOURER,), 1),  # the same text on the Armourer
    ("gonzaga", "a", (SWISS, ARMOURER), 2),
]


@pytest.mark.parametrize(("family", "side", "tiles", "off"), DISCOUNTS)
def test_discounts_on_a_condottiere_bid(family: str, side: str, tiles: tuple[str, ...], off: int) -> None:
    """A bid beyond one's influence is allowed up to the discount (seed 000, "Игрок может предложить
    больше ... если при вычитании из его ставки скидок ... разница ... меньше"), and the winner pays
    the bid less the discount."""
    others = [name for name in ("malatesta", "bentivoglio", "este", "gonzaga") if name != family][:3]
    state = table(
        {"a": ["infantry"], "b": ["pikemen"]},
        side=side,
        families={"a": family, "b": others[0], "c": others[1], "d": others[2]},
    )
    grant(state, "a", *tiles)
    state.players["a"].influence = 3
    state = act(state, "a", "war venice milan")
    assert state.phase == "auction"
    refused(state, "a", f"bid {4 + off}", "cannot be paid")
    state = act(state, "a", f"bid {3 + off}")
    state = act(state, "b", "pass")
    assert state.war is not None and state.war.attacker_condottiere == "a"
    assert state.players["a"].influence == 0


def test_with_no_condottiere_on_either_side_the_war_is_a_tie_with_no_effect() -> None:
    """Seed 000: "Если игроками на Аукционе не была выиграна ни одна позиция Кондотьера, то не
    происходит никаких дальнейших действий (предполагается, что Война, хоть и велась, но закончилась
    вничью)"; seed 004: "If neither side has a condottiere: war is a tie, no effect"."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    before = copy.deepcopy(state)
    state = act(state, "a", "war venice milan")
    state = act(state, "a", "pass")
    state = act(state, "b", "pass")
    assert state.auction is not None and state.auction.lot.kind == "defender"
    state = act(state, "a", "pass")
    state = act(state, "b", "pass")
    assert state.war is None and RULES.random_requests(state) == []
    assert state.status == before.status
    assert state.wars == 1
    for seat in SEATS:
        player, was = state.players[seat], before.players[seat]
        assert (player.pay, player.victories, player.influence) == (0, 0, was.influence)
    assert (state.phase, state.active) == ("action", "b")


def test_one_condottiere_the_unrepresented_defending_city_fights_with_three() -> None:
    """Seed 000: "Если на Аукционе была разыграна только 1 позиция Кондотьера, тогда не представленный
    ни кем Город сражается с модификатором +3 (как атакующий или обороняющийся)". Attacker a:
    Pikemen 2/3; Milan, unrepresented: 3/3."""
    state = war_to_dice(table({"a": ["pikemen"]}), "a", "venice milan", attacker="a")
    assert state.war is not None and state.war.defender_condottiere == ""
    check_battle(state, ((2, 3), (3, 3)), other=((2, 3), (0, 0)))


def test_one_condottiere_the_unrepresented_attacking_city_fights_with_three() -> None:
    """Seed 000: "не представленный ни кем Город сражается с модификатором +3 (как атакующий или
    обороняющийся)": Venice, unrepresented, 3/3 against b's Crossbowmen 2/2."""
    state = war_to_dice(table({"b": ["crossbowmen"]}), "a", "venice milan", defender="b")
    assert state.war is not None and state.war.attacker_condottiere == ""
    check_battle(state, ((3, 3), (2, 2)), other=((0, 0), (2, 2)))


def test_an_unrepresented_city_that_wins_gives_nobody_a_victory_counter() -> None:
    """Seed 000: "Игрок, который представляет Город победитель, берет ... 1 жетон Военной Победы": no
    player represents Milan. Attack 2+1=3 against Milan's 3+6=9; counter 3+6=9 against 3+1=4."""
    state = war_to_dice(table({"a": ["pikemen"]}), "a", "venice milan", attacker="a")
    after = roll(state, (1, 6, 6, 1))
    assert after.status["milan"] == state.status["milan"] + 2  # 9 >= 2 * 4
    assert after.status["venice"] == state.status["venice"] - 2
    assert all(after.players[seat].victories == 0 for seat in SEATS)


def test_each_city_pays_its_condottiere_its_status_collected_at_the_decades_end_win_or_lose() -> None:
    """Seed 000: "Города платят за своих Кондотьеров Золотом. Сумма ... равна текущему Статусу данного
    Города. Такое Золото должно размещаться на Семейном тайле ... получают это Золото независимо от
    итогов ... в конце текущего Десятилетия"."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    state.status.update(venice=8, milan=4)
    gold = {seat: state.players[seat].gold for seat in SEATS}
    state = war_to_dice(state, "a", "venice milan", attacker="a", defender="b")
    assert (state.players["a"].pay, state.players["b"].pay) == (8, 4), "paid at the status before the battle"
    assert RULES.view(state, "c")["players"]["a"]["condottiere_pay"] == 8
    assert {seat: state.players[seat].gold for seat in SEATS} == gold, "not paid until the decade's end"
    after = roll(state, (6, 1, 1, 6))  # Venice wins: 1+6=7 against 3+1=4
    assert (after.status["venice"], after.status["milan"]) == (9, 3)
    assert (after.players["a"].pay, after.players["b"].pay) == (8, 4), "the loser is paid too"
    # a second war in the decade adds to the pay on the Family tile
    after = war_to_dice(after, "c", "milan venice", attacker="a", defender="b")
    assert (after.players["a"].pay, after.players["b"].pay) == (8 + 3, 4 + 9)
    after = roll(after, (1, 1, 1, 1))  # 1+1 against 3+1; counter 2+1 against 2+1: a tie
    ended = end_decade(with_active(after, "c"))
    assert ended.decade == 2
    for seat, pay in (("a", 11), ("b", 13)):
        family = ended.components.family(FAMILIES[seat], "a")
        troops = sum(ended.components.troop(troop).influence for troop in ended.players[seat].troops)
        assert ended.players[seat].gold == gold[seat] + family.gold + pay
        assert ended.players[seat].influence == after.players[seat].influence + family.influence + troops
        assert ended.players[seat].pay == 0


# --- the Holy League --------------------------------------------------------------------------------------
def test_the_pope_may_join_a_side_with_its_unmodified_troops_and_gets_no_pay_nor_counter() -> None:
    """Seed 000: "Святая Лига (Holy League): Игрок с тайлом Папы Римского может добавить свои Войска к
    любой из сторон. При этом Золота от Городов или очков Военных Побед ... играющий за Папу не
    получает"; seed 004: "adding only troop strength (no modifiers)". d is d'Este (+1 defence as a
    condottiere) and holds the Swiss Mercenaries: neither counts in the League, so its Pikemen add
    2/3. Attacker a: Cavalry 4/2; defender b: Infantry 1/2 + 2/3 = 3/5."""
    state = table({"a": ["cavalry"], "b": ["infantry"], "d": ["pikemen"]})
    state.pope = "d"
    grant(state, "d", SWISS)
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "holy league"
    assert to_act(state) == "d"
    assert sorted(RULES.legal_moves(state, "d")) == ["league attacker", "league defender", "pass"]
    refused(state, "a", "league attacker", "it is d's turn")
    state = act(state, "d", "league defender")
    assert state.war is not None and state.war.stage == "dice"
    assert spent(state, "d") == ["Holy League"]
    after = check_battle(state, ((4, 2), (3, 5)), other=((4, 2), (4, 7)))
    assert after.players["d"].pay == 0
    defended = roll(state, (1, 6, 6, 1))  # 4+1 against 5+6; counter 3+6=9 against 2+1=3
    assert defended.players["d"].victories == 0 and defended.players["b"].victories == 1
    assert defended.players["d"].troops == ["pikemen"]


def test_the_holy_league_is_not_offered_to_a_pope_without_troops_or_fighting_as_a_condottiere() -> None:
    """ "Игрок с тайлом Папы Римского может добавить свои Войска": a Pope with no Troop tile has none
    to add, and a Pope who is a condottiere already fights."""
    no_troops = table({"a": ["cavalry"], "b": ["infantry"]})
    no_troops.pope = "d"
    state = war_to_dice(no_troops, "c", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "dice"
    fighting = table({"a": ["cavalry"], "b": ["infantry"]})
    fighting.pope = "b"
    state = war_to_dice(fighting, "c", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "dice"


def test_the_holy_league_once_a_decade() -> None:
    """Seed 000: "Сыграть Святую Лигу Папа может лишь 1 раз за Десятилетие"."""
    state = table({"a": ["cavalry"], "b": ["infantry"], "d": ["pikemen"]})
    state.pope = "d"
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    state = roll(act(state, "d", "league attacker"), (1, 1, 1, 1))
    again = war_to_dice(state, "a", "rome naples", attacker="a", defender="b")
    assert again.war is not None and again.war.stage == "dice", "no second League this decade"
    refused(again, "d", "league attacker", "randomness")


def test_a_pope_who_declines_keeps_the_holy_league_for_a_later_war() -> None:
    """Seed 000: "Сыграть Святую Лигу Папа может лишь 1 раз за Десятилетие": only a League played counts; a
    Pope who passes may join a later war."""
    state = table({"a": ["cavalry"], "b": ["infantry"], "d": ["pikemen"]})
    state.pope = "d"
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "holy league"
    state = roll(act(state, "d", "pass"), (1, 1, 1, 1))
    assert spent(state, "d") == []
    again = war_to_dice(state, "a", "rome naples", attacker="a", defender="b")
    assert again.war is not None and again.war.stage == "holy league"


def test_the_holy_league_outside_a_war_is_refused() -> None:
    """Seed 000, Тайл Папы Римского: the Pope "может опекать (intercede) Войска в Войне" - only in a war,
    after the condottiere auctions."""
    state = decade_one()
    state.pope = "a"
    refused(state, "a", "league attacker", "")


# --- Bribe Troops -----------------------------------------------------------------------------------------
def test_bribe_troops_in_the_order_attacker_defender_pope_on_troops_in_the_war_only() -> None:
    """Seed 000, Bribe Troops: "Она может быть разыграна только одной из двух воюющих в Войне сторон или
    игроком, имеющим тайл Папы Римского, и находящимся в Святой Лиге ... сначала Нападающий, затем
    Защитник, а потом уже Папа Римский"; "Вы можете разыграть эту карту на тайл ЛЮБОГО Войска"
    (of this war). Attacker a: Pikemen with the Swiss Mercenaries; defender b: Infantry; Pope d in
    League with the defender: Crossbowmen. c, not in the war, holds a card and is never asked."""
    state = table({"a": ["pikemen"], "b": ["infantry"], "c": ["cavalry"], "d": ["crossbowmen"]})
    grant(state, "a", SWISS)
    state.pope = "d"
    for seat in SEATS:
        give(state, seat, "bribe-troops")
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    refused(state, "a", "play bribe-troops b infantry", "there is no war waiting for someone to play Bribe")
    state = act(state, "d", "league defender")
    assert state.war is not None and state.war.stage == "bribes"
    assert to_act(state) == "a"
    assert sorted(RULES.legal_moves(state, "a")) == [
        "pass",
        "play bribe-troops a pikemen",
        "play bribe-troops b infantry",
        "play bribe-troops d crossbowmen",
    ]
    refused(state, "a", "play bribe-troops c cavalry", "not a Troop tile in this war")
    refused(state, "c", "play bribe-troops b infantry", "it is a's turn")
    refused(state, "b", "play bribe-troops a pikemen", "it is a's turn")
    state = act(state, "a", "play bribe-troops b infantry")
    assert to_act(state) == "b"
    refused(state, "b", "play bribe-troops b infantry", "not a Troop tile in this war still to be bribed")
    state = act(state, "b", "pass")
    assert to_act(state) == "d"
    state = act(state, "d", "play bribe-troops a pikemen")
    assert state.war is not None and state.war.stage == "dice"
    assert DEALER.cards_in(state, "c") == ["bribe-troops"]
    assert sorted(state.discards) == ["bribe-troops", "bribe-troops"]
    # a: the bribed Pikemen and the Swiss bonus on them count for nothing: 0/0; b: the bribed
    # Infantry counts for nothing, the League's Crossbowmen 2/2 do.
    after = check_battle(state, ((0, 0), (2, 2)), other=((3, 4), (2, 2)))
    assert after.players["a"].troops == ["pikemen"] and after.players["b"].troops == ["infantry"], (
        "Войска не теряются"
    )


def test_a_condottiere_may_play_several_bribe_troops_cards() -> None:
    """Seed 000, Bribe Troops: "Порядок, в котором разыгрывают эти карты, имеющие и желающие разыграть их";
    seed 004: "Each may play one or more 'Bribe Troops' cards". b: Pikemen and Crossbowmen, both bribed:
    0/0."""
    state = table({"a": ["infantry"], "b": ["pikemen", "crossbowmen"]})
    give(state, "a", "bribe-troops", "bribe-troops")
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    state = act(state, "a", "play bribe-troops b pikemen")
    assert to_act(state) == "a"
    state = act(state, "a", "play bribe-troops b crossbowmen")
    assert state.war is not None and state.war.stage == "dice"
    check_battle(state, ((1, 2), (0, 0)), other=((1, 2), (4, 5)))


def test_bribe_troops_cannot_be_played_once_the_dice_are_rolled() -> None:
    """Seed 000: "Эта карта не может быть разыграна, после того как были брошены Кубики". c holds
    Ludovico Sforza, so the war waits after the dice."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    grant(state, "c", LUDOVICO)
    give(state, "a", "bribe-troops")
    state = war_to_dice(state, "d", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "bribes"
    state = act(state, "a", "pass")
    refused(state, "a", "pass", "waits for every player's randomness")
    refused(state, "a", "play bribe-troops b pikemen", "waits for every player's randomness")
    rolled = roll(state, (1, 1, 1, 1))
    assert rolled.war is not None and rolled.war.stage == "reroll"
    refused(rolled, "a", "play bribe-troops b pikemen", "there is no war waiting for someone to play Bribe")


# --- the dice ---------------------------------------------------------------------------------------------
def test_the_dice_come_from_every_players_randomness() -> None:
    """Seed 000: "Обе стороны бросают свои Кубики" - over email, four dice (the battle's two, the
    counter-attack's two) drawn from every player's randomness, asked for once the bribes are done.
    c holds Ludovico Sforza, so the dice are shown before the war ends."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    grant(state, "c", LUDOVICO)
    state = war_to_dice(state, "d", "venice milan", attacker="a", defender="b")
    assert state.war is not None and state.war.stage == "dice"
    assert RULES.demands(state) == []
    (request,) = RULES.random_requests(state)
    assert request.context == "war 1 dice"
    contributions = [(seat, bytes([16 + index]) * 32) for index, seat in enumerate(SEATS)]
    rolled = RULES.resolve(state, request.context, Draws(GAME_ID, request.context, contributions))
    source = Draws(GAME_ID, request.context, contributions)
    dice = [source.die() for _ in range(4)]
    assert rolled.war is not None and rolled.war.dice == dice
    assert all(1 <= die <= 6 for die in dice)
    assert RULES.view(rolled, "a")["war"]["dice"] == dice
    changed = [(seat, bytes([99]) * 32) if seat == "d" else (seat, part) for seat, part in contributions]
    other = RULES.resolve(state, request.context, Draws(GAME_ID, request.context, changed))
    assert other.war is not None and other.war.dice != dice, "one player's randomness changes the dice"
    after = act(rolled, "c", "pass")
    expected = battle(INFANTRY, PIKEMEN, dice)
    assert after.status == moved(state.status, "venice", "milan", expected)


# --- the battle, the counter-attack and the outcome -------------------------------------------------------
def test_every_roll_follows_the_battle_and_counter_attack_of_the_rules() -> None:
    """Seed 000, "Сражение", for all 1296 rolls: attacker a with Pikemen 2/3 against defender b with
    Cavalry 4/2 (the statuses far from the bounds)."""
    state = table({"a": ["pikemen"], "b": ["cavalry"]})
    state.status.update(venice=6, milan=6)
    state = war_to_dice(state, "c", "venice milan", attacker="a", defender="b")
    outcomes = set()
    for dice in ALL_ROLLS:
        after = roll(state, dice)
        expected = battle(PIKEMEN, CAVALRY, dice)
        outcomes.add(expected)
        assert after.status == moved(state.status, "venice", "milan", expected), dice
        winner = {"attacker": "a", "defender": "b"}.get(expected[0])
        assert {seat for seat in SEATS if after.players[seat].victories} == ({winner} if winner else set())
    assert outcomes == {("attacker", 1), ("attacker", 2), ("defender", 1), ("defender", 2), ("", 0)}


def test_the_attacker_wins_outright_with_the_higher_total() -> None:
    """Seed 000: "Если Нападающий выигрывает битву, Война немедленно заканчивается победой
    Нападающего". Infantry 1+5=6 against Pikemen 3+2=5 (the counter-attack dice do not matter)."""
    state = war_to_dice(table({"a": ["infantry"], "b": ["pikemen"]}), "c", "venice milan", "a", "b")
    for counter in ((1, 1), (6, 1)):
        after = roll(state, (5, 2, *counter))
        assert after.status["venice"] == state.status["venice"] + 1
        assert after.status["milan"] == state.status["milan"] - 1
        assert (after.players["a"].victories, after.players["b"].victories) == (1, 0)


def test_a_tied_battle_goes_to_the_counter_attack_which_the_defender_wins_only_when_higher() -> None:
    """Seed 000: "Если результат - ничья или Защитник побеждает, то следует второй раунд боя";
    "Если эта контратака успешна (т. е., ... получил большую Боевую Сумму), оригинальный Защитник
    выигрывает Войну. Любой другой результат означает тот факт, что Война заканчивается вничью".
    Attacker a: Infantry 1/2; defender b: Pikemen 2/3."""
    state = war_to_dice(table({"a": ["infantry"], "b": ["pikemen"]}), "c", "venice milan", "a", "b")
    status = dict(state.status)
    wins = roll(state, (4, 2, 3, 2))  # 5 = 5; counter 2+3=5 > 2+2=4
    assert (wins.status["milan"], wins.status["venice"]) == (status["milan"] + 1, status["venice"] - 1)
    assert (wins.players["a"].victories, wins.players["b"].victories) == (0, 1)
    tie = roll(state, (4, 2, 3, 3))  # counter 5 = 5: the counter-attack tie
    assert tie.status == status
    assert all(tie.players[seat].victories == 0 for seat in SEATS)
    assert (tie.players["a"].pay, tie.players["b"].pay) == (status["venice"], status["milan"])
    lower = roll(state, (1, 6, 1, 6))  # the defender won the battle but fails the counter-attack
    assert lower.status == status


def test_the_swing_is_two_when_the_winners_last_total_is_at_least_double() -> None:
    """Seed 000: "Если Боевая Сумма последнего броска победителя, по крайней мере, вдвое больше, чем
    Боевая Сумма проигравшего, Статус Города победителя повышается на 2 уровня, а Статус Города
    проигравшего спускается на 2 уровня". Attacker a: Infantry 1/2; defender b: Pikemen 2/3."""
    state = war_to_dice(table({"a": ["infantry"], "b": ["pikemen"]}), "c", "venice milan", "a", "b")
    venice, milan = state.status["venice"], state.status["milan"]
    single = roll(state, (6, 1, 1, 1))  # 7 against 4: less than double
    assert (single.status["venice"], single.status["milan"]) == (venice + 1, milan - 1)
    double = roll(state, (1, 1, 6, 2))  # 2 against 4; counter 2+6=8 against 2+2=4: exactly double
    assert (double.status["venice"], double.status["milan"]) == (venice - 2, milan + 2)
    short = roll(state, (1, 1, 6, 3))  # 8 against 5
    assert (short.status["venice"], short.status["milan"]) == (venice - 1, milan + 1)


def test_the_swing_counts_the_counter_attack_totals_not_the_battles() -> None:
    """ "Боевая Сумма последнего броска": a defender who held the battle 3+6=9 against 1+1=2 (more
    than double) but wins the counter-attack only 2+4=6 against 2+3=5 moves the cities by 1."""
    state = war_to_dice(table({"a": ["infantry"], "b": ["pikemen"]}), "c", "venice milan", "a", "b")
    after = roll(state, (1, 6, 4, 3))
    assert after.status["milan"] == state.status["milan"] + 1
    assert after.status["venice"] == state.status["venice"] - 1


@pytest.mark.parametrize(
    ("venice", "milan", "dice", "after"),
    [
        (10, 6, (6, 1, 1, 1), (10, 5)),  # Venice wins at 10: stays 10, Milan still drops
        (9, 6, (6, 1, 1, 1), (10, 5)),  # +1 to 10
        (7, 3, (6, 1, 1, 1), (8, 3)),  # Milan at 3 stays 3, Venice still rises
        (9, 4, (6, 1, 1, 1), (10, 3)),  # 7 against 4: swing 1, both reach a bound
        (4, 9, (1, 6, 6, 1), (3, 10)),  # the defender wins 8 against 3: a swing of 2, cut at both bounds
        (5, 10, (1, 6, 6, 1), (3, 10)),  # Milan at 10 stays; Venice drops by 2
        (3, 10, (1, 6, 6, 1), (3, 10)),  # both at their bound: nothing moves
    ],
)
def test_statuses_stay_between_three_and_ten_and_one_bound_does_not_stop_the_other_city(
    venice: int, milan: int, dice: tuple[int, ...], after: tuple[int, int]
) -> None:
    """Seed 000: "Статус ни одного Города не может выйти за предел 10 или опуститься на ТГС ниже 3.
    То, что один Город достигает своего предела, не препятствует тому, чтобы другой Город
    продолжал перемещаться обычным образом". Attacker a: Infantry 1/2; defender b: Pikemen 2/3."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    state.status.update(venice=venice, milan=milan)
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    result = roll(state, dice)
    assert (result.status["venice"], result.status["milan"]) == after
    assert result.status == moved(state.status, "venice", "milan", battle(INFANTRY, PIKEMEN, dice))


def test_the_victory_counter_goes_to_the_winning_condottiere_only_and_troops_are_never_lost() -> None:
    """Seed 000: "Игрок, который представляет Город победитель, берет и сохраняет у себя 1 жетон
    Военной Победы. ... эти Войска не теряются"; seed 004: "Troops are not lost"."""
    state = table({"a": ["infantry", "crossbowmen"], "b": ["pikemen"]})
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    after = roll(state, (6, 1, 1, 1))  # 3+6=9 against 3+1=4
    assert [after.players[seat].victories for seat in SEATS] == [1, 0, 0, 0]
    assert RULES.view(after, "b")["players"]["a"]["war_victories"] == 1
    assert after.players["a"].troops == ["infantry", "crossbowmen"]
    assert after.players["b"].troops == ["pikemen"]
    assert after.troop_supply == state.troop_supply


def test_after_the_war_the_turn_passes_on() -> None:
    """Seed 000: a war is one of the "4 Действия": after it the next player acts."""
    state = war_to_dice(table({"a": ["infantry"], "b": ["pikemen"]}), "c", "venice milan", "a", "b")
    after = roll(state, (1, 1, 1, 1))
    assert (after.phase, after.active, after.war) == ("action", "d", None)


# --- Ludovico Sforza --------------------------------------------------------------------------------------
def test_ludovico_sforza_rerolls_both_dice_once_and_the_second_roll_stands() -> None:
    """Seed 000, Ludovico Sforza: "Один раз в Десятилетие Вы можете попросить перебросить Кубики в
    Войне. Оба Кубика - и Атаки, и Обороны – должны быть повторно переброшены, при этом вторые
    броски будут окончательными результатами. Вы не должны быть одной из воюющих сторон в этой
    Войне". c holds it and does not fight."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    grant(state, "c", LUDOVICO)
    state = war_to_dice(state, "d", "venice milan", "a", "b")
    rolled = roll(state, (6, 1, 1, 1))  # the attacker would win
    assert rolled.war is not None and rolled.war.stage == "reroll"
    assert to_act(rolled) == "c"
    assert sorted(RULES.legal_moves(rolled, "c")) == ["pass", "reroll"]
    refused(rolled, "a", "reroll", "it is c's turn")
    again = act(rolled, "c", "reroll")
    assert spent(again, "c") == ["Ludovico Sforza"]
    (request,) = RULES.random_requests(again)
    assert request.context == "war 1 reroll", "a new random event, not the first roll again"
    final = roll(again, (1, 6, 6, 1))  # the defender wins 8 against 3
    assert final.war is None, "the second roll stands: no reroll of the reroll"
    assert final.status == moved(state.status, "venice", "milan", battle(INFANTRY, PIKEMEN, (1, 6, 6, 1)))
    # once a decade: the next war's dice stand at once
    second = war_to_dice(final, "a", "rome naples", "a", "b")
    done = roll(second, (1, 1, 1, 1))
    assert done.war is None
    refused(done, "c", "reroll", "")
    # refreshed at the decade's end
    later = end_decade(done)
    assert spent(later, "c") == []
    third = war_to_dice(later, later.active, "venice milan", "a", "b")
    assert roll(third, (1, 1, 1, 1)).war is not None


def test_ludovico_sforzas_holder_may_let_the_dice_stand_and_keep_the_power() -> None:
    """Seed 000, Ludovico Sforza: "Один раз в Десятилетие Вы можете попросить перебросить Кубики" - may,
    not must; a holder who lets the dice stand has not used it."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    grant(state, "a", LUDOVICO)
    state = war_to_dice(state, "d", "venice milan", "a", "b")
    rolled = roll(state, (6, 1, 1, 1))
    assert to_act(rolled) == "a", "a fights and holds the tile"
    after = act(rolled, "a", "pass")
    assert after.status == moved(state.status, "venice", "milan", battle(INFANTRY, PIKEMEN, (6, 1, 1, 1)))
    assert spent(after, "a") == []


def test_reroll_without_ludovico_sforza_or_outside_a_war_is_refused() -> None:
    """Seed 000, Ludovico Sforza: "перебросить Кубики в Войне" - only once a war's dice are rolled."""
    state = decade_one()
    refused(state, "a", "reroll", "")
    grant(state, "a", LUDOVICO)
    refused(state, "a", "reroll", "")


# --- Family and City tiles in the battle ---------------------------------------------------------------
@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("role", ["attacker", "defender"])
def test_deste_adds_one_to_defence_as_either_condottiere(side: str, role: str) -> None:
    """Seed 000, d'Este (A and B sides): "Вы всегда получаете +1 к Обороне в Войнах, когда Вы - один
    из двух сражающихся Кондотьеров". d (d'Este) has Pikemen 2/3 -> 2/4; the other side, a, has
    Infantry 1/2."""
    state = table({"a": ["infantry"], "d": ["pikemen"]}, side=side)
    if role == "attacker":
        state = war_to_dice(state, "c", "venice milan", attacker="d", defender="a")
        check_battle(state, ((2, 4), INFANTRY), other=(PIKEMEN, INFANTRY))
    else:
        state = war_to_dice(state, "c", "venice milan", attacker="a", defender="d")
        check_battle(state, (INFANTRY, (2, 4)), other=(INFANTRY, PIKEMEN))


def test_caterina_sforza_adds_two_to_defence_with_at_least_one_troop() -> None:
    """Seed 000, Caterina Sforza: "Вы получаете +2 к броскам Обороны (defense rolls), являясь одной из
    воюющих сторон в Войне, и пока у Вас есть, хотя бы 1 тайл Войск". Defender b: Infantry 1/2 ->
    1/4; attacker a: Pikemen 2/3."""
    state = table({"a": ["pikemen"], "b": ["infantry"]})
    grant(state, "b", CATERINA)
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    check_battle(state, (PIKEMEN, (1, 4)), other=(PIKEMEN, INFANTRY))


def test_caterina_sforza_also_counts_for_the_attackers_defence_in_the_counter_attack() -> None:
    """ "являясь одной из воюющих сторон": the attacker a (Infantry 1/2 -> 1/4) defends in the
    counter-attack against b's Cavalry 4/2."""
    state = table({"a": ["infantry"], "b": ["cavalry"]})
    grant(state, "a", CATERINA)
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    check_battle(state, ((1, 4), CAVALRY), other=(INFANTRY, CAVALRY))


def test_a_bribed_single_troop_cancels_caterina_sforza() -> None:
    """Seed 000, Caterina Sforza: "Если у Вас только 1 тайл Войск, и против Вас разыграна карта Взятки
    Войскам, бонусные +2 к Обороне не применяются". Defender b: Infantry, bribed: 0/0."""
    state = table({"a": ["pikemen"], "b": ["infantry"]})
    grant(state, "b", CATERINA)
    give(state, "a", "bribe-troops")
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    state = act(state, "a", "play bribe-troops b infantry")
    check_battle(state, (PIKEMEN, (0, 0)), other=(PIKEMEN, (0, 2)))


def test_caterina_sforza_stays_when_one_of_two_troops_is_bribed() -> None:
    """The exception is for "только 1 тайл Войск": with Infantry and Crossbowmen, the bribed Infantry
    leaves Crossbowmen 2/2 + 2 defence = 2/4."""
    state = table({"a": ["pikemen"], "b": ["infantry", "crossbowmen"]})
    grant(state, "b", CATERINA)
    give(state, "a", "bribe-troops")
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    state = act(state, "a", "play bribe-troops b infantry")
    check_battle(state, (PIKEMEN, (2, 4)), other=(PIKEMEN, (2, 2)))


TROOP_TILES = [
    # (City tile, the troop a holds, a's strength as the tile's text gives it, without the tile)
    (GENOESE, "crossbowmen", (2, 3), CROSSBOWMEN),  # "+1 к величине Обороны ... Арбалетчики"
    (GENOESE, "infantry", INFANTRY, (1, 3)),  # no Crossbowmen: nothing
    (SWISS, "pikemen", (3, 4), PIKEMEN),  # "+1 к величинам Атаки и Обороны ... Пикинеры"
    (SWISS, "crossbowmen", CROSSBOWMEN, (3, 3)),
    (ARMOURER, "cavalry", (5, 2), CAVALRY),  # "+1 к величине Атаки ... Конницы"
    (ARMOURER, "pikemen", PIKEMEN, (3, 3)),
    (SPANISH, "infantry", (2, 3), INFANTRY),  # "+1 к величинам Атаки и Обороны ... Пехоты"
    (SPANISH, "artillery", ARTILLERY, (6, 2)),
]


@pytest.mark.parametrize(("tile", "troop", "strength", "other"), TROOP_TILES)
def test_troop_bonus_tiles(tile: str, troop: str, strength: Side, other: Side) -> None:
    """Seed 000, Genoese Crossbow, Swiss Mercenaries, Armourer, Spanish Infantry: a bonus to one
    Troop type "если Вы владеете им". Attacker a holds the tile; defender b: Infantry 1/2."""
    state = table({"a": [troop], "b": ["infantry"]})
    grant(state, "a", tile)
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    check_battle(state, (strength, INFANTRY), other=(other, INFANTRY))


@pytest.mark.parametrize("tile", [GENOESE, SWISS, SPANISH, ARMOURER])
def test_a_bribed_troop_loses_its_tiles_bonus(tile: str) -> None:
    """Seed 000, Bribe Troops: "Величина Атаки/Обороны тайла-цели не засчитывается ... (эффект этой
    карты может затронуть также любые премии (benefits) других Городских тайлов, влияющих на данный
    тайл)"; seed 004 FAQ: "A 'Bribed' troop contributes nothing ... any city ability relying on that
    troop is negated". a holds the troop the tile improves and Artillery 5/1; b bribes the former."""
    troop = {GENOESE: "crossbowmen", SWISS: "pikemen", SPANISH: "infantry", ARMOURER: "cavalry"}[tile]
    improved = {GENOESE: (2, 3), SWISS: (3, 4), SPANISH: (2, 3), ARMOURER: (5, 2)}[tile]
    state = table({"a": [troop, "artillery"], "b": ["infantry"]})
    grant(state, "a", tile)
    give(state, "b", "bribe-troops")
    state = war_to_dice(state, "c", "venice milan", "a", "b")
    assert to_act(state) == "b", "a holds no Bribe Troops and is not asked"
    state = act(state, "b", f"play bribe-troops a {troop}")
    with_troop = (ARTILLERY[0] + improved[0], ARTILLERY[1] + improved[1])
    check_battle(state, (ARTILLERY, INFANTRY), other=(with_troop, INFANTRY))


# --- the Start War card -----------------------------------------------------------------------------------
def test_the_start_war_card_at_the_end_of_ones_turn_starts_a_war_that_does_not_move_the_marker() -> None:
    """Seed 000, Start War: "В конце Вашего Хода Вы можете разыграть эту карту и Начать Войну. Это не
    перемещает маркер ВС. Вы ведете Войну согласно обычным правилам". The marker is at its limit,
    which does not stop a war that does not move it."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    state.wars = 4
    give(state, "a", "start-war")
    refused(state, "a", "play start-war rome naples", "at the end of one's own turn")
    state = act(state, "a", "buy crossbowmen")
    assert state.phase == "follow-up" and to_act(state) == "a"
    assert "start-war" in RULES.demands(state)[0].prompt
    refused(state, "b", "play start-war rome naples", "")
    refused(state, "a", "play start-war rome rome", "two different cities")
    state = act(state, "a", "play start-war rome naples")
    assert state.wars == 4, "the marker does not move"
    assert state.war is not None and (state.war.attacker, state.war.defender) == ("rome", "naples")
    assert state.discards == ["start-war"]
    state = auctions(state, "a", "b")
    assert state.war is not None and state.war.stage == "dice"
    assert (state.players["a"].pay, state.players["b"].pay) == (state.status["rome"], state.status["naples"])
    after = roll(state, (6, 1, 1, 1))  # Infantry+Crossbowmen 3/4 + 6 = 9 against Pikemen 3 + 1 = 4
    assert (after.status["rome"], after.status["naples"]) == (state.status["rome"] + 2, STATUS_MIN)
    assert after.players["a"].victories == 1
    assert (after.phase, after.active, after.wars) == ("action", "b", 4)


def test_the_end_of_turn_window_is_offered_to_a_card_holder() -> None:
    """Seed 000, Start War: "В конце Вашего Хода Вы можете разыграть эту карту": the window at the end of
    the turn is offered to a player holding a card (it may be a Start War), who may decline and keep
    the card; b, holding none, is not asked."""
    state = with_active(decade_one(), "b")
    give(state, "c", "start-war")
    after = act(state, "b", "pass")
    assert (after.phase, after.active) == ("action", "c")
    window = act(after, "c", "pass")
    assert window.phase == "follow-up" and to_act(window) == "c"
    assert sorted(DEALER.playable(window, "c")) == sorted(
        ["pass", *(f"play start-war {x} {y}" for x in CITIES for y in CITIES if x != y)]
    )
    declined = act(window, "c", "pass")
    assert (declined.phase, declined.active) == ("action", "d")
    assert DEALER.cards_in(declined, "c") == ["start-war"]


# --- refusals in the war ------------------------------------------------------------------------------------
def test_moves_that_do_not_belong_to_the_war_are_refused_while_it_is_fought() -> None:
    """Seed 000: a war is the active player's action ("Каждый игрок выполняет ОДНО Действие за Раунд");
    while it is fought only its steps may be played."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    give(state, "c", "veto", "freeze-bid")
    state = act(state, "a", "war venice milan")
    for text in ("buy card", "pass", "war rome naples"):
        refused(state, "a", text, "")
    refused(state, "c", "play freeze-bid a", "a war is being fought")
    refused(state, "c", "buy card", "a war is being fought")


@pytest.mark.parametrize(("card", "name"), [("veto", "veto"), ("bad-weather venice", "bad weather")])
def test_veto_and_bad_weather_in_the_condottiere_auction_are_refused_naming_their_window(
    card: str, name: str
) -> None:
    """Seed 000, Veto: "перед началом любых ставок на позиции Кондотьеров"; Bad Weather: "прежде чем
    позиции Кондотьеров будут разыграны на Аукционе". Once the auction has begun they are too late,
    and the refusal should say which rule refuses them."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    give(state, "b", "veto", "bad-weather")
    state = act(state, "a", "war venice milan")
    state = act(state, "b", "pass")
    assert state.phase == "auction" and to_act(state) == "a"
    state = act(state, "a", "bid 0")
    assert to_act(state) == "b"
    message = refused(state, "b", f"play {card}", "")
    assert name in message.lower().replace("-", " "), message


def test_veto_and_bad_weather_in_the_condottiere_auction_are_refused() -> None:
    """Seed 000, Veto: "перед началом любых ставок на позиции Кондотьеров"; Bad Weather: "прежде чем
    позиции Кондотьеров будут разыграны на Аукционе": refused once the auction has begun."""
    state = table({"a": ["infantry"], "b": ["pikemen"]})
    give(state, "b", "veto", "bad-weather")
    state = act(act(state, "a", "war venice milan"), "b", "pass")
    state = act(state, "a", "bid 0")
    for card in ("veto", "bad-weather venice", "bad-weather milan"):
        refused(state, "b", f"play {card}", "")


def test_the_holy_league_may_join_an_unrepresented_city() -> None:
    """Seed 000: "может добавить свои Войска к любой из сторон": a side without a condottiere too.
    Attacker a: Cavalry 4/2; Milan, unrepresented: 3/3, plus the Pope's Pikemen 2/3 = 5/6."""
    state = table({"a": ["cavalry"], "d": ["pikemen"]})
    state.pope = "d"
    state = war_to_dice(state, "c", "venice milan", attacker="a")
    assert state.war is not None and state.war.stage == "holy league"
    assert sorted(RULES.legal_moves(state, "d")) == ["league attacker", "league defender", "pass"]
    state = act(state, "d", "league defender")
    check_battle(state, ((4, 2), (5, 6)), other=((4, 2), (3, 3)))


def test_bad_weather_does_nothing_to_a_city_without_a_condottiere() -> None:
    """Seed 000, Bad Weather: "Вы немедленно выбираете один Город, Кондотьер которого получает -1
    Атаку ... или -1 Оборону": an unrepresented city has no condottiere to suffer it, and fights
    with its +3. Attacker a: Pikemen 2/3; Milan unrepresented 3/3 despite the Bad Weather."""
    state = table({"a": ["pikemen"]})
    give(state, "c", "bad-weather")
    state = act(with_active(state, "a"), "a", "war venice milan")
    state = act(state, "c", "play bad-weather milan")
    state = auctions(pass_war_steps(state), attacker="a")
    assert state.war is not None and state.war.bad_weather == ["milan"]
    check_battle(state, ((2, 3), (3, 3)), other=((2, 3), (3, 2)))


def test_after_a_bad_weather_every_holder_may_answer_it_again() -> None:
    """Seed 000: Veto and Bad Weather may be played "прежде чем позиции Кондотьеров будут разыграны";
    a player who passed before a Bad Weather was played is asked again, and may veto it."""
    state = with_active(table({"a": ["infantry"], "b": ["pikemen"]}), "b")
    give(state, "c", "veto")
    give(state, "d", "bad-weather")
    state = act(state, "b", "war rome naples")
    assert to_act(state) == "c"
    state = act(state, "c", "pass")
    assert to_act(state) == "d"
    state = act(state, "d", "play bad-weather rome")
    assert state.war is not None and state.war.asked == ["c"], "d holds nothing more; c is asked again"
    state = act(state, "c", "play veto")
    assert state.war is None and any("discarded without effect" in line for line in state.events)
