"""DR-1, DR-3, DR-6 against real Chromium on the shared session browser; a missing checkout
page names its bundled example (SF-2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PAGES, evaluate

import cdpagent


async def test_dr6_reload_and_navigation_make_new_documents(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    assert await evaluate(tab, "document.title") == "Basic page"
    first = tab.document
    assert first is not None and first.loaded
    reloaded = await tab.reload()
    assert reloaded.serial != first.serial
    moved = await tab.navigate(PAGES / "child.html")
    assert moved.serial != reloaded.serial
    assert moved.url.endswith("child.html")


async def test_dr6_hash_and_push_state_keep_the_document(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    doc = tab.document
    assert doc is not None
    await evaluate(tab, "location.hash = '#section'")
    await evaluate(tab, "history.pushState({}, '', '?pushed=1')")
    await tab.wait_document(lambda doc: "pushed=1" in doc.url, 10)
    assert tab.document is doc


async def test_dr6_iframes_are_tracked(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    main = tab.document
    assert main is not None

    def child_loaded() -> bool:
        return any(
            f.parent_id == main.frame_id and f.document is not None and f.document.loaded
            for f in tab.documents.frames.values()
        )

    await tab.wait_until(child_loaded, 10)


async def test_dr6_back_navigation_is_never_the_old_document(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    first = tab.document
    assert first is not None
    await tab.navigate(PAGES / "child.html")
    second = tab.document
    assert second is not None
    # Go back after the evaluation has answered: a back navigation may commit before
    # the reply to the evaluation that started it, which then fails as "navigated".
    await evaluate(tab, "setTimeout(() => history.back(), 0), true")
    back = await tab.document_changed(second.serial, 10)
    await tab.wait_loaded(10)
    assert back.url.endswith("basic.html")
    assert back.serial not in (first.serial, second.serial)
    assert await evaluate(tab, "document.title") == "Basic page"


class EarlyScript:
    """An extension that installs an init script, to prove it runs before page scripts."""

    def __init__(self) -> None:
        self.tabs: list[str] = []

    def setup_tab(self, tab: cdpagent.Target) -> list[cdpagent.Command]:
        self.tabs.append(tab.id)
        return [
            (
                "Page.addScriptToEvaluateOnNewDocument",
                {"source": "window.installedBeforePageScripts = true;"},
            )
        ]


async def test_dr3_new_tabs_and_popups_are_set_up_before_their_first_script(chrome_endpoint: str) -> None:
    extension = EarlyScript()
    async with cdpagent.connect(chrome_endpoint, extensions=[extension]) as browser:
        tab = await browser.open(PAGES / "early.html")
        assert await evaluate(tab, "window.seenAtFirstScript") is True
        opener = await browser.open(PAGES / "popup_opener.html")
        known = {t.id for t in browser.tabs}
        await evaluate(opener, f"openPopup({(PAGES / 'early.html').as_uri()!r})", gesture=True)
        await browser.wait_until(lambda: len(browser.tabs) > len(known), 10)
        (popup,) = [t for t in browser.tabs if t.id not in known]
        assert popup.opener is opener
        assert popup.id in extension.tabs
        await popup.wait_document(lambda doc: doc.url.endswith("early.html"), 10)
        await popup.wait_loaded(10)
        assert await evaluate(popup, "window.seenAtFirstScript") is True
        for t in (tab, opener, popup):
            await t.close()


async def test_dr1_subscriber_that_falls_behind_is_dropped_not_the_reader(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGES / "basic.html")
    async with tab.session.subscribe(["Runtime.consoleAPICalled"], buffer=2) as events:
        await evaluate(tab, "for (let i = 0; i < 5; i++) console.log(i)")
        # The reader kept going: a later command still completes.
        assert await evaluate(tab, "40 + 2") == 42
        received = [await events.receive(), await events.receive()]
        assert [p["args"][0]["value"] for _, p in received] == [0, 1]
        try:
            await events.receive()
        except cdpagent.SubscriptionOverflow:
            pass
        else:
            raise AssertionError("the overflowing subscriber was not told")


async def test_sf1_tabs_have_short_stable_ids(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    assert tab.id.startswith("tab") and len(tab.id) <= 8
    assert browser.tab(tab.id) is tab
    await tab.navigate(PAGES / "child.html")
    assert browser.tab(tab.id) is tab
    await tab.close()
    assert browser.tab(tab.id) is None
    assert tab not in browser.tabs


async def test_sf2_a_missing_checkout_page_names_the_bundled_example(
    chrome_endpoint: str, tmp_path: Path
) -> None:
    async with cdpagent.connect(chrome_endpoint) as browser:
        with pytest.raises(cdpagent.NavigationError, match=r"\(the bundled example is example:todos\)"):
            await browser.open(tmp_path / "examples" / "todos" / "index.html")
