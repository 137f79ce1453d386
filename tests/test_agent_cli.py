"""``cdpagent chat`` as a user runs it: a subprocess, real Chromium, the scripted loopback model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from scripted_model import ScriptedModel, answer, calls

ROLES = Path(__file__).resolve().parent.parent / "cdpagent" / "agent" / "roles"
TODOS = Path(__file__).resolve().parent.parent / "examples" / "todos" / "index.html"


async def chat(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "cdpagent", "chat", *args]
    return await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False, env=env)


def text(output: bytes | str) -> str:
    return output.decode() if isinstance(output, bytes) else output


@pytest.mark.browser
async def test_cx5_chat_with_role_prints_answer_and_json_transcript() -> None:
    server = ScriptedModel(
        [calls(("search", '{"text":"周报"}')), calls(("toggle", '{"record":"t9"}')), answer("周报已完成。")]
    )
    with server.running():
        with trio.fail_after(120):
            done = await chat(
                "--role", str(ROLES / "todos.toml"), "--base-url", server.url, "--model", "scripted",
                "--json", "--yes", "把周报标记为完成",
            )  # fmt: skip
    assert done.returncode == 0, text(done.stderr)
    result = json.loads(text(done.stdout))
    assert result["answer"] == "周报已完成。" and result["requests"] == 3 and result["stopped"] is None
    assert [r["name"] for r in result["receipts"]] == ["search", "toggle"]
    assert (
        result["receipts"][1]["result"]["result"]["changed"]["records"]["changed"]["t9"]["done"]["after"]
        is True
    )
    assert [m["role"] for m in result["transcript"]] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    progress = text(done.stderr).splitlines()
    assert sum("request" in line and "tokens" in line for line in progress) == 3
    assert any("toggle" in line and "→ ok" in line for line in progress)
    assert len(server.checked_requests()) == 3


@pytest.mark.browser
async def test_cx5_chat_page_and_step_limit_and_bad_input(tmp_path: Path) -> None:
    server = ScriptedModel([calls(("search", '{"text":"x"}'))])
    with server.running():
        with trio.fail_after(120):
            limited = await chat(
                str(TODOS), "look around", "--base-url", server.url, "--model", "m", "--max-steps", "1"
            )
    assert limited.returncode == 3 and "step limit" in text(limited.stdout)
    assert "You help the user with the page" in server.checked_requests()[0]["messages"][0]["content"]

    bad_role = tmp_path / "bad.toml"
    bad_role.write_text('name = "x"\n', encoding="utf-8")
    refused = await chat("--role", str(bad_role), "hi", "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    assert refused.returncode == 2 and "bad.toml" in text(refused.stderr)
    zero = await chat(
        str(TODOS), "hi", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--max-steps", "0"
    )
    assert zero.returncode == 2 and "--max-steps" in text(zero.stderr)
    missing = await chat(str(TODOS), "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    assert missing.returncode == 2 and "PAGE" in text(missing.stderr)
