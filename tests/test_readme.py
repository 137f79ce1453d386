"""The README's ways in run as written: its first Python example prints what its comments say,
and ``make demo`` (``cdpagent demo``, SF-2) runs end to end against real Chromium printing
measured figures. (Every block of the README and docs/ runs against the wheel in
tests/test_package_wheel.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _first_python_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("```python\n") + len("```python\n")
    return text[start : text.index("```", start)]


@pytest.mark.browser
def test_readme_python_example_runs_from_any_directory(tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(_first_python_block(), encoding="utf-8")
    run = [sys.executable, str(script)]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "## Available actions on this page" in out
    assert "['add_todo', 'toggle', 'search']" in out
    assert "'t1': {'done': ValueChange(before=False, after=True)}" in out


@pytest.mark.browser
def test_sf2_demo_runs_and_prints_round_trip_receipts_and_notifications() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cdpagent", "demo"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "round trips)" in out and " µs" in out
    assert '"code": "STALE_STATE"' in out
    assert "post('thread_notify') queued as" in out and "请点评作文" in out
    assert "## Available actions on this page" in out
    assert '"t9": {"done": {"before": false, "after": true}}' in out
