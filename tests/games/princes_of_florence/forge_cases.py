"""Princes of Florence's forgeries for the forge harness (tests/tamper.py): the first entry of the
deal, a profession card returned under its deck, changed and signed again by its author."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from pbem import gamefile
from pbem.engine import play
from tests.conftest import seeded_keys
from tests.games.princes_of_florence.support import COMPONENTS
from tests.games.princes_of_florence.test_ledger import dealt
from tests.tamper import Forged, Forgery


def game() -> Forged:
    ledger, keys, clock = dealt(("ann", "ben", "cat"))
    token = list(play.hidden_hand(ledger, "ann", keys["ann"]))[-1]
    ledger, _ = play.play(ledger, "ann", f"return {token}", keys["ann"], clock.tick())
    text = gamefile.render_new(ledger.header(), ledger.roster_table(), COMPONENTS, ledger.entries, [])
    return Forged(tomllib.loads(text), seeded_keys)


def _returned(entry: Mapping[str, Any]) -> bool:
    return str(entry.get("move", "")).startswith("return ")


def _proof_of_the_shares(entry: dict[str, Any]) -> None:
    entry["remask"][0]["proof"] = entry["shares_proof"]


def _another_slot(entry: dict[str, Any]) -> None:
    entry["remask"][0]["slot"] += 1


FORGERIES = {
    "a move returning another card than the one re-masked": Forgery(
        _returned,
        lambda entry: entry.update(move="return profession:20"),
        "remask[0]: the move returns profession:20, the entry returns profession:",
    ),
    "a returned card re-masked with a proof that is not its own": Forgery(
        _returned, _proof_of_the_shares, "the re-mask proof does not verify"
    ),
    "a returned card re-masked as another slot": Forgery(
        _returned, _another_slot, "remask[0]: the move returns profession:"
    ),
}
