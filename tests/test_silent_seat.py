"""A player who goes silent at round 2 no longer stops a game: each title, played through the
signed ledger with escrow and one-day deadlines, reaches its final score while one seat answers
nothing, the others claiming timeouts whenever it is asked for something (tests/silent_seat.py).
With the default ``timeouts=absent``, the one claim makes the silent seat absent, and the rules'
defaults play it from then on with no more timeouts; in a game that takes a claim per demand
(``timeouts=demand``, what a genesis made before the option means) with ``retire_after=0``, every
step it misses takes a timeout.

Each game is seeded, so it takes the same course on every run; the assertions say what the others
stood in for (the silent seat's shares unlocked from the escrow, its moves made by the rules'
defaults) and that the file verifies.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import Demand
from pbem.games.princes_of_florence.prestige import FEWEST, MOST, card_points
from pbem.games.princes_of_florence.state import as_estate
from pbem.kit import templates
from tests.conftest import seeded_keys
from tests.silent_seat import Clock, Silence, play_on

SEATS = ("ann", "ben", "cat")
START = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
# (the generator, the state, the moves the rules list, the seat's hand) -> a move, or None when
# none of them is one the seat's own cards bear out yet
Chooser = Callable[[random.Random, Any, list[str], Mapping[str, str | None]], str | None]


def started(
    name: str, template: str, edition: str | None, seed: int, retire_after: int, timeouts: str
) -> tuple[Ledger, dict[str, SecretKeys], Clock, dict[str, Any]]:
    keys = {seat: seeded_keys(seat) for seat in SEATS}
    clock = Clock(START)
    components = templates.values(gamefile.shipped_template(template))
    options = {
        "deadline_days": "1",
        "escrow": "others",
        "retire_after": str(retire_after),
        "timeouts": timeouts,
    }
    setup = ledger.plan(game=name, edition=edition, options=options, seats=list(SEATS), creator=SEATS[0])
    game = ledger.new_game(
        setup, keys[SEATS[0]], at=clock.tick(), nonce=f"{seed:032x}", components=components
    )
    for seat in SEATS[1:]:
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    return game, keys, clock, components


def silent_game(
    name: str,
    template: str,
    edition: str | None,
    seed: int,
    choose: Chooser,
    quiet: Callable[[Ledger], bool],
    retire_after: int = 3,
    timeouts: str = "absent",
) -> tuple[Ledger, Silence]:
    game, keys, clock, components = started(name, template, edition, seed, retire_after, timeouts)
    rnd = random.Random(seed)

    def mover(game: Ledger, demand: Demand, secret: SecretKeys, at: str) -> Ledger | None:
        hand = play.hidden_hand(game, demand.seat, secret)
        _, moves = play.legal(game, demand.seat, hand)
        assert game.table is not None
        chosen = choose(rnd, game.table.state, moves, hand) if moves else None
        if chosen is None:
            return None
        return play.play(game, demand.seat, chosen, secret, at)[0]

    assert game.rules is not None
    rules = game.rules
    game, silence = play_on(
        game,
        keys,
        silent="cat",
        quiet=quiet,
        over=lambda game: game.table is not None and rules.over(game.table.state),
        mover=mover,
        clock=clock,
        days=1,
    )
    text = gamefile.render_new(game.header(), game.roster_table(), components, game.entries, ())
    assert ledger.audit(tomllib.loads(text)).ok  # every proof, unlocked shares and defaults replayed
    return game, silence


def state(game: Ledger) -> Any:
    assert game.table is not None
    return game.table.state


def partials(game: Ledger) -> int:
    """The tables of partial decryptions the others gave for the silent seat."""
    return sum(len(entry.get("escrow_partials", [])) for entry in game.entries)


def absent_after_one(game: Ledger, silence: Silence) -> None:
    """One timeout, then the rules' defaults alone: the seat is absent (not retired: it missed one
    deadline), its shares unlocked from the escrow with no claim of their own."""
    assert game.table is not None
    assert sum(silence.timeouts.values()) == 1, silence.timeouts
    assert game.table.absent == {"cat"} and tables.retired(game.table) == []
    assert game.table.missed == {"cat": 1}
    assert partials(game) > 0


def played_by_defaults_at_the_end(game: Ledger) -> None:
    """New games record retired=compete-none and default_places=chance: the state the game ended
    with knows the seat the defaults played then, and the chance its placements read."""
    assert game.table is not None
    defaults = state(game).defaults
    assert defaults.seats == ("cat",) == tuple(tables.stood_in(game.table))
    assert not defaults.compete and defaults.by_chance and len(defaults.chance) == 32


@pytest.mark.parametrize("seed", [2])
def test_princes_of_the_renaissance_ends_with_a_silent_player(seed: int) -> None:
    from tests.games.princes_of_the_renaissance.test_playouts import choose as pick

    def choose(rnd: random.Random, state: Any, moves: list[str], hand: Mapping[str, str | None]) -> str:
        return pick(rnd, state, moves)

    game, silence = silent_game(
        "princes-of-the-renaissance",
        "princes-of-the-renaissance-2016",
        "2016",
        seed,
        choose,
        lambda game: state(game).decade >= 2,
    )
    assert state(game).decade == 3 and game.rules is not None and game.rules.over(state(game))
    absent_after_one(game, silence)
    played_by_defaults_at_the_end(game)
    score = game.rules.score(state(game))
    assert (score["cat"]["gold"], score["cat"]["influence"]) == (0, 0)  # it competes for neither
    assert sorted(score[seat]["gold"] for seat in ("ann", "ben")) in ([3, 6], [5, 5], [6, 6])


def test_princes_of_florence_ends_with_a_silent_player() -> None:
    from tests.games.princes_of_florence.test_ledger import choose as order

    def choose(rnd: random.Random, state: Any, moves: list[str], hand: Mapping[str, str | None]) -> str:
        return order(rnd, moves)[0]

    game, silence = silent_game(
        "princes-of-florence", "princes-of-florence", None, 2, choose, lambda game: state(game).round >= 2
    )
    assert state(game).round == 7 and game.rules is not None and game.rules.over(state(game))
    absent_after_one(game, silence)
    played_by_defaults_at_the_end(game)
    estates = {player.seat: as_estate(state(game), player) for player in state(game).players}
    for card, rule in state(game).components.prestige.items():
        if card in (*MOST, *FEWEST):  # cat ranks last in every comparison
            assert not card_points(card, rule, estates, ("cat",))["cat"]


def test_il_principe_ends_with_a_silent_player() -> None:
    from tests.games.il_principe.test_ledger import choose as pick
    from tests.games.il_principe.test_ledger import sound

    def choose(
        rnd: random.Random, state: Any, moves: list[str], hand: Mapping[str, str | None]
    ) -> str | None:
        if not any(sound(state, text, hand) for text in moves):
            return None  # its cards still wait for shares
        return pick(rnd, state, Demand("", "move", "", ""), moves, hand)

    game, silence = silent_game(
        "il-principe",
        "il-principe",
        "standard",
        1,
        choose,
        lambda game: state(game).round >= 2,
        retire_after=0,
        timeouts="demand",
    )
    assert game.rules is not None and game.rules.over(state(game))
    # never retired: every step it missed took a timeout, its shares' among them
    assert game.table is not None and tables.retired(game.table) == []
    shares = sum(count for step, count in silence.timeouts.items() if step.startswith("share of "))
    assert shares > 0 and partials(game) >= 2 * shares
    # the silent seat's reserve was shown for it, its cards unlocked from the escrow
    assert any(step.startswith("round 2 show") for step in silence.timeouts)
