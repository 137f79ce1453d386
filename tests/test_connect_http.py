"""DR-1: ``connect("http://host:port")`` against a real Chromium with a DevTools port.

The browser is started as a person would start one to attach to
(``--remote-debugging-port=0``), and its port is read from the ``DevToolsActivePort``
file the browser writes into its profile, not from its stderr line.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
import trio
from mcp.client.client import Client
from mcp_support import EXAMPLES, call_ok

import cdpagent
from cdpagent.cdp.launcher import default_flags, devtools_url, find_browser
from cdpagent.mcp_server.server import SurfaceConfig, open_server


@pytest.fixture(scope="module")
def http_endpoint() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of a browser of this module, PORT from ``DevToolsActivePort``."""
    workdir = tempfile.mkdtemp(prefix="cdpagent-test-port-")
    profile = Path(workdir) / "profile"
    argv = [find_browser(), *default_flags(str(profile), headless=True, pipe=False)]
    proc = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stderr is not None
    try:
        if not any(devtools_url(line) for line in proc.stderr):
            pytest.fail("the browser did not start its DevTools server")
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        # The "DevTools listening" line says the server is up; Chromium writes the file
        # from another thread, so it may appear (or be complete) a moment later.
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 10
        while len(lines := (active.read_text() if active.exists() else "").splitlines()) < 2:
            assert time.monotonic() < deadline, "DevToolsActivePort was not written within 10 s"
            time.sleep(0.01)
        port = int(lines[0])
        yield f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


async def test_dr1_connect_over_http_resolves_and_drives_the_browser(http_endpoint: str) -> None:
    with trio.fail_after(30):
        async with cdpagent.connect(http_endpoint, timeout=10) as browser:
            tab = await browser.open(EXAMPLES / "editor" / "index.html")
            value = await tab.invoke("read_current")
            assert value["revision"] == 1
            await tab.close()


async def test_dr1_connect_over_http_to_something_else_says_what_answered(nursery: trio.Nursery) -> None:
    async def serve(stream: trio.SocketStream) -> None:
        await stream.receive_some(4096)
        await stream.send_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot here\n")
        await stream.aclose()

    listeners = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(10), pytest.raises(cdpagent.ConnectionClosed, match="HTTP 404"):
        async with cdpagent.connect(f"http://127.0.0.1:{port}"):
            pass


async def test_dr1_connect_over_http_times_out_with_the_endpoint_named(nursery: trio.Nursery) -> None:
    async def silent(stream: trio.SocketStream) -> None:
        await trio.sleep_forever()

    listeners = await nursery.start(partial(trio.serve_tcp, silent, 0, host="127.0.0.1"))
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(10), pytest.raises(cdpagent.ConnectionClosed, match=f"127.0.0.1:{port}.*0.5 s"):
        async with cdpagent.connect(f"http://127.0.0.1:{port}", timeout=0.5):
            pass


async def test_sf3_mcp_server_attaches_over_http(http_endpoint: str) -> None:
    async with open_server(SurfaceConfig(connect=http_endpoint)) as server, Client(server) as client:
        with trio.fail_after(30):
            opened = await call_ok(client, "open_page", {"url": str(EXAMPLES / "todos" / "index.html")})
            pages = await call_ok(client, "list_pages", {})
            assert [p["tabId"] for p in pages["pages"]] == [opened["tabId"]]
            await call_ok(client, "close_page", {"tabId": opened["tabId"]})
