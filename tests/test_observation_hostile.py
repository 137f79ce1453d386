"""Hostile and real-world pages in the observation and in act (issue 9), against real Chromium.

One page under ``tests/pages/hostile/`` per finding, doing exactly that thing:
half an emoji (finding 1), sensitive values inside read text (6), forged record
ids (7), rows hidden only by their own style (11); typing shows in receipts (12).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from conftest import PAGES

import cdpagent
from cdpagent import ObserveResult
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import tools_json
from cdpagent.snapshot.observe import observe_page

HOSTILE = PAGES / "hostile"


def everything(result: ObserveResult) -> str:
    """Text, tools and the observation object, as one string to search."""
    return "\n".join(
        [result.text, tools_json(result.tools), msgspec.json.encode(result.observation).decode()]
    )


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


# --- finding 1: half an emoji ---------------------------------------------------------------


async def test_ob2_heading_cut_inside_an_emoji_observes_and_acts(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "emoji.html")
    result = await observe_page(tab)
    party = next(r for r in result.observation.regions if r.id == "party")
    # Cut by code point: the 80-unit limit falls inside the 🎉 pair, so the pair goes whole.
    assert party.label.startswith("Our big launch party is tonight")
    assert "🎉" not in party.label and "\ufffd" not in party.label
    assert all(not 0xD800 <= ord(c) <= 0xDFFF for c in everything(result))
    # A lone surrogate in page text arrives replaced, never as a decode error.
    assert result.observation.records[0].fields["name"] == "Ann \ufffd Lee"
    receipt = await tab.act("cheer")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.state["cheers"].after == "1"


async def test_squash_is_the_replace_and_trim_it_shortcuts(browser: cdpagent.Browser) -> None:
    """The page's squash skips the replace and the trim for text that has nothing to squash:
    on every string of up to four of these characters (spaces, other whitespace, letters, a
    pair and lone surrogates) it gives what they give."""
    tab = await browser.open(HOSTILE / "emoji.html")
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": """function () {
              const { squash } = globalThis.__cdpagentPrelude;
              const slow = (s) => String(s).replace(/\\s+/g, ' ').trim().toWellFormed();
              const chars = ['a', 'é', ' ', '\\t', '\\n', '\\u00a0', '\\u2003', '\\ufeff',
                '\\ud800', '\\udc00', '\\ud83d\\ude00'];
              let texts = [''];
              const all = [''];
              for (let n = 0; n < 4; n++) {
                texts = texts.flatMap((t) => chars.map((c) => t + c));
                all.push(...texts);
              }
              const wrong = all.filter((t) => squash(t) !== slow(t));
              return {
                tried: all.length, lone: all.filter((t) => !t.isWellFormed()).length,
                wrong: wrong.slice(0, 5).map((t) => [...t].map((c) => c.codePointAt(0))),
              };
            }""",
            "executionContextId": await tab.context_id(WORLD),
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply
    result = reply["result"]["value"]
    assert result["tried"] == 1 + 11 + 11**2 + 11**3 + 11**4 and result["lone"] > 1000, result
    assert result["wrong"] == [], result


async def test_may_host_matches_every_element_that_can_host_a_shadow_root(
    browser: cdpagent.Browser,
) -> None:
    """The open-shadow-root search asks P.MAY_HOST for the elements that may host: every
    element that can (attachShadow succeeds: the host names, custom elements) matches it, and
    neither the most frequent other names nor the rarer ones do."""
    tab = await browser.open(HOSTILE / "emoji.html")
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": """function () {
              const { MAY_HOST } = globalThis.__cdpagentPrelude;
              const names = ['div', 'span', 'p', 'section', 'article', 'aside', 'blockquote', 'body',
                'footer', 'header', 'main', 'nav', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'x-card', 'my-element',
                'a', 'li', 'td', 'tr', 'input', 'button', 'img', 'label', 'option', 'ul', 'ol', 'table',
                'code', 'pre', 'form', 'select', 'textarea', 'em', 'strong', 'small', 'iframe', 'video',
                'template', 'slot', 'details', 'summary', 'dialog', 'search', 'menu', 'time'];
              const canHost = (el) => {
                try { el.attachShadow({ mode: 'open' }); return true; } catch (_) { return false; }
              };
              const wrong = [];
              for (const name of names) {
                const el = document.createElement(name);
                if (el.matches(MAY_HOST) !== canHost(document.createElement(name))) wrong.push(name);
              }
              const svg = document.createElementNS('http://www.w3.org/2000/svg', 'path');
              if (svg.matches(MAY_HOST)) wrong.push('svg path');
              return wrong;
            }""",
            "executionContextId": await tab.context_id(WORLD),
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply
    assert reply["result"]["value"] == []


async def test_a_links_own_name_is_its_text_unless_aria_names_it_or_it_is_edited(
    browser: cdpagent.Browser,
) -> None:
    """P.ownName reads a link that holds text alone by its text without the general steps:
    the same names as they give (squashed and clipped text, ARIA first, nothing in an
    editor, a nested element's text through the general path)."""
    tab = await browser.open(HOSTILE / "emoji.html")
    reply = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": """function () {
              const { ownName } = globalThis.__cdpagentPrelude;
              const box = document.createElement('div');
              box.innerHTML = '<a href="#1">  Read\\n  more </a><a href="#2"> </a>' +
                '<a href="#3" aria-label="Close">x</a><a href="#4" aria-labelledby="cap">y</a>' +
                '<span id="cap">Caption</span><a href="#5"><b>Bold</b> link</a>' +
                '<div contenteditable="true"><a href="#6">edited</a></div>' +
                '<a href="#7">' + 'w'.repeat(30) + '</a>';
              document.body.append(box);
              try {
                return Array.from(box.querySelectorAll('a'), (a) => ownName(a, 12));
              } finally {
                box.remove();
              }
            }""",
            "executionContextId": await tab.context_id(WORLD),
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in reply, reply
    names = reply["result"]["value"]
    assert names[:6] == ["Read more", "", "Close", "Caption", "Bold link", ""], names
    assert names[6].startswith("w") and names[6] != "w" * 30, names


# --- finding 6: masking -------------------------------------------------------------------------


async def test_ob2_sensitive_descendants_and_autocomplete_are_masked(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "masking.html")
    result = await observe_page(tab)
    seen = everything(result)
    assert "SECRET" not in seen
    record = result.observation.records[0]
    assert record.fields["holder"] == "Ann Lee"
    assert record.fields["notes"] == "Notes: [masked]"
    assert record.fields["pin"] == "PIN [masked]"
    assert result.observation.state[0].value == "Ann [masked]"
    assert [f.message for f in result.observation.feedback] == ["Saved [masked]"]
    by_name = {e.name: e for e in result.observation.actions}
    for name in ("card_number", "card_code", "otp", "old_password", "new_password"):
        spec = by_name[name].input
        assert spec is not None and spec.sensitive and spec.value == "[masked]", name
    nickname = by_name["nickname"].input
    assert nickname is not None and not nickname.sensitive and nickname.value == "annie"
    card = by_name["card"].input
    assert card is not None and card.sensitive and card.options == []


async def test_ob2_sensitive_select_lists_no_options_when_refusing(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "masking.html")
    receipt = await tab.act("card", option="no such card")
    assert not receipt.ok
    assert receipt.code == "UNKNOWN_OPTION"
    assert "SECRET" not in receipt.to_json()


# --- finding 7: forged record ids --------------------------------------------------------------


async def test_ob10_record_ids_that_forge_lines_are_refused_everywhere(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "forged_ids.html")
    result = await observe_page(tab)
    assert result.observation.record_ids == ["ok1", "ok 2"]
    assert "transfer_money" not in everything(result)
    for s in strings(result.tools):
        assert "\n" not in s and "page_data" not in s
    (tool,) = result.tools
    assert tool["function"]["parameters"]["properties"]["record"]["enum"] == ["ok1", "ok 2"]
    assert any("3 records were left out" in w for w in result.observation.warnings)
    assert result.text.count("<page_data>") == result.text.count("</page_data>")


# --- finding 11: edge visibility ----------------------------------------------------------------


async def test_ob5_rows_hidden_by_their_own_style_agree_with_act(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "visibility.html")
    result = await observe_page(tab)
    obs = result.observation
    assert obs.record_ids == ["r1"]
    assert [r.id for r in obs.records] == ["r1"]
    assert obs.omitted.records_hidden == 3 and obs.omitted.records_inactive == 0
    assert "- 3 hidden or inert records are not listed" in result.text
    assert "in hidden or inert regions" not in result.text
    for secret in ("SKIPPED-ROW", "FLAT-ROW", "CLEAR-ROW"):
        assert secret not in everything(result)
    (tool,) = result.tools
    assert tool["function"]["parameters"]["properties"]["record"]["enum"] == ["r1"]
    for rid in ("r2", "r3", "r4"):
        refused = await tab.act("open", record=rid)
        # Not in the observation, so not a target: act says so instead of clicking it.
        assert not refused.ok and refused.code == "UNKNOWN_RECORD", refused.to_json()
    opened = await tab.act("open", record="r1")
    assert opened.ok, opened.to_json()


# --- finding 12: typing shows in the receipt ----------------------------------------------------


async def test_ob8_typing_receipt_shows_the_new_value(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "act_form.html")
    receipt = await tab.act("name", text="new name")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.observed
    assert changed.actions is not None
    assert changed.actions.values["name"].before == "old name"
    assert changed.actions.values["name"].after == "new name"


async def test_ob8_typing_into_a_sensitive_field_shows_it_masked(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "masking.html")
    receipt = await tab.act("secret_note", text="SECRET-TYPED")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.observed and changed.actions is not None
    value = changed.actions.values["secret_note"]
    assert (value.before, value.after) == ("", "[masked]")
    assert "SECRET" not in receipt.to_json()


# --- finding 10: frames and shadow roots ---------------------------------------------------------


async def test_ob11_srcdoc_and_opaque_origin_frames_are_observed(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "frames.html")
    result = await observe_page(tab)
    assert result.observation.unseen.frames == 0
    (entry,) = [e for e in result.observation.actions if e.name == "in_frame"]
    assert entry.region_path == ["main", "same_origin"]
    paths = [r.path for r in result.observation.regions]
    assert ["main", "other_origin"] in paths  # a data: frame: an opaque origin in the same process
    assert "(All currently visible content is shown)" in result.text


async def test_ob11_page_actions_in_open_shadow_roots_are_observed_and_acted_on(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(HOSTILE / "frames.html")
    result = await observe_page(tab)
    assert [t["function"]["name"] for t in result.tools] == ["plain", "in_shadow", "in_frame"]
    (entry,) = [e for e in result.observation.actions if e.name == "in_shadow"]
    assert entry.region == "Main" and entry.region_path == ["main"] and entry.available
    receipt = await tab.act("in_shadow")
    assert receipt.ok, receipt.to_json()
    changed = receipt.result.changed
    assert changed is not None and changed.state["clicks"].after == "1"


DOCS = Path(__file__).resolve().parent / "realworld" / "generated" / "docs.html"


async def test_ob12_an_inferred_page_of_30000_links_answers_within_the_default_deadline(
    browser: cdpagent.Browser,
) -> None:
    """Inference's work is bounded by the budgets: past them, controls are counted, not named,
    and the observation says so. Before, this page answered but said all visible content was
    shown (and a page of 83,000 links timed out: a comparator sort over every link)."""
    tab = await browser.open(DOCS.as_uri() + "?sections=10000", timeout=60)
    result = await observe_page(tab)  # the default deadline
    omitted = result.observation.omitted
    assert omitted.action_entries > 30_000 > omitted.action_entries_shown
    assert "All currently visible content is shown" not in result.text
