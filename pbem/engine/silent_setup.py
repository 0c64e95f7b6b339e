"""A seat silent before the first card.

Until a card of a hidden deck is dealt to anyone or shown, nothing is hidden: nobody needs a
silent seat's key, or its escrow, to go on. Once the seat has let a deadline pass (a demand of
its is past its deadline, or a timeout was claimed against it), any other seat may propose, and
every other seat consent to:

- handing the seat to a new player (``replace``, then the new player's ``rejoin``): the new
  player takes it with keys of its own, its deck key and escrow receiving key among them, and the
  hidden decks and their escrow are set up again under the new keys; what the rules hold is kept;
- going on without it (``drop``), where the game's rules allow the count of players left: the
  game is set up again for the seats left, in their order (its components, what its set-up
  deals).

Before every seat has joined there is no table yet: a seat that has not joined by the game's
deadline (``deadline_days`` after the genesis entry) can be gone on without the same way (the
seats that have joined consent), and a new player takes such a seat by joining it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem.engine import table as tables
from pbem.engine.ruleset import Ruleset
from pbem.engine.table import Table
from pbem.errors import IllegalMoveError


def before_first_card(table: Table) -> bool:
    """Nothing is hidden yet: the game has hidden decks, and none has dealt or shown a card."""
    decks = table.decks
    return decks is not None and decks.halted() is None and decks.nothing_dealt()


def not_silent(rules: Ruleset, table: Table, seat: str, at: str, days: int) -> str | None:
    """Why ``seat`` has let no deadline pass at ``at``, or None when it has: a timeout was claimed
    against it, or something it owes now is past its deadline."""
    if table.missed.get(seat, 0) >= 1:
        return None
    if days <= 0:
        return "this game has no deadlines (option deadline_days is 0), so no seat is ever past one"
    due = deadline(rules, table, seat, days)
    if due is None:
        return f"{seat} owes nothing now, so it has let no deadline pass"
    if at < due:
        return f"{seat}'s deadline is {due}: the others may stand in for it only after it"
    return None


def deadline(rules: Ruleset, table: Table, seat: str, days: int) -> str | None:
    """The first deadline of what ``seat`` owes now (None: it owes nothing, or no deadlines)."""
    due = [
        found
        for demand in tables.demands(rules, table)
        if demand.seat == seat and (found := tables.deadline(table, demand, days)) is not None
    ]
    return min(due, default=None)


def join_deadline(created: str, days: int) -> str | None:
    """When a seat that has not joined is past its deadline: ``days`` after the game was made
    (None: the game has no deadlines)."""
    if days <= 0:
        return None
    start = datetime.strptime(created, tables.TIME_FORMAT).replace(tzinfo=UTC)
    return (start + timedelta(days=days)).strftime(tables.TIME_FORMAT)


def propose_drop(table: Table, seat: str, silent: str, seq: int) -> None:
    """``seat`` proposes going on without the silent seat (entry ``seq``): play waits for every
    other seat's consent, as for an undo (``table.consenting``); the last one sets ``dropped``."""
    tables.check_no_undo_pending(table)
    if silent not in table.seats or silent == seat:
        raise IllegalMoveError(f"{seat} cannot go on without {silent!r}: name another seat of the game")
    gone = [other for other in tables.retired(table) if other not in (seat, silent)]
    if gone:
        # a retired seat's consent is declined for it (``table.retired``), and the seats asked
        # must be the ones every reader of the file can count without the rules
        raise IllegalMoveError(
            f"{gone[0]} is retired and cannot consent: hand its seat to a new player first "
            f"(pbem handover FILE --as {seat} --to NAME KEYFILE --silent {gone[0]})"
        )
    table.undo = {"by": seat, "target": seq, "agreed": set(), "drop": silent}
