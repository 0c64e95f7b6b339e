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

from pbem.errors import IllegalMoveError
from pbem.games.il_principe import rounds
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.email_view import breakdown, winners
from pbem.games.il_principe.game import ACTIONS, BUILD, RESERVE, SHIELD, SHOW, TURN_UP, Game
from pbem.games.il_principe.rules import RULES
from tests.ip_support import COMPONENTS, Dealer, new_game

NAMES = ("anna", "bruno", "carla", "dario", "elena")
CITY = {card["id"]: card for card in COMPONENTS["city"]}
RULE: dict[str, int] = dict(COMPONENTS["rules"])
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


def city_move(game: Game, dealer: Dealer, seat: str, rng: random.Random) -> str | None:
    player = game.player(seat)
    hand = dealer.hand(game, seat)
    for city in rng.sample(list(game.face_up), len(game.face_up)):
        card = CITY[city]
        if card["cost"] > player.ducats:
            continue
        known = dict(zip(COLOURS, player.known, strict=True))
        chosen: list[str] = []
        free = dict(hand)
        for colour in card["icons"]:
            if known[colour]:
                known[colour] -= 1
                chosen.append(colour)
                continue
            token = next((t for t, c in free.items() if c == colour), None)
            if token is None:
                break
            del free[token]
            chosen.append(token)
        else:
            due = min(card["shields"], RULE["shields_per_family"] - player.shields_placed)
            shields = [rng.choice(card["regions"]) for _ in range(due)]
            tail = f" shields {' '.join(shields)}" if shields else ""
            return f"build {city} with {' '.join(chosen)}{tail}"
    return None


def choose(game: Game, dealer: Dealer, seat: str, rng: random.Random) -> str:
    due = game.follow_ups[0] if game.follow_ups else None
    if game.phase == RESERVE:
        return rng.choice(RULES.legal_moves(game, seat))
    if game.phase == SHOW:
        return "show"
    if due is not None and due.kind in (TURN_UP, SHIELD):
        return rng.choice(RULES.legal_moves(game, seat))
    if due is not None and due.kind == BUILD:
        built = city_move(game, dealer, seat, rng)
        return built if built and rng.random() < 0.9 else "pass"
    if game.auction is not None:
        legal = RULES.legal_moves(game, seat)
        bids = [move for move in legal if move != "pass"][:4]
        return rng.choice(bids) if bids and rng.random() < 0.6 else "pass"
    assert game.phase == ACTIONS
    built = city_move(game, dealer, seat, rng)
    if built and rng.random() < 0.8:
        return built
    by_colour: dict[str, list[str]] = {}
    for token, colour in dealer.hand(game, seat).items():
        by_colour.setdefault(colour, []).append(token)
    for colour, number in zip(COLOURS, game.player(seat).known, strict=True):
        if number:
            by_colour.setdefault(colour, []).extend([colour] * number)
    if by_colour and rng.random() < 0.8:
        cards = by_colour[rng.choice(sorted(by_colour))]
        return "play " + " ".join(cards[: rng.randint(1, len(cards))])
    return "pass"


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
    game = new_game(NAMES[:players], **chosen)
    dealer = Dealer.for_game(game, seed)
    game = dealer.settle(game)
    total = cards_total(game)
    start = RULE["variant_start_ducats"] if chosen.get("rich_start") else RULE["start_ducats"]
    money: Counter[str] = Counter({seat: start + income(game, chosen) for seat in game.seats})
    vp: Counter[str] = Counter()
    rounds_seen = 1
    for _ in range(5000):
        asked = RULES.demands(game)
        if not asked:
            break
        seat = asked[0].seat
        for _attempt in range(50):
            text = choose(game, dealer, seat, rng)
            try:
                after = dealer.play(game, seat, text)
            except IllegalMoveError:
                continue
            break
        else:
            raise AssertionError(f"{seat} found no move in {RULES.phase(game)}")
        books_after(game, after, seat, text, money, vp)
        role_books(game, after, money, vp)
        if after.round != game.round or (after.last_round and not game.last_round):
            rounds_seen += 1
            other = chosen.get("readings", {}).get("last-round-ducats") == "none"
            paid = 0 if after.last_round and other else income(game, chosen)
            if after.phase != "over":
                for s in game.seats:
                    money[s] += paid
        game = after
        assert cards_total(game) == total
        for player in game.players:
            assert player.ducats == money[player.seat] >= 0, (player.seat, text)
            assert player.vp == vp[player.seat], (player.seat, text)
    assert game.phase == "over"
    scores = breakdown(game)
    assert {seat: row["total"] for seat, row in scores.items()} == independent_score(game)
    found, _ = winners(game)
    assert found
