"""Record the CDP sessions that tests/test_fake_target.py replays without a browser.

    .venv/bin/python tests/record_session.py

Writes tests/traces/sessions/*.json (see tests/fake_target.py): an observation of the
todos example, a row action on it, a Page Agent API call on the editor example, and a
JavaScript dialog opened by a timer then dismissed. Re-run it when Chromium changes what
it reports, or when the cores change the commands they send (the replay checks them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import trio
from fake_target import record, save

import cdpagent
from cdpagent.snapshot.observe import observe_page

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


async def main() -> None:
    async with cdpagent.launch() as browser:
        todos = await browser.open(EXAMPLES / "todos" / "index.html")

        async def observe() -> Any:
            return msgspec.to_builtins(await observe_page(todos))

        print(save("observe_todos", await record(todos, observe)))

        # A fresh tab: the collector answers "unchanged since snapshot N" to a session that
        # holds snapshot N, and a replay starts holding none.
        fresh = await browser.open(EXAMPLES / "todos" / "index.html")

        async def toggle() -> Any:
            return (await fresh.act("toggle", record="t9")).to_builtins()

        print(save("act_todos", await record(fresh, toggle)))

        editor = await browser.open(EXAMPLES / "editor" / "index.html")

        async def read() -> Any:
            return await editor.invoke("read_current")

        print(save("invoke_editor", await record(editor, read)))

        async def dialog() -> Any:
            await editor.session.send(
                "Runtime.evaluate", {"expression": "setTimeout(() => alert('saved?'), 0), 1"}
            )
            await editor.wait_until(lambda: editor.dialog is not None, timeout=10)
            try:
                await editor.invoke("read_current")
            except cdpagent.PageApiError as error:
                refused = error.code
            receipt = await editor.act("accept_dialog")
            return {"refused": refused, "receipt": receipt.to_builtins()}

        print(save("dialog_editor", await record(editor, dialog)))


if __name__ == "__main__":
    trio.run(main)
