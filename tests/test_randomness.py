"""Joint randomness: chains verify link by link, outcomes are fixed in advance and uniform."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from pbem.crypto.randomness import MAX_STREAM, Draws, chain, follows, seed_for, step_back, stream

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


# --- the bytes every event reads, derived as they are read ----------------------------------------
# Games on disk were decided by the bytes below, when Draws derived the whole 8 KiB of each stream
# at once; deriving only what is read must give every event the same bytes.


class EagerDraws(Draws):
    """The derivation Draws used before it derived only what it reads: ``stream`` of each
    ``context#n`` in turn, 8 KiB at once."""

    def __init__(self, game_id: str, context: str, contributions: list[tuple[str, bytes]]) -> None:
        super().__init__(game_id, context, contributions)
        self._eager = (game_id, context, list(contributions))
        self._block = 0
        self._left = b""

    def _bytes(self, count: int) -> bytes:
        game_id, context, contributions = self._eager
        while len(self._left) < count:
            self._left += stream(game_id, f"{context}#{self._block}", contributions, MAX_STREAM)
            self._block += 1
        out, self._left = self._left[:count], self._left[count:]
        return out


CONTRIBUTIONS = [
    [],
    [("a", bytes(32))],
    [("alice", bytes(range(32))), ("bob", bytes(32)), ("zoë", b"\xff" * 32)],
    [("dealer", b"2026:17")],  # the tests' dealer contributes text of any length
]


@pytest.mark.parametrize("contributions", CONTRIBUTIONS)
@pytest.mark.parametrize("context", ["cities after 0 built", "deck", "", "tie-break #3", "ß"])
def test_the_bytes_read_are_those_of_the_whole_stream(
    context: str, contributions: list[tuple[str, bytes]]
) -> None:
    """Reads of every size, across the end of a stream into the next (``context#1``)."""
    lazy, eager = Draws(GAME, context, contributions), EagerDraws(GAME, context, contributions)
    sizes = [1, 2, 3, 31, 32, 33, 64, 7, 500, 1] * 40
    assert sum(sizes) > 2 * MAX_STREAM
    assert [lazy._bytes(size) for size in sizes] == [eager._bytes(size) for size in sizes]


@pytest.mark.parametrize("contributions", CONTRIBUTIONS)
def test_draws_are_those_of_the_whole_stream(contributions: list[tuple[str, bytes]]) -> None:
    lazy, eager = Draws(GAME, "event", contributions), EagerDraws(GAME, "event", contributions)
    bounds = [2, 6, 255, 256, 257, 70000, 10**6, 1, 5] * 700
    assert [lazy.below(bound) for bound in bounds] == [eager.below(bound) for bound in bounds]
    items = [f"city{n}" for n in range(30)]
    for _ in range(50):
        assert lazy.shuffle(items) == eager.shuffle(items)


def test_draws_known_answers() -> None:
    """Values Draws gave before it derived only what it reads (and games on disk rest on)."""
    contributions = [("alice", bytes(range(32))), ("bob", bytes(32))]
    cities = Draws(GAME, "cities after 3 built", contributions).shuffle([f"c{n}" for n in range(20)])
    assert " ".join(cities) == "c3 c17 c10 c4 c0 c9 c1 c8 c19 c7 c15 c5 c11 c6 c16 c18 c13 c12 c2 c14"
    dice = Draws(GAME, "dice", [("a", bytes(32))])
    assert [dice.die() for _ in range(20)] == [2, 4, 3, 4, 5, 2, 1, 4, 1, 6, 4, 2, 4, 2, 2, 1, 1, 2, 2, 6]
    long = Draws(GAME, "long", [("a", b"\x01" * 32)])  # eight streams read
    values = [long.below(bound) for bound in [2, 300, 70000, 5, 10**6] * 4000]
    digest = hashlib.sha256(repr(values).encode()).hexdigest()
    assert digest == "dba4aa65a70b5571d4937eb6b01524c4eaf2b0381a2bed8584a815650953cf61"
