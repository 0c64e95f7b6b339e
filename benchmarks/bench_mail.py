"""What email costs a game: bytes per message, and the time to import one.

Replays a whole game (by default the four-player example, with its hidden Treachery deck) entry
by entry. After each entry its author mails the others, as ``pbem mail send`` would: the message
carries the entries some recipient may lack (from what each has signed) or, with ``--full``, the
whole file. Counted: the bytes of each message built by ``pbem.mail.message.build``, both ways.

Then the time to apply one message, the last move of the game, to a copy that lacks it
(``pbem.mail.delivery.apply``: reading the message, combining, verifying the whole game), against
verifying the game alone (``ledger.read``), in the same run; both check each hidden-deck proof
once per process, as the proof cache of a pbem home does.

    usage: python benchmarks/bench_mail.py [GAME.toml] [--repeat N] [--json] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem import gamefile
from pbem.engine import ledger as ledger_mod
from pbem.engine.ledger import Ledger
from pbem.mail import delivery
from pbem.mail.message import Carried, Outgoing, build, read

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "four-players.toml"


def message_bytes(game: Ledger, carried: str, author: str) -> int:
    outgoing = Outgoing(
        sender=f"{author}@example.org",
        recipients=tuple(f"{seat}@example.org" for seat in game.seats if seat != author),
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


def timed(repeat: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", nargs="?", type=Path, default=EXAMPLE)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="the first 40 entries, one run of each timing")
    args = parser.parse_args()
    loaded = gamefile.load(args.game)
    entries = loaded.data["entry"]
    count = min(len(entries), 40) if args.quick else len(entries)
    repeat = 1 if args.quick else args.repeat
    text = loaded.text
    # where each entry's block starts in the file: the whole file after entry k is text[:starts[k + 1]]
    starts = [index + 1 for index in range(len(text)) if text.startswith("\n[[entry]]\n", index)] + [
        len(text)
    ]
    check = once()
    game = ledger_mod.admit(None, entries[0], components=loaded.data.get("components", {}))
    game.check = check
    delta_sizes: list[int] = []
    full_sizes: list[int] = []
    for index in range(1, count):
        game = ledger_mod.admit(game, entries[index])
        author = entries[index]["by"]
        if game.table is None:
            continue  # still joining: the file itself goes round
        others = [seat for seat in game.seats if seat != author]
        start = delivery.first_lacked(game, others, {})
        whole = text[: starts[index + 1]]
        carried = (
            whole
            if start == 0
            else delivery.delta_text(game, start, delivery.lacked(game, others, {}) or game.steps[-1])
        )
        delta_sizes.append(message_bytes(game, carried, author))
        full_sizes.append(message_bytes(game, whole, author))
    # one message, the last entry, applied to a copy that lacks it, against verifying the game
    shorter = ledger_mod.audit(dict(loaded.data, entry=entries[: count - 1]), check).ledger
    assert shorter is not None
    behind = ledger_mod.read(dict(loaded.data, entry=entries[: count - 1], game=shorter.header()), check)
    last = entries[count - 1]
    raw = build(
        Outgoing(
            f"{last['by']}@example.org",
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
        ledger_mod.read(dict(loaded.data, entry=entries[:count], game=game.header()), check)

    import_s, verify_s = timed(repeat, import_one), timed(repeat, verify_alone)
    results: dict[str, Any] = {
        "game": str(args.game),
        "entries": count,
        "messages": len(delta_sizes),
        "bytes_per_message_median": int(statistics.median(delta_sizes)),
        "bytes_per_message_max": max(delta_sizes),
        "bytes_per_message_full_median": int(statistics.median(full_sizes)),
        "bytes_per_message_full_max": max(full_sizes),
        "bytes_all_messages": sum(delta_sizes),
        "bytes_all_messages_full": sum(full_sizes),
        "import_one_message_s": round(import_s, 3),
        "verify_game_alone_s": round(verify_s, 3),
        "import_over_verify": round(import_s / verify_s, 2),
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:<32} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
