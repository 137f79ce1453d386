"""What the Agent Surface tests share: calling tools through any ``mcp.Client`` and the seed walkthrough."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import trio
from mcp.client.client import Client
from mcp_types import CallToolResult, TextContent

from cdpagent.ops.operations import OPERATIONS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PAGES = Path(__file__).resolve().parent / "pages"
CDPAGENT = ROOT / ".venv" / "bin" / "cdpagent"
#: A handshake-era ``initialize`` request, for raw JSON-RPC clients.
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
#: The tools served by default: one per operation of the table but the opt-ins (pinned by name in
#: tests/test_operations.py).
TOOLS = {op.tool for op in OPERATIONS if op.opt_in is None}
#: The tools served with every opt-in enabled (``--vision --pdf``): the whole table.
ALL_TOOLS = {op.tool for op in OPERATIONS}


def text_of(result: CallToolResult) -> str:
    """The one text content block of a tool result."""
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent), result
    return result.content[0].text


async def call_ok(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call ``name``; fail the test unless it succeeded; return its structured content."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, text_of(result)
    structured: dict[str, Any] | None = result.structured_content
    assert structured is not None
    return structured


async def call_error(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call ``name``; fail the test unless it is a tool error; return ``{"code", "message"}``.

    Checks the error's shape: ``isError``, structured ``{"ok": false, "error"}``, the code in the text.
    """
    result = await client.call_tool(name, arguments)
    assert result.is_error, text_of(result)
    assert result.structured_content is not None
    structured = result.structured_content
    error: dict[str, Any] = structured["result"]["error"] if "result" in structured else structured["error"]
    assert structured.get("ok", False) is False
    assert error["code"] in text_of(result)
    return error


def receipt_of(result: dict[str, Any]) -> dict[str, Any]:
    """The ``result`` object of a receipt (the ``act`` tool's structured content)."""
    body: dict[str, Any] = result["result"]
    return body


async def seed_walkthrough(client: Client) -> list[dict[str, Any]]:
    """The seed's walkthrough through ``client``: todos, observe, search 周报, observe, toggle t9.

    Checks each step and returns the two receipts; closes the tab.
    """
    opened = await call_ok(client, "open_page", {"url": str(EXAMPLES / "todos" / "index.html")})
    tab = opened["tabId"]
    first = await client.call_tool("observe", {"tabId": tab})
    assert not first.is_error
    assert "## Available actions on this page" in text_of(first)
    assert first.structured_content is not None
    observation = first.structured_content["observation"]
    assert observation["identity"]["title"] == "Todos"
    assert {t["function"]["name"] for t in first.structured_content["tools"]} >= {"search", "toggle"}
    assert all(r["fields"].get("title") != "周报" for r in observation["records"])
    searched = await call_ok(client, "act", {"tabId": tab, "action": "search", "text": "周报"})
    assert receipt_of(searched)["ok"] is True
    found = await call_ok(client, "observe", {"tabId": tab})
    target = next(r for r in found["observation"]["records"] if r["fields"].get("title") == "周报")
    assert target["id"] == "t9"
    toggled = await call_ok(client, "act", {"tabId": tab, "action": "toggle", "record": "t9"})
    change = receipt_of(toggled)["changed"]["records"]["changed"]["t9"]["done"]
    assert change == {"before": False, "after": True}
    await call_ok(client, "close_page", {"tabId": tab})
    return [searched, toggled]


def structured_size(value: Any) -> int:
    """Characters of ``value`` as compact JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


async def redirector(
    port_box: list[int], task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """A loopback server whose ``/go`` redirects to ``elsewhere.localhost`` (a host the URL policy
    refuses); its port goes into ``port_box``."""

    async def handler(stream: trio.SocketStream) -> None:
        request = await stream.receive_some(4096)
        if request.startswith(b"GET /go"):
            where = f"http://elsewhere.localhost:{port_box[0]}/"
            head = f"HTTP/1.1 302 Found\r\nLocation: {where}\r\nContent-Length: 0\r\n"
            await stream.send_all(head.encode() + b"Connection: close\r\n\r\n")
        else:
            page = b"<!doctype html><title>elsewhere</title><p>not allowed</p>"
            head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(page)}\r\n"
            await stream.send_all(head.encode() + b"Connection: close\r\n\r\n" + page)
        await stream.aclose()

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port_box.append(listeners[0].socket.getsockname()[1])
    task_status.started()
    await trio.serve_listeners(handler, listeners)
