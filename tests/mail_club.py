"""A club playing one game by email over the test mail servers (tests/mail_servers.py): a pbem
home and a mailbox per player, every entry sent with ``--send`` as it is made, every message taken
in with ``pbem mail fetch``, each player acting whenever its own copy says it is asked. Nobody
copies a file. ``broadcast`` plays it the older way, each entry mailed to every other seat
(``pbem mail send`` after it), to compare.

For the mail tests and benchmarks/bench_mail.py, which counts what each mailbox received."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from typer.testing import Result

from tests.conftest import game_ids, make_key_homes, run_cli
from tests.mail_servers import MailServers, _Hub

# What a player decides when asked for a move: the club, the seat, the game, and the moves
# ``pbem moves --json`` lists with their notes; the move's text.
Decide = Callable[["Club", str, dict[str, Any]], str]
DECK_WORK = ("shuffle", "share", "escrow", "unlock")
START = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


@contextmanager
def mail_servers(root: Path) -> Iterator[MailServers]:
    """The test mail servers outside a test (a benchmark's): started, and stopped at the end."""
    hub = _Hub(root)
    hub.start()
    try:
        yield hub.new_view()
    finally:
        hub.stop()


def mail_setup(servers: MailServers, seat: str) -> tuple[str, ...]:
    """``mail setup ...`` for ``seat``'s mailbox on the test servers, its password in MAILPW."""
    return (
        "mail", "setup", "--address", servers.address(seat),
        "--smtp", f"127.0.0.1:{servers.smtp_port}",
        "--imap", f"127.0.0.1:{servers.imap_port}", "--imap-security", "starttls",
        "--password-env", "MAILPW", "--ca-file", str(servers.ca_file), "--no-check",
    )  # fmt: skip


def first_move(club: Club, seat: str, listed: dict[str, Any]) -> str:
    """A player who passes where it may, and else takes the first move offered."""
    moves: list[str] = listed["moves"]
    return "pass" if "pass" in moves else moves[0]


@dataclass
class Club:
    root: Path
    servers: MailServers
    seats: Sequence[str]
    decide: Decide = first_move
    broadcast: bool = False
    clock: datetime = START
    game: str = ""  # the game's id, as the players name it to pbem
    actions: int = 0
    log: list[str] = field(default_factory=list)
    # a player who stops answering from a round on (``silent_from``): it reads no mail and does
    # nothing, and the others claim a timeout against it once status says one may be claimed
    silent: str | None = None
    silent_from: int = 2
    deadline_days: int = 0
    lost: dict[int, int] = field(default_factory=dict)  # deadlines waited out for it, by round
    claims: int = 0

    def run(self, seat: str, *args: str, ok: bool = True) -> Result:
        """``pbem ARGS`` in ``seat``'s home, a minute after the command before."""
        self.clock += timedelta(minutes=1)
        env = {"MAILPW": f"pw-{seat}", "PBEM_NOW": self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")}
        result = run_cli(self.root / "homes" / seat, *args, env=env)
        if ok:
            assert result.exit_code == 0, f"{seat}: pbem {' '.join(args)}\n{result.stdout}\n{result.stderr}"
        return result

    def json(self, seat: str, *args: str) -> Any:
        return json.loads(self.run(seat, *args, "--json").stdout)

    def received(self, seat: str) -> list[bytes]:
        box = self.servers.maildir(seat)
        return [box.get_bytes(key) for key in box.iterkeys()]

    def start(
        self, game: str, *options: str, label: str = "a club by email", joined: Sequence[str] | None = None
    ) -> None:
        """Mail accounts for everyone; the first seat creates the game and invites the others by
        mail; each of ``joined`` (every other seat unless given) fetches the invitation and joins,
        mailing its join."""
        make_key_homes(self.root / "homes", self.seats)
        for seat in self.seats:
            self.servers.add_user(seat, f"pw-{seat}")
            self.run(seat, *mail_setup(self.servers, seat))
        creator = self.seats[0]
        path = self.root / creator / "game.toml"
        path.parent.mkdir(parents=True)
        extra = [word for option in options for word in ("--option", option)]
        with game_ids(label):
            self.run(
                creator, "new", str(path), "--game", game, "--players", ",".join(self.seats),
                "--as", creator, "--email", self.servers.address(creator), *extra,
            )  # fmt: skip
        self.game = self.json(creator, "verify", str(path))["game"]["id"][:8]
        invited = [word for seat in self.seats[1:] for word in ("--to", self.servers.address(seat))]
        self.run(creator, "mail", "send", self.game, "--as", creator, *invited)
        for seat in self.seats[1:] if joined is None else joined:
            self.fetch(seat)
            self.send(seat, "join", self.game, "--as", seat, "--email", self.servers.address(seat))

    def fetch(self, seat: str) -> str:
        out = str(self.run(seat, "mail", "fetch", *(() if self.broadcast else ("--answer",))).stdout)
        assert "refused" not in out, out
        self.log += [
            f"{seat} fetch: {line.strip()}"
            for line in out.splitlines()
            if "passed on" in line or "without a choice" in line
        ]
        return out

    def send(self, seat: str, *args: str) -> None:
        """A command that writes an entry, mailed as the club plays: ``--send`` (to the seats that
        need it now), or to everyone after it (``broadcast``)."""
        if self.broadcast:
            self.run(seat, *args)
            done = self.run(seat, "mail", "send", self.game, "--as", seat)
        else:
            done = self.run(seat, *args, "--send")
        self.actions += 1
        sent = [line for line in done.stderr.splitlines() if line.startswith(("sent to", "nobody needs"))]
        self.log.append(f"{seat}: {' '.join(args[:1] + args[2:])} -> {'; '.join(sent)}")

    def round(self) -> int:
        """The round the game is in, as a player still answering sees it (0 before it starts)."""
        seat = next(other for other in self.seats if other != self.silent)
        shown = self.run(seat, "show", self.game, "--json", ok=False)
        if shown.exit_code != 0:
            return 0
        view = json.loads(shown.stdout)
        return int(view.get("round", view.get("decade", 0)) or 0)

    def quiet(self, seat: str) -> bool:
        return seat == self.silent and self.round() >= self.silent_from

    def claim(self) -> bool:
        """Nobody can act but the silent player: the first of the others whose status gives a
        timeout against it claims it, at once where one may be claimed now (a seat already absent),
        else once they have waited out its deadline (counted, by round); whether one did."""
        for wait in (False, True):
            if wait:
                self.clock += timedelta(days=self.deadline_days, minutes=1)
                self.lost[self.round()] = self.lost.get(self.round(), 0) + 1
            for seat in self.seats:
                if seat == self.silent:
                    continue
                self.fetch(seat)
                status = self.json(seat, "status", self.game)
                for item in status["waiting"]:
                    if item["seat"] == self.silent and item.get("overdue"):
                        self.run(seat, *shlex.split(item["timeout"])[1:])
                        self.claims += 1
                        self.log.append(f"{seat}: {item['timeout']}")
                        return True
        return False

    def turn(self, seat: str) -> bool:
        """The seat takes in its mail and does what its copy says it is asked for; whether it
        was asked for anything."""
        if self.quiet(seat):
            return False
        fetched = self.fetch(seat)
        busy = any(word in fetched for word in ("applied to", "without a choice", "passed on"))
        status = self.json(seat, "status", self.game)
        asked = [item for item in status["waiting"] if item["seat"] == seat]
        if not asked:
            return busy
        wanted = next((item for item in asked if item["kind"] not in DECK_WORK), asked[0])
        if wanted.get("waiting_for_shares") and any(item["kind"] in DECK_WORK for item in asked):
            wanted = next(item for item in asked if item["kind"] in DECK_WORK)
        if wanted.get("waiting_for_shares"):
            return busy  # it cannot act until the others' shares come
        if wanted["kind"] in DECK_WORK:
            self.send(seat, "sync", self.game, "--as", seat)
        elif wanted["kind"] == "reveal":
            self.send(seat, "reveal", self.game, "--as", seat)
        elif wanted["kind"] == "contribute":
            self.send(seat, "play", self.game, "roll", "--as", seat)
        elif wanted["kind"] == "join":
            self.send(seat, "join", self.game, "--as", seat)
        elif wanted["kind"] == "consent":
            self.send(seat, "consent", self.game, "--as", seat)
        else:
            text = self.decide(self, seat, self.json(seat, "moves", self.game, "--as", seat))
            self.send(seat, "play", self.game, *text.split(), "--as", seat)
        return True

    def play(self, done: Callable[[], bool], limit: int = 2000) -> None:
        """Each player in turn takes in its mail and acts, until ``done``; a round in which nobody
        can act is a game stuck, and fails."""
        for _ in range(limit):
            if done():
                return
            acted = [self.turn(seat) for seat in self.seats]  # every player takes its turn
            if not any(acted) and not (self.silent and self.claim()):
                raise AssertionError(f"nobody can act; last actions: {self.log[-8:]}")
        raise AssertionError("the game did not get there")

    def copies(self) -> list[bytes]:
        """Each player's copy of the game, as its library keeps it."""
        return [Path(self.json(seat, "inbox")[0]["file"]).read_bytes() for seat in self.seats]
