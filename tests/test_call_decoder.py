"""``call_function`` of cdpagent.cdp.world, the one caller of page functions, on what Chromium
answers: values, promises and throws, recorded (tests/recorded_cdp.py)."""

from __future__ import annotations

import pytest

import cdpagent
from cdpagent import PageFunctionError
from cdpagent.lowlevel import call_function


async def test_values_come_back_by_value_and_throws_say_what_was_thrown(
    recorded_browser: cdpagent.Browser,
) -> None:
    tab = await recorded_browser.open("about:blank")
    context = await tab.context_id()
    function = "function (a, b) { return {sum: a + b, list: [a, b], none: null}; }"
    value = await call_function(tab.session, function, 2, 3, context=context)
    assert value == {"sum": 5, "list": [2, 3], "none": None}
    awaited = await call_function(
        tab.session, "function (a) { return Promise.resolve([a]); }", "x", context=context, await_promise=True
    )
    assert awaited == ["x"]
    with pytest.raises(PageFunctionError) as error:
        throw = "function () { throw new TypeError('bad\\nsecond line'); }"
        await call_function(tab.session, throw, context=context)
    assert error.value.text == "TypeError: bad"
    with pytest.raises(PageFunctionError) as thrown:
        await call_function(tab.session, "function () { throw 'a thrown string'; }", context=context)
    assert thrown.value.text == "a thrown string"
