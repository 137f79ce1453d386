"""Browser primitives through the Python API against real Chromium (BR-1, BR-3 … BR-6)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
from conftest import PAGES, evaluate
from png_support import pixels

import cdpagent
from cdpagent import OperationError
from cdpagent.ops.script import ScriptContext, run_step
from cdpagent.primitives.pagelog import MAX_PENDING, UNKNOWN_URL, PageLog
from cdpagent.primitives.storage import OriginState, StorageItem, StorageState, load_storage_state

PAGE = PAGES / "primitives" / "page.html"
SECOND = PAGES / "primitives" / "second.html"


async def _rect(tab: cdpagent.Tab, selector: str) -> dict[str, float]:
    rect: dict[str, float] = await evaluate(
        tab,
        f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
        " return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })()",
    )
    return rect


async def test_br3_viewport_screenshot_masks_sensitive_fields_in_pixels(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    shot = await tab.screenshot(max_edge=400)  # small: the PNG is decoded in Python below
    assert shot.format == "png" and shot.mime_type == "image/png"
    assert shot.masked == 2
    image = pixels(shot.data)
    assert (shot.width, shot.height) == (len(image[0]), len(image)) and max(shot.width, shot.height) == 400
    scale = shot.width / await evaluate(tab, "innerWidth")
    for selector in ("#pw", "#code"):
        r = await _rect(tab, selector)
        inside = [image[int((r["y"] + dy) * scale)][int((r["x"] + dx) * scale)]
                  for dy in (2, r["h"] / 2, r["h"] - 2) for dx in (2, r["w"] / 2, r["w"] - 2)]
        assert set(inside) == {(0, 0, 0)}, (selector, inside)
    # The masks are gone from the page after the capture.
    assert await evaluate(tab, "document.documentElement.lastElementChild.tagName") == "BODY"
    # Unmasked parts keep their colour: the green bar.
    bar = await _rect(tab, "#tall")
    assert image[50][int((bar["x"] + 5) * scale)] == (0, 170, 0)


async def test_br3_a_hidden_tab_is_captured_again_and_again(browser: cdpagent.Browser) -> None:
    """A tab hidden behind one opened after it: Chromium draws no frames for it, and a capture
    waited for one (in a row, the fifth or sixth got no answer in 5 s, in each of 5 trials).
    A capture brings its tab to the front first, as a person looks at the tab they photograph."""
    tab = await browser.open(PAGE)
    await browser.open(SECOND)
    assert await evaluate(tab, "document.visibilityState") == "hidden"
    for _ in range(8):
        shot = await tab.screenshot(max_edge=400, timeout=5)
        assert shot.masked == 2
    assert await evaluate(tab, "document.visibilityState") == "visible"


async def test_br3_full_page_and_target_screenshots_are_bounded(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    full = await tab.screenshot(full_page=True, max_edge=1000)
    assert max(full.width, full.height) <= 1000 and full.height > full.width  # 5000 px tall page, scaled
    assert not full.truncated
    jpeg = await tab.screenshot(target="save", format="jpeg", quality=50)
    assert jpeg.format == "jpeg" and jpeg.data[:2] == b"\xff\xd8"
    button = await _rect(tab, "#save")
    assert abs(jpeg.width - button["w"]) <= 1 and abs(jpeg.height - button["h"]) <= 1
    for bad, code in (
        ({"format": "gif"}, "INVALID_ARGUMENT"),
        ({"format": "png", "quality": 50}, "INVALID_ARGUMENT"),
        ({"full_page": True, "target": "save"}, "INVALID_ARGUMENT"),
        ({"max_edge": 0}, "INVALID_ARGUMENT"),
        ({"target": "no_such_action"}, "TARGET_NOT_FOUND"),
    ):
        with pytest.raises(OperationError) as err:
            await tab.screenshot(**bad)
        assert err.value.code == code, bad


async def test_br3_a_full_page_of_a_scrolled_page_starts_at_the_top_masked_and_leaves_the_page_as_it_was(
    browser: cdpagent.Browser,
) -> None:
    tab = await browser.open(PAGE)
    await evaluate(tab, "window.scrollTo(0, 3000)")
    before = await evaluate(tab, "[scrollY, innerWidth, innerHeight]")
    shot = await tab.screenshot(full_page=True, max_edge=500)  # 5,000 px tall: scale 0.1
    assert shot.masked == 2 and not shot.truncated and shot.height == 500
    image = pixels(shot.data)
    scale = shot.height / 5000
    # The password field (40, 40, 200 x 30) and the sensitive span (40, 100) are covered, at the top.
    for x, y in ((140, 55), (140, 115)):
        assert image[int(y * scale)][int(x * scale)] == (0, 0, 0), (x, y)
    # The green bar runs the whole height: the image is the page, not a blank beyond the viewport.
    assert image[shot.height - 5][int(305 * scale)] == (0, 170, 0)
    assert await evaluate(tab, "[scrollY, innerWidth, innerHeight]") == before
    assert await evaluate(tab, "document.documentElement.lastElementChild.tagName") == "BODY"


async def test_br3_a_page_that_hides_the_masks_gets_no_unmasked_image(browser: cdpagent.Browser) -> None:
    """The page's scripts are stopped during the capture, so its observer cannot hide the masks;
    were they hidden, the capture would be ``CAPTURE_FAILED``: either way no field shows."""
    tab = await browser.open(PAGE)
    await evaluate(
        tab,
        "new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)"
        " if (n.parentNode === document.documentElement) n.style.display = 'none'; })"
        ".observe(document.documentElement, {childList: true}); true",
    )
    try:
        shot = await tab.screenshot(max_edge=400)
    except OperationError as err:
        assert err.code == "CAPTURE_FAILED", err
        return
    image = pixels(shot.data)
    scale = shot.width / await evaluate(tab, "innerWidth")
    r = await _rect(tab, "#pw")
    assert image[int((r["y"] + r["h"] / 2) * scale)][int((r["x"] + r["w"] / 2) * scale)] == (0, 0, 0)


async def test_br1_back_and_forward_across_documents_and_hashes(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    with pytest.raises(OperationError) as err:
        await tab.back()
    assert err.value.code == "NAVIGATION_FAILED" and "no page to go back" in err.value.message
    await tab.navigate(SECOND)
    await tab.navigate(str(SECOND) + "#part")
    doc = await tab.back()
    assert doc.url == SECOND.as_uri()
    doc = await tab.back()
    assert doc.url == PAGE.as_uri() and (await tab.observe()).identity.title == "Primitives"
    doc = await tab.forward()
    assert doc.url == SECOND.as_uri()
    doc = await tab.forward()
    assert doc.url.endswith("#part")
    with pytest.raises(OperationError):
        await tab.forward()


async def test_br5_console_and_failed_requests_are_bounded_page_data(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    await tab.wait_until(lambda: any("boom" in m.text for m in tab.console()) and bool(tab.network()), 10)
    messages = tab.console()
    assert [m.level for m in messages[:2]] == ["log", "warning"]
    assert messages[0].text.startswith("page says 42")
    assert any(m.level == "error" and "boom from a timer" in m.text for m in messages)
    failed = tab.network()
    assert failed[0].url.endswith("missing-file.json") and failed[0].error
    await evaluate(tab, "for (let i = 0; i < 300; i++) console.log('x'.repeat(2000) + i); true")
    await tab.wait_until(lambda: tab.console(1)[0].text.endswith("…"), 10)
    assert len(tab.console(1000)) == 200 and all(len(m.text) <= 500 for m in tab.console(1000))
    assert tab.console(0) == []


async def test_br5_wait_for_text_gone_and_timeout(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGE)
    await tab.act("later")
    result = await tab.wait_for(text="the answer is 42", timeout=10)
    assert "The answer is 42" in result.text
    await tab.wait_for(gone="nothing like this", timeout=5)
    # Text a person sees on a declared page that declares none of it (issue 34): found; the text
    # of a sensitive element is no text to find (it would tell the secret).
    assert "The end of the page" not in result.text
    await tab.wait_for(text="the END of the page", timeout=5)
    with pytest.raises(OperationError) as err:
        await tab.wait_for(text="8472-1193", timeout=0.5)
    assert err.value.code == "WAIT_TIMEOUT"
    with pytest.raises(OperationError) as err:
        await tab.wait_for(gone="The end of the page", timeout=0.5)
    assert err.value.code == "WAIT_TIMEOUT"
    with pytest.raises(OperationError) as err:
        await tab.wait_for(text="never shown", timeout=0.5)
    assert err.value.code == "WAIT_TIMEOUT" and "never shown" in err.value.message
    # The same as a script step: a failed step, naming what it waited for.
    step = '{"op": "wait_for", "text": "never", "timeout": 0.3}'
    failed, go_on = await run_step(ScriptContext(tab, None), step)
    assert (failed["error"]["code"], go_on) == ("SCRIPT_STEP_FAILED", False), failed
    assert "never" in failed["error"]["message"], failed
    with pytest.raises(OperationError) as err:
        await tab.wait_for(timeout=1)
    assert err.value.code == "INVALID_ARGUMENT"


FLOOD = """
window.flood = (base, n) => {
    window.controllers = [];
    for (let i = 0; i < n; i++) {
        const c = new AbortController();
        controllers.push(c);
        fetch(`${base}/hang/${i}?token=s3cret`, {signal: c.signal, mode: "no-cors"}).catch(() => {});
    }
    return n;
};
// Newest first: the oldest requests, those pushed out of the log's table, fail last and stay in its ring.
window.release = () => { for (const c of [...controllers].reverse()) c.abort(); return true; };
true
"""


async def test_br5_a_request_flood_keeps_the_urls_of_failed_requests(browser: cdpagent.Browser) -> None:
    """Issue 35, finding 7: failed requests pushed out of the in-flight table were logged with ``url: ""``."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    marker = trio.Event()
    held: list[trio.SocketStream] = []

    async def hold(stream: trio.SocketStream) -> None:
        held.append(stream)  # never answered: the request stays in flight until the page aborts it
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            while data := await stream.receive_some():
                if b"GET /marker" in data:
                    marker.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(trio.serve_listeners, hold, listeners))
        tab = await browser.open(SECOND)
        await evaluate(tab, FLOOD)
        await evaluate(tab, f"flood('http://127.0.0.1:{port}', 1200)")
        # Another host, so not queued behind the flood: once it arrives, every fetch above was issued.
        await evaluate(tab, f"fetch('http://localhost:{port}/marker', {{mode: 'no-cors'}}).catch(() => 0); 1")
        with trio.fail_after(20):
            await marker.wait()
        await evaluate(tab, "release()")
        # The ring keeps the last 200 failures: the 200 oldest requests, aborted last.
        await tab.wait_until(lambda: tab.log.dropped_failed + len(tab.log.failed) >= 1200, 20)
        failed = tab.network(500)
        assert all(f.url for f in failed), [f for f in failed if not f.url][:3]
        assert failed[-1].url.endswith("/hang/0"), [f.url.rsplit("/", 1)[-1] for f in failed]
        urls = [f.url for f in failed if "/hang/" in f.url]
        assert len(urls) == 200 and not any("s3cret" in url or "?" in url for url in urls)
        nursery.cancel_scope.cancel()
    for stream in held:
        await stream.aclose()


def test_br5_a_failure_pushed_out_of_both_tables_says_its_url_is_unknown() -> None:
    log = PageLog()
    for i in range(2 * MAX_PENDING + 1):
        log._on_request({"requestId": str(i), "request": {"url": f"http://h/{i}?token=t"}, "type": "Fetch"})
    log._on_failed({"requestId": "0", "errorText": "net::ERR_ABORTED"})
    log._on_failed({"requestId": "1", "errorText": "net::ERR_ABORTED"})
    assert [f.url for f in log.failed] == [UNKNOWN_URL, "http://h/1"]


async def test_br5_a_huge_wait_text_gives_a_bounded_message_everywhere(browser: cdpagent.Browser) -> None:
    """Issue 35, finding 6: 2 MB of search text once gave a 2,000,145-character WAIT_TIMEOUT line."""
    tab = await browser.open(SECOND)
    huge = "needle " + "x" * 2_000_000
    with pytest.raises(OperationError) as err:
        await tab.wait_for(text=huge, timeout=0.3)
    assert err.value.code == "WAIT_TIMEOUT" and "needle" in err.value.message
    assert len(err.value.message) <= 1000 and len(str(err.value)) <= 1100
    assert len(json.dumps(err.value.envelope())) <= 1200
    step = json.dumps({"op": "wait_for", "text": huge, "timeout": 0.3})
    failed, _ = await run_step(ScriptContext(tab, None), step)
    line = json.dumps(failed)
    assert failed["error"]["code"] == "SCRIPT_STEP_FAILED" and "WAIT_TIMEOUT" in line, line[:300]
    assert len(line) <= 1200, f"a {len(line)}-character script line"


async def test_br4_downloads_are_saved_named_and_reported(chrome_endpoint: str, tmp_path: Path) -> None:
    async with cdpagent.connect(chrome_endpoint, download_dir=tmp_path) as browser:
        tab = await browser.open(PAGE)
        try:
            receipt = await tab.act("save")
            assert receipt.ok
            with trio.fail_after(10):
                await browser.wait_until(
                    lambda: any(d.state == "completed" for d in browser.downloaded()), 10
                )
            (item,) = browser.downloaded()
            # The page asked for "../report.csv": the file stays in the directory, named safely.
            assert item.name.endswith("report.csv") and "/" not in item.name
            assert item.tab == tab.id and item.size == len("name,qty\nwidget,3\n")
            assert item.path == str(tmp_path / item.name)
            assert await trio.Path(item.path).read_text() == "name,qty\nwidget,3\n"
            later = await tab.observe()
            said = " ".join(later.warnings + (receipt.result.warnings or []))
            assert "report.csv" in said and item.path in said
        finally:
            await tab.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The primitives pages over loopback HTTP (cookies and local storage need an origin)."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(PAGES / "primitives"))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


async def _who(tab: cdpagent.Tab) -> str:
    state = {s.name: s.value for s in (await tab.observe()).state}
    return str(state["who"])


@pytest.mark.browser
async def test_br6_storage_state_round_trip_and_playwright_files(site: str, tmp_path: Path) -> None:
    saved = tmp_path / "state.json"
    async with cdpagent.launch() as browser:
        tab = await browser.open(f"{site}/login.html?login")
        assert await _who(tab) == "abc123 xyz"
        state = await browser.storage_state(saved)
    (cookie,) = [c for c in state.cookies if c.name == "sid"]
    assert (cookie.value, cookie.domain, cookie.same_site) == ("abc123", "127.0.0.1", "Strict")
    written = json.loads(await trio.Path(saved).read_text())
    assert written["origins"] == [{"origin": site, "localStorage": [{"name": "token", "value": "xyz"}]}]
    assert {"httpOnly", "sameSite", "expires"} <= set(written["cookies"][0])
    async with cdpagent.launch(storage_state=saved) as browser:
        tab = await browser.open(f"{site}/login.html")
        assert await _who(tab) == "abc123 xyz"
    playwright = tmp_path / "playwright.json"
    fixture = await trio.Path(PAGES / "primitives" / "playwright-state.json").read_text()
    text = fixture.replace("ORIGIN", site)
    await trio.Path(playwright).write_text(text)
    async with cdpagent.launch(storage_state=playwright) as browser:
        tab = await browser.open(f"{site}/login.html")
        assert await _who(tab) == "from-playwright pw-token"
    await trio.Path(playwright).write_text('{"cookies": [{"name": 1}]}')
    with pytest.raises(OperationError) as err:
        async with cdpagent.launch(storage_state=playwright):
            pass
    assert err.value.code == "STORAGE_STATE_INVALID" and str(playwright) in err.value.message


@pytest.mark.browser
async def test_br6_a_user_data_dir_keeps_local_storage_across_runs(site: str, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    async with cdpagent.launch(user_data_dir=profile) as browser:
        tab = await browser.open(f"{site}/login.html?login")
        assert await _who(tab) == "abc123 xyz"
    assert await trio.Path(profile).is_dir()
    async with cdpagent.launch(user_data_dir=profile) as browser:
        tab = await browser.open(f"{site}/login.html")
        assert (await _who(tab)).endswith(" xyz")  # the cookie above has max-age: it is kept too
        assert await _who(tab) == "abc123 xyz"


@pytest.mark.browser
async def test_br2_popups_join_as_tabs_are_said_in_the_receipt_and_bounded() -> None:
    # Chromium's own popup blocker allows one popup per click; browsers started by other
    # tools (Playwright's among them) turn it off, and then only the cap holds a storm.
    async with cdpagent.launch(args=["--disable-popup-blocking"]) as browser:
        tab = await browser.open(PAGES / "primitives" / "popups.html")
        receipt = await tab.act("open_one")
        await browser.wait_until(lambda: any(t.opener is tab for t in browser.tabs), 10)
        (popup,) = [t for t in browser.tabs if t.opener is tab]
        said = " ".join(receipt.result.warnings or []) + " ".join(tab.take_notices())
        assert f"opened tab {popup.id}" in said
        await popup.wait_loaded()
        assert (await popup.observe()).identity.title == "Second"
        await tab.act("blank_link")
        await browser.wait_until(lambda: len([t for t in browser.tabs if t.opener is tab]) == 2, 10)
        storm = await tab.act("open_many")
        await browser.wait_until(lambda: tab.refused_popups == 12, 10)
        await browser.wait_until(lambda: len([t for t in browser.tabs if t.opener is tab]) == 20, 10)
        later = " ".join((storm.result.warnings or []) + (await tab.observe()).warnings)
        assert "refused tabs the page tried to open (12 refused: at most 20 tabs" in later
        assert len([t for t in browser.tabs if t.opener is tab]) == 20
        await popup.close()
        assert popup not in browser.tabs


@pytest.fixture
def probe() -> Iterator[tuple[int, list[bytes]]]:
    """A loopback server that answers nothing and records the first bytes of every connection."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    seen.append(conn.recv(4096))
                except OSError:
                    seen.append(b"(connected)")

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1], seen
    server.close()


async def test_br6_loading_a_storage_state_sends_no_request_whatever_the_origins_spelling(
    browser: cdpagent.Browser, probe: tuple[int, list[bytes]]
) -> None:
    port, seen = probe
    spellings = [
        f"http://127.0.0.1:{port}", f"http://0x7f000001:{port}", f"http://127.1:{port}",
        f"http://127.0.0.1:0{port}", f"http://[::ffff:127.0.0.1]:{port}", f"http://LOCALHOST:{port}",
        f"http://127.0.0.1:{port}/",
    ]  # fmt: skip
    for n, origin in enumerate(spellings):
        state = StorageState(origins=[OriginState(origin, [StorageItem(f"k{n}", f"v{n}")])])
        await load_storage_state(browser, state, timeout=20)
    for refused in (f"http://127.0.0.1:{port}#x", f"http://127.0.0.1:{port}/path"):
        state = StorageState(origins=[OriginState(refused, [StorageItem("k", "v")])])
        with pytest.raises(OperationError) as err:
            await load_storage_state(browser, state, timeout=20)
        assert err.value.code == "STORAGE_STATE_INVALID" and refused in err.value.message
    # Tabs close only once their work is done; a request would have been sent by then.
    assert seen == [], f"{len(seen)} requests reached the network: {seen[:3]}"
    # What loaded is the canonical origin's: the same keys whatever the spelling.
    tab = await browser.open("about:blank")
    try:
        await tab.session.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        off = tab.session.on("Fetch.requestPaused", lambda p: browser.start_soon(_blank, tab, p))
        try:
            await tab.navigate(f"http://127.0.0.1:{port}/")
            keys = await evaluate(tab, "Object.keys(localStorage).sort().join(',')")
        finally:
            off()
        assert keys == "k0,k1,k2,k3,k6", keys
    finally:
        with trio.CancelScope(shield=True):
            await tab.close()
    assert seen == []


ICON_PAGE = "PGxpbmsgcmVsPSJpY29uIiBocmVmPSJkYXRhOiwiPg=="


async def _blank(tab: cdpagent.Tab, params: dict[str, object]) -> None:
    # Started in the browser's nursery, it may run after the test closed the tab (a request
    # paused just before the close): a closed tab's request has nobody left to answer.
    with suppress(cdpagent.SessionClosed):
        await tab.session.send(
            "Fetch.fulfillRequest",
            # <link rel="icon" href="data:,">: with an icon of its own, the page asks for no favicon.
            {"requestId": params["requestId"], "responseCode": 200, "body": ICON_PAGE},
        )
