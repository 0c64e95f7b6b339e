"""The hidden decks in edwards25519 against the 2048-bit group, each figure a ratio in one run.

Run from the repository root::

    python benchmarks/bench_curve.py [--players 4] [--cards 25] [--draws 12] [--repeat R] [--json]
                                     [--quick]

It measures, in both groups, in the same run:

* one seat's shuffle of a deck of N cards (default 25) with its proof of shuffle (the Bayer-Groth
  argument in edwards25519, the Terelius-Wikstrom proof in the 2048-bit group: what each group's
  games carry), and checking that proof;
* one decryption share checked (its Chaum-Pedersen proof); in edwards25519 also eight shares of
  one entry checked with their one batched proof (per share), and a card put under the deck
  checked by its short re-mask proof against a one-card proof of shuffle;
* cold verify (every proof checked, nothing cached, as a new ``pbem verify`` process) of a game
  played through the library with a hidden deck of N cards, each seat shuffling and seats drawing
  and showing cards (``bench_hidden_game.make_game``), made once in each group, against its
  signature floor (parsing, messages, Ed25519: ``bench_verify.floor``), and its size;
* unless ``--quick``: cold verify of the whole four-player games of each title kept in
  tests/fixtures/modp-2048 (made in the 2048-bit group) against their floor.

The 2048-bit figures use gmpy2 when it is installed, as ``pbem`` does. ``--quick`` (3 players, 6
cards, 2 draws, one run, no fixture games) checks that it runs; its figures measure nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_hidden_game
from bench_hidden_game import RULES, BenchRules, full_verify, make_game, timed
from bench_verify import floor

from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.curve import EDWARDS25519
from pbem.crypto.groups import MODP_2048, Group
from pbem.engine import registry

GAME = "0123456789abcdef0123456789abcdef"
DECK = "treachery"
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "modp-2048"
GROUPS = (EDWARDS25519, MODP_2048)


def primitives(group: Group, cards: int, runs: int) -> dict[str, float]:
    """One seat's shuffle + proof, checking it, and one share check, in seconds."""
    secrets = [hd.derive_secret(bytes([seat]) * 32, GAME, f"s{seat}", group=group) for seat in range(4)]
    joint = hd.joint_key((hd.public_key(secret, group=group) for secret in secrets), group=group)
    deck = hd.open_deck(cards, joint, group=group)
    made: dict[str, Any] = {}

    # each group with the proof of shuffle its games carry: Bayer-Groth in the curve,
    # Terelius-Wikstrom in the 2048-bit group
    def shuffle_and_prove() -> None:
        after, how = sh.shuffle(deck, joint, bytes(32), game_id=GAME, deck_id=DECK, seat="s0", group=group)
        made["after"] = after
        if group.compact:
            made["proof"] = bg.prove_shuffle_bg(
                sh.ShuffleStatement(deck, after, joint, game_id=GAME, deck_id=DECK, seat="s0", group=group),
                how,
            )
        else:
            made["proof"] = sp.prove_shuffle(
                sh.ShuffleStatement(deck, after, joint, game_id=GAME, deck_id=DECK, seat="s0", group=group),
                how,
            )

    def check() -> None:
        if group.compact:
            bg.check_shuffle_bg(
                sh.ShuffleStatement(
                    deck, made["after"], joint, game_id=GAME, deck_id=DECK, seat="s0", group=group
                ),
                made["proof"],
            )
        else:
            sp.check_shuffle(
                sh.ShuffleStatement(
                    deck, made["after"], joint, game_id=GAME, deck_id=DECK, seat="s0", group=group
                ),
                made["proof"],
            )

    share = hd.share(secrets[1], deck[0], game_id=GAME, deck_id=DECK, position=0, seat="s1", group=group)
    public = hd.public_key(secrets[1], group=group)

    def share_check() -> None:
        hd.check_share(public, deck[0], share, game_id=GAME, deck_id=DECK, position=0, group=group)

    found = {
        "shuffle_prove_s": timed(runs, shuffle_and_prove),
        "shuffle_check_s": timed(runs, check),
        "share_check_s": timed(max(runs, 5), share_check),
    }
    if group.compact:
        found |= compact_checks(group, secrets[1], deck, joint, runs)
    return found


def compact_checks(
    group: Group, secret: int, deck: list[hd.Ciphertext], joint: Any, runs: int
) -> dict[str, float]:
    """What the compact entries check instead: several shares under one proof, and the short
    proof of a re-masked card against a one-card proof of shuffle, in seconds."""
    places = [hd.Place(DECK, slot, deck[slot % len(deck)]) for slot in range(8)]
    values, proof = hd.shares(secret, places, game_id=GAME, seat="s1", group=group)
    public = hd.public_key(secret, group=group)

    def batch() -> None:
        hd.check_shares(public, places, values, proof, game_id=GAME, seat="s1", group=group)

    after = sh.remask(deck[0], joint, 12345, group=group)
    claim = hd.Remask(deck[0], after, joint, game_id=GAME, deck_id=DECK, position=0, seat="s1", group=group)
    short = hd.prove_remask(claim, 12345)
    one_card = sp.prove_shuffle(
        sh.ShuffleStatement([deck[0]], [after], joint, game_id=GAME, deck_id=DECK, seat="s1", group=group),
        sh.ShuffleSecret((0,), (12345,)),
    )

    def remask_check() -> None:
        hd.check_remask(claim, short)

    def one_card_check() -> None:
        sp.check_shuffle(
            sh.ShuffleStatement(
                [deck[0]], [after], joint, game_id=GAME, deck_id=DECK, seat="s1", group=group
            ),
            one_card,
        )

    return {
        "batched_share_check_s": timed(max(runs, 5), batch) / len(places),
        "remask_check_s": timed(max(runs, 5), remask_check),
        "one_card_shuffle_check_s": timed(max(runs, 5), one_card_check),
    }


def game(directory: Path, group: Group, players: int, draws: int, runs: int) -> dict[str, float]:
    path, entries = make_game(directory, players, draws, group)
    verify = timed(runs, partial(full_verify, path))
    base = timed(runs, partial(floor, path))
    return {
        "entries": entries,
        "kib": round(path.stat().st_size / 1024, 1),
        "verify_s": round(verify, 3),
        "floor_s": round(base, 4),
        "verify_over_floor": round(verify / base, 1),
    }


def fixture(path: Path, runs: int) -> dict[str, float]:
    verify = timed(runs, partial(full_verify, path))
    base = timed(runs, partial(floor, path))
    return {
        "kib": round(path.stat().st_size / 1024),
        "verify_s": round(verify, 2),
        "floor_s": round(base, 3),
        "verify_over_floor": round(verify / base, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", type=int, default=25)
    parser.add_argument("--draws", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a check that it runs (small, once)")
    args = parser.parse_args()
    if args.quick:
        args.players, args.cards, args.draws, args.repeat = 3, 6, 2, 1
    BenchRules.cards = tuple(f"card-{index}" for index in range(args.cards))
    registry.games()
    registry.register(RULES.info)
    sys.modules.setdefault("bench_hidden_game", bench_hidden_game)
    report: dict[str, Any] = {"cards": args.cards, "players": args.players}
    for group in GROUPS:
        report[group.name] = primitives(group, args.cards, args.repeat)
    with tempfile.TemporaryDirectory() as work:
        for group in GROUPS:
            report[group.name]["game"] = game(Path(work), group, args.players, args.draws, args.repeat)
    new, old = report[EDWARDS25519.name], report[MODP_2048.name]
    report["old_over_new"] = {
        name: round(old[name] / new[name], 1)
        for name in ("shuffle_prove_s", "shuffle_check_s", "share_check_s")
    } | {
        "game_verify": round(old["game"]["verify_s"] / new["game"]["verify_s"], 1),
        "game_size": round(old["game"]["kib"] / new["game"]["kib"], 1),
    }
    if not args.quick:
        report["fixtures_modp_2048"] = {
            path.name: fixture(path, 1) for path in sorted(FIXTURES.glob("*.toml"))
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if args.quick:
        print("--quick: a check that the benchmark works; these figures measure nothing")
    print(f"{args.players} players, a deck of {args.cards} cards")
    print(f"{'':34} {'edwards25519':>14} {'modp-2048':>12} {'old/new':>8}")
    for name, label in (
        ("shuffle_prove_s", "one seat's shuffle + proof"),
        ("shuffle_check_s", "checking that proof"),
        ("share_check_s", "checking one share"),
    ):
        ratio = report["old_over_new"][name]
        print(f"{label:34} {new[name] * 1000:>12.1f}ms {old[name] * 1000:>10.1f}ms {ratio:>7}x")
    for name, label in (
        ("batched_share_check_s", "one share of 8 under one proof"),
        ("remask_check_s", "a re-masked card, short proof"),
        ("one_card_shuffle_check_s", "the same, as a one-card shuffle"),
    ):
        print(f"{label:34} {new[name] * 1000:>12.1f}ms")
    for name, label in (
        ("verify_s", "game: cold verify (s)"),
        ("floor_s", "game: signature floor (s)"),
        ("verify_over_floor", "game: verify / floor"),
        ("kib", "game: file size (KiB)"),
    ):
        print(f"{label:34} {new['game'][name]:>14} {old['game'][name]:>12}")
    for name, row in report.get("fixtures_modp_2048", {}).items():
        said = f"{row['verify_s']}s cold, {row['verify_over_floor']}x its floor, {row['kib']} KiB"
        print(f"fixture {name} (modp-2048): {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
