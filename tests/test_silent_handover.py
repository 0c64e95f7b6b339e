"""A silent player's seat handed on by the others: one remaining seat proposes a new player, every
other remaining seat consents, the new player takes the seat with a key and a randomness chain of
its own, and the escrow's holders seal it the seat's secret (never published), from which it
rebuilds the seat's deck secret, reads the seat's hand and plays on.

Three seats play the engine's test game with escrow and a one-day deadline; c draws a card, then
answers nothing; d takes c's seat. The clock is set per command (``PBEM_NOW``).
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from pbem import gamefile
from pbem.engine import escrows, ledger
from tests import hidden_deck_game
from tests.conftest import forget_seen_games, game_ids, make_key_homes
from tests.stages import Played

SEATS = ("a", "b", "c")
NEW = "d"
DAY1 = "2026-01-01T00:00:00Z"
DAY3 = "2026-01-03T00:00:00Z"  # c's deadline has passed


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("silent-handover")
    make_key_homes(root, (*SEATS, NEW))
    played = Played(root, DAY3)
    game = str(played.game)
    exported = root / "d.id"
    exported.write_text(played.step(NEW, "key", "export", NEW).stdout, encoding="utf-8")
    with game_ids("silent handover"):
        played.step(
            "a", "new", game, "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            "--option", "escrow=others", "--option", "deadline_days=1", at=DAY1,
        )  # fmt: skip
    played.step("b", "join", game, "--as", "b", at=DAY1)
    played.step("c", "join", game, "--as", "c", at=DAY1)
    for seat, verb in (
        ("a", "pass"), ("b", None), ("c", None), ("b", "pass"), ("c", "pass"),
        ("a", "draw"), ("b", "pass"), ("c", "draw"), ("a", "pass"), ("b", "pass"),
    ):  # fmt: skip
        args = ("sync", game, "--as", seat) if verb is None else ("play", game, "--as", seat, verb)
        played.step(seat, *args, at=DAY1)
    played.keep("c holds a card")
    played.step("a", "timeout", game, "c", "--as", "a")  # c's turn: the default, a pass
    played.keep("c silent")
    played.stages["proposal refused"] = played.run(
        "a", "handover", game, "--as", "a", "--to", NEW, str(exported), "--silent", "b"
    ).stderr
    played.step("a", "handover", game, "--as", "a", "--to", NEW, str(exported), "--silent", "c")
    played.keep("proposed")
    played.stages["proposed status"] = played.step("b", "status", game).stdout
    played.step("b", "consent", game, "--as", "b")
    played.keep("handed on")
    played.stages["handed status"] = played.step("b", "status", game).stdout
    played.step(NEW, "join", game, "--as", "c", "--key", NEW)
    played.keep("rejoined")
    played.stages["rejoined status"] = played.step("a", "status", game).stdout
    played.step("a", "sync", game, "--as", "a")  # a's share of c's secret, sealed to d
    played.keep("one reshare")
    played.step("b", "sync", game, "--as", "b")  # b's: with two, d rebuilds c's secret
    played.keep("reshared")
    return played


def entries(played: Played, stage: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads(played.stages[stage])["entry"]
    return found


def replayed(data: dict[str, Any]) -> ledger.Ledger:
    """The game the entries make, whatever the (unsigned) header copied from before says."""
    result = ledger.audit(data)
    assert result.ledger is not None
    assert all("header field" in str(problem) for problem in result.problems), result.problems
    return result.ledger


def test_the_new_player_reads_the_silent_seats_hand_and_plays_it(played: Played) -> None:
    before = played.hand(played.file("c holds a card", "before"), "c")
    assert list(before) == ["deck:1"] and before["deck:1"] in hidden_deck_game.CARDS
    game = played.file("reshared", "reshared")
    assert played.hand(game, "c", NEW) == before  # what c read, d reads with the rebuilt secret
    played.step("a", "play", str(game), "--as", "a", "pass")
    played.step("b", "play", str(game), "--as", "b", "pass")
    played.step(NEW, "play", str(game), "--as", "c", "--key", NEW, "play", str(before["deck:1"]))
    shown = json.loads(played.step("a", "show", str(game), "--json").stdout)
    assert str(before["deck:1"]) in json.dumps(shown)
    verified = played.run("a", "verify", str(game))
    assert verified.exit_code == 0, verified.stderr


def test_the_others_consent_and_the_new_player_takes_the_seat(played: Played) -> None:
    assert "consent to (or decline) a's handing c's seat on to d" in played.stages["proposed status"]
    assert f"pbem consent {played.game} --as b" in played.stages["proposed status"]
    handed = ledger.read(tomllib.loads(played.stages["handed on"]))
    assert handed.rejoining == {"c"} and handed.handovers["c"][-1].by_consent
    assert handed.handovers["c"][-1].holder == NEW
    rejoin = entries(played, "rejoined")[-1]
    assert (rejoin["by"], rejoin["kind"]) == ("c", "rejoin") and "escrow_key" in rejoin
    assert "seal your share of c's secret to c's new player" in played.stages["rejoined status"]


def test_only_a_silent_seat_is_handed_on_by_the_others(played: Played) -> None:
    assert "b has let no deadline pass" in played.stages["proposal refused"]


def test_the_holders_seal_the_secret_and_fewer_than_the_threshold_open_nothing(played: Played) -> None:
    given = [entry["escrow_reshares"] for entry in entries(played, "reshared") if "escrow_reshares" in entry]
    assert [[item["seat"] for item in each] for each in given] == [["c"], ["c"]]
    one = ledger.read(tomllib.loads(played.stages["one reshare"]))
    material = one.secret_seed("c", played.secret(NEW))
    assert "1 of the 2 shares" in getattr(material, "waiting", "")
    refused = played.run(NEW, "show", str(played.file("one reshare", "one")), "--as", "c", "--key", NEW)
    assert refused.exit_code != 0 and "not rebuilt yet" in refused.stderr


def test_the_silent_seats_old_key_signs_nothing_after_the_handover(played: Played) -> None:
    handed = ledger.read(tomllib.loads(played.stages["rejoined"]))
    impostor = handed.next_entry("c", DAY3, "sync") | {"rand": "0" * 64}
    found = played.problems_of("rejoined", impostor, "c")
    assert found and "signature does not verify against c's key" in found[0], found


def test_a_handover_entry_for_the_silent_seat_by_another_key_is_refused(played: Played) -> None:
    proposal = entries(played, "proposed")[-1]
    as_c = {name: proposal[name] for name in ("name", "sign", "box", "identity_sig")} | ledger.read(
        tomllib.loads(played.stages["c silent"])
    ).next_entry("c", DAY3, "handover")
    as_c |= {"sealed_secret": "AAAA", "rand": "0" * 64}
    found = played.problems_of("c silent", as_c, "a")  # a signs a handover in c's name
    assert found and "signature does not verify against c's key" in found[0], found


def test_the_new_player_must_take_the_seat_before_playing_it(played: Played) -> None:
    handed = ledger.read(tomllib.loads(played.stages["handed on"]))
    move = handed.next_entry("c", DAY3, "move") | {"move": "pass", "rand": "0" * 64}
    found = played.problems_of("handed on", move, NEW)
    assert found and "its new player takes the seat first" in found[0], found
    assert "c            take the seat handed on to you" in played.stages["handed status"]


def test_a_declined_handover_hands_nothing_on(played: Played) -> None:
    game = played.file("proposed", "declined")
    played.step("b", "consent", str(game), "--as", "b", "--decline")
    replayed = ledger.read(tomllib.loads(game.read_text(encoding="utf-8")))
    assert "c" not in replayed.handovers and not replayed.rejoining


def test_a_bad_share_sealed_to_the_new_player_is_the_new_players_complaint(played: Played) -> None:
    data = tomllib.loads(played.stages["reshared"])
    position = len(data["entry"]) - 1  # b's reshare
    forged = copy.deepcopy(data["entry"][position])
    other = entries(played, "one reshare")[-1]["escrow_reshares"][0]  # a's: not b's share
    forged["escrow_reshares"][0]["masked"] = other["masked"]
    forged.pop("sig")
    data["entry"][position] = ledger.sign_entry(data["game"]["id"], forged, played.secret("b"))
    bad = replayed(data)
    secret = played.secret(NEW)
    material = bad.secret_seed("c", secret)
    assert "b sealed you a share of c's secret that does not match" in getattr(material, "waiting", "")
    assert bad.table is not None and bad.table.decks is not None and bad.table.decks.escrow is not None
    from pbem.crypto import escrow as es
    from pbem.crypto import hidden_deck as hd

    receive = es.receive_secret(hd.deck_seed(material), bad.game_id, "c", group=bad.group)
    complaint = escrows.reshare_complaint_fields(
        bad.table.decks.escrow, "c", "b", receive, game_id=bad.game_id, group=bad.group
    )
    entry = bad.next_entry("c", DAY3, "sync") | {"escrow_reshare_complaint": complaint}
    entry["rand"] = ledger.contribution(bad, "c", secret)
    signed = ledger.sign_entry(bad.game_id, entry, secret)
    judged = replayed(dict(data, entry=[*data["entry"], signed]))
    assert judged.table is not None and judged.table.decks is not None
    verdict = judged.table.decks.halted()
    assert verdict is not None and verdict.startswith("b sealed c's new player a share that does not match")


def test_the_new_player_sends_its_complaint_of_a_bad_share_with_pbem_sync(played: Played) -> None:
    """Only the new player's key tells a bad share sealed to it: pbem status tells it to look, with
    the command; pbem sync makes and signs the complaint, which stops the game with the verdict."""
    data = tomllib.loads(played.stages["reshared"])
    position = len(data["entry"]) - 1  # b's reshare
    forged = copy.deepcopy(data["entry"][position])
    forged["escrow_reshares"][0]["masked"] = entries(played, "one reshare")[-1]["escrow_reshares"][0][
        "masked"
    ]
    forged.pop("sig")
    data["entry"][position] = ledger.sign_entry(data["game"]["id"], forged, played.secret("b"))
    data["game"] = dict(data["game"], head=replayed(data).head)
    game = played.root / "bad-reshare.toml"
    game.write_text(
        gamefile.render_new(data["game"], data["roster"], data.get("components", {}), data["entry"], []),
        encoding="utf-8",
    )
    forget_seen_games(played.root)
    status = played.step("a", "status", str(game)).stdout
    assert "check the shares of c's secret sealed to you, and complain of one that does not match" in status
    assert f"pbem sync {game} --as c" in status
    synced = played.step(NEW, "sync", str(game), "--as", "c", "--key", NEW)
    assert "complained of b's resealed share" in synced.stderr + synced.stdout
    last = tomllib.loads(game.read_text(encoding="utf-8"))["entry"][-1]
    assert (last["by"], last["kind"], last["escrow_reshare_complaint"]["holder"]) == ("c", "sync", "b")
    status = played.step("a", "status", str(game)).stdout
    assert "b sealed c's new player a share that does not match c's escrow" in status
    assert played.run("a", "verify", str(game)).exit_code == 0
    # with every share sound there is nothing to complain of, and the command says so
    good = played.file("reshared", "good-reshares")
    assert "check the shares of c's secret" in played.step("a", "status", str(good)).stdout
    nothing = played.run(NEW, "sync", str(good), "--as", "c", "--key", NEW)
    assert nothing.exit_code == 1 and "there is nothing to complain of" in nothing.stderr, nothing.stderr


@pytest.mark.parametrize("shift", [0, 7], ids=["copied", "shifted"])
def test_a_share_sealed_with_another_holders_point_is_refused_so_no_complaint_opens_its_share(
    played: Played, shift: int
) -> None:
    """The attack: b seals c's new player garbage with a's ephemeral point ``R_a``, copied or
    shifted by a ``g^t`` b knows. The new player's honest complaint would publish ``R_a^y'`` (or
    ``(R_a g^t)^y'``, from which b divides out ``Y'^t``), which opens a's share of c's secret to
    anyone; with b's own that is the threshold, and c's deck secret. b cannot prove it knows the
    point's logarithm, so its entry is refused at the sealing, by pbem and the independent
    verifier, and no complaint is ever made."""
    from pbem.crypto import escrow as es
    from pbem.crypto import hidden_deck as hd
    from pbem.crypto.curve import EDWARDS25519 as CURVE
    from tests import independent_verifier

    honest = ledger.read(tomllib.loads(played.stages["reshared"]))
    assert honest.table is not None and honest.table.decks is not None
    escrow = honest.table.decks.escrow
    assert escrow is not None and escrow.proven
    given = escrow.reshared["c"]["a"]
    shifted = CURVE.multiply(given.ephemeral, CURVE.base_power(shift)) if shift else given.ephemeral
    # what the complaint would publish opens a's share, once b takes out what it added
    material = honest.secret_seed("c", played.secret(NEW))
    receive = es.receive_secret(hd.deck_seed(material), honest.game_id, "c", group=CURVE)
    published = CURVE.power(shifted, receive)
    opened = CURVE.divide(published, CURVE.power(escrow.resharing["c"], shift)) if shift else published
    leaked = es.unseal_with(
        given, opened, escrow.dealings["c"], escrow.resharing["c"], game_id=honest.game_id, group=CURVE
    )
    es.check_escrow_share(escrow.dealings["c"], leaked, group=CURVE)  # a's very share of c's secret

    data = tomllib.loads(played.stages["reshared"])
    position = len(data["entry"]) - 1  # b's reshare
    forged = copy.deepcopy(data["entry"][position])
    copied = entries(played, "one reshare")[-1]["escrow_reshares"][0]  # a's, with its proof
    forged["escrow_reshares"][0] |= {
        "ephemeral": CURVE.element_text(shifted),
        "ephemeral_proof": copied["ephemeral_proof"],
        "masked": CURVE.scalars_text([12345]),
    }
    forged.pop("sig")
    data["entry"][position] = ledger.sign_entry(data["game"]["id"], forged, played.secret("b"))
    audit = ledger.audit(data)
    ours = [str(problem) for problem in audit.problems if problem.position == position]
    assert (
        ours
        and "escrow_reshares[0]: the share of seat c's secret sealed to b: the proof of knowledge" in ours[0]
    )
    assert audit.ledger is not None
    data["game"] = dict(data["game"], head=audit.ledger.head)
    game = played.root / f"attack-{shift}.toml"
    game.write_text(
        gamefile.render_new(data["game"], data["roster"], data.get("components", {}), data["entry"], []),
        encoding="utf-8",
    )
    forget_seen_games(played.root)
    report = independent_verifier.verify(game, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)})
    assert report.problems == [
        f"entry {position} (by b, position {position}): escrow_reshares[0]: the proof of knowledge of the "
        "ephemeral point of b's share does not verify"
    ]
    before = game.read_text(encoding="utf-8")
    refused = played.run(NEW, "sync", str(game), "--as", "c", "--key", NEW)
    assert refused.exit_code == 3 and "proof of knowledge of its ephemeral point" in refused.stderr
    assert game.read_text(encoding="utf-8") == before  # no complaint: nothing published


def test_the_independent_verifier_checks_the_handover_from_the_document_alone(played: Played) -> None:
    from tests import independent_verifier

    game = played.file("reshared", "independent")
    card = played.hand(game, "c", NEW)["deck:1"]
    played.step("a", "play", str(game), "--as", "a", "pass")
    played.step("b", "play", str(game), "--as", "b", "pass")
    played.step(NEW, "play", str(game), "--as", "c", "--key", NEW, "play", str(card))  # d's share opens it
    report = independent_verifier.verify(game, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)})
    assert report.ok, report.problems
    assert report.counts["handover proposed"] == 1 and report.counts["handover by consent"] == 1
    assert report.counts["share resealed"] == 2 and report.counts["card shown face up"] >= 1
    said: list[str] = []
    cards = f"{hidden_deck_game.DECK}={','.join(hidden_deck_game.CARDS)}"
    assert independent_verifier.main([str(game), "--cards", cards], out=said.append) == 0
    assert "2 shares resealed" in said[-1] and "1 handover by consent" in said[-1], said


def test_an_event_requested_before_the_new_player_took_the_seat_is_decided_without_it(played: Played) -> None:
    game = played.file("c silent", "dice")
    exported = played.root / "d.id"
    played.step("a", "handover", str(game), "--as", "a", "--to", NEW, str(exported), "--silent", "c")
    # c is handed on, so no longer absent: its new player owes what it is asked from now
    played.step("b", "consent", str(game), "--as", "b")
    played.step("a", "play", str(game), "--as", "a", "dice")  # every seat owes randomness
    before = ledger.read(tomllib.loads(game.read_text(encoding="utf-8")))
    assert before.table is not None and [sorted(p.excused) for p in before.table.pending] == [[]]
    played.step(NEW, "join", str(game), "--as", "c", "--key", NEW)
    after = ledger.read(tomllib.loads(game.read_text(encoding="utf-8")))
    assert after.table is not None and all("c" in pending.excused for pending in after.table.pending)
    for seat in ("a", "b"):
        if any(d.seat == seat for d in _contributions(after)):
            played.step(seat, "play", str(game), "--as", seat, "roll")
    done = ledger.read(tomllib.loads(game.read_text(encoding="utf-8")))
    assert done.table is not None and done.table.pending == []  # decided by a's and b's links alone


def _contributions(game: ledger.Ledger) -> list[Any]:
    from pbem.engine import table as tables

    assert game.table is not None and game.rules is not None
    return [d for d in tables.demands(game.rules, game.table) if d.kind == "contribute"]


def test_a_consent_to_a_handover_is_called_a_handover_consent_everywhere(played: Played) -> None:
    """Status, the log, the game file's comment, the fetch line and the mail all say what the
    consent is for: a handover, never an undo."""
    status = played.stages["proposed status"]
    assert "add --decline to refuse the handover" in status and "undo" not in status, status
    proposed = played.stages["proposed"]
    assert "waiting for b to give a handover consent" in proposed and "answer an undo" not in proposed
    handed = played.file("handed on", "consented")
    logged = json.loads(played.step("a", "log", str(handed), "--json").stdout)
    proposal = next(item for item in logged if item["kind"] == "replace")
    assert logged[-1]["what"] == f"gave its handover consent: c's seat to d (entry {proposal['seq']})"
    out = played.root / "proposed.eml"
    played.step(
        "a",
        "mail",
        "send",
        str(played.file("proposed", "to-mail")),
        "--as",
        "a",
        "--full",
        "--to-file",
        str(out),
    )
    imported = played.step("e", "mail", "import", str(out)).stdout
    assert "waiting for b to give a handover consent" in imported and "undo" not in imported, imported
    import email
    import email.policy

    message = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    said = f"{message['Subject']}\n{body.get_content()}"
    assert "undo" not in said and "give a handover consent" in str(message["Subject"]), said
    assert "b: consent to (or decline) a's handing c's seat on to d" in said, said


def test_the_new_player_of_a_silent_seat_holds_nothing_until_it_signs(played: Played) -> None:
    """Once the others' handover consents hand c on to d, c's copy is d's: nothing c's silent
    player held (its entries, the copies mail knew of) counts, so a message to c carries d the
    whole game; d's own first entry, taking the seat, is d's and counts."""
    from pbem.mail.delivery import holding, lacked, strangers

    silent = ledger.read(tomllib.loads(played.stages["c silent"]))
    handed = ledger.read(tomllib.loads(played.stages["handed on"]))
    known = {"a": [handed.head], "b": [handed.head], "c": [silent.head]}
    assert strangers(handed, ["a", "b", "c"], known) == ["c"]
    assert (
        len(lacked(handed, ["c"], known)) == len(handed.entries) and lacked(handed, ["a", "b"], known) == []
    )
    rejoined = ledger.read(tomllib.loads(played.stages["rejoined"]))
    assert holding(rejoined, "c", known["c"]).whole == len(rejoined.steps), "d's rejoin: d holds it all"
