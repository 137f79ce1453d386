"""thread_notify (PA-5): what the runtime decides of each post a page makes — queued, refused and
why, from which tab, into which thread — on recorded CDP connections (tests/recorded_cdp.py).

The posts come from ``tests/pages/page_api/methods.html`` in Chromium, recorded; the runtime's
answer to each post is a command it sends the page, checked with its parameters, so a post
accepted that should be refused (or the reverse) fails the replay. What the page itself can and
cannot do to the binding (PA-6) is tests/test_page_api_binding.py, against live Chromium.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from page_api_support import PAGES, page_api_browser

import cdpagent
from cdpagent.runtime import Thread, invoke

METHODS = PAGES / "methods.html"


@pytest.fixture
async def pa_browser(recorded_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A recorded connection with the Page Agent API installed."""
    async with page_api_browser(recorded_endpoint) as browser:
        yield browser


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
