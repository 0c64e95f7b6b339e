"""A whole decade of Princes of the Renaissance played by email over real servers on the loopback
interface (SMTP with STARTTLS and login, IMAP serving the same mailboxes): every move goes out
with pbem play --send (or pbem mail send) and comes in with pbem mail fetch, each player in its
own pbem home with its own mailbox. Nobody copies a file. At the end every copy is the same
game, and verifies."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Cli, game_ids, potr_components
from tests.mail_servers import MailServers

SEATS = ("a", "b", "c")
BIDS = {"a": "bid 3", "b": "bid 2", "c": "bid 1"}


@dataclass
class Players:
    cli: Cli
    servers: MailServers
    game_id: str = ""
    moves: int = 0
    seen: set[str] = field(default_factory=set)

    def run(self, seat: str, *args: str, ok: bool = True) -> Any:
        result = self.cli(*args, home=seat, env={"MAILPW": f"pw-{seat}"})
        if ok:
            assert result.exit_code == 0, f"{seat} {args}\n{result.stdout}\n{result.stderr}"
        return result

    def json(self, seat: str, *args: str) -> Any:
        return json.loads(self.run(seat, *args, "--json").stdout)

    def fetch(self, seat: str) -> str:
        out = str(self.run(seat, "mail", "fetch").stdout)
        assert "refused" not in out, out
        return out


def choose(players: Players, seat: str, phase: str, moves: list[str]) -> str:
    """A short road through the rules: distinct sealed bids, the first family free, each player
    buys Infantry, then a war fought by condottieri to the dice, then the decade's Event tiles
    put up and won for their opening price."""
    if phase == "turn-order bid":
        return BIDS[seat]
    if phase.startswith("family"):
        return "pass" if "pass" in moves else moves[0]
    if "buy infantry" in moves and f"troops {seat}" not in players.seen:
        players.seen.add(f"troops {seat}")
        return "buy infantry"
    bids = [move for move in moves if move.startswith("bid ")]
    if bids and "war" in players.seen and f"condottiere {seat}" not in players.seen:
        players.seen.add(f"condottiere {seat}")  # the war's condottiere auctions come first
        return bids[0]
    wars = [move for move in moves if move.startswith("war ")]
    if wars and "war" not in players.seen and {f"troops {other}" for other in SEATS} <= players.seen:
        players.seen.add("war")
        return "war venice milan" if "war venice milan" in moves else wars[0]
    events = [move for move in moves if move.startswith("auction i-")]
    if events:
        tile = events[0].split()[1]
        return min(
            (move for move in events if move.split()[1] == tile), key=lambda move: int(move.split()[2])
        )
    places = [move for move in moves if move.startswith("place ")]
    if places:
        return places[0]
    return "pass" if "pass" in moves else moves[0]


def act(players: Players, seat: str, game: str) -> bool:
    """What ``seat`` is asked for, answered and mailed; False if it is asked for nothing."""
    status = players.json(seat, "status", game)
    mine = [item for item in status["waiting"] if item["seat"] == seat]
    if not mine:
        return False
    wanted = next((item for item in mine if item["kind"] not in ("shuffle", "share")), mine[0])
    if wanted["kind"] in ("shuffle", "share"):
        players.run(seat, "sync", game, "--as", seat)
        players.run(seat, "mail", "send", game, "--as", seat)
    elif wanted["kind"] == "reveal":
        players.run(seat, "reveal", game, "--as", seat, "--send")
    elif wanted["kind"] == "contribute":
        players.run(seat, "play", game, "roll", "--as", seat, "--send")
        players.seen.add("dice" if "war" in wanted["step"] else "roll")
    else:
        moves = players.json(seat, "moves", game, "--as", seat)["moves"]
        text = choose(players, seat, status["phase"], moves)
        players.run(seat, "play", game, *text.split(), "--as", seat, "--send")
    players.moves += 1
    return True


def test_a_decade_by_email_over_real_servers(cli: Cli, mail_servers: MailServers, tmp_path: Path) -> None:
    players = Players(cli, mail_servers)
    for seat in SEATS:
        mail_servers.add_user(seat, f"pw-{seat}")
        players.run(
            seat, "mail", "setup", "--address", mail_servers.address(seat),
            "--smtp", f"127.0.0.1:{mail_servers.smtp_port}",
            "--imap", f"127.0.0.1:{mail_servers.imap_port}", "--imap-security", "starttls",
            "--password-env", "MAILPW", "--ca-file", str(mail_servers.ca_file),
        )  # fmt: skip
    # a small Treachery deck (one card of each kind) keeps the shuffles' proofs quick
    components = potr_components("2016")
    components["treachery"] = [{**card, "copies": 1} for card in components["treachery"]]
    import tomlkit

    ours = tmp_path / "ours.toml"
    ours.write_text(tomlkit.dumps(components), encoding="utf-8")
    game = tmp_path / "a" / "game.toml"
    game.parent.mkdir()
    with game_ids("a decade by email"):
        players.run("a", "new", str(game), "--game", "potr", "--players", ",".join(SEATS), "--as", "a",
                    "--email", mail_servers.address("a"), "--components", str(ours),
                    "--option", "escrow=none")  # fmt: skip
    players.game_id = players.json("a", "verify", str(game))["game"]["id"]
    short = players.game_id[:8]
    players.run("a", "mail", "send", short, "--as", "a", "--to", mail_servers.address("b"),
                "--to", mail_servers.address("c"))  # fmt: skip
    # b and c each receive the invitation, which starts the game in their library, and join
    for seat in ("b", "c"):
        fetched = players.fetch(seat)
        # one line per message, then the inbox: the game and who must still join
        assert "(new game, in" in fetched and "now joining: to join: b, c" in fetched, fetched
        assert fetched.index("applied to") < fetched.index(f"{short}: joining"), fetched
        joined = players.run(
            seat, "join", short, "--as", seat, "--email", mail_servers.address(seat), "--send"
        )
        assert "sent to" in joined.stderr + joined.stdout
    for _ in range(400):
        for seat in SEATS:
            players.fetch(seat)
        view = players.json("a", "show", short)
        if view["phase"].startswith("decade II"):
            break
        if not any(act(players, seat, short) for seat in SEATS):
            pytest.fail(f"nobody could act in the {view['phase']}")
    else:
        pytest.fail("the decade did not end")
    # a move goes to the seats that must act on it; the others catch up with their next message,
    # or when a player sends everything it holds to everyone (pbem mail send)
    for seat in SEATS:
        players.run(seat, "mail", "send", short, "--as", seat)
    for seat in SEATS:
        players.fetch(seat)
    assert {"roll", "war", "dice"} <= players.seen, players.seen
    copies = [
        tomllib.loads(Path(players.json(seat, "inbox")[0]["file"]).read_text(encoding="utf-8"))
        for seat in SEATS
    ]
    assert copies[0]["entry"] == copies[1]["entry"] == copies[2]["entry"]
    assert len({copy["game"]["head"] for copy in copies}) == 1
    kinds = {entry["kind"] for entry in copies[0]["entry"]}
    assert {"commit", "reveal", "contribute", "move"} <= kinds, "a sealed bid, dice and moves"
    for seat in SEATS:
        verified = players.run(seat, "verify", short)
        assert "every hidden-deck proof checked" in verified.stdout
    # every message went through the servers: the mailboxes hold them, read
    assert all(len(mail_servers.maildir(seat)) > 10 for seat in SEATS)
