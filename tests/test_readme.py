"""The README's first Python example runs as written and prints what its comments say."""

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
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "## Available actions on this page" in out
    assert "['add_todo', 'toggle', 'search']" in out
    assert "'t1': {'done': ValueChange(before=False, after=True)}" in out
    assert "'title': 'Launch plan'" in out
