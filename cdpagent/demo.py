"""``cdpagent demo``: one run through what cdpagent does, on the bundled example pages.

1. the driver: launch, open a page, measure CDP round trips;
2. the Page Agent API on the document editor: a read, a write with
   ``expectedRevision``, and a stale write the page refuses with ``STALE_STATE``;
3. thread_notify on the writing page: a (simulated) child asks for a review,
   the page wakes its thread, the agent reads and answers;
4. the observation of the todos page, as the model would see it;
5. the seed's walkthrough: ``search`` "周报", then ``toggle`` the task found,
   with the change receipt of each action.

Everything goes to ``out`` (stdout by default); the figures are measured, not canned.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import trio

from .browser import Browser, launch
from .bundled import example_page

__all__ = ["run_demo"]

Printer = Callable[[str], None]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


async def run_demo(out: Printer = print) -> None:
    """Run the whole demo; raises cdpagent errors if any step fails."""
    started = time.perf_counter()
    async with launch() as browser:
        out(f"== 1. driver: Chromium launched in {time.perf_counter() - started:.2f} s")
        await _driver(browser, out)
        out("\n== 2. Page Agent API: the document editor")
        await _editor(browser, out)
        out("\n== 3. thread_notify: the writing page wakes its thread")
        await _writing(browser, out)
        out("\n== 4. observation of the todos page (system-message page section)")
        await _observation(browser, out)
        out("\n== 5. the seed's walkthrough: search 周报, then toggle it")
        await _walkthrough(browser, out)


async def _driver(browser: Browser, out: Printer) -> None:
    tab = await browser.open(example_page("hello"))
    title = await tab.session.send(
        "Runtime.evaluate", {"expression": "document.title", "returnByValue": True}
    )
    out(f"opened {tab.id}: {title['result']['value']!r}")
    samples = []
    for _ in range(300):
        t0 = time.perf_counter()
        await tab.session.send("Runtime.evaluate", {"expression": "1"})
        samples.append(time.perf_counter() - t0)
    samples.sort()
    out(
        f"CDP round trip, Runtime.evaluate('1') x{len(samples)} over the pipe: "
        f"p50 {samples[len(samples) // 2] * 1e6:.0f} µs, p99 {samples[int(len(samples) * 0.99)] * 1e6:.0f} µs"
    )
    await tab.close()


async def _editor(browser: Browser, out: Printer) -> None:
    tab = await browser.open(example_page("editor"))
    current = await tab.invoke("read_current")
    revision = current["revision"]
    out(f"read_current -> revision {revision}, {current['blockCount']} blocks")
    change = {"kind": "insert", "index": 0, "text": "Written by the agent"}
    t0 = time.perf_counter()
    written = await tab.invoke("apply_change", {"change": change, "expectedRevision": revision})
    out(
        f"apply_change(expectedRevision={revision}) -> ok={written['ok']}, "
        f"revision {written['state']['revision']} ({(time.perf_counter() - t0) * 1e3:.2f} ms)"
    )
    stale = await tab.invoke("apply_change", {"change": change, "expectedRevision": revision})
    out(f"apply_change(expectedRevision={revision}) again -> {_json(stale)}")
    from .runtime import PageApiError

    try:
        await tab.invoke("no_such_method")
    except PageApiError as exc:
        out(f"no_such_method -> {_json(exc.envelope())}")
    await tab.close()


async def _writing(browser: Browser, out: Printer) -> None:
    from .runtime import Thread
    from .runtime.simulated_user import user_click, user_type

    async with Thread(browser) as thread:
        tab = await thread.open(example_page("writing"))
        await user_type(tab, "#essay", "My summer holiday was short but sunny.")
        await user_click(tab, "#save")
        await user_click(tab, "#ask")
        with trio.fail_after(10):
            note = await thread.receive()
        out(
            f"page: post('thread_notify') queued as {note.delivery_id}; thread received: "
            f"tab {note.tab_id}, message {note.message!r}"
        )
        current = await tab.invoke("read_current")
        review = {"expectedRevision": current["revision"], "comments": "Lovely start; tell me more."}
        answer = await tab.invoke("submit_review", review)
        out(f"agent: read_current -> revision {current['revision']}; submit_review -> ok={answer['ok']}")
        await tab.close()


async def _observation(browser: Browser, out: Printer) -> None:
    from .snapshot.observe import observe_page

    tab = await browser.open(example_page("todos"))
    t0 = time.perf_counter()
    result = await observe_page(tab)
    elapsed = (time.perf_counter() - t0) * 1e3
    out(result.text)
    names = [tool["function"]["name"] for tool in result.tools]
    out(f"\ntools: {names} ({elapsed:.0f} ms to settle, collect and render)")
    await tab.close()


async def _walkthrough(browser: Browser, out: Printer) -> None:
    from .snapshot.actions import seed_walkthrough

    tab = await browser.open(example_page("todos"))
    receipts = await seed_walkthrough(tab)
    for receipt in receipts:
        out(_json(receipt))
    await tab.close()
