"""Princes of the Renaissance's forgeries for the forge harness (tests/tamper.py): entries of a game
played through the ledger past its first Treachery card shown, each changed and signed again by
its author."""

from __future__ import annotations

from typing import Any

from tests import mutations
from tests.conftest import seeded_keys
from tests.tamper import Forged, Forgery


def game() -> Forged:
    sound = mutations.played_game(30, seed=2039)  # a seed whose game has the entries forged here
    return Forged(sound.data, seeded_keys)


# another card played with the same words after its name, so only the shares can tell them apart
SAME_FORM = {
    "steal-influence": "steal-gold-shipment",
    "steal-gold-shipment": "steal-influence",
    "freeze-bid": "steal-influence",
    "veto": "bribe-cardinal",
    "bribe-cardinal": "veto",
}


def _played_as_another(entry: dict[str, Any]) -> None:
    (shown,) = entry["face_up"][0]["cards"]
    other = SAME_FORM[shown]
    entry["move"] = entry["move"].replace(shown, other)
    entry["face_up"][0]["cards"] = [other]


FORGERIES = {
    "a sealed bid revealed as another": Forgery(
        lambda entry: entry["kind"] == "reveal",
        lambda entry: entry.update(value="bid 9"),
        "turn-order bid does not match",
    ),
    "a bid the rules refuse": Forgery(
        lambda entry: entry.get("move", "").startswith("bid "),
        lambda entry: entry.update(move="bid 999"),
        "a bid of 999 cannot be paid",
    ),
    "a Treachery card played as another": Forgery(
        lambda entry: "face_up" in entry, _played_as_another, "shares open it as another card"
    ),
}
