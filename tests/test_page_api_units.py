"""Pure parts of the Page Agent API, without a browser: codes, strict JSON, post checks, threads."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from cdpagent.cdp.pagescripts import source as source_of
from cdpagent.cdp.surrogates import replace_lone_surrogates
from cdpagent.runtime import Notification, PageApi, PageApiError, Thread
from cdpagent.runtime.codes import refusal
from cdpagent.runtime.jsonstrict import (
    MAX_DEPTH,
    MAX_SAFE_INTEGER,
    args_from_json,
    check_args,
    decode_page_json,
    encode_args,
)
from cdpagent.runtime.notify import POST_MAX_CHARS, PostCall, Sender, check_notify, parse_post
from cdpagent.runtime.pageapi import RESULT_MAX_CHARS, origin_of, shim_source

LOCAL = Sender(tab_id="tab1", frame_id="F", url="file:///x.html", main_frame=True, local=True)


def args_error(args: Any) -> str:
    with pytest.raises(PageApiError) as caught:
        check_args(args)
    assert caught.value.code == "PAGE_API_ARGS_INVALID"
    return caught.value.message


def test_pa4_args_strict_json_paths() -> None:
    assert check_args(None) == {}
    assert encode_args(None) == "{}"
    assert encode_args({"a": [1, 2.5, None, True, "x"]}) == '{"a":[1,2.5,null,true,"x"]}'
    assert "got an array" in args_error([1])
    assert "got a string" in args_error("s")
    assert "$.a[1].b is NaN" in args_error({"a": [0, {"b": float("nan")}]})
    assert "$.x is -Infinity" in args_error({"x": float("-inf")})
    assert "$.n is an integer outside" in args_error({"n": MAX_SAFE_INTEGER + 1})
    assert '$["a b"] is a tuple' in args_error({"a b": (1,)})
    assert "non-string key" in args_error({"a": {1: 2}})
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    assert "nested deeper" in args_error(cyclic)


def test_pa4_args_from_json_text() -> None:
    assert args_from_json('{"a": 1}') == {"a": 1}
    for text in ('{"a": NaN}', '{"a": Infinity}', "[]", "null", '"x"', "{", "1e400"):
        with pytest.raises(PageApiError) as caught:
            args_from_json(text)
        assert caught.value.code == "PAGE_API_ARGS_INVALID", text


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.text(), json_values, max_size=5))
def test_pa4_strict_json_accepts_every_json_object(value: dict[str, Any]) -> None:
    assert check_args(value) is value
    assert args_from_json(encode_args(value)) == value


def test_pa4_error_envelope_carries_the_code() -> None:
    error = PageApiError("PAGE_API_METHOD_FAILED", "boom")
    assert str(error) == "PAGE_API_METHOD_FAILED: boom"
    assert error.envelope() == refusal("PAGE_API_METHOD_FAILED", "boom")
    assert error.envelope() == {"ok": False, "error": {"code": "PAGE_API_METHOD_FAILED", "message": "boom"}}


def test_pa6_parse_post_is_strict() -> None:
    assert parse_post('[1,"thread_notify",{"message":"hi"}]') == PostCall(
        1, "thread_notify", {"message": "hi"}
    )
    for bad in (
        None,
        5,
        "",
        "nope",
        "[]",
        "[1,2]",
        '[0,"t",{}]',
        '["1","t",{}]',
        '[1,"t",{},4]',
        "x" * 70000,
    ):
        assert parse_post(bad) is None, bad


def code_of(decision: str | dict[str, Any]) -> str:
    assert isinstance(decision, dict)
    return str(decision["error"]["code"])


def test_pa5_check_notify_decisions() -> None:
    ok = PostCall(1, "thread_notify", {"message": "hi"})
    assert check_notify(ok, LOCAL, owned=True) == "hi"
    assert code_of(check_notify(ok, LOCAL, owned=False)) == "THREAD_NOTIFY_NOT_ALLOWED"
    external = Sender("tab1", "F", "https://example.com/", main_frame=True, local=False)
    assert code_of(check_notify(ok, external, owned=True)) == "THREAD_NOTIFY_NOT_ALLOWED"
    child = Sender("tab1", "C", "file:///child.html", main_frame=False, local=True)
    assert code_of(check_notify(ok, child, owned=True)) == "THREAD_NOTIFY_NOT_ALLOWED"
    assert code_of(check_notify(PostCall(1, "other", {}), LOCAL, owned=True)) == "PAGE_API_UNKNOWN_TOPIC"
    for payload in (
        {"message": ""},
        {"message": 1},
        {},
        None,
        {"message": "a", "tabId": "x"},
        {"message": "中" * 2731},
    ):
        assert code_of(check_notify(PostCall(1, "thread_notify", payload), LOCAL, owned=True)) == (
            "THREAD_NOTIFY_BAD_MESSAGE"
        ), payload
    assert check_notify(PostCall(1, "thread_notify", {"message": "中" * 2730 + "ab"}), LOCAL, owned=True)


def test_pa5_lone_surrogates_are_replaced_and_refused() -> None:
    # JSON.stringify escapes a lone surrogate; msgspec alone refuses such text.
    call = parse_post('[7,"thread_notify",{"message":"half \\ud83d"}]')
    assert call == PostCall(7, "thread_notify", {"message": "half \ufffd"}, replaced=True)
    assert code_of(check_notify(call, LOCAL, owned=True)) == "THREAD_NOTIFY_BAD_MESSAGE"
    # A surrogate pair is one character, and fine.
    assert parse_post('[8,"thread_notify",{"message":"\\ud83c\\udf89"}]') == PostCall(
        8, "thread_notify", {"message": "🎉"}
    )
    value, replaced = decode_page_json('{"k\\udc00":["\\ud800x",1,null]}')
    assert (value, replaced) == ({"k\ufffd": ["\ufffdx", 1, None]}, True)
    assert decode_page_json('{"ok":true}') == ({"ok": True}, False)
    for bad in ('{"x": NaN}', "[1,", '"\\ud800'):
        with pytest.raises(msgspec.DecodeError):
            decode_page_json(bad)


def test_pa6_replace_lone_surrogates_keeps_pairs_and_escaped_backslashes() -> None:
    cases = {
        rb'"\ud800"': rb'"\ufffd"',
        rb'"\uDC00\uD800x"': rb'"\ufffd\ufffdx"',
        rb'"\ud83c\udf89"': rb'"\ud83c\udf89"',
        rb'"\\ud800"': rb'"\\ud800"',
        rb'"\\\ud800"': rb'"\\\ufffd"',
        rb'"\ud83d\ud83c\udf89"': rb'"\ufffd\ud83c\udf89"',
        rb'{"ok":true}': rb'{"ok":true}',
    }
    for data, expected in cases.items():
        assert replace_lone_surrogates(data) == expected, data
        assert msgspec.json.decode(expected) is not None


def test_pa1_origins_and_shim_config() -> None:
    assert origin_of("http://127.0.0.1:8000/x?y") == "http://127.0.0.1:8000"
    assert origin_of("HTTP://LOCALHOST:80/") == "http://localhost"
    assert origin_of("https://[::1]:443/") == "https://[::1]"
    assert origin_of("file:///x") == "" and origin_of("about:blank") == ""
    api = PageApi(["http://127.0.0.1:8000/"])
    assert api.is_local("file:///tmp/a.html")
    assert api.is_local("http://127.0.0.1:8000/page")
    assert not api.is_local("http://127.0.0.1:8001/page")
    assert not api.is_local("https://127.0.0.1:8000/page")
    with pytest.raises(ValueError):
        PageApi(["file:///x"])
    config = {"binding": "b", "entry": "e", "key": "k", "origins": [], "resultMax": 1, "postMax": 1}
    source = shim_source(config)
    assert "__AGOTALK_CONFIG__" not in source.splitlines()[-1]
    assert source.rstrip().endswith(
        '({"binding":"b","entry":"e","key":"k","origins":[],"resultMax":1,"postMax":1});'
    )
    assert api.binding not in PageApi().source
    # Values the shim shares with Python come from Python; the script spells none of them.
    assert f'"postMax":{POST_MAX_CHARS},"maxDepth":{MAX_DEPTH},' in api.source
    assert '"PAGE_API_RESULT_NOT_JSON":"PAGE_API_RESULT_NOT_JSON"' in api.source
    script = source_of("agotalk.js")
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("//"))
    assert not re.search(r"[\"'](PAGE_API|THREAD_NOTIFY)_", code)
    assert str(POST_MAX_CHARS) not in code and str(RESULT_MAX_CHARS) not in code


class _FakeTab:
    def __init__(self, tab_id: str) -> None:
        self.id = tab_id


class _FakeBrowser:
    """Just enough of a Browser for a Thread's queue (tabs are only ids)."""

    def __init__(self, *tab_ids: str) -> None:
        self.extensions = [PageApi()]
        self.tabs: list[Any] = [_FakeTab(tab_id) for tab_id in tab_ids]


def sender(tab_id: str) -> Sender:
    return Sender(tab_id=tab_id, frame_id="F", url=f"file:///{tab_id}.html", main_frame=True, local=True)


async def test_pa5_thread_queue_is_bounded() -> None:
    thread: Thread[Any] = Thread(_FakeBrowser(), queue_size=2)  # type: ignore[arg-type]
    first = thread.deliver(LOCAL, "a")
    assert first == {"ok": True, "data": {"disposition": "queued", "deliveryId": f"{thread.id}-1"}}
    assert thread.deliver(LOCAL, "b")["ok"] is True
    assert code_of(thread.deliver(LOCAL, "c")) == "THREAD_NOTIFY_QUEUE_FULL"
    with trio.fail_after(1):
        note = await thread.receive()
    assert note == Notification("tab1", "a", f"{thread.id}-1", "F", "file:///x.html")
    assert thread.deliver(LOCAL, "d")["ok"] is True
    thread.close()
    assert code_of(thread.deliver(LOCAL, "e")) == "THREAD_NOTIFY_DELIVERY_FAILED"
    assert [(n.message[:27], n.refused) async for n in thread] == [
        ("b", 0),
        ("1 notification refused from", 1),
        ("d", 0),
    ]
    assert Thread(_FakeBrowser()).id == "thread1"  # type: ignore[arg-type]


async def test_pa5_fair_share_and_one_coalesced_refusal_notice() -> None:
    browser = _FakeBrowser("A", "B", "C")
    thread: Thread[Any] = Thread(browser, queue_size=7)  # type: ignore[arg-type]
    for tab in browser.tabs:
        thread.adopt(tab)
    # Three tabs share 7 slots: 2 each; A's burst cannot take B's or C's.
    answers = [thread.deliver(sender("A"), f"a{i}") for i in range(1000)]
    assert [a["ok"] for a in answers[:3]] == [True, True, False]
    assert {code_of(a) for a in answers[2:]} == {"THREAD_NOTIFY_QUEUE_FULL"}
    assert thread.deliver(sender("B"), "b0")["ok"] is True
    assert thread.deliver(sender("C"), "c0")["ok"] is True
    notes = thread.drain()
    assert [(n.tab_id, n.refused) for n in notes] == [("A", 0), ("A", 0), ("A", 998), ("B", 0), ("C", 0)]
    notice = notes[2]
    assert notice.message.startswith("998 notifications refused from tab A (THREAD_NOTIFY_QUEUE_FULL")
    assert notice.url == "file:///A.html" and notice.delivery_id == f"{thread.id}-3"
    # Reading frees the share; new refusals start a new notice.
    assert thread.deliver(sender("A"), "again")["ok"] is True
    assert thread.deliver(sender("A"), "again")["ok"] is True
    assert code_of(thread.deliver(sender("A"), "over")) == "THREAD_NOTIFY_QUEUE_FULL"
    assert [(n.message, n.refused) for n in thread.drain()][-1][1] == 1
    # With one open tab, that tab may use the whole queue.
    alone: Thread[Any] = Thread(_FakeBrowser("A"), queue_size=3)  # type: ignore[arg-type]
    alone.adopt(_FakeTab("A"))  # type: ignore[arg-type]
    assert [alone.deliver(sender("A"), "x")["ok"] for _ in range(4)] == [True, True, True, False]
