"""The serialized observation: ``cdpagent observe`` and the script ``observe`` step (OB-9)."""

from __future__ import annotations

import subprocess
import sys

import msgspec
import pytest
from conftest import EXAMPLES

import cdpagent
from cdpagent.errors import StepError
from cdpagent.ops.script import observe_step

KEYS = {"identity", "regions", "actions", "records", "record_ids", "state", "feedback",
        "omitted", "warnings"}


@pytest.mark.browser
def test_ob9_cli_observe_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cdpagent", "observe", str(EXAMPLES / "todos" / "index.html"),
         "--json", "--max-records", "2"],
        capture_output=True, check=True, timeout=60,
    )
    value = msgspec.json.decode(out.stdout)
    assert set(value) == {"observation", "text", "tools"}
    assert set(value["observation"]) >= KEYS
    assert value["observation"]["omitted"]["records_shown"] == 2
    assert "(12 total, showing 2)" in value["text"]
    assert [t["function"]["name"] for t in value["tools"]] == ["add_todo", "toggle", "search"]


async def test_ob9_script_observe_step(browser: cdpagent.Browser) -> None:
    tab = await browser.open(EXAMPLES / "todos" / "index.html")
    result = await observe_step(tab, {"op": "observe", "options": {"max_records": 1}})
    assert result["op"] == "observe"
    assert set(result["observation"]) >= KEYS
    assert result["observation"]["omitted"]["records_shown"] == 1
    with pytest.raises(StepError, match="bad options"):
        await observe_step(tab, {"op": "observe", "options": {"max_rows": 1}})
