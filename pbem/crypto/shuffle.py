"""Shuffling the hidden deck: re-mask every card, permute the deck, and show it was done right.

A shuffle re-randomizes each ciphertext with a fresh ``r`` (``(c1 g^r, c2 H^r)``: the same card,
unrecognizable without every seat's secret) and permutes the deck. Every seat shuffles in turn,
so the final order is the composition of every seat's permutation and nobody knows it unless all
seats pool their choices: one honest shuffler is enough to make it uniform and hidden.

Both the permutation and the masks come from one 32-byte seed, so a seat's shuffle is a
deterministic function of the seed and its input deck. There are two ways to show a shuffle was
honest, and the engine may use either:

* **Proven** (:mod:`pbem.crypto.shuffle_proof`, the default to prefer): a zero-knowledge proof
  of shuffle published with the new deck, checked by everyone before the next entry. A seat that
  drops, duplicates, swaps in or alters a card is refused at once, and the seed is never shown.
  It costs about a second or two per shuffle to make and to check in pure Python.
* **Audited** (this module): the shuffle entry carries a commitment to the seed; at the end of
  the game (or of the deck's use) the seat reveals the seed and anyone recomputes the shuffle.
  Cheap (one shuffle's work per check, no proof) but it only *detects*, and late: a seat that
  put cards of its choosing into the deck, or a copy of the best card, could read or steer the
  draws for the whole game, and the audit only voids the result afterwards. The reveal also makes
  the whole deck's order public, so it can only happen once no card of that deck is still hidden.
  A seat that never reveals its seed cannot be audited: the engine must treat that as a failed
  audit (forfeit), exactly like a wrong seed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.crypto.groups import MODP_2048, Element, Group
from pbem.crypto.hidden_deck import SEED_SIZE, Ciphertext
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

PERMUTATION_DOMAIN = "pbem/hidden-deck/shuffle-permutation/v1"
MASK_DOMAIN = "pbem/hidden-deck/shuffle-mask/v1"
SEED_COMMIT_DOMAIN = "pbem/hidden-deck/shuffle-seed/v1"


@dataclass(frozen=True)
class ShuffleSecret:
    """What a seed determines: ``output[i]`` is ``input[permutation[i]]`` re-masked by ``masks[i]``."""

    permutation: tuple[int, ...]
    masks: tuple[int, ...]


def _context(seed: bytes, game_id: str, deck_id: str, seat: str) -> list[bytes]:
    if len(seed) != SEED_SIZE:
        raise ValueError(f"a shuffle seed is {SEED_SIZE} bytes")
    return [game_id.encode("utf-8"), deck_id.encode("utf-8"), seat.encode("utf-8"), seed]


def _permutation(size: int, material: bytes) -> tuple[int, ...]:
    """A uniform permutation (Fisher-Yates, rejection sampling) from an extendable hash."""
    need = 4 * size + 64
    stream = hashlib.shake_256(material).digest(need)
    offset = 0
    order = list(range(size))
    for top in range(size - 1, 0, -1):
        bound = top + 1
        mask = (1 << bound.bit_length()) - 1
        while True:
            if offset + 2 > len(stream):  # rejections ran past the buffer: extend it
                need *= 2
                stream = hashlib.shake_256(material).digest(need)
            candidate = int.from_bytes(stream[offset : offset + 2], "big") & mask
            offset += 2
            if candidate < bound:
                break
        order[top], order[candidate] = order[candidate], order[top]
    return tuple(order)


def shuffle_secret(
    seed: bytes, size: int, *, game_id: str, deck_id: str, seat: str, group: Group = MODP_2048
) -> ShuffleSecret:
    """The permutation and masks a seat's seed gives for a deck of ``size`` cards."""
    if not 0 < size <= 0xFFFF:
        raise ValueError("a deck holds 1 to 65535 cards")
    context = _context(seed, game_id, deck_id, seat)
    permutation = _permutation(size, pae(PERMUTATION_DOMAIN, *context))
    masks = tuple(group.hash_to_scalar(MASK_DOMAIN, *context, str(i).encode("ascii")) for i in range(size))
    return ShuffleSecret(permutation, masks)


def statement(
    domain: str,
    group: Group,
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint: Element,
    *,
    game_id: str,
    deck_id: str,
    seat: str,
) -> bytes:
    """What a proof of shuffle speaks for, hashed under its own ``domain``: the game, deck and
    seat, the joint key and both decks, so a proof made for another shuffle does not verify."""
    return hashlib.sha256(
        pae(
            group.domain(domain),
            game_id.encode("utf-8"),
            deck_id.encode("utf-8"),
            seat.encode("utf-8"),
            group.encode(joint),
            b"".join(group.encode(c.c1) + group.encode(c.c2) for c in before),
            b"".join(group.encode(c.c1) + group.encode(c.c2) for c in after),
        )
    ).digest()


@dataclass(frozen=True)
class ShuffleStatement:
    """What a proof of shuffle claims: ``after`` is ``before`` permuted and re-masked under the
    joint key, by ``seat`` in the ``deck_id`` deck of ``game_id``. Both proof systems take it,
    so the one claim is named once whichever group proves it."""

    before: Sequence[Ciphertext]
    after: Sequence[Ciphertext]
    joint: Element
    game_id: str
    deck_id: str
    seat: str
    group: Group = MODP_2048

    @property
    def where(self) -> str:
        """How a problem with the shuffle is named."""
        return f"shuffle of {self.deck_id} by seat {self.seat}"

    def digest(self, domain: str) -> bytes:
        """The statement hashed under a proof system's own ``domain`` (see :func:`statement`)."""
        return statement(
            domain,
            self.group,
            self.before,
            self.after,
            self.joint,
            game_id=self.game_id,
            deck_id=self.deck_id,
            seat=self.seat,
        )


def remask(ciphertext: Ciphertext, joint: Element, mask: int, *, group: Group = MODP_2048) -> Ciphertext:
    """The same card under fresh randomness: ``(c1 g^mask, c2 H^mask)``."""
    return Ciphertext(
        group.multiply(ciphertext.c1, group.base_power(mask)),
        group.multiply(ciphertext.c2, group.fixed_base(joint)(mask)),
    )


def apply(
    deck: Sequence[Ciphertext], joint: Element, secret: ShuffleSecret, *, group: Group = MODP_2048
) -> list[Ciphertext]:
    if len(secret.permutation) != len(deck) or sorted(secret.permutation) != list(range(len(deck))):
        raise ValueError("the permutation does not fit the deck")
    return [
        remask(deck[source], joint, mask, group=group)
        for source, mask in zip(secret.permutation, secret.masks, strict=True)
    ]


def shuffle(
    deck: Sequence[Ciphertext],
    joint: Element,
    seed: bytes,
    *,
    game_id: str,
    deck_id: str,
    seat: str,
    group: Group = MODP_2048,
) -> tuple[list[Ciphertext], ShuffleSecret]:
    """A seat's shuffle of ``deck``: the new deck, and the secret a proof of it needs."""
    secret = shuffle_secret(seed, len(deck), game_id=game_id, deck_id=deck_id, seat=seat, group=group)
    return apply(deck, joint, secret, group=group), secret


# --- the audited variant --------------------------------------------------------------------------
def seed_commitment(seed: bytes, *, game_id: str, deck_id: str, seat: str) -> str:
    """What an audited shuffle entry carries so the seed cannot be chosen after the fact.

    The seed is 256 random bits, so hashing it with its context both binds and hides it.
    """
    return hashlib.sha256(pae(SEED_COMMIT_DOMAIN, *_context(seed, game_id, deck_id, seat))).hexdigest()


def audit_shuffle(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint: Element,
    seed: bytes,
    committed: str,
    *,
    game_id: str,
    deck_id: str,
    seat: str,
    group: Group = MODP_2048,
) -> None:
    """Raise GameFileError unless ``after`` is exactly the shuffle the revealed ``seed`` gives.

    It catches anything but an honest shuffle (a dropped, duplicated, substituted or wrongly
    re-masked card, a permutation other than the seed's), and a seed that is not the committed
    one. It cannot undo the game played on a bad deck, nor audit a seat that never reveals.
    """
    where = f"shuffle of {deck_id} by seat {seat}"
    if len(seed) != SEED_SIZE:
        raise GameFileError(f"{where}: the revealed seed is not {SEED_SIZE} bytes")
    if not hmac.compare_digest(seed_commitment(seed, game_id=game_id, deck_id=deck_id, seat=seat), committed):
        raise GameFileError(f"{where}: the revealed seed does not match its commitment")
    if len(after) != len(before):
        raise GameFileError(f"{where}: {len(after)} cards came out of {len(before)}")
    expected, _ = shuffle(before, joint, seed, game_id=game_id, deck_id=deck_id, seat=seat, group=group)
    for position, (made, found) in enumerate(zip(expected, after, strict=True)):
        if made != found:
            raise GameFileError(
                f"{where}: position {position} is not what the seed gives "
                "(a card dropped, duplicated, replaced or wrongly re-masked)"
            )
