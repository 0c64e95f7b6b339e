"""Serving the page: a socket on this machine, the address with its token, the browser opened."""

from __future__ import annotations

import secrets
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from pbem.web.pages import Settings


def listen(port: int, *, lan: bool) -> socket.socket:
    """A socket bound before the address is printed, so the port printed is the one served (0:
    a free port the system picks). Only 127.0.0.1 unless ``lan``."""
    from pbem.errors import UsageError

    # TCP named, so uvicorn sets TCP_NODELAY on each connection: without it, a reused
    # connection's response waits on the peer's delayed ACK (about 40 ms a page)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind(("0.0.0.0" if lan else "127.0.0.1", port))
    except OSError as exc:
        server.close()
        raise UsageError(
            f"cannot serve the page on port {port}: {exc.strerror}; pick another with --port"
        ) from None
    server.listen(64)
    return server


def serve(
    settings: Settings, port: int, *, lan: bool, open_browser: bool, tables: Sequence[Path] = ()
) -> None:
    """Serve the page until interrupted; the address, token included, is the first line printed."""
    import uvicorn

    from pbem.cli.common import info
    from pbem.web.app import create_app

    server = listen(port, lan=lan)
    port = server.getsockname()[1]
    token = secrets.token_urlsafe(32)
    url = f"http://127.0.0.1:{port}/?token={token}"
    sys.stdout.write(url + "\n")
    sys.stdout.flush()
    if lan:
        info(
            f"served to the network (--lan): every interface of this machine, port {port}; anyone "
            "given the address with its token can play your seats"
        )
    info("the page plays with your keys while this runs; Ctrl+C stops it")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    app = create_app(settings, token, port, lan=lan, tables=tables)
    # no access log: it would write the token of the first request's address to the terminal
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[server])
