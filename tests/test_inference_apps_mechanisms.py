"""Issue 34's general mechanisms, each on a small page written the way applications write
them (``tests/pages/infer/apply_on_leave.html``); the real applications that showed each gap
are ``tests/test_realworld_apps.py``'s Streamlit tasks.

- ``type`` leaves the field as a person moving on does (its blur and change fire), unless
  the typing opened a list of choices: that field keeps the focus for the next pick.
- A control labelled by a group whose text is its ticks is named by the group's label.
- aria-hidden set by an open list on everything outside it hides nothing from a person:
  the still-painted controls stay offered, and a checkbox whose first click only closed
  the list is clicked again.
- The action budgets borrow the room a short page leaves under the request's bound.
"""

from __future__ import annotations

from conftest import PAGES

import cdpagent
from cdpagent.snapshot import ObserveOptions, codes, tools_json
from cdpagent.snapshot.observe import observe_page

PAGE = PAGES / "infer" / "apply_on_leave.html"


async def _text(tab: cdpagent.Tab, selector: str) -> str:
    answer = await tab.session.send(
        "Runtime.evaluate",
        {"expression": f"document.querySelector({selector!r}).textContent", "returnByValue": True},
    )
    return str(answer["result"]["value"])


async def test_type_leaves_the_field_so_a_page_that_applies_on_blur_has_the_value(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    await observe_page(tab)
    receipt = await tab.act("city", text="Oslo")
    assert receipt.ok, receipt
    assert await _text(tab, "#applied") == "Oslo"


async def test_type_that_opens_suggestions_keeps_the_focus_for_the_pick(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    await observe_page(tab)
    assert (await tab.act("fruit", text="Ap")).ok
    result = await observe_page(tab)
    names = [t["function"]["name"] for t in result.tools]
    assert "apricot" in names, result.text
    assert (await tab.act("apricot")).ok
    assert await _text(tab, "#picked") == "Apricot"


async def test_a_slider_labelled_by_its_group_is_named_by_the_label_not_its_ticks(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    result = await observe_page(tab)
    names = [t["function"]["name"] for t in result.tools]
    assert "budget" in names and not any("0500" in n for n in names), names


async def test_an_open_list_that_aria_hides_the_page_leaves_its_painted_controls_offered(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    await observe_page(tab)
    assert (await tab.act("colours")).ok
    result = await observe_page(tab)
    names = [t["function"]["name"] for t in result.tools]
    assert {"red", "newsletter", "city"} <= set(names), result.text
    # The first click only closes the list (the page swallows it); a person clicks again.
    receipt = await tab.act("newsletter", checked=True)
    assert receipt.ok, receipt
    answer = await tab.session.send(
        "Runtime.evaluate", {"expression": "document.getElementById('news').checked", "returnByValue": True}
    )
    assert answer["result"]["value"] is True


async def test_the_action_budgets_borrow_the_room_a_short_page_leaves(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    tight = ObserveOptions(max_tool_chars=600, max_total_chars=12_000)
    result = await observe_page(tab, tight)
    offered = [e for e in result.observation.actions if e.available]
    assert len(offered) == result.observation.omitted.action_entries, result.text
    assert len(result.text) + len(tools_json(result.tools)) <= tight.max_total_chars
    # With no room left under the request's bound, nothing is lent.
    bound = ObserveOptions(max_tool_chars=600, max_total_chars=2_000)
    small = await observe_page(tab, bound)
    assert len(small.text) + len(tools_json(small.tools)) <= bound.max_total_chars


async def test_links_laid_out_as_bars_columns_and_lines_are_offered_by_their_words(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGES / "infer" / "link_layouts.html")
    result = await observe_page(tab)
    obs = result.observation
    names = {e.tool: e for e in obs.actions}
    # A layout table's paragraphs of links are the page's own links, not rows of a record.
    assert {"tutorial", "faqs", "library_reference", "glossary"} <= set(names), result.text
    # A bar of links drawn with separators is a link list: records named by the links' words,
    # its search form still the page's own.
    ids = set(obs.record_ids)
    assert {"next", "previous", "modules"} <= ids, ids
    assert "quick_search" in " ".join(names), result.text
    # A one-row table's cells set out as lines of links are link lists too.
    assert {"abs()", "len()", "locals()"} <= ids, ids
    opener = next(t for t, e in names.items() if e.folded and "abs()" in e.sample)
    receipt = await tab.act(opener, record="len()")
    assert receipt.ok, receipt
    hash_ = {"expression": "location.hash", "returnByValue": True}
    answer = await tab.session.send("Runtime.evaluate", hash_)
    assert answer["result"]["value"] == "#len"


WORKBENCH = PAGES / "infer" / "workbench.html"
#: Room for six action entries: fewer than the page's controls, so the ranking decides.
SIX = ObserveOptions(max_actions=6)


async def test_an_unlabelled_editor_takes_its_boxs_label_and_ranks_before_the_toolbar(
    browser: cdpagent.Browser,
) -> None:
    """Issue 34: an editor with no words of its own inside a box labelled "Code Cell Content"
    is called by that label (not "editor 1 in Work"), and a field of the content is offered
    room before the toolbar of buttons above it; the menu bar's items (an application's
    commands) before both. Its code is its value, each line apart (a code editor draws a
    line per element), not run together."""
    tab = await browser.open(WORKBENCH)
    result = await observe_page(tab, SIX)
    kinds = {t["function"]["name"]: t["function"]["description"] for t in result.tools}
    assert "code_cell_content" in kinds, result.text
    assert "type /" in kinds["code_cell_content"], kinds["code_cell_content"]
    assert "current value: <page_data>total = 1 + 2 print(total)</page_data>" in result.text, result.text
    assert {"file", "edit", "run", "help"} <= kinds.keys(), result.text
    assert "run_this_cell" not in kinds, result.text
    receipt = await tab.act("code_cell_content", text="total = 6 * 7")
    assert receipt.ok, receipt
    assert "6 * 7" in await _text(tab, ".editor")


async def test_the_items_of_a_menu_an_act_opened_are_offered_first(browser: cdpagent.Browser) -> None:
    """Issue 34: the items of a menu that a click opened (appended at the end of the page,
    after every other control) are why the click happened: the next observation offers them
    before anything else, though its budget holds six entries of the page's twenty."""
    tab = await browser.open(WORKBENCH)
    await observe_page(tab, SIX)
    assert (await tab.act("run")).ok
    result = await observe_page(tab, SIX)
    names = [t["function"]["name"] for t in result.tools]
    assert {"run_selected_cell", "run_all_above", "run_all_cells", "restart_and_run_all"} <= set(names), names
    assert (await tab.act("run_all_cells")).ok
    assert await _text(tab, "#ran") == "ran: Run All Cells"


SPIN_DATE = PAGES / "infer" / "spin_date.html"


async def test_a_segmented_date_is_set_segment_by_segment_with_the_spin_button_keys(
    browser: cdpagent.Browser,
) -> None:
    """Issue 34: each spin button of a date field (the ARIA pattern; the month editable text,
    as date-field libraries write theirs) is a ``set`` action showing the value as the page
    words it and taking a number in its range. Set walks it with ArrowUp/ArrowDown (its
    ArrowLeft/ArrowRight move to the next segment), Home for its minimum, and gives an empty
    one a value by its first key; the receipt says where it got to. A number outside the
    range is refused before a key is pressed."""
    tab = await browser.open(SPIN_DATE)
    result = await observe_page(tab)
    tools = {t["function"]["name"]: t["function"] for t in result.tools}
    segments = ("day_departure_date", "month_departure_date", "year_departure_date")
    assert set(segments) <= tools.keys(), result.text
    assert all("set /" in tools[name]["description"] for name in segments), tools
    assert "05 – May" in result.text, result.text
    month = tools["month_departure_date"]["parameters"]["properties"]["value"]
    assert (month["minimum"], month["maximum"]) == (1, 12), month
    moved = await tab.act("month_departure_date", value=6)
    assert moved.ok, moved
    assert moved.result.state == "at 6 (1…12): 06 – June", moved
    assert (await tab.act("day_departure_date", value=1)).ok
    year = await tab.act("year_departure_date", value=2027)
    assert year.ok, year
    assert await _text(tab, "#held") == "2027-06-01"
    bad = await tab.act("month_departure_date", value=13)
    assert bad.code == codes.INVALID_ARGUMENT, bad
    assert await _text(tab, "#held") == "2027-06-01"


async def test_a_check_whose_press_reached_a_list_drawn_over_it_is_clicked_again(
    browser: cdpagent.Browser,
) -> None:
    """Issue 34 (the Streamlit whole-form task's flake): the page draws a list over the
    checkbox between the act's hit test and its press, through the style sheet alone, so no
    DOM change says the click did anything; the press reaches the list, which closes. The act
    sees where its press went, lets the page settle, and clicks again; the receipt says so."""
    tab = await browser.open(PAGES / "infer" / "drawn_over.html")
    await observe_page(tab)
    receipt = await tab.act("newsletter", checked=True)
    assert receipt.ok, receipt
    assert any("reached" in w and "Topics" in w for w in receipt.result.warnings or []), receipt
    answer = await tab.session.send(
        "Runtime.evaluate", {"expression": "document.getElementById('news').checked", "returnByValue": True}
    )
    assert answer["result"]["value"] is True
