"""The cores on a fake ``Target`` replaying recorded CDP sessions: no browser (issue 21).

The recordings (``tests/record_session.py``) hold every command the cores sent and the
browser's answers; the replay fails when the cores send anything else. Observe (settle,
collect, budget, render), act (resolution, input, receipts and their diff), invoke and
the tab's dialog decisions then run in milliseconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import msgspec
import pytest
import trio
from fake_target import FakeSession, load, replay_tab

import cdpagent
from cdpagent.snapshot.observe import observe_page


@pytest.fixture
async def replay() -> AsyncIterator[Callable[[str], tuple[cdpagent.Tab, FakeSession]]]:
    async with trio.open_nursery() as nursery:
        yield lambda name: replay_tab(nursery, load(name))
        nursery.cancel_scope.cancel()


def _finished(session: FakeSession) -> None:
    """Every recorded command was sent (the last is the recorder's own round trip)."""
    left = [s for s in session.steps if "event" not in s]
    assert [s.get("send") or s.get("call") for s in left] == ["Runtime.evaluate", "Runtime.evaluate"]


async def test_ob1_observe_on_a_recorded_session_renders_what_the_browser_gave(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    recording = load("observe_todos")
    tab, session = replay("observe_todos")
    with trio.fail_after(5):
        result = msgspec.to_builtins(await observe_page(tab))
    assert result["text"] == recording["result"]["text"]
    assert result["tools"] == recording["result"]["tools"]
    assert "## Available actions on this page" in result["text"]
    _finished(session)


async def test_ob8_act_on_a_recorded_session_gives_the_recorded_receipt(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    recording = load("act_todos")
    tab, session = replay("act_todos")
    with trio.fail_after(5):
        receipt = (await tab.act("toggle", record="t9")).to_builtins()
    assert receipt == recording["result"]
    assert receipt["result"]["changed"]["records"]["changed"]["t9"]["done"] == {
        "before": False,
        "after": True,
    }
    assert session.sent.count("Input.dispatchMouseEvent") == 3  # move, press, release
    _finished(session)


async def test_pa4_invoke_on_a_recorded_session_is_one_call(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    recording = load("invoke_editor")
    tab, session = replay("invoke_editor")
    with trio.fail_after(5):
        assert await tab.invoke("read_current") == recording["result"]
    assert session.sent[-1] == "Runtime.callFunctionOn"
    _finished(session)


async def test_dr7_the_tab_keeps_a_timer_dialog_refuses_invoke_and_acts_on_the_dialog(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    """The tab state machine fed the recorded events: the dialog is kept (no action was
    running), invoke is refused before anything is sent, accept_dialog resolves it."""
    recording = load("dialog_editor")
    tab, session = replay("dialog_editor")
    with trio.fail_after(5):
        await tab.session.send("Runtime.evaluate", {"expression": "..."})
        await tab.wait_until(lambda: tab.dialog is not None, timeout=5)
        assert tab.dialog is not None and tab.dialog.type == "alert" and tab.dialog.message == "saved?"
        sent = len(session.sent)
        with pytest.raises(cdpagent.PageApiError) as caught:
            await tab.invoke("read_current")
        assert caught.value.code == recording["result"]["refused"] == "PAGE_API_DIALOG_OPEN"
        assert len(session.sent) == sent  # refused by the tab, not by the page
        receipt = (await tab.act("accept_dialog")).to_builtins()
    assert receipt == recording["result"]["receipt"]
    assert session.sent[-1] == "Page.handleJavaScriptDialog"
    assert tab.dialog is None
    _finished(session)
