"""A club plays by mail, over the loopback mail servers, each player in a home of its own and
typing only what the mail, status and the inbox say to type: the whole command, with --send. The
mail reads as a person reads it: what happened in words, a seat's shares in one line, each reader's
move with its command, subjects cut where a word ends, every message answering the game's first,
each attachment named for what it holds. A seat handed on to a new player mails that player the
whole game (the others only what they lack), so the new player's first fetch starts the game; a
message of a game a home is not in is passed over in one line."""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests import hidden_deck_game
from tests.conftest import Cli
from tests.mail_servers import MailServers
from tests.mail_servers import _delivery_order as delivery_order

SEATS = ("a", "b", "c")


@pytest.fixture(autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


class Club:
    """Players a, b, c and d, each in a home of its own with its mail account at the servers."""

    def __init__(self, cli: Cli, servers: MailServers) -> None:
        self.cli, self.servers = cli, servers
        self.game = ""
        self.said: dict[str, str] = {}  # what each player's join said
        for player in (*SEATS, "d"):
            servers.add_user(player, f"pw-{player}")
            self.run(
                player, "mail", "setup", "--address", servers.address(player),
                "--smtp", f"127.0.0.1:{servers.smtp_port}",
                "--imap", f"127.0.0.1:{servers.imap_port}", "--imap-security", "starttls",
                "--password-env", "MAILPW", "--ca-file", str(servers.ca_file),
            )  # fmt: skip

    def run(self, player: str, *args: str) -> str:
        result = self.cli(*args, home=player, env={"MAILPW": f"pw-{player}"})
        said = str(result.stdout + result.stderr)
        assert result.exit_code == 0, f"{player} {args}\n{said}"
        return said

    def fetch(self, player: str) -> str:
        said = self.run(player, "mail", "fetch")
        assert "refused" not in said, said
        return said

    def mail(self, player: str) -> list[EmailMessage]:
        """The messages in ``player``'s mailbox, in the order they came."""
        box = self.servers.maildir(player)
        found = []
        for key in sorted(box.keys(), key=delivery_order):
            message = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            found.append(message)
        return found

    def head(self, player: str) -> str:
        return str(json.loads(self.run(player, "verify", self.game, "--json"))["game"]["head"])


def attachment(message: EmailMessage) -> tuple[str, str]:
    """The name of the file a message carries, and the file."""
    (part,) = [part for part in message.iter_attachments() if part.get_content_type() == "application/toml"]
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return str(part.get_filename()), payload.decode("utf-8")


def text(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert isinstance(body, EmailMessage)
    return str(body.get_content()).replace("\r\n", "\n")  # as the servers stored it


@pytest.fixture
def club(cli: Cli, mail_servers: MailServers, tmp_path: Path) -> Club:
    """a made the game and invited b and c by mail; each joined by typing the command the
    invitation gave it, then a made the first move."""
    club = Club(cli, mail_servers)
    game = tmp_path / "game.toml"
    club.run("a", "new", str(game), "--game", hidden_deck_game.NAME, "--players", ",".join(SEATS),
             "--as", "a", "--email", mail_servers.address("a"))  # fmt: skip
    club.game = json.loads(club.run("a", "verify", str(game), "--json"))["game"]["id"][:8]
    club.run("a", "mail", "send", club.game, "--as", "a",
             "--to", mail_servers.address("b"), "--to", mail_servers.address("c"))  # fmt: skip
    for seat in ("b", "c"):
        club.fetch(seat)
        (invitation,) = club.mail(seat)
        club.said[seat] = club.run(seat, *typed(text(invitation), f"pbem join {club.game} --as {seat}"))
    for player in SEATS:
        club.fetch(player)
    club.run("a", "play", club.game, "--as", "a", "pass", "--send")
    for player in SEATS:
        club.fetch(player)
    return club


def typed(said: str, start: str) -> list[str]:
    """The one command a text gives that starts ``start``, as the words a player types after
    ``pbem``."""
    (line,) = [line.strip() for line in said.splitlines() if line.strip().startswith(start)]
    return line.split()[1:]


def test_every_command_given_is_the_whole_command_to_type(club: Club, mail_servers: MailServers) -> None:
    game = club.game
    # the invitation gave each seat its join, with --send and no --email: the account gives it
    joined = club.said["b"]
    assert f"b's mail goes to {mail_servers.address('b')}, the address of pbem mail setup" in joined
    assert "still to join: c" in joined and "every seat has joined" not in joined, joined
    # status: each seat's command mails what it makes
    status = json.loads(club.run("b", "status", game, "--json"))
    assert status["waiting"] and all(item["command"].endswith("--send") for item in status["waiting"])
    command = " ".join(typed(club.run("b", "status", game), "pbem play"))
    assert command == f"play {game} --as b MOVE --send (pbem moves {game} --as b lists the moves)", command
    # the inbox: the game, then what the player's seat is to do, and the command
    inbox = club.run("b", "inbox").splitlines()
    assert inbox[0].startswith(f"* {hidden_deck_game.INFO.title} {game}: play; to act: b (your move: b)")
    assert inbox[1:3] == [
        "    b: draw, play a card or pass",
        f"      pbem play {game} --as b MOVE --send  (pbem moves {game} --as b lists the moves)",
    ], inbox
    # the mail: to each reader whose move it is, the same
    moved = club.mail("b")[-1]
    said = text(moved)
    assert f"b, your move: draw, play a card or pass\n  pbem play {game} --as b MOVE --send\n" in said, said
    assert f"(pbem moves {game} --as b lists the moves)" in said
    assert "c, your move" not in said, "c is not asked to move"
    listed = club.run("b", "moves", game, "--as", "b").split()
    assert "draw" in listed, listed
    made = typed(said, f"pbem play {game} --as b")
    club.run("b", *[("draw" if word == "MOVE" else word) for word in made])
    assert "applied to" in club.fetch("c")


def test_the_new_player_of_a_seat_is_mailed_the_whole_game_and_its_first_fetch_applies_it(
    club: Club, mail_servers: MailServers, tmp_path: Path
) -> None:
    exported = tmp_path / "d.id"
    club.run("d", "key", "export", "d", "--output", str(exported))
    before = {player: len(club.mail(player)) for player in (*SEATS, "d")}
    handed = club.run("b", "handover", club.game, "--as", "b", "--to", "d", str(exported),
                      "--email", mail_servers.address("d"), "--send")  # fmt: skip
    assert "the message to them carries the whole game" in handed, handed
    (to_d,) = club.mail("d")
    name, carried = attachment(to_d)
    assert name == f"{hidden_deck_game.NAME}-{club.game}.toml" and "[[entry]]" in carried
    assert "[delta]" not in carried and "[game]" in carried, "the whole game file"
    assert to_d["To"] == mail_servers.address("d") and to_d["Cc"] is None, "a message of its own"
    for player in ("a", "c"):
        (message,) = club.mail(player)[before[player] :]
        name, carried = attachment(message)
        delta = rf"{hidden_deck_game.NAME}-{club.game}-delta-\d{{4}}-\d{{4}}\.toml"
        assert "[delta]" in carried and re.fullmatch(delta, name), name
        assert mail_servers.address("d") not in str(message["To"]) + str(message["Cc"])
    # d's first fetch applies it: the game starts in d's home, b's move is d's to make
    fetched = club.fetch("d")
    assert "(new game, in" in fetched, fetched
    inbox = json.loads(club.run("d", "inbox", "--json"))
    assert inbox[0]["yours"] == ["b"], inbox
    (todo,) = inbox[0]["todo"]
    assert todo["command"] == f"pbem play {club.game} --as b MOVE --send", todo
    played = club.run("d", "play", club.game, "--as", "b", "pass", "--send")
    # the move goes to the seat it asks to act; with pbem mail send, to everyone
    assert "sent to c (" in played, played
    assert "applied to" in club.fetch("c") and club.head("c") == club.head("d")
    club.run("d", "mail", "send", club.game, "--as", "b")
    fetched = club.fetch("a")
    assert "applied to" in fetched and "(1 new entry" in fetched, fetched
    heads = {club.head(player) for player in ("a", "c", "d")}
    assert len(heads) == 1, heads
    logged = json.loads(club.run("a", "log", club.game, "--json"))
    assert [item["kind"] for item in logged[-2:]] == ["handover", "move"]
    # d's mail from now on carries only what it lacks
    club.run("c", "play", club.game, "--as", "c", "pass")
    club.run("c", "mail", "send", club.game, "--as", "c")
    name, carried = attachment(club.mail("d")[-1])
    assert "-delta-" in name and "[delta]" in carried, name


def test_the_mail_reads_as_a_person_reads_it(club: Club, mail_servers: MailServers, tmp_path: Path) -> None:
    game = club.game
    for seat, verb in (("b", "draw"), ("c", "draw"), ("a", "draw")):
        club.run(seat, "play", game, "--as", seat, verb, "--send")
        for player in SEATS:
            club.fetch(player)
    # a's draw gave its shares of b's and c's cards: one line, counted, as status asks for them
    said = text(club.mail("b")[-1])
    words = said.split("-----BEGIN PBEM ENTRIES-----")[0]
    assert "a            draw [gave its decryption shares of 2 cards]" in words, words
    assert "deck:" not in words, "no card token: the cards in words"
    messages = {player: club.mail(player) for player in SEATS}
    invitation = messages["b"][0]
    root = invitation["Message-ID"]
    for player, received in messages.items():
        for message in received:
            subject = str(message["Subject"])
            # cut where a word ends, never inside brackets
            assert subject.count("[") == subject.count("]") and len(subject) < 160, subject
            if message["Message-ID"] != root:  # every other message answers the game's first
                assert message["In-Reply-To"] == root and message["References"] == root, (player, subject)
            name, carried = attachment(message)
            first, last = (min(seqs), max(seqs)) if (seqs := steps(carried)) else (0, 0)
            whole = f"{hidden_deck_game.NAME}-{game}.toml"
            delta = f"{hidden_deck_game.NAME}-{game}-delta-{first:04d}-{last:04d}.toml"
            assert name == (delta if "[delta]" in carried else whole), name
    # an attachment saved beside the game is a file of its own, and imports as the message does
    copy = Path(json.loads(club.run("c", "inbox", "--json"))[0]["file"])
    kept = copy.read_bytes()
    name, carried = attachment(messages["c"][-1])
    saved = copy.parent / name
    saved.write_text(carried, encoding="utf-8")
    assert saved != copy and copy.read_bytes() == kept
    assert "already had" in club.run("c", "mail", "import", str(saved))
    # a message of a game d is not in (mail meant for another): one line, exit 0, left unread
    mail_servers.maildir("d").add(messages["c"][-1].as_bytes())
    fetched = club.run("d", "mail", "fetch")
    named = f"{hidden_deck_game.NAME} {game}"
    (line,) = [line for line in fetched.splitlines() if "message" in line and "passed over" in line]
    assert line.endswith(f": passed over: entries of a game this home is not in ({named})"), fetched
    assert all("S" not in message.get_flags() for message in mail_servers.maildir("d")), "left unread"
    assert "no new pbem messages" in club.run("d", "mail", "fetch"), "said once"
    # the whole game reaching d later: the message passed over is read again, and had
    out = tmp_path / "whole.eml"
    club.run("a", "mail", "send", game, "--as", "a", "--full", "--to-file", str(out))
    mail_servers.maildir("d").add(out.read_bytes())
    fetched = club.run("d", "mail", "fetch")
    assert "(new game, in" in fetched and ": already had: " in fetched, fetched
    assert all("S" in message.get_flags() for message in mail_servers.maildir("d")), "both applied"


def steps(carried: str) -> list[int]:
    import tomllib

    return [entry["seq"] for entry in tomllib.loads(carried)["entry"]]
