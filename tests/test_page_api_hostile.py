"""The Page Agent API under hostile and careless pages (issue 9: findings 1, 8, 9; PA-4 … PA-6).

Each test opens a page under ``tests/pages/page_api/`` that does exactly the thing:
lone UTF-16 surrogates in results, errors and posts; built-ins patched the way
Prototype.js does (``Object.prototype.toJSON``, ``Array.prototype.toJSON``) and worse;
Proxies whose traps throw; and a burst of posts from one tab of a thread shared with others.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio
from conftest import evaluate
from page_api_support import PAGES, pa_browser

import cdpagent
from cdpagent.runtime import PageApi, PageApiError, Thread, invoke

__all__ = ["pa_browser"]

METHODS = PAGES / "methods.html"
POLLUTED = PAGES / "polluted.html"
PEEK = PAGES / "peek.html"


async def failure(tab: cdpagent.Tab, method: str, args: Any = None) -> PageApiError:
    with pytest.raises(PageApiError) as caught:
        await invoke(tab, method, args)
    return caught.value


# --- finding 1: lone surrogates on the Page API paths (PA-4, PA-5) ---------------------------


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("lone_surrogate", "$.text[1]"),
        ("lone_low_surrogate", "$"),
        ("lone_surrogate_key", '$.a["k\\ud800"]'),
    ],
)
async def test_pa4_lone_surrogate_result_is_not_json(
    pa_browser: cdpagent.Browser, kind: str, path: str
) -> None:
    tab = await pa_browser.open(METHODS)
    error = await failure(tab, "value", {"kind": kind})
    assert error.code == "PAGE_API_RESULT_NOT_JSON", error
    assert f"the result {path} " in error.message and "lone surrogate" in error.message, error.message
    # A well-formed astral character (a full surrogate pair) is ordinary JSON.
    assert await invoke(tab, "echo", {"emoji": "🎉 ok"}) == {"emoji": "🎉 ok"}


async def test_pa4_lone_surrogate_in_an_error_message_is_replaced(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    error = await failure(tab, "throws_lone_surrogate")
    assert error.code == "PAGE_API_METHOD_FAILED", error
    assert "broken \ufffd text" in error.message
    error.message.encode("utf-8")  # valid Unicode all the way to the caller


async def test_pa5_post_with_a_lone_surrogate_is_refused(pa_browser: cdpagent.Browser) -> None:
    thread = Thread(pa_browser)
    tab = await thread.open(METHODS)
    with trio.fail_after(5):
        result = await invoke(tab, "notify_lone_surrogate")
    assert result["ok"] is False and result["error"]["code"] == "THREAD_NOTIFY_BAD_MESSAGE", result
    assert "lone surrogate" in result["error"]["message"]
    assert thread.drain() == []
    assert (await invoke(tab, "notify", {"message": "🎉"}))["ok"] is True


async def test_pa6_lone_surrogates_in_browser_messages_keep_the_connection(
    pa_browser: cdpagent.Browser,
) -> None:
    tab = await pa_browser.open(METHODS)
    # A console message, an uncaught error and an evaluated value, each with half an emoji:
    # Chromium escapes the half in its CDP message, which msgspec alone cannot decode.
    reply = await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": "console.log('half \\ud83d'); setTimeout(() => { throw new Error('\\udc00'); });"
            " ({s: 'a\\ud800b'})",
            "returnByValue": True,
        },
    )
    assert reply["result"]["value"] == {"s": "a\ufffdb"}
    # Timers run in order: once this one fired, the uncaught error's event was sent.
    await evaluate(tab, "new Promise((resolve) => setTimeout(resolve, 10))")
    thrown = await tab.session.send("Runtime.evaluate", {"expression": "throw new Error('x \\ud800')"})
    assert "x \ufffd" in thrown["exceptionDetails"]["exception"]["description"]
    # The connection survived the console event, the exception event and the reply.
    assert await invoke(tab, "echo", {"alive": True}) == {"alive": True}


# --- finding 8: forged envelopes, patched built-ins, Proxies (PA-4, PA-6) --------------------


async def test_pa6_prototype_pollution_cannot_forge_envelopes(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(POLLUTED)
    error = await failure(tab, "nope")
    assert error.code == "PAGE_API_METHOD_NOT_FOUND", error
    assert await invoke(tab, "echo", {"a": [1, {"b": "c"}]}) == {"a": [1, {"b": "c"}]}
    assert await invoke(tab, "list") == [1, [2, "three"], {"four": 4}]
    assert await invoke(tab, "later") == [5, {"six": 6}]
    assert await invoke(tab, "thenable") == {"seven": 7}
    error = await failure(tab, "later_fails")
    assert error.code == "PAGE_API_METHOD_FAILED" and "RangeError: later" in error.message, error
    error = await failure(tab, "nested_nan")
    assert error.code == "PAGE_API_RESULT_NOT_JSON"
    assert "the result $.a.b[0] is NaN" in error.message, error.message
    assert await invoke(tab, "second_expose") == "PAGE_API_ALREADY_EXPOSED"


async def test_pa6_a_method_cannot_read_the_runtime_key_of_its_callers(pa_browser: cdpagent.Browser) -> None:
    """The key that guards the shim's entry point is written into invoke's function text: a
    page method walking its callers through V8's structured stack traces must not see it."""
    tab = await pa_browser.open(PEEK)
    found = await invoke(tab, "peek")
    assert found["frames"] > 1 and "peek" in found["seen"], found
    api = PageApi.of(pa_browser)
    assert api.key not in found["seen"], found["seen"]


async def test_pa5_prototype_pollution_cannot_drop_posts(pa_browser: cdpagent.Browser) -> None:
    thread = Thread(pa_browser)
    tab = await thread.open(POLLUTED)
    with trio.fail_after(5):
        result = await invoke(tab, "notify", {"message": "still heard"})
    assert result["ok"] is True and result["data"]["disposition"] == "queued", result
    assert [n.message for n in thread.drain()] == ["still heard"]
    with trio.fail_after(5):
        refused = await invoke(tab, "post_list")
    assert refused["ok"] is False and refused["error"]["code"] == "THREAD_NOTIFY_BAD_MESSAGE", refused


@pytest.mark.parametrize(
    ("kind", "path", "what"),
    [
        ("proxy_prototype_throws", "$", "trap"),
        ("nested_proxy_keys_throw", "$.a[0]", "keys trap"),
        ("revoked_proxy", "$.gone", "revoked"),
    ],
)
async def test_pa4_proxy_with_throwing_traps_is_not_json(
    pa_browser: cdpagent.Browser, kind: str, path: str, what: str
) -> None:
    tab = await pa_browser.open(METHODS)
    with trio.fail_after(1.5):  # promptly: no wait for a document change that never comes
        error = await failure(tab, "value", {"kind": kind})
    assert error.code == "PAGE_API_RESULT_NOT_JSON", error
    assert f"the result {path} " in error.message and what in error.message, error.message


# --- finding 9: thread_notify bursts (PA-5) ---------------------------------------------------


async def test_pa5_burst_from_one_tab_leaves_room_for_the_others(pa_browser: cdpagent.Browser) -> None:
    thread = Thread(pa_browser, queue_size=64)
    noisy = await thread.open(METHODS)
    quiet = await thread.open(METHODS)
    with trio.fail_after(60):
        outcome = await invoke(noisy, "burst", {"n": 1000})
    # Two tabs: each may hold half of the queue.
    assert outcome == {"codes": {"queued": 32, "THREAD_NOTIFY_QUEUE_FULL": 968}, "uniqueIds": 32}
    result = await invoke(quiet, "notify", {"message": "from the quiet tab"})
    assert result["ok"] is True, result
    notes = thread.drain()
    assert [(n.tab_id, n.refused) for n in notes] == [(noisy.id, 0)] * 32 + [(noisy.id, 968), (quiet.id, 0)]
    # The thread is told, once, what its noisy tab lost.
    notice = notes[32]
    assert notice.message.startswith(f"968 notifications refused from tab {noisy.id} ")
    assert notice.url == METHODS.as_uri() and notes[-1].message == "from the quiet tab"
