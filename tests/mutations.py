"""The tamper harness: semantic mutations of sound game files, and what verification says of each.

A mutation class changes one kind of thing in a game file, as an attacker or a mangling mail
program could: a move's text, a bid, an author, a step number, a link of the chain, a time, a
randomness link, a signature, an entry dropped, repeated, moved or spliced from another game, the
file cut short, the unsigned header, roster and component copies, the genesis, a sealed choice, a
hidden-deck proof, or an entry changed and signed again by its own author so that only the rules
can refuse it. Each class picks its place at random from a seeded generator.

``judge`` audits the mutated file. A mutation is *caught* when the first problem stands where the
mutation was made: at the entry it changed (by its position in the file, so by its seq and author)
or, for the unsigned copies, naming the field or the seat. A mutation that leaves the parsed file
as it was (the same value written again) is *null*, not a miss. Anything else is a miss, a problem
named elsewhere, or an audit that raised: each a bug in pbem.

``tests/test_tamper_harness.py`` runs a few hundred mutations; ``benchmarks/bench_tamper.py`` runs
thousands and prints the counts.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import itertools
import random
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from pbem import gamefile
from pbem.crypto import sealing
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger as ledger_mod
from pbem.engine import play
from pbem.engine import table as tables
from pbem.engine.decks import ProofCheck, check_now
from pbem.engine.ledger import KIND_FIELDS, Ledger, Problem
from pbem.engine.ruleset import DECK_DEMANDS
from pbem.errors import IdentityError, UsageError
from tests.conftest import potr_components, seeded_keys

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three-players.toml"
GAME = "princes-of-the-renaissance"
SEATS = ("ann", "ben", "cat")
REFEREE = "rex"  # the referee of the played game with handovers
GONE = "dot"  # a fourth seat of the played game with handovers, which never joins: gone on without
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
HEX = "0123456789abcdef"


# --- sound games ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sound:
    """A game file that verifies: its parsed data, and its seats' keys where the harness made them
    (a file from elsewhere has none, so no entry of it can be signed again)."""

    name: str
    text: str
    data: dict[str, Any]
    keys: Mapping[str, SecretKeys] = field(default_factory=dict)
    # seat -> (the seq of its handover, the key that signs for it after that)
    handed: Mapping[str, tuple[int, SecretKeys]] = field(default_factory=dict)

    def key_for(self, entry: Mapping[str, Any]) -> SecretKeys:
        """The key that signs ``entry`` for its seat: the seat's own, or after its handover the
        new holder's."""
        handed = self.handed.get(entry["by"])
        if handed is not None and entry["seq"] > handed[0]:
            return handed[1]
        return self.keys[entry["by"]]

    @property
    def entries(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.data["entry"]
        return entries


def from_file(path: Path) -> Sound:
    """A game file to mutate; ValueError if it does not verify to begin with."""
    loaded = gamefile.load(path)
    result = ledger_mod.audit(loaded.data)
    if result.problems:
        raise ValueError(f"{path} does not verify: {result.problems[0]}")
    return Sound(path.name, loaded.text, loaded.data)


@contextmanager
def fixed_sealing(seed: bytes) -> Iterator[None]:
    """Sealed choices without chance: each seal's nonce and ephemeral key follow from ``seed`` and
    a count, so a game built twice is the same file (everything else already follows from the keys,
    the nonce and the moves)."""
    from cryptography.hazmat.primitives.asymmetric import x25519

    count = itertools.count()
    real = x25519.X25519PrivateKey

    def draw(label: bytes) -> bytes:
        return hashlib.sha256(seed + label + str(next(count)).encode()).digest()

    class Ephemeral:
        @staticmethod
        def generate() -> x25519.X25519PrivateKey:
            return real.from_private_bytes(draw(b"ephemeral"))

        from_private_bytes = staticmethod(real.from_private_bytes)

    def opening(value: str) -> sealing.Opening:
        return sealing.Opening(value, draw(b"nonce")[: sealing.NONCE_SIZE])

    with (
        mock.patch.object(sealing, "new_opening", opening),
        mock.patch.object(x25519, "X25519PrivateKey", Ephemeral),
    ):
        yield


class _Clock:
    """Entry times: minutes apart, and days apart where a deadline must pass."""

    def __init__(self) -> None:
        self.now = START

    def tick(self, minutes: int = 13) -> str:
        self.now += timedelta(minutes=minutes)
        return self.now.strftime(TIME_FORMAT)


def _components(small_deck: bool) -> dict[str, Any]:
    components = potr_components("2016")
    if small_deck:  # one card of each kind: shuffles and their proofs cost a fraction
        components["treachery"] = [{**card, "copies": 1} for card in components["treachery"]]
    return components


def _copy(game: Ledger) -> Ledger:
    """Another copy of the game file: the ledger functions add entries to the ledger they are given."""
    return ledger_mod.read(game.data(), game.check)


def _merged(name: str, *copies: Ledger) -> Ledger:
    """Copies made from one point, combined as pbem merge does: their entries share a step."""
    first, *others = copies
    return ledger_mod.merge((name, first.data()), [(name, other.data()) for other in others]).ledger


def played_game(
    entries: int, *, seed: int = 2026, nonce: str = "5e" * 16, small_deck: bool = True, handover: bool = False
) -> Sound:
    """Princes of the Renaissance for ann, ben and cat, played through the signed ledger as pbem
    does, to at least ``entries`` entries and a hidden card shown: b and c join at once on copies
    (one step) giving their addresses, a note, a change of address, the setup draw and every
    seat's shuffle, two sealed bids made at once on copies, a timeout claimed against the third
    bidder, the reveals, a move undone with every other seat's consent, with ``handover`` ben's
    seat handed on to dan and, once a card is dealt, cat's, silent, handed on to eve by the others'
    consent (a game whose escrow the referee rex holds, made for a fourth seat, dot, which never
    joins: the others go on without it), then random moves that favour the Treachery cards (draws,
    decryption shares, cards shown face up). The same arguments give the same file on every run."""
    keys = {seat: seeded_keys(seat) for seat in (*SEATS, REFEREE)}
    signers = dict(keys)  # who signs for each seat now: ben's key, then dan's
    handed: dict[str, tuple[int, SecretKeys]] = {}
    components = _components(small_deck)
    rnd = random.Random(seed)
    clock = _Clock()
    with fixed_sealing(f"{seed} {nonce}".encode()):
        # the timed-out bidder plays on at once, unasked to sign again first: each timeout stands
        # in for one demand (what a genesis made before the option means)
        options = {"deadline_days": "1", "timeouts": "demand"}
        referee = None
        if handover:
            options["escrow"] = "referee"
            rex = keys[REFEREE].public(REFEREE)
            referee = ledger_mod.Referee(rex, keys[REFEREE].sign(rex.binding_message()))
        seats = [*SEATS, GONE] if handover else list(SEATS)
        setup = ledger_mod.plan(game=GAME, edition="2016", options=options, seats=seats, creator="ann")
        game = ledger_mod.new_game(
            setup, keys["ann"], at=clock.tick(), nonce=nonce, components=components, referee=referee
        )
        at = clock.tick()
        game = _merged(
            "joins",
            *(
                ledger_mod.join(_copy(game), seat, keys[seat], at, f"{seat}@example.org")[0]
                for seat in SEATS[1:]
            ),
        )
        if referee is not None:
            game, _ = ledger_mod.referee_entry(game, REFEREE, keys[REFEREE], clock.tick())
        game, _ = ledger_mod.note(
            game, "ben", "I back Venice this decade; Milan is yours.", keys["ben"], clock.tick()
        )
        game, _ = ledger_mod.address(game, "cat", "cat@example.net", keys["cat"], clock.tick())
        if handover:
            # dot never joins: past its deadline to join, ann proposes going on without it
            game, _ = ledger_mod.drop(game, "ann", GONE, keys["ann"], at=clock.tick(60 * 24 + 1))
            for seat in SEATS[1:]:
                game, _ = play.answer_undo(game, seat, True, keys[seat], clock.tick())
        undone = timed_out = False
        shown = 0
        while len(game.entries) < entries or not shown:
            if handover and undone and not handed:
                dan = seeded_keys("dan")
                try:
                    newcomer = ledger_mod.Newcomer(
                        dan.public("dan"), dan.sign(dan.public("dan").binding_message())
                    )
                    game, entry = ledger_mod.handover(game, "ben", newcomer, signers["ben"], at=clock.tick())
                except UsageError:
                    pass  # ben's sealed bid waits to be revealed: hand the seat on later
                else:
                    handed["ben"] = (entry["seq"], dan)
                    signers["ben"] = dan
                    continue
            if handover and "ben" in handed and "cat" not in handed and timed_out and _dealt(game):
                replaced = _hand_on_silent(game, signers, clock)
                if replaced is not None:
                    game, seq, eve = replaced
                    handed["cat"] = (seq, eve)
                    signers["cat"] = eve
                    continue
            assert game.table is not None and game.rules is not None
            if game.table.state.phase == "game over" or len(game.entries) > 4 * entries:
                break
            demands = tables.demands(game.rules, game.table)
            commits = [demand.seat for demand in demands if demand.kind == "commit"]
            if not timed_out and len(commits) == len(SEATS):
                # two bids sealed at once on copies, and the third seat lets its deadline pass
                at = clock.tick()
                game = _merged(
                    "bids",
                    *(
                        play.play(_copy(game), seat, f"bid {rnd.randrange(9)}", signers[seat], at)[0]
                        for seat in SEATS[:2]
                    ),
                )
                game, _ = play.timeout(game, "ann", "cat", signers["ann"], clock.tick(60 * 24 * 2))
                timed_out = True
                continue
            demand = rnd.choice(demands)
            seat = demand.seat
            if seat == REFEREE:
                game, _ = ledger_mod.referee_entry(game, REFEREE, keys[REFEREE], clock.tick())
                continue
            try:
                hand = play.hidden_hand(game, seat, signers[seat])
            except IdentityError:
                continue  # cat's new player: the seat's secret is not sealed to it yet
            _, moves = play.legal(game, seat, hand)
            if demand.kind == "reveal":
                game, entry = play.reveal(game, seat, signers[seat], clock.tick())
            elif demand.kind in DECK_DEMANDS:
                game, entry = play.sync(game, seat, signers[seat], clock.tick())
            elif demand.kind == "contribute":
                game, entry = play.play(game, seat, play.ROLL, signers[seat], clock.tick())
            else:
                game, entry = play.play(
                    game, seat, _choose(rnd, moves, demand.kind), signers[seat], clock.tick()
                )
                if entry["kind"] == "move" and not undone:
                    game, _ = play.ask_undo(game, seat, signers[seat], clock.tick())
                    for other in SEATS:
                        if other != seat:
                            game, _ = play.answer_undo(game, other, True, signers[other], clock.tick())
                    undone = True
            shown += "face_up" in entry
    text = gamefile.render_new(
        game.header(), game.roster_table(), components, game.entries, game.status_lines()
    )
    return Sound(f"played-{len(game.entries)}", text, tomllib.loads(text), keys, handed)


def _dealt(game: Ledger) -> bool:
    """A card has been dealt: a silent seat is handed on through the escrow from then on."""
    decks = game.table.decks if game.table is not None else None
    return decks is not None and not decks.nothing_dealt()


def _hand_on_silent(
    game: Ledger, signers: dict[str, SecretKeys], clock: _Clock
) -> tuple[Ledger, int, SecretKeys] | None:
    """ann proposes handing cat's seat (cat let a deadline pass) on to eve, ben (dan's key)
    consents, and eve takes it: the game, the seq of the consent, eve's key; None while the
    proposal cannot be made (cat's sealed bid waits, an undo waits)."""
    eve = seeded_keys("eve")
    identity = eve.public("eve")
    try:
        newcomer = ledger_mod.Newcomer(identity, eve.sign(identity.binding_message()))
        game, _ = ledger_mod.replace(game, "ann", "cat", newcomer, signers["ann"], at=clock.tick())
    except UsageError:
        return None
    game, entry = play.answer_undo(game, "ben", True, signers["ben"], clock.tick())
    game, _ = ledger_mod.rejoin(game, "cat", eve, clock.tick())
    return game, entry["seq"], eve


def _choose(rnd: random.Random, moves: Sequence[str], kind: str) -> str:
    """A legal move that keeps the game going and reaches the hidden cards: low sealed bids, many
    passes in auctions, cards bought and played whenever the rules allow."""
    if kind == "commit":
        return rnd.choice(list(moves[:10]))
    cards = [text for text in moves if text.startswith("play ") or text == "buy card"]
    if cards and rnd.random() < 0.7:
        return rnd.choice(cards)
    if "pass" in moves and rnd.random() < 0.4:
        return "pass"
    return rnd.choice(list(moves))


def notes_game(nonce: str, notes: int = 4) -> Sound:
    """A short game between the same seats with the same keys as ``played_game`` (another nonce,
    so another game): the entries it lends are the splices."""
    keys = {seat: seeded_keys(seat) for seat in SEATS}
    components = _components(True)
    clock = _Clock()
    setup = ledger_mod.plan(game=GAME, edition="2016", options={}, seats=list(SEATS), creator="ann")
    game = ledger_mod.new_game(setup, keys["ann"], at=clock.tick(), nonce=nonce, components=components)
    for seat in SEATS[1:]:
        game, _ = ledger_mod.join(game, seat, keys[seat], clock.tick())
    for index in range(notes):
        seat = SEATS[index % len(SEATS)]
        game, _ = ledger_mod.note(game, seat, f"note {index} from {seat}", keys[seat], clock.tick())
    text = gamefile.render_new(
        game.header(), game.roster_table(), components, game.entries, game.status_lines()
    )
    return Sound("notes", text, tomllib.loads(text), keys)


# --- mutations -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutation:
    """One change to a sound file, and where its first problem must stand: at one of the entry
    positions ``at`` (in the mutated file; None for the unsigned copies), saying each of
    ``words``. ``by_rules``: the entry was signed again by its author, so the replay's own checks
    must catch it, not the signature or the chain."""

    kind: str
    what: str
    data: dict[str, Any]
    at: frozenset[int | None]
    words: tuple[str, ...] = ()
    by_rules: bool = False
    # the file's text, for a class that edits text rather than values
    text: str | None = None


@dataclass(frozen=True)
class Context:
    """What a mutation class draws on: the sound game, and another game to splice from."""

    sound: Sound
    donors: Sequence[Sound]


Maker = Callable[[random.Random, Context], Mutation | None]


def _fresh(context: Context) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = copy.deepcopy(context.sound.data)
    return data, data["entry"]


def _pick(
    rnd: random.Random, entries: Sequence[Mapping[str, Any]], test: Callable[[Mapping[str, Any]], bool]
) -> int | None:
    places = [index for index, entry in enumerate(entries) if test(entry)]
    return rnd.choice(places) if places else None


def _label(entries: Sequence[Mapping[str, Any]], index: int) -> str:
    entry = entries[index]
    return f"entry {entry.get('seq')} (by {entry.get('by')}, {entry.get('kind')}, position {index})"


def _hex_flip(rnd: random.Random, text: str) -> str:
    if not text:
        return "".join(rnd.choice(HEX) for _ in range(64))
    place = rnd.randrange(len(text))
    digit = rnd.choice([char for char in HEX if char != text[place]])
    return text[:place] + digit + text[place + 1 :]


def _b64_flip(rnd: random.Random, text: str) -> str:
    """The base64 of the same bytes with one bit flipped (canonical, so only the bytes differ)."""
    try:
        raw = bytearray(base64.b64decode(text, validate=True))
    except ValueError:  # not base64 (a card's name): change a letter instead
        place = rnd.randrange(len(text)) if text else 0
        return text[:place] + ("x" if text[place : place + 1] != "x" else "y") + text[place + 1 :]
    if not raw:
        return "AA=="
    raw[rnd.randrange(len(raw))] ^= 1 << rnd.randrange(8)
    return base64.b64encode(bytes(raw)).decode("ascii")


def _shift_time(rnd: random.Random, text: str) -> str:
    moment = datetime.strptime(text, TIME_FORMAT)
    seconds = rnd.choice([1, 59, 3600, 86400 * 3, 86400 * 400]) * rnd.choice([-1, 1])
    return (moment + timedelta(seconds=seconds)).strftime(TIME_FORMAT)


def _seats(context: Context) -> list[str]:
    seats: list[str] = context.sound.entries[0]["seats"]
    return seats


def _entry_change(
    kind: str,
    field_test: Callable[[Mapping[str, Any]], bool],
    change: Callable[[random.Random, Context, dict[str, Any]], str],
) -> Maker:
    """A class that changes the entry at one random place where ``field_test`` holds; ``change``
    edits it in place and says what it did. The first problem must name that entry."""

    def make(rnd: random.Random, context: Context) -> Mutation | None:
        data, entries = _fresh(context)
        index = _pick(rnd, entries, field_test)
        if index is None:
            return None
        label = _label(entries, index)
        what = change(rnd, context, entries[index])
        return Mutation(kind, f"{label}: {what}", data, frozenset({index}))

    return make


def _set(entry: dict[str, Any], name: str, value: Any) -> str:
    old = entry.get(name)
    entry[name] = value
    return f"{name} {_short(old)} -> {_short(value)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _note_text(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    text = entry["text"]
    edits = [
        text + " ",
        text.replace("Venice", "Milan") if "Venice" in text else "Milan! " + text,
        text[:-1],
        text.upper(),
        text[:1] + "\u200b" + text[1:],  # a zero-width space: the same to the eye
        text.replace("e", "\u0435", 1),  # a Cyrillic e: the same to the eye
    ]
    return _set(entry, "text", rnd.choice(edits))


def _move_text(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    pool = sorted(
        {other["move"] for other in context.sound.entries if other.get("kind") == "move"} | {"pass"}
    )
    others = [text for text in pool if text != entry["move"]]
    return _set(entry, "move", rnd.choice(others))


NUMBER = re.compile(r"\d+")


def _numbered(entry: Mapping[str, Any]) -> str | None:
    for name in ("move", "value"):
        if entry.get("kind") in ("move", "reveal") and NUMBER.search(str(entry.get(name, ""))):
            return name
    return None


def _amount(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    name = _numbered(entry)
    assert name is not None
    text = entry[name]
    found = rnd.choice(list(NUMBER.finditer(text)))
    number = int(found.group())
    new = max(0, number + rnd.choice([-10, -2, -1, 1, 2, 10, 100]))
    if new == number:
        new = number + 1
    return _set(entry, name, text[: found.start()] + str(new) + text[found.end() :])


def _by(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    others = [seat for seat in _seats(context) if seat != entry["by"]]
    return _set(entry, "by", rnd.choice([*others, "mallory", entry["by"].upper()]))


def _seq(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    return _set(entry, "seq", max(0, entry["seq"] + rnd.choice([-2, -1, 1, 2, 7])) if entry["seq"] else 1)


def _prev(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    hashes = sorted({other["prev"] for other in context.sound.entries} - {entry["prev"]})
    return _set(
        entry,
        "prev",
        rnd.choice([_hex_flip(rnd, entry["prev"]), rnd.choice(hashes), ""])
        if entry["prev"]
        else _hex_flip(rnd, ""),
    )


def _at(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    return _set(entry, "at", _shift_time(rnd, entry["at"]))


def _rand(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    name = "rand" if "rand" in entry else "rand_tip"
    links = sorted({other[name] for other in context.sound.entries if name in other} - {entry[name]})
    return _set(entry, name, rnd.choice([_hex_flip(rnd, entry[name]), *links[:3]]))


def _sig(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    sigs = [other["sig"] for other in context.sound.entries if other["sig"] != entry["sig"]]
    choice = rnd.randrange(4)
    if choice == 0 and sigs:
        return _set(entry, "sig", rnd.choice(sigs))
    if choice == 1:
        del entry["sig"]
        return "sig removed"
    return _set(entry, "sig", _b64_flip(rnd, entry["sig"]))


def _fields(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    choice = rnd.randrange(3)
    if choice == 0:
        name = rnd.choice(["mood", "Sig", "seq ", "comment", "rand2"])
        return _set(entry, name, rnd.choice(["smug", 1, ["x"]]))
    if choice == 1:
        name = rnd.choice(sorted(entry))
        del entry[name]
        return f"{name} removed"
    return _set(entry, "kind", rnd.choice([kind for kind in KIND_FIELDS if kind != entry["kind"]] + ["roll"]))


def _types(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    name = rnd.choice(sorted(entry))
    old = entry[name]
    if isinstance(old, bool):
        new: Any = int(old)
    elif isinstance(old, int):
        new = rnd.choice([str(old), float(old), old == 1, [old]])
    elif isinstance(old, str):
        new = rnd.choice([[old], {"value": old}, len(old), True, datetime(2026, 3, 1, 9, 0)])
    else:
        new = str(old)
    return _set(entry, name, new)


def _sealed(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    if entry["kind"] == "commit":
        name = rnd.choice(["commitment", "sealed"])
        return _set(
            entry, name, _hex_flip(rnd, entry[name]) if name == "commitment" else _b64_flip(rnd, entry[name])
        )
    name = rnd.choice(["value", "nonce"])
    if name == "nonce":
        return _set(entry, name, _hex_flip(rnd, entry[name]))
    return _set(entry, name, rnd.choice(["bid 45", "bid 0", entry["value"] + " ", "pass"]))


DECK_FIELDS = ("shuffles", "shares", "face_up", "remask", "deck_key", "deck_key_proof")
DECK_PROOFS = ("shares_proof", "face_up_proof")  # a compact group's one proof per list of shares


def _swap_packed(rnd: random.Random, text: str, size: int) -> str | None:
    """A packed list (a compact group's one text of ``size``-byte values) with two values swapped."""
    raw = base64.b64decode(text)
    count = len(raw) // size
    if count < 2:
        return None
    first, second = sorted(rnd.sample(range(count), 2))
    values = [raw[i * size : (i + 1) * size] for i in range(count)]
    values[first], values[second] = values[second], values[first]
    return base64.b64encode(b"".join(values)).decode("ascii")


def _has_deck(entry: Mapping[str, Any]) -> bool:
    return any(name in entry for name in DECK_FIELDS)


def _deck(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    name = rnd.choice([name for name in (*DECK_FIELDS, *DECK_PROOFS) if name in entry])
    if name in ("deck_key", "deck_key_proof", *DECK_PROOFS):
        keys = sorted({other[name] for other in context.sound.entries if name in other} - {entry[name]})
        return _set(entry, name, rnd.choice([_b64_flip(rnd, entry[name]), *keys[:2]]))
    item = rnd.choice(entry[name])
    compact = "slots" in item and name in ("shares", "face_up")
    if name == "face_up" and rnd.random() < 0.5:
        cards = {card["id"] for card in context.sound.data.get("components", {}).get("treachery", [])}
        if compact:
            named = item["cards"]
            named[0] = rnd.choice(sorted(cards - {named[0]}) or ["x"])
            return f"face_up: cards[0] = {named[0]!r}"
        return f"face_up: {_set(item, 'card', rnd.choice(sorted(cards - {item['card']}) or ['x']))}"
    if name in ("shares", "face_up") and rnd.random() < 0.3:
        if compact:
            item["slots"][0] += 1
            return f"{name}: slots[0] = {item['slots'][0]}"
        return f"{name}: {_set(item, 'slot', item['slot'] + 1)}"
    values = [key for key, value in item.items() if isinstance(value, str) and key != "deck" and value] + [
        key
        for key, value in item.items()
        if isinstance(value, list) and value and all(isinstance(one, str) for one in value)
    ]
    key = rnd.choice(values)
    if isinstance(item[key], str) and rnd.random() < 0.3:
        swapped = _swap_packed(rnd, item[key], 64 if key in ("cards", "card") else 32)
        if swapped is not None and swapped != item[key]:
            item[key] = swapped
            return f"{name}.{key}: two packed values swapped"
    if isinstance(item[key], list):
        items = item[key]
        if len(items) > 1 and rnd.random() < 0.5:
            first, second = rnd.sample(range(len(items)), 2)
            items[first], items[second] = items[second], items[first]
            return f"{name}.{key}: items {first} and {second} swapped"
        place = rnd.randrange(len(items))
        items[place] = _b64_flip(rnd, items[place])
        return f"{name}.{key}[{place}]: one bit flipped"
    return f"{name}: {_set(item, key, _b64_flip(rnd, item[key]))}"


PLAY_FIELDS = ("event", "step", "late", "target", "agree")


def _play_fields(rnd: random.Random, context: Context, entry: dict[str, Any]) -> str:
    name = rnd.choice([name for name in PLAY_FIELDS if name in entry])
    old = entry[name]
    if name == "agree":
        return _set(entry, name, not old)
    if name == "target":
        return _set(entry, name, old + rnd.choice([-1, 1]))
    if name == "late":
        return _set(entry, name, rnd.choice([seat for seat in _seats(context) if seat != old]))
    return _set(
        entry, name, rnd.choice(["setup draw", "turn-order bid", "war 1 dice", "family bidding", old + "!"])
    )


def _genesis(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    genesis = entries[0]
    name = rnd.choice(
        ["options", "seats", "components", "nonce", "game_id", "edition", "ruleset", "sign", "box", "by"]
    )
    old = genesis[name]
    if name == "options":
        options = dict(old)
        option = rnd.choice(sorted(options))
        value = options[option]
        choices: list[Any]
        if type(value) is bool:
            choices = [not value, 0, 1, str(value).lower()]
        elif type(value) is int:
            choices = [value + 1, -1, 0, 99, str(value)]
        else:
            choices = [value + "x", value.upper(), True, "a", "b", "dice"]
        options[option] = rnd.choice([choice for choice in choices if choice != value])
        if rnd.random() < 0.2:
            options["house_rule"] = True
        new: Any = options
    elif name == "seats":
        seats = list(old)
        new = rnd.choice([seats[::-1], [*seats, "dan"], seats[:-1], [seats[0].upper(), *seats[1:]]])
    elif name in ("nonce", "game_id"):
        new = _hex_flip(rnd, old)
    elif name == "components":
        new = "sha256:" + _hex_flip(rnd, old.removeprefix("sha256:"))
    elif name in ("sign", "box"):
        others = sorted({entry[name] for entry in entries if name in entry} - {old})
        new = rnd.choice([_b64_flip(rnd, old), *others])
    elif name == "edition":
        new = rnd.choice(["2003", "1999"])
    elif name == "ruleset":
        new = rnd.choice(["potr", "il-principe", "princes-of-florence"])
    else:
        new = rnd.choice([seat for seat in genesis["seats"] if seat != old])
    genesis[name] = new
    return Mutation(
        "genesis", f"entry 0 (genesis): {name} {_short(old)} -> {_short(new)}", data, frozenset({0})
    )


def _components_change(rnd: random.Random, context: Context) -> Mutation | None:
    data, _ = _fresh(context)
    components = data.get("components")
    if not components:
        data["components"] = {"rules": {"start_gold": 45}}
        return Mutation("components", "a [components] table added", data, frozenset({0}), ("component data",))
    leaves = list(_leaves(components))
    path, value = rnd.choice(leaves)
    parent: Any = components
    for key in path[:-1]:
        parent = parent[key]
    choice = rnd.randrange(6)
    if choice == 0:
        del parent[path[-1]]
        what = "removed"
    elif choice == 1 and isinstance(parent, dict):
        parent["extra"] = 1
        what = "an extra value added beside it"
    elif isinstance(value, bool):
        parent[path[-1]] = not value
        what = f"{value} -> {not value}"
    elif isinstance(value, int):
        parent[path[-1]] = value + rnd.choice([-1, 1, 10])
        what = f"{value} -> {parent[path[-1]]}"
    else:
        parent[path[-1]] = str(value) + rnd.choice(["x", " ", "-b"])
        what = f"{_short(value)} -> {_short(parent[path[-1]])}"
    where = ".".join(map(str, path))
    return Mutation("components", f"components.{where}: {what}", data, frozenset({0}), ("component data",))


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        if isinstance(child, dict | list):
            yield from _leaves(child, (*path, key))
        else:
            yield (*path, key), child


def _header(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    header = data["game"]
    name = rnd.choice(["format", "id", "ruleset", "edition", "seats", "entries", "head", "added", "removed"])
    last = len(entries) - 1
    if name == "added":
        header["winner"] = "ann"
        return Mutation("header", "[game]: a field 'winner' added", data, frozenset({None}), ("'winner'",))
    if name == "removed":
        removed = rnd.choice(sorted(header))
        del header[removed]
        words = ("format",) if removed == "format" else (f"'{removed}'",)
        return Mutation("header", f"[game]: {removed} removed", data, frozenset({None}), words)
    old = header[name]
    new: Any
    if name == "format":
        new = rnd.choice([2, "1", 0, True])
    elif name in ("id", "head"):
        new = _hex_flip(rnd, old)
    elif name == "seats":
        new = rnd.choice([old[::-1], old[:-1], [*old, "dan"]])
    elif name == "entries":
        new = rnd.choice([old + 1, old - 1, old + 100, float(old), str(old)])
    else:
        new = old + rnd.choice(["x", " "])
    header[name] = new
    what = f"[game]: {name} {_short(old)} -> {_short(new)}"
    if name == "format":
        return Mutation("header", what, data, frozenset({None}), ("format",))
    if name == "entries" and type(new) is int and new > old:  # a longer game than the file holds: cut
        return Mutation("header", what, data, frozenset({last}), ("truncated",))
    return Mutation("header", what, data, frozenset({None}), (f"'{name}'",))


def _roster(rnd: random.Random, context: Context) -> Mutation | None:
    data, _ = _fresh(context)
    roster = data["roster"]
    seat = rnd.choice(sorted(roster))
    choice = rnd.randrange(4)
    if choice == 0:
        del roster[seat]
        what = f"[roster.{seat}] removed"
    elif choice == 1:
        roster["mallory"] = dict(roster[seat])
        return Mutation(
            "roster",
            f"[roster.mallory] added, a copy of {seat}'s",
            data,
            frozenset({None}),
            ("'mallory'", "roster"),
        )
    else:
        name = rnd.choice(["sign", "box", "fingerprint"])
        old = roster[seat][name]
        others = sorted({table[name] for table in roster.values()} - {old})
        if name == "fingerprint":
            new = rnd.choice([old.lower(), old.replace("-", ""), *others])
        else:
            new = rnd.choice([_b64_flip(rnd, old), *others])
        roster[seat][name] = new
        what = f"[roster.{seat}] {name} {_short(old)} -> {_short(new)}"
    return Mutation("roster", what, data, frozenset({None}), (f"'{seat}'", "roster"))


def _step_starts(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    return [
        index
        for index, entry in enumerate(entries)
        if index == 0 or entry["seq"] != entries[index - 1]["seq"]
    ]


def _drop(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    index = rnd.randrange(len(entries))
    label = _label(entries, index)
    dropped = entries.pop(index)
    if index == len(entries):  # the last entry: the header still counts it
        return Mutation("drop", f"{label} removed", data, frozenset({index - 1}))
    # The entry now in its place; or, where the dropped entry shared its step, the next step (the
    # first entry whose prev took the dropped one in), or the end of the file.
    later = [place for place in range(index, len(entries)) if entries[place]["seq"] != dropped["seq"]]
    return Mutation(
        "drop", f"{label} removed", data, frozenset({index, later[0] if later else len(entries) - 1})
    )


def _duplicate(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    index = rnd.randrange(len(entries))
    label = _label(entries, index)
    entries.insert(index + 1, copy.deepcopy(entries[index]))
    return Mutation("duplicate", f"{label} repeated after itself", data, frozenset({index + 1}))


def _swap(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    if len(entries) < 2:
        return None
    first = rnd.randrange(len(entries) - 1)
    second = first + 1 if rnd.random() < 0.5 else rnd.randrange(first + 1, len(entries))
    what = f"{_label(entries, first)} and {_label(entries, second)} swapped"
    entries[first], entries[second] = entries[second], entries[first]
    return Mutation("swap", what, data, frozenset(range(first, second + 1)))


def _truncate(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    if len(entries) < 2:
        return None
    index = rnd.randrange(len(entries) - 1)
    what = f"the file cut after {_label(entries, index)}, header left as it was"
    del entries[index + 1 :]
    return Mutation("truncate", what, data, frozenset({index}), ("truncated",))


def _splice(rnd: random.Random, context: Context) -> Mutation | None:
    data, entries = _fresh(context)
    donor = rnd.choice(context.donors)
    index = rnd.randrange(1, len(entries)) if len(entries) > 1 else None
    if index is None:
        return None
    place = rnd.randrange(len(donor.entries))
    what = f"{_label(entries, index)} replaced by entry {place} of the game {donor.name}"
    entries[index] = copy.deepcopy(donor.entries[place])
    return Mutation("splice", what, data, frozenset({index}))


# --- signed again by the author: only the rules can refuse it ------------------------------------
def _before(context: Context, index: int) -> Ledger:
    """The game as it stood before the entry at ``index``."""
    data = dict(context.sound.data)
    data["entry"] = context.sound.entries[:index]
    ledger = ledger_mod.audit(data).ledger
    assert ledger is not None
    return ledger


def _illegal_move(rnd: random.Random, context: Context, index: int, entry: dict[str, Any]) -> str | None:
    """Another move its author could not make then: one made elsewhere in the game, or one another
    seat could make at that point, that the rules list for neither the author's turn nor as a
    move open at any time."""
    ledger = _before(context, index)
    seat = entry["by"]
    allowed = set(play.legal(ledger, seat)[1]) | set(play.free_moves(ledger, seat))
    pool = {other["move"] for other in context.sound.entries if other.get("kind") == "move"} | {
        "pass",
        "buy card",
    }
    for other in _seats(context):
        if other != seat:
            pool |= set(play.legal(ledger, other)[1][:20])
    candidates = sorted(pool - allowed - {entry["move"]})
    if not candidates:
        return None
    entry["move"] = rnd.choice(candidates)
    return f"move -> {entry['move']!r}, not one {seat} could make"


def _altered(rnd: random.Random, context: Context, index: int, entry: dict[str, Any]) -> str | None:
    """Edit the entry so that it breaks a rule, or None if this kind of entry has no such edit."""
    kind = entry["kind"]
    options: list[Callable[[], str | None]] = []
    if kind == "genesis":

        def other_option() -> str:
            entry["options"] = {**entry["options"], "deadline_days": entry["options"]["deadline_days"] + 1}
            return "an option changed, the game id kept"

        options.append(other_option)
    if kind == "join":
        keys = [
            other["deck_key"]
            for other in context.sound.entries
            if other.get("deck_key") not in (None, entry["deck_key"])
        ]
        if keys:
            options.append(lambda: _set(entry, "deck_key", rnd.choice(keys)) + " (another seat's key)")
    if kind == "join":
        options.append(lambda: _set(entry, "rand_tip", rnd.choice(["xyz", entry["rand_tip"].upper()])))
    if kind == "note":
        options.append(lambda: _set(entry, "text", rnd.choice([" \n ", "x" * (ledger_mod.NOTE_LIMIT + 1)])))
    if kind == "move":
        options.append(lambda: _illegal_move(rnd, context, index, entry))
        hostile = rnd.choice(["\nerror: all is well", "\r\x1b[2K", " \x07"])
        options.append(lambda: _set(entry, "move", entry["move"] + hostile))
    if kind in ("commit", "contribute", "sync") and "rand" in entry:

        def as_move() -> str:
            for name in ("step", "commitment", "sealed", "event"):
                entry.pop(name, None)
            entry["kind"], entry["move"] = "move", "bid 7"
            return f"a {kind} made an open move instead ('bid 7')"

        options.append(as_move)
    if kind == "timeout":
        options.append(
            lambda: _set(entry, "at", context.sound.entries[index - 1]["at"]) + " (before the deadline)"
        )
    if kind == "commit":
        options += [
            lambda: _set(entry, "step", rnd.choice(["family bidding", "war 1 dice", entry["step"] + "s"])),
            lambda: _set(entry, "commitment", entry["commitment"].upper()),
            lambda: _set(entry, "sealed", entry["sealed"][:-1]),
        ]
    if kind == "reveal":
        options += [
            lambda: _set(entry, "value", "bid " + str(int(entry["value"].split()[-1]) + 1)),
            lambda: _set(entry, "nonce", "00" * 16),
        ]
    if kind == "contribute":
        options.append(
            lambda: _set(entry, "event", rnd.choice(["war 9 dice", "turn-order draw", entry["event"] + "!"]))
        )
    if kind == "timeout":
        options.append(lambda: _set(entry, "late", entry["by"]))
        options.append(
            lambda: _set(
                entry,
                "late",
                rnd.choice([seat for seat in _seats(context) if seat not in (entry["late"], entry["by"])]),
            )
        )
    if kind in ("undo", "consent"):
        options.append(lambda: _set(entry, "target", entry["target"] + rnd.choice([-1, 1])))
    if kind == "handover":
        seated = [other["sign"] for other in context.sound.entries if other["kind"] in ("genesis", "join")]
        options += [
            lambda: _set(entry, "name", entry["name"] + "x") + " (an identity its key did not sign)",
            lambda: _set(entry, "sign", rnd.choice(seated)) + " (a key that holds a seat)",
        ]
    if entry.get("shares") and "slots" in entry["shares"][0]:
        tables = entry["shares"]

        def drop_packed_share() -> str:
            place = rnd.randrange(len(tables))
            table = tables[place]
            raw = base64.b64decode(table["shares"])
            table["slots"] = table["slots"][1:]
            table["shares"] = base64.b64encode(raw[32:]).decode("ascii")
            if not table["slots"]:
                del tables[place]
            if not tables:
                del entry["shares"]
            return f"shares[{place}]: its first share left out"

        def other_packed_share() -> str | None:
            first = base64.b64decode(tables[0]["shares"])[:32]
            values = [
                base64.b64decode(item["shares"])[:32]
                for other in context.sound.entries
                for item in other.get("shares", ())
                if "slots" in item
            ]
            values = [value for value in values if value != first]
            if not values:
                return None
            raw = base64.b64decode(tables[0]["shares"])
            tables[0]["shares"] = base64.b64encode(rnd.choice(values) + raw[32:]).decode("ascii")
            return "shares[0]: its first share is another slot's"

        options += [drop_packed_share, other_packed_share]
    elif entry.get("shares"):
        shares = entry["shares"]

        def drop_share() -> str:
            place = rnd.randrange(len(shares))
            del shares[place]
            if not shares:
                del entry["shares"]
            return f"shares[{place}] left out"

        def other_share() -> str | None:
            values = [
                item["share"]
                for other in context.sound.entries
                for item in other.get("shares", ())
                if item["share"] != shares[0]["share"]
            ]
            return (
                _set(shares[0], "share", rnd.choice(values)) + " (another slot's share)" if values else None
            )

        options += [drop_share, other_share]
    if entry.get("shuffles"):
        shuffle = entry["shuffles"][0]

        def swap_cards() -> str:
            cards = shuffle["cards"]
            if isinstance(cards, str):
                swapped = _swap_packed(rnd, cards, 64)
                assert swapped is not None
                shuffle["cards"] = swapped
                return "shuffles[0]: two cards swapped after the proof was made"
            first, second = rnd.sample(range(len(cards)), 2)
            cards[first], cards[second] = cards[second], cards[first]
            return f"shuffles[0]: cards {first} and {second} swapped after the proof was made"

        def no_shuffle() -> str:
            del entry["shuffles"]
            return "its shuffle left out"

        options += [swap_cards, no_shuffle]
    if entry.get("face_up"):
        item = entry["face_up"][0]
        claimed = item["cards"][0] if "cards" in item else item["card"]
        names = sorted(
            {card["id"] for card in context.sound.data.get("components", {}).get("treachery", ())} - {claimed}
        )

        def other_card() -> str:
            if "cards" in item:
                item["cards"][0] = rnd.choice(names)
                return f"face_up[0]: cards[0] = {item['cards'][0]!r}"
            return "face_up[0]: " + _set(item, "card", rnd.choice(names))

        if names:
            options.append(other_card)
    rnd.shuffle(options)
    for edit in options:
        what = edit()
        if what is not None:
            return what
    return None


def _resign(rnd: random.Random, context: Context) -> Mutation | None:
    keys = context.sound.keys
    if not keys:
        return None
    data, entries = _fresh(context)
    places = list(range(len(entries)))
    rnd.shuffle(places)
    # A move undone later with every seat's consent is skipped by replay, so no rule judges it:
    # edited and signed again, only the entry after it (which names its hash) gives it away.
    whole = ledger_mod.audit(context.sound.data).ledger
    void = whole.void if whole is not None else set()
    for index in places:
        entry = entries[index]
        if entry["by"] not in keys or (entry["kind"] == "move" and entry["seq"] in void):
            continue
        label = _label(entries, index)
        what = _altered(rnd, context, index, entry)
        if what is None:
            entries[index] = copy.deepcopy(context.sound.entries[index])
            continue
        entries[index] = ledger_mod.sign_entry(entries[0]["game_id"], entry, context.sound.key_for(entry))
        return Mutation(
            "re-signed",
            f"{label}: {what}, signed again by {entry['by']}",
            data,
            frozenset({index}),
            by_rules=True,
        )
    return None


def _equivocation(rnd: random.Random, context: Context) -> Mutation | None:
    """A second, different entry for one step, signed by the same seat and put beside the first:
    no edit, a seat's own fork of the game, which the two signatures prove."""
    keys = context.sound.keys
    data, entries = _fresh(context)
    places = [index for index, entry in enumerate(entries) if index and entry["by"] in keys]
    if not places:
        return None
    index = rnd.choice(places)
    other = copy.deepcopy(entries[index])
    other["at"] = _shift_time(rnd, other["at"])
    if "text" in other:
        other["text"] = "I never said that"
    entries.insert(
        index + 1, ledger_mod.sign_entry(entries[0]["game_id"], other, context.sound.key_for(other))
    )
    what = f"{_label(entries, index)}: a second one for its step, {other['at']}, signed by {other['by']}"
    return Mutation("equivocation", what, data, frozenset({index + 1}), ("equivocation",))


ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*) = (.+)$", re.MULTILINE)


def _same_value(rnd: random.Random, context: Context) -> Mutation | None:
    """A value written another way TOML reads the same (a hex or signed integer, a literal or
    escaped string, spaces, a comment), or the whole file with CR LF line ends or a byte-order
    mark: nothing signed changes, so the file must still verify."""
    text = context.sound.text
    choice = rnd.randrange(10)
    if choice == 0:
        return _rewritten(context, text.replace("\n", "\r\n"), "CR LF line ends")
    if choice == 1:
        return _rewritten(context, gamefile.BOM + text, "a byte-order mark")
    found = rnd.choice(list(ASSIGNMENT.finditer(text)))
    key, value = found.groups()
    forms = [f"{value}  # a comment", f"{value}   "]
    if re.fullmatch(r"-?[0-9]+", value):
        number = int(value)
        forms += [f"+{number}" if number >= 0 else value, hex(number) if number >= 0 else value]
        if len(value.lstrip("-")) > 1:
            forms.append(value[:-1] + "_" + value[-1])
    elif value.startswith('"') and value.endswith('"') and "\\" not in value:
        inner = value[1:-1]
        if "'" not in inner:
            forms.append(f"'{inner}'")
        if inner:
            forms.append(f'"\\u{ord(inner[0]):04x}{inner[1:]}"')
            if not inner.endswith('"'):
                forms.append(f'"""{inner}"""')
    elif value.startswith(("[", "{")):
        forms.append(value.replace(", ", " ,  ").replace("[", "[ ", 1))
    form = rnd.choice(forms)
    line = f"{key} = {value}"
    return _rewritten(
        context,
        text[: found.start()] + f"{key} =  {form}" + text[found.end() :],
        f"{line!r} written {form!r}",
    )


def _rewritten(context: Context, text: str, what: str) -> Mutation | None:
    try:
        data = gamefile.parse(text.encode("utf-8"), context.sound.name)
    except Exception:  # a rewrite this harness got wrong: not a mutation of a value
        return None
    return Mutation("same value", what, data, frozenset(), text=text)


# --- the classes ---------------------------------------------------------------------------------
CLASSES: dict[str, Maker] = {
    "note text": _entry_change("note text", lambda entry: entry.get("kind") == "note", _note_text),
    "move text": _entry_change("move text", lambda entry: entry.get("kind") == "move", _move_text),
    "amount": _entry_change("amount", lambda entry: _numbered(entry) is not None, _amount),
    "by": _entry_change("by", lambda entry: True, _by),
    "seq": _entry_change("seq", lambda entry: True, _seq),
    "prev": _entry_change("prev", lambda entry: True, _prev),
    "at": _entry_change("at", lambda entry: True, _at),
    "rand": _entry_change("rand", lambda entry: "rand" in entry or "rand_tip" in entry, _rand),
    "signature": _entry_change("signature", lambda entry: True, _sig),
    "fields": _entry_change("fields", lambda entry: True, _fields),
    "types": _entry_change("types", lambda entry: True, _types),
    "sealed": _entry_change("sealed", lambda entry: entry.get("kind") in ("commit", "reveal"), _sealed),
    "hidden deck": _entry_change("hidden deck", _has_deck, _deck),
    "play fields": _entry_change(
        "play fields", lambda entry: any(name in entry for name in PLAY_FIELDS), _play_fields
    ),
    "drop": _drop,
    "duplicate": _duplicate,
    "swap": _swap,
    "truncate": _truncate,
    "splice": _splice,
    "genesis": _genesis,
    "components": _components_change,
    "header": _header,
    "roster": _roster,
    "re-signed": _resign,
    "equivocation": _equivocation,
    "same value": _same_value,
}
# Classes whose mutations change nothing the parser reads: each must be null (and so verify).
NULL_CLASSES = ("same value",)


# --- judging -------------------------------------------------------------------------------------
CAUGHT, NULL, MISSED, MISNAMED, RAISED = "caught", "null", "missed", "misnamed", "raised"


@dataclass(frozen=True)
class Verdict:
    outcome: str
    problem: Problem | None = None
    detail: str = ""


def same(found: Any, expected: Any) -> bool:
    """Equality as TOML sees it: types count (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(found) is not type(expected):
        return False
    if isinstance(expected, dict):
        return found.keys() == expected.keys() and all(same(found[key], expected[key]) for key in expected)
    if isinstance(expected, list):
        return len(found) == len(expected) and all(map(same, found, expected))
    return bool(found == expected)


def judge(sound: Sound, mutation: Mutation, check: ProofCheck = check_now) -> Verdict:
    """What the audit says of a mutated file: caught where it was made, or null (nothing changed
    as the parser reads it), or else missed, named elsewhere, or raised (each a bug)."""
    if same(mutation.data, sound.data):
        return Verdict(NULL)
    try:
        result = ledger_mod.audit(copy.deepcopy(mutation.data), check)
    except Exception as exc:  # whatever escapes the audit is the finding
        return Verdict(RAISED, detail=f"{type(exc).__name__}: {exc}")
    if not result.problems:
        return Verdict(MISSED)
    first = result.problems[0]
    return Verdict(CAUGHT if named(mutation, first) else MISNAMED, first)


def named(mutation: Mutation, problem: Problem) -> bool:
    if problem.position not in mutation.at or not all(word in str(problem) for word in mutation.words):
        return False
    # an entry its author signed again passes its signature and its place: the rules must refuse it
    return not (mutation.by_rules and ("signature" in problem.message or "does not chain" in problem.message))


@dataclass
class Tally:
    """Counts per class: how many mutations were made, and what became of them."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    failures: list[tuple[Mutation, Verdict]] = field(default_factory=list)

    def add(self, mutation: Mutation, verdict: Verdict) -> None:
        row = self.counts.setdefault(
            mutation.kind, dict.fromkeys((CAUGHT, NULL, MISSED, MISNAMED, RAISED), 0)
        )
        row[verdict.outcome] += 1
        if verdict.outcome not in (CAUGHT, NULL):
            self.failures.append((mutation, verdict))

    def total(self, outcome: str) -> int:
        return sum(row[outcome] for row in self.counts.values())


def run(
    sound: Sound,
    donors: Sequence[Sound],
    per_class: int,
    seed: int,
    tally: Tally,
    check: ProofCheck = check_now,
) -> list[Mutation]:
    """``per_class`` mutations of each class on ``sound`` (fewer where a class has no place in it),
    each judged into ``tally``; returns the mutations made."""
    context = Context(sound, [donor for donor in donors if donor.name != sound.name])
    made = []
    for name, maker in CLASSES.items():
        rnd = random.Random(f"{seed} {sound.name} {name}")
        for _ in range(per_class):
            mutation = maker(rnd, context)
            if mutation is None:
                break
            tally.add(mutation, judge(sound, mutation, check))
            made.append(mutation)
    return made


def write(data: Mapping[str, Any], path: Path) -> bool:
    """Write mutated data as a TOML file; False if TOML cannot carry it exactly."""
    import tomlkit

    text = tomlkit.dumps(dict(data))
    try:
        back = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    if not same(back, dict(data)):
        return False
    path.write_text(text, encoding="utf-8")
    return True


def verify_says(path: Path, home: Path) -> tuple[int, list[str]]:
    """``pbem verify FILE`` in this process: its exit code and its lines on stderr."""
    from typer.testing import CliRunner

    from pbem.cli import app

    env = {"PBEM_HOME": str(home), "NO_COLOR": "1", "COLUMNS": None, "PBEM_NOW": None}
    result = CliRunner().invoke(app, ["verify", str(path)], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stderr.splitlines()


def cli_disagrees(mutation: Mutation, verdict: Verdict, path: Path, home: Path) -> str | None:
    """Why ``pbem verify`` on the mutated file does not say what the audit said, or None: exit 0
    for a null mutation; otherwise exit 3 (6 for equivocation) and the audit's first problem as
    its first line."""
    if mutation.text is not None:
        path.write_text(mutation.text, encoding="utf-8", newline="")
    elif not write(mutation.data, path):
        return None  # TOML cannot carry the mutated values exactly: nothing to compare
    code, lines = verify_says(path, home)
    if verdict.outcome == NULL:
        return None if code == 0 else f"exit {code} for a file that reads as the sound one: {lines[:1]}"
    assert verdict.problem is not None
    equivocation = "equivocation" in verdict.problem.message
    expected = 6 if equivocation else 3
    first = f"error: {path}: {verdict.problem}"
    if code != expected or not lines or lines[0] != first:
        return f"exit {code}, {lines[:1]}; the audit says {first!r}, exit {expected}"
    # one line (verify adds the equivocation it found), with nothing of the file's that a terminal
    # would act on
    if len(lines) > (2 if equivocation else 1) or any(not line.startswith("error: ") for line in lines):
        return f"more than the problem on stderr: {lines}"
    if any(char in line for line in lines for char in "\r\x1b\x07\x00"):
        return f"a control character on stderr: {lines}"
    return None


def through_verify(
    sounds: Sequence[Sound], donors: Sequence[Sound], count: int, seed: int, work: Path, *, every_game: bool
) -> tuple[int, list[str]]:
    """``count`` mutations of each class through ``pbem verify``, on every game or else on the
    first game the class has a place in (verify checks every proof of a file each time, so a
    small game is the cheap one to start with); how many files ran, and every disagreement."""
    ran, complaints = 0, []
    if not every_game:
        sounds = sorted(sounds, key=lambda sound: len(sound.text))
    for name, maker in CLASSES.items():
        for sound in sounds:
            context = Context(sound, [donor for donor in donors if donor.name != sound.name])
            rnd = random.Random(f"{seed} verify {sound.name} {name}")
            made = 0
            for number in range(count):
                mutation = maker(rnd, context)
                if mutation is None:
                    break
                made += 1
                verdict = judge(sound, mutation)
                path = work / f"{sound.name}-{name.replace(' ', '-')}-{number}.toml"
                complaint = cli_disagrees(mutation, verdict, path, work / "home")
                ran += path.exists()
                if complaint is not None:
                    complaints.append(f"{sound.name}: {mutation.what}: {complaint}")
            if made and not every_game:
                break
    return ran, complaints
