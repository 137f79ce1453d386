"""Observation against real Chromium: OB-1 … OB-6, OB-9, OB-10 and the issue's bad inputs;
the page scripts' error stacks name their file and line (tests/test_page_scripts.py checks
the scripts' order without a browser).

Pages are the examples and ``tests/pages/observe/*.html``; the golden test
serves the examples over loopback HTTP so the rendered path is ``/todos``.
"""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import trio
from conftest import EXAMPLES, PAGES, evaluate

import cdpagent
from cdpagent import ObservationError, ObserveResult
from cdpagent.cdp.pagescripts import WORLD_URL, source
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions, tools_json
from cdpagent.snapshot.observe import observe, observe_page

OBSERVE = PAGES / "observe"
GOLDEN = Path(__file__).resolve().parent / "golden"
TODOS = EXAMPLES / "todos" / "index.html"
INVENTORY = EXAMPLES / "inventory" / "index.html"


def inventory(query: str) -> str:
    return INVENTORY.resolve().as_uri() + "?" + query


async def observed(
    browser: cdpagent.Browser, page: str | Path, options: ObserveOptions | None = None
) -> ObserveResult:
    tab = await browser.open(page)
    return await observe_page(tab, options)


def everything(result: ObserveResult) -> str:
    """Text, tools and the observation object, as one string to search."""
    return "\n".join(
        [result.text, tools_json(result.tools), msgspec.json.encode(result.observation).decode()]
    )


@pytest.fixture(scope="module")
def examples_server() -> Iterator[str]:
    """Loopback HTTP server for the examples: ``/todos`` serves the todos page."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(EXAMPLES), **kwargs)  # type: ignore[arg-type]

        def translate_path(self, path: str) -> str:
            if path.split("?")[0] in ("/todos", "/inventory"):
                path = path.split("?")[0] + "/index.html"
            return super().translate_path(path)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# --- the seed's example ------------------------------------------------------------------


async def test_ob9_todos_golden(browser: cdpagent.Browser, examples_server: str) -> None:
    result = await observed(browser, examples_server + "/todos")
    assert result.text == (GOLDEN / "todos.md").read_text(encoding="utf-8")
    expected_tools = msgspec.json.decode((GOLDEN / "todos_tools.json").read_bytes())
    assert result.tools == expected_tools


async def test_ob1_parts_of_the_todos_observation(browser: cdpagent.Browser) -> None:
    obs = (await observed(browser, TODOS)).observation
    assert obs.identity.title == "Todos" and obs.identity.route == "todos"
    assert [(r.id, r.label, r.role, r.purpose) for r in obs.regions] == [
        ("todos", "Todo list", "list", "open tasks")
    ]
    assert (obs.regions[0].actions_visible, obs.regions[0].actions_total) == (5, 14)
    assert [r.id for r in obs.records] == ["t1", "t2", "t3"]
    assert obs.records[0].fields == {"title": "Review the launch checklist", "done": False}
    assert obs.record_ids == [f"t{i}" for i in range(1, 13)]
    # t9 (周报) is only an id: its fields are outside the first viewport.
    assert "t9" not in {r.id for r in obs.records}
    assert {s.name: s.value for s in obs.state} == {"filter": "open", "total": 12}
    assert obs.feedback == [] and obs.warnings == []


async def test_ob1_search_brings_t9_into_the_observation(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TODOS)
    await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": "const s = document.querySelector('[data-agent-action=search]');"
            "s.value = '周报'; s.dispatchEvent(new Event('input'));"
        },
    )
    obs = await observe(tab)
    assert [r.id for r in obs.records] == ["t9"]
    assert obs.records[0].fields["title"] == "周报"
    assert obs.record_ids == ["t9"]
    # The search hides rows, not their region: they are hidden records (issue 9, finding 11).
    assert obs.omitted.records_hidden == 11 and obs.omitted.records_inactive == 0


async def test_ob1_feedback_with_field_and_region(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=20&invalid=1"))
    fb = {(f.level, f.field, tuple(f.region_path), f.message) for f in result.observation.feedback}
    assert ("error", "item_name", ("new_item",), "Enter a name for the item.") in fb
    assert ("error", "item_sku", ("new_item",), "SKU must look like ABC-12345.") in fb
    assert any(f.source == "status" and "not created" in f.message for f in result.observation.feedback)
    assert (
        "- error (field: item_sku; region:New item): "
        "<page_data>SKU must look like ABC-12345.</page_data>" in result.text
    )


async def test_ob1_identity_shows_only_allowed_query_fields(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=5&warehouse=Lyon&token=s3cr3t-token"))
    assert result.observation.identity.query == {"rows": "5", "warehouse": "Lyon"}
    assert "s3cr3t-token" not in everything(result)


# --- OB-2: never markup, selectors, styles, coordinates or masked values --------------------


EXAMPLE_PAGES = [
    *(page.resolve().as_uri() for page in sorted(EXAMPLES.glob("*/index.html"))),
    inventory("rows=200&modal=1"),
    inventory("rows=200&invalid=1"),
]
FORBIDDEN = [
    re.compile(r"<(?!/?page_data>)[a-zA-Z/!]"),  # markup other than our fences
    re.compile(r"data-agent-|class=|style=|aria-"),  # attributes, selectors
    re.compile(r"[.#][a-z][\w-]*\s*\{|\[data-|:nth-|querySelector"),  # CSS selectors
    re.compile(r"\b\d+(\.\d+)?px\b|\b(display|opacity|transition)\s*:"),  # styles
    re.compile(r"\"(x|y|top|left|width|height|bottom|right)\"\s*:"),  # coordinates
    re.compile(r"hunter2|s3cret"),  # the password's value
]


@pytest.mark.parametrize("page", EXAMPLE_PAGES)
async def test_ob2_no_markup_selectors_styles_coordinates_or_masked_values(
    browser: cdpagent.Browser, page: str
) -> None:
    result = await observed(browser, page)
    blob = everything(result)
    for pattern in FORBIDDEN:
        assert not pattern.search(blob), (pattern.pattern, pattern.search(blob))
    if "inventory" in page:
        # Sensitive values are masked, in the page, before they leave it.
        assert "[masked]" in blob
        costs = [r.fields["cost"] for r in result.observation.records]
        assert costs and all(c == "[masked]" for c in costs)


async def test_ob2_undeclared_controls_never_appear(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "bad_input.html")
    blob = everything(result)
    assert "Undeclared delete all" not in blob and "undeclared value" not in blob
    # A page that declares nothing at all is inferred by default (OB-12); without inference
    # its controls stay out.
    result = await observed(browser, OBSERVE / "empty.html", ObserveOptions(infer="off"))
    assert result.tools == []
    assert result.observation.actions == [] and result.observation.records == []
    assert "Click me" not in everything(result) and "typed" not in everything(result)


# --- OB-3: budgets ----------------------------------------------------------------------


async def test_ob3_ten_thousand_records_stay_bounded(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=10000"))
    obs = result.observation
    assert len(result.text) + len(tools_json(result.tools)) <= 12_000
    assert obs.omitted.records_total == 10_000
    assert 0 < obs.omitted.records_shown <= 20
    assert obs.omitted.record_ids_not_listed == 10_000 - len(obs.record_ids)
    assert f"(10000 total, showing {obs.omitted.records_shown})" in result.text
    assert f"/ … {obs.omitted.record_ids_not_listed} more" in result.text
    delete = next(e for e in obs.actions if e.name == "delete")
    assert delete.rows == 10_000 and delete.rows_available == 10_000 - 10_000 // 7
    assert delete.reasons == {"locked items cannot be deleted": 10_000 // 7}
    assert delete.offscreen == 10_000 - delete.visible


# test_ob3_options_change_the_budgets runs on the fake target (tests/test_fake_target.py):
# the budgets are ours, the browser only supplies the snapshot.


async def test_ob3_long_and_deep_values_are_cut(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "bad_input.html")
    o3 = next(r for r in result.observation.records if r.id == "o3")
    assert isinstance(o3.fields["title"], str) and len(o3.fields["title"]) < 2100
    assert "(cut, 51200 chars)" in o3.fields["title"]
    assert "(1 long field values were cut to 160 characters; a cut value ends with …)" in result.text
    assert len(result.text) < 12_000
    assert "{… " in result.text and "keys}" in result.text  # deep state summarised


async def test_ob3_include_collects_offscreen_records_in_full(browser: cdpagent.Browser) -> None:
    obs = (await observed(browser, TODOS, ObserveOptions(include=("t9",)))).observation
    t9 = next(r for r in obs.records if r.id == "t9")
    assert t9.fields == {"title": "周报", "done": False} and not t9.in_viewport
    assert t9.actions == {"toggle": msgspec.convert({"available": True}, type(t9.actions["toggle"]))}


# --- OB-4: folding -------------------------------------------------------------------------


async def test_ob4_row_actions_fold_into_one_tool(browser: cdpagent.Browser) -> None:
    result = await observed(browser, TODOS)
    toggles = [t for t in result.tools if t["function"]["name"].startswith("toggle")]
    assert len(toggles) == 1
    entry = next(e for e in result.observation.actions if e.name == "toggle")
    assert (entry.rows, entry.offscreen, entry.sample) == (12, 9, ["t1", "t2", "t3"])
    assert entry.action == "toggle@{record}"
    assert toggles[0]["function"]["parameters"]["required"] == ["record"]


async def test_ob4_record_enumerated_when_few(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=6"))
    tool = next(t for t in result.tools if t["function"]["name"] == "delete")
    assert tool["function"]["parameters"]["properties"]["record"]["enum"] == [
        f"sku-0000{i}" for i in range(1, 7)
    ]


# --- OB-5: availability ----------------------------------------------------------------------


async def test_ob5_disabled_actions_keep_their_reason(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=20"))
    by_name = {e.name: e for e in result.observation.actions}
    assert (by_name["export"].available, by_name["export"].reason) == (
        False, "select at least one item first"
    )
    assert (by_name["archive"].available, by_name["archive"].reason) == (False, "disabled")
    names = [t["function"]["name"] for t in result.tools]
    assert "export" not in names and "archive" not in names
    assert (
        "export (click / read / region:Toolbar) Export selection "
        "| unavailable: select at least one item first" in result.text
    )
    assert by_name["pay_invoice"].handoff == "payment needs the card holder"
    assert by_name["delete"].confirm == "Delete this item?"


async def test_ob5_modal_open_over_the_list(browser: cdpagent.Browser) -> None:
    result = await observed(browser, inventory("rows=50&modal=1"))
    obs = result.observation
    assert obs.modal == "Delete item"
    names = sorted(t["function"]["name"] for t in result.tools)
    assert names == ["cancel_delete", "confirm_delete"]
    search = next(e for e in obs.actions if e.name == "search")
    assert search.reason == 'behind the open dialog "Delete item"'
    items = next(r for r in obs.regions if r.id == "items")
    assert items.state == "covered"
    assert 'A modal dialog "Delete item" is open' in result.text


async def test_ob5_hidden_and_inert_regions(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "hidden.html")
    obs = result.observation
    states = {r.id: r.state for r in obs.regions}
    assert states == {"main": "active", "archive": "hidden", "locked": "inert"}
    assert obs.record_ids == [] and obs.omitted.records_inactive == 2
    by_name = {e.name: e for e in obs.actions}
    assert by_name["hidden_button"].reason == "hidden"
    assert by_name["invisible_button"].reason == "hidden"
    assert by_name["unlock"].reason == "inert"
    assert [t["function"]["name"] for t in result.tools] == ["go"]
    assert '- "Archive" (archive): hidden' in result.text
    assert "- 2 records in hidden or inert regions are not listed" in result.text


# --- OB-6: settle ------------------------------------------------------------------------------


async def test_ob6_settle_waits_for_rendering_and_animations(browser: cdpagent.Browser) -> None:
    tab = await browser.open(OBSERVE / "late.html")
    obs = await observe(tab)
    assert obs.record_ids == [f"r{i}" for i in range(1, 9)]
    assert obs.warnings == []
    # The page marks the end of its 300 ms fade-in; settle must have waited for it.
    assert {s.name: s.value for s in obs.state}["faded_in"] in ("true", True)


async def test_ob6_settle_waits_for_an_animation_in_an_open_shadow_root(browser: cdpagent.Browser) -> None:
    # document.getAnimations() leaves out animations in shadow trees: the settle asks the
    # open shadow roots too, so it waits for the 600 ms fade-in the page marks at its end.
    tab = await browser.open(OBSERVE / "shadow_animation.html")
    obs = await observe(tab)
    assert {s.name: s.value for s in obs.state}["faded_in"] in ("true", True), obs.settle_ms


async def test_ob6_a_long_settle_is_said_with_what_it_waited_for(browser: cdpagent.Browser) -> None:
    tab = await browser.open(OBSERVE / "busy_for.html")
    # The tab's first observation sets up the isolated world (the collector's scripts):
    # done before the page gets busy, so the busy time is all the settle's to see, however
    # long that set-up takes on a loaded machine.
    await observe_page(tab)
    await evaluate(tab, "window.busyFor(2500)")
    with trio.fail_after(10):
        result = await observe_page(tab, ObserveOptions(settle_timeout_ms=5000))
    took = [w for w in result.observation.warnings if "to settle" in w]
    assert len(took) == 1 and "(page kept changing until then)" in took[0], result.observation.warnings
    assert int(took[0].split("took ")[1].split(" ms")[0]) >= 1000
    # A page that is still settles at once and says nothing.
    again = await observe_page(tab)
    assert again.observation.warnings == [] and again.observation.settle_ms < 1000


async def test_ob6_settle_deadline_gives_a_warning_not_a_hang(browser: cdpagent.Browser) -> None:
    tab = await browser.open(OBSERVE / "mutating.html")
    with trio.fail_after(5):
        result = await observe_page(tab, ObserveOptions(settle_timeout_ms=300))
    assert any("did not settle within" in w for w in result.observation.warnings)
    assert "## Warnings" in result.text and "page kept changing" in result.text


async def test_ob6_navigation_while_observed_yields_the_new_page(browser: cdpagent.Browser) -> None:
    tab = await browser.open(OBSERVE / "nav_a.html")
    obs = await observe(tab)
    # Never a mixed snapshot: either page B in full, or a clear error.
    assert obs.identity.title == "B"
    assert [r.id for r in obs.regions] == ["b"]
    assert {s.name: s.value for s in obs.state} == {"page": "b"}


async def test_ob6_page_that_keeps_navigating_is_a_clear_error(browser: cdpagent.Browser) -> None:
    tab = await browser.open(OBSERVE / "reloading.html")
    with trio.fail_after(20):
        try:
            obs = await observe(tab, ObserveOptions(settle_timeout_ms=1000))
        except ObservationError as err:
            assert err.code == "PAGE_CHANGED"
        else:
            # Should a snapshot slip in between reloads, it is of one document.
            assert obs.identity.title == "Reloading" and [r.id for r in obs.regions] == ["r"]


# --- OB-9 / OB-10 on the bad-input page -------------------------------------------------------


async def test_ob9_illegal_and_colliding_names(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "bad_input.html")
    names = [t["function"]["name"] for t in result.tools]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", n) for n in names)
    assert {"orders_search", "customers_search", "mark_paid", "refresh", "open"} <= set(names)
    by_tool = {e.tool: e for e in result.observation.actions}
    assert by_tool["mark_paid"].name == "mark paid!"
    assert by_tool["customers_search"].region_path == ["customers"]
    assert any(e.name == "删除" and re.fullmatch(r"action_[0-9a-f]{6}", e.tool)
               for e in result.observation.actions)


async def test_ob1_bad_records_duplicates_no_fields_outside_regions(
    browser: cdpagent.Browser,
) -> None:
    result = await observed(browser, OBSERVE / "bad_input.html")
    obs = result.observation
    assert obs.record_ids == ["o1", "o2", "o3", "o4"]
    assert any("duplicate record ids" in w and "o1" in w for w in obs.warnings)
    o1 = next(r for r in obs.records if r.id == "o1")
    assert o1.fields == {"title": "First order"}
    o2 = next(r for r in obs.records if r.id == "o2")
    assert o2.fields == {}
    assert "- 2. o2: (no readable fields)" in result.text
    refresh = next(e for e in obs.actions if e.name == "refresh")
    assert refresh.region_path == [] and "(click / read / region:page)" in result.text
    open_entry = next(e for e in obs.actions if e.name == "open")
    assert open_entry.rows == 2  # the duplicate o1's button is not addressable


async def test_ob10_page_text_cannot_close_or_forge_fences(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "bad_input.html")
    text = result.text
    assert text.count("<page_data>") == text.count("</page_data>")
    for body in re.findall(r"<page_data>(.*?)</page_data>", text, re.S):
        assert "<" not in body
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert all(h.startswith("## ") for h in headings)
    assert not any("Rules" in h or h.count("Available actions") > 1 for h in headings)
    assert sum(h.startswith("## Available actions") for h in headings) == 1
    assert "Ignore previous instructions" in text  # present, but only as fenced data
    for line in text.splitlines():
        if "Ignore previous instructions" in line:
            assert "<page_data>" in line or line.startswith("- ")
    assert not any(line.startswith("- delete_all") for line in text.splitlines())


async def test_ob4_folding_per_region_with_nested_and_loose_records(
    browser: cdpagent.Browser,
) -> None:
    result = await observed(browser, OBSERVE / "regions_mix.html")
    pins = {tuple(e.region_path): e for e in result.observation.actions if e.name == "pin"}
    assert set(pins) == {(), ("outer",), ("outer", "inner")}
    assert (pins[()].rows, pins[()].rows_available) == (2, 2)
    assert (pins[("outer",)].rows, pins[("outer",)].rows_available) == (3, 2)
    assert pins[("outer",)].reasons == {"disabled": 1}
    assert (pins[("outer", "inner")].rows, pins[("outer", "inner")].rows_available) == (2, 2)
    assert pins[("outer", "inner")].record_enum == ["i1", "i3"]
    names = sorted(t["function"]["name"] for t in result.tools)
    assert names == ["inner_pin", "outer_pin", "page_pin"]


async def test_ob4_nested_records_own_their_actions(browser: cdpagent.Browser) -> None:
    result = await observed(browser, OBSERVE / "nested_records.html")
    obs = result.observation
    reply = next(e for e in obs.actions if e.name == "reply")
    assert reply.rows == 2 and reply.record_enum == ["p1", "c1"]
    flag = next(e for e in obs.actions if e.name == "flag")
    assert not flag.available and flag.reason == "already flagged"
    records = {r.id: r for r in obs.records}
    assert records["p1"].fields == {"title": "Parent post"}
    assert set(records["p1"].actions) == {"reply"}
    assert set(records["c1"].actions) == {"reply", "flag"}


# A collect whose options are not JSON: JSON.parse throws inside collect.js.
_THROWS = "() => { try { return __cdpagentObserve.collect('{') } catch (e) { return e.stack } }"


async def test_an_error_stack_names_the_file_and_line_of_each_world_frame(browser: cdpagent.Browser) -> None:
    tab = await browser.open("example:todos")
    context = await tab.context_id(WORLD)
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _THROWS,
            "executionContextId": context,
            "returnByValue": True,
        },
    )
    stack: str = reply["result"]["value"]
    frame = re.search(r"at (?:Object\.)?collect \((collect\.js):(\d+):\d+\)", stack)
    assert frame is not None, stack
    line = source("collect.js").splitlines()[int(frame.group(2)) - 1]
    assert "JSON.parse(optionsJson)" in line, (stack, line)
    assert WORLD_URL not in stack, stack
