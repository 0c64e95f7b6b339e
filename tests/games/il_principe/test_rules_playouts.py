"""Seeded random playouts of whole games of Il Principe by email, 2 to 5 players, with the variant
and with each other reading of the translations (seed 002).

Random players make moves the rules accept; the hidden cards they build with and play are chosen
from what the dealer knows they hold, as a player reads its own hand. The test keeps its own books,
written from the rules text and the template's numbers (never from pbem's scoring): the building
cards are all somewhere (pile, hands, reserve, in front, removed), each seat's ducats and points on
the track are where the books say, and the final score is recomputed from the table and compared.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from pbem.games.il_principe import rounds
from pbem.games.il_principe.state import ACTIONS, Game
from pbem.games.il_principe.view import breakdown, winners
from tests.games.il_principe.support import CITY, COMPONENTS, RULE, dealer_for, new_game, playout

NAMES = ("anna", "bruno", "carla", "dario", "elena")
ROLE = {(role["colour"], role["rank"]): role for role in COMPONENTS["role"]}


def cards_total(game: Game) -> int:
    return (
        game.deck
        + sum(player.hand_size + sum(player.up) + sum(player.down) for player in game.players)
        + sum(game.reserve)
        + sum(game.removed)
        + len(game.dealt_up)
        + sum(len(rounds.unshown(player)) for player in game.players)  # reserved, face down
    )


def books_after(
    before: Game, after: Game, seat: str, text: str, money: Counter[str], vp: Counter[str]
) -> None:
    """Move the books by what the rules text says the move pays or earns."""
    words = text.split()
    if words[0] == "build":
        card = CITY[words[1]]
        money[seat] -= card["cost"]
        vp[seat] += card["vp"]
        for colour in set(card["icons"]):
            for rank, points in (("major", RULE["city_major_vp"]), ("minor", RULE["city_minor_vp"])):
                holder = before.roles.get(f"{colour} {rank}")
                if holder and holder != seat:
                    vp[holder] += points
    auction = before.auction
    if auction is not None and (
        after.auction is None or after.auction.lot != auction.lot or after.round != before.round
    ):
        leader = seat if words[0] == "bid" else auction.leader
        price = int(words[1]) if words[0] == "bid" else auction.price
        if leader:
            money[leader] -= price


def role_books(before: Game, after: Game, money: Counter[str], vp: Counter[str]) -> None:
    """Roles newly taken this move, and their effects: white 1 VP, yellow 2 ducats."""
    fresh = before.phase == ACTIONS and after.phase != ACTIONS  # « replace les tuiles des Rôles »
    for role, holder in after.roles.items():
        if not fresh and role in before.roles:
            continue
        colour, rank = role.split()
        effect = ROLE[colour, rank]
        if effect["effect"] == "vp":
            vp[holder] += effect["amount"]
        if effect["effect"] == "ducats":
            money[holder] += effect["amount"]


def income(game: Game, options: dict[str, Any]) -> int:
    if options.get("rich_start"):
        return RULE["variant_income"]
    return RULE["two_players_income"] if len(game.seats) == 2 else RULE["income"]


def independent_score(game: Game) -> dict[str, int]:
    """« Calcul des points de Victoire », from the table."""
    totals = {player.seat: player.vp for player in game.players}
    for region in COMPONENTS["region"]:
        counts = {
            p.seat: p.shields.get(region["id"], 0) for p in game.players if p.shields.get(region["id"], 0)
        }
        if not counts:
            continue
        top = max(counts.values())
        first = [s for s, n in counts.items() if n == top]
        for s in first:
            totals[s] += 5
        rest = [n for n in counts.values() if n < top]
        if len(first) == 1 and rest:
            for s, n in counts.items():
                if n == max(rest):
                    totals[s] += 2
    for role, holder in game.roles.items():
        totals[holder] += 2 if role.endswith("major") else 1
    for player in game.players:
        totals[player.seat] += 2 * min(u + d for u, d in zip(player.up, player.down, strict=True))
    for attribute in ("ducats", "hand_size"):
        values = {p.seat: getattr(p, attribute) for p in game.players}
        best = max(values.values())
        for s, v in values.items():
            totals[s] += 2 if v == best else 0
    return totals


OPTIONS: list[dict[str, Any]] = [
    {},
    {"rich_start": True},
    {"readings": {"last-round-ducats": "none", "short-pile": "game-ends", "two-players-last-round": "all"}},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", range(len(OPTIONS)))
@pytest.mark.parametrize("seed", [1, 2])
def test_playout(players: int, options: int, seed: int) -> None:
    chosen = OPTIONS[options]
    rng = random.Random(seed * 100 + players * 10 + options)
    first = new_game(NAMES[:players], **chosen)
    dealer = dealer_for(first, seed)
    game = first = dealer.settle(first)
    total = cards_total(game)
    start = RULE["variant_start_ducats"] if chosen.get("rich_start") else RULE["start_ducats"]
    money: Counter[str] = Counter({seat: start + income(game, chosen) for seat in game.seats})
    vp: Counter[str] = Counter()
    rounds_seen = 1
    for before, game, seat, text in playout(first, dealer, rng):
        books_after(before, game, seat, text, money, vp)
        role_books(before, game, money, vp)
        if game.round != before.round or (game.last_round and not before.last_round):
            rounds_seen += 1
            other = chosen.get("readings", {}).get("last-round-ducats") == "none"
            paid = 0 if game.last_round and other else income(before, chosen)
            if game.phase != "over":
                for s in before.seats:
                    money[s] += paid
        assert cards_total(game) == total
        for player in game.players:
            assert player.ducats == money[player.seat] >= 0, (player.seat, text)
            assert player.vp == vp[player.seat], (player.seat, text)
    assert game.phase == "over"
    scores = breakdown(game)
    assert {seat: row["total"] for seat, row in scores.items()} == independent_score(game)
    found, _ = winners(game)
    assert found
