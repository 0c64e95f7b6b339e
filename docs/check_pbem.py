"""Check the signatures, hash chain, randomness links and reveals of a pbem game file without pbem.

Usage: python3 check_pbem.py GAME.toml   (Python 3.11 or later, and the 'cryptography' package)
"""

import base64
import hashlib
import json
import re
import sys
import tomllib
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def canonical(value: Any) -> bytes:
    # pbem also refuses floats, dates and times, and integers outside the signed 64-bit range.
    return json.dumps(
        value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")


def pae(domain: str, *parts: bytes) -> bytes:
    out = [domain.encode("ascii")]
    for part in parts:
        out += [str(len(part)).encode("ascii"), part]
    return b" ".join(out)


def unb64(text: str, size: int) -> bytes:
    # Like pbem, accept only canonical base64: the one text that b64encode gives for the bytes.
    raw = base64.b64decode(text, validate=True)
    if len(raw) != size or base64.b64encode(raw).decode("ascii") != text:
        raise ValueError(f"not the canonical base64 of {size} bytes")
    return raw


def hex_bytes(text: str, size: int) -> bytes:
    if not isinstance(text, str) or not re.fullmatch(f"[0-9a-f]{{{2 * size}}}", text):
        raise ValueError(f"not {2 * size} lower-case hex digits")
    return bytes.fromhex(text)


def fingerprint(sign: bytes, box: bytes) -> str:
    digest = hashlib.sha256(pae("pbem/fingerprint/v1", sign, box)).digest()
    text = base64.b32encode(digest[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def game_id_of(genesis: dict[str, Any]) -> str:
    # A hash of the genesis entry, but for the fields that follow from the id.
    derived = ("game_id", "rand_tip", "deck_key", "deck_key_proof", "escrow_key", "escrow_key_proof", "sig")
    core = {name: value for name, value in genesis.items() if name not in derived}
    return hashlib.sha256(pae("pbem/game-id/v1", canonical(core))).hexdigest()[:32]


def step_hash(hashes: list[str]) -> str:
    # One entry: its own hash. Several: SHA-256 over their raw 32-byte hashes, in file order.
    if len(hashes) == 1:
        return hashes[0]
    return hashlib.sha256(pae("pbem/step/v1", *(bytes.fromhex(h) for h in hashes))).hexdigest()


def link_before(game_id: str, seat: str, link: bytes) -> bytes:
    # One step back along a seat's randomness chain: the link its previous entry revealed.
    parts = (game_id.encode("utf-8"), seat.encode("utf-8"), link)
    return hashlib.sha256(pae("pbem/rand-chain/v1", *parts)).digest()


def commitment(game_id: str, step: str, seat: str, value: str, nonce: bytes) -> str:
    parts = [text.encode("utf-8") for text in (game_id, step, seat, value)]
    return hashlib.sha256(pae("pbem/commit/v1", *parts, nonce)).hexdigest()


def check(path: str) -> int:
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    entries = data["entry"]
    game_id = entries[0]["game_id"]  # the signed game id, not the header's copy
    order = {seat: n for n, seat in enumerate(entries[0]["seats"])}  # the signed seating order
    keys: dict[str, tuple[bytes, bytes, int]] = {}  # seat -> sign key, box key, step of its join
    links: dict[str, tuple[int, bytes]] = {}  # seat -> links revealed so far, the last one
    commitments: dict[tuple[str, str], str] = {}  # (seat, sealed step) -> commitment
    steps: list[list[str]] = []  # steps[n]: hashes of the entries of step n, in file order
    in_step: list[str] = []  # the seats with an entry in the current step
    failures = 0
    for entry in entries:
        seq, seat, kind = entry["seq"], entry["by"], entry["kind"]
        body = {name: value for name, value in entry.items() if name != "sig"}
        message = pae("pbem/entry/v1", game_id.encode("utf-8"), canonical(body))
        problems = []
        if kind == "genesis" and game_id_of(entry) != game_id:
            problems.append("game_id is not the hash of the genesis entry")
        try:
            signature = unb64(entry["sig"], 64)
        except ValueError:
            signature = b""  # pbem, too, hashes such an entry with no signature bytes
            problems.append("its signature is not 64 bytes of base64")
        if seat not in order:
            problems.append(f"{seat!r} is not a seat of this game")
        # Its place: the entry starts the next step, or joins the step of the entry before it.
        prev: str | None
        if seq == len(steps):
            prev = step_hash(steps[-1]) if steps else ""
            steps.append([])
            in_step = []
        elif seq == len(steps) - 1 and seq > 0:
            prev = step_hash(steps[-2])
            if order.get(seat, -1) <= order.get(in_step[-1], -1):
                problems.append(
                    f"comes after {in_step[-1]}'s entry in step {seq}: a step holds "
                    "at most one entry per seat, in seat order"
                )
        else:
            problems.append(f"seq {seq} neither starts step {len(steps)} nor continues step {len(steps) - 1}")
            prev = None
            steps.append([])
            in_step = []
        if prev is not None and entry["prev"] != prev:
            problems.append(f"prev is not the hash of step {seq - 1}" if seq else "prev is not empty")
        first_in_step = seat not in in_step
        if kind in ("genesis", "join") and seat not in keys:
            # The entry that brings a key in is signed by that same key, and publishes the tip
            # of the seat's randomness chain.
            try:
                keys[seat] = (unb64(entry["sign"], 32), unb64(entry["box"], 32), seq)
                links[seat] = (0, hex_bytes(entry["rand_tip"], 32))
            except ValueError:
                problems.append("its public keys or its rand_tip are malformed")
        if seat not in keys or (kind not in ("genesis", "join") and keys[seat][2] >= seq):
            # A key counts from the step after the one that brought it in.
            problems.append(f"{seat!r} has no key at this point")
        else:
            if signature:
                try:
                    Ed25519PublicKey.from_public_bytes(keys[seat][0]).verify(signature, message)
                except InvalidSignature:
                    problems.append(f"signature does not verify against {seat}'s key")
            if kind not in ("genesis", "join") and first_in_step and seat in links:
                # Every later entry reveals the next link: one hash of it gives the last one.
                count, last = links[seat]
                try:
                    link: bytes | None = hex_bytes(entry["rand"], 32)
                except ValueError:
                    link = None
                if link is not None and link_before(game_id, seat, link) == last:
                    links[seat] = (count + 1, link)
                else:
                    problems.append(f"rand is not the next link of {seat}'s chain (contribution {count + 1})")
            if kind == "handover" and first_in_step and not problems:
                # The seat goes to the key the entry names: it signs the seat's later entries.
                try:
                    keys[seat] = (unb64(entry["sign"], 32), unb64(entry["box"], 32), keys[seat][2])
                except ValueError:
                    problems.append("the new holder's public keys are malformed")
        if kind == "commit" and first_in_step:
            commitments.setdefault((seat, entry["step"]), entry["commitment"])
        if kind == "reveal" and first_in_step:
            committed = commitments.get((seat, entry["step"]))
            try:
                nonce = hex_bytes(entry["nonce"], 16)
                opened: str | None = commitment(game_id, entry["step"], seat, entry["value"], nonce)
            except ValueError:
                opened = None
            if committed is None:
                problems.append(f"{seat} has no commitment for the {entry['step']}")
            elif opened != committed:
                problems.append(f"value and nonce do not match {seat}'s commitment")
        print(f"entry {seq} ({kind} by {seat}): {'; '.join(problems) or 'ok'}")
        failures += bool(problems)
        steps[-1].append(hashlib.sha256(message + signature).hexdigest())
        in_step.append(seat)
    head = step_hash(steps[-1])
    header = data["game"]
    if header.get("entries") != len(entries) or header.get("head") != head:
        print(f"header: entries or head do not match the entries ({len(entries)}, {head})")
        failures += 1
    else:
        print(f"header: {len(entries)} entries in {len(steps)} steps, head {head}")
    for seat, (sign, box, _) in keys.items():
        print(f"  {seat:<16} {fingerprint(sign, box)}  links revealed: {links[seat][0]}")
    return failures


if __name__ == "__main__":
    sys.exit(1 if check(sys.argv[1]) else 0)
