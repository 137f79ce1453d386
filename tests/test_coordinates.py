"""Vision mode: ``Tab.click_at`` / ``Tab.type_at`` deliver trusted input at viewport coordinates
and answer with a change receipt (BR-3).

The tests run on Chromium's recorded answers (``tests/recorded_cdp.py``): the input events must
be sent at the same points, and the receipts are built from what the page answered then (its
canvas saw the click at that point). ``CDPAGENT_RECORD=1 .venv/bin/pytest tests/test_coordinates.py``
records them again against Chromium.
"""

from __future__ import annotations

from conftest import PAGES

import cdpagent

CANVAS = PAGES / "vision" / "canvas.html"


async def test_click_at_and_type_at_deliver_trusted_input_and_answer_with_what_changed(
    recorded_browser: cdpagent.Browser,
) -> None:
    tab = await recorded_browser.open(CANVAS)
    clicked = await tab.click_at(100, 50)
    assert clicked.ok, clicked
    assert clicked.result.action is not None and clicked.result.action.id == "click_at(100, 50)"
    assert clicked.result.changed is not None
    # The canvas saw a trusted click at that point.
    assert clicked.result.changed.state["last_click"].after == "100,50"
    typed = await tab.type_at(120.5, 335, "Ada")
    assert typed.ok, typed
    assert typed.result.changed is not None and typed.result.changed.state["typed"].after == "Ada"
    # Nothing changed: the receipt says so, rather than claiming a change.
    again = await tab.click_at(100, 50)
    assert again.ok and again.result.changed is not None and not again.result.changed.state


async def test_a_point_outside_the_viewport_is_refused_before_any_input(
    recorded_browser: cdpagent.Browser,
) -> None:
    tab = await recorded_browser.open(CANVAS)
    for x, y in ((-1, 10), (10, 100_000), (100_000, 10), (float("nan"), 10)):
        refused = await tab.click_at(x, y)
        assert refused.code == "INVALID_ARGUMENT", (x, y, refused)
    refused = await tab.type_at(10, -5, "x")
    assert refused.code == "INVALID_ARGUMENT" and "outside the viewport" in refused.result.error.message  # type: ignore[union-attr]
    state = {s.name: s.value for s in (await tab.observe()).state}
    assert state == {"last_click": "", "typed": ""}
