"""Every seat commits to a randomness chain when it joins and reveals one link per entry."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.crypto import randomness
from pbem.engine import ledger
from pbem.keys import KeyStore


def load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_joins_commit_to_a_tip_and_entries_reveal_links_in_order(make_game: Callable[..., Path]) -> None:
    path = make_game(notes=(("b", "one"), ("b", "two"), ("a", "three")))
    data = load(path)
    game_id = data["game"]["id"]
    tips = {entry["by"]: bytes.fromhex(entry["rand_tip"]) for entry in data["entry"][:3]}
    assert set(tips) == {"a", "b", "c"}
    b_links = [
        bytes.fromhex(entry["rand"]) for entry in data["entry"] if entry["by"] == "b" and "rand" in entry
    ]
    assert randomness.follows(game_id, "b", tips["b"], b_links[0])
    assert randomness.follows(game_id, "b", b_links[0], b_links[1])
    result = ledger.audit(data)
    assert result.ok
    assert result.ledger is not None
    assert result.ledger.revealed["b"] == (2, b_links[1])
    assert result.ledger.revealed["c"] == (0, tips["c"])


def test_a_signed_entry_with_any_other_contribution_is_refused(
    make_game: Callable[..., Path], homes: dict[str, Path]
) -> None:
    """b cannot pick its contribution: only the next link of its committed chain is accepted."""
    path = make_game()
    data = load(path)
    current = ledger.read(data)
    secret = KeyStore(homes["b"]).secret("b", lambda prompt: None)
    honest = ledger.contribution(current, "b", secret)
    links = randomness.chain(
        randomness.seed_for(current.secret_seed("b", secret), current.game_id, "b"), current.game_id, "b"
    )
    for chosen in (links[2].hex(), links[0].hex(), "00" * 32, links[1].hex()):
        entry = current.next_entry("b", "2026-01-01T00:00:00Z", "note")
        entry["text"] = "a fair roll, honestly"
        entry["rand"] = chosen
        signed = ledger.sign_entry(current.game_id, entry, secret)
        trial = dict(data, entry=[*data["entry"], signed])
        trial["game"] = dict(data["game"], entries=len(trial["entry"]))
        problems = [str(p) for p in ledger.audit(trial).problems if p.position == len(data["entry"])]
        if chosen == honest:
            assert problems == []
        else:
            assert problems == [
                "entry 3 (by b): its randomness contribution is not the next link of b's chain "
                "(contribution 1): a wrong preimage"
            ]
    assert honest == links[1].hex()


def test_the_chain_needs_no_saved_state(make_game: Callable[..., Path], homes: dict[str, Path]) -> None:
    """The contribution is recomputed from the key: a second machine with the key makes the same."""
    path = make_game()
    current = ledger.read(load(path))
    one = KeyStore(homes["b"]).secret("b", lambda prompt: None)
    assert ledger.contribution(current, "b", one) == ledger.contribution(current, "b", one)
