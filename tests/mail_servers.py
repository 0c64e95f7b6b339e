"""Real mail servers on the loopback interface, for the tests of pbem's mail.

An SMTP submission server (aiosmtpd) takes mail only after STARTTLS and a login (LOGIN or PLAIN),
and delivers each message it accepts into the Maildir of each recipient: the local part of the
address names the user (``alice@pbem.test`` goes to user ``alice``). A second listener speaks
SMTP over implicit TLS (SMTPS). An IMAP server (pymap's maildir backend) serves the same
Maildirs, over STARTTLS or implicit TLS, to the same users with the same passwords. Both present
one self-signed certificate for ``127.0.0.1`` and ``localhost``, made for the session; a client
trusts it through ``ca_file``.

The servers run once per test process, on one event loop in a background thread, each listener
on a port the system chose. Every test gets a ``MailServers`` of its own (the ``mail_servers``
fixture): a fresh Maildir base, no users until it adds them, and no faults until it asks for
them; the users of earlier tests are gone, so the same names can be used in every test.

Faults a test can ask for: ``refuse_recipients`` (RCPT TO answered 550), ``drop_after_data``
(the server takes the message after DATA, then closes the connection without answering and
delivers nothing). A wrong IMAP password fails as an ordinary IMAP login failure (``NO``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import mailbox
import os
import re
import ssl
import threading
from argparse import Namespace
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import uuid4

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from proxyprotocol.sock import SocketInfoLocal
from proxyprotocol.version import ProxyProtocolVersion
from pymap.backend.maildir import Config as MaildirConfig
from pymap.backend.maildir import Login as MaildirLogin
from pymap.backend.maildir.mailbox import LoadedMessage, MailboxData, MailboxSet
from pymap.backend.maildir.mailbox import Message as PymapMessage
from pymap.backend.maildir.uidlist import Record
from pymap.backend.maildir.users import PasswordsFile, UsersFile
from pymap.concurrent import Subsystem
from pymap.imap import IMAPServer
from pymap.mime import MessageContent
from pymap.parsing.specials import FetchRequirement, ObjectId
from pysasl.hashing import BuiltinHash
from pysasl.prep import saslprep

HOST = "127.0.0.1"
DOMAIN = "pbem.test"
STARTUP_TIMEOUT = 10.0  # seconds; the servers are up in a small fraction of this

# Few rounds: pymap checks a password on every login, and the default (500,000 rounds of
# PBKDF2) would cost a noticeable part of a second each time on a busy machine.
_HASH = BuiltinHash(rounds=1000)
_USER_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")
# How Python's mailbox.Maildir names a file it delivers: seconds, microseconds, pid, a count.
_MAILDIR_NAME = re.compile(r"(\d+)\.M(\d+)P(\d+)Q(\d+)\.")
_T = TypeVar("_T")


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key, written to
    ``directory``: the certificate is its own trust anchor, so a client passes it as its CA file."""
    key = ec.generate_private_key(ec.SECP256R1())  # far quicker to make than an RSA key
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    public = key.public_key()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.IPv4Address(HOST))]
            ),
            critical=False,
        )
        # A leaf, not a CA: what strict verification (Python 3.13's default) wants of a server's
        # certificate, and it still serves as its own trust anchor.
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    cert_file = directory / "cert.pem"
    key_file = directory / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key_file.chmod(0o600)
    return cert_file, key_file


@dataclass(frozen=True)
class Accepted:
    """A message the SMTP server accepted: its envelope and the bytes as the client sent them."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    content: bytes


@dataclass
class MailServers:
    """The mail servers as one test sees them.

    ``smtp_port`` takes STARTTLS (and refuses AUTH, MAIL and RCPT before it), ``smtps_port``
    implicit TLS; ``imap_port`` takes STARTTLS, ``imaps_port`` implicit TLS. A user logs in to
    both servers with the name given to ``add_user`` or with its address (``alice`` or
    ``alice@pbem.test``), and its password. Only addresses at ``domain`` have mailboxes.
    """

    smtp_host: str
    smtp_port: int
    smtps_port: int
    imap_host: str
    imap_port: int
    imaps_port: int
    ca_file: Path
    base: Path
    _root: Path = field(repr=False)
    users: dict[str, str] = field(default_factory=dict)
    refuse_recipients: set[str] = field(default_factory=set)
    drop_after_data: bool = False
    accepted: list[Accepted] = field(default_factory=list)

    domain = DOMAIN

    def address(self, name: str) -> str:
        return f"{name}@{self.domain}"

    def add_user(self, name: str, password: str) -> str:
        """Make a mail user with an empty INBOX (or give a user a new password); its address."""
        if not _USER_NAME.match(name):
            raise ValueError(f"a mail user's name is lower-case letters, digits, '.', '_' and '-': {name!r}")
        self.users[name] = password
        mailbox.Maildir(self.base / name, create=True)
        self._write_user_files()
        return self.address(name)

    def maildir(self, name: str) -> mailbox.Maildir:
        """The Maildir of user ``name``, as the servers keep it (its folders are ``get_folder``)."""
        if name not in self.users:
            raise KeyError(f"no mail user {name!r} in this test")
        return mailbox.Maildir(self.base / name, create=False)

    def ssl_context(self) -> ssl.SSLContext:
        """A client's TLS context that trusts these servers, as a client given ``ca_file`` makes."""
        return ssl.create_default_context(cafile=str(self.ca_file))

    def _write_user_files(self) -> None:
        # pymap reads pymap-etc-passwd and pymap-etc-shadow at every login, so rewriting them
        # is how a user is added or dropped while it runs. Each is replaced whole, never seen
        # half written. A user's home is relative to the server's root: this test's base.
        users = UsersFile(str(self._root))
        passwords = PasswordsFile(str(self._root))
        home = self.base.relative_to(self._root)
        for name, password in self.users.items():
            for login in (name, self.address(name)):
                users.set(UsersFile.build_record(login, str(home / name)))
                passwords.set(PasswordsFile.build_record(login, _HASH.hash(saslprep(password))))
        for records in (users, passwords):
            target = Path(records.get_file(str(self._root)))
            temporary = target.with_name(target.name + ".new")
            with temporary.open("w", encoding="utf-8", newline="") as handle:
                records.write(handle)
            os.replace(temporary, target)

    def _user_of(self, address: str) -> str | None:
        """The user whose mailbox ``address`` is, if any."""
        local, at, domain = address.rpartition("@")
        if not at or domain.lower() != self.domain:
            return None
        name = local.lower()
        return name if name in self.users else None

    def _check_login(self, login: str, password: str) -> bool:
        name = login if login in self.users else self._user_of(login)
        return name is not None and self.users[name] == password


class _Delivery:
    """aiosmtpd's handler: checks each recipient, then writes the message into each one's
    Maildir as a local delivery agent would (a Return-Path and a Delivered-To line on top)."""

    def __init__(self, hub: _Hub) -> None:
        self.hub = hub

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        view = self.hub.view()
        if address.lower() in {refused.lower() for refused in view.refuse_recipients}:
            return f"550 5.7.1 <{address}>: recipient refused"
        if view._user_of(address) is None:
            return f"550 5.1.1 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        view = self.hub.view()
        content = envelope.original_content or b""
        sender = envelope.mail_from or ""
        # Kept with the CRLF line ends it came with: pymap's FETCH gives a file back byte for
        # byte, and a real IMAP server sends CRLF whatever its files hold.
        for recipient in envelope.rcpt_tos:
            name = view._user_of(recipient)
            assert name is not None  # handle_RCPT let no other recipient in
            head = f"Return-Path: <{sender}>\r\nDelivered-To: {recipient}\r\n".encode()
            mailbox.Maildir(view.base / name, create=True).add(head + content)
        view.accepted.append(Accepted(sender, tuple(envelope.rcpt_tos), content))
        return "250 2.0.0 OK: delivered"


class _Submission(SMTP):
    """aiosmtpd's server with the fault of a connection dropped mid-send, and with AUTH allowed on
    an implicit-TLS connection (aiosmtpd counts only STARTTLS as encryption)."""

    def __init__(self, hub: _Hub, *, implicit_tls: bool, **options: Any) -> None:
        super().__init__(_Delivery(hub), **options)
        self.hub = hub
        if implicit_tls:
            self._auth_require_tls = False

    async def smtp_DATA(self, arg: str) -> None:
        envelope = self.envelope
        session = self.session
        ready = envelope is not None and envelope.rcpt_tos and session is not None and session.authenticated
        if not (self.hub.view().drop_after_data and ready and not arg):
            await super().smtp_DATA(arg)
            return
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        # Take in the whole message first: the connection then ends in an orderly close, not a
        # reset with data unread, so the client sees the same thing on every run. Read in
        # chunks, not lines, so no line is too long to be read.
        window = b"\r\n"
        while b"\r\n.\r\n" not in window:
            chunk = await self._reader.read(1 << 16)
            if not chunk:
                break
            window = window[-4:] + chunk
        # What QUIT does: end this connection's command loop and close it, without a reply.
        assert self._handler_coroutine is not None
        self._handler_coroutine.cancel()
        assert self.transport is not None
        self.transport.close()


class _RemoteSocketInfo(SocketInfoLocal):
    """pymap lets a client on the loopback interface log in before STARTTLS, as if it were a local
    administrator; to a test, the servers stand for a mail provider somewhere else."""

    __slots__ = ()

    @property
    def from_localhost(self) -> bool:
        return False


class _ImapConfig(MaildirConfig):
    @property
    def greeting(self) -> bytes:
        # pymap would look up this host's fully qualified name for every connection.
        return b"pbem test IMAP server ready"


def _authenticator(hub: _Hub) -> Callable[[SMTP, Session, Envelope, str, Any], AuthResult]:
    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = data.login.decode("utf-8", "replace")
        password = data.password.decode("utf-8", "replace")
        return AuthResult(success=hub.view()._check_login(login, password), handled=False)

    return authenticate


@contextmanager
def _pymap_as_mail_servers_are() -> Iterator[None]:
    """Where pymap's maildir backend differs from the IMAP servers people use, put right while
    the servers run.

    Its COPY writes an empty message into the target folder: it copies what it knows of the
    message without reading it. Here COPY reads the message and copies that. Its CREATE of a
    folder that exists fails inside the server, which drops the connection; here it is refused
    with ``NO [ALREADYEXISTS]``, as the rest of pymap means it to be.

    It gives a message back as Python's email package writes it again after parsing the file:
    lines end in LF (IMAP wants CRLF) and long headers may be folded anew; here FETCH sends the
    file's bytes, with CRLF line ends. And it numbers the messages it finds new in the order the
    directory lists them, so two delivered before the folder is next opened get UIDs in either
    order; here they are numbered in the order of delivery (which their Maildir names record),
    so a test reads them in the order it sent them.
    """

    async def load_content(self: PymapMessage, requirement: FetchRequirement) -> LoadedMessage:
        key, maildir = self._key, self._maildir
        if key is None or maildir is None or requirement.has_none(FetchRequirement.CONTENT):
            return LoadedMessage(self, requirement, None)
        try:
            raw = maildir.get_bytes(key)
        except (KeyError, FileNotFoundError):
            return LoadedMessage(self, requirement, None)
        return LoadedMessage(self, requirement, MessageContent.parse(re.sub(rb"\r?\n", b"\r\n", raw)))

    metadata_of = MailboxData._get_maildir_msg

    async def get_maildir_msg(self: MailboxData, uid: int) -> tuple[Record, mailbox.MaildirMessage]:
        record, _ = await metadata_of(self, uid)
        async with self.messages_lock.read_lock():
            return record, self._maildir.get_message(record.key)

    added = MailboxSet.add_mailbox

    async def add_mailbox(self: MailboxSet, name: str) -> ObjectId:
        try:
            return await added(self, name)
        except KeyError as exists:  # what the session turns into ALREADYEXISTS is a ValueError
            raise ValueError(name) from exists

    listed = MailboxData._get_keys

    async def get_keys(self: MailboxData) -> dict[str, str]:
        keys = await listed(self)
        return dict(sorted(keys.items(), key=lambda item: _delivery_order(item[0])))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PymapMessage, "load_content", load_content)
        patch.setattr(MailboxData, "_get_keys", get_keys)
        patch.setattr(MailboxData, "_get_maildir_msg", get_maildir_msg)
        patch.setattr(MailboxSet, "add_mailbox", add_mailbox)
        yield


def _delivery_order(key: str) -> tuple[int, int, int, str]:
    found = _MAILDIR_NAME.match(key)
    if found is None:
        return (2, 0, 0, key)
    seconds, microseconds, pid, count = (int(part) for part in found.groups())
    if pid == os.getpid():
        # Every message these servers hold was written by this process, whose count orders
        # them whatever the clock did in between.
        return (0, count, 0, key)
    return (1, seconds * 1_000_000 + microseconds, count, key)


class _WithoutLoginDataNotice(logging.Filter):
    """aiosmtpd itself sets the Session.login_data it deprecates, and logs a warning at every login."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "login_data is deprecated" not in record.getMessage()


class _Hub:
    """The servers of one test process: one event loop in a daemon thread, four listeners, and
    the ``MailServers`` of the test now running, which the SMTP server consults."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cert_file, self.key_file = make_certificate(root / "tls")
        self.server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.server_context.load_cert_chain(self.cert_file, self.key_file)
        self.mail_root = root / "mail"
        self.mail_root.mkdir()
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pymap")
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="mail-servers", daemon=True)
        self.listeners: list[asyncio.Server] = []
        self.ports: dict[str, int] = {}
        self.count = 0
        self.current: MailServers | None = None
        self.patches = ExitStack()

    def start(self) -> None:
        self.patches.enter_context(_pymap_as_mail_servers_are())
        quiet = _WithoutLoginDataNotice()
        logging.getLogger("mail.log").addFilter(quiet)
        self.patches.callback(logging.getLogger("mail.log").removeFilter, quiet)
        self.thread.start()
        self._run(self._listen())

    def stop(self) -> None:
        if self.thread.is_alive():
            self._run(self._close())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(STARTUP_TIMEOUT)
        self.loop.close()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.patches.close()

    def view(self) -> MailServers:
        if self.current is None:
            raise RuntimeError("no test is using the mail servers")
        return self.current

    def new_view(self) -> MailServers:
        """A clean slate for the next test: a new base directory and no users."""
        self.count += 1
        base = self.mail_root / f"t{self.count}"
        base.mkdir()
        view = MailServers(
            smtp_host=HOST,
            smtp_port=self.ports["smtp"],
            smtps_port=self.ports["smtps"],
            imap_host=HOST,
            imap_port=self.ports["imap"],
            imaps_port=self.ports["imaps"],
            ca_file=self.cert_file,
            base=base,
            _root=self.mail_root,
        )
        view._write_user_files()  # the users of the last test can no longer log in
        self.current = view
        return view

    def _run(self, work: Awaitable[_T]) -> _T:
        async def wrapped() -> _T:
            return await work

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(STARTUP_TIMEOUT)

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        for kind, implicit_tls in (("smtp", False), ("smtps", True)):
            options: dict[str, Any] = {
                "hostname": "localhost",  # not the machine's name, which takes a DNS lookup
                "authenticator": _authenticator(self),
                "auth_required": True,
                "tls_context": None if implicit_tls else self.server_context,
                "require_starttls": not implicit_tls,
                "loop": loop,
            }

            def factory(implicit_tls: bool = implicit_tls, options: dict[str, Any] = options) -> SMTP:
                return _Submission(self, implicit_tls=implicit_tls, **options)

            server = await loop.create_server(
                factory, HOST, 0, ssl=self.server_context if implicit_tls else None
            )
            self._add(kind, server)

        subsystem = Subsystem.for_executor(self.executor)
        for kind, implicit_tls in (("imap", False), ("imaps", True)):
            config = _ImapConfig(
                Namespace(),
                host=HOST,
                port=0,
                base_dir=str(self.mail_root),
                layout="++",
                colon=None,
                subsystem=subsystem,
                cpu_subsystem=subsystem,
                ssl_context=self.server_context,
                # "TLS" here means STARTTLS: offered on the plain port, and not on the port
                # whose connections are TLS from the start, where LOGIN is allowed at once.
                tls_enabled=not implicit_tls,
                hash_context=_HASH,
                invalid_user_sleep=0.0,
                reject_dnsbl=False,
                proxy_protocol=ProxyProtocolVersion.get(None),
            )
            config.apply_context()
            imap = IMAPServer(MaildirLogin(config), config)

            async def connected(
                reader: asyncio.StreamReader, writer: asyncio.StreamWriter, imap: IMAPServer = imap
            ) -> None:
                await imap(reader, writer, _RemoteSocketInfo(writer, unique_id=uuid4().bytes))

            server = await asyncio.start_server(
                connected, HOST, 0, ssl=self.server_context if implicit_tls else None
            )
            self._add(kind, server)

    def _add(self, kind: str, server: asyncio.Server) -> None:
        self.listeners.append(server)
        self.ports[kind] = server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        for server in self.listeners:
            server.close()
        this = asyncio.current_task()
        rest = [task for task in asyncio.all_tasks() if task is not this]
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)


@pytest.fixture(scope="session")
def _mail_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Hub]:
    hub = _Hub(tmp_path_factory.mktemp("mail-servers"))
    try:
        hub.start()
        yield hub
    finally:
        hub.stop()


@pytest.fixture
def mail_servers(_mail_hub: _Hub) -> Iterator[MailServers]:
    """Running SMTP and IMAP servers with a clean slate for this test (see ``MailServers``)."""
    view = _mail_hub.new_view()
    try:
        yield view
    finally:
        _mail_hub.current = None
