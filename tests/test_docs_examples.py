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
