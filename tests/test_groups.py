"""The hidden decks' groups: the laws each obeys, its encodings, and what it refuses to read."""

from __future__ import annotations

import copy

import pytest

from pbem.crypto.curve import EDWARDS25519, FIELD_PRIME, IDENTITY, L
from pbem.crypto.deck_groups import by_name
from pbem.crypto.encoding import b64
from pbem.crypto.groups import MODP_2048, Group
from pbem.errors import GameFileError

GROUPS = [EDWARDS25519, MODP_2048]
IDS = [group.name for group in GROUPS]


@pytest.mark.parametrize("group", GROUPS, ids=IDS)
def test_group_laws(group: Group) -> None:
    a, b = 123456789, 987654321987654321
    x, y = group.base_power(a), group.base_power(b)
    assert group.multiply(x, y) == group.base_power(a + b) == group.multiply(y, x)
    assert group.divide(group.multiply(x, y), y) == x
    assert group.power(x, b) == group.power(y, a) == group.base_power(a * b)
    assert group.power(x, group.order) == group.identity
    assert group.base_power(group.order + 5) == group.base_power(5)
    assert group.multiply(x, group.identity) == x
    assert group.divide(x, x) == group.identity
    assert group.multi_power([x, y], [3, 4]) == group.base_power(3 * a + 4 * b)
    assert group.fixed_base(x)(7) == group.power(x, 7)
    assert group.product([x, y, x]) == group.base_power(2 * a + b)
    assert group.is_element(x) and not group.is_element(group.identity)


@pytest.mark.parametrize("group", GROUPS, ids=IDS)
def test_encodings_round_trip(group: Group) -> None:
    point = group.hash_to_element("pbem/test/v1", b"card 3")
    assert group.is_element(point) and point != group.hash_to_element("pbem/test/v1", b"card 4")
    assert len(group.encode(point)) == group.element_size
    assert group.parse_element(group.element_text(point), "x") == point
    scalar = group.hash_to_scalar("pbem/test/v1", b"nonce")
    assert 0 < scalar < group.order
    assert group.parse_scalar(group.scalar_text(scalar), "s") == scalar
    assert group.parse_scalar(group.scalar_text(group.order - 1), "s") == group.order - 1


def test_curve_elements_are_32_bytes_and_domains_are_its_own() -> None:
    assert EDWARDS25519.element_size == EDWARDS25519.scalar_size == 32
    assert EDWARDS25519.domain("pbem/hidden-deck/key/v1") == "pbem/edwards25519/hidden-deck/key/v1"
    assert MODP_2048.domain("pbem/hidden-deck/key/v1") == "pbem/hidden-deck/key/v1"
    assert by_name(None) is MODP_2048 and by_name("edwards25519") is EDWARDS25519
    with pytest.raises(GameFileError, match="not one of"):
        by_name("p256")


# Points a file could carry that are not in the prime-order subgroup: the identity, the points
# of order 2 (y = -1), 4 (y = 0) and 8, non-canonical encodings (y not below p), and a generator
# plus the point of order 2 (order 2l), on the curve but outside the subgroup.
ORDER_2 = (FIELD_PRIME - 1).to_bytes(32, "little")
ORDER_4 = bytes(32)
ORDER_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def _mixed() -> bytes:
    from nacl import bindings as sodium

    return bytes(sodium.crypto_core_ed25519_add(EDWARDS25519.encode(EDWARDS25519.generator), ORDER_2))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (IDENTITY, "the identity"),
        (ORDER_2, "small order"),
        (ORDER_4, "small order"),
        (ORDER_8, "small order"),
        ((FIELD_PRIME + 1).to_bytes(32, "little"), "non-canonical"),  # y = 1 + p: the identity again
        ((2**255 - 1).to_bytes(32, "little"), "non-canonical"),
    ],
    ids=["identity", "order-2", "order-4", "order-8", "y-above-p", "all-ones"],
)
def test_curve_refuses_points_outside_the_prime_order_subgroup(data: bytes, reason: str) -> None:
    with pytest.raises(GameFileError, match=f"^deck\\[3\\] c1: not a .*{reason}"):
        EDWARDS25519.parse_element(b64(data), "deck[3] c1")
    assert not EDWARDS25519.is_element(data)


def test_curve_refuses_a_point_with_a_small_order_component() -> None:
    mixed = _mixed()
    with pytest.raises(GameFileError, match="prime-order subgroup"):
        EDWARDS25519.parse_element(b64(mixed), "key")


@pytest.mark.parametrize("group", GROUPS, ids=IDS)
def test_scalars_must_be_canonical(group: Group) -> None:
    too_big = b64(group.order.to_bytes(group.scalar_size, "little" if group is EDWARDS25519 else "big"))
    with pytest.raises(GameFileError, match=r"^r: not a scalar"):
        group.parse_scalar(too_big, "r")


def test_curve_order_is_the_prime_subgroup_order() -> None:
    assert L == 2**252 + 27742317777372353535851937790883648493
    assert EDWARDS25519.power(EDWARDS25519.generator, L - 1) == EDWARDS25519.divide(
        IDENTITY, EDWARDS25519.generator
    )


@pytest.mark.parametrize("group", GROUPS, ids=IDS)
def test_a_copy_of_a_group_is_the_group(group: Group) -> None:
    """A game's state holds its group: a deep copy of the state must compare equal to it."""
    assert copy.deepcopy(group) is group and copy.copy(group) is group
