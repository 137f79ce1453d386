"""Budget and render on plain snapshots (OB-3, OB-9): no browser, no recording.

The budget decides what fits from :func:`cdpagent.snapshot.render.measure`, one call for
every section; these tests hold that contract on the text as rendered: what ``measure``
says a line takes is what :func:`render_text` writes, each budget holds on the rendered
lines, and a section cut by its budget keeps the longest run of its items that fits.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpagent.snapshot import ObserveOptions, assemble, present, tools_json
from cdpagent.snapshot.budget import screen_record_ids
from cdpagent.snapshot.folding import fold_actions
from cdpagent.snapshot.model import (
    Feedback,
    FieldValue,
    Identity,
    InputSpec,
    Observation,
    Omitted,
    PageAction,
    PageText,
    Record,
    RecordIndex,
    Region,
    RowActionGroup,
    Snapshot,
    StateItem,
)
from cdpagent.snapshot.render import measure, render_text

# -- plain snapshots -------------------------------------------------------------------------

WORDS = ["add", "Task", "<b>", "a b", "é", "周", "\n", "x" * 70, "page_data", "#", " ", "ok"]
Source = Literal["declared", "inferred"]


def _words(rnd: random.Random, most: int = 8) -> str:
    return "".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, most)))


def _value(rnd: random.Random, depth: int = 0) -> object:
    pick = rnd.randrange(6 if depth < 2 else 4)
    if pick == 0:
        return None
    if pick == 1:
        return rnd.random() < 0.5
    if pick == 2:
        return rnd.randint(-5, 10**6)
    if pick == 3:
        return _words(rnd)
    if pick == 4:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    return {_words(rnd, 2): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}


_FIELDS: list[Callable[[random.Random], FieldValue]] = [lambda rnd: rnd.random() < 0.5, _words, lambda rnd: 7]


@st.composite
def snapshots(draw: st.DrawFn, inferred: bool = False) -> Snapshot:
    """Snapshots as the collector returns them: nested regions, page and row actions, records,
    many record ids, state, feedback naming listed and unknown regions, page text; declared,
    or (``inferred``) a mix of declared and inferred parts."""
    rnd = draw(st.randoms(use_true_random=False))

    def source() -> Source:
        return "inferred" if inferred and rnd.random() < 0.5 else "declared"

    regions: list[Region] = []
    for i in range(rnd.randint(0, 6)):
        parent = rnd.choice(regions) if regions and rnd.random() < 0.5 else None
        regions.append(
            Region(
                id=f"r{i}", label=_words(rnd), role=rnd.choice(["list", "form", "<x>"]), purpose=_words(rnd),
                parent=parent.id if parent else None, path=[*(parent.path if parent else []), f"r{i}"],
                state=rnd.choice(["active", "active", "hidden", "covered"]), in_viewport=rnd.random() < 0.5,
                actions_total=rnd.randint(0, 3), records_total=rnd.randint(0, 3), source=source(),
            )
        )
    paths = [list(r.path) for r in regions] + [[], ["elsewhere"]]
    actions = [
        PageAction(
            name=rnd.choice(["add", "go", f"act{i}"]),
            kind=rnd.choice(["click", "type", "select", "check", "set"]),
            effect=rnd.choice(["read", "write"]), description=_words(rnd), region_path=rnd.choice(paths),
            available=rnd.random() < 0.6, reason=rnd.choice([None, _words(rnd)]),
            confirm=rnd.choice([None, None, _words(rnd)]), order=i, in_viewport=rnd.random() < 0.5,
            input=rnd.choice([None, InputSpec(doc=_words(rnd), required=rnd.random() < 0.5,
                                              options=[_words(rnd, 3) for _ in range(rnd.randint(0, 14))])]),
            source=source(),
        )
        for i in range(rnd.randint(0, 14))
    ]
    ids = [f"t{i}" for i in range(rnd.choice([0, 3, 40, 400]))]
    groups = [
        RowActionGroup(
            name=f"row{i}", kind="click", effect="write", description=_words(rnd),
            region_path=rnd.choice(paths),
            rows=len(ids) or 1, available=rnd.randint(0, len(ids) or 1), sample=ids[:3] or ["t0"],
            order=len(actions) + i, source=source(),
        )
        for i in range(rnd.randint(0, 3))
    ]
    records = [
        Record(
            id=rid, label=_words(rnd), in_viewport=rnd.random() < 0.5, source=source(),
            fields={rnd.choice(["title", "done", "<f>"]): rnd.choice(_FIELDS)(rnd) for _ in "abc"},
        )
        for rid in ids[: rnd.randint(0, 25)]
    ]
    state = [
        StateItem(
            name=rnd.choice(["filter", "total", "<s>"]), value=_value(rnd),
            description=rnd.choice(["", "the filter", "inferred from aria-selected"]),
        )
        for _ in range(rnd.randint(0, 5))
    ]
    feedback = [
        Feedback(
            level=rnd.choice(["error", "info"]), message=_words(rnd), field=rnd.choice([None, "email"]),
            region_path=rnd.choice(paths),
        )
        for _ in range(rnd.randint(0, 10))
    ]
    blocks = [_words(rnd) for _ in range(rnd.randint(0, 40))]
    text = PageText(blocks=blocks, blocks_total=len(blocks), viewport_blocks=len(blocks))
    query = {rnd.choice(["q", "page", "sort"]): _words(rnd) for _ in range(rnd.randint(0, 3))}
    return Snapshot(
        identity=Identity(
            title=_words(rnd), path="/list", route_params=rnd.choice([{}, {"id": "7"}]), query=query
        ),
        regions=regions, regions_total=len(regions), actions=actions, actions_total=len(actions),
        row_actions=groups, records=records, record_index=RecordIndex(ids=ids, viewport=ids[:3]),
        state=state, state_total=len(state), feedback=feedback, feedback_total=len(feedback),
        page_text=text if rnd.random() < 0.7 else None,
    )


budgets = st.builds(
    ObserveOptions,
    max_actions=st.integers(0, 12), max_action_chars=st.integers(0, 1500),
    max_tool_chars=st.integers(2, 3000), max_scopes=st.integers(0, 6), max_scope_chars=st.integers(0, 400),
    max_records=st.integers(0, 25), max_record_chars=st.integers(0, 1500),
    max_index_chars=st.integers(0, 600), max_feedback=st.integers(0, 10),
    max_feedback_chars=st.integers(0, 600), max_page_chars=st.integers(0, 300),
    max_text_chars=st.integers(0, 800), max_field_chars=st.integers(20, 200),
    max_description_chars=st.integers(20, 200),
)


def _observe(snapshot: Snapshot, opts: ObserveOptions) -> tuple[Observation, str, list[dict[str, object]]]:
    """One round of the budgets and both renderers (no shrinking to ``max_total_chars``)."""
    screened = screen_record_ids(snapshot)
    obs = assemble(screened, opts, entries=fold_actions(screened))
    text, tools = present(obs, opts)
    return obs, text, tools


def _section(text: str, heading: str) -> list[str]:
    """The lines after the heading that starts with ``heading``, up to the next heading."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), len(lines)) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def _items(text: str, heading: str) -> list[str]:
    """The item lines of a section (``- …``, indented for nested regions)."""
    return [line for line in _section(text, heading) if line.lstrip(" ").startswith("- ")]


def _fenced_items(text: str, heading: str) -> list[str]:
    lines = _section(text, heading)
    if "<page_data>" not in lines:
        return []
    start = lines.index("<page_data>") + 1
    return lines[start : lines.index("</page_data>", start)]


def _cited(text: str) -> str:
    """The fenced body of the citation id line ("" when there is none)."""
    line = next((x for x in _section(text, "## Records") if x.startswith("Citation record ids")), "")
    return line.partition("<page_data>")[2].partition("</page_data>")[0]


# -- measure says what render_text writes -------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(snapshot=snapshots())
def test_ob3_measure_is_the_length_of_every_line_render_text_writes(snapshot: Snapshot) -> None:
    """Every section's measured sizes are the rendered lines' lengths, line breaks included,
    so a budget that adds them up holds on the text (a declared page: its lines are not
    written in the compact form of a page that declares nothing)."""
    roomy = ObserveOptions(
        max_actions=100, max_action_chars=10**6, max_tool_chars=10**6, max_scopes=100,
        max_scope_chars=10**6,
        max_records=100, max_record_chars=10**6, max_index_chars=10**6, max_feedback=100,
        max_feedback_chars=10**6, max_page_chars=10**6, max_text_chars=10**6, max_state_chars=10**6,
    )
    obs, text, _ = _observe(snapshot, roomy)
    sizes = measure(
        identity=obs.identity, regions=obs.regions, actions=obs.actions, records=obs.records,
        record_ids=obs.record_ids, feedback=obs.feedback, listed_regions=obs.regions,
        text=obs.page_text.blocks if obs.page_text else None,
        field_chars=roomy.max_field_chars, description_chars=roomy.max_description_chars,
    )
    assert sizes.identity == [len(line) for line in _items(text, "## Current location")]
    assert sizes.regions == [len(line) + 1 for line in _items(text, "## Page structure")]
    shown = _items(text, "## Available actions") + _items(text, "## Unavailable actions")
    ranked = [e for e in obs.actions if e.available] + [e for e in obs.actions if not e.available]
    lines = measure(actions=ranked, description_chars=roomy.max_description_chars).actions
    assert lines == [len(line) + 1 for line in shown]
    assert sizes.records == [len(line) + 1 for line in _fenced_items(text, "## Records")]
    if obs.record_ids:
        assert sum(sizes.record_ids) == len(_cited(text)) + 3
    assert sizes.feedback == [len(line) + 1 for line in _items(text, "## Current page feedback")]
    assert sizes.text == [len(line) + 1 for line in _fenced_items(text, "## Page text")]


def test_ob3_measure_sizes_state_entries_as_the_state_object_joins_them() -> None:
    items = [
        StateItem(name="filter", value="open", description="the filter"),
        StateItem(name="total", value=12),
    ]
    obs = Observation(
        identity=Identity(), regions=[], actions=[], records=[], record_ids=[], state=items, feedback=[],
        omitted=Omitted(state_total=2),
    )
    text = render_text(obs)
    state = _section(text, "## Current page state")
    sizes = measure(state=items).state
    described = [line for line in state if line.startswith("- ")]
    assert [line for _, line in sizes if line] == [len(line) + 1 for line in described]
    body = next(line for line in state if line.startswith("<page_data>{"))
    assert len(body) - len("<page_data></page_data>") == 2 + sum(entry for entry, _ in sizes) + len(items) - 1


# -- each budget holds on the rendered lines, and keeps the longest run that fits -----------------


@settings(max_examples=100, deadline=None)
@given(snapshot=snapshots(inferred=True), opts=budgets)
def test_ob3_every_budget_holds_on_the_lines_as_rendered(snapshot: Snapshot, opts: ObserveOptions) -> None:
    obs, text, tools = _observe(snapshot, opts)
    actions = _items(text, "## Available actions") + _items(text, "## Unavailable actions")
    assert len(obs.actions) <= max(opts.max_actions, 0)
    assert sum(len(line) + 1 for line in actions) <= opts.max_action_chars
    assert len(tools_json(tools)) <= max(opts.max_tool_chars, 2)
    assert len(obs.regions) <= opts.max_scopes
    assert sum(len(line) + 1 for line in _items(text, "## Page structure")) <= opts.max_scope_chars
    assert len(obs.records) <= opts.max_records
    assert sum(len(line) + 1 for line in _fenced_items(text, "## Records")) <= opts.max_record_chars
    if obs.record_ids:
        assert len(_cited(text)) + 3 <= opts.max_index_chars
    assert len(obs.feedback) <= opts.max_feedback
    # An item that does not fit whole is cut to the room left past 80 characters of its line's
    # head; a long field or region tag can still carry the cut line over: the whole ones fit.
    feedback = _items(text, "## Current page feedback")
    if obs.feedback and obs.feedback[-1] != snapshot.feedback[len(obs.feedback) - 1]:
        feedback = feedback[:-1]
    assert sum(len(line) + 1 for line in feedback) <= opts.max_feedback_chars
    location = _items(text, "## Current location")
    # Title, path and route are always shown; route params and query fields only within the budget.
    base = [line for line in location if not line.startswith(("- query ", "- route params:"))]
    assert sum(len(line) + 1 for line in location) - 1 <= max(
        opts.max_page_chars, sum(len(line) + 1 for line in base) - 1
    )


@settings(max_examples=100, deadline=None)
@given(snapshot=snapshots(), opts=budgets)
def test_ob3_a_section_cut_by_its_budget_keeps_the_longest_run_that_fits(
    snapshot: Snapshot, opts: ObserveOptions
) -> None:
    """Regions, full records, citation ids and page text blocks are runs from the first:
    the first item left out would not have fitted the room the others left."""
    obs, _, _ = _observe(snapshot, opts)
    snap = screen_record_ids(snapshot)

    def first_left_out_does_not_fit(shown: list[int], listed: list[int], room: int) -> bool:
        return len(shown) == len(listed) or sum(shown) + listed[len(shown)] > room

    listed = snap.regions[: opts.max_scopes]
    sizes = measure(regions=listed).regions
    assert first_left_out_does_not_fit(sizes[: len(obs.regions)], sizes, opts.max_scope_chars)
    listed_records = snap.records[: opts.max_records]
    sizes = measure(records=listed_records, field_chars=opts.max_field_chars).records
    assert first_left_out_does_not_fit(sizes[: len(obs.records)], sizes, opts.max_record_chars)
    sizes = measure(record_ids=snap.record_index.ids).record_ids
    assert first_left_out_does_not_fit(sizes[: len(obs.record_ids)], sizes, opts.max_index_chars)
    if snap.page_text is not None and obs.page_text is not None:
        sizes = measure(text=snap.page_text.blocks).text
        whole = [b for b, o in zip(snap.page_text.blocks, obs.page_text.blocks, strict=False) if b == o]
        assert first_left_out_does_not_fit(sizes[: len(whole)], sizes, opts.max_text_chars)


def test_ob3_feedback_naming_a_region_cut_by_its_budget_is_measured_as_rendered() -> None:
    """A feedback line names its region by the region's label only while the region is listed;
    once the region budget cut it, the line names the region by its id, fenced, and is longer.
    The feedback budget measures the line the text will show, not the one it would have shown."""
    kept = Region(id="form", label="Sign up", role="form", path=["form"], in_viewport=True)
    cut = Region(id="news", label="N", role="form", path=["news"], purpose="x" * 300, in_viewport=True)
    item = Feedback(level="error", message="Enter an email address", field="email", region_path=["news"])
    snapshot = Snapshot(
        identity=Identity(title="Sign up", path="/signup"), regions=[kept, cut], regions_total=2,
        feedback=[item], feedback_total=1,
    )
    as_if_listed = measure(feedback=[item], listed_regions=[kept, cut]).feedback[0]
    as_rendered = measure(feedback=[item], listed_regions=[kept]).feedback[0]
    assert as_rendered > as_if_listed
    scope_chars = measure(regions=[kept]).regions[0]
    opts = ObserveOptions(max_scope_chars=scope_chars, max_feedback_chars=as_if_listed)
    obs, text, _ = _observe(snapshot, opts)
    assert obs.regions == [kept]
    lines = _items(text, "## Current page feedback")
    assert obs.feedback != [item]  # it does not fit whole: cut or left out
    assert sum(len(line) + 1 for line in lines) <= opts.max_feedback_chars


def test_ob3_record_ids_past_the_first_measured_are_measured_as_the_room_allows() -> None:
    """Thousands of ids: the citation list is the longest run from the first that fits, however
    many asks it took to measure it."""
    ids = [f"id-{i:05d}" for i in range(3000)]
    snapshot = Snapshot(identity=Identity(title="Ids", path="/"), record_index=RecordIndex(ids=ids))
    for room in (0, 11, 12, 13, 100, 600, 5000):
        obs, text, _ = _observe(snapshot, ObserveOptions(max_index_chars=room))
        assert len(obs.record_ids) == room // len("id-00000 / ")
        assert obs.omitted.record_ids_not_listed == 3000 - len(obs.record_ids)
        if obs.record_ids:
            assert len(_cited(text)) + 3 <= room


def test_ob3_a_state_value_too_large_is_summarised_not_dropped() -> None:
    big = StateItem(name="selection", value={f"k{i}": "v" * 40 for i in range(30)})
    small = StateItem(name="total", value=3)
    snapshot = Snapshot(identity=Identity(title="S", path="/"), state=[small, big], state_total=2)
    obs, text, _ = _observe(snapshot, ObserveOptions(max_state_chars=120))
    assert [s.name for s in obs.state] == ["total", "selection"]
    assert obs.state[1].value == "{… 30 keys, too large to show}"
    assert "30 keys, too large to show" in text
    assert obs.omitted.state_not_listed == 0


def test_ob3_the_main_content_is_offered_before_what_lies_beside_it_and_before_its_own_toolbar() -> None:
    """A page with a ``main`` landmark (an application: a side panel of files beside the
    document worked on): the action budget offers the main content's controls first, then
    its tool rows, then the regions beside it, whatever their document order."""
    regions = [
        Region(id="files", label="Files", role="region", path=["files"], in_viewport=True, source="inferred"),
        Region(id="work", label="Work", role="main", path=["work"], in_viewport=True, source="inferred"),
        Region(
            id="tools", label="Tools", role="toolbar", parent="work", path=["work", "tools"],
            in_viewport=True, source="inferred",
        ),
    ]  # fmt: skip

    def actions(region: list[str], words: str, n: int) -> list[PageAction]:
        return [
            PageAction(
                name=f"{words} {i}", kind="click", effect="write", description=f"{words} {i}",
                region=region[-1], region_path=region, in_viewport=True, source="inferred",
            )
            for i in range(n)
        ]  # fmt: skip

    page = [*actions(["files"], "open file", 12), *actions(["work", "tools"], "format", 6)]
    page += actions(["work"], "edit", 3)
    snapshot = Snapshot(
        identity=Identity(title="App"), regions=regions, actions=page, actions_total=len(page)
    )
    obs = _observe(snapshot, ObserveOptions(max_actions=8))[0]
    shown = {a.name for a in obs.actions}
    # Seven lines and the click_more entry, which names the rest in the same order.
    assert shown == {*(f"edit {i}" for i in range(3)), *(f"format {i}" for i in range(4))}, shown
    named = [e.name for e in obs.more]
    assert named == ["format 4", "format 5", *(f"open file {i}" for i in range(12))], named
    # Without a main landmark, the content's controls come in document order, as before.
    plain = msgspec.structs.replace(
        snapshot, regions=[msgspec.structs.replace(r, role="region") for r in regions]
    )
    obs = _observe(plain, ObserveOptions(max_actions=8))[0]
    shown = {a.name for a in obs.actions}
    assert shown == {f"open file {i}" for i in range(7)}, shown
    assert [e.name for e in obs.more][:2] == ["open file 7", "open file 8"]


def test_ob3_what_an_act_opened_and_a_menu_bar_are_offered_room_first() -> None:
    """Issue 34: after an act, the options and menu items that came with it (the menu it
    opened, at the end of the page) are offered room before everything else, and an
    application's menu bar before the content; a button that merely appeared is not."""
    from cdpagent.snapshot.budget import build
    from cdpagent.snapshot.toolnames import NameRegistry

    regions = [
        Region(id="menubar", label="menubar", role="menubar", path=["menubar"], in_viewport=True),
        Region(id="work", label="Work", role="main", path=["work"], in_viewport=True),
    ]

    def action(words: str, uid: int, region: list[str], *, popup: bool = False) -> PageAction:
        return PageAction(
            name=words, kind="click", effect="write", description=words,
            region=region[-1] if region else None, region_path=region, in_viewport=True,
            source="inferred", uid=uid, popup=popup,
        )  # fmt: skip

    menu = [action(w, 100 + i, ["menubar"]) for i, w in enumerate(("File", "Run", "Help"))]
    work = [action(f"tool {i}", i + 1, ["work"]) for i in range(10)]
    names = NameRegistry()
    opts = ObserveOptions(max_actions=5)
    page = [*work, *menu]
    before = Snapshot(identity=Identity(title="App"), regions=regions, actions=page, actions_total=13)
    obs = build(before, opts, names=names)[0]
    shown = {a.name for a in obs.actions}
    # Four lines and the click_more entry, which names the rest of the work's buttons.
    assert shown == {"File", "Run", "Help", "tool 0"}, shown
    assert [e.name for e in obs.more] == [f"tool {i}" for i in range(1, 10)]
    names.acting()
    opened = [action(w, 200 + i, [], popup=True) for i, w in enumerate(("Run All", "Run Above"))]
    after = msgspec.structs.replace(
        before, actions=[*work, action("new button", 300, ["work"]), *menu, *opened], actions_total=16
    )
    obs = build(after, opts, names=names)[0]
    shown = {a.name for a in obs.actions}
    assert shown == {"Run All", "Run Above", "File", "Run"}, shown
    assert [e.name for e in obs.more][:2] == ["Help", "tool 0"]
