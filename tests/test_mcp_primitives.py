"""Issue 23 through the MCP server: every primitive's tool against real Chromium with the official
SDK client (``mcp.Client``), which validates each result's structured content against the tool's
output schema; and the annotations of every tool, from its operation's entry."""

from __future__ import annotations

import base64
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
from mcp.client.client import Client
from mcp_support import ALL_TOOLS, PAGES, TOOLS, call_error, call_ok, redirector
from mcp_types import EmbeddedResource, ImageContent, TextContent

from cdpagent.mcp_server.server import SurfaceConfig, SurfaceServer, open_server
from cdpagent.ops.operations import OPERATIONS

PRIMITIVES = PAGES / "primitives"
PAGE = PRIMITIVES / "page.html"
SECOND = PRIMITIVES / "second.html"


@asynccontextmanager
async def served(endpoint: str, **config: Any) -> AsyncIterator[Client]:
    async with served_with(endpoint, **config) as (client, _):
        yield client


@asynccontextmanager
async def served_with(endpoint: str, **config: Any) -> AsyncIterator[tuple[Client, SurfaceServer]]:
    """The server attached to the session browser and an SDK client; the server to wait on its tabs."""
    async with open_server(SurfaceConfig(connect=endpoint, **config)) as server, Client(server) as client:
        yield client, server


async def _open(client: Client, page: Path | str) -> str:
    tab: str = (await call_ok(client, "open_page", {"url": str(page)}))["tabId"]
    return tab


async def test_every_tool_is_annotated_from_its_operation_and_opt_ins_are_off_by_default() -> None:
    async with open_server(SurfaceConfig()) as server, Client(server) as client:  # no browser starts
        default = {t.name for t in (await client.list_tools()).tools}
        assert default == TOOLS and "pdf" not in default and "click_at" not in default
        assert (await call_error(client, "pdf", {"tabId": "tab1"}))["code"] == "UNKNOWN_ACTION"
    config = SurfaceConfig(capabilities=("pdf", "vision"))
    async with open_server(config) as server, Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == ALL_TOOLS
    for op in OPERATIONS:
        hints = tools[op.tool].annotations
        assert hints is not None, op.tool
        assert (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) == (
            op.read_only, op.destructive, op.open_world
        ), op.tool  # fmt: skip
    assert tools["screenshot"].annotations.read_only_hint  # type: ignore[union-attr]
    assert tools["click_at"].annotations.destructive_hint  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown capabilities"):
        async with open_server(SurfaceConfig(capabilities=("teleport",))):
            pass


async def test_navigate_back_forward_reload_answer_with_the_new_identity_and_what_changed(
    chrome_endpoint: str,
) -> None:
    async with served(chrome_endpoint) as client:
        tab = await _open(client, PAGE)
        went = await call_ok(client, "navigate", {"tabId": tab, "url": str(SECOND)})
        assert went["url"] == SECOND.as_uri() and went["title"] == "Second"
        assert went["changed"] == f"navigated: {PAGE.as_uri()} → {SECOND.as_uri()}"
        back = await call_ok(client, "go_back", {"tabId": tab})
        assert (back["url"], back["title"]) == (PAGE.as_uri(), "Primitives")
        assert back["changed"] == f"went back: {SECOND.as_uri()} → {PAGE.as_uri()}"
        forward = await call_ok(client, "go_forward", {"tabId": tab, "timeout": 20})
        assert forward["url"] == SECOND.as_uri()
        reloaded = await call_ok(client, "reload", {"tabId": tab})
        assert reloaded["changed"] == f"reloaded: still {SECOND.as_uri()}"
        none = await call_error(client, "go_forward", {"tabId": tab})
        assert none["code"] == "NAVIGATION_FAILED"
        bad = await call_error(client, "reload", {"tabId": tab, "timeout": 0})
        assert bad["code"] == "INVALID_ARGUMENT" and "reload: timeout" in bad["message"]
        assert (await call_error(client, "go_back", {"tabId": "tab999"}))["code"] == "TAB_NOT_FOUND"
        await call_ok(client, "close_page", {"tabId": tab})


async def test_navigate_checks_where_a_redirect_ends_not_only_the_url_asked_for(chrome_endpoint: str) -> None:
    """The first URL is loopback (allowed); its redirect is not: the tab is blanked, not left there."""
    port: list[int] = []
    async with served(chrome_endpoint) as client, trio.open_nursery() as nursery:
        await nursery.start(redirector, port)
        tab = await _open(client, PAGE)
        refused = await call_error(
            client, "navigate", {"tabId": tab, "url": f"http://127.0.0.1:{port[0]}/go"}
        )
        assert refused["code"] == "URL_NOT_ALLOWED" and "about:blank" in refused["message"]
        pages = (await call_ok(client, "list_pages", {}))["pages"]
        assert next(p for p in pages if p["tabId"] == tab)["url"] == "about:blank"
        asked = await call_error(client, "navigate", {"tabId": tab, "url": "https://example.com/"})
        assert asked["code"] == "URL_NOT_ALLOWED"
        nursery.cancel_scope.cancel()


async def test_a_popup_is_listed_with_its_opener_and_select_page_makes_it_current(
    chrome_endpoint: str,
) -> None:
    async with served_with(chrome_endpoint, page_tools=True) as (client, server):
        tab = await _open(client, PRIMITIVES / "popups.html")
        opened = await call_ok(client, "act", {"tabId": tab, "action": "open_one"})
        opener = await server.surface.tab(tab)
        await opener.browser.wait_until(lambda: any(t.opener is opener for t in opener.browser.tabs), 10)
        (popup_tab,) = [t for t in opener.browser.tabs if t.opener is opener]
        assert f"opened tab {popup_tab.id}" in str(opened["result"])  # the act's receipt says so
        await popup_tab.wait_loaded(10)
        (popup,) = [p for p in (await call_ok(client, "list_pages", {}))["pages"] if p.get("opener") == tab]
        assert popup == {"tabId": popup_tab.id, "title": "Second", "url": SECOND.as_uri(), "opener": tab}
        chosen = await call_ok(client, "select_page", {"tabId": popup["tabId"]})
        assert chosen == {"tabId": popup_tab.id, "title": "Second", "url": SECOND.as_uri()}
        await call_ok(client, "close_page", {"tabId": popup["tabId"]})
        pages = (await call_ok(client, "list_pages", {}))["pages"]
        assert popup["tabId"] not in {p["tabId"] for p in pages} and tab in {p["tabId"] for p in pages}
        assert (await call_error(client, "select_page", {"tabId": popup["tabId"]}))["code"] == "TAB_NOT_FOUND"


async def test_screenshot_is_image_content_with_a_structured_summary(chrome_endpoint: str) -> None:
    async with served(chrome_endpoint) as client:
        tab = await _open(client, PAGE)
        result = await client.call_tool("screenshot", {"tabId": tab, "max_edge": 400})
        assert not result.is_error and result.structured_content is not None
        image, text = result.content
        assert isinstance(image, ImageContent) and isinstance(text, TextContent)
        data = base64.b64decode(image.data)
        assert image.mime_type == "image/png" and data.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = struct.unpack(">II", data[16:24])
        shot = result.structured_content
        assert (shot["width"], shot["height"], shot["bytes"]) == (width, height, len(data))
        assert max(width, height) <= 400 and shot["masked"] == 2  # the password and the code
        assert "2 sensitive fields covered" in text.text
        jpeg = await client.call_tool("screenshot", {"tabId": tab, "format": "jpeg", "quality": 50,
                                                     "full_page": True})  # fmt: skip
        assert isinstance(jpeg.content[0], ImageContent) and jpeg.content[0].mime_type == "image/jpeg"
        assert base64.b64decode(jpeg.content[0].data)[:2] == b"\xff\xd8"
        bad = await call_error(client, "screenshot", {"tabId": tab, "format": "gif"})
        assert bad["code"] == "INVALID_ARGUMENT"
        both = await call_error(client, "screenshot", {"tabId": tab, "full_page": True, "target": "save"})
        assert both["code"] == "INVALID_ARGUMENT"
        missing = await call_error(client, "screenshot", {"tabId": tab, "target": "no_such_thing"})
        assert missing["code"] == "TARGET_NOT_FOUND"


async def test_wait_for_answers_with_the_observation_or_wait_timeout(chrome_endpoint: str) -> None:
    async with served(chrome_endpoint) as client:
        tab = await _open(client, PAGE)
        await call_ok(client, "act", {"tabId": tab, "action": "later"})
        result = await client.call_tool("wait_for", {"tabId": tab, "text": "the answer is 42", "timeout": 10})
        assert not result.is_error and result.structured_content is not None
        assert "The answer is 42" in result.content[0].text  # type: ignore[union-attr]
        assert "observation" in result.structured_content
        late = await call_error(client, "wait_for", {"tabId": tab, "text": "never shown", "timeout": 0.5})
        assert late["code"] == "WAIT_TIMEOUT" and "never shown" in late["message"]
        empty = await call_error(client, "wait_for", {"tabId": tab, "text": ""})
        assert empty["code"] == "INVALID_ARGUMENT"


async def _serve_logged(
    port_box: list[int], task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """A page that logs, sets a cookie and fetches a missing URL with a secret in its header and query."""
    page = (
        b"<!doctype html><title>Logged</title><p>logged</p><script>"
        b"document.cookie = 'sid=COOKIE-SECRET';"
        b"console.log('hello from the page');"
        b"fetch('/missing.json?token=QUERY-SECRET', {headers: {Authorization: 'Bearer HEADER-SECRET'}});"
        b"</script>"
    )

    async def handler(stream: trio.SocketStream) -> None:
        request = await stream.receive_some(8192)
        if request.startswith(b"GET / "):
            head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(page)}\r\n"
            await stream.send_all(head.encode() + b"Connection: close\r\n\r\n" + page)
        else:
            await stream.send_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await stream.aclose()

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port_box.append(listeners[0].socket.getsockname()[1])
    task_status.started()
    await trio.serve_listeners(handler, listeners)


async def test_console_and_network_are_fenced_page_data_without_secrets(chrome_endpoint: str) -> None:
    port: list[int] = []
    async with served_with(chrome_endpoint) as (client, server), trio.open_nursery() as nursery:
        await nursery.start(_serve_logged, port)
        tab = await _open(client, f"http://127.0.0.1:{port[0]}/")
        logged = await server.surface.tab(tab)
        await logged.wait_until(lambda: any("missing" in r.url for r in logged.network()), 10)
        requests = (await call_ok(client, "network", {"tabId": tab}))["requests"]
        (failed,) = [r for r in requests if "missing" in r["url"]]
        assert failed["status"] == 404 and failed["url"] == f"http://127.0.0.1:{port[0]}/missing.json"
        result = await client.call_tool("network", {"tabId": tab})
        said = str(result.model_dump())
        assert result.content[0].text.startswith("<page_data")  # type: ignore[union-attr]
        assert "SECRET" not in said and "authorization" not in said.lower() and "cookie" not in said.lower()
        messages = (await call_ok(client, "console", {"tabId": tab, "limit": 5}))["messages"]
        assert {"level": "log", "text": "hello from the page", "url": f"http://127.0.0.1:{port[0]}/"} in [
            {k: m.get(k, "") for k in ("level", "text", "url")} for m in messages
        ]
        assert (await call_ok(client, "console", {"tabId": tab, "limit": 0}))["messages"] == []
        assert (await call_error(client, "console", {"tabId": tab, "limit": 1000}))[
            "code"
        ] == "INVALID_ARGUMENT"
        nursery.cancel_scope.cancel()


async def test_downloads_lists_the_saved_file(chrome_endpoint: str, tmp_path: Path) -> None:
    async with served_with(chrome_endpoint, download_dir=str(tmp_path)) as (client, server):
        tab = await _open(client, PAGE)
        await call_ok(client, "act", {"tabId": tab, "action": "save"})
        browser, _ = await server.surface.browser()
        await browser.wait_until(lambda: any(d.state == "completed" for d in browser.downloaded()), 10)
        (item,) = (await call_ok(client, "downloads", {}))["downloads"]
        assert item["name"].endswith("report.csv") and item["tab"] == tab
        assert item["path"] == str(tmp_path / item["name"]) and item["size"] == len("name,qty\nwidget,3\n")


async def test_pdf_is_an_embedded_resource_when_allowed(chrome_endpoint: str) -> None:
    async with served(chrome_endpoint, capabilities=("pdf",)) as client:
        tab = await _open(client, SECOND)
        result = await client.call_tool("pdf", {"tabId": tab})
        assert not result.is_error and result.structured_content is not None
        document = result.content[0]
        assert isinstance(document, EmbeddedResource) and document.resource.mime_type == "application/pdf"
        data = base64.b64decode(document.resource.blob)  # type: ignore[union-attr]
        assert data.startswith(b"%PDF") and result.structured_content["bytes"] == len(data)
        assert "click_at" not in {t.name for t in (await client.list_tools()).tools}


async def test_click_at_and_type_at_act_at_coordinates_with_vision(chrome_endpoint: str) -> None:
    async with served(chrome_endpoint, capabilities=("vision",)) as client:
        tab = await _open(client, PAGE)
        clicked = await call_ok(client, "click_at", {"tabId": tab, "x": 60, "y": 115})
        assert clicked["result"]["ok"] is True, clicked
        typed = await call_ok(client, "type_at", {"tabId": tab, "x": 60, "y": 55, "text": "abc"})
        assert typed["result"]["ok"] is True, typed
        assert (await call_error(client, "click_at", {"tabId": tab, "x": -1, "y": 0}))[
            "code"
        ] == "INVALID_ARGUMENT"
