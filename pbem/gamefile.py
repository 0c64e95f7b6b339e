"""Reading and writing game files.

Reads use tomllib (fast, strict). Writes use tomlkit, so comments a player added survive, and are
atomic: the new text goes to a temporary file in the same directory, is flushed to disk, then
renamed over the old file, so the file on disk is always the old or the new version. The status
lines at the top (starting ``# pbem:``) are not signed and are rewritten on every write.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import FileAccessError, GameFileError

STATUS_PREFIX = "# pbem:"
# Bounds no real game reaches, so a hostile file costs little to refuse: a four-player game with
# its hidden deck is about 0.4 MiB and nests five tables deep (an entry's shuffle's proof).
MAX_BYTES = 64 * 2**20
MAX_DEPTH = 16
MAX_VALUES = 2**21


BOM = "\ufeff"


@dataclass(frozen=True)
class LoadedFile:
    path: Path
    raw: bytes
    data: dict[str, Any]

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def text(self) -> str:
        """The file as text with ``\\n`` line ends and no byte-order mark, as pbem writes it."""
        text = self.raw.decode("utf-8").removeprefix(BOM)
        return text.replace("\r\n", "\n") if self.crlf else text

    @property
    def crlf(self) -> bool:
        """Whether every line ends in CR LF, as some mail programs and editors save text."""
        return b"\r\n" in self.raw and self.raw.count(b"\n") == self.raw.count(b"\r\n")

    def like_the_file(self, text: str) -> bytes:
        """``text`` with the file's own line ends and byte-order mark, so a write keeps them."""
        if self.crlf:
            text = text.replace("\n", "\r\n")
        if self.raw.startswith(BOM.encode("utf-8")):
            text = BOM + text
        return text.encode("utf-8")


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FileAccessError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise FileAccessError(f"{path}: is a directory") from None
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot read ({exc.strerror})") from None


def parse(raw: bytes, source: str) -> dict[str, Any]:
    """Parse game file bytes; any failure is an integrity error naming the place. A byte-order
    mark (which some editors put first) is skipped; CR LF line ends read as they are."""
    try:
        text = raw.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{source}: not a pbem game file (not UTF-8 text at byte {exc.start})") from None
    if len(raw) > MAX_BYTES:
        raise GameFileError(f"{source}: {len(raw)} bytes, more than a pbem file ever holds ({MAX_BYTES})")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise GameFileError(f"{source}: values nested too deeply for a pbem file") from None
    except tomllib.TOMLDecodeError as exc:
        if _quoted(text):
            raise GameFileError(
                f"{source}: its lines start with '> ', as a quoted reply in an email does: save the "
                "attachment itself, or remove the quote marks"
            ) from None
        raise GameFileError(f"{source}: not a valid TOML file ({exc})") from None
    problem = shape_problem(data)
    if problem:
        raise GameFileError(f"{source}: {problem}")
    return data


def shape_problem(data: Any) -> str | None:
    """Why parsed TOML is beyond what any pbem file holds (nesting, number of values), or None.
    Walked without recursion, so that a hostile file cannot exhaust the stack of what reads it
    next."""
    count = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"more than {MAX_VALUES} values, more than a pbem file ever holds"
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return f"values nested more than {MAX_DEPTH} deep, deeper than a pbem file ever is"
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return None


def _quoted(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    quoted = [line for line in lines if line.lstrip().startswith(">")]
    return bool(lines) and len(quoted) * 2 > len(lines)


def load(path: Path) -> LoadedFile:
    raw = read_game_bytes(path)
    return LoadedFile(path, raw, parse(raw, str(path)))


def read_game_bytes(path: Path) -> bytes:
    """The bytes of a game file, unparsed; one too large for any game is refused unread."""
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # read_bytes says what is wrong
    if size > MAX_BYTES:
        raise GameFileError(f"{path}: {size} bytes, more than a pbem file ever holds ({MAX_BYTES})")
    return read_bytes(path)


def _item(value: Any) -> Any:
    """Nested tables inside an entry are written inline so each entry stays one block."""
    import tomlkit

    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        for key, item in value.items():
            table[key] = _item(item)
        return table
    if isinstance(value, Sequence) and not isinstance(value, str):
        array = tomlkit.array()
        array.extend(_item(item) for item in value)
        return array
    return value


def entry_table(entry: Mapping[str, Any]) -> Any:
    import tomlkit

    table = tomlkit.table()
    for key, value in entry.items():
        table[key] = _item(value)
    table.add(tomlkit.nl())  # a blank line keeps entries apart for a person reading the email
    return table


def _status_block(lines: Sequence[str]) -> str:
    return "".join(f"{STATUS_PREFIX} {line}\n" for line in lines)


def _strip_status(text: str) -> str:
    body = text.splitlines(keepends=True)
    index = 0
    while index < len(body) and body[index].startswith(STATUS_PREFIX):
        index += 1
    return "".join(body[index:])


def render_new(
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
    components: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    status: Sequence[str],
) -> str:
    import tomlkit

    doc = tomlkit.document()
    doc["game"] = dict(header)
    roster_table = tomlkit.table(is_super_table=True)
    for seat, keys in roster.items():
        roster_table[seat] = dict(keys)
    doc["roster"] = roster_table
    if components:
        doc["components"] = dict(components)
    entry_array = tomlkit.aot()
    for entry in entries:
        entry_array.append(entry_table(entry))
    doc["entry"] = entry_array
    return _status_block(status) + tidy(tomlkit.dumps(doc))


def tidy(text: str) -> str:
    """``text`` laid out one way whatever edits made it: one blank line before each table (none
    between a comment and the table below it), no other run of blank lines, one line end at the
    end. tomlkit's edits leave blank lines that depend on the order they were made in, and copies
    holding the same entries should be the same bytes. A file with a multi-line string (pbem
    writes none) is left as it is: its blank lines may be part of a value."""
    if '"""' in text or "'''" in text:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            if lines and lines[-1]:
                lines.append("")
            continue
        if stripped.startswith("[") and lines and lines[-1] and not lines[-1].lstrip().startswith("#"):
            lines.append("")
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def append_text(
    loaded: LoadedFile,
    entry: Mapping[str, Any],
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
    status: Sequence[str],
) -> str:
    """The file's new text: one more entry, header and roster brought up to date, comments kept.

    Only the part before the first entry is edited through tomlkit and the new entry is appended
    as text, so the cost does not grow with the length of the game. If the file's layout defeats
    that (say, a player moved a table below the entries), the whole file is edited instead, and
    if tomlkit cannot edit that layout either (the entries as one inline array, say), the file is
    written anew, as ``rewrite_entries`` does. Each way the result is read back and compared
    before it is returned.
    """
    quick = _spliced(loaded, [*loaded.data["entry"], entry], header, roster)
    if quick is not None and _reads_back(quick, loaded.data, entry, header, roster):
        return _status_block(status) + quick
    text = _strip_status(loaded.text)
    whole = _edited(lambda: tidy(_edit_head(text, header, roster, entry)))
    if whole is not None and _reads_back(whole, loaded.data, entry, header, roster):
        return _status_block(status) + whole
    entries = [*loaded.data["entry"], entry]
    fresh = render_new(header, roster, loaded.data.get("components", {}), entries, ())
    if not _reads_back(fresh, loaded.data, entry, header, roster):
        raise GameFileError(f"{loaded.path}: the updated file would not read back as written")
    return _status_block(status) + fresh


def _edited(edit: Callable[[], str]) -> str | None:
    """The text ``edit`` makes with tomlkit, or None if tomlkit cannot edit the file's layout:
    tomllib reads some layouts (the header below the entries, a table made of dotted keys) that
    tomlkit's edits reject, and the caller then tries another way."""
    from tomlkit.exceptions import TOMLKitError

    try:
        return edit()
    except (TOMLKitError, LookupError, TypeError, ValueError, AttributeError):
        return None


ENTRY_MARK = "\n[[entry]]\n"
COMPONENTS_MARK = "\n[components"


def _edit_front(text: str, header: Mapping[str, Any], roster: Mapping[str, Mapping[str, Any]]) -> str:
    """``_edit_head`` of the part before the components, which no move changes: they are most of
    a file's head, and reading them with tomlkit cost more than the rest of writing a move. A
    layout that puts the header or roster below them is caught when the result is read back."""
    cut = text.find(COMPONENTS_MARK)
    if cut < 0:
        return _edit_head(text, header, roster)
    return _edit_head(text[: cut + 1], header, roster) + text[cut + 1 :]


def _edit_head(
    text: str,
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
    entry: Mapping[str, Any] | None = None,
) -> str:
    import tomlkit

    doc = tomlkit.parse(text)
    game = doc["game"]
    for key, value in header.items():
        if game.get(key) != value:
            game[key] = value
    if "roster" not in doc:
        doc["roster"] = tomlkit.table(is_super_table=True)
    roster_table = doc["roster"]
    present = list(roster_table)
    missing = [seat for seat in roster if seat not in present]
    # the seats in ``roster``'s order (the game's), whatever order their joins arrived in, so that
    # copies holding the same entries are the same bytes
    order = [seat for seat in roster if seat in present or seat in missing]
    for seat in present:
        if seat not in roster:  # its join was overtaken in a merge: the seat joins again
            del roster_table[seat]
    present = [seat for seat in present if seat in roster]
    if missing and present + missing != order:
        tables = {seat: roster_table[seat] for seat in present}
        for seat in present:
            del roster_table[seat]
        for seat in order:
            roster_table[seat] = tables[seat] if seat in tables else dict(roster[seat])
    else:
        for seat in missing:
            roster_table[seat] = dict(roster[seat])
    for seat in present:
        # a seat handed on to another player: its keys are the new holder's
        if seat in roster and dict(roster_table[seat]) != dict(roster[seat]):
            roster_table[seat] = dict(roster[seat])
    if entry is not None:
        doc["entry"].append(entry_table(entry))
    return tomlkit.dumps(doc)


def _entry_text(entry: Mapping[str, Any]) -> str:
    import tomlkit

    doc = tomlkit.document()
    entries = tomlkit.aot()
    entries.append(entry_table(entry))
    doc["entry"] = entries
    return tomlkit.dumps(doc)


def _reads_back(
    text: str,
    before: Mapping[str, Any],
    entry: Mapping[str, Any] | None,
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
    *,
    entries: Sequence[Mapping[str, Any]] | None = None,
) -> bool:
    """True if ``text`` parses to the old data with exactly the intended changes: the header and
    roster the entries define, and one more ``entry`` or else the whole list ``entries`` (which
    may leave out entries of the old file: those a merge found overtaken)."""
    try:
        after = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    expected = dict(before)
    expected["game"] = {**before["game"], **header}
    if roster or "roster" in before:  # an empty table is not written out
        expected["roster"] = {seat: dict(keys) for seat, keys in roster.items()}
    if entries is not None:
        expected["entry"] = [dict(item) for item in entries]
    else:
        assert entry is not None
        expected["entry"] = [*before["entry"], dict(entry)]
    return after == expected


def rewrite_entries(
    loaded: LoadedFile,
    entries: Sequence[Mapping[str, Any]],
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
    status: Sequence[str],
) -> str:
    """The file's text with its entries replaced by ``entries`` (as after a merge: the file's own,
    those it lacked, less any the merge found overtaken).

    Entries kept keep their text and any comments a player put in them. The entries are moved as
    text and only the part before the first entry is edited, as ``append_text`` does, so the cost
    does not grow with the length of the game; a layout that defeats that is edited whole.
    """
    text = _spliced(loaded, entries, header, roster)
    if text is not None and _reads_back(text, loaded.data, None, header, roster, entries=entries):
        return _status_block(status) + text
    text = _edited(lambda: tidy(_merged_text(loaded, entries, header, roster)))
    if text is None or not _reads_back(text, loaded.data, None, header, roster, entries=entries):
        components = loaded.data.get("components", {})
        text = render_new(header, roster, components, entries, ())
        if not _reads_back(text, loaded.data, None, header, roster, entries=entries):
            raise GameFileError(f"{loaded.path}: the merged file would not read back as written")
    return _status_block(status) + text


def _spliced(
    loaded: LoadedFile,
    entries: Sequence[Mapping[str, Any]],
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
) -> str | None:
    """The file's text with ``entries`` in place of its own: each entry the file holds keeps its
    text (comments included) and the others follow them, in their order; only the part before the
    first entry is edited through tomlkit. None when the file's layout defeats that (each entry
    must begin with its own ``[[entry]]`` line) or an entry of the file's comes after a new one."""
    text = _strip_status(loaded.text)
    cut = text.find(ENTRY_MARK)
    held = loaded.data.get("entry", [])
    if cut < 0 or not isinstance(held, list):
        return None
    chunks = text[cut:].split(ENTRY_MARK)[1:]
    if len(chunks) != len(held):
        return None
    own = {_key(entry): chunk for entry, chunk in zip(held, chunks, strict=True)}
    kept: list[str] = []
    for entry in entries:
        chunk = own.get(_key(entry))
        if chunk is None:
            break
        kept.append(f"[[entry]]\n{chunk}" + ("" if chunk.endswith("\n") else "\n"))
    added = entries[len(kept) :]
    if any(_key(entry) in own for entry in added):
        return None
    head = _edited(lambda: _edit_front(text[: cut + 1], header, roster))
    if head is None:
        return None
    return tidy(head + "".join(kept) + "".join(map(_entry_text, added)))


def _merged_text(
    loaded: LoadedFile,
    entries: Sequence[Mapping[str, Any]],
    header: Mapping[str, Any],
    roster: Mapping[str, Mapping[str, Any]],
) -> str:
    import tomlkit

    doc = tomlkit.parse(_edit_head(_strip_status(loaded.text), header, roster))
    tables = doc["entry"]
    wanted = {_key(entry) for entry in entries}
    # entries the merge left out (overtaken: their seats make them again) leave the file
    for position in range(len(tables) - 1, -1, -1):
        if _key(tables[position]) not in wanted:
            del tables[position]
    present = [_key(table) for table in tables]
    kept = 0
    for position, entry in enumerate(entries):
        if kept < len(present) and present[kept] == _key(entry):
            kept += 1
            continue
        if position < len(tables):
            tables.insert(position, entry_table(entry))
        else:
            tables.append(entry_table(entry))
    return tomlkit.dumps(doc)


def same_entries(loaded: LoadedFile, entries: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the file holds exactly ``entries``, in that order (a merge that brought nothing)."""
    held = loaded.data.get("entry", [])
    return isinstance(held, list) and list(map(_key, held)) == list(map(_key, entries))


def _key(entry: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """What tells one entry from another in a file: its step, seat and signature (a seat's entry
    made again after the first was overtaken may be of the same step)."""
    return (entry.get("seq"), entry.get("by"), entry.get("sig"))


def write_new(path: Path, text: str) -> None:
    """Create a game file that must not exist yet."""
    if path.exists():
        raise FileAccessError(f"{path}: already exists; choose another name")
    _atomic_write(path, text.encode("utf-8"), expect_digest=None)


def replace(loaded: LoadedFile, text: str) -> None:
    """Replace a file read earlier, refusing if it changed on disk since it was read; the file
    keeps its line ends and byte-order mark.

    The caller holds the file's lock (``locked``) from before its read; taken here too, so that
    the check that the file is unchanged and the rename are one step against any other pbem."""
    with locked(loaded.path):
        _atomic_write(loaded.path, loaded.like_the_file(text), expect_digest=loaded.digest)


def locked(path: Path) -> AbstractContextManager[None]:
    """The game file's lock (see pbem.locks), held from a command's read of the file to its
    write, so that a second command changing it reads what the first wrote."""
    from pbem import locks

    return locks.held(path)


def write_over(path: Path, data: bytes) -> None:
    """Write a file pbem makes from a game (a picture): made again each turn, so an older one is
    replaced, whole or not at all."""
    _atomic_write(path, data, expect_digest=None, overwrite=True)


def _atomic_write(path: Path, data: bytes, expect_digest: str | None, *, overwrite: bool = False) -> None:
    if path.is_symlink():
        # A game file kept elsewhere and linked to: the new version replaces the file the link
        # points to, and the link stays.
        path = path.resolve()
    if expect_digest is not None and _read_only(path):
        raise FileAccessError(f"{path}: is read-only; pbem leaves it as it is (make it writable first)")
    directory = path.parent if str(path.parent) else Path(".")
    tmp: Path | None = None
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        fd, tmp = temporary_beside(path, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if expect_digest is not None:
            current = hashlib.sha256(read_bytes(path)).hexdigest()
            if current != expect_digest:
                raise FileAccessError(
                    f"{path}: changed on disk while pbem was working; run the command again"
                )
        elif path.exists() and not overwrite:
            raise FileAccessError(f"{path}: already exists; choose another name")
        os.replace(tmp, path)
        _sync_directory(directory)
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot write ({exc.strerror})") from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


STALE_SECONDS = 600  # a write takes moments: a temporary file this old was left by a killed one


def temporary_beside(path: Path, mode: int) -> tuple[int, Path]:
    """A new temporary file in ``path``'s folder (open for writing, ``mode``), named after it,
    once the temporary files a killed write left there are removed: so none is ever in the way,
    and none lingers to puzzle a player listing the folder."""
    import tempfile
    import time

    directory = path.parent if str(path.parent) else Path(".")
    prefix = f".{path.name}."
    for old in directory.glob(f"{glob_escape(prefix)}*.tmp"):
        try:
            if time.time() - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()
        except OSError:
            continue  # another pbem's, or already gone
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    os.chmod(name, mode)
    return fd, Path(name)


def glob_escape(text: str) -> str:
    return "".join(f"[{char}]" if char in "*?[" else char for char in text)


def _read_only(path: Path) -> bool:
    """A file nobody may write to (checked on the mode, since the superuser may write anyway)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def _sync_directory(directory: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def render_table_log(log: Mapping[str, Any], status: Sequence[str]) -> str:
    """A companion-mode table log as TOML: the header, the actions (one block each, so a person
    can follow the game), the undone actions, then the component values, which are long."""
    import tomlkit

    doc = tomlkit.document()
    header = tomlkit.table()
    for key, value in log["table"].items():
        header[key] = _item(value)
    doc["table"] = header
    for name in ("action", "undone"):
        if log[name]:
            tables = tomlkit.aot()
            for action in log[name]:
                tables.append(entry_table(action))
            doc[name] = tables
    if log["components"]:
        doc["components"] = dict(log["components"])
    return _status_block(status) + tomlkit.dumps(doc)


# --- the component templates pbem ships ----------------------------------------------------------
def shipped_templates() -> Path:
    """Where the templates pbem ships are: inside the installed package, or at the top of a source
    checkout. They are part of the program, read like its code, never a user's file."""
    import pbem

    package = Path(pbem.__file__).parent
    for candidate in (package / "templates", package.parent / "templates"):
        if candidate.is_dir():
            return candidate
    return package / "templates"


def shipped_template(name: str) -> dict[str, Any]:
    """A template pbem ships, with its sources; one that is missing or unreadable is a broken
    installation, said in one line."""
    path = shipped_templates() / f"{name}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameFileError(f"the template {name!r} pbem ships cannot be read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise GameFileError(f"the template {name!r} pbem ships is not valid TOML: {exc}") from None
