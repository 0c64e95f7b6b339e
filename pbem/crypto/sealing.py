"""Sealed choices: a public commitment now, the value revealed later.

The commitment is SHA-256 over a domain-separated encoding of the game, the step, the seat, the
value and a 128-bit nonce, so it binds the value (a seat cannot reveal another) and hides it (the
nonce makes guessing a small value useless). Alongside it the value and nonce are encrypted to the
author's own X25519 key (ephemeral X25519, HKDF-SHA256, ChaCha20-Poly1305), so the author can
reveal from any machine that holds the key, and nobody else can read it before the reveal.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass

from pbem.crypto.signing import pae

COMMIT_DOMAIN = "pbem/commit/v1"
SEAL_DOMAIN = "pbem/seal/v1"
NONCE_SIZE = 16
KEY_SIZE = 32
PAD_BLOCK = 64


@dataclass(frozen=True)
class Opening:
    """What a reveal publishes: the value and the nonce that together match the commitment."""

    value: str
    nonce: bytes


def commitment(game_id: str, step: str, seat: str, opening: Opening) -> str:
    digest = hashlib.sha256(
        pae(
            COMMIT_DOMAIN,
            game_id.encode("utf-8"),
            step.encode("utf-8"),
            seat.encode("utf-8"),
            opening.value.encode("utf-8"),
            opening.nonce,
        )
    )
    return digest.hexdigest()


def matches(game_id: str, step: str, seat: str, opening: Opening, committed: str) -> bool:
    return len(opening.nonce) == NONCE_SIZE and hmac.compare_digest(
        commitment(game_id, step, seat, opening), committed
    )


def new_opening(value: str) -> Opening:
    return Opening(value, os.urandom(NONCE_SIZE))


def _context(game_id: str, step: str, seat: str, ephemeral: bytes, recipient: bytes) -> bytes:
    return pae(
        SEAL_DOMAIN,
        game_id.encode("utf-8"),
        step.encode("utf-8"),
        seat.encode("utf-8"),
        ephemeral,
        recipient,
    )


def seal(box_public: bytes, game_id: str, step: str, seat: str, opening: Opening) -> bytes:
    """Encrypt an opening to ``box_public``: ephemeral public key (32 bytes) then ciphertext."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    ephemeral = X25519PrivateKey.generate()
    ephemeral_public = ephemeral.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(box_public))
    context = _context(game_id, step, seat, ephemeral_public, box_public)
    key = HKDF(hashes.SHA256(), KEY_SIZE, salt=None, info=context).derive(shared)
    plaintext = opening.nonce + _pad(opening.value.encode("utf-8"))
    # A fresh key per message, so a fixed nonce is safe.
    return ephemeral_public + ChaCha20Poly1305(key).encrypt(bytes(12), plaintext, context)


def unseal(box_secret: bytes, sealed: bytes, game_id: str, step: str, seat: str) -> Opening:
    """Decrypt with the recipient's X25519 private key; raise ValueError if it does not open."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    if len(sealed) < KEY_SIZE + 16 + NONCE_SIZE:
        raise ValueError("sealed value is too short")
    private = X25519PrivateKey.from_private_bytes(box_secret)
    recipient = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    ephemeral_public, ciphertext = sealed[:KEY_SIZE], sealed[KEY_SIZE:]
    shared = private.exchange(X25519PublicKey.from_public_bytes(ephemeral_public))
    context = _context(game_id, step, seat, ephemeral_public, recipient)
    key = HKDF(hashes.SHA256(), KEY_SIZE, salt=None, info=context).derive(shared)
    try:
        plaintext = ChaCha20Poly1305(key).decrypt(bytes(12), ciphertext, context)
    except InvalidTag:
        raise ValueError("sealed value does not open with this key") from None
    try:
        value = _unpad(plaintext[NONCE_SIZE:]).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("sealed value is not text") from None
    return Opening(value, plaintext[:NONCE_SIZE])


def _pad(value: bytes) -> bytes:
    """Length-prefixed and padded to a multiple of PAD_BLOCK, so a sealed value's size does not
    tell, say, a one-digit bid from a two-digit one."""
    if len(value) > 0xFFFF:
        raise ValueError("sealed value is too long")
    body = len(value).to_bytes(2, "big") + value
    return body + bytes(-len(body) % PAD_BLOCK)


def _unpad(padded: bytes) -> bytes:
    if len(padded) < 2:
        raise ValueError("sealed value is damaged")
    size = int.from_bytes(padded[:2], "big")
    if size > len(padded) - 2:
        raise ValueError("sealed value is damaged")
    return padded[2 : 2 + size]


# --- sealed so that the escrow can open it ------------------------------------------------------
# With escrow, the value is also encrypted under a key only the seat's deck secret ``x`` and the
# escrow quorum reach: ``x * T``, for a point ``T`` hashed from the game, the step and the seat
# (engine.escrows.sealed_point), so nobody chooses it. A seat that keeps its reveal back is opened
# by the holders' partials ``s_i * T``, combined as for a card; a value that does not open to its
# commitment is its own fault, which the file shows.
ESCROW_SEAL_DOMAIN = "pbem/escrow-seal/v1"
ESCROW_NONCE_DOMAIN = "pbem/escrow-seal-nonce/v1"
AEAD_NONCE_SIZE = 12


def _escrow_key(point: bytes, game_id: str, step: str, seat: str) -> tuple[bytes, bytes]:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    context = pae(ESCROW_SEAL_DOMAIN, game_id.encode("utf-8"), step.encode("utf-8"), seat.encode("utf-8"))
    return HKDF(hashes.SHA256(), KEY_SIZE, salt=None, info=context).derive(point), context


def seal_to_point(point: bytes, game_id: str, step: str, seat: str, opening: Opening) -> bytes:
    """Encrypt an opening under a key derived from ``point`` (the encoded ``x * T``): the AEAD
    nonce (12 bytes), then the ciphertext. A seat whose commit was overtaken seals its step again
    under the same key, so the nonce is derived from the opening's own fresh nonce: never the same
    twice, and a hash of it, which leaves the commitment's nonce hidden."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    key, context = _escrow_key(point, game_id, step, seat)
    nonce = hashlib.sha256(pae(ESCROW_NONCE_DOMAIN, opening.nonce)).digest()[:AEAD_NONCE_SIZE]
    plaintext = opening.nonce + _pad(opening.value.encode("utf-8"))
    return nonce + ChaCha20Poly1305(key).encrypt(nonce, plaintext, context)


def open_with_point(point: bytes, sealed: bytes, game_id: str, step: str, seat: str) -> Opening:
    """The opening sealed to ``point``; raise ValueError if it does not open."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    if len(sealed) < AEAD_NONCE_SIZE + 16 + NONCE_SIZE:
        raise ValueError("the value sealed to the escrow is too short")
    key, context = _escrow_key(point, game_id, step, seat)
    nonce, ciphertext = sealed[:AEAD_NONCE_SIZE], sealed[AEAD_NONCE_SIZE:]
    try:
        plaintext = ChaCha20Poly1305(key).decrypt(nonce, ciphertext, context)
    except InvalidTag:
        raise ValueError("the value sealed to the escrow does not open with the escrow's key") from None
    try:
        value = _unpad(plaintext[NONCE_SIZE:]).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the value sealed to the escrow is not text") from None
    return Opening(value, plaintext[:NONCE_SIZE])
