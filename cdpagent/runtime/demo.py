"""The Page Agent API part of ``cdpagent demo``: invoke, a STALE_STATE refusal, a queued thread_notify.

:func:`page_api_demo` walks through the bundled ``editor`` and ``writing`` examples
and reports each step as a line of text through ``say``; the lead's ``demo``
command calls it with a browser it launched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import trio

from ..bundled import example_page
from .invoke import invoke
from .simulated_user import user_click, user_type
from .threads import Thread

if TYPE_CHECKING:
    from ..browser import Browser

__all__ = ["page_api_demo"]


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def page_api_demo(browser: Browser, say: Callable[[str], None]) -> None:
    """Show the Page Agent API on the bundled examples; raises what :func:`invoke` raises."""
    editor = await browser.open(example_page("editor"))
    current = await invoke(editor, "read_current")
    say(f"{editor.id} editor: read_current -> revision {current['revision']}, {current['blockCount']} blocks")
    change = {"change": {"kind": "rename", "text": "Launch plan v2"}, "expectedRevision": current["revision"]}
    written = await invoke(editor, "apply_change", change)
    say(
        f"{editor.id} editor: apply_change(expectedRevision={current['revision']}) -> ok={written['ok']}, "
        f"revision {written['state']['revision']}"
    )
    stale = await invoke(editor, "apply_change", change)
    say(f"{editor.id} editor: the same change again -> {_short(stale)}  (a domain refusal, state unchanged)")

    thread = Thread(browser)
    writing = await thread.open(example_page("writing"))
    await user_type(writing, "#essay", "我的暑假很长。")
    await user_click(writing, "#ask")
    with trio.fail_after(10):
        note = await thread.receive()
    say(
        f"{writing.id} writing: a person clicked 'Ask for a review' -> {thread.id} woke up: "
        f"message {note.message!r}, deliveryId {note.delivery_id}, tab {note.tab_id}"
    )
    current = await invoke(writing, "read_current")
    done = await invoke(
        writing, "submit_review", {"expectedRevision": current["revision"], "comments": "写得很好！"}
    )
    say(
        f"{writing.id} writing: read_current then submit_review -> ok={done['ok']}, "
        f"revision {done['state']['revision']}"
    )
