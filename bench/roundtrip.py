"""CDP round-trip latency: cdpagent on both transports against a blocking floor.

Prints p50/p99 of ``Runtime.evaluate("1")`` and of a ``Runtime.callFunctionOn``
returning a small object, for the blocking floors (``bench/floor.py``: over the pipe,
and over the websocket) and for cdpagent over the pipe and over the websocket, then the
ratios to the pipe floor, and the websocket's to the websocket floor: what the browser's
websocket path costs any client is the second floor's excess over the first. The four
clients run side by side in blocks that take turns, so a busy neighbour slows them
alike. Runs in well under a minute.

Repeats the whole measurement ``--rounds`` times (each with fresh browsers) and
ends with the median, min and max of every ratio, so the spread is on record.

    .venv/bin/python bench/roundtrip.py [--calls N] [--block N] [--rounds N]
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

from floor import BlockingPipeClient, BlockingWebSocketClient
from timing import percentiles

import cdpagent

SMALL = "function() { return {ok: true, n: 42, items: [1, 2, 3], name: 'small'}; }"
PIPE_FLOOR = "floor (blocking pipe)"
WS_FLOOR = "floor (blocking websocket)"


Op = Callable[[], Any]
AsyncOp = Callable[[], Awaitable[Any]]


def floor_ops(client: BlockingPipeClient | BlockingWebSocketClient) -> dict[str, Op]:
    ctx = client.call("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}, client.session)[
        "result"
    ]["objectId"]
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
    floors: dict[str, BlockingPipeClient | BlockingWebSocketClient] = {
        PIPE_FLOOR: BlockingPipeClient(),
        WS_FLOOR: BlockingWebSocketClient(),
    }
    try:
        async with (
            cdpagent.launch(transport="pipe", extensions=[]) as pipe,
            cdpagent.launch(transport="websocket", extensions=[]) as ws,
        ):
            blocking = {name: floor_ops(client) for name, client in floors.items()}
            clients = {
                "cdpagent pipe": await cdpagent_ops(pipe),
                "cdpagent websocket": await cdpagent_ops(ws),
            }
            for method in ("evaluate", "callFunctionOn"):
                for _ in range(block):  # warm-up
                    for ops in blocking.values():
                        ops[method]()
                    for async_ops in clients.values():
                        await async_ops[method]()
                for _ in range(max(1, calls // block)):
                    for name, ops in blocking.items():
                        out = samples.setdefault(name, {}).setdefault(method, [])
                        for _ in range(block):
                            t0 = time.perf_counter()
                            ops[method]()
                            out.append(time.perf_counter() - t0)
                    for name, async_ops in clients.items():
                        out = samples.setdefault(name, {}).setdefault(method, [])
                        for _ in range(block):
                            t0 = time.perf_counter()
                            await async_ops[method]()
                            out.append(time.perf_counter() - t0)
    finally:
        for client in floors.values():
            client.close()
    return samples


def ratios(results: dict[str, dict[str, list[float]]]) -> dict[tuple[str, str], float]:
    """p50 of every client and method ÷ the pipe floor's p50 of that method; and, under the
    client name ``"… ÷ websocket floor"``, the websocket client's ÷ the websocket floor's."""

    def floor(name: str) -> dict[str, float]:
        return {m: percentiles(v)[0] for m, v in results[name].items()}

    pipe, ws = floor(PIPE_FLOOR), floor(WS_FLOOR)
    out = {
        (client, method): percentiles(values)[0] / pipe[method]
        for client, figures in results.items()
        for method, values in figures.items()
    }
    for method, values in results["cdpagent websocket"].items():
        out[("cdpagent websocket ÷ websocket floor", method)] = percentiles(values)[0] / ws[method]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per client and method")
    parser.add_argument("--block", type=int, default=100, help="calls per client before switching")
    parser.add_argument("--rounds", type=int, default=3, help="repeat the whole measurement")
    args = parser.parse_args()
    rounds: list[dict[tuple[str, str], float]] = []
    for number in range(1, args.rounds + 1):
        results = trio.run(measure, args.calls, args.block)
        rounds.append(ratios(results))
        floor = {m: percentiles(v) for m, v in results[PIPE_FLOOR].items()}
        print(f"round {number}: {'client':26} {'method':16} {'p50 µs':>9} {'p99 µs':>9} {'÷ pipe floor':>12}")
        for client, figures in results.items():
            for method, values in figures.items():
                p50, p99 = percentiles(values)
                ratio = p50 / floor[method][0]
                print(f"{'':9}{client:26} {method:16} {p50:9.0f} {p99:9.0f} {ratio:11.2f}x")
        load = os.getloadavg()[0]
        print(f"(blocks of {args.block} calls per client, interleaved; load average {load:.1f})")
    print()
    print(f"p50 ÷ pipe floor over {args.rounds} rounds: {'median':>7} {'min':>6} {'max':>6}")
    for key in rounds[0]:
        values = [r[key] for r in rounds]
        client, method = key
        spread = f"{statistics.median(values):6.2f}x {min(values):5.2f}x {max(values):5.2f}x"
        print(f"{client:38} {method:16} {spread}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
