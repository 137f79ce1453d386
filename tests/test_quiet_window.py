"""The post-action quiet window ends on evidence, and what the input set off is still in the receipt.

On real Chromium, ``tests/pages/quiet/late.html``: each action's handler changes the
declared state ``done`` only later (a microtask, an animation frame, a zero timeout, a
fetch to a loopback server this test starts, a chain of timeouts and a frame). The
quiet window is set far longer than any of them (``settle_quiet_ms=1000``), so the
window can only end early because ``js/quiet.js`` says nothing is pending: a change
the evidence overlooked would be missing from the receipt.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

import cdpagent
from cdpagent.act.inputs import ActArgs
from cdpagent.act.perform import ActTimings, act
from cdpagent.snapshot import ObserveOptions

PAGE = Path(__file__).parent / "pages" / "quiet" / "late.html"
LONG_QUIET = ObserveOptions(settle_quiet_ms=1000, settle_timeout_ms=3000)
#: The loopback server answers this late: far past an animation frame, well inside the window.
FETCH_DELAY = 0.25


@asynccontextmanager
async def loopback_server() -> AsyncIterator[str]:
    """An HTTP server on 127.0.0.1 answering every request with ``fetched``, late."""

    async def answer(stream: trio.SocketStream) -> None:
        await stream.receive_some(65536)
        await trio.sleep(FETCH_DELAY)
        body = b"fetched"
        head = f"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: {len(body)}\r\n"
        await stream.send_all(head.encode() + b"Connection: close\r\n\r\n" + body)
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(functools.partial(trio.serve_tcp, answer, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        yield f"http://127.0.0.1:{port}/"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("action", "after"),
    [
        ("now", "now"),
        ("microtask", "microtask"),
        ("frame", "frame"),
        ("timeout", "timeout"),
        ("fetch", "fetched"),
        ("chain", "chain"),
    ],
)
async def test_ob6_a_late_change_is_in_the_receipt_and_the_window_ends_on_evidence(
    browser: cdpagent.Browser, action: str, after: str
) -> None:
    async with loopback_server() as server:
        tab = await browser.open(f"{PAGE.as_uri()}?server={server}")
        timings = ActTimings()
        with trio.fail_after(20):
            receipt = await act(tab, ActArgs(action=action), options=LONG_QUIET, timings=timings)
        assert receipt.ok, receipt.to_json()
        changed = receipt.result.changed
        assert changed is not None and changed.state is not None, receipt.to_json()
        assert (changed.state["done"].before, changed.state["done"].after) == ("none", after)
        # The window ended on evidence, inside its 1000 ms (a fixed window waits all of it).
        assert timings.quiet_ms < 900, timings


async def test_ob6_pending_work_keeps_the_window_open(browser: cdpagent.Browser) -> None:
    """A page that keeps a short timer pending gives no evidence: the window runs its length."""
    tab = await browser.open(PAGE)
    await tab.session.send(
        "Runtime.evaluate", {"expression": "setInterval(() => {}, 20); 0", "returnByValue": True}
    )
    timings = ActTimings()
    opts = ObserveOptions(settle_quiet_ms=400, settle_timeout_ms=3000)
    receipt = await act(tab, ActArgs(action="now"), options=opts, timings=timings)
    assert receipt.ok, receipt.to_json()
    assert timings.quiet_ms >= 400, timings
