"""The ledger: a game file's signed, hash-chained entries, replayed and checked.

``audit`` never raises: it returns what it could rebuild and every problem it found. ``read``
raises ``GameFileError`` with the first problem. Both follow the same order: structure, then for
each entry its fields, place in the chain and signature against the pinned roster, then the
unsigned copies (header, roster table, components) against what the entries say.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from pbem.crypto import deck_groups, randomness, sealing
from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.canonical import canonical_bytes
from pbem.crypto.deck_groups import NEW_GROUP, OLD_GROUP
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.groups import Element, Group
from pbem.crypto.identity import PublicIdentity, SecretKeys, check_name, identity_signed, valid_name
from pbem.crypto.signing import (
    KEY_SIZE,
    SIGNATURE_SIZE,
    entry_hash,
    entry_message,
    pae,
    signature_valid,
)
from pbem.engine import decks as hidden_decks
from pbem.engine import escrows, proof_checks, registry, silent_setup
from pbem.engine import table as tables
from pbem.engine.branches import Branches, Node, step_digest
from pbem.engine.decks import ProofCheck, check_now
from pbem.engine.registry import GameInfo, OptionValue
from pbem.engine.ruleset import Ruleset, ruleset_for
from pbem.engine.seats import check_seat
from pbem.engine.table import Table
from pbem.errors import (
    EquivocationError,
    GameFileError,
    IdentityError,
    IllegalMoveError,
    PbemError,
    UsageError,
)

FORMAT = 1
COMPONENTS_DOMAIN = "pbem/components/v1"
GAME_ID_DOMAIN = "pbem/game-id/v1"
# The genesis fields the game id does not cover: the id itself, and what the creator derives
# from it (its randomness chain and hidden-deck key) or signs over it.
DERIVED_GENESIS_FIELDS = ("game_id", "rand_tip", "deck_key", "deck_key_proof", *escrows.KEY_FIELDS, "sig")
GAME_ID_PATTERN = re.compile(r"[0-9a-f]{32}")
HASH_PATTERN = re.compile(r"sha256:[0-9a-f]{64}")
TIME_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
COMMON_FIELDS = ("seq", "prev", "by", "at", "kind", "sig")
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "genesis": (
        "game_id",
        "nonce",
        "ruleset",
        "edition",
        "options",
        "seats",
        "components",
        "sign",
        "box",
        "rand_tip",
        "deck_key",
        "deck_key_proof",
    ),
    "join": ("sign", "box", "rand_tip", "deck_key", "deck_key_proof"),
    "note": ("text", "rand"),
    "address": ("email", "rand"),
    "move": ("move", "rand"),
    "commit": ("step", "commitment", "sealed", "rand"),
    "reveal": ("step", "value", "nonce", "rand"),
    "contribute": ("event", "rand"),
    "timeout": ("late", "step", "rand"),
    "undo": ("target", "rand"),
    "consent": ("target", "agree", "rand"),
    "sync": ("rand",),
    # The seat's holder hands it on to another player (see ``handover``).
    "handover": ("name", "sign", "box", "identity_sig", "sealed_secret", "rand"),
    # The referee of a game with escrow=referee: its receiving key, then its answers to the escrow.
    "referee": (),
    # A seat proposes handing a silent seat on to a new player (see ``replace``); the others
    # consent; then the new player takes the seat with a fresh randomness chain (``rejoin``).
    "replace": ("seat", "name", "sign", "box", "identity_sig", "rand"),
    "rejoin": ("rand_tip",),
    # Before the first card, a seat silent past its deadline may be gone on without: one seat
    # proposes it, the others consent, and the game is set up again for the seats left.
    "drop": ("seat", "rand"),
}
PLAY_KINDS = ("move", "commit", "reveal", "contribute", "timeout", "undo", "consent", "sync")
# Optional fields: what a seat owes the hidden decks rides in any of these entries it signs,
# and a move may show, return or discard the hidden cards it uses.
OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {
    kind: hidden_decks.OWED_FIELDS + (hidden_decks.CARD_FIELDS if kind == "move" else ())
    for kind in hidden_decks.RIDING_KINDS
}
# A seat may give, in the entry that brings it in, the address its mail goes to (signed, so that
# nobody redirects it); an ``address`` entry changes it later.
# A timeout whose default puts a silent seat's cards under the deck carries them re-masked.
OPTIONAL_FIELDS["timeout"] += ("remask",)
# With withheld=open and escrow, a sealed choice is also sealed so that the escrow can open it.
OPTIONAL_FIELDS["commit"] += ("escrow_sealed",)
OPTIONAL_FIELDS["genesis"] = OPTIONAL_FIELDS["join"] = OPTIONAL_FIELDS["handover"] = ("email",)
# The group of the game's hidden decks (see pbem.crypto.groups); a genesis without it, as every
# game made before the curve, means the 2048-bit group.
OPTIONAL_FIELDS["genesis"] += ("group",)
# With escrow, every seat publishes the key its escrow shares are sealed to (see engine.escrows).
OPTIONAL_FIELDS["genesis"] += escrows.KEY_FIELDS
OPTIONAL_FIELDS["join"] += escrows.KEY_FIELDS
# A seat a computer plays (``pbem new --computer``) says so in its join, signed by its own key; a
# seat handed on to a computer (``pbem handover --to-computer``), in the handover its player signs.
OPTIONAL_FIELDS["join"] += ("computer",)
OPTIONAL_FIELDS["handover"] += ("computer",)
# With escrow=referee, the genesis names the referee (see ``read_referee``), and the referee's
# entries carry its receiving key first, then its acknowledgements, complaint and partials.
OPTIONAL_FIELDS["genesis"] += ("referee",)
OPTIONAL_FIELDS["referee"] = (*escrows.KEY_FIELDS, *escrows.ESCROW_FIELDS[1:])
OPTIONAL_FIELDS["replace"] = ("email",)
OPTIONAL_FIELDS["rejoin"] = ("email", *escrows.KEY_FIELDS)
# A seat handed on before the first card is set up anew: its new player's own deck key.
OPTIONAL_FIELDS["rejoin"] += ("deck_key", "deck_key_proof")
REFEREE_FIELDS = ("name", "sign", "box", "identity_sig")
# What a handover seals to the new holder: the seat's secret for the game (see ``secret_seed``).
HANDOVER_STEP = "handover"
EMAIL_PATTERN = re.compile(r"[^@\s<>(),;:\"\[\]\\]+@[^@\s<>(),;:\"\[\]\\]+")
EMAIL_LIMIT = 254
NOTE_LIMIT = 4000
HEADER_FIELDS = ("format", "id", "ruleset", "edition", "seats", "entries", "head")
TOP_LEVEL = ("game", "roster", "components", "entry")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a game file, located by entry where it belongs to one."""

    message: str
    seq: int | None = None
    by: str | None = None
    # "equivocation": the seat signed two different entries for one place; ``evidence`` holds both.
    kind: str = "integrity"
    evidence: tuple[dict[str, Any], ...] = ()
    # 0-based index of the entry in the file (seq can repeat, and can itself be what is wrong).
    position: int | None = None

    def __str__(self) -> str:
        if self.seq is None:
            return self.message
        # A seat's name is one printable word; anything else in ``by`` (a hostile file's line
        # break or terminal escape) is quoted, so a problem stays one line that says what it is.
        by = self.by if self.by is None or valid_name(self.by) else repr(self.by)
        author = f" (by {by})" if by else ""
        return f"entry {self.seq}{author}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "position": self.position,
            "by": self.by,
            "kind": self.kind,
            "message": self.message,
            "text": str(self),
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class Handover:
    """A seat handed on: in entry ``seq``, signed with ``before`` (the key that held the seat
    until then), to the player ``holder`` names, with the seat's secret sealed to that player."""

    seq: int
    before: PublicIdentity
    holder: str
    sealed: bytes  # empty for a silent seat handed on by the others' consent: nothing was sealed
    # handed on by consent before the first card: the new player takes the seat with keys of its
    # own (deck key too), and the hidden decks are set up again (see ``engine.silent_setup``)
    anew: bool = False

    @property
    def by_consent(self) -> bool:
        return not self.sealed


@dataclass
class Ledger:
    """The replayed game file: its fixed setup, the pinned roster and the chain of entries."""

    game_id: str
    info: GameInfo
    edition: str
    options: dict[str, OptionValue]
    seats: tuple[str, ...]
    components_hash: str
    # the component data the genesis entry's hash names, handed to the rules at setup
    components: dict[str, Any] = field(default_factory=dict)
    roster: dict[str, PublicIdentity] = field(default_factory=dict)
    joined_at: dict[str, int] = field(default_factory=dict)
    # per seat: how many links of its randomness chain it has revealed, and the last one
    revealed: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    # steps[n] lists the positions (in ``entries``) of the entries with seq n, in seat order.
    steps: list[list[int]] = field(default_factory=list)
    # The game itself, once every seat has joined (None for games without playable rules).
    table: Table | None = None
    # seqs of moves undone with every other seat's consent: kept in the file, skipped by replay
    void: set[int] = field(default_factory=set)
    # The table as it stood when the current step began: entries sharing a step are each
    # judged against it, since none of their authors saw the others.
    step_start: Table | None = None
    # per seat: its hidden-deck key, its proof checked
    deck_keys: dict[str, Element] = field(default_factory=dict)
    # per seat: the key its escrow shares are sealed to (games with escrow), its proof checked
    receiving_keys: dict[str, Element] = field(default_factory=dict)
    # the group of the hidden decks, as the genesis names it
    group: Group = OLD_GROUP
    # per seat: the address its mail goes to, as it last signed it (none for a seat that gave none)
    addresses: dict[str, str] = field(default_factory=dict)
    # the seats a computer plays, as their joins say (until handed on to a player)
    computers: set[str] = field(default_factory=set)
    # per seat handed on to another player: who held it before, oldest first (see ``Handover``)
    handovers: dict[str, list[Handover]] = field(default_factory=dict)
    # with escrow=referee: the referee the genesis names, and the entry that gave its receiving key
    referee: PublicIdentity | None = None
    referee_joined: int | None = None
    # a silent seat proposed to be handed on: the new player's keys (named for the seat), its
    # name and address; and the seats handed on by consent whose new player has not yet rejoined
    proposals: dict[str, tuple[PublicIdentity, str, str | None]] = field(default_factory=dict)
    rejoining: set[str] = field(default_factory=set)
    # Every seat the genesis names, in its order, those gone on without since included: who may
    # have signed an entry of the file. ``seats`` are the seats in the game now.
    every_seat: tuple[str, ...] = ()
    # a seat the others went on without (before the first card): the entry that completed it
    dropped: dict[str, int] = field(default_factory=dict)
    # before the game starts, a proposal to go on without a seat that has not joined by its
    # deadline, waiting for the consent of the seats that have joined (as ``Table.undo`` after)
    asked: dict[str, Any] | None = None
    # the entries (by position) at which the game was set up again, and what the log says of it
    setups: dict[int, str] = field(default_factory=dict)
    # how proofs are checked: every time, or skipping those a cache saw pass (never I/O here)
    check: ProofCheck = field(default=check_now, compare=False, repr=False)

    @cached_property
    def rules(self) -> Ruleset | None:
        # Looked up once: replay asks for the rules several times per entry, and each lookup
        # goes through the import system.
        return ruleset_for(self.info)

    @property
    def deadline_days(self) -> int:
        """Days a seat has to answer each demand before a timeout may be claimed (0: no deadlines)."""
        return int(self.options.get("deadline_days", 0))

    def step_hash(self, seq: int) -> str:
        """What an entry of step ``seq + 1`` holds in ``prev``."""
        return step_digest([self.hashes[position] for position in self.steps[seq]])

    @property
    def head(self) -> str:
        return self.step_hash(len(self.steps) - 1)

    def size(self) -> str:
        """``12 entries``, or ``12 entries in 10 steps`` where entries made at the same time on
        copies share a step (and so a ``seq``: the number every message gives an entry)."""
        count, steps = len(self.entries), len(self.steps)
        text = f"{count} entr{'y' if count == 1 else 'ies'}"
        return text if steps == count else f"{text} in {steps} steps"

    @property
    def waiting_to_join(self) -> list[str]:
        return [seat for seat in self.seats if seat not in self.roster]

    @property
    def referee_waiting(self) -> str | None:
        """The referee's name while it has not given its receiving key (no card is dealt before)."""
        return self.referee.name if self.referee is not None and self.referee_joined is None else None

    @property
    def participants(self) -> tuple[str, ...]:
        """Everyone who signs entries: the seats, then the referee of a game with one."""
        return self.seats if self.referee is None else (*self.seats, self.referee.name)

    @property
    def signers(self) -> tuple[str, ...]:
        """Everyone who may have signed an entry of the file, in the order a step's entries take:
        every seat the genesis names (those gone on without too), then the referee."""
        seats = self.every_seat or self.seats
        return seats if self.referee is None else (*seats, self.referee.name)

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "id": self.game_id,
            "ruleset": self.info.name,
            "edition": self.edition,
            "seats": list(self.seats),
            "entries": len(self.entries),
            "head": self.head,
        }

    def data(self) -> dict[str, Any]:
        """The game file's tables as the entries define them: what a verifier rebuilds from."""
        return {
            "game": self.header(),
            "roster": self.roster_table(),
            "components": self.components,
            "entry": self.entries,
        }

    def roster_table(self) -> dict[str, dict[str, str]]:
        """The ``[roster]`` tables, in the game's seat order: a function of the entries alone, not
        of the order joins reached a copy in."""
        joined = [(seat, self.roster[seat]) for seat in self.every_seat or self.seats if seat in self.roster]
        table: dict[str, dict[str, Any]] = {}
        for seat, identity in joined:
            table[seat] = {
                "sign": b64(identity.sign_public),
                "box": b64(identity.box_public),
                "fingerprint": identity.fingerprint,
            }
            past = self.handovers.get(seat)
            if past:
                # Only a seat handed on says more, so the rosters of other games stay as they were.
                table[seat] |= {
                    "holder": past[-1].holder,
                    "handed_over": past[-1].seq,
                    "held_before": [handover.before.fingerprint for handover in past],
                }
            if seat in self.dropped:
                table[seat]["dropped"] = self.dropped[seat]  # its keys signed the entries before
        return table

    def check_seat(self, seat: str) -> str:
        """``seat`` if it is in the game now; else a usage error that says it left, or lists the
        seats (see ``engine.seats.check_seat``)."""
        if seat in self.dropped:
            raise UsageError(_gone(self, seat))
        return check_seat(seat, self.seats)

    def key_at(self, seat: str, seq: int) -> PublicIdentity | None:
        """The key that signed for ``seat`` in entry ``seq``: the one it joined with, or the one
        a handover gave the seat to (a handover itself is signed by the key it hands on from)."""
        if self.referee is not None and seat == self.referee.name:
            return self.referee
        for handover in self.handovers.get(seat, ()):
            if seq <= handover.seq:
                return handover.before
        return self.roster.get(seat)

    def status_lines(self) -> list[str]:
        """Where the game stands, for the comment at the top of the file and after a merge."""
        lines = [
            f"{self.info.title} ({self.edition}), seats {', '.join(self.seats)}; "
            f"check it with: pbem verify FILE"
        ]
        rules = self.rules
        if self.waiting_to_join:
            lines.append(f"waiting for {', '.join(self.waiting_to_join)} to join (pbem join FILE --as SEAT)")
        elif self.referee_waiting is not None:
            lines.append(
                f"waiting for the referee {self.referee_waiting} to accept (pbem referee FILE --as "
                f"{self.referee_waiting})"
            )
        elif self.table is None or rules is None:
            lines.append("every seat has joined")
        else:
            lines.append(f"{rules.phase(self.table.state)}: {tables.waiting_summary(rules, self.table)}")
        return lines

    def secret_seed(self, seat: str, secret: SecretKeys) -> bytes:
        """The seed of every secret ``seat`` has in this game (its randomness chain, its
        hidden-deck key and shuffles), bound to this game's genesis entry: for the creator, to
        the game id, itself a hash of the genesis; for the others, to the whole signed genesis
        entry, so that a second genesis with the same id (only its creator could sign one)
        shares no secret of theirs. (Secrets bound to a creator-chosen id alone would repeat in
        a "rematch" made with the same id: one game's cards and dice would show the other's.)"""
        past = self.handovers.get(seat)
        if past and past[-1].anew:
            # the new player's own secrets, deck key too: nothing was dealt to the seat before
            return secret.for_game(f"{self.game_id} {seat} handed on in {past[-1].seq}")
        if past and past[-1].by_consent:
            return self.rebuilt_secret(seat, past[-1], secret)
        if past:
            return self.handed_secret(seat, past[-1], secret)
        creator = self.entries[0]["by"]
        return secret.for_game(self.game_id if seat == creator else f"genesis {self.hashes[0]}")

    def rebuilt_secret(self, seat: str, handover: Handover, secret: SecretKeys) -> bytes:
        """The secrets of a seat the others handed on: the new player's own (its randomness chain,
        its receiving key), and the seat's deck secret as the new player rebuilds it from the
        shares the holders sealed to it (the one secret nothing the new player holds derives)."""
        material = hidden_decks.KeyMaterial(
            secret.for_game(f"{self.game_id} {seat} handed on in {handover.seq}")
        )
        decks = self.table.decks if self.table is not None else None
        escrow = decks.escrow if decks is not None else None
        if escrow is None or seat not in escrow.resharing:
            material.waiting = f"{seat}'s new player has not taken the seat yet (pbem join FILE --as {seat})"
            return material
        receive = es.receive_secret(hd.deck_seed(material), self.game_id, seat, group=self.group)
        rebuilt, bad = escrows.reshared_secret(escrow, seat, receive, game_id=self.game_id, group=self.group)
        if rebuilt is not None and hd.public_key(rebuilt, group=self.group) == self.deck_keys.get(seat):
            material.deck_secret = rebuilt
        elif bad is not None:
            material.bad_share = bad
            material.waiting = (
                f"{bad} sealed you a share of {seat}'s secret that does not match its escrow: send your "
                f"complaint (pbem sync FILE --as {seat})"
            )
        else:
            given = len(escrow.reshared.get(seat, {}))
            material.waiting = (
                f"{seat}'s secret is not rebuilt yet: {given} of the {escrow.threshold} shares it takes "
                "are sealed to you"
            )
        return material

    def handed_secret(self, seat: str, handover: Handover, secret: SecretKeys) -> bytes:
        """The seat's secret as the handover sealed it to its new holder, checked against the
        seat's deck key, which every later share and proof of the seat must match: the new
        holder plays with the seat's secret, never one of its own."""
        try:
            opening = sealing.unseal(
                secret.box_secret, handover.sealed, self.game_id, f"{HANDOVER_STEP} {handover.seq}", seat
            )
            seed = bytes.fromhex(opening.value)
        except ValueError:
            raise IdentityError(
                f"the secret of seat {seat} handed on in entry {handover.seq} does not open with this "
                f"key: it was sealed to {handover.holder}'s key"
            ) from None
        key = self.deck_keys.get(seat)
        deck_secret = hidden_decks.secret_for(seed, self.game_id, seat, self.group)
        if key is not None and hd.public_key(deck_secret, group=self.group) != key:
            raise IdentityError(
                f"the secret sealed in entry {handover.seq} is not seat {seat}'s (its deck key "
                "differs): the handover cannot be played on; ask the player who signed it"
            )
        return seed

    def next_entry(self, by: str, at: str, kind: str) -> dict[str, Any]:
        """The common fields of the entry that would come next."""
        return {"seq": len(self.steps), "prev": self.head, "by": by, "at": at, "kind": kind}


@dataclass(frozen=True)
class Audit:
    ledger: Ledger | None
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return self.ledger is not None and not self.problems

    def as_dict(self, problems: Sequence[Problem] | None = None) -> dict[str, Any]:
        """The result as data: ``problems`` (default: all of them), and what was rebuilt."""
        shown = self.problems if problems is None else problems
        report: dict[str, Any] = {"ok": self.ok, "problems": [p.as_dict() for p in shown]}
        if self.ledger is not None:
            ledger = self.ledger
            report["game"] = ledger.header() | {"options": ledger.options}
            report["roster"] = {
                seat: {"fingerprint": identity.fingerprint, "entry": ledger.joined_at[seat]}
                | _handed_over(ledger, seat)
                | ({"dropped": ledger.dropped[seat]} if seat in ledger.dropped else {})
                | ({"computer": True} if seat in ledger.computers else {})
                for seat, identity in ledger.roster.items()
            }
            report["waiting_to_join"] = ledger.waiting_to_join
        return report


def _handed_over(ledger: Ledger, seat: str) -> dict[str, Any]:
    """For a seat handed on: who holds it, since when, and the keys that held it before."""
    past = ledger.handovers.get(seat)
    if not past:
        return {}
    return {
        "holder": past[-1].holder,
        "handed_over": past[-1].seq,
        "held_before": [
            {"fingerprint": handover.before.fingerprint, "until": handover.seq} for handover in past
        ],
    }


def components_hash(components: Mapping[str, Any]) -> str:
    digest = hashlib.sha256(pae(COMPONENTS_DOMAIN, canonical_bytes(components))).hexdigest()
    return f"sha256:{digest}"


def sign_entry(game_id: str, entry: Mapping[str, Any], secret: SecretKeys) -> dict[str, Any]:
    signed = {key: value for key, value in entry.items() if key != "sig"}
    signed["sig"] = b64(secret.sign(entry_message(game_id, signed)))
    return signed


# --- building --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """A validated game setup, ready to be signed into a genesis entry."""

    info: GameInfo
    edition: str
    options: dict[str, OptionValue]
    seats: tuple[str, ...]
    creator: str


def plan(
    *, game: str, edition: str | None, options: Mapping[str, str], seats: Sequence[str], creator: str
) -> Setup:
    """Validate a new game's settings; raises UsageError naming what is wrong and what is valid."""
    info = registry.get(game)
    chosen_edition = info.check_edition(edition or info.default_edition)
    resolved = info.resolve_options(options)
    if "escrow" in resolved and "escrow" not in options and len(seats) < escrows.MIN_SEATS:
        resolved["escrow"] = escrows.NONE  # two players have no third to hold the escrow
    _check_seats(info, seats, resolved)
    check_seat(creator, seats)
    return Setup(info, chosen_edition, resolved, tuple(seats), creator)


def game_id_of(genesis: Mapping[str, Any]) -> str:
    """The game id a genesis entry must carry: a hash of everything in it but what the creator
    derives from the id, so nobody chooses an id, and two games share one only if they are one
    game (the same creator, settings, time and ``nonce``)."""
    core = {name: value for name, value in genesis.items() if name not in DERIVED_GENESIS_FIELDS}
    return hashlib.sha256(pae(GAME_ID_DOMAIN, canonical_bytes(core))).hexdigest()[:32]


def check_email(address: str) -> str:
    """An address a seat's mail can go to: one ``@``, no spaces, nothing that would make it two
    addresses or a name, at most 254 characters."""
    if len(address) > EMAIL_LIMIT or not EMAIL_PATTERN.fullmatch(address):
        raise UsageError(f"{address!r} is not an email address like ann@example.org")
    return address


@dataclass(frozen=True)
class Referee:
    """The referee of a game with escrow=referee, as ``pbem key export`` gave their key: a
    self-signed identity, and the address their mail goes to if the players know it."""

    identity: PublicIdentity
    signature: bytes
    email: str | None = None

    def fields(self) -> dict[str, str]:
        found = {
            "name": self.identity.name,
            "sign": b64(self.identity.sign_public),
            "box": b64(self.identity.box_public),
            "identity_sig": b64(self.signature),
        }
        if self.email is not None:
            found["email"] = check_email(self.email)
        return found


def read_referee(item: object, seats: Sequence[str]) -> tuple[PublicIdentity, str | None]:
    """The referee a genesis names, its self-signature checked (GameFileError naming the field)."""
    where = "referee"
    if not isinstance(item, Mapping):
        raise GameFileError(f"{where}: expected a table")
    unknown = sorted(set(item) - {*REFEREE_FIELDS, "email"})
    if unknown:
        raise GameFileError(f"{where}: unknown field {unknown[0]!r}")
    missing = [name for name in REFEREE_FIELDS if name not in item]
    if missing:
        raise GameFileError(f"{where}: field {missing[0]!r} missing")
    name = item["name"]
    if not isinstance(name, str) or not valid_name(name):
        raise GameFileError(f"{where}.name must be one word of letters, digits, '-' or '_'")
    if name.casefold() in {seat.casefold() for seat in seats}:
        raise GameFileError(f"{where}.name: the referee {name} is a seat; a referee plays no seat")
    try:
        identity = PublicIdentity(name, unb64(item["sign"], KEY_SIZE), unb64(item["box"], KEY_SIZE))
        signature = unb64(item["identity_sig"], SIGNATURE_SIZE)
    except (ValueError, TypeError, AttributeError):
        raise GameFileError(
            f"{where}: sign and box must be keys of {KEY_SIZE} bytes and identity_sig a signature of "
            f"{SIGNATURE_SIZE} bytes, in base64"
        ) from None
    if not identity_signed(identity, signature):
        raise GameFileError(
            f"{where}.identity_sig is not {name}'s self-signature: the referee's key did not vouch for it"
        )
    email = item.get("email")
    if email is not None:
        try:
            email = check_email(_text(email, f"{where}.email"))
        except UsageError as exc:
            raise GameFileError(f"{where}.email: {exc}") from None
    return identity, email


def new_game(
    setup: Setup,
    secret: SecretKeys,
    *,
    at: str,
    nonce: str,
    components: Mapping[str, Any],
    email: str | None = None,
    group: Group = NEW_GROUP,
    referee: Referee | None = None,
) -> Ledger:
    """A ledger holding just the creator's signed genesis entry; ``nonce`` is 32 random hex
    digits, which make the game's id its own. Its hidden decks live in ``group``; a game with
    escrow=referee names its ``referee``."""
    identity = secret.public(setup.creator)
    genesis: dict[str, Any] = {
        "seq": 0,
        "prev": "",
        "by": setup.creator,
        "at": at,
        "kind": "genesis",
        "nonce": nonce,
        "ruleset": setup.info.name,
        "edition": setup.edition,
        "options": dict(setup.options),
        "seats": list(setup.seats),
        "components": components_hash(components),
        "sign": b64(identity.sign_public),
        "box": b64(identity.box_public),
    }
    if group is not OLD_GROUP:
        genesis["group"] = group.name
    if email is not None:
        genesis["email"] = check_email(email)
    if escrows.by_referee(setup.options) != (referee is not None):
        raise UsageError(
            "escrow=referee needs --referee NAME KEYFILE (the key the referee exported)"
            if referee is None
            else "--referee needs --option escrow=referee"
        )
    if referee is not None:
        if referee.identity.name.casefold() in {seat.casefold() for seat in setup.seats}:
            raise UsageError(f"the referee {referee.identity.name} is a seat; a referee plays no seat")
        if not identity_signed(referee.identity, referee.signature):
            raise IdentityError(f"{referee.identity.name}'s identity is not signed by its own key")
        genesis["referee"] = referee.fields()
    game_id = genesis["game_id"] = game_id_of(genesis)
    bound = secret.for_game(game_id)  # the creator's secrets follow from the id, which follows from all else
    genesis["rand_tip"] = _chain(game_id, setup.creator, bound)[0].hex()
    genesis.update(hidden_decks.key_fields(bound, game_id, setup.creator, group))
    if escrows.wanted(setup.options):
        genesis.update(escrows.key_fields(hd.deck_seed(bound), game_id, setup.creator, group))
    return admit(None, sign_entry(game_id, genesis, secret), components=components)


def check_can_join(ledger: Ledger, seat: str) -> None:
    if seat in ledger.dropped:
        raise UsageError(_gone(ledger, seat))
    check_seat(seat, ledger.seats)
    if seat in ledger.rejoining:
        return  # its new player takes the seat the others handed on
    if seat in ledger.roster:
        raise UsageError(f"{seat!r} has already joined (entry {ledger.joined_at[seat]})")


def join(
    ledger: Ledger,
    seat: str,
    secret: SecretKeys,
    at: str,
    email: str | None = None,
    *,
    computer: bool = False,
) -> tuple[Ledger, dict[str, Any]]:
    """Add ``seat``'s self-signed public keys (and the address its mail goes to; ``computer``:
    that a computer plays it); returns the new ledger and the entry."""
    check_can_join(ledger, seat)
    if seat in ledger.rejoining:
        return rejoin(ledger, seat, secret, at, email)
    identity = secret.public(seat)
    entry = ledger.next_entry(seat, at, "join")
    entry["sign"] = b64(identity.sign_public)
    entry["box"] = b64(identity.box_public)
    if email is not None:
        entry["email"] = check_email(email)
    if computer:
        entry["computer"] = True
    bound = ledger.secret_seed(seat, secret)
    entry["rand_tip"] = _chain(ledger.game_id, seat, bound)[0].hex()
    entry.update(hidden_decks.key_fields(bound, ledger.game_id, seat, ledger.group))
    if escrows.wanted(ledger.options):
        entry.update(escrows.key_fields(hd.deck_seed(bound), ledger.game_id, seat, ledger.group))
    signed = sign_entry(ledger.game_id, entry, secret)
    return admit(ledger, signed), signed


def check_referee(ledger: Ledger, name: str, secret: SecretKeys) -> list[hidden_decks.Owed]:
    """Refuse a referee entry the replay would refuse; what the referee owes (nothing before its
    first entry, which gives its receiving key)."""
    if ledger.referee is None:
        raise UsageError("this game has no referee (it was not made with --option escrow=referee)")
    if name != ledger.referee.name:
        raise UsageError(f"{name!r} is not this game's referee; its referee is {ledger.referee.name}")
    if secret.public(name) != ledger.referee:
        raise IdentityError(
            f"this key is not the one the game names for the referee {name} (fingerprint "
            f"{ledger.referee.fingerprint})"
        )
    if ledger.referee_joined is None:
        return []
    table = ledger.table
    if table is None or table.decks is None:
        raise UsageError("the referee answers the escrow once every seat has joined")
    halted = table.decks.halted()
    if halted is not None:
        raise UsageError(halted)
    owed = hidden_decks.owed(table.decks, name)
    if not owed:
        raise UsageError(f"the referee {name} owes the escrow nothing now")
    return owed


def referee_entry(ledger: Ledger, name: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    """The referee's entry: its receiving key first; later, its acknowledgements of the seats'
    dealings (or a complaint) and the partial decryptions an unlock needs of it."""
    check_referee(ledger, name, secret)
    entry = ledger.next_entry(name, at, "referee")
    seed = ledger.secret_seed(name, secret)
    if ledger.referee_joined is None:
        entry.update(escrows.key_fields(hd.deck_seed(seed), ledger.game_id, name, ledger.group))
    else:
        assert ledger.table is not None and ledger.table.decks is not None
        entry.update(
            hidden_decks.owed_fields(ledger.table.decks, name, game_id=ledger.game_id, key_material=seed)
        )
    signed = sign_entry(ledger.game_id, entry, secret)
    return admit(ledger, signed), signed


def note(ledger: Ledger, seat: str, text: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    """A signed message from a seat that has joined: a deal struck, a comment for the table."""
    check_can_note(ledger, seat, text)
    entry = ledger.next_entry(seat, at, "note")
    entry["text"] = text
    return _with_link(ledger, seat, entry, secret)


def address(
    ledger: Ledger, seat: str, email: str, secret: SecretKeys, at: str
) -> tuple[Ledger, dict[str, Any]]:
    """A seat's new address for its mail, signed: nobody else can redirect it."""
    check_can_address(ledger, seat, email)
    entry = ledger.next_entry(seat, at, "address")
    entry["email"] = email
    return _with_link(ledger, seat, entry, secret)


def check_can_address(ledger: Ledger, seat: str, email: str) -> None:
    if seat not in ledger.roster:
        raise UsageError(f"{seat!r} has not joined this game; seats that have: {', '.join(ledger.roster)}")
    check_email(email)
    if ledger.addresses.get(seat) == email:
        raise UsageError(f"{seat}'s mail goes to {email} already")


def check_can_handover(ledger: Ledger, seat: str, to: PublicIdentity) -> None:
    """Refuse a handover the replay would refuse: by a seat not in the game, to a key that signs
    for a seat already, in a game that is over, or while the seat's sealed choice waits."""
    if seat not in ledger.roster:
        raise UsageError(f"{seat!r} has not joined this game; seats that have: {', '.join(ledger.roster)}")
    problem = _handover_problem(ledger, seat, to) or _referee_clash(ledger, to)
    if problem is not None:
        raise UsageError(problem)


def _handover_problem(ledger: Ledger, seat: str, to: PublicIdentity) -> str | None:
    for other, identity in ledger.roster.items():
        if identity.sign_public == to.sign_public or identity.box_public == to.box_public:
            return (
                f"{to.name}'s key (fingerprint {to.fingerprint}) already signs for seat {other}: "
                "a seat is handed on to a player who holds none"
            )
    table, rules = ledger.table, ledger.rules
    if table is not None and rules is not None and rules.over(table.state):
        return "the game is over: there is no seat to hand on"
    waiting = (
        []
        if table is None
        else [
            step
            for step, sealed in table.sealed.items()
            if seat in sealed and seat not in table.revealed.get(step, set())
        ]
    )
    if waiting:
        step = waiting[0]
        return (
            f"{seat}'s sealed {step} is not revealed yet, and only {seat}'s present key opens it: "
            "reveal it first, then hand the seat on"
        )
    return None


@dataclass(frozen=True)
class Newcomer:
    """The player a seat is handed on to: their identity as ``pbem key export`` writes it, with
    their own signature of it, and the address their mail goes to (None: as before)."""

    identity: PublicIdentity
    signature: bytes
    email: str | None = None
    computer: bool = False  # a computer plays the seat from the home holding the key

    def fields(self) -> dict[str, str]:
        """The entry's fields naming the new player, checked: their identity is their own."""
        if not identity_signed(self.identity, self.signature):
            raise IdentityError(f"{self.identity.name}'s identity is not signed by its own key")
        return {
            "name": self.identity.name,
            "sign": b64(self.identity.sign_public),
            "box": b64(self.identity.box_public),
            "identity_sig": b64(self.signature),
        }


def handover(
    ledger: Ledger, seat: str, to: Newcomer, secret: SecretKeys, *, at: str
) -> tuple[Ledger, dict[str, Any]]:
    """Hand ``seat`` on to the player ``to``: from the next entry on, that player's key signs for
    the seat. The seat's secret for the game goes with it, sealed to the new player's box key, so
    the new player reads the seat's hand and continues its randomness chain, and every share and
    proof the seat owes still matches the deck key the seat joined with."""
    check_can_handover(ledger, seat, to.identity)
    bound = ledger.secret_seed(seat, secret)
    entry = ledger.next_entry(seat, at, "handover") | to.fields()
    opening = sealing.new_opening(bound.hex())
    step = f"{HANDOVER_STEP} {entry['seq']}"
    entry["sealed_secret"] = b64(sealing.seal(to.identity.box_public, ledger.game_id, step, seat, opening))
    if to.computer:
        entry["computer"] = True
    return _with_email(ledger, seat, entry, secret, to.email)


def _with_email(
    ledger: Ledger, seat: str, entry: dict[str, Any], secret: SecretKeys, email: str | None
) -> tuple[Ledger, dict[str, Any]]:
    if email is not None:
        entry["email"] = check_email(email)
    return _with_link(ledger, seat, entry, secret)


def check_can_replace(ledger: Ledger, seat: str, silent: str, to: PublicIdentity, *, at: str) -> None:
    """Refuse a proposal to hand a silent seat on that the replay would refuse."""
    check_seat(seat, ledger.seats)
    check_seat(silent, ledger.seats)
    problem = _handover_problem(ledger, silent, to) or _referee_clash(ledger, to)
    if problem is not None:
        raise UsageError(problem)
    table = ledger.table
    if table is None:
        raise UsageError(_not_started(ledger, silent))
    try:
        _propose_handover(ledger, table.snapshot(), seat, silent, name=to.name, seq=len(ledger.steps), at=at)
    except PbemError as exc:
        raise UsageError(str(exc)) from None


def _not_started(ledger: Ledger, silent: str) -> str:
    """Why nobody proposes handing ``silent`` on before the game starts."""
    if silent not in ledger.roster:
        return (
            f"{silent} has not joined, so it has no key to hand on: a new player takes the seat by "
            f"joining it (pbem join FILE --as {silent})"
        )
    return "the game starts once every seat has joined"


def _propose_handover(
    ledger: Ledger, table: Table, seat: str, silent: str, *, name: str, seq: int, at: str
) -> None:
    """``seat``'s proposal to hand the silent seat on, on ``table``: before the first card, a
    seat past its deadline is handed on anew (``engine.silent_setup``), else one a timeout was
    claimed against, through its escrow."""
    rules = ledger.rules
    anew = silent != seat and rules is not None and silent_setup.before_first_card(table)
    if anew:
        assert rules is not None
        tables.check_no_undo_pending(table)
        why = silent_setup.not_silent(rules, table, silent, at, ledger.deadline_days)
        if why is not None:
            raise IllegalMoveError(why)
    tables.propose_handover(table, seat, silent, name, seq, anew=anew)


def check_can_drop(ledger: Ledger, seat: str, silent: str, *, at: str) -> None:
    """Refuse a proposal to go on without a silent seat that the replay would refuse."""
    check_seat(seat, ledger.seats)
    if seat not in ledger.roster:
        raise UsageError(f"{seat!r} has not joined this game; seats that have: {', '.join(ledger.roster)}")
    problem = _drop_problem(ledger, seat, silent, at)
    if problem is not None:
        raise UsageError(problem)
    if ledger.table is not None:
        try:
            _propose_drop(ledger, ledger.table.snapshot(), seat, silent, at=at, seq=len(ledger.steps))
        except PbemError as exc:
            raise UsageError(str(exc)) from None


def drop(
    ledger: Ledger, seat: str, silent: str, secret: SecretKeys, *, at: str
) -> tuple[Ledger, dict[str, Any]]:
    """``seat`` proposes going on without the silent seat: done once every other seat consents,
    and the game is then set up again for the seats left (see ``engine.silent_setup``)."""
    check_can_drop(ledger, seat, silent, at=at)
    entry = ledger.next_entry(seat, at, "drop") | {"seat": silent}
    return _with_link(ledger, seat, entry, secret)


def _drop_problem(ledger: Ledger, seat: str, silent: str, at: str) -> str | None:
    """Why ``seat`` may not propose going on without ``silent`` at ``at``, as far as the seats
    and, before the game starts, the deadline to join go (the table says the rest)."""
    if silent in ledger.dropped:
        return _gone(ledger, silent)
    if silent not in ledger.seats:
        return f"{silent!r} is not a seat of this game (seats: {', '.join(ledger.seats)})"
    if silent == seat:
        return f"{seat} cannot propose going on without itself: name another seat of the game"
    if ledger.table is not None and not silent_setup.before_first_card(ledger.table):
        return (
            "the first cards have been dealt: the others go on without a seat only before them (a "
            f"timeout stands in for {silent} now: pbem timeout FILE {silent} --as {seat})"
        )
    try:
        _check_seats(ledger.info, [other for other in ledger.seats if other != silent], ledger.options)
    except UsageError as exc:
        return f"the game cannot go on without {silent}: {exc}"
    if ledger.rejoining:
        handed = sorted(ledger.rejoining)[0]
        return f"{handed}'s new player has not taken the seat yet (pbem join FILE --as {handed})"
    if ledger.table is not None:
        return None
    if silent in ledger.roster:
        return (
            f"{silent} has joined: before the first card, the others go on without a seat that has "
            "not joined by its deadline, or one silent past its deadline once the game has begun"
        )
    if ledger.asked is not None:
        return (
            f"{ledger.asked['by']} proposed going on without {ledger.asked['drop']} already "
            f"(entry {ledger.asked['target']}), waiting for consent (pbem consent)"
        )
    due = silent_setup.join_deadline(ledger.entries[0]["at"], ledger.deadline_days)
    if due is None:
        return "this game has no deadlines (option deadline_days is 0), so no seat is ever past one"
    if at < due:
        return f"{silent}'s deadline to join is {due}: the others may go on without it only after it"
    return None


def _propose_drop(ledger: Ledger, table: Table, seat: str, silent: str, *, at: str, seq: int) -> None:
    """``seat``'s proposal to go on without ``silent``, on ``table``: only before the first card,
    and once the seat is past its deadline."""
    rules = ledger.rules
    assert rules is not None
    tables.check_no_undo_pending(table)
    why = silent_setup.not_silent(rules, table, silent, at, ledger.deadline_days)
    if why is not None:
        raise IllegalMoveError(why)
    silent_setup.propose_drop(table, seat, silent, seq)


@dataclass(frozen=True)
class Silent:
    """A seat silent past its deadline before the first card, and what the others may do: hand
    it to a new player, go on without it (each None where it can be done, else why not)."""

    seat: str
    joined: bool  # False: it never joined, and a new player takes it by joining it
    deadline: str | None
    proposer: str | None  # the first other seat that may propose either
    hand_on: str | None
    go_on: str | None


def silent_seats(ledger: Ledger, at: str) -> list[Silent]:
    """The seats silent past their deadline at ``at`` before the first card, while no proposal
    waits: what ``pbem status`` offers the others."""
    table, rules, days = ledger.table, ledger.rules, ledger.deadline_days
    found: list[Silent] = []
    if table is None:
        due = silent_setup.join_deadline(ledger.entries[0]["at"], days)
        if rules is None or ledger.asked is not None or due is None or at < due:
            return []
        joined = [seat for seat in ledger.seats if seat in ledger.roster]
        for seat in ledger.waiting_to_join:
            proposer = joined[0] if joined else None
            go_on = (
                "nobody has joined to propose it"
                if proposer is None
                else _drop_problem(ledger, proposer, seat, at)
            )
            found.append(Silent(seat, False, due, proposer, None, go_on))
        return found
    if (
        rules is None
        or table.undo is not None
        or ledger.rejoining
        or not silent_setup.before_first_card(table)
    ):
        return []
    for seat in ledger.seats:
        if silent_setup.not_silent(rules, table, seat, at, days) is not None:
            continue
        others = [other for other in ledger.seats if other != seat and other not in tables.retired(table)]
        proposer = others[0] if others else None
        due = silent_setup.deadline(rules, table, seat, days)
        found.append(Silent(seat, True, due, proposer, *_offers(ledger, table, proposer, seat, at)))
    return found


def _offers(
    ledger: Ledger, table: Table, proposer: str | None, silent: str, at: str
) -> tuple[str | None, str | None]:
    """Why ``proposer`` could not propose handing ``silent`` to a new player, and going on
    without it (None where it could), tried on copies of ``table``."""
    if proposer is None:
        nobody = f"every other seat is retired, so nobody can propose it for {silent}"
        return nobody, nobody
    seq = len(ledger.steps)
    hand_on: str | None = None
    try:
        _propose_handover(ledger, table.snapshot(), proposer, silent, name="NAME", seq=seq, at=at)
    except PbemError as exc:
        hand_on = str(exc)
    go_on = _drop_problem(ledger, proposer, silent, at)
    if go_on is None:
        try:
            _propose_drop(ledger, table.snapshot(), proposer, silent, at=at, seq=seq)
        except PbemError as exc:
            go_on = str(exc)
    return hand_on, go_on


def consenting_before_start(ledger: Ledger) -> list[str]:
    """Who consents, before the game starts, to going on without a seat that has not joined:
    every seat that has joined but the proposer (those that have answered included)."""
    asked = ledger.asked
    if asked is None:
        return []
    return [seat for seat in ledger.seats if seat in ledger.roster and seat != asked["by"]]


def _gone(ledger: Ledger, seat: str) -> str:
    return f"{seat} is no longer in the game: the others went on without it in entry {ledger.dropped[seat]}"


def _referee_clash(ledger: Ledger, to: PublicIdentity) -> str | None:
    referee = ledger.referee
    if referee is not None and (referee.sign_public == to.sign_public or referee.box_public == to.box_public):
        return f"{to.name}'s key is the referee's: a referee plays no seat"
    return None


def replace(
    ledger: Ledger, seat: str, silent: str, to: Newcomer, secret: SecretKeys, *, at: str
) -> tuple[Ledger, dict[str, Any]]:
    """``seat`` proposes handing the silent seat on to the player ``to``: done once every
    remaining seat consents. The new player then takes the seat (``rejoin``), and the escrow's
    holders seal it the seat's secret, which nothing else gives it."""
    check_can_replace(ledger, seat, silent, to.identity, at=at)
    entry = ledger.next_entry(seat, at, "replace") | {"seat": silent} | to.fields()
    return _with_email(ledger, seat, entry, secret, to.email)


def rejoin(
    ledger: Ledger, seat: str, secret: SecretKeys, at: str, email: str | None = None
) -> tuple[Ledger, dict[str, Any]]:
    """The new player of a seat the others handed on takes it: a randomness chain of its own,
    and (with escrow) the receiving key the seat's secret is sealed to it under."""
    if seat not in ledger.rejoining:
        raise UsageError(f"{seat!r} has joined already (entry {ledger.joined_at[seat]})")
    check_signer(ledger, seat, secret, seat)
    entry = ledger.next_entry(seat, at, "rejoin")
    bound = ledger.secret_seed(seat, secret)
    entry["rand_tip"] = _chain(ledger.game_id, seat, bound)[0].hex()
    decks = ledger.table.decks if ledger.table is not None else None
    if ledger.handovers[seat][-1].anew:
        # before the first card the seat starts afresh: a deck key of the new player's own
        entry.update(hidden_decks.key_fields(bound, ledger.game_id, seat, ledger.group))
        if escrows.wanted(ledger.options):
            entry.update(escrows.key_fields(hd.deck_seed(bound), ledger.game_id, seat, ledger.group))
    elif decks is not None and decks.escrow is not None:
        entry.update(escrows.key_fields(hd.deck_seed(bound), ledger.game_id, seat, ledger.group))
    if email is not None:
        entry["email"] = check_email(email)
    signed = sign_entry(ledger.game_id, entry, secret)
    return admit(ledger, signed), signed


def check_signer(ledger: Ledger, seat: str, secret: SecretKeys, key_name: str) -> None:
    """Refuse to sign for a seat with any key but the one that seat joined with."""
    pinned = ledger.roster.get(seat)
    if pinned is None:
        return
    mine = secret.public(seat)
    if mine != pinned:
        past = ledger.handovers.get(seat)
        if past:
            raise IdentityError(
                f"key {key_name!r} (fingerprint {mine.fingerprint}) no longer signs for {seat}: the seat "
                f"was handed on to {past[-1].holder} in entry {past[-1].seq} (fingerprint "
                f"{pinned.fingerprint})"
            )
        raise IdentityError(
            f"key {key_name!r} (fingerprint {mine.fingerprint}) is not the key {seat} joined this game "
            f"with (fingerprint {pinned.fingerprint})"
        )


def _with_link(
    ledger: Ledger, seat: str, entry: dict[str, Any], secret: SecretKeys
) -> tuple[Ledger, dict[str, Any]]:
    """``entry`` with the next link of ``seat``'s randomness chain, signed and taken in."""
    entry["rand"] = contribution(ledger, seat, secret)
    signed = sign_entry(ledger.game_id, entry, secret)
    return admit(ledger, signed), signed


def check_can_note(ledger: Ledger, seat: str, text: str) -> None:
    if seat not in ledger.roster:
        raise UsageError(f"{seat!r} has not joined this game; seats that have: {', '.join(ledger.roster)}")
    _check_note(text)


def _chain(game_id: str, seat: str, bound: bytes) -> list[bytes]:
    return randomness.chain(randomness.seed_for(bound, game_id, seat), game_id, seat)


def contribution(ledger: Ledger, seat: str, secret: SecretKeys) -> str:
    """The next link of ``seat``'s randomness chain, which its next entry must reveal."""
    count, _ = ledger.revealed[seat]
    links = _chain(ledger.game_id, seat, ledger.secret_seed(seat, secret))
    if count + 1 >= len(links):
        raise UsageError(f"{seat} has used up its {len(links) - 1} randomness contributions for this game")
    return links[count + 1].hex()


def _check_note(text: str) -> None:
    if not text.strip():
        raise UsageError("a note needs some text")
    if len(text) > NOTE_LIMIT:
        raise UsageError(f"a note holds at most {NOTE_LIMIT} characters, this one has {len(text)}")


@dataclass(frozen=True)
class Merge:
    ledger: Ledger
    entries: list[dict[str, Any]]
    added: int
    # entries of the copies that the game went on without (see ``branches``) and that their seats
    # have not made again on the history that goes on: they make them again
    overtaken: tuple[dict[str, Any], ...] = ()


def made_again(ledger: Ledger, entry: Mapping[str, Any]) -> bool:
    """Whether the seat of an overtaken ``entry`` has made it again on ``ledger``'s history: an
    entry of its that reveals the same link of its randomness chain, or, for a join, its join."""
    seat = entry.get("by")
    if entry.get("kind") == "join":
        return seat in ledger.roster
    link = entry.get("rand")
    return link is not None and any(
        other.get("by") == seat and other.get("rand") == link for other in ledger.entries
    )


def merge(
    base: tuple[str, Mapping[str, Any]],
    others: Sequence[tuple[str, Mapping[str, Any]]],
    check: ProofCheck = check_now,
) -> Merge:
    """Combine copies of one game that grew apart: every entry of each, once, in canonical order.

    Each copy must verify on its own. Entries the game went on without are left out (overtaken);
    two different entries by one seat for one decision, neither overtaken, are equivocation. The
    rest must verify as a whole.
    """
    base_name, base_data = base
    mine = _read_named(base_name, base_data, check)
    batches: list[tuple[str, Sequence[dict[str, Any]]]] = []
    for name, data in others:
        theirs = _read_named(name, data, check)
        if theirs.game_id != mine.game_id:
            raise UsageError(f"{name} is another game (game {theirs.game_id}, not {mine.game_id})")
        batches.append((name, theirs.entries))
    return combine(mine, batches, check)


def combine(
    mine: Ledger, batches: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], check: ProofCheck = check_now
) -> Merge:
    """``mine`` with the entries of ``batches`` (each named for messages), replayed and checked as a
    whole; the entries of a batch need not verify alone (a message carries only those the
    recipient lacks), since the union is verified entry by entry."""
    nodes = [
        Node(entry, mine.hashes[position], entry["seq"], entry["by"], entry["prev"])
        for position, entry in enumerate(mine.entries)
    ]
    known = {node.hash for node in nodes}
    came_from = {node.hash: "" for node in nodes}
    places: dict[tuple[int, str, Any], dict[str, Any]] = {
        (entry["seq"], entry["by"], entry["prev"]): entry for entry in mine.entries
    }
    for name, batch in batches:
        for position, given in enumerate(batch):
            if (
                not isinstance(given, dict)
                or type(given.get("seq")) is not int
                or given.get("by") not in mine.signers
            ):
                raise GameFileError(f"{name}: entry {position + 1} has no seq or seat of this game")
            entry = dict(given)
            node = Node(
                entry,
                _hash_of(mine.game_id, entry, f"{name}:{position}"),
                entry["seq"],
                entry["by"],
                entry["prev"] if isinstance(entry.get("prev"), str) else "",
            )
            if node.hash in known:
                continue
            place = (entry["seq"], entry["by"], entry.get("prev"))
            other = places.setdefault(place, entry)
            if other is not entry and not _same(other, entry) and not _signed_by_its_seat(mine, entry):
                # an edited copy of an entry proves nothing against its seat: only two
                # entries it really signed are equivocation
                raise GameFileError(
                    f"{name}: entry {entry['seq']} (by {entry['by']}): signature does not verify "
                    f"against {entry['by']}'s key: the entry was altered"
                )
            known.add(node.hash)
            came_from[node.hash] = name
            nodes.append(node)
    branches = Branches(mine.signers, nodes)
    for one, two in branches.rivals():
        signed = all(_signed_by_its_seat(mine, node.entry) for node in (one, two))
        if signed and branches.equivocation(one, two):
            raise EquivocationError(
                _equivocation_line(one, two, came_from[two.hash] or came_from[one.hash]),
                (dict(one.entry), dict(two.entry)),
            )
    resolution = branches.resolve()
    order = {seat: index for index, seat in enumerate(mine.signers)}
    entries = sorted(
        (dict(entry) for entry in resolution.entries), key=lambda entry: (entry["seq"], order[entry["by"]])
    )

    def replayed(proofs: ProofCheck) -> _Replay:
        replay = _Replay(void=_undone(entries), components=mine.components, check=proofs)
        for index, entry in enumerate(entries):
            replay.feed(index, entry)
        return replay

    replay = proof_checks.replayed(check, replayed)
    if replay.ledger is not None:
        replay.ledger.check = check
    if replay.problems:
        for problem in replay.problems:
            if problem.kind == "equivocation":
                raise EquivocationError(str(problem), problem.evidence)
        first = replay.problems[0]
        hint = ""
        if "does not chain" in first.message:
            hint = (
                f" ({first.by}'s entry was made on a copy that lacked entries another copy has: "
                f"{first.by} makes it again on a copy that holds them)"
            )
        raise GameFileError(f"the copies cannot be combined: {first}{hint}")
    assert replay.ledger is not None
    before = set(mine.hashes)
    added = sum(1 for hash_ in replay.ledger.hashes if hash_ not in before)
    overtaken = tuple(
        dict(entry)
        for entry in sorted(resolution.overtaken, key=lambda entry: (entry["seq"], order[entry["by"]]))
        if not made_again(replay.ledger, entry)
    )
    return Merge(replay.ledger, entries, added, overtaken)


def _hash_of(game_id: str, entry: Mapping[str, Any], where: str) -> str:
    """The entry's hash as the chain uses it; an entry that cannot be signed gets one nothing matches."""
    try:
        signature = entry.get("sig")
        raw = unb64(signature, SIGNATURE_SIZE) if isinstance(signature, str) else b""
        return entry_hash(entry_message(game_id, entry), raw)
    except (PbemError, ValueError, TypeError):
        return hashlib.sha256(f"unreadable {where}".encode()).hexdigest()


def _equivocation_line(one: Node, two: Node, name: str) -> str:
    where = f" (one in {name})" if name else ""
    if one.seq == two.seq and one.prev == two.prev:
        return f"{one.by} signed two different entries for step {one.seq}{where}: equivocation"
    return (
        f"{one.by} signed two different entries, for steps {one.seq} and {two.seq}{where}, that reveal "
        "the same link of its randomness chain: two histories of the game, equivocation"
    )


def _signed_by_its_seat(ledger: Ledger, entry: Mapping[str, Any]) -> bool:
    seq = entry.get("seq")
    identity = ledger.key_at(entry.get("by", ""), seq if type(seq) is int else -1)
    signature = entry.get("sig")
    if identity is None or not isinstance(signature, str):
        return False
    try:
        message = entry_message(ledger.game_id, entry)
        raw = unb64(signature, SIGNATURE_SIZE)
    except (PbemError, ValueError):
        return False
    return signature_valid(identity.sign_public, message, raw)


def _read_named(name: str, data: Mapping[str, Any], check: ProofCheck) -> Ledger:
    try:
        return read(data, check)
    except EquivocationError as exc:
        raise EquivocationError(f"{name}: {exc}", exc.evidence) from None
    except GameFileError as exc:
        raise GameFileError(f"{name}: {exc}") from None


def admit(
    ledger: Ledger | None, entry: dict[str, Any], components: Mapping[str, Any] | None = None
) -> Ledger:
    """The ledger with one more entry; ``components`` only for a genesis entry.

    Its proofs are checked in place: the entry goes onto ``ledger`` itself, so its replay cannot
    be made twice, and one entry has few proofs to spread over the cores."""
    replay = _Replay(components=components, check=ledger.check if ledger is not None else check_now)
    if ledger is not None:
        replay.ledger = ledger
    replay.feed(len(ledger.entries) if ledger else 0, entry)
    if replay.problems:
        raise GameFileError(str(replay.problems[0]))
    assert replay.ledger is not None
    if _undone(replay.ledger.entries) != replay.ledger.void:
        # the last consent to an undo: replay the game without the undone move
        return read(replay.ledger.data(), replay.ledger.check)
    return replay.ledger


def _undone(entries: Sequence[Any]) -> set[int]:
    """The seqs of moves whose undo every other seat consented to (checked in full by replay).

    Every other seat in the game, that is: a seat the others went on without (``drop``, done
    with the consent of every other seat that has joined) is asked nothing after it."""
    void: set[int] = set()
    pending: dict[str, Any] | None = None
    seats = _genesis_seats(entries)
    joined: set[Any] = set()
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("by"), str):
            continue  # refused by replay, whatever it says
        kind, target, by = entry.get("kind"), entry.get("target"), entry.get("by")
        if kind in ("genesis", "join"):
            joined.add(by)
            if pending is not None and pending.get("drop") == by:
                pending = None  # it joined after all
        if kind == "undo":
            pending = {"by": by, "target": target, "agreed": set()}
        elif kind == "drop" and isinstance(entry.get("seat"), str):
            pending = {"by": by, "target": entry.get("seq"), "agreed": set(), "drop": entry.get("seat")}
            if not {seat for seat in seats if seat in joined} - {by, pending["drop"]}:
                seats = [seat for seat in seats if seat != pending["drop"]]  # nobody else to ask
                pending = None
        elif kind == "consent" and pending is not None and target == pending["target"]:
            if entry.get("agree") is not True:
                pending = None
                continue
            pending["agreed"].add(by)
            if "drop" in pending:
                asked = {seat for seat in seats if seat in joined} - {pending["by"], pending["drop"]}
                if asked <= pending["agreed"]:
                    seats = [seat for seat in seats if seat != pending["drop"]]
                    pending = None
            elif seats and set(seats) - {pending["by"]} <= pending["agreed"] and type(target) is int:
                void.add(target)
                pending = None
    return void


def _genesis_seats(entries: Sequence[Any]) -> list[str]:
    first = entries[0] if entries and isinstance(entries[0], dict) else {}
    seats = first.get("seats")
    return [seat for seat in seats if isinstance(seat, str)] if isinstance(seats, list) else []


def _check_seats(info: GameInfo, seats: Sequence[str], options: Mapping[str, OptionValue]) -> None:
    for seat in seats:
        check_name(seat, "seat name")
    folded = [seat.casefold() for seat in seats]
    if len(set(folded)) != len(folded):
        raise UsageError(f"seat names must differ: {', '.join(seats)}")
    info.check_seats(len(seats), options)
    problem = escrows.check_options(options, len(seats))
    if problem is not None:
        raise UsageError(problem)


# --- replay and audit ------------------------------------------------------------------------
def read(data: Any, check: ProofCheck = check_now) -> Ledger:
    """The ledger of a parsed game file; raises GameFileError with the first problem.

    ``check`` may skip proofs a cache saw pass (see ``decks.ProofCheck``)."""
    result = audit(data, check)
    for problem in result.problems:
        if problem.kind == "equivocation":
            raise EquivocationError(str(problem), problem.evidence)
    if result.problems:
        raise GameFileError(str(result.problems[0]))
    assert result.ledger is not None
    return result.ledger


def audit(data: Any, check: ProofCheck = check_now) -> Audit:
    """Check everything about a parsed game file; never raises.

    Its proofs are checked in threads beside the replay (see ``proof_checks``), to the same end."""
    result = proof_checks.replayed(check, lambda proofs: _audit(data, proofs))
    if result.ledger is not None:
        result.ledger.check = check  # what later moves on this ledger check their proofs with
    return result


def _audit(data: Any, check: ProofCheck) -> Audit:
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        return Audit(None, (Problem("not a pbem game file: it has no [game] table"),))
    header = data["game"]
    if not _same(header.get("format"), FORMAT):
        return Audit(
            None,
            (
                Problem(
                    f"unsupported game file format {header.get('format')!r}; this pbem reads format {FORMAT}"
                ),
            ),
        )
    entries = data.get("entry")
    if not isinstance(entries, list) or not entries:
        return Audit(None, (Problem("not a pbem game file: it has no [[entry]] tables"),))
    components = data.get("components", {})
    replay = _Replay(
        void=_undone(entries),
        components=components if isinstance(components, dict) else None,
        check=check,
    )
    for index, entry in enumerate(entries):
        replay.feed(index, entry)
        if replay.ledger is None:  # without a readable genesis nothing else can be checked
            return Audit(None, tuple(replay.problems))
    assert replay.ledger is not None
    problems = replay.problems
    problems.extend(_check_copies(replay.ledger, data))
    return Audit(replay.ledger, tuple(problems))


def states(data: Mapping[str, Any], check: ProofCheck = check_now) -> list[Any]:
    """The rules' state after each entry of a game file that verifies (None until every seat has
    joined), in file order: what ``pbem log`` compares to say what each entry brought about."""
    entries = data["entry"]
    components = data.get("components", {})

    def replayed(proofs: ProofCheck) -> list[Any]:
        replay = _Replay(void=_undone(entries), components=components, check=proofs)
        found: list[Any] = []
        for index, entry in enumerate(entries):
            replay.feed(index, entry)
            table = replay.ledger.table if replay.ledger is not None else None
            found.append(None if table is None else table.state)
        return found

    return proof_checks.replayed(check, replayed)


class _Replay:
    def __init__(
        self,
        void: set[int] | None = None,
        components: Mapping[str, Any] | None = None,
        check: ProofCheck = check_now,
    ) -> None:
        self.ledger: Ledger | None = None
        self.components = components
        self.check = check
        self.problems: list[Problem] = []
        self.void = void if void is not None else set()
        self.equivocations: list[Problem] = []
        # positions of the entries whose signature does not verify (or cannot be read)
        self.unsigned: set[int] = set()
        # the position of the last entry, if it settled with no event pending and no seat stood in
        self.quiet_after = -1
        # the position of the last note not settled after, if it began a step of its own: the
        # table has changed since that step began only by the note's randomness link
        self.unsettled_note = -1

    def feed(self, index: int, entry: Any) -> None:
        by = entry.get("by") if isinstance(entry, dict) and isinstance(entry.get("by"), str) else None
        seq = entry.get("seq") if isinstance(entry, dict) and type(entry.get("seq")) is int else index
        found: list[str] = []
        try:
            self._check(index, entry, found)
        except PbemError as exc:
            found.append(str(exc))
        if self.ledger is not None and len(self.ledger.entries) == index:
            # Whatever stopped the checks, keep one hash per entry so later entries are judged
            # against the chain as written.
            self._chain_only(index, entry if isinstance(entry, dict) else {}, found)
        self.problems.extend(Problem(message, seq, by, position=index) for message in found)
        self.problems.extend(self.equivocations)
        self.equivocations.clear()

    def _check(self, index: int, entry: Any, found: list[str]) -> None:
        if not isinstance(entry, dict):
            found.append("is not a table")
            return
        kind = entry.get("kind") if isinstance(entry.get("kind"), str) else None
        referee = self.ledger.referee if self.ledger is not None else None
        if (
            referee is not None
            and entry.get("by") == referee.name
            and kind in KIND_FIELDS
            and kind != "referee"
        ):
            # judged by who signs it first: its fields are those of a kind the referee never signs
            found.append(f"the referee {referee.name} signs only referee entries, not a {kind} entry")
            return
        expected = COMMON_FIELDS + KIND_FIELDS.get(kind or "", ())
        missing = [name for name in expected if name not in entry]
        if "sig" in missing:
            found.append("has no signature (field 'sig' is missing)")
            missing.remove("sig")
        if missing:
            found.append(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}")
        if kind not in KIND_FIELDS:
            found.append(f"unknown entry kind {entry.get('kind')!r}")
        extra = sorted(set(entry) - set(expected) - set(OPTIONAL_FIELDS.get(kind or "", ())))
        if extra and kind in KIND_FIELDS:
            found.append(f"unexpected field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}")
        if not found:
            _expect_types(entry, found)
        if found:
            return
        if kind == "genesis":
            self._genesis(index, entry, found)
        else:
            self._later(index, entry, found)

    def _refused(self, index: int, entry: dict[str, Any], found: list[str], problem: str) -> None:
        """``problem`` found with an entry that cannot be admitted: the chain goes on past it."""
        found.append(problem)
        self._chain_only(index, entry, found)

    def _chain_only(self, index: int, entry: dict[str, Any], found: list[str]) -> None:
        """Keep the chain going past an unreadable entry so later entries are judged fairly."""
        assert self.ledger is not None
        try:
            message = entry_message(self.ledger.game_id, entry)
            sig = unb64(entry["sig"], SIGNATURE_SIZE) if isinstance(entry.get("sig"), str) else b""
        except (PbemError, ValueError):
            message, sig = str(index).encode("ascii"), b""  # unsignable: a hash nothing can match
        self.unsigned.add(index)  # its signature was never checked, so it proves nothing
        self.ledger.entries.append(entry)
        self.ledger.hashes.append(entry_hash(message, sig))
        self.ledger.steps.append([index])

    def _genesis(self, index: int, entry: dict[str, Any], found: list[str]) -> None:
        if index != 0 or self.ledger is not None:
            found.append("a second genesis entry: a game has exactly one, first")
            if self.ledger is not None:
                self._chain_only(index, entry, found)
            return
        if entry["seq"] != 0 or entry["prev"] != "":
            found.append("the genesis entry must have seq 0 and an empty prev")
        game_id = entry["game_id"]
        if not isinstance(game_id, str) or not GAME_ID_PATTERN.fullmatch(game_id):
            found.append("game_id must be 32 lower-case hex digits")
            return
        if not isinstance(entry["nonce"], str) or not GAME_ID_PATTERN.fullmatch(entry["nonce"]):
            found.append("nonce must be 32 lower-case hex digits")
            return
        seats = entry["seats"]
        options = entry["options"]
        if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
            found.append("seats must be a list of names")
            return
        if not isinstance(options, dict):
            found.append("options must be a table")
            return
        try:
            info = registry.get(_text(entry["ruleset"], "ruleset"))
            if info.name != entry["ruleset"]:
                raise UsageError(f"ruleset must be the game's full name {info.name!r}, not an alias")
            edition = info.check_edition(_text(entry["edition"], "edition"))
            checked = info.check_options(options)
            _check_seats(info, seats, checked)
        except UsageError as exc:
            found.append(f"invalid game setup: {exc}")
            return
        if entry["by"] not in seats:
            found.append(f"the creator {entry['by']!r} is not one of the seats")
            return
        if not isinstance(entry["components"], str) or not HASH_PATTERN.fullmatch(entry["components"]):
            found.append("components must be 'sha256:' and 64 hex digits")
            return
        identity = _keys(entry, found)
        if identity is None:
            return
        try:
            group = deck_groups.by_name(entry.get("group"))
        except GameFileError as exc:
            found.append(str(exc))
            return
        ledger = Ledger(
            game_id,
            info,
            edition,
            checked,
            tuple(seats),
            entry["components"],
            void=self.void,
            check=self.check,
            group=group,
            every_seat=tuple(seats),
        )
        given = {} if self.components is None else dict(self.components)
        try:
            matches = self.components is not None and components_hash(given) == entry["components"]
        except GameFileError:
            matches = False
        if matches:
            ledger.components = given
        else:
            found.append("component data does not match the hash in the genesis entry")
        self.ledger = ledger
        self._admit(index, entry, PublicIdentity(entry["by"], *identity), found)
        expected = game_id_of(entry)
        if game_id != expected:
            found.append(
                f"game_id {game_id} is not the hash of the genesis entry ({expected}): an id is never "
                "chosen, and this one was changed or made up"
            )
        self._take_tip(entry, found)
        self._take_deck_key(entry, found)
        self._take_receiving_key(entry, found)
        self._take_email(entry, found)
        self._take_referee(entry, found)

    def _take_referee(self, entry: dict[str, Any], found: list[str]) -> None:
        """The referee a game with escrow=referee names: its self-signed identity, pinned, so
        only the key the players chose signs the referee's entries."""
        ledger = self.ledger
        assert ledger is not None
        if "referee" not in entry:
            if escrows.by_referee(ledger.options):
                found.append("referee missing: a game with escrow=referee names its referee")
            return
        if not escrows.by_referee(ledger.options):
            found.append("referee: only a game with escrow=referee names a referee")
            return
        try:
            ledger.referee, email = read_referee(entry["referee"], ledger.seats)
        except GameFileError as exc:
            found.append(str(exc))
            return
        if email is not None:
            ledger.addresses[ledger.referee.name] = email

    def _later(self, index: int, entry: dict[str, Any], found: list[str]) -> None:
        if self.ledger is None:
            found.append("the first entry must be the genesis entry")
            return
        ledger = self.ledger
        by = entry["by"]
        if ledger.referee is not None and by == ledger.referee.name:
            self._referee(index, entry, found)
            return
        if entry["kind"] == "referee":
            self._refused(
                index,
                entry,
                found,
                f"{by!r} is not this game's referee: only the referee signs referee entries",
            )
            return
        if by in ledger.dropped:
            self._refused(index, entry, found, _gone(ledger, by))
            return
        if by not in ledger.seats:
            self._refused(
                index, entry, found, f"{by!r} is not a seat of this game (seats: {', '.join(ledger.seats)})"
            )
            return
        if by in ledger.rejoining or entry["kind"] == "rejoin":
            self._rejoin(index, entry, found)
            return
        if entry["kind"] == "join":
            if by in ledger.roster and ledger.joined_at[by] < entry["seq"]:
                self._refused(index, entry, found, f"{by!r} joined already, in entry {ledger.joined_at[by]}")
                return
            keys = _keys(entry, found)
            if keys is None:
                self._chain_only(index, entry, found)
                return
            self._admit(index, entry, PublicIdentity(by, *keys), found)
            self._take_tip(entry, found)
            self._take_deck_key(entry, found)
            self._take_receiving_key(entry, found)
            self._take_email(entry, found)
            if "computer" in entry:
                if entry["computer"] is True:
                    ledger.computers.add(by)
                else:
                    found.append("field 'computer' must be true: a seat a computer plays")
            if ledger.asked is not None and ledger.asked["drop"] == by:
                ledger.asked = None  # it joined after all: nobody goes on without it
            self._start_if_seated(entry["seq"], entry["at"])
            return
        if entry["kind"] == "note":
            try:
                _check_note(_text(entry["text"], "text"))
            except UsageError as exc:
                found.append(str(exc))
        if entry["kind"] in PLAY_KINDS:
            for name in KIND_FIELDS[entry["kind"]]:
                if name in ("target", "agree"):
                    continue
                if not isinstance(entry[name], str):
                    found.append(f"field {name!r} must be text")
        identity = ledger.roster.get(by)
        if identity is None or ledger.joined_at[by] >= entry["seq"]:
            self._refused(index, entry, found, f"{by!r} has not joined, so has no key to sign with")
            return
        if self._admit(index, entry, identity, found):
            if ledger.table is not None:
                tables.signed(ledger.table, by)  # an absent seat that signs is back
            self._take_link(entry, found)
            if entry["kind"] == "address" and not found:
                self._take_email(entry, found)
            if entry["kind"] == "handover" and not found:
                self._hand_over(entry, found)
            if entry["kind"] == "replace" and not found:
                self._propose(entry, found)
            if entry["kind"] == "drop" and not found:
                self._propose_drop(entry, found)
            if entry["kind"] == "consent" and not found and ledger.table is None and ledger.asked is not None:
                self._consent_before_start(entry, found)
            elif entry["kind"] in PLAY_KINDS and not found:
                self._play(entry, found)
                self._seat_handed()
                self._seat_dropped(entry)
        self._settle(entry)

    def _propose(self, entry: dict[str, Any], found: list[str]) -> None:
        """A seat proposes handing a silent seat on to a new player; the others consent."""
        ledger = self.ledger
        assert ledger is not None
        silent = entry["seat"]
        if silent not in ledger.seats:
            found.append(f"{silent!r} is not a seat of this game")
            return
        to = self._new_holder(entry, silent, found)
        if to is None:
            return
        if ledger.table is None:
            found.append(_not_started(ledger, silent))
            return
        try:
            _propose_handover(
                ledger, ledger.table, entry["by"], silent, name=to.name, seq=entry["seq"], at=entry["at"]
            )
        except PbemError as exc:
            found.append(f"refused by the rules: {exc}")
            return
        ledger.proposals[silent] = (
            PublicIdentity(silent, to.sign_public, to.box_public),
            to.name,
            entry.get("email"),
        )
        if "email" in entry:
            try:
                check_email(_text(entry["email"], "email"))
            except UsageError as exc:
                found.append(str(exc))

    def _propose_drop(self, entry: dict[str, Any], found: list[str]) -> None:
        """A seat proposes going on without a silent seat; the others consent."""
        ledger = self.ledger
        assert ledger is not None
        by, silent = entry["by"], entry["seat"]
        problem = _drop_problem(ledger, by, silent, entry["at"])
        if problem is not None:
            found.append(problem)
            return
        if ledger.table is None:
            ledger.asked = {"by": by, "target": entry["seq"], "agreed": set(), "drop": silent}
            if not consenting_before_start(ledger):
                ledger.asked = None  # nobody else has joined to be asked
                self._go_on_without(silent, entry)
            return
        try:
            _propose_drop(ledger, ledger.table, by, silent, at=entry["at"], seq=entry["seq"])
        except PbemError as exc:
            found.append(f"refused by the rules: {exc}")

    def _consent_before_start(self, entry: dict[str, Any], found: list[str]) -> None:
        """A seat's answer, before the game starts, to going on without a seat that has not
        joined: asked of every seat that has joined but the proposer; the last consent done."""
        ledger = self.ledger
        assert ledger is not None and ledger.asked is not None
        asked, by, target = ledger.asked, entry["by"], entry["target"]
        if type(target) is not int or type(entry["agree"]) is not bool:
            found.append("a consent's target is the seq of the proposal, its agree true or false")
            return
        if target != asked["target"]:
            found.append(f"refused by the rules: no proposal of entry {target} is waiting for consent")
            return
        silent = asked["drop"]
        consenting = set(consenting_before_start(ledger))
        if by not in consenting or by in asked["agreed"]:
            found.append(f"refused by the rules: {by} has no say left on going on without {silent}")
            return
        if not entry["agree"]:
            ledger.asked = None
            return
        asked["agreed"].add(by)
        if consenting <= asked["agreed"]:
            ledger.asked = None
            self._go_on_without(silent, entry)

    def _seat_dropped(self, entry: dict[str, Any]) -> None:
        """The last consent to going on without a silent seat, once the game has begun."""
        ledger = self.ledger
        assert ledger is not None
        table = ledger.table
        if table is None or table.dropped is None:
            return
        silent, _ = table.dropped
        table.dropped = None
        self._go_on_without(silent, entry)

    def _go_on_without(self, silent: str, entry: dict[str, Any]) -> None:
        """The seat is gone from the game, and the game is set up again for the seats left: from
        its set-up, as if they alone had joined (nothing was hidden yet), once they all have."""
        ledger = self.ledger
        assert ledger is not None
        ledger.seats = tuple(seat for seat in ledger.seats if seat != silent)
        ledger.dropped[silent] = entry["seq"]
        started = ledger.table is not None
        ledger.table = None
        self._start_if_seated(entry["seq"], entry["at"])
        seats = ", ".join(ledger.seats)
        ledger.setups[len(ledger.entries) - 1] = (
            f"the game goes on without {silent}: set up again for {seats}"
            if started
            else f"the game goes on without {silent}: it starts for {seats}"
            if ledger.table is not None
            else f"the game goes on without {silent}: seats {seats}"
        )

    def _seat_handed(self) -> None:
        """The last consent to handing a silent seat on: its new player's key holds it from the
        next entry on, which must be the new player taking it (``rejoin``). Before the first card
        the seat is handed on anew: the hidden decks wait for the new player's keys."""
        ledger = self.ledger
        assert ledger is not None
        table = ledger.table
        if table is None or table.handed is None:
            return
        silent, seq = table.handed
        table.handed = None
        anew = silent_setup.before_first_card(table)
        if anew:
            table.decks = None  # set up again under the new player's key (``_rejoin``)
        identity, name, email = ledger.proposals.pop(silent)
        ledger.handovers.setdefault(silent, []).append(
            Handover(seq, ledger.roster[silent], name, b"", anew=anew)
        )
        ledger.roster[silent] = identity
        if email is not None:
            ledger.addresses[silent] = email
        else:
            ledger.addresses.pop(silent, None)
        ledger.rejoining.add(silent)

    def _rejoin(self, index: int, entry: dict[str, Any], found: list[str]) -> None:
        """The new player of a seat the others handed on takes it: first, and only once."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        if entry["kind"] != "rejoin":
            self._refused(
                index,
                entry,
                found,
                f"{by} was handed on: its new player takes the seat first (pbem join FILE --as {by})",
            )
            return
        if by not in ledger.rejoining and self._repeats(entry):
            self._admit(index, entry, ledger.roster[by], found)  # a duplicate, or equivocation
            return
        if by not in ledger.rejoining:
            self._refused(
                index,
                entry,
                found,
                f"{by} takes its seat again only when the others have handed it on to a new player",
            )
            return
        if not self._admit(index, entry, ledger.roster[by], found) or found:
            return
        tip = _link(entry["rand_tip"])
        if tip is None:
            found.append("rand_tip must be 64 hex digits")
            return
        ledger.revealed[by] = (0, tip)  # the new player's own chain: the old one's secret is gone
        if ledger.table is not None:
            # An event requested before this tip was committed is decided without the seat: its
            # new player, seeing the others' links, could otherwise pick a chain to steer it.
            for pending in ledger.table.pending:
                pending.excused.add(by)
        decks = ledger.table.decks if ledger.table is not None else None
        keyed = [name for name in escrows.KEY_FIELDS if name in entry]
        dealt = [name for name in ("deck_key", "deck_key_proof") if name in entry]
        if ledger.handovers[by][-1].anew:
            if not self._set_up_anew(entry, found):
                return
        elif dealt:
            found.append(
                f"{dealt[0]}: {by} was handed on after the first card, so its new player plays with the "
                "seat's deck key"
            )
            return
        elif decks is None or decks.escrow is None:
            if keyed:
                found.append(f"{keyed[0]}: this game keeps no escrow")
                return
        else:
            try:
                key = escrows.read_key(entry, ledger.game_id, by, ledger.group)
                escrows.start_reshare(decks.escrow, by, key)
            except GameFileError as exc:
                found.append(str(exc))
                return
            ledger.receiving_keys[by] = key
        self._take_email(entry, found)
        ledger.rejoining.discard(by)
        self._settle(entry)

    def _set_up_anew(self, entry: dict[str, Any], found: list[str]) -> bool:
        """The new player of a seat handed on before the first card gives its own deck key (and
        receiving key, with escrow by the seats), and the hidden decks are set up again."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        missing = [name for name in ("deck_key", "deck_key_proof") if name not in entry]
        if missing:
            found.append(
                f"{missing[0]} missing: {by} was handed on before the first card, so its new player "
                "takes it with a deck key of its own"
            )
            return False
        try:
            ledger.deck_keys[by] = hidden_decks.read_key(
                entry, ledger.game_id, by, ledger.check, ledger.group
            )
            if escrows.wanted(ledger.options):
                ledger.receiving_keys[by] = escrows.read_key(entry, ledger.game_id, by, ledger.group)
            elif any(name in entry for name in escrows.KEY_FIELDS):
                raise GameFileError("escrow_key: the seats of this game keep no escrow")
        except GameFileError as exc:
            found.append(str(exc))
            return False
        rules, table = ledger.rules, ledger.table
        ledger.setups[len(ledger.entries) - 1] = (
            f"the hidden decks are set up again, with {by}'s new player's keys"
        )
        if rules is not None and table is not None:
            tables.set_up_decks(
                rules,
                table,
                options=ledger.options,
                deck_keys=ledger.deck_keys,
                group=ledger.group,
                receiving_keys=_receiving_keys(ledger),
                referee=None if ledger.referee is None else ledger.referee.name,
            )
        return True

    def _referee(self, index: int, entry: dict[str, Any], found: list[str]) -> None:
        """The referee's entry: its receiving key first, then what it owes the escrow."""
        ledger = self.ledger
        assert ledger is not None and ledger.referee is not None
        by = entry["by"]
        if entry["kind"] != "referee":
            self._refused(
                index,
                entry,
                found,
                f"the referee {by} signs only referee entries, not a {entry['kind']} entry",
            )
            return
        if not self._admit(index, entry, ledger.referee, found) or found:
            return
        keyed = [name for name in escrows.KEY_FIELDS if name in entry]
        answers = [name for name in escrows.ESCROW_FIELDS if name in entry]
        if ledger.referee_joined is None:
            if answers:
                found.append(f"{answers[0]}: the referee's first entry gives its receiving key, nothing else")
                return
            try:
                ledger.receiving_keys[by] = escrows.read_key(entry, ledger.game_id, by, ledger.group)
            except GameFileError as exc:
                found.append(str(exc))
                return
            ledger.referee_joined = entry["seq"]
            self._start_if_seated(entry["seq"], entry["at"])
            return
        if keyed:
            found.append(f"{keyed[0]}: the referee gave its receiving key in entry {ledger.referee_joined}")
            return
        if ledger.table is None or ledger.step_start is None:
            found.append("the referee answers the escrow once every seat has joined")
            return
        try:
            if not tables.take_owed(ledger.table, ledger.step_start, by, entry, ledger.check):
                raise GameFileError(
                    f"a referee entry carries what the referee owes the escrow, and {by} owed nothing"
                )
        except PbemError as exc:
            found.append(f"refused by the rules: {exc}")
        self._settle(entry)

    def _new_holder(self, entry: dict[str, Any], seat: str, found: list[str]) -> PublicIdentity | None:
        """The new player a handover of ``seat`` names, self-signed, holding no seat (and not the
        referee), in a game that can still hand it on (None, with the problem, if not)."""
        assert self.ledger is not None
        name = entry["name"]
        if not isinstance(name, str) or not valid_name(name):
            found.append("the new holder's name must be one word of letters, digits, '-' or '_'")
            return None
        keys = _keys(entry, found)
        if keys is None:
            return None
        to = PublicIdentity(name, *keys)
        try:
            signature = unb64(entry["identity_sig"], SIGNATURE_SIZE)
        except (ValueError, TypeError, AttributeError):
            found.append("identity_sig must be base64 (a signature of 64 bytes)")
            return None
        if not identity_signed(to, signature):
            found.append(
                f"identity_sig is not {name}'s self-signature: the new holder's key did not vouch "
                "for this identity"
            )
            return None
        problem = _handover_problem(self.ledger, seat, to) or _referee_clash(self.ledger, to)
        if problem is not None:
            found.append(problem)
            return None
        return to

    def _hand_over(self, entry: dict[str, Any], found: list[str]) -> None:
        """Seat the new holder's key: the entries after this one are signed with it."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        to = self._new_holder(entry, by, found)
        if to is None:
            return
        name, keys = to.name, (to.sign_public, to.box_public)
        try:
            sealed = unb64(entry["sealed_secret"])
        except (ValueError, TypeError, AttributeError):
            found.append("sealed_secret must be base64")
            return
        computer = entry.get("computer", False)
        if computer is not True and "computer" in entry:
            found.append("field 'computer' must be true: a seat handed on to a computer")
            return
        if "email" in entry:
            self._take_email(entry, found)
        else:
            ledger.addresses.pop(by, None)  # the old holder's address is not the new holder's
        before = ledger.roster[by]
        if computer:
            ledger.computers.add(by)
        else:
            ledger.computers.discard(by)  # its new holder is a player
        ledger.handovers.setdefault(by, []).append(Handover(entry["seq"], before, name, sealed))
        ledger.roster[by] = PublicIdentity(by, *keys)

    def _play(self, entry: dict[str, Any], found: list[str]) -> None:
        """Replay a move, commitment, reveal or contribution through the rules."""
        ledger = self.ledger
        assert ledger is not None
        rules = ledger.rules
        if rules is None:
            found.append(f"the rules of {ledger.info.name} cannot be played by email yet")
            return
        if ledger.table is None or ledger.step_start is None:
            found.append("the game starts once every seat has joined")
            return
        try:
            days = ledger.deadline_days
            if entry["kind"] == "move" and entry["seq"] in ledger.void:
                tables.note_play(ledger.table, entry["seq"], entry["by"], "move")  # undone: not applied
                return
            shared = len(ledger.steps[-1]) > 1
            _replay_play(
                rules, ledger.table, ledger.step_start, entry, days, shared=shared, check=ledger.check
            )
        except PbemError as exc:
            found.append(f"refused by the rules: {exc}")

    def _settle(self, entry: dict[str, Any]) -> None:
        ledger = self.ledger
        if ledger is not None and ledger.table is not None and ledger.rules is not None:
            table, position = ledger.table, len(ledger.entries) - 1
            # A note right after an entry that settled with no event pending and no seat stood in
            # changes nothing settling reads (the state, the decks, the demands, who is stood in):
            # only a randomness link, which only a pending event reads. Settling again would
            # change nothing, and it is most of the cost of replaying a note.
            if entry["kind"] == "note" and self.quiet_after == position - 1 and not table.pending:
                self.unsettled_note = position if ledger.steps[-1] == [position] else -1
            else:
                tables.settle(ledger.rules, table, entry["seq"])
                tables.track(ledger.rules, table, entry["at"], ledger.deadline_days)
                tables.note_asked(ledger.rules, table, position)
            self.quiet_after = position if not table.pending and not tables.stood_in(table) else -1

    def _start_if_seated(self, seq: int, at: str) -> None:
        """Set up the game once the last seat has joined."""
        ledger = self.ledger
        assert ledger is not None
        rules = ledger.rules
        if (
            ledger.table is None
            and rules is not None
            and not ledger.waiting_to_join
            and ledger.referee_waiting is None
        ):
            ledger.table = tables.start(
                rules,
                game_id=ledger.game_id,
                seats=ledger.seats,
                edition=ledger.edition,
                options=ledger.options,
                components=ledger.components,
                seq=seq,
                deck_keys=ledger.deck_keys,
                group=ledger.group,
                receiving_keys=_receiving_keys(ledger),
                referee=None if ledger.referee is None else ledger.referee.name,
                links={seat: ledger.revealed[seat][1] for seat in ledger.seats if seat in ledger.revealed},
            )
            tables.track(rules, ledger.table, at, ledger.deadline_days)
            tables.note_asked(rules, ledger.table, len(ledger.entries) - 1)

    def _take_email(self, entry: dict[str, Any], found: list[str]) -> None:
        assert self.ledger is not None
        if "email" not in entry:
            return
        try:
            self.ledger.addresses[entry["by"]] = check_email(_text(entry["email"], "email"))
        except UsageError as exc:
            found.append(str(exc))

    def _take_tip(self, entry: dict[str, Any], found: list[str]) -> None:
        assert self.ledger is not None
        tip = _link(entry["rand_tip"])
        if tip is None:
            found.append("rand_tip must be 64 hex digits")
        elif entry["by"] not in self.ledger.revealed:
            self.ledger.revealed[entry["by"]] = (0, tip)

    def _take_deck_key(self, entry: dict[str, Any], found: list[str]) -> None:
        """Check the seat's hidden-deck key proof: a seat must know the secret of its own key,
        or it could publish one that cancels the others' and read every card."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        if by in ledger.deck_keys:
            return
        try:
            ledger.deck_keys[by] = hidden_decks.read_key(
                entry, ledger.game_id, by, ledger.check, ledger.group
            )
        except GameFileError as exc:
            found.append(str(exc))

    def _take_receiving_key(self, entry: dict[str, Any], found: list[str]) -> None:
        """Check the seat's escrow receiving key, which a game with escrow needs and a game
        without refuses."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        if not escrows.wanted(ledger.options):
            present = [name for name in escrows.KEY_FIELDS if name in entry]
            if present:
                found.append(f"{present[0]}: this game keeps no escrow")
            return
        if by in ledger.receiving_keys:
            return
        try:
            ledger.receiving_keys[by] = escrows.read_key(entry, ledger.game_id, by, ledger.group)
        except GameFileError as exc:
            found.append(str(exc))

    def _take_link(self, entry: dict[str, Any], found: list[str]) -> None:
        """Check the entry reveals the next link of its author's randomness chain."""
        ledger = self.ledger
        assert ledger is not None
        by = entry["by"]
        link = _link(entry["rand"])
        if link is None:
            found.append("rand must be 64 hex digits")
            return
        if by not in ledger.revealed:
            return  # reported elsewhere: the author has not joined
        count, last = ledger.revealed[by]
        if not randomness.follows(ledger.game_id, by, last, link):
            found.append(
                f"its randomness contribution is not the next link of {by}'s chain "
                f"(contribution {count + 1}): a wrong preimage"
            )
            return
        ledger.revealed[by] = (count + 1, link)
        if ledger.table is not None:
            tables.record_link(ledger.table, by, entry["seq"], link)

    def _admit(self, index: int, entry: dict[str, Any], signer: PublicIdentity, found: list[str]) -> bool:
        """Check place in the chain and signature, then take the entry into the ledger.

        False if the entry repeats or contradicts its author's entry in the same step.
        """
        ledger = self.ledger
        assert ledger is not None
        repeats = self._repeats(entry)
        message = entry_message(ledger.game_id, entry)
        try:
            signature = unb64(entry["sig"], SIGNATURE_SIZE)
        except ValueError:
            signature = b""
        signed = bool(signature) and signature_valid(signer.sign_public, message, signature)
        if not signed:
            self.unsigned.add(index)
        place = self._place(index, entry, found)
        if not signature:
            found.append("its signature is not 64 bytes of base64")
        elif not signed:
            found.append(
                f"signature does not verify against {signer.name}'s key: the entry was altered, "
                "or was signed for another game or by another key"
            )
        ledger.entries.append(entry)
        ledger.hashes.append(entry_hash(message, signature))
        if place is None:
            ledger.steps.append([index])
            table, start = ledger.table, ledger.step_start
            if self.unsettled_note == index - 1 and table is not None and start is not None:
                # the table is as the last step began but for that note's link (see _settle)
                start.links = dict(table.links)
            else:
                ledger.step_start = ledger.table.snapshot() if ledger.table is not None else None
        else:
            ledger.steps[place].append(index)
        # Seat the keys even when this entry has a problem (already reported), so one bad entry
        # does not bury every later entry by the same seat under "has not joined".
        first_join = signer.name not in ledger.joined_at or ledger.joined_at[signer.name] >= entry["seq"]
        if entry["kind"] in ("genesis", "join") and first_join:
            ledger.roster[signer.name] = signer
            ledger.joined_at[signer.name] = entry["seq"]
        return not repeats

    def _repeats(self, entry: dict[str, Any]) -> bool:
        """True if the entry's author already has an entry in the step it claims."""
        ledger = self.ledger
        assert ledger is not None
        last = len(ledger.steps) - 1
        return (
            last >= 0
            and entry["seq"] == _declared(ledger, last)
            and any(ledger.entries[position].get("by") == entry["by"] for position in ledger.steps[last])
        )

    def _place(self, index: int, entry: dict[str, Any], found: list[str]) -> int | None:
        """Where the entry goes: a new step (None) or the step it shares with entries before it.

        Entries made on separate copies of the file at the same point share a seq and a prev and
        form one step, kept in seat order, so merging copies needs no further signatures. Steps
        follow each other by the seq written in them, so one misplaced entry is reported once and
        the entries after it are judged on their own.
        """
        ledger = self.ledger
        assert ledger is not None
        seq, by = entry["seq"], entry["by"]
        last = len(ledger.steps) - 1
        if last < 0:
            return None  # the genesis entry; checked by _genesis
        last_seq = _declared(ledger, last)
        if seq == last_seq + 1:
            if entry["prev"] != ledger.head:
                found.append(
                    f"does not chain to {_step_name(ledger, last)}: its 'prev' is not that hash "
                    "(an entry was changed, inserted or reordered)"
                )
            return None
        if seq == last_seq and last > 0:
            for position in ledger.steps[last]:
                if ledger.entries[position].get("by") == by:
                    self._same_place(position, entry, found)
                    return last
            previous_by = ledger.entries[ledger.steps[last][-1]].get("by")
            if _seat_index(ledger, by) < _seat_index(ledger, previous_by):
                found.append(f"entries of step {seq} are not in seat order ({by} after {previous_by})")
            if entry["prev"] != ledger.step_hash(last - 1):
                found.append(
                    f"does not chain to {_step_name(ledger, last - 1)}: its 'prev' is not that hash "
                    "(an entry was changed, inserted or reordered)"
                )
            return last
        found.append(
            f"has seq {seq} but follows entry {last_seq}: an entry was removed, duplicated or reordered"
        )
        return None

    def _same_place(self, position: int, entry: dict[str, Any], found: list[str]) -> None:
        assert self.ledger is not None
        other = self.ledger.entries[position]
        if _same(other, entry):
            found.append("repeats an earlier entry by the same seat in this step: an entry was duplicated")
            return
        # Only two entries the seat really signed prove equivocation: an entry whose signature
        # fails is someone's edit (a changed seq, say), reported as such, and must not frame the seat.
        if len(self.ledger.entries) in self.unsigned:
            return
        if position in self.unsigned:
            found.append(
                f"{entry['by']} already has an entry in step {entry['seq']}: a step holds at most one "
                "entry per seat"
            )
            return
        self.equivocations.append(
            Problem(
                f"{entry['by']} signed two different entries for step {entry['seq']}: equivocation "
                "(both entries are the proof)",
                entry["seq"],
                entry["by"],
                kind="equivocation",
                evidence=(dict(other), dict(entry)),
                position=len(self.ledger.entries),
            )
        )


def _replay_play(
    rules: Ruleset,
    table: Table,
    step_start: Table,
    entry: dict[str, Any],
    days: int,
    *,
    shared: bool,
    check: ProofCheck = check_now,
) -> None:
    """Check a play entry, then apply it to the table.

    An entry that shares its step with earlier ones is also checked against the table as the step
    began, since its author saw none of them; for the first entry of a step the two are the same.
    """
    seat, kind = entry["by"], entry["kind"]
    if kind in ("undo", "consent"):
        target = entry["target"]
        if type(target) is not int:
            raise GameFileError("target must be the seq of the move to undo")
        if kind == "undo":
            tables.request_undo(table, seat, target)
        else:
            if type(entry["agree"]) is not bool:
                raise GameFileError("agree must be true or false")
            tables.answer_undo(table, seat, target, entry["agree"], entry["seq"])
        return
    tables.check_no_undo_pending(table)
    if tables.take_owed(table, step_start, seat, entry, check):
        # What a seat gives the decks builds on the moves before it: none of them can be undone now.
        tables.note_play(table, entry["seq"], seat, kind)
    elif kind == "sync":
        raise GameFileError(
            f"a sync entry carries what its seat owes the hidden decks, and {seat} owed nothing"
        )
    if kind == "sync":
        return
    if kind == "timeout":
        claim = {
            "claimant": seat,
            "late": entry["late"],
            "step": entry["step"],
            "at": entry["at"],
            "days": days,
        }
        if shared:
            tables.check_timeout(rules, step_start, **claim)
        demand = tables.check_timeout(rules, table, **claim)
        tables.apply_timeout(rules, table, demand, cards=entry, check=check)
        return
    if kind == "move":
        if shared:
            tables.check_move(rules, step_start, seat, entry["move"], cards=entry, check=check)
        checked = tables.check_move(rules, table, seat, entry["move"], cards=entry, check=check)
        tables.apply_move(rules, table, seat, checked)
        # A card shown face up (or put back under the deck) cannot be hidden again: such a move
        # is played for good, as what a seat gives the decks is.
        shown = any(name in entry for name in hidden_decks.CARD_FIELDS)
        tables.note_play(table, entry["seq"], seat, tables.SHOWN if shown else kind)
    elif kind == "commit":
        if shared:
            tables.check_commit(rules, step_start, seat, entry["step"], entry["commitment"])
        tables.check_commit(rules, table, seat, entry["step"], entry["commitment"])
        try:
            unb64(entry["sealed"])
        except ValueError:
            raise GameFileError("the sealed value is not base64") from None
        escrow_sealed = _escrow_sealed(table, entry)
        tables.apply_commit(
            table, seat, entry["step"], entry["commitment"], entry["sealed"], escrow_sealed=escrow_sealed
        )
    elif kind == "reveal":
        nonce = _nonce(entry["nonce"])
        opening = sealing.Opening(entry["value"], nonce)
        if shared:
            tables.check_reveal(rules, step_start, seat, entry["step"], opening)
        move = tables.check_reveal(rules, table, seat, entry["step"], opening)
        tables.apply_reveal(rules, table, seat, entry["step"], move)
    else:
        # Only against the step's start: the entry's own link is already counted in ``table``.
        tables.check_contribution(rules, step_start, seat, entry["event"])


def _escrow_sealed(table: tables.Table, entry: Mapping[str, Any]) -> str | None:
    """A commit's ``escrow_sealed``: required where the game seals choices to the escrow, refused
    elsewhere."""
    given = entry.get("escrow_sealed")
    if not tables.seals_to_escrow(table):
        if given is not None:
            raise GameFileError("escrow_sealed: this game seals no choice to the escrow")
        return None
    if given is None:
        raise GameFileError(
            'escrow_sealed is missing: in this game (withheld = "open", with escrow) a sealed choice '
            "is also sealed so that the escrow can open it if its seat keeps it back"
        )
    try:
        opened = unb64(given)
    except ValueError:
        raise GameFileError("escrow_sealed is not base64") from None
    if len(opened) < sealing.AEAD_NONCE_SIZE + 16 + sealing.NONCE_SIZE:
        raise GameFileError("escrow_sealed is too short to hold a sealed value")
    assert isinstance(given, str)
    return given


def _receiving_keys(ledger: Ledger) -> dict[str, Element] | None:
    """The escrow receiving keys of the seats in the game and its referee (None: no escrow)."""
    if not escrows.wanted(ledger.options) and ledger.referee is None:
        return None
    return {seat: key for seat, key in ledger.receiving_keys.items() if seat in ledger.participants}


def _nonce(text: str) -> bytes:
    if not re.fullmatch(r"[0-9a-f]{32}", text):
        raise GameFileError("the nonce must be 32 hex digits")
    return bytes.fromhex(text)


def _link(value: object) -> bytes | None:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        return None
    return bytes.fromhex(value)


def _declared(ledger: Ledger, step: int) -> int:
    """The seq written in the entries of ``ledger.steps[step]`` (-1 if unreadable)."""
    seq = ledger.entries[ledger.steps[step][0]].get("seq")
    return seq if type(seq) is int else -1


def _step_name(ledger: Ledger, step: int) -> str:
    seq = _declared(ledger, step)
    return f"entry {seq}" if len(ledger.steps[step]) == 1 else f"step {seq}"


def _seat_index(ledger: Ledger, seat: object) -> int:
    """A signer's place in a step's order: the seats' order, the referee after them."""
    signers = ledger.signers
    return signers.index(seat) if isinstance(seat, str) and seat in signers else -1


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{name} must be text")
    return value


def _keys(entry: dict[str, Any], found: list[str]) -> tuple[bytes, bytes] | None:
    try:
        return unb64(entry["sign"], KEY_SIZE), unb64(entry["box"], KEY_SIZE)
    except (ValueError, TypeError, AttributeError):
        found.append("its public keys are not 32 bytes of base64 each")
        return None


def _expect_types(entry: dict[str, Any], found: list[str]) -> None:
    if type(entry["seq"]) is not int:
        found.append("seq must be an integer")
    for name in ("prev", "by", "at", "kind", "sig"):
        if not isinstance(entry[name], str):
            found.append(f"field {name!r} must be text")
    if found:
        return
    if not TIME_PATTERN.fullmatch(entry["at"]) or not _valid_time(entry["at"]):
        found.append(f"time {entry['at']!r} is not an RFC 3339 UTC time like 2026-01-31T12:00:00Z")


def _valid_time(text: str) -> bool:
    """True if a text of TIME_PATTERN's shape names a real moment (no 30 February, no hour 24).

    On that shape ``fromisoformat`` accepts exactly what ``strptime`` with the format
    ``%Y-%m-%dT%H:%M:%SZ`` does, for a twentieth of the cost; it runs once per entry.
    """
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _same(found: Any, expected: Any) -> bool:
    """Equality that also compares types: in Python ``True == 1`` and ``1.0 == 1``, in TOML not."""
    if type(found) is not type(expected):
        return False
    if isinstance(expected, dict):
        return found.keys() == expected.keys() and all(_same(found[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return len(found) == len(expected) and all(map(_same, found, expected))
    return bool(found == expected)


def _check_copies(ledger: Ledger, data: dict[str, Any]) -> list[Problem]:
    """The header, roster table and components are unsigned copies: each must match the entries."""
    problems: list[Problem] = []
    extra = sorted(set(data) - set(TOP_LEVEL))
    if extra:
        problems.append(
            Problem(
                f"unexpected top-level table{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
            )
        )
    header = data["game"]
    expected = ledger.header()
    count = len(ledger.entries)
    recorded = header.get("entries")
    if type(recorded) is int and recorded > count:
        last = ledger.entries[-1]
        by = last.get("by") if isinstance(last.get("by"), str) else None
        seq = last.get("seq") if type(last.get("seq")) is int else count - 1
        problems.append(
            Problem(
                f"the file ends here but its header records {recorded} entries: the file was truncated",
                seq,
                by,
                position=count - 1,
            )
        )
    for name in HEADER_FIELDS:
        if name == "entries" and type(recorded) is int and recorded > count:
            continue
        if not _same(header.get(name), expected[name]):
            problems.append(
                Problem(
                    f"header field {name!r} is {header.get(name)!r}, but the entries say {expected[name]!r}"
                )
            )
    unknown = sorted(set(header) - set(HEADER_FIELDS))
    if unknown:
        problems.append(
            Problem(
                f"header has unexpected field{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown))}"
            )
        )
    roster = data.get("roster", {})
    table = ledger.roster_table()
    if not isinstance(roster, dict):
        problems.append(Problem("[roster] is not a table"))
    else:
        for seat in sorted(set(roster) | set(table)):
            joined = ledger.joined_at.get(seat)
            if seat not in table:
                problems.append(Problem(f"roster lists {seat!r}, who has not joined"))
            elif seat not in roster:
                problems.append(Problem(f"roster is missing {seat!r}, who joined in entry {joined}"))
            elif not _same(roster[seat], table[seat]):
                past = ledger.handovers.get(seat)
                # a seat handed on holds the keys its last handover named, signed in that entry
                signed = past[-1].seq if past else joined
                problems.append(
                    Problem(
                        f"roster keys for {seat!r} differ from the keys {seat} signed in entry {signed}",
                        signed,
                        seat,
                    )
                )
    return problems
