"""The tab's state machine (:mod:`cdpagent.cdp.tabstate`) fed CDP events on a fake target (DR-7, issue 21).

A real :class:`cdpagent.Tab` runs over a :class:`~fake_target.FakeSession`: the test feeds
the events Chromium sends (a dialog opening or closing, a renderer crash and its reload)
in CDP's own shapes, and the session fails the test on any command the tab was not
expected to send. So each row of the module's table is checked end to end — decision,
what the tab sends, what it refuses — in milliseconds, without a browser. What Chromium
itself does on a crash or a dialog is tested against Chromium
(``tests/test_failures_across_surfaces.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import trio
import trio.testing
from fake_target import FakeSession, Step, call_step, load, replay_tab, with_steps

import cdpagent
from cdpagent.act.roundtrip import ActTimings, Hooks, Trip
from cdpagent.cdp import tabstate
from cdpagent.cdp.dialogs import ACCEPT, DISMISS, LEAVE_NOTICE, JavaScriptDialog
from cdpagent.cdp.failures import failure
from cdpagent.cdp.tabstate import Decision
from cdpagent.cdp.target import ACT_EVENTS
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.receipts import ActionRef

Replay = Callable[[list[Step]], tuple[cdpagent.Tab, FakeSession]]


@pytest.fixture
async def replay() -> AsyncIterator[Replay]:
    """A replayed editor tab whose session continues with the given steps."""
    async with trio.open_nursery() as nursery:
        yield lambda steps: replay_tab(nursery, with_steps(load("invoke_editor"), steps))
        nursery.cancel_scope.cancel()


def _dialog(kind: str, message: str = "sure?") -> Step:
    return {
        "event": "Page.javascriptDialogOpening",
        "params": {"url": "file:///editor", "message": message, "type": kind, "hasBrowserHandler": False,
                   "defaultPrompt": ""},
    }


async def _feed(tab: cdpagent.Tab, predicate: Callable[[], bool] | None = None) -> None:
    """Send the marker command; the events after its answer arrive; wait until ``predicate``
    holds (or, without one, until every task — the tab's own replies included — is blocked)."""
    await tab.session.send("Runtime.evaluate", {"expression": "1"})
    if predicate is None:
        await trio.testing.wait_all_tasks_blocked()
    else:
        await tab.wait_until(predicate, timeout=5)


async def _refused(tab: cdpagent.Tab, session: FakeSession) -> dict[str, Any]:
    """The codes invoke and act are refused with, checking that neither sent anything."""
    sent = len(session.sent)
    with pytest.raises(cdpagent.PageApiError) as caught:
        await tab.invoke("read_current")
    receipt = await tab.act("toggle", record="t1")
    assert len(session.sent) == sent, "refused by the tab before anything was sent"
    return {"invoke": caught.value.code, "act": receipt.code}


async def test_dr7_a_beforeunload_dialog_is_accepted_at_once_and_noted(replay: Replay) -> None:
    steps = [
        *call_step("Runtime.evaluate"),
        _dialog("beforeunload", ""),
        *call_step("Page.handleJavaScriptDialog"),
    ]
    tab, session = replay(steps)
    with trio.fail_after(5):
        await _feed(tab)
    assert session.params[-1] == {"accept": True}
    assert tab.dialog is None  # never the tab's dialog: the navigation goes ahead
    assert tab.take_notices() == [LEAVE_NOTICE]


async def test_dr7_an_alert_while_an_action_delivers_input_stays_open_for_the_agent(replay: Replay) -> None:
    steps = [*call_step("Runtime.evaluate"), _dialog("confirm", "delete?"), *call_step("Runtime.evaluate")]
    tab, session = replay(steps)
    trip = Trip(tab, ActionRef("delete"), Hooks(), ObserveOptions(), ActTimings(), trio.current_time() + 5)
    tab.acting = trip.handlers()
    with trio.fail_after(5):
        await _feed(tab, lambda: tab.dialog is not None)
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
    assert "Page.handleJavaScriptDialog" not in session.sent  # nobody answered it: the agent will
    assert trip.asked is not None and trip.asked.message == "delete?"  # the act's receipt says so
    assert trip.dialogs == []


async def test_dr7_an_alert_while_an_unattended_action_delivers_input_is_dismissed(replay: Replay) -> None:
    alert = _dialog("alert", "saved")
    steps = [*call_step("Runtime.evaluate"), alert, *call_step("Page.handleJavaScriptDialog")]
    tab, session = replay(steps)
    hooks = Hooks(unattended=True)
    trip = Trip(tab, ActionRef("save"), hooks, ObserveOptions(), ActTimings(), trio.current_time() + 5)
    # What the round trip sets while it delivers input: its handlers of every event the tab
    # hands an act.
    tab.acting = trip.handlers()
    assert set(tab.acting) == set(ACT_EVENTS)
    with trio.fail_after(5):
        await _feed(tab)
    assert session.params[-1] == {"accept": False}
    assert tab.dialog is None
    assert trip.dialogs == ["saved"]  # the tab handed the event to the act: its receipt says so


async def test_dr7_a_confirm_at_rest_is_kept_refuses_calls_and_closes_with_its_event(replay: Replay) -> None:
    steps = [
        *call_step("Runtime.evaluate"),
        _dialog("confirm"),
        *call_step("Runtime.evaluate"),
        {"event": "Page.javascriptDialogClosed", "params": {"result": False, "userInput": ""}},
        *call_step("Runtime.evaluate"),
    ]
    tab, session = replay(steps)
    with trio.fail_after(5):
        await _feed(tab, lambda: tab.dialog is not None)
        assert tab.dialog is not None and tab.dialog.type == "confirm" and tab.dialog.message == "sure?"
        row = failure("open dialog")
        assert await _refused(tab, session) == {"invoke": row.invoke, "act": row.code}
        await _feed(tab, lambda: tab.dialog is None)  # closed by the page or a person
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
    assert "Page.handleJavaScriptDialog" not in session.sent  # kept: nobody resolved it but its closer


async def test_dr7_a_crashed_tab_refuses_every_call_until_it_is_reloaded(replay: Replay) -> None:
    steps = [
        *call_step("Runtime.evaluate"),
        {"event": "Inspector.targetCrashed", "params": {}},
        *call_step("Runtime.evaluate"),
        {"event": "Inspector.targetReloadedAfterCrash", "params": {}},
        *call_step("Runtime.evaluate"),
    ]
    tab, session = replay(steps)
    with trio.fail_after(5):
        await _feed(tab, lambda: tab.crashed)
        row = failure("crash")
        assert await _refused(tab, session) == {"invoke": row.invoke, "act": row.code}
        await _feed(tab, lambda: not tab.crashed)
        await tab.session.send("Runtime.evaluate", {"expression": "1"})


async def test_dr7_a_closed_tab_refuses_every_call_before_sending(replay: Replay) -> None:
    tab, session = replay([])
    tab._mark_closed()  # what the browser's Target.detachedFromTarget does
    row = failure("closed tab")
    with trio.fail_after(5):
        assert await _refused(tab, session) == {"invoke": row.invoke, "act": row.code}


# -- the table itself ------------------------------------------------------------------------


def test_dr7_every_call_has_a_decision_for_every_state_of_the_tab() -> None:
    calls = ("invoke", "act", ACCEPT, DISMISS, tabstate.INPUT_AT, "observe")
    states = (tabstate.CLOSED, tabstate.CRASHED, tabstate.ALERT_OPEN, tabstate.DIALOG_OPEN, tabstate.READY)
    table = tabstate.DECISIONS
    assert {(call, state) for call in calls for state in states} <= set(table)
    # Closed and crashed tabs serve nothing; a ready tab serves everything.
    for call in calls:
        assert table[call, tabstate.CLOSED] is Decision.REFUSE_CLOSED
        assert table[call, tabstate.CRASHED] is Decision.REFUSE_CRASHED
        assert table[call, tabstate.READY] is Decision.SERVE


def test_dr7_a_dialogs_actions_are_those_the_table_answers_with() -> None:
    alert, confirm, prompt = (JavaScriptDialog(kind, "m") for kind in ("alert", "confirm", "prompt"))
    assert tabstate.dialog_actions(alert) == [ACCEPT]  # an alert has only OK
    assert tabstate.dialog_actions(confirm) == tabstate.dialog_actions(prompt) == [ACCEPT, DISMISS]


def test_br2_a_popup_is_kept_until_its_family_is_full() -> None:
    assert tabstate.on_popup(0) is tabstate.on_popup(tabstate.MAX_POPUPS - 1) is Decision.KEEP_POPUP
    assert tabstate.on_popup(tabstate.MAX_POPUPS) is Decision.REFUSE_POPUP


async def test_dr7_observe_on_a_crashed_or_closed_tab_is_refused_before_sending(replay: Replay) -> None:
    steps = [*call_step("Runtime.evaluate"), {"event": "Inspector.targetCrashed", "params": {}}]
    tab, session = replay(steps)
    with trio.fail_after(5):
        await _feed(tab, lambda: tab.crashed)
        sent = len(session.sent)
        with pytest.raises(cdpagent.TargetCrashed):
            await tab.observe()
        tab._mark_closed()
        with pytest.raises(cdpagent.SessionClosed) as closed:
            await tab.observe()
    assert not isinstance(closed.value, cdpagent.TargetCrashed)
    assert len(session.sent) == sent


async def test_dr7_observe_while_an_alert_is_open_shows_it_with_ok_only(replay: Replay) -> None:
    steps = [*call_step("Runtime.evaluate"), _dialog("alert", "saved")]
    tab, session = replay(steps)
    browser = tab.browser
    info = {"targetInfo": {"title": "Editor"}}

    async def send(method: str, params: Any = None) -> Any:
        assert method == "Target.getTargetInfo"
        return info

    browser.send = send  # type: ignore[method-assign]
    with trio.fail_after(5):
        await _feed(tab, lambda: tab.dialog is not None)
        sent = len(session.sent)
        observation = await tab.observe()
    assert len(session.sent) == sent  # nothing runs in a page a dialog blocks
    assert observation.modal == "JavaScript alert"
    assert [a.name for a in observation.actions] == [ACCEPT]
