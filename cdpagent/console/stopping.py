"""Ending a command on SIGTERM or SIGHUP the way Ctrl-C ends it (SPEC SF-2).

Python's default for SIGTERM and SIGHUP ends the process at once, so a command
killed that way left its browser's temporary profile behind. :func:`run_until_signal`
runs a command with both signals turned into a cancellation of the command:
its ``async with`` blocks unwind (the browser is closed, its profile removed)
and the command ends with status 128 + the signal's number, as a shell reports
a process killed by it. (``cdpagent mcp`` handles its own signals.)
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["run_until_signal"]

_A = TypeVar("_A")


async def run_until_signal(command: Callable[[_A], Awaitable[int]], args: _A) -> int:
    """``await command(args)``, cancelled cleanly by SIGTERM or SIGHUP (then 128 + signal number)."""
    import trio  # here: the command line imports this module, and --help needs no Trio

    stopped: list[int] = []
    result = 0
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                async for number in signals:
                    stopped.append(number)
                    nursery.cancel_scope.cancel()
                    return

            async def run() -> None:
                nonlocal result
                result = await command(args)
                nursery.cancel_scope.cancel()

            nursery.start_soon(watch)
            nursery.start_soon(run)
    return 128 + stopped[0] if stopped else result
