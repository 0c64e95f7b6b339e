"""Building costs and what a player may build (seed 001, "Строительство зданий" and "Строитель")."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games.princes_of_florence.components import Components


def cost(builders: int, components: Components) -> int:
    """Seed 001: "платит в банк 700 флоринов, в независимости от его размеров. Если игрок имеет в
    поместье одного или двух строителей, он платит за постройку всего 300 флоринов. Если игрок
    имеет 3 строителей в своем поместье, он строит здания бесплатно." """
    rule = components.builders
    if builders >= rule.free_from:
        return 0
    return rule.reduced_price if builders else components.rule("building_price")


def may_touch(builders: int, components: Components) -> bool:
    """Seed 001: buildings may touch only at corners, a rule "отменяется для игрока, как только он
    приобрел для своего поместья второго строителя"."""
    return builders >= components.builders.touching_from


def size_problem(sizes: Mapping[str, str], building: str, size: str, components: Components) -> str | None:
    """Why ``building`` cannot be ``size``: every type has one size, and there are "3 вида больших
    зданий, 5 видов средних зданий, 2 вида маленьких зданий"."""
    known = sizes.get(building)
    kinds = components.size_kinds()[size]
    if known is not None and known != size:
        return f"the {building} is {known} (each building type has one size)"
    if known is None and sum(1 for value in sizes.values() if value == size) >= kinds:
        taken = sorted(name for name, value in sizes.items() if value == size)
        return f"there are only {kinds} {size} building types ({', '.join(taken)})"
    return None


def buildable(owned: Mapping[str, str], supply: Mapping[str, int], components: Components) -> list[str]:
    """The types a player may still build: "только одно здание одного типа", while tiles remain."""
    return [name for name in components.building_names if name not in owned and supply[name] > 0]
