"""WebMCP: one page-tool call beside one Page Agent API call, on the same page and browser.

``bench/invoke_page.html`` registers the same function twice: as the Page Agent API
method ``small`` (``Tab.invoke``) and as the WebMCP tool ``small``. Printed, as p50
and p99 over ``--calls`` calls one at a time, in one run with WebMCP enabled:

* ``Tab.invoke("small")`` — one ``Runtime.callFunctionOn``;
* the bridge's raw call (``WebMcp.call``) — ``WebMCP.invokeTool`` and its
  ``toolResponded`` event;
* ``Tab.act("small", input={})`` — the whole action: two settled snapshots, schema
  check, the call and the receipt's diff (what an agent's tool call costs).

    .venv/bin/python bench/webmcp.py [--calls N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import timed

import cdpagent
from cdpagent.webmcp.bridge import WebMcp

PAGE = Path(__file__).resolve().parent / "invoke_page.html"


async def timed_us(calls: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    return sorted(sample * 1e6 for sample in await timed(call, calls))


def line(name: str, samples: list[float], base: float) -> str:
    p50 = statistics.median(samples)
    p99 = samples[int(len(samples) * 0.99) - 1]
    return f"{name:<34} {p50:>9.0f} {p99:>9.0f} {p50 / base:>7.2f}x"


async def main(calls: int) -> None:
    async with cdpagent.launch(webmcp=True) as browser:
        tab = await browser.open(PAGE)
        bridge = WebMcp.of(browser)
        assert bridge is not None
        with trio.fail_after(10):
            while not bridge.tools(tab):
                await tab.invoke("small")
        tool = bridge.tools(tab)[0]

        async def bridge_call() -> None:
            response = await bridge.call(tab, tool, {}, trio.current_time() + 10)
            assert response.status == "Completed", response

        async def act() -> None:
            receipt = await tab.act("small", input={})
            assert receipt.ok, receipt.to_json()

        invoke = await timed_us(calls, lambda: tab.invoke("small"))
        raw = await timed_us(calls, bridge_call)
        acted = await timed_us(max(calls // 20, 20), act)
    base = statistics.median(invoke)
    print(f"{'one call at a time':<34} {'p50 µs':>9} {'p99 µs':>9} {'÷ invoke':>8}")
    print(line("Tab.invoke (Page Agent API)", invoke, base))
    print(line("WebMCP tool call (bridge)", raw, base))
    print(line("Tab.act on the WebMCP tool", acted, base))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    trio.run(main, parser.parse_args().calls)
