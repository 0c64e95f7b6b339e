"""Joint randomness: chains verify link by link, outcomes are fixed in advance and uniform."""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.crypto.randomness import Draws, chain, follows, seed_for, step_back

GAME = "0123456789abcdef0123456789abcdef"


def seat_chain(seat: str, length: int = 50) -> list[bytes]:
    return chain(seed_for(seat.encode().ljust(32, b"\0"), GAME, seat), GAME, seat, length)


def test_each_link_follows_the_one_before() -> None:
    links = seat_chain("a")
    assert all(follows(GAME, "a", links[i], links[i + 1]) for i in range(len(links) - 1))
    assert links[0] == step_back(GAME, "a", links[1])


def test_a_wrong_preimage_is_refused() -> None:
    links = seat_chain("a")
    assert not follows(GAME, "a", links[0], links[2])  # skipping ahead
    assert not follows(GAME, "a", links[1], links[0])  # going back
    assert not follows(GAME, "b", links[0], links[1])  # another seat's chain
    assert not follows("f" * 32, "a", links[0], links[1])  # another game
    assert not follows(GAME, "a", links[0], bytes(32))


def test_the_chain_is_recomputable_from_the_key_alone() -> None:
    assert seat_chain("a") == seat_chain("a")
    assert seat_chain("a")[0] != seat_chain("b")[0]


def test_no_seat_can_choose_an_outcome() -> None:
    """With the tips published, the only contribution a seat can make is its next link."""
    chains = {seat: seat_chain(seat) for seat in ("a", "b", "c")}
    fixed = [(seat, chains[seat][1]) for seat in ("a", "b", "c")]
    outcome = Draws(GAME, "tie-break", fixed).die()
    # c tries every other 32-byte value it might like better: each is refused by the chain check
    for attempt in range(200):
        candidate = attempt.to_bytes(32, "big")
        assert not follows(GAME, "c", chains["c"][0], candidate)
    assert Draws(GAME, "tie-break", fixed).die() == outcome  # and the outcome is reproducible


def test_outcome_depends_on_every_contribution_and_the_context() -> None:
    chains = {seat: seat_chain(seat) for seat in ("a", "b", "c")}
    base = [(seat, chains[seat][1]) for seat in ("a", "b", "c")]
    shuffled = Draws(GAME, "deck", base).shuffle([str(n) for n in range(25)])
    for index in range(3):
        changed = list(base)
        seat = changed[index][0]
        changed[index] = (seat, chains[seat][2])
        assert Draws(GAME, "deck", changed).shuffle([str(n) for n in range(25)]) != shuffled
    assert Draws(GAME, "other deck", base).shuffle([str(n) for n in range(25)]) != shuffled


def test_dice_are_uniform() -> None:
    draws = Draws(GAME, "dice", [("a", bytes(32)), ("b", bytes(range(32)))])
    counts = Counter(draws.die() for _ in range(12000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((n - 2000) ** 2 / 2000 for n in counts.values())
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom; the stream is fixed, so this never flakes


def test_shuffle_is_a_permutation() -> None:
    items = [f"card{n}" for n in range(25)]
    out = Draws(GAME, "shuffle", [("a", bytes(32))]).shuffle(items)
    assert sorted(out) == sorted(items)
    assert out != items


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 255, 256, 257, 10**6])
def test_below_stays_in_range(bound: int) -> None:
    draws = Draws(GAME, f"range {bound}", [("a", bytes(32))])
    assert all(0 <= draws.below(bound) < bound for _ in range(300))
