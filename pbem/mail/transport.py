"""Talking to mail servers: sending through SMTP, reading an IMAP folder; always over TLS.

Every failure of the server or the network is one MailTransportError saying what failed: the
connection, the login, a recipient refused, the connection dropped.
"""

from __future__ import annotations

import imaplib
import re
import smtplib
import ssl
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from email.message import EmailMessage

from pbem.errors import MailTransportError
from pbem.mail.account import Server

TIMEOUT = 60  # seconds for any one exchange with a server
SIZES_AT_ONCE = 500  # UIDs in one command: servers cap a command's length (some near 8 KB)
# The headers, a few kilobytes: not HEADER.FIELDS, which some servers fail on for headers they
# cannot parse (a From of '<a@b>, <'), though they serve the bytes as they came.
HEADERS = "BODY.PEEK[HEADER]"


@dataclass(frozen=True)
class Head:
    """What the server says of a message before it is downloaded."""

    size: int | None  # as the server declares it
    headers: bytes  # its headers, which name it (HEADERS)


def _responses(data: Sequence[object]) -> Iterator[tuple[bytes, bytes]]:
    """imaplib's FETCH answer as (what the server says of each message, its literal): a literal
    comes as a tuple, and the rest of that message's answer in the bytes after it."""
    current: list[bytes] | None = None
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], bytes):
            if current is not None:
                yield current[0], current[1]
            current = [item[0], item[1] if isinstance(item[1], bytes) else b""]
        elif isinstance(item, bytes) and current is not None and not re.match(rb"\d+ \(", item):
            current[0] += item
        elif isinstance(item, bytes):
            if current is not None:
                yield current[0], current[1]
            current = [item, b""]
    if current is not None:
        yield current[0], current[1]


def send(server: Server, message: EmailMessage, recipients: Sequence[str]) -> None:
    """Send ``message`` to ``recipients``; MailTransportError if any is refused or the server fails."""
    where = f"the mail server {server.host}:{server.port}"
    try:
        with _smtp(server) as client:
            refused = client.send_message(message, to_addrs=list(recipients))
    except smtplib.SMTPRecipientsRefused as exc:
        names = ", ".join(sorted(exc.recipients))
        raise MailTransportError(f"{where} refused every recipient ({names}); nothing was sent") from None
    except smtplib.SMTPAuthenticationError:
        raise MailTransportError(
            f"{where} refused the login of {server.user}: check the user and password"
        ) from None
    except smtplib.SMTPServerDisconnected:
        raise MailTransportError(f"{where} closed the connection before the message was sent") from None
    except smtplib.SMTPException as exc:
        raise MailTransportError(f"{where} refused the message ({_reason(exc)})") from None
    except (OSError, ssl.SSLError) as exc:
        raise MailTransportError(f"{where} cannot be reached ({_reason(exc)})") from None
    if refused:
        names = ", ".join(sorted(refused))
        raise MailTransportError(f"{where} refused {names}; the message went to the others")


@contextmanager
def _smtp(server: Server) -> Iterator[smtplib.SMTP]:
    context = server.context()
    if server.security == "tls":
        client: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT, context=context)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
    try:
        if server.security == "starttls":
            client.starttls(context=context)
        client.login(server.user, server.password.get(server.user))
        yield client
    finally:
        try:
            client.quit()
        except (smtplib.SMTPException, OSError):
            client.close()


class Mailbox:
    """An IMAP folder, opened and logged in to: its unseen messages, marked or moved once read."""

    def __init__(self, server: Server, folder: str) -> None:
        self.server = server
        self.folder = folder
        self.where = f"the mail server {server.host}:{server.port}"
        self.client: imaplib.IMAP4 | None = None
        # The folder's UIDVALIDITY: while it stays the same, a UID names the same message, so
        # the messages fetch passed over are remembered by UID (see library.PassedOver).
        self.validity = ""

    def __enter__(self) -> Mailbox:
        server = self.server
        try:
            context = server.context()
            if server.security == "tls":
                self.client = imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=context, timeout=TIMEOUT
                )
            else:
                self.client = imaplib.IMAP4(server.host, server.port, timeout=TIMEOUT)
                self.client.starttls(ssl_context=context)
            self.client.login(server.user, server.password.get(server.user))
            status, _ = self.client.select(_quote(self.folder))
        except imaplib.IMAP4.error as exc:
            self.close()
            if (
                "login" in str(exc).lower()
                or "authentic" in str(exc).lower()
                or "credential" in str(exc).lower()
            ):
                raise MailTransportError(
                    f"{self.where} refused the login of {server.user}: check the user and password"
                ) from None
            raise MailTransportError(f"{self.where} refused ({_reason(exc)})") from None
        except (TimeoutError, OSError, ssl.SSLError) as exc:
            self.close()
            raise MailTransportError(f"{self.where} cannot be reached ({_reason(exc)})") from None
        if status != "OK":
            self.close()
            raise MailTransportError(f"{self.where} has no folder {self.folder!r}")
        _, validity = self.client.response("UIDVALIDITY")
        first = validity[0] if validity else None
        self.validity = first.decode("ascii", "replace").strip() if isinstance(first, bytes) else ""
        return self

    @property
    def name(self) -> str:
        """The folder as one string: server, user and folder name."""
        return f"imap://{self.server.user}@{self.server.host}:{self.server.port}/{self.folder}"

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.client is None:
            return
        with suppress(imaplib.IMAP4.error, OSError):
            self.client.logout()
        self.client = None

    def unseen(self) -> list[str]:
        """The UIDs of the folder's unseen messages, in the order the server gives them."""
        with self._reading():
            status, data = self._client().uid("SEARCH", "UNSEEN")
        if status != "OK":
            raise MailTransportError(f"{self.where} refused to search {self.folder!r}")
        first = data[0] if data else None
        return first.decode("ascii", "replace").split() if isinstance(first, bytes) else []

    def heads(self, uids: Sequence[str]) -> dict[str, Head]:
        """The size the server declares for each message and the headers that name it, asked
        before any is downloaded, so that a message too large for a game, or one refused before,
        is never fetched; a message the server says nothing of is left out."""
        found: dict[str, Head] = {}
        for start in range(0, len(uids), SIZES_AT_ONCE):
            with self._reading():
                status, data = self._client().uid(
                    "FETCH", ",".join(uids[start : start + SIZES_AT_ONCE]), f"(RFC822.SIZE {HEADERS})"
                )
            for meta, literal in _responses(data if status == "OK" else []):
                uid = re.search(rb"\bUID (\d+)", meta)
                size = re.search(rb"\bRFC822\.SIZE (\d+)", meta)
                if uid is not None:
                    found[uid[1].decode("ascii")] = Head(int(size[1]) if size else None, literal)
        return found

    def download(self, uid: str) -> bytes | None:
        """A message's bytes, left unseen (read with BODY.PEEK); None if the server gives none."""
        with self._reading():
            status, parts = self._client().uid("FETCH", uid, "(BODY.PEEK[])")
        raw = next((part[1] for part in parts if isinstance(part, tuple)), None)
        return raw if status == "OK" and isinstance(raw, bytes) else None

    @contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailTransportError(
                f"{self.where} failed while reading {self.folder!r} ({_reason(exc)})"
            ) from None

    def done(self, uid: str, after: str, archive: str) -> None:
        """Mark a message seen, or move it to ``archive`` (made if need be)."""
        client = self._client()
        try:
            if after == "move":
                client.create(_quote(archive))  # an error if it exists already, which is fine
                status, _ = client.uid("COPY", uid, _quote(archive))
                if status == "OK":
                    client.uid("STORE", uid, "+FLAGS", r"(\Deleted \Seen)")
                    client.expunge()
                    return
            client.uid("STORE", uid, "+FLAGS", r"(\Seen)")
        except (imaplib.IMAP4.error, OSError) as exc:
            raise MailTransportError(
                f"{self.where} failed while marking a message ({_reason(exc)})"
            ) from None

    def _client(self) -> imaplib.IMAP4:
        if self.client is None:
            raise MailTransportError(f"{self.where}: not connected")
        return self.client


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return re.sub(r"\s+", " ", text)[:200]
