"""The browser pool over local and attached browsers (SC-2); the grid case is in test_grid.py."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from page_api_support import EXAMPLES, PAGES

import cdpagent

EDITOR = EXAMPLES / "editor" / "index.html"
METHODS = PAGES / "methods.html"


async def test_sc2_leases_spread_over_browsers_and_wait_for_room(chrome_endpoint: str) -> None:
    async with cdpagent.Pool([chrome_endpoint, chrome_endpoint], per_browser=2) as pool:
        first, second = pool.browsers
        held: list[cdpagent.Tab] = []
        release = trio.Event()
        got_fifth = trio.Event()
        fifth: list[cdpagent.Tab] = []

        four_held = trio.Event()

        async def lease(into: list[cdpagent.Tab], done: trio.Event) -> None:
            async with pool.tab(EDITOR) as tab:
                into.append(tab)
                if into is fifth or len(held) == 4:
                    done.set()
                await release.wait()

        async with trio.open_nursery() as nursery:
            for _ in range(4):
                nursery.start_soon(lease, held, four_held)
            with trio.fail_after(60):
                await four_held.wait()
            assert (pool.leases(first), pool.leases(second)) == (2, 2)
            nursery.start_soon(lease, fifth, got_fifth)
            await trio.testing.wait_all_tasks_blocked()
            assert fifth == []  # every browser is full: the fifth waits
            with pytest.raises(trio.TooSlowError):
                async with pool.tab(EDITOR, timeout=0.2):
                    pass
            release.set()
            with trio.fail_after(30):
                await got_fifth.wait()
        assert (pool.leases(first), pool.leases(second)) == (0, 0)
        assert [t.closed for t in held + fifth] == [True] * 5


async def test_sc2_thread_lease_receives_its_pages_notifications(chrome_endpoint: str) -> None:
    async with cdpagent.Pool([chrome_endpoint], per_browser=1) as pool:
        async with pool.thread() as thread:
            tab = await thread.open(METHODS)
            assert pool.leases(thread.browser) == 1
            posted = await tab.invoke("notify", {"message": "done"})
            assert posted["ok"] is True
            with trio.fail_after(10):
                note = await thread.receive()
            assert (note.tab_id, note.message) == (tab.id, "done")
        assert tab.closed and thread.closed and pool.leases(thread.browser) == 0


async def test_sc2_dead_browser_fails_its_tabs_and_is_replaced() -> None:
    async with cdpagent.Pool(["launch", "launch"], per_browser=4) as pool:
        victim, survivor = pool.browsers
        processes = [b.process for b in pool.browsers]
        async with pool.tab(EDITOR) as on_victim, pool.tab(EDITOR) as on_survivor:
            assert {on_victim.browser, on_survivor.browser} == {victim, survivor}
            if on_victim.browser is survivor:
                on_victim, on_survivor = on_survivor, on_victim
            assert victim.process is not None
            victim.process.process.kill()
            with pytest.raises(cdpagent.PageApiError) as lost:
                await on_victim.invoke("read_current")
            assert lost.value.code == "PAGE_API_CALL_FAILED"
            assert victim not in pool.browsers
            async with pool.tab(EDITOR) as fresh:
                assert fresh.browser is not victim
                assert (await fresh.invoke("read_current"))["revision"] == 1
            assert (await on_survivor.invoke("read_current"))["revision"] == 1
        await pool.wait_until(lambda: len(pool.browsers) == 2, timeout=60)
        assert pool.replacements == 1 and victim not in pool.browsers
        processes += [b.process for b in pool.browsers if b is not survivor]
    for process in processes:
        assert process is not None
        assert process.process.returncode is not None
        assert not await trio.Path(process.workdir).exists()


async def test_sc2_pool_that_opens_nothing_raises_the_cause() -> None:
    with pytest.raises(cdpagent.ConnectionClosed, match="cannot open the DevTools websocket"):
        async with cdpagent.Pool(["ws://127.0.0.1:1/devtools/browser/none"]):
            pass
    with pytest.raises(ValueError, match="browser source"):
        cdpagent.Pool(["ftp://nowhere"])
