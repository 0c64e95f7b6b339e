"""A recorded game played again between homes that pass it only by mail, one home per seat, as
``pbem mail send`` and ``pbem mail import`` do: the creator mails the game to each player before
it joins (the invitation, the whole file); after each entry its author mails the entries the
others lack (``delivery.lacked``, from what its home knows each seat holds) to every seat that
has joined, and remembers that they now hold its copy. Each home applies what arrives to its own
copy, each entry checked as replay checks it (so a message that cannot be applied stops the
game), and learns from it what its sender holds (``delivery.learned``).

For the mail benchmark and the tests of what a message carries: ``mailed`` is told of every
message."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine.decks import ProofCheck
from pbem.engine.ledger import Ledger
from pbem.mail import delivery


def once() -> ProofCheck:
    """A proof check that runs each proof once in the process, as a home's proof cache does."""
    seen: set[str] = set()

    def check(key: str, run: Callable[[], None]) -> None:
        if key not in seen:
            run()
            seen.add(key)

    return check


@dataclass(frozen=True)
class Mailed:
    """One message: who sent it to whom, what it carries (a delta or the whole file, as text and
    parsed), the sender's copy, and the whole file at that point (what ``--full`` would carry)."""

    sender: str
    to: tuple[str, ...]
    text: str
    data: dict[str, Any]
    game: Ledger
    whole: str
    steps: int  # the steps of the sender's copy when it was sent


@dataclass
class Home:
    """One seat's pbem home: its copy of the game, and what it knows each seat holds."""

    seat: str
    check: ProofCheck
    copy: Ledger | None = None
    known: dict[str, list[str]] = field(default_factory=dict)

    def admit(self, entry: dict[str, Any], components: dict[str, Any]) -> Ledger:
        self.copy = ledger_mod.admit(self.copy, dict(entry), components=components)
        self.copy.check = self.check
        return self.copy

    def receive(self, message: Mailed, components: dict[str, Any]) -> None:
        """The message applied to this copy: each entry it lacks checked as replay checks it."""
        have = (
            {(entry["seq"], entry["by"], entry["sig"]) for entry in self.copy.entries} if self.copy else set()
        )
        for entry in message.data["entry"]:
            if (entry["seq"], entry["by"], entry["sig"]) not in have:
                self.admit(entry, components)
        assert self.copy is not None
        self.known.update(delivery.learned(self.copy, message.data, message.sender, self.known))


def play_by_mail(
    path: Path, count: int, check: ProofCheck, mailed: Callable[[Mailed], None]
) -> dict[str, Home]:
    """The first ``count`` entries of the game at ``path``, each made in its author's home and
    mailed; the homes at the end, every one holding the same game."""
    loaded = gamefile.load(path)
    entries = loaded.data["entry"][:count]
    components = loaded.data.get("components", {})
    text = loaded.text
    # where each entry's block starts in the file: the whole file after entry k is text[:starts[k + 1]]
    starts = [index + 1 for index in range(len(text)) if text.startswith("\n[[entry]]\n", index)]
    starts.append(len(text))
    seats = list(entries[0]["seats"])
    homes = {seat: Home(seat, check) for seat in seats}

    def send(sender: Home, to: list[Home], carried: str, whole: str) -> None:
        assert sender.copy is not None
        data = tomllib.loads(carried)
        if delivery.DELTA not in data:  # a whole file: its header names the copy it is
            data = {"game": {"head": sender.copy.head}, "entry": data["entry"]}
        to_seats = tuple(home.seat for home in to)
        message = Mailed(sender.seat, to_seats, carried, data, sender.copy, whole, len(sender.copy.steps))
        mailed(message)
        for home in to:
            sender.known[home.seat] = [sender.copy.head]
            home.receive(message, components)

    for index, entry in enumerate(entries):
        author = homes[entry["by"]]
        if entry["kind"] == "join":  # the invitation: the creator mails the game to the new player
            send(homes[seats[0]], [author], text[: starts[index]], text[: starts[index]])
        game = author.admit(entry, components)
        # mailed to every seat that has joined, as their join entries give their addresses
        others = [homes[seat] for seat in seats if seat != author.seat and seat in game.roster]
        if not others:
            continue
        to = [home.seat for home in others]
        positions = delivery.lacked(game, to, author.known) or list(game.steps[-1])
        start = min(game.entries[position]["seq"] for position in positions)
        whole = text[: starts[index + 1]]
        carried = whole if start == 0 else delivery.delta_text(game, start, positions, sender=author.seat)
        send(author, others, carried, whole)
    assert len({home.copy.head for home in homes.values() if home.copy is not None}) == 1
    return homes
