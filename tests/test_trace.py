"""The trace of a run: the records and their bounds (plain values), and the recorder of every
operation on recorded CDP connections (``tests/recorded_cdp.py``). The viewer page in headless
Chromium and ``cdpagent chat --trace`` end to end are in tests/test_trace_viewer.py."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import EXAMPLES, PAGES
from mcp.client.client import Client
from mcp_support import call_ok, text_of

import cdpagent
from cdpagent.cdp.meter import CdpMeter
from cdpagent.mcp_server.server import SurfaceConfig, open_server
from cdpagent.trace.recorder import Recorder
from cdpagent.trace.records import (
    SUMMARY_RESERVE,
    Header,
    Step,
    Thumbnail,
    Trace,
    TraceWriter,
    clip,
    read_trace,
)
from cdpagent.trace.viewer import render_html

TODOS = EXAMPLES / "todos" / "index.html"
ROLES = Path(__file__).resolve().parent.parent / "cdpagent" / "agent" / "roles"
HOSTILE_TITLE = (
    '</script><b data-agent-state="pwned">x</b><img src=x onerror="document.body.dataset.agentState=`pwned`">'
)


def _read(path: Path) -> Trace:
    with path.open("rb") as file:
        return read_trace(file)


def _step(index: int, thumbnail: Thumbnail | None = None, text: str | None = None) -> Step:
    return Step(index, "observe", float(index), index + 0.5, True, tab="tab1", text=text, thumbnail=thumbnail)


# -- the records and their bounds (no browser) ----------------------------------------------


def test_writer_stays_under_its_cap_dropping_thumbnails_first_then_steps() -> None:
    cap = 2 * SUMMARY_RESERVE
    out = io.BytesIO()
    writer = TraceWriter(out, Header(1, "test", 0.0, cap))
    thumb = Thumbnail("jpeg", 320, 200, "A" * 60_000)
    written = [writer.add(_step(i, thumb, "x" * 20_000), float(i)) for i in range(1, 40)]
    writer.close(CdpMeter(), 99.0)
    data = out.getvalue()
    assert len(data) <= cap
    trace = read_trace(data.splitlines())
    assert trace.problems == [] and trace.summary is not None and trace.capped is not None
    kept = trace.steps
    assert 0 < len(kept) < 39 and written.count(True) == len(kept)
    # a step too big with its thumbnail is kept without it before any step is dropped
    assert kept[0].thumbnail is not None and kept[-1].thumbnail is None
    assert trace.summary.steps == len(kept) and trace.summary.dropped == 39 - len(kept)
    assert not writer.add(_step(50), 100.0)  # closed: nothing more


def test_a_crashed_run_leaves_a_trace_that_reads_up_to_its_last_whole_line() -> None:
    out = io.BytesIO()
    writer = TraceWriter(out, Header(1, "test", 0.0, 2 * SUMMARY_RESERVE))
    for i in (1, 2, 3):
        writer.add(_step(i, text=f"observation {i}"), float(i))
    torn = out.getvalue()[:-25]  # the process died while writing step 3; no summary
    trace = read_trace(torn.splitlines())
    assert [s.index for s in trace.steps] == [1, 2] and trace.summary is None
    assert len(trace.problems) == 1 and "line 4 skipped" in trace.problems[0]
    html = render_html(trace)
    assert "observation 2" in html


def test_a_failed_write_stops_the_trace_and_never_fails_the_operation(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Full(io.BytesIO):
        def write(self, data: Any) -> int:
            if self.tell() > 0:
                raise OSError(28, "No space left on device")
            return super().write(data)

    recorder = Recorder(Full())
    recorder.add(_step(1))
    recorder.add(_step(2))
    recorder.close()
    assert recorder.failed is not None and "No space left" in recorder.failed
    assert [r.message for r in caplog.records].count(f"the trace stopped recording: {recorder.failed}") == 1


def test_read_trace_refuses_what_is_no_trace_or_a_newer_one() -> None:
    with pytest.raises(ValueError, match="not a trace header"):
        read_trace([b'{"hello": 1}'])
    with pytest.raises(ValueError, match="version 9"):
        read_trace([msgspec.json.encode(Header(9, "x", 0.0, 10**6))])
    with pytest.raises(ValueError, match="empty"):
        read_trace([])


def test_clip_bounds_strings_lists_and_objects_and_says_so() -> None:
    value = {"s": "y" * 5000, "l": list(range(150)), "d": {str(i): i for i in range(120)}, "n": 3}
    out = clip(value)
    assert out["s"] == "y" * 4000 + "…[cut 1000 chars]"
    assert out["l"][:100] == list(range(100)) and out["l"][100] == "…[cut 50 items]"
    assert len(out["d"]) == 101 and out["d"]["…"] == "[cut 20 entries]"
    assert out["n"] == 3


def test_cdp_meter_counts_latency_and_bytes_per_method() -> None:
    meter = CdpMeter()
    for ms in (1.0, 2.0, 30.0):
        meter.call("Runtime.evaluate", 100, 50, ms, False)
    meter.call("Page.navigate", 80, 0, 5.0, True)
    meter.event("Page.loadEventFired", 40)
    evaluate, navigate = meter.methods()
    assert (evaluate.method, evaluate.count) == ("Runtime.evaluate", 3)
    assert (evaluate.p50_ms, evaluate.max_ms) == (2.0, 30.0)
    assert (evaluate.total_ms, evaluate.bytes_out, evaluate.bytes_in) == (33.0, 300, 150)
    assert (navigate.count, navigate.failed) == (1, 1)
    assert [(e.method, e.count, e.bytes) for e in meter.events()] == [("Page.loadEventFired", 1, 40)]
    totals = meter.totals()
    assert (totals.calls, totals.bytes_out, totals.bytes_in, totals.events) == (4, 380, 190, 1)


def test_viewer_page_data_cannot_close_its_script_element_or_smuggle_an_image() -> None:
    hostile = Step(1, "observe", 0.0, 1.0, True, text=HOSTILE_TITLE + "</SCRIPT><!--",
                   thumbnail=Thumbnail("jpeg\" onerror=\"x", 1, 1, "AAAA"))  # fmt: skip
    also = Step(2, "act", 1.0, 2.0, True, thumbnail=Thumbnail("png", 1, 1, "not base64 <b>"))
    html = render_html(Trace(Header(1, "t", 0.0, 10**6), [hostile, also], []), title="<i>title</i>")
    data = html.split('id="trace-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.loads(data)["steps"][0]["text"].startswith("</script><b")
    assert "thumbnail" not in json.loads(data)["steps"][0] and "thumbnail" not in json.loads(data)["steps"][1]
    assert "<title>&lt;i&gt;title&lt;/i&gt;</title>" in html
    assert "http://" not in html and "https://" not in html  # no network: nothing to fetch


# -- recording, on recorded connections --------------------------------------------------------------


async def test_trace_records_every_operation_with_result_error_text_receipt_and_thumbnail(
    recorded_endpoint: str, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    async with cdpagent.connect(recorded_endpoint, trace=path) as browser:
        tab = await browser.open(TODOS)
        observed = await tab.view()
        receipt = await tab.act("toggle", record="t9")
        with pytest.raises(cdpagent.NavigationError):
            await tab.navigate(PAGES / "no-such-page.html", timeout=10)
        await tab.screenshot(max_edge=200)
        tab.console()
        await tab.close()
        live = _read(path)  # flushed per step: readable while the browser is still open
        assert len(live.steps) == 7 and live.summary is None
    trace = _read(path)
    ops = ["open", "observe", "act", "navigate", "screenshot", "console", "close"]
    assert [s.op for s in trace.steps] == ops
    opened, observe, act, navigate, shot, console, close = trace.steps
    assert opened.args == {"url_or_path": str(TODOS), "timeout": 30.0}  # open's navigate is part of it
    assert observe.title == "Todos" and navigate.args["timeout"] == 10
    assert opened.result == {"tabId": tab.id, "url": TODOS.as_uri()} and opened.tab == tab.id
    assert observe.text == observed.text and observe.result["actions"] == len(observed.observation.actions)
    assert act.args == {"action": "toggle", "record": "t9", "unattended": False, "timeout": 30.0}
    assert act.ok and act.receipt == receipt.to_builtins()
    assert not navigate.ok and navigate.error is not None and navigate.error.code == "NAVIGATION_FAILED"
    assert shot.result["width"] == 200 and shot.result["format"] == "png"
    assert console.result == [] and console.thumbnail is None and close.thumbnail is None
    for step in (opened, observe, act, shot):  # (the error page of the failed navigation may have none)
        assert step.thumbnail is not None and step.thumbnail.format == "jpeg"
        image = base64.b64decode(step.thumbnail.data)
        assert image[:2] == b"\xff\xd8" and max(step.thumbnail.width, step.thumbnail.height) <= 320
    for step in (opened, observe, act, navigate, shot):
        assert step.url is not None and step.cdp is not None and step.cdp.calls > 0
        assert step.started <= step.ended
    assert [s.index for s in trace.steps] == list(range(1, 8))
    assert trace.summary is not None and trace.summary.steps == 7 and trace.summary.dropped == 0
    methods = {m.method: m for m in trace.summary.methods}
    assert methods["Page.captureScreenshot"].count >= 5 and methods["Page.navigate"].count == 2
    assert methods["Page.enable"].count >= 1  # the new tab's setup, sent as one batch
    assert all(m.p50_ms <= m.max_ms and m.bytes_out > 0 for m in trace.summary.methods)
    assert any(e.method == "Page.loadEventFired" for e in trace.summary.events)


async def test_a_failing_thumbnail_never_fails_the_operation(recorded_endpoint: str, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    async with cdpagent.connect(recorded_endpoint, trace=path) as browser:
        tab = await browser.open(TODOS)

        async def broken(**_: Any) -> Any:
            raise RuntimeError("the capture broke")

        tab.screenshot = broken  # type: ignore[method-assign]
        result = await tab.view()
        await tab.close()
    opened, observe, _ = _read(path).steps
    assert opened.thumbnail is not None  # taken before the capture broke
    assert observe.ok and observe.thumbnail is None and observe.text == result.text


async def test_without_a_trace_nothing_is_recorded_or_counted(recorded_browser: cdpagent.Browser) -> None:
    assert recorded_browser.tracer is None and recorded_browser.connection.meter is None


async def test_a_trace_that_cannot_be_written_fails_the_launch_with_the_reason(
    recorded_endpoint: str, tmp_path: Path
) -> None:
    with pytest.raises(OSError, match="no-such-folder"):
        async with cdpagent.connect(recorded_endpoint, trace=tmp_path / "no-such-folder" / "t.jsonl"):
            pass


async def test_the_mcp_server_records_its_tool_calls(recorded_endpoint: str, tmp_path: Path) -> None:
    path = tmp_path / "mcp.jsonl"
    config = SurfaceConfig(connect=recorded_endpoint, trace=str(path))
    async with open_server(config) as server, Client(server) as client:
        tab = (await call_ok(client, "open_page", {"url": str(TODOS)}))["tabId"]
        seen = text_of(await client.call_tool("observe", {"tabId": tab}))
        await call_ok(client, "act", {"tabId": tab, "action": "toggle", "record": "t9"})
        await call_ok(client, "close_page", {"tabId": tab})
    trace = _read(path)
    assert [s.op for s in trace.steps] == ["open", "observe", "act", "close"]
    assert trace.steps[1].text == seen and trace.steps[2].receipt is not None
    assert trace.summary is not None
