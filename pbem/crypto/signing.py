"""Ed25519 signatures over domain-separated messages, and the hash that chains entries.

A message is built like DSSE's pre-authentication encoding: the domain string, then each part
prefixed by its length in decimal, all separated by single spaces. Domains keep a signature made
for one purpose (an entry, an identity) from being accepted for another, and the game id in an
entry's message keeps an entry from being replayed into another game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used, so that start-up stays light
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.crypto.canonical import canonical_bytes

ENTRY_DOMAIN = "pbem/entry/v1"
IDENTITY_DOMAIN = "pbem/identity/v1"
FINGERPRINT_DOMAIN = "pbem/fingerprint/v1"
SIGNATURE_SIZE = 64
KEY_SIZE = 32


def pae(domain: str, *parts: bytes) -> bytes:
    """Pre-authentication encoding: ``domain SP len(p1) SP p1 SP len(p2) SP p2 ...``."""
    out = [domain.encode("ascii")]
    for part in parts:
        out.append(str(len(part)).encode("ascii"))
        out.append(part)
    return b" ".join(out)


def entry_body(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The signed fields of an entry: everything but its signature."""
    return {key: value for key, value in entry.items() if key != "sig"}


def entry_message(game_id: str, entry: Mapping[str, Any]) -> bytes:
    """The exact bytes an entry's signature covers."""
    return pae(ENTRY_DOMAIN, game_id.encode("utf-8"), canonical_bytes(entry_body(entry)))


def entry_hash(message: bytes, signature: bytes) -> str:
    """What the next entry's ``prev`` holds: SHA-256 of the signed message and its signature."""
    return hashlib.sha256(message + signature).hexdigest()


def sign(seed: bytes, message: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def signature_valid(public_key: bytes, message: bytes, signature: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature

    if len(public_key) != KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        _verifier(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@lru_cache(maxsize=64)
def _verifier(public_key: bytes) -> Ed25519PublicKey:
    """The key, loaded once: a game's entries are signed by one key per seat, and loading it
    again for every entry added about 1% to each check."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(public_key)


def fingerprint(sign_public: bytes, box_public: bytes) -> str:
    """A short code players read to each other to confirm an identity out of band.

    80 bits of SHA-256 over both public keys, in base32 groups of four (``ABCD-EFGH-IJKL-MNOP``).
    """
    import base64

    digest = hashlib.sha256(pae(FINGERPRINT_DOMAIN, sign_public, box_public)).digest()
    text = base64.b32encode(digest[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))
