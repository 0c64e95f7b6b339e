"""A proof of shuffle of size O(sqrt N): the shuffle argument of Bayer and Groth.

This is the argument of Bayer and Groth ("Efficient Zero-Knowledge Argument for Correctness of
a Shuffle", EUROCRYPT 2012), following the pseudo-code of Swiss Post's "Crypto-primitives
specification" (GenShuffleArgument, the product, Hadamard, zero, single value product and
multi-exponentiation arguments, and their Verify algorithms), made non-interactive with
Fiat-Shamir over one running transcript. It proves the same statement as
:mod:`pbem.crypto.shuffle_proof`: ``after[i]`` is ``before[pi(i)]`` re-masked under the joint key
``H`` (``(c1 g^r, c2 H^r)``) for a permutation ``pi`` and masks ``r`` the shuffler knows, and it
reveals nothing about ``pi`` or ``r`` (honest-verifier zero knowledge, made non-interactive).

How. The deck of N cards is laid out as an ``m x n`` matrix (``m <= n``, see :func:`dimensions`).
The shuffler commits, column by column, to ``a = (pi(0), .., pi(N-1))`` and, after a challenge
``x``, to ``b = (x^pi(0), .., x^pi(N-1))``, with Pedersen commitments over ``n`` generators. Then

* the product argument (a Hadamard argument over a zero argument, then a single value product
  argument) shows ``prod_i (y a_i + b_i - z) = prod_i (y i + x^i - z)`` for challenges ``y, z``,
  which by Schwartz-Zippel makes ``a`` a permutation and ``b`` its powers of ``x``;
* the multi-exponentiation argument shows ``prod_i before_i^(x^i) = Enc(1; rho) prod_i
  after_i^(b_i)``, which ties the committed permutation to the decks.

Soundness rests on the discrete logarithm problem in the group (the commitments bind because
nobody knows a relation between the generators: they are hashed to the group, as in
``shuffle_proof.generator``, and the randomness generator is ``g``), on the hash being a random
oracle (Fiat-Shamir), and on ``N`` being small against the group order (the polynomial identities
fail with probability about ``2N / order`` per challenge). Every challenge is ``group.challenge``
over the statement (a domain string, the game id, the deck id, the seat, the joint key and both
decks) and every value of the proof before it, reduced mod the order. The prover is
deterministic: every random value is hashed from the shuffle's secret and the statement.

Padding. A deck of N cards that ``m x n`` does not fit is extended on both sides by
``m n - N`` copies of the trivial ciphertext ``(1, 1)`` (the identity twice, the encryption of
the identity with randomness 0), and the permutation by the identity on them (mask 0). This is
the padding of Bayer and Groth. Both sides see it, and it cannot hide a cheat: a proof for the
padded decks shows the multiset of plaintexts of ``before`` plus k identities equals that of
``after`` plus k identities, so the two decks hold the same cards. Padding costs nothing to check
(a power of the identity is not computed) and is never written out.

Cost (``m`` rows, ``n`` columns, ``m n >= N``; elements and scalars are 32 bytes each):

* proof, for ``m > 1``: ``11m + 2`` group elements and ``5n + 7`` scalars; for ``m = 1`` (no
  Hadamard argument): 9 elements and ``3n + 4`` scalars. :func:`dimensions` picks the pair that
  makes it smallest: up to 23 cards that is one row (a proof of about 3N values, against 4N for
  the linear proof); a 100-card deck is 6 x 17 and 5,120 bytes, against 12,960 bytes for the
  linear proof; 200 cards are 10 x 20 and 7.0 KB, against 25.8 KB.
* checking: every equation of every sub-argument is linear in the group, so all of them are
  checked at once as one random linear combination (weights hashed from the whole proof, so a
  proof that fails any one equation passes with probability about ``1/order``). That costs one
  scalar multiplication per distinct base: ``4N`` for the two decks (both halves of every card,
  before and after), ``n`` for the commitment key, one per element of the proof and one for the
  joint key, about ``4N + 11m + n`` in all (against about ``8N`` for the linear proof), plus as
  many point additions and some ``O(m^2 n)`` arithmetic on scalars. When the combination fails,
  each equation is checked on its own, to name the argument that failed.
* proving: about ``2Nm + 2N + (m + 4) n`` scalar multiplications, the multi-exponentiation
  argument's ``2m - 1`` re-encrypted diagonal products being most of it.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.crypto.curve import UncheckedPoint
from pbem.crypto.groups import Element, Group
from pbem.crypto.hidden_deck import Ciphertext, int_bytes
from pbem.crypto.shuffle import ShuffleSecret, ShuffleStatement
from pbem.crypto.signing import pae
from pbem.errors import GameFileError

STATEMENT_DOMAIN = "pbem/hidden-deck/bg-statement/v1"
CHALLENGE_DOMAIN = "pbem/hidden-deck/bg-challenge/v1"
GENERATORS_DOMAIN = "pbem/hidden-deck/bg-generators/v1"
NONCE_DOMAIN = "pbem/hidden-deck/bg-nonce/v1"
BATCH_DOMAIN = "pbem/hidden-deck/bg-batch/v1"
# The weights of several proofs checked together (``shuffles_hold``): the verifier's own choice,
# never written to a file.
CHAIN_DOMAIN = "pbem/hidden-deck/bg-chain/v1"

MAX_CARDS = 0xFFFF  # as ``shuffle_secret`` allows


@dataclass(frozen=True)
class BGProof:
    """The proof's values, grouped as the text form writes them (``m x n`` the deck's layout)."""

    commitments_a: tuple[Element, ...]  # m: the permutation, column by column
    commitments_b: tuple[Element, ...]  # m: x to the permutation
    product_commitment: tuple[Element, ...]  # 1 (the rows' products), none when m = 1
    hadamard_commitments: tuple[Element, ...]  # m - 2 partial products, none when m <= 2
    zero_commitments: tuple[Element, ...]  # c_A0, c_Bm, c_D (2m of 2m+1): 2m + 2, none when m = 1
    zero_responses: tuple[int, ...]  # a' (n), b' (n), r', s', t': 2n + 3, none when m = 1
    svp_commitments: tuple[Element, ...]  # c_d, c_delta, c_Delta
    svp_responses: tuple[int, ...]  # a~ (n), b~ but its first and last (n - 2), r~, s~: 2n
    multi_exp_commitments: tuple[Element, ...]  # c_A0, c_B (2m - 1 of 2m): 2m
    multi_exp_ciphertexts: tuple[Ciphertext, ...]  # E (2m - 1 of 2m)
    multi_exp_responses: tuple[int, ...]  # a (n), r, b, s, tau: n + 4


def proof_values(m: int, n: int) -> tuple[int, int]:
    """(group elements, scalars) of a proof for an ``m x n`` deck."""
    if m == 1:
        return 9, 3 * n + 4
    return 11 * m + 2, 5 * n + 7


@lru_cache(maxsize=256)
def dimensions(size: int) -> tuple[int, int]:
    """The layout ``(m, n)`` of a deck of ``size`` cards: ``m`` rows of ``n``, ``m <= n``,
    ``n >= 2`` (the single value product argument needs two values), ``n = ceil(size / m)`` (so
    fewer than ``m`` padding cards, but for one card, which takes ``1 x 2``), the one with the
    smallest proof, then the least padding.

    Decks up to 23 cards take one row (``m = 1``: no Hadamard argument, a proof of about 3N
    values, which is the smaller there); larger ones near ``m = sqrt(5N / 11)``, which is what
    minimizes ``11m + 5n``.
    """
    if not 0 < size <= MAX_CARDS:
        raise ValueError(f"a deck holds 1 to {MAX_CARDS} cards")
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    m = 1
    while True:
        n = max(2, -(-size // m))
        if m > n:
            break
        elements, scalars = proof_values(m, n)
        key = (elements + scalars, m * n - size, m)
        if best is None or key < best[0]:
            best = (key, (m, n))
        m += 1
    assert best is not None
    return best[1]


@lru_cache(maxsize=512)
def _generator(group: Group, index: int) -> Element:
    return group.hash_to_element(group.domain(GENERATORS_DOMAIN), str(index).encode("ascii"))


def commitment_key(n: int, group: Group) -> list[Element]:
    """``g_1 .. g_n``, hashed to the group so nobody knows a relation between them or ``g``
    (the commitments' randomness generator)."""
    return [_generator(group, index) for index in range(n)]


class _Transcript:
    """Everything the proof has said so far, in order; each challenge hashes it all."""

    def __init__(self, group: Group, statement: bytes, m: int, n: int) -> None:
        self.group = group
        self.statement = statement
        self.state = hashlib.sha256(pae("dimensions", str(m).encode("ascii"), str(n).encode("ascii")))

    def elements(self, label: str, values: Sequence[Element]) -> None:
        self.state.update(pae(label, b"".join(self.group.encode(value) for value in values)))

    def scalars(self, label: str, values: Sequence[int]) -> None:
        self.state.update(pae(label, b"".join(self.group.scalar_bytes(value) for value in values)))

    def challenge(self, label: str) -> int:
        return (
            self.group.challenge(
                CHALLENGE_DOMAIN, self.statement, label.encode("ascii"), self.state.copy().digest()
            )
            % self.group.order
        )

    def weight(self, index: int) -> int:
        return (
            self.group.challenge(
                BATCH_DOMAIN, self.statement, str(index).encode("ascii"), self.state.copy().digest()
            )
            % self.group.order
        )


def _powers(x: int, count: int, order: int) -> list[int]:
    out = [1] * count
    for i in range(1, count):
        out[i] = out[i - 1] * x % order
    return out


def _chunks(values: Sequence[int], m: int, n: int) -> list[list[int]]:
    return [list(values[i * n : (i + 1) * n]) for i in range(m)]


def _star(a: Sequence[int], b: Sequence[int], y_powers: Sequence[int], order: int) -> int:
    """The bilinear map of the zero argument: ``sum_j a_j b_j y^(j+1)``."""
    return sum(ai * bi * yj for ai, bi, yj in zip(a, b, y_powers, strict=True)) % order


def _combine(columns: Sequence[Sequence[int]], weights: Sequence[int], order: int) -> list[int]:
    """``sum_i weights_i columns_i``, entry by entry."""
    size = len(columns[0])
    out = [0] * size
    for column, weight in zip(columns, weights, strict=True):
        for j in range(size):
            out[j] += weight * column[j]
    return [value % order for value in out]


def _padded(deck: Sequence[Ciphertext], total: int, group: Group) -> list[Ciphertext]:
    pad = Ciphertext(group.identity, group.identity)
    return [*deck, *[pad] * (total - len(deck))]


def _flat(ciphertexts: Sequence[Ciphertext]) -> list[Element]:
    return [value for c in ciphertexts for value in (c.c1, c.c2)]


def _lengths(m: int, n: int) -> dict[str, int]:
    """How many values each field of a proof for an ``m x n`` deck holds (ciphertexts count one)."""
    several = m > 1
    return {
        "commitments_a": m,
        "commitments_b": m,
        "product_commitment": 1 if several else 0,
        "hadamard_commitments": max(m - 2, 0),
        "zero_commitments": 2 * m + 2 if several else 0,
        "zero_responses": 2 * n + 3 if several else 0,
        "svp_commitments": 3,
        "svp_responses": 2 * n,
        "multi_exp_commitments": 2 * m,
        "multi_exp_ciphertexts": 2 * m - 1,
        "multi_exp_responses": n + 4,
    }


ELEMENT_FIELDS = (
    "commitments_a",
    "commitments_b",
    "product_commitment",
    "hadamard_commitments",
    "zero_commitments",
    "svp_commitments",
    "multi_exp_commitments",
)
SCALAR_FIELDS = ("zero_responses", "svp_responses", "multi_exp_responses")
FIELDS = (*ELEMENT_FIELDS, "multi_exp_ciphertexts", *SCALAR_FIELDS)


# --- proving -------------------------------------------------------------------------------------
class _Prover:
    """The prover's steps; each sub-argument adds its fields to ``parts`` and its values to the
    transcript, in the order the checker replays them."""

    def __init__(self, group: Group, statement: bytes, key: bytes, *, m: int, n: int, joint: Element) -> None:
        self.group = group
        self.order = group.order
        self.statement = statement
        self.key = key
        self.m, self.n = m, n
        self.joint = joint
        self.ck = commitment_key(n, group)
        self.transcript = _Transcript(group, statement, m, n)
        self.parts: dict[str, tuple[Any, ...]] = {}

    def nonce(self, label: str, index: int = 0) -> int:
        return self.group.hash_to_scalar(
            self.group.domain(NONCE_DOMAIN),
            self.key,
            self.statement,
            label.encode("ascii"),
            str(index).encode("ascii"),
        )

    def nonces(self, label: str, count: int) -> list[int]:
        return [self.nonce(label, index) for index in range(count)]

    def commit(self, values: Sequence[int], randomness: int) -> Element:
        group = self.group
        return group.multiply(
            group.base_power(randomness), group.multi_power(self.ck[: len(values)], list(values))
        )

    def send(self, name: str, values: tuple[Any, ...]) -> None:
        self.parts[name] = values
        if name in SCALAR_FIELDS:
            self.transcript.scalars(name, values)
        elif name == "multi_exp_ciphertexts":
            self.transcript.elements(name, _flat(values))
        else:
            self.transcript.elements(name, values)

    def product(self, columns: list[list[int]], randomness: list[int]) -> None:
        """The product argument: the product of every entry of the committed columns is the
        public value (which the prover never needs: the checker puts it in)."""
        Q, m, n = self.order, self.m, self.n
        if m == 1:
            self.single_value_product(columns[0], randomness[0])
            return
        rows = [1] * n
        for column in columns:
            rows = [value * entry % Q for value, entry in zip(rows, column, strict=True)]
        s_rows = self.nonce("product-s")
        self.send("product_commitment", (self.commit(rows, s_rows),))
        self.hadamard(columns, randomness, s_rows)
        self.single_value_product(rows, s_rows)

    def hadamard(self, columns: list[list[int]], r: list[int], s: int) -> None:
        """The committed ``rows`` (randomness ``s``) is the entry-wise product of the columns."""
        Q, m, n = self.order, self.m, self.n
        partial = [columns[0]]
        for column in columns[1:]:
            partial.append([value * entry % Q for value, entry in zip(partial[-1], column, strict=True)])
        s_partial = [r[0], *self.nonces("hadamard-s", m - 2), s]
        self.send(
            "hadamard_commitments", tuple(self.commit(partial[j], s_partial[j]) for j in range(1, m - 1))
        )
        x = self.transcript.challenge("hadamard-x")
        y = self.transcript.challenge("hadamard-y")
        xp = _powers(x, m + 1, Q)
        # The zero argument's statement: sum_i a_(i+1) * (x^(i+1) b_i) - 1 * sum_j x^j b_j = 0,
        # which holds for a random x only when every b_j = b_(j-1) o a_j.
        a_side = [*columns[1:], [Q - 1] * n]
        r_side = [*r[1:], 0]
        b_side = [[xp[i + 1] * value % Q for value in partial[i]] for i in range(m - 1)]
        b_side.append(_combine(partial[1:], xp[1:m], Q))
        s_side = [xp[i + 1] * s_partial[i] % Q for i in range(m - 1)]
        s_side.append(sum(xp[j] * s_partial[j] for j in range(1, m)) % Q)
        self.zero(a_side, r_side, b_side, s_side, y)

    def zero(self, a: list[list[int]], r: list[int], b: list[list[int]], s: list[int], y: int) -> None:
        """Knowledge of openings with ``sum_(i=1..mz) a_i * b_(i-1) = 0`` (``*`` the bilinear map)."""
        Q, n = self.order, self.n
        mz = len(a)
        a0, r0 = self.nonces("zero-a0", n), self.nonce("zero-r0")
        bm, sm = self.nonces("zero-bm", n), self.nonce("zero-sm")
        a_ext, r_ext = [a0, *a], [r0, *r]
        b_ext, s_ext = [*b, bm], [*s, sm]
        y_powers = _powers(y, n + 1, Q)[1:]
        d = [0] * (2 * mz + 1)
        for i in range(mz + 1):
            for j in range(mz + 1):
                d[mz - j + i] += _star(a_ext[i], b_ext[j], y_powers, Q)
        t = self.nonces("zero-t", 2 * mz + 1)
        t[mz + 1] = 0  # d_(m+1) is the sum the argument shows is zero: its commitment is 1
        c_d = [self.commit([d[k] % Q], t[k]) for k in range(2 * mz + 1) if k != mz + 1]
        self.send("zero_commitments", (self.commit(a0, r0), self.commit(bm, sm), *c_d))
        x = self.transcript.challenge("zero-x")
        xp = _powers(x, 2 * mz + 1, Q)
        self.send(
            "zero_responses",
            (
                *_combine(a_ext, xp[: mz + 1], Q),
                *_combine(b_ext, xp[mz::-1], Q),
                sum(xp[i] * r_ext[i] for i in range(mz + 1)) % Q,
                sum(xp[mz - j] * s_ext[j] for j in range(mz + 1)) % Q,
                sum(w * v for w, v in zip(xp, t, strict=True)) % Q,
            ),
        )

    def single_value_product(self, a: list[int], r: int) -> None:
        """Knowledge of an opening ``a`` of a commitment with ``prod(a)`` the public value."""
        Q, n = self.order, self.n
        partial = [a[0]]
        for value in a[1:]:
            partial.append(partial[-1] * value % Q)
        d, r_d = self.nonces("svp-d", n), self.nonce("svp-rd")
        delta = [d[0], *self.nonces("svp-delta", n - 2), 0]
        s0, sx = self.nonce("svp-s0"), self.nonce("svp-sx")
        delta_low = [(-delta[k] * d[k + 1]) % Q for k in range(n - 1)]
        delta_high = [(delta[k + 1] - a[k + 1] * delta[k] - partial[k] * d[k + 1]) % Q for k in range(n - 1)]
        self.send(
            "svp_commitments", (self.commit(d, r_d), self.commit(delta_low, s0), self.commit(delta_high, sx))
        )
        x = self.transcript.challenge("svp-x")
        a_tilde = [(x * a[k] + d[k]) % Q for k in range(n)]
        b_tilde = [(x * partial[k] + delta[k]) % Q for k in range(n)]
        # b~_0 = a~_0 and b~_(n-1) = x * product: the checker computes them, they are not sent.
        self.send("svp_responses", (*a_tilde, *b_tilde[1 : n - 1], (x * r + r_d) % Q, (x * sx + s0) % Q))

    def diagonal_blinding(self, rho: int) -> tuple[list[int], list[int], list[int]]:
        """The diagonals' ``b_k``, ``s_k`` (of their commitments) and ``tau_k`` (of their
        re-encryption): random but the middle one's, whose ``E_m`` must be C itself, so
        ``b_m = s_m = 0`` (its commitment is 1) and ``tau_m = rho``."""
        m = self.m
        b = self.nonces("multi-exp-b", 2 * m)
        s = self.nonces("multi-exp-s", 2 * m)
        tau = self.nonces("multi-exp-tau", 2 * m)
        b[m], s[m], tau[m] = 0, 0, rho
        return b, s, tau

    def multi_exponentiation(
        self, rows: list[list[Ciphertext]], columns: list[list[int]], r: list[int], rho: int
    ) -> None:
        """``C = Enc(1; rho) prod_i rows_i ^ columns_i`` for the committed columns, C being the
        checker's ``prod_i before_i^(x^i)``. C is the diagonal product ``E_m``, which is not sent,
        so the prover never computes it."""
        group, Q, m, n = self.group, self.order, self.m, self.n
        a0, r0 = self.nonces("multi-exp-a0", n), self.nonce("multi-exp-r0")
        b, s, tau = self.diagonal_blinding(rho)
        a_ext, r_ext = [a0, *columns], [r0, *r]
        firsts: list[Element] = [group.identity] * (2 * m)
        seconds: list[Element] = [group.identity] * (2 * m)
        for i in range(m):
            row_first = [c.c1 for c in rows[i]]
            row_second = [c.c2 for c in rows[i]]
            for j in range(m + 1):
                k = m + j - i - 1
                if k == m:
                    continue
                firsts[k] = group.multiply(firsts[k], group.multi_power(row_first, a_ext[j]))
                seconds[k] = group.multiply(seconds[k], group.multi_power(row_second, a_ext[j]))
        joint_power = group.fixed_base(self.joint)
        self.send(
            "multi_exp_commitments",
            (self.commit(a0, r0), *(self.commit([b[k]], s[k]) for k in range(2 * m) if k != m)),
        )
        self.send(
            "multi_exp_ciphertexts",
            tuple(
                Ciphertext(
                    group.multiply(group.base_power(tau[k]), firsts[k]),
                    group.product([group.base_power(b[k]), joint_power(tau[k]), seconds[k]]),
                )
                for k in range(2 * m)
                if k != m
            ),
        )
        x = self.transcript.challenge("multi-exp-x")
        xp = _powers(x, 2 * m, Q)
        self.send(
            "multi_exp_responses",
            (
                *_combine(a_ext, xp[: m + 1], Q),
                sum(xp[i] * r_ext[i] for i in range(m + 1)) % Q,
                sum(w * v for w, v in zip(xp, b, strict=True)) % Q,
                sum(w * v for w, v in zip(xp, s, strict=True)) % Q,
                sum(w * v for w, v in zip(xp, tau, strict=True)) % Q,
            ),
        )


def prove_shuffle_bg(statement: ShuffleStatement, secret: ShuffleSecret) -> BGProof:
    """The proof that ``statement`` holds: its ``after`` is its ``before`` permuted and re-masked
    as ``secret`` says.

    Any mapping into the deck is taken as it comes: one that is not a permutation (as a cheat
    would use) gives a proof that does not verify, which the tests show.
    """
    before, after, joint, group = statement.before, statement.after, statement.joint, statement.group
    size = len(before)
    if not 0 < size <= MAX_CARDS or len(after) != size:
        raise ValueError(f"the decks must hold the same number of cards, 1 to {MAX_CARDS}")
    psi, masks = secret.permutation, secret.masks
    if len(psi) != size or len(masks) != size or not all(0 <= p < size for p in psi):
        raise ValueError("the shuffle secret does not fit the deck")
    Q = group.order
    m, n = dimensions(size)
    total = m * n
    key = b"".join(int_bytes(mask % Q) for mask in masks) + ",".join(map(str, psi)).encode("ascii")
    prover = _Prover(group, statement.digest(STATEMENT_DOMAIN), key, m=m, n=n, joint=joint)
    transcript = prover.transcript

    mapping = [*psi, *range(size, total)]
    padded_masks = [*(mask % Q for mask in masks), *[0] * (total - size)]
    a_columns = _chunks(mapping, m, n)
    r = prover.nonces("shuffle-r", m)
    prover.send("commitments_a", tuple(prover.commit(a_columns[i], r[i]) for i in range(m)))
    x = transcript.challenge("x")
    x_powers = _powers(x, total, Q)
    b_flat = [x_powers[p] for p in mapping]
    b_columns = _chunks(b_flat, m, n)
    s = prover.nonces("shuffle-s", m)
    prover.send("commitments_b", tuple(prover.commit(b_columns[i], s[i]) for i in range(m)))
    y = transcript.challenge("y")
    z = transcript.challenge("z")

    # The product argument's columns y a_i + b_i - z, committed in c_A^y c_B c_(-z).
    d_columns = [
        [(y * ai + bi - z) % Q for ai, bi in zip(a_columns[i], b_columns[i], strict=True)] for i in range(m)
    ]
    prover.product(d_columns, [(y * r[i] + s[i]) % Q for i in range(m)])

    rho = -sum(mask * bi for mask, bi in zip(padded_masks, b_flat, strict=True)) % Q
    padded_after = _padded(after, total, group)
    rows = [padded_after[i * n : (i + 1) * n] for i in range(m)]
    prover.multi_exponentiation(rows, b_columns, s, rho)
    return BGProof(**{name: prover.parts.get(name, ()) for name in FIELDS})


# --- checking ------------------------------------------------------------------------------------
Form = dict[Element, int]  # prod(base ^ exponent): a group element as a linear form in its bases


def _linear(order: int, *terms: tuple[Form, int]) -> Form:
    out: Form = {}
    for form, weight in terms:
        for base, exponent in form.items():
            out[base] = (out.get(base, 0) + weight * exponent) % order
    return out


class _Checker:
    """Collects every equation of every sub-argument as a form that must be the identity."""

    def __init__(self, group: Group, n: int) -> None:
        self.group = group
        self.order = group.order
        self.ck = commitment_key(n, group)
        self.relations: list[tuple[str, Form]] = []

    def commit(self, values: Sequence[int], randomness: int) -> Form:
        form: Form = {self.group.generator: randomness % self.order}
        for base, value in zip(self.ck, values, strict=False):
            form[base] = (form.get(base, 0) + value) % self.order
        return form

    def equal(self, name: str, left: Form, right: Form) -> None:
        self.relations.append((name, _linear(self.order, (left, 1), (right, self.order - 1))))

    def value(self, form: Form) -> Element:
        group = self.group
        bases = [base for base in form if base not in (group.generator, group.identity)]
        result = group.multi_power(bases, [form[base] for base in bases])
        if group.generator in form:
            result = group.multiply(result, group.base_power(form[group.generator]))
        return result

    def failed(self, weights: Sequence[int]) -> str | None:
        """None if every equation holds, else the name of one that does not."""
        combined = _linear(
            self.order, *((form, weight) for (_, form), weight in zip(self.relations, weights, strict=True))
        )
        if self.value(combined) == self.group.identity:
            return None
        for name, form in self.relations:
            if self.value(form) != self.group.identity:
                return name
        return "the combined equations"  # each holds, their combination not: never for a group


def _term(value: Element) -> Form:
    return {value: 1}


def _valid_element(group: Group, value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | bytes):
        return False
    if group.checks_on_power:
        # the cheap checks only: every element of the proof is raised to a power in the check,
        # which refuses one outside the group (UncheckedPoint)
        try:
            group.decode_lazily(group.encode(value), "a value of the proof")
        except (GameFileError, TypeError):
            return False
        return True
    return group.is_element(value)


def _check_values(proof: BGProof, group: Group, where: str) -> None:
    for name in FIELDS:
        values = getattr(proof, name)
        if name == "multi_exp_ciphertexts":
            if not all(isinstance(c, Ciphertext) for c in values):
                raise GameFileError(f"{where}: {name} holds a value that is not a ciphertext")
            values = _flat(values)
        for index, value in enumerate(values):
            if name in SCALAR_FIELDS:
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < group.order:
                    raise GameFileError(f"{where}: {name}[{index}] is not a scalar")
            elif not _valid_element(group, value):
                raise GameFileError(f"{where}: {name}[{index}] is not a group element")


@dataclass(frozen=True)
class Shuffle:
    """One shuffle's statement and its proof, as :func:`check_shuffle_bg` takes them."""

    statement: ShuffleStatement
    proof: BGProof


def check_shuffle_bg(statement: ShuffleStatement, proof: BGProof) -> None:
    """Raise GameFileError unless ``proof`` shows ``statement`` holds: its ``after`` is a shuffle of
    its ``before``."""
    where = statement.where
    checker, transcript = _prepared(Shuffle(statement, proof))
    try:
        failed = checker.failed([transcript.weight(k) for k in range(len(checker.relations))])
    except UncheckedPoint:
        raise  # a card read lazily: whoever read it names it (see ``Group.decode_lazily``)
    except GameFileError as exc:  # a value of the proof or the decks outside the group
        raise GameFileError(f"{where}: {exc}") from None
    if failed is not None:
        raise GameFileError(f"{where}: the proof of shuffle does not verify ({failed})")


def shuffles_hold(shuffles: Sequence[Shuffle], *, threads: int = 1) -> bool:
    """True when every proof holds, as :func:`check_shuffle_bg` would find each; False when one
    may not (never an exception: the caller checks each in turn to learn which and why).

    Every proof's equations are checked as one random linear combination, so a point two
    statements share is raised to a power once. That is what makes it pay: the seats shuffle a
    deck in turn, each shuffle's output is the next one's input, and a chain of k shuffles of N
    cards raises ``2N (k + 1)`` ciphertext halves instead of ``4N k``.

    Why it is as sound as checking each. Proof k alone passes when ``R_k``, its equations
    combined with the weights hashed from its own transcript, is the identity. Here the test is
    ``sum_k alpha_k R_k = 0`` (written additively), each ``alpha_k`` a hash of every statement and
    every proof of the batch (each proof's running transcript covers its statement and all its
    values), so fixed only once every ``R_k`` is. If some ``R_j`` is not the identity, then for
    the other terms fixed, exactly one value of ``alpha_j`` mod the prime order ``l`` makes the
    sum vanish: a hash output hits it with chance ``1/l`` per try, as with the weights inside
    one proof. The group has prime order (libsodium refuses to raise a point outside the
    prime-order subgroup, and a base whose combined exponent is 0 is checked on its own), so no
    small-order part can cancel between terms.

    ``threads``: how many threads share the powers (libsodium works without holding the
    interpreter, so they run side by side); the batch is one task, often the longest of a replay.
    """
    if not shuffles:
        return True
    group = shuffles[0].statement.group
    try:
        prepared = []
        for item in shuffles:
            if item.statement.group is not group:
                return False
            prepared.append(_prepared(item))
        Q = group.order
        summary = b"".join(
            transcript.statement + transcript.state.copy().digest() for _, transcript in prepared
        )
        terms: list[tuple[Form, int]] = []
        for index, (checker, transcript) in enumerate(prepared):
            alpha = group.challenge(CHAIN_DOMAIN, summary, str(index).encode("ascii")) % Q
            for number, (_, form) in enumerate(checker.relations):
                terms.append((form, alpha * transcript.weight(number) % Q))
        return _vanishes(prepared[0][0], _linear(Q, *terms), threads)
    except Exception:  # whatever it is, checking each in turn meets it and names it
        return False


def _vanishes(checker: _Checker, form: Form, threads: int) -> bool:
    """Whether ``checker.value(form)`` is the identity, its bases split among ``threads`` threads."""
    items = list(form.items())
    size = -(-len(items) // max(1, threads))
    parts: list[Form] = [dict(items[start : start + size]) for start in range(0, len(items), size)]
    found: list[Element | Exception | None] = [None] * len(parts)

    def work(index: int) -> None:
        try:
            found[index] = checker.value(parts[index])
        except Exception as exc:  # raised again on the caller's thread
            found[index] = exc

    helpers = [threading.Thread(target=work, args=(index,)) for index in range(1, len(parts))]
    for helper in helpers:
        helper.start()
    work(0)
    for helper in helpers:
        helper.join()
    values: list[Element] = []
    for value in found:
        if isinstance(value, Exception):
            raise value
        assert value is not None
        values.append(value)
    return checker.group.product(values) == checker.group.identity


def _prepared(shuffle: Shuffle) -> tuple[_Checker, _Transcript]:
    """Every equation the shuffle's proof must meet, and its transcript (which gives their
    weights); GameFileError if the proof's shape or values do not fit the decks."""
    statement, proof = shuffle.statement, shuffle.proof
    before, after, group = statement.before, statement.after, statement.group
    where = statement.where
    size = len(before)
    if len(after) != size:
        raise GameFileError(f"{where}: {len(after)} cards came out of {size}")
    if not 0 < size <= MAX_CARDS:
        raise GameFileError(f"{where}: a deck holds 1 to {MAX_CARDS} cards, not {size}")
    m, n = dimensions(size)
    for name, expected in _lengths(m, n).items():
        found = len(getattr(proof, name))
        if found != expected:
            raise GameFileError(
                f"{where}: the proof is for a deck of another size ({name} holds {found} values, "
                f"a {size}-card deck's {expected})"
            )
    _check_values(proof, group, where)
    Q, total = group.order, m * n
    transcript = _Transcript(group, statement.digest(STATEMENT_DOMAIN), m, n)
    checker = _Checker(group, n)

    c_a = [_term(value) for value in proof.commitments_a]
    c_b = [_term(value) for value in proof.commitments_b]
    transcript.elements("commitments_a", proof.commitments_a)
    x = transcript.challenge("x")
    transcript.elements("commitments_b", proof.commitments_b)
    y = transcript.challenge("y")
    z = transcript.challenge("z")
    c_minus_z = dict.fromkeys(checker.ck, -z % Q)
    c_d = [_linear(Q, (c_a[i], y), (c_b[i], 1), (c_minus_z, 1)) for i in range(m)]
    x_powers = _powers(x, total, Q)
    product = 1
    for k in range(total):
        product = product * (y * k + x_powers[k] - z) % Q

    if m == 1:
        _check_single_value_product(checker, transcript, proof, c_a=c_d[0], product=product, n=n)
    else:
        transcript.elements("product_commitment", proof.product_commitment)
        c_rows = _term(proof.product_commitment[0])
        _check_hadamard(checker, transcript, proof, c_a=c_d, c_b=c_rows, m=m, n=n)
        _check_single_value_product(checker, transcript, proof, c_a=c_rows, product=product, n=n)
    _check_multi_exponentiation(
        checker,
        transcript,
        proof,
        c_b=c_b,
        x_powers=x_powers,
        before=_padded(before, total, group),
        after=_padded(after, total, group),
        joint=statement.joint,
        m=m,
        n=n,
    )
    return checker, transcript


def _check_hadamard(
    checker: _Checker,
    transcript: _Transcript,
    proof: BGProof,
    *,
    c_a: list[Form],
    c_b: Form,
    m: int,
    n: int,
) -> None:
    Q = checker.order
    transcript.elements("hadamard_commitments", proof.hadamard_commitments)
    x = transcript.challenge("hadamard-x")
    y = transcript.challenge("hadamard-y")
    xp = _powers(x, m + 1, Q)
    partial = [c_a[0], *(_term(value) for value in proof.hadamard_commitments), c_b]
    a_side = [*c_a[1:], dict.fromkeys(checker.ck, Q - 1)]
    b_side = [_linear(Q, (partial[i], xp[i + 1])) for i in range(m - 1)]
    b_side.append(_linear(Q, *((partial[j], xp[j]) for j in range(1, m))))

    mz = m
    commitments = proof.zero_commitments
    transcript.elements("zero_commitments", commitments)
    zx = transcript.challenge("zero-x")
    responses = proof.zero_responses
    transcript.scalars("zero_responses", responses)
    a_prime, b_prime = responses[:n], responses[n : 2 * n]
    r_prime, s_prime, t_prime = responses[2 * n :]
    zp = _powers(zx, 2 * mz + 1, Q)
    a_ext = [_term(commitments[0]), *a_side]
    b_ext = [*b_side, _term(commitments[1])]
    checker.equal(
        "zero argument, A",
        _linear(Q, *((a_ext[i], zp[i]) for i in range(mz + 1))),
        checker.commit(a_prime, r_prime),
    )
    checker.equal(
        "zero argument, B",
        _linear(Q, *((b_ext[j], zp[mz - j]) for j in range(mz + 1))),
        checker.commit(b_prime, s_prime),
    )
    indices = [k for k in range(2 * mz + 1) if k != mz + 1]
    y_powers = _powers(y, n + 1, Q)[1:]
    checker.equal(
        "zero argument, D",
        _linear(Q, *((_term(value), zp[k]) for k, value in zip(indices, commitments[2:], strict=True))),
        checker.commit([_star(a_prime, b_prime, y_powers, Q)], t_prime),
    )


def _check_single_value_product(
    checker: _Checker, transcript: _Transcript, proof: BGProof, *, c_a: Form, product: int, n: int
) -> None:
    Q = checker.order
    c_d, c_delta_low, c_delta_high = proof.svp_commitments
    transcript.elements("svp_commitments", proof.svp_commitments)
    x = transcript.challenge("svp-x")
    responses = proof.svp_responses
    transcript.scalars("svp_responses", responses)
    a_tilde = responses[:n]
    b_tilde = [a_tilde[0], *responses[n : 2 * n - 2], x * product % Q]
    r_tilde, s_tilde = responses[2 * n - 2 :]
    checker.equal(
        "single value product argument, a",
        _linear(Q, (c_a, x), (_term(c_d), 1)),
        checker.commit(a_tilde, r_tilde),
    )
    e = [(x * b_tilde[k + 1] - b_tilde[k] * a_tilde[k + 1]) % Q for k in range(n - 1)]
    checker.equal(
        "single value product argument, products",
        _linear(Q, (_term(c_delta_high), x), (_term(c_delta_low), 1)),
        checker.commit(e, s_tilde),
    )


def _check_multi_exponentiation(
    checker: _Checker,
    transcript: _Transcript,
    proof: BGProof,
    *,
    c_b: list[Form],
    x_powers: list[int],
    before: list[Ciphertext],
    after: list[Ciphertext],
    joint: Element,
    m: int,
    n: int,
) -> None:
    group, Q = checker.group, checker.order
    commitments, ciphertexts = proof.multi_exp_commitments, proof.multi_exp_ciphertexts
    transcript.elements("multi_exp_commitments", commitments)
    transcript.elements("multi_exp_ciphertexts", _flat(ciphertexts))
    x = transcript.challenge("multi-exp-x")
    responses = proof.multi_exp_responses
    transcript.scalars("multi_exp_responses", responses)
    a = responses[:n]
    r, b, s, tau = responses[n:]
    xp = _powers(x, 2 * m, Q)
    indices = [k for k in range(2 * m) if k != m]
    checker.equal(
        "multi-exponentiation argument, A",
        _linear(Q, (_term(commitments[0]), 1), *((c_b[i], xp[i + 1]) for i in range(m))),
        checker.commit(a, r),
    )
    checker.equal(
        "multi-exponentiation argument, B",
        _linear(Q, *((_term(value), xp[k]) for k, value in zip(indices, commitments[1:], strict=True))),
        checker.commit([b], s),
    )
    # prod_k E_k^(x^k) with E_m = C = prod_i before_i^(x^i), against Enc(g^b; tau) times
    # prod_i after_row_i^(x^(m-1-i) a): one equation for each half of the ciphertexts.
    for half, name in ((0, "first"), (1, "second")):
        left: Form = {}
        for k, ciphertext in zip(indices, ciphertexts, strict=True):
            value = ciphertext.c1 if half == 0 else ciphertext.c2
            left[value] = (left.get(value, 0) + xp[k]) % Q
        for i, ciphertext in enumerate(before):
            value = ciphertext.c1 if half == 0 else ciphertext.c2
            left[value] = (left.get(value, 0) + xp[m] * x_powers[i]) % Q
        right: Form = {group.generator: tau} if half == 0 else {group.generator: b}
        if half == 1:
            right[joint] = (right.get(joint, 0) + tau) % Q
        for i in range(m):
            weight = xp[m - 1 - i]
            for j in range(n):
                ciphertext = after[i * n + j]
                value = ciphertext.c1 if half == 0 else ciphertext.c2
                right[value] = (right.get(value, 0) + weight * a[j]) % Q
        checker.equal(f"multi-exponentiation argument, {name} halves", left, right)


# --- sizes and text form -------------------------------------------------------------------------
def proof_size_bytes(proof: BGProof, group: Group) -> int:
    """The bytes of the proof's values (its text form is base64 of them, 4/3 as many)."""
    elements = sum(len(getattr(proof, name)) for name in ELEMENT_FIELDS) + 2 * len(
        proof.multi_exp_ciphertexts
    )
    scalars = sum(len(getattr(proof, name)) for name in SCALAR_FIELDS)
    return elements * group.element_size + scalars * group.scalar_size


def proof_fields(proof: BGProof, group: Group) -> dict[str, str | list[str]]:
    """The proof as text fields of a ledger entry, one per field of :class:`BGProof`."""
    fields: dict[str, str | list[str]] = {}
    for name in ELEMENT_FIELDS:
        fields[name] = group.elements_text(getattr(proof, name))
    fields["multi_exp_ciphertexts"] = group.elements_text(_flat(proof.multi_exp_ciphertexts))
    for name in SCALAR_FIELDS:
        fields[name] = group.scalars_text(getattr(proof, name))
    return fields


def parse_proof(fields: Mapping[str, object], what: str, group: Group, *, lazily: bool = False) -> BGProof:
    """The proof in ``fields``, its fields' sizes checked against each other (the check then
    checks them against the deck). ``lazily``: each element gets the cheap checks only
    (``Group.decode_lazily``): the check raises every one of them to a power, which refuses one
    outside the group (whoever reads it lazily names it again in full, as ``decks`` does)."""

    def field(name: str) -> object:
        value = fields.get(name)
        if value is None:
            raise GameFileError(f"{what}: {name} is missing")
        return value

    parsed: dict[str, tuple[Any, ...]] = {}
    for name in ELEMENT_FIELDS:
        parsed[name] = tuple(group.parse_elements(field(name), f"{what} {name}", lazily=lazily))
    halves = group.parse_elements(
        field("multi_exp_ciphertexts"), f"{what} multi_exp_ciphertexts", lazily=lazily
    )
    if len(halves) % 2:
        raise GameFileError(f"{what}: multi_exp_ciphertexts holds an odd number of values")
    parsed["multi_exp_ciphertexts"] = tuple(
        Ciphertext(halves[k], halves[k + 1]) for k in range(0, len(halves), 2)
    )
    for name in SCALAR_FIELDS:
        parsed[name] = tuple(group.parse_scalars(field(name), f"{what} {name}"))
    m, n = len(parsed["commitments_a"]), len(parsed["multi_exp_responses"]) - 4
    if m < 1 or n < 2:
        raise GameFileError(f"{what}: commitments_a or multi_exp_responses is too short")
    for name, expected in _lengths(m, n).items():
        if len(parsed[name]) != expected:
            raise GameFileError(
                f"{what}: {name} holds {len(parsed[name])} values, not the {expected} of a {m} x {n} layout"
            )
    return BGProof(**parsed)
