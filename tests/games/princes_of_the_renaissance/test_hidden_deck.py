"""Princes of the Renaissance's Treachery deck is a hidden deck: one three-player game through the
command line, as players would play it by email, up to the point where every player has bought
cards, Bentivogli has kept one of two and put the other under the deck, and a card has been
played face up. Only the holder of a card can read it until it is played.

A 25-card proof of shuffle takes a couple of seconds in pure Python, so the game is played once
per module and its file kept at each stage.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem.keys import KeyStore
from tests.conftest import forget_seen_games, game_ids, make_key_homes, potr_components, run_cli
from tests.hidden_deck_game import element_forms
from tests.tamper import forged_problems

SEATS = ("a", "b", "c")
FAMILIES = {"a": "bentivoglio", "b": "gonzaga", "c": "montefeltro"}
BIDS = {"a": 2, "b": 1, "c": 0}  # a bids most, so a is first in turn order and picks first
CARDS = [card for card in potr_components("2016")["treachery"] for _ in range(card["copies"])]
NAMES = {card["id"]: card["name"] for card in CARDS}


def invoke(root: Path, seat: str, *args: str) -> Result:
    # A fixed clock: the game id is a hash of the genesis entry, its time included, and every
    # shuffle and card dealt follows from it, so with the real clock each second dealt another game.
    return run_cli(root / seat, *args, env={"PBEM_NOW": "2026-11-02T18:00:00Z"})


@dataclass
class Played:
    root: Path
    game: Path
    stages: dict[str, str] = field(default_factory=dict)
    kept: str = ""  # Bentivogli's card kept, and the one under the deck
    bottomed: str = ""
    keep_notes: dict[str, str] = field(default_factory=dict)  # pbem moves --json's notes then
    keep_hand: dict[str, str | None] = field(default_factory=dict)  # Bentivogli's hand then
    shown: str = ""  # the card played face up

    def run(self, seat: str, *args: str) -> Result:
        return invoke(self.root, seat, *args)

    def ok(self, seat: str, *args: str) -> Result:
        result = self.run(seat, *args)
        assert result.exit_code == 0, (args, result.stderr)
        return result

    def json(self, seat: str, *args: str) -> Any:
        return json.loads(self.ok(seat, *args, "--json").stdout)

    def hand(self, seat: str) -> dict[str, str | None]:
        hand: dict[str, str | None] = self.json(seat, "show", str(self.game), "--as", seat)["hand"]
        return hand


def choose(played: Played, seat: str, phase: str, moves: list[str]) -> str:
    """Reaches every stage by construction, whatever the shuffles dealt: distinct bids, the chosen
    families, then every player buys a card at every turn (a card over the hand limit is
    discarded face down, never a stealing card) until everyone holds one and somebody can play a
    stealing card, which it plays. Six of the 25 cards steal, and the deck runs out before the
    players' influence does, so one is always drawn."""
    if phase == "turn-order bid":
        return f"bid {BIDS[seat]}"
    if phase == "family bidding":
        return "pass"
    if phase == "family choice":
        return f"family {FAMILIES[seat]}"
    keeps = [move for move in moves if move.startswith("keep ")]
    if keeps:
        if not played.kept:
            played.kept, played.bottomed = keeps[0].split()[1], keeps[1].split()[1]
        return keeps[0]
    discards = [move for move in moves if move.startswith("discard treachery:")]
    if discards:
        hand = played.hand(seat)
        plain = [move for move in discards if not str(hand.get(move.split()[1])).startswith("steal-")]
        return (plain or discards)[0]
    steals = [move for move in moves if move.startswith("play steal-")]
    if steals and not played.shown and "bought" in played.stages:  # once everyone holds a card
        return steals[0]
    if "buy card" in moves and not played.shown:
        return "buy card"
    return "pass"


def step(played: Played) -> None:
    """One entry by whoever the status names first: what it owes the deck rides with its move."""
    status = played.json("a", "status", str(played.game))
    first = status["waiting"][0]
    # A seat whose cards wait for shares cannot choose among them yet (status says whose): the
    # seats that owe those shares send them first, as players would.
    waits = (
        {seat for seats in first["waiting_for_shares"].values() for seat in seats}
        if first["kind"] == "move"
        else set()
    )
    seat = min(waits) if waits else first["seat"]
    asked = [item for item in status["waiting"] if item["seat"] == seat]
    wanted = next((item for item in asked if item["kind"] not in ("shuffle", "share")), asked[0])
    path = str(played.game)
    if wanted["kind"] in ("shuffle", "share"):
        played.ok(seat, "sync", path, "--as", seat)
    elif wanted["kind"] == "contribute":
        played.ok(seat, "play", path, "roll", "--as", seat)
    elif wanted["kind"] == "reveal":
        played.ok(seat, "reveal", path, "--as", seat)
    else:
        listed = played.json(seat, "moves", path, "--as", seat)
        moves = listed["moves"]
        if any(move.startswith("keep ") for move in moves) and not played.keep_notes:
            played.keep_notes, played.keep_hand = listed["notes"], played.hand(seat)
        text = choose(played, seat, status["phase"], moves)
        before = played.game.read_text(encoding="utf-8")
        played.ok(seat, "play", path, text, "--as", seat)
        if text.startswith("play steal-"):
            played.shown = text.split()[1]
            played.stages["before play"] = before


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("potr-hidden")
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    result = Played(root, game)
    # Seeded keys and a fixed game id make this the same game on every run (see conftest): the
    # cards drawn below, and so the stages reached, do not depend on chance.
    with game_ids("potr hidden deck"):
        result.ok("a", "new", str(game), "--game", "potr", "--players", ",".join(SEATS), "--as", "a")
    for seat in SEATS[1:]:
        result.ok(seat, "join", str(game), "--as", seat)
    for _ in range(400):
        view = result.json("a", "show", str(game))
        holding = [view["players"][seat].get("treachery_cards", 0) for seat in SEATS]
        if all(holding) and result.kept and "bought" not in result.stages:
            result.stages["bought"] = game.read_text(encoding="utf-8")
        if result.shown and "bought" in result.stages:
            break
        step(result)
    else:
        pytest.fail("the seeded game no longer reaches every stage: choose another game id label")
    result.stages["played"] = game.read_text(encoding="utf-8")
    return result


def outside_components(text: str) -> str:
    """The file without the genesis's component data, which lists every card of the template."""
    start, end = text.index("[components."), text.index("[[entry]]")
    return text[:start] + text[end:]


def encodings(card: str) -> list[str]:
    """Every way the file could carry a card in clear: its id, its name, and the group element of
    each copy (``encode_card``) as base64, hex and decimal."""
    found = [card, NAMES[card]]
    for index, other in enumerate(CARDS):
        if other["id"] == card:
            found += element_forms(index)
    return found


def occurs(text: str, needle: str) -> bool:
    """Found as a word: base64 text (letters, digits, + and /) never hides a match by chance."""
    return re.search(rf"(?<![A-Za-z0-9+/=]){re.escape(needle)}(?![A-Za-z0-9+/=])", text) is not None


def test_the_file_never_carries_a_card_held_face_down(played: Played) -> None:
    for stage in ("bought", "played"):
        text = outside_components(played.stages[stage])
        data = tomllib.loads(played.stages[stage])
        shown = {
            card for entry in data["entry"] for item in entry.get("face_up", []) for card in item["cards"]
        }
        held = {card for seat in SEATS for card in played.hand(seat).values() if card}
        hidden = held - shown
        assert hidden, "some card is still face down"
        for card in hidden:
            for form in encodings(card):
                assert not occurs(text, form), (stage, card, form[:40])


def test_only_the_holder_reads_its_hand(played: Played) -> None:
    path = str(played.game)
    holders = [seat for seat in SEATS if played.hand(seat)]
    assert len(holders) >= 2
    for seat in holders:
        hand = played.hand(seat)
        # a card whose shares are not all in yet is not readable, even by its holder
        assert all(card in NAMES or card is None for card in hand.values())
        own = played.ok(seat, "show", path, "--as", seat).stdout
        for token, card in hand.items():
            shown = card if card is not None else "not readable yet: waiting for the shares of"
            assert f"your hidden card {token}: {shown}" in own
        for other in SEATS:
            if other != seat:
                view = played.json(other, "show", path, "--as", other)
                assert set(view["hand"]).isdisjoint(hand), "another seat's show lists no card of this hand"
        public = played.json(seat, "show", path)
        assert "hand" not in public
        assert public["players"][seat]["treachery_cards"] == len(hand)
        assert "not hidden" not in played.ok(seat, "show", path).stdout


def test_bentivogli_keeps_one_card_and_the_other_goes_under_the_deck_re_masked(played: Played) -> None:
    data = tomllib.loads(played.stages["played"])
    keep = next(entry for entry in data["entry"] if entry.get("move", "").startswith("keep "))
    assert keep["move"] == f"keep {played.kept}"
    (remask,) = keep["remask"]
    assert f"treachery:{remask['slot']}" == played.bottomed
    assert played.kept in played.hand("a") or played.shown
    assert played.bottomed not in played.hand("a")


def test_moves_names_the_card_behind_each_token_for_its_holder(played: Played) -> None:
    """Bentivogli's ``keep TOKEN`` choices, as ``pbem moves --as`` lists them to their holder, say
    which card each token is; nobody else's moves name a card."""
    keeps = {move: note for move, note in played.keep_notes.items() if move.startswith("keep ")}
    assert len(keeps) == 2
    for move, note in keeps.items():
        token = move.split()[1]
        assert note == played.keep_hand[token] and note in NAMES


def test_a_card_played_face_up_is_proven_and_one_not_held_is_refused(played: Played) -> None:
    data = tomllib.loads(played.stages["played"])
    plays = [entry for entry in data["entry"] if "face_up" in entry]
    assert [entry["face_up"][0]["cards"] for entry in plays] == [[played.shown]]
    # A card the player does not hold cannot be shown: refused before anything is written.
    before = played.root / "before.toml"
    before.write_text(played.stages["before play"], encoding="utf-8")
    seat = plays[0]["by"]
    texts = {
        "veto": "play veto",
        "start-war": "play start-war venice milan",
        "bribe-troops": "play bribe-troops b infantry",
    }
    missing = next(card for card in texts if card not in played.hand(seat).values())
    forget_seen_games(played.root)  # an earlier copy, which the homes would (rightly) call behind
    refused = played.run(seat, "play", str(before), texts[missing], "--as", seat)
    assert refused.exit_code != 0 and f"holds no {missing}" in refused.stderr, refused.stderr
    # A forged claim: the same slot shown as another card, signed again by its seat. Replay opens
    # the slot with every share and refuses the entry, naming it.
    index = data["entry"].index(plays[0])
    other_card = "steal-gold-shipment" if played.shown == "steal-influence" else "steal-influence"

    def claimed_as_another(entry: dict[str, Any]) -> None:
        entry["move"] = entry["move"].replace(played.shown, other_card)
        entry["face_up"][0]["cards"] = [other_card]

    problems = forged_problems(
        data,
        index,
        claimed_as_another,
        lambda seat: KeyStore(played.root / seat).secret(seat, lambda prompt: None),
    )
    assert any(
        f"entry {plays[0]['seq']} (by {seat})" in problem and "shares open it as another card" in problem
        for problem in problems
    ), problems


def test_verify_checks_every_card_drawn_and_played(played: Played) -> None:
    result = played.ok("a", "verify", str(played.game))
    assert "every hidden-deck proof checked" in result.stdout
