"""Vision mode: ``Tab.click_at`` / ``Tab.type_at`` deliver trusted input at viewport coordinates
and answer with a change receipt, against real Chromium (BR-3)."""

from __future__ import annotations

from conftest import PAGES

import cdpagent

CANVAS = PAGES / "vision" / "canvas.html"


async def test_click_at_and_type_at_deliver_trusted_input_and_answer_with_what_changed(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(CANVAS)
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


async def test_a_point_outside_the_viewport_is_refused_before_any_input(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CANVAS)
    for x, y in ((-1, 10), (10, 100_000), (100_000, 10), (float("nan"), 10)):
        refused = await tab.click_at(x, y)
        assert refused.code == "INVALID_ARGUMENT", (x, y, refused)
    refused = await tab.type_at(10, -5, "x")
    assert refused.code == "INVALID_ARGUMENT" and "outside the viewport" in refused.result.error.message  # type: ignore[union-attr]
    state = {s.name: s.value for s in (await tab.observe()).state}
    assert state == {"last_click": "", "typed": ""}
