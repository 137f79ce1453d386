"""``type`` types as a person does where the page listens for keys (issue 34): a key press per
character, so a suggestion list that opens on ``keyup`` opens; text beyond ASCII is composed as an
input method does; a field nobody listens to for keys gets one insertion, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

import cdpagent
from cdpagent.cdp.input import typing_events

PAGE = """<!doctype html><meta charset="utf-8"><title>Typing</title>
<label>City <input id="city" autocomplete="off"></label>
<ul id="suggestions" role="listbox" aria-label="Suggestions"></ul>
<label>Note <input id="note"></label>
<script>
  const seen = {city: [], note: []};
  const cities = ["Paris", "Parma", "Porto", "周口"];
  city.addEventListener("keyup", () => {
    suggestions.innerHTML = "";
    for (const c of cities.filter((c) => city.value && c.startsWith(city.value))) {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.textContent = c;
      suggestions.append(li);
    }
  });
  for (const type of ["keydown", "input", "compositionend"]) {
    city.addEventListener(type, () => seen.city.push(type), {passive: true});
  }
  // Counting key presses here would make the page a key listener: one input event says enough.
  note.addEventListener("input", () => seen.note.push("input"));
  window.seen = seen;
</script>"""


def test_typing_events_are_a_key_press_per_character_and_composition_beyond_ascii() -> None:
    events = typing_events("Ab\n周")
    kinds = [(m, p.get("type"), p.get("key") or p.get("text")) for m, p in events]
    assert kinds == [
        ("Input.dispatchKeyEvent", "keyDown", "A"), ("Input.dispatchKeyEvent", "keyUp", "A"),
        ("Input.dispatchKeyEvent", "keyDown", "b"), ("Input.dispatchKeyEvent", "keyUp", "b"),
        ("Input.dispatchKeyEvent", "keyDown", "Enter"), ("Input.dispatchKeyEvent", "keyUp", "Enter"),
        ("Input.dispatchKeyEvent", "rawKeyDown", "Process"), ("Input.imeSetComposition", None, "周"),
        ("Input.insertText", None, "周"), ("Input.dispatchKeyEvent", "keyUp", "Process"),
    ]  # fmt: skip


async def _page_value(tab: cdpagent.Tab, expression: str) -> object:
    reply = await tab.session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    return reply["result"]["value"]


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "typing.html"
    path.write_text(PAGE, encoding="utf-8")
    return path


async def test_a_field_with_key_listeners_gets_key_presses_and_its_suggestions_open(
    chrome_endpoint: str, page: Path
) -> None:
    async with cdpagent.connect(chrome_endpoint) as browser:
        tab = await browser.open(page)
        seen = await tab.view()
        names = [t["function"]["name"] for t in seen.tools]
        city = next(n for n in names if "city" in n)
        receipt = await tab.act(city, text="Par")
        assert receipt.ok, receipt
        assert await _page_value(tab, "city.value") == "Par"
        assert await _page_value(tab, "seen.city.filter((t) => t === 'keydown').length") == 3
        options = await _page_value(tab, "[...suggestions.children].map((li) => li.textContent)")
        assert options == ["Paris", "Parma"]
        assert (await tab.act(city, text="周")).ok
        assert await _page_value(tab, "city.value") == "周"
        assert "compositionend" in await _page_value(tab, "seen.city")  # type: ignore[operator]
        assert await _page_value(tab, "[...suggestions.children].map((li) => li.textContent)") == ["周口"]
        await tab.close()


async def test_a_field_without_key_listeners_gets_one_insertion(chrome_endpoint: str, page: Path) -> None:
    async with cdpagent.connect(chrome_endpoint) as browser:
        tab = await browser.open(page)
        seen = await tab.view()
        note = next(t["function"]["name"] for t in seen.tools if "note" in t["function"]["name"])
        assert (await tab.act(note, text="hello")).ok
        assert await _page_value(tab, "note.value") == "hello"
        assert await _page_value(tab, "seen.note") == ["input"]
        await tab.close()
