"""A seat that goes silent no longer stops the deck: its shares are unlocked by the others'
partial decryptions, its shuffle skipped (option escrow=others, with deadlines).

Three seats play the engine's test game through the command line with a one-day deadline; c
answers nothing once a has drawn. One timeout makes c absent (option timeouts=absent, what new
games have): its turn is played by the rules' default and its share unlocked at once, with no
second claim. The clock is set per command (``PBEM_NOW``) so deadlines pass without waiting.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.encoding import b64, unb64
from pbem.engine import ledger
from tests import hidden_deck_game
from tests.conftest import game_ids, make_key_homes
from tests.stages import Played
from tests.tamper import forged_problems

SEATS = ("a", "b", "c")
DAY1 = "2026-01-01T00:00:00Z"
DAY3 = "2026-01-03T00:00:00Z"  # c's deadline (a day after its demands began) has passed


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


def play_to_the_draw(root: Path, options: tuple[str, ...]) -> Played:
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    played = Played(root, DAY3)
    with game_ids(f"escrow unlock {options}"):
        played.step(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            "--option", "deadline_days=1", *(f"--option={option}" for option in options), at=DAY1,
        )  # fmt: skip
    played.step("b", "join", str(game), "--as", "b", at=DAY1)
    played.step("c", "join", str(game), "--as", "c", at=DAY1)
    for seat, verb in (("a", "pass"), ("b", None), ("c", None), ("b", "pass"), ("c", "pass"), ("a", "draw")):
        if verb is None:
            played.step(seat, "sync", str(game), "--as", seat, at=DAY1)
        else:
            played.step(seat, "play", str(game), "--as", seat, verb, at=DAY1)
    played.step("b", "play", str(game), "--as", "b", "pass", at=DAY1)  # b's share of a's draw
    played.stages["c silent"] = game.read_text(encoding="utf-8")
    return played


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    played = play_to_the_draw(tmp_path_factory.mktemp("unlock"), ("escrow=others",))
    game = played.file("c silent", "game")
    # c's turn: the rules' default, a pass; c is absent, and its share of deck:0 is unlocked at once
    played.step("a", "timeout", str(game), "c", "--as", "a")
    played.stages["unlocking"] = game.read_text(encoding="utf-8")
    played.stages["inbox"] = played.step("b", "inbox").stdout
    played.step("a", "sync", str(game), "--as", "a")  # a's partial
    played.stages["one partial"] = game.read_text(encoding="utf-8")
    played.step("b", "sync", str(game), "--as", "b")  # b's partial: with 2, c's share
    played.stages["unlocked"] = game.read_text(encoding="utf-8")
    return played


def resigned(
    played: Played, stage: str, position: int, change: Callable[[dict[str, Any]], None]
) -> list[str]:
    """The problems of the game at ``stage`` with entry ``position`` changed and signed again."""
    return forged_problems(tomllib.loads(played.stages[stage]), position, change, played.secret)


def test_the_others_unlock_the_silent_seats_share_and_the_drawer_reads_its_card(played: Played) -> None:
    unlocked = played.file("unlocked", "unlocked")
    card = played.hand(unlocked, "a")["deck:0"]
    assert card in hidden_deck_game.CARDS
    # the very card a reads had c given its share itself
    answered = played.file("c silent", "answered")
    played.step("c", "sync", str(answered), "--as", "c")
    assert played.hand(answered, "a")["deck:0"] == card
    assert played.run("a", "verify", str(unlocked)).exit_code == 0


def test_the_timeout_asks_each_other_seat_for_a_partial_of_exactly_the_share_owed(played: Played) -> None:
    status = played.step("a", "status", str(played.file("unlocking", "unlocking"))).stdout
    assert "give a partial decryption of c's share of deck:0 (c is silent)" in status
    assert "c            give a decryption share" not in status
    entries = tomllib.loads(played.stages["unlocked"])["entry"]
    given = [entry["escrow_partials"] for entry in entries if "escrow_partials" in entry]
    assert [[(item["seat"], item["deck"], item["slots"]) for item in each] for each in given] == [
        [("c", "deck", [0])],
        [("c", "deck", [0])],
    ]


def test_the_inbox_says_the_others_are_unlocking_the_silent_seats_cards(played: Played) -> None:
    assert "to act: a, b (your move: b); unlocking the cards of c (silent)" in played.stages["inbox"]


def test_fewer_partials_than_the_threshold_do_not_open_the_card(played: Played) -> None:
    hand = played.hand(played.file("one partial", "one-partial"), "a")
    assert hand["deck:0"] is None
    game = ledger.read(tomllib.loads(played.stages["one partial"]))
    assert game.table is not None and game.table.decks is not None
    assert "c" not in game.table.decks.decks["deck"].shares.get(0, {})


def test_a_forged_partial_is_refused_naming_the_entry(played: Played) -> None:
    position = len(tomllib.loads(played.stages["one partial"])["entry"]) - 1

    def forged(entry: dict[str, Any]) -> None:
        item = entry["escrow_partials"][0]
        item["partials"] = b64(bytes(reversed(unb64(item["partials"]))))

    found = resigned(played, "one partial", position, forged)
    assert found and ("proof does not verify" in found[0] or "not a group element" in found[0]), found


def test_a_partial_for_a_position_not_unlocked_is_refused(played: Played) -> None:
    position = len(tomllib.loads(played.stages["one partial"])["entry"]) - 1

    def another_slot(entry: dict[str, Any]) -> None:
        entry["escrow_partials"][0]["slots"] = [1]

    found = resigned(played, "one partial", position, another_slot)
    assert any("owes no partial decryption of c's share of deck:1" in problem for problem in found), found


def test_a_card_put_under_the_deck_ends_the_unlock_of_its_share(played: Played) -> None:
    game = played.file("unlocking", "bottom")
    played.step("a", "play", str(game), "--as", "a", "bottom", "deck:0")  # a's partial rides along
    # b would give its partial of the new ciphertext, which with a's of the old one combines
    # into no share of either: the slot, drawn again, could then never be read
    assert "partial decryption" not in played.step("a", "status", str(game)).stdout
    replayed = ledger.read(gamefile.load(game).data)
    assert replayed.table is not None and replayed.table.decks is not None
    escrow = replayed.table.decks.escrow
    assert escrow is not None and escrow.unlocking["c"] == {}
    assert played.run("a", "verify", str(game)).exit_code == 0


def test_the_silent_seat_cannot_be_unlocked_before_its_deadline(played: Played) -> None:
    early = played.run("a", "timeout", str(played.file("c silent", "early")), "c", "--as", "a", at=DAY1)
    assert early.exit_code != 0 and "a timeout can be claimed only after it" in early.stderr


def test_without_escrow_a_silent_seats_share_still_stops_the_deck(tmp_path: Path) -> None:
    played = play_to_the_draw(tmp_path, ())
    game = played.file("c silent", "game")
    played.step("a", "timeout", str(game), "c", "--as", "a")  # the turn: a default exists
    refused = played.run("a", "timeout", str(game), "c", "--as", "a")
    assert refused.exit_code != 0
    assert "no default can stand in for" in refused.stderr and "escrow=others" in refused.stderr
    assert gamefile.load(game).data["entry"][-1]["kind"] == "timeout"  # the refusal wrote nothing


def test_a_silent_seats_reshuffle_is_skipped(tmp_path: Path) -> None:
    played = play_to_the_draw(tmp_path, ("escrow=others",))
    game = played.file("c silent", "game")
    played.step("c", "sync", str(game), "--as", "c")  # c's share of deck:0, then it goes silent
    played.step("c", "play", str(game), "--as", "c", "reshuffle")
    played.step("a", "play", str(game), "--as", "a", "pass")  # a's reshuffle rides along
    played.step("b", "play", str(game), "--as", "b", "pass")  # b's too
    status = played.step("a", "status", str(game)).stdout
    assert "c            reshuffle the deck deck" in status
    later = "2026-01-05T00:00:00Z"
    # c's turn to move: a pass; c is absent, and its reshuffle is skipped with no second claim
    played.step("a", "timeout", str(game), "c", "--as", "a", at=later)
    again = played.run("a", "timeout", str(game), "c", "--as", "a", at=later)
    assert again.exit_code != 0 and "c owes nothing now" in again.stderr
    data = gamefile.load(game).data
    replayed = ledger.read(data)
    assert replayed.table is not None and replayed.table.decks is not None
    deck = replayed.table.decks.decks["deck"]
    assert deck.mixing is None and replayed.table.decks.shuffled(deck)
    played.step("a", "play", str(game), "--as", "a", "draw", at=later)  # the deck deals again
    assert played.run("a", "verify", str(game)).exit_code == 0


# --- defaults that move a silent seat's hidden cards ------------------------------------------------
def c_holds_a_card(
    root: Path, default: str, *, escrow: bool = True, timeouts: str = "absent"
) -> tuple[Played, Path]:
    """c draws deck:0, the others give their shares, and then c is silent on its turn."""
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    played = Played(root, DAY3)
    options = ["--option=deadline_days=1", f"--option=default={default}", f"--option=timeouts={timeouts}"]
    if escrow:
        options.append("--option=escrow=others")
    with game_ids(f"escrow default {default} {escrow}" + ("" if timeouts == "absent" else f" {timeouts}")):
        played.step(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            *options, at=DAY1,
        )  # fmt: skip
    played.step("b", "join", str(game), "--as", "b", at=DAY1)
    played.step("c", "join", str(game), "--as", "c", at=DAY1)
    steps = (
        ("a", "pass"),
        ("b", None),
        ("c", None),
        ("a", None),  # a acknowledges b's and c's dealings: the escrow is complete
        ("b", "pass"),
        ("c", "draw"),
        ("a", "pass"),  # a's share of deck:0
        ("b", "pass"),  # b's: c reads its card
    )
    for index, (seat, verb) in enumerate(steps):
        if verb is None:
            if index == 3 and not escrow:
                continue  # nothing to acknowledge
            played.step(seat, "sync", str(game), "--as", seat, at=DAY1)
        else:
            played.step(seat, "play", str(game), "--as", seat, verb, at=DAY1)
    played.stages["c holds"] = game.read_text(encoding="utf-8")
    return played, game


@pytest.mark.parametrize("timeouts", ["absent", "demand"])
def test_a_silent_seats_default_shows_its_card_once_the_others_unlock_its_share(
    tmp_path: Path, timeouts: str
) -> None:
    """With timeouts=absent, the one claim unlocks c's share and the default is made for the
    absent c once the partials are in; a game made before the option (timeouts=demand, what a
    genesis without it means) takes a second claim for the default, as it did."""
    played, game = c_holds_a_card(tmp_path, "show", timeouts=timeouts)
    own = played.hand(game, "c")["deck:0"]  # what c alone could read
    played.step("a", "timeout", str(game), "c", "--as", "a")  # c's turn: its default shows deck:0
    status = played.step("a", "status", str(game)).stdout
    assert "give a partial decryption of c's share of deck:0 (c is silent)" in status
    assert "OVERDUE" not in status  # c's default waits for a's and b's partials: nobody can claim
    if timeouts == "absent":
        assert "absent: the rules' default is made for it once it can be" in status
    waiting = played.run("b", "timeout", str(game), "c", "--as", "b")
    assert waiting.exit_code != 0 and "wait for the partial decryptions that unlock them" in waiting.stderr
    played.step("a", "sync", str(game), "--as", "a")
    played.step("b", "sync", str(game), "--as", "b")
    claims = 1
    if timeouts == "demand":
        played.step("b", "timeout", str(game), "c", "--as", "b")  # now the default is made
        claims = 2
    game_now = ledger.read(gamefile.load(game).data)
    assert [entry["kind"] for entry in game_now.entries].count("timeout") == claims
    assert game_now.table is not None and game_now.table.decks is not None
    assert game_now.table.decks.decks["deck"].face_up == {0: own}
    state = game_now.table.state
    assert state.hands["c"] == () and state.known["deck:0"] == own
    assert state.seats[state.turn] == "a"
    assert played.run("a", "verify", str(game)).exit_code == 0


def test_a_silent_seats_default_puts_its_card_under_the_deck_re_masked_by_the_claimant(
    tmp_path: Path,
) -> None:
    played, game = c_holds_a_card(tmp_path, "bottom")
    before = ledger.read(gamefile.load(game).data)
    assert before.table is not None and before.table.decks is not None
    old = before.table.decks.decks["deck"].slots[0]
    played.step("a", "timeout", str(game), "c", "--as", "a")  # no share is needed: at once
    claim = gamefile.load(game).data["entry"][-1]
    assert claim["kind"] == "timeout" and [item["slot"] for item in claim["remask"]] == [0]
    after = ledger.read(gamefile.load(game).data)
    assert after.table is not None and after.table.decks is not None
    deck = after.table.decks.decks["deck"]
    assert 0 not in deck.held and deck.pile[-1] == 0 and deck.slots[0] != old
    assert after.table.state.hands["c"] == ()
    assert played.run("a", "verify", str(game)).exit_code == 0


def test_a_claim_that_re_masks_the_card_wrongly_is_refused(tmp_path: Path) -> None:
    played, game = c_holds_a_card(tmp_path, "bottom")
    played.step("a", "timeout", str(game), "c", "--as", "a")
    played.stages["claimed"] = game.read_text(encoding="utf-8")
    position = len(tomllib.loads(played.stages["claimed"])["entry"]) - 1

    def forged(entry: dict[str, Any]) -> None:
        entry["remask"][0]["card"] = b64(bytes(reversed(unb64(entry["remask"][0]["card"]))))

    found = resigned(played, "claimed", position, forged)
    assert found and any("remask[0]" in problem or "re-mask" in problem for problem in found), found


def test_without_escrow_a_default_that_shows_a_card_is_refused(tmp_path: Path) -> None:
    played, game = c_holds_a_card(tmp_path, "show", escrow=False)
    refused = played.run("a", "timeout", str(game), "c", "--as", "a")
    assert refused.exit_code != 0 and "only c's own key can do" in refused.stderr
    assert "escrow=others" in refused.stderr


def test_a_seat_that_missed_retire_after_deadlines_is_played_by_the_defaults(tmp_path: Path) -> None:
    played = play_to_the_draw(tmp_path, ("escrow=others", "retire_after=1"))
    game = played.file("c silent", "game")
    played.step("a", "timeout", str(game), "c", "--as", "a")  # c's turn: its one missed deadline
    status = played.step("a", "status", str(game)).stdout
    assert "c missed 1 deadline: the rules' defaults play it for the rest of the game" in status
    # no second timeout: the share c owes is unlocked at once, and the others are asked for it
    assert "give a partial decryption of c's share of deck:0 (c is silent)" in status
    assert gamefile.load(game).data["entry"][-1]["kind"] == "timeout"
    played.step("a", "sync", str(game), "--as", "a")
    played.step("b", "sync", str(game), "--as", "b")
    assert played.hand(game, "a")["deck:0"] in hidden_deck_game.CARDS
    played.step("a", "play", str(game), "--as", "a", "pass")
    played.step("b", "play", str(game), "--as", "b", "pass")  # c's turn comes: its pass is made for it
    replayed = ledger.read(gamefile.load(game).data)
    assert replayed.table is not None and replayed.table.state.seats[replayed.table.state.turn] == "a"
    assert "c missed 1 deadline" in played.step("b", "show", str(game)).stdout
    assert played.run("a", "verify", str(game)).exit_code == 0


def test_an_undo_waiting_for_a_retired_seats_consent_is_declined_for_it(tmp_path: Path) -> None:
    played = play_to_the_draw(tmp_path, ("escrow=others", "retire_after=1"))
    game = played.file("c silent", "game")
    played.step("a", "timeout", str(game), "c", "--as", "a")  # c retires; its pass is made
    played.step("a", "sync", str(game), "--as", "a")
    played.step("b", "sync", str(game), "--as", "b")
    played.step("a", "play", str(game), "--as", "a", "pass")
    played.step("a", "undo", str(game), "--as", "a")  # b and c must consent: c cannot
    late = played.run("b", "consent", str(game), "--as", "b")
    assert late.exit_code != 0 and "no undo is waiting for consent" in late.stderr
    replayed = ledger.read(gamefile.load(game).data)
    assert replayed.table is not None and replayed.table.undo is None  # declined for c, not hanging
    assert replayed.table.state.seats[replayed.table.state.turn] == "b"  # a's pass stands
    assert played.run("a", "verify", str(game)).exit_code == 0
