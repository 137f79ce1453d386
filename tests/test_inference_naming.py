"""Issue 20 against real Chromium: every control named or counted, the page's words, one
masking rule for both collectors, the kinds inference emits.

Pages under ``tests/pages/infer/`` are written the way small task sites write them
(labels not tied to their inputs, bare fields, a radio group in a paragraph, tabs
whose ``<li role=tab>`` holds a link); the masking fixtures are rendered twice, once
declared and once with every declaration but ``data-agent-sensitive`` removed.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from conftest import PAGES
from miniwob_policy import task_url

import cdpagent
from cdpagent import ObserveResult
from cdpagent.snapshot import ActionEntry, ObserveOptions, tools_json
from cdpagent.snapshot.observe import observe_page

INFER = PAGES / "infer"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def everything(result: ObserveResult) -> str:
    return "\n".join(
        [result.text, tools_json(result.tools), msgspec.json.encode(result.observation).decode()]
    )


def by_tool(result: ObserveResult) -> dict[str, ActionEntry]:
    return {e.tool: e for e in result.observation.actions}


async def test_every_visible_control_is_offered_and_named_as_a_person_reads_it(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(INFER / "naming.html")
    result = await observe_page(tab, ObserveOptions(max_actions=100, max_tool_chars=20_000,
                                                    max_action_chars=20_000, max_total_chars=100_000))
    tools = by_tool(result)
    named = {t: (e.kind, e.name_source) for t, e in tools.items()}
    assert named["username"] == ("type", "label")  # <label>Username</label><input id=username>
    assert named["country"] == ("select", "label")  # "Country: <select>"
    assert tools["country"].input is not None and tools["country"].input.options == ["France", "Peru"]
    assert named["search_flights"] == ("type", "placeholder")
    assert named["promo_code"] == ("type", "attribute")  # name="promo_code"
    assert named["text_field_1"] == ("type", "position")  # nothing names it
    assert named["5_x_5"] == ("type", "label")
    assert named["login"] == ("click", None)
    # Accents fold before names become identifiers; one tab is one action.
    assert "cancel" in tools and not any(t.startswith("canc_") for t in tools)
    assert [t for t in tools if t.startswith("details")] == ["details"]
    assert [t for t in tools if t.startswith("reviews")] == ["reviews"]
    # A menu item under an aria-disabled container is not available.
    assert not tools["export"].available and tools["export"].reason == "disabled"
    # Not silently dropped: the text says everything shown, and it is.
    assert "(All currently visible content is shown)" in result.text


async def test_inferred_kinds_choose_set_date_and_editor(browser: cdpagent.Browser) -> None:
    tab = await browser.open(INFER / "naming.html")
    result = await observe_page(tab, ObserveOptions(max_actions=100, max_tool_chars=20_000,
                                                    max_action_chars=20_000, max_total_chars=100_000))
    tools = by_tool(result)
    # One radio group is one choose action, its options named by the radios' labels.
    size = tools["size"]
    assert size.kind == "choose" and size.input is not None
    assert size.input.options == ["Small", "Medium", "Large"] and size.input.value == "Medium"
    assert not any(e.kind == "check" for e in tools.values())
    volume = tools["volume"]
    assert volume.kind == "set" and volume.input is not None
    spec = volume.input
    assert (spec.min, spec.max, spec.step, spec.value) == ("0", "10", "2", "4")
    # A slider without a role (a focusable handle of a "slider" class) is set too.
    assert tools["brightness"].kind == "set" and tools["brightness"].name_source == "label"
    departure = tools["departure"]
    assert departure.kind == "type" and departure.input is not None and "ISO date" in departure.input.doc
    # An editor is named by its label, never by what was typed into it.
    assert tools["notes"].kind == "type" and "typed" not in tools["notes"].tool
    # The emitted kinds reach the tools array under the same names.
    kinds = {t["function"]["name"] for t in result.tools}
    assert {"size", "volume", "departure", "notes"} <= kinds


async def test_page_text_reaches_the_model_viewport_first_and_bounded(browser: cdpagent.Browser) -> None:
    tab = await browser.open(INFER / "text.html")
    result = await observe_page(tab)
    text = result.text
    section = text[text.index("## Page text"): text.index("## Available actions")]
    # A task's instruction, a price and a duration in plain text reach the model…
    for words in ("Answer the question and press Submit.", "2h 35m", "$412", "# Daily quiz"):
        assert words in section, words
    # …the question too, as the name of the field it asks for (not repeated in the page text).
    assert "5 x 5 =" in text and "5 x 5 =" not in section
    # Masked, hidden and aria-hidden text never appears; the page text is page data.
    for secret in ("8472-1193", "HIDDEN-TEXT"):
        assert secret not in everything(result)
    assert "[masked]" in section
    body = section[section.index("<page_data>"): section.index("</page_data>")]
    assert "\\u003c" not in body or "<" not in body[len("<page_data>"):]
    # Bounded by its own budget, the rest counted, never half an emoji.
    pt = result.observation.page_text
    assert pt is not None and sum(len(b) for b in pt.blocks) <= ObserveOptions().max_text_chars
    assert result.observation.omitted.text_blocks_not_shown > 0
    assert re.search(r"\(\d+ more text blocks not shown", text)
    assert all(not 0xD800 <= ord(c) <= 0xDFFF for c in everything(result))
    assert len(text) + len(tools_json(result.tools)) <= 12_000
    # Viewport first: the quiz comes before the clauses below the fold.
    assert pt.blocks.index("# Daily quiz") < pt.blocks.index("# Terms")


async def test_page_text_budget_is_an_option(browser: cdpagent.Browser) -> None:
    tab = await browser.open(INFER / "text.html")
    small = await observe_page(tab, ObserveOptions(max_text_chars=200))
    assert small.observation.page_text is not None
    assert sum(len(b) + 3 for b in small.observation.page_text.blocks) <= 200
    off = await observe_page(tab, ObserveOptions(page_text=False))
    assert off.observation.page_text is None and "## Page text" not in off.text


async def test_declared_pages_opt_in_to_page_text(browser: cdpagent.Browser) -> None:
    tab = await browser.open(EXAMPLES / "todos" / "index.html")
    plain = await observe_page(tab)
    assert "## Page text" not in plain.text and plain.observation.page_text is None
    opted = await observe_page(tab, ObserveOptions(page_text=True))
    assert opted.observation.page_text is not None and "## Page text" in opted.text
    # Declared records are not repeated in the page text.
    assert not any("Review the launch checklist" in b for b in opted.observation.page_text.blocks)


# --- one masking rule for both collectors ---------------------------------------------------

MASKING_FIXTURES = {
    "hint referenced by aria-describedby": (
        '<label>Code <input data-agent-action="code" name="code" aria-invalid="true" '
        'aria-describedby="hint"></label><p id="hint" data-agent-sensitive>your recovery code is '
        "SECRET-8472</p>"
    ),
    "password value": (
        '<label>Password <input type="password" data-agent-action="pw" value="SECRET-PW"></label>'
    ),
    "one-time code": (
        '<label>Code <input autocomplete="one-time-code" data-agent-action="otp" value="SECRET-OTP"></label>'
    ),
    "sensitive part of a status": (
        '<div role="status">Saved <span data-agent-sensitive>SECRET-STATUS</span></div>'
        '<button data-agent-action="ok">OK</button>'
    ),
    "sensitive part of a label": (
        '<label>PIN <span data-agent-sensitive>SECRET-LABEL</span> <input data-agent-action="pin" '
        'data-agent-description="PIN [masked]"></label>'
    ),
}
_DECLARATION = re.compile(r'\sdata-agent-(?!sensitive)[a-z-]+(="[^"]*")?')


def _page(body: str, declared: bool) -> str:
    html = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Masking</title></head><body>'
        f'<section data-agent-region="account" aria-label="Account">{body}</section></body></html>'
    )
    return html if declared else _DECLARATION.sub("", html)


@pytest.mark.parametrize("fixture", sorted(MASKING_FIXTURES))
async def test_declared_and_undeclared_twins_mask_alike(
    browser: cdpagent.Browser, tmp_path: Path, fixture: str
) -> None:
    masked = []
    for declared in (True, False):
        page = tmp_path / f"{'declared' if declared else 'undeclared'}.html"
        page.write_text(_page(MASKING_FIXTURES[fixture], declared), encoding="utf-8")
        tab = await browser.open(page)
        result = await observe_page(tab)
        sources = {e.source for e in result.observation.actions}
        assert sources == {"declared" if declared else "inferred"}
        seen = everything(result)
        assert "SECRET" not in seen, (declared, seen)
        masked.append("[masked]" in result.text)
    assert masked == [True, True]


async def test_small_page_observation_is_small(browser: cdpagent.Browser, tmp_path: Path) -> None:
    page = tmp_path / "login.html"
    page.write_text(
        '<!DOCTYPE html><html><head><title>Login</title></head><body><div id="query">Enter the username '
        '"ada" and press login.</div><p><label>Username</label><input id="username"></p>'
        '<p><label>Password</label><input type="password" id="password"></p><button>Login</button>'
        "</body></html>",
        encoding="utf-8",
    )
    tab = await browser.open(page)
    result = await observe_page(tab)
    assert {t["function"]["name"] for t in result.tools} == {"username", "password", "login"}
    assert 'Enter the username "ada" and press login.' in result.text
    assert len(result.text) + len(tools_json(result.tools)) <= 2_000


async def test_ob13_aria_hidden_controls_a_person_sees_are_counted_not_hidden(
    browser: cdpagent.Browser,
) -> None:
    """jQuery UI's spinner (MiniWoB++ use-spinner): its up/down buttons are aria-hidden links
    a person sees and clicks. Not offered (assistive technology is told to ignore them), but
    counted: the observation no longer says all visible content is shown."""
    tab = await browser.open(task_url("use-spinner"))
    result = await observe_page(tab)
    assert result.observation.omitted.controls_not_offered == 2
    assert "2 controls in the viewport are not offered" in result.text
    assert "(All currently visible content is shown)" not in result.text


_TREE = """<!DOCTYPE html><html><head><title>Sights</title></head><body>
<div role="tree" aria-label="Sights">
  <div role="treeitem" tabindex="0" aria-expanded="false" aria-selected="false" id="museums">Museums
    <div role="group" hidden>
      <div role="treeitem" tabindex="-1" aria-selected="false">Art museum</div>
      <div role="treeitem" tabindex="-1" aria-selected="false">Science museum</div>
    </div>
  </div>
  <div role="treeitem" tabindex="-1" aria-selected="false">Botanical garden</div>
</div>
<script>
  // As tree widgets do: a click selects an item; only the Right arrow opens a branch.
  for (const item of document.querySelectorAll('[role=treeitem]')) {
    item.addEventListener('click', (ev) => {
      ev.stopPropagation();
      const items = document.querySelectorAll('[role=treeitem]');
      for (const other of items) other.setAttribute('aria-selected', 'false');
      item.setAttribute('aria-selected', 'true');
      item.focus();
    });
    item.addEventListener('keydown', (ev) => {
      if (ev.key !== 'ArrowRight' || item.getAttribute('aria-expanded') !== 'false') return;
      ev.stopPropagation();
      item.setAttribute('aria-expanded', 'true');
      item.querySelector('[role=group]').hidden = false;
    });
  }
</script></body></html>"""


async def test_tree_items_are_named_by_their_own_label_and_open_on_click(
    browser: cdpagent.Browser, tmp_path: Path
) -> None:
    """OB-12: a tree item's name is its label, not its branch's text; clicking a collapsed
    item opens its branch even where the tree's click only selects (issue 34)."""
    page = tmp_path / "tree.html"
    page.write_text(_TREE, encoding="utf-8")
    tab = await browser.open(page)
    tools = by_tool(await observe_page(tab))
    assert "museums" in tools and not any("art_museum" in t and tools[t].available for t in tools)
    await tab.act("museums")
    tools = by_tool(await observe_page(tab))
    assert tools["art_museum"].available and tools["science_museum"].available
    await tab.act("art_museum")
    selected = "[...document.querySelectorAll('[aria-selected=true]')].map(e => e.textContent.trim()).join()"
    chosen = await tab.session.send("Runtime.evaluate", {"expression": selected, "returnByValue": True})
    assert chosen["result"]["value"] == "Art museum"


def _shelf() -> str:
    """A change list as admin sites write it: a table of 30 rows with sort links in its
    header and a check box and link per row, and beside it, in the same content, a filter
    list of links and a pager."""
    columns = ("Title", "Author", "Genre", "Year", "Pages")
    heads = "".join(f'<th><a href="?o={c}">{c}</a></th>' for c in columns)
    rows = "".join(
        f'<tr><td><input type="checkbox" aria-label="Select book {i}"></td>'
        f'<th><a href="/book/{i}">Book {i}</a></th><td>Author {i}</td><td>Novel</td><td>{1900 + i}</td>'
        f"<td>{100 + i}</td></tr>"
        for i in range(30)
    )
    facets = "".join(f'<li><a href="?g={g}">{g}</a></li>' for g in ("All", "Novel", "Poetry", "History"))
    stock = "".join(f'<li><a href="?s={s}">{s}</a></li>' for s in ("All", "Yes", "No"))
    pager = "".join(f'<li><a href="?p={p}">{p}</a></li>' for p in ("1", "2", "3", ">"))
    return (
        "<!DOCTYPE html><html><head><title>Books</title></head><body><main><h1>Books</h1>"
        '<form role="search"><input type="search" aria-label="Search"><button>Search</button></form>'
        '<label>Action <select><option>---</option><option>Delete selected</option></select></label>'
        f"<button>Go</button><table><thead><tr><th></th>{heads}</tr></thead><tbody>{rows}</tbody></table>"
        f'<ul aria-label="Pages">{pager}</ul>'
        f'<nav aria-label="Filter"><h2>By genre</h2><ul>{facets}</ul>'
        f"<h2>By in stock</h2><ul>{stock}</ul></nav>"
        "</main></body></html>"
    )


async def test_link_lists_are_records_named_by_their_links_beside_a_big_table(
    browser: cdpagent.Browser, tmp_path: Path
) -> None:
    """OB-12: a list of links beside a big table is records named by the links' words, opened
    by one folded action that the default budgets show; a pager's numbers stay actions
    (issue 34: facets not starved by the table)."""
    page = tmp_path / "shelf.html"
    page.write_text(_shelf(), encoding="utf-8")
    tab = await browser.open(page)
    result = await observe_page(tab)
    tools = by_tool(result)
    opens = [e for e in result.observation.actions if e.folded and e.record_enum and "No" in e.record_enum]
    assert len(opens) == 1, result.text
    assert opens[0].record_enum == ["All", "Novel", "Poetry", "History", "All~2", "Yes", "No"]
    assert {"2", "3"} <= set(tools)  # the pager's links are page actions
    query = {"expression": "location.search", "returnByValue": True}
    assert (await tab.session.send("Runtime.evaluate", query))["result"]["value"] == ""
    await tab.act(opens[0].tool, record="No")
    assert (await tab.session.send("Runtime.evaluate", query))["result"]["value"] == "?s=No"


async def test_signs_are_read_as_their_words_and_prose_is_no_caption(browser: cdpagent.Browser) -> None:
    """A control drawn as one sign is named by its word ("‹" previous, "×" close); a sentence
    or clause just before a field is the page's text, not the field's name (BrowserGym's
    find-word: the paragraph named the answer box and left the page text)."""
    tab = await browser.open(INFER / "signs.html")
    result = await observe_page(tab)
    tools = by_tool(result)
    assert {t: tools[t].description for t in ("previous", "next", "last", "close")} == {
        "previous": "<", "next": ">", "last": "»", "close": "×"
    }
    assert tools["query"].description == "Query:" and "drink" in tools
    assert "- Tea, coffee, and anything else you drink daily" in result.text


async def test_a_change_lists_rows_are_named_by_their_title_links_and_labelled_by_their_words(
    browser: cdpagent.Browser, tmp_path: Path
) -> None:
    """OB-12, issue 34: a table row whose key cell (its first cell with text) is its link is
    cited by the link's words ("Book 7", not "/book/7"), so a row past the records shown in
    full is named in the citation index; its label is that cell, not the check box's state
    in the first cell. The row's title action takes that id."""
    page = tmp_path / "shelf.html"
    page.write_text(_shelf(), encoding="utf-8")
    tab = await browser.open(page)
    result = await observe_page(tab)
    obs = result.observation
    assert "Book 29" in obs.record_ids, obs.record_ids
    assert not any(i.startswith("/book/") for i in obs.record_ids), obs.record_ids
    labels = [r.label for r in obs.records]
    assert labels and all(label.startswith("Book ") for label in labels), labels
    title = next(e for e in obs.actions if e.folded and e.kind == "click" and "Book 0" in (e.sample or []))
    keep = (
        "document.addEventListener('click', (e) => { const a = e.target.closest('a');"
        " if (a) { e.preventDefault(); window.clicked = a.getAttribute('href'); } }, true)"
    )
    await tab.session.send("Runtime.evaluate", {"expression": keep})
    receipt = await tab.act(title.tool, record="Book 7")
    assert receipt.ok, receipt.to_json()
    query = {"expression": "window.clicked", "returnByValue": True}
    assert (await tab.session.send("Runtime.evaluate", query))["result"]["value"] == "/book/7"
