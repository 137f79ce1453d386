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

    .venv/bin/python bench/observe.py [--samples N] [--sizes 100,1000,10000]
                                      [--only declared|inferred|table]
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
from cdpagent.launcher import find_browser
from cdpagent.snapshot import ObserveOptions, tools_json
from cdpagent.snapshot.observe import observe_page

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


# --- the issue 12 table: every target figure with its ratio, in one run -----------------


class Target(msgspec.Struct):
    figure: str
    value: float
    unit: str
    target: float
    higher_is_better: bool

    @property
    def met(self) -> bool:
        return self.value >= self.target if self.higher_is_better else self.value <= self.target


def crm_url(size: int) -> str:
    return f"{CRM.as_uri()}?rows={size}"


async def still_settle_ms(samples: int) -> float:
    """p50 of what settle waited on a page that is not moving (the inventory at 1,000 rows)."""
    async with cdpagent.launch() as browser:
        tab = await browser.open(url(1000))
        await observe_page(tab)
        waits = [(await observe_page(tab)).observation.settle_ms for _ in range(samples)]
    return statistics.median(waits)


async def act_offscreen_ms(runs: int) -> float:
    """p50 total of act on an offscreen row at 10,000 rows, settle included (bench/act.py)."""
    from act import bench_act

    async with cdpagent.launch() as browser:
        parts = await bench_act(browser, 10_000, runs)
    return parts["total_ms"]


def invoke_ratio(seconds: float) -> float:
    """Best Tab.invoke throughput on 4 tabs ÷ best raw callFunctionOn (bench/invoke.py)."""
    from invoke import throughput_4_tabs

    raw, invoke = trio.run(throughput_4_tabs, seconds)
    print(f"throughput on 4 tabs (best of 1/8/64 in flight): raw {raw:.0f}/s, Tab.invoke {invoke:.0f}/s")
    return invoke / raw


def websocket_ratio(calls: int) -> float:
    """Websocket callFunctionOn p50 ÷ the blocking pipe floor's p50 (bench/roundtrip.py)."""
    from roundtrip import measure, ratios

    found = ratios(trio.run(measure, calls, 100))
    pipe, ws = found[("cdpagent pipe", "callFunctionOn")], found[("cdpagent websocket", "callFunctionOn")]
    print(f"round trip ÷ blocking pipe floor: cdpagent pipe {pipe:.2f}x, websocket {ws:.2f}x")
    return ws


def issue_table(samples: int) -> list[Target]:
    """Measure every figure of issue 12's table; print the pages' figures on the way."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    pages = {
        "inventory 1k": url(1_000),
        "inventory 10k": url(10_000),
        "inventory 100k": url(100_000),
        "crm 10k": crm_url(10_000),
    }
    # Loading and laying out the 100,000-row table alone takes minutes on a busy 2-core machine.
    figures = trio.run(measure_ours, pages, samples, 900)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    compared = {k: v for k, v in figures.items() if k in ("inventory 10k", "crm 10k")}
    have_pw = measure_playwright(compared, samples)
    report(f"issue 12 pages against Playwright, p50 of {samples} samples (ms; chars)", compared, have_pw)
    for key, fig in figures.items():
        if key not in compared:
            times = f"{fig.ours_ms:>8.1f} {fig.ours_settled_ms:>8.1f} {fig.collect_ms:>8.1f}"
            print(f"{key:>16} {times} (cdpagent only)")
    ours = {k: v.ours_ms for k, v in figures.items()}
    out: list[Target] = []
    for key in ("inventory 10k", "crm 10k"):
        pw = figures[key].pw_ms
        if pw is not None:
            figure = f"observe {key} vs Playwright aria_snapshot(ai)"
            out.append(Target(figure, pw / ours[key], "x", 100, True))
        else:
            print(f"observe {key} vs Playwright: not measured (Playwright missing or timed out)")
    out.append(
        Target("observe growth 1k -> 10k rows", ours["inventory 10k"] / ours["inventory 1k"], "x", 1.5, False)
    )
    out.append(Target("observe 100k ÷ 1k rows", ours["inventory 100k"] / ours["inventory 1k"], "x", 3, False))
    out.append(Target("Python peak RSS through 100k rows", peak_mb, "MB", 200, False))
    out.append(Target("settle on a still page", trio.run(still_settle_ms, samples), "ms", 10, False))
    act_ms = trio.run(act_offscreen_ms, samples)
    out.append(Target("act offscreen row at 10k, settle incl.", act_ms, "ms", 60, False))
    out.append(Target("Tab.invoke ÷ raw throughput, 4 tabs", invoke_ratio(2.0), "x", 0.9, True))
    out.append(Target("websocket round trip ÷ pipe floor", websocket_ratio(1000), "x", 1.25, False))
    return out


def print_table(targets: list[Target]) -> None:
    print()
    print(f"{'issue 12 target':54} {'figure':>10} {'target':>10}  result")
    for t in targets:
        sign = "≥" if t.higher_is_better else "≤"
        figure = f"{t.value:.2f} {t.unit}" if t.unit != "x" else f"{t.value:.2f}x"
        goal = f"{sign} {t.target:g}{t.unit if t.unit == 'x' else ' ' + t.unit}"
        print(f"{t.figure:54} {figure:>10} {goal:>10}  {'met' if t.met else 'NOT MET'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--only", choices=("declared", "inferred", "table"))
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
        print_table(issue_table(args.samples))


if __name__ == "__main__":
    main()
