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

    .venv/bin/python bench/observe.py [--samples N] [--sizes 100,1000,10000] [--only declared|inferred]
"""

from __future__ import annotations

import argparse
import statistics
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


async def measure_ours(pages: dict[str, str], samples: int) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    async with cdpagent.launch() as browser:
        for size, address in pages.items():
            tab = await browser.open(address, timeout=120)
            quick = ObserveOptions(settle=False)
            await observe_page(tab, timeout=120)  # warm-up: first layout, world wrappers
            plain: list[float] = []
            settled: list[float] = []
            collect: list[float] = []
            result = None
            for _ in range(samples):
                t0 = time.perf_counter()
                result = await observe_page(tab, quick, timeout=120)
                plain.append(time.perf_counter() - t0)
                collect.append(result.observation.collect_ms)
                t0 = time.perf_counter()
                await observe_page(tab, timeout=120)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--only", choices=("declared", "inferred"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.only != "inferred":
        figures = trio.run(measure_ours, {str(size): url(size) for size in sizes}, args.samples)
        have_pw = measure_playwright(figures, args.samples)
        report(f"inventory example (declared), p50 of {args.samples} samples (ms; chars)", figures, have_pw)
    if args.only != "declared":
        figures = trio.run(measure_ours, inferred_pages(sizes), args.samples)
        have_pw = measure_playwright(figures, args.samples)
        title = f"undeclared pages (inferred, OB-12), p50 of {args.samples} samples (ms; chars)"
        report(title, figures, have_pw)


if __name__ == "__main__":
    main()
