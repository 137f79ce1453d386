"""The launch flags on every command that starts a browser, and what they do to a real Chromium.

``--headed``, ``--chrome-arg``, ``--user-data-dir``, ``--storage-state`` and
``--allow-dir`` are added in one place (:mod:`cdpagent.console.flags`) and become
``launch()`` keyword arguments in one function (``launch_options``).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import inspect
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PAGES

import cdpagent
from cdpagent import StepError
from cdpagent.commandline import main
from cdpagent.console.flags import add_browser_flags, browser_from_flags, launch_options

FLAGS = ("--headed", "--chrome-arg", "--user-data-dir", "--storage-state", "--allow-dir")
AGENT_PAGE = PAGES / "flags" / "agent.html"


def test_every_command_that_starts_a_browser_takes_the_launch_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, commands = main._parser()
    starting = [name for name in commands if name not in ("examples", "trace")]  # these only read files
    assert {"demo", "call", "script", "observe", "chat", "mcp", "eval"} <= set(starting)
    for name in starting:
        with pytest.raises(SystemExit) as done:
            main.main([name, "--help"])
        assert done.value.code == 0
        shown = capsys.readouterr().out
        for flag in FLAGS:
            assert flag in shown, (name, flag)
        assert ("--trace PATH" in shown) is (name not in ("demo", "eval")), name


def test_the_flags_become_launch_keyword_arguments() -> None:
    parser = argparse.ArgumentParser()
    add_browser_flags(parser)
    args = parser.parse_args(
        ["--headed", "--chrome-arg=--lang=de", "--chrome-arg=-x", "--user-data-dir", "p",
         "--storage-state", "s.json", "--allow-dir", "a", "--allow-dir", "b"]
    )  # fmt: skip
    options = launch_options(args)
    assert options == {
        "headless": False, "args": ("--lang=de", "-x"), "user_data_dir": "p", "storage_state": "s.json",
        "allow_dirs": ("a", "b"),
    }  # fmt: skip
    assert set(options) <= set(inspect.signature(cdpagent.launch).parameters)
    assert launch_options(parser.parse_args([]))["headless"] is True
    capped = launch_options(parser.parse_args(["--max-download-mb", "5", "--max-downloads-total-mb", "7"]))
    assert (capped["max_download_bytes"], capped["max_downloads_total_bytes"]) == (5_000_000, 7_000_000)
    assert set(capped) <= set(inspect.signature(cdpagent.launch).parameters)
    with pytest.raises(SystemExit):
        parser.parse_args(["--max-download-mb", "0"])
    # A grid's browser is not launched here: the launch flags are refused with it, by name.
    with pytest.raises(StepError, match="--headed, --storage-state need a browser cdpagent launches"):
        grid = ["--grid", "http://127.0.0.1:1", "--headed", "--storage-state", "s"]
        browser_from_flags(parser.parse_args(grid))


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
