"""The worked examples of docs/game-file.md are what pbem gives today: docs/examples.py plays the
games again and compares. This checks the first group of examples, in a few seconds; CI runs the
whole check, with every proof of the hidden-deck game (python docs/examples.py --check)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_first_examples_are_what_pbem_gives() -> None:
    result = subprocess.run(
        [sys.executable, str(DOCS / "examples.py"), "--check", "--only", "intro"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "each as pbem gives it now" in result.stdout


def test_every_example_block_is_closed_and_named_once() -> None:
    text = (DOCS / "game-file.md").read_text(encoding="utf-8")
    begun = re.findall(r"<!-- begin example ([a-z0-9-]+): made by docs/examples\.py", text)
    ended = re.findall(r"<!-- end example ([a-z0-9-]+) -->", text)
    assert begun == ended
    assert len(set(begun)) == len(begun)


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces
    to hyphens."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_link_into_the_file_format_lands_on_a_heading() -> None:
    """Sections were renamed when the format was specified in full; no link may point at an old
    name."""
    target = anchors(strip_code((DOCS / "game-file.md").read_text(encoding="utf-8")))
    for path in DOCS.glob("**/*.md"):
        text = path.read_text(encoding="utf-8")
        own = path.name == "game-file.md"
        links = re.findall(r"\]\(#([\w-]+)\)" if own else r"game-file\.md#([\w-]+)", text)
        missing = sorted(set(links) - target)
        assert not missing, f"{path.name} links to {missing}"


def strip_code(text: str) -> str:
    """The document without its code blocks, whose comment lines look like headings."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
