"""First observations of pages that declare nothing (OB-12), at 1,000, 10,000 and 100,000
table rows and on a page of 50,000 links, beside Playwright's ``aria_snapshot(mode="ai")``.

For each page, in one run:

- **first**: the p50 wall time of the first observation of a freshly loaded document
  (``tab.reload`` before each sample; ``settle=False``: listener probe + collect +
  transfer + decode + budget + render), and its in-page ``collect_ms``;
- **again**: an observation of the same document once more (inference answers from the
  model it kept, ``js/infer/kept.js``, "the inferred index");
- **changed**: an observation right after the page edited one row's text out of view in a
  way that widens no column (the model patched: that row read again);
- the same edit with the observation after it against the same edit with one
  ``Runtime.evaluate`` of a row's ``getBoundingClientRect`` (the floor: what any client's
  first geometry read pays), wall and renderer CPU, two pairs per load, one of them floor
  first; on the tables also for an edit that widens a column (Chromium lays the whole
  table out again);
- the in-page phases of the first pass and of the changed pass (``__cdpagentInfer.phases()``,
  performance.now()), and what the changed pass did with the model (``model()``);
- with ``--split``, the share of one inference pass that is Chromium's style and layout
  (``UpdateLayoutTree`` and ``Layout`` trace events, ``Tracing`` domain) against the rest
  (our JavaScript and the DOM calls it makes);
- Playwright's first ``aria_snapshot(mode="ai")`` of the same freshly opened page
  (``bench/peer.py``, same Chromium, same run), the ratio, and the issue 20 / 25 targets
  with met / NOT MET.

    .venv/bin/python bench/observe_inferred.py [--samples N] [--split] [--no-playwright] [--pages ...]

``bench/observe.py`` prints these rows in issue 25's table through :func:`issue25_rows`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgspec
import trio
from pageprofile import EditCost, EditCosts, floor_targets
from postload import Ready, ReadyFigures, floor_target, print_busy_profile, traced
from targets import Target, print_targets

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.observe import observe_page

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "tests" / "realworld" / "generated"


# A main-world edit of one row's text at the end of the page (out of view) that widens no
# column: the last digit of the last order's total counts up (digits share one width).
EDITS = {
    "table": "(() => { const c = document.getElementById('rows').lastElementChild.cells[3]; "
    "c.textContent = c.textContent.slice(0, -1) + (Number(c.textContent.slice(-1)) + 1) % 10; })()",
    "links": "document.getElementById('sections').lastElementChild.querySelector('p').append('!')",
}
# The same row's customer made the widest of its column: the table's columns move.
WIDEN = {"table": "document.getElementById('rows').lastElementChild.cells[2].append(' and partners')"}
# A box in view, read alone in the main world: the floor of an observation after an edit.
LAYOUT_ALONE = {
    "table": "document.getElementById('rows').firstElementChild.getBoundingClientRect().top",
    "links": "document.getElementById('sections').firstElementChild.getBoundingClientRect().top",
}


def pages() -> dict[str, str]:
    """Label → url of the pages measured."""
    table = (GENERATED / "table.html").as_uri()
    return {
        "table 1k": f"{table}?rows=1000",
        "table 10k": f"{table}?rows=10000",
        "table 100k": f"{table}?rows=100000",
        "links 50k": (GENERATED / "docs.html").as_uri() + "?sections=10000",
    }


class Row(msgspec.Struct):
    label: str
    url: str
    first_ms: float = 0.0
    first_collect_ms: float = 0.0
    again_ms: float = 0.0
    changed_ms: float = 0.0
    same: EditCost | None = None
    widened: EditCost | None = None
    ready: ReadyFigures = ReadyFigures()
    phases: dict[str, float] = {}
    changed_phases: dict[str, float] = {}
    changed_model: str = ""
    split: dict[str, float] = {}
    omitted_actions: int = 0
    pw_ms: float | None = None


async def _infer_call(tab: cdpagent.Tab, name: str) -> Any:
    ctx = await tab.context_id(WORLD)
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": f"function () {{ return globalThis.__cdpagentInfer.{name}(); }}",
            "executionContextId": ctx,
            "returnByValue": True,
        },
    )
    value = reply.get("result", {}).get("value")
    return json.loads(value) if isinstance(value, str) else {}


async def _phases(tab: cdpagent.Tab) -> dict[str, float]:
    return {k: float(v) for k, v in (await _infer_call(tab, "phases")).items()}


async def style_layout_split(tab: cdpagent.Tab) -> dict[str, float]:
    """ms of one inference pass on a freshly loaded document: ``total`` (the call), ``style``
    (UpdateLayoutTree), ``layout`` (Layout), ``gc`` and ``ours`` (the rest)."""
    await tab.reload(timeout=300)
    ctx = await tab.context_id(WORLD)
    total = 0.0

    async def one_pass() -> None:
        nonlocal total
        t0 = time.perf_counter()
        await tab.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": "function (o) { const I = globalThis.__cdpagentInfer; "
                "return I.infer(o, I.plan(null)).length; }",
                "arguments": [{"value": msgspec.json.encode(ObserveOptions().collector_args()).decode()}],
                "executionContextId": ctx,
                "returnByValue": True,
            },
        )
        total = (time.perf_counter() - t0) * 1000

    events = await traced(tab, ["devtools.timeline", "v8", "blink.user_timing"], one_pass)
    sums: defaultdict[str, float] = defaultdict(float)
    begun: dict[tuple[Any, str], float] = {}
    for e in events:
        name = str(e.get("name"))
        if e.get("ph") == "X" and "dur" in e:
            sums[name] += float(e["dur"]) / 1000
        elif e.get("ph") == "B":
            begun[(e.get("tid"), name)] = float(e["ts"])
        elif e.get("ph") == "E" and (e.get("tid"), name) in begun:
            sums[name] += (float(e["ts"]) - begun.pop((e.get("tid"), name))) / 1000
    style = sums["UpdateLayoutTree"]
    layout = sums["Layout"]
    gc = sums["MinorGC"] + sums["MajorGC"]  # the V8.GC* events are their parts
    return {"total": total, "style": style, "layout": layout, "gc": gc, "ours": total - style - layout - gc}


async def measure(rows: dict[str, Row], samples: int, split: bool) -> None:
    quick = ObserveOptions(settle=False)
    async with cdpagent.launch() as browser:
        for row in rows.values():
            tab = await browser.open(row.url, timeout=300)
            first: list[float] = []
            collect: list[float] = []
            again: list[float] = []
            changed: list[float] = []
            same = EditCosts()
            widened = EditCosts()
            kind = row.label.split()[0]
            edit = EDITS[kind]
            widen = WIDEN.get(kind)
            phases: list[dict[str, float]] = []
            changed_phases: list[dict[str, float]] = []
            for _ in range(samples):
                await tab.reload(timeout=300)
                t0 = time.perf_counter()
                result = await observe_page(tab, quick, timeout=300)
                first.append((time.perf_counter() - t0) * 1000)
                collect.append(result.observation.collect_ms)
                phases.append(await _phases(tab))
                row.omitted_actions = result.observation.omitted.action_entries
                t0 = time.perf_counter()
                await observe_page(tab, quick, timeout=300)
                again.append((time.perf_counter() - t0) * 1000)
                await tab.session.send("Runtime.evaluate", {"expression": edit})
                t0 = time.perf_counter()
                await observe_page(tab, quick, timeout=300)
                changed.append((time.perf_counter() - t0) * 1000)
                changed_phases.append(await _phases(tab))
                row.changed_model = json.dumps(await _infer_call(tab, "model"))
                await same.measure(tab, edit, LAYOUT_ALONE[kind], 2)
                if widen is not None:
                    await widened.measure(tab, widen, LAYOUT_ALONE[kind], 2)
            await tab.close()
            ready = Ready("__cdpagentInfer")
            for _ in range(samples):
                await ready.measure(browser, row.url, 300)
            row.ready = ready.figures()
            row.first_ms = statistics.median(first)
            row.first_collect_ms = statistics.median(collect)
            row.again_ms = statistics.median(again)
            row.changed_ms = statistics.median(changed)
            row.same = same.p50()
            row.widened = widened.p50() if widen is not None else None
            row.phases = {k: statistics.median(p.get(k, 0.0) for p in phases) for k in phases[0]}
            row.changed_phases = {
                k: statistics.median(p.get(k, 0.0) for p in changed_phases) for k in changed_phases[0]
            }
            if split:
                tab = await browser.open(row.url, timeout=300)
                row.split = await style_layout_split(tab)
                await tab.close()


# The pages whose Playwright figure a target divides by: its first snapshot of the 100,000-row
# table and of the 50,000-link page runs into bench/peer.py's 900 s limit here, which made
# `make bench` wait half an hour for two figures no target uses.
PEER_PAGES = ("table 1k", "table 10k")


def measure_playwright(rows: dict[str, Row], samples: int) -> bool:
    """Playwright's first ``aria_snapshot(mode="ai")`` of each freshly opened page of
    :data:`PEER_PAGES` (``bench/peer.py``, the peer of every ratio); False without it."""
    try:
        from peer import playwright_peer  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("Playwright peer: bench/peer.py is missing")
        return False
    found = playwright_peer([r.url for r in rows.values() if r.label in PEER_PAGES], samples)
    if found is None:
        return False
    for row in rows.values():
        peer = found.get(row.url)
        row.pw_ms = float(peer.first_ms) if peer is not None else None
    return True


def goals(rows: dict[str, Row]) -> list[Target]:
    """The targets whose pages were measured."""
    out: list[Target] = []
    t10, t1, t100, links = (rows.get(k) for k in ("table 10k", "table 1k", "table 100k", "links 50k"))
    if t10 is not None:
        out.append(Target("inferred 10k first observe (issue 20)", t10.first_ms, "ms", 205, False))
        if t10.pw_ms is not None:
            ratio = t10.pw_ms / t10.first_ms
            out.append(Target("inferred 10k first observe vs Playwright", ratio, "x", 150, True))
        out.append(floor_target("inferred 10k first observe", t10.ready.floor_ratio))
        out.append(Target("inferred 10k after a one-row change out of view", t10.changed_ms, "ms", 15, False))
        out.extend(floor_targets(t10.same, t10.widened))
    if t1 is not None and t100 is not None:
        out.append(Target("inferred first observe 100k ÷ 1k", t100.first_ms / t1.first_ms, "x", 5, False))
        out.append(floor_target("inferred 100k first observe", t100.ready.floor_ratio))
    if links is not None:
        # Met only when what is past the budgets is counted, too.
        value = links.first_ms if links.omitted_actions > 0 else float("inf")
        out.append(Target("50,000 links first observe (rest counted)", value, "ms", 500, False))
        out.append(floor_target("50,000 links first observe", links.ready.floor_ratio))
    return out


def inferred_report(
    samples: int = 3, split: bool = False, playwright: bool = True, only: list[str] | None = None
) -> dict[str, Row]:
    """Measure and print the inferred first-observe table and its targets (those whose pages
    were measured: ``only`` names a subset of :func:`pages`); return the rows."""
    rows = {label: Row(label, address) for label, address in pages().items() if not only or label in only}
    trio.run(measure, rows, samples, split)
    have_pw = playwright and measure_playwright(rows, max(1, min(samples, 3)))
    print(f"inferred pages, first observe of a freshly loaded document, p50 of {samples} (ms)")
    head = f"{'first':>8} {'in-page':>8} {'again':>8} {'changed':>8} {ReadyFigures.HEAD}"
    print(f"{'page':>11} {head} {'omitted':>8} | {'pw ai':>9} {'ratio':>7}")
    for r in rows.values():
        times = f"{r.first_ms:>8.1f} {r.first_collect_ms:>8.1f} {r.again_ms:>8.1f} {r.changed_ms:>8.1f}"
        times += f" {r.ready.cells()}"
        line = f"{r.label:>11} {times} {r.omitted_actions:>8} |"
        if r.pw_ms is not None:
            line += f" {r.pw_ms:>9.1f} {r.pw_ms / r.first_ms:>6.1f}x"
        elif not playwright:
            line += " (Playwright not run: --no-playwright)"
        else:
            line += " (Playwright: no target uses it)" if have_pw else " (Playwright not installed)"
        print(line)
    print("an edit and the observe after it / the same edit and a bare getBoundingClientRect (the floor):")
    head = f"{'same width':>15} {'its floor':>15} | {'widening':>15} {'its floor':>15}"
    print(f"wall from the edit / renderer CPU (ms)  {head}")
    for r in rows.values():
        if r.same is not None and r.widened is not None:
            print(f"  {r.label:>36} " + " | ".join(cost.cells() for cost in (r.same, r.widened)))
    print("in-page phases of the first pass (ms):")
    for r in rows.values():
        print(f"  {r.label:>11}: " + ", ".join(f"{k} {v:.1f}" for k, v in r.phases.items()))
    print("in-page phases of the changed pass (ms) and what it did with the kept model:")
    for r in rows.values():
        print(f"  {r.label:>11}: " + ", ".join(f"{k} {v:.1f}" for k, v in r.changed_phases.items()))
        print(f"  {'':>11}  {r.changed_model}")
    if split:
        print("one inference pass on a fresh document: Chromium style/layout vs the rest (ms; trace events):")
        for r in rows.values():
            s = r.split
            share = (s["style"] + s["layout"]) / s["total"] * 100 if s.get("total") else 0.0
            print(
                f"  {r.label:>11}: total {s['total']:.1f}, style {s['style']:.1f}, layout {s['layout']:.1f}, "
                f"gc {s['gc']:.1f}, ours {s['ours']:.1f} (style+layout {share:.0f} %)"
            )
    print(ReadyFigures.LEGEND)
    trio.run(print_busy_profile, {r.label: r.url for r in rows.values()})
    print_targets("target (issues 20, 25)", goals(rows))
    return rows


def issue25_rows(samples: int) -> list[Target]:
    """Issue 25's inferred rows (the hook of ``bench/observe.py``'s table), measured and
    printed by :func:`inferred_report`."""
    return goals(inferred_report(samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--split", action="store_true", help="trace style/layout against the rest")
    parser.add_argument("--no-playwright", action="store_true")
    parser.add_argument("--pages", help=f"comma-separated subset of: {', '.join(pages())}")
    args = parser.parse_args()
    only = args.pages.split(",") if args.pages else None
    inferred_report(args.samples, args.split, not args.no_playwright, only)


if __name__ == "__main__":
    main()
