"""The Agent Surface as a separate process (SF-3): ``cdpagent mcp`` over stdio and streamable HTTP.

Real clients only: the SDK's ``mcp.Client`` over a subprocess's stdin/stdout and
over HTTP, raw HTTP requests for the guards, and the MCP Inspector's command-line
mode (a client nobody on this team wrote; installed pinned by ``scripts/setup.sh``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
import trio
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_support import (
    ALL_TOOLS,
    CDPAGENT,
    EXAMPLES,
    INIT,
    ROOT,
    TOOLS,
    call_error,
    call_ok,
    seed_walkthrough,
)
from mcp_types import TextContent
from process_support import alive, descendants

from cdpagent.ops.operations import OPERATIONS

INSPECTOR = ROOT / ".venv" / "node" / "node_modules" / ".bin" / "mcp-inspector"
TOKEN = "test-token-0123456789"
# Importing the MCP SDK alone takes seconds of CPU; on a loaded machine much longer.
START_TIMEOUT = 120


async def test_sf3_stdio_walkthrough_with_the_sdk_client(chrome_endpoint: str) -> None:
    params = StdioServerParameters(command=str(CDPAGENT), args=["mcp", "--connect", chrome_endpoint])
    with trio.fail_after(START_TIMEOUT + 120):
        async with Client(params) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            await seed_walkthrough(client)


async def _open_page_over_raw_stdio(process: trio.Process) -> set[int]:
    """Initialize, open a page (which launches the browser); return the server's descendants then."""
    assert process.stdin is not None and process.stdout is not None
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "open_page", "arguments": {"url": str(EXAMPLES / "hello" / "index.html")}},
    }
    lines = [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call]
    await process.stdin.send_all("".join(json.dumps(m) + "\n" for m in lines).encode())
    buffer = b""
    with trio.fail_after(START_TIMEOUT + 60):
        while b'"id":2' not in buffer:
            chunk = await process.stdout.receive_some()
            assert chunk, buffer
            buffer += chunk
    assert b'"tabId"' in buffer, buffer
    browser = descendants(process.pid)
    assert browser, "the browser should run below the server"
    return browser


@pytest.mark.browser
@pytest.mark.parametrize("ending", ["stdin closed", "SIGTERM"])
async def test_sf3_nothing_is_left_running_when_the_client_goes_away(ending: str) -> None:
    process = await trio.lowlevel.open_process(
        [str(CDPAGENT), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        browser = await _open_page_over_raw_stdio(process)
        assert process.stdin is not None
        if ending == "stdin closed":
            # What a killed or exiting client does to its server.
            await process.stdin.aclose()
        else:
            process.send_signal(signal.SIGTERM)
        with trio.fail_after(60):
            await process.wait()
        assert process.returncode == 0
        # The server reaps its browser's process group before it exits.
        assert not alive(browser)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@asynccontextmanager
async def http_server(*args: str) -> AsyncIterator[str]:
    """``cdpagent mcp --http 127.0.0.1:0 …`` as a subprocess; yields its URL; SIGTERM at the end."""
    process = await trio.lowlevel.open_process(
        [str(CDPAGENT), "mcp", "--http", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    try:
        text = ""
        with trio.fail_after(START_TIMEOUT):
            while "listening on " not in text or not text.endswith("\n"):
                chunk = await process.stderr.receive_some()
                assert chunk, text
                text += chunk.decode()
        url = text.split("listening on ", 1)[1].split()[0]
        async with trio.open_nursery() as nursery:
            # Keep draining stderr so the server never blocks on a full pipe.
            nursery.start_soon(_drain, process.stderr)
            yield url
            process.send_signal(signal.SIGTERM)
            with trio.fail_after(60):
                await process.wait()
            nursery.cancel_scope.cancel()
        assert process.returncode == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _drain(stream: trio.abc.ReceiveStream) -> None:
    while await stream.receive_some():
        pass


def _authorised(token: str = TOKEN, **headers: str) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}", **headers}, timeout=120)


async def test_sf3_streamable_http_walkthrough_and_guards(chrome_endpoint: str) -> None:
    async with http_server("--connect", chrome_endpoint, "--token", TOKEN) as url:
        async with Client(streamable_http_client(url, http_client=_authorised())) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            await seed_walkthrough(client)
        body = json.dumps(INIT)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        async with _authorised(Origin="http://evil.example") as http:
            assert (await http.post(url, content=body, headers=headers)).status_code == 403
        async with _authorised(Host="evil.example") as http:
            assert (await http.post(url, content=body, headers=headers)).status_code == 421
        async with _authorised(token="wrong") as http:
            refused = await http.post(url, content=body, headers=headers)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        async with httpx2.AsyncClient(timeout=120) as http:
            assert (await http.post(url, content=body, headers=headers)).status_code == 401
        # A loopback origin is fine.
        async with _authorised(Origin="http://localhost:3000") as http:
            assert (await http.post(url, content=body, headers=headers)).status_code == 200


async def test_sf3_a_non_loopback_bind_needs_a_token() -> None:
    env = {k: v for k, v in os.environ.items() if k != "CDPAGENT_MCP_TOKEN"}
    with trio.fail_after(START_TIMEOUT):
        result = await trio.run_process(
            [str(CDPAGENT), "mcp", "--http", "0.0.0.0:0"], capture_stderr=True, check=False, env=env
        )
    assert result.returncode == 2
    assert b"without a token" in result.stderr


def _inspector_available() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not INSPECTOR.exists():
        return f"the MCP Inspector is not installed at {INSPECTOR} (scripts/setup.sh installs it with npm)"
    return None


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """Where the Inspector keeps its catalog; the test skips, saying why, without the Inspector."""
    missing = _inspector_available()
    if missing:
        pytest.skip(f"MCP INSPECTOR TEST SKIPPED: {missing}")
    return tmp_path / "catalog.json"


async def _inspector(*args: str, catalog: Path) -> Any:
    env = {**os.environ, "MCP_CATALOG_PATH": str(catalog)}
    with trio.fail_after(START_TIMEOUT + 120):
        result = await trio.run_process(
            [str(INSPECTOR), "--cli", *args], capture_stdout=True, capture_stderr=True, check=False, env=env
        )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    return json.loads(result.stdout)


async def test_sf3_the_mcp_inspector_cli_lists_calls_and_observes(
    chrome_endpoint: str, catalog: Path
) -> None:
    listed = await _inspector(
        "--method", "tools/list", "--", str(CDPAGENT), "mcp", "--connect", chrome_endpoint,
        "--allow", "pdf", "--vision", catalog=catalog,
    )  # fmt: skip
    # Every operation of the table is a tool once the opt-ins are enabled, annotated from its entry.
    assert {t["name"] for t in listed["tools"]} == ALL_TOOLS == {op.tool for op in OPERATIONS}
    hints = {t["name"]: t["annotations"] for t in listed["tools"]}
    for op in OPERATIONS:
        assert hints[op.tool] == {
            "readOnlyHint": op.read_only, "destructiveHint": op.destructive, "openWorldHint": op.open_world
        }, op.tool  # fmt: skip
    async with http_server("--connect", chrome_endpoint, "--token", TOKEN) as url:
        common = (
            "--transport",
            "http",
            "--header",
            f"Authorization: Bearer {TOKEN}",
            "--method",
            "tools/call",
        )
        page = str(EXAMPLES / "todos" / "index.html")
        opened = await _inspector(
            url, *common, "--tool-name", "open_page", "--tool-arg", f"url={page}", catalog=catalog
        )
        tab = opened["structuredContent"]["tabId"]
        observed = await _inspector(
            url, *common, "--tool-name", "observe", "--tool-arg", f"tabId={tab}", catalog=catalog
        )
    assert not observed.get("isError")
    text = observed["content"][0]["text"]
    assert "- title: Todos" in text and len(text) <= 12000
    assert observed["structuredContent"]["observation"]["identity"]["title"] == "Todos"


async def test_sf3_http_and_stdio_serve_the_same_tools(chrome_endpoint: str) -> None:
    async with http_server("--connect", chrome_endpoint) as url, Client(url) as client:
        opened = await call_ok(client, "open_page", {"url": str(EXAMPLES / "hello" / "index.html")})
        pages = await call_ok(client, "list_pages", {})
    assert opened["tabId"] in {p["tabId"] for p in pages["pages"]}


async def test_sf3_calls_without_tab_id_run_on_the_page_opened_or_selected_last(chrome_endpoint: str) -> None:
    params = StdioServerParameters(command=str(CDPAGENT), args=["mcp", "--connect", chrome_endpoint])
    with trio.fail_after(START_TIMEOUT + 120):
        async with Client(params) as client:
            missing = await call_error(client, "observe", {})
            assert missing["code"] == "INVALID_ARGUMENT" and "open_page" in missing["message"]
            todos = await call_ok(client, "open_page", {"url": str(EXAMPLES / "todos" / "index.html")})
            observed = await client.call_tool("observe", {})
            assert not observed.is_error
            assert observed.structured_content is not None
            assert observed.structured_content["observation"]["identity"]["title"] == "Todos"
            assert observed.content[-1] == TextContent(
                type="text", text=f"(on {todos['tabId']}, the current page)"
            )
            hello = await call_ok(client, "open_page", {"url": str(EXAMPLES / "hello" / "index.html")})
            assert (await call_ok(client, "observe", {}))["observation"]["identity"]["title"] != "Todos"
            await call_ok(client, "select_page", {"tabId": todos["tabId"]})
            assert (await call_ok(client, "observe", {}))["observation"]["identity"]["title"] == "Todos"
            # An explicit tabId still names any tab, and does not change the current one.
            await call_ok(client, "observe", {"tabId": hello["tabId"]})
            await call_ok(client, "close_page", {})
            gone = await call_error(client, "observe", {})
            assert gone["code"] == "TAB_NOT_FOUND"
            assert todos["tabId"] in gone["message"] and hello["tabId"] in gone["message"]


async def test_sf3_the_mcp_inspector_cli_observes_the_page_it_opened_without_tab_id(
    chrome_endpoint: str, catalog: Path
) -> None:
    async with http_server("--connect", chrome_endpoint) as url:
        common = ("--transport", "http", "--method", "tools/call")
        page = str(EXAMPLES / "todos" / "index.html")
        open_page = ("--tool-name", "open_page", "--tool-arg", f"url={page}")
        await _inspector(url, *common, *open_page, catalog=catalog)
        observed = await _inspector(url, *common, "--tool-name", "observe", catalog=catalog)
    assert not observed.get("isError"), observed
    assert observed["structuredContent"]["observation"]["identity"]["title"] == "Todos"
