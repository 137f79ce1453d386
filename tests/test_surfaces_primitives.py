"""Issue 23 on the surfaces with a current tab: the ``script`` steps of the primitives, and the
agent offering them only when its role's capabilities enable them (with a screenshot sent to the
model as an image part, or said to be unavailable). The browser's side is recorded from Chromium
(tests/recorded_cdp.py); the primitives themselves against live Chromium are tests/test_primitives.py."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import msgspec
import trio
from conftest import PAGES
from mcp_support import redirector
from recorded_cdp import Recorded
from scripted_model import ScriptedModel, answer, calls

import cdpagent
from cdpagent.agent import Agent, Model, generic_role
from cdpagent.ops.script import STEPS, ScriptContext

PRIMITIVES = PAGES / "primitives"
PAGE = PRIMITIVES / "page.html"
SECOND = PRIMITIVES / "second.html"


async def _step(ctx: ScriptContext, **step: Any) -> dict[str, Any]:
    result: dict[str, Any] = await STEPS[step["op"]](ctx, step)
    return result


async def test_the_primitives_are_script_steps_with_the_operation_arguments(
    recorded_browser: cdpagent.Browser, tmp_path: Path
) -> None:
    ctx = ScriptContext(await recorded_browser.open(PAGE), None)
    first = ctx.tab.id
    went = await _step(ctx, op="navigate", url=str(SECOND))
    assert went == {"op": "navigate", "tabId": first, "url": SECOND.as_uri(),
                    "changed": f"navigated: {PAGE.as_uri()} → {SECOND.as_uri()}"}  # fmt: skip
    pdf = await _step(ctx, op="pdf")  # of the short page: a PDF of the 5,000-pixel one takes longer
    assert base64.b64decode(pdf["data"]).startswith(b"%PDF") and pdf["bytes"] > 0
    # forward and reload are the same one-line runner over Tab.forward / Tab.reload as back.
    assert (await _step(ctx, op="back", timeout=20))["url"] == PAGE.as_uri()
    shot = await _step(ctx, op="screenshot", max_edge=300)
    data = base64.b64decode(shot["data"])
    assert data.startswith(b"\x89PNG") and shot["bytes"] == len(data) and shot["masked"] == 2
    assert max(shot["width"], shot["height"]) <= 300
    await ctx.tab.act("later")
    held = await _step(ctx, op="wait_for", text="The answer is 42")
    assert held == {"op": "wait_for", "tabId": first, "holds": {"text": "The answer is 42"}}
    await ctx.tab.wait_until(lambda: any("boom" in m.text for m in ctx.tab.console()), 10)
    console = await _step(ctx, op="console", limit=200)
    assert any(m["text"].startswith("page says 42") for m in console["messages"])
    assert "requests" in await _step(ctx, op="network")
    assert (await _step(ctx, op="downloads")) == {"op": "downloads", "downloads": []}
    second = await _step(ctx, op="open", url=str(SECOND))
    assert ctx.tab.id == second["tabId"] != first
    listed = await _step(ctx, op="list")
    assert listed["current"] == second["tabId"] and first in {p["tabId"] for p in listed["pages"]}
    assert await _step(ctx, op="select", tabId=first) == {
        "op": "select",
        "tabId": first,
        "url": PAGE.as_uri(),
    }
    assert ctx.tab.id == first
    await _step(ctx, op="select", tabId=second["tabId"])
    await _step(ctx, op="close")
    assert ctx.tab.id == first


async def test_a_bad_primitive_step_names_its_argument_and_a_failed_one_keeps_its_code(
    recorded_browser: cdpagent.Browser,
) -> None:
    from cdpagent.ops.script import run_step

    ctx = ScriptContext(await recorded_browser.open(SECOND), None)
    lines = [
        ('{"op": "screenshot", "fromat": "png"}', "SCRIPT_STEP_INVALID", "unknown argument `fromat`"),
        ('{"op": "reload", "timeout": -1}', "SCRIPT_STEP_INVALID", "timeout"),
        ('{"op": "select"}', "SCRIPT_STEP_INVALID", "select needs 'tabId'"),
        ('{"op": "select", "tabId": "tab999"}', "SCRIPT_STEP_FAILED", "no open tab 'tab999'"),
    ]  # a wait_for step that times out: tests/test_primitives.py (its polls follow the clock)
    for line, code, says in lines:
        result, go_on = await run_step(ctx, line)
        assert (result["error"]["code"], go_on) == (code, False), result
        assert says in result["error"]["message"], result


def _role(*capabilities: str, page: Path = PAGE) -> Any:
    return msgspec.structs.replace(generic_role(str(page)), capabilities=list(capabilities))


async def test_the_agent_offers_the_primitives_its_role_enables_and_sees_the_screenshot_if_it_can(
    recorded_browser: cdpagent.Browser,
) -> None:
    """(A role that enables nothing is offered no operation tool: tests/test_operations.py.)"""
    model = ScriptedModel([
        calls(("navigate", json.dumps({"url": str(SECOND)}))),
        calls(("screenshot", json.dumps({"max_edge": 200}))),
        calls(("go_back", "{}")),
        answer("Done."),
        calls(("screenshot", "{}")),  # the second agent's, whose endpoint takes no images
        answer("Seen."),
    ])  # fmt: skip
    with model.running():
        async with Model("scripted", base_url=model.url, api_key="k") as endpoint:
            agent = Agent(recorded_browser, endpoint, _role("navigation", "screenshot"))
            blind = Agent(recorded_browser, endpoint, _role("screenshot", page=SECOND), images=False)
            with trio.fail_after(90):
                result = await agent.run("go to the second page, look, and come back")
                unseen = await blind.run("look")
    first, second, third, _, *later = model.checked_requests()
    offered = {t["function"]["name"] for t in first["tools"]}
    assert {"navigate", "go_back", "go_forward", "reload", "screenshot"} <= offered
    assert not offered & {"pdf", "click_at", "console", "select_page", "open_page"}
    assert [r.ok for r in result.receipts] == [True, True, True], [r.result for r in result.receipts]
    assert result.receipts[0].result["changed"] == f"navigated: {PAGE.as_uri()} → {SECOND.as_uri()}"
    assert result.receipts[1].result["image"] == "attached in the next message"
    (image,) = [m for m in third["messages"] if isinstance(m.get("content"), list)]
    assert image["role"] == "user"
    assert image["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert agent.thread.tabs[0].document is not None and agent.thread.tabs[0].document.url == PAGE.as_uri()
    assert not any(isinstance(m.get("content"), list) for m in second["messages"])
    # Without images the result says so, and no image part is ever sent.
    assert unseen.receipts[0].ok and unseen.receipts[0].result["image"].startswith("not available")
    assert not any(isinstance(m.get("content"), list) for body in later for m in body["messages"])


async def test_the_agent_takes_its_tabs_only_where_the_url_policy_allows(
    recorded_browser: cdpagent.Browser, recorded: Recorded, tmp_path: Path
) -> None:
    """A model that asks for a file outside the allowed directories, or follows a loopback URL
    whose redirect leaves loopback, gets the policy's code; the tab shows no such page."""
    outside = tmp_path / "secret.html"
    outside.write_text("<title>secret</title><p>the recovery code is 8472</p>", encoding="utf-8")
    port: list[int] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(redirector, port)
        for host in ("127.0.0.1", "elsewhere.localhost"):  # where it is and where it redirects to
            recorded.vary(f"the redirector at {host}", f"{host}:{port[0]}")
        model = ScriptedModel([
            calls(("navigate", json.dumps({"url": str(outside)}))),
            calls(("navigate", json.dumps({"url": f"http://127.0.0.1:{port[0]}/go"}))),
            calls(("navigate", json.dumps({"url": str(SECOND)}))),
            answer("Done."),
        ])  # fmt: skip
        with model.running():
            async with Model("scripted", base_url=model.url, api_key="k") as endpoint:
                agent = Agent(recorded_browser, endpoint, _role("navigation"))
                with trio.fail_after(90):
                    result = await agent.run("go to the secret page")
        nursery.cancel_scope.cancel()
    refused, redirected, allowed = (r.result for r in result.receipts)
    assert refused["error"]["code"] == "FILE_NOT_ALLOWED", refused
    assert redirected["error"]["code"] == "URL_NOT_ALLOWED", redirected
    assert "about:blank" in redirected["error"]["message"]
    assert allowed["url"] == SECOND.as_uri()  # the role page's own folder is allowed
    assert "8472" not in json.dumps(model.checked_requests())
