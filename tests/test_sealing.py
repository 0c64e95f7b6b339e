"""Sealed choices: commitments bind and hide; only the author's key opens the sealed value."""

from __future__ import annotations

import pytest

from pbem.crypto.identity import SecretKeys
from pbem.crypto.sealing import Opening, commitment, matches, new_opening, seal, unseal

GAME = "0123456789abcdef0123456789abcdef"


def test_round_trip_with_the_authors_key() -> None:
    keys = SecretKeys.generate()
    opening = new_opening("bid 15")
    sealed = seal(keys.public("a").box_public, GAME, "turn-order", "a", opening)
    assert unseal(keys.box_secret, sealed, GAME, "turn-order", "a") == opening
    assert b"bid 15" not in sealed


def test_another_key_cannot_open_it() -> None:
    mine, theirs = SecretKeys.generate(), SecretKeys.generate()
    sealed = seal(mine.public("a").box_public, GAME, "turn-order", "a", new_opening("bid 15"))
    with pytest.raises(ValueError, match="does not open with this key"):
        unseal(theirs.box_secret, sealed, GAME, "turn-order", "a")


@pytest.mark.parametrize(
    ("game", "step", "seat"), [("f" * 32, "turn-order", "a"), (GAME, "other", "a"), (GAME, "turn-order", "b")]
)
def test_sealed_value_is_bound_to_its_game_step_and_seat(game: str, step: str, seat: str) -> None:
    keys = SecretKeys.generate()
    sealed = seal(keys.public("a").box_public, GAME, "turn-order", "a", new_opening("bid 15"))
    with pytest.raises(ValueError):
        unseal(keys.box_secret, sealed, game, step, seat)


def test_altered_ciphertext_is_refused() -> None:
    keys = SecretKeys.generate()
    sealed = bytearray(seal(keys.public("a").box_public, GAME, "s", "a", new_opening("bid 3")))
    sealed[-1] ^= 1
    with pytest.raises(ValueError):
        unseal(keys.box_secret, bytes(sealed), GAME, "s", "a")


def test_commitment_binds_every_part() -> None:
    opening = Opening("bid 15", bytes(16))
    base = commitment(GAME, "s", "a", opening)
    assert matches(GAME, "s", "a", opening, base)
    others = [
        commitment("f" * 32, "s", "a", opening),
        commitment(GAME, "t", "a", opening),
        commitment(GAME, "s", "b", opening),
        commitment(GAME, "s", "a", Opening("bid 16", bytes(16))),
        commitment(GAME, "s", "a", Opening("bid 15", bytes(15) + b"\x01")),
    ]
    assert base not in others
    assert len(set(others)) == len(others)
    assert not matches(GAME, "s", "a", Opening("bid 16", bytes(16)), base)
    assert not matches(GAME, "s", "a", Opening("bid 15", bytes(8)), base)


def test_nonce_hides_equal_values() -> None:
    assert commitment(GAME, "s", "a", new_opening("bid 0")) != commitment(
        GAME, "s", "a", new_opening("bid 0")
    )


def test_sealed_size_does_not_tell_short_values_from_long_ones() -> None:
    keys = SecretKeys.generate()
    box = keys.public("a").box_public
    sizes = {len(seal(box, GAME, "s", "a", new_opening(f"bid {n}"))) for n in (0, 7, 12, 45, 999)}
    assert len(sizes) == 1
    long = new_opening("x" * 200)
    assert unseal(keys.box_secret, seal(box, GAME, "s", "a", long), GAME, "s", "a") == long
