"""Record the Page/Runtime event traces that tests/test_documents.py replays.

    .venv/bin/python tests/record_trace.py

Writes tests/traces/*.json: for each scenario, the ``Page.getFrameTree`` result
taken after attach and the list of ``[method, params]`` events that followed.
Re-run it when Chromium changes how it reports documents.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

import cdpagent
from cdpagent.cdp.documents import TRACKED_EVENTS

HERE = Path(__file__).resolve().parent
PAGES = HERE / "pages"


async def record(tab: cdpagent.Tab, name: str, script: str) -> None:
    events: list[list[Any]] = []
    def recorder(method: str) -> Callable[[dict[str, Any]], None]:
        return lambda params: events.append([method, params])

    removers = [tab.session.on(m, recorder(m)) for m in TRACKED_EVENTS]
    tree = await tab.session.send("Page.getFrameTree")
    before = tab.document.serial if tab.document else 0
    await tab.session.send("Runtime.evaluate", {"expression": script})
    if name in ("reload", "navigate", "back"):
        await tab.document_changed(before)
        await tab.wait_loaded()
    else:
        with trio.move_on_after(1):
            await tab.document_changed(before)
    await tab.session.send("Runtime.evaluate", {"expression": "1", "returnByValue": True})
    for remove in removers:
        remove()
    path = HERE / "traces" / f"{name}.json"
    path.write_text(json.dumps({"frameTree": tree["frameTree"], "events": events}, indent=1))
    print(f"wrote {path} ({len(events)} events)")


async def main() -> None:
    async with cdpagent.launch() as browser:
        basic = (PAGES / "basic.html").as_uri()
        other = (PAGES / "child.html").as_uri()
        scenarios = {
            "reload": "location.reload()",
            "navigate": f"location.href = {json.dumps(other)}",
            "hash": "location.hash = '#section'",
            "pushstate": "history.pushState({}, '', '?state=1')",
        }
        for name, script in scenarios.items():
            tab = await browser.open(basic)
            await record(tab, name, script)
            await tab.close()
        tab = await browser.open(basic)
        await tab.navigate(other)
        await record(tab, "back", "history.back()")


if __name__ == "__main__":
    trio.run(main)
