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
from pbem.mail.account import DEFAULT_PORTS, Server

TIMEOUT = 60  # seconds for any one exchange with a server
# Seconds to wait for a server's greeting: one that says nothing is most often waiting for the
# TLS handshake of a client that should have spoken TLS from the start.
GREETING = 15
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
    except smtplib.SMTPServerDisconnected:
        raise MailTransportError(f"{where} closed the connection before the message was sent") from None
    except smtplib.SMTPException as exc:
        raise MailTransportError(f"{where} refused the message ({_reason(exc)})") from None
    except OSError as exc:
        raise MailTransportError(f"{where} cannot be reached ({_reason(exc)})") from None
    if refused:
        names = ", ".join(sorted(refused))
        raise MailTransportError(f"{where} refused {names}; the message went to the others")


def check_smtp(server: Server) -> None:
    """Connect, secure and log in to ``server`` as sending does, and send nothing;
    MailTransportError saying what failed."""
    with _smtp(server):
        pass


@contextmanager
def _smtp(server: Server) -> Iterator[smtplib.SMTP]:
    """A client logged in to ``server``; a failure to connect, secure or log in is a
    MailTransportError saying which."""
    context = server.context()
    password = server.password.get(server.user)
    client: smtplib.SMTP | None = None
    try:
        if server.security == "tls":
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=GREETING, context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=GREETING)
        if client.sock is not None:
            client.sock.settimeout(TIMEOUT)
        if server.security == "starttls":
            client.starttls(context=context)
        client.login(server.user, password)
    except smtplib.SMTPAuthenticationError:
        _close_smtp(client)
        raise MailTransportError(
            f"{_where(server)} refused the login of {server.user}: check the user and password"
        ) from None
    except smtplib.SMTPNotSupportedError as exc:
        _close_smtp(client)
        raise _not_offered(server, "smtp", exc) from None
    except (smtplib.SMTPException, OSError) as exc:
        _close_smtp(client)
        raise _connecting(server, "smtp", exc, greeted=client is not None) from None
    try:
        yield client
    finally:
        _close_smtp(client)


def _close_smtp(client: smtplib.SMTP | None) -> None:
    if client is None:
        return
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        client.close()


def _where(server: Server) -> str:
    return f"the mail server {server.host}:{server.port}"


def _connecting(server: Server, kind: str, exc: BaseException, *, greeted: bool) -> MailTransportError:
    """What a failure to connect to ``server`` (``smtp`` or ``imap``) and secure the connection
    means for the player: a certificate not trusted, a port that speaks TLS from the start or
    only after STARTTLS, a server that cannot be reached."""
    where = _where(server)
    option = f"pbem mail setup ... --{kind}-security"
    if isinstance(exc, ssl.SSLCertVerificationError):
        said = exc.verify_message or _reason(exc)
        if "hostname" in said.lower() or "ip address mismatch" in said.lower():
            return MailTransportError(
                f"{where} showed a certificate for another name ({said}): check the host name"
            )
        return MailTransportError(
            f"{where} showed a certificate that is not trusted ({said}): if it is a server of "
            "your own, trust its certificate with pbem mail setup ... --ca-file FILE"
        )
    if isinstance(exc, ssl.SSLError):
        if server.security == "tls":
            port = DEFAULT_PORTS[(kind, "starttls")]
            return MailTransportError(
                f"{where} does not speak TLS from the start ({_reason(exc)}): if it is a port for "
                f"STARTTLS (such as {port}), set up {option} starttls"
            )
        return MailTransportError(f"{where} failed to secure the connection ({_reason(exc)})")
    silent = isinstance(exc, (TimeoutError, smtplib.SMTPServerDisconnected, imaplib.IMAP4.abort))
    if server.security == "starttls" and silent and not greeted:
        port = DEFAULT_PORTS[(kind, "tls")]
        return MailTransportError(
            f"{where} sent no greeting ({_reason(exc)}): if it is a port for TLS from the start "
            f"(such as {port}), set up {option} tls"
        )
    if isinstance(exc, (smtplib.SMTPException, imaplib.IMAP4.error)):
        return MailTransportError(f"{where} refused ({_reason(exc)})")
    return MailTransportError(f"{where} cannot be reached ({_reason(exc)})")


def _not_offered(server: Server, kind: str, exc: BaseException) -> MailTransportError:
    port = DEFAULT_PORTS[(kind, "tls")]
    return MailTransportError(
        f"{_where(server)} does not offer STARTTLS ({_reason(exc)}): pbem sends no password in "
        f"clear; if it takes TLS from the start (such as port {port}), set up "
        f"pbem mail setup ... --{kind}-security tls"
    )


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
        context = server.context()
        password = server.password.get(server.user)
        try:
            if server.security == "tls":
                self.client = imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=context, timeout=GREETING
                )
            else:
                self.client = imaplib.IMAP4(server.host, server.port, timeout=GREETING)
            self.client.sock.settimeout(TIMEOUT)
            if server.security == "starttls":
                try:
                    self.client.starttls(ssl_context=context)
                except imaplib.IMAP4.error as exc:
                    if "tls not supported" in str(exc).lower():
                        raise _not_offered(server, "imap", exc) from None
                    raise
            self.client.login(server.user, password)
            status, _ = self.client.select(_quote(self.folder))
        except MailTransportError:
            self.close()
            raise
        except imaplib.IMAP4.abort as exc:
            greeted = self.client is not None
            self.close()
            raise _connecting(server, "imap", exc, greeted=greeted) from None
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
        except OSError as exc:
            greeted = self.client is not None
            self.close()
            raise _connecting(server, "imap", exc, greeted=greeted) from None
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
