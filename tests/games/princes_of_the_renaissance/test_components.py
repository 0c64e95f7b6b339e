"""Components built once from the same data (``components.parse`` keeps what it built): the same
data gives the same components, and data changed in any way, its types included, is checked and
built again."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.cli.template_files import bundled
from pbem.games.princes_of_the_renaissance import components as parts
from pbem.kit.templates import ComponentError, values


def data() -> dict[str, Any]:
    template = bundled(parts.GAME, "2016")
    assert template is not None
    return values(template)


def test_the_same_data_gives_the_same_components() -> None:
    first = parts.parse(data(), edition="2016")
    assert parts.parse(data(), edition="2016") == first
    assert first.rule("card_gold") == 1


def test_data_changed_after_a_parse_is_read_again() -> None:
    given = data()
    assert parts.parse(given, edition="2016").rule("hand_limit") == 2
    given["rules"]["hand_limit"] = 3
    assert parts.parse(given, edition="2016").rule("hand_limit") == 3


def test_a_value_equal_but_of_another_type_is_still_refused() -> None:
    parts.parse(data(), edition="2016")
    changed = copy.deepcopy(data())
    changed["rules"]["card_gold"] = True  # == 1, but not a whole number
    with pytest.raises(ComponentError, match="card_gold"):
        parts.parse(changed, edition="2016")


def test_the_edition_is_checked_whatever_was_built() -> None:
    parts.parse(data(), edition="2016")
    with pytest.raises(ComponentError, match="edition"):
        parts.parse(data(), edition="2003")
