"""What email costs a game: how many messages each player receives, and the bytes of each.

First (the club), a four-player game of Il Principe played by email over the tests' mail servers
on the loopback interface (SMTP and IMAP, ``tests/mail_servers.py``), each player in a home of its
own with its own mailbox, acting whenever its own copy says it is asked (``tests/mail_club.py``),
its decisions those of the player of ``examples/play-principe.py`` (the same seed, the same
game), nobody copying a file. Played twice in the same run from the same seed: **before**, every
entry mailed to every other seat as it is made (``pbem mail send`` after each), the automatic
steps (reveals, randomness, shuffles and shares, forced moves) each made by hand as status asks;
**now**, each entry sent with ``--send`` to the seats that need it now, and each player's
``pbem mail fetch --answer`` doing the automatic steps at once and passing the game on. Counted:
the messages each mailbox received in each round of the game (the set-up counts in round 1),
per player; the median message's bytes; and at the end, whether every copy is the same file.

Then the bytes of every message of whole recorded games replayed by mail as before (each entry
mailed to every other seat, ``tests/mail_homes.py``), against the same message carrying the
whole file so far (``--full``), in the same run; and the time to apply one message, the last
move of the first game, to a copy that lacks it (``pbem.mail.delivery.apply``: reading the
message, combining, verifying the whole game), against verifying the game alone
(``ledger.read``); both check each hidden-deck proof once per process, as the proof cache of a
pbem home does.

With ``--silent``, the club's game once more with deadlines of a day and its last player silent
from round 2 (it reads no mail): the deadlines the others wait out for it in each round, and the
timeouts they claim, each one where ``pbem status`` says it may be claimed, with its command.

    usage: python benchmarks/bench_mail.py [GAME.toml ...] [--rounds N] [--seed S] [--silent]
                                           [--repeat N] [--json] [--quick]
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the homes and the club live with the tests
from tests.mail_club import Club, mail_servers
from tests.mail_homes import Mailed, once, play_by_mail

ROOT = Path(__file__).resolve().parent.parent

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


SEATS = ("alice", "bruno", "chiara", "dario")


def principe_player(seed: int) -> Any:
    """The decisions of the player of examples/play-principe.py, from ``seed``, for a club."""
    import importlib.util
    import random
    import tomllib

    sys.path.insert(0, str(ROOT / "examples"))
    spec = importlib.util.spec_from_file_location("play_principe", ROOT / "examples" / "play-principe.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rnd = random.Random(seed)
    icons: dict[str, list[str]] = {}

    def decide(club: Club, seat: str, listed: dict[str, Any]) -> str:
        if not icons:
            path = Path(club.json(seat, "inbox")[0]["file"])
            for city in tomllib.loads(path.read_text(encoding="utf-8"))["components"]["city"]:
                icons[city["id"]] = city["icons"]
        view = club.json(seat, "show", club.game, "--as", seat)
        ducats = next(int(row["ducats"]) for row in view["players"] if row["seat"] == seat)
        return str(module.choose(rnd, listed["moves"], listed["notes"], icons, ducats))

    return decide


def club_round(club: Club) -> int:
    """The round the game is in, as its first player's copy says (0 before it starts; after its
    last round, one more)."""
    shown = club.run(club.seats[0], "show", club.game, "--json", ok=False)
    if shown.exit_code != 0:
        return 0
    view = json.loads(shown.stdout)
    return 99 if view["phase"] == "over" else int(view.get("round") or 0)


def club_game(rounds: int, seed: int, *, broadcast: bool, players: int = 4) -> dict[str, Any]:
    """A game of Il Principe played by mail to the end of round ``rounds`` (or the game's), the
    messages each player received in each round counted."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as folder:
        root = Path(folder)
        with mail_servers(root / "servers") as servers:
            club = Club(root, servers, SEATS[:players], decide=principe_player(seed), broadcast=broadcast)
            club.start("il-principe", label=f"bench_mail {seed}")
            per_round: dict[int, int] = {}
            current = [club_round(club), sum(len(club.received(seat)) for seat in club.seats)]

            def done() -> bool:
                now = club_round(club)
                if now != current[0]:
                    total = sum(len(club.received(seat)) for seat in club.seats)
                    per_round[max(current[0], 1)] = per_round.get(max(current[0], 1), 0) + total - current[1]
                    current[:] = [now, total]
                return now > rounds

            club.play(done)
            if club_round(club) != 99:  # stopped mid-game: everyone sends what it holds, to compare
                for seat in club.seats:
                    club.run(seat, "mail", "send", club.game, "--as", seat)
            for seat in club.seats:
                club.fetch(seat)
            sizes = [len(message) for seat in club.seats for message in club.received(seat)]
            copies = club.copies()
            return {
                "way": "each entry to every seat" if broadcast else "to whom needs it now",
                "rounds": len(per_round),
                "actions": club.actions,
                "received_per_player_by_round": {
                    str(number): round(count / players, 2) for number, count in sorted(per_round.items())
                },
                "received_per_player_per_round": round(
                    sum(per_round.values()) / players / max(1, len(per_round)), 2
                ),
                "bytes_per_message_median": int(statistics.median(sizes)),
                "auction_moves_per_player_per_round": round(
                    auction_moves(copies[0]) / players / max(1, len(per_round)), 2
                ),
                "copies_identical": len(set(copies)) == 1,
            }


def auction_moves(copy: bytes) -> int:
    """The bids and passes in a game: each must reach the next bidder before it can bid, so no
    way of sending the entries can deliver fewer messages than these."""
    import tomllib

    entries = tomllib.loads(copy.decode("utf-8")).get("entry", [])
    return sum(
        1
        for entry in entries
        if entry.get("kind") == "move" and str(entry.get("move", "")).split()[:1] in (["bid"], ["pass"])
    )


def club_silent(rounds: int, seed: int, *, players: int = 4) -> dict[str, Any]:
    """The same game with deadlines of a day, its last player silent from round 2: the deadlines
    the others wait out for it in each round, and the timeouts they claim."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as folder:
        root = Path(folder)
        with mail_servers(root / "servers") as servers:
            seats = SEATS[:players]
            club = Club(root, servers, seats, decide=principe_player(seed), silent=seats[-1], deadline_days=1)
            club.start("il-principe", "deadline_days=1", label=f"bench_mail {seed}")
            club.play(lambda: club_round(club) > rounds)
            return {
                "silent": seats[-1],
                "from_round": club.silent_from,
                "deadlines_lost_by_round": {
                    str(number): count for number, count in sorted(club.lost.items())
                },
                "timeouts_claimed": club.claims,
                "rounds": club.round(),
            }


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
    parser.add_argument("--rounds", type=int, default=6, help="rounds of the club's game (6: all)")
    parser.add_argument("--seed", type=int, default=3, help="the club's players' choices")
    parser.add_argument(
        "--silent",
        action="store_true",
        help="also the club's game with its last player silent from round 2: the deadlines lost to it",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"the first {QUICK_ENTRIES} entries of each game, one run of each timing",
    )
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    # the club: --quick, three players to the end of the first round
    players, rounds = (3, 1) if args.quick else (4, args.rounds)
    clubs = []
    for way in (True, False):  # each said as it ends: a whole game takes a while
        clubs.append(club_game(rounds, args.seed, broadcast=way, players=players))
        print(json.dumps(clubs[-1]), file=sys.stderr)
    for played_club in clubs:
        if not played_club["copies_identical"]:
            raise SystemExit(f"the club's copies differ at the end ({played_club['way']})")
    silent = club_silent(rounds, args.seed, players=players) if args.silent else None
    check = once()
    games = []
    for path in args.games:
        total = len(gamefile.load(path).data["entry"])
        games.append(summary(play(path, min(total, QUICK_ENTRIES) if args.quick else total, check)))
    first = args.games[0]
    count = games[0]["entries"]
    results: dict[str, Any] = {
        "club": clubs,
        **({"silent": silent} if silent else {}),
        "games": games,
        **import_timing(first, count, repeat, check),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Il Principe by mail, {players} players, seed {args.seed}: messages received per player")
    for played_club in clubs:
        counts = played_club["received_per_player_by_round"].items()
        by_round = ", ".join(f"{number}: {count}" for number, count in counts)
        print(
            f"  {played_club['way']:<26} per round {played_club['received_per_player_per_round']:>6} "
            f"(by round {by_round}); of which the auctions' bids and passes alone "
            f"{played_club['auction_moves_per_player_per_round']}; "
            f"median message {played_club['bytes_per_message_median']} bytes; "
            f"{played_club['actions']} commands; copies identical: {played_club['copies_identical']}"
        )
    if silent:
        print(
            f"  with {silent['silent']} silent from round {silent['from_round']}: deadlines the others "
            f"waited out, by round {silent['deadlines_lost_by_round']}; "
            f"{silent['timeouts_claimed']} timeout(s) claimed"
        )
    print("Recorded games replayed by mail, each entry to every seat:")
    for played in games:
        print(played["game"])
        for key, value in played.items():
            if key != "game":
                print(f"  {key:<32} {value}")
    for key, value in results.items():
        if key not in ("games", "club", "silent"):
            print(f"{key:<34} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
