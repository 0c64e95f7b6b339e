"""A group's own component values reach the rules of Princes of Florence and Il Principe: by email
through the components the genesis signs (parsed once, carried in the game's state), at a table
through the components its log starts with. No game module reads the template pbem ships when it
is imported: that template gives only the defaults, where a command asks for them.
"""

from __future__ import annotations

import copy
import random
import subprocess
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import DECK_DEMANDS
from pbem.errors import IllegalMoveError
from pbem.games.il_principe.state import OVER
from pbem.games.il_principe.state import Game as PrincipeGame
from pbem.games.il_principe.table.tracker import TRACKER as PRINCIPE_TABLE
from pbem.games.il_principe.view import breakdown
from pbem.games.princes_of_florence.state import AUCTION
from pbem.games.princes_of_florence.state import Game as FlorenceGame
from pbem.kit.templates import values
from tests.conftest import Cli, seeded_keys
from tests.games.il_principe.test_ledger import Clock, step

SEATS = ("ann", "ben", "cy")
# Every end-of-game value changed from the reference set's (5, 2, 2, 1, 2, 2, 2), each to a
# different number, so a score that used any reference value instead would come out otherwise.
PRINCIPE_VP = {
    "region_first_vp": 11,
    "region_second_vp": 5,
    "end_major_vp": 7,
    "end_minor_vp": 3,
    "set_vp": 4,
    "most_ducats_vp": 6,
    "most_cards_vp": 9,
}


def shipped(game: str) -> dict[str, Any]:
    return values(gamefile.shipped_template(game))


def ours(game: str, **rules: int) -> dict[str, Any]:
    """The values of the shipped template with some of ``[rules]`` changed, as a group's copy."""
    data = copy.deepcopy(shipped(game))
    assert set(rules) <= set(data["rules"])
    data["rules"].update(rules)
    return data


def new_game(game: str, components: Mapping[str, Any], seats: Sequence[str], clock: Clock) -> Ledger:
    keys = keys_of(seats)
    setup = ledger.plan(game=game, edition=None, options={}, seats=list(seats), creator=seats[0])
    made = ledger.new_game(setup, keys[seats[0]], at=clock.tick(), nonce="5c" * 16, components=components)
    for seat in seats[1:]:
        made, _ = ledger.join(made, seat, keys[seat], clock.tick())
    return made


def keys_of(seats: Sequence[str]) -> dict[str, SecretKeys]:
    return {seat: seeded_keys(seat) for seat in seats}


def file_of(made: Ledger, components: Mapping[str, Any]) -> dict[str, Any]:
    """The game file as its players would hold it, read back from its bytes."""
    text = gamefile.render_new(
        made.header(), made.roster_table(), components, made.entries, made.status_lines()
    )
    return tomllib.loads(text)


def replayed(data: Mapping[str, Any]) -> Any:
    found = ledger.read(data, lambda key, run: None)
    assert found.table is not None
    return found.table.state


# --- Princes of Florence by email -----------------------------------------------------------------


def florence_state(made: Ledger) -> FlorenceGame:
    assert made.table is not None
    state: FlorenceGame = made.table.state
    return state


def to_the_auction(components: Mapping[str, Any]) -> tuple[Ledger, Clock]:
    """A game from its genesis through the deal (every seat shuffles, draws and returns a card)."""
    clock = Clock()
    made = new_game("princes-of-florence", components, SEATS, clock)
    keys = keys_of(SEATS)
    while florence_state(made).phase != AUCTION:
        assert made.table is not None and made.rules is not None
        demand = tables.demands(made.rules, made.table)[0]
        seat = demand.seat
        if demand.kind in DECK_DEMANDS:
            made, _ = play.sync(made, seat, keys[seat], clock.tick())
            continue
        _, moves = play.legal(made, seat, play.hidden_hand(made, seat, keys[seat]))
        made, _ = play.play(made, seat, moves[0], keys[seat], clock.tick())
    return made, clock


def test_a_florence_game_signed_with_an_opening_bid_of_300_opens_its_auctions_at_300() -> None:
    components = ours("princes-of-florence", opening_bid=300)
    made, clock = to_the_auction(components)
    nominator = florence_state(made).nominator
    made, _ = play.play(made, nominator, "auction jester", keys_of(SEATS)[nominator], clock.tick())
    auction = florence_state(made).auction
    assert auction is not None and (auction.lot, auction.leader, auction.price) == ("jester", nominator, 300)
    # The next bid raises the signed opening by the signed raise (100): 400, never 300.
    bidder = auction.turn
    hand = play.hidden_hand(made, bidder, keys_of(SEATS)[bidder])
    _, moves = play.legal(made, bidder, hand)
    assert "bid 400" in moves and "bid 300" not in moves
    with pytest.raises(IllegalMoveError):
        play.play(made, bidder, "bid 300", keys_of(SEATS)[bidder], clock.tick())
    # Every player replays the file to the same auction, from the components its genesis signs.
    data = file_of(made, components)
    assert data["components"]["rules"]["opening_bid"] == 300
    again: FlorenceGame = replayed(data)
    assert again.auction == auction and again.components.rule("opening_bid") == 300
    # A game signed with the shipped values opens at theirs, 200.
    made, clock = to_the_auction(shipped("princes-of-florence"))
    nominator = florence_state(made).nominator
    made, _ = play.play(made, nominator, "auction jester", keys_of(SEATS)[nominator], clock.tick())
    shipped_auction = florence_state(made).auction
    assert shipped_auction is not None and shipped_auction.price == 200


# --- Il Principe by email -------------------------------------------------------------------------


def principe_state(made: Ledger) -> PrincipeGame:
    assert made.table is not None
    state: PrincipeGame = made.table.state
    return state


def counted(state: PrincipeGame, rule: Mapping[str, int]) -> dict[str, int]:
    """Each family's final total counted from the rules text with the values ``rule`` gives: the
    track; each region's most shields (shared by a tie) and, behind one most, the second most; each
    role held; each complete set of five colours in front; the most ducats and the most cards in
    hand (each shared by a tie)."""
    ducats = max(player.ducats for player in state.players)
    cards = max(player.hand_size for player in state.players)
    totals = {}
    for player in state.players:
        points = player.vp
        for region in state.components.regions:
            shields = {
                other.seat: other.shields.get(region, 0)
                for other in state.players
                if other.shields.get(region)
            }
            if player.seat not in shields:
                continue
            levels = sorted(set(shields.values()), reverse=True)
            first = [seat for seat, count in shields.items() if count == levels[0]]
            if shields[player.seat] == levels[0]:
                points += rule["region_first_vp"]
            elif len(first) == 1 and shields[player.seat] == levels[1]:
                points += rule["region_second_vp"]
        for role, holder in state.roles.items():
            if holder == player.seat:
                points += rule["end_major_vp" if role.endswith("major") else "end_minor_vp"]
        points += rule["set_vp"] * min(up + down for up, down in zip(player.up, player.down, strict=True))
        points += rule["most_ducats_vp"] if player.ducats == ducats else 0
        points += rule["most_cards_vp"] if player.hand_size == cards else 0
        totals[player.seat] = points
    return totals


def test_an_il_principe_game_signed_with_other_victory_points_scores_with_them() -> None:
    components = ours("il-principe", **PRINCIPE_VP)
    seats = SEATS[:2]
    clock = Clock()
    made = new_game("il-principe", components, seats, clock)
    keys = keys_of(seats)
    rnd = random.Random(3)
    while principe_state(made).phase != OVER:
        assert len(made.entries) < 5000
        made = step(made, keys, rnd, clock)
    final = principe_state(made)
    scores = {seat: row["total"] for seat, row in breakdown(final).items()}
    assert scores == counted(final, PRINCIPE_VP)
    # The reference values would give another score: the changed ones are the ones counted.
    assert scores != counted(final, shipped("il-principe")["rules"])
    assert made.rules is not None
    assert {seat: row["total"] for seat, row in made.rules.view(final, None)["score"].items()} == scores
    # Replayed from the file, the final score is the same: the values come from its genesis.
    again: PrincipeGame = replayed(file_of(made, components))
    assert {seat: row["total"] for seat, row in breakdown(again).items()} == scores


# --- at a table -----------------------------------------------------------------------------------


def test_a_florence_table_started_with_its_own_template_opens_auctions_at_its_bid(
    cli: Cli, tmp_path: Path
) -> None:
    # 250 and raises of 100: 250, 350, 450...; 200 stays the last player's price, taking a lot alone.
    text = cli("templates", "show", "princes-of-florence").stdout
    copy_ = tmp_path / "ours.toml"
    copy_.write_text(text.replace("opening_bid = { value = 200,", "opening_bid = { value = 250,", 1))
    assert copy_.read_text() != text
    log = tmp_path / "table.toml"
    made = cli("table", "new", str(log), "--game", "princes-of-florence", "--players", "alice,bob,carla",
               "--components", str(copy_))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    assert tomllib.loads(log.read_text())["components"]["rules"]["opening_bid"] == 250
    refused = cli("table", "add", str(log), "alice", "buys", "jester", "for", "300")
    assert refused.exit_code != 0 and "it opens at 250" in refused.stderr, refused.stderr
    taken = cli("table", "add", str(log), "alice", "buys", "jester", "for", "350")
    assert taken.exit_code == 0, taken.stderr
    assert cli("table", "verify", str(log)).exit_code == 0
    shown = cli("table", "show", str(log), "--json")
    assert shown.exit_code == 0, shown.stderr


def test_an_il_principe_table_started_with_its_own_template_scores_with_its_points() -> None:
    state = PRINCIPE_TABLE.start(SEATS, "standard", {"deadline_days": 0}, ours("il-principe", **PRINCIPE_VP))
    for action in (
        "ann shields blue +2",
        "ben shields blue +1",
        "ann holds blue major",
        "ben holds white minor",
        "ann ducats +3",
    ):
        state, _ = PRINCIPE_TABLE.apply(state, action)
    vp = PRINCIPE_VP
    # blue: ann the most, ben second; ann the most ducats; nobody holds a card, so all share the most
    expected = {
        "ann": vp["region_first_vp"] + vp["end_major_vp"] + vp["most_ducats_vp"] + vp["most_cards_vp"],
        "ben": vp["region_second_vp"] + vp["end_minor_vp"] + vp["most_cards_vp"],
        "cy": vp["most_cards_vp"],
    }
    assert PRINCIPE_TABLE.totals(state) == expected
    # A table started without components plays with the shipped values.
    state = PRINCIPE_TABLE.start(SEATS, "standard", {"deadline_days": 0}, None)
    state, _ = PRINCIPE_TABLE.apply(state, "ann holds blue major")
    rule = shipped("il-principe")["rules"]
    assert PRINCIPE_TABLE.totals(state)["ann"] == sum(
        rule[name] for name in ("end_major_vp", "most_ducats_vp", "most_cards_vp")
    )


# --- nothing read at import -----------------------------------------------------------------------

GAME_MODULES = [
    f"pbem.games.{game}.{module}"
    for game, modules in (
        (
            "princes_of_florence",
            (
                "components",
                "auction",
                "works",
                "buildings",
                "actions",
                "table.view",
                "table.tracker",
                "rules",
                "scoring",
            ),
        ),
        (
            "il_principe",
            ("components", "actions", "roles", "scoring", "table.view", "table.tracker", "rules", "state"),
        ),
    )
    for module in modules
]


def test_no_game_module_reads_the_shipped_template_when_imported() -> None:
    """The template pbem ships is read where a command needs its defaults, never at import: a module
    that read it would give every game its values, whatever the game's own components say."""
    script = (
        "import importlib, sys\n"
        "from pbem import gamefile\n"
        "def refuse(name):\n"
        "    raise SystemExit(f'the template {name} was read at import')\n"
        "gamefile.shipped_template = refuse\n"
        f"for name in {GAME_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
