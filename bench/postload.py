"""The renderer's own work after ``load``: the floor of a first observation.

When a freshly opened document has loaded, its renderer still lays it out, pre-paints and
paints it (at 10,000 rows, seconds on this machine) before it runs any client's first call:
a bare ``Runtime.evaluate`` waits for it exactly as an observation does, Playwright's too.
Chromium may also lay the document out before ``load`` (then opening the tab took that long
instead, and the wait after it is short): which one varies from load to load.

:class:`Ready` times, on one freshly opened tab, the opening (``open``: until ``load``), a
bare evaluate (``busy``: the wait) and the first observe once the renderer answered
(``ready``). The first observe's floor is what any client pays for its first answer from a
freshly opened page, ``open + busy``; the ratio ``(open + busy + ready) ÷ (open + busy)`` is
taken per tab, p50 over the tabs. :func:`busy_profile` traces the opening and the wait to
show what they are: Chromium's parsing, the page's scripts, style, layout, paint and garbage
collection, none of it a client's.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import msgspec
import trio
from pageprofile import task_ms
from targets import Target

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.observe import observe_page

__all__ = ["Ready", "ReadyFigures", "busy_profile", "floor_target", "print_busy_profile", "traced"]

_QUICK = ObserveOptions(settle=False)
# Trace events of the renderer main thread, by kind of work (the rest is "other").
_KINDS = {
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "paint",
    "Paint": "paint",
    "Layerize": "paint",
    "Commit": "paint",
    "MajorGC": "gc",
    "MinorGC": "gc",
    "V8.GCIncrementalMarking": "gc",
    "V8.GCScavenger": "gc",
    "EvaluateScript": "script",
    "FunctionCall": "script",
    "TimerFire": "script",
    "ParseHTML": "parse",
}


class ReadyFigures(msgspec.Struct, frozen=True):
    """The p50s over the tabs of a :class:`Ready`, ms: ``open``, ``busy``, ``ready`` (wall) and
    ``ready_cpu`` (the renderer main thread's), the in-page ``phases`` of that observe, and
    ``floor_ratio`` (:meth:`Ready.floor_ratio`)."""

    open_ms: float = 0.0
    busy_ms: float = 0.0
    ready_ms: float = 0.0
    ready_cpu_ms: float = 0.0
    floor_ratio: float = 0.0
    phases: dict[str, float] = {}

    HEAD: ClassVar[str] = f"{'open':>8} {'busy':>8} {'ready':>8}"
    """The header of :meth:`cells`."""
    LEGEND: ClassVar[str] = (
        "  on another freshly opened tab each time: open (until load), busy (a bare evaluate then:\n"
        "  the renderer's own post-load work), ready (the first observe once it answered)"
    )
    """What the columns of :meth:`cells` are, for under a table."""

    def cells(self) -> str:
        """``open busy ready`` (ms), aligned under :attr:`HEAD`."""
        return f"{self.open_ms:>8.1f} {self.busy_ms:>8.1f} {self.ready_ms:>8.1f}"


class Ready:
    """The first observe of a freshly opened document split from the renderer's post-load
    work, over tabs (:meth:`measure` once per tab). ``phases`` reads the collector's in-page
    phases from ``collector`` (``__cdpagentObserve`` or ``__cdpagentInfer``)."""

    def __init__(self, collector: str = "__cdpagentObserve") -> None:
        self.collector = collector
        self.open: list[float] = []
        self.busy: list[float] = []
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.phases: dict[str, list[float]] = {}

    async def measure(self, browser: cdpagent.Browser, address: str, timeout: float) -> None:
        """Open ``address`` in a new tab (``open``, s); time a bare evaluate (``busy``, s),
        then the first observe (``wall``, s; ``cpu``: the renderer main thread's ms) and its
        phases."""
        t0 = time.perf_counter()
        tab = await browser.open(address, timeout=timeout)
        self.open.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
        self.busy.append(time.perf_counter() - t0)
        await tab.session.send("Performance.enable", {"timeDomain": "threadTicks"})
        before = await task_ms(tab)
        t0 = time.perf_counter()
        await observe_page(tab, _QUICK, timeout=timeout)
        self.wall.append(time.perf_counter() - t0)
        self.cpu.append(await task_ms(tab) - before)
        context = await tab.context_id(WORLD, timeout)
        ask = {"expression": f"globalThis.{self.collector}.phases?.() ?? '{{}}'", "contextId": context}
        reply = await tab.session.send("Runtime.evaluate", {**ask, "returnByValue": True})
        for name, ms in msgspec.json.decode(reply["result"]["value"], type=dict[str, float]).items():
            self.phases.setdefault(name, []).append(ms)
        await tab.close()

    def figures(self) -> ReadyFigures:
        """The p50s of the tabs measured."""
        p50 = statistics.median
        return ReadyFigures(
            open_ms=p50(self.open) * 1000,
            busy_ms=p50(self.busy) * 1000,
            ready_ms=p50(self.wall) * 1000,
            ready_cpu_ms=p50(self.cpu),
            floor_ratio=self.floor_ratio(),
            phases={k: p50(v) for k, v in self.phases.items()},
        )

    def floor_ratio(self) -> float:
        """p50 over the tabs of (open + busy + ready) ÷ (open + busy): opening the page and
        observing it against opening it and a bare evaluate, on the same tab."""
        tabs = zip(self.open, self.busy, self.wall, strict=True)
        return statistics.median((o + b + w) / (o + b) for o, b, w in tabs)


def floor_target(label: str, ratio: float) -> Target:
    """The done-when's alternative row of a first observe (``ratio``: :meth:`Ready.floor_ratio`):
    opening the page and observing within 1.2× of opening it and a bare evaluate."""
    return Target(f"  (open + {label} ÷ open + a bare evaluate)", ratio, "x", 1.2, False)


async def traced(
    tab: cdpagent.Tab, categories: list[str], run: Callable[[], Awaitable[None]]
) -> list[dict[str, Any]]:
    """The trace events of ``categories`` recorded on ``tab`` while ``run`` ran."""
    events: list[dict[str, Any]] = []
    done = trio.Event()
    off = [
        tab.session.on("Tracing.dataCollected", lambda p: events.extend(p.get("value", []))),
        tab.session.on("Tracing.tracingComplete", lambda _: done.set()),
    ]
    await tab.session.send(
        "Tracing.start", {"traceConfig": {"includedCategories": categories}, "transferMode": "ReportEvents"}
    )
    try:
        await run()
    finally:
        await tab.session.send("Tracing.end")
        with trio.fail_after(120):
            await done.wait()
        for remove in off:
            remove()
    return events


async def busy_profile(browser: cdpagent.Browser, address: str, timeout: float = 900) -> dict[str, float]:
    """Trace the renderer while ``address`` loads in a new tab and a bare evaluate waits
    after ``load``: ``open`` and ``busy`` (ms until ``load``, then the wait) and the renderer
    main thread's ms over both per kind of work (:data:`_KINDS`; one may run inside another:
    a collection in a layout)."""
    tab = await browser.open("about:blank")
    times = {"open": 0.0, "busy": 0.0}

    async def load_and_wait() -> None:
        t0 = time.perf_counter()
        await tab.navigate(address, timeout=timeout)
        t1 = time.perf_counter()
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
        times.update(open=(t1 - t0) * 1000, busy=(time.perf_counter() - t1) * 1000)

    categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "loading"]
    events = await traced(tab, categories, load_and_wait)
    await tab.close()
    spans = [e for e in events if e.get("ph") == "X" and "dur" in e]
    per_thread: Counter[tuple[Any, Any]] = Counter()
    for e in spans:
        if e["name"] == "RunTask":  # the renderer main thread runs the most
            per_thread[(e["pid"], e["tid"])] += e["dur"]
    out = dict(times)
    if per_thread:
        main = per_thread.most_common(1)[0][0]
        for e in spans:
            kind = _KINDS.get(e["name"]) if (e["pid"], e["tid"]) == main else None
            if kind is not None:
                out[kind] = out.get(kind, 0.0) + e["dur"] / 1000
    return out


async def print_busy_profile(pages: dict[str, str]) -> None:
    """One line per page, of one traced load: the opening and the wait after it, and what
    the renderer's main thread did over both."""
    print("the renderer's own work from navigation to a bare evaluate's answer (one traced load; ms):")
    async with cdpagent.launch() as browser:
        for label, address in pages.items():
            found = await busy_profile(browser, address)
            rest = ", ".join(f"{k} {v:.0f}" for k, v in found.items() if k not in ("open", "busy"))
            rest = rest or "no events of its main thread in the trace"
            print(f"  {label:>12}: open {found['open']:.0f} + wait {found['busy']:.0f}; main thread: {rest}")
