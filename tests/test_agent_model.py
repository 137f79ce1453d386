"""The model adapter against a scripted loopback server (SPEC CX-4): retries, timeouts, clear errors."""

from __future__ import annotations

import time

import pytest
import trio
from scripted_model import Reply, ScriptedModel, answer, calls, check_request, status

from cdpagent.agent import SUMMARY_HEADER, Model, ModelError, ModelSummariser, summarise_conversation
from cdpagent.agent import codes as agent_codes

BODY = {"messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "hi"}]}


async def test_cx4_429_with_retry_after_then_success() -> None:
    server = ScriptedModel([status(429, "slow down", {"Retry-After": "1"}), answer("done")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=10) as model:
            started = time.perf_counter()
            reply = await model.complete(BODY)
            waited = time.perf_counter() - started
    assert reply.content == "done" and reply.tool_calls == []
    assert len(server.requests) == 2
    assert waited >= 0.9  # the Retry-After of 1 s was honoured, not the 0.5 s default backoff
    for body in server.checked_requests():
        assert body["model"] == "scripted"


async def test_cx4_500_twice_then_success() -> None:
    server = ScriptedModel([status(500), status(500), answer("third time")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=10, max_retries=2) as model:
            reply = await model.complete(BODY)
    assert reply.content == "third time"
    assert len(server.requests) == 3
    assert server.requests[0] == server.requests[2]  # stateless: the same full body each time


async def test_cx4_401_is_a_clear_error_without_retry() -> None:
    server = ScriptedModel([status(401, "Incorrect API key provided"), answer("never")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="bad", timeout=10) as model:
            with pytest.raises(ModelError) as caught:
                await model.complete(BODY)
    assert caught.value.code == agent_codes.MODEL_AUTH_FAILED
    assert "Incorrect API key" in caught.value.message
    assert len(server.requests) == 1


async def test_cx4_unknown_model_and_context_too_long() -> None:
    server = ScriptedModel(
        [
            status(404, "The model `nope` does not exist"),
            status(400, "This model's maximum context length is 8192"),
        ]
    )
    with server.running():
        async with Model("nope", base_url=server.url, api_key="k", timeout=10) as model:
            with pytest.raises(ModelError) as missing:
                await model.complete(BODY)
            with pytest.raises(ModelError) as too_long:
                await model.complete(BODY)
    assert missing.value.code == agent_codes.MODEL_NOT_FOUND
    assert too_long.value.code == agent_codes.MODEL_CONTEXT_TOO_LONG


async def test_cx4_hanging_server_times_out_with_a_clear_error() -> None:
    server = ScriptedModel([Reply(hang=True), Reply(hang=True)])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=0.5, max_retries=1) as model:
            started = time.perf_counter()
            with trio.fail_after(20), pytest.raises(ModelError) as caught:
                await model.complete(BODY)
            elapsed = time.perf_counter() - started
    assert caught.value.code == agent_codes.MODEL_TIMEOUT
    assert len(server.requests) == 2  # one retry after the first timeout
    assert elapsed >= 1.0


async def test_cx4_dropped_connection_mid_response() -> None:
    dropped = Reply(body=answer("cut").body, drop=True)
    server = ScriptedModel([dropped, answer("whole")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=5, max_retries=1) as model:
            reply = await model.complete(BODY)
    assert reply.content == "whole"
    assert len(server.requests) == 2
    server = ScriptedModel([dropped, dropped])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=5, max_retries=1) as model:
            with pytest.raises(ModelError) as caught:
                await model.complete(BODY)
    assert caught.value.code == agent_codes.MODEL_UNREACHABLE


async def test_cx4_tool_calls_are_returned_unparsed() -> None:
    server = ScriptedModel([calls(("search", '{"text": "周报"}'), ("toggle", "{not json"))])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            reply = await model.complete(BODY)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("search", '{"text": "周报"}'),
        ("toggle", "{not json"),
    ]
    assert reply.message()["tool_calls"][0]["function"]["name"] == "search"


def test_cx4_configuration_from_arguments_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CDPAGENT_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelError) as no_model:
        Model()
    assert no_model.value.code == agent_codes.MODEL_NOT_CONFIGURED
    assert "Model(model=…)" in no_model.value.message and "--" not in no_model.value.message
    with pytest.raises(ModelError) as no_key:
        Model("gpt")
    assert "OPENAI_API_KEY" in no_key.value.message and "base_url=" in no_key.value.message
    monkeypatch.setenv("CDPAGENT_MODEL", "from-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    model = Model()
    assert model.name == "from-env" and model.base_url == "http://127.0.0.1:9/v1"
    assert Model("explicit").name == "explicit"


def test_cx4_schema_copy_rejects_a_bad_request() -> None:
    check_request({"model": "m", "messages": [{"role": "user", "content": "x"}]})
    with pytest.raises(AssertionError):
        check_request({"model": "m", "messages": [{"role": "tool", "content": "x"}]})  # no tool_call_id


async def test_cx3_model_written_summary_and_its_fallback() -> None:
    older = [
        {"role": "user", "content": "把周报标记为完成"},
        {"role": "assistant", "content": "Done: t9 is complete."},
    ]
    server = ScriptedModel([answer("- the user asked to complete 周报; t9 done"), status(401, "bad key")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", max_retries=0) as model:
            summarise = ModelSummariser(model)
            written = await summarise(older)
            fallback = await summarise(older)
    assert written == f"{SUMMARY_HEADER}\n- the user asked to complete 周报; t9 done"
    assert fallback == summarise_conversation(older) and fallback.startswith(SUMMARY_HEADER)
    first = server.checked_requests()[0]
    assert first["messages"][0]["role"] == "system" and "把周报标记为完成" in first["messages"][1]["content"]
