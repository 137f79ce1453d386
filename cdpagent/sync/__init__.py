"""The blocking API, for scripts, notebooks and asyncio programs: ``cdpagent.sync``.

::

    import cdpagent.sync

    with cdpagent.sync.launch() as browser:
        tab = browser.open("page.html")
        print(tab.view().text)
        receipt = tab.act("toggle", record="t9")

Each browser runs the async API on a Trio loop of its own thread (:mod:`.portal`);
the methods block the calling thread and return what the async ones return, raising
the same exceptions (:mod:`.api`). Calling them from a thread that runs an asyncio loop
(a notebook cell, a coroutine) blocks that loop for the call, as any blocking call does;
inside a Trio loop use the async API instead (a :class:`RuntimeError` says so).
"""

from __future__ import annotations

from .api import Browser, Tab, connect, launch

__all__ = ["Browser", "Tab", "connect", "launch"]
