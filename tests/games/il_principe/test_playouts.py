"""Il Principe: random tables played through the tracker, legal and illegal actions mixed.

Whatever is tried, a refused action leaves the state as it was, and an applied one keeps what the
rules keep: every building card is somewhere (« 100 cartes Bâtiment », 65 with 2 players), no
family has fewer than no ducats or more than its « 12 boucliers » on the map, a major role's half
of the cards is face down, and the score adds up.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.il_principe import scoring
from pbem.games.il_principe.actions import last_draw_counts, next_group
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.table.state import Table
from pbem.games.il_principe.table.tracker import TRACKER

PLAYERS = ("ann", "ben", "cat", "dan", "eve")
STEP_LIMIT = 800


def attempts(state: Table, rnd: random.Random) -> list[str]:
    """Actions worth trying now; many are legal, some not."""
    players = state.players
    if state.steps:
        step = state.steps[0]
        if step.kind == "auction":
            bids = [f"{name} takes {step.role} for {bid}" for name in players for bid in (0, 1, 3)]
            return [*bids, f"nobody takes {step.role}"]
        if step.role.startswith("green"):
            return [f"{step.players[0]} turns up {card}" for card in (*COLOURS, "nothing")]
        return [f"{step.players[0]} shield {region}" for region in state.parts.regions]
    found = ["round income", "round roles", "round ends"]
    for name in players:
        found.append(f"{name} reserves {' '.join(rnd.choices(COLOURS, k=rnd.randint(1, 3)))}")
        found.append(f"{name} places {rnd.randint(1, 3)} {rnd.choice(COLOURS)}")
        found += [f"{name} wins {card} for {rnd.randint(0, 4)}" for card in COLOURS if state.reserve[card]]
        found.append(build(state, rnd, name))
    found += [f"nobody wins {card}" for card in COLOURS if state.reserve[card]]
    if state.last_round:
        found.append(f"round reserves {' '.join(rnd.choices(COLOURS, k=rnd.randint(1, 4)))}")
    return found


def build(state: Table, rnd: random.Random, name: str) -> str:
    city = rnd.choice(sorted(state.parts.cities))
    size = state.parts.cities[city].size
    icons = rnd.sample(COLOURS, size.icons if size.name == "small" else size.icons - 1)
    icons = icons if size.name == "small" else [*icons, icons[0]]
    known = state.parts.cities[city].regions or state.parts.regions
    regions = rnd.choices(sorted(known), k=size.shields)
    return f"{name} builds {city} with {' '.join(icons)} shields {' '.join(regions)}"


def progress(state: Table, rnd: random.Random) -> str | None:
    """The action that moves the round on, as a table would record it."""
    rules = state.rules
    if not state.income_paid:
        return "round income"
    if state.steps or state.roles_started:
        return None if state.steps else "round ends"
    # Phase 1's reserve, exactly as many cards each, unless phase 3 was recorded first (a table that
    # skips recording phases 1 and 2): then the reserve is closed.
    short = [seat for seat in state.seats.values() if not seat.reserved]
    phase_3 = any(seat.builds or seat.places for seat in state.seats.values())
    if not state.last_round and not state.auctions_begun and short and not phase_3:
        seat = rnd.choice(short)
        return f"{seat.name} reserves {' '.join(rnd.choices(COLOURS, k=rules.reserve))}"
    counts = last_draw_counts(state)
    if state.last_round and not state.auctions_begun and not state.drawn_for_last_round and counts:
        return f"round reserves {' '.join(rnd.choices(COLOURS, k=rnd.choice(counts)))}"
    group = next_group(state.reserve)
    if group:
        bidder = rnd.choice([*state.players, "nobody"])
        return (
            f"nobody wins {group}" if bidder == "nobody" else f"{bidder} wins {group} for {rnd.randint(0, 3)}"
        )
    if rnd.random() < 0.5:
        return build(state, rnd, rnd.choice(state.players))
    return "round roles"


def check(state: Table, cards: int) -> None:
    seats = state.seats.values()
    in_play = sum(seat.hand_size + seat.played for seat in seats) + sum(state.reserve.values())
    assert state.deck + state.discards + in_play == cards
    assert all(
        seat.ducats >= 0 and 0 <= seat.shields_placed <= state.parts.box.shields_per_family for seat in seats
    )
    assert all(min(seat.hand.values()) >= 0 for seat in seats)
    assert all(holder in state.players for holder in state.roles.values() if holder is not None)
    if len(state.players) == 2:
        assert not [role for role, holder in state.roles.items() if role.endswith("minor") and holder]
    rows = scoring.breakdown(state)
    assert TRACKER.totals(state) == {name: row["total"] for name, row in rows.items()}
    assert all(row["total"] == sum(row[c] for c in scoring.CATEGORIES) for row in rows.values())
    won, _ = scoring.winners(state, rows)
    assert won and set(won) <= set(state.players)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 5), rich=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_random_playout(count: int, rich: bool, seed: int) -> None:
    rnd = random.Random(seed)
    state = TRACKER.start(PLAYERS[:count], "standard", {"rich_start": rich}, None)
    cards = 65 if count == 2 else 100
    built = 0
    for _ in range(STEP_LIMIT):
        if state.over:
            break
        action = progress(state, rnd) if rnd.random() < 0.7 else None
        action = action or rnd.choice(attempts(state, rnd))
        before = copy.deepcopy(state)
        try:
            state, _ = TRACKER.apply(state, action)
        except (IllegalMoveError, MoveSyntaxError) as refused:
            assert repr(action) in str(refused)
            assert state == before
            continue
        built += " builds " in action
        check(state, cards)
    assert state.over, f"not over after {STEP_LIMIT} steps: round {state.round}, pile {state.deck}"
    event(f"cities built: {min(built, 5)}+" if built >= 5 else f"cities built: {built}")
    assert TRACKER.show(state) and TRACKER.score(state)[0].title == "Final score"
