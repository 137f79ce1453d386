"""DR-5: calls with a deadline fail with CallTimeout at the deadline and leave nothing behind."""

from __future__ import annotations

from functools import partial

import pytest
import trio

import cdpagent
from cdpagent.errors import CallTimeout


async def test_dr5_deadline_expires_a_pending_call_and_drops_its_late_reply(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open("about:blank")
    core = browser.connection.core
    session_id = tab.session.session_id
    started = trio.current_time()
    with trio.fail_after(10), pytest.raises(CallTimeout):
        await tab.session.send(
            "Runtime.evaluate",
            {"expression": "new Promise(r => setTimeout(() => r(1), 400))", "awaitPromise": True},
            deadline=started + 0.1,
        )
    assert core.pending_on(session_id) == 0
    dropped = core.dropped
    # Resolves after the expired call's promise, so its late reply has come and gone.
    await tab.session.send(
        "Runtime.evaluate",
        {"expression": "new Promise(r => setTimeout(() => r(2), 600))", "awaitPromise": True},
    )
    assert core.dropped == dropped + 1


async def test_dr5_earlier_deadline_wakes_the_watcher(browser: cdpagent.Browser) -> None:
    """A call with a later deadline is pending; a new, earlier one still expires on time."""
    tab = await browser.open("about:blank")
    never = {"expression": "new Promise(() => {})", "awaitPromise": True}
    now = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(tab.session.send, "Runtime.evaluate", never, deadline=now + 60))
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
        with trio.fail_after(5), pytest.raises(CallTimeout):
            await tab.session.send("Runtime.evaluate", never, deadline=now + 0.1)
        nursery.cancel_scope.cancel()


async def test_dr5_a_deadline_after_a_finished_earlier_one_still_expires(browser: cdpagent.Browser) -> None:
    """The watcher sleeps until the earliest deadline it was told of; when that call has
    finished by then, the next deadline must still fire."""
    tab = await browser.open("about:blank")
    never = {"expression": "new Promise(() => {})", "awaitPromise": True}
    now = trio.current_time()
    await tab.session.send("Runtime.evaluate", {"expression": "1"}, deadline=now + 0.2)
    with trio.fail_after(5), pytest.raises(CallTimeout):
        await tab.session.send("Runtime.evaluate", never, deadline=now + 0.5)
    with trio.fail_after(5), pytest.raises(CallTimeout):
        await tab.session.send("Runtime.evaluate", never, deadline=trio.current_time() + 0.1)
