"""A zero-knowledge proof that a deck was shuffled honestly: a permutation of re-masked cards.

This is the proof of a shuffle of Terelius and Wikström ("Proofs of Restricted Shuffles",
AFRICACRYPT 2010, as used by Verificatum), following the pseudo-code of Haenni, Locher, Koenig
and Dubuis ("Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets", Voting 2017), made
non-interactive with Fiat-Shamir. The shuffler commits to its permutation matrix with Pedersen
commitments over independent generators ``h_i``, then proves with one Schnorr-style protocol that

* the committed matrix is a permutation (a commitment chain shows the product of the permuted
  challenges ``u'_i`` equals the product of the ``u_i``, and the column sums are all one), and
* each output card is the input card that permutation names, re-masked under the joint key
  (the ``u``-weighted products of inputs and outputs differ by ``g^r'`` and ``H^r'``).

It reveals nothing about the permutation or the masks (honest-verifier zero knowledge, made
non-interactive). Its cost is linear in the deck: about 4N full exponentiations to make and to
check, which in pure Python is a second or two for 25 cards, against 2N for the shuffle itself.
A cut-and-choose proof with k shadow shuffles would cost 2kN and needs k near 128 to resist
grinding once it is non-interactive, which is why this one is used.

The challenge covers a domain string, the game id, the deck id, the seat, the joint key and both
decks, so a proof made for another game, deck, seat or shuffle does not verify.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pbem.crypto.groups import MODP_2048, Element, Group, challenge_text, parse_challenge
from pbem.crypto.hidden_deck import Ciphertext, int_bytes
from pbem.crypto.shuffle import ShuffleSecret, ShuffleStatement
from pbem.errors import GameFileError

PROOF_DOMAIN = "pbem/hidden-deck/shuffle-proof/v1"
STATEMENT_DOMAIN = "pbem/hidden-deck/shuffle-statement/v1"
GENERATORS_DOMAIN = "pbem/hidden-deck/shuffle-generators/v1"
U_DOMAIN = "pbem/hidden-deck/shuffle-u/v1"
NONCE_DOMAIN = "pbem/hidden-deck/shuffle-nonce/v1"


@dataclass(frozen=True)
class ShuffleProof:
    commitments: tuple[Element, ...]  # Pedersen commitments to the permutation matrix's columns
    chain: tuple[Element, ...]  # the commitment chain to the permuted challenges
    challenge: int
    responses: tuple[int, int, int, int]  # s1..s4
    chain_responses: tuple[int, ...]  # s-hat
    card_responses: tuple[int, ...]  # s-prime


def generator(index: int, group: Group = MODP_2048) -> Element:
    """Independent generators nobody knows a relation between; -1 is the chain's base."""
    return _generator(group, index)


@lru_cache(maxsize=512)
def _generator(group: Group, index: int) -> Element:
    return group.hash_to_element(GENERATORS_DOMAIN, str(index).encode("ascii"))


def _challenges(group: Group, statement: bytes, commitments: Sequence[Element]) -> list[int]:
    base = hashlib.sha256(b"".join(group.encode(c) for c in commitments)).digest()
    return [
        group.challenge(U_DOMAIN, statement, base, str(i).encode("ascii")) for i in range(len(commitments))
    ]


def _final_challenge(
    group: Group, statement: bytes, proof_parts: Sequence[Element], t_values: Sequence[Element]
) -> int:
    return group.challenge(
        PROOF_DOMAIN,
        statement,
        b"".join(group.encode(value) for value in proof_parts),
        b"".join(group.encode(value) for value in t_values),
    )


def prove_shuffle(statement: ShuffleStatement, secret: ShuffleSecret) -> ShuffleProof:
    """The proof that ``statement`` holds: its ``after`` is its ``before`` permuted and re-masked
    as ``secret`` says."""
    before, after = statement.before, statement.after
    size = len(before)
    if len(after) != size or sorted(secret.permutation) != list(range(size)) or len(secret.masks) != size:
        raise ValueError("the shuffle secret does not fit the deck")
    return _prove(statement.group, statement.digest(STATEMENT_DOMAIN), after, statement.joint, secret)


def _prove(
    group: Group, statement: bytes, after: Sequence[Ciphertext], joint: Element, secret: ShuffleSecret
) -> ShuffleProof:
    """The prover's steps for the shuffle ``statement`` speaks for (``ShuffleStatement.digest``
    under ``STATEMENT_DOMAIN``), for any mapping: a mapping that is not a permutation (as a cheat
    would use) gives a proof that does not verify, which the tests show."""
    size = len(after)
    psi, masks = secret.permutation, secret.masks
    key = b"".join(int_bytes(mask) for mask in masks) + ",".join(map(str, psi)).encode("ascii")

    def nonce(label: str, index: int = 0) -> int:
        return group.hash_to_scalar(NONCE_DOMAIN, key, statement, label.encode("ascii"), str(index).encode())

    # c_j = g^r_j * prod(h_i for the rows i with psi(i) = j): for a permutation, column psi(i)
    # of the matrix has its single one in row i.
    Q = group.order
    r = [nonce("r", j) for j in range(size)]
    commitments = [group.base_power(r[j]) for j in range(size)]
    for i in range(size):
        commitments[psi[i]] = group.multiply(commitments[psi[i]], generator(i, group))
    u = _challenges(group, statement, commitments)
    u_permuted = [u[psi[i]] for i in range(size)]

    r_chain = [nonce("r-hat", i) for i in range(size)]
    chain: list[Element] = []
    previous = generator(-1, group)
    for i in range(size):
        previous = group.multiply(group.base_power(r_chain[i]), group.power(previous, u_permuted[i]))
        chain.append(previous)

    w = [nonce("w", k) for k in range(4)]
    w_chain = [nonce("w-hat", i) for i in range(size)]
    w_cards = [nonce("w-prime", i) for i in range(size)]
    generators = [generator(i, group) for i in range(size)]
    t1 = group.base_power(w[0])
    t2 = group.base_power(w[1])
    t3 = group.multiply(group.base_power(w[2]), group.multi_power(generators, w_cards))
    t4_second = group.multiply(
        group.fixed_base(joint)(Q - w[3]), group.multi_power([c.c2 for c in after], w_cards)
    )
    t4_first = group.multiply(group.base_power(Q - w[3]), group.multi_power([c.c1 for c in after], w_cards))
    t_chain = [
        group.multiply(
            group.base_power(w_chain[i]),
            group.power(generator(-1, group) if i == 0 else chain[i - 1], w_cards[i]),
        )
        for i in range(size)
    ]
    c = _final_challenge(
        group, statement, [*commitments, *chain], [t1, t2, t3, t4_second, t4_first, *t_chain]
    )

    # v_i = u'_(i+1) * ... * u'_N: how r-hat_i reaches the end of the chain.
    v = [1] * size
    for i in range(size - 2, -1, -1):
        v[i] = u_permuted[i + 1] * v[i + 1] % Q
    r_bar = sum(r) % Q
    r_hat = sum(rc * vi for rc, vi in zip(r_chain, v, strict=True)) % Q
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % Q
    r_prime = sum(m * up for m, up in zip(masks, u_permuted, strict=True)) % Q
    responses = (
        (w[0] + c * r_bar) % Q,
        (w[1] + c * r_hat) % Q,
        (w[2] + c * r_tilde) % Q,
        (w[3] + c * r_prime) % Q,
    )
    return ShuffleProof(
        tuple(commitments),
        tuple(chain),
        c,
        responses,
        tuple((w_chain[i] + c * r_chain[i]) % Q for i in range(size)),
        tuple((w_cards[i] + c * u_permuted[i]) % Q for i in range(size)),
    )


def check_shuffle(statement: ShuffleStatement, proof: ShuffleProof) -> None:
    """Raise GameFileError unless ``proof`` shows ``statement`` holds: its ``after`` is a shuffle of
    its ``before``."""
    before, after, joint, group = statement.before, statement.after, statement.joint, statement.group
    where = statement.where
    size = len(before)
    if len(after) != size:
        raise GameFileError(f"{where}: {len(after)} cards came out of {size}")
    if not (len(proof.commitments) == len(proof.chain) == len(proof.chain_responses) == size) or (
        len(proof.card_responses) != size
    ):
        raise GameFileError(f"{where}: the proof is for a deck of another size")
    # where a power refuses a non-element, the check below raises every one of them to a power
    if not group.checks_on_power and not all(
        group.is_element(value) for value in (*proof.commitments, *proof.chain)
    ):
        raise GameFileError(f"{where}: a commitment of the proof is not a group element")
    hashed = statement.digest(STATEMENT_DOMAIN)
    Q = group.order
    c = proof.challenge
    s1, s2, s3, s4 = proof.responses
    s_chain, s_cards = proof.chain_responses, proof.card_responses
    u = _challenges(group, hashed, proof.commitments)
    generators = [generator(i, group) for i in range(size)]

    def over_c(value: Element) -> Element:  # value^-c, c being a short challenge
        return group.divide(group.identity, group.power(value, c))

    product_u = 1
    for uj in u:
        product_u = product_u * uj % Q
    c_bar = group.divide(group.product(proof.commitments), group.product(generators))
    c_hat = group.divide(proof.chain[-1], group.power(generator(-1, group), product_u))
    c_tilde = group.multi_power(proof.commitments, u)
    weighted_second = group.multi_power([ct.c2 for ct in before], u)
    weighted_first = group.multi_power([ct.c1 for ct in before], u)

    t1 = group.multiply(over_c(c_bar), group.base_power(s1))
    t2 = group.multiply(over_c(c_hat), group.base_power(s2))
    t3 = group.product([over_c(c_tilde), group.base_power(s3), group.multi_power(generators, s_cards)])
    t4_second = group.product(
        [
            over_c(weighted_second),
            group.fixed_base(joint)(Q - s4),
            group.multi_power([ct.c2 for ct in after], s_cards),
        ]
    )
    t4_first = group.product(
        [
            over_c(weighted_first),
            group.base_power(Q - s4),
            group.multi_power([ct.c1 for ct in after], s_cards),
        ]
    )
    t_chain = []
    for i in range(size):
        previous = generator(-1, group) if i == 0 else proof.chain[i - 1]
        t_chain.append(
            group.product(
                [over_c(proof.chain[i]), group.base_power(s_chain[i]), group.power(previous, s_cards[i])]
            )
        )
    expected = _final_challenge(
        group, hashed, [*proof.commitments, *proof.chain], [t1, t2, t3, t4_second, t4_first, *t_chain]
    )
    if expected != c:
        raise GameFileError(f"{where}: the proof of shuffle does not verify")


# --- text form -----------------------------------------------------------------------------------
def proof_fields(proof: ShuffleProof, *, group: Group = MODP_2048) -> dict[str, str | list[str]]:
    """The proof as text fields of a ledger entry (4N+5 elements and scalars; each list one text
    in a compact group)."""
    return {
        "commitments": group.elements_text(proof.commitments),
        "chain": group.elements_text(proof.chain),
        "challenge": challenge_text(proof.challenge),
        "responses": group.scalars_text(proof.responses),
        "chain_responses": group.scalars_text(proof.chain_responses),
        "card_responses": group.scalars_text(proof.card_responses),
    }


def parse_proof(
    fields: Mapping[str, object], what: str, *, group: Group = MODP_2048, lazily: bool = False
) -> ShuffleProof:
    """The proof in ``fields``; ``lazily``: see ``Group.decode_lazily`` (the check raises every
    commitment and chain value to a power)."""

    def field(name: str) -> object:
        value = fields.get(name)
        if value is None:
            raise GameFileError(f"{what}: {name} is missing")
        return value

    responses = group.parse_scalars(field("responses"), f"{what} responses")
    if len(responses) != 4:
        raise GameFileError(f"{what}: responses must hold 4 values, not {len(responses)}")
    return ShuffleProof(
        tuple(group.parse_elements(field("commitments"), f"{what} commitments", lazily=lazily)),
        tuple(group.parse_elements(field("chain"), f"{what} chain", lazily=lazily)),
        parse_challenge(fields.get("challenge"), f"{what} challenge"),
        (responses[0], responses[1], responses[2], responses[3]),
        tuple(group.parse_scalars(field("chain_responses"), f"{what} chain_responses")),
        tuple(group.parse_scalars(field("card_responses"), f"{what} card_responses")),
    )
