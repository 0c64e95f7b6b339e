"""Escrow of a seat's deck secret, so a seat that goes silent does not stop the game.

Every card is read with one decryption share ``c1^x_j`` per seat; a seat that stops answering
would leave every later draw unreadable. So each seat (the *dealer*) deals its deck secret ``x``
to the other seats (the *holders*) with Shamir's threshold sharing over the group's scalars:
``f(z) = x + a_1 z + ... + a_{K-1} z^{K-1}`` mod the group order, holder ``i`` receiving
``s_i = f(i)``. With it the dealer publishes Feldman commitments ``C_k = g^{a_k}``, ``C_0 = g^x``,
so every holder checks its own share in the open (``g^{s_i} = prod C_k^{i^k}``) and anybody can
compute each holder's public value ``g^{f(i)}``.

Feldman rather than Pedersen: Feldman's commitments leak ``g^x``, which costs nothing here, since
``g^x`` is the dealer's deck key ``h``, already published with its proof of knowledge. Checking
``C_0 = h`` (``check_dealing_key``) even ties the escrow to the very key the deck is encrypted
under, which the unconditionally hiding Pedersen commitments could not do without a further proof.

The x-coordinate of a holder is its position among the holders in seat order (1, 2, ...): public,
known to every reader of the game without a word being published, distinct, never 0 (``f(0)`` is
the secret) and small, so the Lagrange coefficients cost little to compute.

Unlocking never rebuilds ``x``: for exactly the deck positions the game needs, each holder
publishes a *partial* ``c1^{s_i}`` with a Chaum-Pedersen proof that it used the ``s_i`` behind
``g^{f(i)}``; any ``K`` checked partials give ``c1^x`` by Lagrange interpolation in the exponent
(``combine``), the share the silent seat would have published, and nothing about its other cards.
Fewer than ``K`` holders learn nothing of ``x`` (Shamir's sharing is perfectly hiding below the
threshold); ``K`` holders together could rebuild ``x``, which is why the threshold is all the other
seats by default and never below 2 (one holder alone would hold the secret outright), but for a
*referee*: a person outside the game whom the players chose to trust with every seat's secret, the
one holder of each dealing, with a threshold of 1 (a polynomial of degree 0: the share is the secret).

Coefficients are derived from a seed, the secret and the whole statement of the dealing, and proof
nonces from the holder's share and the statement (as in RFC 6979), so the same call always makes
the same entry and no random generator is needed. Every proof binds a domain string, the game,
dealer, holder and deck position, so a partial copied from elsewhere does not verify.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.crypto import hidden_deck as hd
from pbem.crypto.groups import Element, Group
from pbem.crypto.hidden_deck import Place, Proof, int_bytes
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

COEFFICIENT_DOMAIN = "pbem/escrow/coefficient/v1"
NONCE_DOMAIN = "pbem/escrow/nonce/v1"
PARTIAL_PROOF_DOMAIN = "pbem/escrow/partial-proof/v1"
PARTIALS_PROOF_DOMAIN = "pbem/escrow/partials-proof/v1"
PARTIALS_WEIGHT_DOMAIN = "pbem/escrow/partials-weight/v1"
RECEIVE_DOMAIN = "pbem/escrow/receive-secret/v1"
RECEIVE_CONTEXT = "escrow"  # the context of a receiving key's proof of knowledge
SEAL_NONCE_DOMAIN = "pbem/escrow/seal-nonce/v1"
SEAL_MASK_DOMAIN = "pbem/escrow/seal-mask/v1"
COMPLAINT_PROOF_DOMAIN = "pbem/escrow/complaint-proof/v1"
EPHEMERAL_PROOF_DOMAIN = "pbem/escrow/ephemeral-proof/v1"
DEALT = "dealing"  # what an ephemeral point's proof is for: a share sealed in a dealing,
RESEALED = "reshare"  # or one a holder seals again to the new player of a seat handed on
MIN_THRESHOLD = 2


# --- values -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dealing:
    """A dealer's public part of its escrow: the holders in seat order (holder ``i`` is
    ``holders[i-1]``) and the Feldman commitments ``C_0 .. C_{K-1}``, ``C_0`` its deck key."""

    dealer: str
    holders: tuple[str, ...]
    commitments: tuple[Element, ...]

    @property
    def threshold(self) -> int:
        """How many holders' partials combine: one more than the polynomial's degree."""
        return len(self.commitments)

    def index(self, holder: str) -> int:
        """The x-coordinate of ``holder``: its 1-based position among the holders."""
        try:
            return self.holders.index(holder) + 1
        except ValueError:
            raise GameFileError(f"escrow of seat {self.dealer}: {holder} is not one of its holders") from None


@dataclass(frozen=True)
class EscrowShare:
    """What one holder receives, sealed to it: ``s_i = f(i)`` mod the group order."""

    holder: str
    index: int
    value: int


@dataclass(frozen=True)
class Partial:
    """A holder's partial decryption ``c1^{s_i}`` of one deck position, with its proof (None
    when one proof covers several positions, see ``partials``)."""

    holder: str
    index: int
    value: Element
    proof: Proof | None


def _text(value: str) -> bytes:
    return value.encode("utf-8")


def _number(value: int) -> bytes:
    return str(value).encode("ascii")


def default_threshold(holders: Sequence[str]) -> int:
    """Every holder (all the other seats): the dealer's cards then open without it only when
    every other seat takes part, as they would have if it had answered."""
    return len(holders)


def _check_threshold(threshold: int, holders: int, what: str) -> None:
    if threshold == holders == 1:
        return  # a referee: the one holder the players chose to trust with the secret
    if not MIN_THRESHOLD <= threshold <= holders:
        raise ValueError(
            f"{what}: a threshold of {threshold} with {holders} holders; it must be from "
            f"{MIN_THRESHOLD} (one holder alone would hold the secret) to {holders}"
        )


# --- dealing ------------------------------------------------------------------------------------
def deal(
    secret: int,
    holders: Sequence[str],
    threshold: int,
    *,
    game_id: str,
    dealer: str,
    group: Group,
    seed: bytes,
) -> tuple[Dealing, dict[str, EscrowShare]]:
    """The dealer's escrow: the public dealing and each holder's share (to be sealed to it).

    ``holders`` are the other seats in seat order; ``threshold`` is how many of them it takes to
    unlock (``default_threshold``: all of them). ValueError for a threshold below 2 or above the
    number of holders, for a dealer among its holders, or for a holder named twice.
    """
    what = f"escrow of seat {dealer}"
    if len(set(holders)) != len(holders):
        raise ValueError(f"{what}: a holder is named twice")
    if dealer in holders:
        raise ValueError(f"{what}: the dealer does not hold a share of its own secret")
    _check_threshold(threshold, len(holders), what)
    if not 0 < secret < group.order:
        raise ValueError(f"{what}: the secret is not a non-zero scalar")
    # a_1 .. a_{K-1}, fixed by the seed, the secret and everything the dealing is for. The holders
    # and threshold are hashed in too: dealing again to other holders or with another threshold
    # then draws an unrelated polynomial, so shares of two dealings never combine into more than
    # either gives (the same polynomial at a shifted seat order would hand one seat two points).
    fixed = [
        seed,
        int_bytes(secret),
        _text(game_id),
        _text(dealer),
        _number(threshold),
        *(_text(holder) for holder in holders),
    ]
    polynomial = [
        secret,
        *(
            group.hash_to_scalar(group.domain(COEFFICIENT_DOMAIN), _number(degree), *fixed)
            for degree in range(1, threshold)
        ),
    ]
    dealing = Dealing(
        dealer, tuple(holders), tuple(group.base_power(coefficient) for coefficient in polynomial)
    )
    given = {
        holder: EscrowShare(holder, index, _evaluate(polynomial, index, group.order))
        for index, holder in enumerate(holders, start=1)
    }
    return dealing, given


def _evaluate(polynomial: Sequence[int], point: int, order: int) -> int:
    result = 0
    for coefficient in reversed(polynomial):
        result = (result * point + coefficient) % order
    return result


def check_dealing(dealing: Dealing, *, group: Group) -> None:
    """Raise GameFileError unless the dealing is well formed: distinct holders other than the
    dealer, a threshold from 2 to their number (1 for a referee, the one holder), every
    commitment a (non-identity) group element.

    A commitment of the identity would mean a zero coefficient: no honest dealing has one, and
    refusing it keeps every holder's key a proper element for the partials' proofs.
    """
    what = f"escrow of seat {dealing.dealer}"
    if len(set(dealing.holders)) != len(dealing.holders) or dealing.dealer in dealing.holders:
        raise GameFileError(f"{what}: the holders must be other seats, each named once")
    try:
        _check_threshold(dealing.threshold, len(dealing.holders), what)
    except ValueError as exc:
        raise GameFileError(str(exc)) from None
    for degree, commitment in enumerate(dealing.commitments):
        if not group.is_element(commitment):
            raise GameFileError(f"{what}: commitment {degree} is not a group element")


def check_dealing_key(dealing: Dealing, public: Element) -> None:
    """Raise GameFileError unless the dealing's constant term is the dealer's deck key: else the
    escrow would unlock some other secret than the one the deck is encrypted under."""
    if dealing.commitments[0] != public:
        raise GameFileError(f"escrow of seat {dealing.dealer}: the dealing is not of the seat's deck key")


def _powers(index: int, count: int, order: int) -> list[int]:
    return [pow(index, degree, order) for degree in range(count)]


def holder_key(dealing: Dealing, index: int, *, group: Group) -> Element:
    """``g^{f(i)} = prod C_k^{i^k}``: holder ``i``'s public value, what its partials are proven
    against, computed by anyone from the commitments alone."""
    if not 1 <= index <= len(dealing.holders):
        raise GameFileError(f"escrow of seat {dealing.dealer}: no holder {index}")
    return group.multi_power(list(dealing.commitments), _powers(index, dealing.threshold, group.order))


def check_escrow_share(dealing: Dealing, share: EscrowShare, *, group: Group) -> None:
    """Raise GameFileError, naming dealer and holder, unless ``g^{s_i} = prod C_k^{i^k}`` (Feldman's
    check): what the holder runs on the share it unsealed, and signs a complaint about if not."""
    where = f"escrow share of seat {dealing.dealer} for {share.holder}"
    if dealing.index(share.holder) != share.index:
        raise GameFileError(f"{where}: it is for holder {share.index}, not {dealing.index(share.holder)}")
    if not 0 <= share.value < group.order:
        raise GameFileError(f"{where}: not a scalar")
    if group.base_power(share.value) != holder_key(dealing, share.index, group=group):
        raise GameFileError(f"{where}: it does not match the dealing's commitments")


def share_text(share: EscrowShare, *, group: Group) -> str:
    """A share as the text sealed to its holder."""
    return group.scalar_text(share.value)


def parse_escrow_share(text: object, dealing: Dealing, holder: str, *, group: Group) -> EscrowShare:
    """The share ``holder`` unsealed (not yet checked: ``check_escrow_share``)."""
    what = f"escrow share of seat {dealing.dealer} for {holder}"
    return EscrowShare(holder, dealing.index(holder), group.parse_scalar(text, what))


# --- partial decryptions ------------------------------------------------------------------------
def _nonce(group: Group, secret: int, statement: bytes) -> int:
    """A proof nonce fixed by the holder's share and the whole statement (as in RFC 6979)."""
    return group.hash_to_scalar(group.domain(NONCE_DOMAIN), int_bytes(secret), statement)


def _holder_statement(
    group: Group, dealing: Dealing, key: Element, *, game_id: str, holder: str, index: int
) -> list[bytes]:
    """What a holder's partials speak for before the positions: the game, the dealing (its
    dealer and deck key) and the holder, its point's index and the key of that point."""
    return [
        _text(game_id),
        _text(dealing.dealer),
        _text(holder),
        _number(index),
        group.encode(dealing.commitments[0]),
        group.encode(key),
    ]


def _partial_statement(
    group: Group,
    dealing: Dealing,
    key: Element,
    partial_value: Element,
    c1: Element,
    *,
    point: EscrowShare | Partial,
    game_id: str,
    deck_id: str,
    position: int,
) -> list[bytes]:
    """The statement of one partial decryption by the holder of ``point`` (its name and index)."""
    return [
        *_holder_statement(group, dealing, key, game_id=game_id, holder=point.holder, index=point.index),
        _text(deck_id),
        _number(position),
        group.encode(c1),
        group.encode(partial_value),
    ]


def partial(
    share: EscrowShare,
    dealing: Dealing,
    c1: Element,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group,
) -> Partial:
    """Holder ``i``'s partial decryption ``c1^{s_i}`` of the card at ``position`` of the dealer's
    escrow, with a Chaum-Pedersen proof that ``log_g g^{f(i)} = log_c1 (partial)``."""
    key = group.base_power(share.value)
    value = group.power(c1, share.value)
    statement = _partial_statement(
        group, dealing, key, value, c1, point=share, game_id=game_id, deck_id=deck_id, position=position
    )
    nonce = _nonce(group, share.value, pae(group.domain(PARTIAL_PROOF_DOMAIN), *statement))
    first, second = group.base_power(nonce), group.power(c1, nonce)
    challenge = group.challenge(PARTIAL_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
    return Partial(
        share.holder, share.index, value, Proof(challenge, (nonce + challenge * share.value) % group.order)
    )


def check_partial(
    dealing: Dealing,
    given: Partial,
    c1: Element,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group,
) -> None:
    """Raise GameFileError, naming holder, dealer and deck position, unless ``given`` is
    ``c1^{f(i)}`` for the holder's point ``f(i)`` of this dealing."""
    where = f"partial decryption by {given.holder} for seat {dealing.dealer} at {deck_id} position {position}"
    _check_holder(dealing, given, where)
    if not group.is_element(given.value):
        raise GameFileError(f"{where}: not a group element")
    if given.proof is None:
        raise GameFileError(f"{where}: the partial carries no proof")
    key = holder_key(dealing, given.index, group=group)
    challenge, response = given.proof.challenge, given.proof.response
    first = group.divide(group.base_power(response), group.power(key, challenge))
    second = group.divide(group.power(c1, response), group.power(given.value, challenge))
    statement = _partial_statement(
        group, dealing, key, given.value, c1, point=given, game_id=game_id, deck_id=deck_id, position=position
    )
    if (
        group.challenge(PARTIAL_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
        != challenge
    ):
        raise GameFileError(f"{where}: the proof does not verify")


def _check_holder(dealing: Dealing, given: Partial, where: str) -> None:
    if dealing.index(given.holder) != given.index:
        raise GameFileError(f"{where}: it claims holder {given.index}, not {dealing.index(given.holder)}")


def _partials_statement(
    group: Group,
    dealing: Dealing,
    key: Element,
    places: Sequence[Place],
    values: Sequence[Element],
    *,
    game_id: str,
    holder: str,
    index: int,
) -> bytes:
    parts = _holder_statement(group, dealing, key, game_id=game_id, holder=holder, index=index)
    for place, value in zip(places, values, strict=True):
        parts += [
            _text(place.deck_id),
            _number(place.position),
            group.encode(place.ciphertext.c1),
            group.encode(value),
        ]
    return hashlib.sha256(pae(group.domain(PARTIALS_PROOF_DOMAIN), *parts)).digest()


def partials(
    share: EscrowShare, dealing: Dealing, places: Sequence[Place], *, game_id: str, group: Group
) -> tuple[list[Element], Proof]:
    """Holder ``i``'s partials of several positions (an unlock covers every card the silent seat
    owes a share of) with one batched Chaum-Pedersen proof for them all."""
    if not places:
        raise ValueError("no partials to prove")
    key = group.base_power(share.value)
    values = [group.power(place.ciphertext.c1, share.value) for place in places]
    statement = _partials_statement(
        group, dealing, key, places, values, game_id=game_id, holder=share.holder, index=share.index
    )
    c1s, _ = hd.weighted_sums(group, PARTIALS_WEIGHT_DOMAIN, statement, places, values)
    nonce = _nonce(group, share.value, statement)
    first, second = group.base_power(nonce), group.power(c1s, nonce)
    challenge = group.challenge(PARTIALS_PROOF_DOMAIN, statement, group.encode(first), group.encode(second))
    return values, Proof(challenge, (nonce + challenge * share.value) % group.order)


def check_partials(
    dealing: Dealing,
    holder: str,
    places: Sequence[Place],
    values: Sequence[Element],
    proof: Proof,
    *,
    game_id: str,
    group: Group,
) -> None:
    """Raise GameFileError unless ``proof`` shows every value is ``c1^{f(i)}`` of its place, for
    holder ``holder``'s point of this dealing."""
    named = ", ".join(f"{place.deck_id} position {place.position}" for place in places)
    where = f"partial decryptions by {holder} for seat {dealing.dealer} ({named})"
    index = dealing.index(holder)
    if not places or len(values) != len(places):
        raise GameFileError(f"{where}: {len(values)} partials for {len(places)} positions")
    for value in values:
        if not group.is_element(value):
            raise GameFileError(f"{where}: a partial is not a group element")
    key = holder_key(dealing, index, group=group)
    statement = _partials_statement(
        group, dealing, key, places, values, game_id=game_id, holder=holder, index=index
    )
    c1s, combined = hd.weighted_sums(group, PARTIALS_WEIGHT_DOMAIN, statement, places, values)
    first = group.divide(group.base_power(proof.response), group.power(key, proof.challenge))
    second = group.divide(group.power(c1s, proof.response), group.power(combined, proof.challenge))
    if group.challenge(PARTIALS_PROOF_DOMAIN, statement, group.encode(first), group.encode(second)) != (
        proof.challenge
    ):
        raise GameFileError(f"{where}: the proof does not verify")


# --- unlocking ----------------------------------------------------------------------------------
def lagrange_at_zero(indices: Sequence[int], order: int) -> list[int]:
    """The weights ``l_i = prod_{j != i} j / (j - i)`` mod ``order`` with ``f(0) = sum l_i f(i)``
    for any polynomial of degree below ``len(indices)``."""
    weights = []
    for index in indices:
        numerator, denominator = 1, 1
        for other in indices:
            if other != index:
                numerator = numerator * other % order
                denominator = denominator * (other - index) % order
        weights.append(numerator * pow(denominator, -1, order) % order)
    return weights


def combine(
    partials: Mapping[int, Element] | Sequence[tuple[int, Element]], *, threshold: int, group: Group
) -> Element:
    """``c1^x`` from the partials ``c1^{f(i)}`` of at least ``threshold`` distinct holders, by
    Lagrange interpolation in the exponent at 0: the silent dealer's decryption share.

    Only checked partials belong here: an unchecked one would move the result anywhere. Of more
    than ``threshold`` partials the lowest indices are used: checked partials all lie on one
    polynomial of degree ``threshold - 1``, so every subset gives the same value.
    """
    pairs = list(partials.items()) if isinstance(partials, Mapping) else list(partials)
    indices = [index for index, _ in pairs]
    if len(set(indices)) != len(indices):
        raise GameFileError("partials to combine: a holder's partial is given twice")
    if any(index < 1 for index in indices):
        raise GameFileError("partials to combine: holder indices start at 1")
    if threshold < 1:
        raise GameFileError(f"partials to combine: a threshold of {threshold} is below 1")
    if len(pairs) < threshold:
        raise GameFileError(f"{len(pairs)} of {threshold} partials: too few to combine")
    chosen = sorted(pairs, key=lambda pair: pair[0])[:threshold]
    weights = lagrange_at_zero([index for index, _ in chosen], group.order)
    return group.multi_power([value for _, value in chosen], weights)


def unlock(
    dealing: Dealing,
    given: Sequence[Partial],
    c1: Element,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group,
) -> Element:
    """The dealer's share ``c1^x`` of one position from its holders' partials, every one checked
    first: what a verifier computes, and compares with the share an unlock entry stands in for."""
    where = f"{deck_id} position {position}, unlocking seat {dealing.dealer}"
    holders = [each.holder for each in given]
    if len(set(holders)) != len(holders):
        raise GameFileError(f"{where}: a holder's partial is given twice")
    for each in given:
        check_partial(dealing, each, c1, game_id=game_id, deck_id=deck_id, position=position, group=group)
    try:
        return combine([(each.index, each.value) for each in given], threshold=dealing.threshold, group=group)
    except GameFileError as exc:
        raise GameFileError(f"{where}: {exc}") from None


def check_unlock(
    dealing: Dealing,
    given: Sequence[Partial],
    c1: Element,
    claimed: Element,
    *,
    game_id: str,
    deck_id: str,
    position: int,
    group: Group,
) -> None:
    """Raise GameFileError unless the partials are sound and combine into ``claimed``."""
    found = unlock(dealing, given, c1, game_id=game_id, deck_id=deck_id, position=position, group=group)
    if found != claimed:
        raise GameFileError(
            f"{deck_id} position {position}: the partials do not combine into the share given "
            f"for seat {dealing.dealer}"
        )


# --- sealing a share to its holder --------------------------------------------------------------
# A share travels in the game file, sealed to its holder with hashed ElGamal on the game's own
# group: the dealer publishes ``R = g^r`` and ``s_i + H(R^y)`` mod the order, where ``Y = g^y`` is
# the holder's *receiving key*, published with a proof of knowledge when it joined. Sealing on
# the group (not with the identity's X25519 box) is what makes a complaint evidence: the holder
# can publish ``R^y`` with a Chaum-Pedersen proof, and then anybody unseals the share and checks
# it against the commitments, so the file itself says whether the dealer or the complainer lied.
# The receiving key is not the deck key: a complaint publishes ``R^y`` for an ``R`` the dealer
# chose, and were ``y`` the deck secret, a dealer who chose a card's ``c1`` as ``R`` would get the
# holder's decryption share of that card.
@dataclass(frozen=True)
class Sealed:
    """One holder's share as the dealing carries it: ``R = g^r`` and the masked share, and in
    games that prove them, the proof that whoever sealed it knows ``r``."""

    holder: str
    index: int
    ephemeral: Element
    masked: int
    proof: Proof | None = None


@dataclass(frozen=True)
class Complaint:
    """A holder's claim that its sealed share does not match the dealing: ``R^y`` with a proof
    that it is, so anybody can unseal the share and see who is at fault."""

    dealer: str
    holder: str
    opened: Element
    proof: Proof


def receive_secret(seed: bytes, game_id: str, seat: str, *, group: Group) -> int:
    """A seat's receiving secret ``y`` in this game, derived from its deck seed (nothing stored)."""
    return group.hash_to_scalar(group.domain(RECEIVE_DOMAIN), seed, _text(game_id), _text(seat))


def _mask(group: Group, sealed_to: Element, ephemeral: Element, opened: Element, **named: str | int) -> int:
    parts = [_text(f"{name}={value}") for name, value in sorted(named.items())]
    return group.hash_to_scalar(
        group.domain(SEAL_MASK_DOMAIN),
        *parts,
        group.encode(sealed_to),
        group.encode(ephemeral),
        group.encode(opened),
    )


def seal(
    share: EscrowShare,
    dealing: Dealing,
    receiving: Element,
    *,
    game_id: str,
    group: Group,
    seed: bytes,
    proven: str | None = None,
) -> Sealed:
    """``share`` sealed to its holder's receiving key; ``r`` is fixed by the dealer's seed and
    everything the share is for, so making the dealing twice gives the same entry. With
    ``proven`` (``DEALT`` or ``RESEALED``), the sealing carries its proof of knowledge of ``r``."""
    r = group.hash_to_scalar(
        group.domain(SEAL_NONCE_DOMAIN),
        seed,
        _text(game_id),
        _text(dealing.dealer),
        _text(share.holder),
        _number(share.index),
        *(group.encode(commitment) for commitment in dealing.commitments),
    )
    ephemeral = group.base_power(r)
    mask = _mask(
        group,
        receiving,
        ephemeral,
        group.power(receiving, r),
        game=game_id,
        dealer=dealing.dealer,
        holder=share.holder,
        index=share.index,
    )
    proof = None
    if proven is not None:
        proof = prove_ephemeral(
            r, dealing.dealer, share.holder, share.index, receiving, kind=proven, game_id=game_id, group=group
        )
    return Sealed(share.holder, share.index, ephemeral, (share.value + mask) % group.order, proof)


# A complaint publishes ``R^y`` for the ``R`` its share was sealed with. Were ``R`` another
# sealing's point (copied, or shifted by a known ``g^t``, whose effect the dealer subtracts), that
# ``R^y`` would open another holder's share to everyone. A Schnorr proof of knowledge of ``r``,
# bound to everything the sealing is for, makes every ``R`` one its maker knows the logarithm of:
# ``R^y = Y^r`` is then a value the maker could compute already, and a complaint opens nothing
# but the share it is about.
def _ephemeral_statement(
    group: Group,
    ephemeral: Element,
    *,
    dealer: str,
    holder: str,
    index: int,
    receiving: Element,
    kind: str,
    game_id: str,
) -> list[bytes]:
    return [
        _text(game_id),
        _text(kind),
        _text(dealer),
        _text(holder),
        _number(index),
        group.encode(receiving),
        group.encode(ephemeral),
    ]


def prove_ephemeral(
    r: int, dealer: str, holder: str, index: int, receiving: Element, *, kind: str, game_id: str, group: Group
) -> Proof:
    """Schnorr proof of knowledge of ``r`` for ``R = g^r``, the point sealing holder ``index``'s
    share of ``dealer``'s secret to ``receiving`` (in a dealing, or ``kind`` a reshare)."""
    statement = _ephemeral_statement(
        group,
        group.base_power(r),
        dealer=dealer,
        holder=holder,
        index=index,
        receiving=receiving,
        kind=kind,
        game_id=game_id,
    )
    nonce = _nonce(group, r, pae(group.domain(EPHEMERAL_PROOF_DOMAIN), *statement))
    commitment = group.base_power(nonce)
    challenge = group.challenge(EPHEMERAL_PROOF_DOMAIN, *statement, group.encode(commitment))
    return Proof(challenge, (nonce + challenge * r) % group.order)


def check_ephemeral(
    sealed: Sealed, dealer: str, receiving: Element, *, kind: str, game_id: str, group: Group
) -> None:
    """Raise GameFileError unless ``sealed`` carries a proof that its maker knows the logarithm
    of its ephemeral point, for this very sealing."""
    where = f"the share of seat {dealer}'s secret sealed to {sealed.holder}"
    if sealed.proof is None:
        raise GameFileError(f"{where}: its ephemeral point carries no proof of knowledge")
    statement = _ephemeral_statement(
        group,
        sealed.ephemeral,
        dealer=dealer,
        holder=sealed.holder,
        index=sealed.index,
        receiving=receiving,
        kind=kind,
        game_id=game_id,
    )
    commitment = group.divide(
        group.base_power(sealed.proof.response), group.power(sealed.ephemeral, sealed.proof.challenge)
    )
    if (
        group.challenge(EPHEMERAL_PROOF_DOMAIN, *statement, group.encode(commitment))
        != sealed.proof.challenge
    ):
        raise GameFileError(
            f"{where}: the proof of knowledge of its ephemeral point does not verify (a point copied from "
            "another sealing, or shifted, cannot be sealed with)"
        )


def unseal_with(
    sealed: Sealed, opened: Element, dealing: Dealing, receiving: Element, *, game_id: str, group: Group
) -> EscrowShare:
    """The share, given ``R^y`` (the holder's own, or a complaint's)."""
    mask = _mask(
        group,
        receiving,
        sealed.ephemeral,
        opened,
        game=game_id,
        dealer=dealing.dealer,
        holder=sealed.holder,
        index=sealed.index,
    )
    return EscrowShare(sealed.holder, sealed.index, (sealed.masked - mask) % group.order)


def unseal(sealed: Sealed, secret: int, dealing: Dealing, *, game_id: str, group: Group) -> EscrowShare:
    """The holder's share, unsealed with its receiving secret (check it: ``check_escrow_share``)."""
    receiving = group.base_power(secret)
    opened = group.power(sealed.ephemeral, secret)
    return unseal_with(sealed, opened, dealing, receiving, game_id=game_id, group=group)


def _complaint_statement(
    group: Group, dealing: Dealing, sealed: Sealed, receiving: Element, opened: Element, *, game_id: str
) -> list[bytes]:
    return [
        _text(game_id),
        _text(dealing.dealer),
        _text(sealed.holder),
        _number(sealed.index),
        *(group.encode(commitment) for commitment in dealing.commitments),
        group.encode(receiving),
        group.encode(sealed.ephemeral),
        group.scalar_bytes(sealed.masked),
        group.encode(opened),
    ]


def complain(sealed: Sealed, secret: int, dealing: Dealing, *, game_id: str, group: Group) -> Complaint:
    """The holder's complaint: ``R^y`` and a Chaum-Pedersen proof that ``log_g Y = log_R R^y``."""
    receiving = group.base_power(secret)
    opened = group.power(sealed.ephemeral, secret)
    statement = _complaint_statement(group, dealing, sealed, receiving, opened, game_id=game_id)
    nonce = _nonce(group, secret, pae(group.domain(COMPLAINT_PROOF_DOMAIN), *statement))
    first, second = group.base_power(nonce), group.power(sealed.ephemeral, nonce)
    challenge = group.challenge(COMPLAINT_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
    proof = Proof(challenge, (nonce + challenge * secret) % group.order)
    return Complaint(dealing.dealer, sealed.holder, opened, proof)


def at_fault(
    complaint: Complaint, sealed: Sealed, dealing: Dealing, receiving: Element, *, game_id: str, group: Group
) -> str:
    """Who the complaint shows lied: the dealer, when the share it sealed does not match its
    commitments; the holder, when it does. GameFileError when the complaint's proof fails (then
    it shows nothing, and the entry carrying it is refused)."""
    where = f"complaint of {complaint.holder} against seat {complaint.dealer}'s escrow"
    if complaint.holder != sealed.holder or complaint.dealer != dealing.dealer:
        raise GameFileError(f"{where}: it names another share")
    statement = _complaint_statement(group, dealing, sealed, receiving, complaint.opened, game_id=game_id)
    challenge, response = complaint.proof.challenge, complaint.proof.response
    first = group.divide(group.base_power(response), group.power(receiving, challenge))
    second = group.divide(group.power(sealed.ephemeral, response), group.power(complaint.opened, challenge))
    expected = group.challenge(COMPLAINT_PROOF_DOMAIN, *statement, group.encode(first), group.encode(second))
    if expected != challenge:
        raise GameFileError(f"{where}: the proof does not verify")
    share = unseal_with(sealed, complaint.opened, dealing, receiving, game_id=game_id, group=group)
    try:
        check_escrow_share(dealing, share, group=group)
    except GameFileError:
        return dealing.dealer
    return complaint.holder
