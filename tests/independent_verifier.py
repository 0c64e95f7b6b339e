"""A second verifier of pbem game files, written from docs/game-file.md alone.

It shares no code with pbem and imports none of it: only the standard library, ``tomllib``,
``cryptography`` (for Ed25519 signatures), PyNaCl's bindings of libsodium (for the edwards25519
group of newer games' hidden decks), and gmpy2 if it is installed, for speed. It checks what the
document specifies: every signature, the steps and the hash chain, the game id, the header and
roster copies, the component hash, every randomness link, every address a seat's mail goes to,
every reveal against its commitment, every handover of a seat to another player's key (the new
key's self-signature, and that it holds no seat), and every hidden-deck proof (deck keys,
shuffles and reshuffles, decryption shares, cards shown face up, cards dealt face up, cards put
under the deck), and in a game with escrow of the deck secrets every escrow value: the receiving keys'
proofs, each dealing against its seat's deck key, each sealed share's proof of knowledge of its
ephemeral point (with escrow_sealing = "proven"), each complaint's proof and the verdict it
gives (the game stops there), each table of partial decryptions against its holder's public
value, and the share K partials combine into, which then opens its card like any other share;
with a referee (escrow = "referee"), the genesis's ``referee`` table and its self-signature, and
the referee's entries (its receiving key first, then its answers); and a silent seat handed on by
consent: the proposal, the consents, the new player's ``rejoin`` and the shares sealed to it, and
its complaint; before the first card, a seat handed on anew (the new player's own deck key, the
decks and the escrow set up again under it) and a seat gone on without (the ``drop``, the
consents, the decks and escrow of the seats left, the header and roster after it), a seat that
never joined past the deadline to join. It does not replay the game's rules: whose turn it was,
what a move may be, which slot a draw took, which shares were owed, when a deck was to be
reshuffled and when a seat was past its deadline are the rules' to say. So a timeout against a
seat's share unlocks here the shares the file shows it owes (the one named, and each slot the
file shows drawn, whose share it has not given: a slot another seat has given a share of, or one
above such a slot in the pile, since a draw takes the top card), which cannot tell its own card
from one dealt face up.

A seat with ``retire_after`` timeouts claimed against it (option ``retire_after``; absent,
0: never), or with ``timeouts = "absent"`` a seat a timeout made absent (until it signs an entry
again, or is handed on; a claim against it then counts towards ``retire_after`` only if it was
neither absent nor retired), is played by pbem without further timeouts, so in a game with
escrow this verifier follows it from the entry after the one that made it so: each shuffle or
reshuffle that falls to it is skipped once every dealing is acknowledged, and a table of partial
decryptions for it is taken for any slot it could owe a share of, as far as the file can tell: a
slot of a deck every seat has shuffled (or not in the reshuffle under way), not open, whose
current ciphertext it has given no share of. Which timeouts the rules accepted, and which slots
were drawn, are again the rules' to say: this takes every timeout it does not refuse itself, and
cannot tell a slot still in the deck (or the seat's own card) from one it owes a share of.

A shuffle in edwards25519 carries either proof of shuffle: the linear one of Terelius and Wikstrom
or, in newer games, the argument of Bayer and Groth (EUROCRYPT 2012, in the form of Swiss Post's
crypto-primitives specification), whose sub-arguments this verifier checks one equation at a
time; the 2048-bit group's shuffles carry the linear proof only.

Usage: python tests/independent_verifier.py GAME.toml [--cards DECK=CARD,CARD,...]

A deck's cards come from the rules; for Princes of the Renaissance, Princes of Florence and Il
Principe the document says how to read them from the file's own component data, and ``--cards``
gives them for any other game (or instead of those).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import importlib
import json
import re
import sys
import time
import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl import bindings as sodium

# --- the 2048-bit group (game-file.md, "The groups") ------------------------------------------
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
Q = (P - 1) // 2
G = 2
ELEMENT = 256  # bytes of an element, a scalar, and each half of a ciphertext
CHALLENGE = 32
WIDE = 272

# --- the groups (game-file.md, "The groups") ----------------------------------------------------
Elem = Any  # an element of the game's group: a number mod p, or a point's 32 bytes


class Bad(Exception):
    """One problem with a file, in this verifier's words."""


def pae(domain: str, *parts: bytes) -> bytes:
    out = [domain.encode("ascii")]
    for part in parts:
        out += [str(len(part)).encode("ascii"), part]
    return b" ".join(out)


def text(value: str) -> bytes:
    return value.encode("utf-8")


def unb64(value: object, size: int, what: str) -> bytes:
    if not isinstance(value, str):
        raise Bad(f"{what} is not text")
    try:
        raw = base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise Bad(f"{what} is not base64") from None
    if len(raw) != size or base64.b64encode(raw).decode("ascii") != value:
        raise Bad(f"{what} is not the canonical base64 of {size} bytes")
    return raw


try:  # optional: the same numbers, in GMP
    gmpy2 = importlib.import_module("gmpy2")

    def lift(value: int) -> int:
        return gmpy2.mpz(value)  # type: ignore[no-any-return]

    def in_subgroup(value: int) -> bool:
        return bool(gmpy2.legendre(value, P) == 1)
except ImportError:

    def lift(value: int) -> int:
        return value

    def in_subgroup(value: int) -> bool:
        """The Legendre symbol (value | p) is 1: the same test as value^q = 1, by the Jacobi
        symbol's reciprocity steps, many times faster than the power."""
        a, n, sign = value % P, P, 1
        while a:
            while a % 2 == 0:
                a //= 2
                if n % 8 in (3, 5):
                    sign = -sign
            a, n = n, a
            if a % 4 == 3 and n % 4 == 3:
                sign = -sign
            a %= n
        return n == 1 and sign == 1


class Modp:
    """The 2048-bit group: games whose genesis names no group."""

    name = "modp-2048"
    order = Q
    size = ELEMENT  # bytes of an element and of a scalar
    identity: Elem = 1
    g: Elem = G

    def domain(self, domain: str) -> str:
        return domain

    def mul(self, a: Elem, b: Elem) -> Elem:
        return a * b % P

    def inv(self, a: Elem) -> Elem:
        return pow(a, -1, P)

    def power(self, base: Elem, exponent: int) -> Elem:
        return int(pow(lift(base), exponent, P))

    def weighted(self, bases: Sequence[Elem], exponents: Sequence[int]) -> Elem:
        """``b_0^e_0 · b_1^e_1 · …`` mod p, sharing one chain of squarings between the bases
        (Straus, four bits at a time): the proof of shuffle's products cost little more than one
        power."""
        tables = []
        for base in bases:
            row = [1, lift(base)]
            for _ in range(14):
                row.append(row[-1] * row[1] % P)
            tables.append(row)
        width = max((exponent.bit_length() for exponent in exponents), default=0)
        result = lift(1)
        for shift in range((width + 3) // 4 * 4 - 4, -4, -4):
            if result != 1:
                result = pow(result, 16, P)
            for row, exponent in zip(tables, exponents, strict=True):
                digit = (exponent >> shift) & 15
                if digit:
                    result = result * row[digit] % P
        return int(result)

    def eb(self, value: Elem) -> bytes:
        """An element as the 256 bytes, big-endian, that are hashed and written."""
        return int(value).to_bytes(ELEMENT, "big")

    def element_of(self, raw: bytes, what: str) -> Elem:
        number = int.from_bytes(raw, "big")
        if not (1 < number < P and in_subgroup(number)):
            raise Bad(f"{what} is not an element of the group")
        return number

    def scalar_of(self, raw: bytes) -> int:
        return int.from_bytes(raw, "big")

    def sb(self, value: int) -> bytes:
        """A scalar as the bytes that are hashed and written."""
        return value.to_bytes(ELEMENT, "big")

    def hash_to_element(self, domain: str, *parts: bytes) -> Elem:
        counter = 0
        while True:
            material = pae(
                "pbem/hidden-deck/hash-to-group/v1", domain.encode("ascii"), str(counter).encode(), *parts
            )
            wide = int.from_bytes(hashlib.shake_256(material).digest(WIDE), "big") % P
            element = wide * wide % P
            if element > 1:
                return element
            counter += 1


class Curve:
    """The prime-order subgroup of edwards25519, through libsodium (PyNaCl's bindings)."""

    name = "edwards25519"
    order = 2**252 + 27742317777372353535851937790883648493
    size = 32
    identity: Elem = bytes([1]) + bytes(31)

    def __init__(self) -> None:
        self.g: Elem = sodium.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))

    def domain(self, domain: str) -> str:
        return "pbem/edwards25519/" + domain.removeprefix("pbem/")

    def mul(self, a: Elem, b: Elem) -> Elem:
        return sodium.crypto_core_ed25519_add(a, b)

    def inv(self, a: Elem) -> Elem:
        return sodium.crypto_core_ed25519_sub(self.identity, a)

    def power(self, base: Elem, exponent: int) -> Elem:
        exponent %= self.order
        if exponent == 0 or base == self.identity:
            return self.identity
        return sodium.crypto_scalarmult_ed25519_noclamp(exponent.to_bytes(32, "little"), base)

    def weighted(self, bases: Sequence[Elem], exponents: Sequence[int]) -> Elem:
        result = self.identity
        for base, exponent in zip(bases, exponents, strict=True):
            result = self.mul(result, self.power(base, exponent))
        return result

    def eb(self, value: Elem) -> bytes:
        return bytes(value)

    def element_of(self, raw: bytes, what: str) -> Elem:
        if not sodium.crypto_core_ed25519_is_valid_point(raw):
            raise Bad(f"{what} is not a point of the prime-order subgroup")
        return raw

    def scalar_of(self, raw: bytes) -> int:
        return int.from_bytes(raw, "little")

    def sb(self, value: int) -> bytes:
        return value.to_bytes(32, "little")

    def hash_to_element(self, domain: str, *parts: bytes) -> Elem:
        counter = 0
        while True:
            material = pae(
                "pbem/edwards25519/hidden-deck/hash-to-group/v1",
                domain.encode("ascii"),
                str(counter).encode(),
                *parts,
            )
            point = sodium.crypto_core_ed25519_from_uniform(hashlib.shake_256(material).digest(32))
            if sodium.crypto_core_ed25519_is_valid_point(point):
                return point
            counter += 1


Group = Modp | Curve
GROUPS: dict[object, Group] = {None: Modp(), "modp-2048": Modp(), "edwards25519": Curve()}


def over(grp: Group, value: Elem, exponent: int) -> Elem:
    """``value^-exponent``."""
    return grp.inv(grp.power(value, exponent))


def challenge(grp: Group, domain: str, *parts: bytes) -> int:
    return int.from_bytes(hashlib.sha256(pae(grp.domain(domain), *parts)).digest(), "big")


_CARDS: dict[tuple[str, int], Elem] = {}


def card(grp: Group, index: int) -> Elem:
    if (grp.name, index) not in _CARDS:
        _CARDS[grp.name, index] = grp.hash_to_element("pbem/hidden-deck/card/v1", str(index).encode())
    return _CARDS[grp.name, index]


_GENERATORS: dict[tuple[str, int], Elem] = {}


def generator(grp: Group, index: int) -> Elem:
    if (grp.name, index) not in _GENERATORS:
        _GENERATORS[grp.name, index] = grp.hash_to_element(
            "pbem/hidden-deck/shuffle-generators/v1", str(index).encode()
        )
    return _GENERATORS[grp.name, index]


# --- values in text ---------------------------------------------------------------------------
def unhex(value: object, size: int, what: str) -> bytes:
    if not isinstance(value, str) or not re.fullmatch(f"[0-9a-f]{{{2 * size}}}", value):
        raise Bad(f"{what} is not {2 * size} lower-case hex digits")
    return bytes.fromhex(value)


def element(grp: Group, value: object, what: str) -> Elem:
    return grp.element_of(unb64(value, grp.size, what), what)


def scalar(grp: Group, value: object, what: str) -> int:
    number = grp.scalar_of(unb64(value, grp.size, what))
    if number >= grp.order:
        raise Bad(f"{what} is not below the group's order")
    return number


@dataclass(frozen=True)
class Ciphertext:
    c1: Elem
    c2: Elem


def ct_bytes(grp: Group, ct: Ciphertext) -> bytes:
    return grp.eb(ct.c1) + grp.eb(ct.c2)


def ciphertext(grp: Group, value: object, what: str) -> Ciphertext:
    raw = unb64(value, 2 * grp.size, what)
    return Ciphertext(grp.element_of(raw[: grp.size], what), grp.element_of(raw[grp.size :], what))


def short_proof(grp: Group, value: object, what: str) -> tuple[int, int]:
    """A Schnorr or Chaum-Pedersen proof: its challenge and its response."""
    raw = unb64(value, CHALLENGE + grp.size, what)
    response = grp.scalar_of(raw[CHALLENGE:])
    if response >= grp.order:
        raise Bad(f"{what}: the response is not below the group's order")
    return int.from_bytes(raw[:CHALLENGE], "big"), response


# --- the proofs (game-file.md, "Hidden decks: the computations") ------------------------------
def key_proof_holds(
    grp: Group, h: Elem, proof: tuple[int, int], game_id: str, seat: str, context: str = ""
) -> bool:
    """The Schnorr proof of a deck key (empty context) or of an escrow receiving key (``escrow``)."""
    c, s = proof
    t = grp.mul(grp.power(grp.g, s), over(grp, h, c))
    statement = (text(game_id), text(seat), text(context), grp.eb(h), grp.eb(t))
    return challenge(grp, "pbem/hidden-deck/key-proof/v1", *statement) == c


def share_proof_holds(
    grp: Group,
    h: Elem,
    ct: Ciphertext,
    d: Elem,
    proof: tuple[int, int],
    game_id: str,
    deck: str,
    slot: int,
    seat: str,
) -> bool:
    c, s = proof
    t1 = grp.mul(grp.power(grp.g, s), over(grp, h, c))
    t2 = grp.mul(grp.power(ct.c1, s), over(grp, d, c))
    eb = grp.eb
    parts = (text(game_id), text(deck), str(slot).encode(), text(seat), eb(h), eb(ct.c1), eb(ct.c2), eb(d))
    return challenge(grp, "pbem/hidden-deck/share-proof/v1", *parts, eb(t1), eb(t2)) == c


def shares_proof_holds(
    grp: Group,
    h: Elem,
    places: Sequence[tuple[str, int, Ciphertext]],
    values: Sequence[Elem],
    proof: tuple[int, int],
    game_id: str,
    seat: str,
) -> bool:
    """One Chaum-Pedersen proof for several shares, over sums weighted by the statement's hash."""
    eb = grp.eb
    parts = [text(game_id), text(seat), eb(h)]
    for (deck, slot, ct), d in zip(places, values, strict=True):
        parts += [text(deck), str(slot).encode(), eb(ct.c1), eb(ct.c2), eb(d)]
    statement = hashlib.sha256(pae(grp.domain("pbem/hidden-deck/shares-proof/v1"), *parts)).digest()
    weights = [
        challenge(grp, "pbem/hidden-deck/shares-weight/v1", statement, str(i).encode())
        for i in range(len(values))
    ]
    c1s = grp.weighted([ct.c1 for _, _, ct in places], weights)
    ds = grp.weighted(list(values), weights)
    c, s = proof
    t1 = grp.mul(grp.power(grp.g, s), over(grp, h, c))
    t2 = grp.mul(grp.power(c1s, s), over(grp, ds, c))
    return challenge(grp, "pbem/hidden-deck/shares-proof/v1", statement, eb(t1), eb(t2)) == c


def remask_proof_holds(
    grp: Group,
    joint: Elem,
    before: Ciphertext,
    after: Ciphertext,
    proof: tuple[int, int],
    game_id: str,
    deck: str,
    slot: int,
    seat: str,
) -> bool:
    eb = grp.eb
    statement = hashlib.sha256(
        pae(
            grp.domain("pbem/hidden-deck/remask-proof/v1"),
            text(game_id),
            text(deck),
            str(slot).encode(),
            text(seat),
            eb(joint),
            eb(before.c1),
            eb(before.c2),
            eb(after.c1),
            eb(after.c2),
        )
    ).digest()
    c, s = proof
    t1 = grp.mul(grp.power(grp.g, s), over(grp, grp.mul(after.c1, grp.inv(before.c1)), c))
    t2 = grp.mul(grp.power(joint, s), over(grp, grp.mul(after.c2, grp.inv(before.c2)), c))
    return challenge(grp, "pbem/hidden-deck/remask-proof/v1", statement, eb(t1), eb(t2)) == c


# --- the escrow of the deck secrets (game-file.md, "The escrow: the computations") ------------
def hash_to_scalar(grp: Group, domain: str, *parts: bytes) -> int:
    """A scalar from 1 to q - 1: SHAKE-256 of the parts under the group's own hash-to-scalar domain,
    read big-endian and reduced as ``w mod (q - 1) + 1``."""
    wide = WIDE if isinstance(grp, Modp) else 64
    material = pae(grp.domain("pbem/hidden-deck/hash-to-scalar/v1"), domain.encode("ascii"), *parts)
    return int.from_bytes(hashlib.shake_256(material).digest(wide), "big") % (grp.order - 1) + 1


def holder_value(grp: Group, commitments: Sequence[Elem], index: int) -> Elem:
    """``g^{f(i)} = C_0 · C_1^i · … · C_{K-1}^{i^(K-1)}``: holder ``i``'s public value."""
    return grp.weighted(list(commitments), [index**degree for degree in range(len(commitments))])


def complaint_proof_holds(
    grp: Group,
    receiving: Elem,
    ephemeral: Elem,
    masked: int,
    opened: Elem,
    commitments: Sequence[Elem],
    proof: tuple[int, int],
    game_id: str,
    dealer: str,
    holder: str,
    index: int,
) -> bool:
    """``log_g Y = log_R opened``: the complaint opens the very share sealed to the holder."""
    eb = grp.eb
    c, s = proof
    t1 = grp.mul(grp.power(grp.g, s), over(grp, receiving, c))
    t2 = grp.mul(grp.power(ephemeral, s), over(grp, opened, c))
    parts = (
        text(game_id),
        text(dealer),
        text(holder),
        str(index).encode(),
        *(eb(value) for value in commitments),
        eb(receiving),
        eb(ephemeral),
        grp.sb(masked),
        eb(opened),
    )
    return challenge(grp, "pbem/escrow/complaint-proof/v1", *parts, eb(t1), eb(t2)) == c


def ephemeral_proof_holds(
    grp: Group, r_point: Elem, proof: tuple[int, int], game_id: str, kind: str, dealer: str, holder: str,
    index: int, y: Elem,
) -> bool:  # fmt: skip
    """The Schnorr proof that whoever sealed a share knows the logarithm of its ephemeral point
    ``R``, for this sealing alone (``kind`` "dealing" or "reshare", the dealer, the holder, its
    index, the receiving key): a complaint's ``R^y`` then opens no other share."""
    c, s = proof
    t = grp.mul(grp.power(grp.g, s), over(grp, r_point, c))
    statement = (
        text(game_id), text(kind), text(dealer), text(holder), str(index).encode(), grp.eb(y),
        grp.eb(r_point), grp.eb(t),
    )  # fmt: skip
    return challenge(grp, "pbem/escrow/ephemeral-proof/v1", *statement) == c


def unsealed(
    grp: Group,
    receiving: Elem,
    ephemeral: Elem,
    masked: int,
    opened: Elem,
    game_id: str,
    dealer: str,
    holder: str,
    index: int,
) -> int:
    """The share sealed to a holder, given ``opened = R^y``: the masked scalar less the mask."""
    named = (f"dealer={dealer}", f"game={game_id}", f"holder={holder}", f"index={index}")
    mask = hash_to_scalar(
        grp,
        grp.domain("pbem/escrow/seal-mask/v1"),
        *map(text, named),
        grp.eb(receiving),
        grp.eb(ephemeral),
        grp.eb(opened),
    )
    return (masked - mask) % grp.order


def partials_proof_holds(
    grp: Group,
    commitments: Sequence[Elem],
    index: int,
    places: Sequence[tuple[str, int, Ciphertext]],
    values: Sequence[Elem],
    proof: tuple[int, int],
    game_id: str,
    dealer: str,
    holder: str,
) -> bool:
    """One Chaum-Pedersen proof that every partial is ``c1^{f(i)}`` of its place, against the
    holder's public value ``g^{f(i)}`` computed from the dealing's commitments."""
    eb = grp.eb
    key = holder_value(grp, commitments, index)
    parts = [text(game_id), text(dealer), text(holder), str(index).encode(), eb(commitments[0]), eb(key)]
    for (deck, slot, ct), p in zip(places, values, strict=True):
        parts += [text(deck), str(slot).encode(), eb(ct.c1), eb(p)]
    statement = hashlib.sha256(pae(grp.domain("pbem/escrow/partials-proof/v1"), *parts)).digest()
    weights = [
        challenge(grp, "pbem/escrow/partials-weight/v1", statement, str(i).encode())
        for i in range(len(values))
    ]
    c1s = grp.weighted([ct.c1 for _, _, ct in places], weights)
    ps = grp.weighted(list(values), weights)
    c, s = proof
    t1 = grp.mul(grp.power(grp.g, s), over(grp, key, c))
    t2 = grp.mul(grp.power(c1s, s), over(grp, ps, c))
    return challenge(grp, "pbem/escrow/partials-proof/v1", statement, eb(t1), eb(t2)) == c


def lagrange_combined(grp: Group, partials: Mapping[int, Elem]) -> Elem:
    """``c1^x`` from the partials ``c1^{f(i)}`` of holders ``i``: Lagrange at 0 in the exponent,
    ``λ_i = ∏_{j≠i} j / (j − i)`` mod q."""
    q = grp.order
    indices = sorted(partials)
    weights = []
    for i in indices:
        numerator = denominator = 1
        for j in indices:
            if j != i:
                numerator = numerator * j % q
                denominator = denominator * (j - i) % q
        weights.append(numerator * pow(denominator, -1, q) % q)
    return grp.weighted([partials[i] for i in indices], weights)


@dataclass(frozen=True)
class ShuffleProof:
    commitments: list[Elem]
    chain: list[Elem]
    c: int
    s: list[int]  # s1..s4
    chain_responses: list[int]
    card_responses: list[int]


def pieces(grp: Group, value: object, size: int, what: str) -> list[bytes]:
    """A list of fixed-size values: an array of base64 texts (2048-bit group), or one base64 text
    of them all, concatenated (edwards25519)."""
    if isinstance(grp, Modp):
        if not isinstance(value, list):
            raise Bad(f"{what} is not an array")
        return [unb64(item, size, f"{what}[{i}]") for i, item in enumerate(value)]
    if not isinstance(value, str):
        raise Bad(f"{what} is not text")
    try:
        raw = base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise Bad(f"{what} is not base64") from None
    if base64.b64encode(raw).decode("ascii") != value or len(raw) % size:
        raise Bad(f"{what} is not the canonical base64 of {size}-byte values")
    return [raw[i : i + size] for i in range(0, len(raw), size)]


def elements_of(grp: Group, value: object, what: str) -> list[Elem]:
    return [grp.element_of(raw, f"{what}[{i}]") for i, raw in enumerate(pieces(grp, value, grp.size, what))]


def ciphertexts_of(grp: Group, value: object, what: str) -> list[Ciphertext]:
    if isinstance(grp, Modp):
        if not isinstance(value, list):
            raise Bad(f"{what} is not an array")
        return [ciphertext(grp, item, f"{what}[{i}]") for i, item in enumerate(value)]
    points = elements_of(grp, value, what)
    if len(points) % 2:
        raise Bad(f"{what} does not hold whole ciphertexts")
    return [Ciphertext(points[i], points[i + 1]) for i in range(0, len(points), 2)]


def shuffle_proof(grp: Group, item: Mapping[str, Any], where: str) -> ShuffleProof:
    def scalars(name: str) -> list[int]:
        found = [grp.scalar_of(raw) for raw in pieces(grp, item.get(name), grp.size, f"{where} {name}")]
        if any(number >= grp.order for number in found):
            raise Bad(f"{where} {name}: a value is not below the group's order")
        return found

    def elements(name: str) -> list[Elem]:
        return elements_of(grp, item.get(name), f"{where} {name}")

    responses = scalars("responses")
    if len(responses) != 4:
        raise Bad(f"{where}: responses holds {len(responses)} values, not 4")
    c = int.from_bytes(unb64(item.get("challenge"), CHALLENGE, f"{where} challenge"), "big")
    return ShuffleProof(
        elements("commitments"),
        elements("chain"),
        c,
        responses,
        scalars("chain_responses"),
        scalars("card_responses"),
    )


def shuffle_holds(
    grp: Group,
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint: Elem,
    proof: ShuffleProof,
    game_id: str,
    deck: str,
    seat: str,
) -> bool:
    n = len(before)
    lengths = (len(after), len(proof.commitments), len(proof.chain))
    if any(length != n for length in (*lengths, len(proof.chain_responses), len(proof.card_responses))):
        return False
    eb, mul, power, q = grp.eb, grp.mul, grp.power, grp.order
    statement = hashlib.sha256(
        pae(
            grp.domain("pbem/hidden-deck/shuffle-statement/v1"),
            text(game_id),
            text(deck),
            text(seat),
            eb(joint),
            b"".join(ct_bytes(grp, ct) for ct in before),
            b"".join(ct_bytes(grp, ct) for ct in after),
        )
    ).digest()
    commitments_hash = hashlib.sha256(b"".join(eb(value) for value in proof.commitments)).digest()
    u = [
        challenge(grp, "pbem/hidden-deck/shuffle-u/v1", statement, commitments_hash, str(i).encode())
        for i in range(n)
    ]
    h = [generator(grp, i) for i in range(n)]
    c = proof.c
    s1, s2, s3, s4 = proof.s
    s_hat, s_prime = proof.chain_responses, proof.card_responses

    product_c = product_h = grp.identity
    for commitment, hi in zip(proof.commitments, h, strict=True):
        product_c = mul(product_c, commitment)
        product_h = mul(product_h, hi)
    product_u = 1
    for value in u:
        product_u = product_u * value % q
    c_bar = mul(product_c, grp.inv(product_h))
    c_hat = mul(proof.chain[-1], grp.inv(power(generator(grp, -1), product_u)))

    weighted = grp.weighted
    c_tilde = weighted(proof.commitments, u)
    a1 = weighted([ct.c1 for ct in before], u)
    a2 = weighted([ct.c2 for ct in before], u)
    t1 = mul(over(grp, c_bar, c), power(grp.g, s1))
    t2 = mul(over(grp, c_hat, c), power(grp.g, s2))
    t3 = mul(over(grp, c_tilde, c), weighted([grp.g, *h], [s3, *s_prime]))
    minus_s4 = (q - s4) % q
    t4_second = mul(over(grp, a2, c), weighted([joint, *(ct.c2 for ct in after)], [minus_s4, *s_prime]))
    t4_first = mul(over(grp, a1, c), weighted([grp.g, *(ct.c1 for ct in after)], [minus_s4, *s_prime]))
    t_chain = []
    for i in range(n):
        previous = generator(grp, -1) if i == 0 else proof.chain[i - 1]
        t_chain.append(mul(over(grp, proof.chain[i], c), weighted([grp.g, previous], [s_hat[i], s_prime[i]])))
    expected = challenge(
        grp,
        "pbem/hidden-deck/shuffle-proof/v1",
        statement,
        b"".join(eb(value) for value in (*proof.commitments, *proof.chain)),
        b"".join(eb(value) for value in (t1, t2, t3, t4_second, t4_first, *t_chain)),
    )
    return expected == c


# --- the Bayer-Groth proof of shuffle (edwards25519) ------------------------------------------
# The deck is an m x n matrix, committed to column by column with Pedersen commitments over n
# generators hashed to the group; the proof holds a product argument (over a Hadamard and a zero
# argument when m > 1, then a single value product argument) and a multi-exponentiation
# argument, each checked here equation by equation.
BG_ELEMENT_FIELDS = (
    "commitments_a",
    "commitments_b",
    "product_commitment",
    "hadamard_commitments",
    "zero_commitments",
    "svp_commitments",
    "multi_exp_commitments",
)
BG_SCALAR_FIELDS = ("zero_responses", "svp_responses", "multi_exp_responses")
BG_FIELDS = (*BG_ELEMENT_FIELDS, "multi_exp_ciphertexts", *BG_SCALAR_FIELDS)
BG_MAX_CARDS = 0xFFFF


def bg_size(m: int, n: int) -> int:
    """How many values (elements and scalars) a proof for an m x n layout holds."""
    return 3 * n + 13 if m == 1 else 11 * m + 5 * n + 9


def bg_layout(cards: int) -> tuple[int, int]:
    """The smallest proof's m x n (m <= n, n >= 2, n = ceil(cards / m)), then the least padding,
    then the fewest rows."""
    candidates = []
    m = 1
    while m <= (n := max(2, -(-cards // m))):
        candidates.append(((bg_size(m, n), m * n - cards, m), (m, n)))
        m += 1
    return min(candidates)[1]


def bg_counts(m: int, n: int) -> dict[str, int]:
    """How many values each field holds for an m x n layout (a ciphertext counts as two)."""
    rows = m > 1
    return {
        "commitments_a": m,
        "commitments_b": m,
        "product_commitment": 1 if rows else 0,
        "hadamard_commitments": max(0, m - 2),
        "zero_commitments": 2 * m + 2 if rows else 0,
        "svp_commitments": 3,
        "multi_exp_commitments": 2 * m,
        "multi_exp_ciphertexts": 2 * (2 * m - 1),
        "zero_responses": 2 * n + 3 if rows else 0,
        "svp_responses": 2 * n,
        "multi_exp_responses": n + 4,
    }


def scalars_of(grp: Group, value: object, what: str) -> list[int]:
    found = [grp.scalar_of(raw) for raw in pieces(grp, value, grp.size, what)]
    for i, number in enumerate(found):
        if number >= grp.order:
            raise Bad(f"{what}[{i}] is not below the group's order")
    return found


@dataclass(frozen=True)
class BayerGroth:
    """A proof's values, by field name: points (the ciphertexts' halves in turn) and scalars."""

    points: dict[str, list[Elem]]
    scalars: dict[str, list[int]]


def bg_proof(grp: Group, fields: Mapping[str, Any], cards: int, where: str) -> BayerGroth:
    """The proof in a shuffle table's fields, each of the size the deck's layout gives it."""
    m, n = bg_layout(cards)
    points: dict[str, list[Elem]] = {}
    scalars: dict[str, list[int]] = {}
    for name, count in bg_counts(m, n).items():
        if name not in fields:
            raise Bad(f"{where}: the proof of shuffle has no {name}")
        what = f"{where} {name}"
        if name in BG_SCALAR_FIELDS:
            scalars[name] = scalars_of(grp, fields[name], what)
            found = len(scalars[name])
        else:
            points[name] = elements_of(grp, fields[name], what)
            found = len(points[name])
        if found != count:
            raise Bad(
                f"{what} holds {found} values, not the {count} of a {cards}-card deck's proof ({m} x {n})"
            )
    return BayerGroth(points, scalars)


_BG_GENERATORS: dict[tuple[str, int], Elem] = {}


def bg_generators(grp: Group, n: int) -> list[Elem]:
    """The commitment key: n elements hashed to the group (under the group's own domain string,
    inside the hash to the group's), with g for the randomness."""
    domain = grp.domain("pbem/hidden-deck/bg-generators/v1")
    for i in range(n):
        if (grp.name, i) not in _BG_GENERATORS:
            _BG_GENERATORS[grp.name, i] = grp.hash_to_element(domain, str(i).encode())
    return [_BG_GENERATORS[grp.name, i] for i in range(n)]


class Transcript:
    """The Fiat-Shamir transcript: a running SHA-256 over the layout and each field sent, every
    challenge a hash of the statement, its label and the transcript so far."""

    def __init__(self, grp: Group, statement: bytes, m: int, n: int) -> None:
        self.grp, self.statement = grp, statement
        self.running = hashlib.sha256(pae("dimensions", str(m).encode(), str(n).encode()))

    def points(self, name: str, values: Sequence[Elem]) -> None:
        self.running.update(pae(name, b"".join(self.grp.eb(value) for value in values)))

    def scalars(self, name: str, values: Sequence[int]) -> None:
        self.running.update(pae(name, b"".join(self.grp.sb(value) for value in values)))

    def challenge(self, label: str) -> int:
        so_far = self.running.copy().digest()
        parts = (self.statement, label.encode(), so_far)
        return challenge(self.grp, "pbem/hidden-deck/bg-challenge/v1", *parts) % self.grp.order


def powers(x: int, count: int, q: int) -> list[int]:
    out = [1]
    while len(out) < count:
        out.append(out[-1] * x % q)
    return out[:count]


@dataclass(frozen=True)
class Commit:
    """Pedersen commitments: g^r times the key's first elements to the values."""

    grp: Group
    key: list[Elem]

    def __call__(self, values: Sequence[int], r: int) -> Elem:
        return self.grp.weighted([self.grp.g, *self.key[: len(values)]], [r, *values])


def same_point(grp: Group, left: Elem, right: Elem) -> bool:
    return bool(grp.eb(left) == grp.eb(right))


def svp_holds(com: Commit, t: Transcript, proof: BayerGroth, c_a: Elem, product: int, n: int) -> bool:
    """The single value product argument: c_a opens to values whose product is ``product``."""
    grp, q = com.grp, com.grp.order
    c_d, c_low, c_high = proof.points["svp_commitments"]
    t.points("svp_commitments", proof.points["svp_commitments"])
    x = t.challenge("svp-x")
    answers = proof.scalars["svp_responses"]
    t.scalars("svp_responses", answers)
    a = answers[:n]
    b = [a[0], *answers[n : 2 * n - 2], x * product % q]
    r, s = answers[2 * n - 2], answers[2 * n - 1]
    e = [(x * b[k + 1] - b[k] * a[k + 1]) % q for k in range(n - 1)]
    openings = same_point(grp, grp.mul(grp.power(c_a, x), c_d), com(a, r))
    products = same_point(grp, grp.mul(grp.power(c_high, x), c_low), com(e, s))
    return openings and products


def zero_holds(
    com: Commit, t: Transcript, proof: BayerGroth, a_side: list[Elem], b_side: list[Elem], y: int, n: int
) -> bool:
    """The zero argument: sum_i a_i * b_(i-1) = 0 for the committed a_1..a_m, b_0..b_(m-1), where
    a * b = sum_j a_j b_j y^(j+1)."""
    grp, q, m = com.grp, com.grp.order, len(a_side)
    sent = proof.points["zero_commitments"]
    t.points("zero_commitments", sent)
    x = t.challenge("zero-x")
    answers = proof.scalars["zero_responses"]
    t.scalars("zero_responses", answers)
    a, b = answers[:n], answers[n : 2 * n]
    r, s, tt = answers[2 * n :]
    xp = powers(x, 2 * m + 1, q)
    a_all, b_all = [sent[0], *a_side], [*b_side, sent[1]]
    d_all = [*sent[2 : m + 3], grp.identity, *sent[m + 3 :]]  # d_(m+1), the sum, is 0
    a_b = sum(a[j] * b[j] * pow(y, j + 1, q) for j in range(n)) % q
    return (
        same_point(grp, grp.weighted(a_all, xp[: m + 1]), com(a, r))
        and same_point(grp, grp.weighted(b_all, xp[m::-1]), com(b, s))
        and same_point(grp, grp.weighted(d_all, xp), com([a_b], tt))
    )


def hadamard_holds(
    com: Commit, t: Transcript, proof: BayerGroth, columns: list[Elem], c_rows: Elem, n: int
) -> bool:
    """The Hadamard argument: c_rows opens to the entry-wise product of the columns, through
    partial products B_0 = column 0, .., B_(m-1) = c_rows, each the last times the next column."""
    grp, q, m = com.grp, com.grp.order, len(columns)
    middle = proof.points["hadamard_commitments"]
    t.points("hadamard_commitments", middle)
    x, y = t.challenge("hadamard-x"), t.challenge("hadamard-y")
    xp = powers(x, m, q)
    partial = [columns[0], *middle, c_rows]
    minus_one = com([q - 1] * n, 0)
    b_side = [grp.power(partial[i], xp[i + 1]) for i in range(m - 1)]
    b_side.append(grp.weighted(partial[1:], xp[1:m]))
    return zero_holds(com, t, proof, [*columns[1:], minus_one], b_side, y, n)


def multi_exp_holds(
    com: Commit,
    t: Transcript,
    proof: BayerGroth,
    statement: tuple[list[Elem], list[Ciphertext], list[Ciphertext], Elem, list[int]],
    n: int,
) -> bool:
    """The multi-exponentiation argument: prod before_i^(x^i) = Enc(1; rho) times the after deck's
    rows raised to the committed columns b."""
    grp, q = com.grp, com.grp.order
    columns, before, after, joint, x_powers = statement
    m = len(columns)
    sent, halves = proof.points["multi_exp_commitments"], proof.points["multi_exp_ciphertexts"]
    t.points("multi_exp_commitments", sent)
    t.points("multi_exp_ciphertexts", halves)
    x = t.challenge("multi-exp-x")
    answers = proof.scalars["multi_exp_responses"]
    t.scalars("multi_exp_responses", answers)
    a, (r, b, s, tau) = answers[:n], answers[n:]
    xp = powers(x, 2 * m, q)
    diagonal = [k for k in range(2 * m) if k != m]  # E_m is the deck's product itself, not sent
    if not same_point(grp, grp.mul(sent[0], grp.weighted(columns, xp[1 : m + 1])), com(a, r)):
        return False
    if not same_point(grp, grp.weighted(sent[1:], [xp[k] for k in diagonal]), com([b], s)):
        return False
    for half in (0, 1):
        e = halves[half::2]
        mine = [ct.c2 if half else ct.c1 for ct in before]
        theirs = [ct.c2 if half else ct.c1 for ct in after]
        left = grp.mul(
            grp.weighted(e, [xp[k] for k in diagonal]),
            grp.weighted(mine, [xp[m] * power % q for power in x_powers[: len(mine)]]),
        )
        weights = [xp[m - 1 - i] * a[j] % q for i in range(m) for j in range(n)][: len(theirs)]
        masked = grp.weighted([grp.g, joint], [b, tau]) if half else grp.power(grp.g, tau)
        if not same_point(grp, left, grp.mul(masked, grp.weighted(theirs, weights))):
            return False
    return True


def bg_shuffle_holds(
    grp: Group,
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint: Elem,
    fields: Mapping[str, Any],
    game_id: str,
    deck: str,
    seat: str,
    *,
    where: str | None = None,
) -> bool:
    """True if the Bayer-Groth proof in ``fields`` (a shuffle table's text) shows ``after`` is
    ``before`` permuted and re-masked under ``joint``; Bad if a field is malformed.

    The padding cards (the trivial ciphertext, m n - N of them on both sides) raise nothing, so
    they are left out of every product."""
    cards = len(before)
    if not 0 < cards <= BG_MAX_CARDS or len(after) != cards:
        return False
    proof = bg_proof(grp, fields, cards, where or f"shuffle of {deck} by {seat}")
    m, n = bg_layout(cards)
    q = grp.order
    statement = hashlib.sha256(
        pae(
            grp.domain("pbem/hidden-deck/bg-statement/v1"),
            text(game_id),
            text(deck),
            text(seat),
            grp.eb(joint),
            b"".join(ct_bytes(grp, ct) for ct in before),
            b"".join(ct_bytes(grp, ct) for ct in after),
        )
    ).digest()
    t = Transcript(grp, statement, m, n)
    com = Commit(grp, bg_generators(grp, n))
    c_a, c_b = proof.points["commitments_a"], proof.points["commitments_b"]
    t.points("commitments_a", c_a)
    x = t.challenge("x")
    t.points("commitments_b", c_b)
    y, z = t.challenge("y"), t.challenge("z")
    x_powers = powers(x, m * n, q)
    # the columns y a_i + b_i - z, whose entries' product is public when a is a permutation of
    # 0..mn-1 and b its powers of x
    minus_z = com([q - z] * n, 0)
    columns = [grp.mul(grp.mul(grp.power(c_a[i], y), c_b[i]), minus_z) for i in range(m)]
    product = 1
    for k in range(m * n):
        product = product * (y * k + x_powers[k] - z) % q
    if m == 1:
        permutation = svp_holds(com, t, proof, columns[0], product, n)
    else:
        (c_rows,) = proof.points["product_commitment"]
        t.points("product_commitment", [c_rows])
        permutation = hadamard_holds(com, t, proof, columns, c_rows, n) and svp_holds(
            com, t, proof, c_rows, product, n
        )
    decks = (list(c_b), list(before), list(after), joint, x_powers)
    return permutation and multi_exp_holds(com, t, proof, decks, n)


# --- the file ---------------------------------------------------------------------------------
COMMON = ("seq", "prev", "by", "at", "kind", "sig")
KINDS: dict[str, tuple[str, ...]] = {
    "genesis": (
        "game_id",
        "nonce",
        "ruleset",
        "edition",
        "options",
        "seats",
        "components",
        "sign",
        "box",
        "rand_tip",
        "deck_key",
        "deck_key_proof",
    ),
    "join": ("sign", "box", "rand_tip", "deck_key", "deck_key_proof"),
    "note": ("text", "rand"),
    "address": ("email", "rand"),
    "move": ("move", "rand"),
    "commit": ("step", "commitment", "sealed", "rand"),
    "reveal": ("step", "value", "nonce", "rand"),
    "contribute": ("event", "rand"),
    "timeout": ("late", "step", "rand"),
    "undo": ("target", "rand"),
    "consent": ("target", "agree", "rand"),
    "sync": ("rand",),
    "handover": ("name", "sign", "box", "identity_sig", "sealed_secret", "rand"),
    "referee": (),  # with escrow = "referee": by the referee the genesis names, never by a seat
    "replace": ("seat", "name", "sign", "box", "identity_sig", "rand"),  # hand a silent seat on
    "rejoin": ("rand_tip",),  # the new player of a seat handed on by consent takes it
    "drop": ("seat", "rand"),  # go on without a silent seat, before the first card
}
RIDING = ("move", "commit", "reveal", "contribute", "timeout", "sync")
SIGNING_IN = (
    "genesis",
    "join",
    "handover",
    "replace",
    "rejoin",
)  # the entries that may give the seat's address, in ``email``
PLAY = (*RIDING, "undo", "consent")
SEALED_PLACE = "sealed "  # escrow_partials opening a sealed choice name "sealed STEP", slot 0
SEALED_POINT_DOMAIN = "pbem/sealed-point/v1"
ESCROW_KEY_FIELDS = ("escrow_key", "escrow_key_proof")  # in genesis and join, with escrow
ESCROW_FIELDS = (  # riding, in order
    "escrow",
    "escrow_acks",
    "escrow_complaint",
    "escrow_partials",
    "escrow_reshares",
    "escrow_reshare_complaint",
)
PROOF_FIELDS = ("commitments", "chain", "challenge", "responses", "chain_responses", "card_responses")
HEADER = ("format", "id", "ruleset", "edition", "seats", "entries", "head")
EMAIL_LIMIT = 254
NOT_IN_EMAIL = '<>(),;:"[]\\'


def canonical(value: Any) -> bytes:
    def check(item: Any) -> None:
        if isinstance(item, (bool, str)):
            return
        if isinstance(item, int):
            if not -(2**63) <= item < 2**63:
                raise Bad("an integer outside the signed 64-bit range")
            return
        if isinstance(item, list):
            for member in item:
                check(member)
            return
        if isinstance(item, dict):
            for key, member in item.items():
                check(key)
                check(member)
            return
        raise Bad(f"a {type(item).__name__} may not appear in signed data")

    check(value)
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode()


def same(found: Any, expected: Any) -> bool:
    """Equal, with TOML types: ``5.0`` is not ``5``, nor ``true`` ``1``."""
    if type(found) is not type(expected):
        return False
    if isinstance(expected, dict):
        return found.keys() == expected.keys() and all(same(found[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return len(found) == len(expected) and all(map(same, found, expected))
    return bool(found == expected)


def fingerprint(sign: bytes, box: bytes) -> str:
    digest = hashlib.sha256(pae("pbem/fingerprint/v1", sign, box)).digest()
    code = base64.b32encode(digest[:10]).decode("ascii")
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))


def valid_email(value: object) -> bool:
    """An address a seat's mail goes to: text of at most 254 characters, one ``@`` with something
    on each side, no white space and none of ``< > ( ) , ; : " [ ] \\``."""
    if not isinstance(value, str) or len(value) > EMAIL_LIMIT:
        return False
    local, at, domain = value.partition("@")
    return (
        bool(at and local and domain)
        and "@" not in domain
        and not any(char.isspace() or char in NOT_IN_EMAIL for char in value)
    )


def records(components: Mapping[str, Any], kind: str) -> list[Mapping[str, Any]]:
    found = components.get(kind)
    if not isinstance(found, list) or not all(isinstance(record, dict) for record in found):
        raise Bad(f"the component data has no [[components.{kind}]] records to deal a deck from")
    return found


def field_of(record: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    value = record.get(name)
    if type(value) is not kind:
        raise Bad(f"{where}: {name} is not {'text' if kind is str else 'a whole number'}")
    return value


def potr_cards(components: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
    """Princes of the Renaissance's one hidden deck: each Treachery card of the component data,
    in order, as many times as it has copies."""
    cards = []
    for record in records(components, "treachery"):
        name = field_of(record, "id", str, "[[components.treachery]]")
        cards += [name] * field_of(record, "copies", int, f"[[components.treachery]] {name!r}")
    return {"treachery": cards}


def florence_cards(components: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
    """Princes of Florence's three hidden decks: the profession, bonus and prestige cards of the
    component data, each deck its records' ids, in order, one card each."""
    return {
        deck: [field_of(record, "id", str, f"[[components.{deck}]]") for record in records(components, deck)]
        for deck in ("profession", "bonus", "prestige")
    }


def principe_cards(components: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
    """Il Principe's one hidden deck, of building cards: each colour of the component data, in
    order, as many times as it has cards, less the cards of each colour a game of two leaves out."""
    removed = 0
    if seats == 2:
        rules = components.get("rules")
        if not isinstance(rules, dict):
            raise Bad("the component data has no [components.rules] table")
        removed = field_of(rules, "two_players_removed_per_colour", int, "[components.rules]")
    cards = []
    for record in records(components, "colour"):
        name = field_of(record, "id", str, "[[components.colour]]")
        cards += [name] * (field_of(record, "cards", int, f"[[components.colour]] {name!r}") - removed)
    return {"building": cards}


# The games whose decks the document deals from the file's own component data, by ruleset.
DECKS_OF: dict[str, Callable[[Mapping[str, Any], int], dict[str, list[str]]]] = {
    "princes-of-the-renaissance": potr_cards,
    "princes-of-florence": florence_cards,
    "il-principe": principe_cards,
}


@dataclass
class Deck:
    cards: list[str]
    slots: list[Ciphertext]
    shuffled: int = 0  # seats that have shuffled it in the current round
    shares: dict[int, dict[str, int]] = field(default_factory=dict)  # slot -> seat -> share
    mixing: list[int] | None = None  # the slots of the reshuffle under way or last made
    opened: set[int] = field(default_factory=set)  # slots shown or dealt face up
    name: str = ""
    # the pile as far as the file shows it, top first: every slot once every seat has shuffled,
    # less those the file shows were drawn (a draw takes the top slot, so with each slot shown
    # drawn every slot above it went too), then each slot put under the deck; None until then
    pile: list[int] | None = None


@dataclass
class Dealing:
    """A seat's escrow dealing: its commitments, and per holder (the other seats in seat order)
    its index from 1, the ephemeral point and the masked share."""

    commitments: list[Elem]
    sealed: dict[str, tuple[int, Elem, int]]
    answered: set[str] = field(default_factory=set)  # holders that acknowledged or complained


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)  # seat -> where its mail goes, as signed last

    @property
    def ok(self) -> bool:
        return not self.problems

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


class Verifier:
    def __init__(self, data: dict[str, Any], cards: Mapping[str, Sequence[str]] | None) -> None:
        self.data = data
        self.given_cards = dict(cards or {})
        self.report = Report()
        self.game_id = ""
        self.seats: list[str] = []  # the seats in the game: the genesis's, less those dropped
        self.every_seat: list[str] = []  # the genesis's, in its order: a step's entries follow it
        self.dropped: dict[str, int] = {}  # seat -> the seq of the consent that went on without it
        self.options: dict[str, Any] = {}
        self.created = ""  # the genesis's time
        self.keys: dict[str, tuple[bytes, bytes, int]] = {}  # seat -> sign, box, seq of its join
        # seat -> (the new holder's name, the handover's seq, the fingerprint it hands on from),
        # for each handover of the seat, oldest first
        self.handovers: dict[str, list[tuple[str, int, str]]] = {}
        self.links: dict[str, bytes] = {}  # seat -> the last link it revealed (its tip first)
        self.deck_keys: dict[str, Elem] = {}
        self.grp: Group = GROUPS[None]
        self.commitments: dict[tuple[str, str], str] = {}  # (seat, sealed step) -> commitment
        self.revealed: set[tuple[str, str]] = set()  # (seat, sealed step) opened
        self.hashes: list[list[str]] = []  # the hashes of each step's entries, in file order
        self.step_seats: list[list[str]] = []
        self.step_seq: list[int] = []
        self.started: int | None = None  # the seq of the step of the last join
        self.decks: dict[str, Deck] | None = None
        self.joint: Elem = 0
        self.void: set[int] = set()
        # the escrow (option escrow = "others"): K, the receiving keys, each seat's dealing, the
        # verdict of a complaint, and each silent seat's shares being unlocked, by position, with
        # the partials given so far by holder index
        self.threshold = 0
        self.proven = False  # escrow_sealing = "proven": every ephemeral point carries its proof
        # with escrow = "referee": the referee's name and signing key, and the seq of its first
        # entry (its receiving key)
        self.referee = ""
        self.referee_sign = b""
        self.referee_seq: int | None = None
        self.receiving: dict[str, Elem] = {}
        # a silent seat proposed to be handed on (by, seat, target, agreed, the new keys), the
        # seats handed on whose new player has not taken them yet, and for each seat handed on
        # with escrow its new player's receiving key and the shares sealed to it, by holder
        self.proposal: dict[str, Any] | None = None
        self.rejoining: set[str] = set()
        self.resharing: dict[str, Elem] = {}
        self.reshared: dict[str, dict[str, tuple[int, Elem, int]]] = {}
        self.dealings: dict[str, Dealing] = {}
        self.verdict: str | None = None
        self.unlocking: dict[str, dict[tuple[str, int], dict[int, Elem]]] = {}
        # option retire_after, and how many deadlines each seat missed: every timeout claimed
        # against it, or with timeouts = "absent" each claim that made it absent
        self.retire_after = 0
        self.opens_sealed = False  # withheld = "open": a sealed choice is also sealed to the escrow
        self.escrow_sealed: set[tuple[str, str]] = set()  # (seat, step) sealed so
        self.missed: dict[str, int] = {}
        # option timeouts = "absent": the seats a timeout made absent, until they sign again
        self.absence = False
        self.absent: set[str] = set()

    def problem(self, where: str, message: str) -> None:
        self.report.problems.append(f"{where}: {message}" if where else message)

    # --- the whole file ---
    def run(self) -> Report:
        data = self.data
        header = data.get("game")
        entries = data.get("entry")
        if not isinstance(header, dict) or not same(header.get("format"), 1):
            self.problem("", "no [game] table with format = 1")
            return self.report
        if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
            self.problem("", "no [[entry]] tables")
            return self.report
        extra = sorted(set(data) - {"game", "roster", "components", "entry"})
        if extra:
            self.problem("", f"unexpected top-level tables {extra}")
        self.void = void_moves(entries)
        for index, entry in enumerate(entries):
            where = f"entry {entry.get('seq')} (by {entry.get('by')}, position {index})"
            try:
                self.entry(index, entry, where)
            except Bad as exc:
                self.problem(where, str(exc))
                self.keep_chain(index, entry)
            except ValueError as exc:  # a time that is no date, a field of the wrong type
                self.problem(where, f"cannot be read: {exc}")
                self.keep_chain(index, entry)
            if index == 0 and not self.game_id:
                return self.report  # without a readable genesis entry nothing else can be checked
        self.copies(header, entries)
        return self.report

    def entry(self, index: int, entry: dict[str, Any], where: str) -> None:
        kind = entry.get("kind")
        if kind not in KINDS:
            raise Bad(f"unknown kind {kind!r}")
        if self.referee and entry.get("by") == self.referee and kind != "referee":
            raise Bad(f"the referee {self.referee} signs only referee entries, not a {kind} entry")
        allowed = set(COMMON) | set(KINDS[kind]) | ({"email"} if kind in SIGNING_IN else set())
        if kind == "genesis":
            allowed |= {"group", "referee"}  # a referee only with escrow = "referee", checked below
        if kind == "referee":
            allowed |= {*ESCROW_KEY_FIELDS, *ESCROW_FIELDS[1:]}
        if kind == "rejoin":
            # before the first card the new player sets the seat up with keys of its own
            allowed |= {"deck_key", "deck_key_proof"} | (set(ESCROW_KEY_FIELDS) if self.threshold else set())
        if kind == "genesis" or (kind == "join" and self.threshold):
            allowed |= set(ESCROW_KEY_FIELDS)  # a genesis without escrow is refused them below
        if kind in ("join", "handover"):
            allowed.add("computer")  # a seat a computer plays says so, or the handover giving it one
        if kind in RIDING:
            allowed |= {"shuffles", "shares"} | ({"face_up", "remask"} if kind == "move" else set())
            if kind == "timeout":
                allowed.add("remask")  # the cards the late seat's default puts under the deck
            if self.threshold:
                allowed |= set(ESCROW_FIELDS)
            if kind == "commit" and self.threshold and self.opens_sealed:
                allowed.add("escrow_sealed")
            if isinstance(self.grp, Curve):
                allowed |= {"shares_proof"} | ({"face_up_proof"} if kind == "move" else set())
        missing = sorted((set(COMMON) | set(KINDS[kind])) - set(entry))
        if missing or set(entry) - allowed:
            raise Bad(f"fields missing {missing} or unexpected {sorted(set(entry) - allowed)}")
        if type(entry["seq"]) is not int or not all(
            isinstance(entry[name], str) for name in ("prev", "by", "at", "kind", "sig")
        ):
            raise Bad("seq is not an integer, or a common field is not text")
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", entry["at"]):
            raise Bad(f"at {entry['at']!r} is not a UTC time")
        datetime.strptime(entry["at"], "%Y-%m-%dT%H:%M:%SZ")  # a real date: ValueError otherwise
        if kind == "genesis":
            if index != 0:
                raise Bad("a genesis entry after the first")
            self.genesis(entry, where)
            return
        if index == 0:
            raise Bad("the first entry is not the genesis entry")
        for name in KINDS[kind]:
            wanted: type = {"target": int, "agree": bool}.get(name, str)
            if kind in (*PLAY, "address", "handover", "replace", "drop") and (
                type(entry[name]) is not wanted
            ):
                raise Bad(f"field {name!r} is not of type {wanted.__name__}")
        self.later(entry, where)

    def genesis(self, entry: dict[str, Any], where: str) -> None:
        if entry["seq"] != 0 or entry["prev"] != "":
            self.problem(where, "the genesis entry has seq 0 and an empty prev")
        game_id = unhex(entry["game_id"], 16, "game_id").hex()
        unhex(entry["nonce"], 16, "nonce")
        seats = entry["seats"]
        if (
            not isinstance(seats, list)
            or not all(isinstance(s, str) for s in seats)
            or entry["by"] not in seats
        ):
            raise Bad("seats is not a list of names with the creator among them")
        bad = [seat for seat in seats if not valid_name(seat)]
        if bad:
            raise Bad(f"{bad[0]!r} is not a seat name")
        if len({seat.casefold() for seat in seats}) != len(seats):
            raise Bad("two seats have the same name, ignoring case")
        self.game_id, self.seats, self.every_seat = game_id, list(seats), list(seats)
        self.created = entry["at"]
        if entry.get("group") not in GROUPS:
            raise Bad(f"group {entry.get('group')!r} is not edwards25519 or modp-2048")
        self.grp = GROUPS[entry.get("group")]
        self.escrow_options(entry.get("options"))
        self.retire_option(entry.get("options"))
        self.options = dict(entry["options"])
        if entry["options"].get("escrow") == "referee":
            self.referee_of(entry.get("referee"))
        elif "referee" in entry:
            raise Bad("referee in a game whose escrow is not 'referee'")
        extra = sorted(set(entry) & set(ESCROW_KEY_FIELDS)) if not self.threshold or self.referee else []
        if extra:
            raise Bad(f"{extra[0]} in a game without escrow")
        derived = ("game_id", "rand_tip", "deck_key", "deck_key_proof", *ESCROW_KEY_FIELDS, "sig")
        core = {k: v for k, v in entry.items() if k not in derived}
        expected = hashlib.sha256(pae("pbem/game-id/v1", canonical(core))).hexdigest()[:32]
        if expected != game_id:
            self.problem(where, f"game_id is not the hash of the genesis entry ({expected})")
        components = self.data.get("components", {})
        try:
            digest = hashlib.sha256(pae("pbem/components/v1", canonical(components))).hexdigest()
        except Bad:
            digest = ""
        if entry["components"] != f"sha256:{digest}":
            self.problem(where, "the component data does not hash to the genesis 'components'")
        self.signed_in(entry, where)

    def referee_of(self, item: object) -> None:
        """The referee the genesis names: a table of name, sign, box, identity_sig (its own
        signature of its identity) and perhaps email; no seat's name."""
        if not isinstance(item, dict):
            raise Bad("a game with escrow = 'referee' names its referee in a table 'referee'")
        only(item, ("name", "sign", "box", "identity_sig", "email"), "referee")
        name = item.get("name")
        if not isinstance(name, str) or not valid_name(name):
            raise Bad(f"the referee's name {name!r} is not one word")
        if name.casefold() in {seat.casefold() for seat in self.seats}:
            raise Bad(f"the referee {name} is a seat")
        sign, box = unb64(item.get("sign"), 32, "referee sign"), unb64(item.get("box"), 32, "referee box")
        try:
            Ed25519PublicKey.from_public_bytes(sign).verify(
                unb64(item.get("identity_sig"), 64, "referee identity_sig"),
                pae("pbem/identity/v1", text(name), sign, box),
            )
        except InvalidSignature:
            raise Bad(f"the referee's identity_sig is not {name}'s self-signature") from None
        if "email" in item and not valid_email(item["email"]):
            raise Bad(f"the referee's email {item['email']!r} is not an address")
        self.referee, self.referee_sign = name, sign

    def referee_entry(self, entry: dict[str, Any], where: str) -> None:
        """The referee's entry: its receiving key (the first), then its answers to the seats'
        dealings and its partials; the game starts once every seat has joined and it has accepted."""
        if entry["kind"] != "referee":
            raise Bad(f"the referee {self.referee} signs only referee entries")
        first = self.place(entry, where)
        self.signature(entry, where, self.referee_sign)
        if not first:
            return
        keyed = [name for name in ESCROW_KEY_FIELDS if name in entry]
        if self.referee_seq is None:
            if len(keyed) != 2 or any(name in entry for name in ESCROW_FIELDS):
                raise Bad("the referee's first entry gives its receiving key and nothing else")
            y = element(self.grp, entry["escrow_key"], "escrow_key")
            y_proof = short_proof(self.grp, entry["escrow_key_proof"], "escrow_key_proof")
            if not key_proof_holds(self.grp, y, y_proof, self.game_id, self.referee, "escrow"):
                raise Bad("the proof of the referee's escrow receiving key does not verify")
            self.receiving[self.referee] = y
            self.referee_seq = entry["seq"]
            self.report.count("escrow key")
            if self.started is None and all(s in self.keys for s in self.seats):
                self.started = entry["seq"]
            return
        if keyed:
            raise Bad("the referee gave its receiving key already")
        if self.started is None or entry["seq"] <= self.started:
            raise Bad("a referee entry before the game started")
        if self.verdict is not None:
            raise Bad(f"the game cannot go on after the escrow complaint: {self.verdict}")
        if not any(name in entry for name in ESCROW_FIELDS):
            raise Bad("a referee entry that carries nothing")
        self.escrow_fields(self.referee, entry)
        self.skip_retired()

    def later(self, entry: dict[str, Any], where: str) -> None:
        seat, kind, seq = entry["by"], entry["kind"], entry["seq"]
        if self.referee and seat == self.referee:
            self.referee_entry(entry, where)
            return
        if kind == "referee":
            raise Bad(f"{seat!r} is not the referee")
        if seat in self.dropped:
            raise Bad(
                f"{seat} is no longer in the game: the others went on without it (entry {self.dropped[seat]})"
            )
        if seat not in self.seats:
            raise Bad(f"{seat!r} is not a seat")
        if kind == "join" and seat in self.keys and self.keys[seat][2] < seq:
            raise Bad(f"{seat} joined already")
        if kind != "join" and (seat not in self.keys or self.keys[seat][2] >= seq):
            raise Bad(f"{seat} has no key in this step")
        if (kind == "rejoin") != (seat in self.rejoining):
            raise Bad(f"{seat} was handed on: its new player's rejoin comes first, and only then")
        if kind == "rejoin":
            self.rejoin(entry, where)
            return
        if kind == "join" and seat not in self.keys:
            self.signed_in(entry, where)
            if self.proposal is not None and self.proposal["seat"] == seat and "drop" in self.proposal:
                self.proposal = None  # it joined after all
            self.start_if_seated(seq)
            return
        text_ = entry.get("text")
        if kind == "note" and (not isinstance(text_, str) or not text_.strip() or len(text_) > 4000):
            self.problem(where, "a note holds some text other than whitespace, at most 4000 characters")
        first = self.place(entry, where)
        self.signature(entry, where, self.keys[seat][0])
        if not first:
            return
        if seat in self.absent and seat not in self.retired():
            self.kept_unlocking(seat)
        self.absent.discard(seat)  # it signs: no longer absent
        link = unhex(entry["rand"], 32, "rand")
        if step_back(self.game_id, seat, link) != self.links[seat]:
            self.problem(where, f"rand is not the next link of {seat}'s chain")
        else:
            self.links[seat] = link
        if kind == "commit":
            unhex(entry["commitment"], 32, "commitment")
            sealed = unb64(entry["sealed"], len(base64.b64decode(entry["sealed"] + "==")), "sealed")
            if len(sealed) < 64 or len(sealed) % 64:
                raise Bad("sealed is not 64 bytes and a padded value")
            self.commitments.setdefault((seat, entry["step"]), entry["commitment"])
            if self.threshold and self.opens_sealed:
                # sealed to the escrow too, so that the holders can open it if the seat keeps it back
                if "escrow_sealed" not in entry:
                    raise Bad("escrow_sealed is missing from a commit in a game with withheld = 'open'")
                given = entry["escrow_sealed"]
                if len(unb64(given, len(base64.b64decode(given + "==")), "escrow_sealed")) < 12 + 16 + 16:
                    raise Bad("escrow_sealed is too short to hold a sealed value")
                self.escrow_sealed.add((seat, entry["step"]))
        if kind == "reveal":
            nonce = unhex(entry["nonce"], 16, "nonce")
            committed = self.commitments.get((seat, entry["step"]))
            opened = hashlib.sha256(
                pae("pbem/commit/v1", *map(text, (self.game_id, entry["step"], seat, entry["value"])), nonce)
            ).hexdigest()
            if committed is None:
                self.problem(where, f"{seat} has no commitment for the {entry['step']}")
            elif opened != committed:
                self.problem(where, "value and nonce do not open the commitment")
            self.report.count("reveal")
            self.revealed.add((seat, entry["step"]))
            self.unlocking.get(seat, {}).pop((SEALED_PLACE + entry["step"], 0), None)
        if kind == "address":
            self.take_email(entry, where)
        if kind == "handover":
            self.handover(entry, where)
        if kind == "replace":
            self.propose(entry, where)
        if kind == "drop":
            self.propose_drop(entry, where)
        if kind == "consent" and self.proposal is not None and entry["target"] == self.proposal["target"]:
            self.consent(entry, where)
        if kind in RIDING and not (kind == "move" and seq in self.void):
            self.hidden(entry, where, started=self.started is not None and seq > self.started)
        if kind == "timeout":
            late = entry["late"]
            away = self.absence and late in self.stood_in()
            if self.threshold:
                self.timeout(entry, where)
            # counted once taken, as pbem counts a claim it applied, and acted on after the entry;
            # with timeouts = "absent", a claim against a seat absent (or retired) already counts
            # nothing, and the claim makes the seat absent
            if not away:
                self.missed[late] = self.missed.get(late, 0) + 1
            if self.absence:
                self.absent.add(late)
            self.report.count("timeout")
        self.skip_retired()

    def signed_in(self, entry: dict[str, Any], where: str) -> None:
        """A genesis or join entry: the keys it brings, signed by themselves."""
        seat = entry["by"]
        sign, box = unb64(entry["sign"], 32, "sign"), unb64(entry["box"], 32, "box")
        self.place(entry, where)
        self.signature(entry, where, sign)
        self.keys[seat] = (sign, box, entry["seq"])
        self.links[seat] = unhex(entry["rand_tip"], 32, "rand_tip")
        h = element(self.grp, entry["deck_key"], "deck_key")
        proof = short_proof(self.grp, entry["deck_key_proof"], "deck_key_proof")
        if not key_proof_holds(self.grp, h, proof, self.game_id, seat):
            raise Bad(f"the proof of {seat}'s deck key does not verify")
        self.deck_keys[seat] = h
        self.report.count("deck key")
        if self.threshold and not self.referee:
            missing = [name for name in ESCROW_KEY_FIELDS if name not in entry]
            if missing:
                raise Bad(f"{missing[0]} missing: every seat of a game with escrow publishes a receiving key")
            y = element(self.grp, entry["escrow_key"], "escrow_key")
            y_proof = short_proof(self.grp, entry["escrow_key_proof"], "escrow_key_proof")
            if not key_proof_holds(self.grp, y, y_proof, self.game_id, seat, "escrow"):
                raise Bad(f"the proof of {seat}'s escrow receiving key does not verify")
            self.receiving[seat] = y
            self.report.count("escrow key")
        if "email" in entry:
            self.take_email(entry, where)
        if "computer" in entry:
            if entry["computer"] is not True:
                raise Bad("computer must be true: a seat a computer plays")
            self.report.count("computer seat")

    def handover(self, entry: dict[str, Any], where: str) -> None:
        """The seat's new holder: its self-signed keys sign for the seat from the next entry on.
        (Whether the game was over, or the seat's sealed choice waiting, is the rules' to say.)"""
        seat, name = entry["by"], entry["name"]
        if not valid_name(name):
            raise Bad(f"the new holder's name {name!r} is not one word")
        sign, box = unb64(entry["sign"], 32, "sign"), unb64(entry["box"], 32, "box")
        vouched = pae("pbem/identity/v1", text(name), sign, box)
        try:
            Ed25519PublicKey.from_public_bytes(sign).verify(
                unb64(entry["identity_sig"], 64, "identity_sig"), vouched
            )
        except InvalidSignature:
            raise Bad(f"identity_sig is not {name}'s self-signature") from None
        sealed = entry["sealed_secret"]
        unb64(sealed, len(base64.b64decode(sealed + "==")), "sealed_secret")
        for other, (held_sign, held_box, _) in self.keys.items():
            if sign == held_sign or box == held_box:
                raise Bad(f"the new holder's key holds seat {other} already")
        old_sign, old_box, joined = self.keys[seat]
        self.handovers.setdefault(seat, []).append((name, entry["seq"], fingerprint(old_sign, old_box)))
        self.keys[seat] = (sign, box, joined)
        self.report.count("handover")
        if "computer" in entry:
            if entry["computer"] is not True:
                raise Bad("computer must be true: a seat handed on to a computer")
            self.report.count("computer seat")
        if "email" in entry:
            self.take_email(entry, where)
        else:
            self.report.addresses.pop(seat, None)

    def new_keys(self, entry: Mapping[str, Any]) -> tuple[bytes, bytes]:
        """The keys a handover names, with the new player's own signature of them."""
        name = entry["name"]
        if not valid_name(name):
            raise Bad(f"the new holder's name {name!r} is not one word")
        sign, box = unb64(entry["sign"], 32, "sign"), unb64(entry["box"], 32, "box")
        try:
            Ed25519PublicKey.from_public_bytes(sign).verify(
                unb64(entry["identity_sig"], 64, "identity_sig"),
                pae("pbem/identity/v1", text(name), sign, box),
            )
        except InvalidSignature:
            raise Bad(f"identity_sig is not {name}'s self-signature") from None
        for other, (held_sign, held_box, _) in self.keys.items():
            if sign == held_sign or box == held_box:
                raise Bad(f"the new holder's key holds seat {other} already")
        if self.referee and sign == self.referee_sign:
            raise Bad("the new holder's key is the referee's")
        return sign, box

    def start_if_seated(self, seq: int) -> None:
        """The game starts in the step in which its last seat joins (or the referee accepts, or
        the others go on without the last seat still to join)."""
        accepted = not self.referee or self.referee_seq is not None
        if self.started is None and accepted and all(s in self.keys for s in self.seats):
            self.started = seq

    def remaining(self, proposal: Mapping[str, Any]) -> set[str]:
        """Who must consent: to handing a silent seat on, neither its proposer, the seat, nor a
        retired or absent seat; to going on without one, every seat that has joined but the two."""
        if "drop" in proposal:
            return {seat for seat in self.seats if seat in self.keys} - {proposal["by"], proposal["seat"]}
        return set(self.seats) - {proposal["by"], proposal["seat"], *self.stood_in()}

    def nothing_dealt(self) -> bool:
        """As far as the file shows, no card has been dealt yet: no deck has a share or an open
        slot, and no unlock has begun (a card drawn whose shares are all still owed is the
        rules' to say)."""
        return not self.unlocking and not any(
            deck.shares or deck.opened or deck.mixing is not None for deck in (self.decks or {}).values()
        )

    def propose_drop(self, entry: Mapping[str, Any], where: str) -> None:
        """A seat proposes going on without a silent seat: one that has not joined past the
        deadline to join, or, the game begun, before the first card (its deadline is the rules'
        to say)."""
        silent, by = entry["seat"], entry["by"]
        if silent not in self.seats or silent == by:
            raise Bad(f"{silent!r} is no other seat of the game")
        if self.proposal is not None or self.rejoining:
            raise Bad("a proposal already waits for consent, or a seat handed on for its new player")
        if self.verdict is not None:
            raise Bad(f"the game cannot go on after the escrow complaint: {self.verdict}")
        if silent in self.keys:
            if self.started is None or not self.nothing_dealt():
                raise Bad(f"{silent} has joined: the others go on without it only before the first card")
        else:
            days = self.options.get("deadline_days", 0)
            if type(days) is not int or days <= 0:
                raise Bad("a game without deadlines goes on without no seat")
            due = datetime.strptime(self.created, "%Y-%m-%dT%H:%M:%SZ") + timedelta(days=days)
            if datetime.strptime(entry["at"], "%Y-%m-%dT%H:%M:%SZ") < due:
                raise Bad(f"{silent}'s deadline to join has not passed")
        self.proposal = {"by": by, "seat": silent, "target": entry["seq"], "agreed": set(), "drop": True}
        self.report.count("drop proposed")
        if not self.remaining(self.proposal):
            self.go_on_without(silent, entry["seq"])  # nobody else has joined to be asked

    def go_on_without(self, silent: str, seq: int) -> None:
        """The seat leaves the game, and the game is set up again for the seats left, as if they
        alone had joined: no deck, dealing, unlock, sealed choice or missed deadline carries over."""
        self.proposal = None
        self.seats.remove(silent)
        self.dropped[silent] = seq
        self.escrow_options(self.options)  # K for the seats left, refused if they are too few
        self.decks, self.dealings, self.unlocking = None, {}, {}
        self.commitments, self.revealed, self.missed = {}, set(), {}
        if self.started is not None:
            self.started = None
        self.start_if_seated(seq)
        self.report.count("seat gone on without")

    def propose(self, entry: Mapping[str, Any], where: str) -> None:
        """A seat proposes handing a silent seat (one a timeout was claimed against, or before
        the first card one past its deadline, which is the rules' to say) on."""
        silent = entry["seat"]
        anew = self.started is not None and self.nothing_dealt()
        if silent not in self.seats or silent == entry["by"] or not (anew or self.missed.get(silent)):
            raise Bad(f"{silent!r} is no other seat a timeout was claimed against")
        if self.proposal is not None:
            raise Bad("a handover already waits for consent")
        if any(seat == silent and (seat, step) not in self.revealed for seat, step in self.commitments):
            raise Bad(f"{silent}'s sealed choice is not revealed")
        if self.decks and not self.threshold and not anew:
            raise Bad("a seat with hidden cards is handed on by the others only with escrow")
        sign, box = self.new_keys(entry)
        self.proposal = {
            "by": entry["by"], "seat": silent, "target": entry["seq"], "agreed": set(),
            "sign": sign, "box": box, "name": entry["name"],
        }  # fmt: skip
        if "email" in entry and not valid_email(entry["email"]):
            self.problem(where, f"email {entry['email']!r} is not an address like ann@example.org")
        self.report.count("handover proposed")

    def consent(self, entry: Mapping[str, Any], where: str) -> None:
        proposal = self.proposal
        assert proposal is not None
        seat = entry["by"]
        if seat not in self.remaining(proposal) or seat in proposal["agreed"]:
            raise Bad(f"{seat} has no say left on the handover of {proposal['seat']}")
        if entry["agree"] is not True:
            self.proposal = None
            return
        proposal["agreed"].add(seat)
        if "drop" in proposal and self.remaining(proposal) <= proposal["agreed"]:
            self.go_on_without(proposal["seat"], entry["seq"])
        elif self.remaining(proposal) <= proposal["agreed"]:
            silent = proposal["seat"]
            old_sign, old_box, joined = self.keys[silent]
            self.handovers.setdefault(silent, []).append(
                (proposal["name"], entry["seq"], fingerprint(old_sign, old_box))
            )
            self.keys[silent] = (proposal["sign"], proposal["box"], joined)
            self.rejoining.add(silent)
            if silent in self.stood_in():
                self.kept_unlocking(silent)
            self.missed.pop(silent, None)
            self.absent.discard(silent)
            self.proposal = None
            self.report.addresses.pop(silent, None)
            self.report.count("handover by consent")

    def rejoin(self, entry: dict[str, Any], where: str) -> None:
        """The new player of a seat handed on by consent: its own chain and receiving key."""
        seat = entry["by"]
        first = self.place(entry, where)
        self.signature(entry, where, self.keys[seat][0])
        if not first:
            return
        self.links[seat] = unhex(entry["rand_tip"], 32, "rand_tip")
        if "deck_key" in entry or "deck_key_proof" in entry:
            self.rejoin_anew(entry)
        elif self.threshold:
            y = element(self.grp, entry.get("escrow_key"), "escrow_key")
            y_proof = short_proof(self.grp, entry.get("escrow_key_proof"), "escrow_key_proof")
            if not key_proof_holds(self.grp, y, y_proof, self.game_id, seat, "escrow"):
                raise Bad(f"the proof of {seat}'s new escrow receiving key does not verify")
            self.resharing[seat], self.reshared[seat] = y, {}
        self.rejoining.discard(seat)
        if "email" in entry:
            self.take_email(entry, where)

    def rejoin_anew(self, entry: Mapping[str, Any]) -> None:
        """Before the first card the new player takes the seat with keys of its own: a deck key
        (and, with escrow by the seats, a receiving key), and the hidden decks and the escrow
        are set up again from the start under the new joint key."""
        seat = entry["by"]
        if self.started is None or not self.nothing_dealt():
            raise Bad(f"{seat}'s new player gives a deck key of its own only before the first card")
        h = element(self.grp, entry.get("deck_key"), "deck_key")
        proof = short_proof(self.grp, entry.get("deck_key_proof"), "deck_key_proof")
        if not key_proof_holds(self.grp, h, proof, self.game_id, seat):
            raise Bad(f"the proof of {seat}'s new deck key does not verify")
        self.deck_keys[seat] = h
        self.report.count("deck key")
        if self.threshold and not self.referee:
            y = element(self.grp, entry.get("escrow_key"), "escrow_key")
            y_proof = short_proof(self.grp, entry.get("escrow_key_proof"), "escrow_key_proof")
            if not key_proof_holds(self.grp, y, y_proof, self.game_id, seat, "escrow"):
                raise Bad(f"the proof of {seat}'s new escrow receiving key does not verify")
            self.receiving[seat] = y
            self.report.count("escrow key")
        elif "escrow_key" in entry or "escrow_key_proof" in entry:
            raise Bad("an escrow receiving key in a game whose seats keep no escrow")
        self.decks, self.dealings, self.unlocking = None, {}, {}
        self.report.count("seat set up anew")

    def take_email(self, entry: Mapping[str, Any], where: str) -> None:
        """The address the seat's mail goes to from this entry on."""
        if not valid_email(entry["email"]):
            self.problem(where, f"email {entry['email']!r} is not an address like ann@example.org")
            return
        self.report.addresses[entry["by"]] = entry["email"]
        self.report.count("address")

    # --- the chain ---
    def message(self, entry: Mapping[str, Any]) -> bytes:
        body = {key: value for key, value in entry.items() if key != "sig"}
        return pae("pbem/entry/v1", text(self.game_id), canonical(body))

    def signature(self, entry: dict[str, Any], where: str, key: bytes) -> None:
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(
                unb64(entry["sig"], 64, "sig"), self.message(entry)
            )
        except InvalidSignature:
            self.problem(where, "the signature does not verify")
        self.report.count("signature")

    def step_hash(self, step: int) -> str:
        hashes = self.hashes[step]
        if len(hashes) == 1:
            return hashes[0]
        return hashlib.sha256(pae("pbem/step/v1", *(bytes.fromhex(h) for h in hashes))).hexdigest()

    def entry_hash(self, entry: Mapping[str, Any]) -> str:
        try:
            signature = unb64(entry.get("sig"), 64, "sig")
        except Bad:
            signature = b""
        try:
            message = self.message(entry)
        except Bad:
            message = b""
        return hashlib.sha256(message + signature).hexdigest()

    def place(self, entry: dict[str, Any], where: str) -> bool:
        """Put the entry in its step; False if it repeats its seat's entry in that step."""
        seq, seat = entry["seq"], entry["by"]
        first = True
        if not self.hashes:
            expected = ""
            self.new_step(seq)
        elif seq == self.step_seq[-1] + 1:
            expected = self.step_hash(len(self.hashes) - 1)
            self.new_step(seq)
        elif seq == self.step_seq[-1] and seq > 0:
            expected = self.step_hash(len(self.hashes) - 2)
            if seat in self.step_seats[-1]:
                self.problem(where, f"{seat} has two entries in step {seq}: a duplicate or equivocation")
                first = False
            elif self.order(seat) < self.order(self.step_seats[-1][-1]):
                self.problem(where, f"the entries of step {seq} are not in seat order")
        else:
            self.problem(where, f"seq {seq} neither starts the next step nor continues this one")
            expected = entry["prev"]
            self.new_step(seq)
        if entry["prev"] != expected:
            self.problem(where, "prev is not the hash of the step before")
        self.hashes[-1].append(self.entry_hash(entry))
        self.step_seats[-1].append(seat)
        return first

    def order(self, signer: str) -> int:
        """A signer's place in a step: the seats in seat order, the referee after them."""
        signers = [*self.every_seat, *([self.referee] if self.referee else [])]
        return signers.index(signer) if signer in signers else -1

    def new_step(self, seq: int) -> None:
        self.hashes.append([])
        self.step_seats.append([])
        self.step_seq.append(seq)

    def keep_chain(self, index: int, entry: Mapping[str, Any]) -> None:
        """An entry refused before its place was taken still gets a step, so the entries after it
        are judged against the chain as written."""
        if not self.game_id or sum(map(len, self.hashes)) > index:
            return
        seq = entry.get("seq")
        self.new_step(seq if type(seq) is int else -1)
        self.hashes[-1].append(self.entry_hash(entry))
        self.step_seats[-1].append(str(entry.get("by")))

    # --- the hidden decks ---
    def setup_decks(self) -> dict[str, Deck]:
        if self.decks is None:
            known: Mapping[str, Sequence[str]] = self.given_cards
            dealt = DECKS_OF.get(self.data["entry"][0]["ruleset"])
            components = self.data.get("components", {})
            if not known and dealt is not None and isinstance(components, dict):
                known = dealt(components, len(self.seats))
            grp = self.grp
            self.joint = grp.identity
            for seat in self.seats:
                self.joint = grp.mul(self.joint, self.deck_keys[seat])
            opened = {
                deck: [grp.mul(card(grp, i), self.joint) for i in range(len(names))]
                for deck, names in known.items()
            }
            self.decks = {
                deck: Deck(list(names), [Ciphertext(grp.g, value) for value in opened[deck]], name=deck)
                for deck, names in known.items()
            }
        return self.decks

    def deck(self, item: Mapping[str, Any], where: str) -> Deck:
        deck = self.setup_decks().get(str(item.get("deck")))
        if deck is None:
            raise Bad(f"{where}: {item.get('deck')!r} is not a deck this verifier knows the cards of")
        return deck

    def slot(self, deck: Deck, item: Mapping[str, Any], where: str) -> int:
        slot = item.get("slot")
        if type(slot) is not int or not 0 <= slot < len(deck.slots):
            raise Bad(f"{where}: slot is not a slot of the deck")
        return slot

    def hidden(self, entry: dict[str, Any], where: str, *, started: bool) -> None:
        """The entry's hidden-deck fields, in the order the document gives."""
        seat = entry["by"]
        steps: dict[str, Callable[[str, Mapping[str, Any], str], None]] = {
            "shuffles": self.shuffle,
            "shares": self.share,
            "face_up": self.face_up,
            "remask": self.remask,
        }
        compact = isinstance(self.grp, Curve)
        if self.verdict is not None:
            raise Bad(f"the game cannot go on after the escrow complaint: {self.verdict}")
        self.skip_retired()  # as pbem settled the entry before, even one refused here
        if self.threshold and started:
            self.escrow_fields(seat, entry)
        elif any(name in entry for name in ESCROW_FIELDS):
            raise Bad("an escrow field before the game started")
        for name, take in steps.items():
            items = entry.get(name, [])
            if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
                raise Bad(f"{name} is not an array of tables")
            if items and not started:
                raise Bad(f"{name} before the game started")
            if compact and name in ("shares", "face_up"):
                self.proven_shares(seat, entry, name)
                continue
            # a timeout re-masks the late seat's cards, the proof naming the seat that held them
            holder = entry["late"] if name == "remask" and entry["kind"] == "timeout" else seat
            for index, item in enumerate(items):
                take(holder, item, f"{name}[{index}]")
        for name in ("shares_proof", "face_up_proof"):
            if name in entry and not entry.get(name.removesuffix("_proof")):
                raise Bad(f"{name} without {name.removesuffix('_proof')}")

    def proven_shares(self, seat: str, entry: Mapping[str, Any], name: str) -> None:
        """A list of shares in the curve group's form: tables of one deck's slots, their shares
        in one text (and, shown face up, the cards), and one proof for the whole list."""
        flat: list[tuple[Deck, str, int, Elem, object, str]] = []
        for index, item in enumerate(entry.get(name, [])):
            where = f"{name}[{index}]"
            only(item, ("deck", "slots", "shares", *(("cards",) if name == "face_up" else ())), where)
            deck = self.deck(item, where)
            slots = item.get("slots")
            values = elements_of(self.grp, item.get("shares"), f"{where} shares")
            cards = item.get("cards") if name == "face_up" else [None] * len(values)
            if (
                not isinstance(slots, list)
                or not isinstance(cards, list)
                or not len(slots) == len(values) == len(cards) > 0
            ):
                raise Bad(f"{where}: slots, shares and cards do not match one to one")
            for number, (slot, d, claimed) in enumerate(zip(slots, values, cards, strict=True)):
                self.slot(deck, {"slot": slot}, where)
                flat.append((deck, str(item["deck"]), slot, d, claimed, f"{where} slots[{number}]"))
        if not flat:
            return
        proof = short_proof(self.grp, entry.get(f"{name}_proof"), f"{name}_proof")
        places = [(deck_id, slot, deck.slots[slot]) for deck, deck_id, slot, _, _, _ in flat]
        values = [d for _, _, _, d, _, _ in flat]
        if not shares_proof_holds(self.grp, self.deck_keys[seat], places, values, proof, self.game_id, seat):
            raise Bad(f"{name}_proof: the proof of {seat}'s decryption shares does not verify")
        for deck, _, slot, d, claimed, where in flat:
            if name == "shares":
                self.take_share(seat, deck, slot, d, where)
            else:
                self.show(seat, deck, slot, d, claimed, where)

    def shuffle(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        # The curve group's shuffles carry either proof, each with exactly its own fields; the
        # 2048-bit group's only the Terelius-Wikstrom one.
        bayer_groth = isinstance(self.grp, Curve) and any(name in item for name in BG_FIELDS)
        only(item, ("deck", "slots", "cards", *(BG_FIELDS if bayer_groth else PROOF_FIELDS)), where)
        deck = self.deck(item, where)
        self.skip_retired_in(deck)
        slots = item.get("slots")
        if slots is None:
            if deck.mixing is not None:
                raise Bad(f"{where}: a shuffle without slots after the first round")
            taken = list(range(len(deck.slots)))
        else:
            if (
                not isinstance(slots, list)
                or not slots
                or not all(type(slot) is int and 0 <= slot < len(deck.slots) for slot in slots)
                or len(set(slots)) != len(slots)
            ):
                raise Bad(f"{where}: slots is not an array of different slots of the deck")
            if deck.shuffled == len(self.seats):  # a reshuffle begins, with the first seat
                if any(deck.shares.get(slot) for slot in slots):
                    raise Bad(f"{where}: a slot with a decryption share is not in the deck to reshuffle")
                deck.mixing, deck.shuffled = list(slots), 0
                deck.pile = list(slots)  # the cards left, top first, as the reshuffle names them
                self.skip_retired_in(deck)  # or the first not retired, which names the slots
            elif deck.mixing == []:  # the first seat's reshuffle was skipped: this one names them
                if any(deck.shares.get(slot) for slot in slots):
                    raise Bad(f"{where}: a slot with a decryption share is not in the deck to reshuffle")
                deck.mixing = list(slots)
                deck.pile = list(slots)
            elif deck.mixing != slots:
                raise Bad(f"{where}: the reshuffle under way takes the slots {deck.mixing}, not {slots}")
            taken = slots
        if deck.shuffled >= len(self.seats) or self.seats[deck.shuffled] != seat:
            raise Bad(f"{where}: not {seat}'s turn to shuffle {item['deck']}")
        after = ciphertexts_of(self.grp, item.get("cards"), f"{where} cards")
        before = [deck.slots[slot] for slot in taken]
        grp, joint, game_id, deck_id = self.grp, self.joint, self.game_id, item["deck"]
        if bayer_groth:
            holds = bg_shuffle_holds(grp, before, after, joint, item, game_id, deck_id, seat, where=where)
        else:
            proof = shuffle_proof(grp, item, where)
            holds = shuffle_holds(grp, before, after, joint, proof, game_id, deck_id, seat)
        if not holds:
            raise Bad(f"{where}: the proof of shuffle does not verify")
        for slot, value in zip(taken, after, strict=True):
            deck.slots[slot] = value
        deck.shuffled += 1
        self.skip_retired_in(deck)
        self.report.count("shuffle")

    def check_share(self, seat: str, deck: Deck, slot: int, item: Mapping[str, Any], where: str) -> Elem:
        d = element(self.grp, item.get("share"), f"{where} share")
        proof = short_proof(self.grp, item.get("proof"), f"{where} proof")
        ct = deck.slots[slot]
        if not share_proof_holds(
            self.grp, self.deck_keys[seat], ct, d, proof, self.game_id, str(item["deck"]), slot, seat
        ):
            raise Bad(f"{where}: the proof of {seat}'s decryption share does not verify")
        return d

    def share(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        only(item, ("deck", "slot", "share", "proof"), where)
        deck = self.deck(item, where)
        slot = self.slot(deck, item, where)
        self.take_share(seat, deck, slot, self.check_share(seat, deck, slot, item, where), where)

    def take_share(self, seat: str, deck: Deck, slot: int, d: Elem, where: str) -> None:
        if deck.shuffled < len(self.seats) and (deck.mixing is None or slot in deck.mixing):
            raise Bad(f"{where}: a share of a slot not every seat has shuffled")
        self.dealable(where)
        if slot in deck.opened or seat in deck.shares.get(slot, {}):
            raise Bad(f"{where}: a second share of the slot, or a share of a slot already open")
        self.drawn(deck, slot)
        deck.shares.setdefault(slot, {})[seat] = d
        self.report.count("share")
        if sorted(deck.shares[slot]) == sorted(self.seats):
            # Only a card dealt face up has a share from every seat in shares tables: a drawer's
            # own share comes in a face_up table.
            self.open(deck, slot, deck.shares[slot], None, where)
            self.report.count("card dealt face up")

    def open(self, deck: Deck, slot: int, shares: Mapping[str, int], claimed: object, where: str) -> None:
        """Open the slot with every seat's share, checked already: it must be a card of the deck
        (the one claimed, if any)."""
        grp = self.grp
        product = grp.identity
        for value in shares.values():
            product = grp.mul(product, value)
        opened = grp.mul(deck.slots[slot].c2, grp.inv(product))
        index = next((i for i in range(len(deck.cards)) if card(grp, i) == opened), None)
        if index is None:
            raise Bad(f"{where}: the shares open the slot as no card of the deck")
        if claimed is not None and deck.cards[index] != claimed:
            raise Bad(f"{where}: the slot holds {deck.cards[index]}, not {claimed!r}")
        deck.opened.add(slot)

    def face_up(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        only(item, ("deck", "slot", "card", "share", "proof"), where)
        deck = self.deck(item, where)
        slot = self.slot(deck, item, where)
        if slot in deck.opened:
            raise Bad(f"{where}: the slot is open already")
        self.show(seat, deck, slot, self.check_share(seat, deck, slot, item, where), item.get("card"), where)

    def show(self, seat: str, deck: Deck, slot: int, d: Elem, claimed: object, where: str) -> None:
        if slot in deck.opened:
            raise Bad(f"{where}: the slot is open already")
        self.dealable(where)
        shares = dict(deck.shares.get(slot, {}))
        shares[seat] = d
        if sorted(shares) != sorted(self.seats):
            raise Bad(f"{where}: the slot has shares from {sorted(shares)}, not one from every seat")
        self.open(deck, slot, shares, claimed, where)
        self.drawn(deck, slot)
        deck.shares[slot] = shares
        self.report.count("card shown face up")

    def remask(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        if isinstance(self.grp, Curve):
            only(item, ("deck", "slot", "card", "proof"), where)
            deck = self.deck(item, where)
            slot = self.slot(deck, item, where)
            after_one = ciphertext(self.grp, item.get("card"), f"{where} card")
            proof_one = short_proof(self.grp, item.get("proof"), f"{where} proof")
            if not remask_proof_holds(
                self.grp,
                self.joint,
                deck.slots[slot],
                after_one,
                proof_one,
                self.game_id,
                str(item["deck"]),
                slot,
                seat,
            ):
                raise Bad(f"{where}: the proof of the re-masked card does not verify")
            deck.slots[slot] = after_one
            deck.shares.pop(slot, None)
            self.forget_unlock(deck, slot)
            self.put_back(deck, slot)
            self.report.count("card put under the deck")
            return
        only(item, ("deck", "slot", "cards", *PROOF_FIELDS), where)
        deck = self.deck(item, where)
        slot = self.slot(deck, item, where)
        cards = item.get("cards")
        if not isinstance(cards, list) or len(cards) != 1:
            raise Bad(f"{where}: cards is not an array of one ciphertext")
        after = [ciphertext(self.grp, cards[0], f"{where} cards[0]")]
        proof = shuffle_proof(self.grp, item, where)
        before = [deck.slots[slot]]
        if not shuffle_holds(self.grp, before, after, self.joint, proof, self.game_id, item["deck"], seat):
            raise Bad(f"{where}: the proof of the re-masked card does not verify")
        deck.slots[slot] = after[0]
        deck.shares.pop(slot, None)
        self.forget_unlock(deck, slot)
        self.put_back(deck, slot)
        self.report.count("card put under the deck")

    # --- the escrow of the deck secrets ---
    def escrow_options(self, options: object) -> None:
        """K from the genesis options: 0 (no escrow), escrow_threshold (0: every other seat), or
        1 for a referee."""
        if not isinstance(options, dict):
            raise Bad("options is not a table")
        sealing = options.get("escrow_sealing")
        if sealing not in (None, "proven"):
            raise Bad(f"escrow_sealing = {sealing!r} is not 'proven'")
        self.proven = sealing == "proven"
        chosen, given = options.get("escrow", "none"), options.get("escrow_threshold", 0)
        if chosen not in ("none", "others", "referee") or type(given) is not int:
            raise Bad(f"escrow = {chosen!r}, escrow_threshold = {given!r} are not escrow options")
        if chosen in ("none", "referee"):
            if given:
                raise Bad("escrow_threshold without escrow = 'others'")
            if chosen == "referee":
                if not isinstance(self.grp, Curve):
                    raise Bad("escrow in a game whose decks are not in the curve group")
                self.threshold = 1  # the referee alone holds each seat's secret
            return
        threshold = given or len(self.seats) - 1
        if not (len(self.seats) >= 3 and 2 <= threshold <= len(self.seats) - 1):
            raise Bad(f"an escrow threshold of {threshold} with {len(self.seats)} seats")
        if not isinstance(self.grp, Curve):
            raise Bad("escrow in a game whose decks are not in the curve group")
        self.threshold = threshold

    def holders(self, dealer: str) -> list[str]:
        if self.referee:
            return [self.referee]
        return [seat for seat in self.seats if seat != dealer]

    def complete(self) -> bool:
        return len(self.dealings) == len(self.seats) and all(
            len(dealing.answered) == len(dealing.sealed) for dealing in self.dealings.values()
        )

    def dealable(self, where: str) -> None:
        """No card is dealt until every dealing is in and acknowledged."""
        if self.threshold and not self.complete():
            raise Bad(f"{where}: a card's share before every escrow dealing is in and acknowledged")

    def escrow_fields(self, seat: str, entry: Mapping[str, Any]) -> None:
        """The dealing, the answers and the partials an entry carries, before its shuffles."""
        if "escrow" in entry:
            self.dealing(seat, entry["escrow"])
        acks = entry.get("escrow_acks", [])
        if not isinstance(acks, list) or not all(isinstance(dealer, str) for dealer in acks):
            raise Bad("escrow_acks is not an array of seats")
        for dealer in acks:
            self.answerable(seat, dealer, "escrow_acks").answered.add(seat)
            self.report.count("escrow acknowledgement")
        if "escrow_complaint" in entry:
            self.complaint(seat, entry["escrow_complaint"])
        partials = entry.get("escrow_partials", [])
        if not isinstance(partials, list) or not all(isinstance(item, dict) for item in partials):
            raise Bad("escrow_partials is not an array of tables")
        for index, item in enumerate(partials):
            self.partials(seat, item, f"escrow_partials[{index}]")
        reshares = entry.get("escrow_reshares", [])
        if not isinstance(reshares, list) or not all(isinstance(item, dict) for item in reshares):
            raise Bad("escrow_reshares is not an array of tables")
        for index, item in enumerate(reshares):
            self.reshare(seat, item, f"escrow_reshares[{index}]")
        if "escrow_reshare_complaint" in entry:
            self.reshare_complaint(seat, entry["escrow_reshare_complaint"])

    def reshare(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        """A holder's share of a handed-on seat's secret, sealed to its new player: until K are in."""
        only(item, ("seat", "ephemeral", "masked", *(["ephemeral_proof"] if self.proven else [])), where)
        handed = item.get("seat")
        given = self.reshared.get(handed) if isinstance(handed, str) else None
        if not isinstance(handed, str) or given is None or len(given) >= self.threshold or seat in given:
            raise Bad(f"{where}: {seat} owes no share of {handed!r}'s secret to a new player")
        dealing = self.dealings[handed]
        if seat not in dealing.sealed:
            raise Bad(f"{where}: {seat} holds no share of {handed}'s escrow")
        masked = scalars_of(self.grp, item.get("masked"), f"{where} masked")
        if len(masked) != 1:
            raise Bad(f"{where}: one masked share")
        ephemeral = element(self.grp, item.get("ephemeral"), f"{where} ephemeral")
        index = dealing.sealed[seat][0]
        if self.proven:
            proof = short_proof(self.grp, item.get("ephemeral_proof"), f"{where} ephemeral_proof")
            y = self.resharing[handed]
            if not ephemeral_proof_holds(
                self.grp, ephemeral, proof, self.game_id, "reshare", handed, seat, index, y
            ):
                raise Bad(
                    f"{where}: the proof of knowledge of the ephemeral point of {seat}'s share does "
                    "not verify"
                )
        given[seat] = (index, ephemeral, masked[0])
        self.report.count("share resealed")

    def reshare_complaint(self, seat: str, item: object) -> None:
        """The new player's complaint of a share sealed to it: judged as a complaint at the start,
        against the new player's receiving key."""
        where = "escrow_reshare_complaint"
        if not isinstance(item, dict):
            raise Bad(f"{where} is not a table")
        only(item, ("holder", "opened", "proof"), where)
        holder = item.get("holder")
        given = self.reshared.get(seat, {})
        if not isinstance(holder, str) or holder not in given:
            raise Bad(f"{where}: {holder!r} sealed no share of {seat}'s secret to its new player")
        index, ephemeral, masked = given[holder]
        receiving = self.resharing[seat]
        commitments = self.dealings[seat].commitments
        opened = element(self.grp, item.get("opened"), f"{where} opened")
        proof = short_proof(self.grp, item.get("proof"), f"{where} proof")
        fields = (self.game_id, seat, holder, index)
        if not complaint_proof_holds(
            self.grp, receiving, ephemeral, masked, opened, commitments, proof, *fields
        ):
            raise Bad(f"{where}: the proof of the complaint does not verify")
        share = unsealed(self.grp, receiving, ephemeral, masked, opened, *fields)
        matches = same_point(
            self.grp, self.grp.power(self.grp.g, share), holder_value(self.grp, commitments, index)
        )
        self.verdict = (
            f"{seat}'s new player complained of a sound share: it is at fault"
            if matches
            else f"{holder} sealed {seat}'s new player a share that does not match: {holder} is at fault"
        )
        self.report.notes.append(f"complaint of {seat}'s new player against {holder}: {self.verdict}")
        self.report.count("escrow complaint")

    def dealing(self, seat: str, item: object) -> None:
        if not isinstance(item, dict):
            raise Bad("escrow is not a table")
        only(
            item,
            ("commitments", "ephemeral", "masked", *(["ephemeral_proofs"] if self.proven else [])),
            "escrow",
        )
        if seat in self.dealings:
            raise Bad(f"escrow: {seat} has dealt its escrow already")
        commitments = elements_of(self.grp, item.get("commitments"), "escrow commitments")
        ephemeral = elements_of(self.grp, item.get("ephemeral"), "escrow ephemeral")
        masked = scalars_of(self.grp, item.get("masked"), "escrow masked")
        holders = self.holders(seat)
        if len(commitments) != self.threshold:
            raise Bad(f"escrow: {len(commitments)} commitments, not the threshold {self.threshold}")
        if not same_point(self.grp, commitments[0], self.deck_keys[seat]):
            raise Bad(f"escrow: the first commitment of {seat}'s dealing is not its deck key")
        if len(ephemeral) != len(holders) or len(masked) != len(holders):
            raise Bad(f"escrow: not one ephemeral point and one masked share for each of {holders}")
        sealed = {
            holder: (index, ephemeral[index - 1], masked[index - 1])
            for index, holder in enumerate(holders, start=1)
        }
        if self.proven:
            proofs = pieces(
                self.grp, item.get("ephemeral_proofs"), CHALLENGE + self.grp.size, "escrow ephemeral_proofs"
            )
            if len(proofs) != len(holders):
                raise Bad(f"escrow: not one proof of an ephemeral point for each of {holders}")
            for (holder, (index, r_point, _)), raw in zip(sealed.items(), proofs, strict=True):
                proof = short_proof(
                    self.grp, base64.b64encode(raw).decode("ascii"), "escrow ephemeral_proofs"
                )
                y = self.receiving[holder]
                if not ephemeral_proof_holds(
                    self.grp, r_point, proof, self.game_id, "dealing", seat, holder, index, y
                ):
                    raise Bad(
                        f"escrow: the proof of knowledge of the ephemeral point sealing {holder}'s share "
                        "does not verify"
                    )
        self.dealings[seat] = Dealing(commitments, sealed)
        self.report.count("escrow dealing")

    def answerable(self, seat: str, dealer: object, where: str) -> Dealing:
        dealing = self.dealings.get(dealer) if isinstance(dealer, str) else None
        if dealing is None:
            raise Bad(f"{where}: {dealer!r} has dealt no escrow to answer")
        if seat not in dealing.sealed:
            raise Bad(f"{where}: {seat} holds no share of {dealer}'s escrow")
        if seat in dealing.answered:
            raise Bad(f"{where}: {seat} has answered {dealer}'s escrow already")
        return dealing

    def complaint(self, seat: str, item: object) -> None:
        """A holder's complaint: its proof must hold; then the share it opens, checked against the
        commitments, says who lied, and the game stops there."""
        where = "escrow_complaint"
        if not isinstance(item, dict):
            raise Bad(f"{where} is not a table")
        only(item, ("dealer", "opened", "proof"), where)
        dealer = item.get("dealer")
        dealing = self.answerable(seat, dealer, where)
        assert isinstance(dealer, str)
        opened = element(self.grp, item.get("opened"), f"{where} opened")
        proof = short_proof(self.grp, item.get("proof"), f"{where} proof")
        index, ephemeral, masked = dealing.sealed[seat]
        receiving = self.receiving[seat]
        fields = (self.game_id, dealer, seat, index)
        if not complaint_proof_holds(
            self.grp, receiving, ephemeral, masked, opened, dealing.commitments, proof, *fields
        ):
            raise Bad(f"{where}: the proof of {seat}'s complaint against {dealer}'s escrow does not verify")
        share = unsealed(self.grp, receiving, ephemeral, masked, opened, *fields)
        matches = same_point(
            self.grp, self.grp.power(self.grp.g, share), holder_value(self.grp, dealing.commitments, index)
        )
        dealing.answered.add(seat)
        self.verdict = (
            f"{seat} complained of a sound share: {seat} is at fault"
            if matches
            else f"{dealer} sealed {seat} a share that does not match its commitments: {dealer} is at fault"
        )
        self.report.notes.append(f"escrow complaint of {seat} against {dealer}: {self.verdict}")
        self.report.count("escrow complaint")

    def partials(self, seat: str, item: Mapping[str, Any], where: str) -> None:
        """One table of a holder's partial decryptions of a silent seat's shares, only of
        positions a timeout unlocked; each position whose K-th partial this is gets the silent
        seat's share, combined."""
        only(item, ("seat", "deck", "slots", "partials", "proof"), where)
        silent = item.get("seat")
        retired = isinstance(silent, str) and silent in self.stood_in()
        if not isinstance(silent, str) or (silent not in self.unlocking and not retired):
            raise Bad(f"{where}: {silent!r} is not a seat being unlocked")
        dealing = self.dealings[silent]
        if seat not in dealing.sealed:
            raise Bad(f"{where}: {seat} holds no share of {silent}'s escrow")
        if str(item.get("deck", "")).startswith(SEALED_PLACE):
            self.sealed_partial(seat, silent, item, where)
            return
        index = dealing.sealed[seat][0]
        deck = self.deck(item, where)
        slots = item.get("slots")
        if (
            not isinstance(slots, list)
            or not slots
            or not all(type(slot) is int and 0 <= slot < len(deck.slots) for slot in slots)
            or len(set(slots)) != len(slots)
        ):
            raise Bad(f"{where}: slots is not an array of different slots of the deck")
        positions = self.unlocking.setdefault(silent, {})
        for slot in slots:
            given = positions.get((deck.name, slot))
            if given is None and retired:
                why = self.cannot_owe(silent, deck, slot)
                if why is not None:
                    state = "retired" if silent in self.retired() else "absent"
                    raise Bad(f"{where}: {silent} is {state}, but {why}, so {seat} may give no partial of it")
                given = positions[deck.name, slot] = {}  # unlocked as pbem stood in for it
            if given is None:
                raise Bad(
                    f"{where}: no timeout unlocked {silent}'s share of {deck.name}:{slot}, "
                    f"so {seat} may give no partial of it"
                )
            if index in given:
                raise Bad(f"{where}: a second partial of {silent}'s share of {deck.name}:{slot} by {seat}")
            if len(given) >= self.threshold:
                raise Bad(
                    f"{where}: {silent}'s share of {deck.name}:{slot} needs no more partial from {seat}"
                )
        values = elements_of(self.grp, item.get("partials"), f"{where} partials")
        if len(values) != len(slots):
            raise Bad(f"{where}: {len(values)} partials for {len(slots)} slots")
        proof = short_proof(self.grp, item.get("proof"), f"{where} proof")
        places = [(deck.name, slot, deck.slots[slot]) for slot in slots]
        if not partials_proof_holds(
            self.grp, dealing.commitments, index, places, values, proof, self.game_id, silent, seat
        ):
            raise Bad(f"{where}: the proof of {seat}'s partial decryptions for {silent} does not verify")
        for slot, value in zip(slots, values, strict=True):
            self.drawn(deck, slot)
            given = positions[deck.name, slot]
            given[index] = value
            self.report.count("partial decryption")
            if len(given) == self.threshold:
                # the silent seat's share, as if it had given it: kept with the slot's shares
                share = lagrange_combined(self.grp, given)
                deck.shares.setdefault(slot, {})[silent] = share
                self.report.count("share unlocked")
                if sorted(deck.shares[slot]) == sorted(self.seats):
                    self.open(deck, slot, deck.shares[slot], None, f"{where} slots")
                    self.report.count("card dealt face up")

    def timeout(self, entry: Mapping[str, Any], where: str) -> None:
        """A timeout against a seat's share starts the unlock of every share the file shows it
        owes (see ``owed_positions``); against its shuffle, the shuffle is skipped."""
        late, step = entry["late"], entry["step"]
        if late not in self.seats or late == entry["by"]:
            raise Bad(f"a timeout against {late!r}")
        if step.startswith("share of "):
            if self.verdict is not None or not self.complete():
                raise Bad(f"a timeout against {late}'s share before the escrow is complete")
            named = step.removeprefix("share of ")
            deck_id, _, number = named.rpartition(":")
            deck = self.deck({"deck": deck_id}, where)
            slot = int(number) if number.isdigit() else -1
            if (
                not 0 <= slot < len(deck.slots)
                or slot in deck.opened
                or late in deck.shares.get(slot, {})
                or (deck.shuffled < len(self.seats) and (deck.mixing is None or slot in deck.mixing))
            ):
                raise Bad(f"the timeout names {named}, a share {late} cannot owe")
            self.drawn(deck, slot)
            owed = self.owed_positions(late) | {(deck_id, slot)}
            unlocking = self.unlocking.setdefault(late, {})
            for place in owed:
                unlocking.setdefault(place, {})
        elif self.kept_back(late, step):
            # a sealed choice its seat keeps back: the holders open what it sealed to the escrow
            self.unlocking.setdefault(late, {}).setdefault((SEALED_PLACE + step, 0), {})
        elif step.startswith("shuffle of "):
            deck = self.deck({"deck": step.removeprefix("shuffle of ")}, where)
            if deck.shuffled == len(self.seats):  # a reshuffle the skipped seat begins
                deck.shuffled, deck.mixing = 0, []
            if self.seats[deck.shuffled] != late:
                raise Bad(f"a timeout against {late}'s shuffle of {deck.name}, which it does not owe")
            deck.shuffled += 1

    def kept_back(self, seat: str, step: str) -> bool:
        """Whether ``seat`` sealed its choice in ``step`` to the escrow and has not revealed it,
        with the escrow complete: what a timeout has the holders open."""
        return (
            (seat, step) in self.escrow_sealed
            and (seat, step) not in self.revealed
            and self.verdict is None
            and self.complete()
        )

    def sealed_partial(self, seat: str, silent: str, item: Mapping[str, Any], where: str) -> None:
        """A holder's partial ``s_i * T`` of the point of a sealed choice kept back (``T`` hashed
        from the game, the step and the seat): once K are in, they open it."""
        step = str(item["deck"]).removeprefix(SEALED_PLACE)
        dealing = self.dealings[silent]
        index = dealing.sealed[seat][0]
        if item.get("slots") != [0]:
            raise Bad(f"{where}: the opening of a sealed choice has the one slot 0")
        positions = self.unlocking.setdefault(silent, {})
        given = positions.get((item["deck"], 0))
        if given is None and silent in self.stood_in() and self.kept_back(silent, step):
            given = positions[item["deck"], 0] = {}  # opened as pbem stands in for it
        if given is None:
            raise Bad(f"{where}: no timeout has {silent}'s sealed {step} opened")
        if index in given or len(given) >= self.threshold:
            raise Bad(f"{where}: {silent}'s sealed {step} needs no more partial from {seat}")
        values = elements_of(self.grp, item.get("partials"), f"{where} partials")
        if len(values) != 1:
            raise Bad(f"{where}: one partial is wanted, not {len(values)}")
        value = values[0]
        proof = short_proof(self.grp, item.get("proof"), f"{where} proof")
        point = self.grp.hash_to_element(SEALED_POINT_DOMAIN, *map(text, (self.game_id, step, silent)))
        places = [(str(item["deck"]), 0, Ciphertext(point, point))]
        if not partials_proof_holds(
            self.grp, dealing.commitments, index, places, [value], proof, self.game_id, silent, seat
        ):
            raise Bad(
                f"{where}: the proof of {seat}'s partial opening {silent}'s sealed {step} does not verify"
            )
        given[index] = value
        self.report.count("partial decryption")
        if len(given) == self.threshold:
            self.revealed.add((silent, step))  # what the rules then read in its place
            self.report.count("sealed choice opened")

    def retire_option(self, options: object) -> None:
        """retire_after from the genesis options: absent, 0 (never); and timeouts: absent from
        the options, "demand" (each timeout stands in for one demand)."""
        assert isinstance(options, dict)  # escrow_options has refused anything else
        given = options.get("retire_after", 0)
        if type(given) is not int or given < 0:
            raise Bad(f"retire_after = {given!r} is not a count of deadlines")
        self.retire_after = given
        timeouts = options.get("timeouts", "demand")
        if timeouts not in ("absent", "demand"):
            raise Bad(f"timeouts = {timeouts!r} is neither 'absent' nor 'demand'")
        self.absence = timeouts == "absent"
        withheld = options.get("withheld", "default")
        if withheld not in ("open", "default"):
            raise Bad(f"withheld = {withheld!r} is neither 'open' nor 'default'")
        self.opens_sealed = withheld == "open"

    def retired(self) -> list[str]:
        """The seats with retire_after timeouts claimed against them."""
        if self.retire_after <= 0:
            return []
        return [seat for seat in self.seats if self.missed.get(seat, 0) >= self.retire_after]

    def stood_in(self) -> list[str]:
        """The seats pbem plays by the rules' defaults with no claim: the retired ones, and with
        timeouts = "absent" the absent ones."""
        return [seat for seat in self.seats if seat in self.absent or seat in self.retired()]

    def stands_in(self) -> bool:
        """pbem stands in for a retired seat's shares and shuffles only with the escrow complete
        and no complaint upheld, as it does for a timeout."""
        return bool(self.threshold) and self.verdict is None and self.complete()

    def skip_retired(self) -> None:
        """After each entry, as pbem settles it: every deck's shuffle or reshuffle under way
        passes over the retired seats whose turn it is."""
        if self.decks is not None:
            for deck in self.decks.values():
                self.skip_retired_in(deck)

    def skip_retired_in(self, deck: Deck) -> None:
        if not self.stands_in():
            return
        gone = self.stood_in()
        while deck.shuffled < len(self.seats) and self.seats[deck.shuffled] in gone:
            deck.shuffled += 1

    def cannot_owe(self, silent: str, deck: Deck, slot: int) -> str | None:
        """Why the file shows ``silent`` owes no share of the slot now, or None."""
        if not self.stands_in():
            return "the escrow is not complete"
        if deck.shuffled < len(self.seats) and (deck.mixing is None or slot in deck.mixing):
            return f"{deck.name}:{slot} is in a deck not every seat has shuffled"
        if slot in deck.opened:
            return f"{deck.name}:{slot} is open"
        if silent in deck.shares.get(slot, {}):
            return f"it gave its share of {deck.name}:{slot}"
        return None

    def kept_unlocking(self, seat: str) -> None:
        """``seat`` is played by the defaults no more (it signed, or was handed on): what pbem
        unlocked for it meanwhile stays unlocked, and this verifier, which took partials for it of
        any slot it could owe, now takes them only of those it could owe until then."""
        if not self.stands_in():
            return
        positions = self.unlocking.setdefault(seat, {})
        for name, deck in self.setup_decks().items():
            for slot in range(len(deck.slots)):
                if self.cannot_owe(seat, deck, slot) is None:
                    positions.setdefault((name, slot), {})

    def forget_unlock(self, deck: Deck, slot: int) -> None:
        """A card put under the deck takes a new ciphertext: an unlock of a share of the old one
        ends, its partials forgotten (partials of two ciphertexts combine into nothing)."""
        for positions in self.unlocking.values():
            positions.pop((deck.name, slot), None)

    def owed_positions(self, late: str) -> set[tuple[str, int]]:
        """The shares the file shows ``late`` owes, beside the one its timeout names: every slot
        drawn (another seat has given a share of its current ciphertext, or it left the pile above
        a slot the file shows drawn), not open, whose share ``late`` has not given. (Which seat
        drew a slot is the rules' to say: this cannot tell ``late``'s own card from one dealt face
        up, nor see the cards drawn after the last one the file shows drawn.)"""
        found = set()
        for name, deck in self.setup_decks().items():
            for slot in range(len(deck.slots)):
                given = deck.shares.get(slot, {})
                left = deck.pile is not None and slot not in deck.pile
                if slot not in deck.opened and late not in given and (given or left):
                    found.add((name, slot))
        return found

    def drawn(self, deck: Deck, slot: int) -> None:
        """The file shows ``slot`` drawn (a share of it, a card shown, a partial, a card put back
        or a timeout against its share): it and every slot above it have left the pile."""
        if deck.pile is None:
            deck.pile = list(range(len(deck.slots)))
        if slot in deck.pile:
            del deck.pile[: deck.pile.index(slot) + 1]

    def put_back(self, deck: Deck, slot: int) -> None:
        """A card put under the deck: drawn before, now the bottom of the pile."""
        self.drawn(deck, slot)
        assert deck.pile is not None
        deck.pile.append(slot)

    # --- the unsigned copies ---
    def copies(self, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> None:
        genesis = entries[0]
        head = self.step_hash(len(self.hashes) - 1)
        expected = {
            "format": 1,
            "id": self.game_id,
            "ruleset": genesis["ruleset"],
            "edition": genesis["edition"],
            "seats": self.seats,
            "entries": len(entries),
            "head": head,
        }
        for name in sorted(set(header) | set(HEADER)):
            if name not in expected or not same(header.get(name), expected[name]):
                self.problem(
                    "header", f"{name} is {header.get(name)!r}, the entries say {expected.get(name)!r}"
                )
        roster = self.data.get("roster", {})
        tables: dict[str, dict[str, Any]] = {
            seat: {
                "sign": base64.b64encode(sign).decode(),
                "box": base64.b64encode(box).decode(),
                "fingerprint": fingerprint(sign, box),
            }
            for seat, (sign, box, _) in self.keys.items()
        }
        for seat, handovers in self.handovers.items():
            holder, seq, _ = handovers[-1]
            tables[seat] |= {
                "holder": holder,
                "handed_over": seq,
                "held_before": [before for _, _, before in handovers],
            }
        for seat, seq in self.dropped.items():
            if seat in tables:
                tables[seat]["dropped"] = seq
        if not same(roster, tables):
            self.problem("roster", "the [roster] tables are not the keys the seats signed in")


def valid_name(name: str) -> bool:
    """1 to 32 letters, marks and digits of any script, '-' and '_', the first a letter or a
    decimal digit, in Unicode NFC."""
    if not 1 <= len(name) <= 32 or unicodedata.normalize("NFC", name) != name:
        return False
    first = unicodedata.category(name[0])
    if not (first.startswith("L") or first == "Nd"):
        return False
    return all(char in "-_" or unicodedata.category(char)[0] in "LMN" for char in name)


def only(item: Mapping[str, Any], names: Sequence[str], where: str) -> None:
    extra = sorted(set(item) - set(names))
    if extra:
        raise Bad(f"{where}: unexpected fields {extra}")


def step_back(game_id: str, seat: str, link: bytes) -> bytes:
    return hashlib.sha256(pae("pbem/rand-chain/v1", text(game_id), text(seat), link)).digest()


def void_moves(entries: Sequence[Mapping[str, Any]]) -> set[int]:
    """The seqs of the moves undone with every other seat's consent, read from the entries in
    file order: an undo opens a request, a consent with agree = false ends it, and the last of
    the other seats' consents with agree = true makes its target void. Every other seat still in
    the game, that is: a proposal to go on without a seat opens a request too, ended by a
    refusal or by the seat's own join, and done with the consent of every seat that has joined
    but its proposer and the seat, which then leaves the game."""
    seats = list(entries[0].get("seats", [])) if entries else []
    joined: set[Any] = set()
    void: set[int] = set()
    pending: dict[str, Any] | None = None
    for entry in entries:
        kind, target, by = entry.get("kind"), entry.get("target"), entry.get("by")
        if not isinstance(by, str) or (kind == "drop" and not isinstance(entry.get("seat"), str)):
            continue  # refused where it stands
        if kind in ("genesis", "join"):
            joined.add(by)
            if pending is not None and pending.get("drop") == by:
                pending = None
        if kind == "undo":
            pending = {"by": by, "target": target, "agreed": set()}
        elif kind == "drop":
            pending = {"by": by, "target": entry.get("seq"), "agreed": set(), "drop": entry.get("seat")}
        elif kind == "consent" and pending is not None and target == pending["target"]:
            if entry.get("agree") is not True:
                pending = None
                continue
            pending["agreed"].add(by)
        else:
            continue
        if pending is not None and "drop" in pending:
            if {seat for seat in seats if seat in joined} - {pending["by"], pending["drop"]} <= pending[
                "agreed"
            ]:
                seats = [seat for seat in seats if seat != pending["drop"]]
                pending = None
        elif (
            pending is not None and set(seats) - {pending["by"]} <= pending["agreed"] and type(target) is int
        ):
            void.add(target)
            pending = None
    return void


def verify(path: Path, cards: Mapping[str, Sequence[str]] | None = None) -> Report:
    """Check the game file at ``path``; ``cards`` names each hidden deck's cards, in order, for a
    game other than Princes of the Renaissance."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return Report([f"not a TOML file: {exc}"])
    try:
        return Verifier(data, cards).run()
    except (Bad, KeyError, TypeError, ValueError) as exc:
        return Report([f"cannot be read as a game file: {exc!r}"])


PLURAL = {
    "computer seat": "computer seats",
    "signature": "signatures",
    "address": "addresses",
    "deck key": "deck keys",
    "shuffle": "shuffles",
    "reveal": "reveals",
    "share": "shares",
    "card shown face up": "cards shown face up",
    "card dealt face up": "cards dealt face up",
    "card put under the deck": "cards put under the deck",
    "escrow key": "escrow keys",
    "escrow dealing": "escrow dealings",
    "escrow acknowledgement": "escrow acknowledgements",
    "escrow complaint": "escrow complaints",
    "partial decryption": "partial decryptions",
    "share unlocked": "shares unlocked",
    "handover": "handovers",
    "handover proposed": "handovers proposed",
    "handover by consent": "handovers by consent",
    "share resealed": "shares resealed",
    "drop proposed": "drops proposed",
    "seat gone on without": "seats gone on without",
    "seat set up anew": "seats set up anew",
    "timeout": "timeouts",
}


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description="Check a pbem game file without pbem.")
    parser.add_argument("file", type=Path)
    parser.add_argument("--cards", action="append", default=[], help="DECK=CARD,CARD,... (repeatable)")
    parser.add_argument("--time", action="store_true", help="say how long the checks took")
    args = parser.parse_args(argv)
    cards = {deck: names.split(",") for deck, _, names in (given.partition("=") for given in args.cards)}
    started = time.perf_counter()
    report = verify(args.file, cards or None)
    for problem in report.problems:
        out(f"problem: {problem}")
    checked = ", ".join(
        f"{count} {what if count == 1 else PLURAL[what]}" for what, count in report.counts.items()
    )
    verdict = "ok" if report.ok else "REFUSED"
    took = f" in {time.perf_counter() - started:.1f} s" if args.time else ""
    out(f"{verdict}: {args.file}: checked {checked}{took}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
