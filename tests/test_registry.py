"""The games' declarations: the registry reads the one tuple of games, a declaration loads its parts
only when asked, and no module outside a game's package (and its picture) names the game."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine import registry
from pbem.engine.registry import GameInfo
from pbem.games import GAMES

PBEM = Path(__file__).resolve().parents[1] / "pbem"


def test_the_registry_knows_the_games_of_the_tuple_by_name_and_alias() -> None:
    assert registry.declared()[: len(GAMES)] == list(GAMES)
    for info in GAMES:
        assert registry.get(info.name) is info
        for alias in info.aliases:
            assert registry.get(alias) is info


def test_knowing_the_games_loads_none_of_their_rules_trackers_views_or_pictures() -> None:
    loaded = "('pbem.games.', 'pbem.render', 'pbem.companion')"
    code = (
        "import sys\nfrom pbem.engine import registry\nregistry.get('potr')\n"
        f"print(sorted(m for m in sys.modules if m.startswith({loaded})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == repr(sorted(_package(info) for info in GAMES))


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.name)
def test_a_declaration_names_its_own_games_parts(info: GameInfo) -> None:
    assert info.rules is not None and info.tracker is not None and info.picture is not None
    assert info.rules().info is info
    assert type(info.tracker()).__module__.startswith(_package(info) + ".")
    picture = info.picture()
    assert picture.draw.__module__.startswith("pbem.render.picture.")
    assert picture.table_view is not None and picture.table_view.__module__.startswith(_package(info) + ".")
    if info.terminal is not None:
        assert info.terminal().__module__.startswith(_package(info) + ".")


def test_no_module_outside_a_games_package_and_its_picture_names_the_game() -> None:
    named: list[str] = []
    for info in GAMES:
        assert info.picture is not None
        own_picture = PBEM.parent / (info.picture().draw.__module__.replace(".", "/") + ".py")
        words = re.compile("|".join(map(re.escape, (info.name, info.title, _package(info)))), re.IGNORECASE)
        for path in sorted(PBEM.rglob("*.py")):
            if path.is_relative_to(PBEM / "games") or path == own_picture:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if words.search(line):
                    named.append(f"{path.relative_to(PBEM.parent)}:{number}: {line.strip()}")
    assert named == []


def _package(info: GameInfo) -> str:
    return "pbem.games." + info.name.replace("-", "_")
