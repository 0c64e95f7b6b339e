"""What a game's commands and its mail say of it: where it stands (``status_report``), what each
entry did and what came of it (``log_line``, ``entry_outcomes``), and the proof of an equivocation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from pbem.engine.ledger import Ledger


def status_report(ledger: Ledger, clock: str, file: Path) -> dict[str, Any]:
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
        joining += _consents_before_start(ledger, file)
        send_to = list(dict.fromkeys(item["seat"] for item in joining))
        return {
            "phase": "joining",
            "over": False,
            "waiting": joining,
            "send_to": send_to,
            "silent": silent_report(ledger, clock, file),
        }
    game = play_mod.seated(ledger)
    due = play_mod.deadlines(ledger)
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
        else:
            prompt = demand.prompt
            command = f"pbem play {file} --as {seat} MOVE"
            note = f"pbem moves {file} --as {seat} lists the moves"
            waits = play_mod.share_waits(ledger, seat)
        deadline = due.get(tables.demand_key(demand))
        waiting.append(
            {
                "seat": seat,
                "kind": demand.kind,
                "step": demand.step,
                "prompt": prompt,
                "command": command,
                "note": note,
                "deadline": deadline,
                "overdue": deadline is not None and clock >= deadline,
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
        "phase": game.rules.phase(state),
        "over": over,
        "waiting": waiting,
        "send_to": send_to,
        "halted": halted,
        "silent": silent_report(ledger, clock, file),
    }


def _consents_before_start(ledger: Ledger, file: Path) -> list[dict[str, Any]]:
    """Before the game starts, the seats asked to consent to going on without one not joined."""
    from pbem.engine.ledger import consenting_before_start

    asked = ledger.asked
    if asked is None:
        return []
    return [
        {
            "seat": seat,
            "kind": "consent",
            "step": f"going on without {asked['drop']}",
            "prompt": f"consent to (or decline) {asked['by']}'s going on without {asked['drop']} "
            f"(entry {asked['target']})",
            "command": f"pbem consent {file} --as {seat}",
            "note": "add --decline to refuse",
        }
        for seat in consenting_before_start(ledger)
        if seat not in asked["agreed"]
    ]


def silent_report(ledger: Ledger, clock: str, file: Path) -> list[dict[str, Any]]:
    """The seats silent past their deadline before the first card, each with the commands that
    hand it to a new player and go on without it (or why either cannot be done)."""
    from pbem.engine.ledger import silent_seats

    found = []
    for silent in silent_seats(ledger, clock):
        seat, proposer = silent.seat, silent.proposer
        notes = []
        hand_over = go_on = None
        if not silent.joined:
            hand_over = f"pbem join {file} --as {seat}"  # the new player's, with their own key
        elif silent.hand_on is None:
            hand_over = f"pbem handover {file} --as {proposer} --to NAME KEYFILE --silent {seat}"
        else:
            notes.append(f"it cannot be handed to a new player: {silent.hand_on}")
        if silent.go_on is None:
            go_on = f"pbem drop {file} {seat} --as {proposer}"
        else:
            notes.append(silent.go_on)
        found.append(
            {
                "seat": seat,
                "joined": silent.joined,
                "deadline": silent.deadline,
                "hand_over": hand_over,
                "go_on_without": go_on,
                "note": "; ".join(notes),
            }
        )
    return found


def entry_outcomes(ledger: Ledger, data: dict[str, Any]) -> list[list[str]]:
    """What came of each entry, in the ruleset's words (none before the game starts), and where
    the game was set up again (a seat gone on without, or handed on before the first card)."""
    rules = ledger.rules
    said: list[list[str]] = [[] for _ in ledger.entries]
    if rules is not None and ledger.table is not None:
        from pbem.cli.proof_cache import for_home
        from pbem.engine import ledger as ledger_mod
        from pbem.engine.ruleset import outcomes

        states = ledger_mod.states(data, for_home())
        said = [
            # a game set up again is compared with nothing before it, as at the start
            outcomes(rules, None if position in ledger.setups else before, after)
            for position, (before, after) in enumerate(zip([None, *states], states, strict=False))
        ]
    for position, line in ledger.setups.items():
        said[position] = [line, *said[position]]
    return said


def log_line(ledger: Ledger, entry: dict[str, Any]) -> str:
    """What an entry did, in words, as ``pbem log`` and the mail that carries it say it."""
    carried = carried_text(entry)
    return (
        (_dropping(ledger, entry) or describe_entry(entry))
        + (f" [{carried}]" if entry["kind"] not in ("sync", "referee") and carried else "")
        + (" (undone)" if _void(ledger, entry) else "")
    )


def _dropping(ledger: Ledger, entry: dict[str, Any]) -> str | None:
    """A consent to going on without a seat, in words (None for any other entry)."""
    target = entry.get("target")
    if entry["kind"] != "consent" or type(target) is not int or not 0 <= target < len(ledger.steps):
        return None
    asked = ledger.entries[ledger.steps[target][0]]
    if asked.get("kind") != "drop":
        return None
    return (
        f"{'agreed to' if entry['agree'] else 'declined'} going on without {asked['seat']} (entry {target})"
    )


def _void(ledger: Ledger, entry: dict[str, Any]) -> bool:
    return entry["kind"] == "move" and entry["seq"] in ledger.void


# The entries whose line is a template over their own fields.
_TEMPLATES = {
    "address": "mail now goes to {email}",
    "replace": "proposed handing {seat}'s seat on to {name} (silent)",
    "drop": "proposed going on without {seat} (silent)",
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
