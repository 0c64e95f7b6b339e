"""Copies in separate homes always come together: whatever order joins, notes and moves are made
and exchanged in, every copy ends the same and every player can go on. An entry the game went on
without is left out of every copy, its seat told the command that makes it again."""

from __future__ import annotations

import json
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from tests.conftest import Cli, make_key_homes, run_cli

SEATS = ("a", "b", "c", "d")


def roster(path: Path) -> list[str]:
    return list(tomllib.loads(path.read_text(encoding="utf-8")).get("roster", {}))


def test_a_join_overtaken_on_its_own_copy_is_left_out_and_made_again(cli: Cli, tmp_path: Path) -> None:
    """Three homes: b joins and writes a note on one copy while c joins on another. c's join was
    overtaken (b went on without it): the merge in c's home leaves it out and says how to make it
    again, that command works, and the copies then merge into the same bytes both ways."""
    game, theirs = tmp_path / "g.toml", tmp_path / "gc.toml"
    made = cli("new", str(game), "--game", "il-principe", "--players", "a,b,c", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    shutil.copyfile(game, theirs)
    assert cli("join", str(game), "--as", "b", home="b").exit_code == 0
    assert cli("note", str(game), "hello", "--as", "b", home="b").exit_code == 0
    assert cli("join", str(theirs), "--as", "c", home="c").exit_code == 0
    merged = cli("merge", str(theirs), str(game), home="c")
    assert merged.exit_code == 0, merged.stderr
    assert (
        f"warning: {theirs}: c's join of step 1 was overtaken: the game went on without it, made at "
        f"the same time as another's; make it again: pbem join {theirs} --as c"
    ) in merged.stderr
    assert merged.stderr.count("warning:") == 1, merged.stderr  # said once, with the command
    assert roster(theirs) == ["a", "b"]
    status = json.loads(cli("status", str(theirs), "--json", home="c").stdout)
    assert [(item["seat"], item["command"]) for item in status["waiting"]] == [
        ("c", f"pbem join {theirs} --as c")
    ]
    again = cli("join", str(theirs), "--as", "c", home="c")
    assert again.exit_code == 0, again.stderr
    back = cli("merge", str(game), str(theirs), home="b")
    assert back.exit_code == 0, back.stderr
    assert "was overtaken" not in back.stderr  # b's home never held the lost join
    assert game.read_bytes() == theirs.read_bytes()
    assert roster(game) == ["a", "b", "c"]
    for path, home in ((game, "a"), (theirs, "c")):
        assert cli("verify", str(path), home=home).exit_code == 0


def test_two_joins_each_gone_on_from_come_together_on_the_longer(cli: Cli, tmp_path: Path) -> None:
    """b and c join at once on two copies and each writes a note before hearing of the other: two
    histories that each went on. Every home keeps the same one (the one that bears more entries),
    and the other seat joins again on it."""
    game, theirs = tmp_path / "g.toml", tmp_path / "gc.toml"
    made = cli("new", str(game), "--game", "il-principe", "--players", "a,b,c", "--as", "a", home="a")
    assert made.exit_code == 0, made.stderr
    shutil.copyfile(game, theirs)
    for text in ("hello", "anyone?"):
        if text == "hello":
            assert cli("join", str(game), "--as", "b", home="b").exit_code == 0
        assert cli("note", str(game), text, "--as", "b", home="b").exit_code == 0
    assert cli("join", str(theirs), "--as", "c", home="c").exit_code == 0
    assert cli("note", str(theirs), "hi", "--as", "c", home="c").exit_code == 0
    for mine, other, home in ((theirs, game, "c"), (game, theirs, "b")):
        result = cli("merge", str(mine), str(other), home=home)
        assert result.exit_code == 0, result.stderr
    assert game.read_bytes() == theirs.read_bytes()
    assert roster(theirs) == ["a", "b"]
    assert cli("join", str(theirs), "--as", "c", home="c").exit_code == 0
    assert cli("merge", str(game), str(theirs), home="b").exit_code == 0
    assert game.read_bytes() == theirs.read_bytes() and roster(game) == ["a", "b", "c"]


# --- any interleaving ---------------------------------------------------------------------------
@dataclass
class Club:
    """Four homes, each with its own copy of one game, and the copies each has been sent and not
    yet taken in (mail in flight: a snapshot of the sender's copy when it was sent)."""

    root: Path
    inbox: dict[str, list[Path]] = field(default_factory=lambda: {seat: [] for seat in SEATS})
    sent: int = 0

    def copy(self, seat: str) -> Path:
        return self.root / f"{seat}.toml"

    def cli(self, seat: str, *args: str) -> tuple[int, str]:
        result = run_cli(self.root / "homes" / seat, *args)
        return result.exit_code, result.stdout + result.stderr

    def act(self, seat: str) -> None:
        """The seat's next entry on its own copy: its join, else what the game asks of it in the
        set-up (its randomness, its shuffle or escrow), else a note."""
        path = str(self.copy(seat))
        if seat not in roster(self.copy(seat)):
            code, said = self.cli(seat, "join", path, "--as", seat)
            assert code == 0, said
            return
        code, said = self.cli(seat, "status", path, "--json")
        assert code == 0, said
        kinds = {item["kind"] for item in json.loads(said)["waiting"] if item["seat"] == seat}
        if "contribute" in kinds:
            code, said = self.cli(seat, "play", path, "--as", seat, "roll")
            if code == 0:
                return
            assert code == 1, said  # the rules want something else of it first
        code, said = self.cli(seat, "note", path, f"note {self.sent}", "--as", seat)
        self.sent += 1
        assert code == 0, said

    def send(self, sender: str, to: str) -> None:
        if sender == to:
            return
        snapshot = self.root / "mail" / f"{self.sent}.toml"
        self.sent += 1
        shutil.copyfile(self.copy(sender), snapshot)
        self.inbox[to].append(snapshot)

    def deliver(self, to: str, index: int) -> None:
        if not self.inbox[to]:
            return
        message = self.inbox[to].pop(index % len(self.inbox[to]))
        code, said = self.cli(to, "merge", str(self.copy(to)), str(message))
        assert code == 0, said

    def exchange(self) -> None:
        """Every home takes in every other's copy: a takes in the others', then they take in a's (a
        merge's result does not depend on the home that makes it)."""
        others = [str(self.copy(other)) for other in SEATS[1:]]
        code, said = self.cli("a", "merge", str(self.copy("a")), *others)
        assert code == 0, said
        for seat in SEATS[1:]:
            code, said = self.cli(seat, "merge", str(self.copy(seat)), str(self.copy("a")))
            assert code == 0, said


Step = tuple[str, str, str | int]
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("act"), st.sampled_from(SEATS), st.just(0)),
        st.tuples(st.just("send"), st.sampled_from(SEATS), st.sampled_from(SEATS)),
        st.tuples(st.just("deliver"), st.sampled_from(SEATS), st.integers(0, 3)),
    ),
    min_size=3,
    max_size=12,
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_any_interleaving_of_entries_and_mail_ends_with_every_copy_identical(steps: list[Step]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        make_key_homes(root / "homes", SEATS)
        (root / "mail").mkdir()
        club = Club(root)
        made = run_cli(
            root / "homes" / "a",
            *("new", str(club.copy("a")), "--game", "il-principe", "--players", ",".join(SEATS)),
            *("--as", "a"),
        )
        assert made.exit_code == 0, made.stderr
        for seat in SEATS[1:]:  # the invitation reached everyone
            shutil.copyfile(club.copy("a"), club.copy(seat))
        for kind, one, two in steps:
            note(f"{kind} {one} {two}")
            if kind == "act":
                club.act(one)
            elif kind == "send":
                club.send(one, str(two))
            else:
                club.deliver(one, int(two))
        club.exchange()
        # each seat whose join was overtaken (or who never joined) joins on its copy, as status asks
        for seat in SEATS:
            if seat not in roster(club.copy(seat)):
                club.act(seat)
        club.exchange()
        copies = {club.copy(seat).read_bytes() for seat in SEATS}
        assert len(copies) == 1
        assert roster(club.copy("a")) == list(SEATS)
        # and the game goes on: the first seat status names makes its entry, and the copies meet
        code, said = club.cli("a", "status", str(club.copy("a")), "--json")
        assert code == 0, said
        club.act(json.loads(said)["waiting"][0]["seat"])
        club.exchange()
        assert len({club.copy(seat).read_bytes() for seat in SEATS}) == 1
        code, said = club.cli("a", "verify", str(club.copy("a")))
        assert code == 0, said


def test_a_merge_that_brings_nothing_leaves_the_file_as_it_is(
    cli: Cli, make_game: Any, tmp_path: Path
) -> None:
    game = make_game()
    older = tmp_path / "older.toml"
    shutil.copyfile(game, older)
    assert cli("note", str(game), "news", "--as", "b", home="b").exit_code == 0
    before = (game.read_bytes(), game.stat().st_mtime_ns)
    result = cli("merge", str(game), str(older), home="b")
    assert result.exit_code == 0, result.stderr
    assert f"{game} already has every entry of {older}" in result.stderr
    assert (game.read_bytes(), game.stat().st_mtime_ns) == before
