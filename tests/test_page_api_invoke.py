"""Page Agent API against real Chromium: injection, registration, lifecycle, invoke (PA-1 … PA-4)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import trio
from conftest import evaluate
from page_api_support import PAGES, hang_started, loopback_server, pa_browser, page_api_browser

import cdpagent
from cdpagent.ops.harness import user_click
from cdpagent.runtime import PageApi, PageApiError, invoke, invoke_page_method
from cdpagent.runtime.jsonstrict import args_from_json

__all__ = ["pa_browser"]

METHODS = PAGES / "methods.html"


async def expect_code(code: str, tab: cdpagent.Tab, method: Any, args: Any = None, **kw: Any) -> str:
    """Invoke and assert it fails with ``code``; returns the message. Also checks the envelope form."""
    with pytest.raises(PageApiError) as caught:
        await invoke(tab, method, args, **kw)
    assert caught.value.code == code, caught.value
    assert caught.value.envelope() == {"ok": False, "error": {"code": code, "message": caught.value.message}}
    return caught.value.message


# --- PA-1 injection ---------------------------------------------------------------------


async def test_pa1_local_page_has_agotalk_before_its_scripts(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    # methods.html calls window.agotalk.expose from its first inline script.
    assert await invoke(tab, "echo", {"a": 1}) == {"a": 1}
    shape = await invoke(tab, "agotalk_shape")
    assert shape == {
        "keys": ["expose", "post"],
        "frozen": True,
        "descriptor": {"writable": False, "configurable": False},
    }


async def test_pa1_reload_navigation_and_popup_get_agotalk(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    await tab.reload()
    assert await invoke(tab, "echo", {"n": 1}) == {"n": 1}
    await tab.navigate(PAGES / "other.html")
    assert await invoke(tab, "where") == "other"
    await tab.navigate(METHODS)
    before = {t.id for t in pa_browser.tabs}
    await user_click(tab, "#popup")
    await pa_browser.wait_until(lambda: len(pa_browser.tabs) > len(before), 10)
    (popup,) = [t for t in pa_browser.tabs if t.id not in before]
    await popup.wait_loaded()
    assert popup.opener is tab
    assert await invoke(popup, "echo", {"popup": True}) == {"popup": True}


async def test_pa1_external_url_gets_no_agotalk(chrome_endpoint: str) -> None:
    async with loopback_server() as server, page_api_browser(chrome_endpoint) as browser:
        tab = await browser.open(f"{server.origin}/pages/silent.html")
        assert await evaluate(tab, "hasAgotalk()") == "undefined"
        # The binding is removed from external pages too, before their scripts run.
        binding = PageApi.of(browser).binding
        assert await evaluate(tab, f"typeof window[{binding!r}]") == "undefined"
        message = await expect_code("PAGE_API_NOT_EXPOSED", tab, "anything")
        assert "not a local page" in message


async def test_pa1_allow_listed_origin_is_local(chrome_endpoint: str) -> None:
    async with loopback_server() as server, page_api_browser(chrome_endpoint, [server.origin]) as browser:
        tab = await browser.open(f"{server.origin}/pages/methods.html")
        assert await invoke(tab, "echo", {"x": "y"}) == {"x": "y"}
        silent = await browser.open(f"http://localhost:{server.port}/pages/silent.html")
        assert await evaluate(silent, "hasAgotalk()") == "undefined"


# --- PA-2 registration contract -----------------------------------------------------------

INVALID_TABLES = [
    "null",
    "undefined",
    "array",
    "class_instance",
    "empty",
    "non_function",
    "string_value",
    "nested",
    "getter",
    "symbol_key",
    "two_arguments",
    "no_arguments",
    "string",
    "function",
]
METADATA_KEYS = ["version", "methods", "description", "effect", "inputSchema"]


@pytest.fixture
async def contract_tab(pa_browser: cdpagent.Browser) -> cdpagent.Tab:
    return await pa_browser.open(PAGES / "contract.html")


@pytest.mark.parametrize("case", INVALID_TABLES + METADATA_KEYS)
async def test_pa2_contract_invalid(contract_tab: cdpagent.Tab, case: str) -> None:
    outcome = await evaluate(contract_tab, f"tryExpose({case!r})")
    assert outcome["code"] == "PAGE_API_CONTRACT_INVALID", outcome
    assert outcome["isError"] is True
    if case in METADATA_KEYS:
        assert case in outcome["message"]
    # The agent side sees NOT_EXPOSED, with the page's reason.
    message = await expect_code("PAGE_API_NOT_EXPOSED", contract_tab, "m")
    assert "rejected" in message and outcome["message"] in message
    # A rejected call does not consume the registration.
    assert await evaluate(contract_tab, "tryExpose('valid')") == {"ok": True}
    assert await invoke(contract_tab, "whoami") == "first"


async def test_pa2_already_exposed(contract_tab: cdpagent.Tab) -> None:
    assert await evaluate(contract_tab, "tryExpose('valid')") == {"ok": True}
    second = await evaluate(contract_tab, "tryExpose('second_valid')")
    assert second["code"] == "PAGE_API_ALREADY_EXPOSED" and second["isError"] is True
    invalid = await evaluate(contract_tab, "tryExpose('null')")
    assert invalid["code"] == "PAGE_API_ALREADY_EXPOSED"
    assert await invoke(contract_tab, "m") == "original"
    await expect_code("PAGE_API_METHOD_NOT_FOUND", contract_tab, "extra")


async def test_pa2_registration_is_a_frozen_copy(contract_tab: cdpagent.Tab) -> None:
    assert await evaluate(contract_tab, "tryExpose('valid')") == {"ok": True}
    assert await evaluate(contract_tab, "mutateTable()") is True
    assert await invoke(contract_tab, "m") == "original"
    await expect_code("PAGE_API_METHOD_NOT_FOUND", contract_tab, "added")


async def test_pa2_null_prototype_table_is_plain(contract_tab: cdpagent.Tab) -> None:
    assert await evaluate(contract_tab, "tryExpose('null_prototype')") == {"ok": True}
    assert await invoke(contract_tab, "whoami") == "null-proto"


# --- PA-3 lifecycle --------------------------------------------------------------------------


async def test_pa3_reload_clears_registration(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(PAGES / "once.html")
    first = await invoke(tab, "hello")
    assert first["navigation"] == "navigate"
    await tab.reload()
    # The reloaded document is a new one (its own nonce), and it did not register.
    document = await evaluate(tab, "({nonce: window.documentNonce, navigation: window.navigationType})")
    assert document["navigation"] == "reload" and document["nonce"] != first["nonce"]
    message = await expect_code("PAGE_API_NOT_EXPOSED", tab, "hello")
    assert "not registered" in message


async def test_pa3_new_document_registers_again(contract_tab: cdpagent.Tab) -> None:
    assert await evaluate(contract_tab, "tryExpose('valid')") == {"ok": True}
    await contract_tab.reload()
    await expect_code("PAGE_API_NOT_EXPOSED", contract_tab, "m")
    assert await evaluate(contract_tab, "tryExpose('second_valid')") == {"ok": True}
    assert await invoke(contract_tab, "m") == "second"


async def test_pa3_cross_document_navigation_clears_registration(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    await tab.navigate(PAGES / "other.html")
    await expect_code("PAGE_API_METHOD_NOT_FOUND", tab, "echo")
    assert await invoke(tab, "where") == "other"
    await tab.navigate(PAGES / "silent.html")
    await expect_code("PAGE_API_NOT_EXPOSED", tab, "where")


async def test_pa3_same_document_navigation_keeps_registration(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(METHODS)
    serial = tab.document.serial if tab.document else -1
    assert await invoke(tab, "go_hash") == "#pushed"
    assert await invoke(tab, "echo", {"still": True}) == {"still": True}
    assert tab.document is not None and tab.document.serial == serial
    await tab.navigate(f"{METHODS.as_uri()}#again")
    assert await invoke(tab, "echo", {"again": True}) == {"again": True}


# --- PA-4 invoke ------------------------------------------------------------------------------


@pytest.fixture
async def methods_tab(pa_browser: cdpagent.Browser) -> cdpagent.Tab:
    return await pa_browser.open(METHODS)


async def test_pa4_result_is_exactly_the_json_value(methods_tab: cdpagent.Tab) -> None:
    value = {"a": [1, 2.5, "三", None, True, {"b": {}}], "": [], "é": "\u2028"}
    assert await invoke(methods_tab, "echo", value) == value
    assert await invoke(methods_tab, "echo_later", value) == value
    exotic = await invoke(methods_tab, "value", {"kind": "exotic"})
    assert exotic == {
        "s": '中文 \u2028 "q" \\',
        "n": 0,
        "big": 1e300,
        "small": 5e-324,
        "t": True,
        "z": None,
        "e": [],
        "o": {},
    }
    assert await invoke(methods_tab, "value", {"kind": "shared"}) == {"a": {"v": 1}, "b": {"v": 1}}


async def test_pa4_args_default_and_fresh_copy(methods_tab: cdpagent.Tab) -> None:
    assert await invoke(methods_tab, "echo") == {}
    args = {"k": [1]}
    first = await invoke(methods_tab, "remember", args)
    second = await invoke(methods_tab, "remember", args)
    assert first["count"] == 1 and second == {"count": 2, "sameAsFirst": False, "fresh": True}
    assert args == {"k": [1]}


async def test_pa4_invoke_page_method_envelope(
    pa_browser: cdpagent.Browser, methods_tab: cdpagent.Tab
) -> None:
    ok = await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": "echo", "args": {"x": 1}})
    assert ok == {"x": 1}
    assert await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": "echo"}) == {}
    failed = await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": "throws"})
    assert failed["ok"] is False and failed["error"]["code"] == "PAGE_API_METHOD_FAILED"
    assert set(failed["error"]) == {"code", "message"}


async def test_pa4_tab_not_found(pa_browser: cdpagent.Browser, methods_tab: cdpagent.Tab) -> None:
    for request in (
        {"tabId": "tab-none", "method": "echo"},
        {"method": "echo"},
        {"tabId": 7, "method": "echo"},
    ):
        result = await invoke_page_method(pa_browser, request)
        assert result["error"]["code"] == "PAGE_API_TAB_NOT_FOUND", request
    await methods_tab.close()
    result = await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": "echo"})
    assert result["error"]["code"] == "PAGE_API_TAB_NOT_FOUND"
    await expect_code("PAGE_API_TAB_NOT_FOUND", methods_tab, "echo")


async def test_pa4_tab_closed_mid_call(pa_browser: cdpagent.Browser, methods_tab: cdpagent.Tab) -> None:
    async def close_soon() -> None:
        await hang_started(methods_tab)
        await methods_tab.close()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(close_soon)
        with trio.fail_after(10):
            await expect_code("PAGE_API_TAB_NOT_FOUND", methods_tab, "hang")


async def test_pa4_not_exposed_after_load(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(PAGES / "silent.html")
    assert await evaluate(tab, "hasAgotalk()") == "object"
    message = await expect_code("PAGE_API_NOT_EXPOSED", tab, "anything")
    assert "has not registered" in message


async def test_pa4_call_while_loading_waits_for_registration(chrome_endpoint: str) -> None:
    async with loopback_server() as server, page_api_browser(chrome_endpoint) as browser:
        tab = await browser.open(PAGES / "silent.html")
        late = f"{(PAGES / 'late.html').as_uri()}?slow={server.origin}/slow%3Fms%3D400"
        serial = tab.document.serial if tab.document else -1
        await tab.session.send("Page.navigate", {"url": late})
        await tab.document_changed(serial)
        assert tab.document is not None and not tab.document.loaded
        # The page registers in its load handler, which the slow image holds back.
        assert await invoke(tab, "ready", timeout=10) == "complete"


async def test_pa4_method_not_found_does_not_list_table(methods_tab: cdpagent.Tab) -> None:
    message = await expect_code("PAGE_API_METHOD_NOT_FOUND", methods_tab, "nope")
    assert "nope" in message
    for name in ("echo", "throws", "burst", "hang"):
        assert name not in message
    await expect_code("PAGE_API_METHOD_NOT_FOUND", methods_tab, "toString")
    await expect_code("PAGE_API_METHOD_NOT_FOUND", methods_tab, "__proto__")


@pytest.mark.parametrize(
    "args",
    [
        [1, 2],
        "text",
        5,
        True,
        {"x": float("nan")},
        {"x": float("inf")},
        {"x": [1, {"y": -float("inf")}]},
        {"x": 2**60},
        {"x": (1, 2)},
        {"x": {1: "non-string key"}},
        {"x": b"bytes"},
        {"x": {1, 2}},
    ],
)
async def test_pa4_args_invalid(methods_tab: cdpagent.Tab, args: Any) -> None:
    await expect_code("PAGE_API_ARGS_INVALID", methods_tab, "echo", args)


async def test_pa4_args_invalid_null_and_method(
    pa_browser: cdpagent.Browser, methods_tab: cdpagent.Tab
) -> None:
    result = await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": "echo", "args": None})
    assert result["error"]["code"] == "PAGE_API_ARGS_INVALID"
    for method in ("", None, 5, ["echo"]):
        result = await invoke_page_method(pa_browser, {"tabId": methods_tab.id, "method": method})
        assert result["error"]["code"] == "PAGE_API_ARGS_INVALID", method
        await expect_code("PAGE_API_ARGS_INVALID", methods_tab, method)
    for text in ('{"x": NaN}', "[1]", "null", '"s"', "{bad json}"):
        with pytest.raises(PageApiError) as caught:
            args_from_json(text)
        assert caught.value.code == "PAGE_API_ARGS_INVALID"


async def test_pa4_method_failed(methods_tab: cdpagent.Tab) -> None:
    assert "TypeError: bad input" in await expect_code("PAGE_API_METHOD_FAILED", methods_tab, "throws")
    assert "RangeError: rejected" in await expect_code("PAGE_API_METHOD_FAILED", methods_tab, "rejects")
    assert "plain string" in await expect_code("PAGE_API_METHOD_FAILED", methods_tab, "throws_string")
    long = await expect_code("PAGE_API_METHOD_FAILED", methods_tab, "throws_long")
    assert len(long) < 1200


@pytest.mark.parametrize(
    ("kind", "path", "what"),
    [
        ("undefined", "$", "undefined"),
        ("nan", "$", "NaN"),
        ("infinity", "$", "Infinity"),
        ("minus_infinity", "$", "-Infinity"),
        ("bigint", "$", "BigInt"),
        ("function", "$", "function"),
        ("symbol", "$", "symbol"),
        ("nested_undefined", "$.a[1].b", "undefined"),
        ("array_undefined", "$[1]", "undefined"),
        ("date", "$.when", "Date"),
        ("map", "$", "Map"),
        ("set", "$.s", "Set"),
        ("typed_array", "$.bytes", "Uint8Array"),
        ("class_instance", "$.p", "Point"),
        ("cycle", "$.list[0]", "cycle"),
        ("sparse", "$.xs[1]", "sparse"),
        ("throwing_getter", "$.bad", "getter that threw"),
        ("huge_string", "$", "size cap"),
        ("weird_key", '$["a b"].c[0]', "NaN"),
    ],
)
async def test_pa4_result_not_json(methods_tab: cdpagent.Tab, kind: str, path: str, what: str) -> None:
    message = await expect_code("PAGE_API_RESULT_NOT_JSON", methods_tab, "value", {"kind": kind})
    assert f"the result {path} " in message and what in message, message


async def test_pa4_timeout(methods_tab: cdpagent.Tab) -> None:
    with trio.fail_after(5):
        message = await expect_code("PAGE_API_TIMEOUT", methods_tab, "hang", timeout=0.3)
    assert "may still complete" in message
    assert await invoke(methods_tab, "echo", {"after": 1}) == {"after": 1}


@pytest.mark.parametrize("method", ["navigate_then_wait", "reload_then_wait"])
async def test_pa4_page_changed(methods_tab: cdpagent.Tab, method: str) -> None:
    with trio.fail_after(10):
        await expect_code("PAGE_API_PAGE_CHANGED", methods_tab, method)
    await methods_tab.wait_loaded()


async def test_pa4_renderer_crash_mid_call(methods_tab: cdpagent.Tab) -> None:
    async def crash_soon() -> None:
        await hang_started(methods_tab)
        with trio.move_on_after(2), contextlib.suppress(cdpagent.TargetCrashed):
            await methods_tab.session.send("Page.crash")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(crash_soon)
        with trio.fail_after(10):
            await expect_code("PAGE_API_TAB_CRASHED", methods_tab, "hang")


async def test_pa4_codes_are_the_seed_codes() -> None:
    from cdpagent.runtime import codes

    seed = [
        "PAGE_API_NOT_EXPOSED",
        "PAGE_API_ALREADY_EXPOSED",
        "PAGE_API_CONTRACT_INVALID",
        "PAGE_API_METHOD_NOT_FOUND",
        "PAGE_API_ARGS_INVALID",
        "PAGE_API_METHOD_FAILED",
        "PAGE_API_RESULT_NOT_JSON",
        "PAGE_API_TIMEOUT",
        "PAGE_API_PAGE_CHANGED",
        "PAGE_API_TAB_NOT_FOUND",
        "PAGE_API_CALL_FAILED",
    ]
    # Every code of the seed, plus those cdpagent adds (the seed's list is open-ended): a blocking
    # JavaScript dialog (DR-7), a crashed tab (one event, one code: TAB_CRASHED elsewhere).
    assert set(codes.INVOKE_CODES) == {*seed, "PAGE_API_DIALOG_OPEN", "PAGE_API_TAB_CRASHED"}
    error = PageApiError("PAGE_API_TIMEOUT", "m")
    assert error.code == "PAGE_API_TIMEOUT" and error.envelope()["error"] == {
        "code": "PAGE_API_TIMEOUT",
        "message": "m",
    }


async def test_pa4_many_calls_in_flight(methods_tab: cdpagent.Tab) -> None:
    results: list[Any] = [None] * 200

    async def one(i: int) -> None:
        results[i] = await invoke(methods_tab, "echo", {"i": i})

    async with trio.open_nursery() as nursery:
        for i in range(200):
            nursery.start_soon(one, i)
    assert results == [{"i": i} for i in range(200)]
