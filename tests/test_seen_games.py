"""A home remembers the furthest copy of each game it has verified, so an older copy (a rollback)
or another history of the game (a fork) is noticed: TUF's rollback and freeze attacks."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from pbem.cli.seen_heads import compare, short
from tests.conftest import Cli


def entries_of(*steps: str) -> list[tuple[str, frozenset[str]]]:
    """Steps written as ``"h1:x@a,y@b"``: the step's hash, then its entries (hash@seat)."""
    return [(step.split(":")[0], frozenset(step.split(":")[1].split(","))) for step in steps]


def test_a_copy_is_the_same_newer_older_apart_overtaken_or_a_fork() -> None:
    seen = entries_of("s0:g@a", "s1:j@b", "s2:n@a")
    assert compare(entries_of("s0:g@a", "s1:j@b", "s2:n@a"), seen).verdict == "same"
    assert compare(entries_of("s0:g@a", "s1:j@b", "s2:n@a", "s3:m@c"), seen).verdict == "ahead"
    assert compare(entries_of("s0:g@a", "s1:j@b"), seen).verdict == "behind"
    assert compare(entries_of("s0:g@a"), []).verdict == "new"
    # step 2 seen with a's entry, now with c's beside it, and the game went on: newer
    joined = entries_of("s0:g@a", "s1:j@b", "t2:n@a,p@c", "t3:q@b")
    assert compare(joined, seen).verdict == "ahead"
    # the same step, each with an entry the other lacks, neither further: merge them
    apart = compare(entries_of("s0:g@a", "s1:j@b", "t2:p@c"), seen)
    assert (apart.verdict, apart.at) == ("apart", 2)
    # the game went on without a's entry of step 2 (b went on from c's alone): overtaken, a move
    # made at the same time as c's, whoever's home it is; a makes it again
    on = entries_of("s0:g@a", "s1:j@b", "t2:p@c", "t3:q@b")
    assert compare(on, seen, frozenset({"a"})).verdict == "overtaken"
    elsewhere = compare(on, seen, frozenset({"c"}))
    assert (elsewhere.verdict, elsewhere.at, elsewhere.lost, elsewhere.own) == ("overtaken", 2, ("a",), False)
    assert elsewhere.line().endswith("a makes it again on this copy")
    assert not elsewhere.refuses_writes
    # the step seen went on too, by a seat other than c: two histories that each go on
    both = entries_of("s0:g@a", "s1:j@b", "s2:n@a", "s3:r@b")
    fork = compare(on, both, frozenset({"c"}))
    assert (fork.verdict, fork.at, fork.lost) == ("fork", 2, ("a", "b"))
    assert fork.refuses_writes and not compare(on, both, frozenset({"a", "b"})).refuses_writes
    # two histories that each went on, and the copy's bears more: a merge keeps it, so a home that
    # saw the other says the entries it held were overtaken
    longer = entries_of("s0:g@a", "s1:j@b", "t2:p@c", "t3:q@b", "t4:z@c")
    other = entries_of("s0:g@a", "s1:j@b", "s2:n@a", "s3:r@d")
    kept = compare(longer, other, frozenset({"c"}))
    assert (kept.verdict, kept.at, kept.lost, kept.own) == ("overtaken", 2, ("a", "d"), False)
    assert compare(other, longer, frozenset({"a"})).verdict == "fork"
    # a's own entry gone, and nobody but a going on without it: a's second history, a fork
    alone = compare(entries_of("s0:g@a", "s1:j@b", "t2:p@c", "t3:q@a"), seen, frozenset({"c"}))
    assert alone.verdict == "fork"


def test_an_older_copy_is_said_and_not_played_on(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game(roll=True)
    older = tmp_path / "older.toml"
    shutil.copyfile(game, older)
    assert cli("play", str(game), "bid", "3", "--as", "a", home="a").exit_code == 0
    status = cli("status", str(older), home="a")
    assert status.exit_code == 0
    assert "this copy is behind one this home has verified: it ends at step 5" in status.stderr
    before = older.read_bytes()
    refused = cli("play", str(older), "bid", "4", "--as", "a", home="a")
    assert (
        refused.exit_code == 3 and "is behind" in refused.stderr and "nothing was written" in refused.stderr
    )
    assert older.read_bytes() == before
    verified = cli("verify", str(older), home="a")
    assert verified.exit_code == 0 and "warning:" in verified.stderr and "is behind" in verified.stderr
    # another home, which never saw the newer copy, has nothing to say
    assert cli("status", str(older), home="c").stderr == ""


def test_verify_prints_the_head_to_compare_by_phone(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game()
    import tomllib

    head = tomllib.loads(game.read_text(encoding="utf-8"))["game"]["head"]
    out = cli("verify", str(game), home="a").stdout
    assert f"  head {short(head)} (step 2): compare it with the others'" in out


def test_a_fork_is_refused_by_verify_naming_both_heads(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    """c's home saw b's note at step 3 and a's after it; a copy where b signed another note at
    step 3 (on another machine) and a played on is a second history of the game."""
    game = make_game()
    other = tmp_path / "other.toml"
    shutil.copyfile(game, other)
    assert cli("note", str(game), "I back Venice", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(game), "agreed", "--as", "a", home="a").exit_code == 0
    assert cli("verify", str(game), home="c").exit_code == 0
    assert cli("note", str(other), "I back Milan", "--as", "b", home="b@2").exit_code == 0
    assert cli("note", str(other), "so do I", "--as", "a", home="a@2").exit_code == 0
    result = cli("verify", str(other), home="c")
    assert result.exit_code == 3
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: {other}: this copy forks from the one this home has verified, at step 3")
    assert "a, b's entry seen here is gone" in line and "head" in line and "seen: step 4" in line
    refused = cli("note", str(other), "hello", "--as", "c", home="c")
    assert refused.exit_code == 3 and "forks" in refused.stderr


def test_a_move_of_ones_own_overtaken_by_the_others_is_made_again(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    """Everyone adds randomness to the setup draw at once: a on its copy, b and c one after the
    other on theirs, and c's copy goes on. a's roll is lost to that history: a is told so and
    rolls again on it (a race of the protocol, not an attack)."""
    game = make_game()
    theirs = tmp_path / "theirs.toml"
    shutil.copyfile(game, theirs)
    assert cli("play", str(game), "roll", "--as", "a", home="a").exit_code == 0
    for seat in ("b", "c"):
        assert cli("play", str(theirs), "roll", "--as", seat, home=seat).exit_code == 0
    status = cli("status", str(theirs), home="a")
    assert status.exit_code == 0 and "goes on without a's move of step 3" in status.stderr
    again = cli("play", str(theirs), "roll", "--as", "a", home="a")
    assert again.exit_code == 0, again.stderr
    assert cli("status", str(theirs), home="a").stderr == ""


def test_copies_apart_by_one_step_are_merged_not_played_on(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path
) -> None:
    game = make_game()
    other = tmp_path / "other.toml"
    shutil.copyfile(game, other)
    assert cli("note", str(game), "mine", "--as", "a", home="a").exit_code == 0
    assert cli("note", str(other), "yours", "--as", "c", home="c").exit_code == 0
    refused = cli("note", str(other), "and mine", "--as", "a", home="a")
    assert refused.exit_code == 3 and "combine them with pbem merge" in refused.stderr
    assert cli("merge", str(game), str(other), home="a").exit_code == 0
    assert cli("note", str(game), "and mine", "--as", "a", home="a").exit_code == 0
