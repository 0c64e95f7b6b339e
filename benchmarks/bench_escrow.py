"""Escrow of a seat's deck secret: what dealing, checking and unlocking cost, in both groups.

Run from the repository root::

    python benchmarks/bench_escrow.py [--players 4] [--positions 8] [--repeat R] [--json] [--quick]

For one seat's escrow with the other seats (threshold: all of them), in edwards25519 and in the
2048-bit group, the median of R runs of:

* dealing (coefficients, commitments, every holder's share);
* one holder's Feldman check of its share, and the check of a dealing's form;
* one partial decryption with its proof, and checking it;
* one holder's partials of P positions under one batched proof, and checking them (per position);
* combining the threshold's partials into the dealer's share (Lagrange in the exponent);
* a whole unlock of one position as a verifier sees it: every partial checked, then combined;
* the cost per card of an unlock of P positions as a game makes it (each holder's batched
  partials checked, then each position combined), against the baseline measured in the same run:
  checking the one decryption share the silent seat would have given itself.

``--quick`` (3 players, 2 positions, one run, edwards25519 only) checks that it runs; its figures
measure nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_hidden_game import timed

from pbem.crypto import escrow as es
from pbem.crypto import hidden_deck as hd
from pbem.crypto.curve import EDWARDS25519
from pbem.crypto.groups import MODP_2048, Group

GAME = "0123456789abcdef0123456789abcdef"
DECK = "treachery"


def measure(group: Group, players: int, positions: int, runs: int) -> dict[str, float]:
    """Seat s0's escrow with the others, each figure in seconds."""
    seats = [f"s{seat}" for seat in range(players)]
    secret = hd.derive_secret(bytes(32), GAME, seats[0], group=group)
    holders = seats[1:]
    threshold = es.default_threshold(holders)

    def dealing() -> tuple[es.Dealing, dict[str, es.EscrowShare]]:
        return es.deal(secret, holders, threshold, game_id=GAME, dealer=seats[0], group=group, seed=bytes(32))

    made, shares = dealing()
    first = shares[holders[0]]
    places = [
        hd.Place(DECK, position, hd.Ciphertext(group.base_power(1000 + position), group.generator))
        for position in range(positions)
    ]
    c1 = places[0].ciphertext.c1

    def one_partial() -> es.Partial:
        return es.partial(first, made, c1, game_id=GAME, deck_id=DECK, position=0, group=group)

    given = [
        es.partial(share, made, c1, game_id=GAME, deck_id=DECK, position=0, group=group)
        for share in shares.values()
    ]
    values, proof = es.partials(first, made, places, game_id=GAME, group=group)
    pairs = {each.index: each.value for each in given}
    expected = group.power(c1, secret)

    def unlock() -> None:
        found = es.unlock(made, given, c1, game_id=GAME, deck_id=DECK, position=0, group=group)
        assert found == expected, "the unlocked share is the dealer's"

    def check_batch() -> None:
        es.check_partials(made, holders[0], places, values, proof, game_id=GAME, group=group)

    own = hd.share(
        secret, places[0].ciphertext, game_id=GAME, deck_id=DECK, position=0, seat=seats[0], group=group
    )
    public = group.base_power(secret)

    def check_own() -> None:
        hd.check_share(public, places[0].ciphertext, own, game_id=GAME, deck_id=DECK, position=0, group=group)

    batch = {
        holder: es.partials(shares[holder], made, places, game_id=GAME, group=group) for holder in holders
    }

    def unlock_batch() -> None:
        for holder, (found, proven) in batch.items():
            es.check_partials(made, holder, places, found, proven, game_id=GAME, group=group)
        for index in range(positions):
            given_here = [(shares[holder].index, batch[holder][0][index]) for holder in holders]
            es.combine(given_here, threshold=threshold, group=group)

    return {
        "deal_s": timed(runs, dealing),
        "check_dealing_s": timed(runs, lambda: es.check_dealing(made, group=group)),
        "check_share_s": timed(runs, lambda: es.check_escrow_share(made, first, group=group)),
        "partial_s": timed(runs, one_partial),
        "check_partial_s": timed(
            runs,
            lambda: es.check_partial(made, given[0], c1, game_id=GAME, deck_id=DECK, position=0, group=group),
        ),
        "batched_partial_s": timed(runs, lambda: es.partials(first, made, places, game_id=GAME, group=group))
        / positions,
        "batched_check_s": timed(runs, check_batch) / positions,
        "combine_s": timed(runs, lambda: es.combine(pairs, threshold=threshold, group=group)),
        "unlock_s": timed(runs, unlock),
        "unlocked_card_s": timed(runs, unlock_batch) / positions,
        "own_share_s": timed(runs, check_own),
    }


ROWS = (
    ("deal_s", "deal (commitments + every share)"),
    ("check_dealing_s", "check a dealing's form"),
    ("check_share_s", "Feldman check of one share"),
    ("partial_s", "one partial + proof"),
    ("check_partial_s", "check one partial"),
    ("batched_partial_s", "partials under one proof (each)"),
    ("batched_check_s", "check them (each)"),
    ("combine_s", "combine the threshold's partials"),
    ("unlock_s", "unlock one position (check + combine)"),
    ("unlocked_card_s", "per card of a batch (check + combine)"),
    ("own_share_s", "baseline: check the seat's own share"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a check that it runs (small, once)")
    args = parser.parse_args()
    groups: tuple[Group, ...] = (EDWARDS25519, MODP_2048)
    if args.quick:
        args.players, args.positions, args.repeat = 3, 2, 1
        groups = (EDWARDS25519,)
    report: dict[str, Any] = {"players": args.players, "threshold": args.players - 1}
    report |= {group.name: measure(group, args.players, args.positions, args.repeat) for group in groups}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if args.quick:
        print("--quick: a check that the benchmark works; these figures measure nothing")
    print(
        f"{args.players} players: one seat's escrow with {args.players - 1} holders, threshold "
        f"{args.players - 1}; batches of {args.positions} positions"
    )
    print(f"{'':40}" + "".join(f"{group.name:>14}" for group in groups))
    for name, label in ROWS:
        print(f"{label:40}" + "".join(f"{report[group.name][name] * 1000:>12.2f}ms" for group in groups))
    ratios = [report[group.name]["unlocked_card_s"] / report[group.name]["own_share_s"] for group in groups]
    print(f"{'an unlocked card / its own share':40}" + "".join(f"{ratio:>13.1f}x" for ratio in ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
