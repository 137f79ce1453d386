"""Shared fixtures: one Chromium per test session, a fresh connection and tab per test.

The session's browser listens on a loopback DevTools port; each test connects
to it with :func:`cdpagent.connect` inside its own Trio run and closes the tabs
it opened. Tests that are about launching (or the pipe transport) launch
their own browser.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import cdpagent
from cdpagent.cdp.launcher import default_flags, devtools_url, find_browser
from cdpagent.webmcp.bridge import FLAG as WEBMCP_FLAG

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PAGES = Path(__file__).resolve().parent / "pages"


async def evaluate(tab: cdpagent.Tab, expression: str, *, gesture: bool = False) -> Any:
    """The JSON value of ``expression`` in the page's main world (promises awaited).

    ``gesture`` runs it as if the user had just interacted (popups are allowed).
    Fails the test when the expression throws.
    """
    reply = await tab.session.send(
        "Runtime.evaluate",
        {"expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": gesture},
    )
    assert "exceptionDetails" not in reply, reply
    return reply["result"].get("value")


@pytest.fixture(scope="session")
def chrome_endpoint() -> Iterator[str]:
    """The ``ws://`` DevTools url of a browser shared by the whole session."""
    workdir = tempfile.mkdtemp(prefix="cdpagent-test-")
    argv = [
        find_browser(),
        *default_flags(os.path.join(workdir, "profile"), headless=True, pipe=False),
        WEBMCP_FLAG,  # WebMCP tests connect with webmcp=True; other pages never notice
    ]
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stderr is not None
    url = ""
    for line in proc.stderr:
        url = devtools_url(line) or ""
        if url:
            break
    if not url:
        proc.kill()
        pytest.fail("the session browser did not start")
    # Keep draining stderr so the browser never blocks on a full pipe.
    threading.Thread(target=lambda: proc.stderr.read() if proc.stderr else None, daemon=True).start()
    try:
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
async def browser(chrome_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A connection to the session browser; tabs opened during the test are closed after it."""
    async with cdpagent.connect(chrome_endpoint) as connected:
        before = {t.id for t in connected.tabs}
        try:
            yield connected
        finally:
            for tab in connected.tabs:
                if tab.id not in before:
                    await tab.close()


@pytest.fixture
async def wm(chrome_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A connection to the session browser with the WebMCP bridge; its tabs are closed after the test."""
    async with cdpagent.connect(chrome_endpoint, webmcp=True) as browser:
        try:
            yield browser
        finally:
            for tab in browser.tabs:
                await tab.close()
