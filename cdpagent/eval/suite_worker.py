"""The BrowserGym side of ``cdpagent eval browsergym:…``: one process, one browser, one task at a time.

Run as a script by :mod:`cdpagent.eval.suites` (``python suite_worker.py``)
with an interpreter that has ``browsergym-miniwob`` and ``miniwob`` installed: the
project's own or a virtualenv of its own. It imports only the standard library,
Playwright and BrowserGym, never cdpagent, so it runs in either.

It launches the system Chromium through Playwright (never a downloaded browser)
with a DevTools port on 127.0.0.1, so cdpagent can attach to the same browser,
then answers one JSON request a line on stdin with one JSON reply a line on
stdout (its own output and Playwright's go to stderr):

- ``{"op": "start", "executable": PATH, "headless": true}`` → ``{"ok": true, "endpoint": "http://127.0.0.1:PORT"}``
- ``{"op": "list", "suite": "miniwob"}`` → ``{"ok": true, "tasks": ["miniwob.click-test", …]}``
- ``{"op": "setup", "task": NAME, "seed": N}`` → ``{"ok": true, "goal": TEXT, "target": ID, "url": URL}``:
  a new context and page, the task's own ``setup(page)``
- ``{"op": "validate", "answer": TEXT | null}`` →
  ``{"ok": true, "reward": R, "done": B, "message": TEXT, "info": {…}}``:
  the task's own ``validate(page, chat_messages)``
- ``{"op": "teardown"}`` → ``{"ok": true}``: the task's ``teardown()`` and the context closed

A request that fails is answered ``{"ok": false, "error": TEXT}``; the process goes on.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import sys
import traceback
from pathlib import Path
from typing import Any

# Run as a script, this folder is first on sys.path: its modules must not shadow BrowserGym's.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]

# Chromium's connections to Google's hosts are refused on a closed network; these keep it quiet.
QUIET_FLAGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def miniwob_url() -> str:
    """The ``file://`` URL of the ``miniwob`` package's task pages (what ``MINIWOB_URL`` names)."""
    import miniwob

    folder = Path(miniwob.__file__).resolve().parent / "html" / "miniwob"
    if not folder.is_dir():
        raise RuntimeError(f"the miniwob package has no task pages at {folder}")
    return folder.as_uri() + "/"


def _task_classes(suite: str) -> dict[str, Any]:
    if suite != "miniwob":
        raise ValueError(f"unknown BrowserGym suite {suite!r} (this worker knows: miniwob)")
    os.environ.setdefault("MINIWOB_URL", miniwob_url())
    module = importlib.import_module("browsergym.miniwob")
    return {cls.get_task_id(): cls for cls in module.ALL_MINIWOB_TASKS}


class Worker:
    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None
        self.context: Any = None
        self.page: Any = None
        self.task: Any = None

    def start(self, executable: str, headless: bool = True) -> dict[str, Any]:
        from playwright.sync_api import sync_playwright

        port = _free_port()
        self.playwright = sync_playwright().start()
        # BrowserGym's own launch (browsergym.core.env.BrowserEnv) with its pw_chromium_kwargs:
        # the system browser, and a DevTools port cdpagent attaches to.
        self.browser = self.playwright.chromium.launch(
            headless=headless,
            executable_path=executable,
            args=[f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1", *QUIET_FLAGS],
        )
        return {"endpoint": f"http://127.0.0.1:{port}", "version": self.browser.version}

    def list(self, suite: str) -> dict[str, Any]:
        return {"tasks": sorted(_task_classes(suite))}

    def setup(self, task: str, seed: int) -> dict[str, Any]:
        self.teardown()
        suite = task.partition(".")[0]
        classes = _task_classes(suite)
        if task not in classes:
            raise ValueError(f"unknown task {task!r}")
        self.task = classes[task](seed=seed)
        viewport = getattr(self.task, "viewport", None) or {"width": 1280, "height": 720}
        self.context = self.browser.new_context(viewport=viewport)
        self.context.set_default_timeout(getattr(self.task, "timeout", 5000))
        self.page = self.context.new_page()
        goal, _info = self.task.setup(page=self.page)
        cdp = self.context.new_cdp_session(self.page)
        target = cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
        cdp.detach()
        text = goal if isinstance(goal, str) else json.dumps(goal, ensure_ascii=False)
        return {"goal": text, "target": target, "url": self.page.url}

    def validate(self, answer: str | None = None) -> dict[str, Any]:
        if self.task is None:
            raise RuntimeError("no task is set up")
        # BrowserGym's chat: the goal from the user, the agent's answer if it gave one.
        chat = [{"role": "user", "message": "goal"}]
        if answer:
            chat.append({"role": "assistant", "message": answer})
        reward, done, message, info = self.task.validate(self.page, chat)
        return {"reward": float(reward), "done": bool(done), "message": str(message or ""), "info": info}

    def teardown(self) -> dict[str, Any]:
        task, context = self.task, self.context
        self.task = self.context = self.page = None
        try:
            if task is not None:
                task.teardown()
        finally:
            if context is not None:
                context.close()
        return {}


def main() -> None:
    # Replies go to the original stdout; anything else printed (Playwright, BrowserGym) to stderr.
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    worker = Worker()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            op = request.pop("op")
            if op not in ("start", "list", "setup", "validate", "teardown"):
                raise ValueError(f"unknown op {op!r}")
            reply: dict[str, Any] = {"ok": True, **getattr(worker, op)(**request)}
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            reply = {"ok": False, "error": f"{type(error).__name__}: {' '.join(str(error).split())[:500]}"}
        replies.write(json.dumps(reply, default=str) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
