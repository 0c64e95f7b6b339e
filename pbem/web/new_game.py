"""A new game started from the page, as ``pbem new`` starts it, and its invitations mailed as
``pbem mail send --to`` mails them: the form lists the games pbem knows with their editions and
options (``pbem games``), and this home's keys a seat may sign with."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import typer

from pbem.web.pages import Done, Settings

FIELD = re.compile(r"option\.([a-z0-9_-]+)\.([a-z0-9_]+)")


def new_game_form() -> dict[str, Any]:
    """What the form offers: each game playable by email, its editions and its options (kind,
    choices, default, help); this home's keys; the mail account's address, if any."""
    from pbem.cli.sending import mail_account
    from pbem.engine import registry
    from pbem.keys import KeyStore

    games = [
        {
            "name": game.name,
            "title": game.title,
            "players": (game.min_players, game.max_players),
            "editions": list(game.editions),
            "options": [
                {
                    "name": option.name,
                    "kind": option.kind,
                    "choices": list(option.choices) if option.kind == "choice" else [],
                    "default": option.default,
                    "minimum": option.minimum,
                    "maximum": option.maximum,
                    "help": option.help,
                }
                for option in game.options
            ],
        }
        for game in registry.games()
        if game.rules is not None
    ]
    keys = sorted(entry.name for entry in KeyStore().entries()[0] if entry.private)
    account = mail_account()
    return {"games": games, "signers": keys, "address": account.address if account is not None else None}


def create(settings: Settings, form: dict[str, str]) -> tuple[Done, str | None]:
    """``pbem new`` with what the form chose, into this home's library folder, then, for the
    addresses given, ``pbem mail send ID --as SEAT --to ADDRESS...``: what they said, and the new
    game's id if it was made. Only the chosen game's options are read; an option left at its
    default is not given (the genesis records every option anyway)."""
    from pbem.cli import game_commands
    from pbem.cli.common import collected, given_passphrase
    from pbem.cli.reading import read_game
    from pbem.cli.sending import send_file
    from pbem.errors import PbemError
    from pbem.keys import default_home
    from pbem.mail.library import Library

    chosen, _, edition = form.get("game", "").partition(" ")
    seat = form.get("seat", "").strip()
    options = _options(chosen, form)
    by_mail = form.get("email") == "yes"
    invited = [address.strip() for address in form.get("invite", "").replace(";", ",").split(",")]
    invited = [address for address in invited if address]
    library = Library(default_home())
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = library.folder / f"{chosen or 'game'}-{stamp}.toml"
    with collected() as said, given_passphrase(settings.passphrase):
        if not chosen:
            return Done(False, ["error: choose a game"]), None
        if path.exists():
            return Done(False, ["error: a game was made this very second: try again"]), None
        library.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        address = None
        if by_mail or invited:
            from pbem.cli.sending import mail_account

            account = mail_account()
            if account is None:
                return Done(False, ["error: no mail account to play by email with: pbem mail setup"]), None
            address = account.address
        try:
            game_commands.new(
                file=path,
                game=chosen,
                players=form.get("players", ""),
                seat=seat,
                key=None,
                edition=edition or None,
                option=options,
                components=None,
                email=address,
                referee=None,
                referee_email=None,
                computer=[name.strip() for name in form.get("computers", "").split(",") if name.strip()],
            )
        except typer.Exit as exc:
            if exc.exit_code != 0:
                return Done(False, said), None
        try:
            game_id = read_game(path)[1].game_id
        except PbemError as exc:
            return Done(False, [*said, f"error: {exc}"]), None
        if invited:
            try:
                send_file(path, seat, full=False, to_file=None, stdout=False, to=tuple(invited))
            except PbemError as exc:
                said.append(f"error: the invitations were not sent: {exc}")
                return Done(False, said), game_id
    return Done(True, said), game_id


def _options(chosen: str, form: dict[str, str]) -> list[str]:
    """The ``--option`` texts of the form's fields for game ``chosen``, those left at their
    default left out: a default may depend on the game (escrow with two players) as the command
    decides it when no option is given."""
    from pbem.engine import registry
    from pbem.errors import PbemError

    try:
        specs = {option.name: option for option in registry.get(chosen).options}
    except PbemError:
        return []
    given: list[str] = []
    for name, value in form.items():
        found = FIELD.fullmatch(name)
        if found is None or found.group(1) != chosen or found.group(2) not in specs or not value.strip():
            continue
        spec = specs[found.group(2)]
        try:
            if spec.parse(value.strip()) == spec.default:
                continue
        except PbemError:
            pass  # the command says what is wrong with it
        given.append(f"{spec.name}={value.strip()}")
    return given
