"""Copies that hold the same entries are the same file, byte for byte, whatever way each came
by them: the unsigned readable parts ([game], [roster], [components]) are written in an order
the entries alone decide (the roster in the game's seat order), not in the order joins
arrived."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomlkit

from tests.conftest import Cli, game_ids, potr_components
from tests.test_mail_lack import Homes


def copy_of(homes: Homes, seat: str) -> bytes:
    """The bytes of the copy ``seat``'s home keeps (its library says where)."""
    listed = json.loads(homes.run(seat, "inbox", "--json"))
    return Path(listed[0]["file"]).read_bytes()


@pytest.fixture
def invited(cli: Cli, tmp_path: Path) -> Homes:
    homes = Homes(cli, tmp_path)
    ours = tmp_path / "components.toml"
    ours.write_text(tomlkit.dumps(potr_components("2016")), encoding="utf-8")
    game = tmp_path / "game.toml"
    with game_ids("identical copies"):
        homes.run("a", "new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a",
                  "--email", "a@pbem.test")  # fmt: skip
    homes.game = json.loads(homes.run("a", "verify", str(game), "--json"))["game"]["id"][:8]
    invitation = homes.send("a", "invitation", "--to", "b@pbem.test", "--to", "c@pbem.test")
    for seat in "bc":
        homes.receive(seat, invitation)
    return homes


def test_joins_arriving_in_either_order_or_merged_give_the_same_file(invited: Homes, tmp_path: Path) -> None:
    """b and c join at once on their copies and mail a; a's note then brings each the other's
    join. a's copy took b's join first, a second home of a's took c's first, and the two joined
    copies merged make a third: all the same bytes."""
    joined = {}
    for seat in "bc":
        invited.run(seat, "join", invited.game, "--as", seat, "--email", f"{seat}@pbem.test")
        joined[seat] = invited.send(seat, f"joined-{seat}")
        (tmp_path / f"{seat}.toml").write_bytes(copy_of(invited, seat))
    invited.receive("a", joined["b"], joined["c"])
    invited.receive("a@2", tmp_path / "invitation.eml")
    invited.receive("a@2", joined["c"])
    invited.receive("a@2", joined["b"])
    assert copy_of(invited, "a@2") == copy_of(invited, "a")
    merged = tmp_path / "merged.toml"
    invited.run("a", "merge", str(tmp_path / "b.toml"), str(tmp_path / "c.toml"), "-o", str(merged))
    assert merged.read_bytes() == copy_of(invited, "a")
    invited.run("a", "note", invited.game, "welcome", "--as", "a")
    note = invited.send("a", "note")
    for seat in ("b", "c", "a@2"):
        invited.receive(seat, note)
    assert copy_of(invited, "b") == copy_of(invited, "c") == copy_of(invited, "a@2") == copy_of(invited, "a")
