"""pbem mail setup tries the servers it is given (a login, nothing sent) and says what works and
what does not; pbem mail check does it again later. A certificate or a TLS mode set up wrong says
so, not that the server cannot be reached."""

from __future__ import annotations

import socket

import pytest

from pbem.mail import account
from tests.conftest import Cli
from tests.mail_servers import MailServers

MAILPW = {"MAILPW": "pw-b"}


@pytest.fixture(autouse=True)
def quick_greeting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that sends no greeting is given one second, not fifteen (the command line runs in
    this process)."""
    from pbem.mail import transport

    monkeypatch.setattr(transport, "GREETING", 1)


def setup(
    cli: Cli,
    servers: MailServers,
    *extra: str,
    smtp: str = "",
    imap: str = "",
    smtp_security: str = "starttls",
    imap_security: str = "tls",
    env: dict[str, str] = MAILPW,
) -> tuple[int, list[str]]:
    result = cli(
        "mail", "setup", "--address", servers.address("b"),
        "--smtp", smtp or f"127.0.0.1:{servers.smtp_port}", "--smtp-security", smtp_security,
        "--imap", imap or f"127.0.0.1:{servers.imaps_port}", "--imap-security", imap_security,
        "--password-env", "MAILPW", *extra, home="b", env=env,
    )  # fmt: skip
    assert result.stdout == ""
    return result.exit_code, result.stderr.splitlines()


def test_setup_logs_in_to_both_servers_and_sends_nothing(cli: Cli, mail_servers: MailServers) -> None:
    mail_servers.add_user("b", "pw-b")
    code, lines = setup(cli, mail_servers, "--ca-file", str(mail_servers.ca_file))
    assert code == 0, lines
    assert lines[1:] == [
        f"sending works: 127.0.0.1:{mail_servers.smtp_port} over STARTTLS, logged in as b@pbem.test",
        f"fetching works: 127.0.0.1:{mail_servers.imaps_port} over TLS, logged in as b@pbem.test",
    ]
    assert mail_servers.accepted == [] and len(mail_servers.maildir("b")) == 0
    check = cli("mail", "check", home="b", env=MAILPW)
    assert check.exit_code == 0 and check.stderr.splitlines() == lines[1:]


def test_a_wrong_password_is_said_and_the_settings_are_kept(cli: Cli, mail_servers: MailServers) -> None:
    mail_servers.add_user("b", "pw-b")
    code, lines = setup(cli, mail_servers, "--ca-file", str(mail_servers.ca_file), env={"MAILPW": "wrong"})
    assert code == 7, lines
    where = f"the mail server 127.0.0.1:{mail_servers.smtp_port}"
    assert lines[1] == f"warning: sending does not work: {where} refused the login of b@pbem.test: " + (
        "check the user and password"
    )
    assert lines[2].startswith("warning: fetching does not work: ") and "refused the login" in lines[2]
    assert lines[3].startswith("error: the settings are saved in ")
    assert lines[3].endswith("try again later with pbem mail check")
    saved = account.load(cli.homes["b"])
    assert saved is not None and saved.smtp is not None and saved.smtp.port == mail_servers.smtp_port
    assert cli("mail", "check", home="b", env=MAILPW).exit_code == 0, "right once the password is"


def test_no_check_tries_nothing(cli: Cli, mail_servers: MailServers) -> None:
    code, lines = setup(cli, mail_servers, "--no-check", env={})
    assert code == 0 and len(lines) == 1 and lines[0].startswith("wrote "), lines


def test_a_server_that_cannot_be_reached_is_said_and_the_settings_are_kept(
    cli: Cli, mail_servers: MailServers
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    mail_servers.add_user("b", "pw-b")
    code, lines = setup(cli, mail_servers, "--ca-file", str(mail_servers.ca_file), smtp=f"127.0.0.1:{port}")
    assert code == 7, lines
    assert lines[1].startswith(f"warning: sending does not work: the mail server 127.0.0.1:{port} cannot be")
    assert lines[2].startswith("fetching works: "), lines
    assert account.load(cli.homes["b"]) is not None


def test_a_certificate_not_trusted_says_so(cli: Cli, mail_servers: MailServers) -> None:
    mail_servers.add_user("b", "pw-b")
    code, lines = setup(cli, mail_servers)  # a server of one's own, without --ca-file
    assert code == 7, lines
    for line in lines[1:3]:
        assert "showed a certificate that is not trusted (self-signed certificate)" in line, line
        assert line.endswith("trust its certificate with pbem mail setup ... --ca-file FILE"), line


@pytest.mark.parametrize(
    ("kind", "security", "said", "advice"),
    [
        ("smtp", "starttls", "sent no greeting", "--smtp-security tls"),
        ("smtp", "tls", "does not speak TLS from the start", "--smtp-security starttls"),
        ("imap", "starttls", "sent no greeting", "--imap-security tls"),
        ("imap", "tls", "does not speak TLS from the start", "--imap-security starttls"),
    ],
    ids=["STARTTLS to an SMTPS port", "TLS to a submission port", "STARTTLS to an IMAPS port", "TLS to 143"],
)
def test_a_tls_mode_set_up_wrong_says_which_to_use(
    cli: Cli, mail_servers: MailServers, kind: str, security: str, said: str, advice: str
) -> None:
    """STARTTLS against a port that speaks TLS from the start (the server waits for a handshake
    and sends no greeting), or TLS against one that starts in clear."""
    mail_servers.add_user("b", "pw-b")
    servers = mail_servers
    # the port for the other mode than the one set up
    smtp_port = servers.smtps_port if security == "starttls" else servers.smtp_port
    imap_port = servers.imaps_port if security == "starttls" else servers.imap_port
    good = {"smtp": ("starttls", servers.smtp_port), "imap": ("tls", servers.imaps_port)}
    wrong = {"smtp": (security, smtp_port), "imap": (security, imap_port)}
    chosen = {name: wrong[name] if name == kind else good[name] for name in ("smtp", "imap")}
    code, lines = setup(
        cli,
        servers,
        "--ca-file",
        str(servers.ca_file),
        smtp=f"127.0.0.1:{chosen['smtp'][1]}",
        smtp_security=chosen["smtp"][0],
        imap=f"127.0.0.1:{chosen['imap'][1]}",
        imap_security=chosen["imap"][0],
    )
    assert code == 7, lines
    (failed,) = [line for line in lines if line.startswith("warning:")]
    assert failed.startswith(f"warning: {'sending' if kind == 'smtp' else 'fetching'} does not work: ")
    assert said in failed and failed.endswith(f"set up pbem mail setup ... {advice}"), failed
    assert "cannot be reached" not in failed
