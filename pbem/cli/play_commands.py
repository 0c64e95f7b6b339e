"""``pbem status``, ``moves``, ``play``, ``reveal``, ``sync``, ``log`` and ``show``: playing a game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.appending import (
    FILE,
    JSON,
    KEY,
    SEAT,
    SEND,
    Asked,
    append_command,
    entry_command,
    read_game,
    signing_key,
    write_entries,
)
from pbem.cli.columns import pad
from pbem.cli.common import HTML, PNG, SVG, echo_wrapped, info, now, print_json, reported
from pbem.cli.mail_commands import send_after

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger
    from pbem.engine.ruleset import Demand, Ruleset
    from pbem.engine.table import Table


def status(file: Path = FILE, as_json: bool = JSON) -> None:
    """Where the game stands: who must act, what each must provide, deadlines and who is late."""
    with reported():
        _, ledger = read_game(file)
        report = status_report(ledger, now(), file)
        if as_json:
            print_json(report)
            return
        echo_wrapped(f"{ledger.info.title} ({ledger.edition}), game {ledger.game_id}, {ledger.size()}")
        echo_wrapped(f"phase: {report['phase']}")
        for line in _stood_in_lines(ledger):
            echo_wrapped(line)
        if report.get("halted"):
            echo_wrapped(report["halted"])
        elif report["over"] and not report["waiting"]:
            echo_wrapped(f"the game is over: pbem show {file} gives the final score")
        elif not report["waiting"]:
            echo_wrapped("nobody needs to act")
        for wanted in _grouped(report["waiting"]):
            echo_wrapped(wanted["prompt"], first=f"  {pad(wanted['seat'], 12)} ", indent=15)
            echo_wrapped(wanted["command"] + (f"  ({wanted['note']})" if wanted["note"] else ""), indent=15)
            if wanted.get("waiting_for_shares"):
                waits = "; ".join(
                    f"{token} waits for the shares of {', '.join(seats)}"
                    for token, seats in wanted["waiting_for_shares"].items()
                )
                echo_wrapped(f"(cannot act on it yet: {waits})", indent=15)
            if wanted.get("deadline"):
                late = "  OVERDUE: any other player may claim a timeout" if wanted["overdue"] else ""
                echo_wrapped(f"deadline {wanted['deadline']}{late}", indent=15)
        if report["send_to"] and ledger.addresses:
            echo_wrapped("the moves travel by mail: pbem mail fetch brings the others' moves")
        elif report["send_to"]:
            echo_wrapped(f"send the file to: {', '.join(report['send_to'])}")
            if len(report["send_to"]) > 1:
                echo_wrapped(
                    "(each may work on a copy at the same time; combine the copies with pbem merge)", indent=2
                )


def _stood_in_lines(ledger: Ledger) -> list[str]:
    """A line for each seat the rules' defaults now play, having missed too many deadlines."""
    from pbem.engine import table as tables

    if ledger.table is None:
        return []
    after = ledger.table.retire_after
    return [
        f"{seat} missed {after} deadline{'s' if after != 1 else ''}: the rules' defaults play it for "
        "the rest of the game"
        for seat in tables.retired(ledger.table)
    ]


def _grouped(waiting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each seat owes the hidden decks, said once per seat: a deal asks every seat for a share
    of each card the others draw, and one ``pbem sync`` (or the seat's next entry) gives them all."""
    from pbem.engine.ruleset import DECK_DEMANDS

    shown: list[dict[str, Any]] = []
    owed: dict[str, dict[str, Any]] = {}
    for wanted in waiting:
        if wanted["kind"] not in DECK_DEMANDS:
            shown.append(wanted)
            continue
        if wanted["seat"] not in owed:
            owed[wanted["seat"]] = {**wanted, "prompts": []}
            shown.append(owed[wanted["seat"]])
        owed[wanted["seat"]]["prompts"].append(wanted["prompt"])
    for item in owed.values():
        prompts = item.pop("prompts")
        shares = [prompt for prompt in prompts if prompt.startswith("give a decryption share")]
        partials = [prompt for prompt in prompts if prompt.startswith("give a partial decryption")]
        others = [prompt for prompt in prompts if prompt not in shares and prompt not in partials]
        said = list(dict.fromkeys(others))
        if len(shares) > 1:
            said.append(f"give its decryption shares of {len(shares)} cards")
        else:
            said += shares
        if len(partials) > 1:
            silent = sorted({prompt.split("'s share of ")[0].rpartition(" of ")[2] for prompt in partials})
            said.append(
                f"give partial decryptions of {len(partials)} of {', '.join(silent)}'s shares (silent)"
            )
        else:
            said += partials
        item["prompt"] = "; ".join(said)
    return shown


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
        send_to = [item["seat"] for item in joining]
        return {"phase": "joining", "over": False, "waiting": joining, "send_to": send_to}
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
    }


def moves(
    file: Path = FILE,
    seat: str = SEAT,
    as_json: bool = JSON,
) -> None:
    """Every move a seat may make now, in the exact text 'pbem play' accepts."""
    with reported():
        from pbem.engine import play as play_mod
        from pbem.engine.ruleset import DECK_DEMANDS

        _, ledger = read_game(file, seat=seat)
        play_mod.seated(ledger)
        hand = _hand(ledger, seat)
        demand, report = moves_report(ledger, seat, hand)
        texts, free, notes, waits = (
            report["moves"],
            report["free"],
            report["notes"],
            report["waiting_for_shares"],
        )
        if as_json:
            print_json(report)
            return
        if demand is None:
            info(f"{seat} has nothing to do now" + (" but the moves open at any time" if free else ""))
        elif demand.kind == "reveal":
            info(f"{seat} must reveal the sealed {demand.step}: pbem reveal {file} --as {seat}")
        elif demand.kind in DECK_DEMANDS:
            info(f"{seat} must {demand.prompt}: pbem sync {file} --as {seat}")
        for token, seats in waits.items():
            info(
                f"{token} cannot be read yet, so its plays are not listed: waiting for the shares of "
                f"{', '.join(seats)}"
            )
        width = max((len(text) for text in notes), default=0)
        for text in _ranges(texts):
            note = notes.get(text)
            typer.echo(f"{text:<{width}}  ({note})" if note else text)
        if free:
            typer.echo("at any time:")
            for text in _ranges(free):
                typer.echo(f"  {text}")


def moves_report(
    ledger: Ledger, seat: str, hand: dict[str, str | None] | None
) -> tuple[Demand | None, dict[str, Any]]:
    """The seat's demand, and what ``pbem moves --json`` prints (docs/json.md)."""
    from pbem.engine import play as play_mod

    demand, texts = play_mod.legal(ledger, seat, hand)
    return demand, {
        "seat": seat,
        "kind": demand.kind if demand else None,
        "moves": texts,
        "free": [text for text in play_mod.free_moves(ledger, seat) if text not in texts],
        "notes": play_mod.move_notes(ledger, texts, hand or {}),
        "waiting_for_shares": play_mod.share_waits(ledger, seat),
    }


def _hand(ledger: Ledger, seat: str) -> dict[str, str | None] | None:
    """The hidden cards ``seat`` holds, read with its key; {} if it holds none (no key needed),
    None if its key cannot be opened here (the rules' moves are then listed unfiltered)."""
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError

    if not play_mod.held(ledger, seat) or seat not in ledger.roster:
        return {}
    try:
        secret = signing_key(ledger, seat, None)
    except PbemError as exc:
        info(f"(card plays not filtered by your hand: {exc})")
        return None
    return play_mod.hidden_hand(ledger, seat, secret)


def _ranges(texts: list[str]) -> list[str]:
    """Moves that differ only in one number, shown once as ``LOW..HIGH`` in its place: a player
    may bid (or give) any amount in the range (``--json`` lists every move)."""
    shown: list[tuple[str, ...] | str] = []
    runs: dict[tuple[str, ...], list[int]] = {}
    for text in texts:
        words = text.split(" ")
        numbers = [index for index, word in enumerate(words) if word.isdigit()]
        if len(numbers) != 1:
            shown.append(text)
            continue
        at = numbers[0]
        shape = (*words[:at], "\0", *words[at + 1 :])
        if shape not in runs:
            runs[shape] = []
            shown.append(shape)
        runs[shape].append(int(words[at]))
    lines = []
    for item in shown:
        if isinstance(item, str):
            lines.append(item)
            continue
        numbers = runs[item]
        if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
            values = [f"{numbers[0]}..{numbers[-1]}"]
        else:
            values = [str(number) for number in numbers]
        lines.extend(" ".join(value if word == "\0" else word for word in item) for value in values)
    return lines


def play(
    file: Path = FILE,
    move: list[str] = typer.Argument(..., help="The move, e.g. bid 15 (quotes optional)."),
    seat: str = SEAT,
    key: str | None = KEY,
    send: bool = SEND,
) -> None:
    """Make a move: checked against the rules, signed, appended. Secret choices are sealed."""
    with reported():
        from pbem.engine import play as play_mod

        loaded, ledger = read_game(file, writing=True, seat=seat)
        text = " ".join(move)
        play_mod.seated(ledger)
        if play_mod.owed_reveal(ledger, seat) is None:
            play_mod.precheck(ledger, seat, text)  # refuse an illegal move before asking for a key
        secret = signing_key(ledger, seat, key)
        made: list[dict[str, Any]] = []
        current = ledger
        if play_mod.owed_reveal(current, seat) is not None:  # a reveal that is due goes first
            current, entry = play_mod.reveal(current, seat, secret, now())
            made.append(entry)
        current, entry = play_mod.play(current, seat, text, secret, now())
        made.append(entry)
        write_entries(loaded, made, current)
        # Said only now that both are written: a refused move leaves no reveal behind either.
        for one in made[:-1]:
            info(f"{seat} revealed the sealed {one['step']}: {one['value']} (entry {one['seq']})")
        if any(carried_text(one) for one in made):
            info(f"{seat} also {'; '.join(carried_text(one) for one in made if carried_text(one))}")
        if entry["kind"] == "commit":
            info(
                f"{seat} sealed a {entry['step']} (entry {entry['seq']}); "
                "it stays secret until every seat has sealed theirs"
            )
        elif entry["kind"] == "contribute":
            info(f"{seat} added randomness to the {entry['event']} (entry {entry['seq']})")
        else:
            info(f"{seat} played {entry['move']!r} (entry {entry['seq']})")
        _next(current, file, seat, send=send)
    if send:
        send_after(file, seat)


def _seat_entry(
    doc: str, check: str, make: str, message: Callable[[str, dict[str, Any]], str]
) -> Callable[..., None]:
    """A play command by which a seat signs an entry that asks nothing but the seat: ``check`` and
    ``make`` of pbem.engine.play; then what the entry did (``message``) and what comes next."""

    def said(asked: Asked, current: Ledger, entry: dict[str, Any]) -> None:
        info(message(asked.seat, entry))
        _next(current, asked.file, asked.seat, send=asked.send)

    return entry_command(doc, f"pbem.engine.play:{check}", f"pbem.engine.play:{make}", said)


sync = _seat_entry(
    "Send what you owe the hidden decks (your shuffle, shares of others' draws) on its own.",
    "check_sync",
    "sync",
    lambda seat, entry: f"{seat} {carried_text(entry) or 'synced'} (entry {entry['seq']})",
)


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


reveal = _seat_entry(
    "Reveal your sealed choice once every seat has sealed theirs.",
    "owed_reveal_or_refuse",
    "reveal",
    lambda seat, entry: (
        f"{seat} revealed the sealed {entry['step']}: {entry['value']} (entry {entry['seq']})"
    ),
)


def timeout(
    file: Path = FILE,
    late: str = typer.Argument(..., help="The seat that let its deadline pass."),
    seat: str = typer.Option(..., "--as", help="Your seat (the claimant)."),
    key: str | None = KEY,
    send: bool = SEND,
) -> None:
    """Claim that a seat let its deadline pass; the rules' default is applied for it."""
    from pbem.engine import play as play_mod

    at = now()
    append_command(
        file,
        seat,
        key,
        lambda ledger: play_mod.check_timeout_now(ledger, seat, late, at),
        lambda ledger, secret, _: play_mod.timeout(ledger, seat, late, secret, at),
        _told(
            file,
            seat,
            lambda _, entry: (
                f"{seat} claimed that {late} let the deadline of the {entry['step']} pass "
                f"(entry {entry['seq']})"
            ),
            send,
        ),
        send=send,
    )


undo = _seat_entry(
    "Ask to take back your last move; it is undone once every other player consents.",
    "check_undo",
    "ask_undo",
    lambda seat, entry: f"{seat} asked to undo entry {entry['target']}; play waits for the others' consent",
)


def consent(
    file: Path = FILE,
    seat: str = SEAT,
    decline: bool = typer.Option(False, "--decline", help="Refuse the undo (or handover) instead."),
    key: str | None = KEY,
    send: bool = SEND,
) -> None:
    """Agree to (or decline) a player's request: to undo their last move, or to hand a seat on.

    A seat is handed on by the others only when its player went silent (pbem handover --silent)."""
    from pbem.engine import play as play_mod

    def answered(current: Ledger, entry: dict[str, Any]) -> str:
        target = entry["target"]
        handed = [past[-1] for past in current.handovers.values() if past[-1].seq == entry["seq"]]
        asked = current.entries[_position(current, target)]
        if asked["kind"] == "replace":
            what = f"handing {asked['seat']}'s seat on to {asked['name']}"
            if decline:
                return f"{seat} declined {what}; play goes on"
            if handed:
                return (
                    f"{asked['seat']}'s seat is handed on to {asked['name']}, who takes it with: pbem join "
                    f"{file} --as {asked['seat']}"
                )
            return f"{seat} agreed to {what}"
        if decline:
            return f"{seat} declined the undo of entry {target}; play goes on"
        if target in current.void:
            return f"entry {target} is undone (it stays in the file, marked void)"
        return f"{seat} agreed to undo entry {target}"

    append_command(
        file,
        seat,
        key,
        lambda ledger: play_mod.check_answer(ledger, seat, not decline),
        lambda ledger, secret, at: play_mod.answer_undo(ledger, seat, not decline, secret, at),
        _told(file, seat, answered, send),
        send=send,
    )


def _position(ledger: Ledger, seq: int) -> int:
    """Where in the file the entry of step ``seq`` is (the first of its step)."""
    return ledger.steps[seq][0]


def _told(
    file: Path, seat: str, message: Callable[[Ledger, dict[str, Any]], str], send: bool
) -> Callable[[Ledger, dict[str, Any]], None]:
    """What a play command says once its entry is written: what the entry did, then what comes
    next (``_next``)."""

    def said(current: Ledger, entry: dict[str, Any]) -> None:
        info(message(current, entry))
        _next(current, file, seat, send=send)

    return said


def _next(ledger: Ledger, file: Path, seat: str, *, send: bool) -> None:
    from pbem.cli.appending import send_advice

    report = status_report(ledger, now(), file)
    advice = send_advice(ledger, seat, report["send_to"], sent=send)
    if advice:
        info(f"{report['phase']}: {advice}")


def log(file: Path = FILE, as_json: bool = JSON) -> None:
    """The history: one line per entry, and under it what came of it.

    An auction won, a war decided, a round's income, the final score."""
    with reported():
        loaded, ledger = read_game(file)
        said = entry_outcomes(ledger, loaded.data)
        items = [
            {
                "seq": entry["seq"],
                "by": entry["by"],
                "kind": entry["kind"],
                "what": log_line(ledger, entry),
                "outcomes": outcomes,
            }
            for entry, outcomes in zip(ledger.entries, said, strict=True)
        ]
        if as_json:
            print_json(items)
            return
        for item in items:
            typer.echo(log_text(item["seq"], item["by"], item["kind"], item["what"]))
            for line in item["outcomes"]:
                typer.echo(OUTCOME_INDENT + line)


# Outcome lines sit under the move's text, past the seq, seat and kind columns of ``log_text``.
OUTCOME_INDENT = " " * 30


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


def log_text(seq: int, by: str, kind: str, what: str) -> str:
    return f"{seq:>4}  {pad(by, 12)} {kind:<10} {what}"


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


def sealing(rules: Ruleset, table: Table) -> list[dict[str, Any]]:
    """Each sealed step not yet revealed: the seats that have sealed their choice (values hidden)
    and those still to seal, so a view says what every seat has done."""
    from pbem.engine import table as tables

    to_seal: dict[str, list[str]] = {}
    for demand in tables.demands(rules, table):
        if demand.kind == "commit":
            to_seal.setdefault(demand.step, []).append(demand.seat)
    steps = dict.fromkeys([*table.sealed, *to_seal])
    found = []
    for step in steps:
        hidden = table.revealed.get(step, set())
        sealed = sorted(seat for seat in table.sealed.get(step, {}) if seat not in hidden)
        if sealed or to_seal.get(step):
            found.append({"step": step, "sealed": sealed, "to_seal": to_seal.get(step, [])})
    return found


def shown_view(rules: Ruleset, table: Table, seat: str | None) -> dict[str, Any]:
    """What ``pbem show --json`` prints (docs/json.md), but for the secrets ``--as`` adds."""
    return rules.view(table.state, seat) | {"sealed": sealing(rules, table)}


def show(
    file: Path = FILE,
    seat: str | None = typer.Option(None, "--as", help="Also show this seat's secrets (needs its key)."),
    key: str | None = typer.Option(None, "--key", help="Key to open secrets with (default: the seat name)."),
    as_json: bool = JSON,
    svg: Path | None = SVG,
    html: Path | None = HTML,
    png: Path | None = PNG,
) -> None:
    """The game state as tables; with --as, that seat's private information too.

    --svg, --html and --png draw it instead (with --as, that seat's hidden cards included)."""
    with reported():
        from pbem.engine import play as play_mod

        loaded, ledger = read_game(file, seat=seat)
        game = play_mod.seated(ledger)
        view = shown_view(game.rules, game.table, seat)
        private: dict[str, str] = {}
        hand: dict[str, str | None] = {}
        if seat is not None:
            secret = signing_key(ledger, seat, key)
            for step, sealed in game.table.sealed.items():
                if seat in sealed and seat not in game.table.revealed.get(step, set()):
                    private[step] = play_mod.sealed_value(ledger, seat, step, secret).value
            hand = play_mod.hidden_hand(ledger, seat, secret)
        secrets = {"private": private, "hand": hand} if seat is not None else {}
        if svg or html or png:
            from pbem.cli import pictures

            said = entry_outcomes(ledger, loaded.data)
            log = [
                "\n".join(
                    [
                        log_text(entry["seq"], entry["by"], entry["kind"], log_line(ledger, entry)),
                        *(OUTCOME_INDENT + line for line in outcomes),
                    ]
                )
                for entry, outcomes in zip(ledger.entries, said, strict=True)
            ]
            pictures.write(
                game=ledger.info.name,
                title=ledger.info.title,
                view=view | secrets,
                seat=seat,
                log=log,
                svg_path=svg,
                html_path=html,
                png_path=png,
            )
            return
        if as_json:
            print_json(view | secrets)
            return
        from pbem.render.state import render

        render(ledger.info.name, ledger.info.title, view, private)
        for line in _stood_in_lines(ledger):
            typer.echo(line)
        for name, card in hand.items():
            shown = card if card is not None else "not readable yet: " + play_mod.share_wait(ledger, name)
            typer.echo(f"your hidden card {name}: {shown} (only you can see this)")
