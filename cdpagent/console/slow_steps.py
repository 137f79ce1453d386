"""Progress on a terminal for the steps that can take more than a second.

:func:`slow_step` says nothing for a step that ends within a second, and nothing
at all unless its stream (stderr) is a terminal: piped or captured output stays
exactly the command's. A slow step gets one line, rewritten each second
(``cdpagent: launching the browser… 3 s``), that ends with how long it took.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TextIO

from ..cdp.concurrency import collapse

__all__ = ["slow_step"]


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@asynccontextmanager
async def slow_step(what: str, *, after: float = 1.0, stream: TextIO | None = None) -> AsyncIterator[None]:
    """Run the block; if it lasts over ``after`` seconds, show ``what`` and the seconds on ``stream``.

    ``stream`` defaults to stderr at the time of the call. The block's exceptions pass
    unchanged (not wrapped in an exception group); the line then ends with ``failed``.
    """
    out = stream or sys.stderr
    if not _is_terminal(out):
        yield
        return
    import trio  # here: the command line's flags import this module, and --help needs no Trio
    started = trio.current_time()
    shown = False

    async def announce() -> None:
        nonlocal shown
        await trio.sleep(after)
        while True:
            out.write(f"\rcdpagent: {what}… {trio.current_time() - started:.0f} s")
            out.flush()
            shown = True
            await trio.sleep(1)

    outcome = "failed"
    try:
        with collapse():
            async with trio.open_nursery() as nursery:
                nursery.start_soon(announce)
                yield
                outcome = "done"
                nursery.cancel_scope.cancel()
    finally:
        if shown:
            out.write(f"\rcdpagent: {what}: {outcome} in {trio.current_time() - started:.1f} s\n")
            out.flush()
