"""Record the ``storageState`` file that tests/test_browser_flags.py loads with ``--storage-state``.

    .venv/bin/pip install -e '.[bench]'   # Playwright's Python package (it drives /usr/bin/chromium)
    .venv/bin/python tests/record_playwright_state.py

Signs in on tests/pages/primitives/login.html (served over loopback HTTP) with
Playwright's own browser context, sets a session cookie (the file's never expires) and
a local-storage item there, and writes what ``context.storage_state()`` answers to
tests/pages/flags/playwright-state.json unchanged but for the one loopback origin,
written ``ORIGIN`` (its port is the recording's; the test puts its own there). Re-run
it when Playwright changes its format.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

PAGES = Path(__file__).resolve().parent / "pages"
OUT = PAGES / "flags" / "playwright-state.json"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> None:
    handler = functools.partial(_Quiet, directory=str(PAGES))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            try:
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{origin}/primitives/login.html")
                page.evaluate(
                    "() => { document.cookie = 'sid=pw-cookie; path=/';"
                    " localStorage.setItem('token', 'pw-token'); }"
                )
                state = Path(OUT.with_suffix(".tmp"))
                context.storage_state(path=str(state))
            finally:
                browser.close()
    finally:
        server.shutdown()
    OUT.write_text(state.read_text().replace(origin, "ORIGIN"))
    state.unlink()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
