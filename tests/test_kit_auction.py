"""The one open ascending auction every game's rules use (pbem/kit/auction.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem
from pbem.kit.auction import Auction, Raise

SEATS = ("a", "b", "c", "d")


def test_the_turn_goes_clockwise_among_those_still_bidding_and_skips_the_leader() -> None:
    auction = Auction("jester", SEATS, turn="a", leader="a", price=200).onward()
    assert auction.turn == "b"
    auction = auction.bid("b", 300).onward()
    assert (auction.leader, auction.price, auction.turn) == ("b", 300, "c")
    auction = auction.passing("c").onward()
    assert auction.turn == "d"
    auction = auction.passing("d").onward()
    assert auction.turn == "a", "c and d passed, b leads: a is asked next"
    assert not auction.over


def test_a_pass_is_final_and_the_leader_wins_once_every_rival_has_passed() -> None:
    auction = Auction("lot", SEATS, turn="a", leader="a", price=5)
    auction = auction.passing("b", "c")
    assert auction.rivals == ("d",) and not auction.over
    auction = auction.passing("d")
    assert auction.over and auction.winner == "a"
    assert auction.next_seat() == ""


def test_an_auction_nobody_bids_in_ends_with_no_winner_once_all_have_passed() -> None:
    auction = Auction("red", ("b", "c"), turn="b")
    assert not auction.over
    auction = auction.passing("b").onward()
    assert auction.turn == "c" and not auction.over, "one seat left but no leader: it may still bid"
    auction = auction.passing("c")
    assert auction.over and auction.winner == "" and auction.price == 0


def test_the_turn_order_is_the_auctions_own_among_a_subset_of_the_table() -> None:
    auction = Auction("role", ("a", "c", "d"), turn="d", leader="d", price=1)
    assert auction.next_seat() == "a"
    assert auction.passing("a").next_seat() == "c"


def test_a_raise_at_least_takes_the_opening_price_first_then_a_step_more() -> None:
    rule = Raise(step=1)
    opening = Auction("lot", SEATS, turn="a")
    assert rule.least(opening) == 0 and rule.allows(opening, 0) and rule.allows(opening, 7)
    led = opening.bid("a", 7)
    assert rule.least(led) == 8
    assert not rule.allows(led, 7) and rule.allows(led, 8) and rule.allows(led, 20)


def test_an_exact_raise_takes_only_the_price_plus_the_step() -> None:
    rule = Raise(step=100, exact=True)
    auction = Auction("builder", SEATS, turn="a", leader="a", price=200)
    assert rule.least(auction) == 300
    assert rule.allows(auction, 300)
    assert not rule.allows(auction, 400) and not rule.allows(auction, 250)


def test_the_prices_an_auction_can_end_at() -> None:
    exact, at_least = Raise(step=100, exact=True), Raise(step=1)
    assert [exact.reaches(200, price) for price in (100, 200, 250, 300, 900)] == [
        False,
        True,
        False,
        True,
        True,
    ]
    assert at_least.reaches(200, 201) and not at_least.reaches(200, 199)


# the games, and the layers that do I/O
ABOVE_THE_KIT = ("pbem.games", "pbem.cli", "pbem.mail", "pbem.render", "pbem.gamefile", "pbem.keys")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_kit_sits_below_the_games_and_the_decade_does_not_import_the_war() -> None:
    package = Path(pbem.__file__).parent
    for module in (package / "kit").glob("*.py"):
        above = {name for name in _imports(module) if name.startswith(ABOVE_THE_KIT)}
        assert not above, (module.name, above)
    decade = _imports(package / "games" / "princes_of_the_renaissance" / "decade.py")
    assert "pbem.games.princes_of_the_renaissance.war" not in decade, "decade <-> war is an import circle"


def test_an_answer_is_a_bid_or_a_pass_then_the_turn_moved_on_unless_it_ends() -> None:
    """``answered`` is ``bid`` or ``passing``, then ``onward`` while the auction is not over, for
    every answer of every auction of four seats three answers deep."""
    start = Auction("lot", SEATS, turn="b")
    auctions = [start, Auction("lot", SEATS, turn="c", leader="a", price=3, passed=("d",))]
    for _ in range(3):
        following = []
        for auction in auctions:
            if auction.over:
                continue
            for amount in (None, auction.price + 1):
                seat = auction.turn
                stepped = auction.passing(seat) if amount is None else auction.bid(seat, amount)
                expected = stepped if stepped.over else stepped.onward()
                assert auction.answered(seat, amount) == expected
                following.append(expected)
        auctions = following
    assert auctions
