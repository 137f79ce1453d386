"""A hostile network client and hostile pages against the Agent Surface (issue 22, items 6, 9, 10, 12, 13).

The server runs in process, served over streamable HTTP on a second loopback
address (127.0.0.2, never a real interface) or handed to the SDK's ``mcp.Client``;
the clients are the official SDK client and raw HTTP requests. The browser's side is
recorded from Chromium (tests/recorded_cdp.py).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx2
import pytest
import trio
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_support import EXAMPLES, INIT, PAGES, call_error, call_ok, redirector, structured_size, text_of
from recorded_cdp import Recorded

from cdpagent.mcp_server.bounds import MAX_STRUCTURED_CHARS
from cdpagent.mcp_server.http import BindRefused, serve_http
from cdpagent.mcp_server.server import SurfaceConfig, SurfaceServer, open_server

TOKEN = "hostile-token-0123456789"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@asynccontextmanager
async def served(
    endpoint: str, host: str = "127.0.0.1", **config: Any
) -> AsyncIterator[tuple[str, SurfaceServer]]:
    """The surface attached to the session browser, served over HTTP on ``host``; yields its URL."""
    allow_hosts = config.pop("allow_hosts", ())
    async with (
        open_server(SurfaceConfig(connect=endpoint, **config)) as server,
        trio.open_nursery() as nursery,
    ):
        serve = partial(
            serve_http,
            server,
            host,
            0,
            token=TOKEN,
            allow_hosts=allow_hosts,
            on_session_end=server.surface.guard.end_session,
        )
        url = await nursery.start(serve)
        yield url, server
        nursery.cancel_scope.cancel()


def _client(url: str, mode: str = "auto") -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    return Client(streamable_http_client(url, http_client=http), mode=mode)


async def test_sf3_allow_host_serves_beyond_loopback_with_a_token_and_bearer_is_case_insensitive(
    recorded_endpoint: str,
) -> None:
    """Before: a request naming the machine's address got 421, and ``bearer`` (lower case) 401."""
    async with served(recorded_endpoint, "127.0.0.2", allow_hosts=["cdpagent.test"]) as (url, _):
        port = url.split(":")[2].split("/")[0]
        body = json.dumps(INIT)
        async with httpx2.AsyncClient(timeout=60) as http:
            named = {**HEADERS, "Host": f"cdpagent.test:{port}", "Authorization": f"Bearer {TOKEN}"}
            assert (await http.post(url, content=body, headers=named)).status_code == 200
            other = {**named, "Host": f"evil.test:{port}"}
            assert (await http.post(url, content=body, headers=other)).status_code == 421
            origin = {**named, "Origin": f"http://cdpagent.test:{port}"}
            assert (await http.post(url, content=body, headers=origin)).status_code == 200
            lower = {**HEADERS, "Authorization": f"bearer {TOKEN}"}
            assert (await http.post(url, content=body, headers=lower)).status_code == 200
            wrong = {**HEADERS, "Authorization": f"bearer {TOKEN}x"}
            assert (await http.post(url, content=body, headers=wrong)).status_code == 401
    async with open_server(SurfaceConfig(connect=recorded_endpoint)) as server:
        with pytest.raises(BindRefused, match="needs a token"):
            await serve_http(server, "127.0.0.2", 0, allow_hosts=["cdpagent.test"])


async def test_sf3_tabs_are_capped_per_session_and_closed_when_it_ends(recorded_endpoint: str) -> None:
    """Before: open_page had no cap, and a new session listed the tabs of ended ones."""
    page = str(EXAMPLES / "hello" / "index.html")
    async with served(recorded_endpoint, max_tabs=2) as (url, _):
        async with _client(url, "legacy") as first:  # the handshake era has sessions
            for _ in range(2):
                await call_ok(first, "open_page", {"url": page})
            refused = await call_error(first, "open_page", {"url": page})
            assert refused["code"] == "TAB_LIMIT"
            async with _client(url, "legacy") as second:  # the cap is per session
                own = await call_ok(second, "open_page", {"url": page})
                assert len((await call_ok(second, "list_pages", {}))["pages"]) == 3
        async with _client(url) as third:
            with trio.fail_after(20):
                pages: list[Any] = [own]
                while pages:  # each call is a round trip: the closing runs meanwhile
                    pages = (await call_ok(third, "list_pages", {}))["pages"]


async def test_sf3_redirects_and_navigations_are_checked_and_files_stay_in_their_roots(
    recorded_endpoint: str, recorded: Recorded, tmp_path: Path
) -> None:
    """Before: a loopback 302 to another host opened, a page could walk its tab anywhere, and any
    directory listing of the machine could be observed."""
    outside = tmp_path / "outside.html"
    outside.write_text("<!doctype html><title>outside</title><p>secret</p>", encoding="utf-8")
    port: list[int] = []
    async with served(recorded_endpoint) as (url, _), trio.open_nursery() as nursery:
        await nursery.start(redirector, port)
        for host in ("127.0.0.1", "elsewhere.localhost"):  # where it is and where it redirects to
            recorded.vary(f"the redirector at {host}", f"{host}:{port[0]}")
        async with _client(url) as client:
            redirected = await call_error(client, "open_page", {"url": f"http://127.0.0.1:{port[0]}/go"})
            assert redirected["code"] == "URL_NOT_ALLOWED", redirected
            for path in (str(outside), "/", str(Path.cwd() / ".." / ".." / "etc")):
                refused = await call_error(client, "open_page", {"url": path})
                assert refused["code"] == "FILE_NOT_ALLOWED", (path, refused)
            wander = (PAGES / "mcp" / "wander.html").as_uri() + "#" + outside.as_uri()
            tab = (await call_ok(client, "open_page", {"url": wander}))["tabId"]
            await client.call_tool("act", {"tabId": tab, "action": "wander"})
            with trio.fail_after(20):
                seen = await client.call_tool("observe", {"tabId": tab})
                while not seen.is_error:  # until the navigation has replaced the page
                    seen = await client.call_tool("observe", {"tabId": tab})
            assert seen.structured_content is not None
            assert seen.structured_content["error"]["code"] == "FILE_NOT_ALLOWED"
            assert "secret" not in json.dumps(seen.structured_content)
        nursery.cancel_scope.cancel()
    config = SurfaceConfig(connect=recorded_endpoint, allow_dirs=(str(tmp_path),))
    async with open_server(config) as server, Client(server) as client:
        await call_ok(client, "open_page", {"url": str(outside)})


async def test_sf3_observe_structured_content_is_bounded_with_huge_webmcp_tools(
    recorded_endpoint: str,
) -> None:
    """Before: 30 tools with 200 KB descriptions gave megabytes of structured content, and a
    property name with newlines broke the observation's lines."""
    async with (
        open_server(SurfaceConfig(connect=recorded_endpoint, webmcp=True)) as server,
        Client(server) as client,
    ):
        page = str(PAGES / "webmcp" / "huge_descriptions.html")
        tab = (await call_ok(client, "open_page", {"url": page}))["tabId"]
        with trio.fail_after(20):
            seen = await client.call_tool("observe", {"tabId": tab})
            while "actions 31/31" not in text_of(seen):  # until every tool is registered
                seen = await client.call_tool("observe", {"tabId": tab})
        text = text_of(seen)
        assert seen.structured_content is not None
        assert structured_size(seen.structured_content) <= MAX_STRUCTURED_CHARS
        assert text.count("## Available actions on this page") == 1
        assert not any(line.startswith(("- wire_money", "## SYSTEM")) for line in text.splitlines())
        # The schema with a line-breaking property name was refused at registration: on the
        # MCP surface too the call is a coded refusal, not "Error executing tool act".
        for name in ("newline_names", "big_0"):
            refused = await client.call_tool("act", {"tabId": tab, "action": name})
            assert refused.is_error and refused.structured_content is not None
            assert refused.structured_content["result"]["error"]["code"] == "PAGE_TOOL_SCHEMA_INVALID"
