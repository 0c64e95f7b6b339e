"""The engine's hidden decks, through a tiny test game with a 6-card deck and three seats.

One game is played through the command line once per module and its file kept at each stage;
the refusals are forged from those stages by re-signing one entry with its seat's real key, so
only the hidden-deck check can refuse it. A six-card proof costs well under a second.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem.cli.proof_cache import ProofCache
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto.curve import L
from pbem.crypto.deck_groups import NEW_GROUP
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.groups import MODP_2048
from pbem.crypto.identity import SecretKeys
from pbem.engine import decks as hidden_decks
from pbem.engine import ledger
from pbem.engine.ruleset import DeckSpec
from pbem.errors import GameFileError
from pbem.keys import KeyStore
from tests import hidden_deck_game
from tests.conftest import forget_seen_games, game_ids, make_key_homes, run_cli
from tests.hidden_deck_game import CARDS, DECK
from tests.tamper import forged_problems

SEATS = ("a", "b", "c")
SEEN: set[str] = set()


def memo(key: str, run: Callable[[], None]) -> None:
    """A cache of checked proofs for this module, keyed like the command line's."""
    if key not in SEEN:
        run()
        SEEN.add(key)


@dataclass
class Played:
    root: Path
    stages: dict[str, str]  # stage -> the file's text then
    drawn: str  # the card a drew (deck:0)

    def run(self, seat: str, *args: str) -> Result:
        return invoke(self.root, seat, *args)

    def data(self, stage: str) -> dict[str, Any]:
        return tomllib.loads(self.stages[stage])

    def secret(self, seat: str) -> SecretKeys:
        return KeyStore(self.root / seat).secret(seat, lambda prompt: None)

    def file(self, stage: str, name: str) -> Path:
        """A copy of the game as it stood at ``stage``. The tests go back in time, which players
        never do: every home forgets the later copies it saw, or it would (rightly) call this
        one behind."""
        path = self.root / f"{name}.toml"
        path.write_text(self.stages[stage], encoding="utf-8")
        forget_seen_games(self.root)
        return path


def invoke(root: Path, seat: str, *args: str) -> Result:
    return run_cli(root / seat, *args)


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("hidden")
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    stages: dict[str, str] = {}

    def step(seat: str, *args: str) -> Result:
        result = invoke(root, seat, *args)
        assert result.exit_code == 0, result.stderr
        return result

    with game_ids("hidden deck engine"):
        step(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a"
        )
    step("b", "join", str(game), "--as", "b")
    step("c", "join", str(game), "--as", "c")
    stages["joined"] = game.read_text(encoding="utf-8")
    step("a", "play", str(game), "--as", "a", "pass")  # entry 3: a's shuffle rides along
    step("b", "sync", str(game), "--as", "b")  # entry 4: b's shuffle on its own
    step("b", "play", str(game), "--as", "b", "pass")  # entry 5
    step("c", "play", str(game), "--as", "c", "pass")  # entry 6: c's shuffle
    step("a", "play", str(game), "--as", "a", "draw")  # entry 7: a draws deck:0
    stages["drawn"] = game.read_text(encoding="utf-8")
    step("b", "play", str(game), "--as", "b", "pass")  # entry 8: b's share of deck:0
    step("c", "play", str(game), "--as", "c", "draw")  # entry 9: c's share; c draws deck:1
    stages["readable"] = game.read_text(encoding="utf-8")
    hand = json.loads(step("a", "show", str(game), "--as", "a", "--json").stdout)["hand"]
    drawn = hand["deck:0"]
    step("a", "play", str(game), "--as", "a", "play", drawn)  # entry 10: a's share shows it
    stages["played"] = game.read_text(encoding="utf-8")
    return Played(root, stages, drawn)


def packed_set(text: str, index: int, value: bytes) -> str:
    """A compact group's packed list with value ``index`` (of ``len(value)`` bytes) replaced."""
    data = bytearray(unb64(text))
    data[index * len(value) : (index + 1) * len(value)] = value
    return b64(bytes(data))


def forge(played: Played, stage: str, position: int, change: Callable[[dict[str, Any]], None]) -> list[str]:
    """The problems of entry ``position`` changed by ``change`` and signed again by its seat."""
    return forged_problems(played.data(stage), position, change, played.secret, memo)


# --- the protocol, as played -----------------------------------------------------------------------
def test_every_key_carries_its_proof_and_shuffles_ride_in_ordinary_entries(played: Played) -> None:
    entries = played.data("readable")["entry"]
    assert all("deck_key" in entry and "deck_key_proof" in entry for entry in entries[:3])
    carried = [(e["seq"], e["by"], e["kind"]) for e in entries if "shuffles" in e]
    assert carried == [(3, "a", "move"), (4, "b", "sync"), (6, "c", "move")]
    assert [set(e) - {"seq", "prev", "by", "at", "kind", "sig", "rand"} for e in entries[4:5]] == [
        {"shuffles"}
    ]
    assert [(e["seq"], e["by"]) for e in entries if "shares" in e] == [(8, "b"), (9, "c")]


def test_status_says_who_owes_a_shuffle_and_whose_draw_waits_on_shares(played: Played) -> None:
    joined = played.file("joined", "joined")
    waiting = json.loads(played.run("a", "status", str(joined), "--json").stdout)["waiting"]
    assert [(w["seat"], w["kind"]) for w in waiting] == [("a", "move"), ("a", "shuffle")]
    assert f"pbem sync {joined} --as a" in waiting[1]["command"]
    drawn = played.file("drawn", "drawn")
    waiting = json.loads(played.run("a", "status", str(drawn), "--json").stdout)["waiting"]
    shares = [(w["seat"], w["step"]) for w in waiting if w["kind"] == "share"]
    assert shares == [("b", "share of deck:0"), ("c", "share of deck:0")]
    assert "a's draw deck:0" in waiting[1]["prompt"]
    shown = played.run("a", "show", str(drawn), "--as", "a")
    assert "deck:0: not readable yet: waiting for the shares of b, c" in shown.stdout


def test_moves_at_a_roll_while_holding_cards_lists_the_roll(played: Played) -> None:
    """A seat whose key opens its hand, asked only for randomness, is offered ``roll`` (the
    hand filters card plays, never the engine's own answers)."""
    path = played.file("readable", "rolling")
    assert played.run("a", "play", str(path), "dice", "--as", "a").exit_code == 0
    for seat in ("a", "c"):  # a holds a readable card, c one that waits for a's share
        result = played.run(seat, "moves", str(path), "--as", seat)
        assert result.exit_code == 0, result.stderr
        assert result.stdout.split() == ["roll"]
        listed = json.loads(played.run(seat, "moves", str(path), "--as", seat, "--json").stdout)
        assert (listed["kind"], listed["moves"]) == ("contribute", ["roll"])


def test_moves_says_which_cards_wait_for_whose_shares(played: Played) -> None:
    """c holds deck:1, whose shares from a and b are not in yet: moves says why its plays are not
    listed."""
    path = played.file("readable", "waits")
    result = played.run("c", "moves", str(path), "--as", "c")
    assert result.exit_code == 0, result.stderr
    assert "deck:1 cannot be read yet, so its plays are not listed" in result.stderr
    assert "waiting for the shares of a, b" in result.stderr
    listed = json.loads(played.run("c", "moves", str(path), "--as", "c", "--json").stdout)
    assert listed["waiting_for_shares"] == {"deck:1": ["a", "b"]}
    assert not listed["moves"]


def test_a_share_owed_reads_right_after_the_seats_name(played: Played) -> None:
    """ "b must publish your decryption share" read wrong: the prompt names no person."""
    drawn = played.file("drawn", "owed")
    waiting = json.loads(played.run("a", "status", str(drawn), "--json").stdout)["waiting"]
    prompts = [item["prompt"] for item in waiting if item["kind"] == "share"]
    assert prompts == ["give a decryption share of a's draw deck:0"] * 2
    said = played.run("c", "moves", str(drawn), "--as", "c").stderr  # c has nothing else to do
    assert "c must give a decryption share of a's draw deck:0: pbem sync" in said


def test_sync_with_nothing_owed_is_refused(played: Played) -> None:
    result = played.run("c", "sync", str(played.file("readable", "nothing")), "--as", "c")
    assert result.exit_code == 1
    assert "c owes the hidden decks nothing now" in result.stderr


def test_only_the_drawer_reads_its_card(played: Played) -> None:
    path = played.file("readable", "hands")
    assert played.drawn in CARDS
    for seat in ("b", "c"):
        hand = json.loads(played.run(seat, "show", str(path), "--as", seat, "--json").stdout)["hand"]
        assert "deck:0" not in hand and played.drawn not in hand.values()
    # c holds deck:1 but a's share of it is not in yet: c cannot read it either
    hand_c = json.loads(played.run("c", "show", str(path), "--as", "c", "--json").stdout)["hand"]
    assert hand_c == {"deck:1": None}
    # Every share in the file and b's own secret still do not open a's card.
    table = ledger.read(played.data("readable"), memo).table
    assert table is not None and table.decks is not None
    deck = table.decks.decks[DECK]
    others = [share.value for share in deck.shares[0].values()]
    game = ledger.read(played.data("readable"), memo)
    group = table.decks.group
    secret_b = hidden_decks.secret_for(game.secret_seed("b", played.secret("b")), table.game_id, "b", group)
    with pytest.raises(GameFileError, match="not one of the deck's 6 cards"):
        hd.read_card(secret_b, deck.slots[0], others, len(CARDS), group=group)


def test_the_file_holds_no_card_until_it_is_played(played: Played) -> None:
    encodings = [
        NEW_GROUP.element_text(hd.encode_card(index, group=NEW_GROUP)) for index in range(len(CARDS))
    ]
    before = played.stages["readable"].encode("utf-8")
    for card, encoding in zip(CARDS, encodings, strict=True):
        assert card.encode("utf-8") not in before
        assert encoding.encode("ascii") not in before
    after = played.stages["played"]
    assert played.drawn in after  # the search does find a card that was played
    view = json.loads(played.run("b", "show", str(played.file("played", "after")), "--json").stdout)
    assert view["events"] == [f"a plays {played.drawn}"]


def test_the_whole_game_verifies(played: Played) -> None:
    result = played.run("b", "verify", str(played.file("played", "verify")))
    assert result.exit_code == 0, result.stderr
    assert "every hidden-deck proof checked" in result.stdout


# --- refusals ------------------------------------------------------------------------------------
def test_a_forged_share_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        table = entry["shares"][0]
        table["shares"] = packed_set(table["shares"], 0, NEW_GROUP.encode(NEW_GROUP.base_power(12345)))

    assert forge(played, "readable", 8, change) == [
        "entry 8 (by b): refused by the rules: decryption shares of seat b (deck:0): "
        "the proof does not verify"
    ]


def test_a_share_from_another_game_is_refused(played: Played) -> None:
    data = played.data("readable")
    rebuilt = ledger.audit(dict(data, entry=data["entry"][:8]), memo).ledger  # only the header is off
    assert rebuilt is not None
    table = rebuilt.table
    assert table is not None and table.decks is not None
    group = table.decks.group
    secret_b = hidden_decks.secret_for(
        rebuilt.secret_seed("b", played.secret("b")), table.game_id, "b", group
    )
    # b's true share of the same ciphertext, but made (and proven) for another game
    values, proof = hd.shares(
        secret_b,
        [hd.Place(DECK, 0, table.decks.decks[DECK].slots[0])],
        game_id="f" * 32,
        seat="b",
        group=group,
    )

    def change(entry: dict[str, Any]) -> None:
        entry["shares"][0]["shares"] = group.elements_text(values)
        entry["shares_proof"] = hd.proof_text(proof, group=group)

    assert forge(played, "readable", 8, change) == [
        "entry 8 (by b): refused by the rules: decryption shares of seat b (deck:0): "
        "the proof does not verify"
    ]


def test_a_share_nobody_owes_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["shares"][0]["slots"][0] = 3  # a card still in the deck

    assert forge(played, "readable", 8, change) == [
        "entry 8 (by b): refused by the rules: shares[0] slots[0]: b owes no share of deck:3 (a share is "
        "given only for a card another seat drew, or one dealt face up, once)"
    ]


def test_a_share_given_twice_in_one_entry_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        table = entry["shares"][0]
        table["slots"] = table["slots"] * 2
        table["shares"] = b64(unb64(table["shares"]) * 2)

    assert forge(played, "readable", 8, change) == [
        "entry 8 (by b): refused by the rules: shares[0] slots[1]: a second share of deck:0"
    ]


def test_slots_without_a_share_each_are_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["shares"][0]["slots"].append(1)

    assert forge(played, "readable", 8, change) == [
        "entry 8 (by b): refused by the rules: shares[0]: 1 shares for 2 slots"
    ]


def test_a_game_of_the_old_group_refuses_a_proof_for_all_its_shares() -> None:
    """Its shares each carry their own proof, so one for them all has no place there."""
    group = MODP_2048
    keys = {seat: hd.public_key(index + 2, group=group) for index, seat in enumerate(SEATS)}
    decks = hidden_decks.setup([DeckSpec(DECK, CARDS)], SEATS, keys, group)
    with pytest.raises(
        GameFileError, match="shares_proof: the shares of this game each carry their own proof"
    ):
        hidden_decks.take_owed(
            decks, decks, SEATS[0], {"shares_proof": "AA=="}, game_id="0" * 32, check=hidden_decks.check_now
        )


def test_a_wrong_card_claimed_on_play_is_refused(played: Played) -> None:
    other = next(card for card in CARDS if card != played.drawn)

    def change(entry: dict[str, Any]) -> None:
        entry["move"] = f"play {other}"
        entry["face_up"][0]["cards"][0] = other

    assert forge(played, "played", 10, change) == [
        f"entry 10 (by a): refused by the rules: face_up[0] slots[0]: a claims deck:0 is {other}, but the "
        "shares open it as another card"
    ]


@pytest.mark.parametrize(
    ("cheat", "message"),
    [
        ("drop", "shuffle of deck by seat b: 5 cards came out of 6"),
        ("duplicate", "shuffle of deck by seat b: the proof of shuffle does not verify"),
    ],
)
def test_a_shuffle_that_drops_or_duplicates_a_card_is_refused(
    played: Played, cheat: str, message: str
) -> None:
    def change(entry: dict[str, Any]) -> None:
        shuffle = entry["shuffles"][0]
        cards = unb64(shuffle["cards"])
        if cheat == "drop":
            shuffle["cards"] = b64(cards[:-64])
        else:
            shuffle["cards"] = packed_set(shuffle["cards"], 1, cards[:64])

    problems = forge(played, "readable", 4, change)
    assert len(problems) == 1 and problems[0].startswith(f"entry 4 (by b): refused by the rules: {message}")


def test_an_entry_that_leaves_out_an_owed_shuffle_is_refused(played: Played) -> None:
    assert forge(played, "readable", 3, lambda entry: entry.pop("shuffles")) == [
        "entry 3 (by a): refused by the rules: a owes its shuffle of the deck deck, and this entry does "
        "not carry it"
    ]


def test_a_deck_key_without_a_proof_of_its_secret_is_refused(played: Played) -> None:
    proof_of_a = played.data("joined")["entry"][0]["deck_key_proof"]
    problems = forge(played, "joined", 1, lambda entry: entry.update(deck_key_proof=proof_of_a))
    assert problems == ["entry 1 (by b): hidden-deck key of seat b: the proof of knowledge does not verify"]


# --- moving hidden cards ---------------------------------------------------------------------------
def test_a_card_goes_under_the_deck_re_masked_and_another_is_discarded_face_down(played: Played) -> None:
    path = played.file("readable", "moves")
    before = ledger.read(played.data("readable"), memo).table
    assert before is not None and before.decks is not None
    result = played.run("a", "play", str(path), "--as", "a", "bottom", "deck:0")
    assert result.exit_code == 0, result.stderr
    assert played.run("b", "play", str(path), "--as", "b", "pass").exit_code == 0  # b's share of deck:1
    result = played.run("c", "play", str(path), "--as", "c", "discard", "deck:1")
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    table = ledger.read(data, memo).table
    assert table is not None and table.decks is not None
    deck, old = table.decks.decks[DECK], before.decks.decks[DECK]
    assert deck.pile == [2, 3, 4, 5, 0] and deck.held == {} and deck.gone == {1}
    assert deck.slots[0] != old.slots[0] and 0 not in deck.shares  # fresh randomness, old shares void
    assert all(card not in path.read_text(encoding="utf-8") for card in CARDS)
    assert played.run("a", "verify", str(path)).exit_code == 0


# --- nobody picks the cards -------------------------------------------------------------------------
def test_no_single_seat_chooses_the_card_another_draws() -> None:
    """Whatever one seat does with its own shuffle, each other seat's seed still moves the card
    at the top: the top card is fixed only by every seat's seed together."""
    game_id = "0" * 32
    group = NEW_GROUP
    seeds = {seat: random.Random(seat).randbytes(32) for seat in SEATS}
    secrets = {seat: hd.derive_secret(seeds[seat], game_id, seat, group=group) for seat in SEATS}
    publics = {seat: hd.public_key(secret, group=group) for seat, secret in secrets.items()}
    decks = hidden_decks.setup([DeckSpec(DECK, CARDS)], SEATS, publics, group)

    def top(seeds: dict[str, bytes]) -> str:
        """The card at the top once every seat has shuffled: each shuffle's output i is its
        input at ``permutation[i]``, so follow position 0 back through the shuffles."""
        position = 0
        for seat in reversed(SEATS):
            how = sh.shuffle_secret(
                seeds[seat], len(CARDS), game_id=game_id, deck_id=DECK, seat=seat, group=group
            )
            position = how.permutation[position]
        return CARDS[position]

    base = {seat: bytes([index]) * 32 for index, seat in enumerate(SEATS)}
    # The prediction is what the encrypted deck really holds after the three shuffles.
    deck = decks.decks[DECK].slots
    for seat in SEATS:
        deck, _ = sh.shuffle(
            deck, decks.joint, base[seat], game_id=game_id, deck_id=DECK, seat=seat, group=group
        )
    opened = group.divide(deck[0].c2, group.power(deck[0].c1, sum(secrets.values())))
    assert CARDS[hd.decode_card(opened, len(CARDS), group=group)] == top(base)
    for seat in SEATS:
        outcomes = {top(base | {seat: bytes([100 + trial]) * 32}) for trial in range(12)}
        assert len(outcomes) >= 3, (seat, outcomes)


# --- the cache of checked proofs -------------------------------------------------------------------
def test_the_proof_cache_skips_only_what_passed_before_and_verify_ignores_it(tmp_path: Path) -> None:
    runs: list[str] = []
    key = f"{'0' * 32}:{'1' * 64}"

    def passing() -> None:
        runs.append("pass")

    def failing() -> None:
        runs.append("fail")
        raise GameFileError("does not verify")

    cache = ProofCache(tmp_path)
    cache(key, passing)
    cache.save()
    again = ProofCache(tmp_path)
    again(key, failing)  # a hit: not run
    with pytest.raises(GameFileError):
        again(f"{'0' * 32}:{'2' * 64}", failing)
    assert runs == ["pass", "fail"]
    again.save()
    assert (tmp_path / "checked-proofs" / ("0" * 32)).read_text(encoding="ascii") == "1" * 64 + "\n"
    full = ProofCache(tmp_path, consult=False)
    with pytest.raises(GameFileError):
        full(key, failing)  # verify's mode: everything is checked


def test_a_move_that_showed_a_card_cannot_be_undone(played: Played) -> None:
    """Undone, the card would go back into the hand while the file still shows it to all."""
    path = played.file("played", "undo")
    before = path.read_bytes()
    result = played.run("a", "undo", str(path), "--as", "a")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: entry 10 showed a hidden card (or put one back under the deck): everyone has seen it, "
        "so it cannot be undone\n"
    )
    assert path.read_bytes() == before


# --- the end of the game ---------------------------------------------------------------------------
def test_once_the_game_is_over_only_a_card_dealt_face_up_is_still_owed(played: Played) -> None:
    """b still owes its share of c's draw deck:1 when a ends the game, and the end deals deck:2
    face up. Nobody plays c's card now, so that share is owed no more, and an entry that carries
    it is refused; the face-up card still takes every seat's share and is shown. Then status says
    the game is over, with nobody asked for anything."""
    path = played.file("readable", "ending")
    assert played.run("a", "play", str(path), "--as", "a", "end").exit_code == 0
    status = json.loads(played.run("b", "status", str(path), "--json").stdout)
    asked = [(item["seat"], item["kind"], item["step"]) for item in status["waiting"]]
    assert asked == [(seat, "share", "share of deck:2") for seat in SEATS]
    assert status["over"] is True
    for seat in SEATS:
        result = played.run(seat, "sync", str(path), "--as", seat)
        assert result.exit_code == 0, result.stderr
    done = json.loads(played.run("b", "status", str(path), "--json").stdout)
    assert (done["waiting"], done["over"]) == ([], True)
    said = played.run("b", "status", str(path)).stdout
    assert "the game is over" in said and "nobody needs to act" not in said
    view = json.loads(played.run("b", "show", str(path), "--json").stdout)
    assert view["events"][-1].startswith("deck:2 dealt face up: ")
    refused = played.run("b", "sync", str(path), "--as", "b")
    assert refused.exit_code == 1 and "b owes the hidden decks nothing now" in refused.stderr
    assert played.run("c", "verify", str(path)).exit_code == 0

    played.stages["ended"] = path.read_text(encoding="utf-8")
    game = ledger.read(played.data("ended"), memo)
    assert game.table is not None and game.table.decks is not None
    ciphertext = game.table.decks.decks[DECK].slots[1]
    group = game.group
    secret = hidden_decks.secret_for(game.secret_seed("b", played.secret("b")), game.game_id, "b", group)
    share = hd.share(
        secret, ciphertext, game_id=game.game_id, deck_id=DECK, position=1, seat="b", group=group
    )
    late = {"deck": DECK, "slots": [1], "shares": group.elements_text([share.value])}
    position = len(game.entries) - 2  # b's sync, which carried its share of deck:2 only
    problems = forge(played, "ended", position, lambda entry: entry["shares"].append(late))
    assert len(problems) == 1 and "shares[1] slots[0]: b owes no share of deck:1" in problems[0]


# --- the group ------------------------------------------------------------------------------------
def test_a_new_game_names_the_curve_group_and_its_values_are_32_bytes(played: Played) -> None:
    entries = played.data("readable")["entry"]
    assert entries[0]["group"] == "edwards25519"
    assert all(len(entry["deck_key"]) == 44 and len(entry["deck_key_proof"]) == 88 for entry in entries[:3])
    shuffle = entries[4]["shuffles"][0]
    # each list packed in one text: six ciphertexts of two points; a six-card deck is one row of
    # the Bayer-Groth argument, so one commitment to the permutation
    assert len(unb64(shuffle["cards"])) == 6 * 64
    assert len(unb64(shuffle["commitments_a"])) == 32
    assert len(unb64(entries[8]["shares"][0]["shares"])) == 32


SMALL_ORDER = {
    "the identity": b64(bytes([1]) + bytes(31)),
    "of order 2": b64((2**255 - 20).to_bytes(32, "little")),
    "of order 4": b64(bytes(32)),
}
NOT_CANONICAL = b64((2**255 - 19 + 5).to_bytes(32, "little"))


@pytest.mark.parametrize("point", [*SMALL_ORDER, "non-canonical"])
@pytest.mark.parametrize(
    ("position", "field", "where"),
    [
        (1, lambda e: e, "deck_key"),
        (8, lambda e: e["shares"][0], "shares[0] shares[0]"),
        (4, lambda e: e["shuffles"][0], "shuffles[0] commitments_a[0]"),
        (4, lambda e: e["shuffles"][0], "shuffles[0] commitments_b[0]"),
    ],
    ids=["deck_key", "share", "commitment", "chain"],
)
def test_a_point_outside_the_prime_order_subgroup_is_refused_naming_the_entry_and_field(
    played: Played, point: str, position: int, field: Callable[[Any], Any], where: str
) -> None:
    bad = SMALL_ORDER.get(point, NOT_CANONICAL)

    def change(entry: dict[str, Any]) -> None:
        holder = field(entry)
        if "deck_key" in holder:
            holder["deck_key"] = bad
        elif "shares" in holder:
            holder["shares"] = packed_set(holder["shares"], 0, unb64(bad))
        else:
            name = where.split()[1].split("[", maxsplit=1)[0]
            holder[name] = packed_set(holder[name], 0, unb64(bad))

    problems = forge(played, "readable", position, change)
    assert len(problems) == 1
    assert where in problems[0]
    reason = "non-canonical" if point == "non-canonical" else "not a group element"
    assert reason in problems[0]


def test_a_ciphertext_with_a_small_order_half_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        shuffle = entry["shuffles"][0]
        card = unb64(shuffle["cards"])[3 * 64 : 4 * 64]
        shuffle["cards"] = packed_set(shuffle["cards"], 3, card[:32] + bytes(32))

    problems = forge(played, "readable", 4, change)
    assert len(problems) == 1
    assert "shuffles[0] cards[3] (second half): not a group element" in problems[0]


def test_a_scalar_not_below_the_group_order_is_refused(played: Played) -> None:
    def change(entry: dict[str, Any]) -> None:
        shuffle = entry["shuffles"][0]
        shuffle["svp_responses"] = packed_set(shuffle["svp_responses"], 0, L.to_bytes(32, "little"))

    problems = forge(played, "readable", 4, change)
    assert len(problems) == 1
    assert "shuffles[0] svp_responses[0]: not a scalar (not below the group order)" in problems[0]
