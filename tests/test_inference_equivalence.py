"""OB-12: the fast paths of inference give the observation the slower ones gave.

``tests/golden/inferred_pages.json`` holds the text and tools of the inferred observation
of each page below as ``js/infer.js`` gave them before the bulk scans and budgets of
issue 25 (commit 92c47f9): the vendored real pages, and the generated table and
documentation pages at sizes past ``max_page_actions`` and the card search's bounds.
Every page must still observe to exactly that text and those tools. A change meant to
change what inference shows re-records the file (``CDPAGENT_RECORD_GOLDEN=1``), and says
why in its commit. The checkout's own path is written ``<repo>``.

The pages are opened through a link whose path has the same length on every checkout
(:func:`_pages_root`): the budgets lend the room a request leaves under its bound, and
the page's path is part of the request, so a longer checkout path would show fewer ids.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import trio

import cdpagent
from cdpagent.snapshot import ObserveOptions, tools_json
from cdpagent.snapshot.observe import observe_page

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden" / "inferred_pages.json"


def _pages_root() -> Path:
    """``tests/realworld`` through a link in ``/tmp`` named by this checkout's path (so two
    checkouts never share it), whose own path has one length everywhere; made at import,
    atomically, so that parallel workers agree."""
    real = HERE / "realworld"
    link = Path("/tmp") / f"cdpagent-golden-{hashlib.sha256(str(real).encode()).hexdigest()[:12]}"
    if not (link.is_symlink() and link.resolve() == real):
        spare = link.with_name(f"{link.name}.{os.getpid()}")
        spare.unlink(missing_ok=True)
        spare.symlink_to(real, target_is_directory=True)
        spare.replace(link)
    return link


REAL = _pages_root()
PAGES = {
    "todomvc": (REAL / "todomvc" / "index.html").as_uri(),
    "todomvc-react": (REAL / "todomvc-react" / "index.html").as_uri(),
    **{
        name: (REAL / "apg" / f"{name}.html").as_uri()
        for name in (
            "combobox-select-only",
            "dialog",
            "disclosure-faq",
            "menu-button-actions",
            "sortable-table",
            "tabs-manual",
        )
    },
    # 5,000 links: page actions past max_page_actions, 4,000 titles past the card search's bound.
    "docs 1000": (REAL / "generated" / "docs.html").as_uri() + "?sections=1000",
    "table 500": (REAL / "generated" / "table.html").as_uri() + "?rows=500",
}


def _portable(text: str) -> str:
    """``text`` with this checkout's path as ``<repo>``, so the file holds on any clone."""
    return text.replace(str(REAL), "<repo>/tests/realworld").replace(str(HERE.parent), "<repo>")


async def observe_all(browser: cdpagent.Browser | None = None) -> dict[str, dict[str, str]]:
    """Label → {"text", "tools"} of the first inferred observation of each page."""
    if browser is None:
        async with cdpagent.launch() as own:
            return await observe_all(own)
    out: dict[str, dict[str, str]] = {}
    for label, url in PAGES.items():
        tab = await browser.open(url, timeout=60)
        try:
            result = await observe_page(tab, ObserveOptions(settle=False), timeout=60)
            out[label] = {"text": _portable(result.text), "tools": _portable(tools_json(result.tools))}
        finally:
            await tab.close()
    return out


async def test_ob12_inferred_observations_are_what_they_were_before_the_fast_paths(
    browser: cdpagent.Browser,
) -> None:
    now = await observe_all(browser)
    if os.environ.get("CDPAGENT_RECORD_GOLDEN"):
        text = json.dumps(now, indent=1, ensure_ascii=False, sort_keys=True)
        await trio.Path(GOLDEN).write_text(text + "\n", encoding="utf-8")
    before = json.loads(await trio.Path(GOLDEN).read_text(encoding="utf-8"))
    assert sorted(now) == sorted(before)
    for label in PAGES:
        assert now[label]["text"] == before[label]["text"], label
        assert now[label]["tools"] == before[label]["tools"], label
