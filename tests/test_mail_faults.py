"""When the mail servers fail: a wrong password, a recipient refused, a connection dropped while
sending. Each is one line and exit 7; no game changes, and a move made with --send stays in the
file, to send again."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Cli
from tests.mail_servers import MailServers


def set_up(cli: Cli, servers: MailServers, seat: str, password: str) -> None:
    servers.add_user(seat, password)
    result = cli(
        "mail", "setup", "--address", servers.address(seat),
        "--smtp", f"127.0.0.1:{servers.smtp_port}",
        "--imap", f"127.0.0.1:{servers.imap_port}", "--imap-security", "starttls",
        "--password-env", "MAILPW", "--ca-file", str(servers.ca_file), home=seat, env={"MAILPW": password},
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr


def game_with_addresses(cli: Cli, tmp_path: Path) -> Path:
    game = tmp_path / "game.toml"
    for seat in "abc":
        args = ["join", str(game), "--as", seat] if seat != "a" else [
            "new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a"
        ]  # fmt: skip
        assert cli(*args, "--email", f"{seat}@pbem.test", home=seat).exit_code == 0
    return game


def entries(game: Path) -> list[dict[str, object]]:
    return list(tomllib.loads(game.read_text(encoding="utf-8"))["entry"])


def test_a_wrong_password_is_one_line_and_changes_nothing(cli: Cli, mail_servers: MailServers) -> None:
    set_up(cli, mail_servers, "b", "right")
    result = cli("mail", "fetch", home="b", env={"MAILPW": "wrong"})
    assert result.exit_code == 7
    assert result.stderr == (
        f"error: the mail server 127.0.0.1:{mail_servers.imap_port} refused the login of b@pbem.test: "
        "check the user and password\n"
    )
    unset = cli("mail", "fetch", home="b")
    assert unset.exit_code == 7 and "$MAILPW, which is not set" in unset.stderr


def test_a_refused_recipient_or_a_dropped_connection_loses_no_move(
    cli: Cli, mail_servers: MailServers, tmp_path: Path
) -> None:
    game = game_with_addresses(cli, tmp_path)
    set_up(cli, mail_servers, "a", "pw-a")
    for seat in "bc":
        mail_servers.add_user(seat, f"pw-{seat}")
    mail_servers.refuse_recipients = {"b@pbem.test", "c@pbem.test"}
    refused = cli("play", str(game), "roll", "--as", "a", "--send", home="a", env={"MAILPW": "pw-a"})
    assert refused.exit_code == 7
    (line,) = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
    # the roll goes to b, who cannot know it is asked to add its own (c's join started the game)
    assert "the move is in" in line and "refused every recipient (b@pbem.test)" in line
    assert entries(game)[-1]["kind"] == "contribute", "the move stays in the file"
    mail_servers.refuse_recipients = set()
    mail_servers.drop_after_data = True
    dropped = cli("mail", "send", str(game), "--as", "a", home="a", env={"MAILPW": "pw-a"})
    assert dropped.exit_code == 7
    assert "closed the connection before the message was sent" in dropped.stderr
    assert len(mail_servers.maildir("b")) == 0
    mail_servers.drop_after_data = False
    again = cli("mail", "send", str(game), "--as", "a", home="a", env={"MAILPW": "pw-a"})
    assert again.exit_code == 0, again.stderr
    assert len(mail_servers.maildir("b")) == 1 and len(mail_servers.maildir("c")) == 1


def test_a_refused_message_stays_unread_and_changes_nothing(
    cli: Cli, mail_servers: MailServers, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    set_up(cli, mail_servers, "b", "pw-b")
    from email.message import EmailMessage

    from pbem.mail.armor import armor

    junk = EmailMessage()
    junk["From"] = "mallory@pbem.test"
    junk["To"] = "b@pbem.test"
    junk["Subject"] = "[pbem] a move"
    junk.set_content("your move\n\n" + armor("[delta]\ngame = '0000'\n") + armor("[delta]\n"))
    mail_servers.maildir("b").add(junk.as_bytes())
    result = cli("mail", "fetch", home="b", env={"MAILPW": "pw-b"})
    assert result.exit_code == 3
    first, second = [line for line in result.stdout.splitlines() if line.startswith("  message 1 ")]
    assert first.startswith('  message 1 (from mallory@pbem.test, "[pbem] a move"), 1 of 2: refused, nothing')
    assert second.endswith("2 of 2: refused, nothing changed: the carried entries name no game")
    box = mail_servers.maildir("b")
    assert all("S" not in message.get_flags() for message in box), "a refused message stays unread"
