"""The independent verifier's Bayer-Groth check agrees with pbem's prover: it accepts every honest
proof pbem makes (one row, several rows, with and without padding), and refuses a proof of
another shuffle, another statement or with any one value altered, by returning False or raising
``Bad``, never anything else. A shuffle table in the curve group carries either proof, with
exactly its fields; the 2048-bit group's only the Terelius-Wikstrom proof."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.curve import EDWARDS25519 as GROUP
from pbem.crypto.groups import Element
from pbem.crypto.hidden_deck import Ciphertext
from pbem.errors import GameFileError
from tests import independent_verifier as iv
from tests import test_shuffle_bg as forgers
from tests.test_shuffle_bg import joint_key, seed

GAME = "0123456789abcdef0123456789abcdef"
DECK = "treachery"
SEATS = ("a", "b", "c")
SIZES = (1, 2, 6, 14, 21, 25, 100)  # one row up to 23 cards; 25 is 3 x 9, 100 is 6 x 17
CURVE = iv.GROUPS["edwards25519"]


@dataclass(frozen=True)
class Deal:
    before: list[iv.Ciphertext]
    after: list[iv.Ciphertext]
    fields: dict[str, Any]  # the proof's text form
    packed_after: str  # the after deck as a shuffle table writes it
    secret: sh.ShuffleSecret
    pbem_before: list[Ciphertext]
    pbem_after: list[Ciphertext]


def theirs(deck: list[Ciphertext]) -> list[iv.Ciphertext]:
    return [iv.Ciphertext(c.c1, c.c2) for c in deck]


def dealt(cards: int) -> Deal:
    """Seat a's shuffle of a deck seat b shuffled already, with pbem's proof of it."""
    opened = hd.open_deck(cards, joint_key(), group=GROUP)
    before, _ = sh.shuffle(opened, joint_key(), seed("b"), game_id=GAME, deck_id=DECK, seat="b", group=GROUP)
    after, secret = sh.shuffle(
        before, joint_key(), seed("a"), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
    )
    proof = bg.prove_shuffle_bg(
        sh.ShuffleStatement(before, after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP),
        secret,
    )
    packed = GROUP.elements_text([value for c in after for value in (c.c1, c.c2)])
    assert isinstance(packed, str)
    return Deal(theirs(before), theirs(after), bg.proof_fields(proof, GROUP), packed, secret, before, after)


@cache
def deal(cards: int) -> Deal:
    return dealt(cards)


def holds(
    d: Deal,
    *,
    after: list[iv.Ciphertext] | None = None,
    fields: dict[str, Any] | None = None,
    game_id: str = GAME,
    deck: str = DECK,
    seat: str = "a",
    joint: Element | None = None,
) -> bool:
    return iv.bg_shuffle_holds(
        CURVE,
        d.before,
        d.after if after is None else after,
        joint_key() if joint is None else joint,
        d.fields if fields is None else fields,
        game_id,
        deck,
        seat,
    )


def refused(d: Deal, fields: dict[str, Any]) -> bool:
    """The check says no to the proof ``fields``, by False or by Bad; any other exception fails
    the test."""
    try:
        return not holds(d, fields=fields)
    except iv.Bad:
        return True


# --- honest proofs --------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", SIZES)
def test_every_honest_proof_verifies(cards: int) -> None:
    assert holds(deal(cards))


def test_the_layout_rule_is_pbems() -> None:
    for cards in range(1, 301):
        assert iv.bg_layout(cards) == bg.dimensions(cards), cards
    assert iv.bg_layout(23) == (1, 23) and iv.bg_layout(24) == (3, 8)


@pytest.mark.parametrize(("layout", "cards"), [((2, 3), 6), ((2, 4), 7), ((3, 3), 7), ((4, 4), 13)])
def test_layouts_the_rule_does_not_pick_verify_too(
    layout: tuple[int, int], cards: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rows (a Hadamard argument with no partial product of its own) and rows with padding
    cards, in both the prover and the verifier."""
    monkeypatch.setattr(bg, "dimensions", lambda size: layout)
    monkeypatch.setattr(iv, "bg_layout", lambda size: layout)
    d = dealt(cards)
    assert len(iv.pieces(CURVE, d.fields["commitments_a"], 32, "")) == layout[0]
    assert holds(d)
    assert not holds(d, after=[d.after[1], d.after[0], *d.after[2:]])


# --- refused proofs -------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", [size for size in SIZES if size > 1])
def test_two_swapped_output_cards_are_refused(cards: int) -> None:
    d = deal(cards)
    last = len(d.after) - 1
    assert not holds(d, after=[d.after[last], *d.after[1:last], d.after[0]])


@pytest.mark.parametrize("cards", SIZES)
@pytest.mark.parametrize(
    "other",
    [
        {"game_id": "f" * 32},
        {"deck": "other-deck"},
        {"seat": "b"},
        {"joint": "other"},
    ],
    ids=["game id", "deck", "seat", "joint key"],
)
def test_the_proof_of_another_statement_is_refused(cards: int, other: dict[str, str]) -> None:
    changed: dict[str, Any] = dict(other)
    if "joint" in changed:
        changed["joint"] = joint_key("other")
    assert not holds(deal(cards), **changed)


def test_a_card_re_encrypted_under_another_mask_is_refused() -> None:
    d = deal(14)
    remasked = Ciphertext(
        GROUP.multiply(d.pbem_after[3].c1, GROUP.base_power(5)),
        GROUP.multiply(d.pbem_after[3].c2, GROUP.power(joint_key(), 5)),
    )
    assert not holds(d, after=[*d.after[:3], *theirs([remasked]), *d.after[4:]])


def altered(fields: dict[str, Any], name: str, index: int) -> dict[str, Any]:
    """``fields`` with one byte of the ``index``-th value of ``name`` flipped (a byte further in
    for each value)."""
    data = bytearray(base64.b64decode(fields[name]))
    data[32 * index + 7 * index % 32] ^= 0x01 << (index % 8)
    return {**fields, name: base64.b64encode(bytes(data)).decode("ascii")}


def moved(fields: dict[str, Any], name: str, index: int) -> dict[str, Any]:
    """``fields`` with the ``index``-th value of ``name`` replaced by another of its kind: a point
    times g, a scalar plus one."""
    data = base64.b64decode(fields[name])
    value = data[32 * index : 32 * index + 32]
    if name in bg.SCALAR_FIELDS:
        other = ((int.from_bytes(value, "little") + 1) % GROUP.order).to_bytes(32, "little")
    else:
        point = GROUP.multiply(value, GROUP.generator)
        assert isinstance(point, bytes)
        other = point
    changed = data[: 32 * index] + other + data[32 * index + 32 :]
    return {**fields, name: base64.b64encode(changed).decode("ascii")}


def values_in(fields: dict[str, Any], name: str, cards: int) -> int:
    count = len(base64.b64decode(fields[name])) // 32
    if not count:
        pytest.skip(f"{name} is empty in a {cards}-card deck's proof")
    return count


# every value of every field, one at a time: a one-card, a one-row and a three-row proof (the
# honest proofs of every size are checked above)
ALTERED_SIZES = (1, 6, 25)


@pytest.mark.parametrize("cards", ALTERED_SIZES)
@pytest.mark.parametrize("name", bg.FIELDS)
def test_any_value_replaced_in_any_field_is_refused_by_the_equations(cards: int, name: str) -> None:
    """Each value of the field in turn replaced by another valid one, so only the arguments'
    equations can tell."""
    d = deal(cards)
    for index in range(values_in(d.fields, name, cards)):
        assert not holds(d, fields=moved(d.fields, name, index)), index


@pytest.mark.parametrize("cards", ALTERED_SIZES)
@pytest.mark.parametrize("name", bg.FIELDS)
def test_any_value_with_a_flipped_byte_in_any_field_is_refused(cards: int, name: str) -> None:
    """A point that is no longer one, a scalar beyond the order (Bad), or just another value
    (False)."""
    d = deal(cards)
    for index in range(values_in(d.fields, name, cards)):
        assert refused(d, altered(d.fields, name, index)), index


@pytest.mark.parametrize("name", bg.FIELDS)
def test_a_flipped_character_of_the_text_is_refused(name: str) -> None:
    d = deal(25)
    value = d.fields[name]
    flipped = value[:5] + ("A" if value[5] != "A" else "B") + value[6:]
    assert refused(d, {**d.fields, name: flipped})


# --- forged proofs: pbem's forgers, each fooling all but one argument ----------------------------
Forgery = tuple[list[Ciphertext], list[Ciphertext], bg.BGProof]


def forged_square(**how: Any) -> Forgery:
    """The first card replaced by its square (not a card), the rest re-masked in place."""
    before, after, masks = forgers.squared_first_card()
    return before, after, forgers.forge(before, after, masks, **how)


class CommittedRowsForger(forgers.RowForger):
    """Commits rows whose product is the public value, then runs the Hadamard argument on the
    columns' true rows against that commitment: only the zero argument's opening of its b side
    (B) can tell."""

    def product(self, columns: list[list[int]], randomness: list[int]) -> None:
        Q = self.order
        rows = [1] * self.n
        for column in columns:
            rows = [value * entry % Q for value, entry in zip(rows, column, strict=True)]
        found = 1
        for value in rows:
            found = found * value % Q
        forged = [rows[0] * self.product_value * pow(found, -1, Q) % Q, *rows[1:]]
        s_rows = self.nonce("product-s")
        self.send("product_commitment", (self.commit(forged, s_rows),))
        bg._Prover.hadamard(self, columns, randomness, s_rows)
        self.single_value_product(forged, s_rows)


def forged_half(half: int) -> Forgery:
    """An honest proof, with the shuffler's own secret, of a deck whose first card has one half
    multiplied by g: only the multi-exponentiation argument's equation for that half can tell."""
    d = deal(forgers.FULL)
    first = d.pbem_after[0]
    moved = GROUP.multiply(first.c2 if half else first.c1, GROUP.generator)
    after = [Ciphertext(first.c1, moved) if half else Ciphertext(moved, first.c2), *d.pbem_after[1:]]
    proof = bg.prove_shuffle_bg(
        sh.ShuffleStatement(
            d.pbem_before, after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
        ),
        d.secret,
    )
    return d.pbem_before, after, proof


def forged_shift() -> Forgery:
    before = forgers.shuffled_deck(forgers.FULL)
    masks = list(range(201, 201 + forgers.FULL))
    after = [sh.remask(c, joint_key(), mask, group=GROUP) for c, mask in zip(before, masks, strict=True)]
    after[0] = Ciphertext(after[0].c1, GROUP.multiply(after[0].c2, GROUP.base_power(forgers.DELTA)))
    same = forgers.forge(before, after, masks, committed=lambda p: p, prover_type=forgers.ShiftingForger)
    return before, after, same


def forged_nothing() -> Forgery:
    before = forgers.shuffled_deck(forgers.FULL)
    masks = list(range(201, 201 + forgers.FULL))
    after = [sh.remask(c, joint_key(), mask, group=GROUP) for c, mask in zip(before, masks, strict=True)]
    return before, after, forgers.forge(before, after, masks, committed=lambda p: p)


def verdict(forgery: Forgery) -> bool:
    return iv.bg_shuffle_holds(
        CURVE,
        theirs(forgery[0]),
        theirs(forgery[1]),
        joint_key(),
        bg.proof_fields(forgery[2], GROUP),
        GAME,
        DECK,
        "a",
    )


def test_the_forger_s_proof_verifies_when_it_does_not_cheat() -> None:
    """So the refusals below are the cheats' doing."""
    assert verdict(forged_nothing())


@pytest.mark.parametrize(
    ("forgery", "caught_by"),
    [
        pytest.param(
            lambda: forged_square(committed=forgers.halved_first),
            "single value product argument",
            id="b not a permutation's powers",
        ),
        pytest.param(
            lambda: forged_square(committed=forgers.halved_first, prover_type=forgers.RowForger, mode="rows"),
            "zero argument, D",
            id="forged rows",
        ),
        pytest.param(
            lambda: forged_square(
                committed=forgers.halved_first, prover_type=forgers.RowForger, mode="columns"
            ),
            "zero argument, A",
            id="forged last column",
        ),
        pytest.param(
            lambda: forged_square(committed=forgers.halved_first, prover_type=CommittedRowsForger),
            "zero argument, B",
            id="rows committed other than proven",
        ),
        pytest.param(
            lambda: forged_square(committed=forgers.halved_first, prover_type=forgers.RowForger, mode="svp"),
            "single value product argument, a",
            id="product of rows other than committed",
        ),
        pytest.param(
            lambda: forged_square(committed=lambda p: p, used=forgers.halved_first),
            "multi-exponentiation argument, A",
            id="exponents other than committed",
        ),
        pytest.param(forged_shift, "multi-exponentiation argument, B", id="a shifted plaintext"),
        pytest.param(
            lambda: forged_half(0), "multi-exponentiation argument, first halves", id="a first half moved"
        ),
        pytest.param(
            lambda: forged_half(1), "multi-exponentiation argument, second halves", id="a second half moved"
        ),
    ],
)
def test_a_forgery_that_fools_all_but_one_argument_is_refused(
    forgery: Callable[[], Forgery], caught_by: str
) -> None:
    """pbem's own check names the one equation each forgery fails (the checks of the others all
    hold); this verifier, which checks each on its own, must refuse it too."""
    before, after, proof = forgery()
    with pytest.raises(GameFileError, match=rf"does not verify \({caught_by}"):
        bg.check_shuffle_bg(
            sh.ShuffleStatement(
                before, after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
            ),
            proof,
        )
    assert not verdict((before, after, proof))


# --- malformed fields -----------------------------------------------------------------------------
def raw(text: str) -> bytes:
    return base64.b64decode(text)


def packed(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.pop("svp_commitments"), "has no svp_commitments"),
        (
            lambda f: f.update(zero_responses=f["zero_responses"] + "AAAA"),
            "zero_responses is not the canonical",
        ),
        (
            lambda f: f.update(commitments_b=packed(raw(f["commitments_b"]) + raw(f["commitments_a"])[:32])),
            r"commitments_b holds 4 values, not the 3 of a 25-card deck's proof \(3 x 9\)",
        ),
        (
            lambda f: f.update(multi_exp_responses=packed(raw(f["multi_exp_responses"])[:-32])),
            "multi_exp_responses holds 12 values, not the 13",
        ),
        (lambda f: f.update(product_commitment=[f["product_commitment"]]), "product_commitment is not text"),
        (lambda f: f.update(hadamard_commitments="not base64!"), "hadamard_commitments is not base64"),
        (
            lambda f: f.update(svp_responses=packed(b"\xff" * 32 * 18)),
            r"svp_responses\[0\] is not below the group's order",
        ),
        (
            lambda f: f.update(multi_exp_ciphertexts=packed(bytes(32 * 10))),
            r"multi_exp_ciphertexts\[0\] is not a point of the prime-order subgroup",
        ),
    ],
    ids=["missing", "ragged", "one too many", "one too few", "a list", "not base64", "scalar", "point"],
)
def test_a_malformed_field_is_named(change: Callable[[dict[str, Any]], object], message: str) -> None:
    d = deal(25)
    fields = dict(d.fields)
    change(fields)
    with pytest.raises(iv.Bad, match=message):
        holds(d, fields=fields)


def test_a_proof_for_another_deck_size_is_named() -> None:
    """A one-row proof of 14 cards for a 21-card deck: its fields are too short, and say so."""
    small, large = deal(14), deal(21)
    with pytest.raises(iv.Bad, match="svp_responses holds 28 values, not the 42 of a 21-card deck"):
        holds(large, fields=small.fields)


# --- the shuffle tables ---------------------------------------------------------------------------
def verifier(grp_name: str, d: Deal) -> iv.Verifier:
    """A verifier at seat a's turn to shuffle the deck ``d`` starts from."""
    v = iv.Verifier({}, None)
    v.grp = iv.GROUPS[grp_name]
    v.seats, v.game_id, v.joint = list(SEATS), GAME, joint_key()
    v.decks = {DECK: iv.Deck([f"card {i}" for i in range(len(d.before))], list(d.before))}
    return v


def table(d: Deal, **proof: Any) -> dict[str, Any]:
    return {"deck": DECK, "cards": d.packed_after, **(proof or d.fields)}


def test_a_shuffle_table_with_the_bayer_groth_proof_is_taken() -> None:
    d = deal(25)
    v = verifier("edwards25519", d)
    v.shuffle("a", table(d), "shuffles[0]")
    assert v.decks is not None and v.decks[DECK].slots == d.after
    assert v.report.counts == {"shuffle": 1}


def test_a_shuffle_table_with_the_linear_proof_is_still_taken_in_the_curve_group() -> None:
    d = deal(6)
    proof = sp.prove_shuffle(
        sh.ShuffleStatement(
            d.pbem_before, d.pbem_after, joint_key(), game_id=GAME, deck_id=DECK, seat="a", group=GROUP
        ),
        d.secret,
    )
    v = verifier("edwards25519", d)
    v.shuffle("a", table(d, **sp.proof_fields(proof, group=GROUP)), "shuffles[0]")
    assert v.report.counts == {"shuffle": 1}


def test_a_dishonest_shuffle_table_is_refused_for_its_proof() -> None:
    d = deal(6)
    swapped = GROUP.elements_text(
        [value for c in (d.pbem_after[1], d.pbem_after[0], *d.pbem_after[2:]) for value in (c.c1, c.c2)]
    )
    with pytest.raises(iv.Bad, match=r"shuffles\[0\]: the proof of shuffle does not verify"):
        verifier("edwards25519", d).shuffle("a", {**table(d), "cards": swapped}, "shuffles[0]")


def test_a_shuffle_table_naming_a_bad_field_says_where() -> None:
    d = deal(6)
    fields = {**d.fields, "svp_responses": packed(raw(d.fields["svp_responses"])[:-32])}
    with pytest.raises(iv.Bad, match=r"^shuffles\[0\] svp_responses holds 11 values"):
        verifier("edwards25519", d).shuffle("a", table(d, **fields), "shuffles[0]")


@pytest.mark.parametrize("extra", ["challenge", "card_responses"])
def test_a_shuffle_table_may_not_mix_the_two_proofs(extra: str) -> None:
    d = deal(6)
    with pytest.raises(iv.Bad, match=f"unexpected fields \\['{extra}'\\]"):
        verifier("edwards25519", d).shuffle("a", {**table(d), extra: "AAAA"}, "shuffles[0]")


def test_the_2048_bit_group_takes_no_bayer_groth_fields() -> None:
    d = deal(6)
    with pytest.raises(iv.Bad, match=r"unexpected fields \['commitments_a', 'commitments_b'"):
        verifier("modp-2048", d).shuffle("a", table(d), "shuffles[0]")
