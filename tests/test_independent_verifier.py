"""The verifier written from docs/game-file.md alone agrees with pbem: it accepts the example game,
a game with a hidden deck (shuffles, shares, a card shown face up, one put under the deck), games
whose players give the addresses their mail goes to, and the examples of every game, their decks
dealt from the file's own component data as pbem's rules deal them; and it refuses copies with a
flipped byte in a proof, a share, a signature or the game id, or a changed address, each for that
reason, as pbem does."""

from __future__ import annotations

import ast
import copy
import json
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.encoding import b64, unb64
from pbem.engine import ledger, registry
from pbem.engine.ruleset import hidden_deck_rules, ruleset_for
from tests import hidden_deck_game, independent_verifier
from tests.conftest import game_ids, make_key_homes, run_cli, seeded_keys
from tests.hidden_deck_game import CARDS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEATS = ("a", "b", "c")
DECKS = {hidden_deck_game.DECK: list(CARDS)}


def test_it_shares_no_code_with_pbem() -> None:
    """Only the standard library, cryptography, PyNaCl and (optionally) gmpy2: what the document
    names."""
    tree = ast.parse(Path(independent_verifier.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[0] in ("pbem", "tests", "docs")}
    assert "gmpy2" in Path(independent_verifier.__file__).read_text(encoding="utf-8")


def test_it_accepts_the_three_player_example() -> None:
    report = independent_verifier.verify(EXAMPLES / "three-players.toml")
    assert report.ok, report.problems
    assert report.counts == {"signature": 5, "deck key": 3}


def test_it_refuses_the_tampered_example_for_its_signature() -> None:
    report = independent_verifier.verify(EXAMPLES / "tampered" / "forged-note.toml")
    assert report.problems[0].endswith("the signature does not verify")


def played(root: Path, seat: str, *args: str) -> None:
    """A command in a seat's home under ``root``, which must succeed."""
    result = run_cli(root / seat, *args)
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A game of the test ruleset's six-card hidden deck: every seat shuffles, a draws and shows
    its card face up, c draws and puts its card back under the deck."""
    root = tmp_path_factory.mktemp("independent")
    make_key_homes(root, SEATS)
    game = root / "game.toml"

    def step(seat: str, *args: str) -> None:
        played(root, seat, *args)

    with hidden_deck_game.registered():
        with game_ids("independent verifier"):
            step(
                "a",
                "new",
                str(game),
                "--game",
                hidden_deck_game.NAME,
                "--players",
                ",".join(SEATS),
                "--as",
                "a",
            )
        step("b", "join", str(game), "--as", "b")
        step("c", "join", str(game), "--as", "c")
        step("a", "play", str(game), "--as", "a", "pass")  # a's shuffle rides along
        step("b", "sync", str(game), "--as", "b")  # b's shuffle on its own
        step("b", "play", str(game), "--as", "b", "pass")
        step("c", "play", str(game), "--as", "c", "pass")  # c's shuffle
        step("a", "play", str(game), "--as", "a", "draw")  # a draws deck:0
        step("b", "play", str(game), "--as", "b", "pass")  # b's share of deck:0
        step("c", "play", str(game), "--as", "c", "draw")  # c's share of deck:0; c draws deck:1
        hand = json.loads(run_cli(root / "a", "show", str(game), "--as", "a", "--json").stdout)["hand"]
        step("a", "play", str(game), "--as", "a", "play", hand["deck:0"])  # shown; a's share of deck:1
        step("b", "play", str(game), "--as", "b", "pass")  # b's share of deck:1
        step("c", "play", str(game), "--as", "c", "bottom", "deck:1")  # re-masked, under the deck
        yield game


def test_it_accepts_a_game_with_a_hidden_deck(hidden: Path) -> None:
    report = independent_verifier.verify(hidden, DECKS)
    assert report.ok, report.problems
    assert report.counts == {
        "signature": 13,
        "deck key": 3,
        "shuffle": 3,
        "share": 4,
        "card shown face up": 1,
        "card put under the deck": 1,
    }


def test_its_command_line_names_what_it_checked(hidden: Path) -> None:
    said: list[str] = []
    code = independent_verifier.main([str(hidden), "--cards", f"deck={','.join(CARDS)}"], said.append)
    assert code == 0
    assert said == [
        f"ok: {hidden}: checked 13 signatures, 3 deck keys, 3 shuffles, 4 shares, "
        "1 card shown face up, 1 card put under the deck"
    ]


def forged(source: Path, target: Path, kind: str, change: Callable[[dict[str, Any]], None]) -> Path:
    """The game up to the first entry carrying ``kind``, that entry changed and signed again by its
    seat (as that player could), and the header made to match: only the change can be refused."""
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    position = next(index for index, entry in enumerate(data["entry"]) if kind in entry)
    entries = data["entry"][: position + 1]
    entry = copy.deepcopy(entries[-1])
    change(entry)
    entry.pop("sig")
    entries[-1] = ledger.sign_entry(data["game"]["id"], entry, seeded_keys(entry["by"]))
    return written(target, data, entries)


def written(target: Path, data: dict[str, Any], entries: list[dict[str, Any]]) -> Path:
    with hidden_deck_game.registered():
        audit = ledger.audit({**data, "entry": entries})
    assert audit.ledger is not None
    header = dict(data["game"], entries=len(entries), head=audit.ledger.head)
    text = gamefile.render_new(header, data["roster"], data.get("components", {}), entries, ["forged"])
    target.write_text(text, encoding="utf-8")
    return target


def flipped(text: str, index: int = -1) -> str:
    raw = bytearray(unb64(text))
    raw[index] ^= 1
    return b64(bytes(raw))


def refusals(path: Path) -> tuple[list[str], list[str]]:
    """What this verifier and pbem each say of the file."""
    with hidden_deck_game.registered():
        said = [
            str(problem) for problem in ledger.audit(tomllib.loads(path.read_text(encoding="utf-8"))).problems
        ]
    return independent_verifier.verify(path, DECKS).problems, said


@pytest.mark.parametrize(
    ("kind", "change", "ours", "pbems"),
    [
        (
            "shuffles",
            lambda e: e["shuffles"][0].update(
                multi_exp_responses=flipped(e["shuffles"][0]["multi_exp_responses"], 0)
            ),
            "shuffles[0]: the proof of shuffle does not verify",
            "the proof of shuffle does not verify",
        ),
        (
            "shuffles",
            lambda e: e["shuffles"][0].update(svp_responses=flipped(e["shuffles"][0]["svp_responses"], 32)),
            "shuffles[0]: the proof of shuffle does not verify",
            "the proof of shuffle does not verify",
        ),
        (
            "shares",
            lambda e: e.update(shares_proof=flipped(e["shares_proof"], 0)),
            "shares_proof: the proof of b's decryption shares does not verify",
            "decryption shares of seat b (deck:0): the proof does not verify",
        ),
        (
            "face_up",
            lambda e: e["face_up"][0].update(
                cards=[next(c for c in CARDS if c != e["face_up"][0]["cards"][0])]
            ),
            "face_up[0] slots[0]: the slot holds",
            "face_up[0] slots[0]: the move names",
        ),
        (
            "remask",
            lambda e: e["remask"][0].update(proof=flipped(e["remask"][0]["proof"])),
            "remask[0]: the proof of the re-masked card does not verify",
            "the re-mask proof does not verify",
        ),
    ],
)
def test_a_flipped_byte_in_a_proof_is_refused_for_that_proof(
    hidden: Path, tmp_path: Path, kind: str, change: Callable[[dict[str, Any]], None], ours: str, pbems: str
) -> None:
    forgery = forged(hidden, tmp_path / "forged.toml", kind, change)
    mine, theirs = refusals(forgery)
    assert len(mine) == 1 and ours in mine[0], mine
    assert len(theirs) == 1 and pbems in theirs[0], theirs


def test_the_game_is_in_the_curve_group(hidden: Path) -> None:
    assert tomllib.loads(hidden.read_text(encoding="utf-8"))["entry"][0]["group"] == "edwards25519"


@pytest.mark.parametrize(
    ("point", "pbems"),
    [
        (
            bytes(32),
            "not a group element (off the curve, of small order or outside the prime-order subgroup)",
        ),
        (bytes([1]) + bytes(31), "not a group element (the identity)"),
        ((2**255 - 1).to_bytes(32, "little"), "not a point (non-canonical encoding)"),
    ],
    ids=["order-4", "identity", "non-canonical"],
)
def test_a_share_outside_the_prime_order_subgroup_is_refused_by_both(
    hidden: Path, tmp_path: Path, point: bytes, pbems: str
) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["shares"][0]["shares"] = b64(point + unb64(entry["shares"][0]["shares"])[32:])

    forgery = forged(hidden, tmp_path / "forged.toml", "shares", change)
    mine, theirs = refusals(forgery)
    assert len(mine) == 1 and "shares[0] shares[0] is not a point of the prime-order subgroup" in mine[0], (
        mine
    )
    assert len(theirs) == 1 and f"shares[0] shares[0]: {pbems}" in theirs[0], theirs
    with hidden_deck_game.registered():
        said = run_cli(tmp_path / "home", "verify", str(forgery))
    assert said.exit_code == 3
    assert said.stderr.count("\n") == 1 and f"shares[0] shares[0]: {pbems}" in said.stderr, said.stderr


def test_a_flipped_byte_in_a_signature_is_refused(hidden: Path, tmp_path: Path) -> None:
    data = tomllib.loads(hidden.read_text(encoding="utf-8"))
    entries = data["entry"]
    entries[-1]["sig"] = flipped(entries[-1]["sig"])
    mine, theirs = refusals(written(tmp_path / "signed.toml", data, entries))
    assert mine == [
        f"entry {entries[-1]['seq']} (by c, position {len(entries) - 1}): the signature does not verify"
    ]
    assert len(theirs) == 1 and "signature does not verify against c's key" in theirs[0]


def test_a_game_id_that_is_not_the_hash_of_the_genesis_is_refused(hidden: Path, tmp_path: Path) -> None:
    """Signed again by its creator, with the header to match: only the id's own check fails."""
    data = tomllib.loads(hidden.read_text(encoding="utf-8"))
    genesis = dict(data["entry"][0], game_id="0" * 32)
    genesis.pop("sig")
    data["game"]["id"] = "0" * 32
    entries = [ledger.sign_entry("0" * 32, genesis, seeded_keys("a"))]
    mine, theirs = refusals(written(tmp_path / "renamed.toml", data, entries))
    assert any("game_id is not the hash of the genesis entry" in problem for problem in mine), mine
    assert any("is not the hash of the genesis entry" in problem for problem in theirs), theirs


# --- games played by email: the addresses in the file ---------------------------------------------
def test_it_accepts_the_example_played_by_email() -> None:
    """examples/three-players-by-email.toml: addresses given on creating and joining, one moved
    with pbem mail address before the last join, three shuffles, one move undone."""
    report = independent_verifier.verify(EXAMPLES / "three-players-by-email.toml")
    assert report.ok, report.problems
    assert report.addresses == {
        "alice": "alice@example.org",
        "bruno": "bruno@example.net",
        "chiara": "chiara@example.org",
    }
    assert report.counts["address"] == 4 and report.counts["shuffle"] == 3


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """a creates the game with its address, b joins with one and moves it before c joins without
    one, then c writes a note: no proof to make or check, so it takes a moment."""
    root = tmp_path_factory.mktemp("mailed")
    make_key_homes(root, SEATS)
    game = root / "game.toml"

    def step(seat: str, *args: str) -> None:
        played(root, seat, *args)

    with game_ids("independent verifier, by email"):
        step(
            "a",
            "new",
            str(game),
            "--game",
            "potr",
            "--players",
            ",".join(SEATS),
            "--as",
            "a",
            "--email",
            "a@example.org",
        )
    step("b", "join", str(game), "--as", "b", "--email", "b@example.org")
    step("b", "mail", "address", str(game), "b@example.net", "--as", "b")
    step("c", "join", str(game), "--as", "c")
    step("c", "note", str(game), "hello", "--as", "c")
    return game


def test_it_accepts_a_game_made_with_email(mailed: Path) -> None:
    report = independent_verifier.verify(mailed)
    assert report.ok, report.problems
    assert report.addresses == {"a": "a@example.org", "b": "b@example.net"}
    assert report.counts == {"signature": 5, "deck key": 3, "escrow key": 3, "address": 3}
    kinds = [entry["kind"] for entry in tomllib.loads(mailed.read_text(encoding="utf-8"))["entry"]]
    assert kinds == ["genesis", "join", "address", "join", "note"]


def resigned(source: Path, target: Path, position: int, change: Callable[[dict[str, Any]], None]) -> Path:
    """The game up to the entry at ``position``, that entry changed and signed again by its seat,
    and the header and roster made to match."""
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    entries = data["entry"][: position + 1]
    joined = {entry["by"] for entry in entries if entry["kind"] in ("genesis", "join")}
    data["roster"] = {seat: keys for seat, keys in data["roster"].items() if seat in joined}
    entry = copy.deepcopy(entries[-1])
    change(entry)
    entry.pop("sig")
    entries[-1] = ledger.sign_entry(data["game"]["id"], entry, seeded_keys(entry["by"]))
    return written(target, data, entries)


@pytest.mark.parametrize(
    ("position", "change", "ours", "pbems"),
    [
        (
            2,
            lambda e: e.update(email="b at example.org"),
            "email 'b at example.org' is not an address like ann@example.org",
            "'b at example.org' is not an email address like ann@example.org",
        ),
        (
            2,
            lambda e: e.update(email="b@" + "x" * 250 + ".org"),
            "is not an address like ann@example.org",
            "is not an email address like ann@example.org",
        ),
        (
            2,
            lambda e: e.update(email=["b@example.net"]),
            "field 'email' is not of type str",
            "email must be text",
        ),
        (2, lambda e: e.update(shares=[]), "unexpected ['shares']", "unexpected field 'shares'"),
        (4, lambda e: e.update(email="c@example.org"), "unexpected ['email']", "unexpected field 'email'"),
        (1, lambda e: e.update(email="b@example.org, m@example.org"), "is not an address", "is not an email"),
        (
            0,
            lambda e: e.update(email="mallory@example.org"),
            "game_id is not the hash of the genesis entry",
            "is not the hash of the genesis entry",
        ),
    ],
    ids=["spaces", "too-long", "not-text", "deck-field", "on-a-note", "two-addresses", "genesis-id"],
)
def test_an_address_signed_again_otherwise_is_refused_for_it(
    mailed: Path,
    tmp_path: Path,
    position: int,
    change: Callable[[dict[str, Any]], None],
    ours: str,
    pbems: str,
) -> None:
    """Each entry signed again by its own seat, as that player could: only the address is wrong
    (the genesis entry's is hashed into the game id, which no longer matches)."""
    mine, theirs = refusals(resigned(mailed, tmp_path / "moved.toml", position, change))
    assert mine and all(ours in problem for problem in mine), mine
    assert theirs and all(pbems in problem for problem in theirs), theirs


def test_an_address_changed_without_its_seats_signature_is_refused(mailed: Path, tmp_path: Path) -> None:
    """Mail redirected by editing the file: the address entry's signature no longer holds, and
    the entries after it no longer chain to it."""
    data = tomllib.loads(mailed.read_text(encoding="utf-8"))
    data["entry"][2]["email"] = "mallory@example.org"
    mine, theirs = refusals(written(tmp_path / "redirected.toml", data, data["entry"]))
    assert mine[0] == "entry 2 (by b, position 2): the signature does not verify", mine
    assert any("prev is not the hash of the step before" in problem for problem in mine), mine
    assert "entry 2 (by b): signature does not verify against b's key" in theirs[0], theirs


# --- the decks of every game, from the file's component data ---------------------------------------
def pbems_decks(data: dict[str, Any], seats: tuple[str, ...]) -> dict[str, list[str]]:
    """The decks pbem's rules declare for the game of ``data`` with ``seats``."""
    genesis = data["entry"][0]
    rules = ruleset_for(registry.get(genesis["ruleset"]))
    assert rules is not None
    hidden = hidden_deck_rules(rules)
    assert hidden is not None
    state = rules.setup(seats, genesis["edition"], genesis["options"], data["components"])
    return {spec.deck_id: list(spec.cards) for spec in hidden.hidden_decks(state)}


@pytest.mark.parametrize(
    ("example", "seats", "sizes"),
    [
        ("four-players.toml", 4, {"treachery": 25}),
        ("florence-four-players.toml", 4, {"profession": 21, "bonus": 20, "prestige": 14}),
        ("principe-four-players.toml", 4, {"building": 100}),
        ("principe-four-players.toml", 2, {"building": 65}),  # 7 of each colour left out
    ],
)
def test_it_deals_every_games_decks_as_pbems_rules_do(
    example: str, seats: int, sizes: dict[str, int]
) -> None:
    data = tomllib.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    names = tuple(data["entry"][0]["seats"][:seats])
    decks = independent_verifier.DECKS_OF[data["entry"][0]["ruleset"]](data["components"], len(names))
    assert decks == pbems_decks(data, names)
    assert {deck: len(cards) for deck, cards in decks.items()} == sizes


def prefix(source: Path, target: Path, through: Callable[[dict[str, Any]], bool]) -> Path:
    """The game up to the first entry for which ``through`` holds, header to match."""
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    last = next(position for position, entry in enumerate(data["entry"]) if through(entry))
    entries = data["entry"][: last + 1]
    audit = ledger.audit({**data, "entry": entries}, lambda key, run: None)  # pbem's proofs are CI's
    assert audit.ledger is not None
    header = dict(data["game"], entries=len(entries), head=audit.ledger.head)
    text = gamefile.render_new(header, data["roster"], data["components"], entries, ["a prefix"])
    target.write_text(text, encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("example", "shuffles"),
    [("florence-four-players.toml", 3), ("principe-four-players.toml", 1)],
)
def test_it_checks_florence_and_principe_without_being_given_their_cards(
    tmp_path: Path, example: str, shuffles: int
) -> None:
    """The examples up to the first seat's shuffle of every deck, each proof checked against the
    open deck dealt from the file's component data (CI checks both examples whole, in about ten
    seconds each: every shuffle, share and card shown)."""
    cut = prefix(EXAMPLES / example, tmp_path / example, lambda entry: "shuffles" in entry)
    said: list[str] = []
    assert independent_verifier.main([str(cut)], said.append) == 0, said
    assert said[-1].startswith("ok: ") and f", {shuffles} shuffle" in said[-1], said
