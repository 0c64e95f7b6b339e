"""The contents of a private key file: secret keys sealed under a passphrase.

scrypt derives a 32-byte key from the passphrase; ChaCha20-Poly1305 encrypts the two private keys
with the file's public fields as associated data, so editing a public field breaks decryption.
The sealed fields and the scrypt parameters are signed with the key's own signing key (``seal``),
and the signature is checked before scrypt runs: whoever edits the parameters (to make pbem spend
a gigabyte and then call the right passphrase wrong) cannot sign them again without the
passphrase, so an edited file is reported as edited, and a failed decryption of an intact one
means a wrong passphrase. Files made before the seal carry an unkeyed checksum instead; for them
only the parameters pbem has always written are accepted. Every parameter is stored in the file,
so stronger settings later still open old files.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.crypto.encoding import b64, unb64
from pbem.crypto.identity import (
    PublicIdentity,
    SecretKeys,
    identity_line,
    parse_identity_line,
    valid_name,
)
from pbem.crypto.signing import KEY_SIZE, SIGNATURE_SIZE, pae, signature_valid
from pbem.errors import IdentityError

KEYFILE_FORMAT = "pbem-key/1"
KEYFILE_DOMAIN = "pbem/keyfile/v1"
SCRYPT_LOG_N = 17  # 128 MiB and a few tenths of a second: the cost age and OWASP suggest
SCRYPT_R = 8
SCRYPT_P = 1
LOG_N_RANGE = range(15, 19)  # 32 to 256 MiB: refuse files that would demand absurd time or memory
SCRYPT_MEMORY_LIMIT = 2**28  # bytes: scrypt needs 128 * r * n
SCRYPT_FIELDS = ("log_n", "r", "p", "salt", "cipher", "nonce", "ciphertext")
SEAL_DOMAIN = "pbem/keyfile-seal/v1"
NONCE_SIZE = 12
SALT_SIZE = 16


class KeyFileDamaged(ValueError):
    """The key file's contents are malformed (the message says what)."""


class WrongPassphrase(ValueError):
    """Decryption failed with an intact file: the passphrase is wrong."""


@dataclass(frozen=True)
class SealedKey:
    identity: PublicIdentity
    line: str
    created: str
    secret: dict[str, Any]

    @property
    def encrypted(self) -> bool:
        return self.secret.get("kdf") != "none"


def _aad(identity: PublicIdentity, params: str) -> bytes:
    return pae(
        KEYFILE_DOMAIN,
        identity.name.encode("utf-8"),
        identity.sign_public,
        identity.box_public,
        params.encode("ascii"),
    )


def _seal_message(params: str, secret: Mapping[str, Any], public: Mapping[str, Any]) -> bytes:
    fields = (secret.get("salt"), secret.get("nonce"), secret.get("ciphertext"), *public.values())
    return pae(SEAL_DOMAIN, params.encode("ascii"), *(str(field).encode("utf-8") for field in fields))


def _public(data: Mapping[str, Any]) -> dict[str, Any]:
    return {name: data.get(name) for name in ("name", "sign_public", "box_public")}


def _checksum(*parts: str) -> str:
    return hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest()[:16]


def _derive(passphrase: str, salt: bytes, log_n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=2**log_n, r=r, p=p).derive(passphrase.encode("utf-8"))


def seal(secret: SecretKeys, name: str, passphrase: str | None, created: str) -> dict[str, Any]:
    """The key file's data; ``passphrase=None`` stores the keys unencrypted."""
    identity = secret.public(name)
    plain = secret.sign_seed + secret.box_secret
    sealed: dict[str, Any]
    if passphrase is None:
        sealed = {"kdf": "none", "keys": b64(plain)}
    else:
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        salt, nonce = os.urandom(SALT_SIZE), os.urandom(NONCE_SIZE)
        params = f"scrypt:{SCRYPT_LOG_N}:{SCRYPT_R}:{SCRYPT_P}"
        key = _derive(passphrase, salt, SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P)
        ciphertext = ChaCha20Poly1305(key).encrypt(nonce, plain, _aad(identity, params))
        sealed = {
            "kdf": "scrypt",
            "log_n": SCRYPT_LOG_N,
            "r": SCRYPT_R,
            "p": SCRYPT_P,
            "salt": b64(salt),
            "cipher": "chacha20-poly1305",
            "nonce": b64(nonce),
            "ciphertext": b64(ciphertext),
        }
    public = {"name": name, "sign_public": b64(identity.sign_public), "box_public": b64(identity.box_public)}
    if passphrase is not None:
        sealed["seal"] = b64(secret.sign(_seal_message(params, sealed, public)))
    return {
        "format": KEYFILE_FORMAT,
        **public,
        "fingerprint": identity.fingerprint,
        "identity": identity_line(identity, secret),
        "created": created,
        "secret": sealed,
    }


def _check_sum(data: Mapping[str, Any], secret: Mapping[str, Any], params: str) -> bool:
    public = (str(data.get("name")), str(data.get("sign_public")), str(data.get("box_public")))
    sealed = (str(secret.get("salt")), str(secret.get("nonce")), str(secret.get("ciphertext")))
    return secret.get("checksum") == _checksum(params, *sealed, *public)


def read_sealed(data: dict[str, Any]) -> SealedKey:
    """Check the key file's structure and public fields; raise KeyFileDamaged."""
    if data.get("format") != KEYFILE_FORMAT:
        raise KeyFileDamaged(f"format is {data.get('format')!r}, expected {KEYFILE_FORMAT!r}")
    try:
        name = data["name"]
        identity = PublicIdentity(
            name,
            unb64(data["sign_public"], KEY_SIZE),
            unb64(data["box_public"], KEY_SIZE),
        )
        secret = data["secret"]
    except KeyError as exc:
        raise KeyFileDamaged(f"missing field {exc.args[0]!r}") from exc
    except (ValueError, TypeError) as exc:
        raise KeyFileDamaged(f"bad public key ({exc})") from exc
    if not valid_name(name):
        raise KeyFileDamaged(f"invalid name {name!r}")
    if not isinstance(secret, dict) or secret.get("kdf") not in ("scrypt", "none"):
        raise KeyFileDamaged("the [secret] table is missing or has an unknown kdf")
    if data.get("fingerprint") != identity.fingerprint:
        raise KeyFileDamaged("fingerprint does not match the public keys")
    line = data.get("identity")
    try:
        if not isinstance(line, str) or parse_identity_line(line, "identity") != identity:
            raise KeyFileDamaged("the identity line does not match the public keys")
    except IdentityError as exc:
        raise KeyFileDamaged(str(exc)) from None
    required = SCRYPT_FIELDS if secret["kdf"] == "scrypt" else ("keys",)
    for field in required:
        if field not in secret:
            raise KeyFileDamaged(f"missing field secret.{field}")
    if secret["kdf"] == "scrypt":
        _check_seal(data, secret, identity)
    return SealedKey(identity, line, str(data.get("created", "")), secret)


def _check_seal(data: Mapping[str, Any], secret: Mapping[str, Any], identity: PublicIdentity) -> None:
    """The sealed fields and scrypt parameters are as the key's owner wrote them (see above)."""
    params = f"scrypt:{secret.get('log_n')}:{secret.get('r')}:{secret.get('p')}"
    if "seal" in secret:
        try:
            signature = unb64(secret["seal"], SIGNATURE_SIZE)
        except (ValueError, TypeError):
            raise KeyFileDamaged("secret.seal is not a signature") from None
        if not signature_valid(identity.sign_public, _seal_message(params, secret, _public(data)), signature):
            raise KeyFileDamaged(
                "its sealed fields or scrypt parameters were edited (the seal does not verify)"
            )
        return
    if "checksum" not in secret:
        raise KeyFileDamaged("missing field secret.seal")
    if not _check_sum(data, secret, params):
        raise KeyFileDamaged("checksum does not match the sealed keys and public fields")
    if (secret.get("log_n"), secret.get("r"), secret.get("p")) != (SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P):
        # an unsealed file's checksum anyone can recompute: only the parameters pbem wrote
        raise KeyFileDamaged("scrypt parameters differ from those pbem wrote: the file was edited")


def unseal(sealed: SealedKey, passphrase: str | None) -> SecretKeys:
    """Open the secret keys; raise WrongPassphrase or KeyFileDamaged."""
    secret = sealed.secret
    try:
        if secret["kdf"] == "none":
            plain = unb64(secret["keys"], 2 * KEY_SIZE)
        else:
            plain = _decrypt(sealed.identity, secret, passphrase)
    except KeyError as exc:
        raise KeyFileDamaged(f"missing field secret.{exc.args[0]}") from exc
    except (TypeError, ValueError) as exc:
        if isinstance(exc, (WrongPassphrase, KeyFileDamaged)):
            raise
        raise KeyFileDamaged(f"bad secret field ({exc})") from exc
    keys = SecretKeys(plain[:KEY_SIZE], plain[KEY_SIZE:])
    if keys.public(sealed.identity.name) != sealed.identity:
        raise KeyFileDamaged("the secret keys do not match the public keys")
    return keys


def _decrypt(identity: PublicIdentity, secret: dict[str, Any], passphrase: str | None) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    log_n, r, p = secret["log_n"], secret["r"], secret["p"]
    if not all(isinstance(v, int) for v in (log_n, r, p)) or log_n not in LOG_N_RANGE:
        raise KeyFileDamaged("scrypt parameters out of range")
    if not (1 <= r <= 32 and 1 <= p <= 4) or 128 * r * 2**log_n > SCRYPT_MEMORY_LIMIT:
        raise KeyFileDamaged("scrypt parameters out of range")
    if secret.get("cipher") != "chacha20-poly1305":
        raise KeyFileDamaged("unsupported cipher parameters")
    params = f"scrypt:{log_n}:{r}:{p}"
    salt = unb64(secret["salt"], SALT_SIZE)
    nonce = unb64(secret["nonce"], NONCE_SIZE)
    ciphertext = unb64(secret["ciphertext"], 2 * KEY_SIZE + 16)
    if passphrase is None:
        raise WrongPassphrase("this key needs a passphrase")
    key = _derive(passphrase, salt, log_n, r, p)
    try:
        return ChaCha20Poly1305(key).decrypt(nonce, ciphertext, _aad(identity, params))
    except InvalidTag as exc:
        raise WrongPassphrase("wrong passphrase") from exc
