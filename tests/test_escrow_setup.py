"""The escrow of the seats' deck secrets at set-up, through the command line (option escrow=others).

A three-seat game of the engine's test game is played once per module: each seat deals its deck
secret to the other two, each acknowledges the dealings it holds a share of, and only then does
the deck deal. Refusals are forged from its stages by re-signing one entry with its seat's key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem import gamefile
from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.curve import EDWARDS25519 as CURVE
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger
from pbem.keys import KeyStore
from tests import hidden_deck_game
from tests.conftest import forget_seen_games, game_ids, make_key_homes, run_cli
from tests.hidden_deck_game import DECK
from tests.tamper import signed_again

SEATS = ("a", "b", "c")


@dataclass
class Played:
    root: Path
    stages: dict[str, str]

    def run(self, seat: str, *args: str) -> Result:
        return run_cli(self.root / seat, *args)

    def data(self, stage: str) -> dict[str, Any]:
        return tomllib.loads(self.stages[stage])

    def secret(self, seat: str) -> SecretKeys:
        return KeyStore(self.root / seat).secret(seat, lambda prompt: None)

    def file(self, text: str, name: str) -> Path:
        path = self.root / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        forget_seen_games(self.root)
        return path


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("escrow")
    make_key_homes(root, SEATS)
    game = root / "game.toml"
    stages: dict[str, str] = {}

    def step(seat: str, *args: str) -> None:
        result = run_cli(root / seat, *args)
        assert result.exit_code == 0, result.stderr
        stages[f"{len(stages)}"] = game.read_text(encoding="utf-8")

    with game_ids("escrow setup"):
        step(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            "--option", "escrow=others",
        )  # fmt: skip
    step("b", "join", str(game), "--as", "b")
    step("c", "join", str(game), "--as", "c")
    stages["joined"] = game.read_text(encoding="utf-8")
    step("a", "play", str(game), "--as", "a", "pass")  # entry 3: a deals and shuffles
    stages["a dealt"] = game.read_text(encoding="utf-8")
    step("b", "sync", str(game), "--as", "b")  # entry 4: b acknowledges a, deals, shuffles
    step("c", "sync", str(game), "--as", "c")  # entry 5: c acknowledges a and b, deals, shuffles
    stages["all dealt"] = game.read_text(encoding="utf-8")
    step("b", "play", str(game), "--as", "b", "pass")  # entry 6: b acknowledges c
    step("c", "play", str(game), "--as", "c", "pass")  # entry 7
    stages["a owes"] = game.read_text(encoding="utf-8")
    step("a", "play", str(game), "--as", "a", "draw")  # entry 8: a acknowledges b and c; draws
    stages["drawn"] = game.read_text(encoding="utf-8")
    return Played(root, stages)


def entries(played: Played, stage: str) -> list[dict[str, Any]]:
    entry_list: list[dict[str, Any]] = played.data(stage)["entry"]
    return entry_list


def resigned(played: Played, stage: str, position: int, change: Callable[[dict[str, Any]], None]) -> str:
    """The game at ``stage`` cut after entry ``position``, that entry changed and signed again."""
    data = played.data(stage)
    forged = signed_again(data, position, change, played.secret)
    game = ledger.audit(forged).ledger
    assert game is not None
    return gamefile.render_new(game.header(), data["roster"], data.get("components", {}), forged["entry"], ())


def problems(text: str, position: int) -> list[str]:
    return [
        str(problem) for problem in ledger.audit(tomllib.loads(text)).problems if problem.position == position
    ]


# --- the set-up, as played ------------------------------------------------------------------------
def test_every_seat_publishes_a_receiving_key_and_deals_its_deck_secret(played: Played) -> None:
    found = entries(played, "all dealt")
    assert all("escrow_key" in entry and "escrow_key_proof" in entry for entry in found[:3])
    game = ledger.read(played.data("all dealt"))
    assert game.table is not None and game.table.decks is not None
    escrow = game.table.decks.escrow
    assert escrow is not None and escrow.threshold == 2
    for dealer in SEATS:
        dealing = escrow.dealings[dealer]
        # the escrow is of the very key the deck is encrypted under
        assert dealing.commitments[0] == game.table.decks.keys[dealer]
        assert dealing.holders == tuple(seat for seat in SEATS if seat != dealer)
    # what the file says of a share is not the share
    assert all(str(each.masked) not in played.stages["all dealt"] for each in escrow.sealed["a"].values())


def test_each_holder_unseals_a_share_that_matches_the_dealing(played: Played) -> None:
    game = ledger.read(played.data("all dealt"))
    assert game.table is not None and game.table.decks is not None
    escrow = game.table.decks.escrow
    assert escrow is not None
    for dealer in SEATS:
        for holder in escrow.dealings[dealer].holders:
            seed = hd.deck_seed(game.secret_seed(holder, played.secret(holder)))
            receive = es.receive_secret(seed, game.game_id, holder, group=game.group)
            share = es.unseal(
                escrow.sealed[dealer][holder],
                receive,
                escrow.dealings[dealer],
                game_id=game.game_id,
                group=CURVE,
            )
            es.check_escrow_share(escrow.dealings[dealer], share, group=CURVE)


def test_each_holder_acknowledges_every_dealing_in_its_next_entry(played: Played) -> None:
    found = entries(played, "drawn")
    assert found[3].get("escrow") and "escrow_acks" not in found[3]
    assert found[4]["escrow_acks"] == ["a"] and found[4].get("escrow")
    assert found[5]["escrow_acks"] == ["a", "b"]
    assert found[6]["escrow_acks"] == ["c"]
    assert found[8]["escrow_acks"] == ["b", "c"]


def test_no_card_is_dealt_until_every_dealing_is_acknowledged(played: Played) -> None:
    waiting = ledger.read(played.data("a owes"))
    assert waiting.table is not None and waiting.table.decks is not None
    deck = waiting.table.decks.decks[DECK]
    assert waiting.table.decks.shuffled(deck) and not waiting.table.decks.ready(deck)
    status = played.run("a", "status", str(played.file(played.stages["a owes"], "owes")))
    assert "acknowledge b's escrow dealing" in status.stdout
    drawn = ledger.read(played.data("drawn"))
    assert drawn.table is not None and drawn.table.decks is not None
    assert drawn.table.decks.decks[DECK].held == {0: "a"}
    assert played.run("a", "verify", str(played.file(played.stages["drawn"], "drawn"))).exit_code == 0


# --- refusals -------------------------------------------------------------------------------------
def test_a_dealing_of_another_key_than_the_deck_key_is_refused(played: Played) -> None:
    def other_key(entry: dict[str, Any]) -> None:
        data = bytearray(unb64(entry["escrow"]["commitments"]))
        data[:32] = CURVE.encode(CURVE.base_power(7))
        entry["escrow"]["commitments"] = b64(bytes(data))

    found = problems(resigned(played, "a dealt", 3, other_key), 3)
    assert any("not of the seat's deck key" in problem for problem in found), found


def test_a_dealing_with_too_few_commitments_or_shares_is_refused(played: Played) -> None:
    def short(entry: dict[str, Any]) -> None:
        entry["escrow"]["masked"] = b64(unb64(entry["escrow"]["masked"])[:32])

    found = problems(resigned(played, "a dealt", 3, short), 3)
    assert any("a sealed share for each of the 2 other seats" in problem for problem in found), found


def test_an_entry_that_leaves_out_an_acknowledgement_is_refused(played: Played) -> None:
    found = problems(resigned(played, "all dealt", 4, lambda entry: entry.pop("escrow_acks")), 4)
    assert any("owes its acknowledgement of a's escrow dealing" in problem for problem in found), found


def test_an_entry_that_leaves_out_its_dealing_is_refused(played: Played) -> None:
    found = problems(resigned(played, "a dealt", 3, lambda entry: entry.pop("escrow")), 3)
    assert any("owes its escrow dealing" in problem for problem in found), found


def test_escrow_fields_in_a_game_without_escrow_are_refused(played: Played) -> None:
    def no_escrow(entry: dict[str, Any]) -> None:
        entry["options"]["escrow"] = "none"

    # the genesis changes, so its id no longer matches: the receiving key is refused all the same
    found = problems(resigned(played, "a dealt", 0, no_escrow), 0)
    assert any("escrow_key: this game keeps no escrow" in problem for problem in found), found


# --- complaints ------------------------------------------------------------------------------------
def bad_share_for(holder_index: int) -> Callable[[dict[str, Any]], None]:
    def change(entry: dict[str, Any]) -> None:
        data = bytearray(unb64(entry["escrow"]["masked"]))
        piece = slice(32 * holder_index, 32 * (holder_index + 1))
        value = (int.from_bytes(data[piece], "little") + 1) % CURVE.order
        data[piece] = value.to_bytes(32, "little")
        entry["escrow"]["masked"] = b64(bytes(data))

    return change


def test_a_holder_complains_of_a_bad_share_and_the_file_convicts_the_dealer(played: Played) -> None:
    forged = played.file(resigned(played, "a dealt", 3, bad_share_for(0)), "bad-share")  # b's share
    result = played.run("b", "sync", str(forged), "--as", "b")
    assert result.exit_code == 0, result.stderr
    complaint = tomllib.loads(forged.read_text(encoding="utf-8"))["entry"][4]
    assert complaint["escrow_complaint"]["dealer"] == "a" and "escrow_acks" not in complaint
    status = played.run("c", "status", str(forged))
    assert "a dealt b an escrow share that does not match its commitments" in status.stdout
    refused = played.run("c", "sync", str(forged), "--as", "c")
    assert refused.exit_code != 0 and "the game cannot go on" in refused.stderr
    assert played.run("c", "verify", str(forged)).exit_code == 0  # the complaint is sound evidence


def test_a_complaint_about_a_sound_share_convicts_the_complainer(played: Played) -> None:
    game = ledger.read(played.data("all dealt"))
    assert game.table is not None and game.table.decks is not None and game.table.decks.escrow is not None
    escrow = game.table.decks.escrow
    seed = hd.deck_seed(game.secret_seed("b", played.secret("b")))
    receive = es.receive_secret(seed, game.game_id, "b", group=CURVE)
    complaint = es.complain(
        escrow.sealed["a"]["b"], receive, escrow.dealings["a"], game_id=game.game_id, group=CURVE
    )

    def complain(entry: dict[str, Any]) -> None:
        entry.pop("escrow_acks")
        entry["escrow_complaint"] = {
            "dealer": "a",
            "opened": CURVE.element_text(complaint.opened),
            "proof": hd.proof_text(complaint.proof, group=CURVE),
        }

    text = resigned(played, "all dealt", 4, complain)
    assert problems(text, 4) == []
    status = played.run("a", "status", str(played.file(text, "false-complaint")))
    assert "b complained of a's escrow share, which the complaint itself shows is sound" in status.stdout


def test_a_complaint_whose_proof_fails_is_refused(played: Played) -> None:
    def made_up(entry: dict[str, Any]) -> None:
        entry.pop("escrow_acks")
        entry["escrow_complaint"] = {
            "dealer": "a",
            "opened": CURVE.element_text(CURVE.base_power(99)),
            "proof": hd.proof_text(hd.Proof(1, 2), group=CURVE),
        }

    found = problems(resigned(played, "all dealt", 4, made_up), 4)
    assert any("the proof does not verify" in problem for problem in found), found


# --- options --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        ("a,b", ["escrow=others"], "needs 3 or more players"),
        ("a,b,c", ["escrow=others", "escrow_threshold=1"], "must be from 2 to 2"),
        ("a,b,c,d", ["escrow=others", "escrow_threshold=4"], "must be from 2 to 3"),
        ("a,b,c", ["escrow_threshold=2"], "escrow_threshold needs escrow=others"),
    ],
)
def test_escrow_options_that_cannot_work_are_refused_at_new(
    tmp_path: Path, players: str, options: list[str], message: str
) -> None:
    make_key_homes(tmp_path, ("a",))
    args = [f"--option={option}" for option in options]
    game = str(tmp_path / "g.toml")
    result = run_cli(
        tmp_path / "a", "new", game, "--game", hidden_deck_game.NAME, "--players", players, "--as", "a", *args
    )
    assert result.exit_code == 2 and message in result.stderr
    assert not (tmp_path / "g.toml").exists()
