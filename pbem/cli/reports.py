"""What a game's commands and its mail say of it: where it stands (``status_report``), what each
entry did and what came of it (``log_line``, ``entry_outcomes``), and the proof of an equivocation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence
    from pathlib import Path

    from pbem.engine.ledger import Ledger


def status_report(
    ledger: Ledger, clock: str, file: Path | str, *, mail: bool | None = None, account: bool | None = None
) -> dict[str, Any]:
    """Where the game stands at ``clock``: who must act, each with what to do in words and the whole
    command to type, and each demand's deadline; ``overdue`` only where ``pbem timeout`` would be
    accepted now, with its command. In a game that travels by mail (``mail``; by default, when a
    seat gave an address) each command mails its entry (``--send``); a seat's join names its
    address (``--email``) unless it has one or this home's mail account gives it (``account``; by
    default, whether there is one)."""
    from pbem.engine import play as play_mod
    from pbem.engine import table as tables
    from pbem.engine.ruleset import DECK_DEMANDS, event_words

    by_mail = bool(ledger.addresses) if mail is None else mail
    send = " --send" if by_mail else ""
    if account is None:
        account = _has_account()

    def join_command(seat: str) -> str:
        address = "" if not by_mail or account or seat in ledger.addresses else " --email ADDRESS"
        return f"pbem join {file} --as {seat}{address}{send}"

    referee = ledger.referee_waiting
    if ledger.waiting_to_join or referee is not None:
        joining = [
            {
                "seat": seat,
                "kind": "join",
                "step": "joining",
                "prompt": "join the game",
                "command": join_command(seat),
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
                    "command": f"pbem referee {file} --as {referee}{send}",
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
    claims = {tables.demand_key(demand): demand for demand in play_mod.timeout_claims(ledger, clock).values()}
    waiting: list[dict[str, Any]] = []
    for demand in tables.demands(game.rules, game.table):
        seat = demand.seat
        waits: dict[str, list[str]] = {}
        note = ""
        if demand.kind == "reveal":
            prompt, command = f"reveal the sealed {demand.step}", f"pbem reveal {file} --as {seat}{send}"
            if tables.opening(game.table, demand):
                note = f"the others are opening it from {seat}'s escrow"
        elif demand.kind == "contribute":
            prompt = f"add randomness to the {event_words(game.rules, demand.step)}"
            command = f"pbem play {file} --as {seat} roll{send}"
        elif demand.kind == "consent":
            prompt, command = demand.prompt, f"pbem consent {file} --as {seat}{send}"
            asked = "handover" if demand.step.startswith("handover of ") else "undo"
            note = f"add --decline to refuse the {asked}"
        elif demand.kind in DECK_DEMANDS and seat not in ledger.seats:
            prompt, command = demand.prompt, f"pbem referee {file} --as {seat}{send}"
        elif demand.kind in DECK_DEMANDS:
            prompt, command = demand.prompt, f"pbem sync {file} --as {seat}{send}"
            note = "or it rides in the seat's next entry"
        elif demand.kind == "commit":
            prompt = f"seal a {demand.step}: {demand.prompt}"
            command = f"pbem play {file} --as {seat} MOVE{send}"
            waits = play_mod.share_waits(ledger, seat)
        else:
            prompt = demand.prompt
            command = f"pbem play {file} --as {seat} MOVE{send}"
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
                "timeout": timeout_command(ledger, file, seat, send) if key in claims else None,
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
                "command": join_command(seat),
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
        # only the new player's key tells a bad share sealed to it: the file cannot ask for the
        # complaint, so the player is told to look until it signs an entry after the shares
        *(
            {
                "seat": seat,
                "kind": "escrow",
                "step": f"shares of {seat}'s secret",
                "prompt": (
                    f"check the shares of {seat}'s secret sealed to you, and complain of one that does "
                    f"not match {seat}'s escrow"
                ),
                "command": f"pbem sync {file} --as {seat}{send}",
                "note": "it makes the complaint, or says that every share matches",
                "deadline": None,
                "overdue": False,
                "timeout": None,
                "waiting_for_shares": {},
            }
            for seat in ledger.seats
            if play_mod.reshares_to_check(ledger, seat)
        ),
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
        "silent": silent_report(ledger, clock, file),
    }


def overtaken_lines(
    ledger: Ledger, overtaken: Sequence[Mapping[str, Any]], own: Collection[str], game: str
) -> list[str]:
    """A line for each entry the game went on without (``ledger.merge``): its seat makes it again
    on the history that went on, and a seat of this home (``own``) is given the command that does
    (``game``: the file or id it names the game by)."""
    lines = []
    for entry in overtaken:
        seat, kind = entry["by"], entry.get("kind", "entry")
        said = (
            f"{seat}'s {kind} of step {entry['seq']} was overtaken: the game went on without it, "
            "made at the same time as another's"
        )
        again = remake_command(ledger, entry, game) if seat in own else None
        lines.append(
            f"{said}; make it again: {again}" if again else f"{said}; {seat} makes it again on this copy"
        )
    return lines


def timeout_command(ledger: Ledger, file: Path | str, late: str, send: str) -> str:
    """The command that claims a timeout against ``late``: signed for a seat this home plays (any
    other seat may claim it), mailed at once (``send``) in a game that travels by mail."""
    from pbem.cli.reading import own_seats

    others = [seat for seat in ledger.seats if seat != late]
    own = own_seats(ledger)
    claimant = next((seat for seat in others if seat in own), others[0])
    return f"pbem timeout {file} {late} --as {claimant}{send}"


def remake_command(ledger: Ledger, entry: Mapping[str, Any], game: str) -> str | None:
    """The command that makes an overtaken entry again, where one command does (None: the seat
    does what status asks of it)."""
    from shlex import quote

    seat, kind = entry["by"], entry.get("kind")
    send = " --send" if ledger.addresses else ""
    if kind == "join":
        email = f" --email {quote(entry['email'])}" if "email" in entry else ""
        return f"pbem join {quote(game)} --as {seat}{email}{send}"
    if kind == "note":
        return f"pbem note {quote(game)} {quote(str(entry['text']))} --as {seat}{send}"
    if kind == "move":
        return f"pbem play {quote(game)} --as {seat} {quote(str(entry['move']))}{send}"
    if kind == "contribute":
        return f"pbem play {quote(game)} --as {seat} roll{send}"
    if kind in ("reveal", "sync", "undo"):
        return f"pbem {kind} {quote(game)} --as {seat}{send}"
    if kind == "consent":
        decline = "" if entry.get("agree") else " --decline"
        return f"pbem consent {quote(game)} --as {seat}{decline}{send}"
    if kind == "timeout":
        return f"pbem timeout {quote(game)} {entry['late']} --as {seat}{send}"
    if kind == "address":
        return f"pbem mail address {quote(game)} {quote(str(entry['email']))} --as {seat}{send}"
    return None


def _has_account() -> bool:
    """Whether this home has a mail account whose address ``pbem join`` gives; one that cannot be
    read gives none (``pbem mail`` commands say what is wrong with it)."""
    from pbem.cli.sending import mail_account
    from pbem.errors import PbemError

    try:
        return mail_account() is not None
    except PbemError:
        return False


def _consents_before_start(ledger: Ledger, file: Path | str) -> list[dict[str, Any]]:
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


def silent_report(ledger: Ledger, clock: str, file: Path | str) -> list[dict[str, Any]]:
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


def grouped(waiting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each seat owes the hidden decks, said once per seat, as status, the inbox and a game's
    mail say it: a deal asks every seat for a share of each card the others draw, and one ``pbem
    sync`` (or the seat's next entry) gives them all."""
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
        item = owed[wanted["seat"]]
        item["prompts"].append(wanted["prompt"])
        if wanted.get("overdue") and not item.get("overdue"):
            item.update(overdue=True, timeout=wanted["timeout"], deadline=wanted["deadline"])
    for item in owed.values():
        prompts = item.pop("prompts")
        shares = [prompt for prompt in prompts if prompt.startswith("give a decryption share")]
        partials = [prompt for prompt in prompts if prompt.startswith("give a partial decryption")]
        others = [prompt for prompt in prompts if prompt not in shares and prompt not in partials]
        said = list(dict.fromkeys(others))
        if len(shares) > 1:
            said.append(f"give its decryption shares of {len(shares)} cards")
        elif shares:  # the card in words, as the log says it, not by its token
            said.append("give its decryption share of a card")
        if len(partials) > 1:
            silent = sorted({prompt.split("'s share of ")[0].rpartition(" of ")[2] for prompt in partials})
            said.append(
                f"give partial decryptions of {len(partials)} of {', '.join(silent)}'s shares (silent)"
            )
        else:
            said += partials
        item["prompt"] = "; ".join(said)
    return shown


def to_do(waiting: list[dict[str, Any]], seats: Collection[str]) -> list[dict[str, Any]]:
    """What ``seats`` are asked to do, of ``waiting`` as ``grouped`` gives it, for the player who
    holds them: what a seat owes the hidden decks rides with its move, so is said alone only when
    it is all the seat is asked for."""
    from pbem.engine.ruleset import DECK_DEMANDS

    mine = [wanted for wanted in waiting if wanted["seat"] in seats]
    moving = {wanted["seat"] for wanted in mine if wanted["kind"] not in DECK_DEMANDS}
    return [wanted for wanted in mine if wanted["kind"] not in DECK_DEMANDS or wanted["seat"] not in moving]


def log_line(ledger: Ledger, entry: dict[str, Any]) -> str:
    """What an entry did, in words, as ``pbem log`` and the mail that carries it say it."""
    carried = carried_text(entry)
    return (
        (_dropping(ledger, entry) or describe_entry(entry, ledger))
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


def describe_entry(entry: dict[str, Any], ledger: Ledger | None = None) -> str:
    """What an entry did, in words; ``ledger`` (the game it is in) names what the entry's fields
    only point at: the request a consent answers, what a random event is for."""
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
        return _consent_text(entry, ledger)
    if kind == "sync":
        return carried_text(entry)
    if kind == "referee":
        if "escrow_key" in entry:
            return "accepted as the referee: the seats' escrows are sealed to its key"
        return "as the referee, " + carried_text(entry)
    event = str(entry["event"])
    if ledger is not None and ledger.rules is not None:
        from pbem.engine.ruleset import event_words

        event = event_words(ledger.rules, event)
    return f"added randomness to the {event}"


def _consent_text(entry: dict[str, Any], ledger: Ledger | None) -> str:
    """A consent, named for what it answers: a handover (a proposal to hand a silent seat on) or
    an undo."""
    target = entry["target"]
    asked = None
    if ledger is not None and 0 <= target < len(ledger.steps):
        entries = [ledger.entries[position] for position in ledger.steps[target]]
        asked = next((one for one in entries if one["kind"] == "replace"), None)
    if asked is not None:
        what = f"{asked['seat']}'s seat to {asked['name']} (entry {target})"
        return f"{'gave' if entry['agree'] else 'refused'} its handover consent: {what}"
    return f"{'agreed to' if entry['agree'] else 'declined'} the undo of entry {target}"


def _slots(items: list[dict[str, Any]]) -> list[tuple[str, int, str | None]]:
    """Deck, slot and card of each share a list carries: a table per share, or (a compact
    group's form) a table per run of slots of one deck."""
    found: list[tuple[str, int, str | None]] = []
    for item in items:
        slots = item["slots"] if "slots" in item else [item["slot"]]
        cards = item.get("cards") or [item.get("card")] * len(slots)
        found += [(item["deck"], slot, card) for slot, card in zip(slots, cards, strict=False)]
    return found


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def carried_text(entry: dict[str, Any]) -> str:
    """What an entry gave the hidden decks, in words (empty if nothing): as status asks for it,
    counted, never a line per card."""
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
    partials: dict[str, int] = {}
    for item in entry.get("escrow_partials", []):
        from pbem.engine import escrows

        step = escrows.sealed_step(str(item.get("deck", "")))
        if step is not None:
            parts.append(f"gave its partial decryption opening {item['seat']}'s sealed {step} (kept back)")
            continue
        partials[str(item["seat"])] = partials.get(str(item["seat"]), 0) + len(item.get("slots", []))
    parts += [
        f"gave partial decryptions of {seat}'s shares of {_cards(count)} ({seat} is silent)"
        for seat, count in partials.items()
    ]
    parts += [
        f"{'reshuffled' if 'slots' in item else 'shuffled'} the {item['deck']} deck"
        for item in entry.get("shuffles", [])
    ]
    shares = _slots(entry.get("shares", []))
    if len(shares) == 1:
        parts.append("gave its decryption share of a card")
    elif shares:
        parts.append(f"gave its decryption shares of {_cards(len(shares))}")
    shown = [card or "a card" for _, _, card in _slots(entry.get("face_up", []))]
    if shown:
        parts.append(f"showed {', '.join(shown)}")
    remasked = entry.get("remask", [])
    if remasked:
        parts.append(f"put {'a card' if len(remasked) == 1 else _cards(len(remasked))} under the deck")
    return "; ".join(parts)


def print_evidence(entries: tuple[dict[str, Any], ...]) -> None:
    """Both signed entries, as TOML, so anyone can check the two signatures for themselves."""
    import tomlkit

    sys.stdout.write("# the two entries, both validly signed by the same seat:\n")
    doc = tomlkit.document()
    doc["entry"] = [dict(entry) for entry in entries]
    sys.stdout.write(tomlkit.dumps(doc))
