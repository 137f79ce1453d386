"""Asking the person at the terminal: the command line's confirmation callback."""

from __future__ import annotations

import trio

from ..act.perform import ConfirmRequest

__all__ = ["accept_all", "ask_on_terminal"]


async def ask_on_terminal(request: ConfirmRequest) -> bool:
    """A :data:`~cdpagent.act.perform.ConfirmCallback` that asks on the controlling terminal.

    Reads ``/dev/tty`` (stdin may carry a script); no terminal means no.
    """

    def ask() -> bool:
        try:
            with open("/dev/tty", "r+", encoding="utf-8") as tty:
                tty.write(f"cdpagent: {request.action} asks: {request.question} [y/N] ")
                tty.flush()
                return tty.readline().strip().lower() in ("y", "yes")
        except OSError:
            return False

    return await trio.to_thread.run_sync(ask)


def accept_all(request: ConfirmRequest) -> bool:
    """A confirmation callback that agrees to everything (the command line's ``--yes``)."""
    return True
