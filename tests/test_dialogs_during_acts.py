"""Dialogs the page raises during an act stay open for the agent to answer (issue 34, DR-7).

A page on real Chromium whose Delete asks ``confirm()`` and whose Rename asks ``prompt()``:
the act's receipt returns once the dialog is open and says what the page asks, the next
observation shows the dialog with its ``accept_dialog`` / ``dismiss_dialog`` actions, and
the answer decides what the page does, scored by the page's own state. The unattended
policy (``--yes``) still answers on its own, as before.
"""

from __future__ import annotations

from pathlib import Path

import trio
from conftest import evaluate

import cdpagent
from cdpagent.cdp.dialogs import LEAVE_NOTICE
from cdpagent.snapshot.receipts import ValueChange

PAGE = Path(__file__).parent / "pages" / "infer" / "asks.html"


async def _contacts(tab: cdpagent.Tab) -> list[str]:
    names: list[str] = await evaluate(tab, "window.contacts")
    return names


async def test_dr7_a_confirm_raised_by_an_act_is_answered_by_the_agent(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    with trio.fail_after(10):  # the receipt returns once the dialog is open, not at the act's deadline
        receipt = await tab.act("delete", record="c1")
    assert receipt.ok, receipt.to_json()
    asks = receipt.result.asks
    assert asks is not None and (asks.type, asks.message) == ("confirm", "Delete Alan Turing?")
    assert asks.answers == ["accept_dialog", "dismiss_dialog"]
    assert receipt.result.changed is not None
    assert receipt.result.changed.modal == ValueChange(None, "JavaScript confirm")
    assert tab.dialog is not None  # still open: nothing answered it

    view = await tab.view()
    assert view.observation.modal == "JavaScript confirm"
    assert [t["function"]["name"] for t in view.tools] == ["accept_dialog", "dismiss_dialog"]
    assert "Delete Alan Turing?" in view.text

    accepted = await tab.act("accept_dialog")
    assert accepted.ok, accepted.to_json()
    await tab.wait_until(lambda: tab.dialog is None, 5)
    assert await _contacts(tab) == ["Ada Lovelace", "Grace Hopper"]


async def test_dr7_a_dismissed_confirm_leaves_the_row(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    with trio.fail_after(10):
        receipt = await tab.act("delete", record="c0")
    assert receipt.result.asks is not None
    assert (await tab.act("dismiss_dialog")).ok
    assert await _contacts(tab) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


async def test_dr7_a_prompt_raised_by_an_act_takes_the_agents_text(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    with trio.fail_after(10):
        receipt = await tab.act("rename", record="c2")
    asks = receipt.result.asks
    assert asks is not None and asks.type == "prompt" and asks.default == "Grace Hopper"
    observation = await tab.observe()
    accept = next(a for a in observation.actions if a.name == "accept_dialog")
    assert accept.kind == "type"
    answered = await tab.act("accept_dialog", text="Grace Brewster Hopper")
    assert answered.ok, answered.to_json()
    assert await _contacts(tab) == ["Ada Lovelace", "Alan Turing", "Grace Brewster Hopper"]


async def test_dr7_unattended_acts_still_answer_dialogs_on_their_own(browser: cdpagent.Browser) -> None:
    # --yes maps to unattended=True on every surface: today's behaviour, answered at once.
    tab = await browser.open(PAGE)
    with trio.fail_after(15):
        receipt = await tab.act("delete", record="c0", unattended=True)
    assert receipt.ok, receipt.to_json()
    assert receipt.result.asks is None and tab.dialog is None
    assert receipt.result.warnings == [
        "the page opened a JavaScript dialog, dismissed (unattended): Delete Ada Lovelace?"
    ]
    assert await _contacts(tab) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


async def test_dr7_beforeunload_raised_by_an_act_asks_unattended_leaves(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    with trio.fail_after(10):
        receipt = await tab.act("leave")
    asks = receipt.result.asks
    assert asks is not None and asks.type == "beforeunload", receipt.to_json()
    stay = await tab.act("dismiss_dialog")
    assert stay.ok and tab.document is not None and tab.document.url.endswith("asks.html")

    with trio.fail_after(15):
        left = await tab.act("leave", unattended=True)
    assert left.ok and left.result.asks is None, left.to_json()
    assert LEAVE_NOTICE in (left.result.warnings or [])
    await tab.wait_until(lambda: tab.document is not None and tab.document.url == "about:blank", 10)


async def test_dr7_a_dialog_a_timer_opens_before_the_input_refuses_the_act(browser: cdpagent.Browser) -> None:
    # The page keeps changing until its confirm opens, so the act's first snapshot (which
    # settles) is under way when it does; under load it opens before the act: either way the
    # act was not done and says so, never ok.
    tab = await browser.open(Path(__file__).parent / "pages" / "hostile" / "dialogs.html")
    await evaluate(tab, "window.pings = 0; document.getElementById('later').onclick = () => pings++; 1")
    await evaluate(tab, "openWhileBusy('confirm', 'Keep going?', 150)")
    with trio.fail_after(10):
        receipt = await tab.act("ping")
    assert receipt.code == "DIALOG_OPEN", receipt.to_json()
    if receipt.result.asks is not None:  # opened during the act (not before it): it says what
        assert receipt.result.asks.message == "Keep going?"
    assert receipt.result.error is not None
    assert receipt.result.error.available == ["accept_dialog", "dismiss_dialog"]
    assert (await tab.act("dismiss_dialog")).ok
    assert await evaluate(tab, "window.pings") == 0
