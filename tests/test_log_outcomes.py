"""``pbem log`` says what came of each entry: auctions won and their price, wars decided, cards
removed, each decade's or round's income and standings, the final score and the winners; in all
three games. The expected lines are computed from the states, not written out, where they can be.
"""

from __future__ import annotations

import email
import email.message
import email.policy
import json
import random
import re
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from pbem.engine import ledger as ledger_mod
from pbem.engine.ruleset import outcomes, standings
from pbem.errors import IllegalMoveError
from pbem.games.il_principe import scoring as ip_scoring
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.rules import RULES as IP_RULES
from pbem.games.il_principe.state import OVER as IP_OVER
from pbem.games.il_principe.state import Game as IpGame
from pbem.games.il_principe.state import as_table
from pbem.games.il_principe.view import winners as ip_winners
from pbem.games.princes_of_florence.rules import RULES as POF_RULES
from pbem.games.princes_of_florence.scoring import breakdown as pof_breakdown
from pbem.games.princes_of_florence.scoring import winners as pof_winners
from pbem.games.princes_of_florence.state import Game as PofGame
from pbem.games.princes_of_the_renaissance import decade, scoring
from pbem.games.princes_of_the_renaissance.rules import RULES as POTR_RULES
from pbem.games.princes_of_the_renaissance.state import Game as PotrGame
from tests.conftest import Cli
from tests.games.il_principe import support as ip_support
from tests.games.princes_of_florence import support as pof_support

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

Pair = tuple[Any, Any, list[str]]


def _trusted(key: str, run: object) -> None:
    """Skip the hidden-deck proofs: the shipped examples are verified in full elsewhere
    (test_examples, CI); here only the states they replay to matter."""


@cache
def _example(name: str) -> tuple[Pair, ...]:
    """(state before, state after, outcomes) for every entry of a shipped example game of
    Princes of the Renaissance."""
    data = tomllib.loads((EXAMPLES / name).read_text())
    states = ledger_mod.states(data, _trusted)
    return tuple(
        (before, after, outcomes(POTR_RULES, before, after))
        for before, after in zip([None, *states], states, strict=False)
    )


# --- Princes of the Renaissance: the four-player example, a whole game -------------------------


def _potr() -> Iterator[tuple[PotrGame, PotrGame, list[str]]]:
    for before, after, said in _example("four-players.toml"):
        if before is not None:
            yield before, after, said


def test_potr_auction_won_says_the_winner_the_tile_and_the_price() -> None:
    won = 0
    for before, after, said in _potr():
        auction = before.auction
        if auction is None or auction.lot.kind not in ("city", "event") or after.auction is not None:
            continue
        if (
            auction.lot.tile
            not in after.players[auction.leader].city_tiles + after.players[auction.leader].events
        ):
            continue
        name = decade.tile_name(before, auction.lot.tile)
        # a discount (Baglioni) pays less than the bid and says so
        assert any(
            line.startswith(f"{auction.leader} wins {name} and pays ")
            and (f" pays {auction.price} " in line or line.endswith(f"(bid {auction.price})"))
            for line in said
        )
        won += 1
    assert won > 5


def test_potr_war_says_the_dice_and_what_changed() -> None:
    decided = 0
    for before, after, said in _potr():
        moved = [city for city, status in after.status.items() if before.status.get(city) != status]
        if before.war is None or after.war is not None or not moved:
            continue
        (line,) = [line for line in said if " wins (" in line and " loses (" in line]
        found = re.search(r": ([^:]+?) wins \((.+?)\), (.+?) loses \((.+?)\)", line)
        assert found, line
        won, lost = found.group(1, 3)
        names = {after.components.city(city).name: city for city in after.status}
        for name in (won, lost):
            city = names[name]
            change = after.status[city] - before.status[city]
            expected = f"{change:+d}, now {after.status[city]}" if change else "already at"
            assert f"{name} {'wins' if name == won else 'loses'} ({expected}" in line, line
        decided += 1
    assert decided >= 2


def test_potr_decade_end_says_income_and_score() -> None:
    ends = 0
    for before, after, said in _potr():
        if not ((before.decade and after.decade > before.decade) or (after.ended and not before.ended)):
            continue
        (income,) = [line for line in said if " ends (" in line]
        earned = dict(re.findall(r"(\w+) (\+\d+ gold \+\d+ influence)", income))
        for seat in before.order:
            # what the seat paid in the same entry (the decade's last Event tile) is said too
            paid = {"gold": 0, "influence": 0}
            for line in said:
                won = re.match(rf"{seat} wins .* and pays (\d+) (gold|influence)", line)
                if won:
                    paid[won[2]] += int(won[1])
            gold = after.players[seat].gold - before.players[seat].gold + paid["gold"]
            influence = after.players[seat].influence - before.players[seat].influence + paid["influence"]
            assert earned[seat] == f"+{gold} gold +{influence} influence"
        assert f"score after {before.decade_name}: {standings(scoring.breakdown(after))}" in said
        ends += 1
    assert ends == 3


def test_potr_game_end_says_the_final_score_and_winner() -> None:
    (said,) = [
        said for before, after, said in _potr() if POTR_RULES.over(after) and not POTR_RULES.over(before)
    ]
    last = _example("four-players.toml")[-1][1]
    scores = scoring.breakdown(last)
    assert f"final score: {standings(scores)}" in said
    (winner,) = scoring.winners(last, scores)
    assert f"{winner} wins the game" in said


def test_potr_what_the_move_says_is_not_said_again() -> None:
    echo = re.compile(r"\S+ (bids \d+|passes|buys a Treachery card|takes the .+ family)")
    assert not [line for _before, _after, said in _potr() for line in said if echo.fullmatch(line)]
    # a pass the rules make for a seat is an outcome, with its reason
    assert any(re.fullmatch(r"\S+ passes \(.+\)", line) for _b, _a, said in _potr() for line in said)


# --- Princes of Florence: a seeded random game --------------------------------------------------


@cache
def _pof(seed: int = 11) -> tuple[tuple[PofGame, PofGame, list[str]], ...]:
    """A seeded game played as Florence's test_rules_playouts plays it (works and buildings tried first,
    most of the time), every move through ``Dealer.play`` (pbem/kit/dealer.py)."""
    rng = random.Random(seed)
    game = pof_support.new_game(("ann", "ben", "cat", "dan"))
    dealer = pof_support.dealer_for(game, seed)
    game = dealer.settle(game)
    weight = {"work": 0, "build": 1, "auction": 1, "bid": 2, "take": 2, "freedom": 2}
    found = []
    while POF_RULES.demands(game):
        seat = rng.choice([demand.seat for demand in POF_RULES.demands(game)])
        listed = POF_RULES.legal_moves(game, seat)
        rng.shuffle(listed)
        if rng.random() < 0.8:
            listed.sort(key=lambda text: weight.get(text.split()[0], 3 if text != "pass" else 4))
        for text in listed:
            try:
                after = dealer.play(game, seat, text)
            except IllegalMoveError:
                continue
            break
        else:
            raise AssertionError(f"no move applies: {listed}")
        found.append((game, after, outcomes(POF_RULES, game, after)))
        game = after
    return tuple(found)


def test_pof_lot_won_says_who_and_the_price() -> None:
    won = 0
    for before, after, said in _pof():
        for old, new in zip(before.players, after.players, strict=True):
            if new.bought and new.bought != old.bought:
                auction = before.auction
                price = auction.price if auction is not None and auction.leader == new.seat else None
                line = f"{new.seat} wins the {new.bought} for {old.florins - new.florins} florins"
                assert line in said
                assert price is None or line.endswith(f"for {price} florins")
                won += 1
    assert won > 5


def test_pof_work_and_round_end_say_the_wp_and_the_best_work() -> None:
    works = rounds = 0
    for before, after, said in _pof():
        for old, new in zip(before.players, after.players, strict=True):
            for work in new.works[len(old.works) :]:
                assert any(
                    line.startswith(f"{new.seat} makes a work: {work.profession}")
                    and line.endswith(f", {work.value} WP")
                    for line in said
                )
                works += 1
        if len(after.best) > len(before.best):
            round_ = len(after.best)
            made = {
                p.seat: max(w.value for w in p.works if w.round == round_)
                for p in after.players
                if any(w.round == round_ for w in p.works)
            }
            if made:
                best = max(made.values())
                makers = " and ".join(seat for seat in after.seats if made.get(seat) == best)
                assert f"round {round_}'s best work: {best} WP by {makers}, +3 prestige" in said
            assert f"prestige after round {round_}: {standings(pof_breakdown(after))}" in said
            rounds += 1
    assert works >= 3 and rounds == 7


def test_pof_game_end_says_the_final_score_and_winner() -> None:
    last = _pof()[-1][1]
    said = _pof()[-1][2]
    scores = pof_breakdown(last)
    assert f"final score: {standings(scores)}" in said
    assert f"{' and '.join(pof_winners(scores))} win" in said[-1]


# --- Il Principe: a seeded random game ----------------------------------------------------------


@cache
def _ip() -> tuple[tuple[IpGame, IpGame, list[str]], ...]:
    rng = random.Random(3)
    game = ip_support.new_game(("ann", "ben", "cat", "dan"))
    dealer = ip_support.dealer_for(game, 3)
    game = dealer.settle(game)
    return tuple(
        (before, after, outcomes(IP_RULES, before, after))
        for before, after, _seat, _text in ip_support.playout(game, dealer, rng)
    )


def test_ip_group_won_or_left_says_who_and_the_price() -> None:
    won = left = 0
    for before, after, said in _ip():
        auction = before.auction
        if auction is None or auction.lot not in COLOURS or after.auction == auction:
            continue
        if after.auction is not None and after.auction.lot == auction.lot:
            continue
        index = COLOURS.index(auction.lot)
        count = before.reserve[index]
        group = f"the {count} {auction.lot} cards" if count != 1 else f"the {auction.lot} card"
        takers = [
            new.seat
            for old, new in zip(before.players, after.players, strict=True)
            if new.known[index] > old.known[index]
        ]
        if not takers:
            assert sum(after.removed) > sum(before.removed)
            assert f"nobody bids on {group}: they leave play" in said
            left += 1
            continue
        if auction.leader == takers[0]:
            ducats = "ducat" if auction.price == 1 else "ducats"
            assert any(
                line.startswith(f"{takers[0]} wins {group} for {auction.price} {ducats}") for line in said
            )
            won += 1
    assert won > 5


def test_ip_roles_rounds_and_cities_are_said() -> None:
    rounds = built = 0
    for before, after, said in _ip():
        for role, seat in after.roles.items():
            if before.roles.get(role) != seat:
                assert any(
                    line.startswith(f"{seat} takes the {role} role") or f"wins the {role} role" in line
                    for line in said
                )
        if after.round > before.round:
            track = standings({p.seat: {"total": p.vp} for p in after.players})
            assert f"victory points after round {before.round}: {track}" in said
            if after.phase != IP_OVER:
                assert (
                    f"round {after.round} begins: {after.settings.rules.income} ducats to each family" in said
                )
            rounds += 1
        for city, builder in after.built.items():
            if city not in before.built:
                assert f"{builder} builds {after.components.cities[city].name}" in said
                built += 1
    assert rounds >= 3 and built >= 2


def test_ip_game_end_says_the_regions_the_final_score_and_winner() -> None:
    _before, last, said = _ip()[-1]
    assert last.phase == IP_OVER
    for region, points in ip_scoring.regions(as_table(last)).items():
        (line,) = [line for line in said if line.startswith(f"region {region}: ")]
        for seat, value in points.items():
            assert (f"{seat} {value}" in line) == (value > 0)
    assert f"final score: {standings(ip_scoring.breakdown(as_table(last)))}" in said
    assert f"{' and '.join(ip_winners(last)[0])} win" in said[-1]


# --- the command ---------------------------------------------------------------------------------


def test_log_prints_outcomes_under_their_entry_and_in_json(cli: Cli) -> None:
    """The three-player example: the turn-order bids revealed decide the order (said under the
    last reveal), and an undone move brings about nothing."""
    path = str(EXAMPLES / "three-players-by-email.toml")
    text = cli("log", path)
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  12  chiara "))
    assert lines[at + 1] == " " * 30 + "turn order by bids: alice (3), bruno (2), chiara (1)"
    items = json.loads(cli("log", path, "--json").stdout)
    assert all(set(item) == {"seq", "by", "kind", "what", "outcomes"} for item in items)
    by_seq = {item["seq"]: item for item in items}
    assert by_seq[12]["outcomes"] == ["turn order by bids: alice (3), bruno (2), chiara (1)"]
    assert by_seq[13]["what"].endswith("(undone)") and by_seq[13]["outcomes"] == []
    assert by_seq[0]["outcomes"] == [] and by_seq[6]["outcomes"]


def test_ip_regions_at_the_end_as_the_rulebook_example_scores_them() -> None:
    """Seed 002, « Exemple d'évaluation finale dans les régions »: blue, Carraresi most (5),
    Visconti and Gonzaga one each (2 each); green, D'Este 3 shields (5), Carraresi (2); red,
    Visconti alone with one (5); yellow, Medici and Gonzaga two each (5 each), Visconti's one
    shield nothing."""
    seats = ("carraresi", "visconti", "gonzaga", "este", "medici")
    game = ip_support.new_game(seats)
    shields = {
        "carraresi": {"blue": 2, "green": 1},
        "visconti": {"blue": 1, "red": 1, "yellow": 1},
        "gonzaga": {"blue": 1, "yellow": 2},
        "este": {"green": 3},
        "medici": {"yellow": 2},
    }
    before = replace(game, players=tuple(replace(p, shields=shields[p.seat]) for p in game.players))
    said = outcomes(IP_RULES, before, replace(before, phase=IP_OVER))
    assert said[:6] == [
        "region blue: carraresi 5, visconti 2, gonzaga 2",
        "region brown: no shield, no points",
        "region green: este 5, carraresi 2",
        "region purple: no shield, no points",
        "region red: visconti 5",
        "region yellow: gonzaga 5, medici 5",
    ]
    assert said[6].startswith("final score: ")


def test_the_html_page_log_says_the_outcomes_too(cli: Cli, tmp_path: Path) -> None:
    """The page ``pbem show --html`` writes carries the log as ``pbem log`` prints it: one item
    per entry, its outcome lines under it."""
    path = str(EXAMPLES / "three-players-by-email.toml")
    out = tmp_path / "game.html"
    shown = cli("show", path, "--html", str(out))
    assert shown.exit_code == 0, shown.stderr
    page = out.read_text()
    assert "turn order by bids: alice (3), bruno (2), chiara (1)</li>" in page
    logged = cli("log", path).stdout.splitlines()
    assert page.count("<li>") == sum(1 for line in logged if not line.startswith(" " * 30))


def test_a_message_body_says_the_outcomes_under_the_moves(cli: Cli) -> None:
    """The mail a move goes out in lists the moves as ``pbem log`` does, what came of them under
    each: a player reading it in a mail client sees the turn order the bids decided."""
    path = str(EXAMPLES / "three-players-by-email.toml")
    sent = cli("mail", "send", path, "--as", "chiara", "--full", "--stdout")
    assert sent.exit_code == 0, sent.stderr
    message = email.message_from_bytes(sent.stdout.encode(), policy=email.policy.default)
    part = message.get_body(("plain",))
    assert isinstance(part, email.message.EmailMessage)
    body = part.get_content()
    lines = body.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("    12  chiara "))
    assert lines[at + 1] == " " * 21 + "turn order by bids: alice (3), bruno (2), chiara (1)"
    assert all(len(line) <= 76 for line in lines if "PBEM ENTRIES" not in line and " " in line)
