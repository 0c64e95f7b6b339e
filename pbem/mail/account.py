"""The player's mail account: where to send through and fetch from, set once (``pbem mail setup``)
and kept in ``mail.toml`` under the pbem home, readable by its owner only.

A password is never stored there: the file names where to get it, the way msmtp's
``passwordeval`` does: an environment variable, a command that prints it (``pass show mail``),
or the system keyring (through the ``keyring`` package, when installed).
"""

from __future__ import annotations

import os
import stat
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import IdentityError, MailTransportError, UsageError

SECURITY = ("starttls", "tls")  # pbem never sends a password, or a game, in clear
DEFAULT_PORTS = {
    ("smtp", "starttls"): 587,
    ("smtp", "tls"): 465,
    ("imap", "starttls"): 143,
    ("imap", "tls"): 993,
}
AFTER = ("seen", "move")


@dataclass(frozen=True)
class Password:
    """Where the password comes from: ``env`` (a variable's name), ``command`` or ``keyring``."""

    source: str
    value: str

    def get(self, user: str) -> str:
        if self.source == "env":
            found = os.environ.get(self.value)
            if found is None:
                raise MailTransportError(f"the mail password is to come from ${self.value}, which is not set")
            return found
        if self.source == "command":
            import shlex

            try:
                done = subprocess.run(
                    shlex.split(self.value), capture_output=True, text=True, timeout=60, check=False
                )
            except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
                raise MailTransportError(f"the password command {self.value!r} did not run ({exc})") from None
            if done.returncode != 0:
                raise MailTransportError(
                    f"the password command {self.value!r} failed (exit {done.returncode})"
                )
            return done.stdout.splitlines()[0] if done.stdout.strip() else ""
        try:
            import keyring  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            raise MailTransportError(
                "the password is in the keyring, but the keyring package is not installed "
                "(pip install keyring)"
            ) from None
        found = keyring.get_password(self.value, user)
        if found is None:
            raise MailTransportError(f"the keyring holds no password for {user} under {self.value!r}")
        return str(found)

    def as_data(self) -> dict[str, str]:
        return {self.source: self.value}


@dataclass(frozen=True)
class Server:
    """An SMTP or IMAP server and how to log in to it."""

    host: str
    port: int
    security: str
    user: str
    password: Password
    ca_file: str = ""  # a certificate to trust besides the system's (a private server)

    def context(self) -> Any:
        import ssl

        context = ssl.create_default_context()
        if self.ca_file:
            try:
                context.load_verify_locations(cafile=self.ca_file)
            except (OSError, ssl.SSLError) as exc:
                raise MailTransportError(
                    f"the certificate file {self.ca_file} cannot be read ({exc})"
                ) from None
        return context


@dataclass(frozen=True)
class Account:
    address: str
    smtp: Server | None
    imap: Server | None
    folder: str = "INBOX"
    after: str = "seen"  # what fetch does with a message it applied: mark it seen, or move it
    archive: str = "pbem"  # the folder it moves to
    pictures: bool = False  # whether messages carry a picture of the table (about 100 KB more)


def path(home: Path) -> Path:
    return home / "mail.toml"


def load(home: Path) -> Account | None:
    """The account set up in ``home``, or None if there is none."""
    file = path(home)
    try:
        info = file.stat()
    except FileNotFoundError:
        return None
    if os.name == "posix" and info.st_mode & 0o077:
        mode = stat.S_IMODE(info.st_mode)
        raise IdentityError(f"{file} is readable by other users (mode {mode:04o}); run 'chmod 600 {file}'")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{file} cannot be read ({exc}); make it again with pbem mail setup") from None
    try:
        return Account(
            address=str(data["address"]),
            smtp=_server(data.get("smtp"), "smtp"),
            imap=_server(data.get("imap"), "imap"),
            folder=str(data.get("folder", "INBOX")),
            after=str(data.get("after", "seen")),
            archive=str(data.get("archive", "pbem")),
            pictures=data.get("pictures", False) is True,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(
            f"{file} is not a mail account pbem wrote ({exc}); make it again with pbem mail setup"
        ) from None


def _server(data: Any, kind: str) -> Server | None:
    if data is None:
        return None
    password = data["password"]
    if not isinstance(password, dict) or len(password) != 1:
        raise ValueError(f"[{kind}] password must name one source: env, command or keyring")
    ((source, value),) = password.items()
    if source not in ("env", "command", "keyring"):
        raise ValueError(f"[{kind}] password source {source!r}")
    security = str(data["security"])
    if security not in SECURITY:
        raise ValueError(f"[{kind}] security must be one of {', '.join(SECURITY)}")
    return Server(
        host=str(data["host"]),
        port=int(data.get("port", DEFAULT_PORTS[(kind, security)])),
        security=security,
        user=str(data["user"]),
        password=Password(source, str(value)),
        ca_file=str(data.get("ca_file", "")),
    )


def save(home: Path, account: Account) -> Path:
    """Write the account, readable by its owner only."""
    import tomlkit

    from pbem.gamefile import temporary_beside

    doc = tomlkit.document()
    doc.add(tomlkit.comment("pbem's mail account (pbem mail setup); no password is kept here"))
    doc["address"] = account.address
    doc["folder"] = account.folder
    doc["after"] = account.after
    doc["archive"] = account.archive
    doc["pictures"] = account.pictures
    for kind, server in (("smtp", account.smtp), ("imap", account.imap)):
        if server is None:
            continue
        table = tomlkit.table()
        table["host"] = server.host
        table["port"] = server.port
        table["security"] = server.security
        table["user"] = server.user
        table["password"] = server.password.as_data()
        if server.ca_file:
            table["ca_file"] = server.ca_file
        doc[kind] = table
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    file = path(home)
    descriptor, tmp = temporary_beside(file, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(tomlkit.dumps(doc))
        os.replace(tmp, file)
    finally:
        tmp.unlink(missing_ok=True)
    return file
