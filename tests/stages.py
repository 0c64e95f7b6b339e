"""A game played through the command line by one pbem home per player, at times the test sets,
with copies of the file kept at named stages to try things on: what the escrow, referee and
handover tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import Result

from pbem.crypto.identity import SecretKeys
from pbem.keys import KeyStore
from tests.conftest import forget_seen_games, run_cli


class Played:
    """Homes under ``root`` (one per player, named after it), the game at ``root/game.toml``, and
    the file's text at each stage kept; commands run at ``now`` unless told another time."""

    def __init__(self, root: Path, now: str) -> None:
        self.root = root
        self.now = now
        self.game = root / "game.toml"
        self.stages: dict[str, str] = {}

    def run(self, home: str, *args: str, at: str | None = None) -> Result:
        return run_cli(self.root / home, *args, env={"PBEM_NOW": at or self.now})

    def step(self, home: str, *args: str, at: str | None = None) -> Result:
        result = self.run(home, *args, at=at)
        assert result.exit_code == 0, result.stderr
        return result

    def keep(self, stage: str) -> None:
        self.stages[stage] = self.game.read_text(encoding="utf-8")

    def file(self, stage: str, name: str) -> Path:
        """The game as it stood at ``stage``, in a file of its own; the homes forget having seen
        it further on, which no player does."""
        path = self.root / f"{name}.toml"
        path.write_text(self.stages[stage], encoding="utf-8")
        forget_seen_games(self.root)
        return path

    def secret(self, home: str) -> SecretKeys:
        return KeyStore(self.root / home).secret(home, lambda prompt: None)

    def hand(self, path: Path, seat: str, home: str | None = None) -> dict[str, Any]:
        """The hidden cards ``seat`` holds, as its player (``home``, by default the seat's) reads them."""
        key = home or seat
        shown = json.loads(self.step(key, "show", str(path), "--as", seat, "--key", key, "--json").stdout)
        hand: dict[str, Any] = shown["hand"]
        return hand

    def problems_of(self, stage: str, entry: dict[str, Any], signer: str) -> list[str]:
        """The problems of ``entry``, signed with ``signer``'s key, appended to the game at ``stage``."""
        from pbem.engine import ledger
        from tests.tamper import appended

        data = appended(self.stages[stage], entry, self.secret(signer))
        position = len(data["entry"]) - 1
        return [str(problem) for problem in ledger.audit(data).problems if problem.position == position]
