"""The action phase and the end of a round (seed 001, "Фаза действия", "Определение лучшего
шедевра", "Новый раунд"). Every function changes ``table``, which the tracker has already copied."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.errors import IllegalMoveError
from pbem.games.princes_of_florence.buildings import cost, size_problem
from pbem.games.princes_of_florence.table.state import ACTIONS, AUCTION, OVER, Table, Work
from pbem.games.princes_of_florence.works import (
    Bonus,
    WorkValue,
    best_work,
    florins_left,
    minimum,
    minimum_bounds,
    most_prestige,
    repeat_refusal,
    work_value,
)
from pbem.kit.seats import after

# The actions a player may take only once a round ("только раз за раунд").
ONCE_PER_ROUND = ("profession", "freedom")


def _act(table: Table, text: str, player: str, action: str) -> None:
    """Count one of the player's two actions; the first action ends the auction phase."""
    estate = table.estates[player]
    allowed = table.components.rule("actions_per_round")
    if len(estate.actions) >= allowed:
        raise IllegalMoveError(
            f"{text!r}: {player} has taken both actions of round {table.round} ("
            f"{', '.join(estate.actions)}), and each player takes {allowed} actions a round"
        )
    if action in ONCE_PER_ROUND and action in estate.actions:
        raise IllegalMoveError(
            f"{text!r}: {player} already took a {action} this round, and a {action} is taken only once "
            "a round"
        )
    estate.actions.append(action)
    table.phase = ACTIONS


def _pay(table: Table, text: str, player: str, price: int, what: str) -> None:
    estate = table.estates[player]
    if price > estate.florins:
        raise IllegalMoveError(f"{text!r}: {player} has {estate.florins} florins; {what} costs {price}")
    estate.florins -= price


def build(table: Table, text: str, player: str, building: str, size: str | None) -> int:
    """Seed 001, "Строительство зданий"; returns what the building cost."""
    _act(table, text, player, "build")
    estate = table.estates[player]
    if building in estate.buildings:
        raise IllegalMoveError(
            f"{text!r}: {player} already has a {building}, and an estate has only one building of each type"
        )
    if table.supply[building] <= 0:
        raise IllegalMoveError(
            f"{text!r}: no {building} tile is left, and a building is built only while its tiles last"
        )
    size = size or table.sizes.get(building)
    if size is None:
        raise IllegalMoveError(
            f"{text!r}: say the {building}'s size (large, medium or small): no source gives the sizes "
            "of the building types"
        )
    problem = size_problem(table.sizes, building, size, table.components)
    if problem:
        raise IllegalMoveError(f"{text!r}: {problem}")
    price = cost(estate.builders, table.components)
    _pay(table, text, player, price, f"a building with {estate.builders} builder(s)")
    estate.buildings[building] = size
    table.sizes[building] = size
    table.supply[building] -= 1
    estate.prestige["buildings"] += table.components.rule("building_prestige")
    return price


def take_freedom(table: Table, text: str, player: str, freedom: str) -> None:
    """Seed 001, "Обеспечение свободы": 300 florins; "лишь раз ... свободу каждого типа"."""
    _act(table, text, player, "freedom")
    estate = table.estates[player]
    if freedom in estate.freedoms:
        raise IllegalMoveError(
            f"{text!r}: {player} already has {freedom}, and an estate takes each freedom only once"
        )
    key = f"freedom-{freedom}"
    if table.supply[key] <= 0:
        raise IllegalMoveError(
            f"{text!r}: no {freedom} marker is left (the game has {len(table.players) - 1} of each type, "
            "one fewer than the players)"
        )
    _pay(table, text, player, table.components.rule("freedom_price"), "a freedom")
    table.supply[key] -= 1
    estate.freedoms.append(freedom)


def turned_up(players: int, round_: int) -> int:
    """Unofficial rules: "Каждый раунд, начиная с третьего, одна верхняя карта профессии берется
    из колоды, переворачивается и кладется на стол", for two players "В раунды 6 и 7 еще одна
    дополнительная карта"; a card not taken stays face up. So 5 cards are turned up in a game of
    three (rounds 3 to 7) and 7 in a game of two, by the end of round 7."""
    count = max(0, round_ - 2)
    if players == 2:
        count += (round_ >= 6) + (round_ >= 7)
    return count


def revealed_professions(table: Table) -> int:
    return turned_up(len(table.players), table.round)


def _profession_refusal(table: Table, text: str) -> IllegalMoveError | None:
    """Why no profession card may be taken now under the unofficial rules, or None.

    "Любая карта профессии из числа карт, перевернутых рубашкой ..., может быть взята игроком":
    a profession is taken only from the cards turned face up, and "За всю игру только 6 (4) карт
    профессий могут приобрести игроки в общей сумме". With three players only 5 cards are ever
    turned up, so the text's limit of 6 is never what stops a player; with two, 7 are turned up
    and the limit of 4 does."""
    count = len(table.players)
    limit = table.components.profession_limit(count)
    turned = revealed_professions(table)
    taken = table.professions_taken
    if taken >= limit:
        return IllegalMoveError(
            f"{text!r}: the {limit} profession cards a game of {count} allows are taken (unofficial "
            f"rules: the players take at most {limit} profession cards in the whole game)"
        )
    if taken < turned:
        return None
    schedule = "one a round from round 3" + (", one more in rounds 6 and 7" if count == 2 else "")
    when = (
        "none is turned up before round 3"
        if turned == 0
        else f"{turned} turned up by round {table.round} ({schedule}), {taken} taken"
    )
    ceiling = ""
    if count == 3 and turned >= 5:
        ceiling = (
            "; with 3 players only 5 cards are ever turned up (rounds 3 to 7), so at most 5 are "
            f"taken and the text's limit of {limit} is never reached"
        )
    return IllegalMoveError(
        f"{text!r}: no face-up profession card is left to take: {when} (unofficial rules: a "
        f"profession card is taken only from those turned face up){ceiling}"
    )


def take_profession(table: Table, text: str, player: str, name: str | None) -> None:
    """Seed 001, "Взятие карты профессии": 300 florins, one card of the top five."""
    _act(table, text, player, "profession")
    if table.supply["profession"] <= 0:
        raise IllegalMoveError(f"{text!r}: the profession deck is empty, so no profession card can be taken")
    if table.unofficial:
        refusal = _profession_refusal(table, text)
        if refusal is not None:
            raise refusal
    if name is not None:
        _check_unseen(table, text, name)
    _pay(table, text, player, table.components.rule("profession_price"), "a profession card")
    table.supply["profession"] -= 1
    table.professions_taken += 1
    estate = table.estates[player]
    if name is None:
        estate.hand += 1
    else:
        estate.named.append(name)


def _check_unseen(table: Table, text: str, profession: str) -> None:
    """There is one card of each profession: a card laid out or named in a hand is not in the deck
    nor in anyone's unnamed hand."""
    for other, estate in table.estates.items():
        if profession in estate.played:
            raise IllegalMoveError(
                f"{text!r}: the {profession} card lies face up by {other}'s estate (a work was created "
                "with it), in no hand or deck: only a recruitment card takes it from there"
            )
        if profession in estate.named:
            raise IllegalMoveError(f"{text!r}: the {profession} card is in {other}'s hand")


def take_bonus(table: Table, text: str, player: str) -> None:
    """Seed 001, "Взятие карты бонуса": 300 florins, one card of the top five."""
    _act(table, text, player, "bonus")
    if table.supply["bonus"] <= 0:
        raise IllegalMoveError(f"{text!r}: the bonus deck is empty, so no bonus card can be taken")
    _pay(table, text, player, table.components.rule("bonus_price"), "a bonus card")
    table.supply["bonus"] -= 1
    table.estates[player].bonus += 1


def lay_out(table: Table, text: str, player: str, profession: str) -> None:
    """Play the profession card from hand: "кладет ее рядом со своим игровым полем"."""
    estate = table.estates[player]
    if profession in estate.named:
        estate.named.remove(profession)
    else:
        _check_unseen(table, text, profession)
        if estate.hand <= 0:
            raise IllegalMoveError(
                f"{text!r}: {player} has no profession card in hand, and a work is made with a "
                "profession card from the hand"
            )
        estate.hand -= 1
    estate.played.append(profession)


def set_minimum(table: Table, text: str, value: int) -> None:
    """Record the round's minimum work value from the round track; it "возрастает с каждым раундом",
    so it must fit between the other rounds' known minimums."""
    low, high = minimum_bounds(table.minimums, table.round)
    low = 1 if low is None else low
    if table.round in table.minimums and table.minimums[table.round] != value:
        raise IllegalMoveError(
            f"{text!r}: round {table.round}'s minimum work value is {table.minimums[table.round]}"
        )
    if value < low or (high is not None and value > high):
        raise IllegalMoveError(
            f"{text!r}: round {table.round}'s minimum must lie in {low}.."
            f"{'' if high is None else high}, as the minimum rises every round"
        )
    table.minimums[table.round] = value


def create_work(
    table: Table,
    text: str,
    player: str,
    profession: str,
    *,
    bonuses: Sequence[Bonus],
    stated_minimum: int | None,
    prestige: int,
) -> tuple[WorkValue, int]:
    """Seed 001, "Создание шедевра"; returns the value's breakdown and the round's minimum."""
    _act(table, text, player, "work")
    estate = table.estates[player]
    if len(bonuses) > estate.bonus:
        raise IllegalMoveError(
            f"{text!r}: {player} holds {estate.bonus} bonus card(s), the work plays {len(bonuses)}"
        )
    repeat = repeat_refusal(player, profession, (work.profession for work in estate.works))
    if repeat:
        raise IllegalMoveError(f"{text!r}: {repeat}")
    lay_out(table, text, player, profession)
    if stated_minimum is not None:
        set_minimum(table, text, stated_minimum)
    least = minimum(table.minimums, table.round)
    if least is None:
        raise IllegalMoveError(
            f"{text!r}: round {table.round}'s minimum work value is in no source; record it from the "
            "round track with 'minimum N' or add 'min N' to the work"
        )
    value = work_value(estate, profession, bonuses, table.components)
    if value.total < least:
        raise IllegalMoveError(
            f"{text!r}: the work is worth {value.total} WP, below round {table.round}'s minimum {least}, "
            "and a work must be worth at least the round's minimum"
        )
    most = most_prestige(value.total, table.components)
    if prestige > most:
        pays = value.total * table.components.rule("florins_per_wp")
        each = table.components.rule("florins_per_prestige")
        raise IllegalMoveError(
            f"{text!r}: a {value.total} WP work pays {pays} florins, at most {most} prestige at {each} "
            "florins each: the prestige taken is paid for from the work's own florins"
        )
    estate.bonus -= len(bonuses)
    florins = florins_left(value.total, prestige, table.components)
    estate.florins += florins
    estate.prestige["works"] += prestige
    estate.works.append(Work(profession, table.round, value.total, prestige, florins))
    return value, least


def sell_prestige(table: Table, text: str, player: str, points: int) -> None:
    """Seed 001, "Получение денег": "За каждое потерянное очко престижа игрок получает 100 флоринов"."""
    estate = table.estates[player]
    if points > estate.points:
        raise IllegalMoveError(f"{text!r}: {player} has {estate.points} prestige points, not {points}")
    estate.prestige["sold"] -= points
    estate.florins += points * table.components.rule("sell_prestige")


def end_round(table: Table, text: str) -> tuple[int, list[str]]:
    """Seed 001: the best work of the round earns 3 prestige; the first player's figure passes left
    and the round marker moves on; "Игра заканчивается в конце 7 раунда". Returns the best work."""
    rounds = table.components.rule("rounds")
    if table.phase == OVER:
        raise IllegalMoveError(
            f"{text!r}: the game is over after round {rounds}; there is no round {rounds + 1}"
        )
    value, best = best_work(table)
    for player in best:
        table.estates[player].prestige["best work"] += table.components.rule("best_work_prestige")
    for estate in table.estates.values():
        estate.bought = None
        estate.actions = []
    table.auctioned = []
    if table.round == rounds:
        table.phase = OVER
        return value, best
    table.round += 1
    table.phase = AUCTION
    table.first = after(table.players, table.first)
    return value, best
