"""Escrow of a seat's deck secret: dealing, Feldman checks, partial decryptions and unlocking.

Everything runs in edwards25519, where a scalar multiplication costs well under a millisecond;
one test repeats the round trip in the 2048-bit group with three seats.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.curve import EDWARDS25519 as CURVE
from pbem.crypto.groups import MODP_2048, Element, Group
from pbem.errors import GameFileError

GAME = "0123456789abcdef0123456789abcdef"
OTHER_GAME = "f" * 32
DECK = "treachery"
SEATS = ("a", "b", "c", "d", "e")


def seed(label: str) -> bytes:
    return random.Random(label).randbytes(32)


def secret_of(seat: str, group: Group = CURVE) -> int:
    return hd.derive_secret(seed(f"deck {seat}"), GAME, seat, group=group)


def c1_at(position: int, group: Group = CURVE) -> Element:
    """The first half of a card under the deck: ``g^r`` for a randomness nobody here shares."""
    return group.base_power(random.Random(f"r {position}").randrange(1, group.order))


def dealt(
    seats: int, threshold: int, group: Group = CURVE
) -> tuple[int, es.Dealing, dict[str, es.EscrowShare]]:
    """Seat ``a``'s escrow with the other ``seats - 1`` seats."""
    secret = secret_of("a", group)
    dealing, shares = es.deal(
        secret, SEATS[1:seats], threshold, game_id=GAME, dealer="a", group=group, seed=seed("escrow a")
    )
    return secret, dealing, shares


def partial_of(
    dealing: es.Dealing,
    share: es.EscrowShare,
    c1: Element,
    *,
    position: int = 3,
    game_id: str = GAME,
    group: Group = CURVE,
) -> es.Partial:
    return es.partial(share, dealing, c1, game_id=game_id, deck_id=DECK, position=position, group=group)


def check(dealing: es.Dealing, given: es.Partial, c1: Element, *, position: int = 3) -> None:
    es.check_partial(dealing, given, c1, game_id=GAME, deck_id=DECK, position=position, group=CURVE)


CASES = [(seats, threshold) for seats in (3, 4, 5) for threshold in range(2, seats)]


# --- unlocking --------------------------------------------------------------------------------
@pytest.mark.parametrize(("seats", "threshold"), CASES)
def test_any_threshold_of_holders_rebuilds_the_dealers_share_and_fewer_do_not(
    seats: int, threshold: int
) -> None:
    secret, dealing, shares = dealt(seats, threshold)
    c1 = c1_at(3)
    expected = CURVE.power(c1, secret)
    given = {share.index: partial_of(dealing, share, c1) for share in shares.values()}
    for each in given.values():
        check(dealing, each, c1)
    found = set()
    for chosen in itertools.combinations(sorted(given), threshold):
        found.add(
            es.combine({index: given[index].value for index in chosen}, threshold=threshold, group=CURVE)
        )
        assert (
            es.unlock(
                dealing,
                [given[index] for index in chosen],
                c1,
                game_id=GAME,
                deck_id=DECK,
                position=3,
                group=CURVE,
            )
            == expected
        )
    assert found == {expected}
    for chosen in itertools.combinations(sorted(given), threshold - 1):
        values = {index: given[index].value for index in chosen}
        with pytest.raises(GameFileError, match=f"{threshold - 1} of {threshold} partials: too few"):
            es.combine(values, threshold=threshold, group=CURVE)
        # interpolating the points there are gives some other value, not the share
        weights = es.lagrange_at_zero(list(chosen), CURVE.order)
        assert CURVE.multi_power(list(values.values()), weights) != expected


def test_more_partials_than_the_threshold_give_the_same_share() -> None:
    secret, dealing, shares = dealt(5, 2)
    c1 = c1_at(1)
    values = {share.index: partial_of(dealing, share, c1).value for share in shares.values()}
    assert es.combine(values, threshold=2, group=CURVE) == CURVE.power(c1, secret)


def test_an_unlocked_share_opens_the_card_with_the_other_seats_shares() -> None:
    """The whole point: seat a silent, seats b and c still read the card at a deck position."""
    secrets = {seat: secret_of(seat) for seat in SEATS[:3]}
    publics = {seat: hd.public_key(secret, group=CURVE) for seat, secret in secrets.items()}
    joint = hd.joint_key(publics.values(), group=CURVE)
    card = hd.open_deck([4], joint, group=CURVE)[0]
    r = 987654321
    ciphertext = hd.Ciphertext(
        CURVE.multiply(card.c1, CURVE.base_power(r)), CURVE.multiply(card.c2, CURVE.power(joint, r))
    )
    _, dealing, shares = dealt(3, 2)
    es.check_dealing_key(dealing, publics["a"])
    unlocked = es.unlock(
        dealing,
        [partial_of(dealing, share, ciphertext.c1) for share in shares.values()],
        ciphertext.c1,
        game_id=GAME,
        deck_id=DECK,
        position=3,
        group=CURVE,
    )
    others = [CURVE.power(ciphertext.c1, secrets[seat]) for seat in ("b", "c")]
    assert hd.open_card(ciphertext, [unlocked, *others], 6, group=CURVE) == 4


def test_combine_refuses_a_holder_twice_and_an_index_not_of_a_holder() -> None:
    _, dealing, shares = dealt(4, 2)
    c1 = c1_at(2)
    b, c = (partial_of(dealing, shares[seat], c1) for seat in ("b", "c"))
    with pytest.raises(GameFileError, match="given twice"):
        es.combine([(b.index, b.value), (b.index, b.value), (c.index, c.value)], threshold=2, group=CURVE)
    with pytest.raises(GameFileError, match="start at 1"):
        es.combine([(0, b.value), (c.index, c.value)], threshold=2, group=CURVE)
    with pytest.raises(GameFileError, match="given twice"):
        es.unlock(dealing, [b, b], c1, game_id=GAME, deck_id=DECK, position=3, group=CURVE)


def test_an_unlock_naming_another_share_is_refused() -> None:
    secret, dealing, shares = dealt(4, 3)
    c1 = c1_at(5)
    given = [partial_of(dealing, share, c1) for share in shares.values()]
    es.check_unlock(
        dealing, given, c1, CURVE.power(c1, secret), game_id=GAME, deck_id=DECK, position=3, group=CURVE
    )
    with pytest.raises(GameFileError, match="do not combine into the share given for seat a"):
        es.check_unlock(
            dealing,
            given,
            c1,
            CURVE.power(c1, secret + 1),
            game_id=GAME,
            deck_id=DECK,
            position=3,
            group=CURVE,
        )


# --- dealing and Feldman's check ---------------------------------------------------------------
@pytest.mark.parametrize(("seats", "threshold"), CASES)
def test_every_share_dealt_passes_and_a_share_off_by_one_fails(seats: int, threshold: int) -> None:
    secret, dealing, shares = dealt(seats, threshold)
    es.check_dealing(dealing, group=CURVE)
    es.check_dealing_key(dealing, hd.public_key(secret, group=CURVE))
    assert dealing.threshold == threshold
    assert [shares[holder].index for holder in dealing.holders] == list(range(1, seats))
    for share in shares.values():
        es.check_escrow_share(dealing, share, group=CURVE)
        assert es.holder_key(dealing, share.index, group=CURVE) == CURVE.base_power(share.value)
        bad = replace(share, value=(share.value + 1) % CURVE.order)
        with pytest.raises(
            GameFileError, match=f"escrow share of seat a for {share.holder}: it does not match"
        ):
            es.check_escrow_share(dealing, bad, group=CURVE)


def test_a_share_for_another_holder_is_refused() -> None:
    _, dealing, shares = dealt(4, 2)
    moved = replace(shares["b"], holder="c")
    with pytest.raises(GameFileError, match="seat a for c: it is for holder 1, not 2"):
        es.check_escrow_share(dealing, moved, group=CURVE)
    with pytest.raises(GameFileError, match="seat a for c: it does not match"):
        es.check_escrow_share(dealing, replace(moved, index=2), group=CURVE)


def test_a_dealing_of_another_key_is_detected() -> None:
    secret, dealing, _ = dealt(4, 2)
    es.check_dealing_key(dealing, hd.public_key(secret, group=CURVE))
    with pytest.raises(GameFileError, match="seat a: the dealing is not of the seat's deck key"):
        es.check_dealing_key(dealing, hd.public_key(secret_of("b"), group=CURVE))
    other = replace(dealing, commitments=(CURVE.base_power(secret + 1), *dealing.commitments[1:]))
    with pytest.raises(GameFileError, match="not of the seat's deck key"):
        es.check_dealing_key(other, hd.public_key(secret, group=CURVE))


def test_a_malformed_dealing_is_refused() -> None:
    _, dealing, _ = dealt(4, 3)
    with pytest.raises(GameFileError, match="commitment 2 is not a group element"):
        es.check_dealing(
            replace(dealing, commitments=(*dealing.commitments[:2], CURVE.identity)), group=CURVE
        )
    with pytest.raises(GameFileError, match="a threshold of 1"):
        es.check_dealing(replace(dealing, commitments=dealing.commitments[:1]), group=CURVE)
    with pytest.raises(GameFileError, match="a threshold of 4 with 3 holders"):
        es.check_dealing(replace(dealing, commitments=(*dealing.commitments, CURVE.generator)), group=CURVE)
    with pytest.raises(GameFileError, match="each named once"):
        es.check_dealing(replace(dealing, holders=("b", "a", "d")), group=CURVE)


def test_dealing_twice_with_the_same_seed_gives_the_same_dealing() -> None:
    first = dealt(5, 3)
    assert dealt(5, 3) == first
    secret, dealing, shares = first
    again, _ = es.deal(
        secret, SEATS[1:5], 3, game_id=GAME, dealer="a", group=CURVE, seed=seed("another seed")
    )
    assert again.commitments[0] == dealing.commitments[0]
    assert again.commitments[1:] != dealing.commitments[1:]
    # another threshold or holder order draws an unrelated polynomial, not a shifted one
    lower, _ = es.deal(secret, SEATS[1:5], 2, game_id=GAME, dealer="a", group=CURVE, seed=seed("escrow a"))
    assert lower.commitments[1] != dealing.commitments[1]
    c1 = c1_at(0)
    assert partial_of(dealing, shares["c"], c1) == partial_of(dealing, shares["c"], c1)


def test_a_referee_alone_holds_the_whole_secret_with_a_threshold_of_one() -> None:
    secret = secret_of("a")
    dealing, shares = es.deal(secret, ("r",), 1, game_id=GAME, dealer="a", group=CURVE, seed=seed("escrow r"))
    assert dealing.commitments == (CURVE.base_power(secret),)  # the deck key, nothing more
    assert shares["r"].value == secret
    es.check_dealing(dealing, group=CURVE)
    c1 = c1_at(0)
    given = partial_of(dealing, shares["r"], c1, position=0)
    assert es.combine([(given.index, given.value)], threshold=1, group=CURVE) == CURVE.power(c1, secret)


@pytest.mark.parametrize(
    ("holders", "threshold", "message"),
    [
        (("b", "c", "d"), 1, "a threshold of 1 with 3 holders"),
        (("b", "c", "d"), 0, "a threshold of 0"),
        (("b", "c", "d"), 4, "a threshold of 4 with 3 holders"),
        (("b",), 2, "a threshold of 2 with 1 holders"),
        (("b", "c", "b"), 2, "named twice"),
        (("b", "a", "c"), 2, "does not hold a share of its own"),
    ],
)
def test_thresholds_out_of_bounds_are_refused(holders: tuple[str, ...], threshold: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        es.deal(secret_of("a"), holders, threshold, game_id=GAME, dealer="a", group=CURVE, seed=seed("x"))


def test_the_default_threshold_is_every_other_seat() -> None:
    assert es.default_threshold(SEATS[1:]) == 4


def test_a_share_sealed_as_text_reads_back() -> None:
    _, dealing, shares = dealt(4, 2)
    text = es.share_text(shares["d"], group=CURVE)
    assert es.parse_escrow_share(text, dealing, "d", group=CURVE) == shares["d"]
    with pytest.raises(GameFileError, match="e is not one of its holders"):
        es.parse_escrow_share(text, dealing, "e", group=CURVE)


# --- forged partials ---------------------------------------------------------------------------
def test_a_forged_partial_is_refused() -> None:
    secret, dealing, shares = dealt(4, 2)
    c1 = c1_at(3)
    honest = partial_of(dealing, shares["b"], c1)
    forged = replace(honest, value=CURVE.multiply(honest.value, CURVE.generator))
    with pytest.raises(
        GameFileError,
        match="partial decryption by b for seat a at treachery position 3: the proof does not verify",
    ):
        check(dealing, forged, c1)
    with pytest.raises(GameFileError, match="by b for seat a"):
        es.unlock(
            dealing,
            [forged, partial_of(dealing, shares["c"], c1)],
            c1,
            game_id=GAME,
            deck_id=DECK,
            position=3,
            group=CURVE,
        )
    # combined unchecked, the forgery would move the share: the check above is what stops it
    moved = es.combine(
        {forged.index: forged.value, shares["c"].index: partial_of(dealing, shares["c"], c1).value},
        threshold=2,
        group=CURVE,
    )
    assert moved != CURVE.power(c1, secret)


def test_a_partial_for_another_position_game_or_card_is_refused() -> None:
    _, dealing, shares = dealt(4, 2)
    c1 = c1_at(3)
    check(dealing, partial_of(dealing, shares["b"], c1), c1)
    with pytest.raises(GameFileError, match="position 4: the proof does not verify"):
        check(dealing, partial_of(dealing, shares["b"], c1), c1, position=4)
    with pytest.raises(GameFileError, match="the proof does not verify"):
        check(dealing, partial_of(dealing, shares["b"], c1, game_id=OTHER_GAME), c1)
    with pytest.raises(GameFileError, match="the proof does not verify"):
        check(dealing, partial_of(dealing, shares["b"], c1_at(4)), c1)
    with pytest.raises(GameFileError, match="the proof does not verify"):
        es.check_partial(
            dealing,
            partial_of(dealing, shares["b"], c1),
            c1,
            game_id=GAME,
            deck_id="other",
            position=3,
            group=CURVE,
        )


def test_a_partial_made_with_another_holders_share_is_refused() -> None:
    _, dealing, shares = dealt(4, 2)
    c1 = c1_at(3)
    by_c = partial_of(dealing, shares["c"], c1)
    as_b = replace(by_c, holder="b", index=shares["b"].index)
    with pytest.raises(GameFileError, match="partial decryption by b for seat a"):
        check(dealing, as_b, c1)
    # the share of c under b's name and index is not b's point of the polynomial
    wrong = partial_of(dealing, replace(shares["c"], holder="b", index=shares["b"].index), c1)
    with pytest.raises(GameFileError, match="the proof does not verify"):
        check(dealing, wrong, c1)
    with pytest.raises(GameFileError, match="claims holder 1, not 2"):
        check(dealing, replace(by_c, index=1), c1)


def test_a_partial_for_another_dealing_is_refused() -> None:
    _, dealing, shares = dealt(4, 2)
    other, _ = es.deal(
        secret_of("b"), ("a", "c", "d"), 2, game_id=GAME, dealer="b", group=CURVE, seed=seed("escrow b")
    )
    c1 = c1_at(3)
    with pytest.raises(GameFileError, match="for seat b"):
        check(other, partial_of(dealing, shares["c"], c1), c1)


# --- several positions under one proof ---------------------------------------------------------
def places(count: int) -> list[hd.Place]:
    return [
        hd.Place(DECK, position, hd.Ciphertext(c1_at(position), CURVE.generator)) for position in range(count)
    ]


def test_batched_partials_combine_position_by_position() -> None:
    secret, dealing, shares = dealt(4, 2)
    where = places(5)
    given = {}
    for holder in ("b", "d"):
        values, proof = es.partials(shares[holder], dealing, where, game_id=GAME, group=CURVE)
        es.check_partials(dealing, holder, where, values, proof, game_id=GAME, group=CURVE)
        given[shares[holder].index] = values
    for slot, place in enumerate(where):
        assert es.combine(
            {index: values[slot] for index, values in given.items()}, threshold=2, group=CURVE
        ) == CURVE.power(place.ciphertext.c1, secret)


@pytest.mark.parametrize("wrong", range(4))
def test_the_batched_check_fails_when_any_one_partial_is_wrong(wrong: int) -> None:
    _, dealing, shares = dealt(4, 3)
    where = places(4)
    values, proof = es.partials(shares["c"], dealing, where, game_id=GAME, group=CURVE)
    values[wrong] = CURVE.multiply(values[wrong], CURVE.generator)
    with pytest.raises(GameFileError, match=r"partial decryptions by c for seat a \(treachery position 0, "):
        es.check_partials(dealing, "c", where, values, proof, game_id=GAME, group=CURVE)


def test_errors_that_cancel_out_do_not_pass_the_batched_check() -> None:
    """A holder that knows its share multiplies one partial by ``E`` and the next by ``1/E``: the
    unweighted products still agree, so without the statement's weights its proof would verify."""
    _, dealing, shares = dealt(4, 2)
    share = shares["c"]
    where = places(3)
    values, _ = es.partials(share, dealing, where, game_id=GAME, group=CURVE)
    values[0] = CURVE.multiply(values[0], CURVE.generator)
    values[1] = CURVE.divide(values[1], CURVE.generator)
    key = es.holder_key(dealing, share.index, group=CURVE)
    statement = es._partials_statement(
        CURVE, dealing, key, where, values, game_id=GAME, holder="c", index=share.index
    )
    c1s = CURVE.product(place.ciphertext.c1 for place in where)
    assert CURVE.product(values) == CURVE.power(c1s, share.value)
    nonce = 424242
    first, second = CURVE.base_power(nonce), CURVE.power(c1s, nonce)
    challenge = CURVE.challenge(
        es.PARTIALS_PROOF_DOMAIN, statement, CURVE.encode(first), CURVE.encode(second)
    )
    proof = hd.Proof(challenge, (nonce + challenge * share.value) % CURVE.order)
    with pytest.raises(GameFileError, match="the proof does not verify"):
        es.check_partials(dealing, "c", where, values, proof, game_id=GAME, group=CURVE)


def test_the_batched_check_refuses_swapped_partials_another_holder_or_game() -> None:
    _, dealing, shares = dealt(4, 3)
    where = places(3)
    values, proof = es.partials(shares["c"], dealing, where, game_id=GAME, group=CURVE)
    swapped = [values[1], values[0], values[2]]
    for holder, given, game in (("c", swapped, GAME), ("b", values, GAME), ("c", values, OTHER_GAME)):
        with pytest.raises(GameFileError, match="the proof does not verify"):
            es.check_partials(dealing, holder, where, given, proof, game_id=game, group=CURVE)
    with pytest.raises(GameFileError, match="2 partials for 3 positions"):
        es.check_partials(dealing, "c", where, values[:2], proof, game_id=GAME, group=CURVE)


# --- the 2048-bit group --------------------------------------------------------------------------
def test_escrow_in_the_2048_bit_group() -> None:
    secret, dealing, shares = dealt(3, 2, MODP_2048)
    for share in shares.values():
        es.check_escrow_share(dealing, share, group=MODP_2048)
    c1 = c1_at(3, MODP_2048)
    given = [partial_of(dealing, share, c1, group=MODP_2048) for share in shares.values()]
    unlocked = es.unlock(dealing, given, c1, game_id=GAME, deck_id=DECK, position=3, group=MODP_2048)
    assert unlocked == MODP_2048.power(c1, secret)
    forged = replace(given[0], value=MODP_2048.multiply(given[0].value, MODP_2048.generator))
    with pytest.raises(GameFileError, match="the proof does not verify"):
        es.check_partial(dealing, forged, c1, game_id=GAME, deck_id=DECK, position=3, group=MODP_2048)


# --- shares sealed to their holders, and complaints ------------------------------------------------
def receiving(seat: str) -> int:
    return es.receive_secret(seed(f"deck {seat}"), GAME, seat, group=CURVE)


def sealed_shares(dealing: es.Dealing, shares: dict[str, es.EscrowShare]) -> dict[str, es.Sealed]:
    return {
        holder: es.seal(
            share,
            dealing,
            CURVE.base_power(receiving(holder)),
            game_id=GAME,
            group=CURVE,
            seed=seed("escrow a"),
        )
        for holder, share in shares.items()
    }


def test_each_holder_unseals_its_own_share_and_no_other() -> None:
    _, dealing, shares = dealt(4, 3)
    sealed = sealed_shares(dealing, shares)
    for holder, share in shares.items():
        assert es.unseal(sealed[holder], receiving(holder), dealing, game_id=GAME, group=CURVE) == share
    wrong = es.unseal(sealed["b"], receiving("c"), dealing, game_id=GAME, group=CURVE)
    assert wrong.value != shares["b"].value
    # what the file carries hides the share: the masked value is not it
    assert all(sealed[holder].masked != share.value for holder, share in shares.items())


def test_sealing_twice_gives_the_same_sealed_share() -> None:
    _, dealing, shares = dealt(3, 2)
    assert sealed_shares(dealing, shares) == sealed_shares(dealing, shares)


def test_a_complaint_about_a_bad_share_convicts_the_dealer() -> None:
    _, dealing, shares = dealt(4, 3)
    bad = dict(shares, c=replace(shares["c"], value=(shares["c"].value + 1) % CURVE.order))
    sealed = sealed_shares(dealing, bad)["c"]
    opened = es.unseal(sealed, receiving("c"), dealing, game_id=GAME, group=CURVE)
    with pytest.raises(GameFileError, match="does not match"):
        es.check_escrow_share(dealing, opened, group=CURVE)
    complaint = es.complain(sealed, receiving("c"), dealing, game_id=GAME, group=CURVE)
    key = CURVE.base_power(receiving("c"))
    assert es.at_fault(complaint, sealed, dealing, key, game_id=GAME, group=CURVE) == "a"


def test_a_complaint_about_a_good_share_convicts_the_complainer() -> None:
    _, dealing, shares = dealt(4, 3)
    sealed = sealed_shares(dealing, shares)["d"]
    complaint = es.complain(sealed, receiving("d"), dealing, game_id=GAME, group=CURVE)
    key = CURVE.base_power(receiving("d"))
    assert es.at_fault(complaint, sealed, dealing, key, game_id=GAME, group=CURVE) == "d"


def test_a_complaint_with_a_made_up_opening_is_refused() -> None:
    """A holder cannot blame an honest dealer by publishing some other ``R^y``: its proof fails."""
    _, dealing, shares = dealt(4, 3)
    sealed = sealed_shares(dealing, shares)["b"]
    complaint = es.complain(sealed, receiving("b"), dealing, game_id=GAME, group=CURVE)
    forged = replace(complaint, opened=CURVE.base_power(12345))
    key = CURVE.base_power(receiving("b"))
    with pytest.raises(GameFileError, match="proof does not verify"):
        es.at_fault(forged, sealed, dealing, key, game_id=GAME, group=CURVE)
    other = es.complain(sealed, receiving("c"), dealing, game_id=GAME, group=CURVE)  # not b's key
    with pytest.raises(GameFileError, match="proof does not verify"):
        es.at_fault(other, sealed, dealing, key, game_id=GAME, group=CURVE)


def test_a_proven_sealing_passes_and_its_point_sealed_elsewhere_does_not() -> None:
    """Each ephemeral point's proof of knowledge holds for the one sealing it was made for: the
    same point and proof in another holder's place, another kind of sealing, to another key or
    shifted by a known ``g^t`` fail, so no complaint ever publishes ``R^y`` of a point its maker
    could not already open."""
    _, dealing, shares = dealt(4, 3)
    key = {holder: CURVE.base_power(receiving(holder)) for holder in shares}
    sealed = {
        holder: es.seal(
            share, dealing, key[holder], game_id=GAME, group=CURVE, seed=seed("escrow a"), proven=es.DEALT
        )
        for holder, share in shares.items()
    }
    for holder, each in sealed.items():
        es.check_ephemeral(each, "a", key[holder], kind=es.DEALT, game_id=GAME, group=CURVE)
    copied = replace(sealed["c"], ephemeral=sealed["b"].ephemeral, proof=sealed["b"].proof)
    shifted = replace(sealed["b"], ephemeral=CURVE.multiply(sealed["b"].ephemeral, CURVE.base_power(7)))
    cases = [
        (copied, "a", key["c"], es.DEALT, GAME),
        (shifted, "a", key["b"], es.DEALT, GAME),
        (sealed["b"], "a", key["b"], es.RESEALED, GAME),
        (sealed["b"], "a", key["c"], es.DEALT, GAME),
        (sealed["b"], "e", key["b"], es.DEALT, GAME),
        (sealed["b"], "a", key["b"], es.DEALT, OTHER_GAME),
        (replace(sealed["b"], proof=None), "a", key["b"], es.DEALT, GAME),
    ]
    for given, dealer, to, kind, game in cases:
        with pytest.raises(GameFileError, match="ephemeral point"):
            es.check_ephemeral(given, dealer, to, kind=kind, game_id=game, group=CURVE)
