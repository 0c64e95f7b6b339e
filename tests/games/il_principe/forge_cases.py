"""Il Principe's forgeries for the forge harness (tests/tamper.py): entries of a game played through
the ledger to its first cards shown, each changed and signed again by its author."""

from __future__ import annotations

import tomllib
from typing import Any

from tests.conftest import seeded_keys
from tests.games.il_principe.test_ledger import SEATS, played
from tests.tamper import Forged, Forgery


def _replace_first_shown(entry: dict[str, Any]) -> None:
    cards = entry["face_up"][0]["cards"]
    cards[0] = "blue" if cards[0] != "blue" else "red"


def game() -> Forged:
    shown = played(SEATS[:2], 4, until=lambda game: any("face_up" in entry for entry in game.entries))
    return Forged(tomllib.loads(shown.text), seeded_keys)


FORGERIES = {
    "a reserve revealed as other cards than sealed": Forgery(
        lambda entry: entry["kind"] == "reveal",
        lambda entry: entry.update(value="reserve building:1 building:4"),
        "reserve does not match",
    ),
    "a card shown as another colour": Forgery(
        lambda entry: "face_up" in entry,
        _replace_first_shown,
        "shares open it as another card",
    ),
}
