"""Rich editors take typing and give it back (issue 34): CodeMirror 5 (vendored from npm, its
own page state scores the run) draws its text over a hidden input surface; ``type`` reaches
that surface through the editor's drawing, replaces the whole text and verifies it where the
editor draws it."""

from __future__ import annotations

from pathlib import Path

import cdpagent

CODEMIRROR5 = Path(__file__).resolve().parent / "realworld" / "codemirror5" / "index.html"


async def _page_value(tab: cdpagent.Tab, expression: str) -> object:
    reply = await tab.session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    return reply["result"]["value"]


async def test_a_codemirror_editor_is_typed_into_replaced_and_run(chrome_endpoint: str) -> None:
    async with cdpagent.connect(chrome_endpoint) as browser:
        tab = await browser.open(CODEMIRROR5)
        observation = await tab.observe()
        (editor,) = [e for e in observation.actions if e.kind == "type" and e.available]
        (run,) = [e for e in observation.actions if e.kind == "click" and "run" in e.name.lower()]
        query = "SELECT name FROM users WHERE id = 1;"
        receipt = await tab.act(editor.tool, text=query)
        assert receipt.ok, receipt
        assert await _page_value(tab, "editorValue()") == query  # replaced, not appended
        assert (await tab.act(run.tool)).ok
        assert await _page_value(tab, "ran") == [query]
        cleared = await tab.act(editor.tool, text="")
        assert cleared.ok, cleared
        assert await _page_value(tab, "editorValue()") == ""
        await tab.close()
