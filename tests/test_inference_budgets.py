"""OB-12, issue 25: inference bounded by its budgets still counts what a full pass finds.

Past its budgets ``js/infer.js`` counts controls without naming or describing them (a
page of 50,000 links names a few hundred). ``infer(options, mode)`` with
``"unbounded": true`` in the options is the full pass: every control named, nothing
skipped. On the vendored real pages, the test pages of inference and clickables, and the
generated pages at sizes past ``max_page_actions``, the bounded pass must give the full
pass's answer: the same named actions, and the same counts of everything it left out
(actions per region, in the viewport or not, row actions and their samples, records,
state, feedback, page text). Both passes run in one page task, so the page cannot change
between them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_inference_equivalence import PAGES as GOLDEN_PAGES

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.observe import observe_page

HERE = Path(__file__).resolve().parent
REAL = HERE / "realworld"
PAGES = [
    # The golden pages of the fast paths (the vendored real pages; 5,000 links and 500 rows,
    # past max_page_actions, some of the links in the viewport).
    *GOLDEN_PAGES.values(),
    *(
        (REAL / "miniwob" / "tasks" / f"{name}.html").as_uri()
        for name in (
            "click-checkboxes-large",
            "email-inbox",
            "social-media-all",
            "navigate-tree",
            "read-table",
            "search-engine",
            "use-autocomplete-nodelay",
            "click-tab-2",
        )
    ),
    *(p.as_uri() for p in sorted((HERE / "pages" / "clicks").glob("*.html"))),
    *(p.as_uri() for p in sorted((HERE / "pages" / "infer").glob("*.html"))),
    (HERE / "pages" / "infer_form.html").as_uri(),
    (HERE / "pages" / "infer_cards.html").as_uri(),
]

# Both passes from scratch (``fresh``), in one task.
_BOTH = (
    "function (o) { const I = globalThis.__cdpagentInfer; const m = I.plan(null); "
    "const u = JSON.stringify(Object.assign(JSON.parse(o), { unbounded: true })); "
    "return JSON.stringify([I.infer(o, m, true), I.infer(u, m, true)]); }"
)


def counts(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What an observation says of the page: the named actions, and every count."""
    text = snapshot.get("page_text")
    return {
        "actions": snapshot["actions"],
        "actions_total": snapshot["actions_total"],
        "actions_visible_unnamed": snapshot.get("actions_visible_unnamed", 0),
        "controls_unoffered": snapshot["controls_unoffered"],
        "regions": snapshot["regions"],
        "regions_total": snapshot["regions_total"],
        "row_actions": snapshot["row_actions"],
        "records": snapshot["records"],
        "record_index": snapshot["record_index"],
        "state": snapshot["state"],
        "state_total": snapshot["state_total"],
        "feedback": snapshot["feedback"],
        "feedback_total": snapshot["feedback_total"],
        # A walk stopped at its bound says the rest was not counted: compared when whole.
        "page_text": text if text is None or text.get("scanned_all") else "not read to the end",
    }


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where ``a`` and ``b`` first differ, as ``path: a != b``; None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            found = first_difference(a.get(key), b.get(key), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} items != {len(b)} items"
    return None if a == b else f"{path}: {a!r} != {b!r}"


async def bounded_and_full(
    tab: cdpagent.Tab, options: ObserveOptions
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bounded and the unbounded snapshot of the page in ``tab``, from one page task."""
    ctx = await tab.context_id(WORLD)
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": _BOTH,
            "arguments": [{"value": json.dumps(options.collector_args())}],
            "executionContextId": ctx,
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply["exceptionDetails"]
    bounded, full = (json.loads(s) for s in json.loads(reply["result"]["value"]))
    return bounded, full


async def test_ob12_bounded_inference_counts_what_the_full_pass_finds(browser: cdpagent.Browser) -> None:
    options = ObserveOptions(settle=False)
    wrong: list[str] = []
    past = 0
    for url in PAGES:
        tab = await browser.open(url, timeout=60)
        try:
            # The first observation runs the listener probe, whose verdicts both passes read.
            await observe_page(tab, options, timeout=60)
            bounded, full = await bounded_and_full(tab, options)
        finally:
            await tab.close()
        found = first_difference(counts(bounded), counts(full))
        if found:
            wrong.append(f"{url.rsplit('/', 1)[-1]}: {found}")
        past += bounded["actions_total"] - len(bounded["actions"])
    assert not wrong, "\n".join(wrong)
    # The bound was reached: controls past it were counted (on the generated docs page).
    assert past > 1000
