"""Downloads: the receipt of the act that started one says where it went; the list is bounded (BR-4)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from conftest import PAGES

import cdpagent
from cdpagent.primitives.downloads import MAX_DOWNLOADS, Downloads

BODY = b"name,qty\nwidget,3\n" * 1000
#: The server holds the body back this long: the download ends after the page has settled.
DELAY = 1.0


class _Slow(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
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
