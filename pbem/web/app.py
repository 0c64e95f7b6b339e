"""The web page's routes, and what keeps them the player's own.

The page signs moves with the player's keys, so every request must prove it comes from the
player's browser: the token in the address printed at the start (then a cookie the page sets,
HttpOnly and SameSite=Strict, so no other site's page sends it), a form value tied to the token
on every POST (a page elsewhere cannot read it), and, unless the page is served to the network
(--lan), a Host header naming this machine, which a hostile name resolved to 127.0.0.1 (DNS
rebinding) does not. A game is named by its id, found in the library: no request names a path.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pbem.web import new_game, pages, table_pages
from pbem.web.pages import Settings

COOKIE = "pbem_token"
# A POST's handler, given the request and the form it carries (see ``with_form``)
Posted = Callable[[Request, dict[str, str]], Awaitable[Response]]
GAME_ID = re.compile(r"[0-9a-f]{32}")
# The page's own script and styles only; the picture's inline styles are its own SVG's. The script
# may fetch from this page alone: a move's preview.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",  # a page shows a seat's hidden cards
}


FORM_BYTES = 64 * 1024  # far more than a move's text: a larger body is no form of this page's


async def _form(request: Request) -> dict[str, str]:
    """The fields of a POST the page's forms send (URL-encoded; the last of a repeated name),
    read without a multipart parser, which none of them needs; a body too large reads as none."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_BYTES:
            return {}
    return dict(parse_qsl(body.decode("utf-8", errors="replace")))


class _Held:
    """What the page was started with, and the passphrase once the page was told it: kept in
    this process's memory only, for the server's life."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings


def csrf_value(token: str) -> str:
    """The value every form carries: derived from the token, so only a page the token opened has it."""
    return hmac.new(token.encode(), b"pbem web form", hashlib.sha256).hexdigest()


def create_app(
    settings: Settings, token: str, port: int, *, lan: bool = False, tables: Sequence[Path] = ()
) -> Starlette:
    """The page for this home's library and the table logs ``tables`` (``--table``), answering
    only requests that carry ``token``. A table is named by its place in ``tables``: no request
    names a path."""
    tables = tuple(tables)
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    csrf = csrf_value(token)
    templates = Environment(
        loader=PackageLoader("pbem.web", "templates"), autoescape=select_autoescape(default=True)
    )
    said: dict[str, pages.Done] = {}  # what the last action on each game said, shown once after it
    held = _Held(settings)

    def render(name: str, status: int = 200, **values: Any) -> HTMLResponse:
        asking = pages.needs_passphrase(held.settings)
        page = templates.get_template(name).render(csrf=csrf, ask_passphrase=asking, **values)
        return HTMLResponse(page, status_code=status)

    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if not lan and request.headers.get("host", "") not in hosts:
            return PlainTextResponse("refused: this page answers only to 127.0.0.1 and localhost", 403)
        given = request.query_params.get("token")
        if given is not None and hmac.compare_digest(given.encode(), token.encode()):
            # the token leaves the address at once (history, a link copied) for a cookie
            response: Response = RedirectResponse(request.url.remove_query_params("token"), 303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        elif hmac.compare_digest(request.cookies.get(COOKIE, "").encode(), token.encode()):
            response = await call_next(request)
        else:
            return PlainTextResponse("refused: open the address pbem web printed, with its token", 403)
        response.headers.update(HEADERS)
        return response

    async def library(request: Request) -> Response:
        rows = await run_in_threadpool(pages.library_rows)
        listed = await run_in_threadpool(table_pages.listed, tables)
        mailbox = await run_in_threadpool(pages.can_fetch)
        done = said.pop("", None)
        return render("library.html", rows=rows, tables=listed, mailbox=mailbox, done=done)

    async def fetch(request: Request, form: dict[str, str]) -> Response:
        said[""] = await run_in_threadpool(pages.fetch_mail, held.settings)
        return RedirectResponse("/", 303)

    async def new_game_page(request: Request) -> Response:
        form = await run_in_threadpool(new_game.new_game_form)
        return render("new.html", form=form, done=said.pop("new", None))

    async def create_game(request: Request, form: dict[str, str]) -> Response:
        done, game_id = await run_in_threadpool(new_game.create, held.settings, form)
        if game_id is None:
            said["new"] = done
            return RedirectResponse("/new", 303)
        said[game_id] = done
        return RedirectResponse(f"/game/{game_id}", 303)

    async def passphrase(request: Request, form: dict[str, str]) -> Response:
        value = form.get("passphrase", "")
        back = form.get("back", "/")
        back = back if back.startswith("/") and not back.startswith("//") else "/"
        if await run_in_threadpool(pages.opens_a_key, value, pages.sealed_keys()):
            held.settings = replace(held.settings, passphrase=value)
            said[""] = pages.Done(True, ["your keys open: the page plays with them until pbem web stops"])
        else:
            said[""] = pages.Done(False, ["error: that passphrase opens none of your keys"])
        return RedirectResponse(back if held.settings.passphrase is not None else "/", 303)

    def game_file(request: Request) -> Path | None:
        game_id = request.path_params["game_id"]
        return pages.kept(game_id) if GAME_ID.fullmatch(game_id) else None

    async def game(request: Request) -> Response:
        path = game_file(request)
        if path is None:
            return render("missing.html", 404)
        page = await run_in_threadpool(pages.game_page, path, held.settings, request.query_params.get("seat"))
        done = said.pop(request.path_params["game_id"], None)
        hinted = None
        if request.query_params.get("hint") and page.get("seat"):
            hinted = await run_in_threadpool(pages.hint, path, held.settings, page["seat"])
        return render("game.html", page=page, done=done, back=request.url.path, hint=hinted)

    async def preview(request: Request) -> Response:
        # a GET that writes nothing: the cookie (SameSite=Strict) is all it needs, as a page does
        path = game_file(request)
        if path is None:
            return render("missing.html", 404)
        seat, text = request.query_params.get("seat", ""), request.query_params.get("text", "")
        shown = await run_in_threadpool(pages.preview, path, held.settings, seat, text)
        return render("preview.html", shown=shown)

    def with_form(handle: Posted) -> Callable[[Request], Awaitable[Response]]:
        """``handle`` given a POST's form, if it carries this page's CSRF value; refused if not."""

        async def post(request: Request) -> Response:
            form = await _form(request)
            value = form.get("csrf")
            if not hmac.compare_digest(value.encode() if value else b"", csrf.encode()):
                return PlainTextResponse("refused: the form is not this page's", 403)
            return await handle(request, form)

        return post

    def action(name: str) -> Posted:
        async def post(request: Request, form: dict[str, str]) -> Response:
            path = game_file(request)
            if path is None:
                return render("missing.html", 404)
            seat = form.get("seat", "")
            game_id = request.path_params["game_id"]
            said[game_id] = await run_in_threadpool(pages.act, path, held.settings, seat, name, form)
            # after a POST, the page is fetched again: reloading it does not play the move twice
            return RedirectResponse(f"/game/{game_id}?{urlencode({'seat': seat})}", 303)

        return post

    def table_file(request: Request) -> Path | None:
        number: int = request.path_params["number"]
        return tables[number] if number < len(tables) else None

    async def table(request: Request) -> Response:
        path = table_file(request)
        if path is None:
            return render("missing.html", 404)
        words = request.query_params.get("words", "")
        page = await run_in_threadpool(table_pages.table_page, path, words)
        done = said.pop(f"table/{request.path_params['number']}", None)
        return render("table.html", page=page, done=done, number=request.path_params["number"])

    def table_action(name: str) -> Posted:
        async def post(request: Request, form: dict[str, str]) -> Response:
            path = table_file(request)
            if path is None:
                return render("missing.html", 404)
            number = request.path_params["number"]
            done = await run_in_threadpool(table_pages.table_act, path, name, form.get("text", ""))
            said[f"table/{number}"] = done
            # a refused action keeps its words in the box, to be mended rather than typed again
            kept = "" if done.ok else "?" + urlencode({"words": form.get("text", "")})
            return RedirectResponse(f"/table/{number}{kept}", 303)

        return post

    return Starlette(
        routes=[
            Route("/", library),
            Route("/fetch", with_form(fetch), methods=["POST"]),
            Route("/new", new_game_page),
            Route("/new", with_form(create_game), methods=["POST"]),
            Route("/passphrase", with_form(passphrase), methods=["POST"]),
            Route("/game/{game_id}", game),
            Route("/game/{game_id}/preview", preview),
            *(
                Route(f"/game/{{game_id}}/{name}", with_form(action(name)), methods=["POST"])
                for name in pages.ACTIONS
            ),
            Route("/table/{number:int}", table),
            *(
                Route(f"/table/{{number:int}}/{name}", with_form(table_action(name)), methods=["POST"])
                for name in table_pages.TABLE_ACTIONS
            ),
            Mount("/static", StaticFiles(packages=[("pbem.web", "static")]), name="static"),
        ],
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=guard)],
    )
