"""The hidden deck: keys with proofs, shuffles that are proven or audited, private draws, plays.

2048-bit exponentiation is slow in pure Python, so one four-seat deal is made per module and
most decks are small: nothing checked here depends on the deck's size.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest

from pbem.crypto import group
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.encoding import b64
from pbem.crypto.groups import MODP_2048 as MODP
from pbem.crypto.groups import Element
from pbem.crypto.hidden_deck import Ciphertext
from pbem.errors import GameFileError

GAME = "0123456789abcdef0123456789abcdef"
OTHER_GAME = "f" * 32
DECK = "treachery"
SEATS = ("a", "b", "c", "d")
CARDS = 6


def seed(label: str) -> bytes:
    return random.Random(label).randbytes(32)


def decrypt_all(deck: Sequence[Ciphertext], secrets: Sequence[int], cards: int) -> list[int]:
    """What all seats together would read: the order of the whole deck."""
    total = sum(secrets) % group.Q
    return [hd.decode_card(MODP.divide(ct.c2, MODP.power(ct.c1, total)), cards) for ct in deck]


def compose(orders: Sequence[Sequence[int]], size: int) -> list[int]:
    """The card order after shuffles whose outputs take ``input[order[i]]`` at position i."""
    current = list(range(size))
    for order in orders:
        current = [current[source] for source in order]
    return current


@dataclass
class Deal:
    secrets: dict[str, int]
    publics: dict[str, Element]
    joint: Element
    decks: list[list[Ciphertext]]  # the open deck, then the deck after each seat's shuffle
    shuffles: list[sh.ShuffleSecret]
    proofs: list[sp.ShuffleProof]

    @property
    def deck(self) -> list[Ciphertext]:
        return self.decks[-1]

    def others(self, drawer: str, position: int, game_id: str = GAME) -> list[hd.Share]:
        ct = self.deck[position]
        return [
            hd.share(self.secrets[s], ct, game_id=game_id, deck_id=DECK, position=position, seat=s)
            for s in SEATS
            if s != drawer
        ]


def make_deal(cards: int, seeds: Sequence[bytes], prove: bool) -> Deal:
    secrets = {s: hd.derive_secret(seed(f"key {s}"), GAME, s) for s in SEATS}
    publics = {s: hd.public_key(x) for s, x in secrets.items()}
    joint = hd.joint_key(publics.values())
    decks = [hd.open_deck(cards, joint)]
    shuffles, proofs = [], []
    for s, shuffle_seed in zip(SEATS, seeds, strict=True):
        after, secret = sh.shuffle(decks[-1], joint, shuffle_seed, game_id=GAME, deck_id=DECK, seat=s)
        if prove:
            proofs.append(
                sp.prove_shuffle(
                    sh.ShuffleStatement(decks[-1], after, joint, game_id=GAME, deck_id=DECK, seat=s), secret
                )
            )
        decks.append(after)
        shuffles.append(secret)
    return Deal(secrets, publics, joint, decks, shuffles, proofs)


@pytest.fixture(scope="module")
def deal() -> Deal:
    return make_deal(CARDS, [seed(f"shuffle {s}") for s in SEATS], prove=True)


# --- the group ---------------------------------------------------------------------------------
def test_group_constants_are_a_safe_prime_group_with_g_of_order_q() -> None:
    assert group.P.bit_length() == 2048
    assert group.P == 2 * group.Q + 1
    assert group.power(group.G, group.Q) == 1 and group.G != 1
    rng = random.Random(1)
    for _ in range(3):  # Fermat tests: cheap evidence that p and q were not mistyped
        witness = rng.randrange(2, group.Q - 1)
        assert pow(witness, group.Q - 1, group.Q) == 1
        assert pow(witness, group.P - 1, group.P) == 1


@pytest.mark.parametrize("backend", ["python", "gmpy2"])
def test_legendre_symbol_is_the_subgroup_test(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if backend == "python":
        monkeypatch.setattr(group._Choice, "active", (None, None))
    elif group._gmpy2() is None:
        pytest.skip("gmpy2 is not installed")
    else:
        monkeypatch.setattr(group._Choice, "active", group._gmpy2())
    rng = random.Random(2)
    values = [rng.randrange(2, group.P - 1) for _ in range(40)]
    symbols = [group.legendre(value) for value in values]
    assert {1, -1} <= set(symbols)  # both residues and non-residues were tried
    for value, symbol in zip(values, symbols, strict=True):
        assert symbol == (1 if pow(value, group.Q, group.P) == 1 else -1)
    assert group.legendre(group.P) == 0 and group.legendre(0) == 0


@pytest.mark.parametrize("backend", ["python", "gmpy2"])
def test_fixed_base_and_multi_power_agree_with_pow(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without gmpy2 installed, the lifting path still runs, lifting to plain integers.
    found = group._gmpy2()
    lift = None if backend == "python" else (found[0] if found else int)
    monkeypatch.setattr(group._Choice, "active", (lift, found[1] if found else None))
    rng = random.Random(3)
    bases = [group.hash_to_element("test", bytes([i])) for i in range(3)]
    exponents = [rng.randrange(group.Q) for _ in range(group.FixedBase.TABLE_AFTER + 2)]
    expected = 1
    for base, exponent in zip(bases, exponents, strict=False):
        expected = expected * pow(base, exponent, group.P) % group.P
    result = group.multi_power(bases, exponents[: len(bases)])
    assert result == expected and type(result) is int
    fixed = group.FixedBase(bases[0])
    # the first powers are plain ones; past TABLE_AFTER they come from the table
    for exponent in exponents:
        power = fixed(exponent)
        assert power == pow(bases[0], exponent, group.P) and type(power) is int
    assert fixed._rows is not None
    assert group.power(bases[1], exponents[1]) == pow(bases[1], exponents[1], group.P)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "out of range"),
        (1, "out of range"),
        (group.P - 1, "not in the prime-order subgroup"),  # -1 is a non-residue since p = 3 mod 4
        (group.P, "out of range"),
        (2**2048 - 1, "out of range"),
    ],
)
def test_parsing_refuses_values_outside_the_subgroup(value: int, message: str) -> None:
    with pytest.raises(GameFileError, match=f"^share of seat b: not a group element \\({message}\\)$"):
        group.parse_element(b64(value.to_bytes(256, "big")), "share of seat b")


def test_parsing_refuses_bad_text() -> None:
    element = group.element_text(group.G)
    with pytest.raises(GameFileError, match="joint key: expected 256 bytes"):
        group.parse_element(b64(bytes(255)), "joint key")
    with pytest.raises(GameFileError, match="joint key: not valid base64"):
        group.parse_element(element[:-4] + "!!!!", "joint key")
    with pytest.raises(GameFileError, match="joint key: expected text, found int"):
        group.parse_element(group.G, "joint key")
    with pytest.raises(GameFileError, match="not below the group order"):
        group.parse_scalar(b64(group.Q.to_bytes(256, "big")), "response")
    assert group.parse_element(element, "joint key") == group.G


# --- keys ---------------------------------------------------------------------------------------
def test_secret_is_derived_from_the_seed_game_and_seat() -> None:
    base = hd.derive_secret(seed("k"), GAME, "a")
    assert base == hd.derive_secret(seed("k"), GAME, "a")
    others = {
        hd.derive_secret(seed("other"), GAME, "a"),
        hd.derive_secret(seed("k"), OTHER_GAME, "a"),
        hd.derive_secret(seed("k"), GAME, "b"),
    }
    assert base not in others and len(others) == 3
    assert 0 < base < group.Q
    with pytest.raises(ValueError, match="32 bytes"):
        hd.derive_secret(bytes(16), GAME, "a")


def test_key_proofs_verify_and_are_bound_to_game_seat_and_context(deal: Deal) -> None:
    x, h = deal.secrets["a"], deal.publics["a"]
    proof = hd.prove_key(x, GAME, "a", "join")
    hd.check_key(h, proof, GAME, "a", "join")
    assert hd.parse_proof(hd.proof_text(proof), "proof") == proof
    for game_id, seat, context in ((OTHER_GAME, "a", "join"), (GAME, "b", "join"), (GAME, "a", "rejoin")):
        with pytest.raises(
            GameFileError, match=f"key of seat {seat}: the proof of knowledge does not verify"
        ):
            hd.check_key(h, proof, game_id, seat, context)
    # A rogue key (one that cancels the others') has no proof: its owner does not know its log.
    rogue = MODP.divide(MODP.base_power(12345), deal.publics["b"])
    with pytest.raises(GameFileError, match="proof of knowledge does not verify"):
        hd.check_key(rogue, hd.prove_key(12345, GAME, "a", "join"), GAME, "a", "join")


def test_joint_key_is_the_product_of_the_seats_keys(deal: Deal) -> None:
    assert deal.joint == group.GENERATOR(sum(deal.secrets.values()))


# --- cards --------------------------------------------------------------------------------------
def test_cards_are_distinct_subgroup_elements_and_decode() -> None:
    encodings = [hd.encode_card(i) for i in range(25)]
    assert len(set(encodings)) == 25
    assert all(MODP.is_element(value) for value in encodings)
    assert [hd.decode_card(value, 25) for value in encodings] == list(range(25))
    with pytest.raises(GameFileError, match="not one of the deck's 24 cards"):
        hd.decode_card(encodings[24], 24)


# --- shuffles -----------------------------------------------------------------------------------
def test_every_seat_shuffles_with_a_proof_that_verifies(deal: Deal) -> None:
    for index, s in enumerate(SEATS):
        sp.check_shuffle(
            sh.ShuffleStatement(
                deal.decks[index], deal.decks[index + 1], deal.joint, game_id=GAME, deck_id=DECK, seat=s
            ),
            deal.proofs[index],
        )


def test_the_final_order_is_the_composition_of_every_seats_shuffle(deal: Deal) -> None:
    order = compose([secret.permutation for secret in deal.shuffles], CARDS)
    assert decrypt_all(deal.deck, list(deal.secrets.values()), CARDS) == order


def test_changing_any_one_seats_shuffle_changes_the_final_order() -> None:
    base_orders = [
        sh.shuffle_secret(seed(f"shuffle {s}"), 8, game_id=GAME, deck_id=DECK, seat=s).permutation
        for s in SEATS
    ]
    final = compose(base_orders, 8)
    for index, s in enumerate(SEATS):
        for attempt in range(3):
            orders = list(base_orders)
            orders[index] = sh.shuffle_secret(
                seed(f"again {s} {attempt}"), 8, game_id=GAME, deck_id=DECK, seat=s
            ).permutation
            if orders[index] != base_orders[index]:
                assert compose(orders, 8) != final
    # and the decks really follow the permutations: one small deal with another seat-c seed
    seeds = [seed(f"shuffle {s}") for s in SEATS]
    first = make_deal(4, seeds, prove=False)
    seeds[2] = seed("a different shuffle by c")
    second = make_deal(4, seeds, prove=False)
    assert first.shuffles[2].permutation != second.shuffles[2].permutation
    secrets = list(first.secrets.values())
    assert decrypt_all(first.deck, secrets, 4) != decrypt_all(second.deck, secrets, 4)


def test_a_seats_shuffle_differs_each_time_but_keeps_the_cards(deal: Deal) -> None:
    before = deal.decks[0]
    first, one = sh.shuffle(before, deal.joint, seed("one"), game_id=GAME, deck_id=DECK, seat="a")
    second, two = sh.shuffle(before, deal.joint, seed("two"), game_id=GAME, deck_id=DECK, seat="a")
    assert one.permutation != two.permutation
    assert not {c.c1 for c in first} & {c.c1 for c in second}
    secrets = list(deal.secrets.values())
    assert sorted(decrypt_all(first, secrets, CARDS)) == list(range(CARDS))
    assert sorted(decrypt_all(second, secrets, CARDS)) == list(range(CARDS))


def test_no_card_encoding_appears_in_the_deck_after_one_shuffle(deal: Deal) -> None:
    text = " ".join(hd.deck_text(deal.decks[1]))
    raw = b"".join(MODP.encode(c.c1) + MODP.encode(c.c2) for c in deal.decks[1])
    for index in range(CARDS):
        encoding = MODP.encode(hd.encode_card(index))
        assert encoding not in raw
        assert MODP.element_text(hd.encode_card(index)) not in text
    for ct in deal.decks[0]:  # nor any value of the open deck, which everyone can compute
        assert MODP.encode(ct.c2) not in raw
        assert hd.ciphertext_text(ct) not in text


def tamper(deck: list[Ciphertext], joint: Element, how: str) -> list[Ciphertext]:
    out = list(deck)
    if how == "drop":
        return out[:-1]
    if how == "duplicate":  # the first card twice, re-masked so the copy is not recognizable
        out[1] = sh.remask(out[0], joint, 777)
    elif how == "wrong mask":  # re-masked under g only: the card changes
        out[2] = Ciphertext(MODP.multiply(out[2].c1, MODP.base_power(5)), out[2].c2)
    elif how == "swap in":  # a fresh encryption of a card of the shuffler's choosing
        out[3] = Ciphertext(MODP.base_power(99), MODP.multiply(hd.encode_card(0), MODP.power(joint, 99)))
    return out


@pytest.mark.parametrize("how", ["drop", "duplicate", "wrong mask", "swap in"])
def test_a_dishonest_shuffle_is_refused_by_the_proof(deal: Deal, how: str) -> None:
    before, honest = deal.decks[0], deal.decks[1]
    after = tamper(honest, deal.joint, how)
    with pytest.raises(GameFileError, match="shuffle of treachery by seat a: "):
        sp.check_shuffle(
            sh.ShuffleStatement(before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"),
            deal.proofs[0],
        )
    # Nor can a proof be made for it: the shuffler's own secret does not fit the bad deck.
    if how != "drop":
        forged = sp.prove_shuffle(
            sh.ShuffleStatement(before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"),
            deal.shuffles[0],
        )
        with pytest.raises(GameFileError, match="the proof of shuffle does not verify"):
            sp.check_shuffle(
                sh.ShuffleStatement(before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"), forged
            )


def test_a_proof_for_a_mapping_that_is_not_a_permutation_is_refused(deal: Deal) -> None:
    """The cheat the permutation argument exists for: every output an honest re-masking of an
    input, but one input used twice and another dropped, proven with the shuffler's own values."""
    before = deal.decks[0]
    mapping = (0, 0, 2, 3, 4, 5)
    masks = tuple(range(101, 101 + CARDS))
    after = [sh.remask(before[source], deal.joint, mask) for source, mask in zip(mapping, masks, strict=True)]
    with pytest.raises(ValueError, match="does not fit the deck"):
        sp.prove_shuffle(
            sh.ShuffleStatement(before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"),
            sh.ShuffleSecret(mapping, masks),
        )
    statement = sh.statement(
        sp.STATEMENT_DOMAIN, MODP, before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"
    )
    forged = sp._prove(MODP, statement, after, deal.joint, sh.ShuffleSecret(mapping, masks))
    with pytest.raises(
        GameFileError, match="shuffle of treachery by seat a: the proof of shuffle does not verify"
    ):
        sp.check_shuffle(
            sh.ShuffleStatement(before, after, deal.joint, game_id=GAME, deck_id=DECK, seat="a"), forged
        )
    # The same values with a true permutation do verify: the refusal is the duplicate's doing.
    honest_map = (1, 0, 2, 3, 4, 5)
    honest = [
        sh.remask(before[source], deal.joint, mask) for source, mask in zip(honest_map, masks, strict=True)
    ]
    proof = sp.prove_shuffle(
        sh.ShuffleStatement(before, honest, deal.joint, game_id=GAME, deck_id=DECK, seat="a"),
        sh.ShuffleSecret(honest_map, masks),
    )
    sp.check_shuffle(
        sh.ShuffleStatement(before, honest, deal.joint, game_id=GAME, deck_id=DECK, seat="a"), proof
    )


@pytest.mark.parametrize(
    ("game_id", "deck_id", "seat"), [(OTHER_GAME, DECK, "a"), (GAME, "discard", "a"), (GAME, DECK, "b")]
)
def test_a_shuffle_proof_is_bound_to_its_game_deck_and_seat(
    deal: Deal, game_id: str, deck_id: str, seat: str
) -> None:
    with pytest.raises(GameFileError, match="the proof of shuffle does not verify"):
        sp.check_shuffle(
            sh.ShuffleStatement(
                deal.decks[0], deal.decks[1], deal.joint, game_id=game_id, deck_id=deck_id, seat=seat
            ),
            deal.proofs[0],
        )


def test_a_shuffle_proof_survives_its_text_form(deal: Deal) -> None:
    fields = sp.proof_fields(deal.proofs[1])
    assert sp.parse_proof(fields, "proof") == deal.proofs[1]
    altered = dict(fields, responses=[*fields["responses"][:3], fields["responses"][0]])
    with pytest.raises(GameFileError, match="the proof of shuffle does not verify"):
        sp.check_shuffle(
            sh.ShuffleStatement(
                deal.decks[1], deal.decks[2], deal.joint, game_id=GAME, deck_id=DECK, seat="b"
            ),
            sp.parse_proof(altered, "p"),
        )
    outside = replace(deal.proofs[1], commitments=(group.P - 1, *deal.proofs[1].commitments[1:]))
    with pytest.raises(GameFileError, match="a commitment of the proof is not a group element"):
        sp.check_shuffle(
            sh.ShuffleStatement(
                deal.decks[1], deal.decks[2], deal.joint, game_id=GAME, deck_id=DECK, seat="b"
            ),
            outside,
        )
    bad_chain = replace(deal.proofs[1], chain=deal.proofs[1].chain[:-1])
    with pytest.raises(GameFileError, match="the proof is for a deck of another size"):
        sp.check_shuffle(
            sh.ShuffleStatement(
                deal.decks[1], deal.decks[2], deal.joint, game_id=GAME, deck_id=DECK, seat="b"
            ),
            bad_chain,
        )


def test_an_audited_shuffle_is_recomputed_from_its_committed_seed(deal: Deal) -> None:
    before = deal.decks[0]
    own_seed = seed("audited")
    after, _ = sh.shuffle(before, deal.joint, own_seed, game_id=GAME, deck_id=DECK, seat="a")
    committed = sh.seed_commitment(own_seed, game_id=GAME, deck_id=DECK, seat="a")
    assert own_seed.hex() not in committed
    sh.audit_shuffle(before, after, deal.joint, own_seed, committed, game_id=GAME, deck_id=DECK, seat="a")
    with pytest.raises(GameFileError, match="the revealed seed does not match its commitment"):
        sh.audit_shuffle(
            before, after, deal.joint, seed("chosen later"), committed, game_id=GAME, deck_id=DECK, seat="a"
        )
    with pytest.raises(GameFileError, match="the revealed seed does not match its commitment"):
        sh.audit_shuffle(
            before, after, deal.joint, own_seed, committed, game_id=OTHER_GAME, deck_id=DECK, seat="a"
        )
    with pytest.raises(GameFileError, match="5 cards came out of 6"):
        sh.audit_shuffle(
            before,
            tamper(after, deal.joint, "drop"),
            deal.joint,
            own_seed,
            committed,
            game_id=GAME,
            deck_id=DECK,
            seat="a",
        )
    for how, position in (("duplicate", 1), ("wrong mask", 2), ("swap in", 3)):
        with pytest.raises(GameFileError, match=f"position {position} is not what the seed gives"):
            sh.audit_shuffle(
                before,
                tamper(after, deal.joint, how),
                deal.joint,
                own_seed,
                committed,
                game_id=GAME,
                deck_id=DECK,
                seat="a",
            )


def test_a_full_deck_audited_deal_decrypts_to_every_card_once() -> None:
    deal = make_deal(25, [seed(f"full {s}") for s in SEATS], prove=False)
    for index, s in enumerate(SEATS):
        committed = sh.seed_commitment(seed(f"full {s}"), game_id=GAME, deck_id=DECK, seat=s)
        sh.audit_shuffle(
            deal.decks[index],
            deal.decks[index + 1],
            deal.joint,
            seed(f"full {s}"),
            committed,
            game_id=GAME,
            deck_id=DECK,
            seat=s,
        )
    order = decrypt_all(deal.deck, list(deal.secrets.values()), 25)
    assert sorted(order) == list(range(25))
    assert order == compose([secret.permutation for secret in deal.shuffles], 25)
    assert hd.parse_deck(hd.deck_text(deal.deck), "deck") == deal.deck


# --- draws and plays ----------------------------------------------------------------------------
def test_every_position_is_read_by_its_drawer_with_the_others_shares(deal: Deal) -> None:
    expected = compose([secret.permutation for secret in deal.shuffles], CARDS)
    for position in range(CARDS):
        drawer = SEATS[position % len(SEATS)]
        shares = deal.others(drawer, position)
        for given in shares:
            hd.check_share(
                deal.publics[given.seat],
                deal.deck[position],
                given,
                game_id=GAME,
                deck_id=DECK,
                position=position,
            )
        values = [given.value for given in shares]
        assert hd.read_card(deal.secrets[drawer], deal.deck[position], values, CARDS) == expected[position]


def test_only_the_drawer_can_read_its_card(deal: Deal) -> None:
    position, drawer = 0, "a"
    ct = deal.deck[position]
    values = [given.value for given in deal.others(drawer, position)]
    encodings = {hd.encode_card(i) for i in range(CARDS)}
    # The other seats' shares alone leave the card masked by the drawer's share.
    assert MODP.divide(ct.c2, MODP.product(values)) not in encodings
    with pytest.raises(GameFileError, match="not one of the deck's 6 cards"):
        hd.read_card(1, ct, values, CARDS)
    for other in SEATS[1:]:  # nor can another seat use its own secret in the drawer's place
        with pytest.raises(GameFileError, match="not one of the deck's 6 cards"):
            hd.read_card(deal.secrets[other], ct, values, CARDS)


def test_a_forged_share_is_refused(deal: Deal) -> None:
    ct, x = deal.deck[1], deal.secrets["b"]
    honest = hd.share(x, ct, game_id=GAME, deck_id=DECK, position=1, seat="b")
    hd.check_share(deal.publics["b"], ct, honest, game_id=GAME, deck_id=DECK, position=1)
    wrong_value = replace(honest, value=MODP.power(ct.c1, x + 1))
    wrong_key = hd.share(
        deal.secrets["c"], ct, game_id=GAME, deck_id=DECK, position=1, seat="b"
    )  # c's secret, claimed as b's
    for forged in (wrong_value, wrong_key):
        with pytest.raises(
            GameFileError, match="share of seat b at treachery position 1: the proof does not verify"
        ):
            hd.check_share(deal.publics["b"], ct, forged, game_id=GAME, deck_id=DECK, position=1)


@pytest.mark.parametrize(
    ("game_id", "deck_id", "position"), [(OTHER_GAME, DECK, 1), (GAME, DECK, 2), (GAME, "discard", 1)]
)
def test_a_share_made_for_another_game_or_position_is_refused(
    deal: Deal, game_id: str, deck_id: str, position: int
) -> None:
    elsewhere = hd.share(
        deal.secrets["b"], deal.deck[1], game_id=game_id, deck_id=deck_id, position=position, seat="b"
    )
    with pytest.raises(GameFileError, match="the proof does not verify"):
        hd.check_share(deal.publics["b"], deal.deck[1], elsewhere, game_id=GAME, deck_id=DECK, position=1)


def test_a_share_for_another_ciphertext_is_refused(deal: Deal) -> None:
    moved = hd.share(deal.secrets["b"], deal.deck[2], game_id=GAME, deck_id=DECK, position=1, seat="b")
    with pytest.raises(GameFileError, match="the proof does not verify"):
        hd.check_share(deal.publics["b"], deal.deck[1], moved, game_id=GAME, deck_id=DECK, position=1)


def test_a_played_card_is_checked_against_the_claim(deal: Deal) -> None:
    position, drawer = 2, "c"
    ct = deal.deck[position]
    shares = [
        *deal.others(drawer, position),
        hd.share(deal.secrets[drawer], ct, game_id=GAME, deck_id=DECK, position=position, seat=drawer),
    ]
    card = compose([secret.permutation for secret in deal.shuffles], CARDS)[position]
    hd.check_play(ct, shares, deal.publics, card, cards=CARDS, game_id=GAME, deck_id=DECK, position=position)
    assert (
        hd.reveal(ct, shares, deal.publics, cards=CARDS, game_id=GAME, deck_id=DECK, position=position)
        == card
    )
    wrong = (card + 1) % CARDS
    with pytest.raises(GameFileError, match=f"position 2 holds card {card}, not the claimed card {wrong}"):
        hd.check_play(
            ct, shares, deal.publics, wrong, cards=CARDS, game_id=GAME, deck_id=DECK, position=position
        )
    with pytest.raises(GameFileError, match="not one from each of a, b, c, d"):
        hd.check_play(
            ct, shares[:-1], deal.publics, card, cards=CARDS, game_id=GAME, deck_id=DECK, position=position
        )
    with pytest.raises(GameFileError, match="not one from each of a, b, c, d"):
        hd.check_play(
            ct,
            [*shares[:-1], shares[0]],
            deal.publics,
            card,
            cards=CARDS,
            game_id=GAME,
            deck_id=DECK,
            position=position,
        )
    # A played share for another position (the card the player wishes it held) is refused.
    elsewhere = hd.share(
        deal.secrets[drawer], deal.deck[3], game_id=GAME, deck_id=DECK, position=3, seat=drawer
    )
    with pytest.raises(
        GameFileError, match="share of seat c at treachery position 2: the proof does not verify"
    ):
        hd.check_play(
            ct,
            [*shares[:-1], elsewhere],
            deal.publics,
            card,
            cards=CARDS,
            game_id=GAME,
            deck_id=DECK,
            position=position,
        )


def test_shares_and_decks_survive_their_text_forms(deal: Deal) -> None:
    given = hd.share(deal.secrets["d"], deal.deck[0], game_id=GAME, deck_id=DECK, position=0, seat="d")
    assert hd.parse_share(hd.share_fields(given), "share") == given
    assert hd.parse_deck(hd.deck_text(deal.deck), "deck") == deal.deck
    fields = dict(hd.share_fields(given), share=b64((group.P - 1).to_bytes(256, "big")))
    with pytest.raises(GameFileError, match="share share: not a group element"):
        hd.parse_share(fields, "share")
    with pytest.raises(GameFileError, match=r"deck\[0\]: expected 512 bytes"):
        hd.parse_deck([group.element_text(group.G)], "deck")
