"""The Bayer-Groth proof of shuffle: honest shuffles verify, anything else is refused.

Everything is in edwards25519, where a deck of 30 cards is laid out 3 x 10 and so carries every
part of the proof (the Hadamard argument needs three rows to have a partial product of its own).
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

import pytest

from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.curve import EDWARDS25519 as GROUP
from pbem.crypto.curve import FIELD_PRIME
from pbem.crypto.groups import Element
from pbem.crypto.hidden_deck import Ciphertext
from pbem.errors import GameFileError

GAME = "0123456789abcdef0123456789abcdef"
OTHER_GAME = "f" * 32
DECK = "treachery"
SEATS = ("a", "b", "c")
FULL = 30  # 3 x 10: every field of the proof holds values
ORDER_2 = (FIELD_PRIME - 1).to_bytes(32, "little")  # on the curve, of order 2


def seed(label: str) -> bytes:
    return random.Random(label).randbytes(32)


@cache
def joint_key(label: str = "") -> Element:
    secrets = [hd.derive_secret(seed(f"key {s}{label}"), GAME, s, group=GROUP) for s in SEATS]
    return hd.joint_key([hd.public_key(x, group=GROUP) for x in secrets], group=GROUP)


@dataclass(frozen=True)
class Shuffled:
    before: list[Ciphertext]
    after: list[Ciphertext]
    secret: sh.ShuffleSecret
    proof: bg.BGProof


def shuffled_deck(cards: int) -> list[Ciphertext]:
    """A deck seat b has shuffled already, so no two cards share their c1 (as in an open deck)."""
    opened = hd.open_deck(cards, joint_key(), group=GROUP)
    deck, _ = sh.shuffle(opened, joint_key(), seed("b"), game_id=GAME, deck_id=DECK, seat="b", group=GROUP)
    return deck


def prove(before: Sequence[Ciphertext], after: Sequence[Ciphertext], secret: sh.ShuffleSecret) -> bg.BGProof:
    return bg.prove_shuffle_bg(
        sh.ShuffleStatement(before, after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP),
        secret,
    )


def check(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    proof: bg.BGProof,
    *,
    game_id: str = GAME,
    deck_id: str = DECK,
    seat: str = "a",
    joint: Element | None = None,
) -> None:
    bg.check_shuffle_bg(
        sh.ShuffleStatement(
            before,
            after,
            joint_key() if joint is None else joint,
            game_id=game_id,
            deck_id=deck_id,
            seat=seat,
            group=GROUP,
        ),
        proof,
    )


@cache
def shuffled(cards: int) -> Shuffled:
    before = shuffled_deck(cards)
    after, secret = sh.shuffle(
        before, joint_key(), seed("a"), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
    )
    return Shuffled(before, after, secret, prove(before, after, secret))


# --- honest proofs --------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", [1, 2, 6, 14, 20, 21, 25, 100])
def test_an_honest_shuffle_verifies_and_its_proof_has_the_size_its_layout_says(cards: int) -> None:
    deal = shuffled(cards)
    check(deal.before, deal.after, deal.proof)
    m, n = bg.dimensions(cards)
    elements, scalars = bg.proof_values(m, n)
    assert bg.proof_size_bytes(deal.proof, GROUP) == 32 * (elements + scalars)


def test_a_proof_is_the_same_every_time() -> None:
    deal = shuffled(FULL)
    assert prove(deal.before, deal.after, deal.secret) == deal.proof


@pytest.mark.parametrize(("layout", "cards"), [((2, 3), 6), ((2, 4), 7), ((3, 3), 7), ((4, 4), 13)])
def test_every_layout_verifies_with_or_without_padding(
    layout: tuple[int, int], cards: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Layouts the size rule does not pick for these decks (two rows: a Hadamard argument with no
    partial product of its own; rows of padding cards) are proven and checked all the same."""
    monkeypatch.setattr(bg, "dimensions", lambda size: layout)
    before = shuffled_deck(cards)
    after, secret = sh.shuffle(
        before, joint_key(), seed("a"), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
    )
    proof = prove(before, after, secret)
    assert len(proof.commitments_a) == layout[0] and len(proof.multi_exp_responses) == layout[1] + 4
    check(before, after, proof)
    swapped = [after[1], after[0], *after[2:]]
    with pytest.raises(GameFileError, match="does not verify"):
        check(before, swapped, proof)


def test_the_layout_fits_the_deck_and_the_proof_outgrows_the_linear_one_slowly() -> None:
    for cards in range(1, 201):
        m, n = bg.dimensions(cards)
        assert 1 <= m <= n and n >= 2 and m * n >= cards and m * n - cards < n
        size = 32 * sum(bg.proof_values(m, n))
        linear = 32 * (4 * cards + 5)  # shuffle_proof's commitments, chain and responses
        if cards >= 25:
            assert size < linear
    assert bg.dimensions(100) == (6, 17)
    assert 32 * sum(bg.proof_values(*bg.dimensions(100))) < 5200  # the linear proof: 12960


# --- dishonest shuffles and misplaced proofs ----------------------------------------------------
def test_a_proof_does_not_verify_for_another_after() -> None:
    deal = shuffled(FULL)
    swapped = [deal.after[1], deal.after[0], *deal.after[2:]]
    with pytest.raises(GameFileError, match="shuffle of treachery by seat a: the proof of shuffle does not"):
        check(deal.before, swapped, deal.proof)


def test_a_card_replaced_by_an_encryption_of_another_card_is_refused() -> None:
    deal = shuffled(FULL)
    other = Ciphertext(
        GROUP.base_power(99), GROUP.multiply(hd.encode_card(0, group=GROUP), GROUP.power(joint_key(), 99))
    )
    after = [*deal.after[:3], other, *deal.after[4:]]
    with pytest.raises(GameFileError, match="does not verify"):
        check(deal.before, after, deal.proof)
    # Nor can one be made for it with the shuffler's own secret.
    with pytest.raises(GameFileError, match="does not verify"):
        check(deal.before, after, prove(deal.before, after, deal.secret))


@pytest.mark.parametrize(
    ("game_id", "deck_id", "seat"), [(OTHER_GAME, DECK, "a"), (GAME, "discard", "a"), (GAME, DECK, "b")]
)
def test_a_proof_is_bound_to_its_game_deck_and_seat(game_id: str, deck_id: str, seat: str) -> None:
    deal = shuffled(FULL)
    with pytest.raises(GameFileError, match=f"shuffle of {deck_id} by seat {seat}: .* does not verify"):
        check(deal.before, deal.after, deal.proof, game_id=game_id, deck_id=deck_id, seat=seat)


def test_a_proof_is_bound_to_its_joint_key() -> None:
    deal = shuffled(FULL)
    with pytest.raises(GameFileError, match="does not verify"):
        check(deal.before, deal.after, deal.proof, joint=joint_key("other"))


def altered(proof: bg.BGProof, field: str, position: int) -> bg.BGProof:
    values = list(getattr(proof, field))
    value = values[position]
    if isinstance(value, Ciphertext):
        half = position % 2  # the first half of one ciphertext, the second of another
        c1, c2 = value.c1, value.c2
        nudged = GROUP.multiply(c2 if half else c1, GROUP.generator)
        values[position] = Ciphertext(c1, nudged) if half else Ciphertext(nudged, c2)
    elif isinstance(value, int):
        values[position] = (value + 1) % GROUP.order
    else:
        values[position] = GROUP.multiply(value, GROUP.generator)
    return replace(proof, **{field: tuple(values)})


@pytest.mark.parametrize("position", [0, -1])
@pytest.mark.parametrize("field", bg.FIELDS)
def test_a_proof_with_any_one_value_altered_does_not_verify(field: str, position: int) -> None:
    deal = shuffled(FULL)
    assert getattr(deal.proof, field), "every field holds values in a 3 x 10 layout"
    with pytest.raises(GameFileError, match="the proof of shuffle does not verify"):
        check(deal.before, deal.after, altered(deal.proof, field, position))


def test_a_mapping_that_is_not_a_permutation_gives_a_proof_that_does_not_verify() -> None:
    """Every output an honest re-masking of an input, but one input used twice and another
    dropped, proven with the shuffler's own values: the prover goes through, the check refuses."""
    before = shuffled_deck(FULL)
    masks = tuple(range(101, 101 + FULL))
    for mapping in [(0, 0, *range(2, FULL)), (1, 0, *range(2, FULL))]:
        after = [
            sh.remask(before[source], joint_key(), mask, group=GROUP)
            for source, mask in zip(mapping, masks, strict=True)
        ]
        proof = prove(before, after, sh.ShuffleSecret(mapping, masks))
        if mapping[0] == mapping[1]:
            with pytest.raises(GameFileError, match="the proof of shuffle does not verify"):
                check(before, after, proof)
        else:  # the same values with a true permutation verify: the refusal is the duplicate's
            check(before, after, proof)


# --- forged proofs: a cheat that gets past one argument is caught by the next -----------------
class RowForger(bg._Prover):
    """Commits, as the product of the columns' rows, values whose product is the public one, and
    runs the Hadamard argument on them as if they were (``mode`` "rows": with the last partial
    product replaced; "columns": with the last column changed to give them, against its
    commitment) or runs the single value product argument alone on them ("svp": the Hadamard
    argument on the true rows)."""

    product_value = 0
    mode = "rows"

    def product(self, columns: list[list[int]], randomness: list[int]) -> None:
        Q, n = self.order, self.n
        true_rows = [1] * n
        for column in columns:
            true_rows = [value * entry % Q for value, entry in zip(true_rows, column, strict=True)]
        found = 1
        for value in true_rows:
            found = found * value % Q
        forged = [true_rows[0] * self.product_value * pow(found, -1, Q) % Q, *true_rows[1:]]
        s_rows = self.nonce("product-s")
        if self.mode == "svp":
            self.send("product_commitment", (self.commit(true_rows, s_rows),))
            super().hadamard(columns, randomness, s_rows)
        else:
            self.send("product_commitment", (self.commit(forged, s_rows),))
            if self.mode == "columns":  # the last column changed so the columns multiply to forged
                ratio = forged[0] * pow(true_rows[0], -1, Q) % Q
                last = [columns[-1][0] * ratio % Q, *columns[-1][1:]]
                super().hadamard([*columns[:-1], last], randomness, s_rows)
            else:
                self.rows = forged
                self.hadamard(columns, randomness, s_rows)
        self.single_value_product(forged, s_rows)

    def hadamard(self, columns: list[list[int]], r: list[int], s: int) -> None:
        Q, m, n = self.order, self.m, self.n
        partial = [columns[0]]
        for column in columns[1:]:
            partial.append([value * entry % Q for value, entry in zip(partial[-1], column, strict=True)])
        partial[-1] = self.rows  # the forgery: the last partial product is the forged rows
        s_partial = [r[0], *self.nonces("hadamard-s", m - 2), s]
        self.send(
            "hadamard_commitments", tuple(self.commit(partial[j], s_partial[j]) for j in range(1, m - 1))
        )
        x = self.transcript.challenge("hadamard-x")
        y = self.transcript.challenge("hadamard-y")
        xp = bg._powers(x, m + 1, Q)
        b_side = [[xp[i + 1] * value % Q for value in partial[i]] for i in range(m - 1)]
        b_side.append(bg._combine(partial[1:], xp[1:m], Q))
        s_side = [xp[i + 1] * s_partial[i] % Q for i in range(m - 1)]
        s_side.append(sum(xp[j] * s_partial[j] for j in range(1, m)) % Q)
        self.zero([*columns[1:], [Q - 1] * n], [*r[1:], 0], b_side, s_side, y)


def forge(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    masks: Sequence[int],
    *,
    committed: Callable[[list[int]], list[int]],
    used: Callable[[list[int]], list[int]] | None = None,
    prover_type: type[bg._Prover] = bg._Prover,
    mode: str = "rows",
) -> bg.BGProof:
    """prove_shuffle_bg's steps for the identity mapping, with ``committed(x powers)`` as the
    vector b committed in c_B and ``used(x powers)`` (the same by default) as the one the
    multi-exponentiation argument is run on."""
    Q, size = GROUP.order, len(before)
    m, n = bg.dimensions(size)
    total = m * n
    statement = sh.statement(
        bg.STATEMENT_DOMAIN, GROUP, before, after, joint_key(), game_id=GAME, deck_id=DECK, seat="a"
    )
    prover = prover_type(GROUP, statement, b"forger", m=m, n=n, joint=joint_key())
    a_columns = bg._chunks(list(range(total)), m, n)
    r = prover.nonces("shuffle-r", m)
    prover.send("commitments_a", tuple(prover.commit(a_columns[i], r[i]) for i in range(m)))
    x_powers = bg._powers(prover.transcript.challenge("x"), total, Q)
    b_columns = bg._chunks(committed(x_powers), m, n)
    s = prover.nonces("shuffle-s", m)
    prover.send("commitments_b", tuple(prover.commit(b_columns[i], s[i]) for i in range(m)))
    y, z = prover.transcript.challenge("y"), prover.transcript.challenge("z")
    if isinstance(prover, RowForger):
        prover.mode = mode
        prover.product_value = 1
        for k in range(total):
            prover.product_value = prover.product_value * (y * k + x_powers[k] - z) % Q
    d_columns = [
        [(y * ai + bi - z) % Q for ai, bi in zip(a_columns[i], b_columns[i], strict=True)] for i in range(m)
    ]
    prover.product(d_columns, [(y * r[i] + s[i]) % Q for i in range(m)])
    b_used = (used or committed)(x_powers)
    padded_masks = [*masks, *[0] * (total - size)]
    rho = -sum(mask * bi for mask, bi in zip(padded_masks, b_used, strict=True)) % Q
    padded = bg._padded(after, total, GROUP)
    prover.multi_exponentiation(
        [padded[i * n : (i + 1) * n] for i in range(m)], bg._chunks(b_used, m, n), s, rho
    )
    return bg.BGProof(**{name: prover.parts.get(name, ()) for name in bg.FIELDS})


def squared_first_card() -> tuple[list[Ciphertext], list[Ciphertext], list[int]]:
    """A deck whose first card is replaced by the square of its encryption (card 0 times card 0,
    not a card), the rest re-masked in place, and the masks used."""
    before = shuffled_deck(FULL)
    masks = list(range(201, 201 + FULL))
    squared = Ciphertext(GROUP.power(before[0].c1, 2), GROUP.power(before[0].c2, 2))
    after = [
        sh.remask(c, joint_key(), mask, group=GROUP)
        for c, mask in zip([squared, *before[1:]], masks, strict=True)
    ]
    return before, after, masks


def halved_first(x_powers: list[int]) -> list[int]:
    """x^k, but half for the first card: what makes prod after^b equal prod before^(x^k) when
    the first card of ``after`` is the square of the first of ``before``."""
    return [pow(2, -1, GROUP.order), *x_powers[1:]]


def test_a_forgery_with_b_not_a_permutation_of_powers_is_caught_by_the_product_argument() -> None:
    before, after, masks = squared_first_card()
    proof = forge(before, after, masks, committed=halved_first)
    with pytest.raises(GameFileError, match=r"does not verify \(single value product argument"):
        check(before, after, proof)


@pytest.mark.parametrize(
    ("mode", "caught_by"),
    [
        ("rows", "zero argument, D"),  # the Hadamard relation itself fails
        ("columns", "zero argument, A"),  # it holds, for columns other than the committed ones
        ("svp", "single value product argument, a"),  # the product, of other rows than committed
    ],
)
def test_a_forgery_of_the_rows_product_is_caught_by_the_argument_it_must_fool(
    mode: str, caught_by: str
) -> None:
    before, after, masks = squared_first_card()
    proof = forge(before, after, masks, committed=halved_first, prover_type=RowForger, mode=mode)
    with pytest.raises(GameFileError, match=rf"does not verify \({caught_by}\)"):
        check(before, after, proof)


class ShiftingForger(bg._Prover):
    """Puts ``g^-delta`` in the middle diagonal, where the checker puts C itself: what would make
    up for a card whose plaintext was multiplied by ``g^delta`` if ``c_B_m`` were not fixed to 1."""

    def diagonal_blinding(self, rho: int) -> tuple[list[int], list[int], list[int]]:
        b, s, tau = super().diagonal_blinding(rho)
        b[self.m] = -DELTA % GROUP.order
        return b, s, tau


DELTA = 5


def test_a_card_with_a_shifted_plaintext_is_caught_by_the_multi_exponentiation_argument() -> None:
    before = shuffled_deck(FULL)
    masks = list(range(201, 201 + FULL))
    after = [sh.remask(c, joint_key(), mask, group=GROUP) for c, mask in zip(before, masks, strict=True)]
    after[0] = Ciphertext(after[0].c1, GROUP.multiply(after[0].c2, GROUP.base_power(DELTA)))
    proof = forge(before, after, masks, committed=lambda powers: powers, prover_type=ShiftingForger)
    with pytest.raises(GameFileError, match=r"does not verify \(multi-exponentiation argument, B\)"):
        check(before, after, proof)


def test_a_forgery_that_exponentiates_by_other_values_than_committed_is_caught() -> None:
    """b committed honestly (x^k, a permutation's powers: the product argument holds), the decks
    exponentiated by other values: the multi-exponentiation argument's opening check catches it."""
    before, after, masks = squared_first_card()
    proof = forge(before, after, masks, committed=lambda powers: powers, used=halved_first)
    with pytest.raises(GameFileError, match=r"does not verify \(multi-exponentiation argument, A\)"):
        check(before, after, proof)


def test_the_forger_makes_proofs_that_verify_when_it_does_not_cheat() -> None:
    """So the refusals above are the cheats' doing, not the forger's."""
    before = shuffled_deck(FULL)
    masks = list(range(201, 201 + FULL))
    after = [sh.remask(c, joint_key(), mask, group=GROUP) for c, mask in zip(before, masks, strict=True)]
    check(before, after, forge(before, after, masks, committed=lambda powers: powers))


@pytest.mark.parametrize("field", bg.FIELDS)
def test_a_truncated_list_is_refused_with_a_clear_error(field: str) -> None:
    deal = shuffled(FULL)
    short = replace(deal.proof, **{field: getattr(deal.proof, field)[:-1]})
    with pytest.raises(GameFileError, match=f"the proof is for a deck of another size \\({field} holds"):
        check(deal.before, deal.after, short)
    fields = bg.proof_fields(short, GROUP)
    # the layout is read from commitments_a and multi_exp_responses: the field that disagrees
    # with it is named
    with pytest.raises(
        GameFileError, match=r"proof: \w+ holds \d+ values, not the \d+ of a \d+ x \d+ layout"
    ):
        bg.parse_proof(fields, "proof", GROUP)


def test_a_proof_for_another_deck_size_or_a_short_deck_is_refused() -> None:
    deal = shuffled(FULL)
    with pytest.raises(GameFileError, match="29 cards came out of 30"):
        check(deal.before, deal.after[:-1], deal.proof)
    smaller = shuffled(25)
    with pytest.raises(GameFileError, match="another size"):
        check(smaller.before, smaller.after, deal.proof)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("commitments_a", ORDER_2, "not a group element|not a group element"),
        ("zero_commitments", b"\xff" * 32, "not a group element"),
        ("svp_commitments", b"\x05" * 31, "not a group element"),
        ("svp_responses", GROUP.order, "not a scalar"),
        ("multi_exp_responses", -1, "not a scalar"),
    ],
)
def test_hostile_values_are_refused_with_a_game_file_error(field: str, value: object, message: str) -> None:
    deal = shuffled(FULL)
    values = list(getattr(deal.proof, field))
    values[0] = value
    with pytest.raises(GameFileError, match=message):
        check(deal.before, deal.after, replace(deal.proof, **{field: tuple(values)}))


def test_a_point_outside_the_group_in_a_ciphertext_of_the_proof_is_refused() -> None:
    deal = shuffled(FULL)
    first = deal.proof.multi_exp_ciphertexts[0]
    hostile = (Ciphertext(first.c1, ORDER_2), *deal.proof.multi_exp_ciphertexts[1:])
    with pytest.raises(GameFileError):
        check(deal.before, deal.after, replace(deal.proof, multi_exp_ciphertexts=hostile))


@pytest.mark.parametrize("field", bg.FIELDS)
def test_any_byte_of_the_text_form_changed_gives_a_game_file_error_and_nothing_else(field: str) -> None:
    """Bytes flipped anywhere in a field (a point that is no point, a scalar above the order, a
    value that is merely different): parsing or checking refuses it, with a GameFileError."""
    deal = shuffled(FULL)
    fields = bg.proof_fields(deal.proof, GROUP)
    text = fields[field]
    assert isinstance(text, str)
    data = base64.b64decode(text)
    rng = random.Random(field)
    for _ in range(4):
        at = rng.randrange(len(data))
        changed = bytearray(data)
        changed[at] ^= 1 << rng.randrange(8)
        with pytest.raises(GameFileError):
            proof = bg.parse_proof(
                {**fields, field: base64.b64encode(bytes(changed)).decode()}, "proof", GROUP
            )
            check(deal.before, deal.after, proof)


# --- text form ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", [6, FULL])
def test_the_text_form_round_trips_and_verifies(cards: int) -> None:
    deal = shuffled(cards)
    fields = json.loads(json.dumps(bg.proof_fields(deal.proof, GROUP)))
    assert all(isinstance(text, str) for text in fields.values())  # one packed text per list
    parsed = bg.parse_proof(fields, "proof", GROUP)
    assert parsed == deal.proof
    check(deal.before, deal.after, parsed)


def test_parsing_refuses_missing_and_malformed_fields() -> None:
    fields = bg.proof_fields(shuffled(FULL).proof, GROUP)
    with pytest.raises(GameFileError, match="proof: svp_responses is missing"):
        bg.parse_proof({k: v for k, v in fields.items() if k != "svp_responses"}, "proof", GROUP)
    with pytest.raises(GameFileError, match="proof multi_exp_ciphertexts"):
        bg.parse_proof({**fields, "multi_exp_ciphertexts": "not base64!"}, "proof", GROUP)
    odd = GROUP.elements_text([GROUP.generator] * 9)
    with pytest.raises(GameFileError, match="odd number"):
        bg.parse_proof({**fields, "multi_exp_ciphertexts": odd}, "proof", GROUP)


def test_the_proof_is_smaller_and_cheaper_to_check_than_the_linear_one_for_100_cards() -> None:
    """Sizes only (timing belongs to benchmarks/bench_shuffle_bg.py)."""
    deal = shuffled(100)
    linear = sp.proof_fields(
        sp.prove_shuffle(
            sh.ShuffleStatement(
                deal.before, deal.after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
            ),
            deal.secret,
        ),
        group=GROUP,
    )
    linear_size = len(json.dumps(linear))
    assert len(json.dumps(bg.proof_fields(deal.proof, GROUP))) * 2 < linear_size


# --- a deck's shuffles checked together ---------------------------------------------------------
@cache
def chain() -> tuple[bg.Shuffle, ...]:
    """Seats a, b and c shuffle an open deck in turn: each shuffle's output is the next one's input."""
    deck = hd.open_deck(FULL, joint_key(), group=GROUP)
    found = []
    for seat in SEATS:
        after, secret = sh.shuffle(
            deck, joint_key(), seed(f"chain {seat}"), game_id=GAME, deck_id=DECK, seat=seat, group=GROUP
        )
        statement = sh.ShuffleStatement(
            tuple(deck), tuple(after), joint_key(), game_id=GAME, deck_id=DECK, seat=seat, group=GROUP
        )
        found.append(bg.Shuffle(statement, bg.prove_shuffle_bg(statement, secret)))
        deck = after
    return tuple(found)


def powers_taken(monkeypatch: pytest.MonkeyPatch, work: Callable[[], object]) -> int:
    """How many points ``work`` raises to a power (each a scalar multiplication)."""
    taken = [0]
    real = GROUP.power

    def power(base: Element, exponent: int) -> Element:
        taken[0] += 1
        return real(base, exponent)

    with monkeypatch.context() as patched:
        patched.setattr(GROUP, "power", power)
        work()
    return taken[0]


def check_alone(shuffle: bg.Shuffle) -> None:
    bg.check_shuffle_bg(shuffle.statement, shuffle.proof)


def check_each(shuffles: Sequence[bg.Shuffle]) -> None:
    for shuffle in shuffles:
        check_alone(shuffle)


def test_a_decks_honest_shuffles_hold_together_and_each_deck_between_is_raised_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shuffles = chain()
    assert bg.shuffles_hold(shuffles)
    assert bg.shuffles_hold(shuffles[1:]) and bg.shuffles_hold(shuffles[:1]) and bg.shuffles_hold(())
    alone = powers_taken(monkeypatch, lambda: check_each(shuffles))
    together = powers_taken(monkeypatch, lambda: bg.shuffles_hold(shuffles))
    # the two decks between the three shuffles: both halves of every card, once instead of twice
    assert together <= alone - 2 * 2 * FULL
    assert bg.shuffles_hold(shuffles, threads=3)  # its powers shared among threads


@pytest.mark.parametrize("index", [0, 1, 2])
@pytest.mark.parametrize(
    "field", ["commitments_a", "zero_responses", "svp_commitments", "multi_exp_ciphertexts"]
)
def test_one_altered_proof_keeps_the_shuffles_from_holding_together(index: int, field: str) -> None:
    shuffles = list(chain())
    shuffles[index] = replace(shuffles[index], proof=altered(shuffles[index].proof, field, 0))
    assert not bg.shuffles_hold(shuffles)


def test_proofs_swapped_between_shuffles_do_not_hold_together() -> None:
    first, second, third = chain()
    assert not bg.shuffles_hold(
        [replace(first, proof=second.proof), replace(second, proof=first.proof), third]
    )


def test_a_card_between_two_shuffles_altered_in_both_does_not_hold_together() -> None:
    """The deck between two shuffles is read once for both: changing it there, the same for both,
    must still break them."""
    first, second, third = chain()
    card = first.statement.after[0]
    other = Ciphertext(card.c1, GROUP.multiply(card.c2, GROUP.generator))
    changed = (other, *first.statement.after[1:])
    assert not bg.shuffles_hold(
        [
            replace(first, statement=replace(first.statement, after=changed)),
            replace(second, statement=replace(second.statement, before=changed)),
            third,
        ]
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_a_point_outside_the_group_makes_the_batch_fail_without_raising(threads: int) -> None:
    first, second, third = chain()
    changed = (Ciphertext(ORDER_2, first.statement.after[0].c2), *first.statement.after[1:])
    batch = [
        replace(first, statement=replace(first.statement, after=changed)),
        replace(second, statement=replace(second.statement, before=changed)),
        third,
    ]
    assert not bg.shuffles_hold(batch, threads=threads)
