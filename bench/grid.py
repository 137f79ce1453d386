"""cdpagent through a Selenium Grid 4 hub beside a local browser: latency, and pool throughput.

Starts a hub and one node on 127.0.0.1 (``tests/grid_support.py``; ``make setup``
installs Java, chromedriver and the Grid jar), or uses ``--hub URL``. Measures in
one run, on ``bench/invoke_page.html`` (``small`` returns a small object) and
``examples/todos``:

* p50 of one call at a time — raw ``Runtime.evaluate``, ``Tab.invoke("small")`` and
  ``Tab.observe()`` (settle off) — on a local pipe launch, a local websocket
  launch, and through the grid (``se:cdp``: client → hub → node → browser);
* throughput in calls/s of ``Tab.invoke`` with 8 calls in flight per tab, on a
  :class:`cdpagent.Pool` of 4 grid sessions (one tab each) and on a pool of one
  local browser with 4 tabs.

The websocket row splits the grid's extra time into the websocket transport
(websocket − pipe) and the Java proxy hops (grid − websocket).

    .venv/bin/python bench/grid.py [--calls N] [--seconds S] [--hub URL]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_support import LocalGrid, missing_tools
from timing import timed

import cdpagent

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "bench" / "invoke_page.html"
TODOS = ROOT / "examples" / "todos" / "index.html"
QUICK = cdpagent.ObserveOptions(settle=False)
POOL_SIZE = 4
# A browser starting through a grid on a small loaded machine can take a minute or more.
SESSION_START = 180.0
IN_FLIGHT = 8


def p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def _p50(op: Callable[[], Awaitable[Any]], calls: int) -> float:
    return p50_ms(await timed(op, calls))


async def latencies(browser: cdpagent.Browser, calls: int) -> dict[str, float]:
    """p50 ms of evaluate, invoke and observe on fresh tabs of ``browser``."""
    tab = await browser.open(PAGE)
    todos = await browser.open(TODOS)
    evaluate = {"expression": "1", "returnByValue": True}
    try:
        return {
            "Runtime.evaluate": await _p50(lambda: tab.session.send("Runtime.evaluate", evaluate), calls),
            "Tab.invoke": await _p50(lambda: tab.invoke("small"), calls),
            "Tab.observe": await _p50(lambda: todos.observe(QUICK), max(10, calls // 20)),
        }
    finally:
        await tab.close()
        await todos.close()


async def pool_rate(pool: cdpagent.Pool, seconds: float) -> float:
    """Tab.invoke calls/s over POOL_SIZE leased tabs, IN_FLIGHT callers each."""
    done = 0
    async with AsyncExitStack() as stack:
        tabs = [await stack.enter_async_context(pool.tab(PAGE)) for _ in range(POOL_SIZE)]
        for tab in tabs:
            await tab.invoke("small")
        deadline = trio.current_time() + seconds

        async def worker(tab: cdpagent.Tab) -> None:
            nonlocal done
            while trio.current_time() < deadline:
                await tab.invoke("small")
                done += 1

        started = time.perf_counter()
        async with trio.open_nursery() as nursery:
            for tab in tabs:
                for _ in range(IN_FLIGHT):
                    nursery.start_soon(worker, tab)
        return done / (time.perf_counter() - started)


@asynccontextmanager
async def grid_hub(url: str | None) -> AsyncIterator[str]:
    """``url``, or a fresh local hub and node with room for POOL_SIZE sessions."""
    if url:
        yield url
        return
    missing = missing_tools()
    if missing:
        sys.exit(f"bench/grid.py needs {', '.join(missing)}: run 'make setup'")
    local = LocalGrid(sessions=POOL_SIZE + 1)
    try:
        local.start_hub()
        node = local.start_node()
        await trio.to_thread.run_sync(local.wait_node_up, node)
        yield local.hub
    finally:
        local.close()


async def run(calls: int, seconds: float, hub_url: str | None) -> None:
    rows: dict[str, dict[str, float]] = {}
    async with grid_hub(hub_url) as hub:
        async with cdpagent.launch() as local:
            rows["local pipe launch"] = await latencies(local, calls)
        async with cdpagent.launch(transport="websocket") as local_ws:
            rows["local websocket launch"] = await latencies(local_ws, calls)
        async with cdpagent.connect_grid(hub) as remote:
            rows["grid through the hub (se:cdp)"] = await latencies(remote, calls)
        local_row = rows["local pipe launch"]
        print(f"{'p50 ms, one call at a time':34} {'evaluate':>9} {'invoke':>9} {'observe':>9}")
        for name, row in rows.items():
            cells = " ".join(f"{row[k]:9.2f}" for k in ("Runtime.evaluate", "Tab.invoke", "Tab.observe"))
            print(f"{name:34} {cells}", flush=True)
        grid_row = rows["grid through the hub (se:cdp)"]
        print()
        for key in ("Tab.invoke", "Tab.observe"):
            print(f"{key} p50: grid / local pipe = {grid_row[key] / local_row[key]:.2f}x")
        ws_row = rows["local websocket launch"]
        ws = ws_row["Runtime.evaluate"] - local_row["Runtime.evaluate"]
        hop = grid_row["Runtime.evaluate"] - ws_row["Runtime.evaluate"]
        print(
            f"where a grid round trip's extra time goes: websocket instead of pipe {ws:+.2f} ms, "
            f"the hub's and node's Java websocket proxies {hop:+.2f} ms"
        )
        starting = trio.Lock()

        @asynccontextmanager
        async def one_at_a_time() -> AsyncIterator[cdpagent.Browser]:
            # Four sessions asked for at once never all started on a loaded 2-core
            # machine; one after the other they do.
            async with AsyncExitStack() as stack:
                async with starting:
                    browser = await stack.enter_async_context(
                        cdpagent.connect_grid(hub, timeout=SESSION_START)
                    )
                yield browser

        grid_sources: list[Callable[[], AbstractAsyncContextManager[cdpagent.Browser]]] = [
            one_at_a_time for _ in range(POOL_SIZE)
        ]
        async with cdpagent.Pool(grid_sources, per_browser=1) as pool:
            grid_rate = await pool_rate(pool, seconds)
        async with cdpagent.Pool(["launch"], per_browser=POOL_SIZE) as pool:
            local_rate = await pool_rate(pool, seconds)

    print()
    print(f"pool throughput, Tab.invoke, {IN_FLIGHT} in flight per tab:")
    print(f"  {POOL_SIZE} grid sessions (one tab each): {grid_rate:8.0f} calls/s")
    print(f"  1 local browser, {POOL_SIZE} tabs:          {local_rate:8.0f} calls/s")
    print(f"  grid / local = {grid_rate / local_rate:.2f}x")
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400, help="calls per latency measurement")
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each throughput run")
    parser.add_argument("--hub", default=None, help="use this hub instead of starting one")
    args = parser.parse_args()
    trio.run(run, args.calls, args.seconds, args.hub)


if __name__ == "__main__":
    main()
