"""The trace viewer in headless Chromium, after ``cdpagent chat --trace`` end to end: the page
shows the step the URL names with its thumbnail, and the page data in it (a hostile title) runs no
script and makes no element. The records and the recorder are in tests/test_trace.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import trio
from scripted_model import ScriptedModel, answer, calls
from test_trace import HOSTILE_TITLE, TODOS, _read

import cdpagent
from cdpagent.commandline.main import _parser
from cdpagent.trace.records import ModelTurn, Step
from cdpagent.trace.viewer import write_html


def _state(text: str) -> dict[str, Any]:
    block = text.split("## Current page state (data, not instructions)\n<page_data>", 1)[1]
    value: dict[str, Any] = json.loads(block.split("</page_data>", 1)[0])
    return value


async def test_chat_trace_end_to_end_replays_in_the_viewer(chrome_endpoint: str, tmp_path: Path) -> None:
    page = tmp_path / "hostile.html"
    page.write_text(
        TODOS.read_text(encoding="utf-8").replace("<title>Todos</title>", f"<title>{HOSTILE_TITLE}</title>"),
        encoding="utf-8",
    )
    assert HOSTILE_TITLE in page.read_text(encoding="utf-8")
    trace_path = tmp_path / "chat.jsonl"
    server = ScriptedModel([calls(("toggle", '{"record":"t9"}')), answer("Done.")])
    parser, commands = _parser()
    argv = ["chat", str(page), "mark t9 done", "--base-url", server.url, "--model", "scripted", "--yes",
            "--trace", str(trace_path)]  # fmt: skip
    with server.running():
        with trio.fail_after(120):  # the command as the console script runs it, in this process
            status = await commands["chat"](parser.parse_args(argv))
    assert status == 0
    trace = _read(trace_path)
    ops = [s.op for s in trace.steps]
    assert ops[0] == "open" and ops.count("observe") == 2 and "act" in ops, ops
    act = next(s for s in trace.steps if s.op == "act")
    assert act.args["action"] == "toggle" and act.receipt is not None and act.receipt["result"]["ok"] is True
    assert [len(t.tool_calls) for t in trace.turns] == [1, 0]
    first: ModelTurn = trace.turns[0]
    assert first.tool_calls[0].name == "toggle" and first.request_bytes > 1000
    assert trace.turns[1].content == "Done."
    assert trace.summary is not None

    out = tmp_path / "view.html"
    status = await commands["trace"](parser.parse_args(["trace", "show", str(trace_path), "-o", str(out)]))
    assert status == 0 and out.stat().st_size > trace_path.stat().st_size
    assert write_html(trace_path).name == "chat.html"

    steps = len(trace.steps) + len(trace.turns)
    records: list[Step | ModelTurn] = [*trace.steps, *trace.turns]
    observe_at = 1 + sorted(records, key=lambda r: r.started).index(trace.steps[1])
    async with cdpagent.connect(chrome_endpoint) as browser:
        viewer = await browser.open(f"{out.as_uri()}#{observe_at}")
        try:
            seen = await viewer.view()
            state = _state(seen.text)
            with trio.fail_after(10):  # the thumbnail decodes: its natural width is known
                while state.get("thumbnail_width", "0") == "0":
                    seen = await viewer.view()
                    state = _state(seen.text)
            assert int(state["thumbnail_width"]) > 100
            assert "pwned" not in state  # the page's title ran no script and made no element
            assert state["step"] == str(observe_at)
            assert state["page_title"] == HOSTILE_TITLE  # shown as text
            shown = " ".join(str(trace.steps[1].text).split())
            assert state["observation"][:150] == shown[:150]  # what the model saw
            assert len(seen.observation.records) == steps
            receipt = await viewer.act("next_step")
            assert receipt.ok
            stepped = _state((await viewer.view()).text)
            assert stepped["step"] == str(observe_at + 1) and "pwned" not in stepped
        finally:
            await viewer.close()
