"""The table: a ruleset's state plus what the engine keeps for it.

The engine stands between the signed entries and the rules. It turns a ruleset's sealed demands
into a commit step and a reveal step, holds the commitments, and decides random events from the
seats' randomness contributions: an event requested at step ``s`` is decided by each seat's first
contribution made after ``s``, all of which were fixed when the seats joined, so the outcome is
fixed before anyone can see it and no seat can choose it. Hidden decks (``decks.py``) ride
along the same way: what a seat owes them is a demand its next entry settles.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.crypto import sealing
from pbem.crypto.deck_groups import OLD_GROUP
from pbem.crypto.encoding import unb64
from pbem.crypto.groups import Element, Group
from pbem.crypto.randomness import Draws
from pbem.engine import decks as hidden_decks
from pbem.engine import escrows
from pbem.engine.decks import Decks, ProofCheck, check_now
from pbem.engine.declaration import ABSENT, OPEN, OptionValue
from pbem.engine.escrows import Escrow, proven, start_unlock, threshold_of
from pbem.engine.ruleset import (
    DECK_DEMANDS,
    CardUse,
    Demand,
    Ruleset,
    defaults_rules,
    hidden_deck_rules,
    is_free,
    reshuffle_rules,
)
from pbem.errors import GameFileError, IllegalMoveError

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
TIMED_OUT = "timed out"  # stands in for the commitment of a seat whose sealed choice defaulted
# The demands a timeout may settle: never a consent (nobody agrees for another seat)
STANDING_IN = ("move", "commit", "reveal", "contribute", *DECK_DEMANDS)
SHOWN = "shown"  # the kind of play noted for a move that showed or returned a hidden card
CHANCE_DOMAIN = b"pbem/default-chance/v1"


@dataclass
class Pending:
    context: str
    since: int  # the step at which the event was requested
    excused: set[str] = field(default_factory=set)  # seats timed out of contributing


@dataclass
class Table:
    game_id: str
    seats: tuple[str, ...]
    state: Any
    started: int  # the step at which the last seat joined
    commitments: dict[str, dict[str, str]] = field(default_factory=dict)  # step -> seat -> hex
    sealed: dict[str, dict[str, str]] = field(default_factory=dict)  # step -> seat -> base64
    revealed: dict[str, set[str]] = field(default_factory=dict)  # step -> seats
    pending: list[Pending] = field(default_factory=list)
    resolved: list[str] = field(default_factory=list)
    # seat -> (seq, link) of every link it revealed: a tuple, replaced when a link is added, so a
    # snapshot shares it instead of copying a history as long as the game
    links: dict[str, tuple[tuple[int, bytes], ...]] = field(default_factory=dict)
    # when each current demand began, by demand key: the time written in the entry that made it
    waiting_since: dict[str, str] = field(default_factory=dict)
    # since which entry (its position in the file) each seat has been asked, without a break, for a
    # demand of each kind ("seat|kind"): what a seat must hold to know it is asked
    asked_since: dict[str, int] = field(default_factory=dict)
    last_play: tuple[int, str, str] | None = None  # (seq, seat, kind) of the latest play entry
    # A pending request the other seats must consent to: an undo (by, target, agreed), or handing
    # a silent seat on (the same, with ``handover``: the silent seat, and ``name``: the new player)
    undo: dict[str, Any] | None = None
    # A silent seat handed on by consent, with the entry that completed it, until the ledger
    # seats the new player's key (see ``answer_undo``)
    handed: tuple[str, int] | None = None
    # A silent seat the others agreed to go on without, with the entry that completed it, until
    # the ledger sets the game up again for the seats left (see ``engine.silent_setup``)
    dropped: tuple[str, int] | None = None
    decks: Decks | None = None  # the hidden decks, for rulesets that declare any
    # seat -> how many deadlines it missed (timeouts that stood in for it), and how many make the
    # rules' defaults play it for the rest of the game (option retire_after; 0: never)
    missed: dict[str, int] = field(default_factory=dict)
    retire_after: int = 0
    # Option timeouts=absent: a timeout makes its seat absent, played by the rules' defaults with
    # no more claims until it signs an entry again (``absent``); off in games made before it.
    absence: bool = False
    absent: set[str] = field(default_factory=set)
    # Option withheld=open: a reveal let pass is opened by the escrow where the seat sealed its
    # choice to it (``escrow_sealed``), else counts as the rules' least favourable choice
    # (``withhold``), not their default; off in games made before it.
    worst: bool = False
    escrow_sealed: dict[str, dict[str, str]] = field(default_factory=dict)  # step -> seat -> sealed
    unopened: set[tuple[str, str]] = field(default_factory=set)  # (seat, step): sealed to the escrow amiss
    # A value every seat's randomness fixed and none chose: the last random event decided, or the
    # seats' chains as the game began. Rules whose defaults choose a place read it (``_told``).
    chance: bytes = b""
    # The rules' demands of ``state`` and the rules and state they answer for (see ``_wanted``).
    asked: tuple[Ruleset, Any, tuple[Demand, ...]] | None = field(default=None, compare=False, repr=False)

    def snapshot(self) -> Table:
        """A copy that later changes to this table do not reach.

        Rules return new states rather than changing them, so the state is shared, as are the
        seats' link histories (tuples); only the engine's own containers are copied. (Replay takes
        one per step, so copying anything that grows with the game here makes replay quadratic.)
        """
        return Table(
            self.game_id,
            self.seats,
            self.state,
            self.started,
            commitments={step: dict(seats) for step, seats in self.commitments.items()},
            sealed={step: dict(seats) for step, seats in self.sealed.items()},
            revealed={step: set(seats) for step, seats in self.revealed.items()},
            pending=[Pending(p.context, p.since, set(p.excused)) for p in self.pending],
            resolved=list(self.resolved),
            links=dict(self.links),
            waiting_since=dict(self.waiting_since),
            asked_since=dict(self.asked_since),
            last_play=self.last_play,
            undo=None if self.undo is None else {**self.undo, "agreed": set(self.undo["agreed"])},
            handed=self.handed,
            dropped=self.dropped,
            decks=None if self.decks is None else self.decks.copy(),
            missed=dict(self.missed),
            retire_after=self.retire_after,
            absence=self.absence,
            absent=set(self.absent),
            worst=self.worst,
            escrow_sealed={step: dict(seats) for step, seats in self.escrow_sealed.items()},
            unopened=set(self.unopened),
            chance=self.chance,
            asked=self.asked,  # an answer about the state, which the copy shares
        )


def start(
    rules: Ruleset,
    *,
    game_id: str,
    seats: Sequence[str],
    edition: str,
    options: Mapping[str, OptionValue],
    components: Mapping[str, Any],
    seq: int,
    deck_keys: Mapping[str, Element] | None = None,
    group: Group = OLD_GROUP,
    receiving_keys: Mapping[str, Element] | None = None,
    referee: str | None = None,
    links: Mapping[str, bytes] | None = None,
) -> Table:
    """The table once every seat has joined; ``receiving_keys`` (each seat's, in a game with
    escrow, or the ``referee``'s alone) start the escrow of the deck secrets. ``links``: the last
    link of its randomness chain each seat had revealed (its tip at least), which fix the chance
    the rules' defaults read until the first random event is decided."""
    table = Table(game_id, tuple(seats), rules.setup(seats, edition, options, components), seq)
    table.retire_after = int(options.get("retire_after", 0) or 0)
    table.absence = options.get("timeouts") == ABSENT
    table.worst = options.get("withheld") == OPEN
    known = links or {}
    table.chance = _chance(game_id, "start", [(seat, known[seat]) for seat in table.seats if seat in known])
    table.state = _told(rules, table, table.state)
    set_up_decks(
        rules,
        table,
        options=options,
        deck_keys=deck_keys or {},
        group=group,
        receiving_keys=receiving_keys,
        referee=referee,
    )
    _note_requests(rules, table, seq)
    return table


def set_up_decks(
    rules: Ruleset,
    table: Table,
    *,
    options: Mapping[str, OptionValue],
    deck_keys: Mapping[str, Element],
    group: Group,
    receiving_keys: Mapping[str, Element] | None,
    referee: str | None,
) -> None:
    """The hidden decks the rules declare for ``table.state``, open under the seats' joint key,
    and their escrow: at the start, and again when a seat is handed on before the first card."""
    hidden = hidden_deck_rules(rules)
    specs = hidden.hidden_decks(table.state) if hidden is not None else []
    if not specs:
        return
    seats = table.seats
    escrow = None
    if receiving_keys is not None:
        holders = seats if referee is None else (referee,)
        missing = [seat for seat in holders if seat not in receiving_keys]
        if missing:
            raise GameFileError(f"no escrow receiving key for {', '.join(missing)}")
        escrow = Escrow(
            threshold_of(options, len(seats)), dict(receiving_keys), referee=referee, proven=proven(options)
        )
    table.decks = hidden_decks.setup(specs, seats, deck_keys, group, escrow)


def demands(rules: Ruleset, table: Table) -> list[Demand]:
    """Who must act now, as the engine sees it: sealed demands become commit or reveal demands,
    and seats whose randomness a pending event still needs are asked to contribute."""
    if table.undo is not None:
        undo = table.undo
        if "handover" in undo:
            step = f"handover of {undo['handover']}"
            prompt = (
                f"consent to (or decline) {undo['by']}'s handing {undo['handover']}'s seat on to "
                f"{undo['name']} (entry {undo['target']})"
            )
        elif "drop" in undo:
            step = f"going on without {undo['drop']}"
            prompt = (
                f"consent to (or decline) {undo['by']}'s going on without {undo['drop']} "
                f"(entry {undo['target']})"
            )
        else:
            step = f"undo of entry {undo['target']}"
            prompt = f"consent to (or decline) {undo['by']}'s undo of entry {undo['target']}"
        return [
            Demand(seat, "consent", step, prompt) for seat in consenting(table) if seat not in undo["agreed"]
        ]
    if table.decks is not None and table.decks.halted() is not None:
        return []  # an escrow complaint stopped the game
    found: list[Demand] = []
    wanted = _wanted(rules, table)
    sealing: dict[str, list[str]] = {}  # step -> the seats asked to seal a choice in it
    for demand in wanted:
        if demand.kind == "sealed":
            sealing.setdefault(demand.step, []).append(demand.seat)
    # A step's choices are revealed once every seat asked has sealed its own.
    everyone_in = {
        step: all(seat in table.commitments.get(step, {}) for seat in seats)
        for step, seats in sealing.items()
    }
    for demand in wanted:
        if demand.kind != "sealed":
            found.append(demand)
            continue
        if demand.seat not in table.commitments.get(demand.step, {}):
            found.append(Demand(demand.seat, "commit", demand.step, demand.prompt))
        elif everyone_in[demand.step] and demand.seat not in table.revealed.get(demand.step, set()):
            found.append(Demand(demand.seat, "reveal", demand.step, f"reveal your sealed {demand.step}"))
    busy = {demand.seat for demand in found}
    for pending in table.pending:
        for seat in table.seats:
            if seat in pending.excused:
                continue
            if seat not in busy and not _contributed(table, seat, pending.since):
                found.append(
                    Demand(
                        seat, "contribute", pending.context, f"add your randomness to the {pending.context}"
                    )
                )
                busy.add(seat)
    if table.decks is not None:
        # Listed last: a seat's rules demand comes first, and the entry that answers it
        # carries what the seat owes the decks too.
        found.extend(hidden_decks.demands(table.decks))
    return found


SUMMARY = {
    "move": "to move",
    "commit": "to seal a choice",
    "reveal": "to reveal",
    "contribute": "to add randomness",
    "consent": "to answer an undo",
    "handover": "to give a handover consent",  # a consent to handing a silent seat on
    "shuffle": "to shuffle",
    "share": "to give a decryption share",
    "escrow": "to deal or acknowledge escrow",
    "unlock": "to give partial decryptions for a silent player",
}


def waiting_summary(rules: Ruleset, table: Table) -> str:
    """Who must act now, in one line: ``waiting for b to move; a, c to give a decryption share``."""
    by_kind: dict[str, list[str]] = {}
    for demand in demands(rules, table):
        handover = demand.kind == "consent" and demand.step.startswith("handover of ")
        seats = by_kind.setdefault("handover" if handover else demand.kind, [])
        if demand.seat not in seats:
            seats.append(demand.seat)
    if not by_kind:
        halted = None if table.decks is None else table.decks.halted()
        return halted if halted is not None else "nobody needs to act"
    return "waiting for " + "; ".join(
        f"{', '.join(seats)} {SUMMARY[kind]}" for kind, seats in by_kind.items()
    )


def _wanted(rules: Ruleset, table: Table) -> tuple[Demand, ...]:
    """``rules.demands(table.state)``, asked once per state.

    Rules are pure and never change a state in place, so the answer stands until the table holds
    another state; replay asks after every entry, and most entries (notes, randomness, what a
    seat owes the hidden decks) leave the state as it was.
    """
    asked = table.asked
    if asked is None or asked[0] is not rules or asked[1] is not table.state:
        asked = table.asked = (rules, table.state, tuple(rules.demands(table.state)))
    return asked[2]


def demand_of(rules: Ruleset, table: Table, seat: str, kinds: tuple[str, ...]) -> Demand:
    """The seat's demand of one of ``kinds``, or IllegalMoveError saying what is wanted instead."""
    halted = None if table.decks is None else table.decks.halted()
    if halted is not None:
        raise IllegalMoveError(halted)
    current = demands(rules, table)
    for demand in current:
        if demand.seat == seat and demand.kind in kinds:
            return demand
    mine = [demand for demand in current if demand.seat == seat]
    if mine:
        raise IllegalMoveError(f"{seat} must now {_describe(mine[0])}")
    if not current:
        raise IllegalMoveError(f"nobody is to act now, {seat} included")
    others = "; ".join(f"{d.seat} must {_describe(d)}" for d in current[:3])
    more = f" (and {len(current) - 3} more)" if len(current) > 3 else ""
    raise IllegalMoveError(f"it is not {seat}'s turn: {others}{more}")


def _describe(demand: Demand) -> str:
    if demand.kind == "commit":
        return f"seal a {demand.step} ({demand.prompt}) with pbem play"
    if demand.kind == "reveal":
        return f"reveal the sealed {demand.step} (pbem reveal)"
    if demand.kind == "contribute":
        return f"add randomness to the {demand.step} (any entry: pbem play ... roll)"
    if demand.kind == "consent":
        return f"{demand.prompt} (pbem consent)"
    if demand.kind in DECK_DEMANDS:
        return f"{demand.prompt} (any entry carries it; pbem sync if there is nothing else to send)"
    return f"move in the {demand.step} ({demand.prompt})"


@dataclass(frozen=True)
class CheckedMove:
    """A move the rules accept, the state it was checked against (the hidden cards it shows
    already revealed to the rules) and the hidden decks once its cards have moved."""

    move: Any
    state: Any
    decks: Decks | None


def card_uses(rules: Ruleset, table: Table, seat: str, move: Any) -> list[CardUse]:
    hidden = hidden_deck_rules(rules)
    if hidden is None or table.decks is None:
        return []
    return hidden.card_uses(table.state, seat, move)


def check_move(
    rules: Ruleset,
    table: Table,
    seat: str,
    text: str,
    *,
    cards: Mapping[str, Any] | None = None,
    check: ProofCheck = check_now,
) -> CheckedMove:
    """Check a move; ``cards`` holds the entry's fields for the hidden cards it uses. A free move
    needs no demand: any seat may make it while the game is on."""
    move = rules.parse(text)
    if is_free(rules, move):
        check_no_undo_pending(table)
    else:
        demand_of(rules, table, seat, ("move",))
    given = {name: value for name, value in (cards or {}).items() if name in hidden_decks.CARD_FIELDS}
    uses = card_uses(rules, table, seat, move)
    hidden = hidden_deck_rules(rules)
    if not uses and not given:
        rules.check(table.state, seat, move)
        return CheckedMove(move, table.state, table.decks)
    if hidden is None or table.decks is None:
        raise GameFileError("the entry shows or returns hidden cards, but this game has no hidden deck")
    decks = table.decks.copy()
    state = hidden_decks.use_cards(
        hidden, decks, table.state, seat, uses, entry=given, game_id=table.game_id, check=check
    )
    rules.check(state, seat, move)
    return CheckedMove(move, state, decks)


def apply_move(rules: Ruleset, table: Table, seat: str, checked: CheckedMove) -> None:
    table.decks = checked.decks
    table.state = rules.apply(_told(rules, table, checked.state), seat, checked.move)


def take_owed(table: Table, start: Table, seat: str, entry: Mapping[str, Any], check: ProofCheck) -> int:
    """Take the shuffles and shares an entry carries; refuse one that leaves out what is owed."""
    if table.decks is None or start.decks is None:
        if any(name in entry for name in (*hidden_decks.OWED_FIELDS, *hidden_decks.CARD_FIELDS)):
            raise GameFileError("the entry carries hidden-deck fields, but this game has no hidden deck")
        return 0
    return hidden_decks.take_owed(table.decks, start.decks, seat, entry, game_id=table.game_id, check=check)


def check_commit(rules: Ruleset, table: Table, seat: str, step: str, commitment: str) -> None:
    demand = demand_of(rules, table, seat, ("commit",))
    if demand.step != step:
        raise IllegalMoveError(f"the sealed step now is the {demand.step}, not {step!r}")
    if len(commitment) != 64 or any(char not in "0123456789abcdef" for char in commitment):
        raise IllegalMoveError("the commitment must be 64 hex digits")


def apply_commit(
    table: Table, seat: str, step: str, commitment: str, sealed: str, *, escrow_sealed: str | None = None
) -> None:
    table.commitments.setdefault(step, {})[seat] = commitment
    table.sealed.setdefault(step, {})[seat] = sealed
    if escrow_sealed is not None:
        table.escrow_sealed.setdefault(step, {})[seat] = escrow_sealed


def seals_to_escrow(table: Table) -> bool:
    """Whether a sealed choice must also be sealed so that the escrow can open it (option
    withheld=open, in a game with escrow)."""
    return table.worst and table.decks is not None and table.decks.escrow is not None


def _opens(table: Table, demand: Demand) -> bool:
    """Whether a timeout on ``demand``, a reveal, has the escrow holders open the sealed value:
    the seat sealed it to the escrow and its escrow is complete."""
    if demand.kind != "reveal" or not seals_to_escrow(table):
        return False
    assert table.decks is not None and table.decks.escrow is not None
    escrow = table.decks.escrow
    return (
        demand.seat in table.escrow_sealed.get(demand.step, {})
        and escrow.failed is None
        and escrow.complete(table.decks.seats)
    )


def opening(table: Table, demand: Demand) -> bool:
    """Whether the escrow holders are opening ``demand``'s sealed value now."""
    if demand.kind != "reveal" or table.decks is None or table.decks.escrow is None:
        return False
    unlocking = table.decks.escrow.unlocking.get(demand.seat, {})
    return (escrows.sealed_place(demand.step), 0) in unlocking


def _open_kept_back(rules: Ruleset, table: Table) -> bool:
    """Apply each sealed value the escrow holders have opened: as the seat's reveal when it opens
    to its commitment; when it does not, the seat sealed something else to the escrow than it
    committed to, which the file shows, and the claim stands in as for a value nothing opens.
    Whether one was applied."""
    if table.decks is None or table.decks.escrow is None:
        return False
    escrow, group = table.decks.escrow, table.decks.group
    for (seat, step), point in list(escrow.opened.items()):
        if seat in table.revealed.get(step, set()):
            continue
        demand = Demand(seat, "reveal", step, "")
        try:
            opening = sealing.open_with_point(
                group.encode(point), unb64(table.escrow_sealed[step][seat]), table.game_id, step, seat
            )
            move = check_reveal(rules, table, seat, step, opening)
        except (ValueError, IllegalMoveError):
            table.unopened.add((seat, step))
            _stand_in(rules, table, demand, [], cards=None, check=check_now)
            return True
        apply_reveal(rules, table, seat, step, move)
        return True
    return False


def check_reveal(rules: Ruleset, table: Table, seat: str, step: str, opening: sealing.Opening) -> Any:
    demand = demand_of(rules, table, seat, ("reveal",))
    if demand.step != step:
        raise IllegalMoveError(f"the step being revealed is the {demand.step}, not {step!r}")
    committed = table.commitments[step][seat]
    if not sealing.matches(table.game_id, step, seat, opening, committed):
        raise IllegalMoveError(f"the revealed {step} does not match {seat}'s commitment")
    move = rules.parse(opening.value)
    rules.check(table.state, seat, move)
    return move


def apply_reveal(rules: Ruleset, table: Table, seat: str, step: str, move: Any) -> None:
    table.revealed.setdefault(step, set()).add(seat)
    if table.decks is not None and table.decks.escrow is not None:
        # revealed by its seat, come back, or opened: the holders owe no more partials of it
        table.decks.escrow.unlocking.get(seat, {}).pop((escrows.sealed_place(step), 0), None)
    table.state = rules.apply(_told(rules, table, table.state), seat, move)


def check_contribution(rules: Ruleset, table: Table, seat: str, event: str) -> None:
    demand = demand_of(rules, table, seat, ("contribute",))
    if demand.step != event:
        raise IllegalMoveError(f"the event waiting for {seat} is the {demand.step}, not {event!r}")


def record_link(table: Table, seat: str, seq: int, link: bytes) -> None:
    table.links[seat] = (*table.links.get(seat, ()), (seq, link))


def settle(rules: Ruleset, table: Table, seq: int) -> None:
    """Decide every pending event whose contributions are all in; note events newly requested."""
    _note_requests(rules, table, seq)
    hidden = hidden_deck_rules(rules) if table.decks is not None else None
    reshuffle = reshuffle_rules(rules)
    done: set[str] = set()  # the demands stood in for while settling this entry
    progress = True
    while progress:
        progress = False
        for pending in list(table.pending):
            parts = [
                (seat, _first_link_after(table, seat, pending.since))
                for seat in table.seats
                if seat not in pending.excused
            ]
            if any(link is None for _, link in parts):
                continue
            contributions = [(seat, link) for seat, link in parts if link is not None]
            draws = Draws(table.game_id, pending.context, contributions)
            table.state = rules.resolve(_told(rules, table, table.state), pending.context, draws)
            table.chance = _chance(table.game_id, pending.context, contributions)
            table.state = _told(rules, table, table.state)
            table.pending.remove(pending)
            table.resolved.append(pending.context)
            _note_requests(rules, table, seq)
            progress = True
        if hidden is not None and table.decks is not None:
            table.decks.over = rules.over(table.state)
            table.state = _told(rules, table, table.state)
            dealt = hidden_decks.advance(hidden, reshuffle, table.decks, table.state)
            if dealt is not table.state:
                table.state = dealt
                _note_requests(rules, table, seq)
                progress = True
        if not progress and _open_kept_back(rules, table):
            _note_requests(rules, table, seq)  # as after a reveal its seat signed
            progress = True
        if not progress and _stand_in_for_absent(rules, table, done):
            _note_requests(rules, table, seq)
            progress = True


def note_play(table: Table, seq: int, seat: str, kind: str) -> None:
    table.last_play = (seq, seat, kind)


def consenting(table: Table) -> list[str]:
    """Who must consent to the request waiting: every other seat for an undo; for handing a
    silent seat on, every remaining seat (neither the silent one nor one the rules' defaults play:
    retired, or absent); for going on without a silent seat, every other seat but the silent one
    (see ``engine.silent_setup``)."""
    undo = table.undo
    if undo is None:
        return []
    away = {undo["by"]}
    if "handover" in undo:
        away |= {undo["handover"], *stood_in(table)}
    if "drop" in undo:
        away.add(undo["drop"])
    return [seat for seat in table.seats if seat not in away]


def check_no_undo_pending(table: Table) -> None:
    if table.undo is not None:
        waiting = [seat for seat in consenting(table) if seat not in table.undo["agreed"]]
        asked = (
            f"proposed handing {table.undo['handover']}'s seat on to {table.undo['name']}"
            if "handover" in table.undo
            else f"proposed going on without {table.undo['drop']}"
            if "drop" in table.undo
            else f"asked to undo entry {table.undo['target']}"
        )
        raise IllegalMoveError(
            f"play is paused: {table.undo['by']} {asked}, waiting for {', '.join(waiting)} to "
            "consent or decline (pbem consent)"
        )


def request_undo(table: Table, seat: str, target: int) -> None:
    """A seat asks to take back its last move; every other seat must consent."""
    check_no_undo_pending(table)
    last = table.last_play
    if last is not None and last[:3] == (target, seat, SHOWN):
        raise IllegalMoveError(
            f"entry {target} showed a hidden card (or put one back under the deck): everyone has seen "
            "it, so it cannot be undone"
        )
    if last is None:
        raise IllegalMoveError(
            f"{seat} has no move to undo: nothing has been played since the game began or the last undo"
        )
    if last[0] != target or last[1] != seat or last[2] != "move":
        raise IllegalMoveError(
            f"{seat} can only undo its own move when nothing has been played since (entry {target} is not)"
        )
    table.undo = {"by": seat, "target": target, "agreed": set()}


def answer_undo(table: Table, seat: str, target: int, agree: bool, seq: int = 0) -> None:
    """A seat's answer to the request waiting (entry ``seq``): an undo, or handing a silent seat
    on, which is done with the last consent (``table.handed``)."""
    undo = table.undo
    if undo is None or undo["target"] != target:
        raise IllegalMoveError(f"no undo of entry {target} is waiting for consent")
    what = (
        f"the handover of {undo['handover']}"
        if "handover" in undo
        else f"going on without {undo['drop']}"
        if "drop" in undo
        else f"the undo of entry {target}"
    )
    if seat not in consenting(table) or seat in undo["agreed"]:
        raise IllegalMoveError(f"{seat} has no say left on {what}")
    if not agree:
        table.undo = None
        return
    undo["agreed"].add(seat)
    if set(consenting(table)) <= undo["agreed"]:
        table.undo = None
        if "handover" in undo:
            table.handed = (undo["handover"], seq)
            table.missed.pop(undo["handover"], None)  # a new player: no deadline missed yet
            table.absent.discard(undo["handover"])
        elif "drop" in undo:
            table.dropped = (undo["drop"], seq)
        else:
            table.last_play = None


def propose_handover(
    table: Table, seat: str, silent: str, name: str, seq: int, *, anew: bool = False
) -> None:
    """``seat`` proposes handing the silent seat on to the player ``name`` (entry ``seq``): done
    once every remaining seat consents. Only a seat that has let a deadline pass (a timeout was
    claimed against it) may be handed on without its own signature, and never while its sealed
    choice waits (only its key opens it) or while its hidden cards could not be read again: the
    new player reads them only through the escrow. With ``anew``, the seat is silent past its
    deadline before the first card (``engine.silent_setup``): the new player sets it up with keys
    of its own, which needs neither a timeout nor the escrow."""
    check_no_undo_pending(table)
    if silent not in table.seats or silent == seat:
        raise IllegalMoveError(f"{seat} cannot hand on {silent!r}: name another seat of the game")
    if not anew and table.missed.get(silent, 0) < 1:
        raise IllegalMoveError(
            f"{silent} has let no deadline pass (no timeout was claimed against it): only a silent "
            f"seat is handed on by the others; {silent} may hand itself on with pbem handover"
        )
    waiting = [
        step
        for step, sealed in table.sealed.items()
        if silent in sealed and silent not in table.revealed.get(step, set())
    ]
    if waiting:
        raise IllegalMoveError(
            f"{silent}'s sealed {waiting[0]} is not revealed, and only {silent}'s key opens it"
            + (", or the escrow after a timeout" if seals_to_escrow(table) else "")
            + ": claim the timeout for it first"
        )
    decks = table.decks
    if not anew and decks is not None and (decks.escrow is None or decks.halted() is not None):
        raise IllegalMoveError(
            f"{silent}'s hidden cards are read only with its key or its escrow, and this game keeps no "
            "escrow: the seat cannot be handed on without it"
        )
    table.undo = {"by": seat, "target": seq, "agreed": set(), "handover": silent, "name": name}


def demand_key(demand: Demand) -> str:
    return f"{demand.seat}|{demand.kind}|{demand.step}"


def track(rules: Ruleset, table: Table, at: str, days: int) -> None:
    """Start the clock of every demand that is new since the last entry; forget finished ones.

    The clocks are read only for deadlines (``deadline``, ``check_timeout``), so a game without
    them (``days`` 0, the default) keeps none: replay tracks after every entry, and working out
    every demand each time was a tenth of the work of verifying a game of notes.
    """
    if days <= 0:
        return
    # With timeouts=absent, a seat that waits for others' shares is on no clock: its deadlines
    # run from the entry after which it can read its cards.
    paused = waiting(table) if table.absence else {}
    current = {demand_key(demand) for demand in demands(rules, table) if demand.seat not in paused}
    table.waiting_since = {key: since for key, since in table.waiting_since.items() if key in current}
    for key in current:
        table.waiting_since.setdefault(key, at)


def asked_key(demand: Demand) -> str:
    return f"{demand.seat}|{demand.kind}"


def note_asked(rules: Ruleset, table: Table, position: int) -> None:
    """Remember, for each seat and kind of demand new since the last entry, the position of the
    entry after which the seat was asked (the entry at ``position``); forget those no longer
    asked. A step's name may change while the seat is still asked the same (the show of one
    seat's cards renames everyone's), so a seat's kind of demand is what lasts. Mail asks it: a
    seat that lacks that entry does not know it is asked."""
    current = [asked_key(demand) for demand in demands(rules, table)]
    since = table.asked_since
    table.asked_since = {key: since.get(key, position) for key in current}


def untimed(table: Table, demand: Demand) -> bool:
    """Whether no timeout ever settles ``demand``, so no deadline is said for it: an answer to an
    undo or a handover (nobody consents for another), partial decryptions that unlock a silent
    seat (nobody holds them but the holder), anything the referee owes (nobody holds what it does)."""
    return demand.kind in ("consent", "unlock") or demand.seat not in table.seats


def deadline(table: Table, demand: Demand, days: int) -> str | None:
    if days <= 0:
        return None
    since = table.waiting_since.get(demand_key(demand))
    if since is None:
        return None
    start = datetime.strptime(since, TIME_FORMAT).replace(tzinfo=UTC)
    return (start + timedelta(days=days)).strftime(TIME_FORMAT)


def check_timeout(
    rules: Ruleset, table: Table, *, claimant: str, late: str, step: str, at: str, days: int
) -> Demand:
    """The late seat's demand that a timeout claim made at ``at`` may settle, or why not."""
    if days <= 0:
        raise IllegalMoveError("this game has no deadlines (option deadline_days is 0)")
    if claimant == late:
        raise IllegalMoveError("a seat cannot claim a timeout against itself")
    mine = [demand for demand in demands(rules, table) if demand.seat == late and demand.step == step]
    if not mine:
        raise IllegalMoveError(f"{late} owes nothing in the {step}")
    demand = mine[0]
    if demand.kind not in STANDING_IN:
        raise IllegalMoveError(f"nobody can stand in for {late} in the {step}")
    why = _deck_reason(table, demand)
    if why is not None:
        raise IllegalMoveError(why)
    # An absent (or retired) seat's default that needs a claimant's entry is claimed at once: the
    # seat let its deadline pass already, and the others lose no second one to it.
    if not (table.absence and late in stood_in(table)):
        why = waiting_reason(table, demand) if table.absence else None
        if why is not None:
            raise IllegalMoveError(why)
        due = deadline(table, demand, days)
        if due is None or at < due:
            raise IllegalMoveError(
                f"{late}'s deadline for the {step} is {due}; a timeout can be claimed only after it"
            )
    why = _default_reason(rules, table, demand)
    if why is not None:
        raise IllegalMoveError(why)
    return demand


def waiting(table: Table) -> dict[str, list[str]]:
    """Each seat that waits for others: it holds a hidden card another seat's decryption share of
    which is missing, so it cannot read its hand to choose what it is asked; with the seats it
    waits for. A seat that waits has let no deadline pass, whatever it owes."""
    if table.decks is None or table.decks.over:
        return {}
    return hidden_decks.waits(table.decks)


def waiting_reason(table: Table, demand: Demand) -> str | None:
    """Why no timeout can be claimed against ``demand`` while its seat waits for others, or None
    (a seat the rules' defaults play chooses nothing, so it never waits)."""
    if demand.seat in stood_in(table):
        return None
    waits = waiting(table).get(demand.seat)
    if not waits:
        return None
    return (
        f"{demand.seat} waits for the decryption shares of {', '.join(waits)} to read its hidden "
        "cards, so it has let no deadline pass (its deadlines run once it can read them)"
    )


def _deck_reason(table: Table, demand: Demand) -> str | None:
    """Why nobody can stand in for what the late seat owes the hidden decks, or None."""
    if demand.kind not in DECK_DEMANDS:
        return None
    if table.decks is None:
        return f"{demand.seat} owes a hidden deck, but this game has none"
    return hidden_decks.standing_in(table.decks, demand.seat, demand.kind)


def _default_reason(rules: Ruleset, table: Table, demand: Demand) -> str | None:
    """Why the rules' default cannot be made for the late seat now, or None."""
    if demand.kind not in ("move", "commit", "reveal"):
        return None
    late, step = demand.seat, demand.step
    if opening(table, demand):
        assert table.decks is not None and table.decks.escrow is not None
        escrow = table.decks.escrow
        given = escrow.unlocking[late][escrows.sealed_place(step), 0]
        owing = [seat for seat in escrow.holders(table.decks.seats, late) if seat not in given]
        return (
            f"{late}'s sealed {step} is being opened from its escrow: it waits for the partial "
            f"decryptions of {', '.join(owing)}"
        )
    if _opens(table, demand):
        return None
    if demand.kind == "reveal" and table.worst and getattr(rules, "withhold", None) is None:
        # the rules' default would let it choose, having read every other reveal, between what it
        # sealed and the default; with no least favourable choice to count instead, it must reveal
        return (
            f"{late} sealed its {step} and keeps it back, and nothing can open it now (only the "
            f"escrow, complete, could): the rules' default would let {late} choose it after reading "
            f"the others' reveals, so the game waits for {late}'s reveal"
        )
    default = default_for(rules, table, late, step)
    if default is None:
        return f"the rules give no default for {late} in the {step}"
    uses = card_uses(rules, table, late, default)
    if not uses:
        return None
    # Showing a card takes its holder's share: without escrow only the holder can give it, and
    # applied without it the rules would move a card the decks still hold.
    assert table.decks is not None
    why, _ = hidden_decks.cards_standing_in(table.decks, late, uses)
    if why == hidden_decks.NO_ESCROW or demand.kind != "move":
        return (
            f"{late}'s default in the {step} ({rules.format(default)}) moves a hidden card, "
            f"which only {late}'s own key can do: {late} must make the move"
            + (
                " (a game made with --option escrow=others lets the others stand in)"
                if why == hidden_decks.NO_ESCROW
                else ""
            )
        )
    return why


# --- seats played by their defaults -----------------------------------------------------------------
def retired(table: Table) -> list[str]:
    """The seats that missed ``retire_after`` deadlines: the rules' defaults play them from then
    on, each time they are asked, without anyone claiming a timeout."""
    if table.retire_after <= 0:
        return []
    return [seat for seat in table.seats if table.missed.get(seat, 0) >= table.retire_after]


def stood_in(table: Table) -> list[str]:
    """The seats the rules' defaults play with no claim: the retired ones, and (timeouts=absent)
    those absent since a timeout against them, in seat order."""
    gone = set(retired(table)) | table.absent
    return [seat for seat in table.seats if seat in gone]


def signed(table: Table, seat: str) -> None:
    """``seat`` signed an entry: it is no longer absent (its own hand plays it again)."""
    table.absent.discard(seat)


def _stand_in_for_absent(rules: Ruleset, table: Table, done: set[str]) -> bool:
    """Apply one default for a retired or absent seat, if one can be made now; whether one was.
    ``done`` holds the demands already stood in for while settling this entry: one that comes back
    (a default that leaves the seat asked the same) is left for the next entry, so settling ends.

    A default that puts the seat's cards under the deck waits for a claimant's timeout, which
    re-masks them with its own randomness (the engine has none to give). An undo waiting for the
    seat's consent is declined for it: nobody can agree in its name to take a move back."""
    gone = stood_in(table)
    if not gone:
        return False
    for demand in demands(rules, table):
        if demand.seat not in gone or demand_key(demand) in done:
            continue
        if demand.kind == "consent":
            assert table.undo is not None
            answer_undo(table, demand.seat, int(table.undo["target"]), agree=False)
            return True
        if demand.kind not in STANDING_IN:
            continue
        if _deck_reason(table, demand) is not None or _default_reason(rules, table, demand) is not None:
            continue
        uses, _ = default_cards(rules, table, demand)
        if any(use.action == "bottom" for use in uses):
            continue
        done.add(demand_key(demand))
        apply_timeout(rules, table, demand, record=False)
        return True
    return False


def default_for(rules: Ruleset, table: Table, late: str, step: str) -> Any | None:
    """The rules' default for ``late`` in ``step``. A default that shows the late seat's hidden
    cards needs the others to stand in for its key, which only escrow allows: without it, a
    ruleset may give a second default that shows none (``keyless_default``), such as leaving
    cards face down where the first would turn them up."""
    default = rules.default_move(table.state, late, step)
    if default is None or table.decks is None or table.decks.escrow is not None:
        return default
    if not any(use.action == "reveal" for use in card_uses(rules, table, late, default)):
        return default
    keyless = getattr(rules, "keyless_default", None)
    other = keyless(table.state, late, step) if keyless is not None else None
    if other is not None and not card_uses(rules, table, late, other):
        return other
    return default


def default_cards(
    rules: Ruleset, table: Table, demand: Demand
) -> tuple[list[CardUse], list[tuple[str, int]]]:
    """The hidden cards the late seat's default move uses, and those of them it shows whose share
    must first be unlocked (then the timeout unlocks them, and a later one makes the move)."""
    if demand.kind != "move" or table.decks is None:
        return [], []
    default = default_for(rules, table, demand.seat, demand.step)
    uses = card_uses(rules, table, demand.seat, default) if default is not None else []
    if not uses:
        return [], []
    _, missing = hidden_decks.cards_standing_in(table.decks, demand.seat, uses)
    return uses, missing


def apply_timeout(
    rules: Ruleset,
    table: Table,
    demand: Demand,
    *,
    cards: Mapping[str, Any] | None = None,
    check: ProofCheck = check_now,
    record: bool = True,
) -> None:
    """Apply the rules' default for a seat that let its deadline pass (the others stand in for
    what it owes the hidden decks). A default that shows a card whose share the seat never gave
    first unlocks that share; the default itself is made by a later timeout, once it is in.
    ``cards`` holds the claim's fields: the re-masked cards the default puts under the deck.
    Each claim applied is counted against the seat (``record``), towards ``retire_after``; a
    refused one is not. (A default that shows cards takes two claims, and counts two: a verifier
    without the rules counts the claims it reads.) With timeouts=absent, the claim makes the seat
    absent, and only a claim against a seat not absent (nor retired) counts: each absence is one
    missed deadline, and the defaults made for it meanwhile (the second half of one that shows
    cards among them) count nothing."""
    uses, missing = default_cards(rules, table, demand)
    if _opens(table, demand):
        # it sealed its choice and kept it back after reading the others': the holders open it
        assert table.decks is not None and table.decks.escrow is not None
        start_unlock(table.decks.escrow, demand.seat, [(escrows.sealed_place(demand.step), 0)])
    elif missing:
        assert table.decks is not None and table.decks.escrow is not None
        start_unlock(table.decks.escrow, demand.seat, missing)
    else:
        _stand_in(rules, table, demand, uses, cards=cards, check=check)
    if record:
        if not (table.absence and demand.seat in stood_in(table)):
            table.missed[demand.seat] = table.missed.get(demand.seat, 0) + 1
        if table.absence:
            table.absent.add(demand.seat)


def _stand_in(
    rules: Ruleset,
    table: Table,
    demand: Demand,
    uses: list[CardUse],
    *,
    cards: Mapping[str, Any] | None,
    check: ProofCheck,
) -> None:
    if demand.kind not in STANDING_IN:
        raise IllegalMoveError(f"nobody can stand in for {demand.seat} in the {demand.step}")
    table.state = _told(rules, table, table.state)
    if uses:
        hidden = hidden_deck_rules(rules)
        assert hidden is not None and table.decks is not None
        move = default_for(rules, table, demand.seat, demand.step)
        table.state = hidden_decks.stand_in_cards(
            hidden,
            table.decks,
            table.state,
            demand.seat,
            uses,
            entry=cards or {},
            game_id=table.game_id,
            check=check,
        )
        rules.check(table.state, demand.seat, move)
        table.state = rules.apply(table.state, demand.seat, move)
        return
    if demand.kind in DECK_DEMANDS:
        assert table.decks is not None
        deck_id = demand.step.removeprefix("shuffle of ") if demand.kind == "shuffle" else None
        hidden_decks.stand_in(table.decks, demand.seat, demand.kind, deck_id)
        return
    if demand.kind == "contribute":
        for pending in table.pending:
            if pending.context == demand.step:
                pending.excused.add(demand.seat)
        return
    if demand.kind == "reveal" and table.worst and (withhold := getattr(rules, "withhold", None)) is not None:
        # It sealed a choice, saw the others' reveals and kept its own back: counted as the rules'
        # default, the choice of a seat that never sealed, it could choose between the two.
        table.revealed.setdefault(demand.step, set()).add(demand.seat)
        table.state = withhold(_told(rules, table, table.state), demand.seat, demand.step)
        return
    move = default_for(rules, table, demand.seat, demand.step)
    if demand.kind in ("commit", "reveal"):
        table.commitments.setdefault(demand.step, {}).setdefault(demand.seat, TIMED_OUT)
        table.revealed.setdefault(demand.step, set()).add(demand.seat)
    table.state = rules.apply(table.state, demand.seat, move)


def _chance(game_id: str, context: str, contributions: Sequence[tuple[str, bytes]]) -> bytes:
    """A digest of what decided a random event (or began the game): every seat's contribution, so
    no seat chose it, and nothing a seat adds later (a note's link) changes it."""
    digest = hashlib.sha256(CHANCE_DOMAIN)
    for part in (
        game_id.encode("utf-8"),
        context.encode("utf-8"),
        *(p for c in contributions for p in (c[0].encode("utf-8"), c[1])),
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.digest()


def _told(rules: Ruleset, table: Table, state: Any) -> Any:
    """``state`` told which seats the rules' defaults play now and the chance they read, for
    rules that read them (``played_by_defaults``). Told before every change of the state until the
    game is over, so what a finished game holds is how things stood when it ended."""
    reader = defaults_rules(rules)
    if reader is None or rules.over(state):
        return state
    return reader.played_by_defaults(state, tuple(stood_in(table)), table.chance)


def _note_requests(rules: Ruleset, table: Table, seq: int) -> None:
    known = {pending.context for pending in table.pending} | set(table.resolved)
    for request in rules.random_requests(table.state):
        if request.context in known:
            continue
        if request.after_sealing is not None and not _all_sealed(rules, table, request.after_sealing):
            continue
        table.pending.append(Pending(request.context, seq))


def _all_sealed(rules: Ruleset, table: Table, step: str) -> bool:
    """True once every seat asked for a sealed choice in ``step`` has committed to it."""
    wanted = [
        demand.seat for demand in _wanted(rules, table) if demand.kind == "sealed" and demand.step == step
    ]
    commits = table.commitments.get(step, {})
    return bool(commits) and all(seat in commits for seat in wanted)


def _first_link_after(table: Table, seat: str, since: int) -> bytes | None:
    for seq, link in table.links.get(seat, ()):
        if seq > since:
            return link
    return None


def _contributed(table: Table, seat: str, since: int) -> bool:
    return _first_link_after(table, seat, since) is not None
