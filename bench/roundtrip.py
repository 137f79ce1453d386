"""CDP round-trip latency: cdpagent on both transports against a blocking floor.

Prints p50/p99 of ``Runtime.evaluate("1")`` and of a ``Runtime.callFunctionOn``
returning a small object, for the blocking pipe floor (``bench/floor.py``) and
for cdpagent over the pipe and over the websocket, then the ratios
cdpagent/floor. The three clients run side by side in blocks that take turns,
so a busy neighbour slows them alike. Runs in well under a minute.

    .venv/bin/python bench/roundtrip.py [--calls N] [--block N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
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


Op = Callable[[], Any]
AsyncOp = Callable[[], Awaitable[Any]]


def floor_ops(client: BlockingPipeClient) -> dict[str, Op]:
    ctx = client.call(
        "Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}, client.session
    )["result"]["objectId"]
    call = {"functionDeclaration": SMALL, "objectId": ctx, "returnByValue": True}
    return {
        "evaluate": lambda: client.call("Runtime.evaluate", {"expression": "1"}, client.session),
        "callFunctionOn": lambda: client.call("Runtime.callFunctionOn", call, client.session),
    }


async def cdpagent_ops(browser: cdpagent.Browser) -> dict[str, AsyncOp]:
    tab = await browser.open("about:blank")
    send = tab.session.send
    ctx = (await send("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}))["result"][
        "objectId"
    ]
    call = {"functionDeclaration": SMALL, "objectId": ctx, "returnByValue": True}
    return {
        "evaluate": lambda: send("Runtime.evaluate", {"expression": "1"}),
        "callFunctionOn": lambda: send("Runtime.callFunctionOn", call),
    }


async def measure(calls: int, block: int) -> dict[str, dict[str, list[float]]]:
    """Interleave blocks of ``block`` calls of every client, so drift hits all alike."""
    samples: dict[str, dict[str, list[float]]] = {}
    client = BlockingPipeClient()
    try:
        async with (
            cdpagent.launch(transport="pipe", extensions=[]) as pipe,
            cdpagent.launch(transport="websocket", extensions=[]) as ws,
        ):
            floor = floor_ops(client)
            clients = {
                "cdpagent pipe": await cdpagent_ops(pipe),
                "cdpagent websocket": await cdpagent_ops(ws),
            }
            for method in ("evaluate", "callFunctionOn"):
                for _ in range(block):  # warm-up
                    floor[method]()
                    for ops in clients.values():
                        await ops[method]()
                for _ in range(max(1, calls // block)):
                    out = samples.setdefault("floor (blocking pipe)", {}).setdefault(method, [])
                    for _ in range(block):
                        t0 = time.perf_counter()
                        floor[method]()
                        out.append(time.perf_counter() - t0)
                    for name, ops in clients.items():
                        out = samples.setdefault(name, {}).setdefault(method, [])
                        for _ in range(block):
                            t0 = time.perf_counter()
                            await ops[method]()
                            out.append(time.perf_counter() - t0)
    finally:
        client.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per client and method")
    parser.add_argument("--block", type=int, default=100, help="calls per client before switching")
    args = parser.parse_args()
    results = trio.run(measure, args.calls, args.block)
    floor = {m: percentiles(v) for m, v in results["floor (blocking pipe)"].items()}
    print(f"{'client':24} {'method':16} {'p50 µs':>9} {'p99 µs':>9} {'p50 ratio':>10}")
    for client, figures in results.items():
        for method, values in figures.items():
            p50, p99 = percentiles(values)
            print(f"{client:24} {method:16} {p50:9.0f} {p99:9.0f} {p50 / floor[method][0]:9.2f}x")
    print(f"(blocks of {args.block} calls per client, interleaved; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
