"""``pbem status``, ``moves``, ``play``, ``reveal``, ``sync``, ``log`` and ``show``: playing a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    answered,
    append_command,
    computers_after,
    entry_command,
    signing_key,
    write_entries,
)
from pbem.cli.columns import pad
from pbem.cli.common import HTML, PNG, SVG, echo_wrapped, info, now, print_json, reported
from pbem.cli.reading import editing, read_game
from pbem.cli.reports import carried_text, entry_outcomes, grouped, log_line, status_report

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger
    from pbem.engine.ruleset import Demand, Ruleset
    from pbem.engine.table import Table


def status(file: Path = FILE, as_json: bool = JSON) -> None:
    """Where the game stands: who must act, what each must provide, deadlines and who is late."""
    with reported():
        _, ledger = read_game(file, remembered=True)
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
        for wanted in grouped(report["waiting"]):
            echo_wrapped(wanted["prompt"], first=f"  {pad(wanted['seat'], 12)} ", indent=15)
            echo_wrapped(wanted["command"] + (f"  ({wanted['note']})" if wanted["note"] else ""), indent=15)
            if wanted.get("waiting_for_shares"):
                echo_wrapped(f"(cannot act on it yet: {_waits(wanted['waiting_for_shares'])})", indent=15)
            for line in _deadline_lines(wanted, report.get("absent", [])):
                echo_wrapped(line, indent=15)
        for silent in report["silent"]:
            _say_silent(silent)
        if report["send_to"] and ledger.addresses:
            echo_wrapped("the moves travel by mail: pbem mail fetch brings the others' moves")
        elif report["send_to"]:
            echo_wrapped(f"send the file to: {', '.join(report['send_to'])}")
            if len(report["send_to"]) > 1:
                echo_wrapped(
                    "(each may work on a copy at the same time; combine the copies with pbem merge)", indent=2
                )


def _say_silent(silent: dict[str, Any]) -> None:
    """A seat silent past its deadline before the first card, and what the others may do."""
    seat, deadline = silent["seat"], silent["deadline"]
    since = f" ({deadline})" if deadline else ""
    may = "; the others may" if silent["hand_over"] or silent["go_on_without"] else ""
    if silent["joined"]:
        echo_wrapped(
            f"silent past its deadline{since} before the first card{may}",
            first=f"  {pad(seat, 12)} ",
            indent=15,
        )
        hand_over = "hand the seat to a new player (who then joins as " + seat + "): "
    else:
        echo_wrapped(f"has not joined by its deadline{since}{may}", first=f"  {pad(seat, 12)} ", indent=15)
        hand_over = "let a new player take the seat, with their own key: "
    if silent["hand_over"]:
        echo_wrapped(hand_over + silent["hand_over"], indent=15)
    if silent["go_on_without"]:
        echo_wrapped(
            ("or " if silent["hand_over"] else "")
            + "go on without it (the others consent): "
            + silent["go_on_without"],
            indent=15,
        )
    if silent["note"]:
        echo_wrapped(f"({silent['note']})", indent=15)


def _waits(waiting: dict[str, list[str]]) -> str:
    """The cards a seat cannot read yet, grouped by the seats whose shares they wait for:
    ``building:3, building:4 wait for the shares of c``."""
    by_seats: dict[tuple[str, ...], list[str]] = {}
    for token, seats in waiting.items():
        by_seats.setdefault(tuple(seats), []).append(token)
    return "; ".join(
        f"{', '.join(tokens)} wait{'s' if len(tokens) == 1 else ''} for the shares of {', '.join(seats)}"
        for seats, tokens in by_seats.items()
    )


def _deadline_lines(wanted: dict[str, Any], absent: list[str]) -> list[str]:
    """A demand's deadline, and where a timeout may be claimed against it now, the command: only
    there is it overdue (a seat that waits for another's shares never is)."""
    deadline = wanted.get("deadline")
    if wanted["seat"] in absent:  # no deadline runs against it any more
        if wanted.get("overdue"):
            return [f"absent: its default takes a claim, made at once: {wanted['timeout']}"]
        if str(wanted.get("note", "")).startswith("the others are opening it"):
            return []  # said beside its command
        return ["absent: the rules' default is made for it once it can be"]
    if not wanted.get("overdue"):
        return [f"deadline {deadline}"] if deadline else []
    return [f"deadline {deadline}  OVERDUE: {wanted['timeout']}"]


def _stood_in_lines(ledger: Ledger) -> list[str]:
    """A line for each seat the rules' defaults now play: retired, having missed too many
    deadlines, or absent since a timeout against it."""
    from pbem.engine import table as tables

    if ledger.table is None:
        return []
    table = ledger.table
    after = table.retire_after
    retired = tables.retired(table)
    return [
        f"{seat} missed {after} deadline{'s' if after != 1 else ''}: the rules' defaults play it for "
        "the rest of the game"
        if seat in retired
        else f"{seat} is absent (a timeout was claimed against it): the rules' defaults play it until "
        "it signs an entry again"
        for seat in tables.stood_in(table)
    ] + [
        f"{seat}'s sealed {step}, opened from the escrow, does not match its commitment: {seat} "
        "sealed something else to the escrow, which the file shows; the rules' least favourable "
        "choice stood in for it"
        for seat, step in sorted(table.unopened)
    ]


def moves(
    file: Path = FILE,
    prefix: list[str] | None = typer.Argument(
        None, help="Only the moves that begin with these words, such as: build laboratory."
    ),
    seat: str = SEAT,
    key: str | None = typer.Option(
        None, "--key", help="Key to read your hand with (default: the seat name)."
    ),
    every: bool = typer.Option(False, "--all", help="Every move on a line of its own, not folded."),
    hint: bool = typer.Option(
        False,
        "--hint",
        help="Also the computer player's choice for the seat, with its estimated win chance, from "
        "what the seat can see (about a second's search).",
    ),
    as_json: bool = JSON,
) -> None:
    """The moves a seat may make now, folded by their forms; --all lists each as 'pbem play' takes it."""
    with reported():
        from pbem.engine import play as play_mod
        from pbem.engine.ruleset import DECK_DEMANDS
        from pbem.kit import forms

        _, ledger = read_game(file, seat=seat, remembered=True)
        play_mod.seated(ledger)
        hand = seat_hand(ledger, seat, key, file)
        demand, report, folded = _moves_and_forms(ledger, seat, hand, prefix or ())
        texts, free, notes, waits = (
            report["moves"],
            report["free"],
            report["notes"],
            report["waiting_for_shares"],
        )
        if hint:
            report["hint"] = hint_for(ledger, seat, hand, demand)
        if as_json:
            print_json(report)
            return
        if hint:
            info(_hint_line(report["hint"]))
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
        if prefix and not texts:
            info(f"{seat} has no move that begins with {' '.join(prefix)!r}")
        shown = texts if every else forms.lines(folded)
        width = max((len(text) for text in notes), default=0)
        for text in _ranges(shown):
            note = notes.get(text)
            typer.echo(f"{text:<{width}}  ({note})" if note else text)
        if len(shown) < len(texts) and not every:
            info(
                f"({len(texts)} moves in all: pbem moves {file} WORDS --as {seat} narrows them to those "
                "that begin with WORDS; --all lists each)"
            )
        if free:
            typer.echo("at any time:")
            for text in _ranges(free):
                typer.echo(f"  {text}")


def hint_for(
    ledger: Ledger, seat: str, hand: dict[str, str | None] | None, demand: Demand | None
) -> dict[str, Any]:
    """The computer player's choice for ``seat`` (``move``, ``chance`` of winning, ``playouts``),
    from what the seat can see; refused where the seat has no choice to make now."""
    from pbem.cli.computers import playouts
    from pbem.engine import computer_seat
    from pbem.errors import UsageError

    if demand is None or demand.kind not in ("move", "commit"):
        raise UsageError(f"{seat} has no choice to make now, so no hint")
    if hand is None:
        raise UsageError(f"a hint reads {seat}'s hand: its key is needed (--key NAME)")
    chosen = computer_seat.choice(ledger, seat, hand, playouts=playouts())
    return {"move": chosen.move, "chance": round(chosen.chance, 3), "playouts": chosen.playouts}


def _hint_line(hint: dict[str, Any]) -> str:
    return (
        f"hint: {hint['move']}  (an estimated {hint['chance']:.0%} chance of winning, "
        f"{hint['playouts']} playouts)"
    )


def moves_report(
    ledger: Ledger, seat: str, hand: dict[str, str | None] | None, prefix: Sequence[str] = ()
) -> tuple[Demand | None, dict[str, Any]]:
    """The seat's demand, and what ``pbem moves --json`` prints (docs/json.md): only the moves
    that begin with the words ``prefix``, if any are given."""
    demand, report, _ = _moves_and_forms(ledger, seat, hand, prefix)
    return demand, report


def _moves_and_forms(
    ledger: Ledger, seat: str, hand: dict[str, str | None] | None, prefix: Sequence[str]
) -> tuple[Demand | None, dict[str, Any], list[Any]]:
    """``moves_report``, and the forms its ``forms`` were written from: folded once, for the
    JSON and for the lines ``pbem moves`` prints."""
    from pbem.engine import play as play_mod
    from pbem.kit import forms

    demand, texts = play_mod.legal(ledger, seat, hand)
    if prefix:
        texts = forms.narrowed(texts, prefix)
    folded = forms_of(ledger, texts)
    return (
        demand,
        {
            "seat": seat,
            "kind": demand.kind if demand else None,
            "moves": texts,
            "forms": [form.json() for form in folded],
            "free": [text for text in play_mod.free_moves(ledger, seat) if text not in texts],
            "notes": play_mod.move_notes(ledger, texts, hand or {}),
            "waiting_for_shares": play_mod.share_waits(ledger, seat),
        },
        folded,
    )


def seat_hand(ledger: Ledger, seat: str, key: str | None, file: Path | str) -> dict[str, str | None] | None:
    """The hidden cards ``seat`` holds, read with its key; {} if it holds none (no key needed),
    None if its key cannot be opened here (the rules' moves are then listed unfiltered)."""
    from pbem.cli.reading import default_key
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError
    from pbem.keys import KeyStore

    if not play_mod.held(ledger, seat) or seat not in ledger.roster:
        return {}
    name = key or default_key(ledger, seat)
    if not KeyStore().key_path(name).exists():
        # a new key would not read the hand: only the key the seat joined with does
        info(
            f"(card plays not filtered by your hand: no key named {name!r} here; if the seat joined "
            f"with a key of another name, name it: pbem moves {file} --as {seat} --key NAME)"
        )
        return None
    try:
        secret = signing_key(ledger, seat, name)
    except PbemError as exc:
        info(f"(card plays not filtered by your hand: {exc})")
        return None
    return play_mod.hidden_hand(ledger, seat, secret)


def forms_of(ledger: Ledger, texts: Sequence[str]) -> list[Any]:
    """The forms of ``texts``, legal moves of the game (``kit.forms``)."""
    from pbem.engine import play as play_mod
    from pbem.errors import PbemError
    from pbem.kit import forms

    rules = play_mod.seated(ledger).rules

    def read(text: str) -> Any:
        try:
            return rules.parse(text)
        except PbemError:  # a step's own word, such as roll: a form of its own
            return None

    return forms.fold((text, read(text)) for text in texts)


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
    with reported(), editing(file):
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
        # mailed, the move goes with what the seat is then asked without a choice (appending.answered)
        current, unasked = answered(current, seat, secret) if send else (current, [])
        write_entries(loaded, [*made, *unasked], current)
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
        for one in unasked:
            info(f"{seat} then, without a choice to make: {log_line(current, one)} (entry {one['seq']})")
        _next(current, file, seat, send=send)
    if send:
        from pbem.cli.sending import send_after

        send_after(file, seat)
    computers_after(file, send=send)


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
    """Agree to (or decline) a request: an undo, handing a seat on, or going on without one.

    A seat is handed on by the others only when its player went silent (pbem handover --silent).

    The others go on without a silent seat only before the first card (pbem drop)."""
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
        if asked["kind"] == "drop":
            what = f"going on without {asked['seat']}"
            if decline:
                return f"{seat} declined {what}; play goes on"
            if asked["seat"] in current.dropped:
                return str(current.setups[max(current.setups)])
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
        items = log_items(ledger, loaded.data)
        if as_json:
            print_json(items)
            return
        for item in items:
            echo_wrapped(item["what"], first=log_text(item["seq"], item["by"], item["kind"], ""), indent=30)
            for line in item["outcomes"]:
                echo_wrapped(line, first=OUTCOME_INDENT, indent=len(OUTCOME_INDENT) + 2)


def log_items(ledger: Ledger, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What ``pbem log --json`` prints: each entry in words, and what came of it."""
    said = entry_outcomes(ledger, data)
    return [
        {
            "seq": entry["seq"],
            "by": entry["by"],
            "kind": entry["kind"],
            "what": log_line(ledger, entry),
            "outcomes": outcomes,
        }
        for entry, outcomes in zip(ledger.entries, said, strict=True)
    ]


# Outcome lines sit under the move's text, past the seq, seat and kind columns of ``log_text``.
OUTCOME_INDENT = " " * 30


def log_text(seq: int, by: str, kind: str, what: str) -> str:
    return f"{seq:>4}  {pad(by, 12)} {kind:<10} {what}"


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


def seat_secrets(ledger: Ledger, seat: str, key: str | None) -> dict[str, Any]:
    """What ``pbem show --as SEAT`` adds to the view, read with the seat's key: its sealed values
    not yet revealed (``private``) and its hidden cards (``hand``)."""
    from pbem.engine import play as play_mod

    table = play_mod.seated(ledger).table
    secret = signing_key(ledger, seat, key)
    private = {
        step: play_mod.sealed_value(ledger, seat, step, secret).value
        for step, sealed in table.sealed.items()
        if seat in sealed and seat not in table.revealed.get(step, set())
    }
    return {"private": private, "hand": play_mod.hidden_hand(ledger, seat, secret)}


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

        loaded, ledger = read_game(file, seat=seat, remembered=True)
        game = play_mod.seated(ledger)
        view = shown_view(game.rules, game.table, seat)
        secrets = seat_secrets(ledger, seat, key) if seat is not None else {}
        private: dict[str, str] = secrets.get("private", {})
        hand: dict[str, str | None] = secrets.get("hand", {})
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
            echo_wrapped(line)
        for name, card in hand.items():
            shown = card if card is not None else "not readable yet: " + play_mod.share_wait(ledger, name)
            echo_wrapped(f"your hidden card {name}: {shown} (only you can see this)")
