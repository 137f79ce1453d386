"""OB-5 and OB-7 against real Chromium: availability now, scrolling, trusted input per kind."""

from __future__ import annotations

from typing import Any

from conftest import EXAMPLES, PAGES, evaluate

import cdpagent
from cdpagent.act.perform import ConfirmRequest
from cdpagent.snapshot import codes
from cdpagent.snapshot.observe import observe

FORM = PAGES / "act_form.html"
LIST = PAGES / "act_list.html"




async def events(tab: cdpagent.Tab, name: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await evaluate(tab, f"window.events.filter((e) => e.name === {name!r})")
    return found


# -- OB-5 availability ----------------------------------------------------------------


async def test_ob5_offscreen_row_is_scrolled_into_view(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    assert await evaluate(tab, "scrollY") == 0
    receipt = await tab.act("star", record="r25")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "scrollY") > 0
    assert receipt.result.changed is not None and receipt.result.changed.records is not None
    change = receipt.result.changed.records.changed["r25"]["starred"]
    assert (change.before, change.after) == ("no", "yes")


async def test_ob5_action_disabled_since_the_observation(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    await observe(tab)
    await evaluate(tab, "document.getElementById('save').disabled = true")
    receipt = await tab.act("save")
    assert not receipt.ok and receipt.code == codes.ACTION_UNAVAILABLE
    assert receipt.result.error is not None and receipt.result.error.reason == "disabled"
    assert "save" not in receipt.result.error.available
    assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"


async def test_ob5_action_behind_an_open_modal_is_unavailable(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    await evaluate(tab, "document.getElementById('dialog').showModal()")
    receipt = await tab.act("save")
    assert not receipt.ok and receipt.code == codes.ACTION_UNAVAILABLE
    assert receipt.result.error is not None
    assert "Are you sure" in (receipt.result.error.reason or "")
    assert receipt.result.error.available == ["close_dialog"]
    assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"


async def test_ob5_covered_control_fails_the_hit_test(browser: cdpagent.Browser) -> None:
    # The snapshot cannot see the overlay; the re-check at its centre does.
    tab = await browser.open(FORM)
    receipt = await tab.act("covered")
    assert not receipt.ok and receipt.code == codes.ACTION_UNAVAILABLE
    assert receipt.result.error is not None
    assert receipt.result.error.reason == "covered by another element"
    assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"


# -- OB-7 execution -------------------------------------------------------------------


async def test_ob7_click_uses_trusted_input(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("save")
    assert receipt.ok, receipt.to_json()
    seen = await events(tab, "save")
    assert [e["type"] for e in seen] == ["mousedown", "focus", "mouseup", "click"]
    assert all(e["trusted"] for e in seen)
    assert receipt.result.changed is not None
    assert receipt.result.changed.state["status"].after == "saved old name"


async def test_ob7_type_replaces_the_value(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("name", text="Ada Lovelace")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "document.getElementById('name').value") == "Ada Lovelace"
    inputs = [e for e in await events(tab, "name") if e["type"] == "input"]
    assert inputs and all(e["trusted"] for e in inputs)


async def test_ob7_type_empty_text_clears_the_field(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("name", text="")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "document.getElementById('name').value") == ""


async def test_ob7_type_with_submit_presses_enter(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("note", text="buy milk")
    assert receipt.ok, receipt.to_json()
    assert receipt.result.changed is not None
    notes = receipt.result.changed.state["notes"]
    assert (notes.before, notes.after) == ([], ["buy milk"])
    keys = [e for e in await events(tab, "note") if e["type"] == "keydown"]
    assert keys and keys[-1]["trusted"]


async def test_ob7_type_expectation_failed_when_the_value_does_not_stick(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("shout", text="quiet")
    assert not receipt.ok and receipt.code == codes.EXPECTATION_FAILED
    assert receipt.result.changed is not None  # the input was delivered: the receipt says what changed


async def test_ob7_select_chooses_the_option(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("size", option="Medium")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "document.getElementById('size').value") == "Medium"
    assert receipt.result.changed is not None
    assert receipt.result.changed.state["status"].after == "size Medium"


async def test_ob7_check_sets_the_box_and_is_idempotent(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("subscribe", checked=True)
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "document.getElementById('subscribe').checked") is True
    clicks = [e for e in await events(tab, "subscribe") if e["type"] == "click"]
    assert len(clicks) == 1 and clicks[0]["trusted"]
    again = await tab.act("subscribe", checked=True)
    assert again.ok and again.result.changed is not None and not again.result.changed.observed
    assert again.result.warnings == ["subscribe was already checked"]


async def test_ob7_check_expectation_failed(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("stubborn", checked=True)
    assert not receipt.ok and receipt.code == codes.EXPECTATION_FAILED
    assert "still unchecked" in receipt.result.error.message if receipt.result.error else False


async def test_ob7_confirm_runs_after_approval(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    asked: list[ConfirmRequest] = []

    async def approve(request: ConfirmRequest) -> bool:
        asked.append(request)
        return True

    receipt = await tab.act("wipe", confirm=approve)
    assert receipt.ok, receipt.to_json()
    assert [r.question for r in asked] == ["Wipe all notes?"]
    assert asked[0].action == "wipe" and asked[0].tab == tab.id
    assert await evaluate(tab, "document.getElementById('status').textContent") == "wiped"


async def test_ob7_confirm_denied_by_the_callback(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("wipe", confirm=lambda request: False)
    assert not receipt.ok and receipt.code == codes.CONFIRMATION_DENIED
    assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"
    assert await evaluate(tab, "window.events.length") == 0
    # No callback at all is a denial too.
    assert (await tab.act("wipe")).code == codes.CONFIRMATION_DENIED


async def test_ob7_handoff_is_never_executed(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("pay", confirm=lambda request: True)
    assert not receipt.ok and receipt.code == codes.HANDOFF_REQUIRED
    assert receipt.result.error is not None
    assert receipt.result.error.reason == "payment needs the card holder"
    assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"
    assert await evaluate(tab, "window.events.length") == 0


async def test_ob7_original_action_id_resolves_like_the_tool_call(browser: cdpagent.Browser) -> None:
    tab = await browser.open(EXAMPLES / "todos" / "index.html")
    receipt = await tab.act("toggle@t11")
    assert receipt.ok, receipt.to_json()
    assert receipt.result.action is not None and receipt.result.action.id == "toggle@t11"


async def test_ob7_type_into_a_date_control(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("due", text="2026-12-24")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "document.getElementById('due').value") == "2026-12-24"
    # Not ISO text: refused before a key is typed (the date stays as it was).
    bad = await tab.act("due", text="next tuesday")
    assert bad.code == codes.INVALID_ARGUMENT, bad.to_json()
    assert await evaluate(tab, "document.getElementById('due').value") == "2026-12-24"
