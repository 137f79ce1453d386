"""The script command's ``act`` step (OB-7, OB-8): receipts as JSON lines; ``--yes`` confirms.

And a command stopped by a signal (issue 22, item 15): ``cdpagent`` runs as a subprocess with
its own Chromium and a private ``TMPDIR``, and leaves no temporary profile behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio
from conftest import EXAMPLES, PAGES
from scripted_model import Reply, ScriptedModel

import cdpagent
from cdpagent.ops.script import act_step

TODOS = str(EXAMPLES / "todos" / "index.html")


def script(steps: list[dict[str, Any]], tmp_path: Path, *flags: str) -> list[dict[str, Any]]:
    path = tmp_path / "steps.jsonl"
    path.write_text("\n".join(msgspec.json.encode(s).decode() for s in steps), encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cdpagent",
            "script",
            str(PAGES / "act_form.html"),
            str(path),
            "--standalone",
            *flags,
        ],
        capture_output=True,
        timeout=90,
        start_new_session=True,  # no terminal: confirmations are denied
    )
    assert out.returncode == 0, out.stderr.decode()
    return [msgspec.json.decode(line) for line in out.stdout.splitlines()]


def test_ob8_script_act_step_prints_receipts(tmp_path: Path) -> None:
    results = script(
        [
            {"op": "act", "action": "name", "text": "Grace"},
            {"op": "act", "action": "save"},
            {"op": "act", "action": "wipe"},
        ],
        tmp_path,
    )
    assert [r["op"] for r in results] == ["act", "act", "act"]
    saved = results[1]["receipt"]["result"]
    assert saved["ok"] is True
    assert saved["changed"]["state"]["status"] == {"before": "idle", "after": "saved Grace"}
    denied = results[2]["receipt"]["result"]
    assert denied["ok"] is False and denied["error"]["code"] == "CONFIRMATION_DENIED"


def test_ob7_script_yes_accepts_confirmations(tmp_path: Path) -> None:
    (result,) = script([{"op": "act", "action": "wipe"}], tmp_path, "--yes")
    assert result["receipt"]["result"]["ok"] is True
    assert result["receipt"]["result"]["changed"]["state"]["status"]["after"] == "wiped"


async def test_ob7_act_step_rejects_malformed_steps(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "act_form.html")
    for step in (
        {"op": "act"},
        {"op": "act", "action": "name", "text": 5},
        {"op": "act", "action": "save", "force": True},
    ):
        result = await act_step(tab, step)
        assert result["receipt"]["result"]["error"]["code"] == "INVALID_ARGUMENT", step


def test_ob9_script_observe_step_prints_the_cli_json_object(tmp_path: Path) -> None:
    (observed,) = script([{"op": "observe", "options": {"max_records": 1}}], tmp_path)
    assert observed["op"] == "observe"
    assert set(observed) == {"op", "observation", "text", "tools"}
    assert "## Available actions on this page" in observed["text"]
    assert len(observed["observation"]["records"]) <= 1


def _profiles(tmp: Path) -> list[Path]:
    return [p for p in tmp.iterdir() if p.name.startswith("cdpagent-")]


async def _stopped_cleanly(argv: list[str], tmp: Path, ready: bytes, number: int) -> None:
    # A short folder of its own, not pytest's tmp_path: Chromium puts its singleton socket in
    # TMPDIR, and a Unix socket path may not exceed 107 bytes (an xdist worker's tmp_path is long).
    tmp = Path(tempfile.mkdtemp(prefix="sig-", dir="/tmp"))
    try:
        await _stop_in(tmp, argv, ready, number)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _stop_in(tmp: Path, argv: list[str], ready: bytes, number: int) -> None:
    env = {**os.environ, "TMPDIR": str(tmp)}
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "cdpagent", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        seen = b""
        with trio.fail_after(60):
            while ready not in seen:
                chunk = await (process.stdout if ready.startswith(b"{") else process.stderr).receive_some()
                assert chunk, seen
                seen += chunk
            assert _profiles(tmp), "the command runs with a temporary profile"
            process.send_signal(number)
            await process.wait()
        assert process.returncode == 128 + number
        assert _profiles(tmp) == [], "the temporary profile was left behind"
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.browser
async def test_sf2_sigterm_during_chat_removes_the_temporary_profile(tmp_path: Path) -> None:
    """Before: SIGTERM ended chat at once and its 2.4 MB profile stayed in the temporary folder."""
    server = ScriptedModel([Reply(hang=True)])
    with server.running():
        argv = ["chat", "--base-url", server.url, "--model", "scripted", TODOS, "hi"]
        await _stopped_cleanly(argv, tmp_path, b"request 1:", signal.SIGTERM)


@pytest.mark.browser
async def test_sf2_sighup_during_a_script_removes_the_temporary_profile(tmp_path: Path) -> None:
    steps = tmp_path / "steps.jsonl"
    steps.write_text('{"op": "wait", "ms": 1}\n{"op": "wait", "ms": 60000}\n', encoding="utf-8")
    await _stopped_cleanly(["script", TODOS, str(steps)], tmp_path, b'{"op"', signal.SIGHUP)
