"""Every tampering the game file must withstand: each makes `pbem verify` exit 3 naming the place."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Cli
from tests.tamper import edit, entry_blocks, rewrite_entries

# entries of the `game_file` fixture: 0 genesis by a, 1 join b, 2 join c, 3 note b, 4 note a
AUTHORS = ("a", "b", "c", "b", "a")


def first_error(cli: Cli, path: Path) -> str:
    result = cli("verify", str(path))
    assert result.exit_code == 3, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert result.stdout == ""
    return lines[0]


def test_untouched_file_verifies(cli: Cli, game_file: Path) -> None:
    result = cli("verify", str(game_file))
    assert result.exit_code == 0
    assert "5 entries" in result.stdout


ENTRY_FIELDS = [
    (0, "by", "b"),
    (0, "at", "2020-01-01T00:00:00Z"),
    (0, "game_id", "0" * 32),
    (0, "edition", "2003"),
    (0, "seats", ["a", "c", "b"]),
    (0, "components", "sha256:" + "0" * 64),
    (1, "by", "c"),
    (1, "at", "2027-01-01T00:00:00Z"),
    (1, "kind", "note"),
    (2, "prev", "0" * 64),
    (3, "text", "I back Milan"),
    (3, "seq", 4),
    (4, "by", "b"),
]


@pytest.mark.parametrize(("index", "field", "value"), ENTRY_FIELDS)
def test_changed_entry_field_names_the_entry(
    cli: Cli, game_file: Path, index: int, field: str, value: Any
) -> None:
    def change(doc: Any) -> None:
        doc["entry"][index][field] = value

    edit(game_file, change)
    line = first_error(cli, game_file)
    shown = value if field == "seq" else index  # problems quote the seq as written in the file
    assert line.startswith(f"error: {game_file}: entry {shown} (by "), line


@pytest.mark.parametrize("by", ["b\nerror: nothing is wrong here", "\x1b[2Jb", "b\r", "b c"])
def test_a_hostile_author_name_stays_quoted_inside_one_line(cli: Cli, game_file: Path, by: str) -> None:
    """``by`` heads every problem with an entry: a line break in it forged a second error line, a
    terminal escape reached the terminal. A name that is not a seat's is quoted."""
    edit(game_file, lambda doc: doc["entry"][3].__setitem__("by", by))
    for command in ("verify", "status", "log"):
        result = cli(command, str(game_file))
        assert result.exit_code == 3, result.stderr
        assert result.stderr == (
            f"error: {game_file}: entry 3 (by {by!r}): {by!r} is not a seat of this game (seats: a, b, c)\n"
        )


def test_changed_signature_is_refused(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        sig = doc["entry"][3]["sig"]
        doc["entry"][3]["sig"] = ("B" if sig[0] == "A" else "A") + sig[1:]

    edit(game_file, change)
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): signature does not verify against b's key: "
        "the entry was altered, or was signed for another game or by another key"
    )


def test_changed_genesis_option_is_refused(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        doc["entry"][0]["options"]["turn_order"] = "dice"

    edit(game_file, change)
    assert first_error(cli, game_file).startswith(
        f"error: {game_file}: entry 0 (by a): signature does not verify against a's key"
    )


def test_invalid_genesis_option_is_named(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        doc["entry"][0]["options"]["turn_order"] = "coin"

    edit(game_file, change)
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 0 (by a): invalid game setup: "
        "option turn_order: 'coin' is not one of bid, dice"
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "1" * 32),
        ("ruleset", "il-principe"),
        ("edition", "2003"),
        ("seats", ["a", "b"]),
        ("head", "0" * 64),
        ("format", 2),
        ("entries", 4),
    ],
)
def test_changed_header_field_is_refused(cli: Cli, game_file: Path, field: str, value: Any) -> None:
    def change(doc: Any) -> None:
        doc["game"][field] = value

    edit(game_file, change)
    line = first_error(cli, game_file)
    assert line.startswith(f"error: {game_file}: "), line
    assert field in line or "format" in line


def test_added_header_field_is_refused(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc["game"].add("winner", "a"))
    assert first_error(cli, game_file) == f"error: {game_file}: header has unexpected field 'winner'"


def test_removed_entry_is_named(cli: Cli, game_file: Path) -> None:
    rewrite_entries(game_file, lambda blocks: blocks[:2] + blocks[3:])
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): has seq 3 but follows entry 1: "
        "an entry was removed, duplicated or reordered"
    )


def test_duplicated_entry_is_named(cli: Cli, game_file: Path) -> None:
    rewrite_entries(game_file, lambda blocks: [*blocks[:4], blocks[3], *blocks[4:]])
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): repeats an earlier entry by the same seat in this step: "
        "an entry was duplicated"
    )


def test_reordered_entries_are_named(cli: Cli, game_file: Path) -> None:
    rewrite_entries(game_file, lambda blocks: [*blocks[:3], blocks[4], blocks[3]])
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 4 (by a): has seq 4 but follows entry 2: "
        "an entry was removed, duplicated or reordered"
    )


def test_renumbered_reordering_breaks_the_chain(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        entries = doc["entry"]
        entries[3]["text"], entries[4]["text"] = entries[4]["text"], entries[3]["text"]
        entries[3]["by"], entries[4]["by"] = entries[4]["by"], entries[3]["by"]
        entries[3]["sig"], entries[4]["sig"] = entries[4]["sig"], entries[3]["sig"]

    edit(game_file, change)
    assert first_error(cli, game_file).startswith(f"error: {game_file}: entry 3 (by a): ")


def test_truncated_at_an_entry_boundary_is_detected(cli: Cli, game_file: Path) -> None:
    rewrite_entries(game_file, lambda blocks: blocks[:3])
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 2 (by c): the file ends here but its header records 5 entries: "
        "the file was truncated"
    )


def test_truncated_mid_entry_is_detected(cli: Cli, game_file: Path) -> None:
    text = game_file.read_text(encoding="utf-8")
    cut = text.rindex("sig = ")
    game_file.write_text(text[: cut + 20], encoding="utf-8")
    assert first_error(cli, game_file).startswith(f"error: {game_file}: not a valid TOML file")


def test_truncated_before_the_signature_line_is_detected(cli: Cli, game_file: Path) -> None:
    text = game_file.read_text(encoding="utf-8")
    game_file.write_text(text[: text.rindex("sig = ")], encoding="utf-8")
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 4 (by a): has no signature (field 'sig' is missing)"
    )


def test_entry_spliced_from_another_game_is_refused(cli: Cli, make_game: Callable[..., Path]) -> None:
    ours = make_game(notes=(("b", "one"), ("a", "two")), name="ours.toml")
    theirs = make_game(notes=(("b", "one"), ("a", "two")), name="theirs.toml")
    _, their_blocks = entry_blocks(theirs.read_text(encoding="utf-8"))
    rewrite_entries(ours, lambda blocks: [*blocks[:3], their_blocks[3], *blocks[4:]])
    assert first_error(cli, ours).startswith(f"error: {ours}: entry 3 (by b): ")


def test_entry_appended_from_another_game_is_refused(cli: Cli, make_game: Callable[..., Path]) -> None:
    ours = make_game(notes=(("b", "one"),), name="ours.toml")
    theirs = make_game(notes=(("b", "one"), ("a", "two")), name="theirs.toml")
    _, their_blocks = entry_blocks(theirs.read_text(encoding="utf-8"))

    def splice(doc: Any) -> None:
        doc["game"]["entries"] = 5

    rewrite_entries(ours, lambda blocks: [*blocks, their_blocks[4]])
    edit(ours, splice)
    line = first_error(cli, ours)
    assert line.startswith(f"error: {ours}: entry 4 (by a): does not chain to entry 3"), line


def test_roster_key_replaced_in_roster_table(
    cli: Cli, game_file: Path, make_game: Callable[..., Path]
) -> None:
    other = make_game(seats=("d", "b", "c"), name="other.toml")
    stranger = other.read_text(encoding="utf-8")
    import tomllib

    d_keys = tomllib.loads(stranger)["roster"]["d"]

    def change(doc: Any) -> None:
        doc["roster"]["b"]["sign"] = d_keys["sign"]

    edit(game_file, change)
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 1 (by b): roster keys for 'b' differ from the keys b signed in entry 1"
    )


def test_roster_key_replaced_in_join_entry_breaks_the_chain(
    cli: Cli, game_file: Path, homes: dict[str, Path]
) -> None:
    """An impostor re-signs b's join with their own key: the next entry no longer chains."""
    from pbem.crypto.encoding import b64
    from pbem.crypto.signing import entry_message
    from pbem.keys import KeyStore

    impostor = KeyStore(homes["d"]).secret("d", lambda prompt: None)
    identity = impostor.public("b")

    def change(doc: Any) -> None:
        entry = doc["entry"][1]
        entry["sign"] = b64(identity.sign_public)
        entry["box"] = b64(identity.box_public)
        plain = json.loads(json.dumps(entry.unwrap()))
        entry["sig"] = b64(impostor.sign(entry_message(doc["game"]["id"], plain)))
        doc["roster"]["b"]["sign"] = b64(identity.sign_public)
        doc["roster"]["b"]["box"] = b64(identity.box_public)
        doc["roster"]["b"]["fingerprint"] = identity.fingerprint

    edit(game_file, change)
    assert first_error(cli, game_file).startswith(
        f"error: {game_file}: entry 2 (by c): does not chain to entry 1"
    )


def test_stripped_signature_is_refused(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc["entry"][3].remove("sig"))
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): has no signature (field 'sig' is missing)"
    )


def test_signature_copied_from_another_entry_is_refused(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        doc["entry"][3]["sig"] = doc["entry"][1]["sig"]

    edit(game_file, change)
    assert first_error(cli, game_file).startswith(
        f"error: {game_file}: entry 3 (by b): signature does not verify against b's key"
    )


def test_changed_component_data_is_refused(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc.add("components", {"start_gold": 99}))
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 0 (by a): component data does not match the hash in the genesis entry"
    )


def test_not_toml(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "mail.txt"
    path.write_text("Hi all, here is my move!\n[[[\n", encoding="utf-8")
    line = first_error(cli, path)
    assert line.startswith(f"error: {path}: not a valid TOML file (")


def test_not_utf8(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00junk")
    assert first_error(cli, path) == f"error: {path}: not a pbem game file (not UTF-8 text at byte 0)"


def test_toml_but_not_pbem(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert first_error(cli, path) == f"error: {path}: not a pbem game file: it has no [game] table"


def test_missing_file_is_a_file_access_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("verify", str(tmp_path / "nope.toml"))
    assert result.exit_code == 5
    assert result.stderr == f"error: {tmp_path / 'nope.toml'}: no such file\n"


def test_all_lists_every_problem(cli: Cli, game_file: Path) -> None:
    def change(doc: Any) -> None:
        doc["entry"][1]["at"] = "2030-01-01T00:00:00Z"
        doc["entry"][3]["text"] = "forged"
        doc["game"]["head"] = "0" * 64

    edit(game_file, change)
    result = cli("verify", "--all", str(game_file))
    assert result.exit_code == 3
    prefix = f"error: {game_file}: "
    lines = result.stderr.splitlines()
    assert all(line.startswith(prefix) for line in lines)
    problems = [line.removeprefix(prefix) for line in lines]
    assert [p.split(":")[0] for p in problems] == [
        "entry 1 (by b)",
        "entry 2 (by c)",
        "entry 3 (by b)",
        "entry 4 (by a)",
        "header field 'head' is '" + "0" * 64 + "', but the entries say '" + problems[-1][-65:-1] + "'",
    ]
    assert "signature does not verify" in problems[0]
    assert "does not chain to entry 1" in problems[1]
    assert "signature does not verify" in problems[2]
    assert "does not chain to entry 3" in problems[3]
    assert cli("verify", str(game_file)).stderr == lines[0] + "\n"


def test_json_reports_problems_as_data(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc["entry"][3].__setitem__("text", "forged"))
    result = cli("verify", "--json", "--all", str(game_file))
    assert result.exit_code == 3
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["problems"][0]["seq"] == 3
    assert report["problems"][0]["by"] == "b"
    assert "signature does not verify" in report["problems"][0]["message"]
    assert report["game"]["ruleset"] == "princes-of-the-renaissance"


def test_json_on_success(cli: Cli, game_file: Path) -> None:
    result = cli("verify", "--json", str(game_file))
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["problems"] == []
    assert set(report["roster"]) == {"a", "b", "c"}
    assert report["game"]["entries"] == 5
    assert report["game"]["options"]["turn_order"] == "bid"


def test_json_for_a_file_that_is_not_toml(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("= nope", encoding="utf-8")
    result = cli("verify", "--json", str(path))
    assert result.exit_code == 3
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["problems"][0]["message"].startswith("not a valid TOML file")


def test_every_entry_author_matches_fixture(game_file: Path) -> None:
    import tomllib

    data = tomllib.loads(game_file.read_text(encoding="utf-8"))
    assert tuple(entry["by"] for entry in data["entry"]) == AUTHORS


def test_signature_in_non_canonical_base64_is_refused(cli: Cli, game_file: Path) -> None:
    """Setting the unused low bits of the last base64 digit leaves the bytes but not the text."""
    import base64

    def change(doc: Any) -> None:
        sig = str(doc["entry"][3]["sig"])
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        last = sig[-3]
        doc["entry"][3]["sig"] = sig[:-3] + alphabet[alphabet.index(last) | 1] + sig[-2:]
        assert base64.b64decode(doc["entry"][3]["sig"]) == base64.b64decode(sig)
        assert doc["entry"][3]["sig"] != sig

    edit(game_file, change)
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): its signature is not 64 bytes of base64"
    )


def test_genesis_naming_the_game_by_alias_is_refused(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc["entry"][0].__setitem__("ruleset", "potr"))
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 0 (by a): invalid game setup: ruleset must be the game's full name "
        "'princes-of-the-renaissance', not an alias"
    )


def test_time_with_non_ascii_digits_is_refused(cli: Cli, game_file: Path) -> None:
    edit(game_file, lambda doc: doc["entry"][3].__setitem__("at", "٢٠٢٦-01-01T00:00:00Z"))
    assert first_error(cli, game_file) == (
        f"error: {game_file}: entry 3 (by b): time '٢٠٢٦-01-01T00:00:00Z' is not an RFC 3339 UTC time "
        "like 2026-01-31T12:00:00Z"
    )
