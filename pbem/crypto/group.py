"""The group of the hidden deck: the prime-order subgroup of a 2048-bit safe-prime group.

The modulus is the 2048-bit MODP group of RFC 3526, section 3 ("group 14"): a safe prime
``p = 2q + 1`` with ``q`` prime. All values live in the subgroup of quadratic residues, whose order
is the prime ``q``: there, DDH is believed hard and ElGamal hides which of two messages was
encrypted. Outside it, the Legendre symbol of a ciphertext leaks one bit of the plaintext, which is
why every value read from a file is checked to be in the subgroup. Since ``p = 7 (mod 8)``, 2 is a
quadratic residue, so ``g = 2`` (the generator the RFC names) generates exactly the order-q
subgroup.

Arithmetic is plain Python unless gmpy2 is importable (the ``fast`` extra; it is never required),
when numbers are lifted to GMP integers first; bases used many times (``g``, a joint key) get a
table of precomputed powers, and products of several powers share their squarings.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Sequence
from functools import lru_cache

from pbem.crypto.encoding import b64, unb64
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

# RFC 3526, section 3: p = 2^2048 - 2^1984 - 1 + 2^64 * ( [2^1918 pi] + 124476 ).
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD1"
    "29024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245"
    "E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3D"
    "C2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D"
    "670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9"
    "DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
Q = (P - 1) // 2
G = 2
ELEMENT_SIZE = 256  # bytes of p, and of every element and scalar in text form
CHALLENGE_SIZE = 32  # Fiat-Shamir challenges are SHA-256 outputs, far below q
WIDE_SIZE = ELEMENT_SIZE + 16  # 128 extra bits make a reduction mod q or p statistically uniform

ELEMENT_DOMAIN = "pbem/hidden-deck/hash-to-group/v1"
SCALAR_DOMAIN = "pbem/hidden-deck/hash-to-scalar/v1"

WINDOW = 5  # fixed-base table: 410 windows of 31 powers; one power then costs 410 products
MULTI_WINDOW = 4


# --- optional gmpy2 -----------------------------------------------------------------------------
def _load_gmpy2() -> tuple[Callable[[int], int], Callable[[int, int], int]] | None:
    try:
        module = importlib.import_module("gmpy2")
    except ImportError:
        return None
    lift: Callable[[int], int] = module.mpz
    symbol: Callable[[int, int], int] = module.legendre
    return lift, symbol


Backend = tuple[Callable[[int], int] | None, Callable[[int, int], int] | None]


class _Choice:
    """gmpy2 is looked for on the first use of this group, not at import: a game in the curve
    group never needs it, and importing it costs a command a tenth of its time. With gmpy2,
    numbers are lifted to its integers before any arithmetic: products and powers of them then
    run in GMP, and the same table and window code serves both backends. Every element read from
    a file is checked for membership; GMP's symbol is ~50x faster."""

    looked = False
    found: tuple[Callable[[int], int], Callable[[int, int], int]] | None = None
    active: Backend | None = None  # None: not chosen yet


def _gmpy2() -> tuple[Callable[[int], int], Callable[[int, int], int]] | None:
    if not _Choice.looked:
        _Choice.found, _Choice.looked = _load_gmpy2(), True
    return _Choice.found


def _backend() -> Backend:
    if _Choice.active is None:
        _Choice.active = _gmpy2() or (None, None)
    return _Choice.active


def gmpy2_available() -> bool:
    return _gmpy2() is not None


def use_gmpy2(enabled: bool) -> bool:
    """Switch the gmpy2 speed-up on or off (benchmarks compare both); True if it is now in use."""
    found = _gmpy2()
    _Choice.active = found if enabled and found else (None, None)
    return _Choice.active[0] is not None


def _lifted(value: int) -> int:
    lift = _backend()[0]
    return value if lift is None else lift(value)


def power(base: int, exponent: int) -> int:
    """``base^exponent mod p`` for a non-negative exponent."""
    return int(pow(_lifted(base), exponent, P))


def inverse(element: int) -> int:
    return pow(element, -1, P)


class FixedBase:
    """Powers of one base that is raised many times: ``g``, a joint key.

    Table row ``i`` holds ``base^(j * 2^(WINDOW*i))`` for every digit ``j``, so a power is one
    product per digit of the exponent and no squarings: about five times faster than ``pow`` for
    a 2048-bit exponent, once the table (about as costly as eight ``pow`` calls) is built.
    The table is built only once the base has been raised ``TABLE_AFTER`` times: a command that
    checks a few key proofs and nothing else never pays for it, and one that raises the base
    often pays at most twice what it would have with the table from the start.
    """

    TABLE_AFTER = 8

    def __init__(self, base: int) -> None:
        self.base = base
        self._rows: list[list[int]] | None = None
        self._rows_lifted = False
        self._uses = 0

    def _table(self) -> list[list[int]]:
        if self._rows is None or self._rows_lifted != (_backend()[0] is not None):
            rows: list[list[int]] = []
            current = _lifted(self.base)
            for _ in range((Q.bit_length() + WINDOW - 1) // WINDOW):
                row = [1, current]
                for _ in range((1 << WINDOW) - 2):
                    row.append(row[-1] * current % P)
                rows.append(row)
                current = row[-1] * current % P
            self._rows = rows
            self._rows_lifted = _backend()[0] is not None
        return self._rows

    def __call__(self, exponent: int) -> int:
        exponent %= Q
        if self._rows is None and self._uses < self.TABLE_AFTER:
            self._uses += 1
            return power(self.base, exponent)
        mask = (1 << WINDOW) - 1
        result = 1
        for row in self._table():
            if not exponent:
                break
            digit = exponent & mask
            if digit:
                result = result * row[digit] % P
            exponent >>= WINDOW
        return int(result)


GENERATOR = FixedBase(G)


@lru_cache(maxsize=8)
def fixed_base(base: int) -> FixedBase:
    """The shared table for a base used again and again, such as a game's joint key."""
    return GENERATOR if base == G else FixedBase(base)


def multi_power(bases: Sequence[int], exponents: Sequence[int]) -> int:
    """``prod(base_i^exponent_i) mod p`` with one chain of squarings shared by every base."""
    if len(bases) != len(exponents):
        raise ValueError("as many exponents as bases")
    size = 1 << MULTI_WINDOW
    tables = []
    for base in map(_lifted, bases):
        row = [1, base]
        for _ in range(size - 2):
            row.append(row[-1] * base % P)
        tables.append(row)
    width = max((exponent.bit_length() for exponent in exponents), default=0)
    windows = (width + MULTI_WINDOW - 1) // MULTI_WINDOW
    mask = size - 1
    result = _lifted(1)
    for window in range(windows - 1, -1, -1):
        if result != 1:
            result = pow(result, size, P)
        shift = window * MULTI_WINDOW
        for row, exponent in zip(tables, exponents, strict=True):
            digit = (exponent >> shift) & mask
            if digit:
                result = result * row[digit] % P
    return int(result)


# --- membership and hashing -------------------------------------------------------------------
def legendre(value: int) -> int:
    """The Legendre symbol of ``value`` mod p: 1 exactly when ``value^q = 1`` (Euler's criterion).

    Computed by quadratic reciprocity (the Jacobi symbol algorithm), about forty times faster in
    Python than the power ``value^q``, which matters when a whole deck is read from a file.
    """
    symbol = _backend()[1]
    if symbol is not None:
        return int(symbol(value % P, P))
    a, n = value % P, P
    result = 1
    while a:
        zeros = (a & -a).bit_length() - 1
        a >>= zeros
        if zeros & 1 and n & 7 in (3, 5):
            result = -result
        if a & n & 3 == 3:
            result = -result
        a, n = n % a, a
    return result if n == 1 else 0


def is_element(value: int) -> bool:
    """True for a non-identity element of the order-q subgroup (``1 < y < p`` and ``y^q = 1``)."""
    return 1 < value < P and legendre(value) == 1


def hash_to_element(domain: str, *parts: bytes) -> int:
    """An element nobody knows the discrete logarithm of: a wide hash mod p, squared.

    Squaring maps onto the quadratic residues, the order-q subgroup; the loop only guards against
    the two inputs (0 and +-1) whose square is not a generator, which a hash never hits in practice.
    """
    counter = 0
    while True:
        material = pae(ELEMENT_DOMAIN, domain.encode("ascii"), str(counter).encode("ascii"), *parts)
        wide = int.from_bytes(hashlib.shake_256(material).digest(WIDE_SIZE), "big") % P
        element = wide * wide % P
        if element > 1:
            return element
        counter += 1


def hash_to_scalar(domain: str, *parts: bytes) -> int:
    """A uniform scalar in ``[1, q-1]``, from a wide hash (bias below 2^-128)."""
    material = pae(SCALAR_DOMAIN, domain.encode("ascii"), *parts)
    wide = int.from_bytes(hashlib.shake_256(material).digest(WIDE_SIZE), "big")
    return wide % (Q - 1) + 1


def challenge(domain: str, *parts: bytes) -> int:
    """A Fiat-Shamir challenge: SHA-256 of the domain-separated statement, as an integer."""
    return int.from_bytes(hashlib.sha256(pae(domain, *parts)).digest(), "big")


def element_bytes(value: int) -> bytes:
    return value.to_bytes(ELEMENT_SIZE, "big")


def int_bytes(value: int) -> bytes:
    """Any non-negative integer for hashing: its minimal big-endian bytes (pae carries the length)."""
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


# --- text forms ---------------------------------------------------------------------------------
def element_text(value: int) -> str:
    return b64(element_bytes(value))


def scalar_text(value: int) -> str:
    return b64(value.to_bytes(ELEMENT_SIZE, "big"))


def challenge_text(value: int) -> str:
    return b64(value.to_bytes(CHALLENGE_SIZE, "big"))


def _decode(text: object, size: int, what: str) -> int:
    if not isinstance(text, str):
        raise GameFileError(f"{what}: expected text, found {type(text).__name__}")
    try:
        data = unb64(text, size)
    except ValueError as exc:
        raise GameFileError(f"{what}: {exc}") from None
    return int.from_bytes(data, "big")


def parse_element(text: object, what: str) -> int:
    """Read an element, refusing anything outside the order-q subgroup (or the identity)."""
    value = _decode(text, ELEMENT_SIZE, what)
    if not 1 < value < P:
        raise GameFileError(f"{what}: not a group element (out of range)")
    if legendre(value) != 1:
        raise GameFileError(f"{what}: not a group element (not in the prime-order subgroup)")
    return value


def parse_scalar(text: object, what: str) -> int:
    value = _decode(text, ELEMENT_SIZE, what)
    if value >= Q:
        raise GameFileError(f"{what}: not a scalar (not below the group order)")
    return value


def parse_challenge(text: object, what: str) -> int:
    return _decode(text, CHALLENGE_SIZE, what)
