"""The Bayer-Groth proof of shuffle against the linear one (Terelius-Wikstrom), in edwards25519.

Run from the repository root::

    python benchmarks/bench_shuffle_bg.py [--cards 25,100] [--repeat R] [--quick]

For each deck size N it deals an open deck, has one seat shuffle it (so the deck to prove holds
N distinct ``c1``, as every deck after the first shuffle does), then has the next seat shuffle it
and measures, for both proofs of that one shuffle (same decks, same ``ShuffleSecret``):

* making the proof and checking it (median of R runs, milliseconds);
* its size: the bytes of its values, and of its text fields as an entry carries them (JSON).

Ratios are linear / Bayer-Groth: above 1 where Bayer-Groth is smaller or faster. ``--quick``
(6 cards, one run) checks that it runs; its figures measure nothing.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_hidden_game import timed

from pbem.crypto import hidden_deck as hd
from pbem.crypto import shuffle as sh
from pbem.crypto import shuffle_bg as bg
from pbem.crypto import shuffle_proof as sp
from pbem.crypto.curve import EDWARDS25519 as GROUP

GAME = "0123456789abcdef0123456789abcdef"
DECK = "treachery"
SEATS = ("a", "b", "c", "d")


def value_bytes(fields: dict[str, str | list[str]]) -> int:
    """The bytes the proof's packed base64 texts hold."""
    total = 0
    for text in fields.values():
        for piece in [text] if isinstance(text, str) else text:
            total += len(base64.b64decode(piece))
    return total


def measure(cards: int, runs: int) -> dict[str, float]:
    secrets = [hd.derive_secret(bytes([i + 1]) * 32, GAME, s, group=GROUP) for i, s in enumerate(SEATS)]
    joint = hd.joint_key([hd.public_key(x, group=GROUP) for x in secrets], group=GROUP)
    opened = hd.open_deck(cards, joint, group=GROUP)
    where = {"game_id": GAME, "deck_id": DECK}
    before, _ = sh.shuffle(opened, joint, b"\x01" * 32, seat="a", group=GROUP, **where)
    after, secret = sh.shuffle(before, joint, b"\x02" * 32, seat="b", group=GROUP, **where)

    def prove_bg() -> bg.BGProof:
        return bg.prove_shuffle_bg(
            sh.ShuffleStatement(before, after, joint, seat="b", group=GROUP, **where), secret
        )

    def prove_linear() -> sp.ShuffleProof:
        return sp.prove_shuffle(
            sh.ShuffleStatement(before, after, joint, seat="b", group=GROUP, **where), secret
        )

    proof_bg, proof_linear = prove_bg(), prove_linear()
    fields_bg = bg.proof_fields(proof_bg, GROUP)
    fields_linear = sp.proof_fields(proof_linear, group=GROUP)
    m, n = bg.dimensions(cards)
    return {
        "m": m,
        "n": n,
        "prove_bg": timed(runs, prove_bg) * 1000,
        "prove_linear": timed(runs, prove_linear) * 1000,
        "check_bg": timed(
            runs,
            lambda: bg.check_shuffle_bg(
                sh.ShuffleStatement(before, after, joint, seat="b", group=GROUP, **where), proof_bg
            ),
        )
        * 1000,
        "check_linear": timed(
            runs,
            lambda: sp.check_shuffle(
                sh.ShuffleStatement(before, after, joint, seat="b", group=GROUP, **where), proof_linear
            ),
        )
        * 1000,
        "bytes_bg": bg.proof_size_bytes(proof_bg, GROUP),
        "bytes_linear": value_bytes(fields_linear),
        "json_bg": len(json.dumps(fields_bg)),
        "json_linear": len(json.dumps(fields_linear)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="25,100", help="deck sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each timing (median)")
    parser.add_argument("--quick", action="store_true", help="a check that it runs (6 cards, once)")
    args = parser.parse_args()
    sizes = [6] if args.quick else [int(part) for part in args.cards.split(",")]
    runs = 1 if args.quick else args.repeat

    print(f"edwards25519, median of {runs} run(s); ratio = linear / Bayer-Groth")
    print(f"{'N':>4} {'m x n':>7} | {'':<14} {'Bayer-Groth':>12} {'linear':>10} {'ratio':>7}")
    for cards in sizes:
        row = measure(cards, runs)
        layout = f"{int(row['m'])} x {int(row['n'])}"
        lines = (
            ("prove (ms)", row["prove_bg"], row["prove_linear"]),
            ("check (ms)", row["check_bg"], row["check_linear"]),
            ("proof (bytes)", row["bytes_bg"], row["bytes_linear"]),
            ("entry (JSON)", row["json_bg"], row["json_linear"]),
        )
        for index, (label, ours, theirs) in enumerate(lines):
            head = f"{cards:>4} {layout:>7}" if index == 0 else " " * 12
            print(f"{head} | {label:<14} {ours:>12.1f} {theirs:>10.1f} {theirs / ours:>7.2f}")
    if args.quick:
        print("--quick: a check that the benchmark works; these figures measure nothing")


if __name__ == "__main__":
    main()
