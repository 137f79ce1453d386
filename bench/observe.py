"""Observation cost on the inventory example at 100, 1,000 and 10,000 records, and of
inferred observations (OB-12) on pages that declare nothing.

For each size prints, for cdpagent, the p50 wall time of one observation with
settle excluded (``settle=False``: collect + transfer + decode + budget +
render) and included (the OB-6 quiet window is 50 ms, so that figure has a
~50 ms floor), the collector's own in-page time, and the rendered text and
tools-JSON characters; beside it, Playwright's ``aria_snapshot(mode="ai")``
time and characters on the same page with the same Chromium in the same run,
and the ratios. Playwright is optional (``pip install -e '.[bench]'``); it is
driven with ``executable_path`` set to the same browser, never a download.

The second table is the inferred mode on the real pages under ``tests/realworld``
(TodoMVC's vanilla and React builds, the WAI-ARIA Authoring Practices examples), the generated documentation
page and a generated undeclared table at the same sizes.

Then issue 20's figures on the MiniWoB++ corpus (``bench/realworld.py``): visible
enabled controls offered or counted, the scripted policy's success rate, the share of
visible words that reach the observation, and the observation's size beside Playwright's.

The last part is issue 12's table: observe at 10,000 rows on the inventory and on
the denser CRM-like page (``bench/crm.html``: a checkbox action, a button action and
four fields per contact) against Playwright, growth from 1,000 to 10,000 rows, the
100,000-row size and this process's peak RSS, settle on a still page, act on an
offscreen row at 10,000 rows (``bench/act.py``), invoke throughput on 4 tabs
(``bench/invoke.py``) and the websocket round trip (``bench/roundtrip.py``), each
with its target and whether it is met.

With ``--only present``, the presentation alone (``bench/presentation.py``): folding,
the budgets and both renderers on snapshots of the same pages, collected once.

    .venv/bin/python bench/observe.py [--samples N] [--sizes 100,1000,10000]
                                      [--only declared|inferred|table|profile|present]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import msgspec
import trio

import cdpagent
from cdpagent.cdp.launcher import find_browser
from cdpagent.snapshot import ObserveOptions, tools_json
from cdpagent.snapshot.observe import observe_page

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pageprofile import (
    EDIT_ONE_ROW,
    EDIT_WIDEN_ROW,
    LAYOUT_ALONE,
    EditCost,
    EditCosts,
    floor_targets,
    print_page_profile,
)
from peer import playwright_peer
from postload import Ready, ReadyFigures, floor_target, print_busy_profile
from presentation import print_presentation
from targets import Target, print_targets

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "examples" / "inventory" / "index.html"
CRM = ROOT / "bench" / "crm.html"
REAL = ROOT / "tests" / "realworld"
APG_PAGES = ("sortable-table", "tabs-manual", "dialog", "disclosure-faq")


class Figures(msgspec.Struct):
    size: str
    url: str
    ours_ms: float = 0.0
    ours_settled_ms: float = 0.0
    collect_ms: float = 0.0
    text_chars: int = 0
    tool_chars: int = 0
    pw_ms: float | None = None
    pw_chars: int | None = None


def url(size: int) -> str:
    return f"{PAGE.as_uri()}?rows={size}"


def inferred_pages(sizes: list[int]) -> dict[str, str]:
    """Label → url of every undeclared page the inferred table measures."""
    pages = {
        "todomvc": (REAL / "todomvc" / "index.html").as_uri(),
        "todomvc react": (REAL / "todomvc-react" / "index.html").as_uri(),
        **{name: (REAL / "apg" / f"{name}.html").as_uri() for name in APG_PAGES},
        "docs (360 links)": (REAL / "generated" / "docs.html").as_uri() + "?sections=120",
    }
    for size in sizes:
        pages[f"table {size}"] = (REAL / "generated" / "table.html").as_uri() + f"?rows={size}"
    return pages


async def measure_ours(pages: dict[str, str], samples: int, timeout: float = 120) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    async with cdpagent.launch() as browser:
        for size, address in pages.items():
            tab = await browser.open(address, timeout=timeout)
            quick = ObserveOptions(settle=False)
            await observe_page(tab, timeout=timeout)  # warm-up: first layout, world wrappers
            plain: list[float] = []
            settled: list[float] = []
            collect: list[float] = []
            result = None
            for _ in range(samples):
                t0 = time.perf_counter()
                result = await observe_page(tab, quick, timeout=timeout)
                plain.append(time.perf_counter() - t0)
                collect.append(result.observation.collect_ms)
                t0 = time.perf_counter()
                await observe_page(tab, timeout=timeout)
                settled.append(time.perf_counter() - t0)
            assert result is not None
            out[size] = Figures(
                size=size,
                url=address,
                ours_ms=statistics.median(plain) * 1000,
                ours_settled_ms=statistics.median(settled) * 1000,
                collect_ms=statistics.median(collect),
                text_chars=len(result.text),
                tool_chars=len(tools_json(result.tools)),
            )
            await tab.close()
    return out


def measure_playwright(figures: dict[str, Figures], samples: int) -> bool:
    try:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import sync_playwright
    except ImportError:
        return False
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_browser(), headless=True)
        try:
            for fig in figures.values():
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.set_default_timeout(300_000)
                try:
                    page.goto(fig.url)
                    page.aria_snapshot(mode="ai")  # warm-up
                    times: list[float] = []
                    text = ""
                    for _ in range(samples):
                        t0 = time.perf_counter()
                        text = page.aria_snapshot(mode="ai")
                        times.append(time.perf_counter() - t0)
                    fig.pw_ms = statistics.median(times) * 1000
                    fig.pw_chars = len(text)
                except PlaywrightTimeout:
                    print(f"Playwright did not finish {fig.size} within 300 s; left out")
                page.close()
        finally:
            browser.close()
    return True


def report(title: str, figures: dict[str, Figures], have_pw: bool) -> None:
    print(title)
    print(
        f"{'page':>16} {'observe':>8} {'+settle':>8} {'in-page':>8} {'text':>6} {'tools':>6} "
        f"{'total':>6} | {'pw ai':>8} {'pw chars':>9} | {'speed-up':>8} {'w/settle':>8} {'chars':>6}"
    )
    for fig in figures.values():
        total = fig.text_chars + fig.tool_chars
        line = (
            f"{fig.size:>16} {fig.ours_ms:>8.1f} {fig.ours_settled_ms:>8.1f} {fig.collect_ms:>8.1f} "
            f"{fig.text_chars:>6} {fig.tool_chars:>6} {total:>6} |"
        )
        if fig.pw_ms is not None and fig.pw_chars is not None:
            line += (
                f" {fig.pw_ms:>8.1f} {fig.pw_chars:>9} |"
                f" {fig.pw_ms / fig.ours_ms:>7.1f}x {fig.pw_ms / fig.ours_settled_ms:>7.1f}x"
                f" {fig.pw_chars / total:>5.0f}x"
            )
        elif have_pw:
            line += " (Playwright timed out)"
        else:
            line += " (Playwright not installed: pip install -e '.[bench]')"
        print(line)
    if not have_pw:
        print("Playwright comparison skipped.")


# --- issue 25: what a user pays for, first / after a change / unchanged, in one run ----------

QUICK = ObserveOptions(settle=False)
CRM_SIZES = (1_000, 10_000, 100_000)


class Lifecycle(msgspec.Struct):
    """p50 wall times (ms) of one page's observations: the first of a freshly opened
    document, one right after :data:`EDIT_ONE_ROW` (no column widens), one of the unchanged
    page. ``same`` and ``widened`` (:class:`EditCost`) time an edit with the observe after
    it against the same edit with :data:`LAYOUT_ALONE` (one ``Runtime.evaluate`` of a row's
    box: what any client's first geometry read pays), for :data:`EDIT_ONE_ROW` and for
    :data:`EDIT_WIDEN_ROW` (a column widens: Chromium lays the whole table out again).

    The first observe right after ``load`` waits for the renderer's own post-load work
    (style, layout and paint of the new document) before its call runs: ``busy_ms`` is that
    wait alone: ``ready`` (:class:`postload.ReadyFigures`) times, on other freshly opened
    tabs, the opening, that wait (a trivial ``Runtime.evaluate``) and the first observe once
    it answered (wall, renderer CPU, in-page phases), and the first observe's ratio to its
    floor (open + observe ÷ open + the bare evaluate)."""

    first_ms: float
    changed_ms: float
    unchanged_ms: float
    first_collect_ms: float
    same: EditCost | None = None
    widened: EditCost | None = None
    ready: ReadyFigures = ReadyFigures()


def crm_url(size: int) -> str:
    return f"{CRM.as_uri()}?rows={size}"


async def lifecycle(address: str, samples: int, timeout: float = 900) -> Lifecycle:
    """Open ``address`` ``samples`` times; each time observe (settle off) first, then after
    an edit and unchanged, ``samples`` times each."""
    first: list[float] = []
    collect: list[float] = []
    changed: list[float] = []
    unchanged: list[float] = []
    same = EditCosts()
    widened = EditCosts()
    ready = Ready()
    async with cdpagent.launch() as browser:
        for _ in range(samples):
            await ready.measure(browser, address, timeout)
            tab = await browser.open(address, timeout=timeout)
            t0 = time.perf_counter()
            result = await observe_page(tab, QUICK, timeout=timeout)
            first.append(time.perf_counter() - t0)
            collect.append(result.observation.collect_ms)
            for _ in range(samples):
                await tab.session.send("Runtime.evaluate", {"expression": EDIT_ONE_ROW})
                t0 = time.perf_counter()
                await observe_page(tab, QUICK, timeout=timeout)
                changed.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await observe_page(tab, QUICK, timeout=timeout)
                unchanged.append(time.perf_counter() - t0)
            await same.measure(tab, EDIT_ONE_ROW, LAYOUT_ALONE, samples)
            # Last: after a widening edit, the next edit of that cell lays the table out again too.
            await widened.measure(tab, EDIT_WIDEN_ROW, LAYOUT_ALONE, samples)
            await tab.close()
    p50 = statistics.median
    return Lifecycle(
        p50(first) * 1000,
        p50(changed) * 1000,
        p50(unchanged) * 1000,
        p50(collect),
        same=same.p50(),
        widened=widened.p50(),
        ready=ready.figures(),
    )


async def still_settle_ms(samples: int) -> float:
    """p50 of what settle waited on a page that is not moving (the inventory at 1,000 rows)."""
    async with cdpagent.launch() as browser:
        tab = await browser.open(url(1000))
        await observe_page(tab)
        waits = [(await observe_page(tab)).observation.settle_ms for _ in range(samples)]
    return statistics.median(waits)


def inferred_rows(samples: int) -> list[Target]:
    """Issue 25's inferred rows, from bench/observe_inferred.py."""
    from observe_inferred import issue25_rows

    return issue25_rows(samples)


def issue_table(samples: int) -> list[Target]:
    """Measure issue 25's declared rows (and issue 12's observation rows) on the CRM page
    at 1k/10k/100k beside Playwright at 10k; print the figures on the way."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    ours = {size: trio.run(lifecycle, crm_url(size), samples) for size in CRM_SIZES}
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peers = playwright_peer([crm_url(10_000)], samples, EDIT_ONE_ROW)
    peer = peers.get(crm_url(10_000)) if peers is not None else None
    print(f"\ndeclared CRM page (bench/crm.html), settle off, p50 of {samples} (ms)")
    print(
        f"{'rows':>8} {'first':>9} {'in-page':>8} {'changed':>8} {'unchanged':>9} | "
        f"{ReadyFigures.HEAD} {'cpu':>7}"
    )
    for size, fig in ours.items():
        print(
            f"{size:>8} {fig.first_ms:>9.1f} {fig.first_collect_ms:>8.1f} "
            f"{fig.changed_ms:>8.1f} {fig.unchanged_ms:>9.1f} | "
            f"{fig.ready.cells()} {fig.ready.ready_cpu_ms:>7.1f}"
        )
    print("  first: right after load (what a user pays);")
    print(ReadyFigures.LEGEND + "; cpu: the renderer main thread's in it.")
    print("  In-page phases of that observe (ms):")
    for size, fig in ours.items():
        print(f"{size:>8}  " + ", ".join(f"{name} {ms:.1f}" for name, ms in fig.ready.phases.items()))
    print(
        "  an edit out of view and the observe after it, against the same edit and a bare\n"
        "  getBoundingClientRect (the floor): wall from the edit / renderer CPU, ms;\n"
        "  same width: a phone digit counted up; widening: a digit appended (the column widens)"
    )
    print(f"{'rows':>8} {'same width':>15} {'its floor':>15} | {'widening':>15} {'its floor':>15}")
    for size, fig in ours.items():
        if fig.same is not None and fig.widened is not None:
            print(f"{size:>8} " + " | ".join(cost.cells() for cost in (fig.same, fig.widened)))
    if peer is not None:
        print(
            f"{'pw 10k':>8} {peer.first_ms:>9.1f} {'':>8} {peer.changed_ms or 0:>8.1f} {peer.repeat_ms:>9.1f}"
            "  (Playwright aria_snapshot(ai): first, after the edit, repeated)"
        )
    else:
        print("Playwright peer not measured (not installed: pip install -e '.[bench]', or timed out)")
    ten = ours[10_000]
    out: list[Target] = []
    if peer is not None:
        # Playwright's repeated snapshot is its best case: the peer of every ratio.
        out.append(
            Target("first observe, CRM 10k, vs Playwright", peer.repeat_ms / ten.first_ms, "x", 200, True)
        )
        after = peer.changed_ms or peer.repeat_ms
        out.append(
            Target(
                "observe after a one-row change, CRM 10k, vs Playwright",
                after / ten.changed_ms,
                "x",
                1000,
                True,
            )
        )
        out.append(
            Target(
                "unchanged observe, CRM 10k, vs Playwright (issue 12)",
                peer.repeat_ms / ten.unchanged_ms,
                "x",
                100,
                True,
            )
        )
        # The same target without the renderer's post-load work, which Playwright's first pays too.
        out.append(
            Target(
                "  (first observe once the renderer is ready, CRM 10k, vs Playwright)",
                peer.repeat_ms / ten.ready.ready_ms,
                "x",
                200,
                True,
            )
        )
    out.append(floor_target("first observe, CRM 10k", ten.ready.floor_ratio))
    out.append(Target("observe after a one-row change, CRM 10k", ten.changed_ms, "ms", 15, False))
    out.extend(floor_targets(ten.same, ten.widened))
    out.append(
        Target("first observe 100k ÷ 1k rows", ours[100_000].first_ms / ours[1_000].first_ms, "x", 5, False)
    )
    out.append(
        Target(
            "  (first observe once the renderer is ready, 100k ÷ 1k rows)",
            ours[100_000].ready.ready_ms / ours[1_000].ready.ready_ms,
            "x",
            5,
            False,
        )
    )
    out.append(floor_target("first observe, CRM 100k", ours[100_000].ready.floor_ratio))
    out.append(
        Target(
            "unchanged observe 1k -> 10k rows (issue 12)",
            ten.unchanged_ms / ours[1_000].unchanged_ms,
            "x",
            1.5,
            False,
        )
    )
    out.append(
        Target(
            "unchanged observe 100k ÷ 1k rows (issue 12)",
            ours[100_000].unchanged_ms / ours[1_000].unchanged_ms,
            "x",
            3,
            False,
        )
    )
    out.append(Target("Python peak RSS through 100k rows", peak_mb, "MB", 200, False))
    out.append(Target("settle on a still page", trio.run(still_settle_ms, samples), "ms", 10, False))
    out += inferred_rows(samples)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--only", choices=("declared", "inferred", "table", "profile", "present"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.only in (None, "declared"):
        figures = trio.run(measure_ours, {str(size): url(size) for size in sizes}, args.samples)
        have_pw = measure_playwright(figures, args.samples)
        report(f"inventory example (declared), p50 of {args.samples} samples (ms; chars)", figures, have_pw)
    if args.only in (None, "inferred"):
        figures = trio.run(measure_ours, inferred_pages(sizes), args.samples)
        have_pw = measure_playwright(figures, args.samples)
        title = f"undeclared pages (inferred, OB-12), p50 of {args.samples} samples (ms; chars)"
        report(title, figures, have_pw)
        from realworld import corpus_report  # issue 20's corpus figures (bench/realworld.py)

        corpus_report()
    if args.only in (None, "table"):
        print_targets("issue 25 target (observation)", issue_table(args.samples))
    if args.only in (None, "table", "profile"):
        trio.run(print_page_profile, crm_url(10_000))
        trio.run(print_busy_profile, {f"CRM {size // 1000}k": crm_url(size) for size in CRM_SIZES})
    if args.only in (None, "present"):
        pages = {f"inventory {size}": url(size) for size in sizes}
        pages["crm 10000"] = crm_url(10_000)
        pages.update((name, page) for name, page in inferred_pages(sizes).items() if "apg" not in page)
        print_presentation(pages, args.samples * 20)


if __name__ == "__main__":
    main()
