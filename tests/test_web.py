"""pbem web: the page lists the library, shows a game with its picture and its moves by their
forms, and plays through pbem play's own code; a request without the token, a form without the
page's value, a foreign Host and a game outside the library are refused and change nothing."""

from __future__ import annotations

import html
import json
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tomllib
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    # Starlette's newest releases would rather drive the TestClient with httpx2; httpx still does it.
    warnings.filterwarnings("ignore", message=".*httpx")
    from starlette.testclient import TestClient

from pbem.mail.library import Library
from pbem.web.app import create_app, csrf_value
from pbem.web.pages import Settings
from tests.conftest import Cli

PORT = 8765  # the port the app believes it serves on: the TestClient needs no socket
TOKEN = "test-token-of-the-page"
NOW = "2026-03-01T12:00:00Z"


@dataclass
class Page:
    client: TestClient
    game: Path
    game_id: str
    cli: Cli

    def post(self, action: str, **form: str) -> httpx.Response:
        fields = {"csrf": csrf_value(TOKEN), "seat": "a"} | form
        response: httpx.Response = self.client.post(f"/game/{self.game_id}/{action}", data=fields)
        return response


def client(host: str = f"127.0.0.1:{PORT}", *, cookie: bool = True) -> TestClient:
    app = create_app(Settings(), TOKEN, PORT)
    made = TestClient(app, base_url=f"http://{host}", follow_redirects=True)
    if cookie:
        made.cookies.set("pbem_token", TOKEN)
    return made


@pytest.fixture
def page(
    cli: Cli, make_game: Callable[..., Path], homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Page]:
    """a's home serving the page, its library holding a Princes of the Renaissance game at its
    sealed turn-order bid."""
    game = make_game(roll=True)
    game_id = json.loads(cli("verify", str(game), "--json").stdout)["game"]["id"]
    Library(homes["a"]).register(game_id, game)
    monkeypatch.setenv("PBEM_HOME", str(homes["a"]))
    monkeypatch.setenv("PBEM_NOW", NOW)
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    with client() as made:
        yield Page(made, game, game_id, cli)


def said(response: httpx.Response) -> list[str]:
    """The lines the page says the command said."""
    found = re.search(r'<div class="said [a-z]+" id="said">(.*?)</div>', response.text, re.DOTALL)
    assert found, response.text
    return [html.unescape(line) for line in re.findall(r"<p>(.*?)</p>", found.group(1), re.DOTALL)]


def test_the_token_in_the_address_becomes_a_strict_httponly_cookie(page: Page) -> None:
    with client(cookie=False) as fresh:
        opened = fresh.get(f"/?token={TOKEN}", follow_redirects=False)
        assert opened.status_code == 303 and "token" not in opened.headers["location"]
        cookie = opened.headers["set-cookie"]
        assert f"pbem_token={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        listed = fresh.get(opened.headers["location"])
        assert listed.status_code == 200 and "Your games" in listed.text


def test_the_library_page_lists_the_game_as_inbox_does(page: Page) -> None:
    listed = page.client.get("/")
    assert listed.status_code == 200
    assert f'href="/game/{page.game_id}"' in listed.text
    assert "Princes of the Renaissance" in listed.text and "turn-order bid" in listed.text
    assert "<strong>(your move: seal a turn-order bid" in listed.text, listed.text


def test_the_game_page_shows_the_picture_the_status_and_the_composer(page: Page) -> None:
    shown = page.client.get(f"/game/{page.game_id}")
    assert shown.status_code == 200
    assert "<svg" in shown.text and "phase: <strong>turn-order bid</strong>" in shown.text
    forms = re.search(r'<script type="application/json" id="forms">(.*?)</script>', shown.text, re.DOTALL)
    assert forms
    offered = json.loads(forms.group(1))
    (bid,) = [form for form in offered if not form.get("free")]
    assert bid["form"] == "bid {amount}" and bid["choices"]["5"] == "bid 5"
    # the gifts open at any time, folded: a form each, not a line for every amount and seat
    gifts = [form["form"] for form in offered if form.get("free")]
    assert gifts and all(form.startswith("give ") for form in gifts) and len(gifts) < 5, gifts
    assert "<code>give " in shown.text and "<code>give 1 " not in shown.text
    assert 'action="/game/' + page.game_id + '/play"' in shown.text
    assert "Content-Security-Policy" in shown.headers and shown.headers["cache-control"] == "no-store"


def test_a_move_posted_makes_the_entry_pbem_play_makes(page: Page, tmp_path: Path) -> None:
    by_hand = tmp_path / "by-hand.toml"
    shutil.copyfile(page.game, by_hand)
    played = page.post("play", text="bid 5")
    assert played.status_code == 200
    assert said(played)[0].startswith("a sealed a turn-order bid"), said(played)
    assert "Your sealed turn-order bid: <strong>bid 5</strong>" in played.text
    typed = page.cli("play", str(by_hand), "bid", "5", "--as", "a", home="a@2", env={"PBEM_NOW": NOW})
    assert typed.exit_code == 0, typed.stderr
    # the same entry but for what a sealed choice draws fresh each time: its salt, so its
    # commitment, its encryption, and the signature over them
    fresh = {"commitment", "sealed", "sig"}
    (web, by_cli) = (
        tomllib.loads(path.read_text(encoding="utf-8"))["entry"] for path in (page.game, by_hand)
    )
    assert len(web) == len(by_cli) and web[:-1] == by_cli[:-1]
    assert {k: v for k, v in web[-1].items() if k not in fresh} == {
        k: v for k, v in by_cli[-1].items() if k not in fresh
    }
    assert web[-1]["kind"] == "commit" and set(web[-1]) == set(by_cli[-1])
    assert page.cli("verify", str(page.game)).exit_code == 0


def test_a_refused_move_says_the_commands_error_and_changes_nothing(page: Page) -> None:
    before = page.game.read_bytes()
    refused = page.post("play", text="bid 99")
    typed = page.cli("play", str(page.game), "bid", "99", "--as", "a", home="a")
    assert typed.exit_code == 1
    assert said(refused) == typed.stderr.splitlines()
    assert 'class="said refused"' in refused.text
    assert page.game.read_bytes() == before


def test_a_reveal_owed_is_a_button_that_reveals(page: Page) -> None:
    # sealed by the command line, so the page finds the reveal owed when it is opened
    for seat, bid in (("b", "3"), ("c", "4"), ("a", "5")):
        assert page.cli("play", str(page.game), "bid", bid, "--as", seat, home=seat).exit_code == 0
    shown = page.client.get(f"/game/{page.game_id}")
    assert f'action="/game/{page.game_id}/reveal"' in shown.text
    assert "a must reveal the sealed turn-order bid" in shown.text
    revealed = page.post("reveal")
    assert said(revealed)[0].startswith("a revealed the sealed turn-order bid: bid 5"), said(revealed)
    assert page.cli("verify", str(page.game)).exit_code == 0


def test_what_needs_no_choice_after_a_move_is_done_by_itself(page: Page) -> None:
    for seat, bid in (("b", "3"), ("c", "4")):
        assert page.cli("play", str(page.game), "bid", bid, "--as", seat, home=seat).exit_code == 0
    lines = said(page.post("play", text="bid 5"))
    assert lines[-1] == "a then, without a choice to make: revealed the turn-order bid: bid 5", lines
    kinds = [entry["kind"] for entry in tomllib.loads(page.game.read_text())["entry"]]
    assert kinds[-2:] == ["commit", "reveal"]
    assert "must reveal" not in page.client.get(f"/game/{page.game_id}").text
    assert page.cli("verify", str(page.game)).exit_code == 0


@pytest.mark.parametrize(
    ("host", "cookie", "csrf"),
    [
        (f"127.0.0.1:{PORT}", False, True),  # no token
        (f"127.0.0.1:{PORT}", True, False),  # a form not the page's
        (f"evil.example:{PORT}", True, True),  # a name resolved to this machine: DNS rebinding
        ("127.0.0.1:9", True, True),  # another port's page
    ],
    ids=["no-token", "bad-csrf", "foreign-host", "other-port"],
)
def test_requests_the_page_did_not_make_are_refused(page: Page, host: str, cookie: bool, csrf: bool) -> None:
    before = page.game.read_bytes()
    with client(host, cookie=cookie) as other:
        value = csrf_value(TOKEN) if csrf else csrf_value("another token")
        posted = other.post(f"/game/{page.game_id}/play", data={"csrf": value, "seat": "a", "text": "bid 5"})
        assert posted.status_code == 403
        if cookie and csrf:  # reading is refused as well
            assert other.get("/").status_code == 403
    assert page.game.read_bytes() == before
    with client(cookie=False) as guest:
        assert guest.get(f"/?token={TOKEN}x").status_code == 403


def test_a_game_outside_the_library_is_not_found(page: Page, tmp_path: Path) -> None:
    before = page.game.read_bytes()
    unknown = "0" * 32
    assert page.client.get(f"/game/{unknown}").status_code == 404
    assert page.client.get(f"/game/{page.game_id[:8]}").status_code == 404
    assert page.client.get("/game/..%2F..%2Fetc%2Fpasswd").status_code == 404
    fields = {"csrf": csrf_value(TOKEN), "seat": "a", "text": "bid 5"}
    assert page.client.post(f"/game/{unknown}/play", data=fields).status_code == 404
    assert page.game.read_bytes() == before


def test_a_seat_of_another_home_is_not_played(page: Page) -> None:
    before = page.game.read_bytes()
    refused = page.post("play", seat="b", text="bid 5")
    assert said(refused) == ["error: this page does not play seat 'b' of this game"]
    assert page.game.read_bytes() == before


def test_without_the_web_extra_pbem_web_says_what_to_install(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("pbem.web.NEEDED", ("starlette", "pbem_no_such_module"))
    result = cli("web", "--no-open")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: pbem web needs pbem_no_such_module, which the web extra brings: pip install 'pbem[web]'"
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def pbem_web(home: Path, *args: str, **env: str) -> Iterator[tuple[str, int]]:
    """``pbem web --no-open ARGS`` serving ``home``'s library on a free port: the first line it
    printed, and the port; stopped on leaving."""
    port = free_port()
    environment = os.environ | {"PBEM_HOME": str(home), "NO_COLOR": "1", **env}
    environment.pop("PBEM_PASSPHRASE", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "pbem", "web", "--no-open", "--port", str(port), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    try:
        assert server.stdout is not None
        waiting = selectors.DefaultSelector()
        waiting.register(server.stdout, selectors.EVENT_READ)
        assert waiting.select(timeout=20), "pbem web printed nothing"
        yield server.stdout.readline().strip(), port
    finally:
        server.terminate()
        server.wait(timeout=10)


def answered(url: str) -> httpx.Response:
    """``url`` fetched once the server answers: the socket is bound before the address is
    printed, and uvicorn may still be starting."""
    for _ in range(200):
        try:
            return httpx.get(url, follow_redirects=True, timeout=5)
        except httpx.TransportError:
            selectors.DefaultSelector().select(timeout=0.05)
    raise AssertionError(f"nothing answered at {url}")


def test_pbem_web_prints_the_address_first_and_serves_it(homes: dict[str, Path]) -> None:
    with pbem_web(homes["a"]) as (url, port):
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/\?token=[\w-]{{40,}}", url), url
        listed = answered(url)
        assert listed.status_code == 200 and "Your games" in listed.text
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 403


def test_keys_open_with_the_passphrase_given_at_the_start(page: Page, homes: dict[str, Path]) -> None:
    from pbem.keys import KeyStore
    from tests.conftest import CREATED, seeded_keys

    store = KeyStore(homes["a"])
    store.key_path("a").unlink()
    store.store("a", seeded_keys("a"), "a passphrase of the test", CREATED)
    before = page.game.read_bytes()
    form = {"csrf": csrf_value(TOKEN), "seat": "a", "text": "bid 5"}
    for passphrase, ok in (("not the passphrase", False), ("a passphrase of the test", True)):
        app = create_app(Settings(passphrase=passphrase), TOKEN, PORT)
        with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", cookies={"pbem_token": TOKEN}) as given:
            lines = said(given.post(f"/game/{page.game_id}/play", data=form))
        assert lines[0].startswith("a sealed" if ok else "error: wrong passphrase"), lines
        assert (page.game.read_bytes() == before) is not ok


def test_a_game_looked_at_again_is_not_read_again_until_its_file_changes(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.cli import reading
    from pbem.web import pages

    reads: list[Path] = []
    real = reading.read_game

    def counted(file: Path, **options: Any) -> Any:
        reads.append(file)
        return real(file, **options)

    monkeypatch.setattr(reading, "read_game", counted)
    monkeypatch.setattr(pages, "_read", {})
    for _ in range(3):
        assert page.client.get(f"/game/{page.game_id}").status_code == 200
    assert len(reads) == 1  # the replayed game is kept while the file's bytes stay the same
    played = page.post("play", text="bid 5")  # the move itself reads the file, as pbem play does
    assert played.status_code == 200
    reads.clear()
    assert page.client.get(f"/game/{page.game_id}").status_code == 200
    shown = page.client.get(f"/game/{page.game_id}")
    assert "Your sealed turn-order bid: <strong>bid 5</strong>" in shown.text
    assert len(reads) == 0  # the page after the move read the new file once, kept since


def previewed(page: Page, text: str, seat: str = "a") -> str:
    shown = page.client.get(f"/game/{page.game_id}/preview", params={"seat": seat, "text": text})
    assert shown.status_code == 200
    return html.unescape(shown.text)


def test_a_preview_shows_the_sealed_bid_and_writes_nothing(page: Page) -> None:
    before = page.game.read_bytes()
    shown = previewed(page, "bid 5")
    assert "Preview, nothing signed yet:" in shown and "bid 5 is sealed" in shown and "<svg" in shown
    refused = previewed(page, "bid 99")
    typed = page.cli("play", str(page.game), "bid", "99", "--as", "a", home="a")
    assert f"error: {typed.stderr.removeprefix('error: ').strip()}" in refused
    assert "does not play seat 'b'" in previewed(page, "bid 5", seat="b")
    assert page.game.read_bytes() == before
    again = page.client.get(f"/game/{page.game_id}")  # the game as read is not the preview's copy
    assert (
        "Your sealed turn-order bid" not in again.text
        and "connect-src 'self'" in again.headers["content-security-policy"]
    )


@pytest.fixture
def bidding(page: Page) -> Page:
    """The page's game in the family bidding, a to move after c's bid of 6 and b's of 7."""
    for seat, bid in (("a", "5"), ("b", "4"), ("c", "3")):
        assert page.cli("play", str(page.game), "bid", bid, "--as", seat, home=seat).exit_code == 0
    for seat in ("a", "b", "c"):
        assert page.cli("reveal", str(page.game), "--as", seat, home=seat).exit_code == 0
    for seat, text in (("c", "bid 6"), ("b", "bid 7")):
        made = page.cli("play", str(page.game), *text.split(), "--as", seat, home=seat)
        assert made.exit_code == 0, made.stderr
    return page


def test_a_preview_of_a_bid_in_the_family_bidding_shows_the_bid_made(bidding: Page) -> None:
    before = bidding.game.read_bytes()
    now = bidding.client.get(f"/game/{bidding.game_id}").text
    shown = previewed(bidding, "bid 8")
    assert "after bid 8" in shown and "phase then: <strong>family bidding</strong>" in shown
    assert "waiting for c:" in shown  # the bidding goes round to c
    svg = re.search(r"<svg.*</svg>", shown, re.DOTALL)
    assert svg and svg.group(0) not in html.unescape(now)
    assert bidding.game.read_bytes() == before


def test_undo_my_last_move_asks_as_pbem_undo_does(bidding: Page) -> None:
    shown = bidding.client.get(f"/game/{bidding.game_id}")
    assert 'id="undo"' not in shown.text  # a has made no move since the bids were revealed
    before = bidding.game.read_bytes()
    refused = bidding.post("undo")
    assert said(refused)[0].startswith("error: a can"), said(refused)
    assert bidding.game.read_bytes() == before
    assert said(bidding.post("play", text="bid 8"))[0].startswith("a played 'bid 8'")
    assert 'id="undo"' in bidding.client.get(f"/game/{bidding.game_id}").text
    asked = said(bidding.post("undo"))
    assert asked[0].startswith("a asked to undo entry "), asked
    assert bidding.cli("verify", str(bidding.game)).exit_code == 0


def test_consent_and_decline_answer_an_undo_as_pbem_consent_does(bidding: Page) -> None:
    assert bidding.cli("undo", str(bidding.game), "--as", "b", home="b").exit_code == 0
    shown = bidding.client.get(f"/game/{bidding.game_id}")
    assert 'id="consent"' in shown.text and 'id="decline"' in shown.text
    declined = said(bidding.post("consent", agree="no"))
    assert re.match(r"a declined the undo of entry \d+; play goes on", declined[0]), declined
    before = bidding.game.read_bytes()
    refused = said(bidding.post("consent", agree="yes"))
    assert refused == ["error: no undo is waiting for consent"]
    assert bidding.game.read_bytes() == before


@pytest.fixture
def timed(page: Page, tmp_path: Path, homes: dict[str, Path]) -> Page:
    """a's page of a game with three-day deadlines, c late with its sealed bid from 2026-11-04T10:00."""
    from tests.test_deadlines import make_timed_game

    path = tmp_path / "timed.toml"
    make_timed_game(page.cli, path)
    game_id = json.loads(page.cli("verify", str(path), "--json").stdout)["game"]["id"]
    Library(homes["a"]).register(game_id, path)
    return Page(page.client, path, game_id, page.cli)


def test_a_timeout_claimable_now_is_a_button_that_claims_it(
    timed: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_NOW", "2026-11-04T09:59:59Z")
    early = timed.client.get(f"/game/{timed.game_id}")
    assert "claim the timeout" not in early.text
    before = timed.game.read_bytes()
    refused = said(timed.post("timeout", late="c"))
    assert refused == [
        "error: c's deadline for the turn-order bid is 2026-11-04T10:00:00Z; "
        "a timeout can be claimed only after it"
    ]
    assert timed.game.read_bytes() == before
    monkeypatch.setenv("PBEM_NOW", "2026-11-05T00:00:00Z")
    late = timed.client.get(f"/game/{timed.game_id}")
    assert "claim the timeout against c</button> (as a)" in late.text
    assert 'name="late" value="c"' in late.text
    claimed = said(timed.post("timeout", late="c"))
    assert re.match(r"a claimed that c let the deadline of the turn-order bid pass \(entry \d+\)", claimed[0])
    assert timed.cli("verify", str(timed.game)).exit_code == 0
    after = timed.game.read_bytes()
    assert said(timed.post("timeout", late="a")) == ["error: a owes nothing now"]
    assert timed.game.read_bytes() == after


def test_the_passphrase_is_asked_in_the_page_when_no_terminal_gave_it(
    page: Page, homes: dict[str, Path]
) -> None:
    from pbem.keys import KeyStore
    from tests.conftest import CREATED, seeded_keys

    store = KeyStore(homes["a"])
    store.key_path("a").unlink()
    store.store("a", seeded_keys("a"), "a passphrase of the test", CREATED)
    form = {"csrf": csrf_value(TOKEN), "back": f"/game/{page.game_id}"}
    asked = page.client.get(f"/game/{page.game_id}")
    assert 'id="passphrase-form"' in asked.text
    wrong = page.client.post("/passphrase", data=form | {"passphrase": "not it"})
    assert said(wrong) == ["error: that passphrase opens none of your keys"]
    assert 'id="passphrase-form"' in wrong.text
    right = page.client.post("/passphrase", data=form | {"passphrase": "a passphrase of the test"})
    assert str(right.url).endswith(f"/game/{page.game_id}") and 'id="passphrase-form"' not in right.text
    assert said(page.post("play", text="bid 5"))[0].startswith("a sealed a turn-order bid")
    # the passphrase lives in the server's memory: the page never shows it again
    assert "a passphrase of the test" not in page.client.get(f"/game/{page.game_id}").text
    foreign = page.client.post("/passphrase", data={"csrf": "x", "passphrase": "a passphrase of the test"})
    assert foreign.status_code == 403


def test_a_seat_still_to_join_joins_by_its_button(
    cli: Cli, make_game: Callable[..., Path], homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(seats=("b", "a", "c"), joined=["c"], name="joining.toml")
    game_id = json.loads(cli("verify", str(game), "--json").stdout)["game"]["id"]
    Library(homes["a"]).register(game_id, game)
    monkeypatch.setenv("PBEM_HOME", str(homes["a"]))
    monkeypatch.setenv("PBEM_NOW", NOW)
    with client() as made:
        joining = Page(made, game, game_id, cli)
        shown = made.get(f"/game/{game_id}")
        assert 'id="join-a"' in shown.text and 'id="join-c"' not in shown.text  # c's key is not here
        before = game.read_bytes()
        refused = said(joining.post("join", seat="c"))
        assert refused == ["error: this page does not play seat 'c' of this game"]
        assert game.read_bytes() == before
        joined = said(joining.post("join"))
        assert joined[0].startswith("a joined "), joined
        assert 'id="join-a"' not in made.get(f"/game/{game_id}").text
    listed = json.loads(cli("verify", str(game), "--json").stdout)
    assert "a" in listed["roster"] and "a" not in listed["waiting_to_join"], listed


def test_a_seat_is_handed_on_to_the_identity_pasted(page: Page, tmp_path: Path) -> None:
    made = page.cli("key", "new", "dora", "--no-passphrase", home="d")
    assert made.exit_code == 0, made.stderr
    identity = page.cli("key", "export", "dora", home="d").stdout.strip()
    before = page.game.read_bytes()
    assert 'id="handover"' in page.client.get(f"/game/{page.game_id}").text
    mismatch = said(page.post("handover", name="erin", identity=identity))
    assert mismatch[0].startswith("error: ") and "dora's identity, not erin's" in mismatch[0], mismatch
    assert page.game.read_bytes() == before
    roster = json.loads(page.cli("verify", str(page.game), "--json").stdout)["roster"]
    fingerprint = roster["a"]["fingerprint"]
    handed = said(page.post("handover", name="dora", identity=identity))
    assert handed[0].startswith("a is handed on to dora"), handed
    listed = json.loads(page.cli("verify", str(page.game), "--json").stdout)
    assert listed["ok"] and listed["roster"]["a"]["fingerprint"] != fingerprint
    assert listed["roster"]["a"]["fingerprint"] in handed[0]
    # a's key signs for nothing now: the page no longer plays the seat
    assert said(page.post("play", text="bid 5")) == ["error: this page does not play seat 'a' of this game"]


def test_a_new_game_is_made_by_the_form_as_pbem_new_makes_it(page: Page, tmp_path: Path) -> None:
    shown = page.client.get("/new")
    assert '<option value="princes-of-florence standard">' in shown.text
    assert '<option value="princes-of-the-renaissance 2003">' in shown.text
    assert "<option>a</option>" in shown.text  # a's key signs
    form = {"csrf": csrf_value(TOKEN), "game": "il-principe standard", "seat": "a"}
    games_before = set(Library(Path(os.environ["PBEM_HOME"])).games())
    refused = page.client.post("/new", data=form | {"players": "a,a"})
    assert said(refused)[0].startswith("error: "), said(refused)
    assert set(Library(Path(os.environ["PBEM_HOME"])).games()) == games_before
    options = {"option.il-principe.rich_start": "true", "option.il-principe.escrow": "others"}
    # another game's option is not read, and an option at its default is not given
    made = page.client.post(
        "/new", data=form | {"players": "a, b", "option.il-principe.escrow": "others"} | options
    )
    (game_id,) = set(Library(Path(os.environ["PBEM_HOME"])).games()) - games_before
    assert str(made.url).endswith(f"/game/{game_id}")
    assert said(made)[0].startswith("created "), said(made)
    assert 'id="join-a"' not in made.text  # a signed the first entry: a has joined
    path = Library(Path(os.environ["PBEM_HOME"])).games()[game_id].path
    genesis = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][0]
    assert genesis["seats"] == ["a", "b"] and genesis["by"] == "a"
    assert genesis["options"]["rich_start"] is True
    assert genesis["options"]["escrow"] == "none"  # with two players the default is none
    assert page.cli("verify", str(path)).exit_code == 0


HOLDER = """
import sys
from pathlib import Path
from pbem import gamefile
from pbem.cli.app import app

path = Path(sys.argv[1])
with gamefile.locked(path):
    print("held", flush=True)
    sys.stdin.readline()
    # the lock is held by this command already: the note takes it again, writes, and lets go
    app(["note", str(path), "written while the page waited", "--as", "b"], standalone_mode=False)
"""


def test_a_move_made_while_a_command_holds_the_game_waits_and_loses_nothing(
    page: Page, homes: dict[str, Path]
) -> None:
    import threading

    environment = os.environ | {"PBEM_HOME": str(homes["b"]), "PBEM_NOW": NOW}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(page.game)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "held"
    answers: list[httpx.Response] = []
    posting = threading.Thread(target=lambda: answers.append(page.post("play", text="bid 5")))
    posting.start()
    posting.join(timeout=1.0)
    assert posting.is_alive() and not answers  # the page's move waits for the command's lock
    holder.stdin.write("go\n")
    holder.stdin.flush()
    assert holder.wait(timeout=30) == 0, holder.stderr.read() if holder.stderr else ""
    posting.join(timeout=30)
    assert said(answers[0])[0].startswith("a sealed a turn-order bid"), said(answers[0])
    entries = tomllib.loads(page.game.read_text(encoding="utf-8"))["entry"]
    assert [(entry["by"], entry["kind"]) for entry in entries[-2:]] == [("b", "note"), ("a", "commit")]
    assert page.cli("verify", str(page.game)).exit_code == 0


def test_a_game_of_three_seats_at_one_home_starts_from_the_page_and_never_waits_on_itself(
    page: Page, homes: dict[str, Path]
) -> None:
    """a, b and c's keys in one home: the game made and joined by the page's buttons; then each
    seat, asked to return a card it cannot read until another seat's shares come, gets them from
    the page by itself, and every seat can choose its card."""
    from pbem.keys import KeyStore
    from tests.conftest import CREATED, seeded_keys

    store = KeyStore(homes["a"])
    for seat in ("b", "c"):
        store.store(seat, seeded_keys(seat), None, CREATED)
    form = {"csrf": csrf_value(TOKEN), "game": "princes-of-florence standard", "seat": "a"}
    made = page.client.post("/new", data=form | {"players": "a, b, c"})
    game_id = str(made.url).rsplit("/", 1)[1]
    for seat in ("b", "c"):
        joined = page.client.post(f"/game/{game_id}/join", data={"csrf": csrf_value(TOKEN), "seat": seat})
        assert said(joined)[0].startswith(f"{seat} joined "), said(joined)
    for seat in ("a", "b", "c"):
        shown = page.client.get(f"/game/{game_id}?seat={seat}")
        forms = re.search(r'<script type="application/json" id="forms">(.*?)</script>', shown.text, re.DOTALL)
        assert forms, (seat, shown.text)
        returns = [form for form in json.loads(forms.group(1)) if form["form"].startswith("return ")]
        assert len(returns) == 1 and len(returns[0]["choices"]) == 4, (seat, returns)
        assert "not readable yet" not in shown.text


def test_a_practice_game_against_the_computer_is_made_and_played_from_the_page(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_COMPUTER_PLAYOUTS", "3")
    form = {"csrf": csrf_value(TOKEN), "game": "il-principe standard", "seat": "a"}
    made = page.client.post("/new", data=form | {"players": "a, bot1, bot2", "computers": "bot1, bot2"})
    game_id = str(made.url).rsplit("/", 1)[1]
    lines = said(made)
    assert lines[0].startswith("created ") and any(
        line.startswith("bot1 (computer) plays ") for line in lines
    )
    path = Library(Path(os.environ["PBEM_HOME"])).games()[game_id].path
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["entry"]
    assert {entry["by"] for entry in entries if entry["kind"] == "commit"} == {"bot1", "bot2"}
    forms = re.search(r'<script type="application/json" id="forms">(.*?)</script>', made.text, re.DOTALL)
    assert forms, made.text
    (reserve,) = [form for form in json.loads(forms.group(1)) if form["form"].startswith("reserve ")]
    move = next(iter(texts_of(reserve["choices"])))
    played = said(page.client.post(f"/game/{game_id}/play", data=form | {"text": move}))
    assert any(line.startswith(("bot1 (computer) plays ", "bot2 (computer) plays ")) for line in played), (
        played
    )
    after = tomllib.loads(path.read_text(encoding="utf-8"))["entry"][len(entries) :]
    assert {("bot1", "reveal"), ("bot2", "reveal"), ("a", "reveal")} <= {(e["by"], e["kind"]) for e in after}
    assert page.cli("verify", str(path)).exit_code == 0


def texts_of(node: Any) -> Iterator[str]:
    """Every move text a form's choices hold."""
    if isinstance(node, str):
        yield node
        return
    for child in node.values():
        yield from texts_of(child)


def test_the_hint_link_shows_the_computers_choice_and_puts_it_in_the_box(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_COMPUTER_PLAYOUTS", "3")
    before = page.game.read_bytes()
    shown = page.client.get(f"/game/{page.game_id}?seat=a&hint=1")
    assert page.game.read_bytes() == before  # a hint signs nothing
    found = re.search(r'<strong id="hint">(.*?)</strong>', shown.text)
    assert found, shown.text
    move = html.unescape(found.group(1))
    assert re.fullmatch(r"bid \d+", move), move
    assert f'id="move-text" list="move-list" size="40" autocomplete="off" value="{move}"' in shown.text
    said_none = page.client.get(f"/game/{page.game_id}?seat=a")
    assert 'id="hint"' not in said_none.text and 'id="hint-link"' in said_none.text
