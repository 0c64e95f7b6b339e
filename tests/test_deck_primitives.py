"""Three hidden-deck primitives through the signed ledger, with the test game's six-card deck and
three seats: a card dealt face up to everyone, several cards put under the deck in a chosen
order, and a reshuffle of the cards left during play.

One game is played through the command line up to the cards put under the deck, then on two
branches: one deals the rest of the deck face up, the other reshuffles it while a draw waits.
Refusals are forged from the stages kept, as in ``test_hidden_deck_engine``.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem import gamefile
from pbem.crypto import hidden_deck as hd
from pbem.crypto.deck_groups import NEW_GROUP
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.identity import SecretKeys
from pbem.engine import decks as hidden_decks
from pbem.engine import ledger
from pbem.engine.ruleset import DeckSpec, DrawRequest
from pbem.engine.table import Table
from pbem.errors import GameFileError
from pbem.keys import KeyStore
from tests import hidden_deck_game, independent_verifier
from tests.conftest import forget_seen_games, game_ids, make_key_homes, run_cli
from tests.hidden_deck_game import CARDS, DECK, State
from tests.tamper import forged_problems

SEATS = ("a", "b", "c")
DECKS = {DECK: list(CARDS)}
SEEN: set[str] = set()


def memo(key: str, run: Callable[[], None]) -> None:
    if key not in SEEN:
        run()
        SEEN.add(key)


@dataclass
class Played:
    root: Path
    stages: dict[str, str]
    under: dict[str, str]  # the cards b put under the deck, by token, as b read them

    def run(self, seat: str, *args: str) -> Result:
        return run_cli(self.root / seat, *args)

    def data(self, stage: str) -> dict[str, Any]:
        return tomllib.loads(self.stages[stage])

    def table(self, stage: str) -> Table:
        table = ledger.read(self.data(stage), memo).table
        assert table is not None and table.decks is not None
        return table

    def state(self, stage: str) -> State:
        state: State = self.table(stage).state
        return state

    def secret(self, seat: str) -> SecretKeys:
        return KeyStore(self.root / seat).secret(seat, lambda prompt: None)

    def file(self, stage: str, name: str) -> Path:
        path = self.root / f"{name}.toml"
        path.write_text(self.stages[stage], encoding="utf-8")
        forget_seen_games(self.root)
        return path


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("primitives")
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    stages: dict[str, str] = {}

    def step(seat: str, *args: str, path: Path = game) -> Result:
        result = run_cli(root / seat, *args[:1], str(path), "--as", seat, *args[1:])
        assert result.exit_code == 0, result.stderr
        return result

    with game_ids("hidden deck primitives"):
        step("a", "new", "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS))
    step("b", "join")
    step("c", "join")
    for seat in SEATS:  # entries 3 to 5: each seat's shuffle rides along
        step(seat, "play", "pass")
    step("a", "play", "deal")  # entry 6: deck:0 dealt face up for a
    step("b", "play", "draw")  # entry 7: b's share of deck:0; b draws deck:1
    step("c", "play", "draw")  # entry 8: c's shares of deck:0 and deck:1; c draws deck:2
    stages["dealing"] = game.read_text(encoding="utf-8")
    step("a", "play", "pass")  # entry 9: a's shares, its own of deck:0 last
    stages["dealt"] = game.read_text(encoding="utf-8")
    step("b", "play", "draw")  # entry 10: b draws deck:3
    step("c", "play", "pass")  # entry 11
    step("a", "play", "pass")  # entry 12: b can read deck:1 and deck:3
    hand = json.loads(step("b", "show", "--json").stdout)["hand"]
    step("b", "play", "bottom", "deck:3", "deck:1")  # entry 13: deck:3 above deck:1
    stages["under"] = game.read_text(encoding="utf-8")

    # The rest of the deck dealt face up: the two cards put under come out last, in order.
    dealing = root / "dealing.toml"
    dealing.write_text(stages["under"], encoding="utf-8")
    for seat in ("c", "a", "b", "c"):  # entries 14 to 17
        step(seat, "play", "deal", path=dealing)
    for seat in ("a", "b", "c"):  # entries 18 to 20: the last shares
        step(seat, "play", "pass", path=dealing)
    stages["run down"] = dealing.read_text(encoding="utf-8")

    # The cards left reshuffled, with a draw asked while it runs, on the game as it stood before
    # the branch above: every home forgets that it saw the longer copy.
    forget_seen_games(root)
    step("c", "play", "reshuffle")  # entry 14
    step("a", "play", "draw")  # entry 15: a's reshuffle; the draw waits
    step("b", "play", "pass")  # entry 16: b's reshuffle
    stages["reshuffling"] = game.read_text(encoding="utf-8")
    step("c", "play", "pass")  # entry 17: c's reshuffle, the last; a's draw is answered
    stages["reshuffled"] = game.read_text(encoding="utf-8")
    step("a", "play", "pass")  # entry 18
    step("b", "play", "pass")  # entry 19: b's share of a's draw
    step("c", "play", "pass")  # entry 20: c's share
    stages["after"] = game.read_text(encoding="utf-8")
    return Played(root, stages, {token: hand[token] for token in ("deck:1", "deck:3")})


def forge(played: Played, stage: str, position: int, change: Callable[[dict[str, Any]], None]) -> list[str]:
    """The problems of entry ``position`` changed by ``change`` and signed again by its seat."""
    return forged_problems(played.data(stage), position, change, played.secret, memo)


def opened(played: Played, stage: str, slot: int) -> str:
    """The card in ``slot`` read with every seat's secret, which no seat alone holds."""
    game = ledger.read(played.data(stage), memo)
    table = game.table
    assert table is not None and table.decks is not None
    group = table.decks.group
    total = sum(
        hidden_decks.secret_for(game.secret_seed(seat, played.secret(seat)), table.game_id, seat, group)
        for seat in SEATS
    )
    ciphertext = table.decks.decks[DECK].slots[slot]
    shares = [group.power(ciphertext.c1, total)]
    return CARDS[hd.open_card(ciphertext, shares, len(CARDS), group=group)]


# --- a card dealt face up ----------------------------------------------------------------------------
def test_a_card_dealt_face_up_waits_for_every_seats_share_its_owners_included(played: Played) -> None:
    entries = played.data("dealt")["entry"]
    shares = {
        entry["seq"]: [slot for item in entry.get("shares", []) for slot in item["slots"]]
        for entry in entries[6:10]
    }
    assert shares == {6: [], 7: [0], 8: [0, 1], 9: [0, 1, 2]}
    table = played.table("dealing")
    assert table.decks is not None
    assert table.decks.decks[DECK].showing == {0: "a"} and 0 not in table.decks.decks[DECK].held
    assert played.state("dealing").table == ("deck:0",) and "deck:0" not in played.state("dealing").known
    waiting = json.loads(played.run("b", "status", str(played.file("dealing", "status")), "--json").stdout)
    owed = [
        (item["seat"], item["prompt"]) for item in waiting["waiting"] if item["step"] == "share of deck:0"
    ]
    assert owed == [("a", "give a decryption share of deck:0, dealt face up for a")]


def test_the_card_dealt_face_up_is_seen_by_all_and_held_by_none(played: Played) -> None:
    card = opened(played, "dealt", 0)
    state = played.state("dealt")
    assert state.known == {"deck:0": card}
    assert f"deck:0 dealt face up: {card}" in state.events
    path = played.file("dealt", "seen")
    for seat in SEATS:
        view = json.loads(played.run(seat, "show", str(path), "--as", seat, "--json").stdout)
        assert view["table"] == [card]
        assert "deck:0" not in view["hand"]
    onlooker = json.loads(played.run("a", "show", str(path), "--json").stdout)
    assert onlooker["table"] == [card]
    table = played.table("dealt")
    assert table.decks is not None and table.decks.decks[DECK].face_up == {0: card}


def test_a_forged_share_of_a_card_dealt_face_up_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        table = entry["shares"][0]
        values = [NEW_GROUP.base_power(4242), *NEW_GROUP.parse_elements(table["shares"], "shares")[1:]]
        table["shares"] = NEW_GROUP.elements_text(values)

    assert forge(played, "dealt", 9, change) == [
        "entry 9 (by a): refused by the rules: decryption shares of seat a (deck:0, deck:1, deck:2): "
        "the proof does not verify"
    ]


def test_a_card_dealt_face_up_cannot_be_left_out_or_shared_twice(played: Played) -> None:
    def first_left_out(entry: dict[str, Any]) -> None:
        table = entry["shares"][0]
        table["slots"] = table["slots"][1:]
        table["shares"] = NEW_GROUP.elements_text(NEW_GROUP.parse_elements(table["shares"], "shares")[1:])

    assert forge(played, "dealt", 9, first_left_out) == [
        "entry 9 (by a): refused by the rules: a owes its decryption share of deck:0, and this entry "
        "does not carry it"
    ]

    def again(entry: dict[str, Any]) -> None:
        given = played.data("dealt")["entry"][9]["shares"][0]
        first = {
            "deck": given["deck"],
            "slots": given["slots"][:1],
            "shares": NEW_GROUP.elements_text(NEW_GROUP.parse_elements(given["shares"], "shares")[:1]),
        }
        entry["shares"] = [first, *entry.get("shares", [])]

    assert forge(played, "under", 10, again) == [
        "entry 10 (by b): refused by the rules: shares[0] slots[0]: b owes no share of deck:0 (a share is "
        "given only for a card another seat drew, or one dealt face up, once)"
    ]


# --- several cards under the deck -----------------------------------------------------------------
def test_cards_put_under_together_go_in_the_order_listed(played: Played) -> None:
    entry = played.data("under")["entry"][13]
    assert [item["slot"] for item in entry["remask"]] == [3, 1]
    table = played.table("under")
    assert table.decks is not None and table.decks.decks[DECK].pile == [4, 5, 3, 1]


def test_the_deck_run_down_deals_the_cards_put_under_last_in_that_order(played: Played) -> None:
    state = played.state("run down")
    assert state.table == ("deck:0", "deck:4", "deck:5", "deck:3", "deck:1")
    assert [state.known[token] for token in ("deck:3", "deck:1")] == [
        played.under["deck:3"],
        played.under["deck:1"],
    ]
    assert sorted(state.known.values()) == sorted(
        [state.known["deck:0"], *(state.known[f"deck:{slot}"] for slot in (4, 5, 3, 1))]
    )
    table = played.table("run down")
    assert table.decks is not None and table.decks.decks[DECK].pile == []
    result = played.run("b", "verify", str(played.file("run down", "verify-run-down")))
    assert result.exit_code == 0, result.stderr


# --- a reshuffle during play ----------------------------------------------------------------------
def test_every_seat_reshuffles_the_cards_left_in_seat_order_each_with_its_proof(played: Played) -> None:
    entries = played.data("reshuffled")["entry"]
    carried = [
        (entry["seq"], entry["by"], entry["shuffles"][0].get("slots"))
        for entry in entries
        if "shuffles" in entry
    ]
    assert carried == [
        (3, "a", None),
        (4, "b", None),
        (5, "c", None),
        (15, "a", [4, 5, 3, 1]),
        (16, "b", [4, 5, 3, 1]),
        (17, "c", [4, 5, 3, 1]),
    ]
    before, after = played.table("under").decks, played.table("reshuffled").decks
    assert before is not None and after is not None
    old, new = before.decks[DECK], after.decks[DECK]
    assert all(new.slots[slot] != old.slots[slot] for slot in (4, 5, 3, 1))
    assert all(new.slots[slot] == old.slots[slot] for slot in (0, 2))
    cards_before = sorted(opened(played, "under", slot) for slot in (4, 5, 3, 1))
    cards_after = sorted(opened(played, "reshuffling", slot) for slot in (4, 5, 3, 1))
    assert cards_before == cards_after
    assert "deck reshuffled" in played.state("reshuffled").events


def test_a_draw_asked_during_the_reshuffle_waits_for_its_last_shuffle(played: Played) -> None:
    waiting = played.state("reshuffling")
    assert [(request.deck_id, request.seat) for request in waiting.wanted] == [(DECK, "a")]
    assert waiting.hands["a"] == ()
    path = played.file("reshuffling", "waiting")
    status = json.loads(played.run("a", "status", str(path), "--json").stdout)["waiting"]
    assert [(item["seat"], item["kind"], item["prompt"]) for item in status if item["kind"] == "shuffle"] == [
        ("c", "shuffle", "reshuffle the deck deck")
    ]
    answered = played.state("reshuffled")
    assert answered.wanted == () and answered.hands["a"] == ("deck:4",)
    table = played.table("reshuffled")
    assert table.decks is not None and table.decks.decks[DECK].pile == [5, 3, 1]
    hand = json.loads(
        played.run("a", "show", str(played.file("after", "hand")), "--as", "a", "--json").stdout
    )
    assert hand["hand"] == {"deck:4": opened(played, "after", 4)}


def test_the_reshuffled_game_verifies_and_the_independent_verifier_agrees(played: Played) -> None:
    path = played.file("after", "verify-after")
    result = played.run("c", "verify", str(path))
    assert result.exit_code == 0, result.stderr
    report = independent_verifier.verify(path, DECKS)
    assert report.ok, report.problems
    assert report.counts["shuffle"] == 6
    dealt = independent_verifier.verify(played.file("run down", "independent-run-down"), DECKS)
    assert dealt.ok, dealt.problems
    assert dealt.counts["card dealt face up"] == 5


def low_bit_flipped(text: str) -> str:
    """A packed list of scalars with the lowest bit of the first changed: still a scalar."""
    raw = bytearray(unb64(text))
    raw[0] ^= 1
    return b64(bytes(raw))


def test_a_reshuffle_with_a_forged_proof_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        shuffle = entry["shuffles"][0]
        shuffle["multi_exp_responses"] = low_bit_flipped(shuffle["multi_exp_responses"])

    problems = forge(played, "reshuffled", 16, change)
    assert len(problems) == 1 and problems[0].startswith(
        "entry 16 (by b): refused by the rules: shuffle of deck by seat b: the proof of shuffle does not "
        "verify"
    )


def test_a_reshuffle_of_other_slots_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["shuffles"][0]["slots"] = [5, 4, 3, 1]

    assert forge(played, "reshuffled", 16, change) == [
        "entry 16 (by b): refused by the rules: shuffles[0]: the reshuffle of the deck deck takes slots "
        "[4, 5, 3, 1] (the cards left, top first), not [5, 4, 3, 1]"
    ]


def test_an_entry_that_leaves_out_its_reshuffle_is_refused(played: Played) -> None:
    assert forge(played, "reshuffled", 16, lambda entry: entry.pop("shuffles")) == [
        "entry 16 (by b): refused by the rules: b owes its shuffle of the deck deck, and this entry does "
        "not carry it"
    ]


def test_the_independent_verifier_refuses_a_forged_reshuffle(played: Played, tmp_path: Path) -> None:
    data = played.data("reshuffled")
    entry = copy.deepcopy(data["entry"][16])
    shuffle = entry["shuffles"][0]
    shuffle["multi_exp_responses"] = low_bit_flipped(shuffle["multi_exp_responses"])
    del entry["sig"]
    entries = [*data["entry"][:16], ledger.sign_entry(data["game"]["id"], entry, played.secret("b"))]
    rebuilt = ledger.audit({**data, "entry": entries}, memo).ledger
    assert rebuilt is not None
    header = dict(data["game"], entries=len(entries), head=rebuilt.head)
    path = tmp_path / "forged.toml"
    path.write_text(
        gamefile.render_new(header, data["roster"], data.get("components", {}), entries, ["forged"]),
        encoding="utf-8",
    )
    problems = independent_verifier.verify(path, DECKS).problems
    assert len(problems) == 1
    assert problems[0].startswith(
        "entry 16 (by b, position 16): shuffles[0]: the proof of shuffle does not verify"
    )


# --- the engine's edges, without a ledger ------------------------------------------------------------
def shuffled_decks() -> hidden_decks.Decks:
    """The test deck as if every seat had shuffled it (the open deck stands in: nothing here reads
    a card)."""
    keys = {seat: hd.public_key(index + 2, group=NEW_GROUP) for index, seat in enumerate(SEATS)}
    decks = hidden_decks.setup([DeckSpec(DECK, CARDS)], SEATS, keys, NEW_GROUP)
    deck = decks.decks[DECK]
    deck.shuffled, deck.pile = len(SEATS), list(range(len(CARDS)))
    return decks


def test_reshuffling_an_empty_deck_is_over_at_once() -> None:
    decks = shuffled_decks()
    decks.decks[DECK].pile = []
    rules = hidden_deck_game.RULES
    state = replace(rules.setup(SEATS, "1", {}, {}), reshuffling=(DECK,))
    after = hidden_decks.advance(rules, rules, decks, state)
    assert after.reshuffling == () and after.events == ("deck reshuffled",)
    assert hidden_decks.owing(decks) == {}


def test_a_draw_asked_with_a_reshuffle_waits_for_it() -> None:
    decks = shuffled_decks()
    decks.decks[DECK].pile = [4, 5]
    rules = hidden_deck_game.RULES
    state = replace(
        rules.setup(SEATS, "1", {}, {}), reshuffling=(DECK,), wanted=(DrawRequest(DECK, "a", face_up=True),)
    )
    after = hidden_decks.advance(rules, rules, decks, state)
    assert after is state  # nothing dealt
    assert decks.decks[DECK].mixing == (4, 5) and decks.decks[DECK].rounds == 1
    assert hidden_decks.owing(decks) == {"a": [hidden_decks.Owed("shuffle", DECK)]}


class Stubborn(hidden_deck_game.Rules):
    """Rules that still ask for the reshuffle they were told is over."""

    def deck_reshuffled(self, state: State, deck_id: str) -> State:
        return state


def test_rules_that_keep_asking_for_a_reshuffle_are_refused() -> None:
    decks = shuffled_decks()
    decks.decks[DECK].pile = []
    rules = Stubborn()
    state = replace(rules.setup(SEATS, "1", {}, {}), reshuffling=(DECK,))
    with pytest.raises(GameFileError, match="still ask to reshuffle the deck deck once it is reshuffled"):
        hidden_decks.advance(rules, rules, decks, state)
