"""Issue 12: the collector's incremental index agrees with a from-scratch collection.

``collect(options)`` in the isolated world answers from the index it keeps between
observations; ``collect(options, true)`` drops the index and collects from scratch. After
any sequence of page edits, made in the main world by ``tests/pages/index/edits.html``
(one function per kind of edit), both must give the same snapshot, ``collect_ms`` and ``token`` aside,
with and without a record named in ``include``.

One tab serves every example: ``reset(rows)`` renders the page afresh in the same
document, and a from-scratch collection right after it drops the index the examples
before left, so an example does not depend on them (a failure replays as it happened).
Collections between edits (the ``collect`` step) make the index be patched several
times, not only once.
"""

from __future__ import annotations

import json
import reprlib
from typing import Any

import msgspec
import trio
from conftest import PAGES, evaluate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions

PAGE = PAGES / "index" / "edits.html"

_CALL_COLLECT = "function (o, f) { globalThis.__cdpagentObserve.collect(o, f); }"
# Index and from-scratch snapshots in one task of the page: nothing runs between them.
_CALL_BOTH = (
    "function (o, i) { const c = globalThis.__cdpagentObserve.collect; "
    "return [c(o), c(i), c(o, true), c(i, true)]; }"
)

Step = tuple[Any, ...]

# A target: taken modulo the candidates by the page; negative ones count from the end,
# where the shadow root's records are.
TARGET = st.integers(-4, 120)
NAME = st.sampled_from(["open", "archive", "delete", "star", "other"])
TEXT = st.sampled_from(["", "   ", "renamed", "Zoë 周报", "two\nlines", "x" * 300])
ROW_FLAGS = ["hidden", "inert", "hide-display", "hide-visibility", "hide-opacity", "show-visibility"]
ACTION_FLAGS = ["disabled", "aria-disabled", "data-agent-unavailable", *ROW_FLAGS]
# One strategy per kind of edit (a function of window.edit, or a collection from the index).
KINDS: dict[str, st.SearchStrategy[Step]] = {
    "add": st.tuples(st.just("add"), st.integers(0, 2), TARGET),
    "remove": st.tuples(st.just("remove"), TARGET),
    "move": st.tuples(st.just("move"), TARGET, TARGET),
    "flipRow": st.tuples(st.just("flipRow"), TARGET, st.sampled_from(ROW_FLAGS)),
    "flipAction": st.tuples(st.just("flipAction"), TARGET, st.integers(0, 3), st.sampled_from(ACTION_FLAGS)),
    "flipRegion": st.tuples(st.just("flipRegion"), st.integers(0, 5), st.sampled_from(ROW_FLAGS)),
    "flipList": st.tuples(st.just("flipList"), st.integers(0, 2), st.sampled_from(ROW_FLAGS)),
    "display": st.tuples(st.just("display"), TARGET),
    "rename": st.tuples(st.just("rename"), TARGET, st.integers(0, 3), NAME),
    "rekey": st.tuples(st.just("rekey"), TARGET, st.integers(0, 2), TARGET),
    "text": st.tuples(st.just("text"), TARGET, TEXT),
    "retext": st.tuples(st.just("retext"), TARGET, st.integers(0, 4), TEXT),
    "value": st.tuples(st.just("value"), TARGET, TEXT),
    "addAction": st.tuples(st.just("addAction"), TARGET, NAME),
    "removeAction": st.tuples(st.just("removeAction"), TARGET, st.integers(0, 3)),
    "wrap": st.tuples(st.just("wrap"), st.integers(0, 2)),
    "addPage": st.tuples(st.just("addPage"), NAME),
    "removePage": st.tuples(st.just("removePage"), st.integers(0, 5)),
    "dialog": st.just(("dialog",)),
    "shadowAdd": st.tuples(st.just("shadowAdd"), st.integers(0, 3)),
    "shadowHost": st.just(("shadowHost",)),
    "scroll": st.tuples(st.just("scroll"), st.sampled_from([0, 300, 900, 2000, 5000])),
    "state": st.tuples(st.just("state"), TEXT),
    "mark": st.tuples(st.just("mark"), TARGET),
    "risky": st.just(("risky",)),
    "animate": st.tuples(st.just("animate"), TARGET),
    "collect": st.just(("collect",)),
}
EDIT: st.SearchStrategy[Step] = st.one_of(*KINDS.values())

# Every kind of edit once (every flag once), with collections in between.
EVERY_KIND: list[Step] = [
    ("add", 0, 3),
    ("add", 1, 0),
    ("collect",),
    ("remove", 7),
    ("move", 40, 2),
    ("flipRow", 1, "hidden"),
    ("flipRow", 2, "inert"),
    ("collect",),
    ("flipRow", 3, "hide-display"),
    ("flipRow", 4, "hide-visibility"),
    ("flipRow", 5, "hide-opacity"),
    ("mark", 20),
    ("risky",),
    ("mark", 21),
    ("collect",),
    ("mark", 20),
    ("risky",),
    ("mark", 22),
    ("animate", 23),
    ("collect",),
    ("animate", 23),
    ("animate", -1),  # a row in the open shadow root: document.getAnimations() leaves it out
    ("collect",),
    ("animate", -1),
    ("flipAction", 6, 0, "disabled"),
    ("flipAction", 8, 1, "aria-disabled"),
    ("flipAction", 9, 0, "data-agent-unavailable"),
    ("collect",),
    ("flipRegion", 2, "inert"),
    ("flipList", 1, "hide-opacity"),
    ("display", 10),
    ("rename", 11, 0, "other"),
    ("rekey", 12, 0, 0),
    ("rekey", 13, 1, 14),
    ("rekey", 15, 2, 0),
    ("collect",),
    ("text", 16, "renamed"),
    ("retext", 16, 0, "renamed again"),
    ("retext", 17, 1, "Zoë 周报"),
    ("collect",),
    ("retext", 18, 4, ""),
    ("value", 17, "typed"),
    ("addAction", 18, "star"),
    ("removeAction", 19, 0),
    ("wrap", 1),
    ("collect",),
    ("addPage", "other"),
    ("removePage", 0),
    ("shadowAdd", 0),
    ("rekey", -1, 0, 0),
    ("collect",),
    ("scroll", 900),
    ("state", "Zoë 周报"),
    ("collect",),
    ("dialog",),
    ("shadowHost",),
]


def options(include: tuple[str, ...] = ()) -> str:
    return msgspec.json.encode(ObserveOptions(include=include).collector_args()).decode()


async def collect(tab: cdpagent.Tab, context: int, *, fresh: bool = False) -> None:
    """One collection in the isolated world (from the index, or from scratch when ``fresh``)."""
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _CALL_COLLECT,
            "executionContextId": context,
            "arguments": [{"value": options()}, {"value": fresh}],
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply


async def edit(tab: cdpagent.Tab, context: int, step: Step) -> None:
    """Apply one step: a collection from the index, or an edit in the page's main world."""
    if step[0] == "collect":
        await collect(tab, context)
    else:
        await evaluate(tab, f"window.edit.{step[0]}({json.dumps(list(step[1:]))[1:-1]})")


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxlist, _SHORT.maxdict = 120, 8, 8


def first_difference(index: Any, fresh: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ (a key path and both values), or None when equal."""
    show = _SHORT.repr
    if type(index) is not type(fresh):
        return f"{path}: index {show(index)} != from scratch {show(fresh)}"
    if isinstance(index, dict):
        for key in [*index, *(k for k in fresh if k not in index)]:
            if key not in fresh or key not in index:
                side = "from scratch" if key not in fresh else "index"
                return f"{path}.{key}: missing from {side}"
            found = first_difference(index[key], fresh[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(index, list):
        for i, (a, b) in enumerate(zip(index, fresh, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(index) != len(fresh):
            counts = f"index has {len(index)} items, from scratch {len(fresh)}"
            return f"{path}: {counts}: {show(index)} != {show(fresh)}"
        return None
    return None if index == fresh else f"{path}: index {show(index)} != from scratch {show(fresh)}"


async def compare(tab: cdpagent.Tab, context: int, pick: int) -> dict[str, Any]:
    """Collect from the index and from scratch, plain and with row ``pick`` included, and
    assert each pair equal; returns the plain snapshot."""
    chosen = await evaluate(tab, f"window.recordId({pick})")
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _CALL_BOTH,
            "executionContextId": context,
            "arguments": [{"value": options()}, {"value": options((chosen,) if chosen else ())}],
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply
    snapshots: list[dict[str, Any]] = [json.loads(t) for t in reply["result"]["value"]]
    index, included, fresh, fresh_included = snapshots
    for snapshot in snapshots:
        del snapshot["collect_ms"], snapshot["token"]
    for what, a, b in (("plain", index, fresh), (f"include={chosen!r}", included, fresh_included)):
        difference = first_difference(a, b)
        assert difference is None, f"index and from-scratch snapshots differ ({what}) at {difference}"
    return index


async def start(tab: cdpagent.Tab, context: int, rows: int, flat: bool = False, lazy: bool = False) -> int:
    """Render the page afresh (``flat``: one list, no shadow root), drop the index (a
    from-scratch collection), then collect once from the index, so that it exists before
    the first edit; returns the isolated world's context.

    ``lazy``: a new document instead (a reload), whose first collection is the index's own
    lazy first observation (rows asked in bulk, totals counted by query), not one from
    scratch; the from-scratch collections come only with the comparison."""
    if lazy:
        await tab.reload()
        context = await tab.context_id(WORLD)
    await evaluate(tab, f"window.reset({rows}, {json.dumps(flat)})")
    if not lazy:
        await collect(tab, context, fresh=True)
    await collect(tab, context)
    return context


async def test_index_agrees_with_from_scratch_after_every_kind_of_edit(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)
    await start(tab, context, 60)
    first = await compare(tab, context, 50)
    # The page exercises what the edits are about: offscreen rows, a record in an open
    # shadow root, blocked row actions, nested regions, state and feedback.
    ids = first["record_index"]["ids"]
    assert len(ids) == 66 and "s0" in ids and len(first["record_index"]["viewport"]) < 40
    assert any(g["reasons"] for g in first["row_actions"])
    assert {"main", "people", "side"} <= {r["id"] for r in first["regions"]}
    assert first["state"] and first["feedback"]
    assert {step[0] for step in EVERY_KIND} == set(KINDS)
    # Once in a row (the index patched again and again), then each edit alone on an
    # index just built: a rebuild caused by one edit must not hide another's patch.
    await start(tab, context, 60)
    for step in EVERY_KIND:
        await edit(tab, context, step)
    last = await compare(tab, context, 50)
    for flat in (False, True):
        await start(tab, context, 60, flat)
        for step in EVERY_KIND:
            await edit(tab, context, step)
            await compare(tab, context, 50)
    # The lazy first observation of a new document, then every edit, then a full need
    # (a record included in full) at each comparison.
    for flat in (False, True):
        context = await start(tab, context, 60, flat, lazy=True)
        for step in EVERY_KIND:
            await edit(tab, context, step)
        await compare(tab, context, 50)
    # A list hidden by visibility whose first row shows itself again: that row proves
    # nothing of its siblings, which the rows asked in bulk must still count as hidden.
    context = await start(tab, context, 60, True, lazy=True)
    await edit(tab, context, ("flipList", 0, "hide-visibility"))
    await edit(tab, context, ("flipRow", 0, "show-visibility"))
    assert (await compare(tab, context, 50))["record_index"]["ids"] == ["p0"]
    assert last["modal"] == "Confirm" and "s0" not in last["record_index"]["ids"]
    assert "duplicate record ids" in " ".join(last["warnings"])


async def test_index_agrees_with_from_scratch_after_random_edits(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)

    async def agree(rows: int, flat: bool, lazy: bool, edits: list[Step], pick: int) -> None:
        nonlocal context
        context = await start(tab, context, rows, flat, lazy)
        for step in edits:
            await edit(tab, context, step)
        await compare(tab, context, pick)

    # Hypothesis drives examples synchronously: it runs in a worker thread, each example
    # calling back into this Trio run (and its one tab).
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        rows=st.integers(40, 80),
        flat=st.booleans(),
        lazy=st.booleans(),
        edits=st.lists(EDIT, min_size=1, max_size=8),
        pick=TARGET,
    )
    def agreement(rows: int, flat: bool, lazy: bool, edits: list[Step], pick: int) -> None:
        trio.from_thread.run(agree, rows, flat, lazy, edits, pick)

    await trio.to_thread.run_sync(agreement)
