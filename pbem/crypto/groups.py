"""The groups a game's hidden decks can live in, behind one interface.

A game names its group in its genesis entry (``group``); the ElGamal cards, keys, Schnorr and
Chaum-Pedersen proofs and the proof of shuffle are written once against :class:`Group`:

* ``edwards25519``: the prime-order subgroup of the Edwards curve behind Ed25519, through
  libsodium (:mod:`pbem.crypto.curve`). What new games use: a scalar multiplication costs about a
  twentieth of a 2048-bit exponentiation and an element is 32 bytes instead of 256.
* ``modp-2048``: the quadratic residues mod the 2048-bit safe prime of RFC 3526
  (:mod:`pbem.crypto.group`). Games made before the curve name no group and are read in it, so
  every file made then verifies as it did, byte for byte.

Elements are opaque values of the group that made them (an ``int`` mod p, or a point's 32-byte
encoding); scalars are ``int`` in ``[0, order)`` in both. The group is passed down from the
genesis as a value: nothing here switches a process-wide setting.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence

from pbem.crypto import group as modp
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

Element = int | bytes

CHALLENGE_SIZE = 32  # Fiat-Shamir challenges are SHA-256 outputs in both groups


class Group(ABC):
    """A cyclic group of prime order in which DDH is believed hard, with its file encodings."""

    name: str  # as the genesis names it
    order: int  # the prime order of the group (``q`` or ``l``)
    element_size: int  # bytes of an element's encoding
    scalar_size: int  # bytes of a scalar's encoding
    wide_size: int  # bytes of hash reduced mod the order, so the result is statistically uniform
    identity: Element
    generator: Element
    # A compact group's entries pack each list of elements or scalars into one text, give one
    # proof for all the shares an entry carries and prove a returned card's re-mask in short form
    # (docs/game-file.md, "Compact entries"); the old group keeps the form its files were made in.
    compact: bool = False
    # Raising an element to a power refuses a value that is not one (``decode_lazily``).
    checks_on_power: bool = False

    # A group is a constant: a copy of a game's state keeps the very same group, so the copy
    # compares equal to the original and shares the group's caches.
    def __copy__(self) -> Group:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Group:
        return self

    # --- arithmetic ---------------------------------------------------------------------------
    @abstractmethod
    def multiply(self, left: Element, right: Element) -> Element:
        """The group operation (a product mod p, a sum of points)."""

    @abstractmethod
    def divide(self, left: Element, right: Element) -> Element:
        """``left`` times the inverse of ``right``."""

    @abstractmethod
    def power(self, base: Element, exponent: int) -> Element:
        """``base`` raised to ``exponent`` (any non-negative integer; taken mod the order)."""

    @abstractmethod
    def base_power(self, exponent: int) -> Element:
        """The generator raised to ``exponent``."""

    def fixed_base(self, base: Element) -> Callable[[int], Element]:
        """Powers of a base raised many times (a joint key); a group may keep a table for it."""
        return lambda exponent: self.power(base, exponent)

    def multi_power(self, bases: Sequence[Element], exponents: Sequence[int]) -> Element:
        """``prod(base_i ^ exponent_i)``."""
        if len(bases) != len(exponents):
            raise ValueError("as many exponents as bases")
        result = self.identity
        for base, exponent in zip(bases, exponents, strict=True):
            result = self.multiply(result, self.power(base, exponent))
        return result

    def product(self, values: Iterable[Element]) -> Element:
        result = self.identity
        for value in values:
            result = self.multiply(result, value)
        return result

    # --- membership and encodings -------------------------------------------------------------
    @abstractmethod
    def is_element(self, value: Element) -> bool:
        """True for a non-identity element of the prime-order group, in canonical form."""

    @abstractmethod
    def encode(self, value: Element) -> bytes:
        """The element's fixed-size encoding (what files carry, in base64, and hashes cover)."""

    @abstractmethod
    def decode(self, data: bytes, what: str) -> Element:
        """The element ``data`` encodes; GameFileError naming ``what`` unless it is a canonical,
        non-identity element of the prime-order group."""

    def decode_lazily(self, data: bytes, what: str) -> Element:
        """``decode``, but a group may leave its costliest check to the first multiplication, which
        then refuses the element (``UncheckedPoint``). Only for an element every check that uses
        it raises to a power; ``checked_points`` names the bad one when that power fails."""
        return self.decode(data, what)

    @abstractmethod
    def scalar_bytes(self, value: int) -> bytes:
        """A scalar's fixed-size encoding."""

    @abstractmethod
    def scalar_from_bytes(self, data: bytes) -> int:
        """The integer a scalar's encoding holds (not reduced)."""

    def domain(self, base: str) -> str:
        """The domain-separation string of ``base`` in this group: each group has its own, so no
        hash, proof or card of one group is ever taken for one of another."""
        return base

    # --- hashing ------------------------------------------------------------------------------
    @abstractmethod
    def hash_to_element(self, domain: str, *parts: bytes) -> Element:
        """A non-identity element nobody knows the discrete logarithm of."""

    def hash_to_scalar(self, domain: str, *parts: bytes) -> int:
        """A uniform scalar in ``[1, order-1]`` from a wide hash (bias below 2^-128)."""
        material = pae(self.domain(modp.SCALAR_DOMAIN), domain.encode("ascii"), *parts)
        return self.scalar_from_wide(hashlib.shake_256(material).digest(self.wide_size))

    def scalar_from_wide(self, wide: bytes) -> int:
        """``wide`` (``wide_size`` bytes) reduced to a scalar in ``[1, order-1]``."""
        return int.from_bytes(wide, "big") % (self.order - 1) + 1

    def challenge(self, domain: str, *parts: bytes) -> int:
        """A Fiat-Shamir challenge: SHA-256 of the domain-separated statement, as an integer."""
        return int.from_bytes(hashlib.sha256(pae(self.domain(domain), *parts)).digest(), "big")

    # --- text forms ---------------------------------------------------------------------------
    def element_text(self, value: Element) -> str:
        return b64(self.encode(value))

    def parse_element(self, text: object, what: str) -> Element:
        return self.decode(_decode(text, self.element_size, what), what)

    def scalar_text(self, value: int) -> str:
        return b64(self.scalar_bytes(value))

    def elements_text(self, values: Sequence[Element]) -> str | list[str]:
        """A list of elements as entry text: one text for them all in a compact group."""
        if self.compact:
            return b64(b"".join(self.encode(value) for value in values))
        return [self.element_text(value) for value in values]

    def parse_elements(self, text: object, what: str, *, lazily: bool = False) -> list[Element]:
        decode = self.decode_lazily if lazily else self.decode
        return [
            decode(data, f"{what}[{index}]")
            for index, data in enumerate(self._pieces(text, self.element_size, what))
        ]

    def scalars_text(self, values: Sequence[int]) -> str | list[str]:
        if self.compact:
            return b64(b"".join(self.scalar_bytes(value) for value in values))
        return [self.scalar_text(value) for value in values]

    def parse_scalars(self, text: object, what: str) -> list[int]:
        found = []
        for index, data in enumerate(self._pieces(text, self.scalar_size, what)):
            value = self.scalar_from_bytes(data)
            if value >= self.order:
                raise GameFileError(f"{what}[{index}]: not a scalar (not below the group order)")
            found.append(value)
        return found

    def _pieces(self, text: object, size: int, what: str) -> list[bytes]:
        """The fixed-size encodings a list holds: one packed text, or a list of texts."""
        if not self.compact:
            if not isinstance(text, list):
                raise GameFileError(f"{what}: expected a list")
            return [_decode(item, size, f"{what}[{index}]") for index, item in enumerate(text)]
        return unpacked(text, size, what)

    def parse_scalar(self, text: object, what: str) -> int:
        value = self.scalar_from_bytes(_decode(text, self.scalar_size, what))
        if value >= self.order:
            raise GameFileError(f"{what}: not a scalar (not below the group order)")
        return value


def challenge_text(value: int) -> str:
    return b64(value.to_bytes(CHALLENGE_SIZE, "big"))


def parse_challenge(text: object, what: str) -> int:
    return int.from_bytes(_decode(text, CHALLENGE_SIZE, what), "big")


def unpacked(text: object, size: int, what: str, unit: str = "") -> list[bytes]:
    """The ``size``-byte values one packed text holds (a compact group's lists), ``unit`` naming
    them in errors."""
    if not isinstance(text, str):
        raise GameFileError(f"{what}: expected one text packing the {unit or 'values'}")
    try:
        data = unb64(text)
    except ValueError as exc:
        raise GameFileError(f"{what}: {exc}") from None
    if len(data) % size:
        raise GameFileError(
            f"{what}: {len(data)} bytes is not a whole number of {unit or f'{size}-byte values'}"
        )
    return [data[start : start + size] for start in range(0, len(data), size)]


def _decode(text: object, size: int, what: str) -> bytes:
    if not isinstance(text, str):
        raise GameFileError(f"{what}: expected text, found {type(text).__name__}")
    try:
        return unb64(text, size)
    except ValueError as exc:
        raise GameFileError(f"{what}: {exc}") from None


def _number(value: Element) -> int:
    if not isinstance(value, int):
        raise TypeError("an element of the 2048-bit group is an integer")
    return value


class ModpGroup(Group):
    """The order-q subgroup mod the RFC 3526 2048-bit safe prime: the reader of older games.

    Its hashes, domain strings and encodings are exactly what games made before the curve used.
    """

    name = "modp-2048"
    order = modp.Q
    element_size = modp.ELEMENT_SIZE
    scalar_size = modp.ELEMENT_SIZE
    wide_size = modp.WIDE_SIZE
    identity: Element = 1
    generator: Element = modp.G

    def multiply(self, left: Element, right: Element) -> Element:
        return _number(left) * _number(right) % modp.P

    def divide(self, left: Element, right: Element) -> Element:
        return _number(left) * modp.inverse(_number(right)) % modp.P

    def power(self, base: Element, exponent: int) -> Element:
        return modp.power(_number(base), exponent)

    def base_power(self, exponent: int) -> Element:
        return modp.GENERATOR(exponent)

    def fixed_base(self, base: Element) -> Callable[[int], Element]:
        return modp.fixed_base(_number(base))

    def multi_power(self, bases: Sequence[Element], exponents: Sequence[int]) -> Element:
        return modp.multi_power([_number(base) for base in bases], exponents)

    def is_element(self, value: Element) -> bool:
        return isinstance(value, int) and modp.is_element(value)

    def encode(self, value: Element) -> bytes:
        return modp.element_bytes(_number(value))

    def decode(self, data: bytes, what: str) -> Element:
        return modp.parse_element(b64(data), what)

    def scalar_bytes(self, value: int) -> bytes:
        return value.to_bytes(self.scalar_size, "big")

    def scalar_from_bytes(self, data: bytes) -> int:
        return int.from_bytes(data, "big")

    def hash_to_element(self, domain: str, *parts: bytes) -> Element:
        return modp.hash_to_element(domain, *parts)

    def hash_to_scalar(self, domain: str, *parts: bytes) -> int:
        return modp.hash_to_scalar(domain, *parts)


MODP_2048 = ModpGroup()
