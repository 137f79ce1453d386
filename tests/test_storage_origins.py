"""Loading a storage state reaches no network, however its origins are spelled (BR-6; issue 35, finding 5).

:func:`cdpagent.primitives.origins.web_origin` is pure and tested here on its own; the
browser test serves a loopback probe and counts the requests that reach it while a
storage state naming it in every spelling is loaded: there must be none.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress

import pytest
import trio
from conftest import evaluate

import cdpagent
from cdpagent import OperationError
from cdpagent.primitives.origins import web_origin
from cdpagent.primitives.storage import OriginState, StorageItem, StorageState, load_storage_state


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("http://0x7f000001:8000", "http://127.0.0.1:8000"),
        ("http://127.1:8000", "http://127.0.0.1:8000"),
        ("http://0177.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://2130706433:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1.:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:08000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000"),
        ("HTTP://LocalHost:80", "http://localhost"),
        ("https://a.example:443", "https://a.example"),
        ("http://[::ffff:127.0.0.1]:9", "http://[::ffff:7f00:1]:9"),
        ("http://[0:0:0:0:0:0:0:1]", "http://[::1]"),
        ("http://[2001:db8:0:0:1:0:0:1]", "http://[2001:db8::1:0:0:1]"),
        ("http://bücher.example", "http://xn--bcher-kva.example"),
    ],
)
def test_br6_web_origin_is_the_browsers_own_form(text: str, origin: str) -> None:
    assert web_origin(text) == origin


@pytest.mark.parametrize(
    "text",
    [
        "http://127.0.0.1:8000#top", "http://127.0.0.1:8000/path", "http://127.0.0.1:8000?q", "ftp://x",
        "http://user@127.0.0.1", "http://256.0.0.1", "http://1.2.3.4.5", "http://1.2.3.09", "http://h:99999",
        "http://h:-1", "http://h:８０", "http://x y", "http://[::1", "http://[::g]", "http://",
        "127.0.0.1:80",
    ],
)  # fmt: skip
def test_br6_web_origin_refuses_what_is_no_origin(text: str) -> None:
    with pytest.raises(ValueError):
        web_origin(text)


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
