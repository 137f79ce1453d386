"""Acting with receipts (OB-7, OB-8): end-to-end ``act`` and the snapshot diff alone.

1. On ``examples/inventory`` at 1,000 and 10,000 rows, ``act("select", record=…,
   checked=True)`` on a row far outside the viewport, including both settled
   snapshots (the target collected in full) and the receipt. Prints the p50 of
   each part: settle (of which the post-action quiet window), collection (inside
   the page), transfer + decode (CDP round trips, JSON and msgspec), action
   (re-check, scroll, input, post-condition), diff, total, and total beyond the
   settle window.
2. The peer, in the same run: Playwright's bare ``locator.check()`` on the same rows
   of the same page (same /usr/bin/chromium), which answers nothing about what changed.
3. The diff alone on two 10,000-record snapshots, every record collected in full
   (a real snapshot of the 10,000-row page), with 1, 100 and all records changed.

Targets (issue 25; met / NOT MET lines at the end): act + receipt at 10k ÷ Playwright's
``check()`` ≤ 0.5×; diff of two 10k snapshots ≤ 10 ms; act + receipt at 10k ≤ 150 ms
beyond the settle window.

    .venv/bin/python bench/act.py [--runs N] [--only act|diff]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

import msgspec
import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from targets import Target, print_targets

import cdpagent
from cdpagent.act.inputs import ActArgs
from cdpagent.act.perform import ActTimings, act
from cdpagent.browser.bundled import example_page
from cdpagent.cdp.world import WorldExtension
from cdpagent.snapshot import ObserveOptions, Snapshot
from cdpagent.snapshot.folding import fold_actions
from cdpagent.snapshot.observe import collect_snapshot
from cdpagent.snapshot.receipts import diff

PARTS = ("settle_ms", "quiet_ms", "collect_ms", "transfer_ms", "action_ms", "diff_ms", "total_ms")
CHROMIUM = "/usr/bin/chromium"


def p50(values: list[float]) -> float:
    return statistics.median(values)


def offscreen_records(rows: int, runs: int) -> list[str]:
    """Rows near the end of the table: far outside the viewport, never locked; one per run."""
    return [f"sku-{rows - 1 - 2 * i:05d}" for i in range(runs + 1)]


async def bench_act(browser: cdpagent.Browser, rows: int, runs: int) -> dict[str, float]:
    """Print and return the p50 of every part of act on an offscreen row at ``rows`` rows."""
    url = f"{example_page('inventory').as_uri()}?rows={rows}"
    tab = await browser.open(url)
    samples: list[ActTimings] = []
    sizes: list[int] = []
    for i, record in enumerate(offscreen_records(rows, runs)):
        timings = ActTimings()
        receipt = await act(tab, ActArgs(action="select", record=record, checked=True), timings=timings)
        if not receipt.ok:
            raise SystemExit(f"act failed: {receipt.to_json()}")
        if i:  # the first run warms the page's and our code paths
            samples.append(timings)
            sizes.append(len(receipt.to_json()))
    await tab.close()
    parts = {p: p50([getattr(s, p, 0.0) for s in samples]) for p in PARTS}
    beyond = p50([s.total_ms - s.settle_ms for s in samples])
    parts["beyond_settle_ms"] = beyond
    print(
        f"act on an offscreen row, {rows:>6} rows (p50 of {runs}): "
        f"settle {parts['settle_ms']:6.1f} (quiet window {parts['quiet_ms']:5.1f}) | "
        f"collect {parts['collect_ms']:6.1f} | "
        f"transfer+decode {parts['transfer_ms']:6.1f} | action {parts['action_ms']:5.1f} | "
        f"diff {parts['diff_ms']:5.2f} | total {parts['total_ms']:6.1f} | "
        f"beyond settle {beyond:6.1f} ms | receipt {p50([float(s) for s in sizes]):.0f} chars"
    )
    return parts


async def playwright_check(rows: int, runs: int) -> float | None:
    """p50 ms of Playwright's ``check()`` on the same offscreen rows (None without Playwright)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    url = f"{example_page('inventory').as_uri()}?rows={rows}"
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM)
        page = await browser.new_page()
        await page.goto(url)
        times = []
        for i, record in enumerate(offscreen_records(rows, runs)):
            box = page.locator(f'[data-agent-record="{record}"] input[type=checkbox]')
            t0 = time.perf_counter()
            await box.check()
            if i:  # the first run warms up, as for act
                times.append((time.perf_counter() - t0) * 1000)
        await browser.close()
    ms = p50(times)
    print(f"Playwright locator.check() on the same rows, {rows:>6} rows (p50 of {runs}): {ms:6.1f} ms")
    return ms


async def real_snapshot(browser: cdpagent.Browser, rows: int) -> Snapshot:
    tab = await browser.open(f"{example_page('inventory').as_uri()}?rows={rows}")
    ids = tuple(f"sku-{i:05d}" for i in range(1, rows + 1))
    snap, _ = await collect_snapshot(tab, ObserveOptions(include=ids), timeout=60)
    await tab.close()
    return snap


def changed_copy(snap: Snapshot, every: int) -> Snapshot:
    records = [
        msgspec.structs.replace(r, fields={**r.fields, "qty": "changed"}) if i % every == 0 else r
        for i, r in enumerate(snap.records)
    ]
    return msgspec.structs.replace(snap, records=records)


def bench_diff(snap: Snapshot, runs: int) -> float:
    """Print the diff's figures; return the p50 ms of the one-change diff."""
    n = len(snap.records)
    # Decode a second copy so "before" and "after" share no objects, as in act().
    encoded = msgspec.json.encode(snap)
    before = msgspec.json.decode(encoded, type=Snapshot)
    one_change = 0.0
    for label, every in (("1", n), ("100", n // 100), ("all", 1)):
        after = changed_copy(msgspec.json.decode(encoded, type=Snapshot), every)
        # act() folds each snapshot once, before the diff (snapshot.folding); so does this.
        entries = fold_actions(before), fold_actions(after)
        times = []
        cpu = []
        for _ in range(runs):
            c0 = time.thread_time()
            t0 = time.perf_counter()
            changes = diff(before, after, before_entries=entries[0], after_entries=entries[1])
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        if label == "1":
            one_change = p50(times)
        changed = len(changes.records.changed) if changes.records else 0
        left = changes.omitted.records_changed if changes.omitted else 0
        # CPU time too: on a loaded machine wall time mostly measures waiting for a core.
        print(
            f"diff of two {n}-record snapshots, {label:>3} changed: wall p50 {p50(times):5.2f} ms "
            f"(min {min(times):5.2f}), CPU p50 {p50(cpu):5.2f} ms ({changed} listed, {left} counted)"
        )
    t0 = time.perf_counter()
    for _ in range(runs):
        msgspec.json.decode(encoded, type=Snapshot)
    print(
        f"decode of one {n}-record snapshot ({len(encoded) / 1e6:.1f} MB): "
        f"{(time.perf_counter() - t0) * 1000 / runs:.1f} ms"
    )
    return one_change


async def main(runs: int, only: str | None) -> None:
    acted: dict[int, dict[str, float]] = {}
    async with cdpagent.launch(extensions=[WorldExtension()]) as browser:
        if only != "diff":
            for rows in (1_000, 10_000):
                acted[rows] = await bench_act(browser, rows, runs)
        if only != "act":
            snap = await real_snapshot(browser, 10_000)
    targets: list[Target] = []
    if only != "diff":
        peer = await trio.to_thread.run_sync(lambda: asyncio.run(playwright_check(10_000, runs)))
        at10k = acted[10_000]
        if peer is None:
            print("(playwright not installed: pip install playwright; it runs the same /usr/bin/chromium)")
        else:
            figure = "act + receipt, offscreen row, 10k rows ÷ Playwright check()"
            targets.append(Target(figure, at10k["total_ms"] / peer, "x", 0.5, False))
        beyond = at10k["beyond_settle_ms"]
        targets.append(Target("act + receipt at 10k rows beyond the settle window", beyond, "ms", 150, False))
    if only != "act":
        one_change = bench_diff(snap, max(runs, 20))
        targets.append(Target("diff of two 10k snapshots, one change", one_change, "ms", 10, False))
    print_targets("issue 25: acting (bench/act.py)", targets)
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=("act", "diff"), help="run one of the two parts")
    args = parser.parse_args()
    trio.run(main, args.runs, args.only)
