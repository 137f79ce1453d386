"""Page Agent API invoke: latency and throughput beside the raw CDP floor (and Playwright).

Measures, in one run, on ``bench/invoke_page.html`` whose ``small`` method returns a
small object:

* latency p50/p99 of one call at a time: the blocking-pipe floor's
  ``Runtime.callFunctionOn`` (``bench/floor.py``), cdpagent's raw
  ``Runtime.callFunctionOn``, ``Tab.invoke("small")``, and — when ``playwright`` is
  installed (the ``bench`` extra) — Playwright's ``page.evaluate("benchSmall()")``
  on the same Chromium;
* throughput in calls/s with 1, 8 and 64 calls in flight per tab, on 1 tab and on
  4 tabs, for raw ``callFunctionOn`` and for ``Tab.invoke``;

* the websocket round trip (``bench/roundtrip.py``'s measurement, one round);

then prints the ratios, and issue 25's targets with met / NOT MET lines: invoke ÷ raw
``callFunctionOn`` throughput on 4 tabs with 64 in flight ≥ 0.9× (and the same ratio of
CPU time per call, which load on a shared machine distorts less), websocket round trip
÷ blocking pipe floor ≤ 1.15×, ``Tab.invoke`` p50 ÷ blocking pipe floor ≤ 1.10×.

    .venv/bin/python bench/invoke.py [--calls N] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

import roundtrip
from floor import BlockingPipeClient
from targets import Target, print_targets
from timing import percentiles, timed, timed_blocking

import cdpagent

PAGE = Path(__file__).resolve().parent / "invoke_page.html"
SMALL = "function() { return {ok: true, n: 42, items: [1, 2, 3], name: 'small'}; }"
CHROMIUM = "/usr/bin/chromium"


def floor_latency(calls: int) -> tuple[float, float]:
    client = BlockingPipeClient()
    try:
        client.call("Page.enable", session=client.session)
        client.call("Page.navigate", {"url": PAGE.as_uri()}, client.session)
        expression = {"expression": "globalThis", "objectGroup": "b"}
        obj = client.call("Runtime.evaluate", expression, client.session)
        params = {"functionDeclaration": SMALL, "objectId": obj["result"]["objectId"], "returnByValue": True}

        def call() -> Any:
            return client.call("Runtime.callFunctionOn", params, client.session)

        return percentiles(timed_blocking(call, calls))
    finally:
        client.close()


async def _throughput(
    ops: list[Callable[[], Awaitable[Any]]], in_flight: int, seconds: float
) -> tuple[float, float]:
    """Calls per second with ``in_flight`` concurrent callers on each op (one op per tab),
    and this process's CPU time per call in microseconds (robust on a busy machine)."""
    done = 0
    deadline = trio.current_time() + seconds

    async def worker(op: Callable[[], Awaitable[Any]]) -> None:
        nonlocal done
        while trio.current_time() < deadline:
            await op()
            done += 1

    started, cpu = time.perf_counter(), time.process_time()
    async with trio.open_nursery() as nursery:
        for op in ops:
            for _ in range(in_flight):
                nursery.start_soon(worker, op)
    return done / (time.perf_counter() - started), (time.process_time() - cpu) / done * 1e6


async def cdpagent_figures(calls: int, seconds: float) -> dict[str, Any]:
    async with cdpagent.launch() as browser:
        tabs = [await browser.open(PAGE) for _ in range(4)]

        raws = [_raw_op(t, await t.context_id()) for t in tabs]
        invokes = [_invoke_op(t) for t in tabs]
        assert await invokes[0]() == {"ok": True, "n": 42, "items": [1, 2, 3], "name": "small"}
        out: dict[str, Any] = {"latency": {}, "throughput": {}}
        # Interleave so that background load on this machine hits both alike.
        raw_runs, invoke_runs = [], []
        for _ in range(3):
            raw_runs.append(percentiles(await timed(raws[0], calls // 3)))
            invoke_runs.append(percentiles(await timed(invokes[0], calls // 3)))
        out["latency"]["cdpagent raw callFunctionOn"] = min(raw_runs)
        out["latency"]["cdpagent Tab.invoke"] = min(invoke_runs)
        for tab_count in (1, 4):
            for in_flight in (1, 8, 64):
                for name, ops in (("raw callFunctionOn", raws), ("Tab.invoke", invokes)):
                    rate = await _throughput(ops[:tab_count], in_flight, seconds)
                    out["throughput"][(name, tab_count, in_flight)] = rate
        # The target's pair: taking turns, five times, so load drift hits both alike.
        pairs = []
        for _ in range(5):
            raw_run = await _throughput(raws, 64, seconds)
            invoke_run = await _throughput(invokes, 64, seconds)
            pairs.append((invoke_run[0] / raw_run[0], raw_run[1] / invoke_run[1]))
        out["pair 4x64"] = (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))
        return out


async def throughput_4_tabs(seconds: float) -> tuple[float, float]:
    """Best calls/s on 4 tabs over 1, 8 and 64 in flight per tab: raw callFunctionOn, Tab.invoke.

    The two take turns at every in-flight count, so load drift hits both alike.
    """
    async with cdpagent.launch() as browser:
        tabs = [await browser.open(PAGE) for _ in range(4)]
        raws = [_raw_op(t, await t.context_id()) for t in tabs]
        invokes = [_invoke_op(t) for t in tabs]
        best = {"raw": 0.0, "invoke": 0.0}
        for in_flight in (1, 8, 64):
            for name, ops in (("raw", raws), ("invoke", invokes)):
                best[name] = max(best[name], (await _throughput(ops, in_flight, seconds))[0])
        return best["raw"], best["invoke"]


def _raw_op(tab: cdpagent.Tab, ctx: int) -> Callable[[], Awaitable[Any]]:
    params = {"functionDeclaration": SMALL, "executionContextId": ctx, "returnByValue": True}
    return lambda: tab.session.send("Runtime.callFunctionOn", params)


def _invoke_op(tab: cdpagent.Tab) -> Callable[[], Awaitable[Any]]:
    return lambda: tab.invoke("small")


async def playwright_latency(calls: int) -> tuple[float, float] | None:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM)
        page = await browser.new_page()
        await page.goto(PAGE.as_uri())
        samples = await timed(lambda: page.evaluate("benchSmall()"), calls)
        await browser.close()
        return percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per latency measurement")
    parser.add_argument("--seconds", type=float, default=2.0, help="duration of each throughput run")
    args = parser.parse_args()

    latency: dict[str, tuple[float, float]] = {}
    websocket = roundtrip.ratios(trio.run(roundtrip.measure, args.calls // 2, 100))
    latency["floor: blocking pipe callFunctionOn"] = floor_latency(args.calls)
    figures = trio.run(cdpagent_figures, args.calls, args.seconds)
    latency.update(figures["latency"])
    pw = asyncio.run(playwright_latency(args.calls))
    if pw is not None:
        latency["playwright page.evaluate"] = pw

    raw = latency["cdpagent raw callFunctionOn"][0]
    floor = latency["floor: blocking pipe callFunctionOn"][0]
    print(f"{'latency, one call at a time':40} {'p50 µs':>8} {'p99 µs':>8} {'÷ raw':>7} {'÷ floor':>8}")
    for name, (p50, p99) in latency.items():
        print(f"{name:40} {p50:8.0f} {p99:8.0f} {p50 / raw:6.2f}x {p50 / floor:7.2f}x")
    if pw is None:
        print("(playwright not installed: pip install playwright; it runs the same /usr/bin/chromium)")
    print()
    header = f"{'throughput, calls/s':20} {'tabs':>4} {'in flight/tab':>13}"
    print(f"{header} {'raw':>7} {'invoke':>7} {'ratio':>6}   {'CPU µs/call: raw':>16} {'invoke':>7}")
    table = figures["throughput"]
    for tabs in (1, 4):
        for in_flight in (1, 8, 64):
            r, r_cpu = table[("raw callFunctionOn", tabs, in_flight)]
            i, i_cpu = table[("Tab.invoke", tabs, in_flight)]
            row = f"{'':20} {tabs:4} {in_flight:13} {r:7.0f} {i:7.0f} {i / r:5.2f}x"
            print(f"{row}   {r_cpu:16.0f} {i_cpu:7.0f}")
    print()
    invoke_p50 = latency["cdpagent Tab.invoke"][0]
    best4 = max(table[("Tab.invoke", 4, n)][0] for n in (1, 8, 64))
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"invoke p50 / raw callFunctionOn p50 = {invoke_p50 / raw:.2f}x (target ≤ 1.3x)")
    print(f"best Tab.invoke throughput on 4 tabs = {best4:.0f} calls/s (target ≥ 8000)")
    if pw is not None:
        print(f"invoke p50 / Playwright page.evaluate p50 = {invoke_p50 / pw[0]:.2f}x")
    rate_ratio, cpu_ratio = figures["pair 4x64"]
    one_at_a_time = invoke_p50 / floor
    print_targets(
        "issue 25: calls (bench/invoke.py)",
        [
            Target("Tab.invoke ÷ raw callFunctionOn throughput, 4 tabs x 64", rate_ratio, "x", 0.9, True),
            Target("  the same, as CPU per call (raw ÷ invoke)", cpu_ratio, "x", 0.9, True),
            Target(
                "websocket round trip ÷ blocking pipe floor (callFunctionOn)",
                websocket[("cdpagent websocket", "callFunctionOn")],
                "x",
                1.15,
                False,
            ),
            Target("Tab.invoke p50 ÷ blocking pipe floor, one at a time", one_at_a_time, "x", 1.1, False),
        ],
    )


if __name__ == "__main__":
    main()
