"""Hostile WebMCP schemas (issue 22, items 1–3 and the TIMEOUT nit), as a page registers them in
Chromium with WebMCP, on recorded CDP connections (tests/recorded_cdp.py).

``tests/pages/webmcp/schemas.html`` registers tools whose input schemas point at a
loopback server this test starts, at a local file holding a secret, at nothing, at
a string, use a backreference, or a pattern that backtracks exponentially on
Python's engine. None of them may make this process fetch, read, crash or stall.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import trio
from conftest import PAGES, evaluate
from recorded_cdp import Recorded

import cdpagent
from cdpagent.snapshot.observe import observe_page
from cdpagent.webmcp.bridge import WebMcp
from cdpagent.webmcp.validation import input_problem, schema_refusal

SCHEMAS = PAGES / "webmcp" / "schemas.html"
SECRET = "SECRET-IN-ENUM-999"
REFUSED = (
    *("fetches", "reads_file", "relative_ref", "dangling"),
    *("to_a_string", "not_a_schema", "backreference"),
)


async def _until_registered(tab: cdpagent.Tab, names: set[str]) -> None:
    bridge = WebMcp.of(tab.browser)
    assert bridge is not None
    with trio.fail_after(10):
        while not names <= {t.name for t in bridge.tools(tab)}:
            await evaluate(tab, "0")


async def test_wm1_page_schemas_never_fetch_read_crash_or_stall(
    recorded_wm: cdpagent.Browser, recorded: Recorded, tmp_path: Path
) -> None:
    hits: list[bytes] = []

    async def handler(stream: trio.SocketStream) -> None:
        hits.append(await stream.receive_some(4096))
        await stream.aclose()

    secret = tmp_path / "secret.json"
    secret.write_text(f'{{"enum": ["{SECRET}"]}}', encoding="utf-8")
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        schema = f"http://127.0.0.1:{port}/schema.json"
        query = urlencode({"http": schema, "file": secret.as_uri()})
        recorded.vary("the page's query", query)
        recorded.vary("the schema's url", schema)
        tab = await recorded_wm.open(f"{SCHEMAS.as_uri()}?{query}")
        await _until_registered(tab, {*REFUSED, "backtracks", "local_ref"})
        result = await observe_page(tab)
        by_name = {a.name: a for a in result.observation.actions}
        for name in REFUSED:
            assert not by_name[name].available, name
            with trio.fail_after(10):
                receipt = await tab.act(name, input={"x": "x"})
            assert receipt.code == "PAGE_TOOL_SCHEMA_INVALID", (name, receipt.to_json())
            assert SECRET not in receipt.to_json() and SECRET not in result.text
        # A pattern that doubles per character on a backtracking engine answers at once on RE2.
        started = time.perf_counter()
        receipt = await tab.act("backtracks", input={"x": "a" * 40 + "!"})
        assert receipt.code == "INVALID_ARGUMENT" and time.perf_counter() - started < 5, receipt.to_json()
        assert (await tab.act("backtracks", input={"x": "aaaa"})).ok
        # References inside the schema still work.
        assert (await tab.act("local_ref", input={"qty": 0})).code == "INVALID_ARGUMENT"
        assert (await tab.act("local_ref", input={"qty": 2})).ok
        nursery.cancel_scope.cancel()
    assert hits == [], "the host process sent a request the page's schema pointed to"


def test_wm1_schema_refusals_name_the_offence_without_quoting_the_target() -> None:
    assert schema_refusal({"$ref": "http://127.0.0.1:9/x"}) is not None
    assert "does not resolve" in (schema_refusal({"properties": {"a": {"$ref": "#/nope"}}}) or "")
    assert "not a schema" in (schema_refusal({"title": "t", "$ref": "#/title"}) or "")
    assert schema_refusal({"enum": [{"$ref": "http://x/"}], "default": {"pattern": "(a)\\1"}}) is None
    assert "linear-time" in (schema_refusal({"patternProperties": {"(?=a)": {}}}) or "")
    recursive = {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}
    assert schema_refusal(recursive) is None and input_problem(recursive, [[[]]]) is None  # type: ignore[arg-type]
    deep: dict[str, Any] = {}
    for _ in range(5000):
        deep = {"items": deep}
    assert "nested too deeply" in (schema_refusal({"type": "array", **deep}) or "")
    backtracks = {"patternProperties": {"^(a+)+$": {"type": "integer"}}}
    assert input_problem(backtracks, {"a" * 50 + "!": "x"}) is None
