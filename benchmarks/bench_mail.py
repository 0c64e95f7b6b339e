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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine.decks import ProofCheck
from pbem.engine.ledger import Ledger
from pbem.mail import delivery
from pbem.mail.message import Carried, Outgoing, build, read

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the homes live with the tests
from tests.mail_homes import Mailed, once, play_by_mail

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


@dataclass
class Played:
    title: str
    entries: int
    sizes: list[int] = field(default_factory=list)  # each message, carrying what the others lack
    whole: list[int] = field(default_factory=list)  # the same message carrying the whole file
    carried: list[int] = field(default_factory=list)  # entries each message carries


def play(path: Path, count: int, check: ProofCheck) -> Played:
    """The first ``count`` entries of the game at ``path`` played by mail, every message counted."""
    played = Played(gamefile.load(path).data["game"]["ruleset"], count)

    def count_message(message: Mailed) -> None:
        played.sizes.append(message_bytes(message.game, message.text, message.sender, message.to))
        played.whole.append(message_bytes(message.game, message.whole, message.sender, message.to))
        played.carried.append(len(message.data["entry"]))

    play_by_mail(path, count, check, count_message)
    return played


def timed(repeat: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def import_timing(path: Path, count: int, repeat: int, check: ProofCheck) -> dict[str, float]:
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
        (carried,) = read(raw)
        assert isinstance(carried, Carried)
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
        games.append(summary(play(path, min(total, QUICK_ENTRIES) if args.quick else total, check)))
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
