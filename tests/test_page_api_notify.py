"""thread_notify and binding hygiene against real Chromium (PA-5, PA-6)."""

from __future__ import annotations

from typing import Any

import pytest
import trio
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


async def test_pa5_thread_notify_queued(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    result = await invoke(tab, "notify", {"message": "请点评作文"})
    assert result["ok"] is True and result["data"]["disposition"] == "queued"
    with trio.fail_after(5):
        note = await thread.receive()
    assert note.message == "请点评作文"
    assert note.tab_id == tab.id
    assert note.delivery_id == result["data"]["deliveryId"]
    assert note.url == METHODS.as_uri()
    assert tab in thread.tabs


async def test_pa5_message_size_limits(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    exact = "中" * 2730 + "ab"  # 8192 UTF-8 bytes
    over = "中" * 2731  # 8193 UTF-8 bytes
    assert len(exact.encode()) == 8192 and len(over.encode()) == 8193
    ok = await invoke(tab, "notify", {"message": exact})
    assert ok["ok"] is True
    refused(await invoke(tab, "notify", {"message": over}), "THREAD_NOTIFY_BAD_MESSAGE")
    refused(await invoke(tab, "notify", {"message": "x" * 8193}), "THREAD_NOTIFY_BAD_MESSAGE")
    assert [n.message for n in thread.drain()] == [exact]


@pytest.mark.parametrize(
    "payload",
    [{"message": ""}, {"message": 5}, {"message": None}, {"message": ["a"]}, {}, None, "text", [1]],
)
async def test_pa5_bad_message(thread: Thread[cdpagent.Tab], payload: Any) -> None:
    tab = await thread.open(METHODS)
    result = await invoke(tab, "post_raw", {"topic": "thread_notify", "payload": payload})
    refused(result, "THREAD_NOTIFY_BAD_MESSAGE")
    assert thread.drain() == []


async def test_pa5_sender_identity_comes_from_cdp(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    # A payload that tries to name another tab is refused outright.
    refused(await invoke(tab, "post_with_extra"), "THREAD_NOTIFY_BAD_MESSAGE")
    refused(await invoke(tab, "post_unserialisable"), "THREAD_NOTIFY_BAD_MESSAGE")
    assert thread.drain() == []


async def test_pa5_unknown_topic(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    for topic in ("other", "", 5, None):
        result = await invoke(tab, "post_raw", {"topic": topic, "payload": {"message": "hi"}})
        refused(result, "PAGE_API_UNKNOWN_TOPIC")


async def test_pa5_standalone_tab_not_allowed(
    pa_browser: cdpagent.Browser, thread: Thread[cdpagent.Tab]
) -> None:
    tab = await pa_browser.open(METHODS)
    refused(await invoke(tab, "notify", {"message": "hi"}), "THREAD_NOTIFY_NOT_ALLOWED")
    assert thread.drain() == []


async def test_pa5_external_url_not_allowed(chrome_endpoint: str) -> None:
    async with loopback_server() as server, page_api_browser(chrome_endpoint) as browser:
        thread = Thread(browser)
        tab = await thread.open(f"{server.origin}/examples/writing/index.html")
        # The seed's notifyReview() sees no window.agotalk and reports false.
        assert await evaluate(tab, "typeof window.agotalk") == "undefined"
        assert await evaluate(tab, "notifyReview()") is False
        assert thread.drain() == []


async def test_pa5_burst_of_1000_fills_the_bounded_queue(pa_browser: cdpagent.Browser) -> None:
    thread = Thread(pa_browser, queue_size=64)
    tab = await thread.open(METHODS)
    with trio.fail_after(60):
        outcome = await invoke(tab, "burst", {"n": 1000})
    assert outcome == {"codes": {"queued": 64, "THREAD_NOTIFY_QUEUE_FULL": 936}, "uniqueIds": 64}
    notes = thread.drain()
    assert len(notes) == 65 and {n.tab_id for n in notes} == {tab.id}
    # The refusals reach the thread too: one coalesced notice after the accepted ones.
    assert [n.refused for n in notes] == [0] * 64 + [936]
    assert notes[-1].message.startswith(f"936 notifications refused from tab {tab.id} ")
    # Reading the queue makes room again.
    assert (await invoke(tab, "notify", {"message": "again"}))["ok"] is True


async def test_pa5_delivery_failed_when_thread_closed(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    thread.close()
    refused(await invoke(tab, "notify", {"message": "hi"}), "THREAD_NOTIFY_DELIVERY_FAILED")


async def test_pa5_thread_iterates_notifications(thread: Thread[cdpagent.Tab]) -> None:
    tab = await thread.open(METHODS)
    for i in range(3):
        assert (await invoke(tab, "notify", {"message": f"m{i}"}))["ok"] is True
    thread.close()
    seen = [note.message async for note in thread]
    assert seen == ["m0", "m1", "m2"]


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


async def test_pa5_popup_of_a_thread_owned_page_belongs_to_the_thread(
    pa_browser: cdpagent.Browser, thread: Thread[cdpagent.Tab]
) -> None:
    from cdpagent.ops.harness import user_click

    tab = await thread.open(METHODS)
    before = {t.id for t in pa_browser.tabs}
    await user_click(tab, "#popup")
    await pa_browser.wait_until(lambda: len(pa_browser.tabs) > len(before), 10)
    (popup,) = [t for t in pa_browser.tabs if t.id not in before]
    assert popup.opener is tab
    assert popup in thread.tabs
    await popup.wait_document(lambda doc: "popup=1" in doc.url, 10)
    result = await invoke(popup, "notify", {"message": "from the popup"})
    assert result["ok"] is True, result
    with trio.fail_after(5):
        note = await thread.receive()
    assert (note.tab_id, note.message) == (popup.id, "from the popup")
