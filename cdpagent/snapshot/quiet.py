"""Ending the post-action quiet window on evidence rather than a fixed time (OB-6, OB-8).

After an input the receipt's snapshot waits until the page has not changed for
``settle_quiet_ms``. Measured on ``tests/pages/quiet/late.html`` (handlers that change
the page after a microtask, an animation frame, a zero timeout, a loopback fetch or a
chain of those), a fixed window shortened to 1-5 ms misses the fetch and the chain;
so the window is not shortened, it ends early only when the page's own world says
nothing it started is pending: ``js/quiet.js`` counts timers and intervals due within
the window, animation frames, idle callbacks, fetches and their body reads,
XMLHttpRequests and posted messages, and the settle step asks it (after one
animation frame) on each of its checks. Whatever the answer, the window never grows:
without the evidence it ends as before.

:func:`install_commands` are the two scripts (the page world's counter and the
isolated world's question), installed with the observation's scripts.
"""

from __future__ import annotations

import secrets
from functools import cache
from typing import Final

from ..cdp.pagescripts import configured
from ..cdp.target import Command

__all__ = ["QUIET_EVENT", "install_commands"]

#: The question's event name: unguessable, one per process, so a page cannot answer it.
QUIET_EVENT: Final = "cdpagent-quiet-" + secrets.token_hex(8)


def install_commands(world: str) -> list[Command]:
    """The commands that install ``js/quiet.js`` in a target's current and future documents:
    its counter in the page's world (before the page's scripts) and its question in the
    isolated ``world``."""
    add = "Page.addScriptToEvaluateOnNewDocument"
    page = {"source": _source("page"), "runImmediately": True}
    observe = {"source": _source("observe"), "worldName": world, "runImmediately": True}
    return [(add, page), (add, observe)]


@cache
def _source(role: str) -> str:
    return configured("quiet.js", {"role": role, "event": QUIET_EVENT})
