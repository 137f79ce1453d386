"""Tool names stay put across observations of one document (issue 34; OB-9, OB-12).

A property test on real Chromium: a page of controls (worded buttons whose words may
repeat, buttons with no words, labelled fields, links) is observed; then the page changes
something unrelated — controls inserted before or after, one removed, a status line
re-rendered, a worded control rebuilt as a new element — and is observed again. Every
control still on the page keeps its tool name (which control a name finds is asked of the
same resolver acting uses), no name moves to another control, and a name shown for a
control that is gone is refused with ``STALE_ACTION``, with nothing clicked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio
from conftest import evaluate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cdpagent
from cdpagent.cdp.world import WORLD, call_function
from cdpagent.codes import MEANINGS, STALE_ACTION
from cdpagent.snapshot import toolnames
from cdpagent.snapshot.model import ActionEntry
from cdpagent.snapshot.toolnames import NameRegistry

PAGE = Path(__file__).parent / "pages" / "infer" / "names.html"

#: Which control (its data-k) the inferred action of each locator finds: what acting resolves.
FIND = (
    "function (locators) { return locators.map((l) => { const el = globalThis.__cdpagentInfer.find(l);"
    " if (!el) return null; const k = el.dataset.k || (el.querySelector('[data-k]') || el).dataset.k;"
    " return k || null; }); }"
)

WORDS = st.sampled_from(["Execute", "Schema", "Delete", "Reset", "Send", "Copy"])
CONTROL = st.one_of(
    st.tuples(st.just("word"), WORDS),
    st.tuples(st.just("icon"), st.just("")),
    st.tuples(st.just("field"), st.sampled_from(["Name", "Email", "Body"])),
    st.tuples(st.just("link"), st.sampled_from(["Docs", "Help"])),
)
Change = tuple[Any, ...]
CHANGE: st.SearchStrategy[Change] = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 8), CONTROL),
    st.tuples(st.just("remove"), st.integers(0, 8)),
    st.tuples(st.just("retext"), st.text("abcdef ", min_size=1, max_size=12)),
    st.tuples(st.just("rerender"), st.integers(0, 8)),
)


async def _names(tab: cdpagent.Tab) -> dict[str, str]:
    """Each page-level tool name of an observation of ``tab`` → the control (data-k) it finds."""
    observation = await tab.observe()
    entries: list[ActionEntry] = [a for a in observation.actions if not a.folded]
    context = await tab.context_id(WORLD)
    found = await call_function(
        tab.session, FIND, [msgspec.to_builtins(a.locator()) for a in entries], context=context
    )
    return {a.tool: k for a, k in zip(entries, found, strict=True) if k}


async def _apply(
    tab: cdpagent.Tab, change: Change, controls: list[tuple[str, str, str]], moved: set[tuple[str, str]]
) -> str | None:
    """Make ``change`` on the page; ``controls`` is (key, kind, words) in page order, updated.
    Returns the key of a control it removed.

    A control removed and another with the same words inserted between two observations is,
    to a person and to the registry, the same control re-rendered (Rule 3 of
    :mod:`cdpagent.snapshot.toolnames`), and one rebuilt beside a new twin cannot be told
    from it; ``moved`` (the shapes inserted, removed or rebuilt so far) keeps an example
    from mixing them, which no observer can tell apart.
    """
    op = change[0]
    if op == "insert":
        i, (kind, words) = min(change[1], len(controls)), change[2]
        if (kind, words) in moved and kind != "icon":
            return None
        moved.add((kind, words))
        key = await evaluate(tab, f"insertControl({i}, {kind!r}, {words!r})")
        controls.insert(i, (key, kind, words))
    elif op == "remove" and controls:
        key, kind, words = controls[change[1] % len(controls)]
        if (kind, words) in moved and kind != "icon":
            return None
        moved.add((kind, words))
        controls.remove((key, kind, words))
        await evaluate(tab, f"removeControl({key!r})")
        return str(key)
    elif op == "retext":
        await evaluate(tab, f"retext({change[1]!r})")
    elif op == "rerender":
        # A control with words the page rebuilds as a new element (a person sees the same
        # button); only one with its own words: two alike rebuilt cannot be told apart.
        unique = [
            c for c in controls
            if c[1] != "icon" and sum(d[1:] == c[1:] for d in controls) == 1 and c[1:] not in moved
        ]
        if unique:
            key, kind, words = unique[change[1] % len(unique)]
            moved.add((kind, words))
            await evaluate(tab, f"rerender({key!r})")
    return None


async def test_ob9_a_controls_tool_name_survives_unrelated_changes_and_a_stale_name_is_refused(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    examples = {"kept": 0, "stale": 0}

    async def check(initial: list[tuple[str, str]], changes: list[Change]) -> None:
        await tab.reload()  # a new document: names start afresh
        controls: list[tuple[str, str, str]] = []
        for kind, words in initial:
            controls.append((await evaluate(tab, f"insertControl(99, {kind!r}, {words!r})"), kind, words))
        first = await _names(tab)
        assert len(first) == len(controls), (first, controls)
        moved: set[tuple[str, str]] = set()
        removed = [key for change in changes if (key := await _apply(tab, change, controls, moved))]
        second = await _names(tab)
        alive = {key for key, _, _ in controls}
        # Every control still on the page keeps its name...
        kept = {tool: key for tool, key in first.items() if key in alive}
        assert {tool: second.get(tool) for tool in kept} == kept, (changes, first, second)
        examples["kept"] += len(kept)
        # ...and no name ever moves to another control.
        for tool, key in second.items():
            assert first.get(tool, key) == key, (tool, changes, first, second)
        gone = [tool for tool, key in first.items() if key in removed]
        if gone:
            await evaluate(tab, "window.clicked = []; document.addEventListener('click', (e) => "
                           "window.clicked.push(e.target.dataset.k), true); 1")
            receipt = await tab.act(gone[0])
            assert receipt.code == STALE_ACTION, receipt.to_json()
            assert await evaluate(tab, "window.clicked") == []  # never performed
            examples["stale"] += 1

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        initial=st.lists(CONTROL, min_size=2, max_size=6), changes=st.lists(CHANGE, min_size=1, max_size=4)
    )
    def property_holds(initial: list[tuple[str, str]], changes: list[Change]) -> None:
        trio.from_thread.run(check, initial, changes)

    with trio.fail_after(60):
        await trio.to_thread.run_sync(property_holds)
    assert examples["kept"] > 0 and examples["stale"] > 0, examples


async def test_ob9_the_issue_example_execute_keeps_its_name_when_typing_adds_reset(
    browser: cdpagent.Browser,
) -> None:
    # press_5 was "Execute" until typing added a "Reset" button; then it was "Schema".
    tab = await browser.open(PAGE)
    page = [("field", "Body"), ("icon", ""), ("word", "Schema"), ("icon", ""), ("word", "Execute")]
    for kind, words in page:
        await evaluate(tab, f"insertControl(99, {kind!r}, {words!r})")
    before = await _names(tab)
    await evaluate(tab, "insertControl(1, 'icon', ''), insertControl(2, 'word', 'Reset')")
    after = await _names(tab)
    assert {tool: after[tool] for tool in before} == before
    assert len(set(after.values())) == len(after) == len(before) + 2


def test_ob9_names_are_never_handed_to_another_control_without_a_browser() -> None:
    names = NameRegistry()

    def entry(name: str, source: str | None = None) -> ActionEntry:
        return ActionEntry(tool="", action=name, name=name, kind="click", effect="write", description=name,
                           source="inferred", name_source=source)  # type: ignore[arg-type]

    a, b = entry("delete"), entry("delete")
    first = names.assign([a, b], [("element", 1), ("element", 2)])
    assert [e.tool for e in first] == ["delete", "delete_2"]
    names.shown(["delete", "delete_2"])
    # The first one gone and two more Deletes before the second: nobody takes "delete".
    second = names.assign([entry("delete"), entry("delete"), b], [("element", n) for n in (3, 4, 2)])
    assert [e.tool for e in second] == ["delete_3", "delete_4", "delete_2"]
    assert names.stale("delete") and not names.stale("delete_2") and not names.stale("never_shown")
    # One worded control gone and one alike come: a re-render, the same control to a person.
    third = names.assign([entry("delete"), entry("delete"), b], [("element", n) for n in (3, 5, 2)])
    assert [e.tool for e in third] == ["delete_3", "delete_4", "delete_2"]
    # A positional name is never handed on; a new one counts on.
    p1 = names.assign([entry("button_1", "position")], [("element", 7)])
    p2 = names.assign([entry("button_1", "position")], [("element", 8)])
    assert [e.tool for e in p1] == ["button_1"] and [e.tool for e in p2] == ["button_2"]


def test_ob9_an_element_that_says_other_words_is_another_control_and_its_old_name_retires() -> None:
    # A list that recycles its option elements: the element that said "Testing" now says
    # "Select all". The name "testing" is never given to "Select all"; calling it is stale.
    names = NameRegistry()

    def entry(name: str) -> ActionEntry:
        return ActionEntry(tool="", action=name, name=name, kind="click", effect="write", description=name,
                           source="inferred")

    first = names.assign([entry("testing"), entry("databases")], [("element", 1), ("element", 2)])
    assert [e.tool for e in first] == ["testing", "databases"]
    names.shown(["testing", "databases"])
    second = names.assign([entry("select all"), entry("Databases")], [("element", 1), ("element", 2)])
    assert [e.tool for e in second] == ["select_all", "databases"]  # a change of case is the same words
    assert names.stale("testing")
    # An option "Testing" on a new element later: a new control, a new name (names retire for good).
    third = names.assign([entry("select all"), entry("testing"), entry("Databases")],
                         [("element", 1), ("element", 3), ("element", 2)])
    assert [e.tool for e in third] == ["select_all", "testing_2", "databases"]


def test_sf1_stale_action_is_a_stable_code_with_its_meaning() -> None:
    assert STALE_ACTION in cdpagent.codes.__all__ and "no longer on the page" in MEANINGS[STALE_ACTION]


async def test_ob9_a_row_control_of_one_row_is_named_by_its_words_and_keeps_its_name(
    browser: cdpagent.Browser,
) -> None:
    # The issue's API console: Execute in the one expanded operation was press_2 (its place
    # among the row's buttons), and Schema once typing added Reset before it.
    tab = await browser.open(Path(__file__).parent / "pages" / "infer" / "operations.html")
    before = await tab.view()
    tools = [t["function"]["name"] for t in before.tools]
    assert {"schema", "body", "execute"} <= set(tools), tools
    record = next(a for a in before.observation.actions if a.tool == "execute").sample[0]
    typed = await tab.act("body", record=record, text='{"name": "Rex"}')
    assert typed.ok, typed.to_json()
    view = await tab.view()
    after = [t["function"]["name"] for t in view.tools]
    assert set(tools) <= set(after) and "reset" in after, after
    # (The row's id is read again: an inferred id follows the row's text, which Reset changed.)
    record = next(a for a in view.observation.actions if a.tool == "execute").sample[0]
    pressed = await tab.act("execute", record=record)
    assert pressed.ok, pressed.to_json()
    assert await evaluate(tab, "window.pressed") == ["Execute"]


def test_ob9_a_page_that_rebuilds_everything_forgets_old_keys_but_never_a_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(toolnames, "MAX_CONTROLS", 4)
    names = NameRegistry()

    def entry(name: str) -> ActionEntry:
        return ActionEntry(tool="", action=name, name=name, kind="click", effect="write", description=name)

    given: set[str] = set()
    for round_ in range(6):  # "Send" stays; two alike "Item" buttons are rebuilt every round
        keys = [("element", 0), ("element", 100 * round_ + 1), ("element", 100 * round_ + 2)]
        out = names.assign([entry("send"), entry("item"), entry("item")], keys)
        assert out[0].tool == "send"
        fresh = {e.tool for e in out[1:]}
        assert len(fresh) == 2 and not fresh & given, (round_, fresh, given)  # never handed on
        given |= fresh
    assert len(names._control_of_key) <= 4 + 3  # the old keys were forgotten


async def test_ob9_row_buttons_labelled_per_row_are_named_by_their_shared_first_word(
    browser: cdpagent.Browser,
) -> None:
    # aria-labels "Edit Ada Lovelace" / "Delete Ada Lovelace" differ on every row: they were
    # press(record) and press_2(record), by their place in the row, and a Copy button added
    # before Delete made press_2 Copy on that row.
    tab = await browser.open(Path(__file__).parent / "pages" / "infer" / "labelled_rows.html")
    tools = [t["function"]["name"] for t in (await tab.view()).tools]
    assert {"edit", "delete"} <= set(tools), tools
    await evaluate(tab, "addCopy()")
    after = [t["function"]["name"] for t in (await tab.view()).tools]
    assert set(tools) <= set(after), after
    receipt = await tab.act("delete", record="Alan Turing")  # the row is called by its link's words
    assert receipt.ok, receipt.to_json()
    assert await evaluate(tab, "window.pressed") == ["Delete Alan Turing"]


async def test_ob3_clicks_past_the_action_budget_are_named_in_click_more_and_pressed_by_it(
    browser: cdpagent.Browser, tmp_path: Path
) -> None:
    """Issue 34: a page of more links than the action budget lists names the rest in one
    ``click_more`` entry; a call of it with a name presses that control, and the name of a
    control that is gone is refused as stale, never pressed."""
    from cdpagent.ops.operations import function_call
    from cdpagent.snapshot.observe import observe_page

    links = "".join(f'<p><a href="#s{i}" id="s{i}">Chapter {i} of the long guide</a></p>' for i in range(90))
    page = tmp_path / "links.html"
    page.write_text(
        "<!doctype html><title>Guide</title><main><h1>Guide</h1>" + links + "</main><script>"
        "window.clicked = []; document.addEventListener('click', (e) => "
        "window.clicked.push(e.target.id), true);</script>"
    )
    tab = await browser.open(page)
    result = await observe_page(tab)
    more = [t["function"] for t in result.tools if t["function"]["name"] == "click_more"]
    assert len(more) == 1, [t["function"]["name"] for t in result.tools]
    named = more[0]["parameters"]["properties"]["control"]["enum"]
    listed = {t["function"]["name"] for t in result.tools}
    assert named and listed.isdisjoint(named), named
    assert f"- click_more(control) (click one of {len(named)} more controls by name): " in result.text
    om = result.observation.omitted
    assert om.action_entries_named == len(named)
    assert f"({om.action_entries - om.action_entries_shown - len(named)} more action entries" in result.text

    last = named[-1]  # chapter_41_of_the_long_guide
    assert [e.tool for e in result.observation.more] == named
    receipt = await tab.perform(function_call("click_more", None, {"control": last}))
    assert receipt.ok, receipt.to_json()
    clicked = await evaluate(tab, "window.clicked")
    assert clicked == [f"s{last.split('_')[1]}"], (clicked, last)

    await evaluate(tab, f"document.getElementById({clicked[0]!r}).remove(), window.clicked = [], 1")
    await observe_page(tab)
    receipt = await tab.perform(function_call("click_more", None, {"control": last}))
    assert receipt.code == STALE_ACTION, receipt.to_json()
    assert await evaluate(tab, "window.clicked") == []


def test_ob9_click_more_takes_one_control_name_and_nothing_else() -> None:
    from cdpagent.errors import ToolCallError
    from cdpagent.ops.operations import function_call

    assert function_call("click_more", None, {"control": "glossary"}).action == "glossary"
    for bad in ({}, {"control": 3}, {"control": ""}, {"control": "a", "text": "b"}):
        with pytest.raises(ToolCallError) as caught:
            function_call("click_more", None, bad)
        assert caught.value.code == "INVALID_ARGUMENT", bad
    # A page tool the page itself calls click_more is renamed: the runtime's name wins.
    assert "click_more" in toolnames.RESERVED_TOOL_NAMES
