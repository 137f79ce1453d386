"""Issue 20 against real Chromium: what pages make operable without saying so.

Clickable elements without semantics (listeners found through the browser, ``onclick``,
``cursor: pointer``), repeated clickable blocks folded into row actions, popups that
appear after an act, hover menus and scrollable boxes, on pages under
``tests/pages/clicks/`` written the way MiniWoB++ (MIT) and real sites write them.
"""

from __future__ import annotations

import msgspec
from conftest import PAGES, evaluate

import cdpagent
from cdpagent import ObserveResult, Receipt
from cdpagent.cdp.world import WORLD, install
from cdpagent.snapshot import ActionEntry
from cdpagent.snapshot.clickables import probe_listeners, verdict
from cdpagent.snapshot.observe import observe_page
from cdpagent.snapshot.options import COLLECTOR_BOUNDS

CLICKS = PAGES / "clicks"


def ok(receipt: Receipt) -> Receipt:
    assert receipt.ok, msgspec.json.encode(receipt).decode()
    return receipt


def entries(result: ObserveResult) -> dict[str, ActionEntry]:
    return {e.tool: e for e in result.observation.actions}


def record_of(result: ObserveResult, text: str) -> str:
    return next(r.id for r in result.observation.records if text in r.label)


async def result_text(tab: cdpagent.Tab) -> str:
    return str(await evaluate(tab, "document.getElementById('result').textContent"))


def test_ob12_listener_verdicts() -> None:
    assert verdict([{"type": "click"}]) == "click"
    assert verdict([{"type": "mouseenter"}, {"type": "pointerdown"}]) == "click"
    assert verdict([{"type": "mouseover"}]) == "hover"
    assert verdict([{"type": "scroll"}, {"type": "keydown"}]) == ""
    assert verdict([]) == ""


async def test_ob12_span_link_and_div_submit(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "spans.html")
    found = entries(await observe_page(tab))
    # an onclick span, and a div whose click listener only the browser knows of
    assert found["read_more"].kind == "click" and found["read_more"].available
    assert found["submit"].kind == "click" and found["submit"].source == "inferred"
    ok(await tab.act("submit"))
    assert await result_text(tab) == "submitted"


async def test_ob12_inbox_rows_and_icons_are_row_actions(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "inbox.html")
    result = await observe_page(tab)
    found = entries(result)
    for name in ("open", "star", "trash"):
        assert found[name].kind == "click" and found[name].rows == 5, name
    assert found["primary"].kind == "scroll"  # the scrolling mail list, named by its heading
    alice = record_of(result, "Alice")
    ok(await tab.act("star", record=alice))
    assert await result_text(tab) == "starred Alice"
    opened = ok(await tab.act("open", record=record_of(result, "Carol")))
    assert opened.result.changed is not None and opened.result.changed.actions is not None
    assert "back" in opened.result.changed.actions.appeared
    assert (
        await evaluate(tab, "document.querySelector('#email .email-body').textContent") == "Tickets booked."
    )


async def test_ob12_feed_menu_items_appear_after_more(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "feed.html")
    result = await observe_page(tab)
    found = entries(result)
    assert {"reply", "retweet", "like", "more"} <= set(found)
    assert all(found[n].rows == 4 for n in ("reply", "like", "more"))
    ada = record_of(result, "@ada")
    opened = ok(await tab.act("more", record=ada))
    assert opened.result.changed is not None and opened.result.changed.actions is not None
    # the menu's plain items are the page's actions while it is open, named by their text
    assert {"share_via_dm", "copy_link", "mute_ada"} <= set(opened.result.changed.actions.appeared)
    menu = entries(await observe_page(tab))
    assert "appeared after" in menu["mute_ada"].description and not menu["mute_ada"].rows
    ok(await tab.act("share_via_dm"))
    assert await result_text(tab) == "share @ada"
    ok(await tab.act("like", record=ada))
    assert await result_text(tab) == "like @ada"


async def test_ob12_tree_items_open_and_are_clicked(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "tree.html")
    result = await observe_page(tab)
    assert entries(result)["open"].rows == 3
    ok(await tab.act("open", record=record_of(result, "Karen")))
    inner = await observe_page(tab)
    assert "Marla" in inner.text
    ok(await tab.act("open", record=record_of(inner, "Marla")))
    assert await result_text(tab) == "clicked Marla"


async def test_ob12_autocomplete_suggestions_are_offered(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "autocomplete.html")
    typed = ok(await tab.act("tags", text="Ge"))
    assert typed.result.changed is not None and typed.result.changed.actions is not None
    assert {"georgia", "germany"} <= set(typed.result.changed.actions.appeared)
    after = await observe_page(tab)
    germany = entries(after)["germany"]
    assert germany.kind == "click" and germany.available and "appeared after" in germany.description
    # the live region's count is news, not an error
    live = [f for f in after.observation.feedback if "results are available" in f.message]
    assert live and all(f.level == "info" for f in live)
    ok(await tab.act("germany"))
    assert await evaluate(tab, "document.getElementById('tags').value") == "Germany"
    ok(await tab.act("submit"))
    assert await result_text(tab) == "entered Germany"


async def test_ob12_hover_menus_offer_their_parent_and_items(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "hover.html")
    found = entries(await observe_page(tab))
    # a :hover rule, and a mouseenter listener, each open a menu
    for parent in ("products", "support", "account"):
        assert found[parent].kind == "hover" and found[parent].effect == "read", parent
    for item in ("laptops", "phones", "contact", "sign_out"):
        entry = found[item]
        assert entry.kind == "hover" and entry.available and entry.effect == "write", item
        assert "hover menu" in entry.description
    assert found["laptops"].input is None


async def test_ob12_menu_widget_submenus_open_on_hover(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "menu.html")
    found = entries(await observe_page(tab))
    assert found["marabel"].kind == "click"
    # clicking a parent would choose it: parents are hovers, items inside closed submenus hover-then-click
    for parent in ("bellina", "lynda"):
        assert found[parent].kind == "hover" and found[parent].effect == "read", parent
    for item in ("laurel", "judi"):
        assert found[item].kind == "hover" and found[item].available and found[item].effect == "write", item
    assert "menu" not in found and "open" not in found  # the menu and its <li> wrappers are no actions


async def test_ob12_scrollable_agreement_is_a_scroll_action(browser: cdpagent.Browser) -> None:
    tab = await browser.open(CLICKS / "agreement.html")
    found = entries(await observe_page(tab))
    terms = found["terms_of_service"]
    assert terms.kind == "scroll" and terms.effect == "read" and terms.available
    assert not found["sign"].available
    # a text area whose text overflows can be scrolled, even a disabled one
    notes = found["scroll_notes"]
    assert notes.kind == "scroll" and notes.available and found["notes"].kind == "type"
    scrolled = (
        "new Promise((done) => { const t = document.getElementById('terms');"
        " t.addEventListener('scroll', () => setTimeout(done), {once: true}); t.scrollTop = 1e6; })"
    )
    await evaluate(tab, scrolled)  # resolves once the page's own scroll listener has run
    assert entries(await observe_page(tab))["sign"].available


async def test_ob12_many_clickables_are_bounded_and_counted(browser: cdpagent.Browser) -> None:
    tab = await browser.open(f"{(CLICKS / 'many.html').as_uri()}?n=600")
    await install(tab)
    context = await tab.context_id(WORLD, 10)
    # the listener probe reads a bounded set, each element once, two per class
    bounds = COLLECTOR_BOUNDS
    first = await probe_listeners(tab.session, context, bounds.listener_probe, None, bounds.click_scan)
    assert 0 < first <= COLLECTOR_BOUNDS.listener_probe
    result = await observe_page(tab)
    tags = entries(result)["tag"]  # the probed samples speak for every row of their class
    assert tags.kind == "click" and tags.rows == COLLECTOR_BOUNDS.max_clickables // 2
    # what the bound left out is said, not silently dropped
    assert any("not offered" in w for w in result.observation.warnings)


async def test_ob12_probe_skips_wrappers_whose_verdict_is_discarded(browser: cdpagent.Browser) -> None:
    # A list item around its link is reached through the link whatever it listens to: its
    # listeners are not read. The nav, the list, the item that hides a submenu and the item
    # with words of its own are.
    tab = await browser.open(CLICKS / "wrappers.html")
    await install(tab)
    context = await tab.context_id(WORLD, 10)
    bounds = COLLECTOR_BOUNDS
    assert await probe_listeners(tab.session, context, bounds.listener_probe, None, bounds.click_scan) == 4
    found = entries(await observe_page(tab))
    assert {"introduction", "setup", "usage", "more_topics", "faq", "glossary"} <= set(found)
    assert found["changelog_see_the_list"].kind == "click"
    assert found["changelog_see_the_list"].source == "inferred"
    ok(await tab.act("changelog_see_the_list"))
    assert await result_text(tab) == "worded"
