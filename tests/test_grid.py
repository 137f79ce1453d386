"""Browsers from a real Selenium Grid 4 hub and node on 127.0.0.1 (SC-1), and a pool over them (SC-2).

One hub and one node serve the whole module (starting them costs most of this
module's time). The hub-stop test stops that hub, so it is the last test here.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import trio
from grid_support import NODE_SESSIONS, SESSION_TIMEOUT, LocalGrid, free_port, missing_tools
from page_api_support import LoopbackServer, hang_started, loopback_server
from process_support import wait_groups_exited

import cdpagent
from cdpagent.cdp.concurrency import collapse
from cdpagent.remote.grid import Hub

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("CDPAGENT_NO_GRID")), reason="CDPAGENT_NO_GRID is set"
)


@pytest.fixture(scope="module")
def grid() -> Iterator[LocalGrid]:
    """A hub and one node; at the end every grid process is gone and the folder removed."""
    missing = missing_tools()
    if missing:
        pytest.fail(f"the grid tests need {', '.join(missing)}: run 'make setup' (scripts/setup.sh)")
    local = LocalGrid()
    try:
        local.start_hub()
        node = local.start_node()
        local.wait_node_up(node)
        yield local
    finally:
        local.close()
    # pytest-trio runs only per-test async fixtures, so this module-wide one is synchronous
    # and its teardown, which runs between tests, runs its own Trio loop for the wait.
    trio.run(_grid_exited, local.spawned)
    assert not local.workdir.exists()


async def _grid_exited(groups: list[int]) -> None:
    """Return once every grid process has exited; TooSlowError if one outlives 10 s."""
    # Killed browsers are reaped by init a moment after their chromedriver died.
    with trio.fail_after(10):
        await wait_groups_exited(groups)


@pytest.fixture
async def server() -> AsyncIterator[LoopbackServer]:
    """The examples and test pages on a loopback HTTP server."""
    async with loopback_server() as running:
        yield running


async def _sessions(grid: LocalGrid) -> dict[str, str]:
    status = await trio.to_thread.run_sync(grid.status)
    return LocalGrid.sessions(status)


async def test_sc1_seed_walkthrough_through_the_grid(grid: LocalGrid, server: LoopbackServer) -> None:
    async with cdpagent.connect_grid(grid.hub, allow_origins=[server.origin]) as browser:
        tab = await browser.open(f"{server.origin}/examples/todos/index.html")
        first = await tab.observe()
        assert "t9" in first.record_ids and "t9" not in [r.id for r in first.records]
        searched = await tab.act("search", text="周报")
        assert searched.ok and searched.result.changed is not None
        found = await tab.observe()
        target = next(r for r in found.records if r.fields.get("title") == "周报")
        assert target.id == "t9"
        toggled = await tab.act("toggle", record="t9")
        assert toggled.ok, toggled.to_json()
        changed = toggled.to_builtins()["result"]["changed"]
        assert changed["records"]["changed"] == {"t9": {"done": {"before": False, "after": True}}}
    await trio.to_thread.run_sync(grid.wait_no_sessions)


async def test_sc1_page_agent_api_and_thread_notify_through_the_grid(
    grid: LocalGrid, server: LoopbackServer
) -> None:
    async with cdpagent.connect_grid(grid.hub, allow_origins=[server.origin]) as browser:
        tab = await browser.open(f"{server.origin}/examples/editor/index.html")
        assert (await tab.invoke("read_current"))["revision"] == 1
        change = {"change": {"kind": "rename", "text": "Plan B"}, "expectedRevision": 1}
        assert (await tab.invoke("apply_change", change))["state"]["revision"] == 2
        stale = await tab.invoke("apply_change", change)
        assert stale == {"ok": False, "error": {"code": "STALE_STATE"}, "state": {"revision": 2}}
        with pytest.raises(cdpagent.PageApiError) as missing:
            await tab.invoke("no_such_method")
        assert missing.value.code == "PAGE_API_METHOD_NOT_FOUND"

        thread = cdpagent.Thread(browser)
        page = await thread.open(f"{server.origin}/pages/methods.html")
        posted = await page.invoke("notify", {"message": "review please"})
        assert posted["ok"] is True and posted["data"]["disposition"] == "queued"
        with trio.fail_after(10):
            note = await thread.receive()
        assert (note.tab_id, note.message) == (page.id, "review please")
    await trio.to_thread.run_sync(grid.wait_no_sessions)


async def test_sc1_keepalive_outlives_the_grid_session_timeout(grid: LocalGrid) -> None:
    """A session that only waits stays alive past ``--session-timeout``; one without pings is reaped."""
    before = set(await _sessions(grid))
    kept_open = trio.Event()
    silent_gone = trio.Event()
    results: dict[str, Any] = {}

    async def kept() -> None:
        async with cdpagent.connect_grid(grid.hub) as browser:
            results["kept_id"] = (set(await _sessions(grid)) - before - {results.get("silent_id")}).pop()
            kept_open.set()
            started = trio.current_time()
            await silent_gone.wait()
            # The grid's own clock: the silent session was reaped, this one was not.
            assert trio.current_time() - started >= SESSION_TIMEOUT
            results["alive"] = results["kept_id"] in await _sessions(grid)
            results["version"] = await browser.send("Browser.getVersion")

    async def silent() -> None:
        await kept_open.wait()
        # A ping period far beyond the timeout: this session only waits.
        async with cdpagent.connect_grid(grid.hub, keepalive=10 * SESSION_TIMEOUT) as browser:
            mine = set(await _sessions(grid)) - before - {results["kept_id"]}
            results["silent_id"] = next(iter(mine))
            reaped = functools.partial(
                grid.wait, "the silent session reaped", lambda s: mine.isdisjoint(LocalGrid.sessions(s))
            )
            await trio.to_thread.run_sync(reaped, 6 * SESSION_TIMEOUT)
            silent_gone.set()
            # The hub keeps a reaped session's websocket open but silent.
            with pytest.raises(cdpagent.errors.CallTimeout):
                session = browser.connection.browser_session
                await session.send("Browser.getVersion", deadline=trio.current_time() + 5)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(kept)
        nursery.start_soon(silent)
    assert results["alive"] is True
    assert "product" in results["version"]
    await trio.to_thread.run_sync(grid.wait_no_sessions)


async def test_sc1_refused_sessions_name_their_cause(grid: LocalGrid) -> None:
    with pytest.raises(cdpagent.GridUnreachable, match="cannot reach the hub"):
        async with cdpagent.connect_grid(f"http://127.0.0.1:{free_port()}"):
            pass
    with pytest.raises(cdpagent.GridCapabilitiesRefused, match="browserName=firefox"):
        async with cdpagent.connect_grid(grid.hub, capabilities={"browserName": "firefox"}):
            pass

    async def html(stream: trio.SocketStream) -> None:
        with contextlib.suppress(trio.BrokenResourceError, OSError):
            await stream.receive_some(65536)
            await stream.send_all(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>hi</html>")
            await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(functools.partial(trio.serve_tcp, html, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        with pytest.raises(cdpagent.GridNotAHub, match="text/html"):
            async with cdpagent.connect_grid(f"http://127.0.0.1:{port}"):
                pass
        nursery.cancel_scope.cancel()


async def test_sc1_sessions_are_deleted_on_error_and_cancel(grid: LocalGrid) -> None:
    """Every slot is busy while two blocks run, so a third is refused; both slots are free afterwards.

    (Every other test checks the normal exit.)
    """
    entered = 0
    all_in = trio.Event()
    release = trio.Event()

    async def hold(how: str) -> None:
        nonlocal entered
        # Two browsers starting at once on a loaded machine can take well over a minute.
        async with cdpagent.connect_grid(grid.hub, timeout=150) as browser:
            await browser.send("Browser.getVersion")
            entered += 1
            if entered == NODE_SESSIONS:
                all_in.set()
            await release.wait()
            if how == "error":
                raise ValueError("the block failed")
            await trio.sleep_forever()  # cancelled by the failing sibling

    with pytest.raises(ValueError, match="the block failed"), collapse():
        async with trio.open_nursery() as nursery:
            for how in ("error", "cancel"):
                nursery.start_soon(hold, how)
            with trio.fail_after(200):
                await all_in.wait()
            assert len(await _sessions(grid)) == NODE_SESSIONS
            with pytest.raises(cdpagent.GridNoFreeSlot, match="busy"):
                async with cdpagent.connect_grid(grid.hub):
                    pass
            release.set()
    await trio.to_thread.run_sync(grid.wait_no_sessions)
    status = await Hub(grid.hub).status()
    assert status.sessions() == set() and status.free_slots({"browserName": "chrome"}) == NODE_SESSIONS


async def test_sc1_cli_call_through_the_grid(grid: LocalGrid) -> None:
    editor = os.path.join(os.path.dirname(__file__), "..", "examples", "editor", "index.html")
    cli = [sys.executable, "-m", "cdpagent"]
    done = await trio.run_process(
        [*cli, "call", "--grid", grid.hub, editor, "read_current"], capture_stdout=True, check=False
    )
    assert done.returncode == 0 and json.loads(done.stdout)["revision"] == 1
    down = await trio.run_process(
        [*cli, "call", "--grid", f"http://127.0.0.1:{free_port()}", editor, "read_current"],
        capture_stderr=True,
        check=False,
    )
    assert down.returncode == 1 and b"cannot reach the hub" in down.stderr
    await trio.to_thread.run_sync(grid.wait_no_sessions)


async def test_sc2_node_killed_mid_call_fails_fast_and_the_pool_replaces_the_browser(
    grid: LocalGrid, server: LoopbackServer
) -> None:
    spare = grid.start_node()  # registers while the first session runs
    before = set(await _sessions(grid))
    async with cdpagent.Pool([f"grid+{grid.hub}"], per_browser=2, allow_origins=[server.origin]) as pool:
        (victim,) = pool.browsers
        (session_id,) = set(await _sessions(grid)) - before
        node = (await _sessions(grid))[session_id]
        async with pool.tab(f"{server.origin}/pages/methods.html") as tab:

            async def kill_when_hanging() -> None:
                await hang_started(tab)
                await trio.to_thread.run_sync(grid.kill_node, node)

            async with trio.open_nursery() as nursery:
                nursery.start_soon(kill_when_hanging)
                # The keep-alive notices within its period + 10 s.
                with pytest.raises(cdpagent.PageApiError) as lost, trio.fail_after(30):
                    await tab.invoke("hang", timeout=120)
            assert lost.value.code == "PAGE_API_CALL_FAILED"
            with pytest.raises(cdpagent.PageApiError) as after:
                await tab.invoke("echo", {"x": 1})
            assert after.value.code == "PAGE_API_CALL_FAILED"
        await trio.to_thread.run_sync(grid.wait_node_up, spare)
        await pool.wait_until(lambda: bool(pool.browsers) and pool.browsers[0] is not victim, 120)
        assert pool.replacements == 1
        async with pool.tab(f"{server.origin}/pages/methods.html") as tab:
            assert await tab.invoke("echo", {"x": 1}) == {"x": 1}
        now = await _sessions(grid)
        assert [now[s] for s in set(now) - before - {session_id}] == [spare]
    # The dead node's session stays listed until the hub drops that node.
    only_dead = functools.partial(
        grid.wait, "the replacement session deleted", lambda st: set(LocalGrid.sessions(st)) <= {session_id}
    )
    await trio.to_thread.run_sync(only_dead, 15)


async def test_sc1_hub_stopped_gives_a_clear_error_and_leaves_nothing_running(grid: LocalGrid) -> None:
    """Runs last: it stops the module's hub."""
    with pytest.raises(cdpagent.GridUnreachable, match="the hub is gone"):
        async with cdpagent.connect_grid(grid.hub) as browser:
            await trio.to_thread.run_sync(grid.stop_hub)
            forever = {"expression": "new Promise(() => {})", "awaitPromise": True}
            with trio.fail_after(30), pytest.raises(cdpagent.ConnectionClosed):
                await browser.send("Runtime.evaluate", forever)
    assert grid.status() == {}
