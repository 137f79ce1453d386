"""The blocking API, ``cdpagent.sync``: from a plain script, inside a running asyncio loop and
in a notebook-style loop, with the async API's results and exceptions (issue 32).

Each test attaches to the session's browser (``connect``) but the script, which launches one
as a user's first script does.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import trio

import cdpagent
import cdpagent.sync
from cdpagent.snapshot.receipts import Receipt

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TODOS = EXAMPLES / "todos" / "index.html"


def _walk(endpoint: str) -> tuple[str, Receipt, str]:
    """Open the todos page, view it, toggle t9 and read t9 back through the Page Agent API."""
    with cdpagent.sync.connect(endpoint) as browser:
        tab = browser.open(TODOS)
        try:
            title = tab.view().observation.identity.title
            receipt = tab.act("toggle", record="t9")
            assert browser.tab(tab.id) is tab and tab in browser.tabs
            return title, receipt, tab.url
        finally:
            tab.close()


@pytest.mark.browser
def test_a_plain_script_launches_views_and_acts(tmp_path: Path) -> None:
    script = tmp_path / "first.py"
    script.write_text(
        textwrap.dedent(f"""
            import cdpagent.sync

            with cdpagent.sync.launch() as browser:
                tab = browser.open({str(TODOS)!r})
                print(tab.view().observation.identity.title)
                print(tab.act("toggle", record="t9").ok)
        """),
        encoding="utf-8",
    )
    run = [sys.executable, str(script)]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["Todos", "True"]


def test_results_are_the_async_apis_types_and_docs(chrome_endpoint: str) -> None:
    title, receipt, url = _walk(chrome_endpoint)
    assert title == "Todos" and url == TODOS.as_uri()
    assert isinstance(receipt, Receipt) and receipt.ok
    assert receipt.result.changed is not None
    assert receipt.result.changed.records is not None and "t9" in receipt.result.changed.records.changed
    assert cdpagent.sync.Tab.act.__doc__ == cdpagent.Tab.act.__doc__
    assert cdpagent.sync.launch.__doc__ == cdpagent.launch.__doc__


def test_exceptions_are_the_async_apis(chrome_endpoint: str) -> None:
    with cdpagent.sync.connect(chrome_endpoint) as browser:
        tab = browser.open(TODOS)
        try:
            with pytest.raises(cdpagent.PageApiError) as refused:
                tab.invoke("no_such_method")
            assert refused.value.code == "PAGE_API_NOT_EXPOSED"
            assert not tab.act("no_such_action").ok
        finally:
            tab.close()
    with pytest.raises(RuntimeError, match="closed"):
        tab.view()


def test_inside_a_running_asyncio_loop(chrome_endpoint: str) -> None:
    async def program() -> tuple[str, Receipt, str]:
        await asyncio.sleep(0)  # a running loop, as an asyncio application has
        return _walk(chrome_endpoint)

    title, receipt, _ = asyncio.run(program())
    assert title == "Todos" and receipt.ok


def test_in_a_notebook_style_loop(chrome_endpoint: str) -> None:
    # A kernel runs each cell as a callback of a loop that runs forever.
    loop = asyncio.new_event_loop()
    answers: list[tuple[str, Receipt, str] | BaseException] = []

    def cell() -> None:
        try:
            answers.append(_walk(chrome_endpoint))
        except BaseException as exc:
            answers.append(exc)
        loop.stop()

    try:
        loop.call_soon(cell)
        loop.run_forever()
    finally:
        loop.close()
    (answer,) = answers
    assert not isinstance(answer, BaseException), answer
    assert answer[0] == "Todos" and answer[1].ok


async def test_inside_trio_it_says_to_use_the_async_api(chrome_endpoint: str) -> None:
    with pytest.raises(RuntimeError, match="use the async API"), cdpagent.sync.connect(chrome_endpoint):
        pass
    await trio.lowlevel.checkpoint()


def test_a_failed_start_raises_the_async_apis_error() -> None:
    with pytest.raises(cdpagent.ConnectionClosed), cdpagent.sync.connect("http://127.0.0.1:9", timeout=5):
        pass
