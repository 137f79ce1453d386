"""Issue 36: the collectors' answers travel as ASCII JSON.

Chromium sends a string result of ASCII characters as it is, and any other as UTF-16 that the
browser converts again (the 50,000-link page's 410 KB snapshot: 20 ms with one "…" in it,
11 without). ``asciiJson`` (``js/prelude.js``) writes every character past ASCII as its
``\\u`` escape; ``PageFunction.COLLECT`` applies it to every text it returns. These tests
hold it to the same value for every kind of character, and the collectors to sending ASCII
while the observation keeps the page's own characters.
"""

from __future__ import annotations

import msgspec
import pytest
from conftest import PAGES

import cdpagent
from cdpagent.cdp.world import WORLD, PageFunction, call_function
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.observe import observe_page

STRINGS = [
    "plain",
    "Latin-1: Café ÿ",
    "删除",
    "a pair: 😀",
    "separators: \u2028\u2029",
    'quotes " and \\ and \n',
    "…",
]
# asciiJson of the JSON text of its argument (null as null).
ASCII_JSON = (
    "function (v) { return globalThis.__cdpagentPrelude.asciiJson(v === null ? null : JSON.stringify(v)); }"
)


async def test_ascii_json_is_the_same_value(browser: cdpagent.Browser) -> None:
    tab = await browser.open((PAGES / "observe" / "bad_input.html").as_uri())
    context = await tab.context_id(WORLD)
    text = await call_function(tab.session, ASCII_JSON, STRINGS, context=context)
    assert text.isascii()
    assert "\\u5220" in text and "\\ud83d\\ude00" in text
    assert msgspec.json.decode(text) == STRINGS
    assert await call_function(tab.session, ASCII_JSON, None, context=context) is None


@pytest.mark.parametrize(
    ("page", "escape", "shown"),
    [
        ("observe/bad_input.html", "\\u5220\\u9664", "删除"),  # declared: its snapshot and page text
        ("infer/naming.html", "Canc\\u00e9l", "Cancél"),  # inferred
    ],
)
async def test_every_collector_text_is_ascii(
    browser: cdpagent.Browser, page: str, escape: str, shown: str
) -> None:
    tab = await browser.open((PAGES / page).as_uri())
    opts = ObserveOptions(settle=False, page_text=True)
    texts = await call_function(
        tab.session,
        PageFunction.COLLECT,
        msgspec.json.encode(opts.collector_args()).decode(),
        opts.infer,
        0,
        True,
        context=await tab.context_id(WORLD),
    )
    sent = [t for t in texts if t is not None]
    assert sent
    assert all(t.isascii() for t in sent)
    assert any(escape in t for t in sent)
    result = await observe_page(tab, opts)
    assert shown in msgspec.json.encode(result.observation).decode()
