"""The command-line flags that choose the browser a command runs in: a local launch or a grid session.

Every command that opens a browser (``call``, ``observe``, ``script``, ``chat``,
``mcp``) adds them with :func:`add_browser_flags` and opens the browser with
:func:`browser_from_flags`; ``eval``, which has a ``--grid`` of its own, adds the
launch flags alone (:func:`add_launch_flags`). The launch flags — ``--headed``,
``--chrome-arg ARG`` (repeatable), ``--user-data-dir DIR``, ``--storage-state FILE``
(Playwright's ``storageState`` JSON), ``--allow-dir DIR`` (repeatable: where
uploads may come from), ``--max-download-mb N`` and ``--max-downloads-total-mb N`` (the
download caps, default 500 and 2000) — become :func:`~cdpagent.launch` keyword arguments in one
place, :func:`launch_options`.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any

from ..errors import StepError
from .argtypes import positive_count
from .slow_steps import slow_step

if TYPE_CHECKING:
    from ..browser.tabs import Browser

__all__ = [
    "add_browser_flags",
    "add_launch_flags",
    "add_trace_flag",
    "browser_from_flags",
    "launch_only_flags",
    "launch_options",
]

_WEBMCP_HELP = "turn on WebMCP: tools the page registers become actions"


def add_browser_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags that choose the browser a command runs in (read by :func:`browser_from_flags`)."""
    parser.add_argument(
        "--grid", metavar="URL", default=None, help="take the browser from a Selenium Grid 4 hub"
    )
    parser.add_argument("--webmcp", action="store_true", help=_WEBMCP_HELP)
    add_launch_flags(parser)
    add_trace_flag(parser)


def add_launch_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags of a local launch (read by :func:`launch_options`)."""
    group = parser.add_argument_group("the browser cdpagent launches")
    group.add_argument("--headed", action="store_true", help="show the browser window (default: headless)")
    group.add_argument(
        "--chrome-arg", action="append", default=[], metavar="ARG",
        help="one more Chromium command-line flag, e.g. --chrome-arg=--lang=de (repeatable)",
    )
    group.add_argument(
        "--user-data-dir", metavar="DIR", default=None,
        help="a browser profile kept across runs (logins stay); never removed",
    )
    group.add_argument(
        "--storage-state", metavar="FILE", default=None,
        help="start with the cookies and local storage of FILE (Playwright's storageState JSON)",
    )
    group.add_argument(
        "--allow-dir", action="append", default=[], metavar="DIR",
        help="a directory files may be uploaded from (repeatable; default: none). The MCP server's "
        "file: pages may come from these too (default there: the current directory and the examples)",
    )
    group.add_argument(
        "--max-download-mb", type=positive_count, default=None, metavar="N",
        help="cancel a download past N megabytes and remove its partial file (default: 500)",
    )
    group.add_argument(
        "--max-downloads-total-mb", type=positive_count, default=None, metavar="N",
        help="cancel any download that takes this browser's downloads past N megabytes (default: 2000)",
    )


#: The launch flags that only a browser cdpagent starts can honour (``--allow-dir`` applies to any).
_LAUNCH_ONLY = (("headed", "--headed"), ("chrome_arg", "--chrome-arg"), ("user_data_dir", "--user-data-dir"),
                ("storage_state", "--storage-state"), ("max_download_mb", "--max-download-mb"),
                ("max_downloads_total_mb", "--max-downloads-total-mb"))  # fmt: skip


def launch_options(args: argparse.Namespace) -> dict[str, Any]:
    """The :func:`~cdpagent.launch` keyword arguments the launch flags in ``args`` ask for:
    ``headless``, ``args``, ``user_data_dir``, ``storage_state``, ``allow_dirs`` and the
    download caps given (``max_download_bytes``, ``max_downloads_total_bytes``)."""
    options: dict[str, Any] = {
        "headless": not args.headed,
        "args": tuple(args.chrome_arg),
        "user_data_dir": args.user_data_dir,
        "storage_state": args.storage_state,
        "allow_dirs": tuple(args.allow_dir),
    }
    if getattr(args, "max_download_mb", None):
        options["max_download_bytes"] = args.max_download_mb * 1_000_000
    if getattr(args, "max_downloads_total_mb", None):
        options["max_downloads_total_bytes"] = args.max_downloads_total_mb * 1_000_000
    return options


def launch_only_flags(args: argparse.Namespace) -> list[str]:
    """The flags in ``args`` that need a browser cdpagent launches (for a refusal that names them)."""
    return [flag for name, flag in _LAUNCH_ONLY if getattr(args, name)]


def add_trace_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--trace PATH``: record every operation of the run (``cdpagent trace show PATH`` replays it)."""
    parser.add_argument(
        "--trace", metavar="PATH", default=None,
        help="record every step of the run into PATH (JSON Lines; 'cdpagent trace show PATH' replays it)",
    )  # fmt: skip


def browser_from_flags(args: argparse.Namespace) -> AbstractAsyncContextManager[Browser]:
    """The browser the flags ask for: a session of ``--grid URL``'s hub, else a local launch.

    ``--allow-origin`` values, when the command has them, and ``--trace`` go to either. ``--webmcp``
    and the launch flags (:func:`launch_options`) need a local launch. Raises
    :class:`~cdpagent.errors.StepError` for ``--webmcp`` or a launch flag with ``--grid``.
    """
    from ..browser.launch import launch
    from ..remote.grid import connect_grid

    origins = getattr(args, "allow_origin", None) or []
    trace = getattr(args, "trace", None)
    if args.grid:
        if args.webmcp:
            raise StepError("--webmcp needs a local browser; a grid's browsers run without WebMCP")
        if given := launch_only_flags(args) + (["--allow-dir"] if args.allow_dir else []):
            raise StepError(f"{', '.join(given)} need a browser cdpagent launches, not one of --grid")
        opening = connect_grid(args.grid, allow_origins=origins, trace=trace)
        return _announced(opening, f"opening a session at {args.grid}")
    opening = launch(allow_origins=origins, webmcp=args.webmcp, trace=trace, **launch_options(args))
    return _announced(opening, "launching the browser")


@asynccontextmanager
async def _announced(opening: AbstractAsyncContextManager[Browser], what: str) -> AsyncIterator[Browser]:
    """``opening``'s browser, with progress on a terminal while it takes over a second to open."""
    async with AsyncExitStack() as stack:
        async with slow_step(what):
            browser = await stack.enter_async_context(opening)
        yield browser
