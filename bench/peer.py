"""The peer of every observation ratio: Playwright's ``aria_snapshot(mode="ai")`` on the
same pages with the same Chromium (``executable_path``, never a download), in the same run.

Playwright is optional (``pip install -e '.[bench]'``); :func:`playwright_peer` returns
None without it.
"""

from __future__ import annotations

import statistics
import time

import msgspec

from cdpagent.cdp.launcher import find_browser

__all__ = ["PeerFigures", "playwright_peer"]


class PeerFigures(msgspec.Struct):
    """Playwright's times on one page (ms) and its snapshot's characters."""

    first_ms: float
    """The first snapshot of the freshly opened page (its script injected, the page laid out)."""
    repeat_ms: float
    """p50 of repeated snapshots of the unchanged page, after the first."""
    changed_ms: float | None
    """p50 of a snapshot right after the page ran ``edit`` (None: no edit given)."""
    chars: int


def playwright_peer(
    urls: list[str], samples: int, edit: str | None = None, timeout_s: float = 900
) -> dict[str, PeerFigures] | None:
    """Playwright's figures per url (left out when it times out); None when Playwright is
    not installed. ``edit`` is a main-world expression that changes the page a little."""
    try:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    out: dict[str, PeerFigures] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_browser(), headless=True)
        try:
            for url in urls:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.set_default_timeout(timeout_s * 1000)
                try:
                    page.goto(url)
                    t0 = time.perf_counter()
                    text = page.aria_snapshot(mode="ai")
                    first = time.perf_counter() - t0
                    repeat: list[float] = []
                    changed: list[float] = []
                    for _ in range(samples):
                        t0 = time.perf_counter()
                        page.aria_snapshot(mode="ai")
                        repeat.append(time.perf_counter() - t0)
                        if edit is not None:
                            page.evaluate(edit)
                            t0 = time.perf_counter()
                            page.aria_snapshot(mode="ai")
                            changed.append(time.perf_counter() - t0)
                    out[url] = PeerFigures(
                        first_ms=first * 1000,
                        repeat_ms=statistics.median(repeat) * 1000,
                        changed_ms=statistics.median(changed) * 1000 if changed else None,
                        chars=len(text),
                    )
                except PlaywrightTimeout:
                    print(f"Playwright did not finish {url} within {timeout_s:.0f} s; left out")
                page.close()
        finally:
            browser.close()
    return out
