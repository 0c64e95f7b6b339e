"""What a command says once an entry is written, in a game played by mail: nothing about
sending the file when --send has mailed it, the mail way to send it otherwise (never naming the
player's own seats), the inbox's mark on a seat this home holds before it has joined, and
columns that stay in line with names wider than their length."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from rich.cells import cell_len

from pbem.cli.columns import pad
from tests.conftest import Cli, game_ids
from tests.mail_servers import MailServers
from tests.test_mail_lack import Homes, quick_components


@pytest.fixture
def joined(cli: Cli, mail_servers: MailServers, tmp_path: Path) -> Homes:
    """a, b and c, each with its address at the loopback mail servers, have joined by mail; a
    has a mail account (a Treachery deck of one card of each kind keeps the shuffles quick)."""
    homes = Homes(cli, tmp_path)
    ours = quick_components(tmp_path)
    game = tmp_path / "game.toml"
    with game_ids("advice by mail"):
        homes.run("a", "new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
                  "--email", mail_servers.address("a"), "--components", str(ours))  # fmt: skip
    homes.game = json.loads(homes.run("a", "verify", str(game), "--json"))["game"]["id"][:8]
    invitation = homes.send("a", "invitation", "--to", mail_servers.address("b"),
                            "--to", mail_servers.address("c"))  # fmt: skip
    for seat in "bc":
        homes.receive(seat, invitation)
        homes.run(seat, "join", homes.game, "--as", seat, "--email", mail_servers.address(seat))
        homes.receive("a", homes.send(seat, f"joined-{seat}"))
    homes.receive("b", homes.send("a", "both-joined"))
    mail_servers.add_user("a", "pw-a")
    homes.cli("mail", "setup", "--address", mail_servers.address("a"),
              "--smtp", f"127.0.0.1:{mail_servers.smtp_port}", "--password-env", "MAILPW",
              "--ca-file", str(mail_servers.ca_file), home="a")  # fmt: skip
    return homes


def test_a_move_sent_with_send_is_not_also_to_be_sent(joined: Homes, mail_servers: MailServers) -> None:
    for seat in "bc":
        mail_servers.add_user(seat, f"pw-{seat}")
    result = joined.cli("play", joined.game, "roll", "--as", "a", "--send", home="a", env={"MAILPW": "pw-a"})
    said = result.stdout + result.stderr
    assert result.exit_code == 0, said
    # the roll goes to b, who cannot know it is asked, and to c, who lacks b's join: every seat
    # learns who plays once the game has started
    assert "sent to b, c (" in said, said
    assert "send the file" not in said and "mail it to" not in said, said


def test_without_send_the_advice_is_the_mail_way_and_never_names_the_player(joined: Homes) -> None:
    said = joined.run("b", "play", joined.game, "roll", "--as", "b")
    advice = [line for line in said.splitlines() if "mail it to" in line or "send the file" in line]
    assert len(advice) == 1, said
    assert f"pbem mail send {joined.game} --as b" in advice[0], advice
    listed = advice[0].split("mail it to ", 1)[1].split(":", 1)[0].split(", ")
    assert listed and "b" not in listed, advice
    assert "pbem merge" not in said


def test_the_inbox_marks_a_seat_this_home_holds_before_it_joins(cli: Cli, tmp_path: Path) -> None:
    homes = Homes(cli, tmp_path)
    game = tmp_path / "game.toml"
    homes.run("a", "new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
              "--email", "a@pbem.test")  # fmt: skip
    homes.game = json.loads(homes.run("a", "verify", str(game), "--json"))["game"]["id"][:8]
    homes.receive("b", homes.send("a", "invitation", "--to", "b@pbem.test"))
    rows = json.loads(homes.run("b", "inbox", "--json"))
    assert rows[0]["yours"] == ["b"], rows
    assert homes.run("b", "inbox").lstrip().startswith("* "), "b's key is here: the move is b's"


def test_columns_are_padded_by_the_width_a_terminal_gives_them(cli: Cli, tmp_path: Path) -> None:
    assert pad("王芳", 6) == "王芳  " and cell_len(pad("王芳", 6)) == 6
    assert pad("王芳王芳", 6) == "王芳王芳"
    game = tmp_path / "game.toml"
    made = cli("new", str(game), "--game", "potr", "--players", "a,王芳,c", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    listed = cli("verify", str(game), home="a").stdout.splitlines()
    rows = [line for line in listed if line.startswith("  ") and ("not joined" in line or "(entry" in line)]
    assert len(rows) == 3, listed
    # the second column starts at the same place on the terminal on every row
    assert len({cell_len(row[: row.index(row.split()[1])]) for row in rows}) == 1, rows


def test_a_refused_recipient_is_said_apart_from_those_it_reached(
    joined: Homes, mail_servers: MailServers
) -> None:
    for seat in "bc":
        mail_servers.add_user(seat, f"pw-{seat}")
    mail_servers.refuse_recipients = {mail_servers.address("b")}
    joined.run("a", "play", joined.game, "roll", "--as", "a")
    result = joined.cli("mail", "send", joined.game, "--as", "a", home="a", env={"MAILPW": "pw-a"})
    assert result.exit_code == 7
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert line.startswith("error: sent to c ("), line
    assert f"refused b ({mail_servers.address('b')}), who did not get it" in line, line
    assert "was not sent" not in line and "the others" not in line, line
    assert len(mail_servers.maildir("c")) == 1 and len(mail_servers.maildir("b")) == 0


def test_status_in_a_game_by_mail_says_no_file_to_send_and_no_merge(joined: Homes) -> None:
    said = joined.run("b", "status", joined.game)
    assert "send the file" not in said and "pbem merge" not in said, said
    assert "pbem mail fetch" in said, said


def test_log_and_status_columns_stay_in_line_with_a_wide_name(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    made = cli("new", str(game), "--game", "potr", "--players", "a,王芳,c", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    for seat, home in (("王芳", "b"), ("c", "c")):
        joined = cli("join", str(game), "--as", seat, "--key", home, home=home)
        assert joined.exit_code == 0, joined.stderr
    logged = cli("log", str(game), home="a").stdout.splitlines()
    # the kind column starts at the same terminal column whoever made the entry
    starts = {cell_len(line[: line.index(line.split()[2])]) for line in logged if line[:4].strip().isdigit()}
    assert len(starts) == 1, logged
    status = cli("status", str(game), home="a").stdout.splitlines()
    waiting = [line for line in status if line.startswith("  ")]
    prompts = [line for line in waiting if line.split()[0] in {"a", "王芳", "c"}]
    assert prompts and len({cell_len(line[: line.index(line.split()[1])]) for line in prompts}) == 1, waiting
    narrow = cli("status", str(game), home="a", env={"COLUMNS": "40"}).stdout.splitlines()
    # a line may pass the width only when it is one word (a path) that is never cut
    assert narrow and all(cell_len(line) <= 40 or len(line.split()) == 1 for line in narrow), narrow


def test_wrapped_text_with_wide_names_fits_the_terminal() -> None:
    from pbem.cli.common import wrap_cells

    text = "waiting for 王芳王芳 and 李娜李娜 and 张伟张伟 to add randomness to the setup draw"
    lines = wrap_cells(text, 30, "  ", "    ")
    assert all(cell_len(line) <= 30 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == text
    assert lines[0].startswith("  waiting") and all(line.startswith("    ") for line in lines[1:])


def test_a_join_names_the_address_only_where_pbem_cannot_supply_it(cli: Cli, tmp_path: Path) -> None:
    """In a game by mail the command status gives c mails the join (--send), and names an address
    (--email) while c's home has no mail account to take it from; once it has, pbem join takes
    the account's and says so. A game passed as a file asks for neither."""
    game, by_file = tmp_path / "game.toml", tmp_path / "file.toml"
    cli(
        "new",
        str(game),
        "--game",
        "potr",
        "--players",
        "a,b,c",
        "--as",
        "a",
        "--email",
        "a@pbem.test",
        home="a",
    )
    cli("new", str(by_file), "--game", "potr", "--players", "a,b,c", "--as", "a", home="a")

    def join_command(path: Path) -> str:
        waiting = json.loads(cli("status", str(path), "--json", home="c").stdout)["waiting"]
        return str(next(item["command"] for item in waiting if item["seat"] == "c"))

    assert join_command(game) == f"pbem join {game} --as c --email ADDRESS --send"
    assert join_command(by_file) == f"pbem join {by_file} --as c"
    setup = cli("mail", "setup", "--address", "c@pbem.test", "--no-check", home="c")
    assert setup.exit_code == 0, setup.stderr
    assert join_command(game) == f"pbem join {game} --as c --send"
    joined = cli("join", str(game), "--as", "c", home="c")
    assert joined.exit_code == 0, joined.stderr
    assert (
        "c's mail goes to c@pbem.test, the address of pbem mail setup (--email gives another)"
        in joined.stderr
    )
    assert "still to join: b" in joined.stderr and "every seat has joined" not in joined.stderr, joined.stderr
    game_id = json.loads(cli("verify", str(game), "--json", home="c").stdout)["game"]["id"]
    assert f"mail it to a: pbem mail send {game_id[:8]} --as c" in joined.stderr, "not sent: how to"
    entries = tomllib.loads(game.read_text(encoding="utf-8"))["entry"]
    assert entries[-1]["email"] == "c@pbem.test", entries[-1]
    other = cli("join", str(by_file), "--as", "c", "--email", "c@example.org", home="c")
    assert other.exit_code == 0 and "the address of pbem mail setup" not in other.stderr, other.stderr
