"""Property tests of the signed data: canonical bytes, the TOML write/read cycle and tamper detection.

Keys are made once per session (without a passphrase, so no scrypt) and every game is built through
the library: ``ledger.plan``/``new_game``/``join``/``note`` sign the entries, ``gamefile.render_new``
and ``gamefile.append_text`` write them, ``gamefile.parse`` (tomllib) reads them back and
``ledger.audit`` judges the result.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from pbem import gamefile
from pbem.crypto.canonical import INT_MAX, INT_MIN, canonical_bytes, check_signable
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, registry
from pbem.engine.ledger import Audit, Ledger
from pbem.errors import GameFileError
from pbem.keys import KeyStore

SEATS = ("a", "b", "c")
GAME = "file-only"  # a game without rules: these tests are about the file itself
GAME_ID = "0123456789abcdef0123456789abcdef"
CREATED = "2026-01-01T00:00:00Z"
AT = "2026-02-03T04:05:06Z"
COMPONENTS: dict[str, Any] = {"gold": 10, "map": {"cities": ["Firenze", "Venezia"], "rivers": 2}}
BASE_NOTES = (("a", "I back Venice"), ("b", "agreed"), ("c", 'no "deal"\nyet'))

TomlPath = tuple[str | int, ...]
Keys = dict[str, SecretKeys]

# --- strategies ------------------------------------------------------------------------------
# Characters a TOML string can carry (anything but surrogates), with the awkward ones made common:
# C0 controls, DEL, C1 controls, quotes, backslashes, line and paragraph separators, a BOM, emoji.
AWKWARD = (
    "\x00\x01\x08\x0b\x0c\x1b\x1f\x7f\x80\x85\x9f\t\n\r\"'\\ #=.[]{},\u00a0\u2028\u2029\ufeff\ufffd"
    "\U0001f600\U0001f1ee\U0001f1f9\u200d\U0010ffff"
)
FRAGMENTS = ('"""', "'''", "\r\n", "\\u0041", "\\n", "# pbem: x", "[game]", "[[entry]]", "\n# pbem: y\n")
CHARS = st.characters(codec="utf-8") | st.sampled_from(AWKWARD)
TEXT = st.text(CHARS, max_size=30) | st.lists(
    st.sampled_from(FRAGMENTS) | st.text(CHARS, max_size=5), max_size=6
).map("".join)
KEY = st.text(CHARS, max_size=8)
INT64 = st.integers(INT_MIN, INT_MAX)
LEAF: st.SearchStrategy[Any] = st.one_of(TEXT, INT64, st.booleans())
SIGNABLE: st.SearchStrategy[Any] = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEY, inner, max_size=4),
    max_leaves=16,
)
SIGNABLE_TABLE: st.SearchStrategy[dict[str, Any]] = st.dictionaries(KEY, SIGNABLE, max_size=5)


def _is_note_text(text: str) -> bool:
    return bool(text.strip()) and len(text) <= ledger.NOTE_LIMIT


NOTE_TEXT = st.one_of(
    st.text(CHARS, min_size=1, max_size=200),
    TEXT,
    # long notes, up to the 4000-character limit
    st.builds(
        lambda unit, count: (unit * count)[: ledger.NOTE_LIMIT],
        st.text(CHARS, min_size=1, max_size=3),
        st.integers(1, ledger.NOTE_LIMIT),
    ),
).filter(_is_note_text)

# Every kind of value a TOML parser can hand over, signable or not.
TIMES = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31))
TOML_LEAF: st.SearchStrategy[Any] = st.one_of(
    TEXT,
    INT64,
    st.booleans(),
    st.floats(),
    TIMES,
    TIMES.map(lambda moment: moment.replace(tzinfo=UTC)),
    st.dates(),
    st.times(),
)
TOML_VALUE: st.SearchStrategy[Any] = st.recursive(
    TOML_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEY, inner, max_size=3),
    max_leaves=6,
)
# TOML values that signed data may not hold: floats and dates and times of every kind.
TOML_UNSIGNABLE: st.SearchStrategy[Any] = st.one_of(
    st.floats(), TIMES, TIMES.map(lambda moment: moment.replace(tzinfo=UTC)), st.dates(), st.times()
)
VALID_TIME = TIMES.map(lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ"))

# Values that may not appear in signed data.
NOT_SIGNABLE: st.SearchStrategy[Any] = st.one_of(
    st.floats(),
    st.integers(max_value=INT_MIN - 1),
    st.integers(min_value=INT_MAX + 1),
    st.binary(),
    st.binary().map(bytearray),
    st.none(),
    st.datetimes(),
    st.datetimes(timezones=st.just(UTC)),
    st.dates(),
    st.times(),
    st.frozensets(INT64, max_size=2),
    st.dictionaries(INT64, LEAF, min_size=1, max_size=2),  # a table key that is not text
)


@st.composite
def _containing(draw: st.DrawFn, bad: st.SearchStrategy[Any]) -> Any:
    """A valid structure with one disallowed value somewhere inside it."""
    value = draw(bad)
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            items: list[Any] = draw(st.lists(SIGNABLE, max_size=3))
            items.insert(draw(st.integers(0, len(items))), value)
            value = items
        else:
            table: dict[str, Any] = draw(st.dictionaries(KEY, SIGNABLE, max_size=3))
            table[draw(KEY)] = value
            value = table
    return value


# --- helpers ---------------------------------------------------------------------------------
def same(left: Any, right: Any) -> bool:
    """Equal in value and in type all the way down (``1 == True == 1.0`` does not count)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[key], right[key]) for key in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    if isinstance(left, float) and math.isnan(left):
        return math.isnan(right)
    return bool(left == right)


def shuffled(value: Any, rnd: random.Random) -> Any:
    """The same value with the keys of every table in another order."""
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {key: shuffled(item, rnd) for key, item in items}
    if isinstance(value, list):
        return [shuffled(item, rnd) for item in value]
    return value


def tupled(value: Any) -> Any:
    """The same value with every list a tuple."""
    if isinstance(value, dict):
        return {key: tupled(item) for key, item in value.items()}
    if isinstance(value, list):
        return tuple(tupled(item) for item in value)
    return value


def paths(value: Any, prefix: TomlPath = ()) -> list[TomlPath]:
    """Every path below ``value``: table keys and array indexes, containers and leaves alike."""
    found: list[TomlPath] = []
    children: Sequence[tuple[str | int, Any]]
    if isinstance(value, dict):
        children = list(value.items())
    elif isinstance(value, list):
        children = list(enumerate(value))
    else:
        children = []
    for key, item in children:
        found.append((*prefix, key))
        found.extend(paths(item, (*prefix, key)))
    return found


def get(root: Any, path: TomlPath) -> Any:
    for key in path:
        root = root[key]
    return root


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def plausible(old: Any, pool: Sequence[Any]) -> st.SearchStrategy[Any]:
    """Another value for ``old`` that could well pass every check of its form: a value of the same
    type from the same file, a valid time, ``old`` changed in one character or cut short, a
    neighbouring number, the other boolean, or a look-alike that Python finds equal though TOML
    does not (``1.0`` or ``true`` for ``1``)."""
    options: list[st.SearchStrategy[Any]] = []
    if isinstance(old, int):  # booleans included
        options.append(st.sampled_from([float(old), *([bool(old)] if old in (0, 1) else []), int(old)]))
    kin = [value for value in pool if type(value) is type(old)]
    if kin:
        options.append(st.sampled_from(kin))
    if isinstance(old, bool):
        options.append(st.just(not old))
    elif isinstance(old, int):
        options.append(st.sampled_from([old - 1, old + 1]))
    elif isinstance(old, str):
        options.extend([VALID_TIME, TEXT])
        if old:
            options.append(
                st.builds(
                    lambda index, char: old[:index] + char + old[index + 1 :],
                    st.integers(0, len(old) - 1),
                    CHARS,
                )
            )
            options.append(st.integers(0, len(old) - 1).map(lambda index: old[:index]))
    return st.one_of(options).filter(lambda new: not same(new, old))


def replacement(old: Any, pool: Sequence[Any]) -> st.SearchStrategy[Any]:
    """Another value for ``old``: a plausible one (see ``plausible``), any value of its type, or
    a value of any other type a TOML file can hold."""
    other_type = st.one_of(
        TOML_LEAF, st.lists(TOML_LEAF, max_size=3), st.dictionaries(KEY, TOML_LEAF, max_size=3)
    ).filter(lambda new: type(new) is not type(old))
    options: list[st.SearchStrategy[Any]] = [TOML_VALUE, other_type, plausible(old, pool)]
    if isinstance(old, int) and not isinstance(old, bool):
        options.append(INT64)
    elif isinstance(old, list):
        options.append(st.lists(LEAF, max_size=4))
        if old:
            options.append(st.permutations(old))
    elif isinstance(old, dict):
        options.append(SIGNABLE_TABLE)
    return st.one_of(options).filter(lambda new: not same(new, old))


def mutate(data: st.DataObject, doc: dict[str, Any], scope: TomlPath, *, whole: bool) -> TomlPath:
    """Change one thing at or below ``doc[scope]``: replace a value, delete a field or array item,
    or add a field or array item. Returns the path that was changed."""
    inner = [(*scope, *path) for path in paths(get(doc, scope))]
    targets = ([scope] if whole else []) + inner
    containers = [path for path in [scope, *inner] if isinstance(get(doc, path), (dict, list))]
    pool = leaves(doc)
    operation = data.draw(st.sampled_from(["replace", "delete", "add"]), label="operation")
    if operation == "add":
        path = data.draw(st.sampled_from(containers), label="into")
        target = get(doc, path)
        value = data.draw(TOML_VALUE, label="value")
        if isinstance(target, dict):
            target[data.draw(KEY.filter(lambda key: key not in target), label="key")] = value
        else:
            target.insert(data.draw(st.integers(0, len(target)), label="index"), value)
        return path
    path = data.draw(st.sampled_from(targets), label="path")
    parent, key = get(doc, path[:-1]), path[-1]
    if operation == "delete":
        del parent[key]
    else:
        parent[key] = data.draw(replacement(parent[key], pool), label="new value")
    return path


def start_game(keys: Keys, components: Mapping[str, Any]) -> Ledger:
    """A genesis entry by a, then b and c join."""
    setup = ledger.plan(game=GAME, edition=None, options={"deadline_days": "7"}, seats=SEATS, creator="a")
    current = ledger.new_game(setup, keys["a"], at=AT, nonce=GAME_ID, components=components)
    for seat in SEATS[1:]:
        current, _ = ledger.join(current, seat, keys[seat], AT)
    return current


def render(current: Ledger, components: Mapping[str, Any]) -> str:
    return gamefile.render_new(
        current.header(), current.roster_table(), components, current.entries, current.status_lines()
    )


def load_text(text: str) -> gamefile.LoadedFile:
    raw = text.encode("utf-8")
    return gamefile.LoadedFile(Path("game.toml"), raw, gamefile.parse(raw, "game.toml"))


def canonical_entries(data: Mapping[str, Any]) -> list[bytes]:
    return [canonical_bytes(entry) for entry in data["entry"]]


def checked(data: Any) -> Audit:
    result = ledger.audit(data)
    note(f"problems: {[str(problem) for problem in result.problems]}")
    return result


# --- fixtures --------------------------------------------------------------------------------
@pytest.fixture(scope="module", autouse=True)
def file_only_game() -> Iterator[None]:
    """A game with no rules, registered for this module only, so nothing but the file is tested."""
    registry.register(
        registry.GameInfo(
            name=GAME,
            title="File only",
            min_players=2,
            max_players=5,
            editions=("standard",),
            options=(registry.DEADLINE,),
        )
    )
    try:
        yield
    finally:
        registry._GAMES.pop(GAME, None)  # no public way out: only tests ever remove a game


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    store = KeyStore(tmp_path_factory.mktemp("property-keys"))
    for seat in SEATS:
        store.create(seat, None, CREATED)
    return {seat: store.secret(seat, lambda prompt: None) for seat in SEATS}


@pytest.fixture(scope="module")
def base_text(keys: Keys, file_only_game: None) -> str:
    """A sound game file: genesis, two joins, three notes, component data (made once the game is
    registered, whichever test of the module a worker runs first)."""
    current = start_game(keys, COMPONENTS)
    for seat, text in BASE_NOTES:
        current, _ = ledger.note(current, seat, text, keys[seat], AT)
    text = render(current, COMPONENTS)
    assert ledger.audit(gamefile.parse(text.encode("utf-8"), "game.toml")).ok
    return text


def fresh(base_text: str) -> dict[str, Any]:
    return gamefile.parse(base_text.encode("utf-8"), "game.toml")


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- 1. canonical encoding -------------------------------------------------------------------
@SETTINGS
@given(value=SIGNABLE, rnd=st.randoms(use_true_random=False))
def test_canonical_bytes_are_stable_and_round_trip(value: Any, rnd: random.Random) -> None:
    encoded = canonical_bytes(value)
    decoded = json.loads(encoded)
    assert same(decoded, value)
    assert canonical_bytes(decoded) == encoded
    assert canonical_bytes(shuffled(value, rnd)) == encoded
    assert canonical_bytes(tupled(value)) == encoded
    # the documented recipe: anyone can recompute the bytes with a JSON library
    recipe = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    assert encoded == recipe


@SETTINGS
@given(value=_containing(NOT_SIGNABLE))
def test_values_that_cannot_be_signed_are_refused(value: Any) -> None:
    with pytest.raises(GameFileError):
        check_signable(value)
    with pytest.raises(GameFileError):
        canonical_bytes(value)


@pytest.mark.parametrize("value", [INT_MIN, INT_MAX, [INT_MIN, INT_MAX]])
def test_int64_bounds_are_signable(value: Any) -> None:
    assert json.loads(canonical_bytes(value)) == value


# --- 2. the TOML write/read cycle ------------------------------------------------------------
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    notes=st.lists(st.tuples(st.sampled_from(SEATS), NOTE_TEXT), max_size=3),
    last=st.tuples(st.sampled_from(SEATS), NOTE_TEXT),
    components=SIGNABLE_TABLE,
)
def test_signed_entries_survive_a_write_and_read(
    keys: Keys, notes: list[tuple[str, str]], last: tuple[str, str], components: dict[str, Any]
) -> None:
    current = start_game(keys, components)
    for seat, text in notes:
        current, _ = ledger.note(current, seat, text, keys[seat], AT)
    written = [canonical_bytes(entry) for entry in current.entries]

    loaded = load_text(render(current, components))
    assert canonical_entries(loaded.data) == written
    assert canonical_bytes(loaded.data.get("components", {})) == canonical_bytes(components)
    assert checked(loaded.data).problems == ()

    seat, text = last
    current, entry = ledger.note(current, seat, text, keys[seat], AT)
    appended = gamefile.append_text(
        loaded, entry, current.header(), current.roster_table(), current.status_lines()
    )
    again = load_text(appended).data
    assert canonical_entries(again) == [*written, canonical_bytes(entry)]
    assert again["entry"][-1]["text"] == text
    assert checked(again).problems == ()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries=st.lists(SIGNABLE_TABLE, min_size=1, max_size=3),
    extra=SIGNABLE_TABLE,
    components=SIGNABLE_TABLE,
    # a game file always has a roster: the creator is seated by the genesis entry
    roster=st.dictionaries(KEY, st.dictionaries(KEY, TEXT, max_size=3), min_size=1, max_size=2),
)
def test_any_text_and_int64_values_survive_a_write_and_read(
    entries: list[dict[str, Any]],
    extra: dict[str, Any],
    components: dict[str, Any],
    roster: dict[str, dict[str, str]],
) -> None:
    header: dict[str, Any] = {"format": 1, "entries": len(entries)}
    loaded = load_text(gamefile.render_new(header, roster, components, entries, ["status"]))
    assert canonical_entries(loaded.data) == [canonical_bytes(entry) for entry in entries]
    assert canonical_bytes(loaded.data.get("components", {})) == canonical_bytes(components)
    assert canonical_bytes(loaded.data.get("roster", {})) == canonical_bytes(roster)

    header = {"format": 1, "entries": len(entries) + 1}
    again = load_text(gamefile.append_text(loaded, extra, header, roster, ["status"])).data
    assert canonical_entries(again) == [canonical_bytes(entry) for entry in [*entries, extra]]
    assert canonical_bytes(again["game"]) == canonical_bytes(header)
    assert canonical_bytes(again.get("components", {})) == canonical_bytes(components)


# --- 3. any single change is detected --------------------------------------------------------
@SETTINGS
@given(data=st.data())
def test_changing_any_field_of_an_entry_is_caught_at_that_entry(base_text: str, data: st.DataObject) -> None:
    doc = fresh(base_text)
    index = data.draw(st.integers(0, len(doc["entry"]) - 1), label="entry")
    mutate(data, doc, ("entry", index), whole=False)
    problems = checked(doc).problems
    assert problems, "the change went unnoticed"
    assert problems[0].position == index


@SETTINGS
@given(data=st.data())
def test_a_plausible_change_to_an_entry_is_caught_at_that_entry(base_text: str, data: st.DataObject) -> None:
    """Changes that keep a field's type and often its form, so that only the signature (or for
    ``seq`` and ``prev``, the place in the chain) can tell."""
    doc = fresh(base_text)
    pool = leaves(doc)
    index = data.draw(st.integers(0, len(doc["entry"]) - 1), label="entry")
    entry = doc["entry"][index]
    path = data.draw(
        st.sampled_from([path for path in paths(entry) if not isinstance(get(entry, path), (dict, list))]),
        label="path",
    )
    parent = get(entry, path[:-1])
    parent[path[-1]] = data.draw(plausible(parent[path[-1]], pool), label="new value")
    problems = checked(doc).problems
    assert problems, "the change went unnoticed"
    assert problems[0].position == index


@SETTINGS
@given(data=st.data())
def test_a_value_signed_data_cannot_hold_is_reported_at_its_entry(
    base_text: str, data: st.DataObject
) -> None:
    """A float or a date anywhere in an entry is a problem of that entry, and never an exception."""
    doc = fresh(base_text)
    index = data.draw(st.integers(0, len(doc["entry"]) - 1), label="entry")
    path = data.draw(st.sampled_from(paths(doc["entry"][index])), label="path")
    parent = get(doc["entry"][index], path[:-1])
    parent[path[-1]] = data.draw(_containing(TOML_UNSIGNABLE), label="new value")
    problems = checked(doc).problems
    assert problems, "the change went unnoticed"
    assert problems[0].position == index


@pytest.mark.parametrize(
    ("index", "name", "value"),
    [
        (0, "kind", []),
        (3, "kind", {"note": True}),
        (3, "text", 1.5),
        (4, "text", date(2026, 1, 31)),
        (5, "text", 1.5),
    ],
)
def test_odd_values_in_an_entry_are_reported_not_raised(
    base_text: str, index: int, name: str, value: Any
) -> None:
    """Fixed examples of the properties above: an array or table as ``kind``, and a float or a date
    as a note's ``text`` (before the last entry and as the last one)."""
    doc = fresh(base_text)
    doc["entry"][index][name] = value
    problems = ledger.audit(doc).problems
    assert problems
    assert problems[0].position == index


def _copy_test(scope: str, whole: bool, words: tuple[str, ...]) -> Callable[[str, st.DataObject], None]:
    def check(base_text: str, data: st.DataObject) -> None:
        doc = fresh(base_text)
        mutate(data, doc, (scope,), whole=whole)
        problems = checked(doc).problems
        assert problems, "the change went unnoticed"
        assert any(word in problems[0].message for word in words)

    return check


# Where each unsigned copy lives, and a word the problem about a change to it must contain.
COPIES = {"game": ("header", "format"), "roster": ("roster",), "components": ("component",)}
_header_check = _copy_test("game", False, COPIES["game"])
_roster_check = _copy_test("roster", True, COPIES["roster"])
_components_check = _copy_test("components", True, COPIES["components"])


@SETTINGS
@given(data=st.data())
def test_changing_the_header_is_caught(base_text: str, data: st.DataObject) -> None:
    _header_check(base_text, data)


@SETTINGS
@given(data=st.data())
def test_changing_the_roster_is_caught(base_text: str, data: st.DataObject) -> None:
    _roster_check(base_text, data)


@SETTINGS
@given(data=st.data())
def test_changing_the_component_data_is_caught(base_text: str, data: st.DataObject) -> None:
    _components_check(base_text, data)


@pytest.mark.parametrize("scope", list(COPIES))
@SETTINGS
@given(data=st.data())
def test_a_plausible_change_to_a_copy_is_caught(scope: str, base_text: str, data: st.DataObject) -> None:
    doc = fresh(base_text)
    pool = leaves(doc)
    table = doc[scope]
    path = data.draw(
        st.sampled_from([path for path in paths(table) if not isinstance(get(table, path), (dict, list))]),
        label="path",
    )
    parent = get(table, path[:-1])
    parent[path[-1]] = data.draw(plausible(parent[path[-1]], pool), label="new value")
    problems = checked(doc).problems
    assert problems, "the change went unnoticed"
    assert any(word in problems[0].message for word in COPIES[scope])


# --- 4. removing, duplicating, reordering or truncating entries is detected -------------------
@st.composite
def _rearrangement(draw: st.DrawFn, count: int) -> tuple[str, list[int]]:
    """A new order of entry positions that is not the original one (positions may repeat)."""
    order = list(range(count))
    kind = draw(st.sampled_from(["remove", "duplicate", "swap", "truncate"]))
    if kind == "remove":
        del order[draw(st.integers(0, count - 1))]
    elif kind == "duplicate":
        order.insert(draw(st.integers(0, count)), draw(st.integers(0, count - 1)))
    elif kind == "swap":
        first, second = draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2, unique=True))
        order[first], order[second] = order[second], order[first]
    else:
        order = order[: draw(st.integers(0, count - 1))]
    return kind, order


@SETTINGS
@given(data=st.data())
def test_removing_duplicating_swapping_or_truncating_entries_is_caught(
    base_text: str, data: st.DataObject
) -> None:
    doc = fresh(base_text)
    entries = doc["entry"]
    _, order = data.draw(_rearrangement(len(entries)), label="rearrangement")
    doc["entry"] = [entries[position] for position in order]
    assert checked(doc).problems, "the rearrangement went unnoticed"


NOTES = st.lists(st.tuples(st.sampled_from(SEATS), NOTE_TEXT), min_size=1, max_size=3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shared=st.lists(st.tuples(st.sampled_from(SEATS), NOTE_TEXT), max_size=2),
    ours=NOTES,
    theirs=NOTES,
    data=st.data(),
)
def test_an_entry_from_a_fork_of_the_game_cannot_be_spliced_in(
    keys: Keys,
    shared: list[tuple[str, str]],
    ours: list[tuple[str, str]],
    theirs: list[tuple[str, str]],
    data: st.DataObject,
) -> None:
    """Two copies of one game that went different ways: each entry is validly signed for this game,
    with the right seq, so only the hash chain tells that it does not belong in the other copy."""
    branches: list[Ledger] = []
    for notes in ([*shared, *ours], [*shared, *theirs]):
        current = start_game(keys, COMPONENTS)
        for seat, text in notes:
            current, _ = ledger.note(current, seat, text, keys[seat], AT)
        branches.append(current)
    mine, other = branches
    common = len(shared) + len(SEATS)
    width = min(len(mine.entries), len(other.entries))
    candidates = [i for i in range(common, width) if not same(mine.entries[i], other.entries[i])]
    assume(candidates)  # unless the two copies wrote the very same notes
    position = data.draw(st.sampled_from(candidates), label="position")
    doc = load_text(render(mine, COMPONENTS)).data
    doc["entry"][position] = other.entries[position]
    assert checked(doc).problems, "the spliced entry went unnoticed"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"a": [1, 2**64]}, "a[1]: integer 18446744073709551616 is outside the 64-bit range"),
        ({"a": {"b": 1.5}}, "a.b: a float may not appear in signed data"),
        ({"t": "ok\ud800"}, "t: text is not valid unicode"),
        ({1: "x"}, "value: table key 1 is not text"),
        ([b"x"], "value[0]: a bytes may not appear in signed data"),
    ],
)
def test_a_value_that_cannot_be_signed_is_named_by_its_path(value: Any, said: str) -> None:
    with pytest.raises(GameFileError) as refused:
        check_signable(value)
    assert str(refused.value) == said
