"""The game library: pbem new and join (and every write) remember where each game is kept, so a
command takes a game id, or the start of one, in place of the file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from pbem.mail.library import Kept, Library
from tests.conftest import Cli


def game_id(cli: Cli, path: Path) -> str:
    verified = json.loads(cli("verify", str(path), "--json").stdout)
    return str(verified["game"]["id"])


def test_a_game_is_found_by_its_id_or_the_start_of_it(
    cli: Cli, tmp_path: Path, homes: dict[str, Path]
) -> None:
    game = tmp_path / "game.toml"
    assert cli("new", str(game), "--game", "potr", "--players", "a,b,c", "--as", "a", home="a").exit_code == 0
    identifier = game_id(cli, game)
    for name in (identifier, identifier[:6]):
        status = cli("status", name, home="a")
        assert status.exit_code == 0, status.stderr
        assert identifier in status.stdout
    assert cli("verify", identifier[:8], home="a").exit_code == 0
    assert Library(homes["a"]).games()[identifier].path == game.resolve()
    # b's home knows the game once b has joined it
    assert cli("status", identifier[:6], home="b").exit_code == 2  # no game of that id there
    assert cli("join", str(game), "--as", "b", home="b").exit_code == 0
    assert cli("status", identifier[:6], home="b").exit_code == 0


def test_a_prefix_that_fits_two_games_asks_for_more(cli: Cli, homes: dict[str, Path], tmp_path: Path) -> None:
    library = Library(homes["a"])
    library.save({"ab120" + "0" * 27: Kept("ab120" + "0" * 27, tmp_path / "one.toml"),
                  "ab121" + "0" * 27: Kept("ab121" + "0" * 27, tmp_path / "two.toml")})  # fmt: skip
    result = cli("status", "ab12", home="a")
    assert result.exit_code == 2
    assert "'ab12' is the start of more than one game's id (ab1200000000, ab1210000000)" in result.stderr


def test_a_game_moved_is_found_where_it_was_last_written(
    cli: Cli, make_game: Callable[..., Path], tmp_path: Path, homes: dict[str, Path]
) -> None:
    game = make_game()
    moved = tmp_path / "elsewhere.toml"
    shutil.copyfile(game, moved)
    assert cli("note", str(moved), "hello", "--as", "a", home="a").exit_code == 0
    assert Library(homes["a"]).games()[game_id(cli, moved)].path == moved.resolve()


def test_the_messages_fetch_passed_over_are_remembered_per_folder_while_its_uids_hold(tmp_path: Path) -> None:
    """By UID, which names the same message only while the folder's UIDVALIDITY is the same: a new
    UIDVALIDITY forgets them (they are read once more, and remembered again). A file lost or
    damaged forgets them too, and stops nothing."""
    from pbem.mail.library import PassedOver

    memory = PassedOver(tmp_path)
    inbox, other = "imap://b@mail.example.org:993/INBOX", "imap://b@mail.example.org:993/pbem"
    assert memory.uids(inbox, "17") == set()
    memory.keep(inbox, "17", ["12", "3"])
    memory.keep(other, "4", ["1"])
    assert memory.uids(inbox, "17") == {"3", "12"} and memory.uids(other, "4") == {"1"}
    assert memory.uids(inbox, "18") == set(), "another UIDVALIDITY: other messages"
    memory.keep(inbox, "17", ["12"])  # 3 was read since, or deleted
    assert memory.uids(inbox, "17") == {"12"}
    memory.keep(inbox, "17", [])
    assert memory.uids(inbox, "17") == set() and memory.uids(other, "4") == {"1"}
    assert (memory.path.stat().st_mode & 0o777) == 0o600
    memory.path.write_text("[folder\n", encoding="utf-8")
    assert memory.uids(other, "4") == set()
    memory.keep(other, "4", ["2"])
    assert memory.uids(other, "4") == {"2"}


def test_the_thread_of_a_game_is_its_first_message(tmp_path: Path) -> None:
    """The Message-ID every message of the game answers: the first a message sent or applied
    names (the root its References give), else that message's own; kept once known, and never a
    header that is not one Message-ID (it arrived in a message anybody could write). An index of
    an earlier version, which kept the last ten, gives its oldest."""
    library = Library(tmp_path)
    game, older = "cd" * 16, "ef" * 16
    library.save({game: Kept(game, tmp_path / "game.toml")})
    library.update(game, message_id="not an id", root="<a@b> <c@d>")
    assert library.games()[game].root == ""
    library.update(game, message_id="<2@pbem.test>", root="<1@pbem.test>")
    library.update(game, message_id="<3@pbem.test>")
    library.update(game, message_id="<4@pbem.test>", root="<0@pbem.test>")
    assert library.games()[game].root == "<1@pbem.test>"
    text = library.index.read_text(encoding="utf-8")
    library.index.write_text(
        text + f'\n[games.{older}]\npath = "old.toml"\nthread = ["x", "<7@pbem.test>", "<8@pbem.test>"]\n',
        encoding="utf-8",
    )
    assert library.games()[older].root == "<7@pbem.test>"
