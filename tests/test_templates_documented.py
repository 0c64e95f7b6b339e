"""What a shipped template does not take from a text is documented: each value it leaves
`unverified` is listed, with what was searched for it, in its game's rules documentation under
"Values no text gives"; a value a public page confirms names the page in its source.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.kit import templates

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"

DOCUMENTED_IN = {
    "il-principe": "il-principe.md",
    "princes-of-florence": "princes-of-florence.md",
    "princes-of-the-renaissance-2003": "princes-of-the-renaissance.md",
    "princes-of-the-renaissance-2016": "princes-of-the-renaissance.md",
}


def values_no_text_gives(doc: str) -> str:
    text = (RULES / doc).read_text(encoding="utf-8")
    start = text.index("\n## Values no text gives\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def record(data: dict[str, Any], kind: str, ident: str) -> dict[str, Any]:
    found: dict[str, Any] = next(item for item in data[kind] if item["id"] == ident)
    return found


def test_every_shipped_template_has_its_documentation() -> None:
    shipped = sorted(path.stem for path in gamefile.shipped_templates().glob("*.toml"))
    assert shipped == sorted(DOCUMENTED_IN)


@pytest.mark.parametrize("template", sorted(DOCUMENTED_IN))
def test_every_unverified_value_is_listed_with_what_was_searched(template: str) -> None:
    section = values_no_text_gives(DOCUMENTED_IN[template])
    assert "| value | searched | what came back |" in section
    unlisted = []
    for path in templates.unverified(gamefile.shipped_template(template)):
        table, *record, field = path.split()
        if f"`{table}.{field}`" not in section or (record and not named(record[0], section)):
            unlisted.append(path)
    assert unlisted == []


def test_the_princes_of_florence_values_a_public_page_confirms_name_it() -> None:
    data = gamefile.shipped_template("princes-of-florence")
    minimum = data["minimum_work"]
    assert minimum["5"]["value"] == 15 and "https://www.brettspielwelt.de/" in minimum["5"]["source"]
    assert minimum["7"]["value"] == 17 and "upthevacuumthingy.blogspot.com" in minimum["7"]["source"]
    organ = record(data, "profession", "organ-builder")
    likes = ("building", "landscape", "freedom")
    assert tuple(organ[field] for field in likes) == ("chapel", "forest", "opinion")
    assert all("nest.republika.pl" in organ["source"][field] for field in likes)
    listed = [card for card in data["bonus"] if card["source"]["wp"] != templates.UNVERIFIED]
    assert len(listed) == 13 and all("ultraboardgames.com" in card["source"]["wp"] for card in listed)
    # the one prestige value no page could be read to stays the reference set's
    assert record(data, "prestige", "four-buildings-two-freedoms")["source"]["value"] == templates.UNVERIFIED
    assert "ultraboardgames.com" in record(data, "prestige", "most-works")["source"]["value"]
