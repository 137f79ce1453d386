"""What the Agent Surface costs: MCP round trips vs. the in-process call, and response sizes.

Each client drives its own browser (the same Chromium binary; two CDP clients
attached to one browser would each set up every tab), and the pages come from a
loopback HTTP server so every client loads the same URLs:

- round trips, p50 of interleaved blocks (load drift hits every client alike):
  ``invoke_page_method`` (editor ``read_current``: almost no page work, so the
  figure is the surface's own overhead), ``observe`` and ``act`` (todos ``search``)
  in process (``Tab.invoke`` / ``observe_page`` / ``act``), through ``cdpagent mcp``
  over stdio and over streamable HTTP; overhead in ms and as a ratio;
- ``observe`` response sizes through MCP on the inventory page at 100 / 1,000 /
  10,000 rows (text content, structured content);
- beside them, when ``@playwright/mcp`` is installed (``--playwright-mcp DIR``, an
  npm prefix), Playwright MCP's ``browser_snapshot`` time and characters on the
  same pages, driving ``/usr/bin/chromium`` (never a downloaded browser).

    .venv/bin/python bench/mcp.py [--rounds N] [--playwright-mcp /tmp/pwmcp]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder leads sys.path and bench/mcp.py would shadow the SDK's mcp.
sys.path.remove(str(Path(__file__).resolve().parent))

import argparse
import functools
import http.server
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import TextContent

import cdpagent
from cdpagent.act.inputs import ActArgs
from cdpagent.act.perform import act
from cdpagent.cdp.launcher import find_browser
from cdpagent.snapshot.observe import observe_page

ROOT = Path(__file__).resolve().parent.parent
CDPAGENT = ROOT / ".venv" / "bin" / "cdpagent"
SIZES = (100, 1000, 10000)


def serve_examples() -> tuple[str, http.server.ThreadingHTTPServer]:
    """A loopback HTTP server for ``examples/`` (a thread); returns its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(ROOT / "examples"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def timed(call: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await call()
    return (time.perf_counter() - started) * 1000


class McpSide:
    """One MCP client with its own editor and todos tabs."""

    def __init__(self, name: str, client: Client, base: str) -> None:
        self.name = name
        self.client = client
        self.base = base
        self.editor = ""
        self.todos = ""

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        result = await self.client.call_tool(tool, arguments)
        if result.is_error:
            raise RuntimeError(f"{self.name} {tool}: {text_of(result)}")
        return result

    async def setup(self) -> None:
        opened = await self.call("open_page", {"url": f"{self.base}/editor/index.html"})
        self.editor = opened.structured_content["tabId"]
        opened = await self.call("open_page", {"url": f"{self.base}/todos/index.html"})
        self.todos = opened.structured_content["tabId"]

    async def invoke(self) -> None:
        await self.call("invoke_page_method", {"tabId": self.editor, "method": "read_current"})

    async def observe(self) -> None:
        await self.call("observe", {"tabId": self.todos})

    async def act(self) -> None:
        await self.call("act", {"tabId": self.todos, "action": "search", "text": "周报"})


class DirectSide:
    """The same three calls in process."""

    name = "in-process"

    def __init__(self, browser: cdpagent.Browser, base: str) -> None:
        self.browser = browser
        self.base = base

    async def setup(self) -> None:
        self.editor = await self.browser.open(f"{self.base}/editor/index.html")
        self.todos = await self.browser.open(f"{self.base}/todos/index.html")

    async def invoke(self) -> None:
        await self.editor.invoke("read_current")

    async def observe(self) -> None:
        await observe_page(self.todos)

    async def act(self) -> None:
        await act(self.todos, ActArgs(action="search", text="周报"))


@asynccontextmanager
async def http_client(base: str) -> AsyncIterator[Client]:
    process = await trio.lowlevel.open_process(
        [str(CDPAGENT), "mcp", "--http", "127.0.0.1:0", "--allow-origin", base],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    text = ""
    while "listening on " not in text or not text.endswith("\n"):
        chunk = await process.stderr.receive_some()
        if not chunk:
            raise RuntimeError(f"cdpagent mcp --http did not start: {text}")
        text += chunk.decode()
    url = text.split("listening on ", 1)[1].split()[0]
    try:
        async with Client(url) as client:
            yield client
    finally:
        process.terminate()
        await process.wait()


async def round_trips(browser: cdpagent.Browser, base: str, rounds: int, block: int) -> None:
    stdio = StdioServerParameters(command=str(CDPAGENT), args=["mcp", "--allow-origin", base])
    async with Client(stdio) as over_stdio, http_client(base) as over_http:
        sides: list[Any] = [
            DirectSide(browser, base),
            McpSide("stdio", over_stdio, base),
            McpSide("http", over_http, base),
        ]
        for side in sides:
            await side.setup()
            for _ in range(3):  # warm up
                await side.invoke()
                await side.observe()
        samples: dict[tuple[str, str], list[float]] = {}
        for _ in range(rounds):
            for side in sides:
                for call in ("invoke", "observe", "act"):
                    for _ in range(block if call == "invoke" else 1):
                        ms = await timed(getattr(side, call))
                        samples.setdefault((side.name, call), []).append(ms)
    print(f"round trips, p50 ms (rounds={rounds}; invoke blocks of {block})")
    print(
        f"{'call':<20}{'in-process':>12}{'stdio':>10}{'overhead':>10}{'ratio':>8}{'http':>10}"
        f"{'overhead':>10}{'ratio':>8}"
    )
    for call in ("invoke", "observe", "act"):
        direct = statistics.median(samples[("in-process", call)])
        row = f"{call:<20}{direct:>12.2f}"
        for name in ("stdio", "http"):
            p50 = statistics.median(samples[(name, call)])
            row += f"{p50:>10.2f}{p50 - direct:>10.2f}{p50 / direct:>7.2f}×"
        print(row)


async def sizes(base: str, playwright_mcp: Path | None) -> None:
    stdio = StdioServerParameters(command=str(CDPAGENT), args=["mcp", "--allow-origin", base])
    rows: dict[int, dict[str, Any]] = {}
    async with Client(stdio) as client:
        side = McpSide("stdio", client, base)
        for size in SIZES:
            url = f"{base}/inventory/index.html?rows={size}"
            tab = (await side.call("open_page", {"url": url})).structured_content["tabId"]
            started = time.perf_counter()
            result = await side.call("observe", {"tabId": tab})
            ms = (time.perf_counter() - started) * 1000
            structured = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
            rows[size] = {"ms": ms, "text": len(text_of(result)), "structured": len(structured)}
            await side.call("close_page", {"tabId": tab})
    if playwright_mcp is not None:
        await playwright_sizes(playwright_mcp, base, rows)
    print("observe through MCP (stdio) on examples/inventory")
    print(
        f"{'rows':>6}{'ms':>10}{'text chars':>12}{'structured':>12}"
        f"{'PW MCP ms':>12}{'PW snapshot chars':>19}{'chars ratio':>13}"
    )
    for size, row in rows.items():
        line = f"{size:>6}{row['ms']:>10.1f}{row['text']:>12,}{row['structured']:>12,}"
        if "pw_ms" in row:
            line += f"{row['pw_ms']:>12.1f}{row['pw_chars']:>19,}{row['pw_chars'] / row['text']:>12.1f}×"
        if "pw_error" in row:
            line += f"  (Playwright MCP failed: {row['pw_error']})"
        print(line)
    if playwright_mcp is None:
        print(
            "Playwright MCP: not measured (pass --playwright-mcp DIR, an npm prefix holding @playwright/mcp)"
        )


async def playwright_sizes(prefix: Path, base: str, rows: dict[int, dict[str, Any]]) -> None:
    """Playwright MCP's browser_snapshot on the same pages, with the same Chromium."""
    cli = prefix / "node_modules" / "@playwright" / "mcp" / "cli.js"
    output = tempfile.mkdtemp(prefix="cdpagent-bench-pwmcp-")  # its console logs, not in the work tree
    args = [str(cli), "--headless", "--isolated", "--executable-path", find_browser(), "--output-dir", output]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    params = StdioServerParameters(command="node", args=args)
    async with Client(params) as client:
        for size in SIZES:
            await client.call_tool("browser_navigate", {"url": f"{base}/inventory/index.html?rows={size}"})
            started = time.perf_counter()
            result = await client.call_tool("browser_snapshot", {})
            rows[size]["pw_ms"] = (time.perf_counter() - started) * 1000
            text = "".join(b.text for b in result.content if isinstance(b, TextContent))
            rows[size]["pw_chars"] = len(text)
            if result.is_error:
                rows[size]["pw_error"] = text[:200]


async def main(args: argparse.Namespace) -> None:
    base, server = serve_examples()
    try:
        async with cdpagent.launch(allow_origins=[base]) as browser:
            await round_trips(browser, base, args.rounds, args.block)
        print()
        await sizes(base, args.playwright_mcp)
    finally:
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--block", type=int, default=10, help="invoke calls per block")
    parser.add_argument(
        "--playwright-mcp", type=Path, default=None, help="npm prefix of @playwright/mcp (default .venv/node)"
    )
    options = parser.parse_args()
    if options.playwright_mcp is None and (ROOT / ".venv/node/node_modules/@playwright/mcp").is_dir():
        options.playwright_mcp = ROOT / ".venv" / "node"
    trio.run(main, options)
