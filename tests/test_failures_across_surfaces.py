"""One event, one code, on every surface (issue 21; :mod:`cdpagent.cdp.failures`).

A crashed tab, a closed tab, a navigation during a call and an open dialog give the
same code from ``Tab.act``, the MCP ``act`` tool, and — translated by the one contract
that requires it, PA-4 — from ``Tab.invoke`` and the MCP ``invoke_page_method`` tool.
The MCP server is attached to the session browser and the Python calls go to the very
tab it opened. The pure parts (the table, the tab's decisions) are tested without a browser.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from conftest import EXAMPLES, PAGES, evaluate
from mcp.client.client import Client
from mcp_support import call_error, call_ok, receipt_of

import cdpagent
from cdpagent.cdp.dialogs import LEAVE_NOTICE, JavaScriptDialog
from cdpagent.cdp.failures import FAILURES, code_of, failure
from cdpagent.cdp.tabstate import ACCEPT_LEAVING, DISMISS, KEEP_OPEN, on_dialog_opening, refusal
from cdpagent.mcp_server.server import SurfaceConfig, SurfaceServer, open_server
from cdpagent.runtime.codes import INVOKE_CODES
from cdpagent.snapshot import codes as act_codes
from cdpagent.webmcp.bridge import WebMcp

TODOS = EXAMPLES / "todos" / "index.html"
CASES = PAGES / "webmcp" / "cases.html"


# -- the table and the decisions, pure ---------------------------------------------------


def test_every_failure_has_one_code_and_an_invoke_code_of_the_seed_contract() -> None:
    assert {row.invoke for row in FAILURES} <= set(INVOKE_CODES)
    assert len({row.event for row in FAILURES}) == len(FAILURES)
    # The receipt codes include every failure code an action can report.
    receipt = {failure(e).code for e in ("crash", "closed tab", "navigation during a call", "open dialog")}
    assert receipt | {failure("timeout").code, failure("protocol refusal").code} <= act_codes.CODES
    assert code_of(cdpagent.TargetCrashed("x"))[0] == "TAB_CRASHED"  # type: ignore[index]
    assert code_of(cdpagent.SessionClosed("x"))[0] == "TAB_NOT_FOUND"  # type: ignore[index]
    assert code_of(trio.TooSlowError())[0] == "TIMEOUT"  # type: ignore[index]
    assert code_of(cdpagent.PageApiError("PAGE_API_TIMEOUT", "m")) == ("PAGE_API_TIMEOUT", "m")
    assert code_of(ValueError("a bug")) is None


class _Facts:
    def __init__(self, closed: bool = False, crashed: bool = False, dialog: str | None = None) -> None:
        self.closed = closed
        self.crashed = crashed
        self.dialog = JavaScriptDialog(dialog, "m") if dialog else None  # type: ignore[arg-type]


def test_the_tab_decides_dialogs_and_refusals_by_its_table() -> None:
    assert on_dialog_opening({"type": "beforeunload"}, acting=False)[1] == ACCEPT_LEAVING
    assert on_dialog_opening({"type": "beforeunload"}, acting=True)[1] == KEEP_OPEN
    assert on_dialog_opening({"type": "beforeunload"}, acting=True, unattended=True)[1] == ACCEPT_LEAVING
    assert on_dialog_opening({"type": "alert", "message": "hi"}, acting=True)[1] == KEEP_OPEN
    assert on_dialog_opening({"type": "alert", "message": "hi"}, acting=True, unattended=True)[1] == DISMISS
    dialog, decision = on_dialog_opening({"type": "prompt", "message": "name?"}, acting=False)
    assert decision == KEEP_OPEN and dialog.label == "JavaScript prompt"
    assert LEAVE_NOTICE  # the notice the tab records with ACCEPT_LEAVING
    assert refusal(_Facts(), "invoke") is None
    assert refusal(_Facts(closed=True, crashed=True), "act").event == "closed tab"  # type: ignore[union-attr]
    assert refusal(_Facts(crashed=True), "observe").code == "TAB_CRASHED"  # type: ignore[union-attr]
    assert refusal(_Facts(dialog="confirm"), "invoke").invoke == "PAGE_API_DIALOG_OPEN"  # type: ignore[union-attr]
    assert refusal(_Facts(dialog="confirm"), "act", "dismiss_dialog") is None
    assert refusal(_Facts(dialog="alert"), "act", "dismiss_dialog").code == "DIALOG_OPEN"  # type: ignore[union-attr]
    assert refusal(_Facts(dialog="alert"), "observe") is None


# -- against real Chromium: the same event from every surface ------------------------------


@contextlib.asynccontextmanager
async def _surface(endpoint: str, **config: Any) -> AsyncIterator[tuple[Client, SurfaceServer]]:
    async with open_server(SurfaceConfig(connect=endpoint, **config)) as server, Client(server) as client:
        yield client, server


async def _open(client: Client, server: SurfaceServer, page: Any) -> tuple[str, cdpagent.Tab]:
    tab_id = (await call_ok(client, "open_page", {"url": str(page)}))["tabId"]
    return tab_id, await server.surface.tab(tab_id)


async def _codes(client: Client, tab_id: str, tab: cdpagent.Tab, action: str) -> dict[str, str]:
    """The code of the same act and invoke from the Python API and from MCP."""
    found: dict[str, str] = {}
    try:
        await tab.invoke("read_current", timeout=10)
        found["Tab.invoke"] = "(succeeded)"
    except cdpagent.PageApiError as error:
        found["Tab.invoke"] = error.code
    found["Tab.act"] = str((await tab.act(action, timeout=10)).code)
    result = await client.call_tool("act", {"tabId": tab_id, "action": action})
    structured = result.structured_content or {}
    found["MCP act"] = (
        receipt_of(structured)["error"]["code"] if "result" in structured else structured["error"]["code"]
    )
    invoked = {"tabId": tab_id, "method": "read_current", "timeout": 10}
    found["MCP invoke_page_method"] = (await call_error(client, "invoke_page_method", invoked))["code"]
    return found


def _expected(event: str) -> dict[str, str]:
    row = failure(event)
    return {
        "Tab.invoke": row.invoke,
        "Tab.act": row.code,
        "MCP act": row.code,
        "MCP invoke_page_method": row.invoke,
    }


async def test_a_crashed_tab_is_the_same_code_on_every_surface(chrome_endpoint: str) -> None:
    async with _surface(chrome_endpoint) as (client, server):
        tab_id, tab = await _open(client, server, TODOS)

        async def crash() -> None:
            with contextlib.suppress(cdpagent.SessionClosed):  # Page.crash never answers
                await tab.session.send("Page.crash")

        async with trio.open_nursery() as nursery:
            nursery.start_soon(crash)
            await tab.wait_until(lambda: tab.crashed, timeout=30)
            nursery.cancel_scope.cancel()
        assert await _codes(client, tab_id, tab, "toggle") == _expected("crash")
        await tab.close()


async def test_a_closed_tab_is_the_same_code_on_every_surface(chrome_endpoint: str) -> None:
    async with _surface(chrome_endpoint) as (client, server):
        tab_id, tab = await _open(client, server, TODOS)
        await tab.close()
        assert await _codes(client, tab_id, tab, "toggle") == _expected("closed tab")


async def test_an_open_dialog_is_the_same_code_on_every_surface(chrome_endpoint: str) -> None:
    async with _surface(chrome_endpoint) as (client, server):
        tab_id, tab = await _open(client, server, TODOS)
        await evaluate(tab, "setTimeout(() => confirm('really?'), 0), 1")
        await tab.wait_until(lambda: tab.dialog is not None, timeout=10)
        assert await _codes(client, tab_id, tab, "toggle") == _expected("open dialog")
        assert (await tab.act("dismiss_dialog")).ok  # the dialog's own actions still run
        await tab.close()


@pytest.mark.parametrize("surface", ["python", "mcp"])
async def test_a_navigation_during_a_call_is_the_same_code_on_every_surface(
    chrome_endpoint: str, surface: str
) -> None:
    """An invoke across a navigation (``navigate_then_wait``) and a page tool call across a reload."""
    async with _surface(chrome_endpoint, webmcp=True) as (client, server):
        tab_id, tab = await _open(client, server, PAGES / "page_api" / "methods.html")
        row = failure("navigation during a call")
        if surface == "python":
            with pytest.raises(cdpagent.PageApiError) as caught:
                await tab.invoke("navigate_then_wait", timeout=10)
            assert caught.value.code == row.invoke
        else:
            moved = await call_error(
                client, "invoke_page_method", {"tabId": tab_id, "method": "navigate_then_wait"}
            )
            assert moved["code"] == row.invoke
        await tab.navigate(CASES)
        codes: list[str] = []

        async def call() -> None:
            if surface == "python":
                codes.append(str((await tab.act("slow", input={}, timeout=20)).code))
            else:
                result = await client.call_tool("act", {"tabId": tab_id, "action": "slow", "input": {}})
                codes.append(receipt_of(result.structured_content or {})["error"]["code"])

        started = (
            "new Promise(r => { const check = () => document.getElementById('log').textContent"
            ".includes('slow') ? r(true) : setTimeout(check, 10); check(); })"
        )
        with trio.fail_after(20):
            bridge = WebMcp.of(tab.browser)
            assert bridge is not None
            while "slow" not in {t.name for t in bridge.tools(tab)}:
                await evaluate(tab, "0")  # a round trip lets the browser's toolsAdded arrive
            async with trio.open_nursery() as nursery:
                nursery.start_soon(call)
                await evaluate(tab, started)
                await tab.reload()
        assert codes == [row.code]
        await tab.close()
