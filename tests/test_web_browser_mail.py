"""A game played by mail between two homes, each in a browser page of its own, by clicks alone:
the invitation fetched and the seat joined by its buttons, then each seat's first moves composed by
the composer's buttons and played, each reaching the other home by mail (the player logic is
tests/browser_mail_game.py's, which plays the whole game as a script).

The cards dealt follow from randomness every seat contributes, so which moves are offered varies
from run to run: nothing here depends on them, only on how the game travels (what each copy
holds, and that it came by mail).

Skipped where Playwright or Chromium is missing, unless PBEM_BROWSER_TESTS=required says it must
run, as CI does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

import tests.test_web_browser  # noqa: F401  (skips this module, or fails it in CI, where that one is)
from tests.browser_mail_game import MailGame, browser
from tests.mail_servers import MailServers

# the moves each seat plays: the card it returns in the deal, then the first round's auction (the
# whole first round would take some 20 to 28 seconds on a two-core machine; the script plays it all)
MOVES = 3


@pytest.fixture
def game(mail_servers: MailServers, tmp_path: Path) -> Iterator[MailGame]:
    """ann made the game (Princes of Florence for two) and invited bob by mail; both homes'
    pages open, nothing clicked yet."""
    with browser() as launched, ExitStack() as stack:
        played = MailGame(tmp_path, mail_servers, launched, stack, seed=1)
        played.create()
        yield played


def test_a_game_by_mail_is_joined_and_played_by_clicks_alone(game: MailGame) -> None:
    ann, bob = game.homes["ann"], game.homes["bob"]
    assert not game.listed(bob) and not (bob.path / "games").exists()  # nothing but the invitation

    fetched = game.fetch(bob)
    assert game.listed(bob) and game.yours(bob)  # the invitation brought the game, to join
    # the page says what the fetch did: the message applied, a new game
    assert any("applied" in line and "new game" in line for line in fetched), fetched
    game.join(bob)
    assert bob.page.locator(f"#join-{bob.seat}").count() == 0
    (join,) = [entry for entry in game.entries("bob") if entry["kind"] == "join"]
    game.library(bob)
    game.fetch(ann)
    joined = [entry for entry in game.entries("ann") if entry["kind"] == "join"]
    assert [(entry["by"], entry["seq"], entry["sig"]) for entry in joined] == [("bob", 1, join["sig"])]
    assert "joining" not in game.row(ann).inner_text()

    game.play(moves=MOVES)
    for home in (ann, bob):
        assert len(home.moves) >= MOVES and home.moves[0].startswith("return "), home.moves
    assert game.unreached() == []  # each move clicked is in the other's copy, after its fetch
    game.check_copies()  # both verify, the same entries, the other's entries all came by mail
    emails = game.emails()
    assert emails["ann"] > 0 and emails["bob"] > 0
    assert ann.clicks > len(ann.moves) and bob.clicks > len(bob.moves)
