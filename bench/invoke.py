"""Page Agent API invoke: latency and throughput beside the raw CDP floor (and Playwright).

Measures, in one run, on ``bench/invoke_page.html`` whose ``small`` method returns a
small object, with these peers (the output repeats what each figure includes):

* **floor, bare function** — ``bench/floor.py``'s blocking pipe client calling a bare
  function that returns the same object (``Runtime.callFunctionOn``);
* **floor, invoke's command** — the same client, its tab set up with the shim as
  cdpagent's is, sending exactly the ``Runtime.callFunctionOn`` that ``Tab.invoke``
  sends (so the page does the same work);
* **floor in Trio, invoke's command** — that call again, but waiting for the reply in
  Trio's loop in the calling task (``bench/floor.py``'s :class:`TrioPipeFloor`): the least
  any Trio program pays for it;
* **raw, bare function** / **raw, invoke's command** — the same two commands through
  cdpagent's own connection (``Tab.session.send``, generic decoding), on the very tabs
  ``Tab.invoke`` uses: ``Tab.invoke`` ÷ *raw, invoke's command* is ``Tab.invoke``'s own
  overhead (its checks, deadline, envelope and the decoding of the value);
* ``Tab.invoke("small")``, and — when ``playwright`` is installed (the ``bench``
  extra) — Playwright's ``page.evaluate("benchSmall()")`` on the same Chromium.

Latency is p50/p99 of one call at a time, the clients taking turns in blocks so that
load drift hits them alike; throughput is calls/s and this process's CPU time per call
with 1, 8 and 64 calls in flight per tab, on 1 and 4 tabs; then the websocket round
trip (``bench/roundtrip.py``'s measurement, one round), the ratios, and the speed
targets with met / NOT MET lines.

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
from typing import Any, NamedTuple

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

import roundtrip
from floor import BlockingPipeClient, TrioPipeFloor
from targets import Target, print_targets
from timing import percentiles, throughput, timed

import cdpagent
from cdpagent.runtime import PageApi
from cdpagent.runtime.pageapi import INVOKE_FUNCTION

PAGE = Path(__file__).resolve().parent / "invoke_page.html"
SMALL = "function() { return {ok: true, n: 42, items: [1, 2, 3], name: 'small'}; }"
CHROMIUM = "/usr/bin/chromium"
BLOCK = 100

FLOOR_BARE = "floor, bare function"
FLOOR_SAME = "floor, invoke's command"
FLOOR_TRIO = "floor in Trio, invoke's command"
RAW_BARE = "raw, bare function"
RAW_SAME = "raw, invoke's command"
INVOKE = "Tab.invoke"
INCLUDES = {
    FLOOR_BARE: "blocking pipe client (bench/floor.py), a function returning the object",
    FLOOR_SAME: "the same client and tab set-up as cdpagent's, sending Tab.invoke's exact command",
    FLOOR_TRIO: "the same, waiting in Trio's loop in the caller's task (no reader task): any Trio client",
    RAW_BARE: "cdpagent's connection (Session.send, generic decode), the bare function",
    RAW_SAME: "cdpagent's connection, Tab.invoke's exact command, its reply decoded generically",
    INVOKE: "+ invoke's checks, deadline, the shim's envelope and the value decoded",
}


#: The ``arguments`` of ``Tab.invoke("small")``'s ``Runtime.callFunctionOn``.
INVOKE_ARGS = [{"value": "small"}, {"value": "{}"}]


class Floors(NamedTuple):
    """The blocking floor's two calls, on a tab set up as cdpagent sets up its tabs for the
    shim, and the same client's invoke's command waiting in Trio's loop (:data:`FLOOR_TRIO`;
    call it inside ``in_trio.turn()``)."""

    blocking: dict[str, Callable[[], Any]]
    in_trio: TrioPipeFloor
    trio_same: Callable[[], Awaitable[Any]]


def floor_ops(client: BlockingPipeClient) -> Floors:
    """:class:`Floors` of ``client``'s browser, its tab given the shim."""
    api = PageApi()
    session = client.session
    client.call("Page.enable", session=session)
    client.call("Runtime.addBinding", {"name": api.binding}, session)
    shim = {"source": api.source, "runImmediately": True}
    client.call("Page.addScriptToEvaluateOnNewDocument", shim, session)
    client.call("Page.navigate", {"url": PAGE.as_uri()}, session)
    state = {"expression": "document.readyState", "returnByValue": True}
    while client.call("Runtime.evaluate", state, session)["result"].get("value") != "complete":
        time.sleep(0.01)
    expression = {"expression": "globalThis", "objectGroup": "b"}
    obj = client.call("Runtime.evaluate", expression, session)["result"]["objectId"]
    bare = {"functionDeclaration": SMALL, "objectId": obj, "returnByValue": True}
    same = {
        "functionDeclaration": api.bind(INVOKE_FUNCTION),
        "arguments": INVOKE_ARGS,
        "objectId": obj,
        "returnByValue": True,
        "awaitPromise": True,
    }
    answer = client.call("Runtime.callFunctionOn", same, session)["result"]["value"]
    assert answer.startswith('{"ok":true'), answer
    in_trio = TrioPipeFloor(client)
    blocking = {
        FLOOR_BARE: lambda: client.call("Runtime.callFunctionOn", bare, session),
        FLOOR_SAME: lambda: client.call("Runtime.callFunctionOn", same, session),
    }
    return Floors(blocking, in_trio, lambda: in_trio.call("Runtime.callFunctionOn", same, session))


async def _throughput(
    ops: list[Callable[[], Awaitable[Any]]], in_flight: int, seconds: float
) -> tuple[float, float]:
    """Calls per second with ``in_flight`` concurrent callers on each op (one op per tab),
    and this process's CPU time per call in microseconds (robust on a busy machine)."""
    done, elapsed, cpu = await throughput(ops, in_flight, seconds)
    return done / elapsed, cpu / done * 1e6


async def cdpagent_figures(floors: Floors, calls: int, seconds: float) -> dict[str, Any]:
    async with cdpagent.launch() as browser:
        tabs = [await browser.open(PAGE) for _ in range(4)]
        api = PageApi.of(browser)
        contexts = [await t.context_id() for t in tabs]
        invoke_text = api.bind(INVOKE_FUNCTION)
        ops: dict[str, list[Callable[[], Awaitable[Any]]]] = {
            RAW_BARE: [_raw_op(t, ctx, SMALL, False) for t, ctx in zip(tabs, contexts, strict=True)],
            RAW_SAME: [_raw_op(t, ctx, invoke_text, True) for t, ctx in zip(tabs, contexts, strict=True)],
            INVOKE: [_invoke_op(t) for t in tabs],
        }
        assert await ops[INVOKE][0]() == {"ok": True, "n": 42, "items": [1, 2, 3], "name": "small"}
        out: dict[str, Any] = {"latency": {}, "throughput": {}}
        # One call at a time, the five clients taking turns in blocks: drift hits all alike.
        floor = floors.blocking
        samples: dict[str, list[float]] = {name: [] for name in (*floor, FLOOR_TRIO, *ops)}
        for _ in range(BLOCK // 10):  # warm-up
            for blocking in floor.values():
                blocking()
            with floors.in_trio.turn():
                await floors.trio_same()
            for tab_ops in ops.values():
                await tab_ops[0]()
        for _ in range(max(1, calls // BLOCK)):
            for name, blocking in floor.items():
                for _ in range(BLOCK):
                    t0 = time.perf_counter()
                    blocking()
                    samples[name].append(time.perf_counter() - t0)
            with floors.in_trio.turn():
                for _ in range(BLOCK):
                    t0 = time.perf_counter()
                    await floors.trio_same()
                    samples[FLOOR_TRIO].append(time.perf_counter() - t0)
            for name, tab_ops in ops.items():
                op = tab_ops[0]
                for _ in range(BLOCK):
                    t0 = time.perf_counter()
                    await op()
                    samples[name].append(time.perf_counter() - t0)
        out["latency"] = {name: percentiles(values) for name, values in samples.items()}
        for tab_count in (1, 4):
            for in_flight in (1, 8, 64):
                for name, tab_ops in ops.items():
                    rate = await _throughput(tab_ops[:tab_count], in_flight, seconds)
                    out["throughput"][(name, tab_count, in_flight)] = rate
        # The target's pairs: taking turns, five times, so load drift hits all alike.
        pairs: list[tuple[float, float, float]] = []
        for _ in range(5):
            same = await _throughput(ops[RAW_SAME], 64, seconds)
            invoke = await _throughput(ops[INVOKE], 64, seconds)
            bare = await _throughput(ops[RAW_BARE], 64, seconds)
            pairs.append((invoke[0] / same[0], same[1] / invoke[1], invoke[0] / bare[0]))
        out["pair 4x64"] = tuple(statistics.median(p[i] for p in pairs) for i in range(3))
        return out


def _raw_op(tab: cdpagent.Tab, ctx: int, function: str, invokes: bool) -> Callable[[], Awaitable[Any]]:
    """``Session.send`` of the bare function, or (``invokes``) of invoke's exact command."""
    params: dict[str, Any] = {"functionDeclaration": function, "executionContextId": ctx}
    params["returnByValue"] = True
    if invokes:
        params.update(arguments=INVOKE_ARGS, awaitPromise=True)
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

    websocket = roundtrip.ratios(trio.run(roundtrip.measure, args.calls // 2, 100))
    client = BlockingPipeClient()
    try:
        figures = trio.run(cdpagent_figures, floor_ops(client), args.calls, args.seconds)
    finally:
        client.close()
    latency: dict[str, tuple[float, float]] = dict(figures["latency"])
    pw = asyncio.run(playwright_latency(args.calls))
    if pw is not None:
        latency["playwright page.evaluate"] = pw

    print("What each figure includes:")
    for name, includes in INCLUDES.items():
        print(f"  {name:24} {includes}")
    print()
    bare, same, in_trio = (latency[name][0] for name in (FLOOR_BARE, FLOOR_SAME, FLOOR_TRIO))
    ratios = f"{'÷ floor, bare':>14} {'÷ floor, same':>14} {'÷ in Trio':>10}"
    print(f"{'latency, one call at a time':32} {'p50 µs':>8} {'p99 µs':>8} {ratios}")
    for name, (p50, p99) in latency.items():
        cells = f"{p50 / bare:13.2f}x {p50 / same:13.2f}x {p50 / in_trio:9.2f}x"
        print(f"{name:32} {p50:8.0f} {p99:8.0f} {cells}")
    if pw is None:
        print("(playwright not installed: pip install playwright; it runs the same /usr/bin/chromium)")
    print()
    header = f"{'throughput, calls/s':20} {'tabs':>4} {'in flight/tab':>13}"
    cpu = f"{'CPU µs/call: same':>17} {'invoke':>7}"
    print(f"{header} {'bare':>7} {'same':>7} {'invoke':>7} {'÷ same':>7}   {cpu}")
    table = figures["throughput"]
    for tabs in (1, 4):
        for in_flight in (1, 8, 64):
            b = table[(RAW_BARE, tabs, in_flight)][0]
            r, r_cpu = table[(RAW_SAME, tabs, in_flight)]
            i, i_cpu = table[(INVOKE, tabs, in_flight)]
            row = f"{'':20} {tabs:4} {in_flight:13} {b:7.0f} {r:7.0f} {i:7.0f} {i / r:6.2f}x"
            print(f"{row}   {r_cpu:17.1f} {i_cpu:7.1f}")
    print("(bare: raw, bare function; same: raw, invoke's command; both through the tabs' own sessions)")
    print()
    invoke_p50 = latency[INVOKE][0]
    best4 = max(table[(INVOKE, 4, n)][0] for n in (1, 8, 64))
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"invoke p50 / raw bare function p50 = {invoke_p50 / latency[RAW_BARE][0]:.2f}x (target ≤ 1.3x)")
    print(f"best Tab.invoke throughput on 4 tabs = {best4:.0f} calls/s (target ≥ 8000)")
    if pw is not None:
        print(f"invoke p50 / Playwright page.evaluate p50 = {invoke_p50 / pw[0]:.2f}x")
    rate_ratio, cpu_ratio, bare_ratio = figures["pair 4x64"]
    print_targets(
        "issue 25: calls (bench/invoke.py)",
        [
            Target("Tab.invoke ÷ raw invoke's command throughput, 4 tabs x 64", rate_ratio, "x", 0.9, True),
            Target("  the same, as CPU per call (raw ÷ invoke)", cpu_ratio, "x", 0.9, True),
            Target("  ÷ raw bare function instead (+ the shim's page work)", bare_ratio, "x", 0.9, True),
            Target(
                "websocket round trip ÷ blocking pipe floor (callFunctionOn)",
                websocket[("cdpagent websocket", "callFunctionOn")],
                "x",
                1.15,
                False,
            ),
            Target(
                "  blocking websocket floor ÷ blocking pipe floor (the browser's own)",
                websocket[(roundtrip.WS_FLOOR, "callFunctionOn")],
                "x",
                1.15,
                False,
            ),
            Target(
                "  websocket round trip ÷ blocking websocket floor",
                websocket[("cdpagent websocket ÷ websocket floor", "callFunctionOn")],
                "x",
                1.15,
                False,
            ),
            Target("Tab.invoke p50 ÷ floor (bare function), 1 at a time", invoke_p50 / bare, "x", 1.1, False),
            Target("  ÷ floor sending invoke's command (same page work)", invoke_p50 / same, "x", 1.1, False),
            Target("  ÷ that floor waiting in Trio's loop", invoke_p50 / in_trio, "x", 1.1, False),
        ],
    )


if __name__ == "__main__":
    main()
