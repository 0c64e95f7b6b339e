"""Il Principe's sealed reserve kept back: cat seals its reserve, reads the others' reveals and
goes silent. One claim has the escrow holders open what cat sealed (option withheld=open, with
escrow): its reserve is the one it chose before reading the others', not the default it could
predict (the first cards of its hand). Played through the signed ledger with seeded keys; the
claim through the command line."""

from __future__ import annotations

import random
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import Demand
from pbem.errors import IllegalMoveError
from pbem.kit import templates
from tests import independent_verifier
from tests.conftest import make_key_homes, run_cli, seeded_keys
from tests.silent_seat import Clock, Silence, play_on

SEATS = ["ann", "ben", "cat", "dan"]
STEP = "round 1 reserve"


def kept_back(
    tmp_path: Path, options: dict[str, str], *, claims: bool = True
) -> tuple[Ledger, Ledger, Silence, dict[str, SecretKeys]]:
    """The game as cat seals its round 1 reserve, and once the others have revealed theirs and
    (``claims``) the claims against cat have had its reserve revealed."""
    from tests.games.il_principe.test_ledger import choose as pick
    from tests.games.il_principe.test_ledger import sound

    make_key_homes(tmp_path, SEATS)
    keys = {seat: seeded_keys(seat) for seat in SEATS}
    clock = Clock(datetime(2026, 5, 4, 18, 0, tzinfo=UTC))
    components = templates.values(gamefile.shipped_template("il-principe"))
    setup = ledger.plan(
        game="il-principe",
        edition="standard",
        options={"deadline_days": "1", **options},
        seats=list(SEATS),
        creator="ann",
    )
    game = ledger.new_game(setup, keys["ann"], at=clock.tick(), nonce=f"{5:032x}", components=components)
    for seat in SEATS[1:]:
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    rnd = random.Random(5)
    path = tmp_path / "game.toml"

    def write(game: Ledger) -> None:
        path.write_text(
            gamefile.render_new(game.header(), game.roster_table(), components, game.entries, ()),
            encoding="utf-8",
        )

    def mover(game: Ledger, demand: Demand, secret: SecretKeys, at: str) -> Ledger | None:
        hand = play.hidden_hand(game, demand.seat, secret)
        _, moves = play.legal(game, demand.seat, hand)
        assert game.table is not None
        state = game.table.state
        if None in hand.values() or not any(sound(state, text, hand) for text in moves):
            return None
        return play.play(game, demand.seat, pick(rnd, state, demand, moves, hand), secret, at)[0]

    def claim(game: Ledger, claimant: str, at: str) -> tuple[Ledger, dict[str, Any]]:
        write(game)
        result = run_cli(
            tmp_path / claimant, "timeout", str(path), "cat", "--as", claimant, env={"PBEM_NOW": at}
        )
        if result.exit_code != 0:
            raise IllegalMoveError(result.stderr)
        entry = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][-1]
        return ledger.admit(game, entry), entry

    def sealed(game: Ledger) -> bool:
        return game.table is not None and "cat" in game.table.commitments.get(STEP, {})

    def opened(game: Ledger) -> bool:
        return game.table is not None and "cat" in game.table.revealed.get(STEP, set())

    game, silence = play_on(
        game, keys, silent="cat", quiet=sealed, over=sealed, mover=mover, clock=clock, days=1, claim=claim
    )
    before = game

    def others_revealed(game: Ledger) -> bool:
        return game.table is not None and game.table.revealed.get(STEP, set()) >= set(SEATS) - {"cat"}

    game, silence = play_on(
        game, keys, silent="cat", quiet=sealed, over=opened if claims else others_revealed,
        mover=mover, clock=clock, days=1, claim=claim,
    )  # fmt: skip
    write(game)
    assert run_cli(tmp_path / "ann", "verify", str(path)).exit_code == 0
    report = independent_verifier.verify(path)
    assert report.ok, report.problems
    return before, game, silence, keys


def test_the_escrow_opens_a_reserve_kept_back(tmp_path: Path) -> None:
    before, game, silence, keys = kept_back(tmp_path, {})
    assert sum(silence.timeouts.values()) == 1  # one claim, the partials came unasked
    chose = play.sealed_value(game, "cat", STEP, keys["cat"]).value
    assert game.table is not None and game.rules is not None and before.table is not None
    cat = game.table.state.player("cat")
    assert chose == "reserve " + " ".join(cat.reserved or ())
    # not what the rules' default, which cat could predict, would have put there
    reserve = game.rules.default_move(before.table.state, "cat", STEP)
    assert reserve is not None and game.rules.format(reserve) != chose


def test_without_escrow_the_game_waits_for_a_reserve_kept_back(tmp_path: Path) -> None:
    """Nothing can open it, and Il Principe has no least favourable reserve to count instead:
    the claim is refused, so cat cannot choose the default after reading the others'."""
    _, game, silence, _ = kept_back(tmp_path, {"escrow": "none"}, claims=False)
    assert sum(silence.timeouts.values()) == 0
    with pytest.raises(IllegalMoveError, match="so the game waits for cat's reveal"):
        play.check_timeout_now(game, "ann", "cat", "2027-01-01T00:00:00Z")
