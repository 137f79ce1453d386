"""Bad input and races of OB-7 execution against real Chromium: every refusal has a code."""

from __future__ import annotations

from typing import Any

import trio
from conftest import PAGES, evaluate

import cdpagent
from cdpagent.snapshot import codes
from cdpagent.snapshot.receipts import Receipt

FORM = PAGES / "act_form.html"
LIST = PAGES / "act_list.html"




def error(receipt: Receipt) -> tuple[str, str]:
    assert receipt.result.error is not None, receipt.to_json()
    return receipt.result.error.code, receipt.result.error.message


async def test_ob7_unknown_action_lists_what_is_available(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("launch_rockets")
    assert error(receipt)[0] == codes.UNKNOWN_ACTION
    assert receipt.result.error is not None
    assert "save" in receipt.result.error.available
    assert "locked_name" not in receipt.result.error.available  # disabled: not available
    assert receipt.to_builtins()["result"]["action"] == {"id": "launch_rockets", "description": ""}


async def test_ob7_row_action_without_record(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    assert error(await tab.act("star"))[0] == codes.RECORD_REQUIRED


async def test_ob7_row_action_with_an_unknown_record(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    code, message = error(await tab.act("star", record="r999"))
    assert code == codes.UNKNOWN_RECORD and "r999" in message


async def test_ob7_record_on_a_page_level_action(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    assert error(await tab.act("save", record="r1"))[0] == codes.INVALID_ARGUMENT


async def test_ob7_arguments_must_fit_the_kind(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    assert error(await tab.act("save", text="hello"))[0] == codes.INVALID_ARGUMENT
    assert error(await tab.act("name"))[0] == codes.INVALID_ARGUMENT
    assert error(await tab.act("subscribe"))[0] == codes.INVALID_ARGUMENT
    assert error(await tab.act("size", text="Medium"))[0] == codes.INVALID_ARGUMENT
    assert await evaluate(tab, "window.events.length") == 0


async def test_ob7_typing_into_a_disabled_field(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("locked_name", text="new")
    assert error(receipt)[0] == codes.ACTION_UNAVAILABLE
    assert receipt.result.error is not None and receipt.result.error.reason == "disabled"
    assert await evaluate(tab, "document.querySelector('[data-agent-action=locked_name]').value") == "locked"


async def test_ob7_typing_into_a_read_only_field(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipt = await tab.act("fixed_code", text="XYZ")
    assert error(receipt)[0] == codes.ACTION_UNAVAILABLE
    assert receipt.result.error is not None and receipt.result.error.reason == "read-only"
    assert await evaluate(tab, "document.querySelector('[data-agent-action=fixed_code]').value") == "ABC"


async def test_ob7_typing_into_a_field_made_read_only_since_the_snapshot(
    browser: cdpagent.Browser,
) -> None:
    # The in-page re-check refuses even when the page changes after the snapshot.
    tab = await browser.open(FORM)
    await evaluate(
        tab,
        "document.getElementById('name').addEventListener('focus', "
        "(e) => { e.target.readOnly = true; }, { once: true })",
    )
    receipt = await tab.act("name", text="sneaky")
    # Focusing made it read-only: the typed text never arrives, the expectation fails.
    assert error(receipt)[0] == codes.EXPECTATION_FAILED
    assert await evaluate(tab, "document.getElementById('name').value") == "old name"


async def test_ob7_select_option_that_does_not_exist(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    code, message = error(await tab.act("size", option="Gigantic"))
    assert code == codes.UNKNOWN_OPTION
    assert "Small / Medium" in message
    assert error(await tab.act("size", option="Huge"))[0] == codes.UNKNOWN_OPTION  # disabled option
    assert await evaluate(tab, "document.getElementById('size').value") == "Small"


async def test_ob8_click_that_navigates_shows_the_new_identity(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    before = tab.document
    assert before is not None
    receipt = await tab.act("go")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.navigated and changed.identity is not None
    assert changed.identity.before.title == "Act form"
    assert changed.identity.after.title == "Act target"
    assert changed.identity.after.route == "target"
    assert changed.actions is not None and "back" in changed.actions.appeared
    assert tab.document is not None and tab.document.serial != before.serial


async def test_ob8_click_that_removes_its_own_row(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    receipt = await tab.act("remove", record="r3")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.records is not None
    assert changed.records.removed == ["r3"] and changed.records.added == []
    assert changed.records.changed == {}
    assert changed.actions is not None
    assert changed.actions.rows["remove@{record}"].after == 29


async def test_ob7_handler_that_throws(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    code, message = error(await tab.act("explode"))
    assert code == codes.ACTION_FAILED and "boom from the page" in message


async def test_ob8_whole_list_rerender_still_gives_a_precise_diff(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    receipt = await tab.act("star", record="r2")
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "window.renders") == 2  # every row element was replaced
    changed = receipt.result.changed
    assert changed is not None and changed.records is not None
    assert changed.records.added == [] and changed.records.removed == []
    assert list(changed.records.changed) == ["r2"]
    assert list(changed.records.changed["r2"]) == ["starred"]
    assert changed.actions is None
    assert changed.state["starred"].before == 0 and changed.state["starred"].after == 1


async def test_ob7_two_acts_on_one_tab_never_interleave(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    receipts: list[Receipt] = []

    async def run(name: str, **kwargs: Any) -> None:
        receipts.append(await tab.act(name, **kwargs))

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: run("name", text="racer"))
            nursery.start_soon(lambda: run("save"))
            nursery.start_soon(lambda: run("size", option="Medium"))
    assert all(r.ok for r in receipts), [r.to_json() for r in receipts]
    # `change` of a text field fires when the next action takes the focus: a consequence, not input.
    seen = [e["name"] for e in await evaluate(tab, "window.events") if e["type"] != "change"]
    runs = [name for i, name in enumerate(seen) if i == 0 or seen[i - 1] != name]
    assert sorted(runs) == ["name", "save", "size"], seen


async def test_ob7_page_replaced_under_the_action_is_page_changed_or_timeout_free(
    browser: cdpagent.Browser,
) -> None:
    # A page that reloads itself on focus: the action either completes on the
    # old document or reports a code; it never hangs or mixes documents.
    tab = await browser.open(FORM)
    await evaluate(tab, "document.getElementById('name').addEventListener('focus', () => location.reload())")
    with trio.fail_after(20):
        receipt = await tab.act("name", text="x")
    assert receipt.ok or receipt.code in (codes.PAGE_CHANGED, codes.EXPECTATION_FAILED), receipt.to_json()


async def test_ob7_blocking_alert_is_dismissed_and_warned_when_unattended(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    with trio.fail_after(20):
        receipt = await tab.act("greet", unattended=True)
    assert receipt.ok, receipt.to_json()
    assert receipt.result.warnings == [
        "the page opened a JavaScript dialog, dismissed (unattended): hello from the page"
    ]
    assert await evaluate(tab, "document.getElementById('status').textContent") == "greeted"


async def test_ob7_blocking_alert_ends_the_act_and_waits_for_the_agent(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FORM)
    with trio.fail_after(20):
        receipt = await tab.act("greet")
    assert receipt.ok and receipt.result.asks is not None, receipt.to_json()
    assert (receipt.result.asks.type, receipt.result.asks.message) == ("alert", "hello from the page")
    assert receipt.result.asks.answers == ["accept_dialog"]
    assert (await tab.act("accept_dialog")).ok
    assert await evaluate(tab, "document.getElementById('status').textContent") == "greeted"


async def test_ob7_timeout_is_a_receipt(browser: cdpagent.Browser) -> None:
    # A page that never stops mutating cannot settle within the act's deadline.
    tab = await browser.open(FORM)
    await evaluate(tab, "setInterval(() => { document.body.dataset.tick = Date.now(); }, 5)")
    receipt = await tab.act("save", timeout=0.3)
    assert receipt.code == codes.TIMEOUT
    assert receipt.result.error is not None
    # Usually the deadline passes while waiting for the page to settle, before any input. On a
    # loaded machine the 5 ms timer can fall behind the settle's quiet window, the click is sent
    # and the deadline passes after it: then the receipt must say it may have been performed.
    # What it may never do is say nothing when the click was sent.
    if "may have been performed" not in receipt.result.error.message:
        assert await evaluate(tab, "document.getElementById('status').textContent") == "idle"


async def test_ob7_folded_action_refuses_a_record_of_another_region(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "act_regions.html")
    code, message = error(await tab.act("left_pick", record="b1"))
    assert code == codes.UNKNOWN_RECORD and "Left" in message
    receipt = await tab.act("right_pick", record="b1")
    assert receipt.ok, receipt.to_json()
    assert receipt.to_builtins()["result"]["changed"]["records"]["changed"] == {
        "b1": {"picked": {"before": "no", "after": "yes"}}
    }


async def test_ob7_refusals_name_the_action_they_refused(browser: cdpagent.Browser) -> None:
    tab = await browser.open(LIST)
    receipt = await tab.act("star", record="r999")
    assert receipt.to_builtins()["result"]["action"] == {"id": "star@r999", "description": "Star the row"}
