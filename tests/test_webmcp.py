"""The WebMCP bridge (WM-1) against real Chromium with ``--enable-features=WebMCP``.

The session browser runs with the flag; these tests connect with ``webmcp=True``.
``examples/webmcp`` uses both registration styles; ``tests/pages/webmcp/cases.html``
has one tool per behaviour (echo, throw, never answer, fence-breaking output,
untrusted output, abortable) and a same-origin frame with a tool of its own.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import trio
from conftest import EXAMPLES, PAGES, evaluate

import cdpagent
from cdpagent.snapshot.observe import observe_page
from cdpagent.webmcp.bridge import WebMcp

CASES = PAGES / "webmcp" / "cases.html"
MANY = PAGES / "webmcp" / "many.html"
SHOP = EXAMPLES / "webmcp" / "index.html"


def _registered(tab: cdpagent.Tab) -> set[str]:
    bridge = WebMcp.of(tab.browser)
    assert bridge is not None
    return {tool.name for tool in bridge.tools(tab)}


async def _until_registered(tab: cdpagent.Tab, *names: str) -> None:
    """Wait (bounded) until the page's tools ``names`` are registered: a round trip to the
    page lets the browser's toolsAdded events arrive between checks."""
    with trio.fail_after(10):
        while not set(names) <= _registered(tab):
            await evaluate(tab, "0")


async def _open(browser: cdpagent.Browser, page: Any, *names: str) -> cdpagent.Tab:
    tab = await browser.open(page)
    await _until_registered(tab, *names)
    return tab


def _tool(tools: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(t["function"] for t in tools if t["function"]["name"] == name)


def _state(observation: cdpagent.Observation) -> dict[str, Any]:
    return {s.name: s.value for s in observation.state}


async def test_wm1_registered_tools_are_actions_of_the_observation(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, SHOP, "list_items", "add_item", "remove_item", "add_note", "draft_message")
    result = await observe_page(tab)
    by_name = {a.name: a for a in result.observation.actions}
    assert by_name["list_items"].kind == "tool" and by_name["list_items"].effect == "read"
    assert by_name["add_item"].effect == "write" and by_name["add_item"].region == "Page tools"
    assert by_name["remove_item"].confirm is not None  # consequential
    assert "- add_item (tool / write / region:Page tools)" in result.text
    add = _tool(result.tools, "add_item")
    assert add["strict"] is True and add["parameters"]["required"] == ["title", "qty"]
    qty = {"type": "integer", "minimum": 1, "description": "How many"}
    assert add["parameters"]["properties"]["qty"] == qty
    assert add["parameters"]["additionalProperties"] is False
    assert any(r.label == "Page tools" for r in result.observation.regions)


async def test_wm1_valid_input_runs_the_tool_and_the_receipt_has_output_and_diff(
    wm: cdpagent.Browser,
) -> None:
    tab = await _open(wm, SHOP, "add_item")
    receipt = await tab.act("add_item", input={"title": "eggs", "qty": 3})
    assert receipt.ok, receipt.to_json()
    result = receipt.to_builtins()["result"]
    assert result["output"].startswith("<page_data>") and "eggs" in result["output"]
    assert result["changed"]["records"]["added"] == ["eggs"]
    assert result["changed"]["state"]["count"] == {"before": "2", "after": "3"}


async def test_wm1_invalid_input_is_refused_before_the_page_sees_it(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "echo")
    for bad, path in (({"qty": "x"}, "$.qty"), ({"qty": 2, "tags": [1]}, "$.tags[0]"), ({}, "$")):
        receipt = await tab.act("echo", input=bad)
        assert receipt.code == "INVALID_ARGUMENT", receipt.to_json()
        assert receipt.result.error is not None and f"at {path}:" in receipt.result.error.message
    assert _state(await tab.observe())["log"] == "[]"
    assert (await tab.act("echo", input={"qty": 2})).ok


async def test_wm1_a_throwing_tool_reports_its_exception(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "boom")
    receipt = await tab.act("boom", input={})
    assert receipt.code == "ACTION_FAILED"
    error = receipt.result.error
    assert error is not None and "TypeError: kaboom from the page" in error.message


async def test_wm1_a_tool_that_never_answers_is_cancelled_at_the_deadline(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "slow")
    receipt = await tab.act("slow", input={}, timeout=3)
    assert receipt.code == "TIMEOUT", receipt.to_json()
    assert receipt.result.error is not None  # the reason is written once (issue 22, item 17)
    assert receipt.result.error.message.count("did not answer in time") == 1, receipt.to_json()
    seen = (
        "new Promise(r => { const log = JSON.parse(document.getElementById('log').textContent);"
        " if (log.includes('cancelled')) r(true);"
        " else document.modelContext.addEventListener('toolcancel', () => r(true)); })"
    )
    with trio.fail_after(10):
        assert await evaluate(tab, seen) is True  # the page saw toolcancel


async def test_wm1_an_aborted_registration_leaves_the_observation(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "temporary")
    assert await evaluate(tab, "dropTemporary()") is True
    with trio.fail_after(10):
        while "temporary" in _registered(tab):
            await evaluate(tab, "0")
    assert "temporary" not in {a.name for a in (await tab.observe()).actions}
    assert (await tab.act("temporary", input={})).code == "UNKNOWN_ACTION"


async def test_wm1_reload_replaces_the_tool_table(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "echo")
    first = await tab.act("echo", input={"qty": 1})
    await tab.reload()
    await _until_registered(tab, "echo")
    names = [a.name for a in (await tab.observe()).actions]
    assert len(names) == len(set(names)), names  # the old document's tools are gone, not doubled
    second = await tab.act("echo", input={"qty": 1})
    nonce = await evaluate(tab, "window.documentNonce")
    assert second.result.output is not None and nonce in second.result.output
    assert first.result.output is not None and nonce not in first.result.output


async def test_wm1_a_call_in_flight_across_a_reload_is_page_changed(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "slow")
    receipts: list[cdpagent.Receipt] = []

    async def call() -> None:
        receipts.append(await tab.act("slow", input={}, timeout=20))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(call)
        started = (
            "new Promise(r => { const check = () => document.getElementById('log').textContent"
            ".includes('slow') ? r(true) : setTimeout(check, 10); check(); })"
        )
        with trio.fail_after(10):
            await evaluate(tab, started)
        await tab.reload()
    assert receipts[0].code == "PAGE_CHANGED", receipts[0].to_json()


async def test_wm1_a_tool_of_a_same_origin_frame_is_listed_and_runs(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "frame_tool")
    receipt = await tab.act("frame_tool", input={})
    assert receipt.ok and receipt.result.output == "<page_data>from the frame</page_data>"


async def test_wm1_declarative_forms_with_and_without_autosubmit(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, SHOP, "add_note", "draft_message")
    noted = await tab.act("add_note", input={"text": "buy candles"})
    assert noted.ok and noted.result.output is not None and "buy candles" in noted.result.output
    drafted = await tab.act("draft_message", input={"message": "home at six"})
    assert drafted.ok, drafted.to_json()
    assert drafted.result.warnings and "filled in its form" in drafted.result.warnings[0]
    assert _state(await tab.observe())["sent"] == "nothing sent"
    sent = await tab.act("send_draft")
    assert sent.ok and _state(await tab.observe())["sent"] == "sent: home at six"


async def test_wm1_a_consequential_tool_needs_confirmation(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, SHOP, "remove_item")
    denied = await tab.act("remove_item", input={"title": "milk"})
    assert denied.code == "CONFIRMATION_DENIED"
    done = await tab.act("remove_item", input={"title": "milk"}, confirm=lambda request: True)
    assert done.ok and done.to_builtins()["result"]["changed"]["records"]["removed"] == ["milk"]


async def test_wm1_five_hundred_tools_stay_within_budget(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, MANY, "tool_499")
    result = await observe_page(tab)
    assert len(result.text) + len(msgspec.json.encode(result.tools)) <= 12_000
    omitted = result.observation.omitted
    assert omitted.action_entries == 500 and omitted.action_entries_shown < 500
    assert f"showing {omitted.action_entries_shown}" in result.text


async def test_wm1_tool_output_stays_fenced_and_untrusted_output_is_flagged(wm: cdpagent.Browser) -> None:
    tab = await _open(wm, CASES, "fence", "gossip")
    receipt = await tab.act("fence", input={})
    output = receipt.result.output
    assert output is not None and output.startswith("<page_data>") and output.endswith("</page_data>")
    inner = output.removeprefix("<page_data>").removesuffix("</page_data>")
    assert "<" not in inner and "\n" not in inner
    gossip = await tab.act("gossip", input={})
    assert gossip.result.warnings and "untrusted content" in gossip.result.warnings[0]


@pytest.mark.browser
async def test_wm1_a_tool_that_answers_before_its_invocation_reply_is_not_lost() -> None:
    # A synchronous tool answers (toolResponded) before the reply to invokeTool arrives;
    # over the pipe of a launched browser that is the usual order. The bridge must keep
    # such an early answer for its caller.
    async with cdpagent.launch(webmcp=True) as browser:
        tab = await _open(browser, CASES, "quick")
        bridge = WebMcp.of(browser)
        assert bridge is not None
        tool = next(t for t in bridge.tools(tab) if t.name == "quick")
        for _ in range(20):
            response = await bridge.call(tab, tool, {}, trio.current_time() + 5)
            assert response.status == "Completed", response
            assert response.output == {"ok": True, "n": 42}
