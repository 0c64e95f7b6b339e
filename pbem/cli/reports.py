"""What a game's commands and its mail say of it: where it stands (``status_report``), what each
entry did and what came of it (``log_line``, ``entry_outcomes``), and the proof of an equivocation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from pbem.engine.ledger import Ledger


def status_report(ledger: Ledger, clock: str, file: Path) -> dict[str, Any]:
    """Where the game stands at ``clock``: who must act, with the command, and each demand's
    deadline; ``overdue`` only where ``pbem timeout`` would be accepted now, with its command."""
    from pbem.engine import play as play_mod
    from pbem.engine import table as tables
    from pbem.engine.ruleset import DECK_DEMANDS

    referee = ledger.referee_waiting
    if ledger.waiting_to_join or referee is not None:
        joining = [
            {
                "seat": seat,
                "kind": "join",
                "step": "joining",
                "prompt": "join the game",
                "command": f"pbem join {file} --as {seat}",
                "note": "",
            }
            for seat in ledger.waiting_to_join
        ]
        if referee is not None:
            joining.append(
                {
                    "seat": referee,
                    "kind": "join",
                    "step": "joining",
                    "prompt": "accept as the game's referee",
                    "command": f"pbem referee {file} --as {referee}",
                    "note": "",
                }
            )
        send_to = [item["seat"] for item in joining]
        return {"phase": "joining", "over": False, "waiting": joining, "send_to": send_to}
    game = play_mod.seated(ledger)
    due = play_mod.deadlines(ledger)
    claims = {tables.demand_key(demand): demand for demand in play_mod.timeout_claims(ledger, clock).values()}
    waiting: list[dict[str, Any]] = []
    for demand in tables.demands(game.rules, game.table):
        seat = demand.seat
        waits: dict[str, list[str]] = {}
        note = ""
        if demand.kind == "reveal":
            prompt, command = f"reveal the sealed {demand.step}", f"pbem reveal {file} --as {seat}"
        elif demand.kind == "contribute":
            prompt, command = (f"add randomness to the {demand.step}", f"pbem play {file} --as {seat} roll")
        elif demand.kind == "consent":
            prompt, command = demand.prompt, f"pbem consent {file} --as {seat}"
            note = "add --decline to refuse the undo"
        elif demand.kind in DECK_DEMANDS and seat not in ledger.seats:
            prompt, command = demand.prompt, f"pbem referee {file} --as {seat}"
        elif demand.kind in DECK_DEMANDS:
            prompt, command = demand.prompt, f"pbem sync {file} --as {seat}"
            note = "or it rides in the seat's next entry"
        elif demand.kind == "commit":
            prompt, command = (f"seal a {demand.step}: {demand.prompt}", f"pbem play {file} --as {seat} MOVE")
            waits = play_mod.share_waits(ledger, seat)
        else:
            prompt = demand.prompt
            command = f"pbem play {file} --as {seat} MOVE"
            note = f"pbem moves {file} --as {seat} lists the moves"
            waits = play_mod.share_waits(ledger, seat)
        key = tables.demand_key(demand)
        waiting.append(
            {
                "seat": seat,
                "kind": demand.kind,
                "step": demand.step,
                "prompt": prompt,
                "command": command,
                "note": note,
                "deadline": due.get(key),
                "overdue": key in claims,
                "timeout": timeout_command(ledger, file, seat) if key in claims else None,
                "waiting_for_shares": waits,
            }
        )
    # a seat the others handed on: its new player takes it before anything else of it
    waiting = [
        *(
            {
                "seat": seat,
                "kind": "join",
                "step": "joining",
                "prompt": "take the seat handed on to you",
                "command": f"pbem join {file} --as {seat}",
                "note": "",
                "deadline": None,
                "overdue": False,
                "timeout": None,
                "waiting_for_shares": {},
            }
            for seat in ledger.seats
            if seat in ledger.rejoining
        ),
        *waiting,
    ]
    send_to = list(dict.fromkeys(item["seat"] for item in waiting))
    state = game.table.state
    over = game.rules.over(state)
    halted = None if game.table.decks is None else game.table.decks.halted()
    return {
        "retired": tables.retired(game.table),
        "absent": [seat for seat in tables.stood_in(game.table) if seat not in tables.retired(game.table)],
        "phase": game.rules.phase(state),
        "over": over,
        "waiting": waiting,
        "send_to": send_to,
        "halted": halted,
    }


def timeout_command(ledger: Ledger, file: Path, late: str) -> str:
    """The command that claims a timeout against ``late``: signed for a seat this home plays (any
    other seat may claim it), mailed at once in a game that travels by mail."""
    from pbem.cli.reading import own_seats

    others = [seat for seat in ledger.seats if seat != late]
    own = own_seats(ledger)
    claimant = next((seat for seat in others if seat in own), others[0])
    send = " --send" if ledger.addresses else ""
    return f"pbem timeout {file} {late} --as {claimant}{send}"


def entry_outcomes(ledger: Ledger, data: dict[str, Any]) -> list[list[str]]:
    """What came of each entry, in the ruleset's words (none before the game starts)."""
    rules = ledger.rules
    if rules is None or ledger.table is None:
        return [[] for _ in ledger.entries]
    from pbem.cli.proof_cache import for_home
    from pbem.engine import ledger as ledger_mod
    from pbem.engine.ruleset import outcomes

    states = ledger_mod.states(data, for_home())
    return [outcomes(rules, before, after) for before, after in zip([None, *states], states, strict=False)]


def log_line(ledger: Ledger, entry: dict[str, Any]) -> str:
    """What an entry did, in words, as ``pbem log`` and the mail that carries it say it."""
    carried = carried_text(entry)
    return (
        describe_entry(entry)
        + (f" [{carried}]" if entry["kind"] not in ("sync", "referee") and carried else "")
        + (" (undone)" if _void(ledger, entry) else "")
    )


def _void(ledger: Ledger, entry: dict[str, Any]) -> bool:
    return entry["kind"] == "move" and entry["seq"] in ledger.void


# The entries whose line is a template over their own fields.
_TEMPLATES = {
    "address": "mail now goes to {email}",
    "replace": "proposed handing {seat}'s seat on to {name} (silent)",
    "commit": "sealed a {step}",
    "reveal": "revealed the {step}: {value}",
    "undo": "asked to undo entry {target}",
    "timeout": "claimed that {late} let the deadline of the {step} pass",
}


def describe_entry(entry: dict[str, Any]) -> str:
    kind = entry["kind"]
    if kind in _TEMPLATES:
        return _TEMPLATES[kind].format(**entry)
    mailed = f", mail to {entry['email']}" if "email" in entry else ""
    if kind == "genesis":
        return f"created the game: {entry['ruleset']} ({entry['edition']}), seats {', '.join(entry['seats'])}"
    if kind == "join":
        return "joined" + mailed
    if kind == "note":
        return repr(entry["text"])
    if kind == "rejoin":
        return "took the seat as its new player" + mailed
    if kind == "handover":
        return f"handed the seat on to {entry['name']}{mailed}"
    if kind == "move":
        return str(entry["move"])
    if kind == "consent":
        return f"{'agreed to' if entry['agree'] else 'declined'} the undo of entry {entry['target']}"
    if kind == "sync":
        return carried_text(entry)
    if kind == "referee":
        if "escrow_key" in entry:
            return "accepted as the referee: the seats' escrows are sealed to its key"
        return "as the referee, " + carried_text(entry)
    return f"added randomness to the {entry['event']}"


def _slots(items: list[dict[str, Any]]) -> list[tuple[str, int, str | None]]:
    """Deck, slot and card of each share a list carries: a table per share, or (a compact
    group's form) a table per run of slots of one deck."""
    found: list[tuple[str, int, str | None]] = []
    for item in items:
        slots = item["slots"] if "slots" in item else [item["slot"]]
        cards = item.get("cards") or [item.get("card")] * len(slots)
        found += [(item["deck"], slot, card) for slot, card in zip(slots, cards, strict=False)]
    return found


def carried_text(entry: dict[str, Any]) -> str:
    """What an entry gave the hidden decks, in words (empty if nothing)."""
    parts = []
    if "escrow" in entry:
        parts.append("dealt its deck secret in escrow")
    if entry.get("escrow_reshares"):
        handed = ", ".join(str(item.get("seat")) for item in entry["escrow_reshares"])
        parts.append(f"sealed its share of {handed}'s secret to the new player")
    if "escrow_reshare_complaint" in entry:
        parts.append(f"complained of {entry['escrow_reshare_complaint'].get('holder')}'s resealed share")
    if entry.get("escrow_acks"):
        parts.append(f"acknowledged the escrow of {', '.join(map(str, entry['escrow_acks']))}")
    complaint = entry.get("escrow_complaint")
    if isinstance(complaint, dict):
        parts.append(f"complained that {complaint.get('dealer')}'s escrow share does not match its dealing")
    for item in entry.get("escrow_partials", []):
        slots = ", ".join(f"{item['deck']}:{slot}" for slot in item.get("slots", []))
        parts.append(f"gave partial decryptions of {item['seat']}'s share of {slots}")
    parts += [
        f"{'reshuffled' if 'slots' in item else 'shuffled'} the {item['deck']} deck"
        for item in entry.get("shuffles", [])
    ]
    shares = [f"{deck}:{slot}" for deck, slot, _ in _slots(entry.get("shares", []))]
    if shares:
        parts.append(f"gave its share{'s' if len(shares) > 1 else ''} of {', '.join(shares)}")
    parts += [f"showed {deck}:{slot}: {card}" for deck, slot, card in _slots(entry.get("face_up", []))]
    parts += [f"put {item['deck']}:{item['slot']} under the deck" for item in entry.get("remask", [])]
    return "; ".join(parts)


def print_evidence(entries: tuple[dict[str, Any], ...]) -> None:
    """Both signed entries, as TOML, so anyone can check the two signatures for themselves."""
    import tomlkit

    sys.stdout.write("# the two entries, both validly signed by the same seat:\n")
    doc = tomlkit.document()
    doc["entry"] = [dict(entry) for entry in entries]
    sys.stdout.write(tomlkit.dumps(doc))
