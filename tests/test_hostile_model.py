"""A hostile OpenAI-compatible server against the model adapter and the agent (issue 22, items 4, 5, 8, 11).

The server is :mod:`scripted_model` on 127.0.0.1; the agent runs on real Chromium.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import trio
from conftest import PAGES
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_model import Reply, ScriptedModel, _completion, answer, calls

import cdpagent
from cdpagent.agent import Agent, Budgets, MethodDoc, Model, ModelError, ToolCall, compact, generic_role
from cdpagent.agent import Reply as ModelReply
from cdpagent.agent import codes as agent_codes
from cdpagent.agent.replies import MAX_CALLS_PER_REPLY, bound_reply
from cdpagent.agent.request import PAGE_METHOD_TOOL
from cdpagent.agent.tokens import messages_tokens
from cdpagent.snapshot.toolnames import RESERVED_TOOL_NAMES

BODY: dict[str, Any] = {"messages": [{"role": "user", "content": "hi"}]}
HUGE = "x" * 2_000_000


@pytest.mark.parametrize("misbehaviour", ["trickle", "sse"])
async def test_cx4_timeout_bounds_the_whole_try(misbehaviour: str) -> None:
    """Headers at once, then a byte every 0.2 s (or an endless event stream): before the fix
    httpx's per-read timeout never fired and the call hung."""
    slow = Reply(body=answer("late").body, trickle=0.2) if misbehaviour == "trickle" else Reply(sse=True)
    server = ScriptedModel([slow, slow])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=0.5, max_retries=1) as model:
            started = time.perf_counter()
            with trio.fail_after(15), pytest.raises(ModelError) as caught:
                await model.complete(BODY)
    assert caught.value.code == agent_codes.MODEL_TIMEOUT
    assert len(server.requests) == 2 and time.perf_counter() - started < 6


async def test_cx4_a_null_message_is_a_bad_reply() -> None:
    null = _completion({}, "stop")
    null.body["choices"][0]["message"] = None
    server = ScriptedModel([null])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=5) as model:
            with pytest.raises(ModelError) as caught:
                await model.complete(BODY)
    assert caught.value.code == agent_codes.MODEL_BAD_REPLY


def _hostile_reply(body: dict[str, Any]) -> Reply:
    reply = calls((HUGE, "{}"), ("invoke_page_method_2", "{}"), *[("nope", "{}")] * 498, content=HUGE)
    reply.body["choices"][0]["message"]["tool_calls"][1]["id"] = "i" * 2_000_000
    return reply


async def test_cx2_hostile_replies_cannot_break_the_history_budget_and_names_stay_unique(
    recorded_browser: cdpagent.Browser,
) -> None:
    role = generic_role((PAGES / "hostile" / "runtime_names.html").as_uri())
    role = type(role)(
        name=role.name,
        page=role.page,
        application=role.application,
        methods=[MethodDoc(name="read", effect="read", description="Read.", args="{}")],
    )
    lines: list[str] = []
    server = ScriptedModel([_hostile_reply, answer("done")])
    budgets = Budgets()
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(recorded_browser, model, role, budgets=budgets, progress=lines.append)
            with trio.fail_after(60):
                result = await agent.run("count")
    first, second = server.checked_requests()
    names = [t["function"]["name"] for t in first["tools"]]
    assert len(names) == len(set(names)) and PAGE_METHOD_TOOL in names and "invoke_page_method_2" in names
    assert "press_key" in names and "press_key_2" in names  # the built-in press wins its name too
    assert PAGE_METHOD_TOOL in RESERVED_TOOL_NAMES
    history = second["messages"][1:]
    assert messages_tokens(history) <= budgets.available, messages_tokens(history)
    assistant = next(m for m in history if m.get("tool_calls"))
    assert len(assistant["tool_calls"]) == MAX_CALLS_PER_REPLY + 1
    assert all(len(c["id"]) <= 64 and len(c["function"]["name"]) <= 64 for c in assistant["tool_calls"])
    tools = [m for m in history if m["role"] == "tool"]
    assert json.loads(tools[0]["content"])["result"]["error"]["code"] == "UNKNOWN_ACTION"
    assert "at most 8 run per reply" in tools[-1]["content"] and "492 were not run" in tools[-1]["content"]
    assert [r.ok for r in result.receipts].count(True) == 1  # the page's renamed action ran
    assert max(len(line) for line in lines) < 400
    assert result.answer == "done"


def _long(alphabet: str, most: int) -> st.SearchStrategy[str]:
    """Short hostile text, or one repeated character up to ``most`` long (fast to generate)."""
    repeated = st.builds(lambda c, n: c * n, st.sampled_from(alphabet), st.integers(0, most))
    return st.one_of(st.text(max_size=80), repeated)


hostile_calls = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(["act", "other"]), _long("a_é-", 5000)),
        st.one_of(st.just("c"), _long("i\n", 5000)),
        st.one_of(st.just("{}"), _long("{x", 40_000)),
    ),
    max_size=80,
)


@settings(max_examples=40, deadline=None)
@given(replies=st.lists(st.tuples(_long("w ", 30_000), hostile_calls), min_size=1, max_size=3))
def test_cx2_property_any_reply_keeps_the_history_under_budget(
    replies: list[tuple[str, list[tuple[str, str, str]]]],
) -> None:
    budgets = Budgets()
    history: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for content, raw in replies:
        reply = ModelReply(content, [ToolCall(c, n, a) for n, c, a in raw])
        bounded = bound_reply(reply, ["act"], max_content_tokens=budgets.max_tool_result_tokens)
        history.append(bounded.reply.message())
        for call in bounded.reply.tool_calls:
            history.append({"role": "tool", "tool_call_id": call.id, "content": "r" * 5000})
        history = compact(history, budgets)
        assert messages_tokens(history) <= budgets.available
