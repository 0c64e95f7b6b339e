"""Fewer messages: an entry goes to the seats that need it now, the others get it with their next
message; what a seat is asked that needs no choice is done at once (``--send``, ``pbem mail fetch
--answer``) and passed round the table one message each; and joins that cross in the post still
end with every seat joined and every copy the same. Over the loopback mail servers, each player
in a home of its own, typing only what pbem says."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import hidden_deck_game
from tests.mail_club import Club
from tests.mail_servers import MailServers

SEATS = ("a", "b", "c", "d")


@pytest.fixture(autouse=True)
def _test_game() -> Iterator[None]:
    with hidden_deck_game.registered():
        yield


@pytest.fixture
def club(mail_servers: MailServers, tmp_path: Path) -> Club:
    """Four players of the test game by mail, every seat joined and the set-up done: a to move."""
    club = Club(tmp_path, mail_servers, SEATS)
    club.start(hidden_deck_game.NAME, "escrow=none")
    settle(club)
    return club


def settle(club: Club) -> None:
    """Each player fetches (doing what needs no choice, passing the game on) until a's copy says a
    is to move, and nobody else is asked."""
    for _ in range(6):
        for seat in club.seats:
            club.fetch(seat)
        status = club.json("a", "status", club.game)
        asked = {(item["seat"], item["kind"]) for item in status["waiting"]}
        if ("a", "move") in asked and {seat for seat, _ in asked} == {"a"}:
            return
    raise AssertionError(f"the set-up did not end: {status['waiting']}")


def received(club: Club) -> dict[str, int]:
    return {seat: len(club.received(seat)) for seat in club.seats}


def test_a_move_goes_only_to_the_seat_it_asks_to_act(club: Club) -> None:
    before = received(club)
    club.send("a", "play", club.game, "--as", "a", "pass")
    after = received(club)
    assert {seat: after[seat] - before[seat] for seat in SEATS} == {"a": 0, "b": 1, "c": 0, "d": 0}
    # b's copy has it, and b moves; c learns of a's pass with b's message to it
    club.fetch("b")
    club.send("b", "play", club.game, "--as", "b", "pass")
    assert received(club)["c"] == after["c"] + 1
    club.fetch("c")
    logged = club.json("c", "log", club.game)
    assert [(item["by"], item["what"].split()[0]) for item in logged[-2:]] == [("a", "pass"), ("b", "pass")]


def test_what_needs_no_choice_goes_round_the_table_one_message_each(club: Club) -> None:
    """a's dice: every seat adds randomness before anyone moves. a's own goes with its move (its
    --send makes it), and each other seat's fetch --answer adds its own and passes the game to the
    next: one message each, where telling everyone at once costs each a message from each seat
    before it. The last, d, completes the die and sends the game to b, whose move it is."""
    before = received(club)
    club.send("a", "play", club.game, "--as", "a", "dice")
    for seat in ("b", "c", "d"):
        said = club.fetch(seat)
        assert "without a choice to make" in said and "added randomness" in said, said
    after = received(club)
    assert {seat: after[seat] - before[seat] for seat in SEATS} == {"a": 0, "b": 2, "c": 1, "d": 1}
    club.fetch("b")
    status = club.json("b", "status", club.game)
    assert {item["seat"] for item in status["waiting"]} == {"b"}
    logged = [(item["by"], item["kind"]) for item in club.json("b", "log", club.game)[-5:]]
    assert logged == [
        ("a", "move"),
        ("a", "contribute"),
        ("b", "contribute"),
        ("c", "contribute"),
        ("d", "contribute"),
    ]


def test_the_end_of_the_game_goes_to_everyone_and_every_copy_is_the_same(club: Club) -> None:
    club.send("a", "play", club.game, "--as", "a", "end")
    for seat in SEATS[1:]:
        club.fetch(seat)
    assert len(set(club.copies())) == 1
    for seat in SEATS:
        assert club.json(seat, "status", club.game)["over"]


def test_joins_that_cross_in_the_post_end_with_every_seat_joined(
    mail_servers: MailServers, tmp_path: Path
) -> None:
    """b and c join at once from the invitation, and b writes a note before c's join reaches
    anyone: c's join is overtaken. Every player types only what pbem says: c's fetch gives the
    command that joins again, a's passes the game on to c, and at the end all four seats have
    joined and every copy is the same file."""
    club = Club(tmp_path, mail_servers, SEATS)
    club.start(hidden_deck_game.NAME, "escrow=none", joined=())
    for seat in ("b", "c"):
        club.fetch(seat)  # the invitation
    club.send("b", "join", club.game, "--as", "b")
    club.send("c", "join", club.game, "--as", "c")
    club.send("b", "note", club.game, "hello", "--as", "b")
    # a, the creator, gathers the joins: c's was overtaken by b's note, and c is told
    said = club.fetch("a")
    assert "c's join of step 1 was overtaken" in said and "c makes it again" in said, said
    assert "passed on what they need now: sent to c" in said, said
    said = club.fetch("c")
    (line,) = [line for line in said.splitlines() if "was overtaken" in line]
    command = line.split("make it again: ", 1)[1].strip()
    assert command == f"pbem join {club.game} --as c --email {mail_servers.address('c')} --send", command
    club.run("c", *shlex.split(command)[1:])
    # d joins from the invitation, which it read only now: its join too was made on the genesis,
    # and b's note went on without it; d does what its fetch then says, as c did
    club.fetch("d")
    club.send("d", "join", club.game, "--as", "d")
    remade = []
    for _ in range(3):
        for seat in SEATS:
            for line in club.fetch(seat).splitlines():
                if "make it again: " in line:
                    club.run(seat, *shlex.split(line.split("make it again: ", 1)[1])[1:])
                    remade.append(seat)
    assert remade == ["d"]
    settle(club)
    for seat in SEATS:
        club.run(seat, "mail", "send", club.game, "--as", seat)
    for seat in SEATS:
        club.fetch(seat)
    assert len(set(club.copies())) == 1
    roster = club.json("a", "verify", club.game)["roster"]
    assert list(roster) == list(SEATS), roster


def test_a_message_after_a_deadline_gives_each_reader_the_timeout_command(
    mail_servers: MailServers, tmp_path: Path
) -> None:
    """a is to move and lets its deadline pass; the next message says so, and gives each reader
    the command that claims the timeout, as status does."""
    from datetime import timedelta

    from tests.test_mail_club import text

    club = Club(tmp_path, mail_servers, SEATS)
    club.start(hidden_deck_game.NAME, "escrow=none", "deadline_days=1")
    settle(club)
    club.clock += timedelta(days=2)
    club.run("b", "mail", "send", club.game, "--as", "b")
    said = text(_latest(club, "c"))
    assert "(deadline " in said and ", OVERDUE)" in said, said
    claim = f"pbem timeout {club.game} a --as c --send"
    assert f"c: a let its deadline pass, and a timeout may be claimed now:\n  {claim}" in said, said
    assert f"pbem timeout {club.game} a --as a" not in said
    club.fetch("c")
    club.run("c", *claim.split()[1:])
    status = club.json("c", "status", club.game)
    assert "a" in status["absent"], status


def _latest(club: Club, seat: str) -> Any:
    import email
    import email.policy

    from tests.mail_servers import _delivery_order

    box = club.servers.maildir(seat)
    key = sorted(box.keys(), key=_delivery_order)[-1]
    return email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
