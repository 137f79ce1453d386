"""The operations layer (issue 21): every operation reachable from every surface with the same
argument names, and a WebMCP tool's ``input`` working from each surface (on recorded CDP
connections of Chromium with WebMCP, tests/recorded_cdp.py: the ``WebMCP.invokeTool`` each surface
sends must carry the recorded input; the bridge against live Chromium is tests/test_webmcp.py).

The surfaces are the Python API (``Browser`` / ``Tab`` / ``Thread``), the ``script`` steps,
the agent's tools (what ``cdpagent chat --webmcp`` runs) and the MCP server.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
import trio
from conftest import EXAMPLES, evaluate
from mcp.client.client import Client
from mcp_support import call_ok
from scripted_model import ScriptedModel, answer, calls

import cdpagent
from cdpagent import ToolCallError
from cdpagent.agent import Agent, MethodDoc, Model, generic_role
from cdpagent.agent.request import operation_tools, page_method_tool
from cdpagent.mcp_server.server import SurfaceConfig, open_server
from cdpagent.ops.operations import (
    CAPABILITIES,
    OPERATIONS,
    OPT_INS,
    ActArgs,
    InvokeArgs,
    OperationArgs,
    argument_names,
    decode,
    function_call,
    surface_arguments,
)
from cdpagent.ops.script import STEPS, ScriptContext, act_step
from cdpagent.runtime import Thread
from cdpagent.webmcp.bridge import WebMcp

SHOP = EXAMPLES / "webmcp" / "index.html"

#: The Python API of each operation (``Operation.python``), where it exists (Tab.click_at and
#: Tab.type_at come with branch `files`, INTERFACES.md).
_OWNERS = {"Browser": cdpagent.Browser, "Tab": cdpagent.Tab, "Thread": Thread}
PYTHON: dict[str, Callable[..., Any]] = {
    op.name: getattr(_OWNERS[op.python.split(".")[0]], op.python.split(".")[1])
    for op in OPERATIONS
    if op.python and hasattr(_OWNERS[op.python.split(".")[0]], op.python.split(".")[1])
}
#: Positional names of the Python API where the operation's argument is the first parameter.
PYTHON_NAMES = {"open": {"url_or_path": "url"}, "navigate": {"url_or_path": "url"}}


def test_every_operation_names_its_python_api() -> None:
    assert {op.name for op in OPERATIONS if not op.python} == {"select"}
    pending = {"click_at", "type_at"} - set(PYTHON)  # until branch files lands
    assert set(PYTHON) | pending == {op.name for op in OPERATIONS if op.python}


def test_every_operation_is_declared_once_with_a_struct() -> None:
    names = [op.name for op in OPERATIONS]
    assert names == [
        "open", "close", "list", "navigate", "observe", "act", "invoke", "notifications",
        "back", "forward", "reload", "select", "screenshot", "pdf", "wait_for", "console", "network",
        "downloads", "click_at", "type_at",
    ]  # fmt: skip
    assert [op.tool for op in OPERATIONS if op.opt_in == "vision"] == ["click_at", "type_at"]
    assert [op.tool for op in OPERATIONS if op.opt_in == "pdf"] == ["pdf"]
    for op in OPERATIONS:
        assert not (op.read_only and op.destructive), op.name
        schema = msgspec.json.schema(op.args)  # every argument described, with its bounds
        props = next(iter(schema["$defs"].values()))["properties"] if "$defs" in schema else {}
        assert all("description" in p or "$ref" in p for p in props.values()), op.name
    assert len({op.tool for op in OPERATIONS}) == len(OPERATIONS)
    assert set(argument_names(next(op for op in OPERATIONS if op.name == "act"))) == {
        "action", "record", "text", "option", "checked", "input", "key", "to", "value", "files",
    }  # fmt: skip


# list is the property Browser.tabs; select has no Python form (a Tab is addressed directly).
@pytest.mark.parametrize(
    "op", [op for op in OPERATIONS if op.name in PYTHON and op.name != "list"], ids=lambda op: op.name
)
def test_the_python_api_takes_the_operation_arguments(op: Any) -> None:
    params = set(inspect.signature(PYTHON[op.name]).parameters) - {"self"}
    params = {PYTHON_NAMES.get(op.name, {}).get(p, p) for p in params}
    assert set(argument_names(op)) <= params, op.name
    # Browser.tabs / Thread.tabs are the list operation (no arguments).
    assert isinstance(inspect.getattr_static(cdpagent.Browser, "tabs"), property)


#: How the agent reaches the operations that are no tool of their own: it observes the current
#: tab for every request, and acts through the page's action tools and invoke_page_method.
AGENT_BUILT_IN = {"observe", "act", "invoke"}


async def test_every_operation_is_reachable_from_every_surface_with_the_same_argument_names() -> None:
    """Python (above), script steps, the agent's tools (every capability enabled) and the MCP
    tools (every opt-in enabled): each operation, by its name, with its argument names."""
    assert set(STEPS) >= {op.name for op in OPERATIONS}
    config = SurfaceConfig(capabilities=OPT_INS)
    async with open_server(config) as server, Client(server) as client:  # no browser starts
        tools = {t.name: t for t in (await client.list_tools()).tools}
    everything = msgspec.structs.replace(generic_role("page.html"), capabilities=list(CAPABILITIES))
    agent = {t["function"]["name"]: t["function"] for t in operation_tools(everything, ["tab1", "tab2"])}
    for op in OPERATIONS:
        # observe's options are the MCP server's clamped budgets (still named options).
        assert list(tools[op.tool].input_schema["properties"]) == list(
            surface_arguments(op, current_tab=False)
        ), op.name
        if op.name in AGENT_BUILT_IN:
            assert op.capability is None and op.tool not in agent
            continue
        assert op.capability in CAPABILITIES and op.tool in agent, op.name
        assert list(agent[op.tool]["parameters"]["properties"]) == list(
            surface_arguments(op, current_tab=True)
        ), op.name
    # Defaults stay as they were: a role that enables nothing is offered no operation tool.
    assert operation_tools(generic_role("page.html"), ["tab1"]) == []
    assert set(agent) == {op.tool for op in OPERATIONS} - {"observe", "act", "invoke_page_method"}


def test_the_agent_tools_take_the_act_and_invoke_arguments() -> None:
    role = msgspec.structs.replace(generic_role("page.html"), methods=[MethodDoc("m", "read", "d", "{}")])
    invoke = page_method_tool(role, ["tab1"])["function"]["parameters"]["properties"]
    declared = set(argument_names(next(o for o in OPERATIONS if o.name == "invoke")))
    assert set(invoke) == {"tabId"} | (declared - {"timeout"})  # the agent's deadline is its own
    # A page action's tool takes the act arguments but action; a page tool its input.
    assert function_call("toggle", "check", {"record": "t1", "checked": True}) == ActArgs(
        action="toggle", record="t1", checked=True
    )
    assert function_call("add_item", "tool", {"title": "eggs", "qty": 3}).input == {"title": "eggs", "qty": 3}


def test_arguments_are_decoded_once_and_refused_by_name() -> None:
    assert decode(InvokeArgs, {"method": "m", "args": {"a": 1}}).args == {"a": 1}
    cases: list[tuple[type[OperationArgs], dict[str, Any], str]] = [
        (ActArgs, {"action": "x", "title": 1}, "unknown argument `title`"),
        (ActArgs, {"action": "x", "checked": 1}, "checked"),
        (ActArgs, {}, "missing argument `action`"),
        (InvokeArgs, {"method": 3}, "method"),
    ]
    for args, raw, says in cases:
        with pytest.raises(ToolCallError) as caught:
            decode(args, raw)
        assert caught.value.code == "INVALID_ARGUMENT" and says in caught.value.message
    with pytest.raises(ToolCallError, match="unknown argument 'action'"):
        function_call("toggle", "click", {"action": "x"})


# -- a WebMCP tool with input, from every surface (real Chromium with WebMCP) ---------------


async def _registered(tab: cdpagent.Tab) -> cdpagent.Tab:
    """``tab`` once its page registered ``add_item`` (a round trip lets toolsAdded arrive)."""
    bridge = WebMcp.of(tab.browser)
    assert bridge is not None
    with trio.fail_after(10):
        while "add_item" not in {t.name for t in bridge.tools(tab)}:
            await evaluate(tab, "0")
    return tab


def _added(receipt: dict[str, Any]) -> None:
    body = receipt["result"]
    assert body["ok"] is True, body
    assert '\\"title\\":\\"' in body["output"] and '\\"qty\\":' in body["output"]


async def test_a_webmcp_tool_takes_input_from_tab_act(recorded_wm: cdpagent.Browser) -> None:
    tab = await _registered(await recorded_wm.open(SHOP))
    _added((await tab.act("add_item", input={"title": "eggs", "qty": 3})).to_builtins())


async def test_a_webmcp_tool_takes_input_from_a_script_step(recorded_wm: cdpagent.Browser) -> None:
    tab = await _registered(await recorded_wm.open(SHOP))
    result = await act_step(tab, {"op": "act", "action": "add_item", "input": {"title": "eggs", "qty": 3}})
    _added(result["receipt"])
    bad = await STEPS["act"](ScriptContext(tab, None), {"op": "act", "action": "add_item", "title": "eggs"})
    assert bad["receipt"]["result"]["error"]["code"] == "INVALID_ARGUMENT"


async def test_a_webmcp_tool_takes_its_arguments_from_the_agent(recorded_wm: cdpagent.Browser) -> None:
    """What ``cdpagent chat --webmcp`` runs: the model calls add_item{title, qty} as offered
    (it was refused with "unknown argument 'title'" before the operations layer)."""
    server = ScriptedModel([calls(("add_item", json.dumps({"title": "eggs", "qty": 3}))), answer("Added.")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_wm, model, generic_role(str(SHOP)))
            tab_id = await agent.open()
            await _registered(next(t for t in recorded_wm.tabs if t.id == tab_id))
            with trio.fail_after(60):
                result = await agent.run("add three eggs")
    first = server.checked_requests()[0]
    offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert set(offered["add_item"]["parameters"]["properties"]) == {"title", "qty"}
    assert result.receipts[0].ok, result.receipts[0].result
    _added(result.receipts[0].result_json())


async def test_a_webmcp_tool_takes_input_from_the_mcp_page_tool_and_act(recorded_endpoint: str) -> None:
    config = SurfaceConfig(connect=recorded_endpoint, webmcp=True, page_tools=True)
    async with open_server(config) as server, Client(server) as client:
        tab = (await call_ok(client, "open_page", {"url": str(SHOP)}))["tabId"]
        with trio.fail_after(10):
            while "add_item" not in {t.name for t in (await client.list_tools()).tools}:
                await call_ok(client, "observe", {"tabId": tab})
        _added(await call_ok(client, "add_item", {"title": "eggs", "qty": 3}))
        given = {"tabId": tab, "action": "add_item", "input": {"title": "ham", "qty": 3}}
        _added(await call_ok(client, "act", given))
        await call_ok(client, "close_page", {"tabId": tab})
