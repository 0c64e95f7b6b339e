"""The value of a work (seed 001, "Создание шедевра"), its florins and prestige, the round's minimum
and the round's best work ("Определение лучшего шедевра").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbem.games.princes_of_florence.components import LANDSCAPES, BonusCard, Components
from pbem.games.princes_of_florence.table.state import Estate, Table

Bonus = str | int  # a bonus card by name, or the value read off a card no source lists


@dataclass(frozen=True)
class Part:
    label: str
    points: int


@dataclass(frozen=True)
class WorkValue:
    profession: str
    parts: tuple[Part, ...]

    @property
    def total(self) -> int:
        return sum(part.points for part in self.parts)


def counted(estate: Estate, thing: str) -> int:
    """How many of ``thing`` (one of ``components.COUNTED``) the estate has, as a bonus card's text
    counts them. "Дворец не считается зданием в текстах бонусных карт", so only built buildings
    count, and "card-in-hand" is the profession and recruitment cards in hand."""
    sizes = list(estate.buildings.values())
    if thing == "building":
        return len(sizes)
    if thing.endswith("-building"):
        return sizes.count(thing.removesuffix("-building"))
    if thing == "building-size":
        return len(set(sizes))
    if thing == "landscape":
        return estate.landscape_count
    if thing == "landscape-type":
        return sum(1 for kind in LANDSCAPES if estate.landscapes[kind])
    if thing in LANDSCAPES:
        return estate.landscapes[thing]
    return {
        "freedom": len(estate.freedoms),
        "builder": estate.builders,
        "jester": estate.jesters,
        "prestige-card": len(estate.prestige_cards),
        "card-in-hand": estate.in_hand,
    }[thing]


def bonus_points(estate: Estate, card: BonusCard) -> int:
    """What a bonus card adds to a work: "количество WP, указанное на карте", its ``wp`` for each
    thing it counts in the estate as it is when the work is created."""
    return card.wp * sum(counted(estate, thing) for thing in card.counts)


def bonus_value(estate: Estate, card: Bonus, components: Components) -> int:
    """What a bonus card adds, given by name (a card of the template) or by the value read off it."""
    if isinstance(card, int):
        return card
    return bonus_points(estate, components.bonus[card])


def work_value(
    estate: Estate, profession: str, bonuses: Sequence[Bonus], components: Components
) -> WorkValue:
    """Seed 001: "Начальная ценность шедевра 0 WP": +4 for the liked building, +3 for the liked
    landscape, +3 for the liked freedom, +2 per jester, +1 per profession and recruitment card "на
    руках игрока или выложена на стол", and each bonus card played. ``estate`` is taken with the
    profession card already laid out ("кладет ее рядом со своим игровым полем" comes first)."""
    likes = components.professions[profession]
    rule = components.rule
    wp_building, wp_landscape, wp_freedom = rule("wp_building"), rule("wp_landscape"), rule("wp_freedom")
    parts = [
        Part(
            f"building {likes.building}" + ("" if likes.building in estate.buildings else " (none)"),
            wp_building if likes.building in estate.buildings else 0,
        ),
        Part(
            f"landscape {likes.landscape}" + ("" if estate.landscapes[likes.landscape] else " (none)"),
            wp_landscape if estate.landscapes[likes.landscape] else 0,
        ),
        Part(
            f"freedom {likes.freedom}" + ("" if likes.freedom in estate.freedoms else " (none)"),
            wp_freedom if likes.freedom in estate.freedoms else 0,
        ),
        Part(f"jesters x{estate.jesters}", components.jester.wp * estate.jesters),
        Part(f"profession and recruitment cards x{estate.cards}", rule("wp_card") * estate.cards),
    ]
    parts.extend(
        Part(
            f"bonus card {card}" if isinstance(card, str) else "bonus card (value read off it)",
            bonus_value(estate, card, components),
        )
        for card in bonuses
    )
    return WorkValue(profession, tuple(parts))


def repeat_refusal(player: str, profession: str, made: Iterable[str]) -> str | None:
    """Why ``player``, who has made works with the professions ``made``, may not make one with
    ``profession`` now: seed 001, "Создание шедевра", the card "остается лежать открытой на столе и
    данный игрок не может вновь создать шедевр с помощью данного артиста или ученого. Однако другой
    игрок может с помощью карты найма переманить открытого артиста или ученого и создать с помощью
    его шедевр". The bar stays with the player, so it holds even once the card is recruited back."""
    if profession in made:
        return (
            f"{player} has already made a work with the {profession}, and a player makes only one work "
            "with each artist or scholar (another player may recruit the card and make one)"
        )
    return None


def most_prestige(value: int, components: Components) -> int:
    """Seed 001: the work pays 100 florins per WP; the player may take part of it as prestige,
    "1 очко престижа стоит 200 флоринов", never more than the work's own florins."""
    return value * components.rule("florins_per_wp") // components.rule("florins_per_prestige")


def florins_left(value: int, prestige: int, components: Components) -> int:
    return value * components.rule("florins_per_wp") - prestige * components.rule("florins_per_prestige")


def minimum_bounds(minimums: Mapping[int, int], round_: int) -> tuple[int | None, int | None]:
    """The least and greatest minimum the round may have: the minimum "возрастает с каждым
    раундом", so it is at least one above each earlier round's and one below each later round's."""
    if round_ in minimums:
        return minimums[round_], minimums[round_]
    lows = [value + round_ - other for other, value in minimums.items() if other < round_]
    highs = [value - (other - round_) for other, value in minimums.items() if other > round_]
    return (max(lows) if lows else None), (min(highs) if highs else None)


def minimum(minimums: Mapping[int, int], round_: int) -> int | None:
    """The round's minimum work value if it is known or follows from the known ones (round 6 lies
    between 15 and 17, so it is 16); None if the table must read it off the round track."""
    low, high = minimum_bounds(minimums, round_)
    return low if low is not None and low == high else None


def best_of(best: Mapping[str, int], order: Sequence[str]) -> tuple[int, list[str]]:
    """The best of each player's best work of the round (a player who made two counts the better:
    "он помещает маркер на значение наиценнейшего произведения"), and everyone who made one that
    good: "Если несколько игроков создали равные по ценности шедевры, они все получают по 3 очка
    престижа"; (0, []) when no work was created."""
    if not best:
        return 0, []
    top = max(best.values())
    return top, [player for player in order if best.get(player) == top]


def best_work(table: Table) -> tuple[int, list[str]]:
    """The round's best work at a table and who made it."""
    best = {
        player: max(work.value for work in estate.works if work.round == table.round)
        for player, estate in table.estates.items()
        if any(work.round == table.round for work in estate.works)
    }
    return best_of(best, table.players)
