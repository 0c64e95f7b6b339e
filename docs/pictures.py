"""The example pictures the README shows, drawn from the example games by pbem itself.

Usage:
    python docs/pictures.py            draw every picture into docs/pictures/
    python docs/pictures.py --check    exit 1, naming each picture that differs from what pbem
                                       draws today
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"
# picture name: the command that draws it, after "pbem"; a game's example by email and its
# example at the table each take one line here
DRAWN = {
    "princes-of-the-renaissance.svg": ["show", "examples/four-players.toml"],
    "princes-of-the-renaissance-table.svg": [
        "table",
        "show",
        "examples/table/princes-of-the-renaissance.toml",
    ],
    "princes-of-florence.svg": ["show", "examples/florence-four-players.toml"],
    "princes-of-florence-table.svg": ["table", "show", "examples/table/princes-of-florence.toml"],
    "il-principe.svg": ["show", "examples/principe-four-players.toml"],
    "il-principe-table.svg": ["table", "show", "examples/table/il-principe.toml"],
}


def draw(name: str, command: list[str], out: Path) -> bytes:
    target = out / name
    subprocess.run(
        [sys.executable, "-m", "pbem", *command, "--svg", str(target)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env={"PBEM_HOME": str(out / "home"), "PATH": ""},
    )
    return target.read_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, command in DRAWN.items():
            picture = draw(name, command, Path(scratch))
            kept = PICTURES / name
            if args.check:
                if not kept.exists() or kept.read_bytes() != picture:
                    stale.append(name)
            else:
                PICTURES.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(picture)
    if stale:
        print(f"docs/pictures: not what pbem draws today: {', '.join(stale)} (python docs/pictures.py)")
        return 1
    print(f"docs/pictures: {len(DRAWN)} pictures {'checked' if args.check else 'drawn'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
