"""``pbem table``: companion mode, the score sheet of a game played on a real table.

Each command reads the log, replays it (checking its chain and any signatures), and, for the
commands that change it, writes the new log atomically: the file on disk is always the old or the
new version, and a refused action leaves it untouched.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.columns import pad
from pbem.cli.common import HTML, PNG, SVG, echo_wrapped, info, now, option_texts, print_json, reported

if TYPE_CHECKING:
    from pbem.companion.log import Signer, Table
    from pbem.companion.tracker import Report, Sheet
    from pbem.gamefile import LoadedFile

app = typer.Typer(
    help="Companion mode: record a game played on a real table; pbem keeps income and score.",
    no_args_is_help=True,
)

FILE = typer.Argument(..., help="The table log.")
# An action's words may be negative numbers ("alice gold -3"): read them as words, not options.
WORDS_MAY_BE_NEGATIVE = {"ignore_unknown_options": True}
JSON = typer.Option(False, "--json", help="Print as JSON.")
BY = typer.Option(None, "--by", help="Who is entering this (default: --as, $PBEM_TABLE_BY or your login).")
SIGN_AS = typer.Option(None, "--as", help="Sign the action with this player's key.")
KEY = typer.Option(None, "--key", help="Key to sign with (default: the --as name).")


def _complete_action(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tab completion of an action: the next word the game's grammar accepts."""
    try:
        file = ctx.params.get("file")
        said = list(ctx.params.get("action") or [])
        table = _read(Path(str(file)))[1]
        return table.tracker.complete(table.state, [w.lower() for w in said], incomplete)
    except Exception:  # completion must never print a traceback into the shell
        return []


ACTION = typer.Argument(
    ..., help="The action, e.g. alice wins city florence/banker for 14.", autocompletion=_complete_action
)


def _read(file: Path) -> tuple[LoadedFile, Table]:
    from pbem import gamefile
    from pbem.companion import log

    loaded = gamefile.load(file)
    return loaded, log.replay(loaded.data, str(file))


def _write(loaded: LoadedFile, table: Table) -> None:
    from pbem import gamefile

    gamefile.replace(loaded, gamefile.render_table_log(table.log, _status(table)))


def _status(table: Table) -> list[str]:
    players = ", ".join(table.header["players"])
    return [
        f"table log of {table.info.title} ({table.header['edition']}): {players}; "
        f"{len(table.actions)} actions"
    ]


def _who(by: str | None, seat: str | None) -> str:
    if by:
        return by
    if seat:
        return seat
    import getpass

    return os.environ.get("PBEM_TABLE_BY") or getpass.getuser()


def _signer(seat: str, key: str | None) -> Signer:
    from pbem.cli.common import open_key
    from pbem.companion.log import Signer

    secret = open_key(key or seat)
    return Signer(seat, secret.public(key or seat).sign_public, secret.sign)


def _print(
    reports: tuple[Report, ...] | list[Report], as_json: bool, extra: dict[str, Any] | None = None
) -> None:
    if as_json:
        print_json({**(extra or {}), "reports": [report.to_json() for report in reports]})
        return
    if reports:
        from pbem.render.sheet import render

        render(reports)


@app.command("new")
def new(
    file: Path = typer.Argument(..., help="The table log to create."),
    game: str = typer.Option(..., "--game", "-g", help="Game name (see 'pbem games')."),
    players: str = typer.Option(
        ..., "--players", "-p", help="Player names in seating order, comma-separated."
    ),
    edition: str | None = typer.Option(None, "--edition", "-e", help="Edition (default: the game's first)."),
    option: list[str] = typer.Option([], "--option", "-o", help="Game option as key=value; repeatable."),
    components: Path | None = typer.Option(
        None, "--components", help="A component template with the values printed on your copy."
    ),
    as_json: bool = JSON,
) -> None:
    """Start a table log for a game on a real table."""
    with reported():
        import secrets

        from pbem import gamefile
        from pbem.cli.template_files import component_values
        from pbem.companion import log
        from pbem.crypto.identity import check_name
        from pbem.engine import registry
        from pbem.errors import FileAccessError, GameFileError, UsageError

        found = registry.get(game)
        chosen = found.check_edition(edition or found.default_edition)
        options = found.resolve_options(option_texts(option))
        names = [
            check_name(name.strip().lower(), "player name") for name in players.split(",") if name.strip()
        ]
        if len(set(names)) != len(names):
            raise UsageError("--players: each player needs a different name")
        found.check_seats(len(names), options)
        if file.exists():
            raise FileAccessError(f"{file}: already exists; choose another name")
        data = component_values(found.name, chosen, components)
        try:
            created = log.new_log(
                found,
                names,
                edition=chosen,
                options=options,
                components=data,
                table_id=secrets.token_hex(16),
                created=now(),
            )
        except GameFileError as exc:
            raise UsageError(f"{components or 'the ' + chosen + ' template'}: {exc}") from None
        table = log.replay(created, str(file))
        gamefile.write_new(file, gamefile.render_table_log(table.log, _status(table)))
        info(f"created {file}: {found.title} ({chosen}) at the table with {', '.join(names)}")
        info(
            f"record what happens: pbem table add {file} ACTION "
            f"(the forms: pbem table events --game {found.name})"
        )
        if as_json:
            _print(table.tracker.show(table.state), True, {"table": table.header})


@app.command("add", context_settings=WORDS_MAY_BE_NEGATIVE)
def add(
    file: Path = FILE,
    action: list[str] = ACTION,
    by: str | None = BY,
    seat: str | None = SIGN_AS,
    key: str | None = KEY,
    as_json: bool = JSON,
) -> None:
    """Record one action; a refused action is explained and nothing is recorded."""
    with reported():
        _record(file, " ".join(action), by, seat, key, as_json)


def _record(file: Path, text: str, by: str | None, seat: str | None, key: str | None, as_json: bool) -> None:
    entry, reports = record(file, text, by, seat, key)
    _print(reports, as_json, {"recorded": entry})


def record(
    file: Path, text: str, by: str | None, seat: str | None, key: str | None
) -> tuple[dict[str, Any], Sheet]:
    """``pbem table add``'s work without its printing, shared with the web page: the entry
    recorded and what the tracker said about it. A refusal raises, and the file stays as it was."""
    from pbem import gamefile
    from pbem.companion import log
    from pbem.engine.seats import check_seat

    with gamefile.locked(file):  # from the read to the write: another command's action is kept
        loaded, table = _read(file)
        table.tracker.apply(table.state, text)  # refuse before asking for a passphrase
        if seat:
            check_seat(seat, table.header["players"], "at this table")
        signer = _signer(seat, key) if seat else None
        updated, reports = log.record(table, text, now(), _who(by, seat), signer)
        _write(loaded, updated)
    entry = updated.actions[-1]
    info(f"recorded action {entry['seq']}: {entry['text']}" + (f" (signed by {seat})" if seat else ""))
    return entry, reports


def income_due(file: Path) -> str:
    """The action ``pbem table income`` records now; refused when none is due."""
    from pbem.errors import IllegalMoveError

    _, table = _read(file)
    action = table.tracker.income_action(table.state)
    if action is None:
        raise IllegalMoveError(f"{file}: no income is due now")
    return action


@app.command("income")
def income(
    file: Path = FILE,
    by: str | None = BY,
    seat: str | None = SIGN_AS,
    key: str | None = KEY,
    as_json: bool = JSON,
) -> None:
    """The end of a decade or round: show each player's income line by line, and record it."""
    with reported():
        _record(file, income_due(file), by, seat, key, as_json)


@app.command("undo")
def undo(file: Path = FILE, as_json: bool = JSON) -> None:
    """Take back the last action (it is kept, so 'redo' can put it back)."""
    _step_back_or_forth(file, "undone", as_json)


@app.command("redo")
def redo(file: Path = FILE, as_json: bool = JSON) -> None:
    """Put back the last undone action."""
    _step_back_or_forth(file, "redone", as_json)


def _step_back_or_forth(file: Path, done: str, as_json: bool) -> None:
    with reported():
        updated, action = step(file, done)
        if as_json:
            _print(updated.tracker.show(updated.state), True, {done: action})


def step(file: Path, done: str) -> tuple[Table, dict[str, Any]]:
    """``pbem table undo`` (``done`` is "undone") or ``redo`` ("redone") without its printing,
    shared with the web page: the table after it and the action taken back or put back."""
    from pbem import gamefile
    from pbem.companion import log

    with gamefile.locked(file):
        loaded, table = _read(file)
        updated, action = (log.undo if done == "undone" else log.redo)(table, str(file))
        _write(loaded, updated)
    info(f"{done} action {action['seq']}: {action['text']}")
    return updated, action


@app.command("log")
def show_log(file: Path = FILE, as_json: bool = JSON) -> None:
    """Every action recorded, oldest first, and the undone ones."""
    with reported():
        _, table = _read(file)
        if as_json:
            print_json({"table": table.header, "actions": table.actions, "undone": table.undone})
            return
        for action in table.actions:
            _echo_action(f"{action['seq']:>4}", action)
        if table.undone:
            typer.echo("undone (newest last):")
            for action in table.undone:
                _echo_action("    ", action)


def _echo_action(seq: str, action: dict[str, Any]) -> None:
    from rich.cells import cell_len

    first = _lead(seq, action)
    echo_wrapped(_said(action), first=first, indent=cell_len(first))


def _lead(seq: str, action: dict[str, Any]) -> str:
    return f"{seq}  {action['at']}  {pad(action['by'], 10)} "


def _said(action: dict[str, Any]) -> str:
    return str(action["text"]) + (f" [signed by {action['signer']}]" if "sig" in action else "")


def _log_text(action: dict[str, Any]) -> str:
    return _lead(f"{action['seq']:>4}", action) + _said(action)


@app.command("show")
def show(
    file: Path = FILE,
    as_json: bool = JSON,
    svg: Path | None = SVG,
    html: Path | None = HTML,
    png: Path | None = PNG,
) -> None:
    """The table as it stands; --svg, --html and --png draw it instead."""
    with reported():
        _, table = _read(file)
        if svg or html or png:
            from pbem.cli import pictures
            from pbem.render.picture import companion_view

            pictures.write(
                game=table.info.name,
                title=table.info.title,
                view=companion_view(table.info.name, table.info.title, table.state),
                seat=None,
                log=[_log_text(action) for action in table.actions],
                svg_path=svg,
                html_path=html,
                png_path=png,
            )
            return
        _print(table.tracker.show(table.state), as_json)


@app.command("score")
def score(file: Path = FILE, as_json: bool = JSON) -> None:
    """The final score (or the score if the game ended now), every tie rule applied."""
    with reported():
        _, table = _read(file)
        _print(table.tracker.score(table.state), as_json, {"totals": table.tracker.totals(table.state)})


@app.command("calc", context_settings=WORDS_MAY_BE_NEGATIVE)
def calc(
    file: Path = FILE,
    query: list[str] = typer.Argument(..., help="The calculation, e.g. 'income' (see 'pbem table events')."),
    as_json: bool = JSON,
) -> None:
    """Work something out without recording anything."""
    with reported():
        _, table = _read(file)
        _print(table.tracker.query(table.state, " ".join(query)), as_json)


@app.command("verify")
def verify(file: Path = FILE, as_json: bool = JSON) -> None:
    """Check the log: its chain, every signature, and every action against the rules."""
    with reported():
        _, table = _read(file)
        signed = sum(1 for action in table.actions if "sig" in action)
        result = {
            "ok": True,
            "actions": len(table.actions),
            "signed": signed,
            "signers": dict(table.signers()),
            "totals": table.tracker.totals(table.state),
        }
        if as_json:
            print_json(result)
            return
        typer.echo(f"ok: {file}: {len(table.actions)} actions replay cleanly; {signed} signed")
        for seat, public in table.signers().items():
            typer.echo(f"  {pad(seat, 16)} {_signer_line(seat, public)}")


def _signer_line(seat: str, public: str) -> str:
    """The fingerprint players compare (as pbem verify and pbem key list print it) of the key that
    signed ``seat``'s actions. An action carries the signing key only, and a fingerprint covers
    both of an identity's keys: it is found among the keys and identities of this home."""
    import base64

    from pbem.keys import KeyStore

    found = [
        entry for entry in KeyStore().entries()[0] if entry.identity.sign_public == base64.b64decode(public)
    ]
    found.sort(key=lambda entry: entry.name != seat)
    if found:
        return f"{found[0].identity.fingerprint}  (the key {found[0].name!r} of this home)"
    return (
        f"a key this home does not know: import {seat}'s identity (pbem key import) to see its "
        f"fingerprint (signing key {public})"
    )


@app.command("events")
def events(
    game: str = typer.Option(..., "--game", "-g", help="Game name (see 'pbem games')."),
    as_json: bool = JSON,
) -> None:
    """Every action a game's table log reads, with an example, and its calculations."""
    with reported():
        from pbem.companion.log import tracker_for
        from pbem.engine import registry

        tracker = tracker_for(registry.get(game))
        forms = [{"form": f.form, "example": f.example, "meaning": f.meaning} for f in tracker.events()]
        queries = [{"form": f.form, "example": f.example, "meaning": f.meaning} for f in tracker.queries()]
        if as_json:
            print_json({"actions": forms, "calculations": queries})
            return
        typer.echo("actions (pbem table add FILE ...):")
        for item in forms:
            typer.echo(f"  {item['form']}\n      e.g. {item['example']}: {item['meaning']}")
        typer.echo("calculations (pbem table calc FILE ...):")
        for item in queries:
            typer.echo(f"  {item['form']}\n      e.g. {item['example']}: {item['meaning']}")
