"""``pbem mail ...`` and ``pbem inbox``: email as the way a game travels.

``send`` builds one message to the seats that must act (the others in copy), carrying only the
entries they lack; ``import`` and ``fetch`` apply the messages that arrive, each verified with
the whole game before anything is written; ``inbox`` shows where every game of the library
stands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.appending import FILE, JSON, SEAT, entry_command
from pbem.cli.common import echo_wrapped, fail, info, now, print_json, reported, warn
from pbem.cli.reading import compare_with_seen, register, roster_mismatches
from pbem.cli.reports import grouped, print_evidence, to_do

if TYPE_CHECKING:
    from pbem.mail.account import Account, Server
    from pbem.mail.library import Library, PassedOver
    from pbem.mail.message import Carried
    from pbem.mail.transport import Mailbox

app = typer.Typer(help="Send and receive a game's moves by email.", no_args_is_help=True)


address = app.command("address")(
    entry_command(
        "Change the address your moves are mailed to: a signed entry, so nobody else can.",
        "pbem.engine.ledger:check_can_address",
        "pbem.engine.ledger:address",
        lambda asked, _, entry: info(f"{asked.seat}'s mail now goes to {asked.value} (entry {entry['seq']})"),
        ("email", typer.Argument(..., help="The new address your moves are mailed to.")),
    )
)


# --- setting up -------------------------------------------------------------------------------
@app.command("setup")
def setup(
    address: str = typer.Option(..., "--address", help="Your email address, as the others mail you."),
    smtp: str | None = typer.Option(None, "--smtp", help="The server to send through: HOST or HOST:PORT."),
    smtp_security: str = typer.Option(
        "starttls", "--smtp-security", help="starttls (port 587) or tls (465)."
    ),
    imap: str | None = typer.Option(None, "--imap", help="The server to fetch from: HOST or HOST:PORT."),
    imap_security: str = typer.Option("tls", "--imap-security", help="tls (port 993) or starttls (143)."),
    user: str | None = typer.Option(None, "--user", help="The login name (default: the address)."),
    password_env: str | None = typer.Option(
        None, "--password-env", help="Read the password from this variable."
    ),
    password_command: str | None = typer.Option(
        None, "--password-command", help="Run this command to print the password, e.g. 'pass show mail'."
    ),
    keyring: str | None = typer.Option(
        None, "--keyring", help="Take the password from the system keyring under this service name."
    ),
    ca_file: Path | None = typer.Option(
        None, "--ca-file", help="Also trust this certificate (a private server)."
    ),
    folder: str = typer.Option("INBOX", "--folder", help="The IMAP folder pbem mail fetch reads."),
    after: str = typer.Option(
        "seen", "--after", help="What fetch does with a message it applied: seen or move."
    ),
    archive: str = typer.Option("pbem", "--archive", help="Where --after move puts them."),
    pictures: bool = typer.Option(
        False, "--pictures", help="Send a picture of the table with each message (about 100 KB more)."
    ),
    check: bool = typer.Option(
        True, "--check/--no-check", help="Log in to the servers to try them (nothing is sent)."
    ),
) -> None:
    """Set up the mail account once: servers, login, where the password comes from (never stored)."""
    with reported():
        from pbem.engine.ledger import check_email
        from pbem.errors import MailTransportError, UsageError
        from pbem.keys import default_home
        from pbem.mail import account

        check_email(address)
        sources = [
            (name, value)
            for name, value in (("env", password_env), ("command", password_command), ("keyring", keyring))
            if value
        ]
        if (smtp or imap) and len(sources) != 1:
            raise UsageError(
                "name one place for the password: --password-env, --password-command or --keyring"
            )
        if after not in account.AFTER:
            raise UsageError(f"--after must be one of {', '.join(account.AFTER)}")
        password = account.Password(*sources[0]) if sources else None
        servers: dict[str, account.Server | None] = {}
        for kind, where, security in (("smtp", smtp, smtp_security), ("imap", imap, imap_security)):
            if where is None:
                servers[kind] = None
                continue
            if security not in account.SECURITY:
                raise UsageError(f"--{kind}-security must be one of {', '.join(account.SECURITY)}")
            host, _, port = where.partition(":")
            if not host or (port and not port.isdigit()):
                raise UsageError(f"--{kind} {where!r}: write HOST or HOST:PORT")
            assert password is not None
            servers[kind] = account.Server(
                host,
                int(port) if port else account.DEFAULT_PORTS[(kind, security)],
                security,
                user or address,
                password,
                str(ca_file.resolve()) if ca_file else "",
            )
        kept = account.Account(address, servers["smtp"], servers["imap"], folder, after, archive, pictures)
        saved = account.save(default_home(), kept)
        info(f"wrote {saved} (readable by you only; no password in it)")
        if check and not _tried(kept):
            raise fail(
                f"the settings are saved in {saved}, but a server did not take them (above): set "
                "them up again with what to correct, or try again later with pbem mail check",
                MailTransportError.exit_code,
            )


@app.command("check")
def check() -> None:
    """Log in to the mail servers set up (nothing is sent) and say what works and what does not."""
    with reported():
        from pbem.cli.sending import mail_account
        from pbem.errors import MailTransportError, UsageError

        account = mail_account()
        if account is None or (account.smtp is None and account.imap is None):
            raise UsageError("no mail server is set up: pbem mail setup --smtp HOST --imap HOST ...")
        if not _tried(account):
            raise fail("a mail server did not take the settings (above)", MailTransportError.exit_code)


def _tried(account: Account) -> bool:
    """Log in to each server of ``account`` as sending and fetching do, sending nothing; one line
    for each, saying what works or what does not. Whether all worked."""
    from pbem.errors import MailTransportError
    from pbem.mail.transport import Mailbox, check_smtp

    def imap(server: Server) -> None:
        with Mailbox(server, account.folder):
            pass

    worked = True
    for kind, server, attempt in (("sending", account.smtp, check_smtp), ("fetching", account.imap, imap)):
        if server is None:
            continue
        how = "TLS" if server.security == "tls" else "STARTTLS"
        try:
            attempt(server)
        except MailTransportError as exc:
            warn(f"{kind} does not work: {exc}")
            worked = False
            continue
        info(f"{kind} works: {server.host}:{server.port} over {how}, logged in as {server.user}")
    return worked


# --- sending ----------------------------------------------------------------------------------
@app.command("send")
def send(
    file: Path = FILE,
    seat: str = SEAT,
    full: bool = typer.Option(False, "--full", help="Carry the whole game, not only what the others lack."),
    to_file: Path | None = typer.Option(
        None, "--to-file", help="Write the message to this .eml file instead."
    ),
    stdout: bool = typer.Option(False, "--stdout", help="Write the message to stdout (for sendmail)."),
    to: list[str] = typer.Option(
        [], "--to", help="Mail the whole game to this address instead (an invitation); repeatable."
    ),
    picture: bool | None = typer.Option(
        None,
        "--picture/--no-picture",
        help="With a PNG of the table, or without (default: as pbem mail setup --pictures says).",
    ),
) -> None:
    """Mail the latest moves to the seats that must act next (the others in copy)."""
    with reported():
        from pbem.cli.sending import send_file

        send_file(file, seat, full=full, to_file=to_file, stdout=stdout, to=tuple(to), picture=picture)


# --- receiving --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    # applied, had, refused, equivocation, skipped (not pbem's), unreadable, elsewhere, busy (the
    # game's file was held by another pbem command)
    verdict: str
    line: str
    # Decided by the message alone, not by this home's games: reading it again would say the same,
    # so fetch remembers it and does not read it again (a message that does not connect yet may
    # later, and is tried again).
    final: bool = False
    game: str = ""  # the game it was applied to (applied or had)
    # other seats whose entries the game went on without, each with the address such an entry gave
    overtaken: tuple[tuple[str, str], ...] = ()
    computers: bool = False  # the game has seats a computer plays (applied): this home may host one


def receive_all(messages: Sequence[tuple[str, bytes]]) -> list[list[Outcome]]:
    """Each message applied in turn, each set of entries it carries on its own (a message may
    carry several: pbem messages forwarded together); those refused are tried again while others
    still apply, since mail can arrive out of order (a move before the one it follows). The
    outcomes of each message, in the order of ``messages``."""
    units = [_units(raw, name) for name, raw in messages]
    outcomes = [[_applied(unit) for unit in found] for found in units]
    progress = any(outcome.verdict == "applied" for found in outcomes for outcome in found)
    while progress:
        progress = False
        for found, done in zip(units, outcomes, strict=True):
            for index, unit in enumerate(found):
                if done[index].verdict in ("refused", "elsewhere") and not done[index].final:
                    done[index] = _applied(unit)
                    progress = progress or done[index].verdict == "applied"
    return outcomes


@dataclass(frozen=True)
class _Unit:
    """One set of entries a message carries, to apply, or what was decided of it already."""

    name: str  # for the lines that say what happened to it
    label: str  # the name and what the message says of itself, for a refusal
    carried: Carried | None
    decided: Outcome | None = None


def _applied(unit: _Unit) -> Outcome:
    if unit.decided is not None:
        return unit.decided
    assert unit.carried is not None
    return _apply(unit.carried, unit.name, unit.label)


def _units(raw: bytes, name: str) -> list[_Unit]:
    """What ``raw`` carries: a unit per set of entries (named ``NAME, 2 of 3`` when several)."""
    from pbem.errors import MailContentError, MailUnreadableError
    from pbem.mail import message

    said = message.describe(raw)
    label = f"{name} ({said})" if said else name

    def refused(exc: MailContentError, where: str) -> Outcome:
        if isinstance(exc, MailUnreadableError):
            return Outcome("unreadable", f"skipped: {where}: {exc}", final=True)
        return Outcome("refused", f"{where}: refused, nothing changed: {exc}", final=True)

    try:
        found: list[Carried | MailContentError] = list(message.read(raw))
        if not found:  # an attachment saved on its own: the entries without the mail around them
            saved = message.saved(raw)
            found = [saved] if saved is not None else []
    except MailContentError as exc:
        return [_Unit(name, label, None, refused(exc, label))]
    if not found:
        return [_Unit(name, label, None, Outcome("skipped", f"{name}: not a pbem message", final=True))]
    units: list[_Unit] = []
    for number, item in enumerate(found, 1):
        part = f", {number} of {len(found)}" if len(found) > 1 else ""
        named, labelled = name + part, f"{label}{part}"
        if isinstance(item, MailContentError):
            units.append(_Unit(named, labelled, None, refused(item, labelled)))
        else:
            units.append(_Unit(named, labelled, item))
    return units


def _apply(carried: Carried, name: str, label: str) -> Outcome:
    """The set of entries a message carries, applied to this home's copy of its game."""
    with ExitStack() as held:
        return _apply_holding(held, carried, name, label)


def _apply_holding(held: ExitStack, carried: Carried, name: str, label: str) -> Outcome:
    """``_apply``, holding the game file's lock in ``held`` from its read to the library's
    record of what the message taught."""
    from pbem import gamefile
    from pbem.cli.proof_cache import for_home
    from pbem.cli.reading import own_seats
    from pbem.cli.reports import overtaken_lines, status_report
    from pbem.engine import ledger as ledger_mod
    from pbem.engine import table as tables
    from pbem.errors import BusyError, EquivocationError, PbemError
    from pbem.keys import default_home
    from pbem.mail import delivery
    from pbem.mail.library import Library
    from pbem.mail.message import message_id as thread_id

    try:
        data = carried.data
        game = delivery.game_of(data)
        library = Library(default_home())
        kept = library.games().get(game)
        if kept is not None:
            held.enter_context(gamefile.locked(kept.path))
            # what a command that held the lock before this one taught the library of the game
            kept = library.games().get(game)
        loaded = gamefile.load(kept.path) if kept is not None and kept.path.exists() else None
        cache = for_home()
        local = ledger_mod.read(loaded.data, cache) if loaded is not None else None
        applied = delivery.apply(local, data, name, cache)
        cache.save()
        merged = applied.ledger
        short = f"{merged.info.title} {merged.game_id[:8]}"
        sender = next((seat for seat, mail in merged.addresses.items() if mail in carried.sender), None)
        known = delivery.learned(merged, data, sender, kept.known if kept is not None else {})
        copied = delivery.copied(merged, data, carried.recipients, sender)
        # entries the game went on without, said as pbem merge says them, with the command that
        # makes one of this home's again
        overtaken = "".join(
            f"; {line}"
            for line in overtaken_lines(
                merged, applied.overtaken, own_seats(merged, joining=True), merged.game_id[:8]
            )
        )
        own = own_seats(merged, joining=True)
        behind = tuple(
            (entry["by"], str(entry.get("email", "")))
            for entry in applied.overtaken
            if entry["by"] not in own
        )
        if applied.added == 0 and loaded is not None:  # nothing new, but what its sender holds
            library.update(
                merged.game_id,
                known=known,
                message_id=thread_id(carried.message_id),
                root=thread_id(carried.root),
                copied=copied,
            )
            return Outcome(
                "had",
                f"{name}: already had: {short}, nothing new{overtaken}",
                game=merged.game_id,
                overtaken=behind,
            )
        if loaded is not None:
            text = gamefile.rewrite_entries(
                loaded, applied.entries, merged.header(), merged.roster_table(), merged.status_lines()
            )
            gamefile.replace(loaded, text)
            path = loaded.path
        else:
            path = library.folder / f"{merged.info.name}-{merged.game_id[:8]}.toml"
            library.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            held.enter_context(gamefile.locked(path))
            if kept is None and game in library.games():
                # another command received the game meanwhile: the message goes to its copy
                return _apply_holding(held, carried, name, label)
            gamefile.write_new(path, carried.entries)
            register(merged, path)
        compare_with_seen(merged)
        library.update(
            merged.game_id,
            known=known,
            applied=1,
            message_id=thread_id(carried.message_id),
            root=thread_id(carried.root),
            copied=copied,
        )
        phase = status_report(merged, now(), path)["phase"] if merged.table is not None else "joining"
        waiting = (
            tables.waiting_summary(merged.rules, merged.table)
            if merged.table is not None and merged.rules is not None
            else f"to join: {', '.join(merged.waiting_to_join)}"
        )
        new = (
            "new game"
            if loaded is None
            else f"{applied.added} new entr{'y' if applied.added == 1 else 'ies'}"
        )
        # said where the game arrives, as status says it of a file: a seat may have been taken
        warnings = "".join(f"; warning: {line}" for line in roster_mismatches(merged))
        return Outcome(
            "applied",
            f"{name}: applied to {short} ({new}, in {path}); now {phase}: {waiting}{overtaken}{warnings}",
            game=merged.game_id,
            overtaken=behind,
            computers=bool(merged.computers),
        )
    except delivery.NotHere as exc:  # not for this home, or ahead of the game's whole file
        return Outcome("elsewhere", f"{name}: passed over: {exc}")
    except EquivocationError as exc:
        print_evidence(exc.evidence)
        return Outcome("equivocation", f"{label}: refused: {exc}")
    except BusyError as exc:  # not the message's fault: it stays unread, to apply next time
        return Outcome("busy", f"{label}: not applied, nothing changed: {exc}")
    except PbemError as exc:
        return Outcome("refused", f"{label}: refused, nothing changed: {exc}")


def _messages(path: Path) -> list[tuple[str, bytes]]:
    """The messages of an .eml file, an mbox file or a Maildir folder, each with its name."""
    import mailbox

    from pbem.errors import FileAccessError

    if path.is_dir():
        if not all((path / part).is_dir() for part in ("cur", "new", "tmp")):
            raise FileAccessError(f"{path}: a folder, but not a Maildir (cur, new, tmp)")
        box = mailbox.Maildir(path, create=False)
        return [(f"{path}/{key}", box.get_bytes(key)) for key in sorted(box.keys(), key=_delivered)]
    try:
        head = path.read_bytes()[:5]
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot read ({exc.strerror})") from None
    if head == b"From ":
        mbox = mailbox.mbox(path, create=False)
        return [(f"{path}#{number}", mbox.get_bytes(key)) for number, key in enumerate(mbox.keys(), 1)]
    return [(str(path), path.read_bytes())]


def _delivered(key: str) -> tuple[int, int, str]:
    """A Maildir name's time of delivery (``SECONDS.MMICROSECONDS...``, as most servers write
    it), so that messages are read in the order they came; other names after, by name."""
    import re

    found = re.match(r"(\d+)\.M(\d+)", key)
    return (0, int(found[1]) * 1_000_000 + int(found[2]), key) if found else (1, 0, key)


def _report(outcomes: list[Outcome], *, then: Callable[[], None] | None = None) -> None:
    """One line per message, then ``then`` (the inbox, for fetch), then the exit code they call for:
    a message refused or skipped as unreadable is exit 3, as a file that does not verify is, even
    when others beside it were applied (their lines say so); one another pbem command kept from
    its game's file is exit 8, to try again."""
    from pbem.errors import BusyError, EquivocationError, GameFileError

    for outcome in outcomes:
        echo_wrapped(outcome.line, indent=2)
    if then is not None:
        with reported():
            then()
    if any(outcome.verdict == "equivocation" for outcome in outcomes):
        raise typer.Exit(EquivocationError.exit_code)
    if any(outcome.verdict in ("refused", "unreadable") for outcome in outcomes):
        raise typer.Exit(GameFileError.exit_code)
    if any(outcome.verdict == "busy" for outcome in outcomes):
        raise typer.Exit(BusyError.exit_code)


@app.command("import")
def import_(
    paths: list[Path] = typer.Argument(..., help=".eml files, mbox files or Maildir folders."),
) -> None:
    """Apply the moves in saved messages to your games (each verified before anything is written)."""
    outcomes: list[Outcome] = []
    with reported():
        read = [(path, _messages(path)) for path in paths]
        # one retry spans every path: the message a later path holds may be the one an earlier
        # path's message follows, as within one mailbox
        found = iter(receive_all([message for _, messages in read for message in messages]))
        for path, messages in read:
            these = [outcome for _ in messages for outcome in next(found)]
            if len(messages) == 1:  # a file named on its own is answered, whatever it holds
                outcomes += [
                    Outcome(
                        "refused",
                        f"{path}: refused: neither a pbem message nor a game's entries",
                        final=True,
                    )
                    if outcome.verdict == "skipped"
                    else outcome
                    for outcome in these
                ]
                continue
            # the rest of a mailbox (other mail) is passed over in silence
            outcomes += [outcome for outcome in these if outcome.verdict != "skipped"]
            if all(outcome.verdict == "skipped" for outcome in these):
                outcomes.append(Outcome("skipped", f"{path}: no pbem message in its {len(messages)}"))
    # no account to mail from here: what the computers play is written, and goes with the next send
    _computers_play(outcomes, send=False)
    _report(outcomes)


@app.command("fetch")
def fetch(
    answer: bool = typer.Option(
        False,
        "--answer",
        help="Then do, in every game, what your seats are asked that needs no choice (a sealed "
        "value revealed, randomness, what you owe the hidden decks, a forced move), and mail it.",
    ),
) -> None:
    """Read the IMAP folder, apply every pbem message, pass games on, show where they stand."""
    fetched(answer=answer, inbox=True)


def fetched(*, answer: bool, inbox: bool) -> None:
    """``pbem mail fetch [--answer]``; without ``inbox``, the games are not listed after it (the
    web page lists them itself)."""
    with reported():
        from pbem.cli.sending import mail_account
        from pbem.errors import UsageError
        from pbem.keys import default_home
        from pbem.mail.library import PassedOver
        from pbem.mail.transport import Mailbox

        account = mail_account()
        if account is None or account.imap is None:
            raise UsageError("no IMAP account is set up: pbem mail setup --imap HOST ...")
        with Mailbox(account.imap, account.folder) as box:
            memory = PassedOver(default_home())
            unseen = box.unseen()
            passed = memory.uids(box.name, box.validity) & set(unseen)
            run = _fetch_new(box, [uid for uid in unseen if uid not in passed], memory)
            # remembered before anything is marked, so a server failing now costs no second read
            memory.keep(box.name, box.validity, passed | run.passed)
            memory.refuse(run.refused)
            for uid, outcomes in run.found:
                if all(outcome.verdict in ("applied", "had") for outcome in outcomes):
                    box.done(uid, account.after, account.archive)
        shown = [outcome for _, outcomes in run.found for outcome in outcomes if outcome.verdict != "skipped"]
        answers = _answer_all() if answer else []
        _computers_play(shown, send=account.smtp is not None)
        forwarded = _forward(account, shown + answers)
        if run.earlier:
            many = run.earlier != 1
            info(
                f"{run.earlier} message{'s' if many else ''} refused earlier {'are' if many else 'is'} "
                "skipped (still unread in the folder)"
            )
        if not shown:
            info("no new pbem messages")
    _report(shown + answers + forwarded, then=(lambda: show_inbox(as_json=False)) if inbox else None)


def _computers_play(outcomes: Sequence[Outcome], *, send: bool) -> None:
    """In each game the messages changed, the computers this home hosts play what they are asked."""
    from pbem.cli.computers import play_turns
    from pbem.keys import default_home
    from pbem.mail.library import Library

    touched = {
        outcome.game
        for outcome in outcomes
        if outcome.verdict == "applied" and outcome.game and outcome.computers
    }
    if not touched:
        return  # no game with a computer seat: none is read again
    games = Library(default_home()).games()
    for game in sorted(touched):
        kept = games.get(game)
        if kept is not None:
            with reported():
                play_turns(kept.path, send=send)


def _answer_all() -> list[Outcome]:
    """In every game of the library, what each seat this home holds is asked that needs no choice,
    done (``appending.answered``): a line for each game it was done in, or why it could not be."""
    from pbem.cli.appending import answer_game
    from pbem.cli.reading import own_seats, read_game
    from pbem.cli.reports import log_line
    from pbem.errors import PbemError
    from pbem.keys import default_home
    from pbem.mail.library import Library

    said: list[Outcome] = []
    for game, kept in Library(default_home()).games().items():
        try:
            _, ledger = read_game(kept.path)
            if ledger.table is None:
                continue
            own = own_seats(ledger)
            made = answer_game(kept.path, [seat for seat in ledger.seats if seat in own])
            if made:
                _, ledger = read_game(kept.path)
                lines = "; ".join(f"{entry['by']}: {log_line(ledger, entry)}" for entry in made)
                said.append(
                    Outcome("answered", f"{game[:8]}: done without a choice to make: {lines}", game=game)
                )
        except PbemError as exc:
            said.append(Outcome("unanswered", f"{game[:8]}: not answered: {exc}"))
    return said


def _forward(account: Account, outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Each game the messages changed, mailed on to the seats that now need what this home holds
    (``delivery.needing``): a seat asked to act by entries that reached only this home, one whose
    entry was overtaken, the seat that gathers a step everyone acts in at once. One line each
    game sent, or that could not be."""
    from pbem.cli.reading import own_seats, read_game
    from pbem.cli.sending import send_file
    from pbem.errors import PbemError
    from pbem.keys import default_home
    from pbem.mail.library import Library

    if account.smtp is None:
        return []
    touched: dict[str, dict[str, str]] = {}
    for outcome in outcomes:
        if outcome.verdict in ("applied", "had", "answered") and outcome.game:
            behind = touched.setdefault(outcome.game, {})
            for seat, address in outcome.overtaken:
                behind[seat] = behind.get(seat) or address
    said: list[Outcome] = []
    games = Library(default_home()).games()
    for game, behind in touched.items():
        kept = games.get(game)
        if kept is None:
            continue
        try:
            _, ledger = read_game(kept.path)
            own = own_seats(ledger)
            mine = [seat for seat in ledger.participants if seat in own]
            if not mine:
                continue
            lines: list[str] = []
            send_file(
                kept.path, mine[0], full=False, to_file=None, stdout=False, routed=True,
                overtaken=behind, say=lines.append,
            )  # fmt: skip
            if lines:
                said.append(
                    Outcome("forwarded", f"{game[:8]}: passed on what they need now: {'; '.join(lines)}")
                )
        except PbemError as exc:
            said.append(Outcome("unsent", f"{game[:8]}: could not pass the game on: {exc}"))
    return said


@dataclass
class _Fetched:
    """What one fetch read, and what it is to remember."""

    found: list[tuple[str, list[Outcome]]]  # each message read, by UID, with its outcomes
    passed: set[str]  # UIDs to pass over from now on (other mail, refusals with no Message-ID)
    refused: dict[str, str | None]  # Message-IDs to remember as refused (or forget: None)
    earlier: int  # messages refused at an earlier fetch, passed over without downloading them


def _fetch_new(box: Mailbox, uids: list[str], memory: PassedOver) -> _Fetched:
    """Each message of ``uids`` read and applied, with its UID. Its size and headers come first
    (a few kilobytes): other mail is never downloaded, nor a message larger than any game's
    message (one warning), nor one refused at an earlier fetch, unless it was refused against
    copies of the games that have changed since, by then or by this fetch (it may connect now)."""
    from pbem.errors import MailContentError
    from pbem.mail.message import check_size, describe, header, maybe_pbem, message_id

    heads = box.heads(uids)
    remembered = memory.refused()
    copy = _copies()
    run = _Fetched([], set(), {}, 0)
    messages: list[tuple[str, bytes]] = []
    retried: set[str] = set()
    waiting: list[str] = []  # refused against the copies as they still are: unless this fetch changes them
    counted: set[str] = set()  # of those, the ones said as refused earlier (not those for other games)
    for uid in uids:
        head = heads.get(uid)
        if head is not None and not maybe_pbem(head.headers):
            run.passed.add(uid)  # other mail: its headers say so, and its body is never downloaded
            continue
        key = message_id(header(head.headers, "Message-ID")) if head is not None else None
        before = remembered.get(key, "") if key else ""
        reread = before.startswith(("retry ", "elsewhere "))  # read again once the copies change
        if reread and before.partition(" ")[2] != copy:
            retried.add(uid)
        if before and uid not in retried:
            if not before.startswith("elsewhere "):  # a message for no game of this home: said once
                run.earlier += 1
                counted.add(uid)
            if reread:
                waiting.append(uid)
            continue
        try:
            check_size(head.size or 0 if head is not None else 0)
        except MailContentError as exc:
            said = describe(head.headers) if head is not None else ""
            warn(f"message {said or uid}: {exc}; it was not downloaded and stays unread")
            if key:
                run.refused[key] = "too large"
            else:
                run.passed.add(uid)
            continue
        raw = box.download(uid)
        if raw is not None:
            messages.append((uid, raw))
    received = receive_all([(f"message {uid}", raw) for uid, raw in messages])
    applied = any(outcome.verdict == "applied" for outcomes in received for outcome in outcomes)
    if waiting and applied:  # the copies changed: what waited for them is read, with what is refused
        later = [(uid, raw) for uid in waiting if (raw := box.download(uid)) is not None]
        again = [
            index
            for index, outcomes in enumerate(received)
            if all(outcome.verdict == "refused" and not outcome.final for outcome in outcomes)
        ]
        redone = receive_all([(f"message {uid}", raw) for uid, raw in [messages[i] for i in again] + later])
        for index, outcomes in zip(again, redone, strict=False):
            received[index] = outcomes
        messages += later
        received += redone[len(again) :]
        retried.update(uid for uid, _ in later)
        run.earlier -= len(counted & {uid for uid, _ in later})
    copy = _copies()
    for (uid, raw), outcomes in zip(messages, received, strict=True):
        key = message_id(header(raw, "Message-ID"))
        refused = [o for o in outcomes if o.verdict in ("refused", "unreadable", "equivocation")]
        elsewhere = any(outcome.verdict == "elsewhere" for outcome in outcomes)
        if refused and key:
            final = all(outcome.final for outcome in refused)
            run.refused[key] = "refused" if final else f"retry {copy}"
            if uid in retried and not any(o.verdict == "applied" for o in outcomes):
                run.earlier += 1  # said when it was first refused: the same again
                continue
        elif elsewhere and key:
            run.refused[key] = f"elsewhere {copy}"  # read again once a game of this home changes
            if uid in retried and not any(o.verdict == "applied" for o in outcomes):
                continue  # said when it was first read
        elif key and uid in retried:
            run.refused[key] = None
        if all(outcome.final for outcome in outcomes) and not (refused and key):
            run.passed.add(uid)
        run.found.append((uid, outcomes))
    return run


def _copies() -> str:
    """The state of every game file of the library, in a few characters: a message refused
    against the copies as they were is read again once one has changed."""
    import hashlib

    from pbem.keys import default_home
    from pbem.mail.library import Library

    digest = hashlib.sha256()
    for game_id, kept in sorted(Library(default_home()).games().items()):
        try:
            stat = kept.path.stat()
            digest.update(f"{game_id} {stat.st_size} {stat.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(f"{game_id} -\n".encode())
    return digest.hexdigest()[:16]


# --- the inbox --------------------------------------------------------------------------------
def inbox(as_json: bool = JSON) -> None:
    """Every game of your library: where it stands, whose move it is (yours first), deadlines."""
    with reported():
        show_inbox(as_json=as_json)


def inbox_rows(library: Library) -> list[dict[str, Any]]:
    """What ``pbem inbox --json`` prints of each game of ``library`` (docs/json.md), the games
    this home's seats are asked to act in first. The web page lists the same rows."""
    from pbem import gamefile
    from pbem.cli.proof_cache import for_home
    from pbem.cli.reading import own_seats
    from pbem.cli.reports import status_report
    from pbem.engine import ledger as ledger_mod
    from pbem.errors import PbemError

    rows: list[dict[str, Any]] = []
    clock = now()
    for game_id, kept in library.games().items():
        row: dict[str, Any] = {"game": game_id, "file": str(kept.path), "new_messages": kept.applied}
        try:
            ledger = ledger_mod.read(gamefile.load(kept.path).data, for_home())
        except PbemError as exc:
            rows.append(
                row
                | {
                    "title": "?",
                    "phase": f"cannot be read: {exc}",
                    "waiting": [],
                    "yours": [],
                    "key_mismatches": [],
                }
            )
            continue
        # the commands name the game by its id, which finds it wherever it is kept
        report = status_report(ledger, clock, game_id[:8])
        mine = own_seats(ledger, joining=True)
        waiting = [
            {
                "seat": item["seat"],
                "kind": item["kind"],
                "deadline": item.get("deadline"),
                "overdue": item.get("overdue", False),
                "timeout": item.get("timeout"),
            }
            for item in report["waiting"]
        ]
        # what this home's seats are to do, as status says it: one line a seat, the whole command
        todo = [
            {"seat": item["seat"], "prompt": item["prompt"], "command": item["command"], "note": item["note"]}
            for item in to_do(grouped(report["waiting"]), mine)
        ]
        rows.append(
            row
            | {
                "title": ledger.info.title,
                "phase": report["phase"],
                "waiting": waiting,
                "yours": sorted({item["seat"] for item in waiting if item["seat"] in mine}),
                "overdue": sorted({item["seat"] for item in waiting if item["overdue"]}),
                # silent seats whose shares the others are unlocking from the escrow
                "unlocking": sorted(
                    {
                        item["step"].removeprefix("unlock of ")
                        for item in report["waiting"]
                        if item["kind"] == "unlock"
                    }
                ),
                "halted": report.get("halted"),
                "key_mismatches": roster_mismatches(ledger),
                "todo": todo,
            }
        )
    rows.sort(key=lambda row: (not row["yours"], row.get("title", ""), row["game"]))
    return rows


def show_inbox(*, as_json: bool) -> None:
    from pbem.keys import default_home
    from pbem.mail.library import Library

    library = Library(default_home())
    rows = inbox_rows(library)
    library.looked()
    if as_json:
        print_json(rows)
        return
    if not rows:
        info("no games yet: pbem new, pbem join, or a first message (pbem mail fetch) start one")
        return
    for row in rows:
        mark = "*" if row["yours"] else " "
        who = ", ".join(dict.fromkeys(item["seat"] for item in row["waiting"])) or "nobody"
        news = (
            f"; {row['new_messages']} new message{'s' if row['new_messages'] != 1 else ''}"
            if row["new_messages"]
            else ""
        )
        # only where a timeout may be claimed now, with the command that claims it
        claims = {item["seat"]: item["timeout"] for item in row["waiting"] if item.get("overdue")}
        late = "".join(f"; {seat} overdue: {command}" for seat, command in claims.items())
        if row.get("unlocking"):
            late += f"; unlocking the cards of {', '.join(row['unlocking'])} (silent)"
        if row.get("halted"):
            late += f"; stopped: {row['halted']}"
        yours = f" (your move: {', '.join(row['yours'])})" if row["yours"] else ""
        echo_wrapped(
            f"{mark} {row['title']} {row['game'][:8]}: {row['phase']}; to act: {who}{yours}{late}{news}",
            first="",
            indent=4,
        )
        for item in row.get("todo", []):
            echo_wrapped(f"{item['seat']}: {item['prompt']}", first="    ", indent=6)
            note = f"  ({item['note']})" if item["note"] else ""
            echo_wrapped(item["command"] + note, first="      ", indent=8)
        for line in row["key_mismatches"]:
            echo_wrapped(f"warning: {line}", first="    ", indent=6)
