"""The Page Agent API's binding against live Chromium (PA-6, and PA-1/PA-5 where the page decides):
the page cannot see, replace or call past the binding, posts from other worlds, frames and stale
contexts are dropped, and a page from an origin that is not allowed gets no ``agotalk``.
What the runtime decides of the posts it takes is tests/test_page_api_notify.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import evaluate
from page_api_support import PAGES, loopback_server, pa_browser, page_api_browser

import cdpagent
from cdpagent.runtime import PageApi, Thread, invoke

__all__ = ["pa_browser"]

METHODS = PAGES / "methods.html"


def refused(result: Any, code: str) -> None:
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result
    assert isinstance(result["error"]["message"], str)


@pytest.fixture
async def thread(pa_browser: cdpagent.Browser) -> Thread[cdpagent.Tab]:
    return Thread(pa_browser)


async def test_pa5_external_url_not_allowed(chrome_endpoint: str) -> None:
    async with loopback_server() as server, page_api_browser(chrome_endpoint) as browser:
        thread = Thread(browser)
        tab = await thread.open(f"{server.origin}/examples/writing/index.html")
        # The seed's notifyReview() sees no window.agotalk and reports false.
        assert await evaluate(tab, "typeof window.agotalk") == "undefined"
        assert await evaluate(tab, "notifyReview()") is False
        assert thread.drain() == []


async def test_pa6_binding_is_hidden_from_the_page(pa_browser: cdpagent.Browser) -> None:
    api = PageApi.of(pa_browser)
    tab = await pa_browser.open(METHODS)
    assert await invoke(tab, "binding_globals") == []
    assert await evaluate(tab, f"typeof window[{api.binding!r}]") == "undefined"
    assert await evaluate(tab, f"{api.binding!r} in window") is False
    assert len(api.binding) >= 33 and api.binding != PageApi().binding


async def test_pa6_page_cannot_replace_agotalk(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    assert await invoke(tab, "tamper") == {
        "assign": "TypeError",
        "delete": "TypeError",
        "expose": "TypeError",
        "define": "TypeError",
    }
    assert await invoke(tab, "echo", {"still": "works"}) == {"still": "works"}


async def test_pa6_hidden_entry_point_refuses_the_page(pa_browser: cdpagent.Browser) -> None:
    api = PageApi.of(pa_browser)
    tab = await pa_browser.open(METHODS)
    # The page can find the entry point, but not the key it requires.
    names = await evaluate(tab, "Object.getOwnPropertyNames(window.agotalk)")
    assert sorted(names) == sorted(["expose", "post", api.entry]) and api.key not in str(names)
    reply = await tab.session.send(
        "Runtime.evaluate",
        {"expression": f"agotalk[{api.entry!r}]('guess', 'invoke', 'echo', '{{}}')", "returnByValue": True},
    )
    assert "exceptionDetails" in reply


async def test_pa6_calls_from_other_worlds_are_dropped(thread: Thread[cdpagent.Tab]) -> None:
    api = PageApi.of(thread.browser)
    tab = await thread.open(METHODS)
    assert tab.document is not None
    world = await tab.session.send(
        "Page.createIsolatedWorld", {"frameId": tab.document.frame_id, "worldName": "intruder"}
    )
    context = world["executionContextId"]
    # If the binding exists in that world at all, a forged post from it must not be delivered.
    probe = await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": f"typeof globalThis[{api.binding!r}] === 'function' && "
            f'(globalThis[{api.binding!r}](\'[1,"thread_notify",{{"message":"forged"}}]\'), true)',
            "contextId": context,
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in probe
    # A round trip through the page orders us after any binding event of the probe.
    assert (await invoke(tab, "notify", {"message": "real"}))["ok"] is True
    assert [n.message for n in thread.drain()] == ["real"]


async def test_pa1_pa5_iframe_gets_agotalk_but_cannot_notify(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(PAGES.parent / "basic.html")
    child = next(f for f in tab.documents.frames.values() if f.parent_id is not None)
    await tab.wait_until(lambda: tab.documents.context("", child.id) is not None, 10)
    context = tab.documents.context("", child.id)
    assert context is not None
    reply = await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": "window.agotalk.post('thread_notify', {message: 'from a frame'})",
            "contextId": context.id,
            "returnByValue": True,
            "awaitPromise": True,
        },
    )
    refused(reply["result"]["value"], "THREAD_NOTIFY_NOT_ALLOWED")
    assert thread.drain() == []


async def test_pa6_stale_and_unknown_contexts_are_dropped(thread: Thread[cdpagent.Tab]) -> None:
    api = PageApi.of(thread.browser)
    tab = await thread.open(METHODS)
    old_context = await tab.context_id()
    await tab.reload()
    forged = '[1,"thread_notify",{"message":"forged"}]'
    for context_id in (old_context, 987654, "3"):
        api._on_binding(tab, {"name": api.binding, "executionContextId": context_id, "payload": forged})
    current = await tab.context_id()
    api._on_binding(tab, {"name": "someOtherBinding", "executionContextId": current, "payload": forged})
    assert thread.drain() == []
    # The same payload from the live main world is delivered: only the sender's context decided.
    api._on_binding(tab, {"name": api.binding, "executionContextId": current, "payload": forged})
    assert [n.message for n in thread.drain()] == ["forged"]
