"""OB-12 against real Chromium: pages nobody wrote for us, observed and operated by inference.

The pages are vendored under ``tests/realworld/`` (TodoMVC's JavaScript ES6 and
React builds, MIT; WAI-ARIA Authoring Practices examples, W3C licence) or generated in the
page (``generated/``). None of them declares anything.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from conftest import PAGES, evaluate

import cdpagent
from cdpagent import ObserveResult, Receipt
from cdpagent.snapshot import ObserveOptions, codes, tools_json
from cdpagent.snapshot.observe import observe_page
from cdpagent.snapshot.render import COMPACT_PREAMBLE

REAL = Path(__file__).resolve().parent / "realworld"
TODOMVC = REAL / "todomvc" / "index.html"
TODOMVC_REACT = REAL / "todomvc-react" / "index.html"
APG = REAL / "apg"
DOCS = REAL / "generated" / "docs.html"
TABLE = REAL / "generated" / "table.html"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


async def observed(tab: cdpagent.Tab, options: ObserveOptions | None = None) -> ObserveResult:
    return await observe_page(tab, options)


def tools_of(result: ObserveResult) -> dict[str, str]:
    """Tool name → kind/effect of every listed action."""
    return {e.tool: f"{e.kind}/{e.effect}" for e in result.observation.actions}


def ok(receipt: Receipt) -> Receipt:
    assert receipt.ok, msgspec.json.encode(receipt).decode()
    return receipt


# -- TodoMVC (JavaScript ES6 build) ------------------------------------------------------


FILTERS = ("All", "Active", "Completed")


async def test_ob12_todomvc_add_toggle_filter_clear(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TODOMVC)
    first = await observed(tab)
    assert tools_of(first)["what_needs_to_be_done"] == "type/write"
    assert first.text.startswith(COMPACT_PREAMBLE)
    assert all(r.source == "inferred" for r in first.observation.regions)
    clear = [e for e in first.observation.actions if e.tool == "clear_completed"]
    assert not clear or not clear[0].available  # hidden while nothing is completed

    added = ok(await tab.act("what_needs_to_be_done", text="buy milk"))
    assert added.result.changed is not None and added.result.changed.records is not None
    # The new row, and the filters' link list the first row shows (records named by their links).
    assert set(FILTERS) < set(added.result.changed.records.added)
    assert len(added.result.changed.records.added) == 4
    ok(await tab.act("what_needs_to_be_done", text="walk dog"))

    result = await observed(tab)
    toggle = next(e for e in result.observation.actions if e.tool == "toggle")
    assert toggle.folded and toggle.rows == 2 and toggle.kind == "check"
    milk = next(r for r in result.observation.records if "buy milk" in str(r.fields.get("text")))
    assert milk.source == "inferred" and milk.fields["checked"] is False
    # The id is the page's own data-id, not a position.
    own = "[...document.querySelectorAll('.todo-list li')].find((li) => li.textContent.includes('buy milk'))"
    assert milk.id == await evaluate(tab, f"{own}.dataset.id")

    toggled = ok(await tab.act("toggle", record=milk.id, checked=True))
    assert toggled.result.changed is not None and toggled.result.changed.records is not None
    change = toggled.result.changed.records.changed[milk.id]["checked"]
    assert (change.before, change.after) == (False, True)

    result = await observed(tab)
    filters = next(e for e in result.observation.actions if e.tool == "open")
    assert filters.folded and filters.record_enum == list(FILTERS)
    filtered = ok(await tab.act("open", record="Active"))
    assert filtered.result.changed is not None and filtered.result.changed.records is not None
    assert filtered.result.changed.records.removed == [milk.id]
    ok(await tab.act("open", record="All"))

    cleared = ok(await tab.act("clear_completed"))
    assert cleared.result.changed is not None and cleared.result.changed.records is not None
    assert cleared.result.changed.records.removed == [milk.id]
    assert await evaluate(tab, "document.querySelectorAll('.todo-list li').length") == 1


async def test_ob12_todomvc_edit_in_place(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TODOMVC)
    ok(await tab.act("what_needs_to_be_done", text="buy milk"))
    ok(await tab.act("what_needs_to_be_done", text="walk dog"))
    result = await observed(tab)
    edit = next(e for e in result.observation.actions if e.tool == "edit")
    assert edit.folded and edit.rows == 2 and edit.kind == "type" and edit.available
    assert "double-click" in edit.description
    milk = next(r for r in result.observation.records if r.fields.get("text") == "buy milk")
    assert milk.actions["edit"].available

    edited = ok(await tab.act("edit", record=milk.id, text="buy oat milk"))
    assert edited.result.changed is not None and edited.result.changed.records is not None
    change = edited.result.changed.records.changed[milk.id]["text"]
    assert (change.before, change.after) == ("buy milk", "buy oat milk")
    # Saved by the page itself (Enter), not left open in its editor.
    assert await evaluate(tab, "document.querySelectorAll('.todo-list li.editing').length") == 0
    labels = "[...document.querySelectorAll('.todo-list label')].map((l) => l.textContent)"
    titles = await evaluate(tab, labels)
    assert sorted(titles) == ["buy oat milk", "walk dog"]


# -- TodoMVC (React build) ---------------------------------------------------------------


def record_ids(receipt: Receipt) -> tuple[list[str], list[str]]:
    """Record ids the receipt saw added and removed."""
    assert receipt.result.changed is not None and receipt.result.changed.records is not None
    return receipt.result.changed.records.added, receipt.result.changed.records.removed


async def test_ob12_todomvc_react(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TODOMVC_REACT)
    first = await observed(tab)
    assert tools_of(first)["new_todo_input"] == "type/write"
    assert not first.observation.records

    added = ok(await tab.act("new_todo_input", text="buy milk"))
    assert len(set(record_ids(added)[0]) - set(FILTERS)) == 1
    ok(await tab.act("new_todo_input", text="walk dog"))
    result = await observed(tab)
    tools = tools_of(result)
    assert tools["toggle"] == "check/write" and tools["edit"] == "type/write"
    assert "open" in tools  # the filters: a link list, its items named by their links
    texts = {str(r.fields["text"]): r for r in result.observation.records}
    milk, dog = texts["buy milk"], texts["walk dog"]
    # React renders no id on the rows: their ids are content hashes, never positions.
    assert milk.id.startswith("r") and milk.id != dog.id and milk.source == "inferred"

    toggled = ok(await tab.act("toggle", record=milk.id, checked=True))
    assert toggled.result.changed is not None and toggled.result.changed.records is not None
    change = toggled.result.changed.records.changed[milk.id]["checked"]
    assert (change.before, change.after) == (False, True)
    count = toggled.result.changed.state["count"]
    assert (count.before, count.after) == ("2 items left", "1 item left")

    # The row's content is its id: an edited row without an id of its own is a new record.
    edited = ok(await tab.act("edit", record=dog.id, text="walk the dog"))
    new, gone = record_ids(edited)
    assert gone == [dog.id] and len(new) == 1
    again = await observed(tab, ObserveOptions(include=(new[0],)))
    assert next(r for r in again.observation.records if r.id == new[0]).fields["text"] == "walk the dog"
    assert await evaluate(tab, "document.querySelectorAll('.todo-list li.editing').length") == 0

    assert record_ids(ok(await tab.act("open", record="Active"))) == ([], [milk.id])
    assert record_ids(ok(await tab.act("open", record="Completed"))) == ([milk.id], new)
    assert record_ids(ok(await tab.act("open", record="All"))) == (new, [])
    cleared = ok(await tab.act("clear_completed"))
    assert record_ids(cleared) == ([], [milk.id])
    assert cleared.result.changed is not None and cleared.result.changed.actions is not None
    assert "clear_completed" in {u.id for u in cleared.result.changed.actions.unavailable}
    labels = "[...document.querySelectorAll('.todo-list label')].map((l) => l.textContent)"
    assert await evaluate(tab, labels) == ["walk the dog"]


async def test_ob12_inference_adds_nothing_to_the_page(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TODOMVC)
    ok(await tab.act("what_needs_to_be_done", text="buy milk"))
    before = await evaluate(tab, "document.documentElement.outerHTML")
    result = await observed(tab)
    ok(await tab.act("toggle", record=result.observation.record_ids[0], checked=True))
    after = await evaluate(tab, "document.documentElement.outerHTML")
    # Only the page's own re-render differs (the class of the completed row).
    assert "data-agent" not in after and after.count("=") == before.count("=")


# -- WAI-ARIA Authoring Practices examples -----------------------------------------------


async def test_ob12_apg_tabs_selected(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "tabs-manual.html")
    result = await observed(tab)
    assert tools_of(result)["carl_andersen"] == "click/read"
    state = {s.name: s.value for s in result.observation.state}
    assert state["selected tab"] == ["Maria Ahlefeldt"]
    panel = next(r for r in result.observation.regions if r.id == "carl_andersen")
    assert panel.role == "tabpanel" and panel.state == "hidden"
    receipt = ok(await tab.act("carl_andersen"))
    assert receipt.result.changed is not None
    change = receipt.result.changed.state["selected tab"]
    assert (change.before, change.after) == (["Maria Ahlefeldt"], ["Carl Andersen"])
    assert receipt.result.changed.actions is not None
    assert "carl_joachim_andersen" in receipt.result.changed.actions.available


async def test_ob12_apg_sortable_table(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "sortable-table.html")
    result = await observed(tab)
    assert result.observation.omitted.records_total == 4
    fred = next(r for r in result.observation.records if r.label == "Fred")
    assert fred.fields["Company"] == "Canary, Inc." and fred.fields["Favorite Number"] == "56"
    state = {s.name: s.value for s in result.observation.state}
    assert state["sort"] == {"Last Name": "ascending"}
    receipt = ok(await tab.act("first_name"))
    assert receipt.result.changed is not None
    change = receipt.result.changed.state["sort"]
    # The example sorts a column descending on its first click.
    assert change.before == {"Last Name": "ascending"} and change.after == {"First Name": "descending"}
    # Rows moved; their ids did not (content hash, not position).
    again = await observed(tab)
    assert sorted(again.observation.record_ids) == sorted(result.observation.record_ids)
    assert again.observation.record_ids != result.observation.record_ids


async def test_ob12_apg_disclosure_expanded(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "disclosure-faq.html")
    result = await observed(tab)
    expand = next(e for e in result.observation.actions if e.tool == "expand")
    assert expand.folded and expand.rows == 4 and expand.effect == "read"
    row = result.observation.record_ids[2]
    receipt = ok(await tab.act("expand", record=row))
    assert receipt.result.changed is not None and receipt.result.changed.records is not None
    fields = receipt.result.changed.records.changed[row]
    assert (fields["expanded"].before, fields["expanded"].after) == (False, True)
    assert "2:00 am" in str(fields["text"].after) and "2:00 am" not in str(fields["text"].before)


async def test_ob12_apg_modal_dialog_opened_and_closed(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "dialog.html")
    result = await observed(tab)
    assert tools_of(result)["add_delivery_address"] == "click/write"
    opened = ok(await tab.act("add_delivery_address"))
    assert opened.result.changed is not None and opened.result.changed.modal is not None
    assert opened.result.changed.modal.after == "Add Delivery Address"
    inside = await observed(tab)
    assert inside.observation.modal == "Add Delivery Address"
    street = next(e for e in inside.observation.actions if e.tool == "street")
    assert street.kind == "type" and street.available
    ok(await tab.act("street", text="1 Main St"))
    closed = ok(await tab.act("cancel"))
    assert closed.result.changed is not None and closed.result.changed.modal is not None
    assert closed.result.changed.modal.after is None


async def test_ob12_apg_combobox_option_chosen(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "combobox-select-only.html")
    result = await observed(tab)
    assert tools_of(result)["favorite_fruit"] == "click/read"
    opened = ok(await tab.act("favorite_fruit"))
    assert opened.result.changed is not None and opened.result.changed.actions is not None
    assert "banana" in opened.result.changed.actions.appeared
    assert opened.result.changed.state["expanded"].after == ["Favorite Fruit"]
    chosen = ok(await tab.act("banana"))
    assert chosen.result.changed is not None and chosen.result.changed.actions is not None
    value = chosen.result.changed.state["Favorite Fruit"]
    assert (value.before, value.after) == ("Choose a Fruit", "Banana")
    # The listbox closed: its options are gone with it.
    assert chosen.result.changed.state["expanded"].after is None
    assert "banana" in chosen.result.changed.actions.disappeared
    assert await evaluate(tab, "document.querySelector('[role=combobox]').textContent.trim()") == "Banana"


async def test_ob12_apg_menu_button(browser: cdpagent.Browser) -> None:
    tab = await browser.open(APG / "menu-button-actions.html")
    result = await observed(tab)
    assert tools_of(result)["actions"] == "click/read"
    assert "action_2" not in tools_of(result)  # menu items exist only while the menu is open
    ok(await tab.act("actions"))
    chosen = ok(await tab.act("action_2"))
    assert chosen.result.changed is not None and chosen.result.changed.actions is not None
    assert "action_2" in chosen.result.changed.actions.disappeared
    assert await evaluate(tab, "document.getElementById('action_output').value") == "Action 2"


# -- generated pages -------------------------------------------------------------------


async def test_ob12_large_docs_page_is_bounded(browser: cdpagent.Browser) -> None:
    tab = await browser.open(DOCS.as_uri() + "?sections=120")
    result = await observed(tab)
    total = len(result.text) + len(tools_json(result.tools))
    assert total <= 12_000
    om = result.observation.omitted
    assert om.actions_declared > 400 and om.action_entries_shown < om.action_entries
    assert "more action entries not listed" in result.text
    reads = [e for e in result.observation.actions if e.effect == "read"]
    assert reads[0].kind == "type" and reads[0].tool == "search_the_documentation"


async def test_ob12_large_table_rows_fold(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TABLE.as_uri() + "?rows=500")
    result = await observed(tab)
    om = result.observation.omitted
    assert om.records_total == 500 and om.records_shown <= 20
    archive = next(e for e in result.observation.actions if e.tool == "archive")
    assert archive.folded and archive.rows == 500 and archive.offscreen > 400
    receipt = ok(await tab.act("archive", record="order-400"))
    assert receipt.result.changed is not None and receipt.result.changed.records is not None
    change = receipt.result.changed.records.changed["order-400"]["Status"]
    assert (change.before, change.after) == ("open", "archived")
    again = await tab.act("archive", record="order-400")
    assert again.code == codes.ACTION_UNAVAILABLE
    assert again.result.error is not None and again.result.error.reason == "disabled"


async def test_ob12_cards_outside_lists_are_records(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "infer_cards.html")
    result = await observed(tab)
    records = {r.id: r for r in result.observation.records}
    # Own data-id, else its link's words when the card begins with its link (what a person
    # calls it), else a content hash; never a position.
    assert list(records)[:4] == ["p1", "p2", "Lamp", "Desk"]
    chair = list(records)[4]
    assert chair.startswith("r") and records[chair].label == "Chair"
    assert [r.label for r in records.values()][:4] == ["Teapot", "Mug", "Lamp", "Desk"]
    assert all(r.source == "inferred" for r in records.values())
    add = next(e for e in result.observation.actions if e.tool == "add_to_cart")
    assert add.folded and add.rows == 5 and add.kind == "click"
    # Feature boxes of one shape that hold links only are not records.
    assert sum(1 for e in result.observation.actions if e.tool.startswith("learn_more")) == 3

    added = ok(await tab.act("add_to_cart", record="Lamp"))
    assert added.result.changed is not None and added.result.changed.records is not None
    text = added.result.changed.records.changed["Lamp"]["text"]
    assert "Add to cart" in str(text.before) and "In cart" in str(text.after)
    cart = added.result.changed.state["Items in cart"]
    assert (cart.before, cart.after) == ("0", "1")
    # The page relabels the button "In cart": that card no longer offers add_to_cart.
    assert added.result.changed.actions is not None
    rows = added.result.changed.actions.rows["add_to_cart@{record}"]
    assert (rows.before, rows.after) == (5, 4)
    again = await tab.act("add_to_cart", record="Lamp")
    assert again.code == codes.UNKNOWN_RECORD

    removed = ok(await tab.act("remove", record="p2"))
    assert removed.result.changed is not None and removed.result.changed.records is not None
    assert removed.result.changed.records.removed == ["p2"] and not removed.result.changed.records.added
    after = await observed(tab)
    assert after.observation.record_ids == ["p1", "Lamp", "Desk", chair]


# -- trust, masking, precedence --------------------------------------------------------


async def test_ob12_masking_and_feedback(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "infer_form.html")
    result = await observed(tab)
    everything = result.text + tools_json(result.tools) + msgspec.json.encode(result.observation).decode()
    for secret in ("hunter2", "123456", "secret-token"):
        assert secret not in everything
    sign_in = next(e for e in result.observation.actions if e.tool == "sign_in")
    assert not sign_in.available and sign_in.reason == "disabled"
    messages = {(f.source, f.message) for f in result.observation.feedback}
    assert ("alert", "Too many attempts") in messages
    assert ("invalid", "Use your work address") in messages


async def test_ob12_the_browsers_own_validation_is_feedback_once_a_submit_was_tried(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGES / "infer" / "validation.html")
    before = await observed(tab)
    assert not [f for f in before.observation.feedback if f.source == "validation"]
    assert "2 issues" in {s.value for s in before.observation.state}  # the <output>
    await tab.act("send")  # the browser refuses the empty required field: an invalid event
    after = await observed(tab)
    shown = [(f.level, f.field) for f in after.observation.feedback if f.source == "validation"]
    assert shown == [("error", "Email")]
    assert await evaluate(tab, "document.getElementById('done').textContent") == ""


async def test_ob12_declared_page_is_not_inferred_by_default(browser: cdpagent.Browser) -> None:
    tab = await browser.open(EXAMPLES / "todos" / "index.html")
    plain = await observed(tab)
    assert all(r.source == "declared" for r in plain.observation.regions)
    assert "Parts marked inferred" not in plain.text
    both = await observed(tab, ObserveOptions(infer="undeclared"))
    # Declared entries come first and unchanged (same tools, same region tags).
    assert both.observation.actions[: len(plain.observation.actions)] == plain.observation.actions
    assert {r.id for r in both.observation.regions} >= {r.id for r in plain.observation.regions}
    assert any(r.source == "inferred" for r in both.observation.regions) or any(
        e.source == "inferred" for e in both.observation.actions
    )
    # Declared records are not inferred a second time.
    assert both.observation.omitted.records_total == plain.observation.omitted.records_total


# -- open shadow roots (issue 34: web components were invisible to inference) ------------


async def test_ob11_ob12_open_shadow_roots_are_inferred(browser: cdpagent.Browser) -> None:
    """Custom elements with open shadow roots (written in the page, no library): their
    controls are offered under the names a person reads (a label in the shadow tree, a
    slotted label, a radiogroup in the host's tree), a modal dialog in a shadow tree covers
    the page but not its slotted field, and every act changes the components' own state."""
    tab = await browser.open(PAGES / "infer" / "shadow_components.html")
    first = await observed(tab)
    tools = tools_of(first)
    assert tools["delivery_city"] == "type/write"
    assert tools["wrap_as_a_gift"] == "check/write"
    assert tools["shipping_speed"] == "choose/write"
    assert tools["confirm_order"] == "click/write"  # the host and its shadow button: one action
    assert "Shipping speed" in first.text and "# Order" in first.text
    options = next(e for e in first.observation.actions if e.tool == "shipping_speed").input
    assert options is not None and options.options == ["Standard", "Express"]
    ok(await tab.act("delivery_city", text="Paris"))
    ok(await tab.act("wrap_as_a_gift", checked=True))
    ok(await tab.act("shipping_speed", option="Express"))
    ok(await tab.act("confirm_order"))
    opened = await observed(tab)
    by_tool = {e.tool: e for e in opened.observation.actions}
    assert by_tool["note_for_the_courier"].available, "the dialog's slotted field is in the dialog"
    assert not by_tool["delivery_city"].available, "the page behind the shadow tree's modal dialog is covered"
    ok(await tab.act("note_for_the_courier", text="Ring twice"))
    ok(await tab.act("place_order"))
    state = await evaluate(
        tab,
        "['city', 'gift', 'speed', 'note', 'dialog'].map((id) => document.getElementById(id))"
        ".map((el) => el.value ?? el.checked ?? el.placed ?? null)",
    )
    assert state == ["Paris", True, "fast", "Ring twice", True]


async def test_ob12_a_table_in_an_open_shadow_root_is_read_as_records(browser: cdpagent.Browser) -> None:
    """Issue 34: a web component's table (in its open shadow root) is a table of records as
    one in the document is: rows labelled by their key cell, fields named by the column
    headers, and one folded action per column of buttons (not cancel, cancel_2, … by
    position); the row action reaches the row inside the shadow tree."""
    tab = await browser.open(PAGES / "infer" / "shadow_table.html")
    first = await observed(tab)
    records = {r.label: r for r in first.observation.records}
    assert set(records) == {"A-100", "A-101", "A-102", "A-103"}, first.text
    assert records["A-101"].fields["Customer"] == "Grace", records["A-101"]
    cancel = next(e for e in first.observation.actions if e.tool == "cancel")
    assert cancel.folded, first.text
    assert not any(e.tool.startswith("cancel_") for e in first.observation.actions), first.text
    ok(await tab.act("cancel", record=records["A-101"].id))
    assert await evaluate(tab, "document.getElementById('orders').cancelled") == ["A-101"]
    after = await observed(tab)
    assert {r.label: r for r in after.observation.records}["A-101"].fields["Status"] == "Cancelled"
