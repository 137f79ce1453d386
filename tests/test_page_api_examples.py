"""The example pages against the seed contract, and the ``call`` / ``script`` commands (PA-4, PA-5, SF-2)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import trio
from conftest import evaluate
from page_api_support import EXAMPLES, pa_browser, until_in_page

import cdpagent
from cdpagent.ops.harness import user_click, user_type
from cdpagent.runtime import Thread, invoke

__all__ = ["pa_browser"]

EDITOR = EXAMPLES / "editor" / "index.html"
WRITING = EXAMPLES / "writing" / "index.html"


async def test_pa4_editor_revisions_and_stale_state(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(EDITOR)
    current = await invoke(tab, "read_current")
    assert current["revision"] == 1 and current["blockCount"] == 3
    change = {"change": {"kind": "rename", "text": "Plan B"}, "expectedRevision": 1}
    written = await invoke(tab, "apply_change", change)
    assert (
        written["ok"] is True and written["state"]["revision"] == 2 and written["state"]["title"] == "Plan B"
    )
    before = await invoke(tab, "read_current")
    stale = await invoke(
        tab, "apply_change", {"change": {"kind": "delete", "index": 0}, "expectedRevision": 1}
    )
    assert stale == {"ok": False, "error": {"code": "STALE_STATE"}, "state": {"revision": 2}}
    assert await invoke(tab, "read_current") == before


async def test_pa4_editor_human_and_agent_share_one_commit_path(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(EDITOR)
    await user_click(tab, "#blocks .block:nth-child(2) button")  # "Move up" on the second block
    after = await invoke(tab, "read_current")
    assert after["revision"] == 2
    assert after["blocks"][0]["text"] == "Risks and open questions."
    await user_type(tab, "#new-text", "Written by a person")
    await user_click(tab, "#add")
    history = await invoke(tab, "read_history", {"offset": 1, "limit": 5})
    assert history["total"] == 3 and history["offset"] == 1
    assert [(e["revision"], e["by"]) for e in history["entries"]] == [(2, "human"), (3, "human")]
    refused = await invoke(tab, "read_history", {"limit": 1000})
    assert refused["ok"] is False and refused["error"]["code"] == "INVALID_LIMIT"


async def test_pa5_writing_page_notifies_its_thread(pa_browser: cdpagent.Browser) -> None:
    thread = Thread(pa_browser)
    tab = await thread.open(WRITING)
    await user_type(tab, "#essay", "My summer holiday was long.")
    await user_click(tab, "#ask")
    with trio.fail_after(10):
        note = await thread.receive()
    assert (note.tab_id, note.message) == (tab.id, "请点评作文")
    with trio.fail_after(10):
        await until_in_page(tab, "document.getElementById('status').dataset.notified")
    assert await evaluate(tab, "document.getElementById('status').dataset.notified") == "true"
    # The role's documented follow-up: read, then complete the review with the revision it read.
    current = await invoke(tab, "read_current")
    assert current["reviewRequest"]["status"] == "pending"
    stale = await invoke(tab, "submit_review", {"expectedRevision": current["revision"] - 1, "comments": "x"})
    assert stale["error"]["code"] == "STALE_STATE"
    done = await invoke(
        tab, "submit_review", {"expectedRevision": current["revision"], "comments": "Lovely."}
    )
    assert done["ok"] is True and done["state"]["reviewRequest"] is None
    assert done["state"]["reviews"][-1]["comments"] == "Lovely."


async def test_pa5_writing_page_stays_usable_when_refused(pa_browser: cdpagent.Browser) -> None:
    tab = await pa_browser.open(WRITING)  # standalone: thread_notify is refused
    await user_type(tab, "#essay", "An essay.")
    await user_click(tab, "#ask")
    with trio.fail_after(10):
        await until_in_page(tab, "document.getElementById('status').dataset.notified")
    assert await evaluate(tab, "document.getElementById('status').dataset.notified") == "false"
    assert "in the conversation" in await evaluate(tab, "document.getElementById('status').textContent")
    current = await invoke(tab, "read_current")
    assert current["reviewRequest"]["status"] == "pending"
    assert await evaluate(tab, "document.getElementById('request').hidden") is False


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cdpagent", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return await trio.to_thread.run_sync(lambda: cli(*args, stdin=stdin))


@pytest.mark.browser
async def test_sf2_call_prints_result_or_envelope() -> None:
    ok = await run_cli("call", str(EDITOR), "read_history", '{"offset": 0, "limit": 1}')
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["entries"][0]["revision"] == 1
    bad = await run_cli("call", str(EDITOR), "nope")
    assert bad.returncode != 0
    assert json.loads(bad.stdout)["error"]["code"] == "PAGE_API_METHOD_NOT_FOUND"
    nan = await run_cli("call", str(EDITOR), "read_current", '{"x": NaN}')
    assert nan.returncode != 0 and json.loads(nan.stdout)["error"]["code"] == "PAGE_API_ARGS_INVALID"


@pytest.mark.browser
async def test_sf2_script_runs_steps_in_a_thread_owned_tab() -> None:
    steps: list[dict[str, Any]] = [
        {"op": "invoke", "method": "read_current"},
        {"op": "user_type", "selector": "#essay", "text": "Essay text"},
        {"op": "user_click", "selector": "#ask"},
        {"op": "notifications", "wait_ms": 5000},
        {"op": "invoke", "method": "submit_review", "args": {"expectedRevision": 1, "comments": "late"}},
        {"op": "wait", "ms": 1},
        {"op": "reload"},
        {"op": "invoke", "method": "read_current", "timeout": 5},
        {"op": "navigate", "url": EDITOR.as_uri()},
        {"op": "invoke", "method": "submit_review"},
    ]
    done = await run_cli("script", str(WRITING), "-", stdin="\n".join(json.dumps(s) for s in steps))
    lines: list[dict[str, Any]] = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["op"] for line in lines] == [s["op"] for s in steps]
    assert lines[0]["result"]["revision"] == 1
    notes = lines[3]["notifications"]
    assert len(notes) == 1 and notes[0]["message"] == "请点评作文" and notes[0]["tabId"].startswith("tab")
    assert notes[0]["refused"] == 0
    assert lines[4]["result"]["error"]["code"] == "STALE_STATE"
    assert lines[7]["result"]["revision"] == 1 and lines[7]["result"]["reviewRequest"] is None
    assert lines[9]["error"]["code"] == "PAGE_API_METHOD_NOT_FOUND"
    assert done.returncode == 1  # the last invoke failed


@pytest.mark.browser
async def test_sf2_script_standalone_and_bad_steps() -> None:
    steps = ['{"op": "notifications"}', '{"op": "fly"}', '{"op": "wait", "ms": 1}']
    done = await run_cli("script", "--standalone", str(WRITING), "-", stdin="\n".join(steps))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0] == {"op": "notifications", "notifications": []}
    assert lines[1]["error"]["code"] == "SCRIPT_STEP_INVALID"
    assert len(lines) == 2 and done.returncode != 0
