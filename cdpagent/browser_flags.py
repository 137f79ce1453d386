"""The command-line flags that choose the browser a command runs in: a local launch or a grid session.

Every command that opens a browser (``call``, ``observe``, ``script``, ``chat``,
``mcp``) adds them with :func:`add_browser_flags` and opens the browser with
:func:`browser_from_flags`.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from .browser import Browser
from .errors import StepError
from .progress import slow_step

__all__ = ["add_browser_flags", "add_trace_flag", "browser_from_flags"]

_WEBMCP_HELP = "turn on WebMCP: tools the page registers become actions"


def add_browser_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags that choose the browser a command runs in (read by :func:`browser_from_flags`)."""
    parser.add_argument(
        "--grid", metavar="URL", default=None, help="take the browser from a Selenium Grid 4 hub"
    )
    parser.add_argument("--webmcp", action="store_true", help=_WEBMCP_HELP)
    add_trace_flag(parser)


def add_trace_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--trace PATH``: record every operation of the run (``cdpagent trace show PATH`` replays it)."""
    parser.add_argument(
        "--trace", metavar="PATH", default=None,
        help="record every step of the run into PATH (JSON Lines; 'cdpagent trace show PATH' replays it)",
    )  # fmt: skip


def browser_from_flags(args: argparse.Namespace) -> AbstractAsyncContextManager[Browser]:
    """The browser the flags ask for: a session of ``--grid URL``'s hub, else a local launch.

    ``--allow-origin`` values, when the command has them, and ``--trace`` go to either. ``--webmcp``
    needs a browser started with WebMCP, which only a local launch is. Raises
    :class:`~cdpagent.errors.StepError` for ``--webmcp`` with ``--grid``.
    """
    from .browser import launch
    from .grid import connect_grid

    origins = getattr(args, "allow_origin", None) or []
    trace = getattr(args, "trace", None)
    if args.grid:
        if args.webmcp:
            raise StepError("--webmcp needs a local browser; a grid's browsers run without WebMCP")
        opening = connect_grid(args.grid, allow_origins=origins, trace=trace)
        return _announced(opening, f"opening a session at {args.grid}")
    return _announced(launch(allow_origins=origins, webmcp=args.webmcp, trace=trace), "launching the browser")


@asynccontextmanager
async def _announced(opening: AbstractAsyncContextManager[Browser], what: str) -> AsyncIterator[Browser]:
    """``opening``'s browser, with progress on a terminal while it takes over a second to open."""
    async with AsyncExitStack() as stack:
        async with slow_step(what):
            browser = await stack.enter_async_context(opening)
        yield browser
