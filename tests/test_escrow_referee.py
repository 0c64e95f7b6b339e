"""A referee outside the game holds every seat's deck secret (option escrow=referee): the escrow two
players can have. The referee accepts (its receiving key), checks and acknowledges each seat's
dealing, and gives the partial decryption an unlock of a silent seat needs; it never plays.

Two seats play the engine's test game through the command line with a one-day deadline, r their
referee; b answers nothing once a has drawn. The clock is set per command (``PBEM_NOW``).
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pbem import gamefile
from pbem.crypto.encoding import b64
from pbem.engine import ledger
from tests import hidden_deck_game
from tests.conftest import game_ids, make_key_homes, seeded_keys
from tests.stages import Played

SEATS = ("a", "b")
REFEREE = "r"
DAY1 = "2026-01-01T00:00:00Z"
DAY3 = "2026-01-03T00:00:00Z"  # b's deadline has passed


@pytest.fixture(scope="module", autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


def new_game(played: Played, game: Path, *extra: str) -> Result:
    with game_ids("escrow referee"):
        return played.run(
            "a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS), "--as", "a",
            "--option", "deadline_days=1", *extra, at=DAY1,
        )  # fmt: skip


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("referee")
    make_key_homes(root, (*SEATS, REFEREE))
    played = Played(root, DAY3)
    exported = root / "r.id"
    exported.write_text(played.step(REFEREE, "key", "export", REFEREE).stdout, encoding="utf-8")
    game = root / "game.toml"
    result = new_game(played, game, "--referee", REFEREE, str(exported))
    assert result.exit_code == 0, result.stderr
    played.step("b", "join", str(game), "--as", "b", at=DAY1)
    played.stages["joined"] = game.read_text(encoding="utf-8")
    played.stages["joined status"] = played.step("a", "status", str(game), at=DAY1).stdout
    played.step(REFEREE, "referee", str(game), "--as", REFEREE, at=DAY1)
    played.stages["accepted"] = game.read_text(encoding="utf-8")
    for seat in SEATS:
        played.step(seat, "sync", str(game), "--as", seat, at=DAY1)
    played.stages["dealt"] = game.read_text(encoding="utf-8")
    played.stages["dealt status"] = played.step("a", "status", str(game), at=DAY1).stdout
    played.step(REFEREE, "referee", str(game), "--as", REFEREE, at=DAY1)
    played.stages["acknowledged"] = game.read_text(encoding="utf-8")
    for seat, verb in (("a", "pass"), ("b", "pass"), ("a", "draw")):
        played.step(seat, "play", str(game), "--as", seat, verb, at=DAY1)
    played.stages["b silent"] = game.read_text(encoding="utf-8")
    # b's turn: the rules' default, a pass; b is absent, and its share of a's card is unlocked at once
    played.step("a", "timeout", str(game), "b", "--as", "a")
    played.stages["unlocking"] = game.read_text(encoding="utf-8")
    played.stages["unlocking status"] = played.step("a", "status", str(game)).stdout
    played.step(REFEREE, "referee", str(game), "--as", REFEREE)
    played.stages["unlocked"] = game.read_text(encoding="utf-8")
    return played


def entries(played: Played, stage: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads(played.stages[stage])["entry"]
    return found


def next_entry(played: Played, stage: str, by: str, kind: str) -> dict[str, Any]:
    game = ledger.read(tomllib.loads(played.stages[stage]))
    return game.next_entry(by, DAY3, kind)


def test_the_referee_accepts_and_every_dealing_is_sealed_to_it_alone(played: Played) -> None:
    assert (
        "pbem referee" in played.stages["joined status"]
        and "accept as the game's referee" in (played.stages["joined status"])
    )
    accepted = entries(played, "accepted")[-1]
    assert (accepted["by"], accepted["kind"]) == (REFEREE, "referee") and "escrow_key" in accepted
    dealings = [entry["escrow"] for entry in entries(played, "dealt") if "escrow" in entry]
    assert len(dealings) == 2
    game = ledger.read(tomllib.loads(played.stages["dealt"]))
    assert game.table is not None and game.table.decks is not None
    escrow = game.table.decks.escrow
    assert escrow is not None and escrow.threshold == 1 and escrow.referee == REFEREE
    # one commitment (the deck key itself) and one share each: the referee's
    assert {dealer: tuple(holders) for dealer, holders in escrow.sealed.items()} == {
        "a": (REFEREE,),
        "b": (REFEREE,),
    }
    assert all(escrow.dealings[seat].commitments == (game.deck_keys[seat],) for seat in SEATS)
    assert "check and acknowledge a's escrow dealing" in played.stages["dealt status"]
    assert f"pbem referee {played.root / 'game.toml'} --as r" in played.stages["dealt status"]


def test_no_card_is_dealt_until_the_referee_has_acknowledged(played: Played) -> None:
    before = ledger.read(tomllib.loads(played.stages["dealt"]))
    after = ledger.read(tomllib.loads(played.stages["acknowledged"]))
    assert before.table is not None and before.table.decks is not None
    assert after.table is not None and after.table.decks is not None
    deck = before.table.decks.decks["deck"]
    assert not before.table.decks.ready(deck) and after.table.decks.ready(after.table.decks.decks["deck"])
    assert entries(played, "acknowledged")[-1]["escrow_acks"] == ["a", "b"]


def test_the_referee_unlocks_a_silent_seats_share_and_the_drawer_reads_its_card(played: Played) -> None:
    assert (
        "give a partial decryption of b's share of deck:0 (b is silent)" in played.stages["unlocking status"]
    )
    assert "pbem referee" in played.stages["unlocking status"]
    partials = entries(played, "unlocked")[-1]["escrow_partials"]
    assert [(item["seat"], item["deck"], item["slots"]) for item in partials] == [("b", "deck", [0])]
    unlocked = played.file("unlocked", "unlocked")
    card = played.hand(unlocked, "a")["deck:0"]
    assert card in hidden_deck_game.CARDS
    answered = played.file("b silent", "answered")  # the card b's own share would have opened
    played.step("b", "sync", str(answered), "--as", "b")
    assert played.hand(answered, "a")["deck:0"] == card
    verified = played.run("a", "verify", str(unlocked))
    assert verified.exit_code == 0, verified.stderr
    assert "(referee, entry 2)" in verified.stdout


def test_the_referee_is_never_timed_out_and_plays_no_move(played: Played) -> None:
    game = played.file("unlocking", "waiting")
    refused = played.run("a", "timeout", str(game), REFEREE, "--as", "a")
    assert refused.exit_code != 0
    move = next_entry(played, "acknowledged", REFEREE, "move") | {"move": "pass", "rand": "0" * 64}
    found = played.problems_of("acknowledged", move, REFEREE)
    assert found and "signs only referee entries, not a move entry" in found[0], found


@pytest.mark.parametrize(
    ("kind", "fields"),
    [("move", {"move": "pass"}), ("note", {"text": "b is slow"}), ("timeout", {"late": "b", "step": "turn"})],
)
def test_a_referee_entry_of_another_kind_is_refused_by_the_referee_rule(
    played: Played, kind: str, fields: dict[str, str]
) -> None:
    """The referee adds no randomness, so what it would sign as a move, note or timeout has no
    ``rand``: pbem verify and the independent verifier refuse it for who signed it, not for that."""
    from tests import independent_verifier
    from tests.tamper import appended

    entry = next_entry(played, "acknowledged", REFEREE, kind) | fields
    path = written(
        played.root / f"referee-{kind}.toml",
        appended(played.stages["acknowledged"], entry, played.secret(REFEREE)),
    )
    verified = played.run("a", "verify", str(path))
    assert verified.exit_code == 3
    assert f"the referee r signs only referee entries, not a {kind} entry" in verified.stderr, verified.stderr
    assert "missing field" not in verified.stderr
    problems = independent_verifier.verify(
        path, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)}
    ).problems
    assert problems[0].endswith(f"the referee r signs only referee entries, not a {kind} entry"), problems


def test_a_referee_entry_signed_by_another_key_is_refused(played: Played) -> None:
    impostor = next_entry(played, "unlocking", REFEREE, "referee")
    game = ledger.read(tomllib.loads(played.stages["unlocking"]))
    assert game.table is not None and game.table.decks is not None
    from pbem.engine import decks as hidden_decks

    # what the referee would sign, made with a seat's key: its partials cannot match the escrow,
    # and its signature is not the referee's
    impostor |= hidden_decks.owed_fields(
        game.table.decks,
        REFEREE,
        game_id=game.game_id,
        key_material=game.secret_seed("a", played.secret("a")),
    )
    found = played.problems_of("unlocking", impostor, "a")
    assert found and "signature does not verify against r's key" in found[0], found


def test_a_referee_entry_that_owes_nothing_or_gives_its_key_twice_is_refused(played: Played) -> None:
    empty = next_entry(played, "accepted", REFEREE, "referee")
    found = played.problems_of("accepted", empty, REFEREE)
    assert found and "r owed nothing" in found[0], found
    again = next_entry(played, "accepted", REFEREE, "referee") | {
        name: entries(played, "accepted")[-1][name] for name in ("escrow_key", "escrow_key_proof")
    }
    found = played.problems_of("accepted", again, REFEREE)
    assert found and "the referee gave its receiving key in entry 2" in found[0], found


def test_only_the_referee_signs_referee_entries(played: Played) -> None:
    entry = next_entry(played, "dealt", "a", "referee") | {"escrow_acks": ["b"]}
    found = played.problems_of("dealt", entry, "a")
    assert found and "'a' is not this game's referee" in found[0], found


def test_a_genesis_whose_referee_did_not_sign_its_identity_is_refused(played: Played) -> None:
    data = tomllib.loads(played.stages["joined"])
    genesis = copy.deepcopy(data["entry"][0])
    genesis["referee"]["identity_sig"] = b64(bytes(64))
    genesis.pop("sig")
    signed = ledger.sign_entry(data["game"]["id"], genesis, played.secret("a"))
    problems = [str(problem) for problem in ledger.audit(dict(data, entry=[signed])).problems]
    assert any("referee.identity_sig is not r's self-signature" in problem for problem in problems), problems


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (("--option", "escrow=referee"), "escrow=referee needs --referee NAME KEYFILE"),
        (("--referee", "a", "KEY"), "the referee a is a seat"),
        (("--referee", "r", "KEY", "--option", "escrow=none"), "--referee needs --option escrow=referee"),
        (("--option", "escrow=others"), "(--referee NAME KEYFILE lets a referee outside the game hold them)"),
        (("--referee", "r", "KEY", "--option", "escrow_threshold=2"), "escrow_threshold needs escrow=others"),
        (("--referee", "q", "KEY"), "holds r's identity, not q's"),
    ],
)
def test_a_referee_that_cannot_work_is_refused_at_new(
    tmp_path: Path, extra: tuple[str, ...], expected: str
) -> None:
    make_key_homes(tmp_path, (*SEATS, REFEREE))
    played = Played(tmp_path, DAY3)
    exported = tmp_path / "r.id"
    exported.write_text(played.step(REFEREE, "key", "export", REFEREE).stdout, encoding="utf-8")
    if "a" in extra:
        exported.write_text(played.step("a", "key", "export", "a").stdout, encoding="utf-8")
    game = tmp_path / "game.toml"
    result = new_game(played, game, *(str(exported) if word == "KEY" else word for word in extra))
    assert result.exit_code != 0 and expected in result.stderr, result.stderr
    assert not game.exists()


def test_the_referee_game_replays_from_the_file_alone(played: Played) -> None:
    game = gamefile.load(played.file("unlocked", "again"))
    replayed = ledger.read(game.data)
    assert (
        replayed.referee is not None
        and replayed.referee.sign_public == seeded_keys(REFEREE).public(REFEREE).sign_public
    )
    assert replayed.referee_joined == 2


def test_the_referee_is_mailed_what_it_must_answer_and_mails_its_answer_to_the_seats(tmp_path: Path) -> None:
    import email
    import email.policy

    make_key_homes(tmp_path, (*SEATS, REFEREE))
    played = Played(tmp_path, DAY3)
    exported = tmp_path / "r.id"
    exported.write_text(played.step(REFEREE, "key", "export", REFEREE).stdout, encoding="utf-8")
    game = tmp_path / "game.toml"
    made = new_game(
        played, game, "--email", "a@example.org", "--referee", REFEREE, str(exported),
        "--referee-email", "r@example.org",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    played.step("b", "join", str(game), "--as", "b", "--email", "b@example.org", at=DAY1)

    def mailed(who: str, name: str) -> email.message.EmailMessage:
        out = tmp_path / f"{name}.eml"
        played.step(who, "mail", "send", str(game), "--as", who, "--to-file", str(out), at=DAY1)
        message = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        return message

    assert mailed("b", "joined")["To"] == "r@example.org"  # the referee must accept next
    played.step(REFEREE, "referee", str(game), "--as", REFEREE, at=DAY1)
    assert set(mailed(REFEREE, "accepted")["To"].split(", ")) == {"a@example.org", "b@example.org"}
    played.step("a", "sync", str(game), "--as", "a", at=DAY1)
    played.step("b", "sync", str(game), "--as", "b", at=DAY1)
    to_referee = mailed("b", "dealt")
    assert "r@example.org" in to_referee["To"]
    # the referee's home takes the message in and answers from its own copy
    imported = played.run(REFEREE, "mail", "import", str(tmp_path / "dealt.eml"), at=DAY1)
    assert imported.exit_code == 0, imported.stderr
    assert "(your move: r)" in played.step(REFEREE, "inbox", at=DAY1).stdout


def written(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(
        gamefile.render_new(
            data["game"], data["roster"], data.get("components", {}), data["entry"], ["forged"]
        ),
        encoding="utf-8",
    )
    return path


def test_the_independent_verifier_checks_the_referee_from_the_document_alone(played: Played) -> None:
    from tests import independent_verifier

    game = played.file("unlocked", "independent")
    hand = played.hand(game, "a")
    played.step("a", "play", str(game), "--as", "a", "play", hand["deck:0"])  # opened with the referee's
    report = independent_verifier.verify(game, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)})
    assert report.ok, report.problems
    assert report.counts["escrow key"] == 1  # the referee's: the seats publish none
    assert report.counts["escrow dealing"] == 2 and report.counts["escrow acknowledgement"] == 2
    assert report.counts["partial decryption"] == 1 and report.counts["share unlocked"] == 1


def test_the_independent_verifier_refuses_a_referee_entry_by_a_seat_or_a_forged_partial(
    played: Played,
) -> None:
    from tests import independent_verifier

    data = tomllib.loads(played.stages["unlocked"])
    last = data["entry"][-1]
    forged = copy.deepcopy(last)
    item = forged["escrow_partials"][0]
    item["partials"] = entries(played, "accepted")[-1]["escrow_key"]  # a point, not the partial
    forged.pop("sig")
    signed = ledger.sign_entry(data["game"]["id"], forged, played.secret(REFEREE))
    path = played.root / "forged-partial.toml"
    written(path, dict(data, entry=[*data["entry"][:-1], signed]))
    problems = independent_verifier.verify(
        path, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)}
    ).problems
    assert problems and any("escrow_partials[0]" in problem for problem in problems), problems
    by_seat = copy.deepcopy(last) | {"by": "a"}
    by_seat.pop("sig")
    signed = ledger.sign_entry(data["game"]["id"], by_seat, played.secret("a"))
    written(path, dict(data, entry=[*data["entry"][:-1], signed]))
    problems = independent_verifier.verify(
        path, {hidden_deck_game.DECK: list(hidden_deck_game.CARDS)}
    ).problems
    assert any("'a' is not the referee" in problem for problem in problems), problems
