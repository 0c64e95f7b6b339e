"""``pbem new``, ``join``, ``verify`` and ``games``: create, join and check game files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.appending import (
    KEY,
    SEAT,
    SEND,
    append_command,
    entry_command,
    send_advice,
    write_entries,
)
from pbem.cli.columns import pad
from pbem.cli.common import (
    echo_wrapped,
    fail,
    info,
    now,
    open_key,
    option_texts,
    print_json,
    reported,
    warn,
)
from pbem.cli.reading import (
    compare_with_seen,
    editing,
    own_seats,
    read_game,
    register,
    resolve,
    roster_mismatches,
)
from pbem.cli.reports import carried_text, overtaken_lines, print_evidence

if TYPE_CHECKING:
    from collections.abc import Callable

    from pbem.engine.ledger import Newcomer

EMAIL = typer.Option(
    None, "--email", help="The address your moves are mailed to, signed in the file so nobody can change it."
)


def new(
    file: Path = typer.Argument(..., help="The game file to create."),
    game: str = typer.Option(..., "--game", "-g", help="Game name (see 'pbem games')."),
    players: str = typer.Option(..., "--players", "-p", help="Seat names in seating order, comma-separated."),
    seat: str = typer.Option(..., "--as", help="Your seat; you sign the genesis entry."),
    key: str | None = KEY,
    edition: str | None = typer.Option(None, "--edition", "-e", help="Edition (default: the game's first)."),
    option: list[str] = typer.Option([], "--option", "-o", help="Game option as key=value; repeatable."),
    components: Path | None = typer.Option(
        None,
        "--components",
        help="A component template to play with instead of pbem's (see 'pbem templates show').",
    ),
    email: str | None = EMAIL,
    referee: tuple[str, Path] | None = typer.Option(
        None,
        "--referee",
        metavar="NAME KEYFILE",
        help="A referee outside the game who holds every seat's deck secret in escrow (escrow=referee, "
        "the escrow two players can have), and the identity they exported ('pbem key export NAME').",
    ),
    referee_email: str | None = typer.Option(
        None, "--referee-email", help="The address the referee's mail goes to."
    ),
    computer: list[str] = typer.Option(
        [],
        "--computer",
        metavar="SEAT",
        help="A seat the computer plays, from this home (its key made and kept here, sealed with "
        "your key's passphrase); repeatable.",
    ),
) -> None:
    """Create a game file with its signed genesis entry and the game's component data.

    With --computer, those seats join at once; the computer plays them from this home."""
    with reported():
        import secrets

        from pbem import gamefile
        from pbem.engine import ledger as ledger_mod
        from pbem.errors import FileAccessError

        options = option_texts(option)
        if referee is not None:
            options.setdefault("escrow", "referee")
        seats = [name.strip() for name in players.split(",") if name.strip()]
        setup = ledger_mod.plan(game=game, edition=edition, options=options, seats=seats, creator=seat)
        if file.exists():
            raise FileAccessError(f"{file}: already exists; choose another name")
        data = _components(setup, components)
        chosen = _referee(referee, referee_email)
        _check_computers(computer, seats, seat)
        typed: list[str] = []  # the passphrase of your key, if it has one: the computers' keys take it
        secret = _opened(key or seat, typed)
        if email is not None:
            ledger_mod.check_email(email)
        ledger = ledger_mod.new_game(
            setup,
            secret,
            at=now(),
            nonce=secrets.token_hex(16),
            components=data,
            email=email,
            referee=chosen,
        )
        for name in computer:
            machine = _computer_key(name, typed[-1] if typed else None)
            ledger, _ = ledger_mod.join(ledger, name, machine, now(), computer=True)
        text = gamefile.render_new(
            ledger.header(), ledger.roster_table(), data, ledger.entries, ledger.status_lines()
        )
        gamefile.write_new(file, text)
        register(ledger, file)
        info(f"created {file}: {setup.info.title} ({setup.edition}), game {ledger.game_id}")
        if setup.info.rules is None:
            warn(
                f"{setup.info.title} cannot be played by email yet: players can join and write notes, "
                "not play moves (pbem table keeps the score of a game at the table)"
            )
        for name in computer:
            info(f"{name} is played by the computer from this home (its key is kept here)")
        if computer:
            from pbem.cli.computers import play_turns

            play_turns(file, send=False)
        if not ledger.waiting_to_join:
            info(f"every seat has joined: pbem status {file} says whose move it is")
            return
        info(f"send it to {', '.join(ledger.waiting_to_join)} to join: pbem join {file} --as SEAT")
        if chosen is not None:
            name = chosen.identity.name
            info(f"and to the referee {name}, to accept: pbem referee {file} --as {name}")
        info(f"or invite them by mail: pbem mail send {file} --as {seat} --to ADDRESS --to ADDRESS ...")


def _check_computers(computers: list[str], seats: list[str], creator: str) -> None:
    """Refuse a computer seat that is not a seat of the game, or is the creator's own."""
    from pbem.errors import UsageError

    for name in computers:
        if name not in seats:
            raise UsageError(f"--computer {name}: not a seat of this game (seats: {', '.join(seats)})")
        if name == creator:
            raise UsageError(f"--computer {name}: that is your own seat")
    if len(set(computers)) != len(computers):
        raise UsageError("--computer names a seat twice")


def _opened(name: str, typed: list[str]) -> Any:
    """Your key ``name``, opened as ``open_key`` opens it, the passphrase it took kept in ``typed``."""
    from pbem.cli.common import PASSPHRASE_TRIES, ask_passphrase, at_terminal
    from pbem.keys import KeyStore

    def asking(prompt: str) -> str:
        value = ask_passphrase(prompt)
        typed.append(value)
        return value

    return KeyStore().secret(name, asking, PASSPHRASE_TRIES if at_terminal() else 1)


def _computer_key(name: str, passphrase: str | None) -> Any:
    """A new key for the computer seat ``name``, kept in this home under the seat's name, sealed
    with ``passphrase`` (your key's): refused if a key of that name is here already."""
    from pbem.crypto.identity import SecretKeys
    from pbem.errors import UsageError
    from pbem.keys import KeyStore

    store = KeyStore()
    if store.key_path(name).exists():
        raise UsageError(
            f"--computer {name}: a key named {name} is in this home already; a computer seat takes "
            "a key of its own (name the seat otherwise)"
        )
    secret = SecretKeys.generate()
    store.store(name, secret, passphrase, now())
    return secret


def _referee(given: tuple[str, Path] | None, email: str | None) -> Any:
    """The referee ``--referee NAME KEYFILE`` names, their exported identity read and checked."""
    from pbem.engine import ledger as ledger_mod
    from pbem.errors import UsageError

    if given is None:
        if email is not None:
            raise UsageError("--referee-email needs --referee")
        return None
    identity, signature = _identity(given, email)
    return ledger_mod.Referee(identity, signature, email)


def _identity(given: tuple[str, Path], email: str | None) -> tuple[Any, bytes]:
    """The identity a ``NAME KEYFILE`` pair names (``pbem key export NAME``), with its signature:
    refused if the file holds another's, or if the address it comes with is not one."""
    from pbem.crypto.identity import parse_signed_identity_line
    from pbem.engine import ledger as ledger_mod
    from pbem.errors import UsageError
    from pbem.gamefile import read_bytes

    name, keyfile = given
    text = read_bytes(keyfile).decode("utf-8", "replace")
    identity, signature = parse_signed_identity_line(text, str(keyfile))
    if identity.name != name:
        raise UsageError(f"{keyfile} holds {identity.name}'s identity, not {name}'s")
    if email is not None:
        ledger_mod.check_email(email)
    return identity, signature


def referee(
    file: Path = typer.Argument(..., help="The game file."),
    name: str = typer.Option(..., "--as", help="The referee's name, as the game names them."),
    key: str | None = KEY,
    send: bool = SEND,
) -> None:
    """As the game's referee: accept, then answer what the escrow asks of you.

    Accepting gives the key the seats' escrow is sealed to.

    Each later run acknowledges the seats' dealings and gives what an unlock of a silent seat needs.

    The referee holds every seat's deck secret, so could read every hidden card, and never plays."""
    from pbem.engine import ledger as ledger_mod

    with reported(), editing(file):
        loaded, ledger = read_game(file, writing=True)
        secret = open_key(key or name)
        first = ledger.referee_joined is None
        updated, entry = ledger_mod.referee_entry(ledger, name, secret, now())
        write_entries(loaded, [entry], updated)
        if first:
            info(f"the referee {name} accepted (entry {entry['seq']}): the seats' escrows are sealed to you")
        else:
            info(f"the referee {name} {carried_text(entry)} (entry {entry['seq']})")
    if send:
        from pbem.cli.sending import send_after

        send_after(file, name)


def _components(setup: Any, path: Path | None) -> dict[str, Any]:
    """The component values a new game embeds, checked now so a bad template never reaches a
    game file."""
    from pbem.cli.template_files import component_values
    from pbem.engine.ruleset import ruleset_for
    from pbem.errors import GameFileError, UsageError

    game, edition = setup.info.name, setup.edition
    data = component_values(game, edition, path)
    if not data and path is None:
        data = _whole_game_template(game)
    if not data:
        return {}
    rules = ruleset_for(setup.info)
    if rules is None:
        raise UsageError(f"{game} takes no component template yet")
    try:
        rules.setup(setup.seats, edition, setup.options, data)
    except GameFileError as exc:
        raise UsageError(f"{path or 'the ' + edition + ' template'}: {exc}") from None
    return data


def _whole_game_template(game: str) -> dict[str, Any]:
    """The values of a template for every edition of a game (``GAME.toml``), for a game whose
    rules are played by email: the genesis signs them, so a later change to the template never
    changes how a game replays."""
    from pbem.cli.template_files import read_template, template_dir
    from pbem.engine.registry import get
    from pbem.kit import templates

    path = template_dir() / f"{game}.toml"
    if get(game).rules is None or not path.is_file():
        return {}
    return templates.values(read_template(path))


def join(
    file: Path = typer.Argument(..., help="The game file."),
    seat: str = SEAT,
    key: str | None = KEY,
    email: str | None = typer.Option(
        None,
        "--email",
        help="The address your moves are mailed to, signed in the file so nobody can change it "
        "(default: the address of pbem mail setup).",
    ),
    send: bool = SEND,
) -> None:
    """Join a game: add your self-signed public keys (and your address) to the file."""
    from pbem.cli.sending import mail_account
    from pbem.engine import ledger as ledger_mod

    given: dict[str, str | None] = {"email": email}

    def check(current: Any) -> None:
        ledger_mod.check_can_join(current, seat)
        if email is not None:
            ledger_mod.check_email(email)
        elif seat not in current.addresses:
            # a seat with no address yet takes the mail account's: the one the others' mail reaches
            account = mail_account()
            given["email"] = account.address if account is not None else None

    def joined(updated: Any, entry: dict[str, Any]) -> None:
        info(f"{seat} joined {file} (entry {entry['seq']}, fingerprint {updated.roster[seat].fingerprint})")
        if email is None and "email" in entry:
            setup = "the address of pbem mail setup (--email gives another)"
            info(f"{seat}'s mail goes to {entry['email']}, {setup}")
        waiting = ", ".join(updated.waiting_to_join)
        # by mail: the send (or pbem mail send) says where it goes
        if waiting and (send or updated.addresses):
            info(f"still to join: {waiting}")
        elif waiting:
            info(f"send it to {waiting} to join")
        elif updated.referee_waiting is not None:
            name = updated.referee_waiting
            info(f"every seat has joined; the referee {name} accepts with: pbem referee {file} --as {name}")
        else:
            info("every seat has joined")
        mailed = [other for other in updated.participants if other in updated.addresses]
        advice = send_advice(updated, seat, mailed, sent=send) if updated.addresses else ""
        if advice:
            info(advice)

    append_command(
        file,
        seat,
        key,
        check,
        lambda current, secret, at: ledger_mod.join(current, seat, secret, at, given["email"]),
        joined,
        send=send,
    )


note = entry_command(
    "Add a signed message to the game: a deal struck, a word to the table.",
    "pbem.engine.ledger:check_can_note",
    "pbem.engine.ledger:note",
    lambda asked, _, entry: info(f"{asked.seat}'s note is entry {entry['seq']} of {asked.file}"),
    ("text", typer.Argument(..., help="The message, quoted.")),
)


def handover(
    file: Path = typer.Argument(..., help="The game file."),
    seat: str = SEAT,
    to: tuple[str, Path] | None = typer.Option(
        None,
        "--to",
        metavar="NAME KEYFILE",
        help="The player taking your seat, and the identity they exported ('pbem key export NAME').",
    ),
    to_computer: str | None = typer.Option(
        None,
        "--to-computer",
        metavar="NAME",
        help="Give your seat to a computer player hosted by this home: a key NAME is made and kept "
        "here, sealed with your key's passphrase. This home's keys then read the seat's hand.",
    ),
    computer: bool = typer.Option(
        False,
        "--computer",
        help="With --to: a computer player takes the seat, hosted by the home that exported "
        "KEYFILE (whose player can then read the seat's hand).",
    ),
    key: str | None = KEY,
    email: str | None = typer.Option(None, "--email", help="The address the new player's mail goes to."),
    silent: str | None = typer.Option(
        None,
        "--silent",
        metavar="SEAT",
        help="Propose handing on SEAT, a silent player's (a timeout was claimed against it, or, before "
        "the first card, past its deadline), instead of your own: done once every other remaining "
        "player consents (pbem consent).",
    ),
    send: bool = SEND,
) -> None:
    """Hand your seat on to another player, whose key signs for it from the next entry on.

    Your seat's secret for this game goes to them sealed, so they read your hand and play on.

    With --to-computer NAME a computer hosted by this home takes it (--to ... --computer: by theirs).

    The computer's home can read the seat's hand; it plays whenever that home's commands ask it.

    With --silent, you propose handing on a silent player's seat, once the others consent.

    The new player then takes it with 'pbem join FILE --as SEAT'; the escrow seals them its secret.

    Before the first card, the new player joins with keys of their own; the decks are set up again."""
    from pbem.engine import ledger as ledger_mod

    if to_computer is not None:
        with reported():
            _check_handover_to_computer(to, silent, computer)
        _handover_to_computer(file, seat, to_computer, key, email, send=send)
        return
    with reported():
        if to is None:
            raise _usage(
                "say who takes your seat: --to NAME KEYFILE (a player, or with --computer a computer "
                "hosted by their home) or --to-computer NAME (a computer hosted by this home)"
            )
        if computer and silent is not None:
            raise _usage("--silent hands a silent seat on to a player: --computer cannot go with it")
        identity, signature = _identity(to, email)
    name = to[0]
    newcomer = ledger_mod.Newcomer(identity, signature, email, computer=computer)
    if silent is not None:
        _propose(file, seat, silent, key, newcomer, send=send)
        return

    def handed(updated: Any, entry: dict[str, Any]) -> None:
        info(
            f"{seat} is handed on to {name} (entry {entry['seq']}, fingerprint "
            f"{updated.roster[seat].fingerprint}); your key no longer signs for {seat}"
        )
        if computer:
            info(
                f"a computer plays {seat} from the home that holds {name}'s key: that home's player "
                f"can read {seat}'s hand from now on"
            )
        if send and seat in updated.addresses:  # the send mails it to them, the whole game
            info(f"{name} plays on as {seat} with their own key: the message to them carries the whole game")
        else:
            info(
                f"send the file to {name}, who plays on as {seat} with their own key "
                f"(pbem show {file} --as {seat} shows them {seat}'s hand)"
            )

    _append_handover(file, seat, key, newcomer, handed, send=send)


def _usage(message: str) -> Exception:
    from pbem.errors import UsageError

    return UsageError(message)


def _check_handover_to_computer(to: tuple[str, Path] | None, silent: str | None, computer: bool) -> None:
    if to is not None:
        raise _usage("--to-computer makes the computer's key here: it cannot go with --to")
    if silent is not None:
        raise _usage("--silent hands a silent seat on to a player: --to-computer cannot go with it")
    if computer:
        raise _usage("--computer goes with --to NAME KEYFILE; --to-computer NAME is a computer already")


def _handover_to_computer(
    file: Path, seat: str, name: str, key: str | None, email: str | None, *, send: bool
) -> None:
    """Hand ``seat`` on to a computer player hosted by this home: its key ``name`` made, kept
    here sealed with the passphrase of the key that signs the handover (so this home opens both
    alike), and removed again if the handover is refused."""
    from pbem.cli.common import given_passphrase
    from pbem.cli.reading import default_key, read_game
    from pbem.crypto.identity import SecretKeys
    from pbem.engine import ledger as ledger_mod
    from pbem.keys import KeyStore

    store = KeyStore()
    with reported():
        if store.key_path(name).exists():
            raise _usage(
                f"--to-computer {name}: a key named {name} is in this home already; the computer "
                "takes a key of its own (name it otherwise)"
            )
        if email is not None:
            ledger_mod.check_email(email)
        _, ledger = read_game(file)
        typed: list[str] = []  # the passphrase of your key, if it has one: the computer's key takes it
        _opened(key or default_key(ledger, seat), typed)
        machine = SecretKeys.generate()
        identity = machine.public(name)
        newcomer = ledger_mod.Newcomer(
            identity, machine.sign(identity.binding_message()), email, computer=True
        )
        ledger_mod.check_can_handover(ledger, seat, identity)
        passphrase = typed[-1] if typed else None
        store.store(name, machine, passphrase, now())

    def handed(updated: Any, entry: dict[str, Any]) -> None:
        info(
            f"{seat} is handed on to the computer {name} (entry {entry['seq']}, fingerprint "
            f"{updated.roster[seat].fingerprint}), hosted by this home: it plays whenever this "
            f"home's commands leave it asked; your key no longer signs for {seat}"
        )
        info(f"this home's keys read {seat}'s hand from now on (its key {name} is kept here)")

    written = False
    try:
        with given_passphrase(passphrase):
            _append_handover(file, seat, key, newcomer, handed, send=send)
        written = True
    finally:
        if not written and not _signs_in(file, identity):
            store.key_path(name).unlink(missing_ok=True)  # refused: no key for a seat it never took


def _append_handover(
    file: Path,
    seat: str,
    key: str | None,
    newcomer: Newcomer,
    handed: Callable[[Any, dict[str, Any]], None],
    *,
    send: bool,
) -> None:
    """The handover entry of ``seat`` to ``newcomer``, signed and appended (``append_command``)."""
    from pbem.engine import ledger as ledger_mod

    append_command(
        file,
        seat,
        key,
        lambda current: ledger_mod.check_can_handover(current, seat, newcomer.identity),
        lambda current, secret, at: ledger_mod.handover(current, seat, newcomer, secret, at=at),
        handed,
        send=send,
    )


def _signs_in(file: Path, identity: Any) -> bool:
    """Whether ``file``'s game now seats ``identity`` (the handover was written after all)."""
    from pbem.cli.reading import read_game
    from pbem.errors import PbemError

    try:
        _, ledger = read_game(file)
    except PbemError:  # unreadable: then it seats nobody new
        return False
    return any(held.sign_public == identity.sign_public for held in ledger.roster.values())


def _propose(file: Path, seat: str, silent: str, key: str | None, newcomer: Newcomer, *, send: bool) -> None:
    from pbem.engine import ledger as ledger_mod

    at = now()

    def proposed(updated: Any, entry: dict[str, Any]) -> None:
        waiting = [demand.seat for demand in _consents(updated)]
        info(
            f"{seat} proposed handing {silent}'s seat on to {newcomer.identity.name} (entry {entry['seq']}); "
            + (f"play waits for {', '.join(waiting)} to consent (pbem consent)" if waiting else "done")
        )

    append_command(
        file,
        seat,
        key,
        lambda current: ledger_mod.check_can_replace(current, seat, silent, newcomer.identity, at=at),
        lambda current, secret, _: ledger_mod.replace(current, seat, silent, newcomer, secret, at=at),
        proposed,
        send=send,
    )


def drop(
    file: Path = typer.Argument(..., help="The game file."),
    silent: str = typer.Argument(..., metavar="LATE", help="The silent seat to go on without."),
    seat: str = SEAT,
    key: str | None = KEY,
    send: bool = SEND,
) -> None:
    """Propose going on without a seat silent past its deadline, before the first card.

    Done once every other player consents (pbem consent): the game is set up again for the rest.

    Only where the game's rules allow that many players; pbem status says whether they do.

    A seat that has not joined by deadline_days after the game was made is gone on without alike."""
    from pbem.engine import ledger as ledger_mod

    at = now()

    def proposed(updated: Any, entry: dict[str, Any]) -> None:
        waiting = [demand.seat for demand in _consents(updated)] or ledger_mod.consenting_before_start(
            updated
        )
        if silent in updated.dropped:
            info(_setup_line(updated))
            return
        info(
            f"{seat} proposed going on without {silent} (entry {entry['seq']}); play waits for "
            f"{', '.join(waiting)} to consent (pbem consent)"
        )

    append_command(
        file,
        seat,
        key,
        lambda current: ledger_mod.check_can_drop(current, seat, silent, at=at),
        lambda current, secret, _: ledger_mod.drop(current, seat, silent, secret, at=at),
        proposed,
        send=send,
    )


def _setup_line(ledger: Any) -> str:
    """What the last set-up of the game said of it (a seat gone on without)."""
    return str(ledger.setups[max(ledger.setups)])


def _consents(ledger: Any) -> list[Any]:
    from pbem.engine import table as tables

    if ledger.table is None or ledger.rules is None:
        return []
    return [demand for demand in tables.demands(ledger.rules, ledger.table) if demand.kind == "consent"]


def verify(
    file: Path = typer.Argument(..., help="The game file to check."),
    all_problems: bool = typer.Option(False, "--all", help="List every problem, not just the first."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Check a game file's signatures, hash chain, genesis and every proof (exit 3 if unsound)."""
    from pbem import gamefile
    from pbem.cli.proof_cache import for_home
    from pbem.cli.seen_heads import short
    from pbem.engine.ledger import Audit, Problem, audit
    from pbem.errors import EquivocationError, GameFileError, IdentityError, PbemError

    # Every proof is checked, whatever the cache holds: verify's answer rests on the file alone.
    # The passes are recorded, so the commands that follow need not check them again.
    cache = for_home(consult=False)
    try:
        result = audit(gamefile.load(resolve(file)).data, cache)
        if result.ok:
            cache.save()
    except GameFileError as exc:
        result = Audit(None, (Problem(str(exc).removeprefix(f"{file}: ")),))
    except PbemError as exc:
        raise fail(str(exc), exc.exit_code) from None
    problems = result.problems if all_problems else result.problems[:1]
    equivocation = next((p for p in result.problems if p.kind == "equivocation"), None)
    if equivocation is not None and equivocation not in problems:
        problems = (*problems, equivocation)  # the proof is always shown
    mismatches = roster_mismatches(result.ledger) if result.ledger is not None else []
    seen = compare_with_seen(result.ledger) if result.ok and result.ledger is not None else None
    if as_json:
        report = {"file": str(file), **result.as_dict(problems), "key_mismatches": mismatches}
        if seen is not None:
            report["seen"] = {"verdict": seen.verdict, "line": seen.line(), "seen_head": seen.seen_head}
        print_json(report)
    if not result.ok:
        if not as_json:
            for problem in problems:
                typer.echo(f"error: {file}: {problem}", err=True)
            if equivocation is not None:
                print_evidence(equivocation.evidence)
        code = EquivocationError.exit_code if equivocation else GameFileError.exit_code
        raise typer.Exit(code)
    if mismatches:
        if not as_json:
            for line in mismatches:
                typer.echo(f"error: {file}: {line}", err=True)
        raise typer.Exit(IdentityError.exit_code)
    assert seen is not None
    if seen.verdict == "fork":
        if not as_json:
            typer.echo(f"error: {file}: {seen.line()}", err=True)
        raise typer.Exit(GameFileError.exit_code)
    if seen.line() and not as_json:
        warn(f"{file}: {seen.line()}")
    if not as_json:
        ledger = result.ledger
        assert ledger is not None
        typer.echo(
            f"ok: {file}: {ledger.info.title} ({ledger.edition}), game {ledger.game_id}, "
            f"{ledger.size()}, every signature and link checked"
            + (", every hidden-deck proof checked" if _has_decks(ledger) else "")
        )
        typer.echo(f"  head {short(ledger.head)} (step {len(ledger.steps) - 1}): compare it with the others'")
        for seat in ledger.every_seat:
            identity = ledger.roster.get(seat)
            if seat in ledger.dropped:
                gone = f"the others went on without it in entry {ledger.dropped[seat]}"
                if identity is None:
                    typer.echo(f"  {pad(seat, 16)} never joined; {gone}")
                else:
                    typer.echo(
                        f"  {pad(seat, 16)} {identity.fingerprint}  (entry {ledger.joined_at[seat]}; {gone})"
                    )
            elif identity is None:
                typer.echo(f"  {pad(seat, 16)} not joined yet")
            else:
                typer.echo(f"  {pad(seat, 16)} {identity.fingerprint}  ({_held_since(ledger, seat)})")
                start = ledger.joined_at[seat]
                for handover in ledger.handovers.get(seat, ()):
                    typer.echo(
                        f"  {pad('', 16)} {handover.before.fingerprint}  (held it from entry {start} "
                        f"to entry {handover.seq})"
                    )
                    start = handover.seq
        if ledger.referee is not None:
            name = ledger.referee.name
            since = (
                "not accepted yet"
                if ledger.referee_joined is None
                else f"referee, entry {ledger.referee_joined}"
            )
            typer.echo(f"  {pad(name, 16)} {ledger.referee.fingerprint}  ({since})")


def games(as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List the games pbem knows, with player counts, editions and options."""
    from pbem.engine import registry

    known = registry.games()
    if as_json:
        print_json(
            [
                {
                    "name": g.name,
                    "title": g.title,
                    "aliases": list(g.aliases),
                    "players": [g.min_players, g.max_players],
                    "editions": list(g.editions),
                    "by_email": g.rules is not None,
                    "options": {
                        o.name: {"default": o.default, "allowed": o.describe(), "help": o.help}
                        for o in g.options
                    },
                }
                for g in known
            ]
        )
        return
    for g in known:
        echo_wrapped(
            f"{g.name}  ({g.title}; {g.min_players}-{g.max_players} players; "
            f"editions: {', '.join(g.editions)})",
            first="",
            indent=4,
        )
        echo_wrapped(_by_email(g), first="    ", indent=6)
        for o in g.options:
            echo_wrapped(f"--option {o.describe()}: {o.help}", first="    ", indent=6)


def merge(
    file: Path = typer.Argument(..., help="Your copy of the game file."),
    others: list[Path] = typer.Argument(..., help="Other copies to take entries from."),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the result to this new file instead of FILE."
    ),
) -> None:
    """Combine copies of a game that grew apart (entries made at the same time on different copies)."""
    from pbem import gamefile
    from pbem.cli.proof_cache import for_home
    from pbem.engine import ledger as ledger_mod
    from pbem.errors import EquivocationError, UsageError
    from pbem.mail.delivery import DELTA

    with reported(), editing(file):
        base = gamefile.load(resolve(file))
        copies = [(str(other), gamefile.load(resolve(other)).data) for other in others]
        for name, data in [(str(file), base.data), *copies]:
            if DELTA in data:
                raise UsageError(
                    f"{name} holds the entries of a message (a [delta] table), not a game file: "
                    f"apply it with pbem mail import {name}"
                )
        cache = for_home()
        try:
            result = ledger_mod.merge((str(file), base.data), copies, cache)
            cache.save()
        except EquivocationError as exc:
            print_evidence(exc.evidence)
            raise
        merged = result.ledger
        if output is not None or not gamefile.same_entries(base, result.entries):
            text = gamefile.rewrite_entries(
                base, result.entries, merged.header(), merged.roster_table(), merged.status_lines()
            )
            if output is None:
                gamefile.replace(base, text)
            else:
                gamefile.write_new(output, text)
        seen = compare_with_seen(merged)
    target = output or file
    for line in overtaken_lines(merged, result.overtaken, own_seats(merged, joining=True), str(target)):
        warn(f"{target}: {line}")
    # the entries seen here that the copy goes on without are those just said, with their command
    if seen.line() and not (seen.verdict == "overtaken" and result.overtaken):
        warn(f"{target}: {seen.line()}")
    if result.added:
        info(
            f"merged {result.added} new entr{'y' if result.added == 1 else 'ies'} into {target} "
            f"({len(result.entries)} entries in all)"
        )
    else:
        info(f"{target} already has every entry of {', '.join(map(str, others))}")
    info(merged.status_lines()[-1])


def _by_email(info: Any) -> str:
    if info.rules is not None:
        return "played by email, every move checked by the rules; at the table too (pbem table)"
    return (
        "by email: players can join and write notes, not play moves yet; "
        "at the table: pbem table keeps the score"
    )


def _held_since(ledger: Any, seat: str) -> str:
    """Since when the seat's present key holds it: its join, or the handover to its holder."""
    past = ledger.handovers.get(seat)
    if not past:
        computer = ", played by a computer" if seat in ledger.computers else ""
        return f"entry {ledger.joined_at[seat]}{computer}"
    return f"entry {past[-1].seq}: handed on to {past[-1].holder}"


def _has_decks(ledger: Any) -> bool:
    return ledger.table is not None and ledger.table.decks is not None
