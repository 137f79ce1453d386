"""What the launch flags do to a real Chromium: ``--storage-state``, ``--chrome-arg`` and
``--allow-dir`` reach the browser a command launches (tests/test_launch_flags.py checks, without
a browser, that every command takes them and how they become ``launch()`` arguments).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PAGES

from cdpagent.commandline import main
from cdpagent.console.flags import add_browser_flags, launch_options

AGENT_PAGE = PAGES / "flags" / "agent.html"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The test pages over loopback HTTP (cookies and local storage need an origin)."""
    handler = functools.partial(_Quiet, directory=str(PAGES))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


#: Written by Playwright's ``context.storage_state()`` (tests/record_playwright_state.py), its
#: loopback origin as ``ORIGIN``.
PLAYWRIGHT_STATE = PAGES / "flags" / "playwright-state.json"


@pytest.mark.browser
def test_storage_state_chrome_arg_and_allow_dir_reach_the_launched_browser(
    site: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "state.json"
    saved.write_text(PLAYWRIGHT_STATE.read_text().replace("ORIGIN", site))
    (tmp_path / "cv.txt").write_text("my cv\n")
    steps = tmp_path / "steps.jsonl"
    lines = [
        {"op": "observe"},
        {"op": "navigate", "url": f"{site}/flags/agent.html"},
        {"op": "observe"},
        {"op": "act", "action": "attach_cv", "files": [str(tmp_path / "cv.txt")]},
    ]
    steps.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = [
        "script", f"{site}/primitives/login.html", str(steps), "--storage-state", str(saved),
        "--chrome-arg=--user-agent=cdpagent-flag-test", "--allow-dir", str(tmp_path),
    ]  # fmt: skip
    assert main.main(argv) == 0
    signed_in, _, agent, attached = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    # A fresh launch has no cookies: these are the ones Playwright's context saved.
    assert _state(signed_in)["who"] == "pw-cookie pw-token"
    assert _state(agent)["agent"] == "flagged"  # the page saw the user agent --chrome-arg gave Chromium
    result = attached["receipt"]["result"]
    assert result["ok"] and result["changed"]["state"]["attached"]["after"] == "cv.txt", result


def _state(step: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item["value"] for item in step["observation"]["state"]}


@pytest.mark.browser
async def test_the_mcp_server_launches_with_a_playwright_storage_state(site: str, tmp_path: Path) -> None:
    """``cdpagent mcp --storage-state FILE`` (``SurfaceConfig.browser_options``): the tabs the
    server opens are signed in with the cookies and local storage Playwright saved."""
    from mcp.client.client import Client
    from mcp_support import call_ok

    from cdpagent.mcp_server.server import SurfaceConfig, open_server

    saved = tmp_path / "state.json"
    saved.write_text(PLAYWRIGHT_STATE.read_text().replace("ORIGIN", site))
    parser = argparse.ArgumentParser()
    add_browser_flags(parser)
    options = launch_options(parser.parse_args(["--storage-state", str(saved)]))
    config = SurfaceConfig(browser_options=options)
    async with open_server(config) as server, Client(server) as client:
        tab = (await call_ok(client, "open_page", {"url": f"{site}/primitives/login.html"}))["tabId"]
        seen = await call_ok(client, "observe", {"tabId": tab})
    assert _state(seen)["who"] == "pw-cookie pw-token"
