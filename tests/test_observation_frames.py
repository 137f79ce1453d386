"""Shadow roots and frames in the observation and in act (SPEC OB-11, issue 9 finding 10).

Against real Chromium: declarations inside open shadow roots (nested too) and
inside frames are observed and acted on like any other; what cannot be seen is
counted and said.
"""

from __future__ import annotations

import ast
import functools
import http.server
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio
from conftest import PAGES, evaluate

import cdpagent
from cdpagent.cdp.dialogs import LEAVE_NOTICE
from cdpagent.snapshot import ActionLocator, Snapshot, options
from cdpagent.snapshot.frames import FRAME_TIMEOUT, TIMED_OUT, FrameOwner, FramePart, frame_of, merge
from cdpagent.snapshot.model import Feedback, Identity, PageAction, Record, RecordIndex, Region
from cdpagent.snapshot.observe import observe_page
from cdpagent.snapshot.options import CollectorBounds
from cdpagent.snapshot.receipts import ValueChange

HOSTILE = PAGES / "hostile"


# --- open shadow roots ----------------------------------------------------------------------


async def test_ob11_open_shadow_roots_are_observed_like_the_light_dom(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "shadow.html")
    obs = (await observe_page(tab)).observation
    regions = {r.id: r for r in obs.regions}
    assert regions["settings"].label == "Settings"  # aria-labelledby resolved inside the shadow tree
    assert regions["advanced"].path == ["settings", "advanced"]
    assert regions["people"].records_total == 3 and regions["people"].actions_total == 6
    # Records of a component inside a light region, with their fields.
    assert [(r.id, r.fields) for r in obs.records] == [
        (i, {"name": n, "status": "new"}) for i, n in (("p1", "Ann"), ("p2", "Bob"), ("p3", "Cy"))
    ]
    assert all(r.region == "people" for r in obs.records)
    # Composed order: the components' actions sit between the light buttons around them.
    tools = ["before", "greet", "archive", "nickname", "save", "beta", "after"]
    assert [e.tool for e in obs.actions] == tools
    folded = {e.tool: e for e in obs.actions}
    assert folded["archive"].folded and folded["archive"].rows == 3  # one shadow tree further down
    assert folded["beta"].region_path == ["settings", "advanced"]
    assert {s.name: s.value for s in obs.state} == {"saved": "0"}
    assert obs.unseen.shadow_searched


async def test_ob11_closed_shadow_roots_are_counted_and_said(
    browser: cdpagent.Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab = await browser.open(HOSTILE / "shadow.html")
    result = await observe_page(tab)
    # secret-box: the one custom element without an open root; its closed root is counted.
    assert result.observation.unseen.components == 1
    assert result.observation.unseen.closed_shadow_roots == 1
    assert "- 1 closed shadow roots (page components that hide their content" in result.text
    assert "(All currently visible content is shown)" not in result.text
    assert "unseen" not in msgspec.json.encode(result.tools).decode()
    # The limit: documents over closed_scan elements are not checked (README).
    monkeypatch.setattr(options, "COLLECTOR_BOUNDS", CollectorBounds(closed_scan=5))
    unseen = (await observe_page(tab)).observation.unseen
    assert (unseen.components, unseen.closed_shadow_roots) == (0, 0)


async def test_ob11_act_inside_open_shadow_roots_shows_in_the_receipt(browser: cdpagent.Browser) -> None:
    tab = await browser.open(HOSTILE / "shadow.html")
    greet = await tab.act("greet", record="p2")
    assert greet.ok, greet.to_json()
    assert greet.result.changed is not None and greet.result.changed.records is not None
    assert greet.result.changed.records.changed["p2"]["status"].after == "greeted"
    archive = await tab.act("archive@p3")
    assert archive.ok, archive.to_json()
    assert archive.result.changed is not None and archive.result.changed.records is not None
    assert archive.result.changed.records.changed["p3"]["status"].after == "archived"
    typed = await tab.act("nickname", text="Zed")
    assert typed.ok, typed.to_json()
    saved = await tab.act("save")
    assert saved.ok, saved.to_json()
    changed = saved.result.changed
    assert changed is not None and changed.state["saved"].after == "1"
    assert changed.feedback is not None and [f.message for f in changed.feedback.gained] == ["Saved as Zed"]
    beta = await tab.act("beta", checked=True)
    assert beta.ok, beta.to_json()


async def test_ob11_shadow_row_hidden_or_behind_a_dialog_is_refused_at_act_time(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(HOSTILE / "shadow.html")
    await tab.observe()
    await tab.session.send(
        "Runtime.evaluate",
        {"expression": "document.getElementById('list').shadowRoot.children[0].style.display = 'none'"},
    )
    hidden = await tab.act("greet", record="p1")
    assert not hidden.ok and hidden.result.error is not None
    assert hidden.result.error.code == "UNKNOWN_RECORD"  # the hidden row is no longer listed
    obs = await tab.observe()
    assert [r.id for r in obs.records] == ["p2", "p3"]


async def test_ob11_too_large_to_search_for_shadow_roots_is_said(
    browser: cdpagent.Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bound is fixed (CollectorBounds); a page of 200,000 elements would be slow to build.
    monkeypatch.setattr(options, "COLLECTOR_BOUNDS", CollectorBounds(shadow_scan=5))
    tab = await browser.open(HOSTILE / "shadow.html")
    result = await observe_page(tab)
    assert not result.observation.unseen.shadow_searched
    assert "too large to search for shadow roots" in result.text
    assert "(All currently visible content is shown)" not in result.text
    assert "greet" not in msgspec.json.encode(result.tools).decode()


# --- frames ------------------------------------------------------------------------------------

FRAMES = PAGES / "frames"


async def test_ob11_frames_are_observed_under_their_region_path(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FRAMES / "top.html")
    result = await observe_page(tab)
    obs = result.observation
    regions = {tuple(r.path): r for r in obs.regions}
    # name= gives the step; the frame's own regions sit under it.
    assert regions[("shop", "cart")].role == "document" and regions[("shop", "cart")].label == "Your cart"
    assert regions[("shop", "cart", "items")].records_total == 2
    # title= made legal; a frame declared as a region is that region (nested frames).
    assert regions[("help_faq",)].label == "Help & FAQ"
    assert regions[("help_faq", "deeper")].role == "document"
    assert len([p for p in regions if p[-1] == "deeper"]) == 1
    paths = {e.tool: e.region_path for e in obs.actions}
    assert paths == {
        "refresh": ["shop"],
        "more": ["shop", "cart", "items"],
        "coupon": ["shop", "cart"],
        "ask": ["help_faq"],
        "deep": ["help_faq", "deeper"],
    }
    # The cart is below the fold: its rows are in its frame's viewport, not the page's.
    assert [(r.id, r.fields, r.region, r.in_viewport) for r in obs.records] == [
        ("apple", {"name": "Apple", "qty": "1"}, "items", False),
        ("pear", {"name": "Pear", "qty": "1"}, "items", False),
    ]
    assert obs.record_ids == ["apple", "pear"]
    assert {s.name: s.value for s in obs.state} == {"asked": "0", "deep_clicks": "0"}
    assert "Shop > Your cart > Items" in result.text
    # A hidden frame's content is hidden, as a hidden region's would be; nothing is unseen.
    assert "invisible" not in msgspec.json.encode(result.tools).decode()
    assert obs.unseen.frames == 0 and "(All currently visible content is shown)" in result.text


async def test_ob11_act_inside_frames_with_trusted_input(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FRAMES / "top.html")
    # The cart is 1400 px down: the page scrolls, then the click lands inside the frame's
    # content box (border and padding included in the offset).
    await act_in_cart(tab, "pear", "SAVE10")
    deep = await tab.act("deep")  # a frame inside a frame
    assert deep.ok, deep.to_json()
    assert deep.result.changed is not None and deep.result.changed.state["deep_clicks"].after == "1"
    ask = await tab.act("ask")
    assert ask.ok, ask.to_json()
    assert ask.result.changed is not None and ask.result.changed.state["asked"].after == "1"
    obs = await tab.observe()
    (pear,) = [r for r in obs.records if r.id == "pear"]
    assert pear.fields == {"name": "Pear", "qty": "2"} and pear.region == "items"


async def test_ob11_act_recheck_inside_and_around_a_frame(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FRAMES / "top.html")
    await tab.observe()
    # Covered inside the frame: the frame's own hit test refuses.
    await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": "(() => { const d = document.querySelector('iframe[title^=Help]').contentDocument;"
            " const o = d.createElement('div'); o.style.cssText = 'position:fixed;inset:0;background:#fff';"
            " d.body.append(o); })()"
        },
    )
    inside = await tab.act("ask")
    assert inside.code == "ACTION_UNAVAILABLE", inside.to_json()
    assert inside.result.error is not None and inside.result.error.reason == "covered by another element"
    # Covered around the frame: the owner's document draws something else at the point.
    await tab.session.send(
        "Runtime.evaluate",
        {
            "expression": "(() => { const o = document.createElement('div');"
            " o.style.cssText = 'position:fixed;inset:0;background:#fff'; document.body.append(o); })()"
        },
    )
    around = await tab.act("deep")
    assert around.code == "ACTION_UNAVAILABLE", around.to_json()
    assert around.result.error is not None
    assert around.result.error.reason == "its frame is covered by another element"


async def test_ob11_sandboxed_frame_without_scripts_is_still_observed(browser: cdpagent.Browser) -> None:
    # The page's own scripts cannot run in it; the collector's isolated world can.
    tab = await browser.open(FRAMES / "sandboxed.html")
    result = await observe_page(tab)
    assert result.observation.unseen.frames == 0
    (boxed,) = [e for e in result.observation.actions if e.tool == "boxed"]
    assert boxed.region_path == ["boxed"] and boxed.available


# --- frames of another site (out of process) ------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def frames_server() -> Iterator[int]:
    """A loopback HTTP server for tests/pages/frames; its port."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(FRAMES))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def cross_url(port: int, page: str = "cart.html") -> str:
    """cross.html on 127.0.0.1 with a frame of ``page`` on localhost: another site."""
    return f"http://127.0.0.1:{port}/cross.html?other=http://localhost:{port}&page={page}"


async def iframe_targets(browser: cdpagent.Browser) -> list[str]:
    """URLs of the browser's out-of-process frame targets."""
    reply = await browser.connection.browser_session.send("Target.getTargets")
    return [t["url"] for t in reply["targetInfos"] if t["type"] == "iframe"]


async def test_ob11_frame_of_another_site_is_observed_through_its_session(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server))
    result = await observe_page(tab)
    assert f"http://localhost:{frames_server}/cart.html" in await iframe_targets(browser)
    obs = result.observation
    paths = {e.tool: e.region_path for e in obs.actions}
    assert paths == {"refresh": ["shop"], "more": ["shop", "partner", "items"], "coupon": ["shop", "partner"]}
    assert obs.record_ids == ["apple", "pear"]
    assert obs.unseen.frames == 0
    assert "Shop > Partner cart > Items" in result.text


async def act_in_cart(tab: cdpagent.Tab, record: str, coupon_text: str) -> None:
    """Act in the cart frame (tests/pages/frames/cart.html): one more of ``record`` (its
    quantity becomes 2) and the coupon typed; each receipt shows the change."""
    more = await tab.act("more", record=record)
    assert more.ok, more.to_json()
    assert more.result.changed is not None and more.result.changed.records is not None
    assert more.result.changed.records.changed[record]["qty"].after == "2"
    coupon = await tab.act("coupon", text=coupon_text)
    assert coupon.ok, coupon.to_json()
    assert coupon.result.changed is not None and coupon.result.changed.actions is not None
    assert coupon.result.changed.actions.values["coupon"].after == coupon_text


async def test_ob11_act_in_a_frame_of_another_site(browser: cdpagent.Browser, frames_server: int) -> None:
    tab = await browser.open(cross_url(frames_server))
    await act_in_cart(tab, "apple", "HELLO")
    assert f"http://localhost:{frames_server}/cart.html" in await iframe_targets(browser)


async def test_ob11_act_in_a_frame_of_another_site_of_a_hidden_tab(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    """A tab another tab hides: the browser routes input to a frame of another process only
    in a shown tab (else the click lands on the parent's <iframe>), so acting brings it to
    the front."""
    tab = await browser.open(cross_url(frames_server))
    other = await browser.open("about:blank")
    shown = {"expression": "document.visibilityState", "returnByValue": True}
    assert (await tab.session.send("Runtime.evaluate", shown))["result"]["value"] == "hidden"
    await act_in_cart(tab, "apple", "HELLO")
    assert (await tab.session.send("Runtime.evaluate", shown))["result"]["value"] == "visible"
    await other.close()
    await tab.close()


async def test_br3_click_at_and_type_at_over_a_frame_of_another_site_loaded_in_a_hidden_tab(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    """Input at a point of the viewport over a frame of another process that loaded while its
    tab was hidden: the browser had never drawn it, and every such click went to the
    parent's <iframe> (20 of 20) until click_at brought the tab to the front and moved the
    mouse until the frame saw it."""
    tab = await browser.open("about:blank")
    other = await browser.open("about:blank")
    await tab.navigate(cross_url(frames_server))
    await tab.wait_until(lambda: bool(tab.frame_targets), 10)
    frame = next(iter(tab.frame_targets.values()))
    await evaluate(tab, "document.querySelector('iframe').scrollIntoView({block: 'start'})")
    box = await evaluate(tab, "JSON.stringify(document.querySelector('iframe').getBoundingClientRect())")
    top = msgspec.json.decode(box)

    async def centre(selector: str) -> tuple[float, float]:
        ask = f"JSON.stringify(document.querySelector({selector!r}).getBoundingClientRect())"
        reply = await frame.session.send("Runtime.evaluate", {"expression": ask, "returnByValue": True})
        r = msgspec.json.decode(reply["result"]["value"])
        return top["x"] + r["x"] + r["width"] / 2, top["y"] + r["y"] + r["height"] / 2

    more = await tab.click_at(*await centre("li button"))
    assert more.ok and more.result.changed is not None, more.to_json()
    assert more.result.changed.records is not None, more.to_json()
    assert more.result.changed.records.changed["apple"]["qty"].after == "2", more.to_json()
    coupon = await tab.type_at(*await centre("input"), "HELLO")
    assert coupon.ok and coupon.result.changed is not None, coupon.to_json()
    assert coupon.result.changed.actions is not None, coupon.to_json()
    assert coupon.result.changed.actions.values["coupon"].after == "HELLO", coupon.to_json()
    await other.close()
    await tab.close()


async def test_ob11_drag_and_wheel_into_a_frame_of_another_site_of_a_hidden_tab(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    """A slider's drag and a wheel scroll reach a frame of another process in a hidden tab as a
    click does (tests/pages/frames/gauges.html: a slider that follows the mouse only, a box
    that scrolls). Each act starts with the tab hidden behind another; a few rounds, as the
    input was lost only when the frame had not drawn yet (a race)."""
    tab = await browser.open(cross_url(frames_server, "gauges.html"))
    other = await browser.open("about:blank")
    shown = {"expression": "document.visibilityState", "returnByValue": True}

    async def hide() -> None:
        await other.session.send("Page.bringToFront")
        assert (await tab.session.send("Runtime.evaluate", shown))["result"]["value"] == "hidden"

    scrolled = [0]
    for value in (20, 40, 60, 80, 100):
        await hide()
        zoom = await tab.act("zoom", value=value)
        assert zoom.ok and zoom.result.state == f"at {value} (0…100)", zoom.to_json()
        assert not zoom.result.warnings, zoom.to_json()
        await hide()
        terms = await tab.act("terms", to="down")
        assert terms.ok and not terms.result.warnings, terms.to_json()
        scrolled.append(int((terms.result.state or "0").split()[0]))
        assert scrolled[-1] > scrolled[-2], terms.to_json()
    await other.close()
    await tab.close()


def test_ob11_performers_send_the_mouse_only_through_their_step() -> None:
    """The readiness of a frame of another process for the pointer (``Step.route``) holds for
    every performer only while none sends mouse input past it."""
    act = Path(cdpagent.__file__).parent / "act"
    bypass = []
    for module in act.glob("*.py"):
        if module.name in ("step.py", "coordinates.py"):  # coordinates: a point of the viewport, no element
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("cdp.input"):
                bypass += [f"{module.name}: {a.name}" for a in node.names if a.name.startswith("mouse_")]
    assert bypass == []


async def test_ob11_frame_that_does_not_answer_is_counted_not_waited_for(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server, "busy.html"))
    with trio.fail_after(FRAME_TIMEOUT + 10):
        result = await observe_page(tab)
    assert result.observation.unseen.frame_reasons == {TIMED_OUT: 1}
    assert f"- 1 embedded frames are not observed (1 because {TIMED_OUT})" in result.text
    assert [e.tool for e in result.observation.actions] == ["refresh"]
    await tab.close()


async def test_ob5_frame_behind_an_open_dialog_is_unavailable_and_act_agrees(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(FRAMES / "modal.html")
    obs = await tab.observe()
    (behind,) = [e for e in obs.actions if e.name == "behind"]
    assert not behind.available and behind.reason == 'behind the open dialog "Confirm"'
    (frame,) = [r for r in obs.regions if r.id == "behind"]
    assert (frame.state, frame.covered_by) == ("covered", "Confirm")
    refused = await tab.act("behind")
    assert refused.code == "ACTION_UNAVAILABLE", refused.to_json()
    closed = await tab.act("close_dialog")
    assert closed.ok, closed.to_json()
    clicked = await tab.act("behind")
    assert clicked.ok, clicked.to_json()


def test_ob11_merge_moves_a_frame_under_its_step_and_drops_taken_ids() -> None:
    """frames.merge without a browser: paths, regions, order, duplicate ids, refusals."""
    top = Snapshot(
        identity=Identity(title="t"),
        regions=[Region(id="shop", label="Shop", role="region", path=["shop"])],
        actions=[PageAction(name="refresh", kind="click", effect="write", description="", order=0)],
        record_index=RecordIndex(ids=["a"]),
    )
    inner = Snapshot(
        identity=Identity(title="f"),
        regions=[Region(id="items", label="Items", role="list", path=["items"])],
        actions=[PageAction(name="ask", kind="click", effect="write", description="", order=0)],
        records=[Record(id="a"), Record(id="b", region="items")],
        record_index=RecordIndex(ids=["a", "b"], viewport=["a", "b"]),
        feedback=[Feedback(level="info", message="hi", region_path=["items"])],
    )
    owner = FrameOwner(
        step="cart",
        path=["shop"],
        label="Cart",
        declared=False,
        visible=True,
        in_viewport=True,
        left=0,
        top=0,
    )
    part = FramePart("F1", ("shop", "cart"), owner, inner)
    merged = merge(top, [part], Counter({TIMED_OUT: 2}))
    assert [r.path for r in merged.regions] == [["shop"], ["shop", "cart"], ["shop", "cart", "items"]]
    assert merged.regions[1].role == "document" and merged.regions[2].parent == "cart"
    (ask,) = [a for a in merged.actions if a.name == "ask"]
    assert (ask.region, ask.region_path, ask.order) == ("cart", ["shop", "cart"], 1)
    # "a" is the page's: the frame's "a" is dropped as a duplicate.
    assert [r.id for r in merged.records] == ["b"] and merged.record_index.ids == ["a", "b"]
    assert merged.record_index.duplicates == ["a"]
    assert merged.feedback[0].region_path == ["shop", "cart", "items"]
    assert merged.unseen.frames == 2 and merged.unseen.frame_reasons == {TIMED_OUT: 2}
    assert frame_of(merged, ActionLocator("ask", None, ("shop", "cart"))) == ("F1", ActionLocator("ask"))
    assert frame_of(merged, ActionLocator("refresh", None, ("shop",)))[0] is None


# --- no leak: a frame's session ends with its frame -------------------------------------------


async def _observed_frame_sessions(tab: cdpagent.Tab) -> list[str]:
    """Observe ``tab`` (its frames of another site answer through their sessions); their ids."""
    result = await observe_page(tab)
    assert result.observation.record_ids == ["apple", "pear"]  # the frame's session was used
    ids = [f.session.session_id for f in tab.frame_targets.values()]
    assert ids and all(sid is not None for sid in ids)
    return [sid for sid in ids if sid is not None]


def _held(browser: cdpagent.Browser, session_id: str) -> list[str]:
    """What the connection and its protocol core still hold for ``session_id``."""
    connection = browser.connection
    held = []
    if session_id in connection.core.attached:
        held.append("attached in the core")
    if connection.core.pending_on(session_id):
        held.append("pending calls")
    if session_id in connection.session_ids:
        held.append("a session object (handlers, subscribers)")
    return held


async def test_ob11_closing_a_tab_drops_its_frame_sessions(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server))
    sessions = await _observed_frame_sessions(tab)
    assert all(_held(browser, sid) for sid in sessions)
    await tab.close()
    assert tab.closed and tab.frame_targets == {}
    assert {sid: _held(browser, sid) for sid in sessions} == {sid: [] for sid in sessions}
    assert tab.session.session_id not in browser.connection.session_ids


async def test_ob11_navigating_away_drops_the_frame_sessions(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server))
    sessions = await _observed_frame_sessions(tab)
    await tab.navigate(f"http://127.0.0.1:{frames_server}/cart.html")
    await tab.wait_until(lambda: not tab.frame_targets, 10)
    assert {sid: _held(browser, sid) for sid in sessions} == {sid: [] for sid in sessions}
    assert (await observe_page(tab)).observation.record_ids == ["apple", "pear"]  # now the page's own


# --- JavaScript dialogs of a frame of another site -------------------------------------------


async def test_dr7_dialog_in_a_frame_of_another_site_blocks_the_tab_and_is_resolved(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server, "asks.html"))
    obs = await tab.observe()
    assert {e.tool: e.region_path for e in obs.actions}["ask"] == ["shop", "partner", "desk"]
    assert f"http://localhost:{frames_server}/asks.html" in await iframe_targets(browser)
    (frame,) = tab.frame_targets.values()
    await frame.session.send("Runtime.evaluate", {"expression": "openLater('prompt', 'Your name?')"})
    await tab.wait_until(lambda: tab.dialog is not None, 10)
    assert tab.dialog is not None and tab.dialog.url == f"http://localhost:{frames_server}/asks.html"

    with trio.fail_after(10):
        result = await observe_page(tab)
    assert result.observation.modal == "JavaScript prompt"
    assert [tool["function"]["name"] for tool in result.tools] == ["accept_dialog", "dismiss_dialog"]
    with trio.fail_after(5):
        blocked = await tab.act("ask")
    assert blocked.code == "DIALOG_OPEN", blocked.to_json()

    answered = await tab.act("accept_dialog", text="Ada")
    assert answered.ok, answered.to_json()
    assert tab.dialog is None
    await tab.wait_until(lambda: tab.dialog is None, 5)
    state = {s.name: s.value for s in (await tab.observe()).state}
    assert state["answer"] == "prompt:Ada"


async def test_dr7_dialogs_a_frame_of_another_site_opens_during_an_action_and_on_leaving(
    browser: cdpagent.Browser, frames_server: int
) -> None:
    tab = await browser.open(cross_url(frames_server, "asks.html"))
    with trio.fail_after(15):
        asked = await tab.act("ask", unattended=True)
    assert asked.ok, asked.to_json()
    assert asked.result.warnings == [
        "the page opened a JavaScript dialog, dismissed (unattended): Asked from the frame"
    ]
    assert tab.dialog is None
    assert asked.result.changed is not None and asked.result.changed.state["answer"].after == "asked"
    # The click armed the frame's beforeunload: leaving the tab asks, and the policy leaves.
    with trio.fail_after(15):
        await tab.navigate(f"http://127.0.0.1:{frames_server}/cart.html")
    assert tab.take_notices() == [LEAVE_NOTICE]
    assert tab.dialog is None and not tab.frame_targets


# --- settling watches the frames ------------------------------------------------------------


async def test_ob6_settle_waits_for_a_frame_that_is_still_changing(browser: cdpagent.Browser) -> None:
    tab = await browser.open(FRAMES / "steps.html")
    ran = await tab.act("run")
    assert ran.ok, ran.to_json()
    assert ran.result.changed is not None
    assert ran.result.changed.state["status"] == ValueChange("idle", "done")
    assert not ran.result.warnings
