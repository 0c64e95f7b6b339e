"""Joint randomness that every seat contributes to and no seat controls.

At join each seat publishes the tip ``w0`` of a hash chain ``w0 = H(w1), w1 = H(w2), ...``; in its
later entries it reveals ``w1``, ``w2``, ... in order, and anyone checks each against the last.
Because the whole chain is fixed at join, a seat's next contribution is determined before any
random event is requested: a seat can only refuse to continue (stall), never choose. A random
event is resolved from its context and the next preimage of every contributing seat, expanded with
HKDF and cut to range by rejection sampling, so every outcome is exactly equally likely.

A seat's chain is derived from its private key and the game id, so it can be recomputed on any
machine that holds the key and nothing needs to be stored between sessions.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections.abc import Iterator, Sequence
from functools import lru_cache

from pbem.crypto.signing import pae

CHAIN_DOMAIN = "pbem/rand-chain/v1"
SEED_DOMAIN = "pbem/rand-seed/v1"
EVENT_DOMAIN = "pbem/random/v1"
CHAIN_LENGTH = 4096  # reveals per seat per game; a long game uses a few hundred
LINK_SIZE = 32
EXPAND_INFO = b"pbem/random/expand/v1"
# A random event's bytes: each of its streams is as long as HKDF-SHA256 makes (255 blocks).
MAX_STREAM = 255 * 32
_NO_SALT = bytes(32)
_COUNTERS = tuple(bytes([counter]) for counter in range(1, 256))


@lru_cache(maxsize=64)
def _prefix(game_id: str, seat: str) -> hashlib._Hash:
    """SHA-256 fed with what every step of the seat's chain hashes before the link itself (the
    domain, game, seat and link length): callers copy it, so it is hashed once per seat, not once
    per step. Never update it in place."""
    prefix = hashlib.sha256(pae(CHAIN_DOMAIN, game_id.encode("utf-8"), seat.encode("utf-8")))
    prefix.update(b" %d " % LINK_SIZE)
    return prefix


def step_back(game_id: str, seat: str, link: bytes) -> bytes:
    """``H(link)``: the chain element before ``link``."""
    if len(link) != LINK_SIZE:
        return hashlib.sha256(pae(CHAIN_DOMAIN, game_id.encode("utf-8"), seat.encode("utf-8"), link)).digest()
    step = _prefix(game_id, seat).copy()
    step.update(link)
    return step.digest()


def seed_for(key: bytes, game_id: str, seat: str) -> bytes:
    """The secret end of a seat's chain, derived from its secret for the game (see
    ``SecretKeys.for_game``)."""
    return hmac.new(key, pae(SEED_DOMAIN, game_id.encode("utf-8"), seat.encode("utf-8")), "sha256").digest()


def chain(seed: bytes, game_id: str, seat: str, length: int = CHAIN_LENGTH) -> list[bytes]:
    """``[w0, w1, ..., w_length]``: the tip first, the seed last."""
    if len(seed) != LINK_SIZE:
        raise ValueError(f"a chain seed is {LINK_SIZE} bytes, not {len(seed)}")
    # Every step hashes the same encoded prefix, so it is hashed once and copied: signing an entry
    # walks the whole chain, and this makes that walk ~4x cheaper.
    prefix = _prefix(game_id, seat)
    links = [seed]
    for _ in range(length):
        step = prefix.copy()
        step.update(links[-1])
        links.append(step.digest())
    links.reverse()
    return links


def follows(game_id: str, seat: str, previous: bytes, revealed: bytes) -> bool:
    """True if ``revealed`` is the chain element right after ``previous``."""
    return len(revealed) == LINK_SIZE and hmac.compare_digest(step_back(game_id, seat, revealed), previous)


def stream(game_id: str, context: str, contributions: Sequence[tuple[str, bytes]], size: int) -> bytes:
    """``size`` bytes fixed by the event's context and each seat's contribution (in seat order)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(hashes.SHA256(), size, salt=None, info=EXPAND_INFO).derive(
        _material(game_id, context, contributions)
    )


def _material(game_id: str, context: str, contributions: Sequence[tuple[str, bytes]]) -> bytes:
    """What ``stream`` expands: the event's domain, game and context, then each seat and its link."""
    return pae(
        EVENT_DOMAIN,
        game_id.encode("utf-8"),
        context.encode("utf-8"),
        *(part for seat, link in contributions for part in (seat.encode("utf-8"), link)),
    )


def _blocks(game_id: str, context: str, contributions: Sequence[tuple[str, bytes]]) -> Iterator[bytes]:
    """``stream(game_id, f"{context}#{n}", contributions, MAX_STREAM)`` for n = 0, 1, ...,
    joined, one SHA-256 output at a time: HKDF (RFC 5869) written out, so that only the blocks an
    event reads are derived. An event takes a few bytes, and deriving the whole 8 KiB of its first
    stream at once was a tenth of a game's rules; tests/test_randomness.py checks it against
    ``stream`` block for block."""
    for number in itertools.count():
        # Extract: no salt is a salt of HashLen zero bytes (RFC 5869, 2.2).
        key = hmac.digest(_NO_SALT, _material(game_id, f"{context}#{number}", contributions), "sha256")
        # Expand: T(i) = HMAC(PRK, T(i-1) | info | i), i = 1..255 (2.3).
        block = b""
        for counter in _COUNTERS:
            block = hmac.digest(key, block + EXPAND_INFO + counter, "sha256")
            yield block


class Draws:
    """Uniform integers from a byte stream, by rejection sampling (no modulo bias)."""

    def __init__(self, game_id: str, context: str, contributions: Sequence[tuple[str, bytes]]) -> None:
        self._blocks = _blocks(game_id, context, list(contributions))
        self._buffer = b""  # derived and not yet read from ``_at`` on
        self._at = 0

    def _bytes(self, count: int) -> bytes:
        end = self._at + count
        while end > len(self._buffer):
            self._buffer = self._buffer[self._at :] + next(self._blocks)
            end -= self._at
            self._at = 0
        out = self._buffer[self._at : end]
        self._at = end
        return out

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)``."""
        if bound < 1:
            raise ValueError("bound must be positive")
        if bound == 1:
            return 0
        width = (bound - 1).bit_length()
        size = (width + 7) // 8
        mask = (1 << width) - 1
        while True:
            candidate = int.from_bytes(self._bytes(size), "big") & mask
            if candidate < bound:
                return candidate

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: Sequence[str]) -> list[str]:
        """A uniform permutation (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
