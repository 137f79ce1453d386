"""Issue 20's action kinds against real Chromium: each proven by the page's own handler.

hover, press (and the built-in press_key), scroll, set, choose, dates typed by
segment, a read-only field that opens a picker, and a covered target that names
what covers it; and that the page scripts read their kinds from the table
(tests/test_kinds_table.py checks the table without a browser).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import trio
from conftest import PAGES, evaluate
from mcp.client.client import Client
from mcp_support import call_ok, receipt_of
from scripted_model import ScriptedModel, answer, calls

import cdpagent
from cdpagent.agent import Agent, Model, generic_role
from cdpagent.cdp.world import WORLD, PageFunction, call_function
from cdpagent.mcp_server.server import SurfaceConfig, open_server
from cdpagent.ops.script import act_step
from cdpagent.snapshot import codes
from cdpagent.snapshot.kinds import PAGE_KINDS
from cdpagent.snapshot.model import decode_snapshot
from cdpagent.snapshot.observe import observe_page
from cdpagent.snapshot.openai_tools import PRESS_FOCUSED
from cdpagent.snapshot.options import ObserveOptions

PAGES_OF_KINDS = PAGES / "kinds"
DECLARED = PAGES_OF_KINDS / "declared.html"
WIDGETS = PAGES_OF_KINDS / "widgets.html"
SLIDER_SCALE = PAGES_OF_KINDS / "slider_scale.html"
JS = Path(__file__).resolve().parent.parent / "js"


async def log(tab: cdpagent.Tab) -> list[str]:
    """The page's handler log since the last call (and empties it)."""
    entries: list[str] = await evaluate(tab, "window.log.splice(0)")
    return entries


def fails(receipt: cdpagent.Receipt, code: str) -> str:
    assert not receipt.ok and receipt.code == code, receipt.to_json()
    assert receipt.result.error is not None
    return receipt.result.error.message


async def test_the_page_scripts_read_the_declarable_kinds_from_the_table(browser: cdpagent.Browser) -> None:
    tab = await browser.open(DECLARED)
    kinds = {e.tool: e.kind for e in (await tab.observe()).actions}
    assert kinds["file_menu"] == "hover" and kinds["terms"] == "scroll"

    async def declared_kinds(given: list[str]) -> dict[str, str]:
        args = ObserveOptions().collector_args() | {"kinds": given}
        context = await tab.context_id(WORLD)
        texts = await call_function(
            tab.session, PageFunction.COLLECT, msgspec.json.encode(args).decode(), "off", 0, False,
            context=context,
        )  # fmt: skip
        return {a.name: a.kind for a in decode_snapshot(texts[0]).actions}

    # A kind the table does not hand the page is no kind a page may declare: the element
    # is read by its tag and role instead (the scroller and the menu are clicked).
    narrower = await declared_kinds([k for k in PAGE_KINDS if k not in ("hover", "scroll")])
    assert narrower["file_menu"] == "click" and narrower["terms"] == "click"
    assert narrower["volume"] == "set"
    assert await declared_kinds(list(PAGE_KINDS)) == {**narrower, "file_menu": "hover", "terms": "scroll"}


# -- hover -------------------------------------------------------------------------------


async def test_hover_runs_mouseenter_and_a_hidden_menu_item_is_clicked_after_its_parent(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    # The item is hidden until its menu is hovered: one act hovers the parent, then clicks it.
    receipt = await tab.act("export")
    assert receipt.ok, receipt.to_json()
    assert await log(tab) == ["file:enter", "export:click:true"]
    # Two levels down: File, then Share, then the item.
    await tab.session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 600, "y": 590})
    receipt = await tab.act("mail")
    assert receipt.ok, receipt.to_json()
    assert await log(tab) == ["file:enter", "share:enter", "mail:click:true"]
    await tab.session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 600, "y": 590})
    receipt = await tab.act("file_menu")
    assert receipt.ok and receipt.result.action is not None, receipt.to_json()
    assert await log(tab) == ["file:enter"]
    assert await evaluate(tab, "document.getElementById('file').matches(':hover')")


# -- press -------------------------------------------------------------------------------


async def test_press_delivers_keys_and_chords_to_the_control_and_press_key_to_the_focus(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    await evaluate(tab, "document.getElementById('search').value = 'abc'")
    assert (await tab.act("search_keys", key="Control+A")).ok
    assert await log(tab) == ["search:keydown:Control+Control", "search:keydown:Control+a"]
    # Control+A selected the text instead of typing an "a".
    assert await evaluate(tab, "[search.value, search.selectionStart, search.selectionEnd]") == ["abc", 0, 3]
    assert (await tab.act("search_keys", key="Shift+Tab")).ok
    assert await log(tab) == ["search:keydown:Shift+Shift", "search:keydown:Shift+Tab"]
    await evaluate(tab, "document.activeElement.blur()")
    receipt = await tab.act(PRESS_FOCUSED, key="PageDown")
    assert receipt.ok and receipt.result.action is not None, receipt.to_json()
    assert receipt.result.action.id == PRESS_FOCUSED
    assert await log(tab) == ["body:keydown:PageDown"]
    bad_key = await tab.act("search_keys", key="Enterr")
    assert "unknown key 'Enterr'" in fails(bad_key, codes.INVALID_ARGUMENT)
    assert "takes only key" in fails(await tab.act(PRESS_FOCUSED, key="a", text="x"), codes.INVALID_ARGUMENT)
    assert "needs key" in fails(await tab.act("search_keys"), codes.INVALID_ARGUMENT)
    assert await log(tab) == []


# -- scroll ------------------------------------------------------------------------------


async def test_scroll_turns_the_wheel_inside_the_element_and_says_where_it_got_to(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    receipt = await tab.act("terms")
    assert receipt.ok, receipt.to_json()
    assert receipt.result.state is not None and "px to the end" in receipt.result.state
    events = await log(tab)
    assert events[0] == "terms:wheel:true" and "terms:scroll" in events
    top = await evaluate(tab, "terms.scrollTop")
    assert 0 < top < 400
    receipt = await tab.act("terms", to="end")
    assert receipt.ok and receipt.result.state == "at the end (400 px scrolled)", receipt.to_json()
    assert await evaluate(tab, "terms.scrollTop") == 400
    assert "terms:scroll" in await log(tab)
    receipt = await tab.act("terms", to="end")
    assert receipt.ok and receipt.result.warnings == ["terms was already at the end"], receipt.to_json()
    receipt = await tab.act("terms", to="start")
    assert receipt.ok and receipt.result.state is not None and receipt.result.state.startswith("at the start")
    assert "down, up, end, start" in fails(await tab.act("terms", to="left"), codes.INVALID_ARGUMENT)


async def test_scroll_reaches_the_end_of_a_disabled_agreement_which_enables_sign(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(WIDGETS)
    assert fails(await tab.act("sign"), codes.ACTION_UNAVAILABLE)
    receipt = await tab.act("agreement", to="end")
    assert receipt.ok, receipt.to_json()
    assert "agreement:scroll" in await log(tab)
    assert (await tab.act("sign")).ok


# -- set ---------------------------------------------------------------------------------


async def test_set_moves_range_and_aria_sliders_by_keys_and_verifies_the_value(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    receipt = await tab.act("volume", value=35)
    assert receipt.ok and receipt.result.state == "at 35 (0…50)", receipt.to_json()
    assert await log(tab) == [f"volume:input:{v}:true" for v in (15, 20, 25, 30, 35)]
    assert (await tab.act("volume", value=50)).ok
    assert await log(tab) == ["volume:input:50:true"]
    assert "not a step of 5" in fails(await tab.act("volume", value=3), codes.INVALID_ARGUMENT)
    assert "outside 0…50" in fails(await tab.act("volume", value=60), codes.INVALID_ARGUMENT)
    assert "takes no text" in fails(await tab.act("volume", text="9"), codes.INVALID_ARGUMENT)
    assert "needs value (a number)" in fails(await tab.act("volume"), codes.INVALID_ARGUMENT)
    receipt = await tab.act("brightness", value=7)
    assert receipt.ok, receipt.to_json()
    assert await log(tab) == [f"brightness:{v}" for v in (3, 4, 5, 6, 7)]
    assert await evaluate(tab, "thumb.getAttribute('aria-valuenow')") == "7"


async def test_set_reads_an_aria_less_slider_from_its_handle_and_drags_one_that_ignores_keys(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(WIDGETS)
    receipt = await tab.act("amount", value=42)
    assert receipt.ok and receipt.result.state == "at 42 (0…100)", receipt.to_json()
    # Home and End find its scale (the number shown beside it); then PageDown while far
    # (20 a press) and arrows: the page's own key handler moved it.
    steps = [0, 100, 99, 79, 59, *range(58, 41, -1)]
    assert await log(tab) == [f"amount:{v}" for v in steps]
    assert await evaluate(tab, "document.getElementById('amount-shown').textContent") == "42"
    receipt = await tab.act("zoom", value=60)
    assert receipt.ok and receipt.result.state == "at 60 (0…100)", receipt.to_json()
    assert await log(tab) == ["zoom:down:true", "zoom:60"]


async def test_set_finds_an_aria_less_sliders_range_from_the_number_shown_beside_it(
    browser: cdpagent.Browser,
) -> None:
    # Issue 20: jQuery UI keeps a slider's range in script; a person finds it with Home and
    # End and reads the number the page shows. Before, set worked on 0…100 and refused -5.
    tab = await browser.open(SLIDER_SCALE)
    before = {t["function"]["name"]: t for t in (await observe_page(tab)).tools}
    assert "minimum" not in before["level"]["function"]["parameters"]["properties"]["value"]
    receipt = await tab.act("level", value=-5)
    assert receipt.ok and receipt.result.state == "at -5 (-10…10)", receipt.to_json()
    assert (await log(tab))[:2] == ["level:-10", "level:10"]
    assert await evaluate(tab, "document.getElementById('level-shown').textContent") == "-5"
    # Measured once: the next set moves by arrows only, and the observation shows the range.
    assert (await tab.act("level", value=-3)).ok
    assert await log(tab) == ["level:-4", "level:-3"]
    after = await observe_page(tab)
    value = next(t for t in after.tools if t["function"]["name"] == "level")["function"]["parameters"]
    assert (value["properties"]["value"]["minimum"], value["properties"]["value"]["maximum"]) == (-10, 10)
    assert "current value: <page_data>-3</page_data>" in after.text
    assert "outside -10…10" in fails(await tab.act("level", value=15), codes.INVALID_ARGUMENT)
    assert await log(tab) == []
    # Out of range at the first set: refused with the page's range, and put back where it was.
    tab = await browser.open(SLIDER_SCALE)
    message = fails(await tab.act("level", value=-20), codes.INVALID_ARGUMENT)
    assert "outside the slider's range -10…10" in message
    assert await evaluate(tab, "document.getElementById('level-shown').textContent") == "3"
    # No number beside it (the one in the page is another slider's): positional, and said so.
    receipt = await tab.act("blind", value=40)
    assert receipt.ok and receipt.result.state == "at 40 (0…100)", receipt.to_json()
    assert any("shows no number beside it" in w for w in receipt.result.warnings or []), receipt.to_json()
    assert (await log(tab))[-1] == "blind:40"
    message = fails(await tab.act("blind", value=150), codes.INVALID_ARGUMENT)
    assert "outside 0…100" in message and "shows no number beside it" in message


# -- choose ------------------------------------------------------------------------------


async def test_choose_clicks_the_radio_of_a_native_and_an_aria_group_by_its_label(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    page = await observe_page(tab)
    size = next(t for t in page.tools if t["function"]["name"] == "size")
    assert size["function"]["parameters"]["properties"]["option"]["enum"] == ["Small", "Medium", "Large"]
    assert (await tab.act("size", option="Large")).ok
    assert await log(tab) == ["size:change:l:true"]
    message = fails(await tab.act("size", option="Huge"), codes.UNKNOWN_OPTION)
    assert "Small / Medium / Large" in message
    tab = await browser.open(WIDGETS)
    assert (await tab.act("colour", option="Green")).ok
    assert await log(tab) == ["colour:Green:true"]
    assert "disabled" in fails(await tab.act("colour", option="Blue"), codes.UNKNOWN_OPTION)


# -- dates, pickers, covers ----------------------------------------------------------------


async def test_date_and_time_inputs_are_typed_segment_by_segment_from_iso_text(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    cases = {
        "due": "2026-12-01",
        "at": "13:45",
        "when": "2026-12-01T13:45",
        "month": "2026-12",
        "week": "2026-W49",
    }
    for name, iso in cases.items():
        receipt = await tab.act(name, text=iso)
        assert receipt.ok and receipt.result.warnings == [], receipt.to_json()
        assert await evaluate(tab, f"document.getElementById({name!r}).value") == iso
        # Typed, not set: once the other segments hold a value, each digit of the year
        # is an input event of its own.
        events = await log(tab)
        assert events[-1] == f"{name}:input:{iso}"
        if name in ("due", "month", "week"):
            assert events[0] == f"{name}:input:0002{iso[4:]}", events


async def test_a_read_only_field_opens_its_picker_and_the_refusal_says_to_choose_from_it(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(DECLARED)
    message = fails(await tab.act("picked_date", text="2026-12-01"), codes.PICKER_REQUIRED)
    assert "choose the value from the picker" in message
    assert await log(tab) == ["picker:open"]
    assert await evaluate(tab, "picked.value") == ""


async def test_a_covered_target_names_its_cover_and_offers_escape(browser: cdpagent.Browser) -> None:
    tab = await browser.open(DECLARED)
    await evaluate(tab, "document.getElementById('cover').style.display = 'block'")
    message = fails(await tab.act("save"), codes.ACTION_UNAVAILABLE)
    assert "covered by <page_data>Apple Banana</page_data>" in message
    assert f'{PRESS_FOCUSED} with key "Escape"' in message
    assert (await tab.act(PRESS_FOCUSED, key="Escape")).ok
    assert (await tab.act("save")).ok
    assert await log(tab) == ["body:keydown:Escape", "escape", "save:click"]


# -- surfaces ----------------------------------------------------------------------------


async def test_the_script_act_step_passes_key_to_and_value(browser: cdpagent.Browser) -> None:
    tab = await browser.open(DECLARED)
    steps: list[dict[str, Any]] = [
        {"op": "act", "action": "volume", "value": 20},
        {"op": "act", "action": "terms", "to": "end"},
        {"op": "act", "action": "press_key", "key": "Escape"},
    ]
    for step in steps:
        out = await act_step(tab, step)
        assert out["receipt"]["result"]["ok"], out
    assert await evaluate(tab, "[volume.value, terms.scrollTop]") == ["20", 400]
    bad = await act_step(tab, {"op": "act", "action": "volume", "value": True})
    error = bad["receipt"]["result"]["error"]
    # The operations layer decodes the step: a boolean is no number, refused before any input.
    assert error["code"] == "INVALID_ARGUMENT"
    assert "value: Expected `float | null`, got `bool`" in error["message"]


async def test_inferred_native_range_radio_group_and_date_are_set_chosen_and_typed(
    browser: cdpagent.Browser,
) -> None:
    # A page that declares nothing: infer.js offers these as set, choose and type.
    tab = await browser.open(PAGES_OF_KINDS / "undeclared.html")
    page = await observe_page(tab)
    kinds = {e.tool: e.kind for e in page.observation.actions}
    assert kinds == {"volume": "set", "size": "choose", "due": "type"}, kinds
    assert (await tab.act("volume", value=10)).ok
    assert (await tab.act("size", option="Large")).ok
    assert (await tab.act("due", text="2026-12-01")).ok
    events = await log(tab)
    assert events[:4] == ["vol:6:true", "vol:8:true", "vol:10:true", "size:l:true"]
    assert events[-1] == "due:2026-12-01" and len(events) > 5


async def test_the_mcp_act_tool_passes_key_to_and_value(chrome_endpoint: str) -> None:
    async with open_server(SurfaceConfig(connect=chrome_endpoint)) as server, Client(server) as client:
        tab = (await call_ok(client, "open_page", {"url": str(DECLARED)}))["tabId"]
        steps: list[tuple[dict[str, Any], str | None]] = [
            ({"action": "volume", "value": 25}, "at 25 (0…50)"),
            ({"action": "terms", "to": "end"}, "at the end (400 px scrolled)"),
            ({"action": "press_key", "key": "Escape"}, None),
        ]
        for args, state in steps:
            receipt = receipt_of(await call_ok(client, "act", {"tabId": tab, **args}))
            assert receipt["ok"] and receipt.get("state") == state, receipt
        await call_ok(client, "close_page", {"tabId": tab})


async def test_the_agent_offers_press_key_and_passes_key_to_and_value(browser: cdpagent.Browser) -> None:
    server = ScriptedModel(
        [
            calls(
                ("volume", '{"value": 15}'), ("terms", '{"to": "end"}'), ("press_key", '{"key": "Escape"}')
            ),
            answer("Done."),
        ]
    )
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k") as model:
            agent = Agent(browser, model, generic_role(str(DECLARED)))
            with trio.fail_after(60):
                result = await agent.run("set the volume to 15, read the terms, close popups")
    first = server.checked_requests()[0]
    press = next(t for t in first["tools"] if t["function"]["name"] == PRESS_FOCUSED)
    assert press["function"]["parameters"]["required"] == ["key"]
    assert [r.ok for r in result.receipts] == [True, True, True], result.receipts
    states = [r.result.result.state for r in result.receipts]  # the same Receipt as Tab.act's
    assert states == ["at 15 (0…50)", "at the end (400 px scrolled)", None]


async def test_inferred_hover_menu_items_are_hovered_open_then_clicked(browser: cdpagent.Browser) -> None:
    # js/clickables.js offers a CSS dropdown's and a mouseenter panel's items as kind hover.
    tab = await browser.open(PAGES / "clicks" / "hover.html")
    for name, result in (("laptops", "selected Laptops"), ("sign_out", "signed out")):
        await tab.session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 700, "y": 590})
        receipt = await tab.act(name)
        assert receipt.ok, receipt.to_json()
        assert await evaluate(tab, "document.getElementById('result').textContent") == result
    # A menu's parent is only hovered: nothing is chosen.
    await evaluate(tab, "document.getElementById('result').textContent = ''")
    assert (await tab.act("products")).ok
    assert await evaluate(tab, "document.getElementById('result').textContent") == ""


async def test_inferred_read_only_values_are_shown_and_lone_radios_of_a_fieldset_are_one_choice(
    browser: cdpagent.Browser,
) -> None:
    """Issue 34: a read-only or disabled field shows its value; radios that each have a name
    of their own are one choose action under their fieldset's legend, chosen by label."""
    tab = await browser.open(PAGES_OF_KINDS / "values.html")
    page = await observe_page(tab)
    lines = page.text.splitlines()
    total = next(line for line in lines if line.startswith("- total "))
    assert "current value: <page_data>42.50 EUR</page_data>" in total and "unavailable: read-only" in total
    account = next(line for line in lines if line.startswith("- account "))
    assert "ACME-778" in account and "unavailable: disabled" in account
    choices = {e.tool: e for e in page.observation.actions if e.kind == "choose"}
    assert sorted(choices) == ["gift_wrap", "shipping"], sorted(choices)
    shipping = choices["shipping"].input
    assert shipping is not None and shipping.options == ["Standard", "Express", "Pick-up"]
    assert (await tab.act("shipping", option="Express")).ok
    assert await evaluate(tab, "[...document.querySelectorAll('input:checked')].map(r => r.value)") == [
        "exp", "no"
    ]
