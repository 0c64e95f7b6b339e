"""docs/game-file.md against pbem's own lists: the fields each kind of entry takes, and every
domain string pbem hashes under. A second verifier is written from the document alone, so a
field or a domain string pbem gains and the document does not name would be a guess for it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pbem.engine import ledger

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "game-file.md"
KINDS_HEADER = "| Kind | Fields besides the common ones | May also carry |"
COMMON_HEADER = "| Field | Type | Meaning |"
DOMAINS_HEADER = "| Domain string | What it separates | In `edwards25519` |"
NAME = re.compile(r"`([a-z_]+)`")
DOMAIN = re.compile(r"pbem/[a-z0-9/_-]+/v[0-9]+")


def table_rows(header: str, after: str = "") -> list[list[str]]:
    """The cells of each row of the markdown table under ``header`` (the first one after the
    line ``after``, when given)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(header, text.index(after) if after else 0)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def names(cell: str) -> list[str]:
    return NAME.findall(cell)


def kinds_table() -> dict[str, tuple[list[str], list[str]]]:
    found: dict[str, tuple[list[str], list[str]]] = {}
    for kind_cell, required, optional in table_rows(KINDS_HEADER):
        (kind,) = names(kind_cell)
        assert kind not in found, f"{kind} has two rows"
        found[kind] = (names(required), names(optional))
    return found


def test_every_kind_has_its_row_and_no_other() -> None:
    assert sorted(kinds_table()) == sorted(ledger.KIND_FIELDS)


def test_each_kind_lists_exactly_the_fields_pbem_requires() -> None:
    for kind, (required, _) in kinds_table().items():
        assert len(set(required)) == len(required), f"{kind}: a field named twice"
        assert set(required) == set(ledger.KIND_FIELDS[kind]), kind


def test_each_kind_lists_exactly_the_fields_pbem_allows_besides() -> None:
    for kind, (_, optional) in kinds_table().items():
        assert len(set(optional)) == len(optional), f"{kind}: a field named twice"
        assert set(optional) == set(ledger.OPTIONAL_FIELDS.get(kind, ())), kind


def test_the_common_fields_and_the_list_of_kinds() -> None:
    rows = table_rows(COMMON_HEADER, after="### Fields of every entry")
    assert [names(row[0])[0] for row in rows] == list(ledger.COMMON_FIELDS)
    (kind_row,) = (row for row in rows if names(row[0]) == ["kind"])
    assert sorted(names(kind_row[2])) == sorted(ledger.KIND_FIELDS)


def code_domains() -> dict[str, str]:
    """Every domain string in pbem's code (a string or bytes constant of the form
    ``pbem/.../vN``), with a file that has it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
                value = node.value.decode("ascii") if isinstance(node.value, bytes) else node.value
                if DOMAIN.fullmatch(value):
                    found.setdefault(value, str(path.relative_to(ROOT)))
    return found


def documented_domains() -> list[str]:
    rows = table_rows(DOMAINS_HEADER)
    found = [cell for row in rows for cell in re.findall(r"^`([^`]+)`$", row[0])]
    assert len(found) == len(rows), "each row names one domain string"
    return found


def test_every_domain_string_in_pbem_is_in_the_table() -> None:
    missing = {value: path for value, path in code_domains().items() if value not in documented_domains()}
    assert not missing, f"domain strings the document does not list: {missing}"


def test_the_table_lists_only_domain_strings_pbem_uses() -> None:
    documented = documented_domains()
    assert len(set(documented)) == len(documented)
    assert set(documented) <= set(code_domains())


def test_each_domain_string_says_whether_the_curve_group_prefixes_it() -> None:
    for row in table_rows(DOMAINS_HEADER):
        assert row[2] in ("prefixed", "as written", "(not used)", "(already so)"), row
