"""The script command's ``act`` step (OB-7, OB-8): receipts as JSON lines; ``--yes`` confirms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
from conftest import PAGES

import cdpagent
from cdpagent.ops.script import act_step


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
