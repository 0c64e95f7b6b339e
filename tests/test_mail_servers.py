"""The mail servers the tests of pbem's mail run against, proved with the standard library alone:
what a message sent through SMTP becomes in the recipient's Maildir and through IMAP, and each
fault the servers can be asked for."""

from __future__ import annotations

import base64
import imaplib
import smtplib
import ssl
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from tests.mail_servers import MailServers

TIMEOUT = 10


def message(sender: str, recipient: str, subject: str = "Turn 3", body: str = "Your move.\n") -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = recipient
    mail["Subject"] = subject
    mail.set_content(body)
    return mail


def submit(servers: MailServers, user: str, password: str) -> smtplib.SMTP:
    """An SMTP client logged in after STARTTLS, as a mail program sends."""
    client = smtplib.SMTP(servers.smtp_host, servers.smtp_port, timeout=TIMEOUT)
    try:
        client.starttls(context=servers.ssl_context())
        client.login(user, password)
    except BaseException:
        client.close()
        raise
    return client


def imap(servers: MailServers, user: str, password: str) -> imaplib.IMAP4:
    """An IMAP client logged in after STARTTLS."""
    client = imaplib.IMAP4(servers.imap_host, servers.imap_port, timeout=TIMEOUT)
    try:
        client.starttls(ssl_context=servers.ssl_context())
        client.login(user, password)
    except BaseException:
        client.shutdown()
        raise
    return client


def subjects(servers: MailServers, user: str, folder: str | None = None) -> list[str]:
    box = servers.maildir(user)
    if folder is not None:
        box = box.get_folder(folder)
    return sorted(str(mail["Subject"]) for mail in box)


@pytest.fixture
def pair(mail_servers: MailServers) -> MailServers:
    """The servers with two users, alice and bob, and nothing in their mailboxes."""
    mail_servers.add_user("alice", "alice-secret")
    mail_servers.add_user("bob", "bob-secret")
    return mail_servers


@pytest.mark.parametrize("run", [1, 2])
def test_each_test_starts_with_no_users_and_no_mail(mail_servers: MailServers, run: int) -> None:
    # whichever of the two runs comes second, the user the first made is gone
    assert mail_servers.users == {}
    assert list(mail_servers.base.iterdir()) == []
    for earlier in (1, 2):
        with pytest.raises(smtplib.SMTPAuthenticationError):
            submit(mail_servers, "alice", f"secret {earlier}")
        with pytest.raises(imaplib.IMAP4.error):
            imap(mail_servers, "alice", f"secret {earlier}")
    mail_servers.add_user("alice", f"secret {run}")
    submit(mail_servers, "alice", f"secret {run}").quit()
    imap(mail_servers, "alice", f"secret {run}").logout()


def test_a_message_sent_with_starttls_lands_in_the_recipients_maildir(pair: MailServers) -> None:
    with submit(pair, "bob", "bob-secret") as client:
        refused = client.send_message(message("bob@pbem.test", "alice@pbem.test"))
    assert refused == {}
    (delivered,) = pair.maildir("alice")
    assert delivered["Subject"] == "Turn 3"
    assert delivered["Delivered-To"] == "alice@pbem.test"
    assert delivered["Return-Path"] == "<bob@pbem.test>"
    assert delivered.get_payload() == "Your move.\n"
    assert list(pair.maildir("bob")) == []
    (accepted,) = pair.accepted
    assert (accepted.mail_from, accepted.rcpt_tos) == ("bob@pbem.test", ("alice@pbem.test",))


def test_every_recipient_gets_a_copy_and_bcc_recipients_are_not_shown(pair: MailServers) -> None:
    pair.add_user("carol", "carol-secret")
    with submit(pair, "alice", "alice-secret") as client:
        client.send_message(
            message("alice@pbem.test", "bob@pbem.test"), to_addrs=["bob@pbem.test", "carol@pbem.test"]
        )
    assert subjects(pair, "bob") == subjects(pair, "carol") == ["Turn 3"]
    (to_carol,) = pair.maildir("carol")
    assert to_carol["To"] == "bob@pbem.test"
    assert to_carol["Delivered-To"] == "carol@pbem.test"


def test_implicit_tls_smtp_takes_a_login_at_once(pair: MailServers) -> None:
    with smtplib.SMTP_SSL(
        pair.smtp_host, pair.smtps_port, timeout=TIMEOUT, context=pair.ssl_context()
    ) as client:
        client.login("bob", "bob-secret")
        client.send_message(message("bob@pbem.test", "alice@pbem.test"))
    assert subjects(pair, "alice") == ["Turn 3"]


@pytest.mark.parametrize("mechanism", ["PLAIN", "LOGIN"])
def test_smtp_logs_in_with_either_mechanism_and_refuses_a_wrong_password(
    pair: MailServers, mechanism: str
) -> None:
    with smtplib.SMTP(pair.smtp_host, pair.smtp_port, timeout=TIMEOUT) as client:
        client.starttls(context=pair.ssl_context())
        client.ehlo()
        assert set(client.esmtp_features["auth"].split()) == {"LOGIN", "PLAIN"}
        client.user, client.password = "bob", "wrong"
        authenticate = client.auth_plain if mechanism == "PLAIN" else client.auth_login
        with pytest.raises(smtplib.SMTPAuthenticationError) as refused:
            client.auth(mechanism, authenticate)
        assert refused.value.smtp_code == 535
        client.password = "bob-secret"
        assert client.auth(mechanism, authenticate)[0] == 235


def test_smtp_wants_starttls_before_a_login_or_a_message(pair: MailServers) -> None:
    with smtplib.SMTP(pair.smtp_host, pair.smtp_port, timeout=TIMEOUT) as client:
        client.ehlo()
        assert client.has_extn("starttls")
        assert not client.has_extn("auth")
        with pytest.raises(smtplib.SMTPNotSupportedError):
            client.login("bob", "bob-secret")
        credentials = base64.b64encode(b"\0bob\0bob-secret").decode()
        assert client.docmd("AUTH", f"PLAIN {credentials}")[0] == 530
        assert client.docmd("MAIL", "FROM:<bob@pbem.test>")[0] == 530
    assert pair.accepted == []


def test_smtp_wants_a_login_before_a_message(pair: MailServers) -> None:
    with smtplib.SMTP(pair.smtp_host, pair.smtp_port, timeout=TIMEOUT) as client:
        client.starttls(context=pair.ssl_context())
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:
            client.send_message(message("bob@pbem.test", "alice@pbem.test"))
        assert refused.value.smtp_code == 530


def test_a_client_that_does_not_trust_the_certificate_cannot_connect(pair: MailServers) -> None:
    with (
        smtplib.SMTP(pair.smtp_host, pair.smtp_port, timeout=TIMEOUT) as client,
        pytest.raises(ssl.SSLCertVerificationError),
    ):
        client.starttls(context=ssl.create_default_context())
    with pytest.raises(ssl.SSLCertVerificationError):
        imaplib.IMAP4_SSL(pair.imap_host, pair.imaps_port, ssl_context=ssl.create_default_context())


def test_a_refused_recipient_refuses_the_message_when_it_is_the_only_one(pair: MailServers) -> None:
    pair.refuse_recipients.add("alice@pbem.test")
    with submit(pair, "bob", "bob-secret") as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            client.send_message(message("bob@pbem.test", "alice@pbem.test"))
        assert refused.value.recipients["alice@pbem.test"][0] == 550
        # the others still get it, and the client is told who did not
        pair.add_user("carol", "carol-secret")
        left_out = client.send_message(
            message("bob@pbem.test", "alice@pbem.test"), to_addrs=["alice@pbem.test", "carol@pbem.test"]
        )
    assert list(left_out) == ["alice@pbem.test"]
    assert subjects(pair, "alice") == []
    assert subjects(pair, "carol") == ["Turn 3"]


@pytest.mark.parametrize("address", ["nobody@pbem.test", "alice@elsewhere.test", "alice"])
def test_an_address_with_no_mailbox_here_is_refused(pair: MailServers, address: str) -> None:
    with submit(pair, "bob", "bob-secret") as client, pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        client.sendmail("bob@pbem.test", [address], b"Subject: lost\r\n\r\nNobody reads this.\r\n")
    code, reason = refused.value.recipients[address]
    assert (code, reason.split()[0]) == (550, b"5.1.1")


def test_the_domain_and_the_local_part_are_read_without_case(pair: MailServers) -> None:
    with submit(pair, "bob", "bob-secret") as client:
        client.send_message(message("bob@pbem.test", "Alice@PBEM.test"))
    assert subjects(pair, "alice") == ["Turn 3"]


def test_a_user_logs_in_with_its_name_or_its_address(pair: MailServers) -> None:
    submit(pair, "alice@pbem.test", "alice-secret").quit()
    imap(pair, "alice@pbem.test", "alice-secret").logout()
    with pytest.raises(smtplib.SMTPAuthenticationError):
        submit(pair, "alice@elsewhere.test", "alice-secret")


@pytest.mark.parametrize("implicit_tls", [False, True])
def test_a_connection_dropped_after_data_delivers_nothing(pair: MailServers, implicit_tls: bool) -> None:
    pair.drop_after_data = True
    if implicit_tls:
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            pair.smtp_host, pair.smtps_port, timeout=TIMEOUT, context=pair.ssl_context()
        )
        client.login("bob", "bob-secret")
    else:
        client = submit(pair, "bob", "bob-secret")
    with pytest.raises(smtplib.SMTPServerDisconnected):
        client.send_message(message("bob@pbem.test", "alice@pbem.test", body="x" * 100_000))
    client.close()
    assert subjects(pair, "alice") == []
    assert pair.accepted == []
    pair.drop_after_data = False
    with submit(pair, "bob", "bob-secret") as client:
        client.send_message(message("bob@pbem.test", "alice@pbem.test"))
    assert subjects(pair, "alice") == ["Turn 3"]


def fetch(box: imaplib.IMAP4, uid: bytes) -> bytes:
    status, parts = box.uid("FETCH", uid.decode(), "(BODY.PEEK[])")
    assert status == "OK"
    raw = next(part[1] for part in parts if isinstance(part, tuple))
    assert isinstance(raw, bytes)
    return raw


def unseen(box: imaplib.IMAP4) -> list[bytes]:
    status, data = box.uid("SEARCH", "UNSEEN")
    assert status == "OK" and isinstance(data[0], bytes)
    return data[0].split()


def test_imap_reads_marks_copies_and_moves_what_smtp_delivered(pair: MailServers) -> None:
    with submit(pair, "bob", "bob-secret") as client:
        for turn in (1, 2, 3):
            client.send_message(message("bob@pbem.test", "alice@pbem.test", subject=f"Turn {turn}"))
    box = imap(pair, "alice", "alice-secret")
    try:
        assert box.select("INBOX") == ("OK", [b"3"])
        uids = unseen(box)
        # UIDs follow the order of delivery, and reading with PEEK leaves a message unseen
        turns = [message_from_bytes(fetch(box, uid), policy=policy.default)["Subject"] for uid in uids]
        assert turns == ["Turn 1", "Turn 2", "Turn 3"]
        assert unseen(box) == uids

        assert box.uid("STORE", uids[0].decode(), "+FLAGS", r"(\Seen)")[0] == "OK"
        assert unseen(box) == uids[1:]

        assert box.create("pbem")[0] == "OK"
        assert box.create("pbem/done")[0] == "OK"
        copied = fetch(box, uids[1])
        # a move as a client without MOVE makes it: COPY, mark deleted, EXPUNGE
        assert box.uid("COPY", uids[1].decode(), "pbem")[0] == "OK"
        assert box.uid("STORE", uids[1].decode(), "+FLAGS", r"(\Deleted)")[0] == "OK"
        assert box.expunge()[0] == "OK"
        assert box.uid("MOVE", uids[2].decode(), "pbem/done")[0] == "OK"
        assert box.uid("SEARCH", "ALL")[1][0].split() == uids[:1]

        assert box.select("pbem") == ("OK", [b"1"])
        (copy,) = box.uid("SEARCH", "ALL")[1][0].split()
        assert fetch(box, copy) == copied
    finally:
        box.logout()
    # the same mailboxes as the files show them: Maildir++ folders, flags in the file names
    inbox = pair.maildir("alice")
    assert [(str(mail["Subject"]), mail.get_flags()) for mail in inbox] == [("Turn 1", "S")]
    assert sorted(inbox.list_folders()) == ["pbem", "pbem.done"]
    assert subjects(pair, "alice", "pbem") == ["Turn 2"]
    assert subjects(pair, "alice", "pbem.done") == ["Turn 3"]


def test_a_folder_that_exists_or_does_not_is_an_ordinary_refusal(pair: MailServers) -> None:
    box = imap(pair, "alice", "alice-secret")
    try:
        assert box.create("pbem")[0] == "OK"
        status, data = box.create("pbem")
        assert status == "NO" and b"[ALREADYEXISTS]" in data[0]
        status, selected = box.select("elsewhere")
        assert status == "NO" and b"[NONEXISTENT]" in (selected[0] or b"")
        assert box.select("INBOX") == ("OK", [b"0"])
    finally:
        box.logout()


def test_imap_gives_back_the_bytes_smtp_took_in(pair: MailServers) -> None:
    mail = message(
        "bob@pbem.test",
        "alice@pbem.test",
        subject="A subject long enough that it has to be folded somewhere " * 3,
        body="A lone dot ends an SMTP message:\n.\n..unless the client doubles it.\n",
    )
    with submit(pair, "bob", "bob-secret") as client:
        client.send_message(mail)
    (accepted,) = pair.accepted
    box = imap(pair, "alice", "alice-secret")
    try:
        box.select("INBOX")
        (uid,) = unseen(box)
        raw = fetch(box, uid)
    finally:
        box.logout()
    head = b"Return-Path: <bob@pbem.test>\r\nDelivered-To: alice@pbem.test\r\n"
    assert raw == head + accepted.content
    text = message_from_bytes(raw, policy=policy.default).get_content()
    assert text.replace("\r\n", "\n") == mail.get_content()


def test_imap_sees_a_message_delivered_while_the_folder_is_open(pair: MailServers) -> None:
    box = imap(pair, "alice", "alice-secret")
    try:
        assert box.select("INBOX") == ("OK", [b"0"])
        with submit(pair, "bob", "bob-secret") as client:
            client.send_message(message("bob@pbem.test", "alice@pbem.test"))
        box.noop()
        assert len(box.uid("SEARCH", "UNSEEN")[1][0].split()) == 1
    finally:
        box.logout()


def test_imap_over_implicit_tls(pair: MailServers) -> None:
    with submit(pair, "bob", "bob-secret") as client:
        client.send_message(message("bob@pbem.test", "alice@pbem.test"))
    with imaplib.IMAP4_SSL(
        pair.imap_host, pair.imaps_port, ssl_context=pair.ssl_context(), timeout=TIMEOUT
    ) as box:
        assert "STARTTLS" not in box.capabilities
        box.login("alice", "alice-secret")
        assert box.select("INBOX") == ("OK", [b"1"])


def test_a_wrong_imap_password_is_an_ordinary_login_failure(pair: MailServers) -> None:
    box = imaplib.IMAP4(pair.imap_host, pair.imap_port, timeout=TIMEOUT)
    try:
        box.starttls(ssl_context=pair.ssl_context())
        with pytest.raises(imaplib.IMAP4.error, match="AUTHENTICATIONFAILED"):
            box.login("alice", "bob-secret")
        with pytest.raises(imaplib.IMAP4.error, match="AUTHENTICATIONFAILED"):
            box.login("nobody", "alice-secret")
        assert box.login("alice", "alice-secret")[0] == "OK"
    finally:
        box.logout()


def test_imap_wants_starttls_before_a_login(pair: MailServers) -> None:
    box = imaplib.IMAP4(pair.imap_host, pair.imap_port, timeout=TIMEOUT)
    try:
        assert "LOGINDISABLED" in box.capabilities
        assert "STARTTLS" in box.capabilities
        with pytest.raises(imaplib.IMAP4.error):
            box.login("alice", "alice-secret")
    finally:
        box.shutdown()


def test_a_user_given_a_new_password_logs_in_with_it_only(pair: MailServers) -> None:
    pair.add_user("alice", "changed")
    with pytest.raises(imaplib.IMAP4.error):
        imap(pair, "alice", "alice-secret")
    imap(pair, "alice", "changed").logout()
    with pytest.raises(smtplib.SMTPAuthenticationError):
        submit(pair, "alice", "alice-secret")
    submit(pair, "alice", "changed").quit()
