"""Two players play a game by mail, each in a browser of its own, by clicks alone.

Two pbem homes (seats ``ann`` and ``bob``), each with its mailbox at the tests' mail servers
(tests/mail_servers.py) and its own ``pbem web`` serving it, opened in a headless Chromium page of
its own. The creator's part before the game is on is what a player types once: both homes set up
their mail (``pbem mail setup``), ann creates the game (``pbem new --email``) and invites bob by
mail (``pbem mail send --to``). From then on every step is a click in one of the two pages: bob
fetches his mail, opens the game the invitation brought and joins by its button; ann fetches the
join; then whichever seat its page says must act (its library row marks "(your move: ...)") opens the
game, composes a move by the composer's buttons, chosen with a seeded ``random.Random``, and plays
it (or clicks what it owes), and the other fetches. Nobody copies a file: what reaches the other
home reaches it by mail.

Counted: the clicks, the moves played, the messages each mailbox received, the wall time. At the
end both homes' copies must verify and hold the same entries, every move played among them, and
each entry a home holds of the other's must have come in a message to it.

The game is Princes of Florence for two (by its unofficial rules, as two players need): the
two-seat game with the fewest decisions. Through the rules alone, random players make about 50
moves in its seven rounds against about 117 in Il Principe for two (ten seeds each); played here,
a Florence game took 45 to 75 moves, 170 to 310 clicks and 60 to 110 seconds on a two-core
machine, an Il Principe game 91 moves, 460 clicks, 112 messages and 210 seconds
(``--game il-principe``). The Renaissance needs
three seats.

    usage: python tests/browser_mail_game.py [--rounds N] [--seed S] [--game NAME] [--keep] [-v]

prints one line (the game, the round reached and whether the game is over, the moves played, the
clicks, the messages both mailboxes received, the entries of the game, the moves the rules
refused, what was owed, the seconds from the first command on) and exits non-zero on any
failure. Needs Playwright and a system Chromium. tests/test_web_browser_mail.py plays the
first moves of the same game in the suite.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # run as a script: pbem and the tests' helpers from this tree

from playwright.sync_api import Browser, Locator, Page, ViewportSize, sync_playwright  # noqa: E402

from pbem.mail.library import Library  # noqa: E402
from tests.conftest import make_key_homes, run_cli  # noqa: E402
from tests.mail_club import mail_servers, mail_setup  # noqa: E402
from tests.mail_servers import MailServers  # noqa: E402
from tests.test_web import answered, free_port  # noqa: E402

GAME = "princes-of-florence"
# what each game needs to be played by two (Florence for two is played by its unofficial rules)
OPTIONS = {"princes-of-florence": ("unofficial_rules=true",)}
SEATS = ("ann", "bob")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
VIEWPORT = ViewportSize(width=1280, height=1000)
WAIT_MS = 120_000  # a fetch verifies the whole game: slow on a busy machine, never this slow
ROUND = re.compile(r"\bround (\d+)\b")
MAX_REFUSED = 20  # moves the rules refuse in a row, each chosen anew, before the player gives up
START_AGAIN = "start again"
PASS = "pass"
# how often a player who may do something else passes, no more than any other button: a player
# who passed that often would be out of money by the fourth round and pass to the end
PASSING = 0.25


class Stuck(AssertionError):
    """The game cannot go on by clicks: what was offered and what the page said."""


@dataclass
class Home:
    """A player: its seat, its pbem home, its page, and what it did."""

    seat: str
    path: Path
    page: Page
    clicks: int = 0
    moves: list[str] = field(default_factory=list)  # the moves it played, as Play sent them
    made: list[tuple[int, str]] = field(default_factory=list)  # each move's entry: seq and signature
    owed: list[str] = field(default_factory=list)  # the buttons of what it owed, clicked
    refused: list[str] = field(default_factory=list)  # a move the rules refused, and why
    read: int = 0  # the messages its mailbox held when it last fetched


@contextmanager
def web_server(home: Path, seat: str, log: Path) -> Iterator[str]:
    """``pbem web --no-open`` serving ``home`` with the seat's mail password in its environment,
    on the real clock; the address it printed (token and all), once it answers. What it prints
    after that (a fetch prints the inbox to the server's stdout) and its stderr go to ``log``:
    a pipe nobody read would fill and stop the server."""
    port = free_port()
    environment = os.environ | {"PBEM_HOME": str(home), "NO_COLOR": "1", "MAILPW": f"pw-{seat}"}
    for name in ("PBEM_NOW", "PBEM_PASSPHRASE"):
        environment.pop(name, None)
    with log.open("w", encoding="utf-8") as kept:
        server = subprocess.Popen(
            [sys.executable, "-m", "pbem", "web", "--no-open", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=kept,
            env=environment,
            text=True,
            cwd=ROOT,
        )
        assert server.stdout is not None
        output = server.stdout
        try:
            url = output.readline().strip()
            if not url.startswith("http"):
                raise Stuck(f"pbem web for {seat} printed {url!r}; its stderr: {log}")
            drain = threading.Thread(target=lambda: shutil.copyfileobj(output, kept), daemon=True)
            drain.start()
            answered(f"http://127.0.0.1:{port}/")
            yield url
        finally:
            server.terminate()
            server.wait(timeout=10)
            output.close()


@dataclass
class MailGame:
    """Two homes playing one game by mail through their pages (see the module's doc)."""

    root: Path
    servers: MailServers
    browser: Browser
    stack: ExitStack
    seed: int = 1
    game: str = GAME
    seats: Sequence[str] = SEATS
    game_id: str = ""
    homes: dict[str, Home] = field(default_factory=dict)
    rnd: random.Random = field(init=False)
    round: int = 0  # the round the game is in, as a page last said it
    over: bool = False
    started: float = field(default_factory=time.monotonic)
    log: list[str] = field(default_factory=list)  # what each click did, in order
    verbose: bool = False

    def __post_init__(self) -> None:
        self.rnd = random.Random(self.seed)

    # --- before the game: typed once, by the creator (and each player's mail setup) ----------

    def cli(self, seat: str, *args: str) -> str:
        result = run_cli(self.root / "homes" / seat, *args, env={"MAILPW": f"pw-{seat}"})
        if result.exit_code != 0:
            raise Stuck(f"{seat}: pbem {' '.join(args)}\n{result.stdout}\n{result.stderr}")
        return str(result.stdout)

    def create(self) -> None:
        """Both homes' keys and mail accounts; the creator makes the game and invites the other by
        mail; each home's ``pbem web`` started and its address opened."""
        make_key_homes(self.root / "homes", self.seats)
        for seat in self.seats:
            self.servers.add_user(seat, f"pw-{seat}")
            self.cli(seat, *mail_setup(self.servers, seat))
        creator = self.seats[0]
        path = self.root / creator / "game.toml"
        path.parent.mkdir(parents=True)
        self.cli(
            creator, "new", str(path), "--game", self.game, "--players", ",".join(self.seats),
            "--as", creator, "--email", self.servers.address(creator),
            *(word for option in OPTIONS.get(self.game, ()) for word in ("--option", option)),
        )  # fmt: skip
        self.game_id = json.loads(self.cli(creator, "verify", str(path), "--json"))["game"]["id"]
        invited = [word for seat in self.seats[1:] for word in ("--to", self.servers.address(seat))]
        self.cli(creator, "mail", "send", self.game_id[:8], "--as", creator, *invited)
        for seat in self.seats:
            self.open_home(seat)

    def open_home(self, seat: str) -> None:
        home = self.root / "homes" / seat
        url = self.stack.enter_context(web_server(home, seat, self.root / f"web-{seat}.log"))
        context = self.browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
        self.stack.callback(context.close)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(url)  # the printed address: its token becomes the page's cookie
        self.homes[seat] = Home(seat, home, page)

    # --- clicks ------------------------------------------------------------------------------

    def click(self, home: Home, target: Locator, *, navigates: bool = True) -> None:
        if navigates:
            with home.page.expect_navigation():
                target.click()
        else:
            target.click()
        home.clicks += 1

    def note(self, home: Home, line: str) -> None:
        line = f"{time.monotonic() - self.started:7.1f}s {home.seat}: {line}"
        self.log.append(line)
        if self.verbose:
            print(line, file=sys.stderr, flush=True)

    def said(self, home: Home) -> tuple[bool, list[str]]:
        """What the page says the last action said: whether it went through, and its lines."""
        box = home.page.locator("#said")
        if not box.count():
            return True, []
        lines = box.locator("p").all_inner_texts()
        return "refused" not in (box.get_attribute("class") or ""), lines

    def fetch(self, home: Home) -> list[str]:
        """``fetch mail`` clicked on the library page (reached by its link if need be): what it said."""
        if not home.page.locator("#fetch").count():
            self.library(home)
        home.read = len(self.servers.maildir(home.seat))
        self.click(home, home.page.locator("#fetch"))
        ok, lines = self.said(home)
        if not ok or any("refused" in line for line in lines):
            raise Stuck(f"{home.seat}'s fetch said: {lines}")
        self.note_row(home)
        self.note(home, "fetch: " + " | ".join(lines))
        return lines

    def library(self, home: Home) -> None:
        """The library page, by the link atop every page."""
        self.click(home, home.page.locator("header a", has_text="Your games"))

    def row(self, home: Home) -> Locator:
        return home.page.locator("table.games tbody tr").filter(
            has=home.page.locator(f'a[href="/game/{self.game_id}"]')
        )

    def listed(self, home: Home) -> bool:
        return self.row(home).count() == 1

    def yours(self, home: Home) -> bool:
        """Whether the library row says the home's seat is asked (``(your move: ...)``)."""
        return "(your move" in self.row(home).inner_text()

    def note_row(self, home: Home) -> None:
        if self.listed(home):
            self.note_phase(self.row(home).locator("td").nth(1).inner_text())

    def note_phase(self, phase: str) -> None:
        found = ROUND.search(phase)
        if found:
            self.round = max(self.round, int(found.group(1)))
        if phase.strip().startswith("over"):
            self.over = True

    def open_game(self, home: Home) -> None:
        self.click(home, self.row(home).locator(f'a[href="/game/{self.game_id}"]'))

    def join(self, home: Home) -> list[str]:
        """The game's page, then its join button."""
        self.open_game(home)
        self.click(home, home.page.locator(f"#join-{home.seat}"))
        ok, lines = self.said(home)
        if not ok:
            raise Stuck(f"{home.seat}'s join said: {lines}")
        self.note(home, "join: " + " | ".join(lines))
        return lines

    # --- the game's page ---------------------------------------------------------------------

    def status(self, home: Home) -> tuple[str, list[str]]:
        """The phase the game page shows, and the seats its status says are waited for."""
        section = home.page.locator("section.status")
        phase = section.locator("p strong").first.inner_text()
        waiting: list[str] = section.locator("ul > li > strong:first-child").all_inner_texts()
        self.note_phase(phase)
        if "the game is over" in section.inner_text():
            self.over = True
        return phase, waiting

    def act(self, home: Home) -> bool:
        """On the game's page: what the seat owes clicked, or a move composed and played; whether
        it did anything."""
        page = home.page
        phase, waiting = self.status(home)
        if page.locator("#owed").count():
            label = page.locator("#owed").inner_text()
            self.click(home, page.locator("#owed"))
            ok, lines = self.said(home)
            if not ok:
                raise Stuck(f"{home.seat} at {phase}: {label!r} clicked, the page said {lines}")
            home.owed.append(label)
            self.note(home, f"{phase}: owed {label!r}: " + " | ".join(lines))
            return True
        if home.seat not in waiting:
            return False
        shown = page.locator("#forms")
        forms = json.loads(shown.text_content() or "[]") if shown.count() else []
        if not forms:  # asked, but nothing to choose here (another's shares still to come?)
            items = " / ".join(page.locator("section.status li").all_inner_texts())
            self.note(home, f"{phase}: asked, nothing offered: {items}")
            return False
        for _ in range(MAX_REFUSED):
            text = self.compose(home, phase)
            self.click(home, page.locator("#play-button"))
            ok, lines = self.said(home)
            if ok:
                home.moves.append(text)
                home.made.append(self.made_entry(home, text))
                self.note(home, f"{phase}: played {text!r}: " + " | ".join(lines))
                return True
            home.refused.append(f"{phase}: {text}: {' '.join(lines)}")
            self.note(home, f"{phase}: refused {text!r}: " + " | ".join(lines))
        raise Stuck(f"{home.seat} at {phase}: every move tried was refused: {home.refused[-3:]}")

    def compose(self, home: Home, phase: str) -> str:
        """A move built by the composer's buttons, each chosen at random among those offered
        (``pass`` among the others only a quarter of the time), until the move's box holds a
        whole move; its text."""
        page = home.page
        box = page.locator("#move-text")
        for _ in range(30):
            text = box.input_value()
            if text:
                return text
            buttons = page.locator("#choices button")
            labels: list[str] = buttons.all_inner_texts()
            offered = [at for at, label in enumerate(labels) if label != START_AGAIN]
            if not offered:
                shown = page.locator("#choices").inner_text()
                raise Stuck(f"{home.seat} at {phase}: the composer offers no button: {shown!r}")
            if self.verbose:
                self.note(home, f"{phase}: offered {[labels[at] for at in offered]}")
            playing = [at for at in offered if labels[at] != PASS]
            if playing and self.rnd.random() >= PASSING:
                offered = playing
            self.click(home, buttons.nth(self.rnd.choice(offered)), navigates=False)
        raise Stuck(f"{home.seat} at {phase}: thirty clicks and still no whole move")

    # --- play ----------------------------------------------------------------------------------

    def new_mail(self, home: Home) -> bool:
        """Whether mail came since the home last fetched (what a mail program tells its player)."""
        return len(self.servers.maildir(home.seat)) > home.read

    def turn(self, home: Home) -> bool:
        """The player fetches its mail if any came and, if its library then says it is asked,
        opens the game and acts until it is asked no more; whether it did anything."""
        fetched = self.new_mail(home)
        if fetched:
            self.fetch(home)
        elif not home.page.locator("#fetch").count():
            self.library(home)
        if not self.listed(home) or not self.yours(home):
            return fetched
        self.open_game(home)
        acted = False
        while not self.over and self.act(home):
            acted = True
        self.library(home)
        return fetched or acted

    def start(self) -> None:
        """From the invitation to the join: bob fetches it, opens the game and joins; ann fetches
        the join."""
        creator, *others = (self.homes[seat] for seat in self.seats)
        for home in others:
            self.fetch(home)
            if not self.listed(home):
                raise Stuck(f"{home.seat}'s library does not list the game after its fetch")
            self.join(home)
            self.library(home)
        self.fetch(creator)

    def play(self, rounds: int | None = None, moves: int | None = None) -> None:
        """Turn after turn until the game is over, or round ``rounds`` is over, or every seat has
        played ``moves`` moves; a full turn of both players in which no mail came and neither
        acted is a game stuck."""
        while not self.done(rounds, moves):
            busy = False
            for seat in self.seats:
                busy = self.turn(self.homes[seat]) or busy
                if self.done(rounds, moves):
                    break
            if not busy:
                raise Stuck(f"nobody acts at round {self.round}: no mail came, and no page asks a move")
        for seat in self.seats:  # the last moves reach every home they were mailed to
            if self.new_mail(self.homes[seat]):
                self.fetch(self.homes[seat])

    def done(self, rounds: int | None, moves: int | None) -> bool:
        if self.over or (rounds is not None and self.round > rounds):
            return True
        return moves is not None and all(len(home.moves) >= moves for home in self.homes.values())

    # --- the copies ----------------------------------------------------------------------------

    def copy(self, seat: str) -> Path:
        kept = Library(self.root / "homes" / seat).games().get(self.game_id)
        if kept is None:
            raise Stuck(f"{seat}'s library does not hold the game")
        return kept.path

    def entries(self, seat: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = tomllib.loads(self.copy(seat).read_text(encoding="utf-8"))["entry"]
        return found

    def verified(self, seat: str) -> None:
        result = run_cli(self.root / "homes" / seat, "verify", str(self.copy(seat)))
        if result.exit_code != 0:
            raise Stuck(f"{seat}'s copy does not verify: {result.stdout}{result.stderr}")

    def made_entry(self, home: Home, text: str) -> tuple[int, str]:
        """The entry the move just played made in the home's copy (after it, the page may have
        done what needed no choice): its seq and signature."""
        for entry in reversed(self.entries(home.seat)):
            if entry["by"] == home.seat and entry["kind"] in ("move", "commit"):
                if entry["kind"] == "move" and entry["move"] != text:
                    raise Stuck(f"{home.seat} played {text!r}; its copy's last move is {entry['move']!r}")
                return int(entry["seq"]), str(entry["sig"])
        raise Stuck(f"{home.seat} played {text!r}; its copy holds no move of it")

    def signed(self, seat: str) -> set[tuple[int, str]]:
        """The entries of the seat's copy, by seq and signature."""
        return {(int(entry["seq"]), str(entry["sig"])) for entry in self.entries(seat)}

    def mailed(self, seat: str) -> set[tuple[int, str]]:
        """The entries the messages in the seat's mailbox carried (their TOML attachments)."""
        carried: set[tuple[int, str]] = set()
        box = self.servers.maildir(seat)
        for key in box.iterkeys():
            message = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            for part in message.iter_attachments():
                payload = part.get_payload(decode=True)
                if part.get_content_type() == "application/toml" and isinstance(payload, bytes):
                    data = tomllib.loads(payload.decode("utf-8"))
                    carried |= {(int(entry["seq"]), str(entry["sig"])) for entry in data.get("entry", [])}
        return carried

    def by_mail(self) -> None:
        """Every entry of a home's copy that another seat made came in a message to it: no file
        went from one home to the other but by mail."""
        for seat in self.seats:
            theirs = {(int(e["seq"]), str(e["sig"])) for e in self.entries(seat) if e["by"] != seat}
            unmailed = theirs - self.mailed(seat)
            if unmailed:
                raise Stuck(f"{seat}'s copy holds entries no message brought it: {sorted(unmailed)[:5]}")

    def unreached(self) -> list[str]:
        """The moves a home played that another home's copy lacks."""
        lacking = []
        for home in self.homes.values():
            for other in self.seats:
                if other != home.seat:
                    held = self.signed(other)
                    lacking += [
                        f"{home.seat}'s {text!r} (entry {seq}) is not in {other}'s copy"
                        for text, (seq, sig) in zip(home.moves, home.made, strict=True)
                        if (seq, sig) not in held
                    ]
        return lacking

    def check_copies(self) -> None:
        """Both copies verify, each move played is in the other's copy, what each holds of the
        other's came by mail, and both hold the same entries."""
        for seat in self.seats:
            self.verified(seat)
        lacking = self.unreached()
        if lacking:
            raise Stuck("; ".join(lacking[:3]))
        self.by_mail()
        first, *rest = ([(entry["seq"], entry["sig"]) for entry in self.entries(seat)] for seat in self.seats)
        for other in rest:
            if other != first:
                raise Stuck(f"the copies differ: {len(first)} entries against {len(other)}")

    def emails(self) -> dict[str, int]:
        return {seat: len(self.servers.maildir(seat)) for seat in self.seats}

    def summary(self) -> str:
        homes = self.homes.values()
        moves = sum(len(home.moves) for home in homes)
        clicks = sum(home.clicks for home in homes)
        emails = sum(self.emails().values())
        reached = f"round {self.round}, over" if self.over else f"round {self.round}"
        refused = sum(len(home.refused) for home in homes)
        owed = sum(len(home.owed) for home in homes)
        try:
            entries = str(len(self.entries(self.seats[0])))
        except (Stuck, OSError):
            entries = "-"
        return (
            f"{self.game}: {reached}, moves {moves}, clicks {clicks}, emails {emails}, "
            f"entries {entries}, refused {refused}, owed {owed}, "
            f"seconds {time.monotonic() - self.started:.1f}"
        )


@contextmanager
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        raise SystemExit("no Chromium here")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, help="stop after this round (default: the whole game)")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices (default 1)")
    parser.add_argument("--game", default=GAME, help=f"the game (default {GAME})")
    parser.add_argument("--keep", action="store_true", help="keep the homes and mail (printed)")
    parser.add_argument("--verbose", "-v", action="store_true", help="say each step on stderr")
    options = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="pbem-browser-mail-"))
    try:
        with mail_servers(root / "mail") as servers, browser() as launched, ExitStack() as stack:
            played = MailGame(root, servers, launched, stack, seed=options.seed, game=options.game)
            played.verbose = options.verbose
            try:
                played.create()
                played.start()
                played.play(rounds=options.rounds)
                played.check_copies()
            except Exception as exc:
                print("\n".join(played.log[-12:]), file=sys.stderr)
                print(f"failed: {exc}", file=sys.stderr)
                print(f"at: {played.summary() if played.game_id else 'the start'}", file=sys.stderr)
                return 1
            print(played.summary())
        return 0
    finally:
        if options.keep:
            print(f"kept: {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
