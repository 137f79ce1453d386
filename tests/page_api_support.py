"""Shared pieces of the Page Agent API tests: a browser with :class:`PageApi`, page paths,
a one-line evaluator, and a loopback HTTP server for allow-list and slow-load cases.

Each test connects to the session browser (``chrome_endpoint`` from conftest.py) with
its own :class:`PageApi`, so every test gets fresh binding names and its own tabs.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import trio
from conftest import evaluate

import cdpagent
from cdpagent.runtime import PageApi

PAGES = Path(__file__).resolve().parent / "pages" / "page_api"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@contextlib.asynccontextmanager
async def page_api_browser(
    endpoint: str, allow_origins: Sequence[str] = ()
) -> AsyncIterator[cdpagent.Browser]:
    """Connect to ``endpoint`` with a fresh :class:`PageApi`; close the tabs opened meanwhile."""
    async with cdpagent.connect(endpoint, extensions=[PageApi(allow_origins)]) as browser:
        try:
            yield browser
        finally:
            with trio.CancelScope(shield=True):
                for tab in browser.tabs:
                    with contextlib.suppress(cdpagent.CDPAgentError):
                        await tab.close()


@pytest.fixture
async def pa_browser(chrome_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A connection to the session browser with the Page Agent API installed."""
    async with page_api_browser(chrome_endpoint) as browser:
        yield browser


async def until_in_page(tab: cdpagent.Tab, condition: str) -> None:
    """Wait until the JavaScript ``condition`` holds in the page, re-checked on every DOM change."""
    await evaluate(
        tab,
        "new Promise(resolve => { const check = () => { if (" + condition + ") resolve(true); };"
        " new MutationObserver(check).observe(document, {subtree: true, childList: true,"
        " attributes: true, characterData: true}); check(); })",
    )


async def hang_started(tab: cdpagent.Tab) -> None:
    """Wait until the fixture page's ``hang`` method has been entered."""
    await evaluate(
        tab,
        "new Promise(r => window.hangStarted ? r(true) : addEventListener('hang-started', () => r(true)))",
    )




class LoopbackServer:
    """A tiny HTTP/1.0 server on 127.0.0.1 for the tests.

    ``/pages/NAME`` serves ``tests/pages/page_api/NAME``; ``/examples/PATH`` serves an
    example; ``/slow?ms=N`` answers with a 1x1 GIF after N milliseconds.
    """

    def __init__(self) -> None:
        self.port = 0

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _handle(self, stream: trio.SocketStream) -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    return
                data += chunk
            target = data.split(b" ", 2)[1].decode()
            parts = urlsplit(target)
            body, kind, status = b"not found", "text/plain", "404 Not Found"
            if parts.path == "/slow":
                ms = int(parse_qs(parts.query).get("ms", ["0"])[0])
                await trio.sleep(ms / 1000)
                body, kind, status = _GIF, "image/gif", "200 OK"
            else:
                for prefix, root in (("/pages/", PAGES), ("/examples/", EXAMPLES)):
                    if parts.path.startswith(prefix):
                        path = (root / parts.path[len(prefix) :]).resolve()
                        if path.is_file() and root in path.parents:
                            body, kind, status = path.read_bytes(), "text/html; charset=utf-8", "200 OK"
            head = f"HTTP/1.0 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            await stream.send_all(head.encode() + b"Cache-Control: no-store\r\n\r\n" + body)
            await stream.aclose()


_GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


@contextlib.asynccontextmanager
async def loopback_server() -> AsyncIterator[LoopbackServer]:
    """Run a :class:`LoopbackServer` for the duration of the block."""
    server = LoopbackServer()
    async with trio.open_nursery() as nursery:
        serve = functools.partial(trio.serve_tcp, server._handle, 0, host="127.0.0.1")
        listeners = await nursery.start(serve)
        server.port = listeners[0].socket.getsockname()[1]
        yield server
        nursery.cancel_scope.cancel()
