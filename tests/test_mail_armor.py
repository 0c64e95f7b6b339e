"""Entries armored in a message's body survive what mail clients do to text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.errors import MailContentError
from pbem.mail.armor import BEGIN, END, armor, blocks

TEXT = '[game]\nid = "0123"\n\n[[entry]]\nseq = 0\ntext = "José — 李雷 " \n' * 40


def test_a_block_survives_quoting_wrapping_and_trailing_spaces() -> None:
    block = armor(TEXT)
    assert all(len(line) <= 64 for line in block.splitlines()[1:-1])
    quoted = "\n".join(f"> > {line}   " for line in block.splitlines())
    body = f"Hello,\n\nmy move:\n\n{quoted}\n\nBest\n"
    assert blocks(body) == [TEXT]
    assert blocks(f"before\r\n{block.replace(chr(10), chr(13) + chr(10))}after") == [TEXT]


def test_the_block_is_smaller_than_the_text_it_carries() -> None:
    assert len(armor(TEXT)) < len(TEXT) / 2


def flip(block: str, line: int, char: str) -> str:
    """``block`` with the first character of its line ``line`` replaced by ``char``."""
    lines = block.splitlines()
    lines[line] = char + lines[line][1:] if lines[line][0] != char else "B" + lines[line][1:]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda block: block.rsplit(END, 1)[0], "cut short"),
        (lambda block: "\n".join(block.splitlines()[:2] + block.splitlines()[-1:]), "cut short"),
        (lambda block: flip(block, 2, "A"), "altered or cut"),
        (lambda block: flip(block, 1, "!"), "not base64"),
        (lambda block: block.replace(BEGIN, BEGIN + "\n" + BEGIN, 1), "starts inside another"),
        (lambda block: END + "\n" + block, "never started"),
    ],
)
def test_a_damaged_block_is_refused_with_its_reason(change: Callable[[str], str], reason: str) -> None:
    with pytest.raises(MailContentError, match=reason):
        blocks(change(armor(TEXT)))


def test_a_block_that_unpacks_to_gigabytes_is_refused_early() -> None:
    import base64
    import zlib

    bomb = base64.b64encode(zlib.compress(b"x" * (65 * 2**20), 9)).decode()
    with pytest.raises(MailContentError, match="unpack to more than"):
        blocks(f"{BEGIN}\n{bomb}\n{END}\n")


def test_two_blocks_are_both_found() -> None:
    assert blocks(armor("a = 1\n") + "text\n" + armor("b = 2\n")) == ["a = 1\n", "b = 2\n"]
