"""Moves that cross in the post: an entry the game went on without is overtaken, never proof of
cheating; two entries by one seat for one decision, neither overtaken, still are."""

from __future__ import annotations

import hashlib
import mailbox
import shutil
import tomllib
from pathlib import Path
from typing import Any

from pbem.engine.branches import Branches, Node, step_digest
from tests.conftest import Cli
from tests.mail_servers import MailServers
from tests.test_mail_cli import Table, table  # noqa: F401  (the fixture)
from tests.test_mail_hostile_headers import set_up


def head(path: Path) -> str:
    return str(tomllib.loads(path.read_text(encoding="utf-8"))["game"]["head"])


def entries(path: Path) -> list[dict[str, Any]]:
    return list(tomllib.loads(path.read_text(encoding="utf-8"))["entry"])


# --- the rule, on entries made up for it ----------------------------------------------------------
class Game:
    """Entries with made-up hashes, chained as pbem chains them: a step's version is the set of its
    entries an entry of the next step was made on."""

    def __init__(self, seats: str = "abcd") -> None:
        self.seats = list(seats)
        self.nodes: list[Node] = [self.node("a", 0, "", "genesis")]

    def node(self, by: str, seq: int, prev: str, name: str, rand: str | None = None) -> Node:
        entry: dict[str, Any] = {"by": by, "seq": seq, "prev": prev, "name": name}
        if rand is not None:
            entry["rand"] = rand
        return Node(entry, hashlib.sha256(name.encode()).hexdigest(), seq, by, prev)

    def on(self, *version: Node) -> str:
        order = {seat: index for index, seat in enumerate(self.seats)}
        return step_digest([node.hash for node in sorted(version, key=lambda node: order[node.by])])

    def add(self, by: str, seq: int, version: tuple[Node, ...], name: str, rand: str | None = None) -> Node:
        made = self.node(by, seq, self.on(*version) if version else "", name, rand)
        self.nodes.append(made)
        return made

    def branches(self) -> Branches:
        return Branches(self.seats, self.nodes)


def test_an_entry_another_seat_went_on_without_is_overtaken_and_its_remake_is_no_second_history() -> None:
    game = Game()
    genesis = game.nodes[0]
    first = game.add("a", 1, (genesis,), "a rolls", rand="a1")
    b = game.add("b", 1, (genesis,), "b rolls", rand="b1")
    c = game.add("c", 2, (b,), "c rolls on b's copy", rand="c1")
    again = game.add("a", 3, (c,), "a rolls again", rand="a1")
    branches = game.branches()
    assert branches.overtaken_in(first, again) is True
    assert not branches.equivocation(first, again)
    resolved = branches.resolve()
    assert [entry["name"] for entry in resolved.overtaken] == ["a rolls"]
    assert [entry["name"] for entry in resolved.entries] == [
        "genesis",
        "b rolls",
        "c rolls on b's copy",
        "a rolls again",
    ]


def test_a_seat_that_goes_on_without_its_own_entry_signs_a_second_history() -> None:
    """From two devices: a's bid on one copy, and on another, where only b's entry of that step
    arrived, a different bid a step later. Nobody but a went on without the first."""
    game = Game()
    genesis = game.nodes[0]
    high = game.add("a", 1, (genesis,), "a bids high", rand="a1")
    game.add("a", 2, (high,), "a goes on", rand="a2")
    b = game.add("b", 1, (genesis,), "b's move")
    low = game.add("a", 2, (b,), "a bids low", rand="a1")
    branches = game.branches()
    assert branches.equivocation(high, low)
    assert (high, low) in list(branches.rivals()) or (low, high) in list(branches.rivals())


def test_two_entries_for_one_step_of_one_history_are_always_equivocation() -> None:
    game = Game()
    genesis = game.nodes[0]
    one = game.add("b", 1, (genesis,), "I bid high", rand="b1")
    two = game.add("b", 1, (genesis,), "I bid low", rand="b1")
    assert game.branches().equivocation(one, two)


def test_a_remake_at_the_same_step_on_another_history_is_not_equivocation() -> None:
    """b's entries went on from a version of step 1 that c overtook (c went on without b's), and
    a's entry of step 3 went with them; a's remake on the history that went on is step 3 too."""
    game = Game()
    genesis = game.nodes[0]
    b = game.add("b", 1, (genesis,), "b's move")
    d = game.add("d", 1, (genesis,), "d's move")
    b_on = game.add("b", 2, (b, d), "b goes on", rand="b2")
    lost = game.add("a", 3, (b_on,), "a's move on b's", rand="a1")
    c = game.add("c", 2, (d,), "c goes on from d's alone")
    remake = game.add("a", 3, (c,), "a's move again", rand="a1")
    branches = game.branches()
    assert lost.seq == remake.seq and lost.prev != remake.prev
    assert not branches.equivocation(lost, remake)
    resolved = branches.resolve()
    assert {entry["name"] for entry in resolved.overtaken} == {"b's move", "b goes on", "a's move on b's"}


def test_two_entries_on_two_versions_each_going_on_blame_nobody_who_was_overtaken() -> None:
    """b's move and d's were each continued by another seat (a from b's, c from d's): a, having seen
    both, made its move again on c's, and the game goes on from the version that bears the most.
    a's entry on one and remake on the other accuse nobody."""
    game = Game()
    genesis = game.nodes[0]
    b = game.add("b", 1, (genesis,), "b's move")
    d = game.add("d", 1, (genesis,), "d's move")
    lost = game.add("a", 2, (b,), "a's move on b's", rand="a1")
    c = game.add("c", 2, (d,), "c goes on from d's alone")
    remake = game.add("a", 3, (c,), "a's move again", rand="a1")
    branches = game.branches()
    assert not branches.equivocation(lost, remake)
    resolved = branches.resolve()
    assert [entry["name"] for entry in resolved.entries] == [
        "genesis",
        "d's move",
        "c goes on from d's alone",
        "a's move again",
    ]
    assert {entry["name"] for entry in resolved.overtaken} == {"b's move", "a's move on b's"}


def test_two_versions_of_a_step_that_each_went_on_equally_are_chosen_between_alike_everywhere() -> None:
    """Homes that raced past each other, each version of step 1 continued once: nobody is blamed,
    the game does not stop, and every home keeps the same one whatever order it met the entries
    in (the one whose entry hash is the smaller); the other's seats make theirs again."""
    game = Game()
    genesis = game.nodes[0]
    a = game.add("a", 1, (genesis,), "a's move")
    b = game.add("b", 1, (genesis,), "b's move")
    game.add("c", 2, (a,), "c goes on from a's")
    game.add("d", 2, (b,), "d goes on from b's")
    branches = game.branches()
    assert not any(branches.equivocation(one, two) for one, two in branches.rivals())
    resolved = branches.resolve()
    kept, lost = (a, b) if a.hash < b.hash else (b, a)
    assert [entry["name"] for entry in resolved.entries][1] == kept.entry["name"]
    assert {entry["name"] for entry in resolved.overtaken} == {
        lost.entry["name"],
        "c goes on from a's" if lost is a else "d goes on from b's",
    }
    for order in (game.nodes[::-1], game.nodes[2:] + game.nodes[:2]):
        again = Branches(game.seats, order).resolve()
        assert [entry["name"] for entry in again.entries] == [entry["name"] for entry in resolved.entries]


def test_moves_made_at_the_same_time_with_nothing_after_them_all_stay() -> None:
    game = Game()
    genesis = game.nodes[0]
    for seat in "abc":
        game.add(seat, 1, (genesis,), f"{seat}'s move")
    resolved = game.branches().resolve()
    assert resolved.overtaken == [] and len(resolved.entries) == 4


# --- through the command line -------------------------------------------------------------------
def race(cli: Cli, game: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Everyone adds randomness to the setup draw at once: a on its copy, b then c on theirs; a's
    roll is overtaken and a rolls again on the copy that went on."""
    first = tmp_path / "first.toml"
    theirs = tmp_path / "theirs.toml"
    shutil.copyfile(game, first)
    shutil.copyfile(game, theirs)
    assert cli("play", str(first), "roll", "--as", "a", home="a").exit_code == 0
    for seat in ("b", "c"):
        assert cli("play", str(theirs), "roll", "--as", seat, home=seat).exit_code == 0
    again = cli("play", str(theirs), "roll", "--as", "a", home="a")
    assert again.exit_code == 0, again.stderr
    return first, theirs


def test_merging_a_copy_with_an_overtaken_roll_keeps_the_history_that_went_on(
    cli: Cli, make_game: Any, tmp_path: Path
) -> None:
    first, theirs = race(cli, make_game(), tmp_path)
    (one, two) = entries(first)[-1], entries(theirs)[-1]
    assert one["by"] == two["by"] == "a" and one["rand"] == two["rand"] and one["seq"] != two["seq"]
    result = cli("merge", str(first), str(theirs), home="b")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""  # no evidence printed: nobody is accused
    # a made its roll again on theirs: nobody is told to make it again
    assert "overtaken" not in result.stderr
    assert head(first) == head(theirs)
    assert cli("verify", str(first), home="b").exit_code == 0
    back = cli("merge", str(theirs), str(tmp_path / "first.toml"), home="c")
    assert back.exit_code == 0 and back.stdout == ""


def test_a_home_that_saw_the_overtaken_roll_verifies_the_copy_that_went_on(
    cli: Cli, make_game: Any, tmp_path: Path
) -> None:
    first, theirs = race(cli, make_game(), tmp_path)
    assert cli("verify", str(first), home="f").exit_code == 0  # this home has seen a's first roll
    result = cli("verify", str(theirs), home="f")
    assert result.exit_code == 0, result.stderr
    assert "goes on without a's move of step 3" in result.stderr and "a makes it again" in result.stderr
    assert "fork" not in result.stderr
    assert cli("verify", str(first), home="f").exit_code == 3  # now behind what went on


def test_the_real_fork_from_two_devices_is_still_equivocation(cli: Cli, game_file: Path) -> None:
    """b's note and then another on one device; on a second device, on a copy where a's note took
    that step, a different note: nobody else went on without b's first, so b signed two histories."""
    first = game_file.with_name("first.toml")
    second = game_file.with_name("second.toml")
    shutil.copyfile(game_file, first)
    shutil.copyfile(game_file, second)
    assert cli("note", str(first), "I back Venice", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(first), "and Rome", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(second), "hello", "--as", "a", home="a").exit_code == 0
    assert cli("note", str(second), "I back Milan", "--as", "b", home="b@2").exit_code == 0
    result = cli("merge", str(second), str(first), home="c")
    assert result.exit_code == 6, result.stderr
    proof = tomllib.loads(result.stdout)["entry"]
    assert {entry["text"] for entry in proof} == {"I back Venice", "I back Milan"}


def mail_race(played: Table) -> tuple[Path, Path]:
    """a rolls and mails it; meanwhile b rolls, c takes b's roll and rolls, and c's roll reaches a
    first: a's roll is overtaken, and a rolls again. b's mailbox holds both of a's rolls."""
    played.cli("play", str(played.copy("a")), "roll", "--as", "a", home="a")
    first = played.send("a", "a-first")
    played.cli("play", str(played.copy("b")), "roll", "--as", "b", home="b")
    played.receive("c", played.send("b", "b-roll"))
    played.cli("play", str(played.copy("c")), "roll", "--as", "c", home="c")
    lines = played.receive("a", played.send("c", "c-roll"))
    assert any("a's contribute of step" in line and "was overtaken" in line for line in lines), lines
    assert played.cli("play", str(played.copy("a")), "roll", "--as", "a", home="a").exit_code == 0
    return first, played.send("a", "a-again")


def test_importing_both_rolls_of_an_overtaken_player_accuses_nobody_in_any_order(
    table: Table,  # noqa: F811
) -> None:
    """b takes a's two rolls from one mailbox, then one message at a time in either order: each
    time from b's home and copy as they were before any of them (one race, three readings)."""
    first, again = mail_race(table)
    home, folder = table.cli.homes["b"], table.copy("b").parent
    kept = table.root / "kept"
    shutil.copytree(home, kept / "home")
    shutil.copytree(folder, kept / "copy")
    box = mailbox.mbox(str(table.root / "b.mbox"))
    for message in (first, again):
        box.add(message.read_bytes())
    box.flush()
    for paths in ([table.root / "b.mbox"], [first, again], [again, first]):
        shutil.rmtree(home)
        shutil.rmtree(folder)
        shutil.copytree(kept / "home", home)
        shutil.copytree(kept / "copy", folder)
        for path in paths:
            result = table.cli("mail", "import", str(path), home="b")
            assert result.exit_code == 0, result.stdout + result.stderr
            assert "equivocation" not in result.stdout + result.stderr
        assert head(table.copy("b")) == head(table.copy("a")), paths
        assert table.cli("verify", str(table.copy("b")), home="b").exit_code == 0


def test_fetching_both_rolls_of_an_overtaken_player_accuses_nobody(
    table: Table,  # noqa: F811
    mail_servers: MailServers,
) -> None:
    first, again = mail_race(table)
    set_up(table.cli, mail_servers, "b")
    box = mail_servers.maildir("b")
    for message in (first, again):
        box.add(message.read_bytes())
    result = table.cli("mail", "fetch", home="b", env={"MAILPW": "pw-b"})
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "equivocation" not in result.stdout + result.stderr
    assert head(table.copy("b")) == head(table.copy("a"))
