"""OB-8 receipts end to end, including the seed's walkthrough, on recorded CDP connections
(tests/recorded_cdp.py): the act, its two observations and the diff are the real code, the
browser's answers recorded from Chromium; the diff of plain snapshots is tests/test_receipts_diff.py."""

from __future__ import annotations

from typing import Any

from conftest import EXAMPLES

import cdpagent
from cdpagent.cdp.world import WorldExtension
from cdpagent.commandline.demo import seed_walkthrough
from cdpagent.snapshot.observe import observe

TODOS = EXAMPLES / "todos" / "index.html"
INVENTORY = EXAMPLES / "inventory" / "index.html"


async def test_ob8_seed_walkthrough_search_then_toggle_t9(recorded_browser: cdpagent.Browser) -> None:
    tab = await recorded_browser.open(TODOS)
    first = await observe(tab)
    assert "t9" in first.record_ids and "t9" not in [r.id for r in first.records]
    searched, toggled = await seed_walkthrough(tab)

    assert searched["result"]["ok"] is True
    assert searched["result"]["action"] == {"id": "search", "description": "Search tasks by text"}
    assert searched["result"]["changed"]["observed"] is True
    removed = searched["result"]["changed"]["records"]["removed"]
    assert "t9" not in removed and len(removed) == 11
    assert searched["result"]["warnings"] == []

    assert toggled["result"]["ok"] is True
    assert toggled["result"]["action"] == {"id": "toggle@t9", "description": "Mark the task as complete"}
    changed = toggled["result"]["changed"]
    assert changed["records"]["changed"] == {"t9": {"done": {"before": False, "after": True}}}
    assert changed["state"] == {"total": {"before": 12, "after": 11}}


async def test_ob8_receipt_reports_modal_and_availability_on_a_long_page(
    recorded_browser: cdpagent.Browser,
) -> None:
    tab = await recorded_browser.open(f"{INVENTORY.as_uri()}?rows=400")
    receipt = await tab.act("delete", record="sku-00300", confirm=lambda request: True)
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.modal is not None
    assert (changed.modal.before, changed.modal.after) == (None, "Delete item")
    assert changed.actions is not None
    assert {"confirm_delete", "cancel_delete"} <= set(changed.actions.available)
    unavailable = {u.id: u.reason for u in changed.actions.unavailable}
    assert unavailable["save_account"] == 'behind the open dialog "Delete item"'
    assert len(receipt.to_json()) < 6000


async def test_ob8_feedback_gained_after_a_failed_submit(recorded_browser: cdpagent.Browser) -> None:
    tab = await recorded_browser.open(INVENTORY)
    receipt = await tab.act("create_item")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.feedback is not None
    gained = {(f.level, f.field) for f in changed.feedback.gained}
    assert ("error", "item_name") in gained and ("error", "item_sku") in gained
    assert any("not created" in f.message for f in changed.feedback.gained)


async def test_ob8_act_through_the_extension_on_a_new_tab(recorded_endpoint: str) -> None:
    async with cdpagent.connect(recorded_endpoint, extensions=[WorldExtension()]) as browser:
        tab = await browser.open(TODOS)
        try:
            receipt = await tab.act("add_todo", text="Write the receipts")
            assert receipt.ok, receipt.to_json()
            changed: Any = receipt.to_builtins()["result"]["changed"]
            assert changed["records"]["added"] == ["t13"]
            assert changed["state"]["total"] == {"before": 12, "after": 13}
        finally:
            await tab.close()
