"""DR-1, DR-4, DR-5: faults end with a clear exception in bounded time, on both transports.

Each test here launches (and often breaks) its own browser, and checks that no
process and no temporary directory is left behind.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
import trio
from process_support import live_members, wait_group_exited

import cdpagent
from cdpagent.cdp.children import OWNER_FILE, child_environ, owned_workdir, owner_alive, remove_stale_workdirs
from cdpagent.cdp.launcher import find_browser

NEVER = "new Promise(() => {})"


@pytest.fixture(params=["pipe", "websocket"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(autouse=True)
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Profiles go to a private folder so a test can check none is left behind."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    yield tmp_path
    assert list(tmp_path.iterdir()) == [], "a temporary profile was left behind"


def assert_reaped(browser: cdpagent.Browser) -> None:
    assert browser.process is not None
    assert browser.process.process.returncode is not None, "the browser process was not reaped"


async def pending_eval(tab: cdpagent.Tab, expression: str = NEVER) -> None:
    await tab.session.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True})



def test_dr4_no_browser_found_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(cdpagent.BrowserNotFound, match="CDPAGENT_CHROME"):
        find_browser(environ={"PATH": "/nonexistent"}, is_executable=lambda path: False)


async def test_dr4_launch_without_browser_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CDPAGENT_CHROME", "/nonexistent/chrome")
    with pytest.raises(cdpagent.BrowserNotFound, match="CDPAGENT_CHROME"):
        async with cdpagent.launch():
            pass


async def test_dr4_browser_exiting_during_launch_is_a_launch_error(
    transport: str, tmp_path: Path
) -> None:
    fake = tmp_path.parent / f"fake-browser-{transport}"
    fake.write_text("#!/bin/sh\necho 'fake browser: cannot start' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    try:
        with trio.fail_after(20), pytest.raises(cdpagent.LaunchError, match="cannot start"):
            async with cdpagent.launch(executable=str(fake), transport=transport):
                pass
    finally:
        fake.unlink()


async def test_dr1_endpoint_that_is_not_cdp(nursery: trio.Nursery) -> None:
    async def serve(stream: trio.SocketStream) -> None:
        await stream.receive_some(4096)
        await stream.send_all(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>hello</html>")
        await stream.aclose()

    listeners = await nursery.start(partial(trio.serve_tcp, serve, 0, host="127.0.0.1"))
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(10), pytest.raises(cdpagent.ConnectionClosed, match="not a CDP endpoint"):
        async with cdpagent.connect(f"http://127.0.0.1:{port}"):
            pass
    with trio.fail_after(10), pytest.raises(cdpagent.ConnectionClosed, match="DevTools"):
        async with cdpagent.connect(f"ws://127.0.0.1:{port}/devtools/browser/x", timeout=3):
            pass
    with trio.fail_after(10), pytest.raises(cdpagent.ConnectionClosed, match="cannot"):
        async with cdpagent.connect("ws://127.0.0.1:9/devtools/browser/x"):
            pass


async def test_dr5_browser_closing_the_connection_fails_pending_calls(transport: str) -> None:
    async with cdpagent.launch(transport=transport) as browser:
        tab = await browser.open("about:blank")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(browser.send, "Browser.close")
            # Chromium may detach the tab before it drops the connection.
            with trio.fail_after(10), pytest.raises((cdpagent.ConnectionClosed, cdpagent.SessionClosed)):
                await pending_eval(tab)
            with trio.fail_after(10):
                await browser.connection.closed.wait()
            with pytest.raises(cdpagent.ConnectionClosed):
                await browser.send("Browser.getVersion")
            nursery.cancel_scope.cancel()
    assert_reaped(browser)


async def test_dr5_close_target_while_a_call_is_pending(transport: str) -> None:
    async with cdpagent.launch(transport=transport) as browser:
        tab = await browser.open("about:blank")
        async with trio.open_nursery() as nursery:

            async def close_soon() -> None:
                await tab.session.send("Runtime.evaluate", {"expression": "1"})
                await browser.send("Target.closeTarget", {"targetId": tab.target_id})

            nursery.start_soon(close_soon)
            with trio.fail_after(10), pytest.raises(cdpagent.SessionClosed):
                await pending_eval(tab)
        assert tab.closed
        with pytest.raises(cdpagent.SessionClosed):
            await tab.session.send("Runtime.evaluate", {"expression": "1"})
    assert_reaped(browser)


async def test_dr5_renderer_crash_while_a_call_is_pending(transport: str) -> None:
    async with cdpagent.launch(transport=transport) as browser:
        tab = await browser.open("about:blank")
        async with trio.open_nursery() as nursery:

            async def crash() -> None:
                try:
                    await tab.session.send("Page.crash")
                except cdpagent.CDPAgentError:
                    pass  # the crash may take its own command down with it

            nursery.start_soon(crash)
            with trio.fail_after(10), pytest.raises(cdpagent.TargetCrashed):
                await pending_eval(tab)
        assert tab.crashed
    assert_reaped(browser)


async def test_dr5_browser_killed_with_calls_pending_on_several_tabs(transport: str) -> None:
    failures: list[BaseException] = []
    async with cdpagent.launch(transport=transport) as browser:
        tabs = [await browser.open("about:blank") for _ in range(3)]

        async def call(tab: cdpagent.Tab) -> None:
            try:
                await pending_eval(tab)
            except cdpagent.CDPAgentError as exc:
                failures.append(exc)

        with trio.fail_after(15):
            async with trio.open_nursery() as nursery:
                for tab in tabs:
                    nursery.start_soon(call, tab)
                # Each call reaches the browser before the kill.
                await tabs[-1].session.send("Runtime.evaluate", {"expression": "1"})
                assert browser.process is not None
                browser.process.kill()
    assert len(failures) == 3
    assert all(isinstance(f, cdpagent.ConnectionClosed) for f in failures)
    assert_reaped(browser)


async def test_dr1_150_mb_string_result(transport: str) -> None:
    size = 150 * 1024 * 1024
    async with cdpagent.launch(transport=transport) as browser:
        tab = await browser.open("about:blank")
        with trio.fail_after(60):
            reply = await tab.session.send(
                "Runtime.evaluate",
                {"expression": f"'x'.repeat({size})", "returnByValue": True},
            )
        value = reply["result"]["value"]
        assert len(value) == size
        del reply, value
        assert await tab.session.send("Runtime.evaluate", {"expression": "1"})
    assert_reaped(browser)


async def test_dr5_cancelled_call_leaves_nothing_and_its_late_reply_is_dropped(transport: str) -> None:
    async with cdpagent.launch(transport=transport, extensions=[]) as browser:
        tab = await browser.open("about:blank")
        core = browser.connection.core
        with trio.move_on_after(0.05) as scope:
            await pending_eval(tab, "new Promise(r => setTimeout(() => r(1), 300))")
        assert scope.cancelled_caught
        session_id = tab.session.session_id
        assert core.pending_on(session_id) == 0
        # The IO layer's waiters and the core's pending table stay in step.
        assert set(browser.connection._calls) == set(core._pending)
        dropped = core.dropped
        # Resolves after the cancelled call's promise, so its reply has arrived by then.
        await pending_eval(tab, "new Promise(r => setTimeout(() => r(2), 600))")
        assert core.dropped == dropped + 1
        assert core.pending_on(session_id) == 0


async def test_dr4_no_sandbox_only_as_root_and_process_group_reaped(transport: str) -> None:
    async with cdpagent.launch(transport=transport) as browser:
        assert browser.process is not None
        argv = (await trio.Path(f"/proc/{browser.process.process.pid}/cmdline").read_bytes()).split(b"\0")
        assert (b"--no-sandbox" in argv) == (os.geteuid() == 0)
        # Websocket browsers get the pipe too, as a lifeline (see the next test).
        assert b"--remote-debugging-pipe" in argv
        assert (b"--remote-debugging-port=0" in argv) == (transport == "websocket")
        profile = browser.process.profile
        assert profile.exists()
    assert_reaped(browser)
    assert not profile.exists()


OWNER = """
import os, sys, trio, cdpagent
async def main():
    async with cdpagent.launch(transport=sys.argv[1]) as browser:
        print(browser.process.process.pid, flush=True)
        await trio.sleep_forever()
trio.run(main)
"""


async def test_dr4_browser_dies_with_its_owner(
    transport: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """An owner killed before it can stop its browser (SIGKILL: no cleanup runs) leaves no browser."""
    env = {**os.environ, "TMPDIR": str(tmp_path_factory.mktemp("owner"))}
    async with trio.open_nursery() as nursery:
        owner = await nursery.start(
            partial(trio.run_process, [sys.executable, "-c", OWNER, transport], stdout=subprocess.PIPE,
                    env=env, check=False)
        )
        browser_pid = int(await _owner_line(owner))
        assert live_members(browser_pid), "the browser is not running"
        owner.kill()
    with trio.fail_after(20):
        await wait_group_exited(browser_pid)


async def _owner_line(owner: trio.Process) -> bytes:
    """The first line the owner prints (its browser's pid, and more), within 30 s."""
    assert owner.stdout is not None
    with trio.fail_after(30):
        line = b""
        while not line.endswith(b"\n"):
            chunk = await owner.stdout.receive_some()
            assert chunk, "the owner exited before printing its browser's pid"
            line += chunk
    return line


FORKING_OWNER = """
import os, sys, trio, cdpagent
async def main():
    async with cdpagent.launch(transport=sys.argv[1]) as browser:
        helper = os.fork()  # a helper (as multiprocessing's fork makes) keeps every descriptor
        if helper == 0:
            import time
            time.sleep(120)
            os._exit(0)
        print(browser.process.process.pid, browser.process.workdir, helper, flush=True)
        await trio.sleep_forever()
trio.run(main)
"""


async def test_dr4_browser_dies_with_its_owner_even_when_a_fork_holds_the_lifeline(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35, finding 8: a host killed with SIGKILL leaves no browser within 5 s, even
    when a process it forked still holds the browser's pipe, and the next launch removes
    the dead host's temporary profile (and the lock folder its browser made beside it)."""
    # Short: the browser's lock socket lives in TMPDIR, and a socket path has ~100 bytes.
    short = tempfile.mkdtemp(prefix="c35-", dir="/tmp")
    monkeypatch.setattr(tempfile, "tempdir", short)
    env = {**os.environ, "TMPDIR": short}
    try:
        async with trio.open_nursery() as nursery:
            owner = await nursery.start(
                partial(trio.run_process, [sys.executable, "-c", FORKING_OWNER, transport],
                        stdout=subprocess.PIPE, env=env, check=False)
            )
            pid_text, workdir, helper_text = (await _owner_line(owner)).decode().split()
            browser_pid, helper = int(pid_text), int(helper_text)
            try:
                assert live_members(browser_pid), "the browser is not running"
                beside = set(os.listdir(short)) - {os.path.basename(workdir)}
                assert not beside, f"the browser made {beside} outside its launch folder"
                owner.kill()
                with trio.fail_after(5):
                    await wait_group_exited(browser_pid)
            finally:
                os.kill(helper, 9)
        assert await trio.Path(workdir).exists(), "nothing ran the killed owner's clean-up, yet it is gone"
        async with cdpagent.launch(transport=transport, extensions=[]):
            assert not await trio.Path(workdir).exists(), "the next launch left the dead owner's profile"
        assert os.listdir(short) == [], "the dead owner's browser left files in the temporary folder"
    finally:
        shutil.rmtree(short, ignore_errors=True)


def test_dr4_browser_temporary_folder_is_its_launch_folder_when_a_socket_fits() -> None:
    """The browser's TMPDIR is its launch folder, unless its lock socket's path would not fit there."""
    assert child_environ("/tmp/cdpagent-x", {"TMPDIR": "/elsewhere", "A": "1"}) == {
        "TMPDIR": "/tmp/cdpagent-x", "A": "1"
    }
    deep = "/tmp/" + "d" * 60
    assert child_environ(deep, {"TMPDIR": "/elsewhere"}) == {"TMPDIR": "/elsewhere"}
    assert "TMPDIR" not in child_environ(deep, {})


def test_dr4_stale_workdirs_only_of_owners_that_are_gone(private_tmp: Path) -> None:
    """A folder is removed only when it names an owner and that owner (pid and start time) is gone."""
    mine = Path(owned_workdir())
    record = (mine / OWNER_FILE).read_text()
    assert owner_alive(record)
    pid, started = record.split()
    assert not owner_alive(f"{pid} {int(started) + 1}"), "a reused pid counted as the owner"
    assert owner_alive("not a record"), "an unreadable record must never lead to a removal"
    gone = Path(owned_workdir())
    (gone / OWNER_FILE).write_text(f"{2**22 + 1} 1\n")  # above pid_max: no such process
    unowned = private_tmp / "cdpagent-unowned"
    unowned.mkdir()
    assert remove_stale_workdirs() == [str(gone)]
    assert mine.exists() and unowned.exists() and not gone.exists()
    shutil.rmtree(mine)
    unowned.rmdir()
