"""Hidden decks at the table: deck keys, shuffles in seat order, private draws, shares and plays.

Every seat publishes an ElGamal key with a proof when it joins. Once every seat has joined, each
deck a ruleset declares starts as the open deck under the joint key, and the seats shuffle it in
seat order: seat k's shuffle (the new deck and its proof) rides in the first entry seat k signs
after seat k-1's shuffle is in the file. A draw the rules request takes the next slot of the pile;
every other seat then owes a decryption share of that slot, which rides in its next entry. With
every other share in, the drawer alone can read the card, with its own secret. Playing the card
face up carries the drawer's own share, which lets everyone check the card it names. A card dealt
face up is owed a share by every seat, and is open to all once the last one is in.

The rules may have a deck's remaining cards shuffled again during play: the seats then shuffle
those slots in seat order, as at setup, and the deck deals nothing until the last shuffle is in.

Once the rules say the game is over, nobody owes a shuffle, a reshuffle or a share of a card in a
hand: nobody will play the card, and a seat kept asking would keep the game from ending. Only a
card being dealt face up still takes every seat's share, since the rules asked for it to be seen.

What a seat owes is part of the table, so replay refuses an entry that leaves out what its author
owed when the step began, or carries something it does not owe: a seat can neither skip its turn
to shuffle nor hand out a share the rules did not call for.

Checking a proof is slow in pure Python, so every check goes through a ``ProofCheck``: given a
key that hashes every input of the check, and the check itself, it may skip a check it has seen
pass before. The engine never does I/O; the command line keeps such a cache on disk.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.canonical import canonical_bytes
from pbem.crypto.curve import UncheckedPoint
from pbem.crypto.groups import Element, Group
from pbem.crypto.hidden_deck import Ciphertext, Share
from pbem.crypto.signing import pae
from pbem.engine import escrows
from pbem.engine.ruleset import CardUse, DeckSpec, Demand, HiddenDeckRules, ReshuffleRules
from pbem.errors import GameFileError, IdentityError, IllegalMoveError

CHECK_DOMAIN = "pbem/checked-proof/v1"
DECK_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
# What an entry may carry for the hidden decks, by kind: what a seat owes rides in any entry it
# signs during play; a move may also show, return or discard the hidden cards it uses.
OWED_FIELDS = ("shuffles", "shares", "shares_proof", *escrows.ESCROW_FIELDS)
CARD_FIELDS = ("face_up", "face_up_proof", "remask")
RIDING_KINDS = ("move", "commit", "reveal", "contribute", "timeout", "sync")
PROOF_FIELDS = ("commitments", "chain", "challenge", "responses", "chain_responses", "card_responses")


def shuffle_fields(group: Group) -> tuple[str, ...]:
    """The proof fields of a shuffle: the Bayer-Groth argument's in a compact group, the
    Terelius-Wikstrom proof's in the 2048-bit group of older files."""
    return bg.FIELDS if group.compact else PROOF_FIELDS


# ``check(key, run)``: run the check ``run`` (which raises GameFileError) unless one with the
# same ``key`` is known to have passed. ``run`` only raises or returns, nothing else: a replay may
# run it later, in another thread (see proof_checks), with the lists it closes over copied when
# it is handed over; whatever else it reads must not change afterwards.
ProofCheck = Callable[[str, Callable[[], None]], None]


_PASSED: set[str] = set()
_PASSED_LIMIT = 100_000


def check_now(key: str, run: Callable[[], None]) -> None:
    """Check the proof, unless this process has already seen the same statement pass.

    The key hashes every input of the check, which is a pure function, so remembering a pass
    within one process changes nothing but the time taken (a file is replayed several times by
    one command). Nothing outlives the process: a new process checks everything again.
    """
    if key in _PASSED:
        return
    run()
    if len(_PASSED) >= _PASSED_LIMIT:
        _PASSED.clear()
    _PASSED.add(key)


def proof_key(kind: str, game_id: str, *parts: Any) -> str:
    """``GAME:HASH`` where the hash covers every input of a check, so a cached pass of one
    statement can never stand for another."""
    digest = hashlib.sha256(
        pae(CHECK_DOMAIN, kind.encode("ascii"), game_id.encode("utf-8"), canonical_bytes(list(parts)))
    ).hexdigest()
    return f"{game_id}:{digest}"


# --- keys ----------------------------------------------------------------------------------------
class KeyMaterial(bytes):
    """What a seat's secrets derive from, for a seat handed on by consent: its new player's own
    key material, and the seat's deck secret as the new player rebuilt it from the escrow
    (``waiting`` says why not yet), since nothing the new player holds derives the old one."""

    deck_secret: int | None = None
    waiting: str = ""
    bad_share: str | None = None  # a holder whose sealed share does not match: the complaint owed


def secret_for(key_material: bytes, game_id: str, seat: str, group: Group) -> int:
    """The seat's deck secret in this game, recomputed from its signing key whenever needed."""
    if isinstance(key_material, KeyMaterial):
        if key_material.deck_secret is None:
            raise IdentityError(key_material.waiting)
        return key_material.deck_secret
    return hd.derive_secret(hd.deck_seed(key_material), game_id, seat, group=group)


def key_fields(key_material: bytes, game_id: str, seat: str, group: Group) -> dict[str, str]:
    """The ``deck_key`` and ``deck_key_proof`` fields of a seat's genesis or join entry."""
    secret = secret_for(key_material, game_id, seat, group)
    return {
        "deck_key": group.element_text(hd.public_key(secret, group=group)),
        "deck_key_proof": hd.proof_text(hd.prove_key(secret, game_id, seat, group=group), group=group),
    }


def read_key(entry: Mapping[str, Any], game_id: str, seat: str, check: ProofCheck, group: Group) -> Element:
    """The seat's deck key from its genesis or join entry, its proof checked."""
    public = group.parse_element(entry["deck_key"], "deck_key")
    proof = hd.parse_proof(entry["deck_key_proof"], "deck_key_proof", group=group)
    check(
        proof_key("key", game_id, seat, entry["deck_key"], entry["deck_key_proof"]),
        lambda: hd.check_key(public, proof, game_id, seat, group=group),
    )
    return public


# --- the decks -----------------------------------------------------------------------------------
@dataclass
class Deck:
    deck_id: str
    cards: tuple[str, ...]  # card i is encoded as ``encode_card(i)``; names may repeat
    slots: list[Ciphertext]  # the ciphertext of every slot; the working deck while shuffling
    shuffled: int = 0  # how many seats have shuffled it, in seat order
    pile: list[int] = field(default_factory=list)  # slots left to draw, top first
    held: dict[int, str] = field(default_factory=dict)  # slot -> the seat holding it face down
    # of each slot's ciphertext, by seat; a slot's table is replaced, never changed (``add_share``),
    # so that a copy of the deck shares the tables (replay copies the decks at every step)
    shares: dict[int, dict[str, Share]] = field(default_factory=dict)
    face_up: dict[int, str] = field(default_factory=dict)  # slot -> the card shown
    gone: set[int] = field(default_factory=set)  # discarded face down
    # slot -> the seat a face-up deal is for, while every seat's share of it comes in (in the
    # order dealt, which is the order the rules learn the cards)
    showing: dict[int, str] = field(default_factory=dict)
    # The slots a reshuffle takes, top first (the pile when it began); None outside a reshuffle,
    # and while the first shuffle of every slot runs.
    mixing: tuple[int, ...] | None = None
    rounds: int = 0  # reshuffles begun: each seat's shuffle seed differs from round to round

    def copy(self) -> Deck:
        return Deck(
            self.deck_id,
            self.cards,
            list(self.slots),
            self.shuffled,
            list(self.pile),
            dict(self.held),
            dict(self.shares),
            dict(self.face_up),
            set(self.gone),
            dict(self.showing),
            self.mixing,
            self.rounds,
        )

    def add_share(self, slot: int, given: Share) -> None:
        self.shares[slot] = {**self.shares.get(slot, {}), given.seat: given}

    def mixed(self) -> list[Ciphertext]:
        """The ciphertexts the next shuffle takes: every slot at first, the slots a reshuffle
        takes (top first) later."""
        if self.mixing is None:
            return self.slots
        return [self.slots[slot] for slot in self.mixing]


@dataclass
class Decks:
    seats: tuple[str, ...]
    keys: dict[str, Element]  # seat -> its checked deck key
    joint: Element
    decks: dict[str, Deck]
    group: Group  # the group the genesis names, every deck's ciphertexts and proofs in it
    # The rules say the game is over: nobody plays a card again, so nothing is owed but the shares
    # of a card being dealt face up, which the rules asked to be seen.
    over: bool = False
    escrow: escrows.Escrow | None = None  # the seats' deck secrets in escrow (option escrow)

    def copy(self) -> Decks:
        decks = {name: d.copy() for name, d in self.decks.items()}
        escrow = None if self.escrow is None else self.escrow.copy()
        return Decks(self.seats, self.keys, self.joint, decks, self.group, self.over, escrow)

    def shuffled(self, deck: Deck) -> bool:
        """Every seat has shuffled the deck (or reshuffled the slots a reshuffle takes)."""
        return deck.shuffled == len(self.seats)

    def ready(self, deck: Deck) -> bool:
        """The deck may deal: every seat has shuffled it, and (with escrow) every dealing is
        acknowledged, so no card is dealt that a silent seat could lock away."""
        return self.shuffled(deck) and (self.escrow is None or self.escrow.complete(self.seats))

    def halted(self) -> str | None:
        """Why the game cannot go on (an escrow complaint's verdict), or None."""
        return None if self.escrow is None else self.escrow.failed

    def nothing_dealt(self) -> bool:
        """No card of any deck has been dealt to anyone or shown, so nothing is hidden yet: the
        decks may be set up again under other keys without anyone losing a card."""
        return not any(
            deck.held or deck.face_up or deck.showing or deck.gone or deck.shares or deck.mixing is not None
            for deck in self.decks.values()
        )


@dataclass(frozen=True)
class Owed:
    kind: Literal["shuffle", "share", "escrow", "acknowledge", "partial", "reshare", "complaint"]
    deck_id: str = ""
    slot: int = -1
    dealer: str = ""  # whose escrow an acknowledgement answers, or a partial helps unlock

    def describe(self) -> str:
        if self.kind == "shuffle":
            return f"its shuffle of the {self.deck_id} deck"
        if self.kind == "escrow":
            return "its escrow dealing"
        if self.kind == "acknowledge":
            return f"its acknowledgement of {self.dealer}'s escrow dealing"
        if self.kind == "complaint":
            return f"its complaint of {self.dealer}'s share"
        if self.kind == "reshare":
            return f"its share of {self.dealer}'s secret, sealed to {self.dealer}'s new player"
        if self.kind == "partial":
            step = escrows.sealed_step(self.deck_id)
            if step is not None:
                return f"its partial decryption opening {self.dealer}'s sealed {step}"
            return f"its partial decryption of {self.dealer}'s share of {token(self.deck_id, self.slot)}"
        return f"its decryption share of {token(self.deck_id, self.slot)}"


def token(deck_id: str, slot: int) -> str:
    """What a ruleset's state holds for a hidden card: the deck and the slot, never the card."""
    return f"{deck_id}:{slot}"


def setup(
    specs: Sequence[DeckSpec],
    seats: Sequence[str],
    keys: Mapping[str, Element],
    group: Group,
    escrow: escrows.Escrow | None = None,
) -> Decks:
    """Every declared deck, open (each card encrypted with the public randomness 1)."""
    missing = [seat for seat in seats if seat not in keys]
    if missing:
        raise GameFileError(f"no deck key for {', '.join(missing)}")
    joint = hd.joint_key((keys[seat] for seat in seats), group=group)
    decks: dict[str, Deck] = {}
    for spec in specs:
        if not DECK_ID.fullmatch(spec.deck_id) or spec.deck_id in decks:
            raise GameFileError(f"the rules declare a hidden deck with a bad or repeated id {spec.deck_id!r}")
        if not spec.cards:
            raise GameFileError(f"the rules declare the hidden deck {spec.deck_id} without cards")
        decks[spec.deck_id] = Deck(
            spec.deck_id, tuple(spec.cards), hd.open_deck(len(spec.cards), joint, group=group)
        )
    return Decks(tuple(seats), {seat: keys[seat] for seat in seats}, joint, decks, group, escrow=escrow)


def participants(decks: Decks) -> tuple[str, ...]:
    """Everyone who may owe the decks something: the seats, and the referee of a game with one."""
    referee = None if decks.escrow is None else decks.escrow.referee
    return decks.seats if referee is None else (*decks.seats, referee)


def owed(decks: Decks, seat: str) -> list[Owed]:
    """What ``seat`` owes the decks now: its turn to shuffle, shares of others' draws."""
    return owing(decks, (seat,)).get(seat, [])


def owing(decks: Decks, seats: Sequence[str] | None = None) -> dict[str, list[Owed]]:
    """What each of ``seats`` (default every seat, and the referee of a game with one) owes the
    decks now, seats owing nothing left out: deck by deck, each seat's shuffle before its shares.
    One pass over the decks serves every seat, as replay asks after every entry."""
    everyone = decks.seats
    escrow = decks.escrow
    asked = participants(decks) if seats is None else seats
    count = len(everyone)
    found: dict[str, list[Owed]] = {}
    if escrow is not None and escrow.failed is not None:
        return found  # the game cannot go on: nothing is owed
    if escrow is not None:
        # each seat deals first, then each holder answers every dealing it holds a share of
        for seat in asked:
            if seat in everyone and seat not in escrow.dealings:
                found.setdefault(seat, []).append(Owed("escrow"))
            for dealer in escrow.dealings:
                if seat in escrow.holders(everyone, dealer) and seat not in escrow.acknowledged.get(
                    dealer, set()
                ):
                    found.setdefault(seat, []).append(Owed("acknowledge", dealer=dealer))
        # a silent seat handed on: its holders owe their shares sealed to its new player
        for handed in escrow.resharing:
            for giver in escrows.reshare_owed(escrow, everyone, handed):
                if giver in asked:
                    found.setdefault(giver, []).append(Owed("reshare", dealer=handed))
        # a silent seat's shares being unlocked: every holder owes its partial until enough are in
        for silent, positions in escrow.unlocking.items():
            holders = escrow.holders(everyone, silent)
            for (deck_id, slot), given in positions.items():
                if len(given) >= escrow.threshold:
                    continue
                for seat in asked:
                    if seat in holders and seat not in given:
                        found.setdefault(seat, []).append(Owed("partial", deck_id, slot, dealer=silent))
        if escrow.referee is not None:
            asked = [seat for seat in asked if seat in everyone]  # the referee owes no deck a share
        # A seat handed on owes its shares again once its new player holds its secret: until
        # then the holders sealing it are the ones asked.
        waiting = {seat for seat in escrow.resharing if escrows.reshare_owed(escrow, everyone, seat)}
        sharing = [seat for seat in asked if seat not in waiting]
    else:
        sharing = list(asked)
    for deck in decks.decks.values():
        if deck.shuffled < count and everyone[deck.shuffled] in asked and not decks.over:
            found.setdefault(everyone[deck.shuffled], []).append(Owed("shuffle", deck.deck_id))
        # A slot dealt face up is held by nobody: every seat owes its share, the one it is for too.
        held, every_share = deck.held, deck.shares
        open_slots = []
        for slot in [*([] if decks.over else held), *deck.showing]:
            shares = every_share.get(slot)
            # Most held cards have every share they need, which their count shows (shares are
            # keyed by seat): only the others are looked at seat by seat, which replay asks after
            # every entry.
            if shares is not None:
                holder = held.get(slot)
                if len(shares) - (holder in shares) == count - (holder in everyone):
                    continue
            open_slots.append(slot)
        for slot in sorted(open_slots):
            holder = held.get(slot)
            shares = every_share.get(slot, {})
            for seat in sharing:
                if seat != holder and seat not in shares:
                    if escrow is not None and escrow.unlocked(seat, deck.deck_id, slot):
                        continue  # the others give it, by their partials
                    found.setdefault(seat, []).append(Owed("share", deck.deck_id, slot))
    return found


def demands(decks: Decks) -> list[Demand]:
    """What the seats owe, as demands any entry of theirs settles (``pbem sync`` if nothing else)."""
    found: list[Demand] = []
    owes = owing(decks)
    for seat in participants(decks):
        for item in owes.get(seat, []):
            if item.kind == "escrow":
                referee = decks.escrow is not None and decks.escrow.referee is not None
                whom = "the referee" if referee else "the other seats"
                found.append(Demand(seat, "escrow", "escrow", f"deal your deck secret in escrow to {whom}"))
                continue
            if item.kind == "acknowledge":
                found.append(
                    Demand(
                        seat,
                        "escrow",
                        f"escrow of {item.dealer}",
                        f"check and acknowledge {item.dealer}'s escrow dealing",
                    )
                )
                continue
            if item.kind == "reshare":
                found.append(
                    Demand(
                        seat,
                        "escrow",
                        f"handover of {item.dealer}",
                        f"seal your share of {item.dealer}'s secret to {item.dealer}'s new player",
                    )
                )
                continue
            if item.kind == "partial":
                name = token(item.deck_id, item.slot)
                step = escrows.sealed_step(item.deck_id)
                found.append(
                    Demand(
                        seat,
                        "unlock",
                        f"unlock of {item.dealer}",
                        f"give a partial decryption of {item.dealer}'s share of {name} "
                        f"({item.dealer} is silent)"
                        if step is None
                        else f"give a partial decryption that opens {item.dealer}'s sealed {step} "
                        f"({item.dealer} kept it back past its deadline)",
                    )
                )
                continue
            deck = decks.decks[item.deck_id]
            if item.kind == "shuffle":
                again = "re" if deck.mixing is not None else ""
                found.append(
                    Demand(
                        seat,
                        "shuffle",
                        f"shuffle of {deck.deck_id}",
                        f"{again}shuffle the {deck.deck_id} deck",
                    )
                )
            else:
                name = token(deck.deck_id, item.slot)
                if item.slot in deck.showing:
                    what = f"{name}, dealt face up for {deck.showing[item.slot]}"
                else:
                    what = f"{deck.held[item.slot]}'s draw {name}"
                found.append(Demand(seat, "share", f"share of {name}", f"give a decryption share of {what}"))
    return found


def waiting_for(decks: Decks, deck_id: str, slot: int) -> list[str]:
    """The seats whose share of a held slot (or one being dealt face up) is still missing."""
    deck = decks.decks[deck_id]
    holder = deck.held.get(slot)
    return [seat for seat in decks.seats if seat != holder and seat not in deck.shares.get(slot, {})]


def waits(decks: Decks) -> dict[str, list[str]]:
    """Each seat that holds a card it cannot read yet, with the seats whose share of one is still
    missing, in seat order. One pass over the held cards serves every seat (replay asks after
    every entry of a game with deadlines), most of which have every share in."""
    count = len(decks.seats)
    missing: dict[str, set[str]] = {}
    for deck in decks.decks.values():
        for slot, holder in deck.held.items():
            shares = deck.shares.get(slot, {})
            if len(shares) - (holder in shares) == count - 1:
                continue
            missing.setdefault(holder, set()).update(
                seat for seat in decks.seats if seat != holder and seat not in shares
            )
    return {holder: [seat for seat in decks.seats if seat in seats] for holder, seats in missing.items()}


def parse_token(decks: Decks, text: object) -> tuple[Deck, int]:
    if not isinstance(text, str) or ":" not in text:
        raise GameFileError(f"{text!r} is not a hidden card (deck:slot)")
    deck_id, _, slot_text = text.rpartition(":")
    deck = decks.decks.get(deck_id)
    if deck is None or not slot_text.isdigit() or int(slot_text) >= len(deck.slots):
        raise GameFileError(f"{text!r} is not a hidden card of this game")
    return deck, int(slot_text)


# --- making what a seat owes (the side that signs) ---------------------------------------------
def owed_fields(
    decks: Decks,
    seat: str,
    *,
    game_id: str,
    key_material: bytes,
    shuffle_seeds: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    """The fields that settle everything ``seat`` owes: its shuffles, with proofs, and its shares.

    Shuffle seeds derive from the seat's key (``shuffle_seeds`` replaces them by deck, for tests
    that show no single seat fixes the order), so making the entry twice gives the same entry.
    """
    seed = hd.deck_seed(key_material)
    group = decks.group
    owes = owed(decks, seat)
    bad = key_material.bad_share if isinstance(key_material, KeyMaterial) else None
    if bad is not None and decks.escrow is not None and decks.escrow.failed is None:
        # The complaint stops the game, so it is all the entry carries: what else the seat owes
        # needs the deck secret the bad share keeps the new player from rebuilding.
        owes = []
    needs_secret = any(item.kind in ("escrow", "share") for item in owes)  # a shuffle needs none
    secret = secret_for(key_material, game_id, seat, group) if needs_secret else 0
    fields: dict[str, Any] = {}
    places: list[hd.Place] = []
    answering: list[str] = []
    resharing = False
    unlocking: dict[str, dict[str, list[hd.Place]]] = {}
    for item in owes:
        if item.kind == "reshare":
            resharing = True
            continue
        if item.kind == "escrow":
            assert decks.escrow is not None
            fields["escrow"] = escrows.dealing_fields(
                decks.escrow, decks.seats, seat, secret, seed=seed, game_id=game_id, group=group
            )
            continue
        if item.kind == "acknowledge":
            answering.append(item.dealer)
            continue
        if item.kind == "partial":
            unlocking.setdefault(item.dealer, {}).setdefault(item.deck_id, []).append(
                _unlocked_place(decks, item.deck_id, item.slot, item.dealer, game_id)
            )
            continue
        deck = decks.decks[item.deck_id]
        if item.kind == "shuffle":
            chosen = (shuffle_seeds or {}).get(deck.deck_id) or hd.shuffle_seed(
                seed, game_id=game_id, deck_id=deck.deck_id, seat=seat, round=deck.rounds
            )
            before = deck.mixed()
            after, how = sh.shuffle(
                before, decks.joint, chosen, game_id=game_id, deck_id=deck.deck_id, seat=seat, group=group
            )
            shuffle: dict[str, Any] = {"deck": deck.deck_id}
            if deck.mixing is not None:
                shuffle["slots"] = list(deck.mixing)
            shuffle["cards"] = hd.deck_text(after, group=group)
            shuffle |= _shuffle_proof(decks, deck, seat, before, after, how=how, game_id=game_id)
            fields.setdefault("shuffles", []).append(shuffle)
        elif group.compact:
            places.append(hd.Place(deck.deck_id, item.slot, deck.slots[item.slot]))
        else:
            fields.setdefault("shares", []).append(
                _own_share(decks, secret, deck, item.slot, seat, game_id=game_id)
            )
    if places:
        fields["shares"], fields["shares_proof"] = _proven_shares(
            group, secret, places, game_id=game_id, seat=seat
        )
    escrow = decks.escrow
    if answering or unlocking or resharing:
        assert escrow is not None
        receive = es.receive_secret(seed, game_id, seat, group=group)
        fields |= escrows.answers(escrow, seat, answering, receive, game_id=game_id, group=group)
        if unlocking:
            fields["escrow_partials"] = escrows.partial_fields(
                escrow, seat, unlocking, receive, game_id=game_id, group=group
            )
        if resharing:
            fields["escrow_reshares"] = escrows.reshare_fields(
                escrow, seat, decks.seats, receive, seed=seed, game_id=game_id, group=group
            )
    if escrow is not None and bad is not None and escrow.failed is None:
        # the new player of a seat handed on found a share sealed to it that does not match
        receive = es.receive_secret(seed, game_id, seat, group=group)
        fields["escrow_reshare_complaint"] = escrows.reshare_complaint_fields(
            escrow, seat, bad, receive, game_id=game_id, group=group
        )
    return fields


def _shuffle_proof(
    decks: Decks,
    deck: Deck,
    seat: str,
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    *,
    how: sh.ShuffleSecret,
    game_id: str,
) -> dict[str, Any]:
    """The proof fields of ``seat``'s shuffle of ``deck`` under the joint key, in the form the
    game's group writes (``shuffle_fields``): a seat's shuffle, or a card it returns re-masked
    (in the 2048-bit group, a one-card shuffle)."""
    group = decks.group
    statement = sh.ShuffleStatement(
        before, after, decks.joint, game_id=game_id, deck_id=deck.deck_id, seat=seat, group=group
    )
    if group.compact:
        return bg.proof_fields(bg.prove_shuffle_bg(statement, how), group)
    return sp.proof_fields(sp.prove_shuffle(statement, how), group=group)


def _linear_shuffle_check(
    decks: Decks,
    deck: Deck,
    seat: str,
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    *,
    proof: sp.ShuffleProof,
    game_id: str,
) -> Callable[[], None]:
    """The check of ``seat``'s proof of shuffle of ``deck`` in the 2048-bit group (a seat's
    shuffle, or a card it returns re-masked), for a ``ProofCheck`` to run."""
    group = decks.group

    def run() -> None:
        statement = sh.ShuffleStatement(
            before, after, decks.joint, game_id=game_id, deck_id=deck.deck_id, seat=seat, group=group
        )
        sp.check_shuffle(statement, proof)

    return run


def _proven_shares(
    group: Group,
    secret: int,
    places: Sequence[hd.Place],
    *,
    game_id: str,
    seat: str,
    cards: Sequence[str] = (),
) -> tuple[list[dict[str, Any]], str]:
    """Shares in a compact group's form: one table per run of places in the same deck (its slots,
    its shares packed, the cards they show if any), and the one proof for them all."""
    values, proof = hd.shares(secret, places, game_id=game_id, seat=seat, group=group)
    tables: list[dict[str, Any]] = []
    runs: list[list[int]] = []
    for index, place in enumerate(places):
        if runs and places[runs[-1][0]].deck_id == place.deck_id:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        table: dict[str, Any] = {
            "deck": places[run[0]].deck_id,
            "slots": [places[index].position for index in run],
            "shares": group.elements_text([values[index] for index in run]),
        }
        if cards:
            table["cards"] = [cards[index] for index in run]
        tables.append(table)
    return tables, hd.proof_text(proof, group=group)


def share_items(entry: Mapping[str, Any], name: str, group: Group) -> list[tuple[str, dict[str, Any]]]:
    """The shares an entry's ``name`` list carries, one table each (deck, slot, share, and card
    or proof where the form has them), with where each sits for messages. A compact group's
    tables each hold a run of slots of one deck."""
    items = _items(entry, name)
    if not group.compact:
        return [(f"{name}[{index}]", dict(item)) for index, item in enumerate(items)]
    found: list[tuple[str, dict[str, Any]]] = []
    for index, item in enumerate(items):
        where = f"{name}[{index}]"
        _only(item, ("deck", "slots", "shares", *(("cards",) if name == "face_up" else ())), where)
        slots = item.get("slots")
        if not isinstance(slots, list) or not slots:
            raise GameFileError(f"{where}: slots must be a list of slots")
        values = group.parse_elements(item.get("shares"), f"{where} shares", lazily=True)
        cards = item.get("cards", [None] * len(slots)) if name == "face_up" else [None] * len(slots)
        if len(values) != len(slots):
            raise GameFileError(f"{where}: {len(values)} shares for {len(slots)} slots")
        if not isinstance(cards, list) or len(cards) != len(slots):
            raise GameFileError(f"{where}: cards must name one card for each of the {len(slots)} slots")
        for number, (slot, value, card) in enumerate(zip(slots, values, cards, strict=True)):
            flat: dict[str, Any] = {"deck": item.get("deck"), "slot": slot, "value": value}
            if name == "face_up":
                flat["card"] = card
            found.append((f"{where} slots[{number}]", flat))
    return found


def _naming(run: Callable[[], None], where: str, decode: Callable[[], object]) -> Callable[[], None]:
    """``run``, where a point decoded lazily that a power refused is named by ``decode``, which
    decodes every point of the field in full (its error names the field and the value)."""

    def checked() -> None:
        try:
            run()
        except UncheckedPoint:
            decode()
            raise GameFileError(f"{where}: a point is not a group element") from None

    return checked


def _check_shares(
    decks: Decks,
    seat: str,
    entry: Mapping[str, Any],
    name: str,
    *,
    given: Sequence[hd.Place],
    values: Sequence[Element],
    game_id: str,
    check: ProofCheck,
) -> None:
    """Check the one proof of a compact group's shares in ``name`` (nothing to check if none)."""
    field_name = f"{name}_proof"
    if not given:
        if field_name in entry:
            raise GameFileError(f"{field_name}: the entry carries no {name} for it to prove")
        return
    group = decks.group
    proof = hd.parse_proof(entry.get(field_name), field_name, group=group)
    key = proof_key(
        "shares",
        game_id,
        seat,
        [
            [place.deck_id, place.position, hd.ciphertext_text(place.ciphertext, group=group)]
            for place in given
        ],
        [group.element_text(value) for value in values],
        entry.get(field_name),
    )
    check(
        key,
        _naming(
            lambda: hd.check_shares(
                decks.keys[seat], given, values, proof, game_id=game_id, seat=seat, group=group
            ),
            name,
            lambda: [
                group.parse_elements(item.get("shares"), f"{name}[{index}] shares")
                for index, item in enumerate(_items(entry, name))
            ],
        ),
    )


def _own_share(
    decks: Decks, secret: int, deck: Deck, slot: int, seat: str, *, game_id: str
) -> dict[str, Any]:
    """``seat``'s share of ``slot`` given on its own, with its own proof (the 2048-bit group's form)."""
    group = decks.group
    made = hd.share(
        secret, deck.slots[slot], game_id=game_id, deck_id=deck.deck_id, position=slot, seat=seat, group=group
    )
    assert made.proof is not None, "a share given on its own carries its proof"
    return {
        "deck": deck.deck_id,
        "slot": slot,
        "share": group.element_text(made.value),
        "proof": hd.proof_text(made.proof, group=group),
    }


# --- taking what a seat owes (replay) ------------------------------------------------------------
def take_owed(
    decks: Decks, start: Decks, seat: str, entry: Mapping[str, Any], *, game_id: str, check: ProofCheck
) -> int:
    """Check and take the shuffles and shares ``entry`` carries; how many it carried.

    The entry must carry everything its author owed when its step began (``start``), and may
    carry only what the author owes now or owed then (a held card may have left the hand in the
    same step, made on another copy).
    """
    carried: list[Owed] = []
    carried += _take_escrow(decks, start, seat, entry, game_id=game_id, check=check)
    for index, item in enumerate(_items(entry, "shuffles")):
        carried.append(
            _take_shuffle(decks, seat, item, where=f"shuffles[{index}]", game_id=game_id, check=check)
        )
    owed_at_start = owed(start, seat)
    allowed = set(owed(decks, seat)) | set(owed_at_start)
    if not decks.group.compact and "shares_proof" in entry:
        raise GameFileError("shares_proof: the shares of this game each carry their own proof")
    places: list[hd.Place] = []
    values: list[Element] = []
    for where, item in share_items(entry, "shares", decks.group):
        taken, place, value = _take_share(
            decks, seat, item, where=where, allowed=allowed, game_id=game_id, check=check
        )
        if taken in carried:
            raise GameFileError(f"{where}: a second share of {token(taken.deck_id, place.position)}")
        carried.append(taken)
        if decks.group.compact:
            places.append(place)
            values.append(value)
    missing = [item for item in owed_at_start if item not in carried]
    # an entry whose complaint stopped the game owes nothing more: nothing is owed after it
    stopped_here = start.escrow is not None and start.escrow.failed is None and decks.halted() is not None
    if missing and not stopped_here:
        raise GameFileError(f"{seat} owes {missing[0].describe()}, and this entry does not carry it")
    if decks.group.compact:
        _check_shares(decks, seat, entry, "shares", given=places, values=values, game_id=game_id, check=check)
        for place, value in zip(places, values, strict=True):
            decks.decks[place.deck_id].add_share(place.position, Share(seat, value, None))
    return len(carried)


def _take_escrow(
    decks: Decks, start: Decks, seat: str, entry: Mapping[str, Any], *, game_id: str, check: ProofCheck
) -> list[Owed]:
    """Take the escrow dealing, acknowledgements and complaint an entry carries."""
    escrow = decks.escrow
    if escrow is None:
        present = [name for name in escrows.ESCROW_FIELDS if name in entry]
        if present:
            raise GameFileError(f"{present[0]}: this game keeps no escrow")
        return []
    carried: list[Owed] = []
    if "escrow" in entry:
        if seat not in decks.seats:
            raise GameFileError("escrow: a referee holds the seats' dealings and deals none")
        escrows.take_dealing(
            escrow,
            decks.seats,
            seat,
            entry["escrow"],
            deck_key=decks.keys[seat],
            game_id=game_id,
            group=decks.group,
        )
        carried.append(Owed("escrow"))
    for dealer in escrows.take_answers(escrow, seat, entry, game_id=game_id, group=decks.group):
        carried.append(Owed("acknowledge", dealer=dealer))
    for index, item in enumerate(_items(entry, "escrow_partials")):
        where = f"escrow_partials[{index}]"
        carried += _take_partials(
            decks, escrow, start, seat, item, earlier=carried, where=where, game_id=game_id, check=check
        )
    if "escrow_reshares" in entry:
        for handed in escrows.take_reshares(
            escrow, decks.seats, seat, entry["escrow_reshares"], game_id=game_id, group=decks.group
        ):
            carried.append(Owed("reshare", dealer=handed))
    if "escrow_reshare_complaint" in entry:
        carried.append(Owed("complaint", dealer=str(entry["escrow_reshare_complaint"].get("holder"))))
        escrows.take_reshare_complaint(
            escrow, seat, entry["escrow_reshare_complaint"], game_id=game_id, group=decks.group
        )
    return carried


def _take_partials(
    decks: Decks,
    escrow: escrows.Escrow,
    start: Decks,
    seat: str,
    item: Mapping[str, Any],
    *,
    earlier: Sequence[Owed],
    where: str,
    game_id: str,
    check: ProofCheck,
) -> list[Owed]:
    """Take one table of partial decryptions for a silent seat; each position whose partials are
    then enough gets the silent seat's share, as if it had given it. ``earlier``: what the entry
    carried before this table."""
    _only(item, ("seat", "deck", "slots", "partials", "proof"), where)
    silent = item.get("seat")
    if not isinstance(silent, str) or silent not in escrow.unlocking:
        raise GameFileError(f"{where}: {silent!r} is not a seat being unlocked")
    sealed = escrows.sealed_step(str(item.get("deck", "")))
    deck = None if sealed is not None else _deck_of(decks, item, where)
    deck_id = deck.deck_id if deck is not None else escrows.sealed_place(sealed or "")
    slots = item.get("slots")
    if not isinstance(slots, list) or not slots or not all(type(slot) is int for slot in slots):
        raise GameFileError(f"{where}: slots must be a list of slots")
    if len(set(slots)) != len(slots):
        raise GameFileError(f"{where}: a slot named twice")
    allowed = set(owed(decks, seat)) | set(owed(start, seat))
    taken = [Owed("partial", deck_id, slot, dealer=silent) for slot in slots]
    for slot, wanted in zip(slots, taken, strict=True):
        # a holder's second partial of a position would stand in for another holder's in the
        # count towards the threshold, or replace its first after the first was checked
        if wanted in earlier or seat in escrow.unlocking[silent].get((deck_id, slot), {}):
            raise GameFileError(
                f"{where}: a second partial decryption by {seat} of {silent}'s share of "
                f"{token(deck_id, slot)}"
            )
        if wanted not in allowed:
            raise GameFileError(
                f"{where}: {seat} owes no partial decryption of {silent}'s share of "
                f"{token(deck_id, slot)} (the others unlock only what the game needs of a silent seat)"
            )
    group = decks.group
    values = group.parse_elements(item.get("partials"), f"{where} partials")
    if len(values) != len(slots):
        raise GameFileError(f"{where}: {len(values)} partials for {len(slots)} slots")
    proof = hd.parse_proof(item.get("proof"), f"{where} proof", group=group)
    places = [_unlocked_place(decks, deck_id, slot, silent, game_id) for slot in slots]
    dealing = escrow.dealings[silent]
    c1s = [group.element_text(place.ciphertext.c1) for place in places]
    check(
        proof_key("partials", game_id, seat, silent, deck_id, slots, item["partials"], item["proof"], c1s),
        lambda: es.check_partials(dealing, seat, places, values, proof, game_id=game_id, group=group),
    )
    for slot, value in zip(slots, values, strict=True):
        given = escrow.unlocking[silent][(deck_id, slot)]
        given[seat] = value
        if len(given) == escrow.threshold:
            combined = es.combine(
                [(dealing.index(holder), partial) for holder, partial in given.items()],
                threshold=escrow.threshold,
                group=group,
            )
            if deck is None:
                assert sealed is not None
                escrow.opened[silent, sealed] = combined  # the table opens the value with it
            else:
                deck.add_share(slot, Share(silent, combined, None))
    return taken


def _unlocked_place(decks: Decks, deck_id: str, slot: int, silent: str, game_id: str) -> hd.Place:
    """What a partial of ``silent``'s share is taken of: a card's ``c1``, or the point of a sealed
    choice it kept back."""
    step = escrows.sealed_step(deck_id)
    if step is None:
        return hd.Place(deck_id, slot, decks.decks[deck_id].slots[slot])
    return hd.Place(deck_id, slot, escrows.sealed_ciphertext(decks.group, game_id, step, silent))


# --- a silent seat ------------------------------------------------------------------------------
def standing_in(decks: Decks, late: str, kind: str) -> str | None:
    """Why the others cannot stand in for ``late``, which let its deadline pass for what it owes
    the decks of ``kind``, or None when they can: its shares are unlocked by the escrow holders'
    partials, its shuffle is skipped (the others' shuffles still hide the order)."""
    escrow = decks.escrow
    if escrow is not None and late == escrow.referee:
        return (
            f"the referee {late} owes the escrow what only the referee holds, which nobody can give "
            "for it: the game waits for the referee"
        )
    if kind == "unlock":
        return (
            f"{late} owes partial decryptions to unlock a silent seat, which nobody can give for it: "
            "every other seat's are needed (a game made with a lower escrow_threshold needs fewer)"
        )
    if kind == "escrow":
        return (
            f"{late} owes the escrow of the deck secrets, which nobody can give for it: without "
            "every seat's dealing and answers no card can be dealt (before the first card the others "
            "may hand the seat to a new player or go on without it: pbem status says how)"
        )
    if escrow is None:
        return (
            f"{late} owes the hidden deck its {kind}, which no default can stand in for: without it no "
            "card can be dealt (a game made with --option escrow=others lets the others stand in; before "
            "the first card they may hand the seat to a new player or go on without it: pbem status says "
            "how)"
        )
    if escrow.failed is not None:
        return escrow.failed
    if not escrow.complete(decks.seats):
        return f"the escrow is not complete, so nobody can stand in for {late} yet"
    return None


def stand_in(decks: Decks, late: str, kind: str, deck_id: str | None) -> None:
    """The others stand in for ``late``: every share it owes now is to be unlocked by their
    partials; or its shuffle of ``deck_id`` is skipped."""
    assert decks.escrow is not None
    if kind == "shuffle" and deck_id is not None:
        deck = decks.decks[deck_id]
        if decks.seats[deck.shuffled] != late:
            raise GameFileError(f"it is not {late}'s turn to shuffle the {deck_id} deck")
        deck.shuffled += 1  # its shuffle is skipped: the deck stays as the last seat left it
        if decks.shuffled(deck) and deck.mixing is None:
            deck.pile = list(range(len(deck.slots)))
        return
    positions = [(item.deck_id, item.slot) for item in owed(decks, late) if item.kind == "share"]
    escrows.start_unlock(decks.escrow, late, positions)


def cards_standing_in(
    decks: Decks, late: str, uses: Sequence[CardUse]
) -> tuple[str | None, list[tuple[str, int]]]:
    """Whether the others can make ``late``'s default move, which uses the hidden cards it holds:
    (why not, or None; the slots of the cards it shows whose share must first be unlocked).

    A card the default shows opens once the late seat's share of it is in: unlocked from the
    escrow like any share it owes (without escrow the reason is ``NO_ESCROW``). A card it puts
    under the deck is re-masked by whoever claims the timeout (no secret is needed for that); a
    card it discards needs nothing: those need no escrow.
    """
    for use in uses:
        if use.token is None:
            return f"{late}'s default names a card, not a token: only {late}'s key can find it", []
        _held(decks, late, use.token, use.action)
    reveals = [use for use in uses if use.action == "reveal"]
    if not reveals:
        return None, []  # re-masking a card takes no secret, discarding one nothing at all
    escrow = decks.escrow
    if escrow is None:
        return NO_ESCROW, []
    if escrow.failed is not None:
        return escrow.failed, []
    if not escrow.complete(decks.seats):
        return f"the escrow is not complete, so nobody can stand in for {late} yet", []
    missing: list[tuple[str, int]] = []
    for use in reveals:
        assert use.token is not None
        deck, slot = _held(decks, late, use.token, use.action)
        waiting = waiting_for(decks, deck.deck_id, slot)
        if waiting:
            return f"{use.token} waits for the shares of {', '.join(waiting)}", []
        if late not in deck.shares.get(slot, {}):
            missing.append((deck.deck_id, slot))
    pending = [place for place in missing if escrow.unlocked(late, *place)]
    if pending:
        owing = sorted(
            seat
            for seat in decks.seats
            if seat != late and any(seat not in escrow.unlocking[late][place] for place in pending)
        )
        return (
            f"{late}'s cards wait for the partial decryptions that unlock them ({', '.join(owing)} "
            f"{'owes' if len(owing) == 1 else 'owe'} them)",
            [],
        )
    return None, missing


NO_ESCROW = "no escrow"


def stand_in_cards(
    hidden: HiddenDeckRules,
    decks: Decks,
    state: Any,
    late: str,
    uses: Sequence[CardUse],
    *,
    entry: Mapping[str, Any],
    game_id: str,
    check: ProofCheck,
) -> Any:
    """Move ``late``'s hidden cards as its default says, without its key: each card shown opens
    with every seat's share (its own unlocked), each card put under the deck takes the claimant's
    re-mask from ``entry``, each card discarded just leaves the hand."""
    returned = _items(entry, "remask")
    bottoms = [use for use in uses if use.action == "bottom"]
    if len(returned) != len(bottoms) or "face_up" in entry:
        raise GameFileError(
            f"{late}'s default returns {len(bottoms)} hidden cards under the deck, but the entry carries "
            f"{len(returned)} re-masked (and shows none itself: the unlocked shares show them)"
        )
    for use in uses:
        if use.action != "reveal":
            continue
        assert use.token is not None
        deck, slot = _held(decks, late, use.token, "reveal")
        shares = deck.shares.get(slot, {})
        if any(seat not in shares for seat in decks.seats):
            raise GameFileError(f"{use.token} cannot be shown for {late}: not every share of it is in")
        card = _opened(decks, deck, slot)
        del deck.held[slot]
        deck.face_up[slot] = card
        state = hidden.card_revealed(state, use.token, card)
    _put_away(decks, late, uses, returned, game_id=game_id, check=check)
    return state


def stand_in_fields(
    decks: Decks, late: str, uses: Sequence[CardUse], *, game_id: str, key_material: bytes
) -> dict[str, Any]:
    """The ``remask`` fields a timeout claimant adds for the cards ``late``'s default puts under
    the deck: re-masked with the claimant's own randomness."""
    seed = hd.deck_seed(key_material)
    found: list[dict[str, Any]] = []
    for use in uses:
        if use.action != "bottom" or use.token is None:
            continue
        deck, slot = _held(decks, late, use.token, "bottom")
        found.append(_remask_item(decks, deck, slot, late, seed=seed, game_id=game_id))
    return {"remask": found} if found else {}


def _remask_item(
    decks: Decks, deck: Deck, slot: int, seat: str, *, seed: bytes, game_id: str
) -> dict[str, Any]:
    """A ``remask`` item for the card of ``slot``, held by ``seat``, re-masked with randomness
    from ``seed`` (its holder's, or a timeout claimant's: re-masking takes no secret), in the form
    the game's group writes: a short re-mask proof, or in the 2048-bit group a one-card shuffle."""
    group = decks.group
    ciphertext = deck.slots[slot]
    mask = hd.remask_scalar(
        seed, ciphertext, game_id=game_id, deck_id=deck.deck_id, position=slot, group=group
    )
    after = sh.remask(ciphertext, decks.joint, mask, group=group)
    if group.compact:
        claim = hd.Remask(ciphertext, after, decks.joint, game_id, deck.deck_id, slot, seat, group)
        proven = hd.prove_remask(claim, mask)
        return {
            "deck": deck.deck_id,
            "slot": slot,
            "card": hd.ciphertext_text(after, group=group),
            "proof": hd.proof_text(proven, group=group),
        }
    proof = _shuffle_proof(
        decks, deck, seat, [ciphertext], [after], how=sh.ShuffleSecret((0,), (mask,)), game_id=game_id
    )
    remask = {"deck": deck.deck_id, "slot": slot, "cards": [hd.ciphertext_text(after, group=group)]}
    return remask | proof


def _opened(decks: Decks, deck: Deck, slot: int) -> str:
    """The card of ``slot``, opened with every seat's share of it (each checked as it came)."""
    shares = deck.shares[slot]
    values = [shares[seat].value for seat in decks.seats]
    return deck.cards[hd.open_card(deck.slots[slot], values, len(deck.cards), group=decks.group)]


def _put_away(
    decks: Decks,
    seat: str,
    uses: Sequence[CardUse],
    returned: Sequence[Mapping[str, Any]],
    *,
    game_id: str,
    check: ProofCheck,
) -> None:
    """The cards ``seat`` holds that ``uses`` put under the deck (re-masked as ``returned``
    carries them, in order) or discard face down."""
    bottoms = [use for use in uses if use.action == "bottom"]
    for index, (use, back) in enumerate(zip(bottoms, returned, strict=True)):
        _return(decks, seat, use, item=back, where=f"remask[{index}]", game_id=game_id, check=check)
    for use in uses:
        if use.action == "discard":
            deck, slot = _held(decks, seat, use.token, "discard")
            del deck.held[slot]
            deck.gone.add(slot)


def _items(entry: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    value = entry.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise GameFileError(f"{name} must be a list of tables")
    return value


def _deck_of(decks: Decks, item: Mapping[str, Any], where: str) -> Deck:
    deck = decks.decks.get(item.get("deck"))  # type: ignore[arg-type]
    if deck is None:
        raise GameFileError(f"{where}: {item.get('deck')!r} is not a hidden deck of this game")
    return deck


def _slot_of(deck: Deck, item: Mapping[str, Any], where: str) -> int:
    slot = item.get("slot")
    if type(slot) is not int or not 0 <= slot < len(deck.slots):
        raise GameFileError(f"{where}: slot must be a slot of the {deck.deck_id} deck")
    return slot


def _only(item: Mapping[str, Any], names: Sequence[str], where: str) -> None:
    extra = sorted(set(item) - set(names))
    if extra:
        raise GameFileError(f"{where}: unexpected field{'s' if len(extra) > 1 else ''} {', '.join(extra)}")


def _take_shuffle(
    decks: Decks, seat: str, item: Mapping[str, Any], *, where: str, game_id: str, check: ProofCheck
) -> Owed:
    group = decks.group
    fields = shuffle_fields(group)
    _only(item, ("deck", "slots", "cards", *fields), where)
    deck = _deck_of(decks, item, where)
    turn = decks.seats.index(seat)
    if deck.shuffled != turn:
        whose = (
            "every seat has shuffled it"
            if decks.shuffled(deck)
            else f"it is {decks.seats[deck.shuffled]}'s turn"
        )
        raise GameFileError(f"{where}: {seat} may not shuffle the {deck.deck_id} deck now ({whose})")
    # The slots a reshuffle takes are the rules' to know (the pile), but the entry names them, so
    # that its proof can be checked from the file alone.
    if deck.mixing is None and "slots" in item:
        raise GameFileError(
            f"{where}: only a reshuffle names its slots; this is the first shuffle of every slot"
        )
    if deck.mixing is not None and item.get("slots") != list(deck.mixing):
        raise GameFileError(
            f"{where}: the reshuffle of the {deck.deck_id} deck takes slots {list(deck.mixing)} (the cards "
            f"left, top first), not {item.get('slots')!r}"
        )
    after = hd.parse_deck(item.get("cards"), f"{where} cards", group=group, lazily=True)
    before = deck.mixed()
    run: Callable[[], None]
    if group.compact:
        run = ShuffleCheck(
            bg.Shuffle(
                sh.ShuffleStatement(
                    tuple(before),
                    tuple(after),
                    decks.joint,
                    game_id=game_id,
                    deck_id=deck.deck_id,
                    seat=seat,
                    group=group,
                ),
                bg.parse_proof(item, where, group, lazily=True),
            ),
            where,
            item,
            batch=f"shuffles of {deck.deck_id}",
        )
    else:
        proof = sp.parse_proof(item, where, group=group, lazily=True)
        run = _linear_shuffle_check(decks, deck, seat, before, after, proof=proof, game_id=game_id)
    key = proof_key(
        "shuffle",
        game_id,
        deck.deck_id,
        seat,
        group.element_text(decks.joint),
        hd.deck_text(before, group=group),
        [item[name] for name in ("cards", *fields)],
    )
    if not isinstance(run, ShuffleCheck):  # which names a bad point itself
        run = _naming(run, where, lambda: hd.parse_deck(item.get("cards"), f"{where} cards", group=group))
    check(key, run)
    if deck.mixing is None:
        deck.slots = list(after)  # its own list: a check still to run keeps reading ``after``
    else:
        for slot, ciphertext in zip(deck.mixing, after, strict=True):
            deck.slots[slot] = ciphertext
    deck.shuffled += 1
    if decks.shuffled(deck) and deck.mixing is None:
        deck.pile = list(range(len(after)))
    return Owed("shuffle", deck.deck_id)


class BatchedCheck(ABC):
    """A check that may also run at once with others of its batch, for less than each on its own
    (see ``proof_checks``). Called, it is an ordinary check."""

    batch: str  # the checks that may run together share it

    @abstractmethod
    def __call__(self) -> None:
        """The check on its own."""

    @staticmethod
    @abstractmethod
    def together(checks: Sequence[BatchedCheck], threads: int) -> None:
        """Every one of ``checks`` (of one batch, in the order met), with the outcome of calling
        each in turn: the same error, from the same check. It may work in up to ``threads``
        threads of its own."""


@dataclass(frozen=True, eq=False)
class ShuffleCheck(BatchedCheck):
    """A Bayer-Groth proof of shuffle; the shuffles of one deck are one batch, checked together
    as ``shuffle_bg.shuffles_hold`` does (in seat order, each one's new deck the next one's old)."""

    shuffle: bg.Shuffle
    where: str
    item: Mapping[str, Any]  # the entry's table, read again in full to name a point refused
    batch: str

    def __call__(self) -> None:
        _naming(self._alone, self.where, self._decoded)()

    def _alone(self) -> None:
        bg.check_shuffle_bg(self.shuffle.statement, self.shuffle.proof)

    def _decoded(self) -> None:
        group = self.shuffle.statement.group
        bg.parse_proof(self.item, self.where, group)
        hd.parse_deck(self.item.get("cards"), f"{self.where} cards", group=group)

    @staticmethod
    def together(checks: Sequence[BatchedCheck], threads: int) -> None:
        shuffles = [check for check in checks if isinstance(check, ShuffleCheck)]
        if len(shuffles) == len(checks) and bg.shuffles_hold(
            [check.shuffle for check in shuffles], threads=threads
        ):
            return
        for check in checks:
            check()
        raise GameFileError("the proofs of shuffle do not verify together")  # never in a group


def _take_share(
    decks: Decks,
    seat: str,
    item: Mapping[str, Any],
    *,
    where: str,
    allowed: set[Owed],
    game_id: str,
    check: ProofCheck,
) -> tuple[Owed, hd.Place, Element]:
    """Take one share; a compact group's share is checked with the rest of the entry's, later."""
    if not decks.group.compact:
        _only(item, ("deck", "slot", "share", "proof"), where)
    deck = _deck_of(decks, item, where)
    slot = _slot_of(deck, item, where)
    wanted = Owed("share", deck.deck_id, slot)
    if wanted not in allowed:
        raise GameFileError(
            f"{where}: {seat} owes no share of {token(deck.deck_id, slot)} (a share is given only for "
            "a card another seat drew, or one dealt face up, once)"
        )
    place = hd.Place(deck.deck_id, slot, deck.slots[slot])
    given = _given_share(decks, place, seat, item, where=where, game_id=game_id, check=check)
    if not decks.group.compact:  # a compact group's shares are kept once their one proof holds
        deck.add_share(slot, given)
    return wanted, place, given.value


def _given_share(
    decks: Decks,
    place: hd.Place,
    seat: str,
    item: Mapping[str, Any],
    *,
    where: str,
    game_id: str,
    check: ProofCheck,
) -> Share:
    """``seat``'s share of ``place`` as a flat item holds it: checked now with its own proof, or
    (compact) unchecked, its entry's one proof being checked once every share of the entry is read."""
    group = decks.group
    if group.compact:
        return Share(seat, item["value"], None)
    given = Share(
        seat,
        group.parse_element(item.get("share"), f"{where} share"),
        hd.parse_proof(item.get("proof"), f"{where} proof", group=group),
    )
    ciphertext = place.ciphertext
    key = proof_key(
        "share",
        game_id,
        place.deck_id,
        place.position,
        seat,
        hd.ciphertext_text(ciphertext, group=group),
        item.get("share"),
        item.get("proof"),
    )
    check(
        key,
        lambda: hd.check_share(
            decks.keys[seat],
            ciphertext,
            given,
            game_id=game_id,
            deck_id=place.deck_id,
            position=place.position,
            group=group,
        ),
    )
    return given


# --- draws ---------------------------------------------------------------------------------------
def advance(hidden: HiddenDeckRules, reshuffle: ReshuffleRules | None, decks: Decks, state: Any) -> Any:
    """What the decks do between entries, in this order: begin the reshuffles the rules ask for
    (so a draw asked at the same time waits for them), tell the rules of the reshuffles every
    seat has finished, answer the draws, and show the cards dealt face up whose last share is in.
    """
    if reshuffle is not None and not decks.over:
        state = _reshuffle(reshuffle, decks, state)
    state = deal(hidden, decks, state)
    return _open_dealt(hidden, decks, state)


def _reshuffle(reshuffle: ReshuffleRules, decks: Decks, state: Any) -> Any:
    for deck_id in reshuffle.reshuffle_requests(state):
        deck = decks.decks.get(deck_id)
        if deck is None:
            raise GameFileError(f"the rules asked to reshuffle {deck_id!r}, not a hidden deck")
        if deck.mixing is None and decks.shuffled(deck):
            deck.mixing = tuple(deck.pile)
            deck.rounds += 1
            # An empty deck has nothing to shuffle: its reshuffle is over as it begins.
            deck.shuffled = 0 if deck.pile else len(decks.seats)
    for deck in decks.decks.values():
        if deck.mixing is not None and decks.shuffled(deck):
            deck.mixing = None
            state = reshuffle.deck_reshuffled(state, deck.deck_id)
            if deck.deck_id in reshuffle.reshuffle_requests(state):
                raise GameFileError(
                    f"the rules still ask to reshuffle the {deck.deck_id} deck once it is reshuffled"
                )
    return state


def deal(hidden: HiddenDeckRules, decks: Decks, state: Any) -> Any:
    """Answer the draws the rules wait for, in order, from decks every seat has shuffled."""
    for _ in range(sum(len(deck.slots) for deck in decks.decks.values()) + 1):
        requests = hidden.draw_requests(state)
        if not requests:
            return state
        request = requests[0]
        deck = decks.decks.get(request.deck_id)
        if deck is None:
            raise GameFileError(f"the rules asked for a draw from {request.deck_id!r}, not a hidden deck")
        if not decks.ready(deck):
            return state  # the draw waits for the last shuffle, or reshuffle
        if not deck.pile:
            raise GameFileError(f"the rules asked for a draw from the {deck.deck_id} deck, which is empty")
        if request.seat not in decks.seats:
            raise GameFileError(f"the rules asked for a draw for {request.seat!r}, not a seat")
        slot = deck.pile.pop(0)
        if request.face_up:
            deck.showing[slot] = request.seat
        else:
            deck.held[slot] = request.seat
        deck.shares.pop(slot, None)
        state = hidden.card_drawn(state, request, token(deck.deck_id, slot))
    raise GameFileError("the rules keep asking for draws after each was answered")


def _open_dealt(hidden: HiddenDeckRules, decks: Decks, state: Any) -> Any:
    """Show every card dealt face up whose shares are all in: each share was checked as it came,
    so the card they open is the card, and anyone reading the file opens the same."""
    for deck in decks.decks.values():
        for slot in list(deck.showing):
            shares = deck.shares.get(slot, {})
            if any(seat not in shares for seat in decks.seats):
                continue
            card = _opened(decks, deck, slot)
            del deck.showing[slot]
            deck.face_up[slot] = card
            state = hidden.card_revealed(state, token(deck.deck_id, slot), card)
    return state


# --- reading -------------------------------------------------------------------------------------
def hand(decks: Decks, seat: str, key_material: bytes, game_id: str) -> dict[str, str | None]:
    """The hidden cards ``seat`` holds, read with its own secret: token -> card, or None while
    another seat's share is still missing."""
    secret = secret_for(key_material, game_id, seat, decks.group)
    found: dict[str, str | None] = {}
    for deck in decks.decks.values():
        for slot, holder in sorted(deck.held.items()):
            if holder == seat:
                found[token(deck.deck_id, slot)] = _read(decks, deck, slot, secret)
    return found


def _read(decks: Decks, deck: Deck, slot: int, secret: int) -> str | None:
    shares = deck.shares.get(slot, {})
    holder = deck.held.get(slot)
    if any(seat not in shares for seat in decks.seats if seat != holder):
        return None
    others = [share.value for seat, share in shares.items() if seat != holder]
    return deck.cards[hd.read_card(secret, deck.slots[slot], others, len(deck.cards), group=decks.group)]


# --- moves that use hidden cards -----------------------------------------------------------------
def card_fields(
    decks: Decks, seat: str, uses: Sequence[CardUse], *, game_id: str, key_material: bytes
) -> dict[str, Any]:
    """The fields a move needs for the hidden cards it uses: the drawer's share of each card it
    shows (so everyone can check the claim), and each card it returns re-masked with a proof."""
    seed = hd.deck_seed(key_material)
    group = decks.group
    secret = secret_for(key_material, game_id, seat, group)
    fields: dict[str, Any] = {}
    taken: set[tuple[str, int]] = set()
    showing: list[tuple[hd.Place, str]] = []
    for use in uses:
        deck, slot = _find(decks, seat, use, secret, taken)
        taken.add((deck.deck_id, slot))
        ciphertext = deck.slots[slot]
        if use.action == "reveal":
            card = _read(decks, deck, slot, secret)
            if card is None:
                raise IllegalMoveError(
                    f"{token(deck.deck_id, slot)} cannot be shown before "
                    f"{', '.join(waiting_for(decks, deck.deck_id, slot))} publish their shares"
                )
            if group.compact:
                showing.append((hd.Place(deck.deck_id, slot, ciphertext), card))
                continue
            shown = _own_share(decks, secret, deck, slot, seat, game_id=game_id) | {"card": card}
            fields.setdefault("face_up", []).append(shown)
        elif use.action == "bottom":
            fields.setdefault("remask", []).append(
                _remask_item(decks, deck, slot, seat, seed=seed, game_id=game_id)
            )
    if showing:
        fields["face_up"], fields["face_up_proof"] = _proven_shares(
            group,
            secret,
            [place for place, _ in showing],
            game_id=game_id,
            seat=seat,
            cards=[card for _, card in showing],
        )
    return fields


def _find(
    decks: Decks, seat: str, use: CardUse, secret: int, taken: set[tuple[str, int]]
) -> tuple[Deck, int]:
    """The slot a card use means: its token, or a card of that name in the seat's hand."""
    if use.token is not None:
        try:
            deck, slot = parse_token(decks, use.token)
        except GameFileError as exc:
            raise IllegalMoveError(str(exc)) from None
        if deck.held.get(slot) != seat:
            raise IllegalMoveError(f"{seat} does not hold {use.token}")
        return deck, slot
    named = decks.decks.get(use.deck_id)
    if named is None or use.card is None:
        raise IllegalMoveError(f"the rules name no card of a hidden deck {use.deck_id!r}")
    deck = named
    for slot, holder in sorted(deck.held.items()):
        if (
            holder == seat
            and (deck.deck_id, slot) not in taken
            and _read(decks, deck, slot, secret) == use.card
        ):
            return deck, slot
    raise IllegalMoveError(f"{seat} holds no {use.card} it can show from the {deck.deck_id} deck")


def use_cards(
    hidden: HiddenDeckRules,
    decks: Decks,
    state: Any,
    seat: str,
    uses: Sequence[CardUse],
    *,
    entry: Mapping[str, Any],
    game_id: str,
    check: ProofCheck,
) -> Any:
    """Check the card fields of a move against what the rules say it uses; move the cards in
    ``decks`` and return the state told which cards were shown."""
    shown = share_items(entry, "face_up", decks.group)
    returned = _items(entry, "remask")
    reveals = [use for use in uses if use.action == "reveal"]
    bottoms = [use for use in uses if use.action == "bottom"]
    if len(shown) != len(reveals) or len(returned) != len(bottoms):
        raise GameFileError(
            f"the move shows {len(reveals)} and returns {len(bottoms)} hidden cards, but the entry "
            f"carries {len(shown)} shown and {len(returned)} returned"
        )
    if decks.group.compact:
        # The one proof of the shares comes first, so a false share is named as such, not as a
        # card that opens as another.
        places = [
            _shown_place(decks, seat, use, item, where)
            for use, (where, item) in zip(reveals, shown, strict=True)
        ]
        values = [item["value"] for _, item in shown]
        _check_shares(
            decks, seat, entry, "face_up", given=places, values=values, game_id=game_id, check=check
        )
    elif "face_up_proof" in entry:
        raise GameFileError("face_up_proof: the shares of this game each carry their own proof")
    for use, (where, item) in zip(reveals, shown, strict=True):
        # located again, not taken from the compact group's list: a card shown twice is held no more
        place = _shown_place(decks, seat, use, item, where)
        given = _given_share(decks, place, seat, item, where=where, game_id=game_id, check=check)
        state = _show(hidden, decks, state, place, given, card=item["card"], where=where)
    _put_away(decks, seat, uses, returned, game_id=game_id, check=check)
    return state


def _held(decks: Decks, seat: str, name: str | None, where: str) -> tuple[Deck, int]:
    deck, slot = parse_token(decks, name)
    if deck.held.get(slot) != seat:
        raise IllegalMoveError(f"{where}: {seat} does not hold {name}")
    return deck, slot


def _show(
    hidden: HiddenDeckRules, decks: Decks, state: Any, place: hd.Place, given: Share, *, card: str, where: str
) -> Any:
    """Show the card of ``place``, which ``given``'s seat says is ``card``: its share and the
    others' must open it as that card."""
    deck, slot = decks.decks[place.deck_id], place.position
    name = token(deck.deck_id, slot)
    values = [share.value for share in deck.shares.get(slot, {}).values()]
    opened = hd.open_card(deck.slots[slot], [given.value, *values], len(deck.cards), group=decks.group)
    found = deck.cards[opened]
    if found != card:
        raise GameFileError(
            f"{where}: {given.seat} claims {name} is {card}, but the shares open it as another card"
        )
    del deck.held[slot]
    deck.add_share(slot, given)
    deck.face_up[slot] = card
    return hidden.card_revealed(state, name, card)


def _shown_slot(
    decks: Decks, seat: str, use: CardUse, item: Mapping[str, Any], where: str
) -> tuple[Deck, int]:
    """The slot a face-up item shows, once it is known to be the move's card, held and readable."""
    if not decks.group.compact:
        _only(item, ("deck", "slot", "card", "share", "proof"), where)
    deck = _deck_of(decks, item, where)
    slot = _slot_of(deck, item, where)
    name = token(deck.deck_id, slot)
    if deck.deck_id != use.deck_id or (use.token is not None and use.token != name):
        raise GameFileError(f"{where}: the move uses {use.token or use.deck_id}, the entry shows {name}")
    card = item.get("card")
    if not isinstance(card, str) or (use.card is not None and card != use.card):
        raise GameFileError(f"{where}: the move names {use.card}, the entry shows {card!r}")
    if deck.held.get(slot) != seat:
        raise IllegalMoveError(f"{seat} does not hold {name}")
    missing = waiting_for(decks, deck.deck_id, slot)
    if missing:
        raise IllegalMoveError(f"{name} cannot be shown before {', '.join(missing)} publish their shares")
    return deck, slot


def _shown_place(decks: Decks, seat: str, use: CardUse, item: Mapping[str, Any], where: str) -> hd.Place:
    deck, slot = _shown_slot(decks, seat, use, item, where)
    return hd.Place(deck.deck_id, slot, deck.slots[slot])


def _return(
    decks: Decks,
    seat: str,
    use: CardUse,
    *,
    item: Mapping[str, Any],
    where: str,
    game_id: str,
    check: ProofCheck,
) -> None:
    """Put the card ``use`` returns under the deck, once its proof shows it is the same card under
    fresh randomness (the short re-mask proof in a compact group, a one-card proof of shuffle in
    the 2048-bit group): the shares already given for the card then open nothing once it is drawn
    again."""
    group = decks.group
    _only(
        item,
        ("deck", "slot", "card", "proof") if group.compact else ("deck", "slot", "cards", *PROOF_FIELDS),
        where,
    )
    deck = _deck_of(decks, item, where)
    slot = _slot_of(deck, item, where)
    name = token(deck.deck_id, slot)
    if use.token != name:
        raise GameFileError(f"{where}: the move returns {use.token}, the entry returns {name}")
    if deck.held.get(slot) != seat:
        raise IllegalMoveError(f"{seat} does not hold {name}")
    before = deck.slots[slot]
    run: Callable[[], None]
    if group.compact:
        after = hd.parse_ciphertext(item.get("card"), f"{where} card", group=group)
        proof = hd.parse_proof(item.get("proof"), f"{where} proof", group=group)
        parts: list[Any] = ["remask-short", game_id, deck.deck_id, slot, seat]
        texts = [item.get("card"), item.get("proof")]

        def run() -> None:
            hd.check_remask(
                hd.Remask(before, after, decks.joint, game_id, deck.deck_id, slot, seat, group), proof
            )

    else:
        cards = hd.parse_deck(item.get("cards"), f"{where} cards", group=group)
        if len(cards) != 1:
            raise GameFileError(f"{where}: a returned card is one ciphertext")
        after = cards[0]
        shuffle_proof = sp.parse_proof(item, where, group=group)
        parts = ["remask", game_id, deck.deck_id, seat]
        texts = [item[field_name] for field_name in ("cards", *PROOF_FIELDS)]
        run = _linear_shuffle_check(
            decks, deck, seat, [before], [after], proof=shuffle_proof, game_id=game_id
        )
    before_text = (
        hd.ciphertext_text(before, group=group) if group.compact else hd.deck_text([before], group=group)
    )
    check(proof_key(*parts, group.element_text(decks.joint), before_text, texts), run)
    deck.slots[slot] = after
    deck.shares.pop(slot, None)
    if decks.escrow is not None:
        decks.escrow.forget(deck.deck_id, slot)
    del deck.held[slot]
    deck.pile.append(slot)
