"""The hidden decks' group for new games: the prime-order subgroup of edwards25519, via libsodium.

The curve has ``8 * l`` points, ``l = 2^252 + 27742317777372353535851937790883648493`` prime; the
decks live in the subgroup of order ``l``, where DDH is believed hard. The cofactor 8 is handled
by never leaving that subgroup:

* every point read from a file must be a canonical encoding of a point of order exactly ``l``
  (libsodium's ``crypto_core_ed25519_is_valid_point``: canonical ``y``, on the curve, not of small
  order, in the main subgroup), so neither a small-order point nor a point with a small-order
  component, which could leak a secret scalar's residue mod 8, is ever multiplied;
* hashes to the group use libsodium's ``crypto_core_ed25519_from_uniform`` (Elligator 2, then a
  multiplication by the cofactor), whose output is in the subgroup.

A point is its standard 32-byte encoding (``y`` little-endian, the sign of ``x`` in the top bit);
a scalar is 32 bytes little-endian, below ``l``. The identity (``01 00 .. 00``) never appears in a
file; it is only the start of a product.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from nacl import bindings as sodium

from pbem.crypto.groups import Element, Group
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

L = 2**252 + 27742317777372353535851937790883648493
FIELD_PRIME = 2**255 - 19
POINT_SIZE = 32
IDENTITY = bytes([1]) + bytes(31)
ELEMENT_DOMAIN = "pbem/edwards25519/hidden-deck/hash-to-group/v1"


def _point(value: Element) -> bytes:
    if not isinstance(value, bytes):
        raise TypeError("a point of edwards25519 is its 32-byte encoding")
    return value


class UncheckedPoint(GameFileError):
    """A point decoded lazily turned out, when raised to a power, not to be a group element."""


def _scalar(exponent: int) -> bytes:
    return (exponent % L).to_bytes(POINT_SIZE, "little")


class Edwards25519(Group):
    name = "edwards25519"
    order = L
    element_size = POINT_SIZE
    scalar_size = POINT_SIZE
    wide_size = 64  # 512 bits reduced mod a 253-bit order: bias below 2^-259
    identity: Element = IDENTITY
    compact = True
    checks_on_power = True

    def __init__(self) -> None:
        self.generator = sodium.crypto_scalarmult_ed25519_base_noclamp(_scalar(1))

    def domain(self, base: str) -> str:
        # "pbem/hidden-deck/key/v1" becomes "pbem/edwards25519/hidden-deck/key/v1".
        return f"pbem/edwards25519/{base.removeprefix('pbem/')}"

    def multiply(self, left: Element, right: Element) -> Element:
        if left == IDENTITY:
            return _point(right)
        if right == IDENTITY:
            return _point(left)
        return bytes(sodium.crypto_core_ed25519_add(_point(left), _point(right)))

    def divide(self, left: Element, right: Element) -> Element:
        if right == IDENTITY:
            return _point(left)
        if left == IDENTITY:
            return bytes(sodium.crypto_core_ed25519_sub(IDENTITY, _point(right)))
        return bytes(sodium.crypto_core_ed25519_sub(_point(left), _point(right)))

    def power(self, base: Element, exponent: int) -> Element:
        # libsodium refuses a zero scalar and an identity result: both mean the identity here.
        point = _point(base)
        if point == IDENTITY:
            return IDENTITY
        if exponent % L == 0:
            # libsodium is not asked, so it does not check the point: check it here
            if not sodium.crypto_core_ed25519_is_valid_point(point):
                raise UncheckedPoint("a point raised to a power is not a group element")
            return IDENTITY
        try:
            return bytes(sodium.crypto_scalarmult_ed25519_noclamp(_scalar(exponent), point))
        except RuntimeError:  # libsodium refuses a point off the curve or outside the subgroup
            raise UncheckedPoint("a point raised to a power is not a group element") from None

    def base_power(self, exponent: int) -> Element:
        if exponent % L == 0:
            return IDENTITY
        return bytes(sodium.crypto_scalarmult_ed25519_base_noclamp(_scalar(exponent)))

    def fixed_base(self, base: Element) -> Callable[[int], Element]:
        if base == self.generator:
            return self.base_power
        return lambda exponent: self.power(base, exponent)

    def is_element(self, value: Element) -> bool:
        return (
            isinstance(value, bytes)
            and len(value) == POINT_SIZE
            and bool(sodium.crypto_core_ed25519_is_valid_point(value))
        )

    def encode(self, value: Element) -> bytes:
        return _point(value)

    def decode_lazily(self, data: bytes, what: str) -> Element:
        """The cheap checks only (size, canonical ``y``, not the identity): libsodium's scalar
        multiplication checks the rest (on the curve, in the prime-order subgroup) whenever the
        point is raised to a power, at no extra cost, so a point every check raises to a power
        need not pay for ``is_valid_point`` twice."""
        return self._decoded(data, what, full=False)

    def decode(self, data: bytes, what: str) -> Element:
        return self._decoded(data, what, full=True)

    def _decoded(self, data: bytes, what: str, *, full: bool) -> Element:
        if len(data) != POINT_SIZE:
            raise GameFileError(f"{what}: a point is {POINT_SIZE} bytes, found {len(data)}")
        if int.from_bytes(data, "little") & ((1 << 255) - 1) >= FIELD_PRIME:
            raise GameFileError(f"{what}: not a point (non-canonical encoding)")
        if data == IDENTITY:
            raise GameFileError(f"{what}: not a group element (the identity)")
        if full and not sodium.crypto_core_ed25519_is_valid_point(data):
            raise GameFileError(
                f"{what}: not a group element (off the curve, of small order or outside the "
                "prime-order subgroup)"
            )
        return data

    def scalar_bytes(self, value: int) -> bytes:
        return value.to_bytes(POINT_SIZE, "little")

    def scalar_from_bytes(self, data: bytes) -> int:
        return int.from_bytes(data, "little")

    def hash_to_element(self, domain: str, *parts: bytes) -> Element:
        """Elligator 2 of a 256-bit hash, times the cofactor (``crypto_core_ed25519_from_uniform``).

        The loop guards against the identity, which a hash never hits in practice.
        """
        counter = 0
        while True:
            material = pae(ELEMENT_DOMAIN, domain.encode("ascii"), str(counter).encode("ascii"), *parts)
            uniform = hashlib.shake_256(material).digest(POINT_SIZE)
            point = bytes(sodium.crypto_core_ed25519_from_uniform(uniform))
            if point != IDENTITY and sodium.crypto_core_ed25519_is_valid_point(point):
                return point
            counter += 1


EDWARDS25519 = Edwards25519()
