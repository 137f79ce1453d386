"""What Playwright MCP would send a model for a page: its tool list and its snapshot.

- :func:`tools_chars`: the ``tools`` array ``@playwright/mcp`` (installed by
  ``install.install_playwright_mcp``) answers to ``tools/list``, asked over stdio after
  ``initialize``, as compact JSON — what its client puts in a model's request.
- :func:`snapshot_chars`: the snapshot Playwright MCP's ``browser_snapshot`` is built from,
  ``page.aria_snapshot(mode="ai")`` of Playwright for Python (the bench extra), driving the
  system's Chromium through ``executable_path`` (no browser is downloaded).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import install

PROTOCOL = "2025-06-18"


def tools_chars() -> int:
    """The characters of Playwright MCP's tool list (compact JSON of ``tools/list``'s tools).

    Raises :class:`install.InstallError` when it cannot be installed, and
    :class:`RuntimeError` when the server does not answer as MCP says."""
    cli = install.install_playwright_mcp()
    server = subprocess.Popen(
        ["node", str(cli), "--headless"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None

    def call(message: dict[str, Any]) -> None:
        assert server.stdin is not None
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    try:
        call(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "cdpagent-bench", "version": "0"},
                },
            }
        )
        if "result" not in json.loads(server.stdout.readline() or "{}"):
            raise RuntimeError("Playwright MCP did not answer initialize")
        call({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        answer = json.loads(server.stdout.readline() or "{}")
        tools = answer.get("result", {}).get("tools")
        if not tools:
            raise RuntimeError(f"Playwright MCP's tools/list answered {answer!r}"[:300])
        return len(json.dumps(tools, separators=(",", ":"), ensure_ascii=False))
    finally:
        server.terminate()
        server.wait()


Prepare = Callable[[Any], None]


@contextmanager
def snapshotter(executable: str) -> Iterator[Callable[[str, Prepare | None], int] | None]:
    """A function that opens a url in a fresh page, runs ``prepare(page)`` (a log-in, a wait
    for the app to draw itself) and returns the characters of ``aria_snapshot(mode="ai")``;
    None when Playwright for Python is not installed (``pip install -e '.[bench]'``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        yield None
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True)

        def snapshot(url: str, prepare: Prepare | None) -> int:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            try:
                page.goto(url)
                if prepare is not None:
                    prepare(page)
                return len(page.aria_snapshot(mode="ai"))
            finally:
                page.close()

        try:
            yield snapshot
        finally:
            browser.close()
