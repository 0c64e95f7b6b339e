"""pbem web --table: a table log's page shows the table and its score as pbem table show and score
give them, and records actions, income, undo and redo through the table commands' own code; a
refused action changes nothing, and a request without the token or the page's form value is refused."""

from __future__ import annotations

import html
import json
import re
import shutil
import tomllib
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

with warnings.catch_warnings():
    # Starlette's newest releases would rather drive the TestClient with httpx2; httpx still does it.
    warnings.filterwarnings("ignore", message=".*httpx")
    from starlette.testclient import TestClient

from pbem.web.app import create_app, csrf_value
from pbem.web.pages import Settings
from tests.conftest import Cli

PORT = 8765
TOKEN = "test-token-of-the-table-page"
NOW = "2026-05-01T20:00:00Z"
BY = "zoe"
GAME = "princes-of-the-renaissance"


@dataclass
class Page:
    client: TestClient
    log: Path
    cli: Cli

    def post(self, action: str, **form: str) -> httpx.Response:
        response: httpx.Response = self.client.post(
            f"/table/0/{action}", data={"csrf": csrf_value(TOKEN)} | form
        )
        return response


def client(tables: list[Path], *, cookie: bool = True) -> TestClient:
    made = TestClient(create_app(Settings(), TOKEN, PORT, tables=tables), base_url=f"http://127.0.0.1:{PORT}")
    if cookie:
        made.cookies.set("pbem_token", TOKEN)
    return made


@pytest.fixture
def page(cli: Cli, homes: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    log = tmp_path / "table.toml"
    made = cli("table", "new", str(log), "--game", GAME, "--players", "a,b,c")
    assert made.exit_code == 0, made.stderr
    monkeypatch.setenv("PBEM_HOME", str(homes["a"]))
    monkeypatch.setenv("PBEM_NOW", NOW)
    monkeypatch.setenv("PBEM_TABLE_BY", BY)
    with client([log]) as serving:
        yield Page(serving, log, cli)


def said(response: httpx.Response) -> list[str]:
    found = re.search(r'<div class="said [a-z]+" id="said">(.*?)</div>', response.text, re.DOTALL)
    assert found, response.text
    return [html.unescape(line) for line in re.findall(r"<p>(.*?)</p>", found.group(1), re.DOTALL)]


def texts(path: Path) -> list[str]:
    return [action["text"] for action in tomllib.loads(path.read_text(encoding="utf-8")).get("action", [])]


def test_the_library_lists_the_table_and_its_page_shows_the_score(page: Page) -> None:
    listed = page.client.get("/")
    assert listed.status_code == 200 and "Tables" in listed.text and 'href="/table/0"' in listed.text
    shown = page.client.get("/table/0")
    assert shown.status_code == 200
    score = page.cli("table", "score", str(page.log), "--json").stdout
    assert 'id="score"' in shown.text and "Princes of the Renaissance" in shown.text
    for report in json.loads(score)["reports"]:
        assert html.escape(report["title"]) in shown.text
        for note in report["notes"]:
            assert html.escape(note) in shown.text
    assert page.client.get("/table/1").status_code == 404


def test_the_next_words_are_the_completions_the_tracker_offers(page: Page) -> None:
    first = page.client.get("/table/0")
    assert 'href="/table/0?words=a"' in first.text and 'href="/table/0?words=income"' in first.text
    after = page.client.get("/table/0", params={"words": "a"})
    assert 'href="/table/0?words=a%20takes"' in after.text
    assert 'id="action-text" value="a"' in after.text


def test_an_action_posted_is_recorded_as_pbem_table_add_records_it(page: Page, tmp_path: Path) -> None:
    by_hand = tmp_path / "by-hand.toml"
    shutil.copyfile(page.log, by_hand)
    posted = page.post("add", text="a  takes family este")
    assert posted.status_code == 200
    assert said(posted) == ["recorded action 1: a takes family este"]
    typed = page.cli(
        "table",
        "add",
        str(by_hand),
        "a",
        "takes",
        "family",
        "este",
        env={"PBEM_NOW": NOW, "PBEM_TABLE_BY": BY},
    )
    assert typed.exit_code == 0, typed.stderr
    assert page.log.read_bytes() == by_hand.read_bytes()
    assert "a takes family este" in page.client.get("/table/0").text


def test_undo_and_redo_buttons(page: Page) -> None:
    page.post("add", text="a takes family este")
    undone = page.post("undo")
    assert said(undone) == ["undone action 1: a takes family este"] and texts(page.log) == []
    assert 'id="redo"' in undone.text
    redone = page.post("redo")
    assert said(redone) == ["redone action 1: a takes family este"]
    assert texts(page.log) == ["a takes family este"]
    assert page.cli("table", "verify", str(page.log)).exit_code == 0


def test_income_button_records_the_income_action(page: Page) -> None:
    assert 'id="income"' in page.client.get("/table/0").text
    paid = page.post("income")
    assert said(paid)[0] == "recorded action 1: income" and texts(page.log) == ["income"]


def test_a_refused_action_says_the_commands_error_and_changes_nothing(page: Page) -> None:
    page.post("add", text="a takes family este")
    before = page.log.read_bytes()
    typed = page.cli("table", "add", str(page.log), "b", "pays", "99", "gold")
    assert typed.exit_code != 0
    refused = page.post("add", text="b pays 99 gold")
    assert said(refused) == [typed.stderr.strip()]
    assert "b has 45 gold" in said(refused)[0]
    assert 'value="b pays 99 gold"' in refused.text  # kept to be mended
    assert page.log.read_bytes() == before
    assert said(page.post("redo"))[0].startswith("error: ") and page.log.read_bytes() == before


def test_no_token_or_a_foreign_form_is_refused(page: Page) -> None:
    before = page.log.read_bytes()
    with client([page.log], cookie=False) as stranger:
        assert stranger.get("/table/0").status_code == 403
        assert (
            stranger.post("/table/0/add", data={"csrf": csrf_value(TOKEN), "text": "income"}).status_code
            == 403
        )
    assert page.client.post("/table/0/add", data={"csrf": "nope", "text": "income"}).status_code == 403
    assert page.client.post("/table/0/undo", data={}).status_code == 403
    assert page.log.read_bytes() == before
