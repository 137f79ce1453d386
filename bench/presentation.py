"""The presentation's cost: folding, the budgets and both renderers (``build``), on snapshots
collected once from the pages ``bench/observe.py`` measures.

``build`` is pure Python on a snapshot, so each figure is this process's CPU time
(``time.process_time``), not wall time: on a machine shared with other work it moves far
less. Printed per page: min and p50 of ``runs`` builds (ms), and the text and tools
characters they produce (which the presentation must not change when only its speed does).

    .venv/bin/python bench/observe.py --only present [--samples N] [--sizes 100,1000,10000]
"""

from __future__ import annotations

import statistics
import time

import trio

import cdpagent
from cdpagent.snapshot import ObserveOptions, Snapshot, build, tools_json
from cdpagent.snapshot.observe import collect_snapshot

__all__ = ["print_presentation"]


async def _collect(pages: dict[str, str], timeout: float = 300) -> dict[str, Snapshot]:
    out: dict[str, Snapshot] = {}
    async with cdpagent.launch() as browser:
        for name, address in pages.items():
            tab = await browser.open(address, timeout=timeout)
            with trio.fail_after(timeout):
                out[name], _ = await collect_snapshot(tab, ObserveOptions(settle=False))
            await tab.close()
    return out


def print_presentation(pages: dict[str, str], runs: int) -> None:
    """Collect one snapshot of each of ``pages`` (name → url), then time ``runs`` builds of each."""
    snapshots = trio.run(_collect, pages)
    options = ObserveOptions()
    print(f"\npresentation (fold, budgets, render: build), CPU time of {runs} builds per page (ms)")
    print(f"{'page':>24} {'min':>8} {'p50':>8} {'text':>6} {'tools':>6}")
    for name, snapshot in snapshots.items():
        build(snapshot, options)  # warm-up
        times: list[float] = []
        for _ in range(runs):
            t0 = time.process_time()
            _, text, tools = build(snapshot, options)
            times.append(time.process_time() - t0)
        print(
            f"{name:>24} {min(times) * 1000:>8.2f} {statistics.median(times) * 1000:>8.2f} "
            f"{len(text):>6} {len(tools_json(tools)):>6}"
        )
