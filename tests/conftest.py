"""Shared fixtures: one Chromium per test session, a fresh connection and tab per test.

The session's browser listens on a loopback DevTools port; each test connects
to it with :func:`cdpagent.connect` inside its own Trio run and closes the tabs
it opened. Tests that are about launching (or the pipe transport) launch
their own browser.

Which tests need Chromium is known, and enforced:

- a test that uses the session browser (``chrome_endpoint`` and every fixture built on
  it: ``browser``, ``wm``, ``pa_browser``, …) is marked ``browser`` here, at collection;
- a test that launches its own browser, or runs a ``cdpagent`` command against a page,
  carries ``pytest.mark.browser`` itself;
- every other test runs where no browser can be found: from the start of the session
  ``CDPAGENT_CHROME`` names a file that does not exist and ``PATH`` begins with a folder
  whose ``chromium``, ``chrome``, ``chromedriver``, … only fail, saying why. Only while
  a marked test runs are both as they were. So an unmarked test that reaches for a
  browser (``cdpagent.launch``, a ``cdpagent`` subprocess, the Grid's chromedriver, an
  environment copied at import) fails, and ``pytest -m "not browser"`` runs the rest
  of the suite with no browser at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
import recorded_cdp

import cdpagent
from cdpagent.cdp.children import child_environ, die_with_parent, owned_workdir, remove_stale_workdirs
from cdpagent.cdp.launcher import default_flags, devtools_url, find_browser, write_preferences
from cdpagent.webmcp.bridge import FLAG as WEBMCP_FLAG

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PAGES = Path(__file__).resolve().parent / "pages"

#: Where the guarded values keep the real ones, for the processes a session starts (xdist's
#: workers inherit the guarded environment of their controller).
_SAVED = "CDPAGENT_TESTS_UNGUARDED"
#: The environment as the session found it: what a test marked ``browser`` runs in.
REAL_ENV = {key: value for key, value in os.environ.items() if key != _SAVED}
for _key, _value in json.loads(os.environ.get(_SAVED, "{}")).items():
    if _value is None:
        REAL_ENV.pop(_key, None)
    else:
        REAL_ENV[_key] = _value
#: What an unmarked test would start a browser or chromedriver as (``cdpagent.cdp.launcher``'s
#: names on ``PATH``, and the Grid's driver); each is shadowed by a stand-in that only fails.
BROWSER_NAMES = (
    "chromium", "chromium-browser", "chromium-headless-shell", "google-chrome", "google-chrome-stable",
    "chrome", "microsoft-edge", "microsoft-edge-stable", "msedge", "chromedriver",
)  # fmt: skip
_STAND_IN = """#!/bin/sh
echo "$0: no browser here: this test is not marked browser (tests/conftest.py)" >&2
exit 1
"""
_GUARDED: dict[str, str] = {}
_NO_BROWSER = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: the test needs Chromium (set by tests/conftest.py from the fixtures a test uses, "
        "by hand on a test that launches its own browser or runs cdpagent against a page)",
    )
    folder = Path(tempfile.mkdtemp(prefix="cdpagent-no-browser-"))
    for name in BROWSER_NAMES:
        path = folder / name
        path.write_text(_STAND_IN, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    config.stash[_NO_BROWSER] = folder
    _GUARDED.update(
        CDPAGENT_CHROME=str(folder / "no-browser-for-unmarked-tests"),
        PATH=os.pathsep.join([str(folder), REAL_ENV.get("PATH", os.defpath)]),
    )
    os.environ[_SAVED] = json.dumps({key: REAL_ENV.get(key) for key in _GUARDED})
    _apply(browser=False)


def pytest_unconfigure(config: pytest.Config) -> None:
    _apply(browser=True)
    os.environ.pop(_SAVED, None)
    folder = config.stash.get(_NO_BROWSER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _apply(*, browser: bool) -> None:
    """Set the environment a test marked (``browser``) or unmarked runs in."""
    for key, guarded in _GUARDED.items():
        real = REAL_ENV.get(key)
        if not browser:
            os.environ[key] = guarded
        elif real is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = real


#: Fixtures that start Chromium, or a Grid whose nodes do: a test that uses one is marked ``browser``.
BROWSER_FIXTURES = frozenset({"chrome_endpoint", "http_endpoint", "grid"})
#: Modules whose tests launch their own browser and do not say so themselves yet.
LAUNCHING_MODULES = frozenset({"test_actions_cli.py", "test_driver_faults.py", "test_pool.py"})


#: Modules whose tests share a costly module fixture (a Grid, a built wheel, a browser of the
#: module's own): ``--dist loadgroup`` (the Makefile's) gives each to one worker, so it is built once.
SHARED_FIXTURE_MODULES = {
    "test_grid.py": "grid",
    "test_package_wheel.py": "wheel",
    "test_connect_http.py": "http_endpoint",
}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A recorded connection needs the browser only while it is being recorded.
    recording = {"recorded"} if REAL_ENV.get(recorded_cdp.RECORD) else set()
    for item in items:
        if (BROWSER_FIXTURES | recording) & set(getattr(item, "fixturenames", ())) or (
            item.path.name in LAUNCHING_MODULES
        ):
            item.add_marker(pytest.mark.browser)
        group = SHARED_FIXTURE_MODULES.get(item.path.name)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


_CALL = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[_CALL] = report
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Before any fixture of the test is set up (a module fixture may copy the environment).
    _apply(browser=item.get_closest_marker("browser") is not None)


async def evaluate(tab: cdpagent.Tab, expression: str, *, gesture: bool = False) -> Any:
    """The JSON value of ``expression`` in the page's main world (promises awaited).

    ``gesture`` runs it as if the user had just interacted (popups are allowed).
    Fails the test when the expression throws.
    """
    reply = await tab.session.send(
        "Runtime.evaluate",
        {"expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": gesture},
    )
    assert "exceptionDetails" not in reply, reply
    return reply["result"].get("value")


@pytest.fixture(scope="session")
def chrome_endpoint() -> Iterator[str]:
    """The ``ws://`` DevTools url of a browser shared by the whole session."""
    # Owned and tied to this process: a killed test run leaves neither browser nor profile.
    remove_stale_workdirs("cdpagent-test-")
    workdir = owned_workdir("cdpagent-test-")
    write_preferences(os.path.join(workdir, "profile"))
    argv = [
        find_browser(environ=REAL_ENV),
        *default_flags(os.path.join(workdir, "profile"), headless=True, pipe=False),
        WEBMCP_FLAG,  # WebMCP tests connect with webmcp=True; other pages never notice
    ]
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=die_with_parent(os.getpid()),
        env=child_environ(workdir, REAL_ENV),
    )
    assert proc.stderr is not None
    url = ""
    for line in proc.stderr:
        url = devtools_url(line) or ""
        if url:
            break
    if not url:
        proc.kill()
        pytest.fail("the session browser did not start")
    # Keep draining stderr so the browser never blocks on a full pipe.
    threading.Thread(target=lambda: proc.stderr.read() if proc.stderr else None, daemon=True).start()
    try:
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
async def browser(chrome_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A connection to the session browser; tabs opened during the test are closed after it."""
    async with cdpagent.connect(chrome_endpoint) as connected:
        before = {t.id for t in connected.tabs}
        try:
            yield connected
        finally:
            for tab in connected.tabs:
                if tab.id not in before:
                    await tab.close()


@pytest.fixture
async def wm(chrome_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """A connection to the session browser with the WebMCP bridge; its tabs are closed after the test."""
    async with cdpagent.connect(chrome_endpoint, webmcp=True) as browser:
        try:
            yield browser
        finally:
            for tab in browser.tabs:
                await tab.close()


@pytest.fixture
def recorded(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[recorded_cdp.Recorded]:
    """The CDP connections of this test, replayed from ``tests/traces/connections/MODULE/TEST.json``.

    With ``CDPAGENT_RECORD=1`` they go to the session browser and are recorded instead
    (:mod:`recorded_cdp`); the test body is the same in both modes. Connect to ``.url``.
    """
    chrome = request.getfixturevalue("chrome_endpoint") if REAL_ENV.get(recorded_cdp.RECORD) else None
    tmp = tmp_path_factory.getbasetemp()
    with recorded_cdp.endpoint(request.node, monkeypatch, tmp, chrome) as connections:
        yield connections
        report = request.node.stash.get(_CALL, None)
        connections.finish(passed=report is not None and report.passed)


@pytest.fixture
def recorded_endpoint(recorded: recorded_cdp.Recorded) -> str:
    """The endpoint of :func:`recorded`, for a test that needs nothing else of it."""
    return recorded.url


@pytest.fixture
async def recorded_browser(recorded_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """:func:`browser` on :func:`recorded_endpoint`: replayed, or recorded against the session browser."""
    async with cdpagent.connect(recorded_endpoint) as connected:
        before = {t.id for t in connected.tabs}
        try:
            yield connected
        finally:
            for tab in connected.tabs:
                if tab.id not in before:
                    await tab.close()


@pytest.fixture
async def recorded_wm(recorded_endpoint: str) -> AsyncIterator[cdpagent.Browser]:
    """:func:`wm` on :func:`recorded_endpoint`: replayed, or recorded against the session browser."""
    async with cdpagent.connect(recorded_endpoint, webmcp=True) as browser:
        try:
            yield browser
        finally:
            for tab in browser.tabs:
                await tab.close()
