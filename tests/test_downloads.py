"""Downloads: the receipt of the act that started one says where it went; the list is bounded (BR-4)."""

from __future__ import annotations

import http.server
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from conftest import PAGES

import cdpagent
from cdpagent.codes import DOWNLOAD_TOO_LARGE
from cdpagent.primitives.downloads import MAX_DOWNLOADS, Download, Downloads

BODY = b"name,qty\nwidget,3\n" * 1000
#: The server holds the body back this long: the download ends after the page has settled.
DELAY = 1.0
#: What the endless download streams at most (without a cap it completes: the test fails, in bounded time).
ENDLESS = 16_000_000
PART = 900_000
CAP = 1_000_000


class _Slow(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/endless.bin":  # no length announced: only the bytes received can tell
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", 'attachment; filename="endless.bin"')
            self.end_headers()
            chunk = b"\0" * 65536
            try:
                for _ in range(ENDLESS // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass  # the browser canceled the download
            return
        if self.path == "/part.bin":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", 'attachment; filename="part.bin"')
            self.send_header("Content-Length", str(PART))
            self.end_headers()
            self.wfile.write(b"\1" * PART)
            return
        if self.path == "/capped":
            page = (PAGES / "downloads" / "capped.html").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return
        if self.path == "/slow.csv":
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Disposition", 'attachment; filename="slow.csv"')
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.flush()
            time.sleep(DELAY)  # a slow network, in the server's thread
            self.wfile.write(BODY)
            return
        page = (PAGES / "downloads" / "index.html").read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


async def test_the_receipt_of_the_act_that_started_a_download_names_file_size_and_place(
    chrome_endpoint: str, site: str, tmp_path: Path
) -> None:
    async with cdpagent.connect(chrome_endpoint, download_dir=tmp_path) as browser:
        tab = await browser.open(f"{site}/")
        try:
            receipt = await tab.act("get_report")
            assert receipt.ok, receipt
            (item,) = browser.downloaded()
            assert (item.name, item.state, item.size) == ("slow.csv", "completed", len(BODY))
            assert item.path == str(tmp_path / "slow.csv")
            assert await trio.Path(item.path).read_bytes() == BODY
            said = receipt.result.warnings or []
            assert f"the download slow.csv was saved as {item.path} ({len(BODY)} bytes)" in said, said
        finally:
            await tab.close()


async def _ended(browser: cdpagent.Browser, count: int) -> list[Download]:
    await browser.wait_until(lambda: sum(d.state != "in_progress" for d in browser.downloaded()) >= count, 30)
    return browser.downloaded()


async def test_a_download_past_its_cap_is_canceled_and_its_partial_file_removed(
    chrome_endpoint: str, site: str, tmp_path: Path
) -> None:
    """Issue 35, finding 4: a page streaming without end once wrote 1.1 GiB to the download folder."""
    async with cdpagent.connect(chrome_endpoint, download_dir=tmp_path, max_download_bytes=CAP) as browser:
        tab = await browser.open(f"{site}/capped")
        try:
            receipt = await tab.act("get_endless")
            (item,) = await _ended(browser, 1)
            assert (item.state, item.code, item.path) == ("canceled", DOWNLOAD_TOO_LARGE, None), item
            assert item.size < ENDLESS
            said = " ".join(receipt.result.warnings or []) + " ".join((await tab.observe()).warnings)
            assert DOWNLOAD_TOO_LARGE in said and "endless.bin" in said, said
            assert os.listdir(tmp_path) == [], f"the partial file of {item.guid} was kept"
        finally:
            await tab.close()


async def test_downloads_that_take_the_browser_past_its_total_cap_are_canceled(
    chrome_endpoint: str, site: str, tmp_path: Path
) -> None:
    async with cdpagent.connect(
        chrome_endpoint,
        download_dir=tmp_path,
        max_download_bytes=CAP,
        max_downloads_total_bytes=3 * PART // 2,
    ) as browser:
        tab = await browser.open(f"{site}/capped")
        try:
            await tab.act("get_part")
            first = (await _ended(browser, 1))[0]
            assert (first.state, first.size, first.code) == ("completed", PART, None), first
            await tab.act("get_part")
            second = (await _ended(browser, 2))[1]
            assert (second.state, second.code) == ("canceled", DOWNLOAD_TOO_LARGE), second
            # Chromium may still be moving its partial file into place when it reports the
            # cancel (cdpagent removes it then), and deletes that file itself just after.
            with trio.fail_after(10):
                while (left := os.listdir(tmp_path)) != ["part.bin"]:
                    assert "part.bin" in left, left
                    await trio.sleep(0.02)
        finally:
            await tab.close()


def test_download_caps_must_be_positive_byte_counts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="positive"):
        Downloads(tmp_path, lambda frame: None, lambda tab, text: None, lambda: None, max_bytes=0)


def test_a_browser_lists_its_last_downloads_only(tmp_path: Path) -> None:
    told: list[tuple[str, str]] = []
    def tell(tab: str, text: str) -> None:
        told.append((tab, text))

    downloads = Downloads(tmp_path, lambda frame: "tab1", tell, lambda: None)
    begin, progress = downloads.handlers().values()
    for n in range(MAX_DOWNLOADS + 5):
        (tmp_path / f"g{n}").write_text(str(n))
        begin({"guid": f"g{n}", "url": f"http://x/{n}", "suggestedFilename": "r.csv", "frameId": "f"})
        progress({"guid": f"g{n}", "state": "completed", "receivedBytes": len(str(n))})
    items = downloads.items
    assert len(items) == MAX_DOWNLOADS and downloads.started == MAX_DOWNLOADS + 5
    assert items[0].guid == "g5" and items[-1].name == "r.csv"
    # Each file kept its own name, none overwritten.
    assert items[-1].path == str(tmp_path / f"r ({MAX_DOWNLOADS + 4}).csv")
    assert (tmp_path / "r.csv").read_text() == "0"
    assert told[-1] == ("tab1", f"the download r.csv was saved as {items[-1].path} (3 bytes)")
