"""``cdpagent demo``: one run through what cdpagent does, on the bundled example pages.

1. the driver: launch, open a page, measure CDP round trips;
2. the Page Agent API on the document editor: a read, a write with
   ``expectedRevision``, and a stale write the page refuses with ``STALE_STATE``;
3. thread_notify on the writing page: a (simulated) child asks for a review,
   the page wakes its thread, the agent reads and answers;
4. the observation of the todos page, as the model would see it;
5. two actions: ``search`` "周报", then ``toggle`` the task found, with the
   change receipt of each.

Everything goes to ``out`` (stdout by default); the figures are measured, not canned.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

import trio

from ..browser.bundled import example_page
from ..browser.launch import launch
from ..browser.tabs import Browser, Tab
from ..errors import PageApiError
from ..ops.harness import user_click, user_type
from ..runtime.threads import Thread
from ..snapshot.observe import observe_page

__all__ = ["run_demo", "seed_walkthrough"]

Printer = Callable[[str], None]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


async def run_demo(out: Printer = print, *, options: Mapping[str, Any] | None = None) -> None:
    """Run the whole demo; ``options`` are more :func:`~cdpagent.launch` keyword arguments
    (the command line's launch flags). Raises cdpagent errors if any step fails."""
    started = time.perf_counter()
    async with launch(**(options or {})) as browser:
        out(f"== 1. driver: Chromium launched in {time.perf_counter() - started:.2f} s")
        await _driver(browser, out)
        out("\n== 2. Page Agent API: the document editor")
        await _editor(browser, out)
        out("\n== 3. thread_notify: the writing page wakes its thread")
        await _writing(browser, out)
        out("\n== 4. observation of the todos page (system-message page section)")
        await _observation(browser, out)
        out("\n== 5. two actions and what each changed: search 周报, then mark it done")
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
    median = samples[len(samples) // 2] * 1e6
    out(f"a call into the page and back: {median:.0f} µs (the median of {len(samples)} round trips)")
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
    try:
        await tab.invoke("no_such_method")
    except PageApiError as exc:
        out(f"no_such_method -> {_json(exc.envelope())}")
    await tab.close()


async def _writing(browser: Browser, out: Printer) -> None:
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
    tab = await browser.open(example_page("todos"))
    t0 = time.perf_counter()
    result = await observe_page(tab)
    elapsed = (time.perf_counter() - t0) * 1e3
    out(result.text)
    names = [tool["function"]["name"] for tool in result.tools]
    out(f"\ntools: {names} ({elapsed:.0f} ms to settle, collect and render)")
    await tab.close()


async def _walkthrough(browser: Browser, out: Printer) -> None:
    tab = await browser.open(example_page("todos"))
    receipts = await seed_walkthrough(tab)
    for receipt in receipts:
        out(_json(receipt))
    await tab.close()


async def seed_walkthrough(tab: Tab) -> list[dict[str, Any]]:
    """The seed's two-request walkthrough on ``examples/todos`` opened in ``tab``.

    Observe; ``search`` for "周报"; observe again and find the record whose
    title is 周报 (t9, outside the first viewport); ``toggle`` it. Returns the
    two receipts as plain dicts. Raises ``LookupError`` when the search does not
    reveal the task (the page is not the todos example).
    """
    await tab.observe()
    searched = await tab.act("search", text="周报")
    found = await tab.observe()
    target = next((r for r in found.records if r.fields.get("title") == "周报"), None)
    if target is None:
        raise LookupError("no record titled 周报 after searching")
    toggled = await tab.act("toggle", record=target.id)
    return [searched.to_builtins(), toggled.to_builtins()]
