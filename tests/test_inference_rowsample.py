"""OB-12, issue 36: the row actions of a long table are counted from a sample, exactly.

Past ``row_box_checks`` rows a container's row actions are folded from the rows read (in
the viewport, in full, and eight picked by position) when those prove the rest alike
(``js/infer/rowactions.js``); every row's controls are still checked for their shape (role,
kind, column, disabled). Each test compares that pass with the full pass (``"unbounded":
true``, every row's names read) in one page task on real Chromium, and says through
``model().unread`` whether the sample was used: it is when the rows are alike, and not when
a row far down has an extra, a disabled or a hidden control, or a picked row is named
otherwise (then every row is read, and the counts are still exact).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
import trio
from conftest import evaluate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_inference_budgets import first_difference
from test_inference_equivalence import REAL
from test_inference_index import EDIT, LOCAL, PAGE, Step, compare, edit, start

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions

TABLE = (REAL / "generated" / "table.html").as_uri() + "?rows=300"
ROWS = 300

# The sampled pass, what it did (model()), then the full pass: one task of the page.
_BOTH = (
    "function (o) { const I = globalThis.__cdpagentInfer; const m = I.plan(null); "
    "const u = JSON.stringify(Object.assign(JSON.parse(o), { unbounded: true })); "
    "const sampled = I.infer(o, m, true); const model = JSON.parse(I.model()); "
    "return JSON.stringify([sampled, model, I.infer(u, m, true)]); }"
)


async def sampled_and_full(tab: cdpagent.Tab) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """The inferred snapshot of ``tab`` with rows counted from a sample where they may be,
    the rows so counted, and the snapshot with every row read."""
    ctx = await tab.context_id(WORLD)
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _BOTH,
            "arguments": [{"value": json.dumps(ObserveOptions().collector_args())}],
            "executionContextId": ctx,
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply["exceptionDetails"]
    sampled, model, full = json.loads(reply["result"]["value"])
    return json.loads(sampled), int(model.get("unread", 0)), json.loads(full)


def answer(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What the fold decides: the row actions, and the records' actions."""
    return {"row_actions": snapshot["row_actions"], "records": snapshot["records"]}


def group(snapshot: dict[str, Any], name: str) -> dict[str, Any]:
    """The row action group called ``name``."""
    return next(g for g in snapshot["row_actions"] if g["name"] == name)


async def test_ob12_alike_rows_are_counted_from_a_sample(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TABLE)
    sampled, unread, full = await sampled_and_full(tab)
    assert first_difference(answer(sampled), answer(full)) is None
    # Most rows were counted, not read: all but the rows in view and the picked ones.
    assert ROWS - 80 < unread < ROWS
    archive = group(sampled, "archive")
    assert archive["rows"] == archive["available"] == ROWS
    assert archive["sample"] == ["order-1", "order-2", "order-3"]
    # The checkbox's name differs on every row ("Select order 7"): its column names it.
    assert group(sampled, "select")["rows"] == ROWS


async def test_ob12_rows_all_disabled_alike_are_counted_from_a_sample(browser: cdpagent.Browser) -> None:
    tab = await browser.open(TABLE)
    await evaluate(tab, "document.querySelectorAll('#rows button').forEach((b) => { b.disabled = true; })")
    sampled, unread, full = await sampled_and_full(tab)
    assert unread > ROWS - 80
    assert first_difference(answer(sampled), answer(full)) is None
    archive = group(sampled, "archive")
    assert archive["available"] == 0 and archive["available_ids"] == []
    assert archive["reasons"] == {"disabled": ROWS}


# Edits of one row far below the viewport (or of a row the sample picks, the last) that the
# sample cannot stand for: every row is read.
ROW = "document.getElementById('order-{}')"
UNLIKE = {
    "a disabled control": f"{ROW.format(250)}.querySelector('button').disabled = true",
    "an extra control": f"{ROW.format(260)}.cells[5].insertAdjacentHTML("
    "'beforeend', '<button type=button>Refund</button>')",
    "a control missing": f"{ROW.format(270)}.querySelector('button').remove()",
    "a hidden control": f"{ROW.format(280)}.querySelector('input').setAttribute('aria-hidden', 'true')",
    "a control in another column": f"{ROW.format(290)}.cells[4].append("
    f"{ROW.format(290)}.querySelector('button'))",
    "a picked row named otherwise": f"{ROW.format(300)}.querySelector('button').textContent = 'Restore'",
    "a name a picked row shares with a row read": f"{ROW.format(300)}.querySelector('input')"
    ".setAttribute('aria-label', 'Select order 1')",
}


@pytest.mark.parametrize("change", list(UNLIKE))
async def test_ob12_a_row_unlike_the_sample_makes_every_row_read(
    browser: cdpagent.Browser, change: str
) -> None:
    tab = await browser.open(TABLE)
    await evaluate(tab, f"{UNLIKE[change]}, true")
    sampled, unread, full = await sampled_and_full(tab)
    assert unread == 0, f"{change}: {unread} rows counted from the sample"
    assert first_difference(answer(sampled), answer(full)) is None
    if change == "a disabled control":
        assert group(sampled, "archive")["reasons"] == {"disabled": 1}
    if change == "an extra control":
        assert group(sampled, "refund")["rows"] == 1
    if change == "a picked row named otherwise":
        assert group(sampled, "archive")["rows"] == ROWS - 1 and group(sampled, "restore")["rows"] == 1


async def test_kept_model_agrees_with_from_scratch_when_rows_are_counted_from_a_sample(
    browser: cdpagent.Browser,
) -> None:
    """The agreement of tests/test_inference_index.py on a table past ``row_box_checks``
    rows: a kept pass and a pass from scratch pick the same rows and prove the same."""
    tab = await browser.open(PAGE)
    context = await tab.context_id(WORLD)
    models: Counter[str] = Counter()
    counted: list[int] = []

    async def agree(rows: int, edits: list[Step], pick: int) -> None:
        await start(tab, context, rows)
        for step in edits:
            await edit(tab, context, step)
        await compare(tab, context, pick, repr(edits), models)
        model = await tab.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": "function () { return globalThis.__cdpagentInfer.model(); }",
                "executionContextId": context,
                "returnByValue": True,
            },
        )
        counted.append(int(json.loads(model["result"]["value"]).get("unread", 0)))

    # Rows alike: the kept pass and the pass from scratch both count most of them.
    await agree(100, [("observe",), ("cell", 60, 2, 2)], 5)
    assert counted[-1] > 50, counted

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(rows=st.integers(70, 130), edits=st.lists(EDIT, max_size=6), last=LOCAL, pick=st.integers(-3, 130))
    def agreement(rows: int, edits: list[Step], last: Step, pick: int) -> None:
        trio.from_thread.run(agree, rows, [*edits, ("observe",), last], pick)

    await trio.to_thread.run_sync(agreement)
    assert models["patched"] > 0, models


# A side bar of 400 items, each one bare link: "push_10", "Trait push_10", ... Half the
# names start with "Trait", so no sample of eight can tell whether that word names the
# rows' action; the words the items' ids were read from can (js/infer/rowactions.js
# knownLeads).
SIDEBAR = (REAL / "generated" / "docs.html").as_uri() + "?sections=200"
SIDEBAR_ROWS = 400
LINK = "document.querySelectorAll('#sidebar a')[{}]"


async def test_ob12_a_link_list_is_counted_from_the_words_of_its_ids(browser: cdpagent.Browser) -> None:
    tab = await browser.open(SIDEBAR)
    sampled, unread, full = await sampled_and_full(tab)
    assert first_difference(answer(sampled), answer(full)) is None
    assert SIDEBAR_ROWS - 80 < unread < SIDEBAR_ROWS
    assert group(sampled, "open")["rows"] == SIDEBAR_ROWS


# Edits far below the viewport after which the words of the ids cannot stand for the names.
UNKNOWN = {
    # "trait" now starts 300 of the 400 names: it names those rows' action.
    "a first word on most rows": "document.querySelectorAll('#sidebar a').forEach((a, i) => "
    "{ if (i >= 200 && i % 2 === 0) a.textContent = 'Trait of ' + a.textContent; })",
    "a link named otherwise": f"{LINK.format(333)}.setAttribute('aria-label', 'Elsewhere')",
    "two links of one name": f"{LINK.format(301)}.textContent = {LINK.format(303)}.textContent",
    "a row of two links": f"{LINK.format(305)}.parentElement.insertAdjacentHTML('beforeend', "
    "' <a href=\"#more\">more</a>')",
}


@pytest.mark.parametrize("change", list(UNKNOWN))
async def test_ob12_a_link_list_whose_names_the_ids_do_not_tell_is_read(
    browser: cdpagent.Browser, change: str
) -> None:
    tab = await browser.open(SIDEBAR)
    await evaluate(tab, f"{UNKNOWN[change]}, true")
    sampled, unread, full = await sampled_and_full(tab)
    assert unread == 0, f"{change}: {unread} rows counted from the sample"
    assert first_difference(answer(sampled), answer(full)) is None
    if change == "a first word on most rows":
        assert group(sampled, "trait")["rows"] == 300
