"""What email costs a game: the bytes of every message of whole games played by mail, and the
time to import one.

Each game (by default the three examples: Princes of the Renaissance, Princes of Florence and Il
Principe, each a whole four-player game with its hidden decks) is played again between homes, one
per seat, that pass it only by mail, as ``pbem mail send`` and ``pbem mail import`` do: the
creator mails the new game to every seat, and after each entry its author mails the entries the
others lack (``delivery.lacked``, from what its home knows each seat holds) to every other seat,
and remembers that they now hold its copy. Each home applies what arrives to its own copy (each
entry checked as replay checks it, so a message that cannot be applied stops the run) and
learns from it what the others hold (``delivery.learned``). Counted: the bytes of each message
built by ``pbem.mail.message.build``, against the same message carrying the whole file so far
(``--full``), in the same run.

Then the time to apply one message, the last move of the first game, to a copy that lacks it
(``pbem.mail.delivery.apply``: reading the message, combining, verifying the whole game), against
verifying the game alone (``ledger.read``); both check each hidden-deck proof once per process,
as the proof cache of a pbem home does.

    usage: python benchmarks/bench_mail.py [GAME.toml ...] [--repeat N] [--json] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine.ledger import Ledger
from pbem.mail import delivery
from pbem.mail.message import Outgoing, build, read

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = ("four-players.toml", "florence-four-players.toml", "principe-four-players.toml")
QUICK_ENTRIES = 40


def message_bytes(game: Ledger, carried: str, author: str, to: Sequence[str]) -> int:
    outgoing = Outgoing(
        sender=f"{author}@example.org",
        recipients=tuple(f"{seat}@example.org" for seat in to),
        subject=f"[pbem] {game.info.title} {game.game_id[:8]}: a move",
        body="The moves since your copy, and what you are asked to do.\n" * 12,
        entries=carried,
        game_id=game.game_id,
        filename=f"{game.game_id[:8]}.toml",
    )
    return len(build(outgoing).as_bytes())


def once() -> Callable[[str, Callable[[], None]], None]:
    """A proof check that runs each proof once: the sizes, not the checks, are measured here."""
    seen: set[str] = set()

    def check(key: str, run: Callable[[], None]) -> None:
        if key not in seen:
            run()
            seen.add(key)

    return check


@dataclass
class Home:
    """One seat's pbem home: its copy of the game, and what it knows each seat holds."""

    seat: str
    check: Callable[[str, Callable[[], None]], None]
    copy: Ledger | None = None
    known: dict[str, list[str]] = field(default_factory=dict)

    def admit(self, entry: dict[str, Any], components: dict[str, Any]) -> Ledger:
        self.copy = ledger_mod.admit(self.copy, dict(entry), components=components)
        self.copy.check = self.check  # each proof checked once in the process, as a home's cache does
        return self.copy

    def receive(self, carried: dict[str, Any], sender: str, components: dict[str, Any]) -> None:
        """The message applied to this copy, each entry it lacks checked as replay checks it."""
        have = (
            {(entry["seq"], entry["by"], entry["sig"]) for entry in self.copy.entries} if self.copy else set()
        )
        for entry in carried["entry"]:
            if (entry["seq"], entry["by"], entry["sig"]) not in have:
                self.admit(entry, components)
        assert self.copy is not None
        self.known.update(delivery.learned(self.copy, carried, sender, self.known))


@dataclass
class Played:
    title: str
    entries: int
    sizes: list[int] = field(default_factory=list)  # each message, carrying what the others lack
    whole: list[int] = field(default_factory=list)  # the same message carrying the whole file
    carried: list[int] = field(default_factory=list)  # entries each message carries


def mail(
    played: Played,
    sender: Home,
    recipients: Sequence[Home],
    carried: str,
    *,
    game: Ledger,
    components: dict[str, Any],
    whole: str | None = None,
) -> None:
    """One message from ``sender``'s home to each of ``recipients``, counted and applied."""
    to = [home.seat for home in recipients]
    data = tomllib.loads(carried)
    if delivery.DELTA not in data:  # a whole file: its header names its head
        data = {"game": {"head": game.head}, "entry": data["entry"]}
    played.sizes.append(message_bytes(game, carried, sender.seat, to))
    played.whole.append(message_bytes(game, whole or carried, sender.seat, to))
    played.carried.append(len(data["entry"]))
    for home in recipients:
        sender.known[home.seat] = [game.head]
        home.receive(data, sender.seat, components)


def play_by_mail(path: Path, count: int, check: Callable[[str, Callable[[], None]], None]) -> Played:
    """The first ``count`` entries of the game at ``path``, each made in its author's home and
    mailed to every other seat."""
    loaded = gamefile.load(path)
    entries = loaded.data["entry"][:count]
    components = loaded.data.get("components", {})
    text = loaded.text
    # where each entry's block starts in the file: the whole file after entry k is text[:starts[k + 1]]
    starts = [index + 1 for index in range(len(text)) if text.startswith("\n[[entry]]\n", index)] + [
        len(text)
    ]
    seats = list(entries[0]["seats"])
    homes = {seat: Home(seat, check) for seat in seats}
    played = Played(loaded.data["game"]["ruleset"], count)
    for index, entry in enumerate(entries):
        author = homes[entry["by"]]
        if entry["kind"] == "join":  # the invitation: the creator mails the game to the new player
            creator = homes[seats[0]]
            assert creator.copy is not None
            mail(played, creator, [author], text[: starts[index]], game=creator.copy, components=components)
        game = author.admit(entry, components)
        # mailed to every seat that has joined, as their join entries give their addresses
        others = [homes[seat] for seat in seats if seat != author.seat and seat in game.roster]
        if not others:
            continue
        positions = delivery.lacked(game, [home.seat for home in others], author.known) or list(
            game.steps[-1]
        )
        start = min(game.entries[position]["seq"] for position in positions)
        carried = (
            text[: starts[index + 1]]
            if start == 0
            else delivery.delta_text(
                game, start, positions, sender=author.seat, to=[home.seat for home in others]
            )
        )
        mail(
            played, author, others, carried, game=game, components=components, whole=text[: starts[index + 1]]
        )
    heads = {home.copy.head for home in homes.values() if home.copy is not None}
    assert len(heads) == 1, "every home holds the same game at the end"
    return played


def timed(repeat: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def import_timing(
    path: Path, count: int, repeat: int, check: Callable[[str, Callable[[], None]], None]
) -> dict[str, float]:
    """One message, the last entry, applied to a copy that lacks it, against verifying the game."""
    loaded = gamefile.load(path)
    entries = loaded.data["entry"][:count]
    behind = ledger_mod.audit(dict(loaded.data, entry=entries[:-1]), check).ledger
    game = ledger_mod.audit(dict(loaded.data, entry=entries), check).ledger
    assert behind is not None and game is not None
    raw = build(
        Outgoing(
            f"{entries[-1]['by']}@example.org",
            ("x@example.org",),
            "[pbem] the last move",
            "the last move",
            delivery.delta_text(game, len(game.steps) - 1),
            game.game_id,
            "last.toml",
        )
    ).as_bytes()

    def import_one() -> None:
        carried = read(raw)
        assert carried is not None
        applied = delivery.apply(
            behind, gamefile.parse(carried.entries.encode("utf-8"), "message"), "message", check
        )
        assert applied.added >= 1

    def verify_alone() -> None:
        ledger_mod.read(dict(loaded.data, entry=entries, game=game.header()), check)

    import_s, verify_s = timed(repeat, import_one), timed(repeat, verify_alone)
    return {
        "import_one_message_s": round(import_s, 3),
        "verify_game_alone_s": round(verify_s, 3),
        "import_over_verify": round(import_s / verify_s, 2),
    }


def summary(played: Played) -> dict[str, Any]:
    return {
        "game": played.title,
        "entries": played.entries,
        "messages": len(played.sizes),
        "bytes_per_message_median": int(statistics.median(played.sizes)),
        "bytes_per_message_max": max(played.sizes),
        "bytes_all_messages": sum(played.sizes),
        "entries_per_message_median": statistics.median(played.carried),
        "entries_per_message_max": max(played.carried),
        "bytes_per_message_full_median": int(statistics.median(played.whole)),
        "bytes_per_message_full_max": max(played.whole),
        "bytes_all_messages_full": sum(played.whole),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="*", type=Path, default=[EXAMPLES / name for name in GAMES])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"the first {QUICK_ENTRIES} entries of each game, one run of each timing",
    )
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    check = once()
    games = []
    for path in args.games:
        total = len(gamefile.load(path).data["entry"])
        games.append(summary(play_by_mail(path, min(total, QUICK_ENTRIES) if args.quick else total, check)))
    first = args.games[0]
    count = games[0]["entries"]
    results: dict[str, Any] = {"games": games, **import_timing(first, count, repeat, check)}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for played in games:
        print(played["game"])
        for key, value in played.items():
            if key != "game":
                print(f"  {key:<32} {value}")
    for key, value in results.items():
        if key != "games":
            print(f"{key:<34} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
