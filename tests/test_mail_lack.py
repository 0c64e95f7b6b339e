"""A message carries only what its recipients lack: what each seat holds is the set of entries it
signed, was mailed, or said it had, never guessed from a point in the game. Checked on the
entries messages carry: a reveal after a step several seats made at once, a join mailed to the
creator, and a Princes of Florence game played by mail."""

from __future__ import annotations

import email
import email.policy
import json
import tomllib
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from pbem.mail.delivery import DELTA
from tests.conftest import Cli, game_ids, potr_components
from tests.mail_homes import Mailed, play_by_mail

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def carried(path: Path) -> dict[str, Any]:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    for part in message.iter_attachments():
        if part.get_content_type() == "application/toml":
            content = part.get_content()
            text = content.decode("utf-8") if isinstance(content, bytes) else content
            found: dict[str, Any] = tomllib.loads(text)
            return found
    raise AssertionError("no entries attached")


def entries_of(path: Path) -> list[tuple[int, str, str]]:
    return [(entry["seq"], entry["by"], entry["kind"]) for entry in carried(path)["entry"]]


@dataclass
class Homes:
    """Players a, b and c, each with its own home and copy, passing the game only as messages."""

    cli: Cli
    root: Path
    game: str = ""  # the game's short id: each home finds its own copy in its library

    def run(self, seat: str, *args: str) -> str:
        result = self.cli(*args, home=seat)
        assert result.exit_code == 0, result.stdout + result.stderr
        return str(result.stdout + result.stderr)

    def send(self, seat: str, name: str, *extra: str) -> Path:
        out = self.root / f"{name}.eml"
        self.run(seat, "mail", "send", self.game, "--as", seat, "--to-file", str(out), *extra)
        return out

    def receive(self, seat: str, *messages: Path) -> None:
        said = self.run(seat, "mail", "import", *map(str, messages))
        assert ": refused" not in said, said

    def head(self, seat: str) -> str:
        return str(json.loads(self.run(seat, "verify", self.game, "--json"))["game"]["head"])


def quick_components(folder: Path) -> Path:
    """The 2016 components with a Treachery deck of one card of each kind, which keeps the
    shuffles quick; written to ``folder``."""
    components = potr_components("2016")
    components["treachery"] = [{**card, "copies": 1} for card in components["treachery"]]
    ours = folder / "components.toml"
    ours.write_text(tomlkit.dumps(components), encoding="utf-8")
    return ours


@pytest.fixture
def invited(cli: Cli, tmp_path: Path) -> Homes:
    """a made the game with its address and mailed it to b and c, who have not joined yet (a
    Treachery deck of one card of each kind keeps the shuffles quick)."""
    homes = Homes(cli, tmp_path)
    ours = quick_components(tmp_path)
    game = tmp_path / "game.toml"
    with game_ids("what a message carries"):
        homes.run("a", "new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
                  "--email", "a@pbem.test", "--components", str(ours))  # fmt: skip
    homes.game = json.loads(homes.run("a", "verify", str(game), "--json"))["game"]["id"][:8]
    invitation = homes.send("a", "invitation", "--to", "b@pbem.test", "--to", "c@pbem.test")
    for seat in "bc":
        homes.receive(seat, invitation)
    return homes


def test_a_join_mailed_to_the_creator_carries_only_the_join(invited: Homes) -> None:
    """The seat still to join has no address, so the message goes to the creator alone, who
    holds the genesis it signed: the join travels alone, not the whole file."""
    invited.run("b", "join", invited.game, "--as", "b", "--email", "b@pbem.test")
    joined = invited.send("b", "joined")
    assert DELTA in carried(joined)
    assert entries_of(joined) == [(1, "b", "join")]
    invited.receive("a", joined)
    assert invited.head("a") == invited.head("b")


def test_a_move_after_a_step_made_at_once_carries_no_entry_its_recipients_hold(invited: Homes) -> None:
    """a, b and c add randomness to the setup draw at once, each on its own copy (a's shuffle of
    the Treachery deck riding in a's entry), and mail it. b, having taken a's, mails its copy
    again: it holds a's and its own entries of that step, not c's. When c then writes, its
    message carries c's entries only: b is not sent a's shuffle again because its copy lacks
    c's entry of the step (a copy is a set of entries, not a number of steps)."""
    for seat in "bc":  # c joins on a copy holding b's join, which b mailed to a and c
        invited.run(seat, "join", invited.game, "--as", seat, "--email", f"{seat}@pbem.test")
        joined = invited.send(seat, f"joined-{seat}")
        invited.receive("a", joined)
        invited.receive("c" if seat == "b" else "b", joined)
    rolls = {}
    for seat in "abc":
        invited.run(seat, "play", invited.game, "roll", "--as", seat)
        rolls[seat] = invited.send(seat, f"roll-{seat}")
    shuffle = next(entry for entry in carried(rolls["a"])["entry"] if entry["kind"] == "contribute")
    assert "shuffles" in shuffle, "a's shuffle rides in its entry"
    invited.receive("b", rolls["a"])
    again_b = invited.send("b", "again-b")
    invited.receive("a", rolls["b"], rolls["c"])
    again_a = invited.send("a", "again-a")
    invited.receive("c", rolls["a"], rolls["b"], again_b, again_a)
    invited.run("c", "note", invited.game, "all three rolled", "--as", "c")
    from_c = invited.send("c", "note-c")
    step = shuffle["seq"]
    assert entries_of(from_c) == [(step, "c", "contribute"), (step + 1, "c", "note")]
    invited.receive("a", from_c)
    invited.receive("b", from_c)
    assert invited.head("a") == invited.head("b") == invited.head("c")


def test_a_florence_game_by_mail_carries_only_what_a_recipient_may_lack() -> None:
    """The four-player example's first rounds played again between four homes. Each message
    carries an entry only if some recipient may lack it: one that recipient did not sign, was
    not sent by this sender before, and had not shown in a message of its own; so each move
    travels with the few made since the sender and each recipient last heard from each other,
    never the rounds before."""
    sent: list[Mailed] = []
    # the proofs are not what this checks (the example verifies with all of them elsewhere)
    play_by_mail(EXAMPLES / "florence-four-players.toml", 48, lambda key, run: None, sent.append)
    # (one seat, another): the steps of the copy the one had when it last mailed the other
    heard: dict[tuple[str, str], int] = {}
    after_joins = [message for message in sent if len(message.to) == 3]
    for message in sent:
        for entry in message.data["entry"] if message in after_joins else []:
            known = {seat: max(heard.get((message.sender, seat), 0), heard.get((seat, message.sender), 0))
                     for seat in message.to}  # fmt: skip
            lacking = [seat for seat in message.to if entry["by"] != seat and entry["seq"] >= known[seat]]
            assert lacking, (message.sender, entry["seq"], entry["by"], known)
        for seat in message.to:
            heard[(message.sender, seat)] = message.steps
    counts = sorted(len(message.data["entry"]) for message in after_joins)
    assert counts[len(counts) // 2] <= 3, counts


def test_a_library_written_before_keeps_what_it_knew(tmp_path: Path) -> None:
    """An index written by an earlier version knew a seat's copy as ``STEPS:HEAD``: the head
    names the same copy, so it is read as that hash; a damaged value is read as nothing."""
    from pbem.mail.library import Library

    head = "ab" * 32
    game = "0123456789abcdef" * 2
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "index.toml").write_text(
        f'[games.{game}]\npath = "x.toml"\napplied = 0\nknown = {{ b = "5:{head}", c = "5:zz" }}\n',
        encoding="utf-8",
    )
    library = Library(tmp_path)
    assert library.games()[game].known == {"b": [head]}
    library.update(game, known={"c": [head, "not a hash"]})
    assert library.games()[game].known == {"b": [head], "c": [head]}
