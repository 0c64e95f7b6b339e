"""Hidden cards without a referee: keys, card encodings, ElGamal decks and decryption shares.

Every seat holds an ElGamal secret ``x`` and publishes ``h = g^x`` with a Schnorr proof that it
knows ``x``; the deck is encrypted under the joint key ``H = prod(h)``, whose secret nobody holds.
A card at a deck position is read by combining one decryption share ``c1^x`` per seat. To draw
privately, every other seat publishes its share with a Chaum-Pedersen proof and the drawer adds
its own, computed locally: only the drawer can read the card, and nobody can hand it a wrong
one. To play the card face up the drawer publishes its share too, and anyone checks the claim.

Cards are ``hash_to_element(card index)``: elements of the prime-order subgroup, so ElGamal hides
them (DDH holds there), with no known discrete-log relation between two cards, so nobody can
turn an encryption of one card into an encryption of another by raising it to a power, as they
could with ``g^(i+1)``. Raw SRA (encrypting by exponentiation mod p) is not used: it keeps the
quadratic residuosity of the card, which leaks a bit of every card to everyone.

Every proof is made non-interactive with Fiat-Shamir over a domain string and the game id, seat
and place it is for, so a proof copied from another game, seat or deck position does not verify.
Proof nonces are derived from the secret and the statement (as in RFC 6979), so the same call
always makes the same entry and no random generator is needed.

Shuffling is in :mod:`pbem.crypto.shuffle` and its proof in :mod:`pbem.crypto.shuffle_proof`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pbem.crypto.encoding import b64, unb64
from pbem.crypto.groups import CHALLENGE_SIZE, MODP_2048, Element, Group, unpacked
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

KEY_DOMAIN = "pbem/hidden-deck/key/v1"
KEY_PROOF_DOMAIN = "pbem/hidden-deck/key-proof/v1"
SHARE_PROOF_DOMAIN = "pbem/hidden-deck/share-proof/v1"
SHARES_PROOF_DOMAIN = "pbem/hidden-deck/shares-proof/v1"
SHARES_WEIGHT_DOMAIN = "pbem/hidden-deck/shares-weight/v1"
REMASK_PROOF_DOMAIN = "pbem/hidden-deck/remask-proof/v1"
NONCE_DOMAIN = "pbem/hidden-deck/nonce/v1"
CARD_DOMAIN = "pbem/hidden-deck/card/v1"
DECK_SEED_DOMAIN = "pbem/deck-seed/v1"
SHUFFLE_SEED_DOMAIN = "pbem/hidden-deck/shuffle-seed/v1"
REMASK_DOMAIN = "pbem/hidden-deck/remask/v1"
SEED_SIZE = 32


# --- values -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ciphertext:
    """ElGamal under the joint key: ``c1 = g^r``, ``c2 = card * H^r``."""

    c1: Element
    c2: Element


@dataclass(frozen=True)
class Proof:
    """A Schnorr or Chaum-Pedersen proof in its short form: the challenge and the response."""

    challenge: int
    response: int


@dataclass(frozen=True)
class Share:
    """One seat's decryption share ``c1^x`` of one deck position, with its proof (None when one
    proof covers every share of the entry, see ``shares``)."""

    seat: str
    value: Element
    proof: Proof | None


@dataclass(frozen=True)
class Place:
    """A deck position a share is for, and the card there when the share was given."""

    deck_id: str
    position: int
    ciphertext: Ciphertext


def _text(value: str) -> bytes:
    return value.encode("utf-8")


def int_bytes(value: int) -> bytes:
    """Any non-negative integer for hashing: its minimal big-endian bytes (pae carries the length)."""
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


def _nonce(group: Group, secret: int, statement: bytes) -> int:
    """A proof nonce fixed by the secret and the whole statement, so no two statements share one."""
    return group.hash_to_scalar(NONCE_DOMAIN, int_bytes(secret), statement)


# --- keys ---------------------------------------------------------------------------------------
def new_seed() -> bytes:
    """32 random bytes from which a seat's secret or a shuffle is derived."""
    return os.urandom(SEED_SIZE)


def derive_secret(seed: bytes, game_id: str, seat: str, *, group: Group = MODP_2048) -> int:
    """A seat's ElGamal secret in ``[1, q-1]``: HKDF-SHA256 of a 32-byte seed, wide, reduced mod q.

    The engine keeps the seed (sealed to the seat's own key, like a sealed choice) and derives the
    secret when it needs it; the game id and seat in the info keep one seed from giving one secret
    in two games.
    """
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    if len(seed) != SEED_SIZE:
        raise ValueError(f"a hidden-deck seed is {SEED_SIZE} bytes")
    info = pae(group.domain(KEY_DOMAIN), _text(game_id), _text(seat))
    return group.scalar_from_wide(HKDF(hashes.SHA256(), group.wide_size, salt=None, info=info).derive(seed))


def deck_seed(key_material: bytes) -> bytes:
    """A seat's hidden-deck seed, derived from its secret signing key.

    Nothing is stored: any machine holding the key recomputes the seed, hence the seat's secret
    in every game (``derive_secret``) and every shuffle it makes (``shuffle_seed``).
    """
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    info = DECK_SEED_DOMAIN.encode("ascii")
    return HKDF(hashes.SHA256(), SEED_SIZE, salt=None, info=info).derive(key_material)


def shuffle_seed(seed: bytes, *, game_id: str, deck_id: str, seat: str, round: int) -> bytes:
    """The seed of a seat's shuffle of one deck: fixed by its deck seed, so the same entry is
    made on any machine, and secret, since nobody else holds the seed."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    info = pae(SHUFFLE_SEED_DOMAIN, _text(game_id), _text(deck_id), _text(seat), str(round).encode("ascii"))
    return HKDF(hashes.SHA256(), SEED_SIZE, salt=None, info=info).derive(seed)


def remask_scalar(
    seed: bytes,
    ciphertext: Ciphertext,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group = MODP_2048,
) -> int:
    """The fresh randomness a seat re-masks a card with before it goes back under the deck."""
    return group.hash_to_scalar(
        REMASK_DOMAIN,
        seed,
        _text(game_id),
        _text(deck_id),
        str(position).encode("ascii"),
        group.encode(ciphertext.c1),
        group.encode(ciphertext.c2),
    )


def public_key(secret: int, *, group: Group = MODP_2048) -> Element:
    return group.base_power(secret)


def _key_statement(group: Group, public: Element, game_id: str, seat: str, context: str) -> list[bytes]:
    return [_text(game_id), _text(seat), _text(context), group.encode(public)]


def prove_key(secret: int, game_id: str, seat: str, context: str = "", *, group: Group = MODP_2048) -> Proof:
    """Schnorr proof of knowledge of ``x`` for ``h = g^x``, bound to the game, seat and context.

    Checking it before the keys are multiplied stops a rogue key: a seat that published
    ``g^y / prod(other keys)`` would know the joint secret but could not prove it knows its own.
    """
    public = public_key(secret, group=group)
    statement = _key_statement(group, public, game_id, seat, context)
    nonce = _nonce(group, secret, pae(group.domain(KEY_PROOF_DOMAIN), *statement))
    commitment = group.base_power(nonce)
    challenge = group.challenge(KEY_PROOF_DOMAIN, *statement, group.encode(commitment))
    return Proof(challenge, (nonce + challenge * secret) % group.order)


def check_key(
    public: Element, proof: Proof, game_id: str, seat: str, context: str = "", *, group: Group = MODP_2048
) -> None:
    """Raise GameFileError unless ``proof`` shows the seat knows the secret of ``public``."""
    if not group.is_element(public):
        raise GameFileError(f"hidden-deck key of seat {seat}: not a group element")
    commitment = group.divide(group.base_power(proof.response), group.power(public, proof.challenge))
    statement = _key_statement(group, public, game_id, seat, context)
    if group.challenge(KEY_PROOF_DOMAIN, *statement, group.encode(commitment)) != proof.challenge:
        raise GameFileError(f"hidden-deck key of seat {seat}: the proof of knowledge does not verify")


def joint_key(publics: Iterable[Element], *, group: Group = MODP_2048) -> Element:
    """The key the deck is encrypted under: the product of every seat's (checked) key."""
    return group.product(publics)


# --- cards --------------------------------------------------------------------------------------
def encode_card(index: int, *, group: Group = MODP_2048) -> Element:
    if index < 0:
        raise ValueError("a card index is not negative")
    return _card(group, index)


@lru_cache(maxsize=1024)
def _card(group: Group, index: int) -> Element:
    return group.hash_to_element(CARD_DOMAIN, str(index).encode("ascii"))


@lru_cache(maxsize=16)
def _cards(group: Group, count: int) -> dict[Element, int]:
    return {_card(group, index): index for index in range(count)}


def decode_card(element: Element, cards: int, *, group: Group = MODP_2048) -> int:
    """The index of the card ``element`` encodes, among ``cards`` card indices."""
    index = _cards(group, cards).get(element)
    if index is None:
        raise GameFileError(f"the decrypted value is not one of the deck's {cards} cards")
    return index


def open_deck(cards: int | Sequence[int], joint: Element, *, group: Group = MODP_2048) -> list[Ciphertext]:
    """The deck before any shuffle: each card encrypted with the public randomness 1.

    ``(g, card * H)`` hides nothing; it is the starting point every seat can compute, and unlike
    randomness 0 it keeps every value a non-identity element, so it reads back like any deck.
    """
    indices = range(cards) if isinstance(cards, int) else cards
    return [
        Ciphertext(group.generator, group.multiply(encode_card(index, group=group), joint))
        for index in indices
    ]


# --- decryption shares --------------------------------------------------------------------------
def _share_statement(
    group: Group,
    public: Element,
    ciphertext: Ciphertext,
    value: Element,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    seat: str,
) -> list[bytes]:
    return [
        _text(game_id),
        _text(deck_id),
        str(position).encode("ascii"),
        _text(seat),
        group.encode(public),
        group.encode(ciphertext.c1),
        group.encode(ciphertext.c2),
        group.encode(value),
    ]


def share(
    secret: int,
    ciphertext: Ciphertext,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    seat: str,
    group: Group = MODP_2048,
) -> Share:
    """A seat's decryption share of the card at ``position``, with a Chaum-Pedersen proof that
    it used the secret behind its published key (``log_g h = log_c1 d``).

    Other seats publish this for a private draw; the drawer publishes its own to play the card.
    """
    value = group.power(ciphertext.c1, secret)
    statement = _share_statement(
        group,
        public_key(secret, group=group),
        ciphertext,
        value,
        game_id=game_id,
        deck_id=deck_id,
        position=position,
        seat=seat,
    )
    nonce = _nonce(group, secret, pae(group.domain(SHARE_PROOF_DOMAIN), *statement))
    first, second = group.base_power(nonce), group.power(ciphertext.c1, nonce)
    challenge = group.challenge(SHARE_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
    return Share(seat, value, Proof(challenge, (nonce + challenge * secret) % group.order))


def check_share(
    public: Element,
    ciphertext: Ciphertext,
    given: Share,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group = MODP_2048,
) -> None:
    """Raise GameFileError unless ``given`` is the share of its seat's key for this position."""
    where = f"decryption share of seat {given.seat} at {deck_id} position {position}"
    if not group.is_element(given.value):
        raise GameFileError(f"{where}: not a group element")
    if given.proof is None:
        raise GameFileError(f"{where}: the share carries no proof")
    challenge, response = given.proof.challenge, given.proof.response
    first = group.divide(group.base_power(response), group.power(public, challenge))
    second = group.divide(group.power(ciphertext.c1, response), group.power(given.value, challenge))
    statement = _share_statement(
        group,
        public,
        ciphertext,
        given.value,
        game_id=game_id,
        deck_id=deck_id,
        position=position,
        seat=given.seat,
    )
    if (
        group.challenge(SHARE_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
        != challenge
    ):
        raise GameFileError(f"{where}: the proof does not verify")


def _shares_statement(
    group: Group,
    public: Element,
    places: Sequence[Place],
    values: Sequence[Element],
    *,
    game_id: str,
    seat: str,
) -> bytes:
    parts = [_text(game_id), _text(seat), group.encode(public)]
    for place, value in zip(places, values, strict=True):
        parts += [
            _text(place.deck_id),
            str(place.position).encode("ascii"),
            group.encode(place.ciphertext.c1),
            group.encode(place.ciphertext.c2),
            group.encode(value),
        ]
    return hashlib.sha256(pae(group.domain(SHARES_PROOF_DOMAIN), *parts)).digest()


def weighted_sums(
    group: Group, domain: str, statement: bytes, places: Sequence[Place], values: Sequence[Element]
) -> tuple[Element, Element]:
    """The weighted products one Chaum-Pedersen proof of several values speaks for (``prod c1^w``,
    ``prod value^w``, the weights hashed under ``domain``).

    The weights are hashes of the whole statement, every value in it, so they are fixed only after
    the values are. A wrong value ``c1_j^x * e_j`` (``e_j != 1``) leaves the two products related
    by ``x`` only if ``prod e_j^{w_j} = 1``: one linear equation in the exponents that a hash
    output meets with chance about ``1/order`` per try, so one proof for the batch is as sound as
    one per value (RFC 9497's composites rest on the same)."""
    weights = _weights(group, domain, statement, len(places))
    return (
        group.multi_power([place.ciphertext.c1 for place in places], weights),
        group.multi_power(list(values), weights),
    )


def _weights(group: Group, domain: str, statement: bytes, count: int) -> list[int]:
    return [group.challenge(domain, statement, str(index).encode("ascii")) for index in range(count)]


def shares(
    secret: int, places: Sequence[Place], *, game_id: str, seat: str, group: Group = MODP_2048
) -> tuple[list[Element], Proof]:
    """A seat's decryption shares of several positions with one proof for them all: that each
    is ``c1^x`` for the ``x`` behind its published key (a batched Chaum-Pedersen proof)."""
    if not places:
        raise ValueError("no shares to prove")
    values = [group.power(place.ciphertext.c1, secret) for place in places]
    statement = _shares_statement(
        group, public_key(secret, group=group), places, values, game_id=game_id, seat=seat
    )
    c1s, _ = weighted_sums(group, SHARES_WEIGHT_DOMAIN, statement, places, values)
    nonce = _nonce(group, secret, statement)
    first, second = group.base_power(nonce), group.power(c1s, nonce)
    challenge = group.challenge(SHARES_PROOF_DOMAIN, statement, group.encode(first), group.encode(second))
    return values, Proof(challenge, (nonce + challenge * secret) % group.order)


def check_shares(
    public: Element,
    places: Sequence[Place],
    values: Sequence[Element],
    proof: Proof,
    *,
    game_id: str,
    seat: str,
    group: Group = MODP_2048,
) -> None:
    """Raise GameFileError unless ``proof`` shows every value is its place's share of ``seat``."""
    named = ", ".join(f"{place.deck_id}:{place.position}" for place in places)
    where = f"decryption shares of seat {seat} ({named})"
    if not places or len(values) != len(places):
        raise GameFileError(f"{where}: {len(values)} shares for {len(places)} positions")
    statement = _shares_statement(group, public, places, values, game_id=game_id, seat=seat)
    first = group.divide(group.base_power(proof.response), group.power(public, proof.challenge))
    # ``c1s^response / combined^challenge`` for the weighted sums of ``weighted_sums``, taken as
    # one product of each value's own power: the same element, without raising the two sums.
    weights, order = _weights(group, SHARES_WEIGHT_DOMAIN, statement, len(places)), group.order
    second = group.multi_power(
        [*(place.ciphertext.c1 for place in places), *values],
        [
            *(weight * proof.response % order for weight in weights),
            *(-weight * proof.challenge % order for weight in weights),
        ],
    )
    if group.challenge(SHARES_PROOF_DOMAIN, statement, group.encode(first), group.encode(second)) != (
        proof.challenge
    ):
        raise GameFileError(f"{where}: the proof does not verify")


# --- a card going back under the deck -------------------------------------------------------------
@dataclass(frozen=True)
class Remask:
    """What a re-masked card's proof claims: ``after`` is ``before`` under fresh randomness and
    the joint key, the card at ``position`` of ``deck_id`` that ``seat`` puts back under the
    deck. The prover and the checker take the one claim."""

    before: Ciphertext
    after: Ciphertext
    joint: Element
    game_id: str
    deck_id: str
    position: int
    seat: str
    group: Group = MODP_2048

    def digest(self) -> bytes:
        group = self.group
        return hashlib.sha256(
            pae(
                group.domain(REMASK_PROOF_DOMAIN),
                _text(self.game_id),
                _text(self.deck_id),
                str(self.position).encode("ascii"),
                _text(self.seat),
                group.encode(self.joint),
                *(
                    group.encode(value)
                    for value in (self.before.c1, self.before.c2, self.after.c1, self.after.c2)
                ),
            )
        ).digest()


def prove_remask(claim: Remask, mask: int) -> Proof:
    """That ``after`` is ``before`` under fresh randomness: ``after / before = (g^r, H^r)`` for one
    ``r`` (a Chaum-Pedersen proof; a one-card shuffle proves the same at five times the size)."""
    group, statement = claim.group, claim.digest()
    nonce = _nonce(group, mask, statement)
    first, second = group.base_power(nonce), group.fixed_base(claim.joint)(nonce)
    challenge = group.challenge(REMASK_PROOF_DOMAIN, statement, group.encode(first), group.encode(second))
    return Proof(challenge, (nonce + challenge * mask) % group.order)


def check_remask(claim: Remask, proof: Proof) -> None:
    """Raise GameFileError unless ``proof`` shows ``after`` re-masks ``before`` under ``joint``."""
    group, before, after = claim.group, claim.before, claim.after
    first = group.divide(
        group.base_power(proof.response),
        group.power(group.divide(after.c1, before.c1), proof.challenge),
    )
    second = group.divide(
        group.fixed_base(claim.joint)(proof.response),
        group.power(group.divide(after.c2, before.c2), proof.challenge),
    )
    if group.challenge(REMASK_PROOF_DOMAIN, claim.digest(), group.encode(first), group.encode(second)) != (
        proof.challenge
    ):
        raise GameFileError(
            f"the card {claim.seat} returns to {claim.deck_id} position {claim.position}: "
            "the re-mask proof does not verify"
        )


def _unmask(group: Group, ciphertext: Ciphertext, shares: Iterable[Element]) -> Element:
    return group.divide(ciphertext.c2, group.product(shares))


def open_card(
    ciphertext: Ciphertext, shares: Iterable[Element], cards: int, *, group: Group = MODP_2048
) -> int:
    """The card every seat's (already checked) share opens: what ``reveal`` computes once the
    shares were checked one by one, as they arrived."""
    return decode_card(_unmask(group, ciphertext, shares), cards, group=group)


def read_card(
    secret: int, ciphertext: Ciphertext, others: Iterable[Element], cards: int, *, group: Group = MODP_2048
) -> int:
    """The drawer's view: its own share, computed here and never published, and every other
    seat's (already checked) share give the card's index."""
    mine = group.power(ciphertext.c1, secret)
    return decode_card(_unmask(group, ciphertext, [mine, *others]), cards, group=group)


def reveal(
    ciphertext: Ciphertext,
    shares: Sequence[Share],
    publics: Mapping[str, Element],
    *,
    cards: int,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group = MODP_2048,
) -> int:
    """The card at ``position`` once every seat has published its share, each share checked."""
    seats = [given.seat for given in shares]
    if sorted(seats) != sorted(publics):
        raise GameFileError(
            f"{deck_id} position {position}: the shares are from {', '.join(seats) or 'nobody'}, "
            f"not one from each of {', '.join(publics)}"
        )
    for given in shares:
        check_share(
            publics[given.seat],
            ciphertext,
            given,
            game_id=game_id,
            deck_id=deck_id,
            position=position,
            group=group,
        )
    return decode_card(_unmask(group, ciphertext, (given.value for given in shares)), cards, group=group)


def check_play(
    ciphertext: Ciphertext,
    shares: Sequence[Share],
    publics: Mapping[str, Element],
    claimed: int,
    *,
    cards: int,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group = MODP_2048,
) -> None:
    """Raise GameFileError unless every seat's share is valid and together they open ``claimed``.

    This is how anyone checks a card played face up: the player's own share, published with the
    play, completes the set, so a seat cannot claim a card it was not dealt.
    """
    found = reveal(
        ciphertext,
        shares,
        publics,
        cards=cards,
        game_id=game_id,
        deck_id=deck_id,
        position=position,
        group=group,
    )
    if found != claimed:
        raise GameFileError(
            f"{deck_id} position {position} holds card {found}, not the claimed card {claimed}"
        )


# --- text forms ---------------------------------------------------------------------------------
def ciphertext_text(ciphertext: Ciphertext, *, group: Group = MODP_2048) -> str:
    return b64(group.encode(ciphertext.c1) + group.encode(ciphertext.c2))


def parse_ciphertext(
    text: object, what: str, *, group: Group = MODP_2048, lazily: bool = False
) -> Ciphertext:
    if not isinstance(text, str):
        raise GameFileError(f"{what}: expected text, found {type(text).__name__}")
    try:
        data = unb64(text, 2 * group.element_size)
    except ValueError as exc:
        raise GameFileError(f"{what}: {exc}") from None
    return _ciphertext(group, data, what, lazily=lazily)


def _ciphertext(group: Group, data: bytes, what: str, *, lazily: bool) -> Ciphertext:
    decode = group.decode_lazily if lazily else group.decode
    half = group.element_size
    return Ciphertext(
        decode(data[:half], f"{what} (first half)"), decode(data[half:], f"{what} (second half)")
    )


def deck_text(deck: Sequence[Ciphertext], *, group: Group = MODP_2048) -> str | list[str]:
    """A deck as entry text: a list of ciphertexts, or one text of them all in a compact group."""
    if group.compact:
        return group.elements_text([value for ciphertext in deck for value in (ciphertext.c1, ciphertext.c2)])
    return [ciphertext_text(ciphertext, group=group) for ciphertext in deck]


def parse_deck(
    texts: object, what: str, *, group: Group = MODP_2048, lazily: bool = False
) -> list[Ciphertext]:
    """A deck's ciphertexts; ``lazily``: see ``Group.decode_lazily``."""
    if group.compact:
        return [
            _ciphertext(group, data, f"{what}[{index}]", lazily=lazily)
            for index, data in enumerate(unpacked(texts, 2 * group.element_size, what, "ciphertexts"))
        ]
    if not isinstance(texts, list):
        raise GameFileError(f"{what}: expected a list of ciphertexts")
    return [
        parse_ciphertext(text, f"{what}[{index}]", group=group, lazily=lazily)
        for index, text in enumerate(texts)
    ]


def proof_text(proof: Proof, *, group: Group = MODP_2048) -> str:
    return b64(proof.challenge.to_bytes(CHALLENGE_SIZE, "big") + group.scalar_bytes(proof.response))


def parse_proof(text: object, what: str, *, group: Group = MODP_2048) -> Proof:
    if not isinstance(text, str):
        raise GameFileError(f"{what}: expected text, found {type(text).__name__}")
    try:
        data = unb64(text, CHALLENGE_SIZE + group.scalar_size)
    except ValueError as exc:
        raise GameFileError(f"{what}: {exc}") from None
    response = group.scalar_from_bytes(data[CHALLENGE_SIZE:])
    if response >= group.order:
        raise GameFileError(f"{what}: the response is not below the group order")
    return Proof(int.from_bytes(data[:CHALLENGE_SIZE], "big"), response)


def share_fields(given: Share, *, group: Group = MODP_2048) -> dict[str, str]:
    """A share as the text fields of a ledger entry."""
    assert given.proof is not None, "a share given on its own carries its proof"
    return {
        "seat": given.seat,
        "share": group.element_text(given.value),
        "proof": proof_text(given.proof, group=group),
    }


def parse_share(fields: Mapping[str, object], what: str, *, group: Group = MODP_2048) -> Share:
    seat = fields.get("seat")
    if not isinstance(seat, str):
        raise GameFileError(f"{what}: the seat is missing")
    value = group.parse_element(fields.get("share"), f"{what} share")
    return Share(seat, value, parse_proof(fields.get("proof"), f"{what} proof", group=group))
