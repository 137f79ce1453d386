"""SF-2: ``cdpagent demo`` runs end to end against real Chromium and prints measured figures."""

from __future__ import annotations

import subprocess
import sys

import pytest


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
    assert "CDP round trip" in out and " µs" in out
    assert '"code": "STALE_STATE"' in out
    assert "post('thread_notify') queued as" in out and "请点评作文" in out
    assert "## Available actions on this page" in out
    assert '"t9": {"done": {"before": false, "after": true}}' in out
