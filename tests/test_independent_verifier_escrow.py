"""The verifier written from docs/game-file.md alone checks the escrow of the deck secrets
(option escrow=others) as pbem does: the receiving keys, the dealings, the acknowledgements, a
complaint and its verdict, the partial decryptions that unlock a silent seat's share, and the
share they combine into, which opens the drawer's card when it is shown.

Three games are played through the command line with seeded keys and a fixed clock: one where c
goes silent after a has drawn and the others unlock c's share of a's card (a then shows it), one
where b complains of the share a sealed it, and one where a seat retired after one missed deadline
(option retire_after=1) has its shares unlocked and its reshuffle skipped with no more timeouts.
Forgeries of single entries, signed again by their seats, are refused by both verifiers, each
naming what is wrong.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.curve import EDWARDS25519 as CURVE
from pbem.crypto.encoding import b64, unb64
from pbem.engine import escrows, ledger
from tests import hidden_deck_game, independent_verifier
from tests.conftest import forget_seen_games, game_ids, make_key_homes, run_cli, seeded_keys
from tests.hidden_deck_game import CARDS

SEATS = ("a", "b", "c")
DECKS = {hidden_deck_game.DECK: list(CARDS)}
DAY1 = "2026-01-01T00:00:00Z"
DAY3 = "2026-01-03T00:00:00Z"  # c's deadlines (a day after its demands began) have passed


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


class Table:
    """Three seeded seats playing one game file under ``root``, each command at a fixed time."""

    def __init__(self, root: Path) -> None:
        make_key_homes(root, SEATS)
        self.root, self.game = root, root / "game.toml"
        self.stages: dict[str, str] = {}

    def run(self, seat: str, *args: str, at: str = DAY1) -> str:
        forget_seen_games(self.root)  # the forged copies fork from the game these homes played
        result = run_cli(self.root / seat, *args, env={"PBEM_NOW": at})
        assert result.exit_code == 0, result.stderr
        return result.stdout

    def step(self, seat: str, verb: str, *args: str, at: str = DAY1) -> None:
        self.run(seat, verb, str(self.game), *args, "--as", seat, at=at)

    def new(self, label: str, *options: str) -> None:
        with game_ids(label):
            self.run(
                "a", "new", str(self.game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS),
                "--as", "a", *(f"--option={option}" for option in options),
            )  # fmt: skip
        self.step("b", "join")
        self.step("c", "join")

    def data(self) -> dict[str, Any]:
        return tomllib.loads(self.game.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def unlocking(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """c goes silent once a has drawn deck:0; a claims the timeouts, a and b give their partials
    of c's share of it, and a shows the card, opened with the share they combine into."""
    table = Table(tmp_path_factory.mktemp("escrow-unlock"))
    # each claim stands in for one demand (what a genesis made before the option means), so each
    # position the verifier takes a partial of is one the file shows a timeout unlocked
    table.new("independent escrow unlock", "deadline_days=1", "escrow=others", "timeouts=demand")
    table.step("a", "play", "pass")  # a deals and shuffles
    table.step("b", "sync")  # b acknowledges a, deals, shuffles
    table.step("c", "sync")  # c acknowledges a and b, deals, shuffles
    table.step("b", "play", "pass")  # b acknowledges c
    table.step("c", "play", "pass")
    table.step("a", "play", "draw")  # a acknowledges b and c, draws deck:0
    table.step("b", "play", "pass")  # b's share of deck:0; c now says nothing
    table.step("a", "timeout", "c", at=DAY3)  # c's turn: the rules' default, a pass
    table.step("a", "timeout", "c", at=DAY3)  # c's share of deck:0: unlocked
    table.stages["unlocking"] = table.game.read_text(encoding="utf-8")
    table.step("a", "sync", at=DAY3)  # a's partial
    table.step("b", "sync", at=DAY3)  # b's partial: with K = 2, c's share
    hand = json.loads(table.run("a", "show", str(table.game), "--as", "a", "--json", at=DAY3))["hand"]
    table.step("a", "play", "play", hand["deck:0"], at=DAY3)  # opened with b's, c's and a's shares
    return table


@pytest.fixture(scope="module")
def unlocked(unlocking: Table) -> Path:
    return unlocking.game


@pytest.fixture(scope="module")
def complaint_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """Every seat has joined a game with escrow and a has dealt (entry 3)."""
    table = Table(tmp_path_factory.mktemp("escrow-complaint"))
    table.new("independent escrow complaint", "escrow=others")
    table.step("a", "play", "pass")
    return table


def signed_again(
    data: dict[str, Any], position: int, change: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """The game cut after entry ``position``, that entry changed and signed again by its seat, with
    the header made to match: only the change can be refused."""
    entries = data["entry"][: position + 1]
    entry = copy.deepcopy(entries[-1])
    change(entry)
    entry.pop("sig")
    entries[-1] = ledger.sign_entry(data["game"]["id"], entry, seeded_keys(entry["by"]))
    audit = ledger.audit({**data, "entry": entries})
    assert audit.ledger is not None
    header = dict(data["game"], entries=len(entries), head=audit.ledger.head)
    return {**data, "game": header, "entry": entries}


def written(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(
        gamefile.render_new(
            data["game"], data["roster"], data.get("components", {}), data["entry"], ["forged"]
        ),
        encoding="utf-8",
    )
    return path


def refusals(path: Path) -> tuple[list[str], list[str]]:
    """What this verifier and pbem each say of the file."""
    said = [
        str(problem) for problem in ledger.audit(tomllib.loads(path.read_text(encoding="utf-8"))).problems
    ]
    return independent_verifier.verify(path, DECKS).problems, said


def position_of(data: dict[str, Any], found: Callable[[dict[str, Any]], bool]) -> int:
    return next(index for index, entry in enumerate(data["entry"]) if found(entry))


# --- a silent seat unlocked -------------------------------------------------------------------
def test_it_accepts_a_game_whose_silent_seat_is_unlocked(unlocked: Path) -> None:
    ours, pbems = refusals(unlocked)
    assert ours == [] and pbems == []
    counts = independent_verifier.verify(unlocked, DECKS).counts
    assert {name: counts[name] for name in counts if "escrow" in name or "partial" in name} == {
        "escrow key": 3,
        "escrow dealing": 3,
        "escrow acknowledgement": 6,
        "partial decryption": 2,
    }
    # c's share, combined from a's and b's partials, opened a's card as the card a named
    assert counts["share unlocked"] == 1 and counts["card shown face up"] == 1


def test_the_combined_share_opens_the_card_and_no_other(unlocked: Path, tmp_path: Path) -> None:
    """The card a shows opens with the share combined for c: naming another card is refused, as
    it would be had c given its share itself."""
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))
    card = data["entry"][-1]["face_up"][0]["cards"][0]
    other = next(name for name in CARDS if name != card)
    lie = signed_again(data, len(data["entry"]) - 1, lambda e: e["face_up"][0].update(cards=[other]))
    ours, pbems = refusals(written(tmp_path / "lie.toml", lie))
    assert any(f"face_up[0] slots[0]: the slot holds {card}, not {other!r}" in problem for problem in ours), (
        ours
    )
    assert any("face_up[0] slots[0]" in problem for problem in pbems), pbems


def test_a_forged_partial_is_refused_for_its_proof(unlocked: Path, tmp_path: Path) -> None:
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))
    position = position_of(data, lambda entry: "escrow_partials" in entry)

    def forged(entry: dict[str, Any]) -> None:
        entry["escrow_partials"][0]["partials"] = CURVE.element_text(CURVE.base_power(12345))

    ours, pbems = refusals(written(tmp_path / "forged.toml", signed_again(data, position, forged)))
    assert ours == [
        f"entry {position} (by a, position {position}): escrow_partials[0]: the proof of a's partial "
        "decryptions for c does not verify"
    ]
    assert any(
        "partial decryptions by a for seat c" in problem and "does not verify" in problem for problem in pbems
    )


def test_a_partial_for_a_position_not_unlocked_is_refused(unlocked: Path, tmp_path: Path) -> None:
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))
    position = position_of(data, lambda entry: "escrow_partials" in entry)

    def another_slot(entry: dict[str, Any]) -> None:
        entry["escrow_partials"][0]["slots"] = [1]

    ours, pbems = refusals(written(tmp_path / "another.toml", signed_again(data, position, another_slot)))
    assert any(
        "no timeout unlocked c's share of deck:1, so a may give no partial of it" in p for p in ours
    ), ours
    assert any("a owes no partial decryption of c's share of deck:1" in problem for problem in pbems), pbems


def test_a_second_table_of_the_same_partials_is_refused_naming_the_entry(
    unlocking: Table, tmp_path: Path
) -> None:
    """A holder gives one partial of a position: a copy of its table beside the first is refused
    by pbem verify and by this verifier, naming the entry and the table."""
    data = tomllib.loads(unlocking.game.read_text(encoding="utf-8"))
    position = position_of(data, lambda entry: "escrow_partials" in entry)

    def doubled(entry: dict[str, Any]) -> None:
        entry["escrow_partials"].append(copy.deepcopy(entry["escrow_partials"][0]))

    path = written(tmp_path / "doubled.toml", signed_again(data, position, doubled))
    assert independent_verifier.verify(path, DECKS).problems == [
        f"entry {position} (by a, position {position}): escrow_partials[1]: a second partial of c's "
        "share of deck:0 by a"
    ]
    forget_seen_games(unlocking.root)
    verified = run_cli(unlocking.root / "a", "verify", str(path), env={"PBEM_NOW": DAY3})
    assert verified.exit_code == 3, verified.stdout
    assert f"entry {position}" in verified.stderr and (
        "escrow_partials[1]: a second partial decryption by a of c's share of deck:0" in verified.stderr
    ), verified.stderr


@pytest.mark.parametrize("shift", [0, 7], ids=["copied", "shifted"])
def test_a_dealing_sealed_with_another_dealers_point_is_refused_so_no_complaint_opens_its_share(
    unlocked: Path, tmp_path: Path, shift: int
) -> None:
    """The attack at the dealings: c seals b garbage with the point a sealed b's share of a's
    secret with, copied or shifted by a ``g^t`` c knows. b's honest complaint would publish what
    opens b's share of a's secret, which with c's own is a's secret. c cannot prove it knows the
    point's logarithm: the dealing is refused by both verifiers, so b never complains of it."""
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))
    game = ledger.read(data)
    assert game.table is not None and game.table.decks is not None and game.table.decks.escrow is not None
    escrow = game.table.decks.escrow
    given = escrow.sealed["a"]["b"]  # b is a's holder 1
    point = CURVE.multiply(given.ephemeral, CURVE.base_power(shift)) if shift else given.ephemeral
    receive = es.receive_secret(
        hd.deck_seed(game.secret_seed("b", seeded_keys("b"))), game.game_id, "b", group=CURVE
    )
    published = CURVE.power(point, receive)  # what b's complaint of c's share would publish
    opened = CURVE.divide(published, CURVE.power(escrow.receiving["b"], shift)) if shift else published
    leaked = es.unseal_with(
        given, opened, escrow.dealings["a"], escrow.receiving["b"], game_id=game.game_id, group=CURVE
    )
    es.check_escrow_share(escrow.dealings["a"], leaked, group=CURVE)  # b's share of a's secret
    position = position_of(data, lambda entry: entry["by"] == "c" and "escrow" in entry)
    a_dealing = data["entry"][position_of(data, lambda entry: entry["by"] == "a" and "escrow" in entry)]

    def sealed_with_a_point(entry: dict[str, Any]) -> None:
        dealing = entry["escrow"]
        ephemeral, masked = unb64(dealing["ephemeral"]), unb64(dealing["masked"])
        proofs = unb64(dealing["ephemeral_proofs"])
        dealing["ephemeral"] = b64(ephemeral[:32] + CURVE.encode(point))  # b is c's holder 2
        dealing["masked"] = b64(masked[:32] + CURVE.scalar_bytes(12345))
        dealing["ephemeral_proofs"] = b64(proofs[:64] + unb64(a_dealing["escrow"]["ephemeral_proofs"])[:64])

    ours, pbems = refusals(
        written(tmp_path / f"sealed-{shift}.toml", signed_again(data, position, sealed_with_a_point))
    )
    assert ours[0] == (
        f"entry {position} (by c, position {position}): escrow: the proof of knowledge of the ephemeral "
        "point sealing b's share does not verify"
    ), ours
    assert any(
        f"entry {position}" in problem
        and "escrow: the share of seat c's secret sealed to b: the proof of knowledge of its ephemeral point "
        "does not verify"
        in problem
        for problem in pbems
    ), pbems


def test_a_card_put_under_the_deck_ends_the_unlock_of_its_share(unlocking: Table, tmp_path: Path) -> None:
    """a puts deck:0 under the deck before b's partial: b's partial of the new ciphertext, its
    proof sound, is refused, since it would combine with a's of the old one into no share."""
    path = tmp_path / "bottom.toml"
    path.write_text(unlocking.stages["unlocking"], encoding="utf-8")
    unlocking.run("a", "play", str(path), "--as", "a", "bottom", "deck:0", at=DAY3)  # a's partial too
    unlocking.run("b", "play", str(path), "--as", "b", "pass", at=DAY3)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert independent_verifier.verify(path, DECKS).problems == []
    game = ledger.read(data)
    assert game.table is not None and game.table.decks is not None and game.table.decks.escrow is not None
    escrow, deck = game.table.decks.escrow, game.table.decks.decks[hidden_deck_game.DECK]
    receive = es.receive_secret(
        hd.deck_seed(game.secret_seed("b", seeded_keys("b"))), game.game_id, "b", group=CURVE
    )
    share = escrows.held_share(escrow, "c", "b", receive, game_id=game.game_id, group=CURVE)
    place = hd.Place(hidden_deck_game.DECK, 0, deck.slots[0])
    values, proof = es.partials(share, escrow.dealings["c"], [place], game_id=game.game_id, group=CURVE)
    given = {
        "seat": "c",
        "deck": hidden_deck_game.DECK,
        "slots": [0],
        "partials": CURVE.element_text(values[0]),
    }
    given["proof"] = hd.proof_text(proof, group=CURVE)
    position = len(data["entry"]) - 1
    forged = signed_again(data, position, lambda entry: entry.update(escrow_partials=[given]))
    ours, pbems = refusals(written(tmp_path / "late-partial.toml", forged))
    assert any(
        "no timeout unlocked c's share of deck:0, so b may give no partial of it" in p for p in ours
    ), ours
    assert any("b owes no partial decryption of c's share of deck:0" in problem for problem in pbems), pbems


def test_a_dealing_of_another_key_than_the_deck_key_is_refused(unlocked: Path, tmp_path: Path) -> None:
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))

    def other_key(entry: dict[str, Any]) -> None:
        raw = bytearray(unb64(entry["escrow"]["commitments"]))
        raw[:32] = CURVE.encode(CURVE.base_power(7))
        entry["escrow"]["commitments"] = b64(bytes(raw))

    ours, pbems = refusals(written(tmp_path / "other-key.toml", signed_again(data, 3, other_key)))
    assert ours == [
        "entry 3 (by a, position 3): escrow: the first commitment of a's dealing is not its deck key"
    ]
    assert any("the dealing is not of the seat's deck key" in problem for problem in pbems), pbems


def test_a_receiving_key_whose_proof_fails_is_refused(unlocked: Path, tmp_path: Path) -> None:
    data = tomllib.loads(unlocked.read_text(encoding="utf-8"))
    # the proof of b's deck key does not prove its receiving key: the contexts differ
    changed = signed_again(data, 1, lambda e: e.update(escrow_key_proof=e["deck_key_proof"]))
    ours, pbems = refusals(written(tmp_path / "key.toml", changed))
    assert "the proof of b's escrow receiving key does not verify" in ours[0], ours
    assert any("escrow_key of seat b: the proof of knowledge does not verify" in p for p in pbems), pbems


# --- a complaint --------------------------------------------------------------------------------
def with_complaint(table: Table, path: Path, *, sound_share: bool) -> Path:
    """b's answer to a's dealing, a complaint: of a share a sealed it wrong (a at fault), or of
    the share a sealed it right (b at fault)."""
    data = table.data()
    if sound_share:
        game = ledger.read(data)
        assert game.table is not None and game.table.decks is not None and game.table.decks.escrow is not None
        escrow = game.table.decks.escrow
        seed = hd.deck_seed(game.secret_seed("b", seeded_keys("b")))
        receive = es.receive_secret(seed, game.game_id, "b", group=CURVE)
        made = es.complain(
            escrow.sealed["a"]["b"], receive, escrow.dealings["a"], game_id=game.game_id, group=CURVE
        )
        written(path, data)
        table.run("b", "sync", str(path), "--as", "b")  # b acknowledges a, deals and shuffles
        after = tomllib.loads(path.read_text(encoding="utf-8"))

        def complain(entry: dict[str, Any]) -> None:
            entry.pop("escrow_acks")
            entry["escrow_complaint"] = {
                "dealer": "a",
                "opened": CURVE.element_text(made.opened),
                "proof": hd.proof_text(made.proof, group=CURVE),
            }

        return written(path, signed_again(after, 4, complain))

    def wrong_share_for_b(entry: dict[str, Any]) -> None:
        raw = bytearray(unb64(entry["escrow"]["masked"]))
        raw[:32] = ((int.from_bytes(raw[:32], "little") + 1) % CURVE.order).to_bytes(32, "little")
        entry["escrow"]["masked"] = b64(bytes(raw))

    written(path, signed_again(data, 3, wrong_share_for_b))
    table.run("b", "sync", str(path), "--as", "b")  # b unseals, checks and complains
    return path


@pytest.mark.parametrize(
    ("sound_share", "verdict", "pbems"),
    [
        (
            False,
            "a sealed b a share that does not match its commitments: a is at fault",
            "a dealt b an escrow share that does not match its commitments",
        ),
        (
            True,
            "b complained of a sound share: b is at fault",
            "b complained of a's escrow share, which the complaint itself shows is sound",
        ),
    ],
    ids=["dealer-at-fault", "complainer-at-fault"],
)
def test_a_complaint_is_checked_and_its_verdict_is_pbems(
    complaint_table: Table, tmp_path: Path, sound_share: bool, verdict: str, pbems: str
) -> None:
    path = with_complaint(complaint_table, tmp_path / "complaint.toml", sound_share=sound_share)
    assert "escrow_complaint" in tomllib.loads(path.read_text(encoding="utf-8"))["entry"][4]
    report = independent_verifier.verify(path, DECKS)
    assert report.ok, report.problems
    assert report.counts["escrow complaint"] == 1
    assert report.notes == [f"escrow complaint of b against a: {verdict}"]
    status = complaint_table.run("c", "status", str(path))
    assert pbems in status
    # nothing more can be played: a later move is refused with the verdict
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    move = {"seq": 5, "prev": data["game"]["head"], "by": "c", "at": DAY1, "kind": "move", "move": "pass"}
    move["rand"] = "00" * 32  # not c's next link either: refused for that too, as a problem of its own
    data["entry"].append(ledger.sign_entry(data["game"]["id"], move, seeded_keys("c")))
    data["game"] = dict(data["game"], entries=6)
    problems = independent_verifier.verify(written(tmp_path / "later.toml", data), DECKS).problems
    assert (
        f"entry 5 (by c, position 5): the game cannot go on after the escrow complaint: {verdict}" in problems
    )


def test_a_forged_complaint_proof_is_refused(complaint_table: Table, tmp_path: Path) -> None:
    path = with_complaint(complaint_table, tmp_path / "complaint.toml", sound_share=False)
    data = tomllib.loads(path.read_text(encoding="utf-8"))

    def forged(entry: dict[str, Any]) -> None:
        raw = bytearray(unb64(entry["escrow_complaint"]["proof"]))
        raw[0] ^= 1
        entry["escrow_complaint"]["proof"] = b64(bytes(raw))

    ours, pbems = refusals(written(tmp_path / "forged.toml", signed_again(data, 4, forged)))
    assert ours == [
        "entry 4 (by b, position 4): escrow_complaint: "
        "the proof of b's complaint against a's escrow does not verify"
    ]
    assert any("complaint of b against seat a's escrow: the proof does not verify" in p for p in pbems), pbems


def test_it_follows_a_silent_seats_skipped_reshuffle(tmp_path: Path) -> None:
    """c reshuffles no more: the timeout skips its turn, and the deck deals again, each share
    checked against the deck as a and b left it."""
    table = Table(tmp_path)
    table.new("independent escrow reshuffle", "deadline_days=1", "escrow=others")
    for seat, verb in (("a", "pass"), ("b", None), ("c", None), ("b", "pass"), ("c", "pass"), ("a", "draw")):
        table.step(seat, "sync") if verb is None else table.step(seat, "play", verb)
    table.step("b", "play", "pass")  # b's share of deck:0
    table.step("c", "sync")  # c's share of deck:0, then it goes silent
    table.step("c", "play", "reshuffle")
    table.step("a", "play", "pass")  # a's reshuffle rides along
    table.step("b", "play", "pass")  # b's too
    later = "2026-01-05T00:00:00Z"
    table.step("a", "timeout", "c", at=later)  # c's turn to move: a pass; absent, its reshuffle skipped
    table.step("a", "play", "draw", at=later)  # the deck deals again
    table.step("b", "play", "pass", at=later)  # b's share of the card a drew
    assert tomllib.loads(table.game.read_text(encoding="utf-8"))["entry"][-3]["kind"] == "timeout"
    ours, pbems = refusals(table.game)
    assert ours == [] and pbems == []
    assert independent_verifier.verify(table.game, DECKS).counts["shuffle"] == 5  # 3, then a's and b's


# --- a retired seat -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def retired(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """With retire_after=1, a goes silent once c has drawn deck:1: one timeout (its turn) and pbem
    plays it from then on. Its share of deck:1 is unlocked and its reshuffle skipped without a
    timeout; after the reshuffle b draws deck:2, whose share of a is unlocked the same way."""
    table = Table(tmp_path_factory.mktemp("escrow-retired"))
    table.new("independent escrow retired", "deadline_days=1", "escrow=others", "retire_after=1")
    for seat, verb in (("a", "pass"), ("b", None), ("c", None), ("b", "pass"), ("c", "pass"), ("a", "pass")):
        table.step(seat, "sync") if verb is None else table.step(seat, "play", verb)
    table.step("b", "play", "draw")  # deck:0, with a, b and c's escrow complete
    table.step("c", "play", "pass")  # c's share of deck:0
    table.step("a", "play", "pass")  # a's share of deck:0: a owes no share of it from here on
    table.step("b", "play", "pass")
    table.step("c", "play", "draw")  # deck:1; a now says nothing
    table.step("b", "timeout", "a", at=DAY3)  # a's turn: its one missed deadline, and a pass
    table.step("b", "play", "reshuffle", at=DAY3)  # b's partial of a's share of deck:1
    table.step("c", "play", "pass", at=DAY3)  # c's: with K = 2, a's share; a's turn passes by itself
    table.step("b", "play", "draw", at=DAY3)  # b's reshuffle, the first (a's skipped): it names the slots
    hand = json.loads(table.run("c", "show", str(table.game), "--as", "c", "--json", at=DAY3))["hand"]
    table.step("c", "play", "play", hand["deck:1"], at=DAY3)  # c's reshuffle; b draws deck:2
    table.step("b", "sync", at=DAY3)  # b's partial of a's share of its own card, before any share of it
    table.step("c", "sync", at=DAY3)  # c's share and partial
    hand = json.loads(table.run("b", "show", str(table.game), "--as", "b", "--json", at=DAY3))["hand"]
    table.step("b", "play", "play", hand["deck:2"], at=DAY3)  # opened with a's combined share
    return table.game


def test_it_follows_a_retired_seat_without_more_timeouts(retired: Path) -> None:
    ours, pbems = refusals(retired)
    assert ours == [] and pbems == []
    entries = tomllib.loads(retired.read_text(encoding="utf-8"))["entry"]
    assert [entry["step"] for entry in entries if entry["kind"] == "timeout"] == ["turn"]
    counts = independent_verifier.verify(retired, DECKS).counts
    # a's shares of deck:1 and deck:2, each from b's and c's partials, opened both cards as named
    assert counts["partial decryption"] == 4 and counts["share unlocked"] == 2
    assert counts["card shown face up"] == 2
    assert counts["shuffle"] == 5  # 3, then b's and c's reshuffles


def test_a_partial_for_a_share_the_retired_seat_gave_is_refused(retired: Path, tmp_path: Path) -> None:
    """a gave its share of deck:0 before it went silent: it owes none, retired or not."""
    data = tomllib.loads(retired.read_text(encoding="utf-8"))
    position = position_of(data, lambda entry: "escrow_partials" in entry)

    def given_slot(entry: dict[str, Any]) -> None:
        entry["escrow_partials"][0]["slots"] = [0]

    ours, pbems = refusals(written(tmp_path / "given.toml", signed_again(data, position, given_slot)))
    assert ours == [
        f"entry {position} (by b, position {position}): escrow_partials[0]: a is retired, but it gave "
        "its share of deck:0, so b may give no partial of it"
    ]
    assert any("b owes no partial decryption of a's share of deck:0" in problem for problem in pbems), pbems


def test_a_partial_in_the_entry_that_retires_the_seat_is_refused(retired: Path, tmp_path: Path) -> None:
    """pbem stands in for a seat once the timeout that retires it is applied: the same partial,
    carried by the timeout entry itself, comes too early."""
    data = tomllib.loads(retired.read_text(encoding="utf-8"))
    position = position_of(data, lambda entry: entry["kind"] == "timeout")
    partials = data["entry"][position + 1]["escrow_partials"]
    assert data["entry"][position + 1]["by"] == data["entry"][position]["by"] == "b"

    def early(entry: dict[str, Any]) -> None:
        entry["escrow_partials"] = partials

    ours, pbems = refusals(written(tmp_path / "early.toml", signed_again(data, position, early)))
    assert ours == [
        f"entry {position} (by b, position {position}): escrow_partials[0]: 'a' is not a seat being unlocked"
    ]
    assert any("escrow_partials[0]: 'a' is not a seat being unlocked" in problem for problem in pbems), pbems
