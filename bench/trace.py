"""What a trace costs: the same steps with and without ``trace=PATH``, and the bytes they write.

Times ``Tab.view`` (an observe step) and ``Tab.act`` (a toggle) on the todos example,
without a trace, with a trace (each step then also takes its thumbnail), and with
a trace without thumbnails (the recorder alone: arguments, result, the CDP meter).
The three run in one browser, in blocks that take turns (``--rounds`` of each), so a
busy neighbour slows them alike. Prints p50/p99 per step and the bytes per step the
trace wrote.

    .venv/bin/python bench/trace.py [--calls N] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import percentiles, timed

import cdpagent
from cdpagent.trace.recorder import recording

TODOS = Path(__file__).resolve().parent.parent / "examples" / "todos" / "index.html"


MODES = ("off", "trace", "no thumbnails")


async def main(calls: int, rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cdpagent-bench-trace-"))
    results = {mode: {"view": list[float](), "act": list[float]()} for mode in MODES}
    sizes = {mode: list[float]() for mode in MODES[1:]}
    async with cdpagent.launch() as browser:
        tab = await browser.open(TODOS)
        for _ in range(rounds):
            for mode in MODES:
                path = folder / f"{mode.replace(' ', '-')}.jsonl"
                with recording(browser, None if mode == "off" else path):
                    if browser.tracer is not None and mode == "no thumbnails":
                        browser.tracer.thumbnails = False
                    results[mode]["view"] += await timed(lambda: tab.view(), calls)
                    results[mode]["act"] += await timed(lambda: tab.act("toggle", record="t9"), calls)
                if mode != "off":
                    steps = 2 * (calls + max(1, calls // 10))
                    sizes[mode].append(path.stat().st_size / steps)
    print(f"{'mode':<16} {'step':<6} {'p50 ms':>8} {'p99 ms':>8}  trace bytes/step")
    for mode, by_step in results.items():
        for step, samples in by_step.items():
            p50, p99 = percentiles(samples)
            size = f"{sum(sizes[mode]) / len(sizes[mode]):.0f}" if mode in sizes else "-"
            print(f"{mode:<16} {step:<6} {p50 / 1000:8.1f} {p99 / 1000:8.1f}  {size}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20, help="timed steps of each kind per block")
    parser.add_argument("--rounds", type=int, default=3, help="blocks of each mode")
    options = parser.parse_args()
    trio.run(main, options.calls, options.rounds)
