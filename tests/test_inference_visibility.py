"""OB-12, issue 36: visibility asked without options where nothing sets it.

``checkVisibility(VIS)`` reads its options on every call, which costs as much as the check.
``P.visFor(n, roots)`` (``js/prelude.js``) answers, for a pass about to ask many elements,
whether the page's own styles can make an element invisible by ``visibility``; where they
cannot, ``checkVisibility()`` without options answers the same. These tests hold the user
agent's sheet to that for every kind of element, and hold ``visFor`` to each way a page can
set visibility, in real Chromium.
"""

from __future__ import annotations

import pytest
from conftest import PAGES, evaluate

import cdpagent
from cdpagent.cdp.world import WORLD, call_function

PAGE = (PAGES / "infer" / "visibility.html").as_uri()


async def in_world(tab: cdpagent.Tab, expression: str) -> object:
    """The JSON value of ``expression`` in the isolated world (a throw fails the test)."""
    return await call_function(
        tab.session, f"function () {{ return {expression}; }}", context=await tab.context_id(WORLD)
    )


# Whether visFor, asked for 5,000 elements, leaves the options out (the page sets no
# visibility), with the page's open shadow roots.
PLAIN = (
    "(() => { const P = globalThis.__cdpagentPrelude; "
    "return P.visFor(5000, P.openShadowRoots(Infinity)) === undefined; })()"
)


async def test_the_user_agent_sets_the_visibility_of_no_element(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    differ = await in_world(
        tab,
        "(() => { const VIS = globalThis.__cdpagentPrelude.VIS; "
        "return Array.from(document.querySelectorAll('*'))"
        ".filter((el) => el.checkVisibility() !== el.checkVisibility(VIS)).map((el) => el.localName); })()",
    )
    assert differ == []
    assert await in_world(tab, PLAIN) is True
    # Fewer elements than the options cost to spare: always asked with them.
    assert await in_world(tab, "globalThis.__cdpagentPrelude.visFor(10, null) !== undefined") is True


STYLE = "document.head.insertAdjacentHTML('beforeend', '<style>{}</style>')"
SETS_VISIBILITY = {
    "a rule": STYLE.format(".x { visibility: hidden }"),
    "a rule in @media": STYLE.format("@media screen { .x { visibility: collapse } }"),
    "a nested rule": STYLE.format(".a { color: red; & .b { visibility: hidden } }"),
    "a rule in @layer": STYLE.format("@layer base { .x { visibility: hidden } }"),
    "a keyframe": STYLE.format("@keyframes k { to { visibility: hidden } }"),
    "a custom property": STYLE.format(".x { visibility: var(--v) }"),
    "an imported sheet": STYLE.format('@import url(\\"data:text/css,.x{visibility:hidden}\\");'),
    "a constructed sheet": "const s = new CSSStyleSheet(); s.replaceSync('.x { visibility: hidden }'); "
    "document.adoptedStyleSheets = [s]",
    "a style attribute": "document.querySelector('p')"
    ".setAttribute('style', 'color: red; Visibility: hidden')",
    "the CSSOM": "document.querySelector('p').style.visibility = 'hidden'",
    "an SVG attribute": "document.querySelector('rect').setAttribute('visibility', 'hidden')",
    "an SVG animation": "document.querySelector('rect').insertAdjacentHTML('beforeend', "
    '\'<set attributeName="visibility" to="hidden" begin="0s"></set>\')',
    "an animation": "document.querySelector('p').animate("
    "[{ visibility: 'visible' }, { visibility: 'hidden' }], { duration: 100000 })",
    "an open shadow root": "document.getElementById('all')"
    ".attachShadow({ mode: 'open' }).innerHTML = '<slot></slot>'",
}


@pytest.mark.parametrize("way", list(SETS_VISIBILITY))
async def test_a_page_that_sets_visibility_is_asked_with_the_options(
    browser: cdpagent.Browser, way: str
) -> None:
    tab = await browser.open(PAGE)
    await evaluate(tab, f"{SETS_VISIBILITY[way]}; true")
    assert await in_world(tab, PLAIN) is False, way


async def test_styles_that_leave_visibility_alone_keep_the_check_without_options(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    await evaluate(
        tab,
        STYLE.format(
            ".x { visibility: visible; opacity: 0; display: none } @media print { .y { color: red } }"
        )
        + "; document.querySelector('p').setAttribute('style', 'opacity: 0'); true",
    )
    assert await in_world(tab, PLAIN) is True
