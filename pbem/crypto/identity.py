"""Identities: a player's public keys, the secret keys behind them, and the exported line."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from pbem.crypto.encoding import b64, unb64
from pbem.crypto.signing import (
    IDENTITY_DOMAIN,
    KEY_SIZE,
    SIGNATURE_SIZE,
    fingerprint,
    pae,
    sign,
    signature_valid,
)
from pbem.errors import IdentityError, UsageError

IDENTITY_LINE_TAG = "pbem-identity/1"
GAME_SECRET_DOMAIN = "pbem/game-secret/v1"
NAME_LIMIT = 32
NAME_RULE = (
    f"use 1 to {NAME_LIMIT} letters of any alphabet, digits, '-' or '_', starting with a letter "
    "or digit (no spaces)"
)


def valid_name(name: object) -> bool:
    """A name of a key or a seat: short, one word, of letters in any script (José, 李雷), digits
    (a letter's accents and vowel signs count with it), '-' and '_', written in the one Unicode
    form (NFC) so that the same name is always the same bytes, in a signature and a file name."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_LIMIT:
        return False
    if unicodedata.normalize("NFC", name) != name:
        return False
    first = unicodedata.category(name[0])
    if not (first.startswith("L") or first == "Nd"):
        return False
    return all(char in "-_" or unicodedata.category(char)[0] in "LMN" for char in name)


def check_name(name: str, what: str = "name") -> str:
    if not valid_name(name):
        if isinstance(name, str) and valid_name(unicodedata.normalize("NFC", name)):
            raise UsageError(f"invalid {what} {name!r}: write its accents composed (Unicode NFC)")
        raise UsageError(f"invalid {what} {name!r}: {NAME_RULE}")
    return name


@dataclass(frozen=True)
class PublicIdentity:
    name: str
    sign_public: bytes
    box_public: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.sign_public, self.box_public)

    def binding_message(self) -> bytes:
        return pae(IDENTITY_DOMAIN, self.name.encode("utf-8"), self.sign_public, self.box_public)


@dataclass(frozen=True)
class SecretKeys:
    """The two private keys of one identity: an Ed25519 seed and an X25519 private key."""

    sign_seed: bytes
    box_secret: bytes

    @classmethod
    def generate(cls) -> SecretKeys:
        import os

        return cls(os.urandom(KEY_SIZE), os.urandom(KEY_SIZE))

    def public(self, name: str) -> PublicIdentity:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

        raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
        sign_public = Ed25519PrivateKey.from_private_bytes(self.sign_seed).public_key()
        box_public = X25519PrivateKey.from_private_bytes(self.box_secret).public_key()
        return PublicIdentity(name, sign_public.public_bytes(*raw), box_public.public_bytes(*raw))

    def sign(self, message: bytes) -> bytes:
        return sign(self.sign_seed, message)

    def for_game(self, bound: str) -> bytes:
        """The seed of every secret this identity has in one game (its randomness chain, its
        hidden-deck key, its shuffles): HMAC-SHA256 of ``bound`` under the signing seed. The
        ledger binds it to the game's genesis entry, so no two games, even with one id, share
        a secret."""
        import hashlib
        import hmac

        return hmac.new(
            self.sign_seed, pae(GAME_SECRET_DOMAIN, bound.encode("utf-8")), hashlib.sha256
        ).digest()

    def __repr__(self) -> str:  # never let a secret reach a log or traceback
        return "SecretKeys(<hidden>)"


def identity_line(identity: PublicIdentity, secret: SecretKeys) -> str:
    """``pbem-identity/1 NAME SIGNKEY BOXKEY SELFSIG``: the shareable, self-signed public identity."""
    signature = secret.sign(identity.binding_message())
    return " ".join(
        (
            IDENTITY_LINE_TAG,
            identity.name,
            b64(identity.sign_public),
            b64(identity.box_public),
            b64(signature),
        )
    )


def parse_identity_line(text: str, source: str) -> PublicIdentity:
    """Read an identity line, checking its self-signature; errors name ``source``."""
    return parse_signed_identity_line(text, source)[0]


def identity_signed(identity: PublicIdentity, signature: bytes) -> bool:
    """True if ``signature`` is ``identity``'s self-signature: its signing key vouches for its
    name and box key."""
    return signature_valid(identity.sign_public, identity.binding_message(), signature)


def parse_signed_identity_line(text: str, source: str) -> tuple[PublicIdentity, bytes]:
    """An identity line read, its self-signature checked and kept (a handover carries it)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    tagged = [line for line in lines if line.split()[0] == IDENTITY_LINE_TAG]
    if not tagged:
        raise IdentityError(
            f"{source}: holds no pbem identity (a line '{IDENTITY_LINE_TAG} NAME SIGNKEY BOXKEY SIG', "
            "as 'pbem key export' writes it)"
        )
    if len(tagged) > 1:
        raise IdentityError(f"{source}: holds {len(tagged)} identities; import them one file at a time")
    if len(lines) != 1:
        raise IdentityError(f"{source}: expected one '{IDENTITY_LINE_TAG}' line, found {len(lines)}")
    fields = lines[0].split()
    if len(fields) != 5 or fields[0] != IDENTITY_LINE_TAG:
        raise IdentityError(
            f"{source}: not a pbem identity line (expected '{IDENTITY_LINE_TAG} NAME SIGNKEY BOXKEY SIG')"
        )
    _, name, sign_text, box_text, sig_text = fields
    if not valid_name(name):
        raise IdentityError(f"{source}: invalid identity name {name!r}")
    try:
        identity = PublicIdentity(name, unb64(sign_text, KEY_SIZE), unb64(box_text, KEY_SIZE))
        signature = unb64(sig_text, SIGNATURE_SIZE)
    except ValueError as exc:
        raise IdentityError(f"{source}: damaged identity line ({exc})") from exc
    if not identity_signed(identity, signature):
        raise IdentityError(f"{source}: identity self-signature does not verify (line altered?)")
    return identity, signature
