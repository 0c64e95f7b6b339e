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

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import Demand
from pbem.errors import IllegalMoveError
from pbem.kit import templates
from tests import independent_verifier
from tests.conftest import make_key_homes, run_cli, seeded_keys
from tests.silent_seat import Clock, play_on

SEATS = ["ann", "ben", "cat", "dan"]
STEP = "round 1 reserve"


def test_the_escrow_opens_a_reserve_kept_back(tmp_path: Path) -> None:
    from tests.games.il_principe.test_ledger import choose as pick
    from tests.games.il_principe.test_ledger import sound

    make_key_homes(tmp_path, SEATS)
    keys = {seat: seeded_keys(seat) for seat in SEATS}
    clock = Clock(datetime(2026, 5, 4, 18, 0, tzinfo=UTC))
    components = templates.values(gamefile.shipped_template("il-principe"))
    setup = ledger.plan(
        game="il-principe",
        edition="standard",
        options={"deadline_days": "1"},
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
    game, silence = play_on(
        game, keys, silent="cat", quiet=sealed, over=opened, mover=mover, clock=clock, days=1, claim=claim
    )
    assert sum(silence.timeouts.values()) == 1  # one claim, the partials came unasked
    chose = play.sealed_value(game, "cat", STEP, keys["cat"]).value
    assert game.table is not None and game.rules is not None
    cat = game.table.state.player("cat")
    assert chose == "reserve " + " ".join(cat.reserved or ())
    # not what the rules' default, which cat could predict, would have put there
    reserve = game.rules.default_move(before.table.state, "cat", STEP) if before.table else None
    assert reserve is not None and game.rules.format(reserve) != chose
    write(game)
    assert run_cli(tmp_path / "ann", "verify", str(path)).exit_code == 0
    report = independent_verifier.verify(path)
    assert report.ok, report.problems
