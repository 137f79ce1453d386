"""CDP round-trip latency: cdpagent on both transports against a blocking floor.

Prints p50/p99 of ``Runtime.evaluate("1")`` and of a ``Runtime.callFunctionOn``
returning a small object, for the blocking pipe floor (``bench/floor.py``) and
for cdpagent over the pipe and over the websocket, then the ratios
cdpagent/floor. Runs in well under a minute.

    .venv/bin/python bench/roundtrip.py [--calls N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floor import BlockingPipeClient

import cdpagent

SMALL = "function() { return {ok: true, n: 42, items: [1, 2, 3], name: 'small'}; }"


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 in microseconds."""
    ordered = sorted(samples)
    return (
        statistics.median(ordered) * 1e6,
        ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6,
    )


def measure_floor(calls: int) -> dict[str, tuple[float, float]]:
    client = BlockingPipeClient()
    try:
        ctx = client.call(
            "Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}, client.session
        )["result"]["objectId"]
        ops: dict[str, Callable[[], Any]] = {
            "evaluate": lambda: client.call("Runtime.evaluate", {"expression": "1"}, client.session),
            "callFunctionOn": lambda: client.call(
                "Runtime.callFunctionOn",
                {"functionDeclaration": SMALL, "objectId": ctx, "returnByValue": True},
                client.session,
            ),
        }
        out = {}
        for name, op in ops.items():
            for _ in range(calls // 10):
                op()
            samples = []
            for _ in range(calls):
                t0 = time.perf_counter()
                op()
                samples.append(time.perf_counter() - t0)
            out[name] = percentiles(samples)
        return out
    finally:
        client.close()


async def measure_cdpagent(transport: str, calls: int) -> dict[str, tuple[float, float]]:
    async with cdpagent.launch(transport=transport) as browser:
        tab = await browser.open("about:blank")
        send = tab.session.send
        ctx = (await send("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}))[
            "result"
        ]["objectId"]
        ops: dict[str, tuple[str, dict[str, Any]]] = {
            "evaluate": ("Runtime.evaluate", {"expression": "1"}),
            "callFunctionOn": (
                "Runtime.callFunctionOn",
                {"functionDeclaration": SMALL, "objectId": ctx, "returnByValue": True},
            ),
        }
        out = {}
        for name, (method, params) in ops.items():
            for _ in range(calls // 10):
                await send(method, params)
            samples = []
            for _ in range(calls):
                t0 = time.perf_counter()
                await send(method, params)
                samples.append(time.perf_counter() - t0)
            out[name] = percentiles(samples)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per measurement")
    args = parser.parse_args()
    results = {"floor (blocking pipe)": measure_floor(args.calls)}
    results["cdpagent pipe"] = trio.run(measure_cdpagent, "pipe", args.calls)
    results["cdpagent websocket"] = trio.run(measure_cdpagent, "websocket", args.calls)
    floor = results["floor (blocking pipe)"]
    print(f"{'client':24} {'method':16} {'p50 µs':>9} {'p99 µs':>9} {'p50 ratio':>10}")
    for client, figures in results.items():
        for method, (p50, p99) in figures.items():
            ratio = p50 / floor[method][0]
            print(f"{client:24} {method:16} {p50:9.0f} {p99:9.0f} {ratio:9.2f}x")


if __name__ == "__main__":
    main()
