"""Inference's kept model agrees with inference from scratch.

``__cdpagentInfer.infer(options, mode)`` in the isolated world answers from the model it
keeps between observations of a page that declares nothing (``js/infer.js``, "the inferred
index"); ``infer(options, mode, true)`` drops it and infers from scratch. After any sequence
of page edits both must give the same snapshot, ``collect_ms`` aside, plain and with a
record named in ``include``, computed in one task of the page (nothing runs between them).

Two kinds of pages are edited, on real Chromium:

- ``tests/pages/index/inferred_edits.html``, written for this test: a table, a task list,
  cards, a shadow root's slotted list, page controls and a dialog; ``window.edit`` holds one
  function per kind of edit (rows added, removed, moved; cell and key text; controls renamed,
  disabled, hidden; rows hidden by class, attribute and style; a header renamed; a label for
  a row's field; values set by script; page controls added and removed; the dialog;
  aria-hidden and inert; a style rule inserted; scroll; an animation; the shadow root);
- the vendored real pages of ``tests/realworld`` (TodoMVC, WAI-ARIA APG examples, MiniWoB++
  tasks), edited generically: a random element's text, an attribute toggled, the element
  removed, cloned or moved. Pages of public origin prove more than pages written for a test.

Observations between edits (the ``observe`` step) make the model be patched several times.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import trio
from conftest import PAGES, evaluate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_inference_equivalence import PAGES as GOLDEN_PAGES
from test_inference_equivalence import REAL
from test_observation_index import first_difference, options

import cdpagent
from cdpagent.cdp.world import WORLD, PageFunction, call_function
from cdpagent.snapshot.observe import observe_page

PAGE = PAGES / "index" / "inferred_edits.html"
MINIWOB = "?seed=7&max_time=600000"
# The vendored pages of the golden test (TodoMVC, the APG examples), and MiniWoB++ tasks.
REAL_PAGES = [
    *(url for label, url in GOLDEN_PAGES.items() if not label.startswith(("docs ", "table "))),
    *(
        (REAL / "miniwob" / "tasks" / f"{name}.html").as_uri() + MINIWOB
        for name in (
            "email-inbox",
            "social-media",
            "click-checkboxes-large",
            "read-table",
            "navigate-tree",
            "choose-list",
            "click-tab-2",
            "login-user",
        )
    ),
]

# The pages whose records are table rows or list items (TodoMVC, the sortable table,
# MiniWoB's read-table), drawn more often: an edit inside one of their rows patches the model.
ROW_PAGES = [
    i
    for i, url in enumerate(REAL_PAGES)
    if any(n in url for n in ("todomvc/", "sortable-table", "read-table"))
]

_CALL_INFER = "function (o) { const I = globalThis.__cdpagentInfer; I.infer(o, I.plan(null)); }"
_CALL_FRESH = "function (o) { const I = globalThis.__cdpagentInfer; I.infer(o, I.plan(null), true); }"
# The kept model and from scratch, plain and with the pick-th record included, in one task.
_CALL_BOTH = """function (o, pick) {
  const I = globalThis.__cdpagentInfer;
  const declared = document.querySelector(
    '[data-agent-region],[data-agent-action],[data-agent-record],[data-agent-state]');
  const planned = [I.plan(null), declared ? 'off' : 'all'];
  const m = 'all';
  const plain = I.infer(o, m);
  const model = JSON.parse(I.model());
  const ids = JSON.parse(plain).record_index.ids;
  const id = ids.length ? ids[((pick % ids.length) + ids.length) % ids.length] : null;
  const opts = JSON.parse(o);
  if (id !== null) opts.include = [id];
  const i = JSON.stringify(opts);
  const out = [planned, model, id, plain, I.infer(i, m), I.infer(o, m, true), I.infer(i, m, true)];
  I.plan(null); // planned with the model the next comparison starts from
  return out;
}"""
# Generic edits of any page, evaluated in its main world (window.__genericEdit, window.__todos).
GENERIC_EDITS = (PAGES / "index" / "generic_edits.js").read_text(encoding="utf-8")

Step = tuple[Any, ...]
TARGET = st.integers(-3, 60)
SMALL = st.integers(0, 6)
KIND = st.sampled_from(["order", "task", "card", "note"])
# One strategy per kind of edit (a function of window.edit, or an observation from the model).
KINDS: dict[str, st.SearchStrategy[Step]] = {
    "add": st.tuples(st.just("add"), KIND, TARGET),
    "remove": st.tuples(st.just("remove"), KIND, TARGET),
    "move": st.tuples(st.just("move"), KIND, TARGET, TARGET),
    "cell": st.tuples(st.just("cell"), TARGET, SMALL, SMALL),
    "append": st.tuples(st.just("append"), TARGET),
    "rename": st.tuples(st.just("rename"), TARGET, SMALL, SMALL),
    "disable": st.tuples(st.just("disable"), TARGET, SMALL),
    "hideControl": st.tuples(st.just("hideControl"), TARGET, SMALL, SMALL),
    "hideRow": st.tuples(st.just("hideRow"), TARGET, SMALL),
    "landmark": st.tuples(st.just("landmark"), TARGET),
    "header": st.tuples(st.just("header"), SMALL, SMALL),
    "label": st.tuples(st.just("label"), TARGET),
    "value": st.tuples(st.just("value"), TARGET, SMALL),
    "check": st.tuples(st.just("check"), TARGET),
    "addPage": st.tuples(st.just("addPage"), SMALL),
    "removePage": st.tuples(st.just("removePage"), SMALL),
    "dialog": st.just(("dialog",)),
    "declare": st.just(("declare",)),
    "secret": st.tuples(st.just("secret"), TARGET),
    "ariaHidden": st.tuples(st.just("ariaHidden"), TARGET),
    "inert": st.tuples(st.just("inert"), TARGET),
    "sheet": st.tuples(st.just("sheet"), TARGET),
    "scroll": st.tuples(st.just("scroll"), st.sampled_from([0, 200, 700, 3000])),
    "animate": st.tuples(st.just("animate"), TARGET),
    "shadow": st.tuples(st.just("shadow"), st.integers(0, 1)),
    "observe": st.just(("observe",)),
}
EDIT: st.SearchStrategy[Step] = st.one_of(*KINDS.values())
# The last edit before a comparison: inside one record (what patches the model).
LOCAL = st.one_of(
    *(KINDS[k] for k in ("cell", "append", "rename", "disable", "hideControl", "value", "check")),
    *(KINDS[k] for k in ("secret", "landmark")),
)

# Every kind of edit once (rows far out of view too), with observations in between.
EVERY_KIND: list[Step] = [
    ("cell", 35, 2, 2),
    ("observe",),
    ("cell", 35, 0, 3),  # the key cell of a row without an id: its hashed id changes
    ("append", 37),
    ("observe",),
    ("rename", 30, 1, 1),
    ("rename", 31, 0, 2),
    ("disable", 32, 1),
    ("observe",),
    ("hideControl", 33, 1, 0),
    ("hideControl", 34, 0, 3),
    ("value", 36, 3),
    ("check", 36),
    ("observe",),
    ("secret", 0),  # a field of a row in view becomes a password field: its value is masked
    ("observe",),
    ("secret", 0),
    ("hideRow", 29, 0),
    ("hideRow", 28, 3),
    ("hideRow", 27, 4),
    ("observe",),
    ("landmark", 2),  # a section inside a task named: a region the model did not have
    ("observe",),
    ("landmark", 2),
    ("add", "order", 20),
    ("remove", "order", 21),
    ("move", "order", 22, 2),
    ("observe",),
    ("header", 2, 2),
    ("label", 25),
    ("observe",),
    ("label", 25),
    ("add", "task", 1),
    ("append", -8),
    ("move", "card", 0, 2),
    ("remove", "note", 0),
    ("observe",),
    ("addPage", 1),
    ("removePage", 0),
    ("sheet", 24),
    ("observe",),
    ("scroll", 700),
    ("animate", 23),
    ("observe",),
    ("shadow", 1),  # its slot removed: the notes are not rendered (a change inside the shadow root)
    ("observe",),
    ("shadow", 1),
    ("shadow", 0),  # its style hides them
    ("observe",),
    ("ariaHidden", 1),
    ("inert", 2),
    ("observe",),
    ("declare",),
    ("observe",),
    ("declare",),
    ("dialog",),
]


async def observe(tab: cdpagent.Tab, context: int, *, fresh: bool = False) -> None:
    """One inference from the kept model (which patches it), or from scratch (``fresh``)."""
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _CALL_FRESH if fresh else _CALL_INFER,
            "executionContextId": context,
            "arguments": [{"value": options()}],
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply


async def compare(
    tab: cdpagent.Tab, context: int, pick: int, what: str, models: Counter[str] | None = None
) -> dict[str, Any]:
    """Infer from the kept model and from scratch, plain and with the ``pick``-th record
    included, and assert each pair equal; returns the plain snapshot. ``models`` counts
    what the kept pass did with its model (``built``, ``kept``, ``patched``) and, for
    ``built``, why (``built: <reason>``)."""
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _CALL_BOTH,
            "executionContextId": context,
            "arguments": [{"value": options()}, {"value": pick}],
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply
    (planned, declared), model, chosen, *texts = reply["result"]["value"]
    assert planned == declared, f"{what}: plan(null) says {planned!r}, the page's declarations {declared!r}"
    if models is not None:
        models[model["model"]] += 1
        if model["model"] == "built":  # why, to tell a dropped model from a first one
            models[f"built: {model.get('why', '')}"] += 1
    snapshots: list[dict[str, Any]] = [json.loads(t) for t in texts]
    kept, included, fresh, fresh_included = snapshots
    for snapshot in snapshots:
        del snapshot["collect_ms"]
    for label, a, b in (("plain", kept, fresh), (f"include={chosen!r}", included, fresh_included)):
        difference = first_difference(a, b)
        assert difference is None, f"{what}: kept model and from scratch differ ({label}) at {difference}"
    return kept


async def edit(tab: cdpagent.Tab, context: int, step: Step) -> None:
    """Apply one step: an observation from the kept model, or an edit in the main world."""
    if step[0] == "observe":
        await observe(tab, context)
    else:
        await evaluate(tab, f"window.edit.{step[0]}({json.dumps(list(step[1:]))[1:-1]})")


async def start(tab: cdpagent.Tab, context: int, rows: int) -> None:
    """Render the edits page afresh, then infer from scratch and once from the model, so
    that a model exists (built by the page's current state) before the first edit."""
    await evaluate(tab, f"window.reset({rows})")
    await evaluate(tab, "new Promise((done) => requestAnimationFrame(() => done(true)))")
    await observe(tab, context, fresh=True)
    await observe(tab, context)


async def test_kept_model_agrees_with_from_scratch_after_every_kind_of_edit(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)
    await start(tab, context, 40)
    first = await compare(tab, context, 30, "fresh page")
    # The page exercises what the edits are about: rows out of view (ids from attributes and
    # hashed), row actions folded, page actions, a region, the notes in the shadow root's slot.
    ids = first["record_index"]["ids"]
    assert len(ids) == 40 + 6 + 4 + 3 and "order-1" in ids and len(first["record_index"]["viewport"]) < 30
    assert {g["name"] for g in first["row_actions"]} >= {"archive", "open", "delete", "pin", "remove"}
    assert {step[0] for step in EVERY_KIND} == set(KINDS)
    # A kept observation of an unchanged page is the same as the one before it.
    again = await compare(tab, context, 30, "unchanged")
    assert first_difference(again, first) is None
    # Once in a row (the model patched again and again), then each edit on its own.
    await start(tab, context, 40)
    for step in EVERY_KIND:
        await edit(tab, context, step)
    last = await compare(tab, context, 30, "every kind in a row")
    assert last["modal"] == "Confirm"
    await start(tab, context, 40)
    models: Counter[str] = Counter()
    for step in EVERY_KIND:
        await edit(tab, context, step)
        await compare(tab, context, 30, repr(step), models)
    # The edits inside one row out of view patched the model (those rows alone were read
    # again), values and scroll kept it, the rest built it again.
    assert models["patched"] >= 9 and models["kept"] >= 8 and models["built"] >= 15, models


async def test_a_replaced_animation_the_browser_removes_keeps_the_model(browser: cdpagent.Browser) -> None:
    """Two finished animations of one property of one element, then a kept pass in the same
    task: at its next frame the browser removes the first as replaced, which changes nothing
    on screen, so the model stands (a print that counted it would drop the model for nothing,
    now and then: when a frame fell between two observations)."""
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)
    await start(tab, context, 40)
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": """function (o) {
              const row = document.querySelector('#rows tr');
              const frames = [{ opacity: 1 }, { opacity: 0 }];
              for (let i = 0; i < 2; i++) row.animate(frames, { duration: 1, fill: 'forwards' }).finish();
              const I = globalThis.__cdpagentInfer;
              I.infer(o, I.plan(null));
              return document.getAnimations().length;
            }""",
            "executionContextId": context,
            "arguments": [{"value": options()}],
            "returnByValue": True,
        },
    )
    assert reply["result"]["value"] == 2, reply
    two_frames = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
    await evaluate(tab, two_frames)
    assert await evaluate(tab, "document.getAnimations().length") == 1
    models: Counter[str] = Counter()
    await compare(tab, context, 3, "one removed as replaced", models)
    assert models["kept"] == 1, models


async def test_record_ids_the_caller_holds_are_not_sent_again(browser: cdpagent.Browser) -> None:
    """Like the declared collector, inference leaves out the record ids of the snapshot the
    caller holds (``have``, its token) when they are the same, and an observation puts them
    back from the one it held."""
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)
    await start(tab, context, 40)

    async def inferred(have: int) -> dict[str, Any]:
        texts = await call_function(
            tab.session, PageFunction.COLLECT, options(), None, 0, False, have, context=context
        )
        return dict(json.loads(texts[1]))

    first = await inferred(0)
    ids = first["record_index"]["ids"]
    assert first["ids_from"] == 0 and len(ids) == 40 + 6 + 4 + 3
    again = await inferred(first["token"])
    assert (again["ids_from"], again["record_index"]["ids"]) == (first["token"], [])
    # A token that is not the last one sent, and ids that changed, bring every id.
    stale = await inferred(first["token"])
    assert (stale["ids_from"], stale["record_index"]["ids"]) == (0, ids)
    await evaluate(tab, 'window.edit.add("task", 1)')
    added = await inferred(stale["token"])
    assert added["ids_from"] == 0 and len(added["record_index"]["ids"]) == len(ids) + 1
    # Through observe_page: the second observation's ids come from the first one's.
    before = await observe_page(tab)
    after = await observe_page(tab)
    assert after.observation.record_ids == before.observation.record_ids
    assert len(after.observation.record_ids) == len(ids) + 1


async def test_kept_model_agrees_with_from_scratch_after_random_edits(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)

    models: Counter[str] = Counter()
    unchanged: Counter[str] = Counter()

    async def agree(rows: int, edits: list[Step], pick: int) -> None:
        await start(tab, context, rows)
        for step in edits:
            await edit(tab, context, step)
        await compare(tab, context, pick, repr(edits), models)
        # Nothing changed since: the next pass must answer from the model it kept.
        await compare(tab, context, pick, f"{edits!r}, then nothing", unchanged)

    # Hypothesis drives examples synchronously: it runs in a worker thread, each example
    # calling back into this Trio run (and its one tab).
    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rows=st.integers(30, 50), edits=st.lists(EDIT, max_size=6), last=LOCAL, pick=TARGET)
    def agreement(rows: int, edits: list[Step], last: Step, pick: int) -> None:
        trio.from_thread.run(agree, rows, [*edits, ("observe",), last], pick)

    await trio.to_thread.run_sync(agreement)
    print(models, unchanged)
    # Every example ends with an edit inside a row: most of them patch the model.
    assert models["patched"] > 0, models
    assert set(unchanged) == {"kept"}, unchanged


GENERIC: st.SearchStrategy[Step] = st.one_of(
    st.tuples(
        st.sampled_from(["text", "attr", "remove", "clone", "move", "value"]),
        st.integers(0, 400),
        st.integers(0, 40),
        st.booleans(),
    ),
    st.tuples(st.just("scroll"), st.just(0), st.integers(0, 40), st.just(False)),
    st.just(("observe",)),
)
# The last edit before a comparison: inside a table row or list item (what patches the model).
IN_ROW: st.SearchStrategy[Step] = st.tuples(
    st.sampled_from(["text", "text", "attr", "remove", "clone", "move"]),
    st.integers(0, 400),
    st.integers(0, 40),
    st.just(True),
)


async def test_kept_model_agrees_with_from_scratch_on_real_pages_after_generic_edits(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(REAL_PAGES[0])

    models: Counter[str] = Counter()
    unchanged: Counter[str] = Counter()

    async def agree(page: int, edits: list[Step], pick: int) -> None:
        url = REAL_PAGES[page]
        await tab.navigate(url)
        # A page's autofocus (TodoMVC's) is processed at its first rendering, later under load:
        # a focus then would drop the kept model between the two comparisons. Two frames in,
        # it has been.
        await evaluate(tab, "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        context = await tab.context_id(WORLD)
        assert await evaluate(tab, GENERIC_EDITS)
        await evaluate(tab, "window.__todos()")
        await observe(tab, context)
        for step in edits:
            if step[0] == "observe":
                await observe(tab, context)
            else:
                await evaluate(tab, f"window.__genericEdit({json.dumps(list(step))[1:-1]})")
        what = f"{url.rsplit('/', 1)[-1]} after {edits!r}"
        await compare(tab, context, pick, what, models)
        await compare(tab, context, pick, f"{what}, then nothing", unchanged)

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        page=st.one_of(st.integers(0, len(REAL_PAGES) - 1), st.sampled_from(ROW_PAGES)),
        edits=st.lists(GENERIC, max_size=4),
        last=IN_ROW,
        pick=st.integers(0, 50),
    )
    def agreement(page: int, edits: list[Step], last: Step, pick: int) -> None:
        trio.from_thread.run(agree, page, [*edits, ("observe",), last], pick)

    await trio.to_thread.run_sync(agreement)
    print(models, unchanged)
    assert models["patched"] > 0, models
    assert set(unchanged) == {"kept"}, unchanged
