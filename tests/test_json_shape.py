"""One JSON shape for every game (docs/json.md): every key that names a field is snake_case, a
map is keyed by names only where the document says so, and each output's top level is the one
documented. Walked over every ``--json`` output of the commands, from the example games and from
built positions of each game."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbem.cli.play_commands import moves_report, shown_view
from pbem.cli.reports import status_report
from pbem.engine import ledger as ledger_mod
from pbem.engine.ledger import Ledger
from pbem.engine.table import Table
from pbem.games.il_principe.rules import RULES as PRINCIPE
from pbem.games.princes_of_florence.rules import RULES as FLORENCE
from pbem.games.princes_of_the_renaissance.rules import RULES as POTR
from tests.conftest import Cli
from tests.games.il_principe import support as ip_support
from tests.games.il_principe.test_rules import in_actions
from tests.games.princes_of_florence import support as pof_support
from tests.games.princes_of_the_renaissance import support as potr_support

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DOC = ROOT / "docs" / "json.md"
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")

# The maps keyed by names (docs/json.md, "keyed by"), by path: a key, [] for a list's items, *
# for a name.
NAMED = frozenset(
    {
        "status.waiting[].waiting_for_shares",
        "moves.notes",
        "moves.waiting_for_shares",
        "show.score",
        "show.private",
        "show.hand",
        "show.players",  # Princes of the Renaissance: keyed by seat
        "show.cities",  # Princes of the Renaissance: keyed by city id
        "show.troop_supply",
        "show.treachery_names",
        "show.decks",
        "show.supply",
        "show.reserve",
        "show.removed_from_play",
        "show.roles",
        "show.regions",
        "show.players[].hand.public",
        "show.players[].face_up",
        "show.players[].face_down",
        "show.players[].shields",
        "verify.game.options",
        "verify.roster",
        "games[].options",
        "table.reports[].data.scores",
        "table.reports[].data.roles",
        "table.reports[].data.families",
        "table.reports[].data.points",
        "table.totals",
        "table.signers",
    }
)

# Each output's top level: the keys it always has, and those it may have (docs/json.md).
SHOW_ALWAYS = {"phase", "sealed"}
SHOW_GAME = {
    "princes-of-the-renaissance": {
        "edition", "family_side", "turn_order", "players", "events", "decade", "active", "cities",
        "city_tiles_on_offer", "event_tiles_on_offer", "troops_for_sale", "pope", "troop_supply",
        "treachery_deck", "treachery_names", "treachery_discards", "treachery_discarded_face_down",
        "wars_fought", "war_limit", "auction", "war", "waiting_for", "score", "score_final", "winners",
    },
    "princes-of-florence": {
        "round", "estate_grid", "first_player", "minimum_work", "asked", "auction",
        "lots_sold_this_round", "professions_face_up", "decks", "supply", "best_works", "players",
        "score", "score_final", "winners",
    },
    "il-principe": {
        "round", "last_round", "il_principe", "asked", "pile", "cities_face_up",
        "cities_still_to_turn_up", "reserve", "removed_from_play", "auction", "roles", "regions",
        "cities", "players", "score", "score_final", "winners",
    },
}  # fmt: skip
STATUS = {"phase", "over", "waiting", "send_to", "halted", "retired", "absent", "silent"}
WAITING = {
    "seat",
    "kind",
    "step",
    "prompt",
    "command",
    "note",
    "deadline",
    "overdue",
    "timeout",
    "waiting_for_shares",
}
MOVES = {"seat", "kind", "moves", "forms", "free", "notes", "waiting_for_shares"}
FORM = {"form", "fields", "lists", "places", "count", "choices"}
# a form's choices are keyed by the values that fill its fields, level under level
CHOICES = "moves.forms[].choices"
LOG_ITEM = {"seq", "by", "kind", "what"}
VERIFY = {"file", "ok", "problems", "game", "roster", "waiting_to_join", "key_mismatches", "seen"}
GAMES_ITEM = {"name", "title", "aliases", "players", "editions", "by_email", "options"}
REPORT = {"title", "columns", "rows", "notes", "data"}


def bad_keys(node: Any, path: str) -> Iterator[str]:
    """Every key under ``node`` that is not snake_case outside a map keyed by names."""
    if isinstance(node, Mapping):
        named = path in NAMED or path.startswith(CHOICES)
        for key, value in node.items():
            if not named and not (isinstance(key, str) and SNAKE.fullmatch(key)):
                yield f"{path}: {key!r}"
            yield from bad_keys(value, f"{path}.{'*' if named else key}")
    elif isinstance(node, list | tuple):
        for item in node:
            yield from bad_keys(item, f"{path}[]")


def check(output: Any, command: str) -> None:
    """``output`` as the command prints it (through JSON), every key in the one shape."""
    printed = json.loads(json.dumps(output))
    assert list(bad_keys(printed, command)) == []


def check_show(view: Mapping[str, Any], game: str) -> None:
    check(view, "show")
    assert SHOW_ALWAYS <= set(view) <= SHOW_ALWAYS | SHOW_GAME[game] | {"private", "hand"}


def test_the_walk_finds_a_key_with_a_space_and_passes_a_map_keyed_by_names() -> None:
    assert list(bad_keys({"players": [{"face up": {}}]}, "show")) == ["show.players[]: 'face up'"]
    assert list(bad_keys({"score": {"Ann Lee": {"total": 1}}}, "show")) == []
    assert list(bad_keys({"score": {"ann": {"city tiles": 1}}}, "show")) == ["show.score.*: 'city tiles'"]


def test_every_documented_key_is_in_the_document() -> None:
    """The shapes this test holds are the document's: each key named in it, in backticks."""
    text = DOC.read_text(encoding="utf-8")
    keys = set().union(*SHOW_GAME.values(), SHOW_ALWAYS, STATUS, WAITING, MOVES, FORM, LOG_ITEM, VERIFY)
    keys |= GAMES_ITEM | REPORT | {"private", "hand", "to_seal", "reports", "totals", "recorded"}
    assert sorted(key for key in keys if f"`{key}`" not in text) == []
    assert "(json.md)" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


# --- the example games, replayed (their proofs are checked by tests/test_examples.py) -------------
@cache
def example(name: str) -> Ledger:
    data = tomllib.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return ledger_mod.read(data, lambda key, run: None)


EMAIL_EXAMPLES = sorted(path.name for path in EXAMPLES.glob("*.toml"))


@pytest.mark.parametrize("name", EMAIL_EXAMPLES)
def test_each_example_games_status_moves_and_show(name: str) -> None:
    ledger = example(name)
    assert ledger.table is not None and ledger.rules is not None
    status = status_report(ledger, "2026-01-01T00:00:00Z", EXAMPLES / name)
    check(status, "status")
    assert set(status) == STATUS and all(set(item) == WAITING for item in status["waiting"])
    for seat in ledger.seats:
        _, moves = moves_report(ledger, seat, {})
        check(moves, "moves")
        assert set(moves) == MOVES
    check_show(shown_view(ledger.rules, ledger.table, None), ledger.info.name)


# --- built positions of each game -----------------------------------------------------------------
def positions() -> Iterator[tuple[str, Any, Any]]:
    """(game, rules, state): openings, a game under way, the end."""
    potr = potr_support.decade_one(game_id="json shape", families=POTR_FAMILIES, phase=None)
    yield "princes-of-the-renaissance", POTR, potr
    auction = next(text for text in POTR.legal_moves(potr, potr.active) if text.startswith("auction "))
    yield "princes-of-the-renaissance", POTR, potr_support.act(potr, potr.active, auction)
    yield "princes-of-the-renaissance", POTR, potr_support.end_decade(potr)
    principe = ip_support.new_game(("ann", "ben", "cat"))
    principe = ip_support.dealer_for(principe, 5).settle(principe)
    yield "il-principe", PRINCIPE, principe
    yield "il-principe", PRINCIPE, in_actions(principe)
    florence = pof_support.new_game(("ann", "ben", "cat"))
    yield "princes-of-florence", FLORENCE, pof_support.dealer_for(florence, 5).settle(florence)


POTR_FAMILIES = {"a": "gonzaga", "b": "malatesta", "c": "montefeltro", "d": "este"}


@pytest.mark.parametrize("position", list(range(6)))
def test_each_games_view_of_built_positions(position: int) -> None:
    game, rules, state = list(positions())[position]
    table = Table("0" * 32, tuple(state.seats), state, 0)
    for seat in (None, *state.seats):
        check_show(shown_view(rules, table, seat), game)


# --- the commands themselves --------------------------------------------------------------------
def test_every_command_prints_the_one_shape(cli: Cli) -> None:
    """status, moves, log, show, verify, games and inbox on a game by email;
    the table commands on every recorded table game."""
    game = str(EXAMPLES / "three-players-by-email.toml")

    def printed(*args: str) -> Any:
        result = cli(*args, "--json", home="a")
        assert result.exit_code == 0, (args, result.stderr)
        return json.loads(result.stdout)

    status = printed("status", game)
    check(status, "status")
    assert set(status) == STATUS
    check(printed("moves", game, "--as", "alice"), "moves")
    log = printed("log", game)
    check(log, "log")
    assert all(set(item) >= LOG_ITEM for item in log)
    check_show(printed("show", game), "princes-of-the-renaissance")
    verify = printed("verify", game)
    check(verify, "verify")
    assert set(verify) == VERIFY
    games = printed("games")
    check(games, "games")
    assert all(set(item) == GAMES_ITEM for item in games)
    check(printed("inbox"), "inbox")
    for path in sorted((EXAMPLES / "table").glob("*.toml")):
        for command in ("show", "score"):
            shown = printed("table", command, str(path))
            check(shown, "table")
            assert all(set(report) == REPORT for report in shown["reports"])
        check(printed("table", "log", str(path)), "table")
        check(printed("table", "verify", str(path)), "table")
