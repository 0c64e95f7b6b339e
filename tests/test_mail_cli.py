"""pbem mail send and import through files (the servers are tested in test_mail_game): what a
message says and carries, what a recipient's copy becomes, and what is refused, with nothing
changed."""

from __future__ import annotations

import email
import email.policy
import shutil
import tomllib
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.armor import armor
from tests.conftest import Cli


@dataclass
class Table:
    """A game of a, b and c, each with its own copy, passed only as messages."""

    cli: Cli
    root: Path

    def copy(self, seat: str) -> Path:
        return self.root / seat / "game.toml"

    def send(self, seat: str, name: str, *extra: str) -> Path:
        out = self.root / f"{name}.eml"
        result = self.cli(
            "mail", "send", str(self.copy(seat)), "--as", seat, "--to-file", str(out), *extra, home=seat
        )
        assert result.exit_code == 0, result.stderr
        return out

    def receive(self, seat: str, *messages: Path) -> list[str]:
        result = self.cli("mail", "import", *map(str, messages), home=seat)
        assert result.exit_code == 0, result.stdout + result.stderr
        return result.stdout.splitlines()


@pytest.fixture
def table(cli: Cli, tmp_path: Path) -> Table:
    """a created the game and mailed it; b and c joined on their copies, each passed on by mail."""
    made = Table(cli, tmp_path)
    for seat in "abc":
        (tmp_path / seat).mkdir()
    game = made.copy("a")
    result = cli(
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
    assert result.exit_code == 0, result.stderr
    shutil.copyfile(game, made.copy("b"))  # the invitation: the one file players pass by hand
    assert cli("join", str(made.copy("b")), "--as", "b", "--email", "b@pbem.test", home="b").exit_code == 0
    shutil.copyfile(made.copy("b"), made.copy("c"))
    assert cli("join", str(made.copy("c")), "--as", "c", "--email", "c@pbem.test", home="c").exit_code == 0
    made.receive("a", made.send("c", "joined"))
    made.receive("b", made.send("c", "joined-b"))
    return made


def parsed(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def attached(message: EmailMessage) -> dict[str, Any]:
    part = next(part for part in message.iter_attachments())
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return tomllib.loads(payload.decode("utf-8"))


def test_a_message_carries_what_the_others_lack_and_says_what_is_asked(table: Table) -> None:
    roll = table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    assert roll.exit_code == 0, roll.stderr
    sent = table.send("a", "roll")
    message = parsed(sent)
    assert message["To"] == "b@pbem.test, c@pbem.test"
    assert message["Subject"].startswith("[pbem] Princes of the Renaissance ")
    assert "a: added randomness to the setup draw" in message["Subject"]
    carried = attached(message)
    # b signed step 1, c step 2: a cannot know b has c's join, so that travels with a's roll
    assert [entry["seq"] for entry in carried["entry"]] == [2, 3]
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    assert "b: add randomness to the setup draw" in text and "-----BEGIN PBEM ENTRIES-----" in text
    lines = table.receive("b", sent)
    assert (
        len(lines) == 1 and "applied to Princes of the Renaissance" in lines[0] and "1 new entry" in lines[0]
    )
    assert table.receive("b", sent) == [
        lines[0].split(":")[0]
        + ": already had: "
        + lines[0].split("applied to ")[1].split(" (")[0]
        + ", nothing new"
    ]
    assert (
        tomllib.loads(table.copy("b").read_text())["game"]["head"]
        == tomllib.loads(table.copy("a").read_text())["game"]["head"]
    )
    full = attached(parsed(table.send("a", "full", "--full")))
    assert "components" in full and len(full["entry"]) == 4


def test_a_first_message_of_a_game_starts_it_in_the_library(table: Table, tmp_path: Path) -> None:
    stranger = table.cli("mail", "import", str(table.send("a", "whole", "--full")), home="d")
    assert stranger.exit_code == 0, stranger.stderr
    assert "new game" in stranger.stdout
    listed = table.cli("inbox", "--json", home="d")
    import json

    (row,) = json.loads(listed.stdout)
    assert row["phase"] == "setup draw" and Path(row["file"]).exists()
    # the last entries of a game e is not in: mail meant for another, passed over in one line
    only_delta = table.cli("mail", "import", str(table.send("a", "part")), home="e")
    (line,) = only_delta.stdout.splitlines()
    assert only_delta.exit_code == 0 and not only_delta.stderr, only_delta.stdout + only_delta.stderr
    named = f"princes-of-the-renaissance {row['game'][:8]}"
    assert line.endswith(f"part.eml: passed over: entries of a game this home is not in ({named})"), line
    assert json.loads(table.cli("inbox", "--json", home="e").stdout) == [], "no game starts from it"


def refused(table: Table, seat: str, message: bytes, reason: str) -> None:
    path = table.root / "bad.eml"
    path.write_bytes(message)
    before = table.copy(seat).read_bytes()
    result = table.cli("mail", "import", str(path), home=seat)
    assert result.exit_code == 3, result.stdout + result.stderr
    (line,) = result.stdout.splitlines()
    assert "refused, nothing changed" in line and reason in line, line
    assert table.copy(seat).read_bytes() == before


def test_a_truncated_or_edited_message_changes_nothing(table: Table) -> None:
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    raw = table.send("a", "roll").read_bytes()
    # cut inside the armored entries: the attachment, after them, is gone too
    begin, end = raw.index(b"-----BEGIN PBEM ENTRIES"), raw.index(b"-----END PBEM ENTRIES")
    refused(table, "b", raw[: (begin + end) // 2], "cut")
    message = parsed(table.root / "roll.eml")
    carried = attached(message)
    carried["entry"][0]["at"] = "2030-01-01T00:00:00Z"
    import tomlkit

    edited = tomlkit.dumps(carried)
    for part in message.iter_attachments():
        part.set_content(edited.encode("utf-8"), "application", "toml", filename="x.toml")
    body = message.get_body(preferencelist=("plain",))
    assert isinstance(body, EmailMessage)
    body.set_content("edited\n\n" + armor(edited))
    refused(table, "b", message.as_bytes(), "signature does not verify")


def test_a_message_whose_two_copies_differ_is_refused(table: Table) -> None:
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    message = parsed(table.send("a", "roll"))
    body = message.get_body(preferencelist=("plain",))
    assert isinstance(body, EmailMessage)
    body.set_content("the same, I promise\n\n" + armor("[delta]\ngame = 'x'\n"))
    refused(table, "b", message.as_bytes(), "the entries in the body differ from the attached ones")


def test_a_message_of_another_game_is_refused(table: Table, cli: Cli, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    cli("new", str(other), "--game", "potr", "--players", "a,b,c", "--as", "a", home="a")
    shutil.copyfile(other, tmp_path / "a" / "other.toml")
    result = cli("mail", "send", str(other), "--as", "a", "--to-file", str(tmp_path / "other.eml"), home="a")
    assert result.exit_code == 0
    # b's home has the first game only, and the message names the second: it starts it
    assert "new game" in table.receive("b", tmp_path / "other.eml")[0]


def test_a_move_whose_mail_fails_stays_in_the_file_to_send_again(table: Table) -> None:
    result = table.cli("play", str(table.copy("a")), "roll", "--as", "a", "--send", home="a")
    assert result.exit_code == 2
    assert (
        "the move is in" in result.stderr and "but was not sent: no mail account is set up" in result.stderr
    )
    entries = tomllib.loads(table.copy("a").read_text())["entry"]
    assert entries[-1]["kind"] == "contribute" and entries[-1]["by"] == "a"
    assert table.send("a", "again").exists()


def test_a_seat_still_to_join_is_told_apart_from_one_without_an_address(cli: Cli, tmp_path: Path) -> None:
    """A join mailed while another seat has still to join reaches the others; the seat still to
    join gets it with the next message that carries it, which is no cause for a warning. A seat
    that joined without an address is one: nobody can mail it."""
    for seat in "abc":
        (tmp_path / seat).mkdir()
    game = tmp_path / "a" / "game.toml"
    made = cli("new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
               "--email", "a@pbem.test", home="a")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    copy = tmp_path / "b" / "game.toml"
    shutil.copyfile(game, copy)
    assert cli("join", str(copy), "--as", "b", home="b").exit_code == 0  # no --email
    sent = cli("mail", "send", str(copy), "--as", "b", "--to-file", str(tmp_path / "b.eml"), home="b")
    assert sent.exit_code == 0, sent.stderr
    assert "c has not joined yet" in sent.stderr and "warning" not in sent.stderr, sent.stderr
    assert cli("mail", "import", str(tmp_path / "b.eml"), home="a").exit_code == 0
    from_a = cli("mail", "send", str(game), "--as", "a", "--to-file", str(tmp_path / "a.eml"), home="a")
    assert from_a.exit_code == 0, from_a.stderr
    assert "warning: b gave no address in the game" in from_a.stderr, from_a.stderr


def test_mbox_files_and_maildir_folders_are_read_message_by_message(table: Table) -> None:
    """Saved mail in the two common forms: each pbem message in it applied in turn, in one line
    each; a message of no game is passed over in silence."""
    import mailbox

    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    from_a = table.send("a", "roll")
    chatter = EmailMessage()
    chatter["From"], chatter["To"], chatter["Subject"] = "x@pbem.test", "b@pbem.test", "lunch?"
    chatter.set_content("Lunch on Friday?\n")
    saved = mailbox.mbox(table.root / "saved.mbox")
    saved.add(chatter)
    saved.add(from_a.read_bytes())
    saved.flush()
    (line,) = table.receive("b", table.root / "saved.mbox")
    assert line.strip().startswith(f"{table.root / 'saved.mbox'}#2: applied to") and "1 new entry" in line, (
        line
    )
    table.cli("play", str(table.copy("b")), "roll", "--as", "b", home="b")
    from_b = table.send("b", "roll-b")
    folder = mailbox.Maildir(table.root / "Maildir", create=True)
    folder.add(from_a.read_bytes())
    folder.add(chatter)
    folder.add(from_b.read_bytes())
    lines = table.receive("c", table.root / "Maildir")
    assert len(lines) == 2 and all("applied to Princes of the Renaissance" in line for line in lines), lines
    assert (
        tomllib.loads(table.copy("c").read_text())["game"]["head"]
        == tomllib.loads(table.copy("b").read_text())["game"]["head"]
    )


def test_equivocation_found_on_import_is_reported_with_both_entries(table: Table, cli: Cli) -> None:
    """a rolls on its copy and, from a second machine holding the copy from before, writes a note
    at the same step instead: whoever receives both holds a's two signed entries for one step."""
    before = table.copy("a").read_bytes()
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    table.receive("b", table.send("a", "roll"))
    fork = table.root / "fork.toml"
    fork.write_bytes(before)
    assert cli("note", str(fork), "I never rolled", "--as", "a", home="a@2").exit_code == 0
    forked = table.root / "fork.eml"
    assert cli("mail", "send", str(fork), "--as", "a", "--to-file", str(forked), home="a@2").exit_code == 0
    kept = table.copy("b").read_bytes()
    result = cli("mail", "import", str(forked), home="b")
    assert result.exit_code == 6, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "equivocation" in output and "I never rolled" in output and "contribute" in output, output
    assert table.copy("b").read_bytes() == kept


def test_mail_that_arrives_out_of_order_is_applied_once_what_it_follows_is(table: Table) -> None:
    """A move that only connects after another, read first: tried again once the other applied."""
    import mailbox

    from pbem import gamefile
    from pbem.engine import ledger
    from pbem.mail.delivery import delta_text
    from pbem.mail.message import Outgoing, build

    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    first = table.send("a", "roll")
    assert table.cli("note", str(table.copy("a")), "over to you", "--as", "a", home="a").exit_code == 0
    game = ledger.read(gamefile.load(table.copy("a")).data)
    # what a sender that knew b holds the roll would send: the note alone
    then = build(
        Outgoing("a@pbem.test", ("b@pbem.test",), "the note", "over to you", delta_text(game, 4),
                 game.game_id, "note.toml")
    ).as_bytes()  # fmt: skip
    saved = mailbox.mbox(table.root / "saved.mbox")
    saved.add(then)
    saved.add(first.read_bytes())
    saved.flush()
    lines = table.receive("b", table.root / "saved.mbox")
    assert len(lines) == 2 and all("applied to" in line for line in lines), lines
    assert tomllib.loads(table.copy("b").read_text())["game"]["head"] == game.head


def test_files_of_one_import_are_applied_in_any_order(table: Table) -> None:
    """pbem mail import 21.eml 20.eml: 21 follows 20, and is tried again once 20 applied, as
    within one mailbox."""
    from pbem import gamefile
    from pbem.engine import ledger
    from pbem.mail.delivery import delta_text
    from pbem.mail.message import Outgoing, build

    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    first = table.send("a", "20")
    assert table.cli("note", str(table.copy("a")), "over to you", "--as", "a", home="a").exit_code == 0
    game = ledger.read(gamefile.load(table.copy("a")).data)
    then = table.root / "21.eml"
    then.write_bytes(
        build(
            Outgoing("a@pbem.test", ("b@pbem.test",), "the note", "over to you", delta_text(game, 4),
                     game.game_id, "note.toml")
        ).as_bytes()
    )  # fmt: skip
    lines = table.receive("b", then, first)
    assert len(lines) == 2 and all("applied to" in line for line in lines), lines
    assert "21.eml" in lines[0] and "20.eml" in lines[1], lines
    assert tomllib.loads(table.copy("b").read_text())["game"]["head"] == game.head


def test_an_attachment_saved_on_its_own_is_applied(table: Table) -> None:
    """The entries saved from a mail client (a delta, or the whole file) apply as the message
    would; a file that is neither is refused (exit 3), and pbem merge points a delta to import."""
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    part = next(parsed(table.send("a", "roll")).iter_attachments())
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes) and b"[delta]" in payload
    saved = table.root / "saved.toml"
    saved.write_bytes(payload)
    before = table.copy("b").read_bytes()
    merged = table.cli("merge", str(table.copy("b")), str(saved), home="b")
    assert merged.exit_code == 2 and "pbem mail import" in merged.stderr, merged.stderr
    assert len(merged.stderr.strip().splitlines()) == 1 and table.copy("b").read_bytes() == before
    (line,) = table.receive("b", saved)
    assert "applied to" in line and "1 new entry" in line, line
    whole = table.root / "whole.toml"
    whole.write_bytes(table.copy("a").read_bytes())
    (line,) = table.receive("c", whole)
    assert "applied to" in line, line
    other = table.root / "notes.txt"
    other.write_text("Subject: hello\n\nnothing of a game\n")
    result = table.cli("mail", "import", str(other), home="c")
    assert result.exit_code == 3, result.stdout
    assert len(result.stdout.strip().splitlines()) == 1 and "neither" in result.stdout, result.stdout


def test_the_attachment_is_named_for_what_it_holds_and_older_names_still_import(table: Table) -> None:
    """A whole game is GAME-ID8.toml, as the game's own file; the entries of some steps are
    GAME-ID8-delta-FIRST-LAST.toml, so saving one beside the game never replaces it. A message of
    an earlier version, whose delta bore the game's name, imports as before."""
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    game = tomllib.loads(table.copy("a").read_text())["game"]["id"][:8]
    whole = next(parsed(table.send("a", "whole", "--full")).iter_attachments())
    assert whole.get_filename() == f"princes-of-the-renaissance-{game}.toml"
    roll = parsed(table.send("a", "roll"))
    assert (
        next(roll.iter_attachments()).get_filename()
        == f"princes-of-the-renaissance-{game}-delta-0002-0003.toml"
    )
    for part in roll.iter_attachments():
        part.replace_header(
            "Content-Disposition", f'attachment; filename="princes-of-the-renaissance-{game}.toml"'
        )
    older = table.root / "older.eml"
    older.write_bytes(roll.as_bytes())
    (line,) = table.receive("b", older)
    assert "applied to" in line and "1 new entry" in line, line


def test_messages_of_a_game_are_dated_and_read_as_one_shallow_thread(table: Table) -> None:
    """Every message has a Date (pbem's clock) and a Message-ID, and answers the game's first
    message, never the one before it: a mail client shows one conversation, one level deep, however
    long the game."""
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    out = table.root / "roll.eml"
    sent = table.cli(
        "mail", "send", str(table.copy("a")), "--as", "a", "--to-file", str(out), home="a",
        env={"PBEM_NOW": "2026-03-04T05:06:07Z"},
    )  # fmt: skip
    assert sent.exit_code == 0, sent.stderr
    roll = parsed(out)
    assert roll["Date"] == "Wed, 04 Mar 2026 05:06:07 +0000"
    assert roll["Message-ID"].startswith("<") and roll["Message-ID"].endswith("@pbem.test>")
    # a's first message of the game is the one c sent it at the start: the root
    first = parsed(table.root / "joined.eml")
    root = first["Message-ID"]
    assert first["In-Reply-To"] is None and first["References"] is None, "the first answers nothing"
    assert roll["In-Reply-To"] == root and roll["References"] == root
    table.receive("b", out)
    assert table.cli("note", str(table.copy("b")), "thanks", "--as", "b", home="b").exit_code == 0
    answer = parsed(table.send("b", "answer"))
    # b's first message was c's other one: b answers the root the later messages name instead
    assert answer["In-Reply-To"] == root and answer["References"] == root
    assert answer["Message-ID"] not in (roll["Message-ID"], root)
    table.receive("c", table.root / "answer.eml")
    assert table.cli("note", str(table.copy("c")), "and again", "--as", "c", home="c").exit_code == 0
    later = parsed(table.send("c", "later"))
    assert later["In-Reply-To"] == root and later["References"] == root, "however many came between"


def test_a_message_shows_the_table_as_a_picture_beside_its_words(table: Table) -> None:
    """With --picture (or pbem mail setup --pictures), an HTML part with a PNG of the table as
    every player sees it, for mail clients that show pictures; the plain text and the entries are
    as without it. Without, the message stays a few kilobytes: plain text only."""
    table.cli("play", str(table.copy("a")), "roll", "--as", "a", home="a")
    message = parsed(table.send("a", "roll", "--picture"))
    html = message.get_body(preferencelist=("html",))
    plain = message.get_body(preferencelist=("plain",))
    assert isinstance(html, EmailMessage) and isinstance(plain, EmailMessage)
    (image,) = [part for part in message.walk() if part.get_content_type() == "image/png"]
    assert image["Content-ID"] == "<table@pbem>" and 'src="cid:table@pbem"' in html.get_content()
    png = image.get_payload(decode=True)
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert "-----BEGIN PBEM ENTRIES-----" in plain.get_content()
    assert "-----BEGIN PBEM ENTRIES-----" not in html.get_content(), "one armored block only"
    assert table.receive("b", table.root / "roll.eml")[0].strip().startswith(str(table.root / "roll.eml"))
    bare = parsed(table.send("a", "bare"))
    assert not any(part.get_content_type() in ("image/png", "text/html") for part in bare.walk())
    assert attached(bare) == attached(message)
    setup = table.cli("mail", "setup", "--address", "a@pbem.test", "--pictures", home="a")
    assert setup.exit_code == 0, setup.stderr
    pictured = parsed(table.send("a", "pictured"))
    assert any(part.get_content_type() == "image/png" for part in pictured.walk())
    plain_again = parsed(table.send("a", "plain", "--no-picture"))
    assert not any(part.get_content_type() == "image/png" for part in plain_again.walk())


def test_a_message_of_another_game_carries_its_picture_too(cli: Cli, tmp_path: Path) -> None:
    """Il Principe, just joined: its picture goes as Princes of the Renaissance's does."""
    game = tmp_path / "game.toml"
    new = ("new", str(game), "--game", "il-principe", "--players", "a,b,c", "--as", "a")
    made = cli(*new, "--email", "a@pbem.test", home="a")
    assert made.exit_code == 0, made.stderr
    for seat in "bc":
        joined = cli("join", str(game), "--as", seat, "--email", f"{seat}@pbem.test", home=seat)
        assert joined.exit_code == 0, joined.stderr
    out = tmp_path / "joined.eml"
    sent = cli("mail", "send", str(game), "--as", "c", "--to-file", str(out), "--picture", home="c")
    assert sent.exit_code == 0, sent.stderr
    (image,) = [part for part in parsed(out).walk() if part.get_content_type() == "image/png"]
    png = image.get_payload(decode=True)
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG\r\n\x1a\n")


def test_a_game_arriving_with_a_seat_joined_under_another_key_says_so(
    table: Table, tmp_path: Path, homes: dict[str, Path]
) -> None:
    """d imported a key as b's that is not the key b joined with (someone may have taken b's
    seat): the message that brings the game says so, as status would, and so does the inbox.
    e imported b's real key, and hears nothing of it."""
    from pbem.keys import KeyStore
    from tests.conftest import CREATED

    impostor = tmp_path / "impostor"
    KeyStore(impostor).create("b", None, CREATED)
    assert table.cli("key", "import", "-", home="d", input=KeyStore(impostor).export_line("b")).exit_code == 0
    real = table.cli("key", "export", "b", home="b").stdout
    assert table.cli("key", "import", "-", home="e", input=real).exit_code == 0
    whole = table.send("a", "whole", "--full")

    arrived = table.cli("mail", "import", str(whole), home="d")
    assert arrived.exit_code == 0, arrived.stdout + arrived.stderr
    (line,) = arrived.stdout.splitlines()
    assert "applied to Princes of the Renaissance" in line and "(new game" in line
    assert "; warning: seat b joined with key " in line and "not the key you imported as b (" in line
    listed = table.cli("inbox", home="d")
    game_line, warning = listed.stdout.splitlines()
    assert "Princes of the Renaissance" in game_line
    assert warning.startswith("    warning: seat b joined with key ") and "imported as b" in warning
    import json

    (row,) = json.loads(table.cli("inbox", "--json", home="d").stdout)
    assert len(row["key_mismatches"]) == 1 and row["key_mismatches"][0].startswith("seat b joined")

    trusted = table.cli("mail", "import", str(whole), home="e")
    assert trusted.exit_code == 0 and "warning" not in trusted.stdout + trusted.stderr
    assert "warning" not in table.cli("inbox", home="e").stdout
