"""Messages that carry a game: what a sender builds is read back; what a client or an attacker
does to a message is refused with its reason."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import MailContentError
from pbem.mail.armor import armor
from pbem.mail.message import INLINE_LIMIT, Carried, Outgoing, build, inline
from pbem.mail.message import read as read_all

GAME = (Path(__file__).parent.parent / "examples" / "three-players.toml").read_text(encoding="utf-8")


def read(raw: bytes) -> Carried | None:
    """The entries of a message that carries one set of them at most (None for none); its
    refusal, raised."""
    found = read_all(raw)
    if not found:
        return None
    (item,) = found
    if isinstance(item, MailContentError):
        raise item
    return item


def outgoing(entries: str = GAME) -> Outgoing:
    return Outgoing(
        sender="alice@example.org",
        recipients=("bruno@example.org", "chiara@example.org"),
        subject="[pbem] Princes of the Renaissance 14c6: alice bid; bruno to move",
        body="bruno: your turn.\nJosé's note: «à vous»",
        entries=entries,
        game_id="14c6761ee2c018d43972947db37e876a",
        filename="princes-14c6.toml",
    )


def test_a_message_built_is_read_back_with_its_entries() -> None:
    raw = build(outgoing()).as_bytes()
    carried = read(raw)
    assert carried is not None
    assert carried.entries == GAME
    assert carried.game_id == "14c6761ee2c018d43972947db37e876a"
    assert carried.sender == "alice@example.org" and carried.subject.startswith("[pbem]")


def test_the_entries_in_the_body_stand_in_for_a_dropped_attachment() -> None:
    message = build(outgoing())
    message.set_payload([part for part in message.iter_parts() if not part.is_attachment()])
    carried = read(message.as_bytes())
    assert carried is not None and carried.entries == GAME


def test_the_attachment_stands_in_for_a_body_a_client_rewrote() -> None:
    message = build(outgoing())
    body = next(part for part in message.iter_parts() if not part.is_attachment())
    assert isinstance(body, EmailMessage)
    body.set_content("bruno: your turn.\n")
    carried = read(message.as_bytes())
    assert carried is not None and carried.entries == GAME


def test_a_message_of_no_game_is_none() -> None:
    plain = EmailMessage()
    plain["Subject"] = "lunch?"
    plain.set_content("Shall we?")
    assert read(plain.as_bytes()) is None


def replace_body(message: EmailMessage, text: str) -> EmailMessage:
    body = next(part for part in message.iter_parts() if not part.is_attachment())
    assert isinstance(body, EmailMessage)
    body.set_content(text)
    return message


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (
            lambda: replace_body(build(outgoing()), armor(GAME.replace("Agreed", "Refused", 1))),
            "the entries in the body differ from the attached ones",
        ),
        (lambda: build(outgoing("this is [not toml")), "not a valid TOML file"),
    ],
)
def test_a_message_that_contradicts_itself_is_refused(make: object, reason: str) -> None:
    assert callable(make)
    with pytest.raises(MailContentError, match=reason.replace("[", r"\[")):
        read(make().as_bytes())


def test_a_truncated_message_is_refused() -> None:
    raw = build(outgoing()).as_bytes()
    message = build(outgoing())
    message.set_payload([part for part in message.iter_parts() if not part.is_attachment()])
    cut = message.as_bytes()
    with pytest.raises(MailContentError, match="cut short"):
        read(cut[: len(cut) * 2 // 3])
    with pytest.raises(MailContentError):
        read(raw[: len(raw) - 400])


def test_a_huge_message_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(MailContentError, match="more than a game's message ever has"):
        read(b"Subject: x\r\n\r\n" + b"A" * (50 * 2**20))


def test_a_mime_bomb_of_nested_parts_is_refused() -> None:
    inner = EmailMessage()
    inner.set_content("x")
    for _ in range(40):
        outer = EmailMessage()
        outer.make_mixed()
        outer.attach(inner)
        inner = outer
    with pytest.raises(MailContentError, match="nests parts more than"):
        read(inner.as_bytes())
    wide = EmailMessage()
    wide.make_mixed()
    for index in range(300):
        part = EmailMessage()
        part.set_content(f"part {index}")
        wide.attach(part)
    with pytest.raises(MailContentError, match="more than 200 parts"):
        read(wide.as_bytes())


def long_entries() -> str:
    """Entries whose armored copy is past the body's limit: proofs are random-looking base64,
    which compression cannot shrink (seeded, so the size is the same on every run)."""
    import base64
    import random

    noise = base64.b64encode(random.Random(7).randbytes(3 * INLINE_LIMIT // 4)).decode("ascii")
    return f'[delta]\ngame = "14c6761ee2c018d43972947db37e876a"\n\n[[entry]]\nseq = 4\nproof = "{noise}"\n'


def test_entries_too_long_to_repeat_ride_once_attached() -> None:
    entries = long_entries()
    assert inline(entries) is None and inline(GAME) is not None
    message = build(outgoing(entries))
    body = next(part for part in message.iter_parts() if not part.is_attachment())
    assert isinstance(body, EmailMessage)
    assert "BEGIN PBEM ENTRIES" not in body.get_content()
    assert len(message.as_bytes()) < 1.2 * len(entries)  # once, not twice
    carried = read(message.as_bytes())
    assert carried is not None and carried.entries == entries


def test_a_short_message_still_carries_its_entries_twice() -> None:
    message = build(outgoing())
    body = next(part for part in message.iter_parts() if not part.is_attachment())
    assert isinstance(body, EmailMessage)
    assert armor(GAME) in body.get_content().replace("\r\n", "\n")
    assert any(part.is_attachment() for part in message.iter_parts())


# --- subjects and threads ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "limit", "subject"),
    [
        ("c: pass; waiting for a to move", 60, "c: pass; waiting for a to move"),
        # never inside brackets: the cut goes before the bracket opens
        ("b: show [showed building:1: white, building:2: red]", 30, "b: show…"),
        # never inside a token, nor after a colon or semicolon left hanging
        ("gave its share of building:12", 25, "gave its share of…"),
        ("waiting for b to move; a, c to give a decryption share", 30, "waiting for b to move; a, c…"),
        ("a: pass (deadline 2026-01-02); waiting for b", 20, "a: pass…"),
        # a first word longer than the room is kept whole
        ("supercalifragilistic and more", 8, "supercalifragilistic…"),
    ],
)
def test_a_subject_is_cut_where_a_word_ends(text: str, limit: int, subject: str) -> None:
    from pbem.cli.sending import cut

    assert cut(text, limit) == subject


UNITS = ["a", "bid", "building:12", "[showed red, blue]", "(deadline 2026-01-02)", "pass;", "c:", "[x]"]


@given(st.lists(st.sampled_from(UNITS), max_size=30))
def test_a_cut_subject_is_whole_words_outside_brackets_and_fits(units: list[str]) -> None:
    from pbem.cli.sending import cut

    text = " ".join(units)
    subject = cut(text, 40)
    if subject == text:
        assert len(text) <= 40
        return
    kept = subject.removesuffix("…")
    assert subject.endswith("…") and len(subject) <= 40
    # whole units, as they were, but for a colon or semicolon left hanging
    assert text.startswith(kept) and text[len(kept) :].lstrip(",;:").startswith(" ")
    assert kept.count("[") == kept.count("]") and kept.count("(") == kept.count(")")


def test_every_message_answers_the_games_first() -> None:
    root = "<first@example.org>"
    for answered in (outgoing(), Outgoing(**{**outgoing().__dict__, "root": root})):
        message = build(answered)
        if not answered.root:
            assert message["In-Reply-To"] is None and message["References"] is None
            continue
        assert message["In-Reply-To"] == root and message["References"] == root
        (carried,) = read_all(message.as_bytes())
        assert isinstance(carried, Carried) and carried.root == root, "read back: the thread's first"
