"""A full-page screenshot of a scrolled page (BR-3): it shows the page from its top, masked,
and leaves the page as it was (scroll and viewport)."""

from __future__ import annotations

from conftest import PAGES, evaluate
from png_support import pixels

import cdpagent

PAGE = PAGES / "primitives" / "page.html"


async def test_a_full_page_of_a_scrolled_page_starts_at_the_top_masked_and_leaves_the_page_as_it_was(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    await evaluate(tab, "window.scrollTo(0, 3000)")
    before = await evaluate(tab, "[scrollY, innerWidth, innerHeight]")
    shot = await tab.screenshot(full_page=True, max_edge=500)  # 5,000 px tall: scale 0.1
    assert shot.masked == 2 and not shot.truncated and shot.height == 500
    image = pixels(shot.data)
    scale = shot.height / 5000
    # The password field (40, 40, 200 x 30) and the sensitive span (40, 100) are covered, at the top.
    for x, y in ((140, 55), (140, 115)):
        assert image[int(y * scale)][int(x * scale)] == (0, 0, 0), (x, y)
    # The green bar runs the whole height: the image is the page, not a blank beyond the viewport.
    assert image[shot.height - 5][int(305 * scale)] == (0, 170, 0)
    assert await evaluate(tab, "[scrollY, innerWidth, innerHeight]") == before
    assert await evaluate(tab, "document.documentElement.lastElementChild.tagName") == "BODY"
