"""Issue 23 on the surfaces with a current tab, against real Chromium: the ``script`` steps of the
primitives, and the agent offering them only when its role's capabilities enable them (with a
screenshot sent to the model as an image part, or said to be unavailable)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import msgspec
import trio
from conftest import PAGES
from scripted_model import ScriptedModel, answer, calls

import cdpagent
from cdpagent.agent import Agent, Model, generic_role
from cdpagent.script import STEPS, ScriptContext

PRIMITIVES = PAGES / "primitives"
PAGE = PRIMITIVES / "page.html"
SECOND = PRIMITIVES / "second.html"


async def _step(ctx: ScriptContext, **step: Any) -> dict[str, Any]:
    result: dict[str, Any] = await STEPS[step["op"]](ctx, step)
    return result


async def test_the_primitives_are_script_steps_with_the_operation_arguments(
    browser: cdpagent.Browser, tmp_path: Path
) -> None:
    ctx = ScriptContext(await browser.open(PAGE), None)
    first = ctx.tab.id
    went = await _step(ctx, op="navigate", url=str(SECOND))
    assert went == {"op": "navigate", "tabId": first, "url": SECOND.as_uri(),
                    "changed": f"navigated: {PAGE.as_uri()} → {SECOND.as_uri()}"}  # fmt: skip
    assert (await _step(ctx, op="back"))["url"] == PAGE.as_uri()
    assert (await _step(ctx, op="forward", timeout=20))["url"] == SECOND.as_uri()
    assert (await _step(ctx, op="reload"))["changed"] == f"reloaded: still {SECOND.as_uri()}"
    await _step(ctx, op="back")
    shot = await _step(ctx, op="screenshot", max_edge=300)
    data = base64.b64decode(shot["data"])
    assert data.startswith(b"\x89PNG") and shot["bytes"] == len(data) and shot["masked"] == 2
    assert max(shot["width"], shot["height"]) <= 300
    pdf = await _step(ctx, op="pdf")
    assert base64.b64decode(pdf["data"]).startswith(b"%PDF") and pdf["bytes"] > 0
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
    browser: cdpagent.Browser,
) -> None:
    from cdpagent.script import run_step

    ctx = ScriptContext(await browser.open(PAGE), None)
    lines = [
        ('{"op": "screenshot", "fromat": "png"}', "SCRIPT_STEP_INVALID", "unknown argument `fromat`"),
        ('{"op": "reload", "timeout": -1}', "SCRIPT_STEP_INVALID", "timeout"),
        ('{"op": "select"}', "SCRIPT_STEP_INVALID", "select needs 'tabId'"),
        ('{"op": "select", "tabId": "tab999"}', "SCRIPT_STEP_FAILED", "no open tab 'tab999'"),
        ('{"op": "wait_for", "text": "never", "timeout": 0.3}', "SCRIPT_STEP_FAILED", "never"),
    ]
    for line, code, says in lines:
        result, go_on = await run_step(ctx, line)
        assert (result["error"]["code"], go_on) == (code, False), result
        assert says in result["error"]["message"], result


def _role(*capabilities: str) -> Any:
    return msgspec.structs.replace(generic_role(str(PAGE)), capabilities=list(capabilities))


async def test_the_agent_offers_the_primitives_its_role_enables_and_sees_the_screenshot(
    browser: cdpagent.Browser,
) -> None:
    model = ScriptedModel([
        calls(("navigate", json.dumps({"url": str(SECOND)}))),
        calls(("screenshot", json.dumps({"max_edge": 200}))),
        calls(("go_back", "{}")),
        answer("Done."),
    ])  # fmt: skip
    with model.running():
        async with Model("scripted", base_url=model.url, api_key="k") as endpoint:
            agent = Agent(browser, endpoint, _role("navigation", "screenshot"))
            with trio.fail_after(60):
                result = await agent.run("go to the second page, look, and come back")
    first, second, third, _ = model.checked_requests()
    offered = {t["function"]["name"] for t in first["tools"]}
    assert {"navigate", "go_back", "go_forward", "reload", "screenshot"} <= offered
    assert not offered & {"pdf", "click_at", "console", "select_page", "open_page"}
    assert [r.ok for r in result.receipts] == [True, True, True], [r.result for r in result.receipts]
    assert result.receipts[0].result["changed"] == f"navigated: {PAGE.as_uri()} → {SECOND.as_uri()}"
    assert result.receipts[1].result["image"] == "attached in the next message"
    (image,) = [m for m in third["messages"] if isinstance(m.get("content"), list)]
    assert image["role"] == "user" and image["content"][1]["image_url"]["url"].startswith(
        "data:image/png;base64,"
    )
    assert agent.thread.tabs[0].document is not None and agent.thread.tabs[0].document.url == PAGE.as_uri()
    assert not any(isinstance(m.get("content"), list) for m in second["messages"])


async def test_the_agent_offers_no_primitive_by_default_and_says_when_images_cannot_be_sent(
    browser: cdpagent.Browser,
) -> None:
    model = ScriptedModel([answer("Nothing to do."), calls(("screenshot", "{}")), answer("Seen.")])
    with model.running():
        async with Model("scripted", base_url=model.url, api_key="k") as endpoint:
            plain = Agent(browser, endpoint, generic_role(str(PAGE)))
            with trio.fail_after(60):
                await plain.run("hello")
            blind = Agent(browser, endpoint, _role("screenshot"), images=False)
            with trio.fail_after(60):
                result = await blind.run("look")
    default, *later = model.checked_requests()
    names = {t["function"]["name"] for t in default.get("tools", [])}
    assert not names & {"navigate", "go_back", "screenshot", "wait_for", "console", "downloads"}
    assert result.receipts[0].result["image"].startswith("not available")
    assert not any(isinstance(m.get("content"), list) for body in later for m in body["messages"])
