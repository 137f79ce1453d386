"""Screenshots (BR-3): time and bytes of ``Tab.screenshot`` beside Playwright's ``page.screenshot``.

On ``examples/inventory`` at 100 and 10,000 rows, the viewport and the full page,
PNG, in one run: cdpagent's ``Tab.screenshot`` (sensitive fields masked, scaled so
the longer edge is at most 1,568 px, a full page cut at 16,384 CSS px) and
Playwright's ``page.screenshot`` (no masking, no scaling: every CSS pixel of the
page at the device scale) on the same page in the same Chromium binary, with the
same viewport. Prints the p50 time, the bytes and the image size of each, and the
ratios cdpagent ÷ Playwright.

Aim: a screenshot's bytes stay bounded whatever the page's length; the time of a full
page grows with it (Chromium lays out and paints the whole document), which the
last line shows.

    .venv/bin/python bench/screenshot.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

import trio

import cdpagent
from cdpagent.browser.bundled import example_page

CHROMIUM = "/usr/bin/chromium"
ROWS = (100, 10_000)
#: A Playwright capture that takes longer than this is reported as such, not waited for.
PLAYWRIGHT_TIMEOUT_MS = 120_000

Case = tuple[int, bool]
"""(rows, full page)."""
Figure = tuple[float, int, int, int]
"""p50 milliseconds, bytes, width, height."""


def _url(rows: int) -> str:
    return f"{example_page('inventory').as_uri()}?rows={rows}"


def _png_size(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


async def _measure(shoot: Callable[[], Awaitable[bytes]], runs: int) -> Figure:
    """Take one untimed screenshot, then ``runs`` timed ones; the p50 and the last image's facts."""
    data = await shoot()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        data = await shoot()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000, len(data), *_png_size(data)


async def cdpagent_figures(runs: int) -> tuple[dict[Case, Figure], tuple[int, int]]:
    """Every case through ``Tab.screenshot``, and the viewport (CSS px) it was taken in."""
    figures: dict[Case, Figure] = {}
    viewport = (0, 0)
    async with cdpagent.launch() as browser:
        for rows in ROWS:
            tab = await browser.open(_url(rows))
            metrics = await tab.session.send("Page.getLayoutMetrics")
            view = metrics["cssLayoutViewport"]
            viewport = (int(view["clientWidth"]), int(view["clientHeight"]))
            for full in (False, True):

                async def shoot(full: bool = full, tab: cdpagent.Tab = tab) -> bytes:
                    return (await tab.screenshot(full_page=full, timeout=60)).data

                figures[rows, full] = await _measure(shoot, runs)
            await tab.close()
    return figures, viewport


async def playwright_figures(runs: int, viewport: tuple[int, int]) -> dict[Case, Figure | str] | None:
    """Every case through Playwright's ``page.screenshot`` (None: Playwright is not installed)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    figures: dict[Case, Figure | str] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM)
        try:
            page = await browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            for rows in ROWS:
                await page.goto(_url(rows))
                for full in (False, True):

                    async def shoot(full: bool = full) -> bytes:
                        data: bytes = await page.screenshot(full_page=full, timeout=PLAYWRIGHT_TIMEOUT_MS)
                        return data

                    try:
                        figures[rows, full] = await _measure(shoot, runs)
                    except Exception as error:  # a capture Chromium refuses is a result here
                        figures[rows, full] = f"failed: {str(error).splitlines()[0][:60]}"
        finally:
            await browser.close()
    return figures


def _cell(figure: Figure | str) -> str:
    if isinstance(figure, str):
        return f"{figure:>38}"
    ms, size, width, height = figure
    return f"{ms:8.1f} ms {size / 1024:9.1f} KiB {width:>5}x{height:<6}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed screenshots per case")
    args = parser.parse_args()
    ours, viewport = trio.run(cdpagent_figures, args.runs)
    theirs: dict[Case, Any] | None = asyncio.run(playwright_figures(args.runs, viewport))
    print(f"screenshots, PNG, viewport {viewport[0]}x{viewport[1]} CSS px, p50 of {args.runs}")
    header = f"{'case':24} {'cdpagent Tab.screenshot':>38}   {'Playwright page.screenshot':>38}"
    print(f"{header}   {'time ÷':>7} {'bytes ÷':>8}")
    for rows, full in ours:
        case = f"{rows:>6} rows, {'full page' if full else 'viewport'}"
        mine = ours[rows, full]
        other = theirs.get((rows, full)) if theirs else None
        line = f"{case:24} {_cell(mine)}   "
        if other is None:
            line += f"{'(playwright not installed)':>38}"
        else:
            line += _cell(other)
            if not isinstance(other, str):
                line += f"   {mine[0] / other[0]:6.2f}x {mine[1] / other[1]:7.3f}x"
        print(line)
    full_100, full_10k = ours[ROWS[0], True], ours[ROWS[1], True]
    print(
        f"cdpagent full page 10,000 ÷ 100 rows: time {full_10k[0] / full_100[0]:.2f}x, "
        f"bytes {full_10k[1] / full_100[1]:.2f}x (the image is at most 1,568 px on its longer edge)"
    )
    if theirs is None:
        print("(playwright not installed: pip install -e '.[bench]'; it runs the same /usr/bin/chromium)")


if __name__ == "__main__":
    main()
