"""The cores on a fake ``Target`` replaying recorded CDP sessions: no browser (issue 21).

The recordings (``tests/record_session.py``) hold every command the cores sent and the
browser's answers; the replay fails when the cores send anything else. Observe (settle,
collect, budget, render), act (resolution, input, receipts and their diff), invoke and
the tab's dialog decisions then run in milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
import pytest
import trio
from fake_target import FakeSession, load, replay_tab

import cdpagent
from cdpagent.act.inputs import ActArgs
from cdpagent.act.perform import act
from cdpagent.agent import Agent, generic_role
from cdpagent.agent.loop import ToolRecord
from cdpagent.agent.roles import MethodDoc
from cdpagent.ops.script import STEPS, ScriptContext, act_step
from cdpagent.snapshot import ObserveOptions, build, tools_json
from cdpagent.snapshot.model import Snapshot
from cdpagent.snapshot.observe import collect_snapshot, observe_page
from cdpagent.snapshot.render import measure


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


# -- budget and render on a recorded snapshot ---------------------------------------------


async def _snapshot(replay: Callable[..., tuple[cdpagent.Tab, FakeSession]]) -> Snapshot:
    tab, _ = replay("observe_todos")
    with trio.fail_after(5):
        snapshot, _report = await collect_snapshot(tab, ObserveOptions())
    return snapshot


def _lines_between(text: str, heading: str) -> list[str]:
    """The lines of the section that starts with ``heading`` (up to the next ``##``)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), len(lines)) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


async def test_ob3_budgets_on_a_recorded_page_bound_the_text_and_count_what_they_left_out(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    snapshot = await _snapshot(replay)
    opts = ObserveOptions(max_records=2, max_actions=1, max_total_chars=2500)
    obs, text, tools = build(snapshot, opts)
    assert len(text) + len(tools_json(tools)) <= opts.max_total_chars
    om = obs.omitted
    assert om.records_total == len(snapshot.record_index.ids) > om.records_shown == len(obs.records) <= 2
    assert f"({om.records_total - om.records_shown} more records not shown in full" in text
    assert om.action_entries_shown == len(obs.actions) == 1 < om.action_entries
    assert f"({om.action_entries - om.action_entries_shown} more action entries not listed" in text


async def test_ob3_options_change_the_budgets(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    """Moved from tests/test_observation_browser.py: the same todos page, recorded."""
    _, text, tools = build(await _snapshot(replay), ObserveOptions(max_records=1, max_actions=2))
    assert "(12 total, showing 1)" in text
    assert "(1 more action entries not listed" in text
    assert len(tools) == 2


async def test_ob3_the_action_budget_measures_the_lines_as_they_are_rendered(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    """The action lines shown fit ``max_action_chars`` whatever the description and field
    bounds: the budget asks the renderer for the sizes of the very lines it shows (before,
    it measured lines cut at ``max_description_chars`` and the text cut them at
    ``max_field_chars``, so short descriptions let longer lines through)."""
    snapshot = await _snapshot(replay)
    long_descriptions = [
        msgspec.structs.replace(a, description=a.description + " because" * 30) for a in snapshot.actions
    ]
    snapshot = msgspec.structs.replace(snapshot, actions=long_descriptions)
    opts = ObserveOptions(max_description_chars=40, max_field_chars=400, max_action_chars=600)
    obs, text, _ = build(snapshot, opts)
    shown = [line for line in _lines_between(text, "## Available actions") if line.startswith("- ")]
    shown += [line for line in _lines_between(text, "## Unavailable actions") if line.startswith("- ")]
    assert len(shown) == len(obs.actions) > 0
    assert sum(len(line) + 1 for line in shown) <= opts.max_action_chars
    sizes = measure(actions=obs.actions, description_chars=opts.max_description_chars)
    assert sizes.actions == [len(line) + 1 for line in shown]


async def test_ob1_a_collector_that_throws_is_collect_failed(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    """The collector's reply decoded by target.call_function, the one decoder (issue 21)."""
    recording = load("observe_todos")
    collect = next(
        s for s in recording["steps"]
        if s.get("call") == "Runtime.callFunctionOn" and isinstance(s["result"]["result"].get("value"), list)
    )
    collect["result"] = {
        "result": {"type": "object", "subtype": "error"},
        "exceptionDetails": {
            "text": "Uncaught",
            "exception": {"description": "TypeError: boom\n    at collect"},
        },
    }
    async with trio.open_nursery() as nursery:
        tab, _ = replay_tab(nursery, recording)
        with trio.fail_after(5), pytest.raises(cdpagent.ObservationError) as caught:
            await observe_page(tab)
        nursery.cancel_scope.cancel()
    assert (caught.value.code, caught.value.message) == ("COLLECT_FAILED", "TypeError: boom")


# -- receipts -------------------------------------------------------------------------------


async def test_ob8_a_recorded_receipt_is_bounded_by_its_options(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    """The receipt diff over the recorded before/after snapshots, with a record budget of
    none: the change is counted in ``omitted``, not listed, and still observed."""
    tab, session = replay("act_todos")
    with trio.fail_after(5):
        args = ActArgs(action="toggle", record="t9")
        receipt = (await act(tab, args, options=ObserveOptions(max_records=0))).to_builtins()
    changed = receipt["result"]["changed"]
    assert receipt["result"]["ok"] is True and changed["observed"] is True
    assert "changed" not in changed.get("records", {})
    assert changed["omitted"]["records_changed"] == 1
    _finished(session)


# -- operations: one decode, the same result on every surface ------------------------------


async def test_an_act_step_decodes_once_and_refuses_a_bad_argument_before_sending(
    replay: Callable[..., tuple[cdpagent.Tab, FakeSession]],
) -> None:
    recording = load("act_todos")
    tab, session = replay("act_todos")
    with trio.fail_after(5):
        bad = await act_step(tab, {"op": "act", "action": "toggle", "record": 9})
        assert session.sent == []  # refused by the operation's decoder: nothing reached the page
        good = await act_step(tab, {"op": "act", "action": "toggle", "record": "t9"})
    assert bad["receipt"]["result"]["error"]["code"] == "INVALID_ARGUMENT"
    assert "record" in bad["receipt"]["result"]["error"]["message"]
    assert good == {"op": "act", "receipt": recording["result"]}
    _finished(session)


REFUSAL = {"ok": False, "error": {"code": "STALE_STATE", "message": "the document changed"}}


def _refusing(recording: dict[str, Any]) -> dict[str, Any]:
    """``invoke_editor`` where the page's method answers with a domain refusal."""
    reply = next(s for s in recording["steps"] if s.get("call") == "Runtime.callFunctionOn")
    reply["result"]["result"]["value"] = json.dumps({"ok": True, "value": REFUSAL})
    return recording


async def test_pa4_a_domain_refusal_is_a_success_from_python_script_and_the_agent() -> None:
    """The page's ``{"ok": false, "error": {"code": "STALE_STATE"}}`` is the method's value on
    every surface (cdpagent.cdp.failures, rule 3); the MCP tool is checked against Chromium
    (test_mcp_server::test_sf3_*: ``stale["value"]``, not a tool error)."""
    results: dict[str, Any] = {}
    async with trio.open_nursery() as nursery:
        tab, _ = replay_tab(nursery, _refusing(load("invoke_editor")))
        with trio.fail_after(5):
            results["Tab.invoke"] = await tab.invoke("read_current")
        tab, _ = replay_tab(nursery, _refusing(load("invoke_editor")))
        with trio.fail_after(5):
            step = await STEPS["invoke"](ScriptContext(tab, None), {"op": "invoke", "method": "read_current"})
        assert set(step) == {"op", "result"}  # a result, not a failure envelope
        results["script"] = step["result"]
        tab, _ = replay_tab(nursery, _refusing(load("invoke_editor")))
        role = msgspec.structs.replace(
            generic_role("editor"), methods=[MethodDoc("read_current", "read", "the document", "{}")]
        )
        agent = Agent(tab.browser, None, role)  # type: ignore[arg-type]  # no model: one tool call
        agent.thread.adopt(tab)
        arguments = json.dumps({"tabId": tab.id, "method": "read_current"})
        def record(value: Any, ok: bool) -> ToolRecord:
            return ToolRecord("c1", "invoke_page_method", arguments, value, ok)

        with trio.fail_after(5):
            done = await agent._invoke(json.loads(arguments), record)
        assert done.ok is True
        results["agent"] = done.result
        nursery.cancel_scope.cancel()
    assert results == {"Tab.invoke": REFUSAL, "script": REFUSAL, "agent": REFUSAL}
