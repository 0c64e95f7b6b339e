"""Copies that grew apart: entries made at the same time merge; equivocation is caught with proof."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Cli
from tests.tamper import edit


def copies(path: Path, *names: str) -> list[Path]:
    made = []
    for name in names:
        target = path.with_name(name)
        shutil.copy(path, target)
        made.append(target)
    return made


def entries(path: Path) -> list[dict[str, object]]:
    return list(tomllib.loads(path.read_text(encoding="utf-8"))["entry"])


def test_parallel_joins_merge_into_one_step(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    assert cli("join", str(copy_c), "--as", "c", home="c").exit_code == 0
    assert cli("join", str(copy_b), "--as", "b", home="b").exit_code == 0
    result = cli("merge", str(copy_c), str(copy_b))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"merged 1 new entry into {copy_c} (3 entries in all)",
        "setup draw: waiting for a, b, c to add randomness; a to shuffle",
    ]
    assert "# pbem: setup draw: waiting for a, b, c to add randomness; a to shuffle\n" in (
        copy_c.read_text(encoding="utf-8")
    )
    merged = entries(copy_c)
    assert [(e["seq"], e["by"]) for e in merged] == [(0, "a"), (1, "b"), (1, "c")]
    assert (
        merged[1]["prev"] == merged[2]["prev"] == merged[0]["prev"] or merged[1]["prev"] == merged[2]["prev"]
    )
    assert cli("verify", str(copy_c)).exit_code == 0
    # the next entry chains to the whole step
    assert cli("note", str(copy_c), "welcome", "--as", "a", home="a").exit_code == 0
    assert entries(copy_c)[-1]["seq"] == 2
    assert cli("verify", str(copy_c)).exit_code == 0


def test_merge_gives_the_same_entries_whichever_copy_is_first(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    cli("join", str(copy_b), "--as", "b", home="b")
    cli("join", str(copy_c), "--as", "c", home="c")
    one, two = game.with_name("one.toml"), game.with_name("two.toml")
    assert cli("merge", str(copy_b), str(copy_c), "-o", str(one)).exit_code == 0
    assert cli("merge", str(copy_c), str(copy_b), "-o", str(two)).exit_code == 0
    assert entries(one) == entries(two)
    assert tomllib.loads(one.read_text())["game"]["head"] == tomllib.loads(two.read_text())["game"]["head"]


def test_merge_with_output_leaves_the_inputs_alone(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    cli("join", str(copy_b), "--as", "b", home="b")
    cli("join", str(copy_c), "--as", "c", home="c")
    before = copy_b.read_bytes(), copy_c.read_bytes()
    out = game.with_name("out.toml")
    assert cli("merge", str(copy_b), str(copy_c), "-o", str(out)).exit_code == 0
    assert (copy_b.read_bytes(), copy_c.read_bytes()) == before
    result = cli("merge", str(copy_b), str(copy_c), "-o", str(out))
    assert (result.exit_code, result.stderr) == (5, f"error: {out}: already exists; choose another name\n")


def test_merge_with_nothing_new(cli: Cli, game_file: Path) -> None:
    (other,) = copies(game_file, "other.toml")
    before = game_file.read_bytes()
    result = cli("merge", str(game_file), str(other))
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == f"{game_file} already has every entry of {other}"
    assert tomllib.loads(game_file.read_text()) == tomllib.loads(before.decode())


def test_merge_keeps_comments_of_the_first_copy(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    cli("join", str(copy_b), "--as", "b", home="b")
    cli("join", str(copy_c), "--as", "c", home="c")
    copy_b.write_text(copy_b.read_text().replace("seq = 1\n", "seq = 1  # b, from the train\n"))
    assert cli("merge", str(copy_b), str(copy_c)).exit_code == 0
    assert "seq = 1  # b, from the train" in copy_b.read_text()
    assert cli("verify", str(copy_b)).exit_code == 0


def test_equivocation_is_refused_with_both_entries_as_proof(cli: Cli, game_file: Path) -> None:
    first, second = copies(game_file, "first.toml", "second.toml")
    assert cli("note", str(first), "I bid high", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(second), "I bid low", "--as", "b", home="b@2").exit_code == 0
    before = first.read_bytes()
    result = cli("merge", str(first), str(second))
    assert result.exit_code == 6
    assert (
        result.stderr == f"error: b signed two different entries for step 5 (one in {second}): equivocation\n"
    )
    proof = tomllib.loads(result.stdout)["entry"]
    assert [entry["text"] for entry in proof] == ["I bid high", "I bid low"]
    assert first.read_bytes() == before


def test_verify_reports_equivocation_in_one_file(cli: Cli, game_file: Path) -> None:
    first, second = copies(game_file, "first.toml", "second.toml")
    cli("note", str(first), "I bid high", "--as", "b", home="b")
    cli("note", str(second), "I bid low", "--as", "b", home="b@2")
    text = second.read_text()
    first.write_text(first.read_text() + text[text.rindex("[[entry]]") :])
    result = cli("verify", str(first))
    assert result.exit_code == 6
    assert result.stderr.splitlines()[0] == (
        f"error: {first}: entry 5 (by b): b signed two different entries for step 5: "
        "equivocation (both entries are the proof)"
    )
    assert len(tomllib.loads(result.stdout)["entry"]) == 2


def test_an_entry_the_game_went_on_without_is_overtaken_and_left_out(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    """c builds on b's note alone; a's note of that step, made meanwhile on another copy, is
    overtaken: the merge keeps the history that went on and says a makes it again."""
    game = make_game(joined=("b", "c"))
    copy_1, copy_2 = copies(game, "one.toml", "two.toml")
    assert cli("note", str(copy_1), "first", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(copy_1), "built on b's note", "--as", "c", home="c").exit_code == 0
    assert cli("note", str(copy_2), "meanwhile", "--as", "a", home="a").exit_code == 0
    before = copy_1.read_bytes()
    result = cli("merge", str(copy_2), str(copy_1))
    assert result.exit_code == 0, result.stderr
    assert f"{copy_2}: a's note of step 3 was overtaken" in result.stderr
    assert entries(copy_2) == tomllib.loads(before.decode("utf-8"))["entry"]
    assert [entry.get("text") for entry in entries(copy_2)][-2:] == ["first", "built on b's note"]


def test_merge_refuses_another_game(cli: Cli, make_game: Callable[..., Path]) -> None:
    ours = make_game(name="ours.toml")
    theirs = make_game(name="theirs.toml")
    result = cli("merge", str(ours), str(theirs))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {theirs} is another game (game ")


def test_merge_refuses_a_tampered_copy(cli: Cli, game_file: Path) -> None:
    (other,) = copies(game_file, "other.toml")
    edit(other, lambda doc: doc["entry"][3].__setitem__("text", "forged"))
    result = cli("merge", str(game_file), str(other))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {other}: entry 3 (by b): signature does not verify")


def test_entries_of_a_step_out_of_seat_order_are_refused(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    cli("join", str(copy_b), "--as", "b", home="b")
    cli("join", str(copy_c), "--as", "c", home="c")
    assert cli("merge", str(copy_b), str(copy_c)).exit_code == 0

    def swap(doc: object) -> None:
        items = doc["entry"]  # type: ignore[index]
        first, second = items[1], items[2]
        items[1], items[2] = second, first

    edit(copy_b, swap)
    result = cli("verify", str(copy_b))
    assert result.exit_code == 3
    assert (
        result.stderr
        == f"error: {copy_b}: entry 1 (by b): entries of step 1 are not in seat order (b after c)\n"
    )


def test_reordered_entries_by_one_seat_are_not_called_equivocation(cli: Cli, game_file: Path) -> None:
    from tests.tamper import rewrite_entries

    # b's join (entry 1) and b's note (entry 3) change places
    rewrite_entries(game_file, lambda blocks: [blocks[0], blocks[3], blocks[2], blocks[1], blocks[4]])
    result = cli("verify", "--all", str(game_file))
    assert result.exit_code == 3
    assert "equivocation" not in result.stderr
    assert result.stderr.splitlines()[0] == (
        f"error: {game_file}: entry 3 (by b): 'b' has not joined, so has no key to sign with"
    )


def test_merging_a_copy_that_already_holds_an_equivocation(cli: Cli, game_file: Path) -> None:
    first, second = copies(game_file, "first.toml", "second.toml")
    cli("note", str(first), "I bid high", "--as", "b", home="b")
    cli("note", str(second), "I bid low", "--as", "b", home="b@2")
    text = second.read_text()
    first.write_text(first.read_text() + text[text.rindex("[[entry]]") :])
    result = cli("merge", str(game_file), str(first))
    assert result.exit_code == 6
    assert result.stderr.startswith(f"error: {first}: entry 5 (by b): b signed two different entries")
    assert len(tomllib.loads(result.stdout)["entry"]) == 2


def test_a_merged_file_reads_like_a_written_one(cli: Cli, make_game: Callable[..., Path]) -> None:
    game = make_game(joined=())
    copy_b, copy_c = copies(game, "b.toml", "c.toml")
    cli("join", str(copy_b), "--as", "b", home="b")
    cli("join", str(copy_c), "--as", "c", home="c")
    cli("merge", str(copy_b), str(copy_c))
    assert "\n\n\n" not in copy_b.read_text()


def test_two_entries_revealing_one_link_are_equivocation_whatever_their_steps(
    cli: Cli, game_file: Path
) -> None:
    """b's note at step 5 on one copy, and another at step 6 on a copy where a wrote step 5
    (b on another machine): they cannot both be in the game, and both reveal the same link of b's
    randomness chain, which proves b signed two histories."""
    first, second = copies(game_file, "first.toml", "second.toml")
    assert cli("note", str(first), "I back Venice", "--as", "b", home="b").exit_code == 0
    assert cli("note", str(second), "hello", "--as", "a", home="a").exit_code == 0
    assert cli("note", str(second), "I back Milan", "--as", "b", home="b@2").exit_code == 0
    before = first.read_bytes()
    result = cli("merge", str(first), str(second))
    assert result.exit_code == 6, result.stderr
    assert result.stderr == (
        f"error: b signed two different entries, for steps 5 and 6 (one in {second}), that reveal the "
        "same link of its randomness chain: two histories of the game, equivocation\n"
    )
    proof = tomllib.loads(result.stdout)["entry"]
    assert [(entry["seq"], entry["text"]) for entry in proof] == [(5, "I back Venice"), (6, "I back Milan")]
    assert proof[0]["rand"] == proof[1]["rand"]
    assert first.read_bytes() == before


def test_an_edited_seq_does_not_frame_a_seat_for_equivocation(
    cli: Cli, make_game: Callable[..., Path]
) -> None:
    """b's two notes in a row: moving the second into the first's step by editing its seq breaks
    its signature, and an entry b did not sign proves nothing about b."""
    game = make_game(notes=(("b", "one"), ("b", "two")))
    edit(game, lambda doc: doc["entry"][4].__setitem__("seq", 3))
    result = cli("verify", "--all", str(game))
    assert result.exit_code == 3, result.stderr
    assert "equivocation" not in result.stderr and result.stdout == ""
    assert result.stderr.splitlines()[0] == (
        f"error: {game}: entry 3 (by b): signature does not verify against b's key: the entry was "
        "altered, or was signed for another game or by another key"
    )


def test_a_forged_entry_beside_a_real_one_is_not_equivocation(cli: Cli, game_file: Path) -> None:
    """Two notes by b for one step, the first then edited: only one of them is b's, so the file
    shows tampering (exit 3), and the real note is refused as a second entry in the step."""
    first, second = copies(game_file, "first.toml", "second.toml")
    cli("note", str(first), "I bid high", "--as", "b", home="b")
    cli("note", str(second), "I bid low", "--as", "b", home="b@2")
    text = second.read_text()
    first.write_text(first.read_text() + text[text.rindex("[[entry]]") :])
    edit(first, lambda doc: doc["entry"][5].__setitem__("text", "I bid nothing"))
    result = cli("verify", "--all", str(first))
    assert result.exit_code == 3, result.stderr
    assert "equivocation" not in result.stderr and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {first}: entry 5 (by b): signature does not verify")
    assert lines[1] == (
        f"error: {first}: entry 5 (by b): b already has an entry in step 5: a step holds at most one "
        "entry per seat"
    )
