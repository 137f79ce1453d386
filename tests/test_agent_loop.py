"""The agent end to end (SPEC CX-1, CX-5): the scripted loopback model, and the browser's side
from recorded CDP connections (tests/recorded_cdp.py: every command the agent's turns send is
checked against the recording, parameters included; ``CDPAGENT_RECORD=1`` records them again
against Chromium). ``cdpagent chat`` against real Chromium is tests/test_agent_cli.py.

Every request the scripted model receives is validated against OpenAI's
``CreateChatCompletionRequest`` schema (``ScriptedModel.checked_requests``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio
from conftest import EXAMPLES, PAGES, evaluate
from scripted_model import Reply, ScriptedModel, answer, calls

import cdpagent
from cdpagent.act.perform import ConfirmRequest
from cdpagent.agent import (
    RULES,
    STEP_LIMIT,
    SUMMARY_HEADER,
    Agent,
    Budgets,
    Model,
    estimate_tokens,
    generic_role,
    load_role,
)
from cdpagent.agent import codes as agent_codes
from cdpagent.agent.request import MAX_SYSTEM_AND_TOOLS_CHARS
from cdpagent.agent.tokens import messages_tokens
from cdpagent.ops.harness import user_click, user_type
from cdpagent.snapshot import codes as action_codes

ROLES = Path(__file__).resolve().parent.parent / "cdpagent" / "agent" / "roles"
PAGE_MARKERS = ("## Current location", "## Available actions on this page", "Citation record ids")


def tool_result(body: dict[str, Any], index: int = -1) -> Any:
    """The decoded content of a tool message of ``body`` (the last one by default)."""
    tools = [m for m in body["messages"] if m["role"] == "tool"]
    return json.loads(tools[index]["content"])


def assert_page_only_in_system(requests: list[dict[str, Any]]) -> None:
    """CX-1: the observation is in the one system message, never in user/assistant/tool messages,
    and system message plus tools stay within their character bound."""
    for body in requests:
        system = [m for m in body["messages"] if m["role"] == "system"]
        assert len(system) == 1 and body["messages"][0] is system[0]
        assert system[0]["content"].count("## Current location") == 1
        for message in body["messages"][1:]:
            text = message.get("content") or ""
            assert not any(marker in text for marker in PAGE_MARKERS), message
        tools = json.dumps(body.get("tools", []), ensure_ascii=False, separators=(",", ":"))
        assert len(system[0]["content"]) + len(tools) <= MAX_SYSTEM_AND_TOOLS_CHARS


async def test_cx1_cx5_seed_walkthrough_in_three_requests(recorded_browser: cdpagent.Browser) -> None:
    role = load_role(ROLES / "todos.toml")
    server = ScriptedModel(
        [
            calls(("search", '{"text":"周报"}'), content="我先找一下。"),
            calls(("toggle", '{"record":"t9"}')),
            answer("已把周报（t9）标记为完成。"),
        ]
    )
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, role)
            with trio.fail_after(60):
                result = await agent.run("把周报标记为完成")
    requests = server.checked_requests()
    assert len(requests) == 3 and result.requests == 3 and result.stopped is None
    assert_page_only_in_system(requests)

    first, second, third = requests
    system = first["messages"][0]["content"]
    assert system.startswith(RULES)
    assert system.index(RULES) < system.index("## This application") < system.index("## Current location")
    assert "You help the user manage a personal task list." in system
    assert [t["function"]["name"] for t in first["tools"]] == ["add_todo", "toggle", "search", "press_key"]
    assert first["messages"][1:] == [{"role": "user", "content": "把周报标记为完成"}]
    assert "(周报)" not in system  # observation A: t9 is only an id

    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    call = second["messages"][2]["tool_calls"][0]
    assert second["messages"][3]["tool_call_id"] == call["id"]
    searched = tool_result(second)
    assert searched["result"]["ok"] is True and searched["result"]["action"]["id"] == "search"
    assert "t9 (周报)" in second["messages"][0]["content"]  # observation B shows t9's fields
    assert second["messages"][0]["content"] != system

    toggled = tool_result(third)
    assert toggled["result"]["action"]["id"] == "toggle@t9"
    assert toggled["result"]["changed"]["records"]["changed"] == {
        "t9": {"done": {"before": False, "after": True}}
    }
    assert [m["role"] for m in third["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]

    assert result.answer == "已把周报（t9）标记为完成。"
    assert [r.name for r in result.receipts] == ["search", "toggle"] and all(r.ok for r in result.receipts)
    assert result.transcript[0] == {"role": "user", "content": "把周报标记为完成"}
    assert result.transcript[-1]["content"] == result.answer
    assert not any("## Current location" in (m.get("content") or "") for m in agent.history)


async def test_cx5_writing_page_wakes_its_thread_and_recovers_from_stale_state(
    recorded_browser: cdpagent.Browser,
) -> None:
    role = load_role(ROLES / "writing.toml")
    token = trio.lowlevel.current_trio_token()
    tab_box: list[cdpagent.Tab] = []

    async def child_edits() -> None:
        await user_type(tab_box[0], "#essay", " And then it rained.")
        await user_click(tab_box[0], "#save")

    def invoke(method: str, **args: Any) -> Reply:
        request = {"tabId": tab_box[0].id, "method": method, "args": args}
        return calls(("invoke_page_method", json.dumps(request)))

    def woken(body: dict[str, Any]) -> Reply:
        assert body["messages"][-1]["content"].startswith(f"[thread_notify from tab {tab_box[0].id}")
        assert body["messages"][-1]["content"].endswith("请点评作文")
        return invoke("read_current")

    def write_after_a_human_edit(body: dict[str, Any]) -> Reply:
        read = tool_result(body)
        trio.from_thread.run(child_edits, trio_token=token)  # the child saves while the model thinks
        return invoke("submit_review", expectedRevision=read["revision"], comments="A sunny start!")

    def read_again(body: dict[str, Any]) -> Reply:
        stale = tool_result(body)
        assert stale["ok"] is False and stale["error"]["code"] == "STALE_STATE"
        return invoke("read_current")

    def write_again(body: dict[str, Any]) -> Reply:
        read = tool_result(body)
        assert read["essay"].endswith("And then it rained.")
        return invoke("submit_review", expectedRevision=read["revision"], comments="Rain too — lovely.")

    server = ScriptedModel([woken, write_after_a_human_edit, read_again, write_again, answer("Reviewed.")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, role)
            tab_id = await agent.open()
            tab_box.append(next(t for t in agent.thread.tabs if t.id == tab_id))
            await user_type(tab_box[0], "#essay", "My summer holiday was sunny.")
            await user_click(tab_box[0], "#ask")
            with trio.fail_after(60):
                result = await agent.next_wakeup()
    requests = server.checked_requests()
    assert_page_only_in_system(requests)
    assert len(requests) == 5 and result.answer == "Reviewed."
    tools = {t["function"]["name"]: t for t in requests[0]["tools"]}
    method = tools["invoke_page_method"]["function"]["parameters"]["properties"]["method"]
    assert method["enum"] == ["read_current", "submit_review", "read_reviews"]
    assert f"- {tab_id} (the page shown below)" in requests[0]["messages"][0]["content"]
    assert "After a thread_notify wake-up" in requests[0]["messages"][0]["content"]
    outcomes = [r.result.get("ok", True) for r in result.receipts]
    assert outcomes == [True, False, True, True]
    final = await tab_box[0].invoke("read_current")
    assert final["reviewRequest"] is None
    assert final["reviews"][-1] == {
        "revision": final["revision"],
        "comments": "Rain too — lovely.",
        "by": "agent",
    }


async def test_cx5_bad_tool_calls_are_answered_as_tool_results(recorded_browser: cdpagent.Browser) -> None:
    """Arguments that are not JSON, a tool that is not offered, arguments a tool does not take."""
    server = ScriptedModel(
        [
            calls(("toggle", "{not json"), ("delete_everything", "{}"), ("search", '{"text": 1}')),
            answer("I could not do it."),
        ]
    )
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, load_role(ROLES / "todos.toml"))
            with trio.fail_after(60):
                result = await agent.run("do something odd")
    second = server.checked_requests()[1]
    codes = [tool_result(second, i)["result"]["error"]["code"] for i in range(3)]
    assert codes == [
        agent_codes.TOOL_ARGUMENTS_NOT_JSON,
        action_codes.UNKNOWN_ACTION,
        action_codes.INVALID_ARGUMENT,
    ]
    for i in range(3):
        offered = ["add_todo", "toggle", "search", "press_key"]
        assert tool_result(second, i)["result"]["error"]["available"] == offered
    assert "not JSON" in tool_result(second, 0)["result"]["error"]["message"]
    assert result.answer == "I could not do it." and not any(r.ok for r in result.receipts)


async def test_cx5_action_from_an_older_snapshot_is_refused(recorded_browser: cdpagent.Browser) -> None:
    """After a modal opens, ``save`` (offered in request 1) is no longer a tool: UNKNOWN_ACTION."""
    server = ScriptedModel(
        [calls(("open_dialog", "{}")), calls(("save", "{}")), answer("The dialog is open.")]
    )
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, generic_role(str(PAGES / "act_form.html")))
            with trio.fail_after(60):
                result = await agent.run("save the form")
    first, second, third = server.checked_requests()
    assert_page_only_in_system([first, second, third])
    assert "save" in [t["function"]["name"] for t in first["tools"]]
    offered = [t["function"]["name"] for t in second["tools"]]
    assert "save" not in offered and "close_dialog" in offered
    refused = tool_result(third)["result"]["error"]
    assert refused["code"] == action_codes.UNKNOWN_ACTION and refused["available"] == offered
    assert [r.ok for r in result.receipts] == [True, False]


async def test_cx5_confirmation_goes_to_the_host_and_handoffs_are_reported(
    recorded_browser: cdpagent.Browser,
) -> None:
    asked: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        asked.append(request)
        return True

    server = ScriptedModel([calls(("wipe", "{}"), ("pay", "{}")), answer("Wiped; please pay yourself.")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            role = generic_role(str(PAGES / "act_form.html"))
            agent = Agent(recorded_browser, model, role, confirm=confirm)
            with trio.fail_after(60):
                result = await agent.run("wipe the notes and pay")
    assert [a.question for a in asked] == ["Wipe all notes?"]
    wiped, paid = result.receipts
    assert wiped.ok and not paid.ok
    assert isinstance(paid.result, cdpagent.Receipt)  # the same value Tab.act returns
    assert paid.result.code == action_codes.HANDOFF_REQUIRED
    assert result.handoffs == ["payment needs the card holder"]
    server.checked_requests()


async def test_cx5_step_limit_stops_the_turn_and_says_so(recorded_browser: cdpagent.Browser) -> None:
    server = ScriptedModel([calls(("search", '{"text": "a"}')), calls(("search", '{"text": "b"}'))])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            role = load_role(ROLES / "todos.toml")
            with pytest.raises(ValueError, match="at least 1"):
                Agent(recorded_browser, model, role, max_steps=0)
            agent = Agent(recorded_browser, model, role, max_steps=2)
            with trio.fail_after(60):
                result = await agent.run("search forever")
    assert len(server.checked_requests()) == 2
    assert result.stopped == STEP_LIMIT and result.requests == 2
    assert "step limit" in result.answer and len(result.receipts) == 2


async def test_cx5_unknown_method_in_the_role_table_is_a_page_api_result(
    recorded_browser: cdpagent.Browser, tmp_path: Path
) -> None:
    role_file = tmp_path / "editor.toml"
    role_file.write_text(
        f'name = "editor"\npage = "{EXAMPLES / "editor" / "index.html"}"\n'
        'application = "Edit documents."\n'
        '[[methods]]\nname = "rewrite_everything"\neffect = "write"\n'
        'description = "Not exposed."\nargs = "{}"\n',
        encoding="utf-8",
    )
    role = load_role(role_file)

    def call_it(body: dict[str, Any]) -> Reply:
        tab = (
            body["messages"][0]["content"]
            .split("## Tabs of this thread (pass as tabId)\n- ")[1]
            .split(" ")[0]
        )
        return calls(("invoke_page_method", json.dumps({"tabId": tab, "method": "rewrite_everything"})))

    server = ScriptedModel([call_it, answer("That method does not exist.")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, role)
            with trio.fail_after(60):
                result = await agent.run("rewrite it")
    envelope = tool_result(server.checked_requests()[1])
    assert envelope["ok"] is False and envelope["error"]["code"] == "PAGE_API_METHOD_NOT_FOUND"
    assert result.answer == "That method does not exist."


async def test_cx5_thread_notify_burst_is_taken_in_order_and_overflow_is_refused(
    recorded_browser: cdpagent.Browser,
) -> None:
    """Three wake-ups in a burst: two queued and taken one at a time, in order; the third is refused
    and the thread is told so by one notice."""
    seen: list[str] = []

    def note_and_answer(body: dict[str, Any]) -> Reply:
        seen.append(body["messages"][-1]["content"])
        return answer(f"handled {len(seen)}")

    server = ScriptedModel([note_and_answer, note_and_answer])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            thread = cdpagent.Thread(recorded_browser, queue_size=2)
            agent = Agent(recorded_browser, model, load_role(ROLES / "writing.toml"), thread=thread)
            tab_id = await agent.open()
            tab = next(t for t in thread.tabs if t.id == tab_id)
            posted = await evaluate(
                tab,
                "Promise.all(['one', 'two', 'three'].map(m =>"
                " window.agotalk.post('thread_notify', {message: m})))",
            )
            with trio.fail_after(60):
                first = await agent.next_wakeup()
                second = await agent.next_wakeup()
    assert [p["ok"] for p in posted] == [True, True, False]
    assert posted[2]["error"]["code"] == "THREAD_NOTIFY_QUEUE_FULL"
    assert [s.rsplit("] ", 1)[1] for s in seen] == ["one", "two"]
    assert (first.answer, second.answer) == ("handled 1", "handled 2")
    # The refused third post is not lost silently: the thread holds the runtime's notice.
    notices = thread.drain()
    assert [(n.refused, n.tab_id) for n in notices] == [(1, tab_id)]
    # The second turn's request carries the first turn too: one conversation per thread.
    second_request = server.checked_requests()[1]
    assert [m["role"] for m in second_request["messages"]] == ["system", "user", "assistant", "user"]


async def test_cx3_history_of_a_long_thread_stays_under_budget_on_every_request(
    recorded_browser: cdpagent.Browser,
) -> None:
    """20 turns of read_current on a 4,000-character essay with a small budget: every request's
    messages fit, tool calls keep their results, and the summary replaces the older turns."""
    budgets = Budgets(max_tokens=3000, reserve_for_output=1024, keep_recent=4, max_tool_result_tokens=300)
    turns = 20
    tab_box: list[str] = []

    def read(body: dict[str, Any]) -> Reply:
        return calls(("invoke_page_method", json.dumps({"tabId": tab_box[0], "method": "read_current"})))

    def done(body: dict[str, Any]) -> Reply:
        return answer("The essay is unchanged.")

    server = ScriptedModel([step for _ in range(turns) for step in (read, done)])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, load_role(ROLES / "writing.toml"), budgets=budgets)
            tab_box.append(await agent.open())
            tab = next(t for t in agent.thread.tabs if t.id == tab_box[0])
            await user_type(tab, "#essay", "A long day at the sea. " * 180)
            await user_click(tab, "#save")
            with trio.fail_after(240):
                for turn in range(turns):
                    await agent.run(f"Read my essay again, please ({turn}).")
    requests = server.checked_requests()
    assert len(requests) == 2 * turns
    for body in requests:
        history = body["messages"][1:]
        assert messages_tokens(history) <= budgets.available
        for message in history:
            if message["role"] == "tool":
                assert estimate_tokens(message["content"]) <= budgets.max_tool_result_tokens
                assert "cut from the middle" in message["content"]
        calls_open: set[str] = set()
        for message in history:
            if message["role"] == "assistant":
                calls_open = {c["id"] for c in message.get("tool_calls") or ()}
            elif message["role"] == "tool":
                assert message["tool_call_id"] in calls_open
    last = requests[-1]["messages"]
    assert last[1]["content"].splitlines()[0] == SUMMARY_HEADER
    assert "invoke_page_method" in last[1]["content"] and "(0)" in last[1]["content"]
