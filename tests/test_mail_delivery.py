"""What a message carries: the entries its recipients lack, worked out from what each signed, and
what a recipient's copy becomes with them (or why it cannot take them)."""

from __future__ import annotations

import tomllib

import pytest

from pbem.engine import ledger
from pbem.errors import MailContentError
from pbem.mail.delivery import Holding, NotHere, apply, delta_text, holding, lacked
from tests.conftest import potr_components, seeded_keys

AT = "2026-01-01T00:00:00Z"
SEATS = ("a", "b", "c")
KEYS = {seat: seeded_keys(seat) for seat in SEATS}


def game_with_notes(*notes: str) -> ledger.Ledger:
    """a creates, b and c join, then each of ``notes`` is written by the seat it starts with."""
    setup = ledger.plan(game="potr", edition=None, options={}, seats=SEATS, creator="a")
    current = ledger.new_game(setup, KEYS["a"], at=AT, nonce="5a" * 16, components=potr_components("2016"))
    for seat in SEATS[1:]:
        current, _ = ledger.join(current, seat, KEYS[seat], AT)
    for text in notes:
        current, _ = ledger.note(current, text[0], text, KEYS[text[0]], AT)
    return current


def test_each_seat_holds_every_step_before_its_latest_entry() -> None:
    game = game_with_notes("b: hello", "c: hi", "a: welcome")
    assert [holding(game, seat).whole for seat in SEATS] == [6, 4, 5]
    assert first_lacked(game, ["b", "c"]) == 4
    assert first_lacked(game, ["b"], {"b": [game.step_hash(4)]}) == 5, "a message b sent showed more"
    # a hash this copy does not know names nothing
    assert first_lacked(game, ["b"], {"b": ["0" * 64]}) == 4


def first_lacked(game: ledger.Ledger, seats: list[str], known: dict[str, list[str]] | None = None) -> int:
    return min(int(game.entries[position]["seq"]) for position in lacked(game, seats, known or {}))


def test_a_delta_brings_a_copy_up_to_date() -> None:
    game = game_with_notes("b: hello", "c: hi", "a: welcome")
    older = game_with_notes("b: hello")
    carried = tomllib.loads(delta_text(game, first_lacked(game, ["b"])))
    assert [entry["seq"] for entry in carried["entry"]] == [4, 5]
    applied = apply(older, carried, "the message")
    assert applied.added == 2 and applied.ledger.head == game.head
    again = apply(applied.ledger, carried, "the message")
    assert again.added == 0


def test_a_delta_that_does_not_connect_says_which_entries_are_missing() -> None:
    game = game_with_notes("b: hello", "c: hi", "a: welcome")
    older = game_with_notes()
    with pytest.raises(MailContentError, match="entries 3 to 4 are missing"):
        apply(older, tomllib.loads(delta_text(game, 5)), "the message")


def test_a_whole_file_starts_a_game_and_a_delta_cannot() -> None:
    game = game_with_notes("b: hello")
    whole = apply(None, game.data(), "the message")
    assert whole.ledger.head == game.head and whole.whole is not None
    with pytest.raises(NotHere, match="a game this home is not in") as raised:
        apply(None, tomllib.loads(delta_text(game, 3)), "the message")
    assert (raised.value.ruleset, raised.value.game) == ("princes-of-the-renaissance", game.game_id[:8])
    # said back as the message names it: only what a game's names are made of
    hostile = {"delta": {"game": "0" * 32, "ruleset": "\x1b[2Jx"}, "entry": [{"seq": 3}]}
    with pytest.raises(NotHere) as raised:
        apply(None, hostile, "the message")
    assert str(raised.value) == "entries of a game this home is not in (00000000)"
    # and only what could be a game's entries: anything else is refused, as ever
    for delta, entries in (({"game": "\x1b[2J" + "0" * 28}, [{"seq": 3}]), ({"game": "0" * 32}, [])):
        with pytest.raises(MailContentError) as refused:
            apply(None, {"delta": delta, "entry": entries}, "the message")
        assert not isinstance(refused.value, NotHere), refused.value


def test_entries_of_another_game_or_altered_are_refused() -> None:
    game = game_with_notes("b: hello")
    other = ledger.new_game(
        ledger.plan(game="potr", edition=None, options={}, seats=SEATS, creator="a"),
        KEYS["a"], at=AT, nonce="77" * 16, components=potr_components("2016"),
    )  # fmt: skip
    with pytest.raises(MailContentError, match="another game"):
        apply(other, tomllib.loads(delta_text(game, 3)), "the message")
    carried = tomllib.loads(delta_text(game, 3))
    carried["entry"][0]["text"] = "b: goodbye"
    with pytest.raises(MailContentError, match="signature does not verify"):
        apply(game_with_notes(), carried, "the message")


def test_a_seat_is_never_sent_back_what_it_signed() -> None:
    """b and c write at once on copies (one step of two entries), then a writes: a message to b
    carries c's entry of that step and a's, not b's own, and still brings b's copy up to date; a
    message to both carries the whole step, since each may lack the other's entry."""
    copy_b, _ = ledger.note(game_with_notes(), "b", "b: mine", KEYS["b"], AT)
    copy_c, _ = ledger.note(game_with_notes(), "c", "c: mine", KEYS["c"], AT)
    merged = ledger.combine(ledger.read(copy_b.data()), [("c's copy", copy_c.entries)]).ledger
    game, _ = ledger.note(merged, "a", "a: both seen", KEYS["a"], AT)
    assert [len(step) for step in game.steps[3:]] == [2, 1]

    def carried_to(*recipients: str) -> list[str]:
        return [game.entries[position]["text"] for position in lacked(game, recipients, {})]

    assert carried_to("b") == ["c: mine", "a: both seen"]
    assert holding(game, "b") == Holding(3, frozenset({game.steps[3][0]}))
    assert sorted(carried_to("b", "c")) == ["a: both seen", "b: mine", "c: mine"]
    delta = tomllib.loads(delta_text(game, first_lacked(game, ["b"]), lacked(game, ["b"], {})))
    applied = apply(copy_b, delta, "the message")
    assert applied.added == 2 and applied.ledger.head == game.head


def test_a_seat_handed_on_holds_nothing_its_earlier_player_held() -> None:
    """b hands its seat on to carol: b's entries, and the copies the mail knew b's player to hold,
    are not carol's. Her copy starts from nothing (a message to her carries the whole game), and
    grows with what she signs or the mail to her carries after the handover."""
    from pbem.mail.delivery import strangers

    carol = seeded_keys("carol")
    identity = carol.public("carol")
    before = game_with_notes("b: hello", "c: hi")
    assert holding(before, "b").whole == 4
    newcomer = ledger.Newcomer(identity, carol.sign(identity.binding_message()))
    game, handed = ledger.handover(before, "b", newcomer, KEYS["b"], at=AT)
    assert (handed["seq"], handed["by"]) == (5, "b"), "signed by b's earlier player"
    known = {"b": [game.head], "c": [game.head]}  # what b's handover message told the others
    assert holding(game, "b", known["b"]).whole == 0
    assert strangers(game, ["b", "c"], known) == ["b"]
    assert lacked(game, ["b"], known) == list(range(len(game.entries))), "the whole game"
    assert lacked(game, ["c"], known) == [], "c holds it all"
    game, _ = ledger.note(game, "a", "a: welcome, carol", KEYS["a"], AT)  # step 6
    mailed = {"b": [game.head]}  # a's message to carol carried it all
    assert holding(game, "b", mailed["b"]).whole == 7 and strangers(game, ["b"], mailed) == []
    game, _ = ledger.note(game, "b", "b: thanks", carol, AT)  # step 7, signed by carol
    assert holding(game, "b").whole == 8, "what she signs is hers"
