"""Escrow of the seats' deck secrets at the table: dealings, acknowledgements and complaints.

With the game option ``escrow = "others"``, every seat publishes a receiving key (with a proof of
knowledge) beside its deck key when it joins. Once every seat has joined, each seat owes its
*dealing*: Feldman commitments to a polynomial whose constant term is its deck secret (so the
first commitment is its deck key) and each other seat's share of it, sealed to that seat's
receiving key (``pbem.crypto.escrow``). Each holder then owes an *acknowledgement* of every
dealing it holds a share of: its client unseals the share and checks it against the commitments
before signing, and signs a *complaint* instead when the share is bad. A complaint publishes what
opens the share, with a proof, so the file itself shows whether the dealer or the complainer lied;
either way the escrow has failed and the game cannot go on (the players start again without the
one at fault).

No card is dealt until every dealing is in and acknowledged: a seat that later goes silent can
then always be unlocked by the others.

With ``escrow = "referee"`` the one holder of every seat's secret is a *referee*: a person outside
the game, named with the key they exported in the genesis entry, who signs ``referee`` entries
(its receiving key first, then its acknowledgements and partials) and never a move. It takes no
quorum: the referee alone could read every hidden card, which is the trust the players chose; it
is the only escrow two players can have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.groups import CHALLENGE_SIZE, Element, Group
from pbem.engine.declaration import OptionValue
from pbem.errors import GameFileError

ESCROW_FIELDS = (
    "escrow",
    "escrow_acks",
    "escrow_complaint",
    "escrow_partials",
    "escrow_reshares",
    "escrow_reshare_complaint",
)
KEY_FIELDS = ("escrow_key", "escrow_key_proof")
OTHERS = "others"
REFEREE = "referee"
NONE = "none"
PROVEN = "proven"  # escrow_sealing: every ephemeral point carries its proof of knowledge
MIN_SEATS = 3  # with two, the one holder would hold the other's secret outright


@dataclass
class Escrow:
    """What the table knows of the escrow: the receiving keys, each dealing and the sealed shares
    it carried, who has acknowledged which, and the verdict of a complaint."""

    threshold: int
    receiving: dict[str, Element]
    dealings: dict[str, es.Dealing] = field(default_factory=dict)
    sealed: dict[str, dict[str, es.Sealed]] = field(default_factory=dict)  # dealer -> holder -> share
    acknowledged: dict[str, set[str]] = field(default_factory=dict)  # dealer -> holders
    failed: str | None = None  # why the game cannot go on: a complaint's verdict
    # A silent seat's shares being unlocked: seat -> (deck, slot) -> holder -> its partial, each
    # position until ``threshold`` partials combine into the seat's share.
    unlocking: dict[str, dict[tuple[str, int], dict[str, Element]]] = field(default_factory=dict)
    referee: str | None = None  # with escrow=referee, the one holder of every dealing
    # A silent seat handed on by consent: the receiving key of its new player, and its holders'
    # shares of its secret sealed again to that key, until ``threshold`` of them are in
    resharing: dict[str, Element] = field(default_factory=dict)
    reshared: dict[str, dict[str, es.Sealed]] = field(default_factory=dict)
    # A sealed choice kept back, opened from its seat's escrow: (seat, step) -> ``x * T`` once
    # ``threshold`` partials of the point are in (see ``sealed_point``).
    opened: dict[tuple[str, str], Element] = field(default_factory=dict)
    # escrow_sealing=proven: every sealed share proves its maker knows its ephemeral secret
    proven: bool = False

    def holders(self, seats: Sequence[str], dealer: str) -> tuple[str, ...]:
        """Who holds ``dealer``'s shares: the referee, or every other seat in seat order."""
        return (self.referee,) if self.referee is not None else holders_of(seats, dealer)

    def copy(self) -> Escrow:
        return Escrow(
            self.threshold,
            self.receiving,  # set once, when the last seat joined
            dict(self.dealings),
            dict(self.sealed),
            {dealer: set(holders) for dealer, holders in self.acknowledged.items()},
            self.failed,
            {
                seat: {place: dict(given) for place, given in positions.items()}
                for seat, positions in self.unlocking.items()
            },
            self.referee,
            dict(self.resharing),
            {seat: dict(given) for seat, given in self.reshared.items()},
            dict(self.opened),
            self.proven,
        )

    def unlocked(self, seat: str, deck_id: str, slot: int) -> bool:
        """The seat's share of the slot is being unlocked by the others."""
        return (deck_id, slot) in self.unlocking.get(seat, {})

    def forget(self, deck_id: str, slot: int) -> None:
        """The slot's card went under the deck with a new ciphertext: an unlock of a share of the
        old one ends, its partials dropped, since partials of two ciphertexts combine into no share
        and a share of the new one is owed only once the card is drawn again."""
        for positions in self.unlocking.values():
            positions.pop((deck_id, slot), None)

    def complete(self, seats: Sequence[str]) -> bool:
        """Every seat's dealing is in and every holder has acknowledged it."""
        return all(
            dealer in self.dealings
            and self.acknowledged.get(dealer, set()) >= set(self.holders(seats, dealer))
            for dealer in seats
        )


def holders_of(seats: Sequence[str], dealer: str) -> tuple[str, ...]:
    """The seats holding ``dealer``'s shares: every other seat, in seat order."""
    return tuple(seat for seat in seats if seat != dealer)


def threshold_of(options: Mapping[str, OptionValue], seats: int) -> int:
    """How many holders unlock a seat: ``escrow_threshold``, or (0) every other seat; the one
    referee alone."""
    if options.get("escrow") == REFEREE:
        return 1
    given = int(options.get("escrow_threshold", 0) or 0)
    return given or seats - 1


def check_options(options: Mapping[str, OptionValue], seats: int) -> str | None:
    """Why the escrow options cannot be played with ``seats`` seats, or None."""
    chosen = options.get("escrow", NONE)
    given = int(options.get("escrow_threshold", 0) or 0)
    if chosen in (NONE, REFEREE):
        return f"escrow_threshold needs escrow=others (escrow={chosen})" if given else None
    if seats < MIN_SEATS:
        return (
            f"escrow={chosen} needs 3 or more players: with 2, one holder alone would hold the other's "
            "secret (--referee NAME KEYFILE lets a referee outside the game hold them)"
        )
    threshold = threshold_of(options, seats)
    if not es.MIN_THRESHOLD <= threshold <= seats - 1:
        return (
            f"escrow_threshold={given} with {seats} players: it must be from {es.MIN_THRESHOLD} to "
            f"{seats - 1} (the other seats)"
        )
    return None


def wanted(options: Mapping[str, OptionValue]) -> bool:
    """The seats hold each other's shares, so each publishes a receiving key."""
    return options.get("escrow", NONE) == OTHERS


def by_referee(options: Mapping[str, OptionValue]) -> bool:
    return options.get("escrow", NONE) == REFEREE


def proven(options: Mapping[str, OptionValue]) -> bool:
    """Every share sealed in escrow carries a proof of knowledge of its ephemeral secret: what new
    games write; a genesis without the option (a game made before it) seals them without."""
    return options.get("escrow_sealing") == PROVEN


# --- keys ----------------------------------------------------------------------------------------
def key_fields(seed: bytes, game_id: str, seat: str, group: Group) -> dict[str, str]:
    """The ``escrow_key`` and ``escrow_key_proof`` of a seat's genesis or join entry."""
    secret = es.receive_secret(seed, game_id, seat, group=group)
    return {
        "escrow_key": group.element_text(group.base_power(secret)),
        "escrow_key_proof": hd.proof_text(
            hd.prove_key(secret, game_id, seat, es.RECEIVE_CONTEXT, group=group), group=group
        ),
    }


def read_key(entry: Mapping[str, Any], game_id: str, seat: str, group: Group) -> Element:
    """The seat's receiving key, its proof of knowledge checked."""
    for name in KEY_FIELDS:
        if name not in entry:
            raise GameFileError(f"{name} missing: a seat of a game with escrow publishes a receiving key")
    public = group.parse_element(entry["escrow_key"], "escrow_key")
    proof = hd.parse_proof(entry["escrow_key_proof"], "escrow_key_proof", group=group)
    try:
        hd.check_key(public, proof, game_id, seat, es.RECEIVE_CONTEXT, group=group)
    except GameFileError:
        raise GameFileError(f"escrow_key of seat {seat}: the proof of knowledge does not verify") from None
    return public


# --- what a seat signs ---------------------------------------------------------------------------
def dealing_fields(
    escrow: Escrow, seats: Sequence[str], seat: str, secret: int, *, seed: bytes, game_id: str, group: Group
) -> dict[str, str]:
    """``seat``'s dealing: commitments, and each holder's share sealed to it."""
    holders = escrow.holders(seats, seat)
    dealing, shares = es.deal(
        secret, holders, escrow.threshold, game_id=game_id, dealer=seat, group=group, seed=seed
    )
    sealed = [
        es.seal(
            shares[holder],
            dealing,
            escrow.receiving[holder],
            game_id=game_id,
            group=group,
            seed=seed,
            proven=es.DEALT if escrow.proven else None,
        )
        for holder in holders
    ]
    fields = {
        "commitments": _packed(group.elements_text(list(dealing.commitments))),
        "ephemeral": _packed(group.elements_text([each.ephemeral for each in sealed])),
        "masked": _packed(group.scalars_text([each.masked for each in sealed])),
    }
    if escrow.proven:
        fields["ephemeral_proofs"] = _proofs_text([each.proof for each in sealed], group)
    return fields


def _proofs_text(proofs: Sequence[hd.Proof | None], group: Group) -> str:
    """Proofs packed as the other packed values are: each proof's bytes, one after the other."""
    assert all(proof is not None for proof in proofs), "a proven sealing carries its proof"
    return b64(b"".join(unb64(hd.proof_text(proof, group=group)) for proof in proofs if proof is not None))


def _parse_proofs(text: object, count: int, where: str, group: Group) -> list[hd.Proof]:
    size = CHALLENGE_SIZE + group.scalar_size
    try:
        data = unb64(text, size * count) if isinstance(text, str) else None
    except ValueError:
        data = None
    if data is None:
        raise GameFileError(
            f"{where}: expected {count} proof{'s' if count != 1 else ''} of {size} bytes, in base64"
        )
    return [
        hd.parse_proof(b64(data[start : start + size]), where, group=group)
        for start in range(0, len(data), size)
    ]


def _packed(text: str | list[str]) -> str:
    if not isinstance(text, str):  # the 2048-bit group writes lists; escrow is for compact groups
        raise GameFileError("escrow needs a game whose hidden decks are on the curve")
    return text


def answers(
    escrow: Escrow, seat: str, dealers: Sequence[str], receive: int, *, game_id: str, group: Group
) -> dict[str, Any]:
    """The acknowledgements ``seat`` signs for ``dealers`` (each share unsealed and checked), or
    its complaint about the first share that does not match its dealing."""
    acks: list[str] = []
    for dealer in dealers:
        dealing = escrow.dealings[dealer]
        sealed = escrow.sealed[dealer][seat]
        share = es.unseal(sealed, receive, dealing, game_id=game_id, group=group)
        try:
            es.check_escrow_share(dealing, share, group=group)
        except GameFileError:
            complaint = es.complain(sealed, receive, dealing, game_id=game_id, group=group)
            return {
                "escrow_complaint": {
                    "dealer": dealer,
                    "opened": group.element_text(complaint.opened),
                    "proof": hd.proof_text(complaint.proof, group=group),
                }
            }
        acks.append(dealer)
    return {"escrow_acks": acks} if acks else {}


def held_share(
    escrow: Escrow, dealer: str, holder: str, receive: int, *, game_id: str, group: Group
) -> es.EscrowShare:
    """The share of ``dealer``'s secret ``holder`` was dealt, unsealed with its receiving secret."""
    return es.unseal(
        escrow.sealed[dealer][holder], receive, escrow.dealings[dealer], game_id=game_id, group=group
    )


# --- what replay takes ---------------------------------------------------------------------------
def _table(item: object, fields: Sequence[str], where: str) -> Mapping[str, Any]:
    """``item`` as a table of no field but ``fields`` (GameFileError naming the field if not)."""
    if not isinstance(item, Mapping):
        raise GameFileError(f"{where}: expected a table")
    unknown = sorted(set(item) - set(fields))
    if unknown:
        raise GameFileError(f"{where}: unknown field {unknown[0]!r}")
    return item


def take_dealing(
    escrow: Escrow,
    seats: Sequence[str],
    seat: str,
    item: object,
    *,
    deck_key: Element,
    game_id: str,
    group: Group,
) -> None:
    """Check and take ``seat``'s dealing (GameFileError naming the field)."""
    where = "escrow"
    names = ("commitments", "ephemeral", "masked")
    item = _table(item, (*names, "ephemeral_proofs") if escrow.proven else names, where)
    if seat in escrow.dealings:
        raise GameFileError(f"{where}: {seat} has already dealt its escrow")
    holders = escrow.holders(seats, seat)
    commitments = group.parse_elements(item.get("commitments"), f"{where}.commitments")
    ephemeral = group.parse_elements(item.get("ephemeral"), f"{where}.ephemeral")
    masked = group.parse_scalars(item.get("masked"), f"{where}.masked")
    if len(commitments) != escrow.threshold:
        raise GameFileError(
            f"{where}.commitments: {len(commitments)} commitments for a threshold of {escrow.threshold}"
        )
    if len(ephemeral) != len(holders) or len(masked) != len(holders):
        whom = "the referee" if escrow.referee is not None else f"each of the {len(holders)} other seats"
        raise GameFileError(f"{where}: a sealed share for {whom}")
    proofs: list[hd.Proof | None] = [None] * len(holders)
    if escrow.proven:
        proofs = list(
            _parse_proofs(item.get("ephemeral_proofs"), len(holders), f"{where}.ephemeral_proofs", group)
        )
    dealing = es.Dealing(seat, holders, tuple(commitments))
    es.check_dealing(dealing, group=group)
    es.check_dealing_key(dealing, deck_key)
    sealed = {
        holder: es.Sealed(holder, index, ephemeral[index - 1], masked[index - 1], proofs[index - 1])
        for index, holder in enumerate(holders, start=1)
    }
    if escrow.proven:
        for holder, each in sealed.items():
            _check_ephemeral(
                each, seat, escrow.receiving[holder], es.DEALT, where, game_id=game_id, group=group
            )
    escrow.dealings[seat] = dealing
    escrow.sealed[seat] = sealed


def _check_ephemeral(
    sealed: es.Sealed, dealer: str, receiving: Element, kind: str, where: str, *, game_id: str, group: Group
) -> None:
    try:
        es.check_ephemeral(sealed, dealer, receiving, kind=kind, game_id=game_id, group=group)
    except GameFileError as exc:
        raise GameFileError(f"{where}: {exc}") from None


def take_answers(
    escrow: Escrow, seat: str, entry: Mapping[str, Any], *, game_id: str, group: Group
) -> list[str]:
    """Take the acknowledgements and the complaint ``seat``'s entry carries; the dealers it answered."""
    answered: list[str] = []
    acks = entry.get("escrow_acks", [])
    if not isinstance(acks, list) or not all(isinstance(dealer, str) for dealer in acks):
        raise GameFileError("escrow_acks: expected a list of seats")
    for dealer in acks:
        _answerable(escrow, seat, dealer, "escrow_acks", answered)
        escrow.acknowledged.setdefault(dealer, set()).add(seat)
        answered.append(dealer)
    if "escrow_complaint" in entry:
        answered.append(
            _take_complaint(escrow, seat, entry["escrow_complaint"], answered, game_id=game_id, group=group)
        )
    return answered


def _answerable(escrow: Escrow, seat: str, dealer: object, where: str, answered: Sequence[str]) -> None:
    if not isinstance(dealer, str) or dealer not in escrow.dealings:
        raise GameFileError(f"{where}: {dealer!r} has dealt no escrow to answer")
    if seat not in escrow.sealed[dealer]:
        raise GameFileError(f"{where}: {seat} holds no share of {dealer}'s escrow")
    if dealer in answered or seat in escrow.acknowledged.get(dealer, set()):
        raise GameFileError(f"{where}: {seat} has already answered {dealer}'s escrow")


def _take_complaint(
    escrow: Escrow, seat: str, item: object, answered: Sequence[str], *, game_id: str, group: Group
) -> str:
    where = "escrow_complaint"
    item = _table(item, ("dealer", "opened", "proof"), where)
    dealer = item.get("dealer")
    _answerable(escrow, seat, dealer, where, answered)
    assert isinstance(dealer, str)
    sealed = escrow.sealed[dealer][seat]
    dealing, receiving = escrow.dealings[dealer], escrow.receiving[seat]
    if _liar(item, sealed, dealing, receiving, where, game_id=game_id, group=group) == dealer:
        escrow.failed = (
            f"{dealer} dealt {seat} an escrow share that does not match its commitments (proved by "
            f"{seat}'s complaint): the game cannot go on; start again without {dealer}"
        )
    else:
        escrow.failed = (
            f"{seat} complained of {dealer}'s escrow share, which the complaint itself shows is sound: "
            f"the game cannot go on; start again without {seat}"
        )
    return dealer


def _liar(
    item: Mapping[str, Any],
    sealed: es.Sealed,
    dealing: es.Dealing,
    receiving: Element,
    where: str,
    *,
    game_id: str,
    group: Group,
) -> str:
    """Whom a complaint of ``sealed`` (sealed to ``receiving``) shows lied: the dealing's dealer,
    when the share does not match its commitments, or the share's holder, when it does."""
    complaint = es.Complaint(
        dealing.dealer,
        sealed.holder,
        group.parse_element(item.get("opened"), f"{where}.opened"),
        hd.parse_proof(item.get("proof"), f"{where}.proof", group=group),
    )
    return es.at_fault(complaint, sealed, dealing, receiving, game_id=game_id, group=group)


# --- a silent seat handed on: its secret sealed again to the new player -------------------------
def start_reshare(escrow: Escrow, seat: str, receiving: Element) -> None:
    """The new player of ``seat`` (handed on by consent) gave its receiving key: the holders of
    the seat's secret each owe their share of it sealed to that key, never published, so the new
    player alone rebuilds the secret from ``threshold`` of them and plays the seat as its own."""
    if seat not in escrow.dealings:
        raise GameFileError(f"{seat} dealt no escrow, so nobody can give its secret to a new player")
    escrow.resharing[seat] = receiving
    escrow.reshared[seat] = {}


def reshare_owed(escrow: Escrow, seats: Sequence[str], seat: str) -> tuple[str, ...]:
    """The holders that still owe ``seat``'s new player their share: none once enough are in."""
    given = escrow.reshared.get(seat, {})
    if seat not in escrow.resharing or len(given) >= escrow.threshold:
        return ()
    return tuple(holder for holder in escrow.holders(seats, seat) if holder not in given)


def reshare_fields(
    escrow: Escrow,
    holder: str,
    seats: Sequence[str],
    receive: int,
    *,
    seed: bytes,
    game_id: str,
    group: Group,
) -> list[dict[str, str]]:
    """``holder``'s share of each handed-on seat's secret, sealed to the seat's new player."""
    found = []
    for seat, key in escrow.resharing.items():
        if holder not in reshare_owed(escrow, seats, seat):
            continue
        share = held_share(escrow, seat, holder, receive, game_id=game_id, group=group)
        # the nonce is bound to the new key too: a seat handed on twice is sealed anew each time
        sealed = es.seal(
            share,
            escrow.dealings[seat],
            key,
            game_id=game_id,
            group=group,
            seed=seed + group.encode(key),
            proven=es.RESEALED if escrow.proven else None,
        )
        item = {
            "seat": seat,
            "ephemeral": group.element_text(sealed.ephemeral),
            "masked": _packed(group.scalars_text([sealed.masked])),
        }
        if sealed.proof is not None:
            item["ephemeral_proof"] = hd.proof_text(sealed.proof, group=group)
        found.append(item)
    return found


def take_reshares(
    escrow: Escrow, seats: Sequence[str], holder: str, items: object, *, game_id: str, group: Group
) -> list[str]:
    """Take ``holder``'s resealed shares; the seats they are for."""
    where = "escrow_reshares"
    if not isinstance(items, list) or not all(isinstance(item, Mapping) for item in items):
        raise GameFileError(f"{where}: expected an array of tables")
    taken: list[str] = []
    for index, item in enumerate(items):
        here = f"{where}[{index}]"
        names = ("seat", "ephemeral", "masked")
        _table(item, (*names, "ephemeral_proof") if escrow.proven else names, here)
        seat = item.get("seat")
        if not isinstance(seat, str) or holder not in reshare_owed(escrow, seats, seat) or seat in taken:
            raise GameFileError(f"{here}: {holder} owes no share of {seat!r}'s secret to a new player")
        dealing = escrow.dealings[seat]
        masked = group.parse_scalars(item.get("masked"), f"{here}.masked")
        if len(masked) != 1:
            raise GameFileError(f"{here}.masked: one masked share")
        ephemeral = group.parse_element(item.get("ephemeral"), f"{here}.ephemeral")
        proof = None
        if escrow.proven:
            proof = hd.parse_proof(item.get("ephemeral_proof"), f"{here}.ephemeral_proof", group=group)
        sealed = es.Sealed(holder, dealing.index(holder), ephemeral, masked[0], proof)
        if escrow.proven:
            _check_ephemeral(
                sealed, seat, escrow.resharing[seat], es.RESEALED, here, game_id=game_id, group=group
            )
        escrow.reshared[seat][holder] = sealed
        taken.append(seat)
    return taken


def reshared_secret(
    escrow: Escrow, seat: str, receive: int, *, game_id: str, group: Group
) -> tuple[int | None, str | None]:
    """What the new player of ``seat`` rebuilds from the shares sealed to it: the seat's deck
    secret once ``threshold`` sound ones are in (else None), and the first holder whose share
    does not match the seat's dealing (for a complaint), if any."""
    dealing = escrow.dealings[seat]
    good: list[es.EscrowShare] = []
    for holder, sealed in escrow.reshared.get(seat, {}).items():
        share = es.unseal(sealed, receive, dealing, game_id=game_id, group=group)
        try:
            es.check_escrow_share(dealing, share, group=group)
        except GameFileError:
            return None, holder
        good.append(share)
    if len(good) < escrow.threshold:
        return None, None
    chosen = sorted(good, key=lambda share: share.index)[: escrow.threshold]
    weights = es.lagrange_at_zero([share.index for share in chosen], group.order)
    return sum(
        weight * share.value for weight, share in zip(weights, chosen, strict=True)
    ) % group.order, None


def reshare_complaint_fields(
    escrow: Escrow, seat: str, holder: str, receive: int, *, game_id: str, group: Group
) -> dict[str, str]:
    """The new player's complaint about the share ``holder`` sealed to it: what opens it, proved."""
    complaint = es.complain(
        escrow.reshared[seat][holder], receive, escrow.dealings[seat], game_id=game_id, group=group
    )
    return {
        "holder": holder,
        "opened": group.element_text(complaint.opened),
        "proof": hd.proof_text(complaint.proof, group=group),
    }


def take_reshare_complaint(escrow: Escrow, seat: str, item: object, *, game_id: str, group: Group) -> None:
    """The new player of ``seat`` complains of a holder's resealed share: the file shows who lied,
    and either way the game cannot go on (as with a complaint at the start)."""
    where = "escrow_reshare_complaint"
    item = _table(item, ("holder", "opened", "proof"), where)
    holder = item.get("holder")
    given = escrow.reshared.get(seat, {})
    if seat not in escrow.resharing or not isinstance(holder, str) or holder not in given:
        raise GameFileError(f"{where}: {holder!r} sealed no share of {seat}'s secret to its new player")
    dealing, receiving = escrow.dealings[seat], escrow.resharing[seat]
    # the share does not match the seat's dealing: the holder that sealed it lied
    if _liar(item, given[holder], dealing, receiving, where, game_id=game_id, group=group) == seat:
        escrow.failed = (
            f"{holder} sealed {seat}'s new player a share that does not match {seat}'s escrow (proved by "
            f"the new player's complaint): the game cannot go on"
        )
    else:
        escrow.failed = (
            f"{seat}'s new player complained of {holder}'s sound share, which the complaint itself shows: "
            "the game cannot go on"
        )


# --- opening a sealed choice kept back ----------------------------------------------------------
SEALED_POINT_DOMAIN = "pbem/sealed-point/v1"
SEALED_PLACE = "sealed "  # the unlock of a sealed step: "sealed STEP", position 0 (no deck's id has a space)


def sealed_point(group: Group, game_id: str, step: str, seat: str) -> Element:
    """``T``, hashed from the game, the step and the seat: the point whose ``x * T`` keys a sealed
    value for the escrow, ``x`` the seat's deck secret. Nobody chooses it, so a partial ``s_i * T``
    serves only to open this one value."""
    return group.hash_to_element(
        SEALED_POINT_DOMAIN, game_id.encode("utf-8"), step.encode("utf-8"), seat.encode("utf-8")
    )


def sealed_place(step: str) -> str:
    """The name under which the holders unlock a seat's sealed ``step``."""
    return SEALED_PLACE + step


def sealed_step(place: str) -> str | None:
    """The step a place unlocks a sealed choice of, or None for a deck."""
    return place.removeprefix(SEALED_PLACE) if place.startswith(SEALED_PLACE) else None


def sealed_ciphertext(group: Group, game_id: str, step: str, seat: str) -> hd.Ciphertext:
    """The point ``T`` where partials expect a card's ``c1`` (the ``c2`` is never read)."""
    point = sealed_point(group, game_id, step, seat)
    return hd.Ciphertext(point, point)


# --- unlocking a silent seat -------------------------------------------------------------------
def start_unlock(escrow: Escrow, seat: str, positions: Sequence[tuple[str, int]]) -> None:
    """The others begin to unlock ``seat``'s shares of ``positions``, the shares it owes and let
    its deadline pass for: no other position, so the quorum reads nothing the game does not need."""
    if seat not in escrow.dealings:
        raise GameFileError(f"{seat} has dealt no escrow, so nobody can stand in for it")
    unlocking = escrow.unlocking.setdefault(seat, {})
    for place in positions:
        unlocking.setdefault(place, {})


def partial_fields(
    escrow: Escrow,
    seat: str,
    wanted: Mapping[str, Mapping[str, Sequence[hd.Place]]],
    receive: int,
    *,
    game_id: str,
    group: Group,
) -> list[dict[str, Any]]:
    """``seat``'s partial decryptions for the silent seats it helps unlock: ``wanted`` maps each
    silent seat and deck to the places (slots and their cards); one table, with one proof, each."""
    found: list[dict[str, Any]] = []
    for silent, decks in wanted.items():
        share = held_share(escrow, silent, seat, receive, game_id=game_id, group=group)
        for deck_id, places in decks.items():
            values, proof = es.partials(share, escrow.dealings[silent], places, game_id=game_id, group=group)
            found.append(
                {
                    "seat": silent,
                    "deck": deck_id,
                    "slots": [place.position for place in places],
                    "partials": _packed(group.elements_text(values)),
                    "proof": hd.proof_text(proof, group=group),
                }
            )
    return found
