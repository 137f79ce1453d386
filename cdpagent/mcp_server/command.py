"""``cdpagent mcp``: serve the Agent Surface over stdio (default) or streamable HTTP.

stdio: the client runs ``cdpagent mcp`` and speaks JSON-RPC on its stdin/stdout;
the server ends when stdin closes (the client exited, was killed, or hung up),
on SIGTERM/SIGHUP, or on Ctrl-C, and takes its browser with it.

HTTP: ``cdpagent mcp --http 127.0.0.1:8765`` serves ``http://127.0.0.1:8765/mcp``
(port 0 picks a free port; the URL is printed on stderr) until SIGTERM/SIGHUP or
Ctrl-C. A non-loopback address needs ``--token`` (or ``CDPAGENT_MCP_TOKEN``), and
``--allow-host`` names the ``Host`` clients use to reach it (the machine's address).

Opt-in tools: ``--allow pdf`` serves ``pdf``; ``--vision`` (``--allow vision``) serves
``click_at`` and ``type_at``. ``--download-dir DIR`` keeps the pages' downloads there.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..console.argtypes import positive_count
from ..console.flags import add_browser_flags, launch_only_flags, launch_options
from ..ops.opt_ins import OPT_INS
from .defaults import DEFAULT_MAX_TABS

# Trio is imported by the functions that serve: `cdpagent --help` builds this parser without it.
if TYPE_CHECKING:
    import trio

    from .server import SurfaceServer

__all__ = ["TOKEN_ENV", "add_command"]

TOKEN_ENV = "CDPAGENT_MCP_TOKEN"


async def _stop_on_signal(scope: trio.CancelScope) -> None:
    import trio

    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async for _ in signals:
            scope.cancel()
            return


async def _exit_on_signal(server: SurfaceServer) -> None:
    """stdio: on SIGTERM/SIGHUP close the browser, then end the process.

    The SDK reads stdin in a worker thread that no cancellation interrupts (it
    returns on the next line or EOF), so a cancelled server would wait for its
    client. Once the browser is closed nothing of ours is left to clean up.
    """
    import trio
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async for _ in signals:
            await server.surface.aclose()
            sys.stderr.flush()
            os._exit(0)


async def run(args: argparse.Namespace) -> int:
    """Serve until the client goes away or a signal arrives; returns the exit status (2: bad address)."""
    import trio

    from .http import BindRefused, check_allowed_hosts, check_bind, serve_http, split_address
    from .server import SurfaceConfig, open_server

    token = args.token or os.environ.get(TOKEN_ENV) or None
    address: tuple[str, int] | None = None
    if args.http is not None:
        try:
            address = split_address(args.http)
            check_bind(address[0], token)
            check_allowed_hosts(args.allow_host, token)
        except BindRefused as exc:
            print(f"cdpagent: {exc}", file=sys.stderr)
            return 2
    if args.webmcp and (args.grid or args.connect):
        print("cdpagent: --webmcp needs a browser that cdpagent launches", file=sys.stderr)
        return 2
    if (args.grid or args.connect) and (given := launch_only_flags(args)):
        print(f"cdpagent: {', '.join(given)} need a browser that cdpagent launches", file=sys.stderr)
        return 2
    config = SurfaceConfig(
        connect=args.connect,
        grid=args.grid,
        webmcp=args.webmcp,
        allow_origins=tuple(args.allow_origin),
        yes=args.yes,
        page_tools=args.page_tools,
        allow_dirs=tuple(args.allow_dir),
        browser_options=launch_options(args),
        max_tabs=args.max_tabs,
        capabilities=tuple(args.allow),
        download_dir=args.download_dir,
        trace=args.trace,
    )
    async with open_server(config) as server, trio.open_nursery() as nursery:
        if args.eager:
            # The first tool call then answers at once, within a client's short call timeout.
            await server.surface.browser()
        if address is None:
            nursery.start_soon(_exit_on_signal, server)
            await server.run_stdio_async()
        else:
            nursery.start_soon(_stop_on_signal, nursery.cancel_scope)
            serve = partial(
                serve_http,
                server,
                *address,
                token=token,
                allow_hosts=args.allow_host,
                on_session_end=server.surface.guard.end_session,
            )
            url = await nursery.start(serve)
            print(f"cdpagent: MCP server listening on {url}", file=sys.stderr, flush=True)
            await trio.sleep_forever()
        nursery.cancel_scope.cancel()
    return 0


def add_command(sub: Any, commands: dict[str, Callable[[argparse.Namespace], Awaitable[int]]]) -> None:
    """Add the ``mcp`` subcommand to the ``cdpagent`` parser (``sub``) and to ``commands``."""
    mcp = sub.add_parser("mcp", help="serve cdpagent's tools to MCP clients (stdio, or --http)")
    mcp.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp")
    mcp.add_argument("--token", help=f"require 'Authorization: Bearer TOKEN' (default ${TOKEN_ENV})")
    mcp.add_argument("--connect", metavar="URL", help="attach to a running browser instead of launching")
    mcp.add_argument("--allow-origin", action="append", default=[], help="an extra origin open_page may open")
    mcp.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="with --token: a further Host name clients may use (this machine's address or DNS name)",
    )
    mcp.add_argument(
        "--max-tabs",
        type=positive_count,
        default=DEFAULT_MAX_TABS,
        metavar="N",
        help=f"open tabs one MCP session may hold (default {DEFAULT_MAX_TABS})",
    )
    mcp.add_argument(
        "--allow",
        action="append",
        default=[],
        choices=OPT_INS,
        metavar="CAPABILITY",
        help=f"serve an opt-in operation group: {', '.join(OPT_INS)} (pdf: the pdf tool)",
    )
    mcp.add_argument(
        "--vision",
        action="append_const",
        const="vision",
        dest="allow",
        help="serve click_at and type_at (coordinates, for canvas/SVG pages); same as --allow vision",
    )
    mcp.add_argument("--download-dir", metavar="DIR", help="save the pages' downloads here")
    mcp.add_argument(
        "--yes",
        action="store_true",
        help="accept every confirmation and answer page dialogs at once (unattended runs)",
    )
    mcp.add_argument(
        "--page-tools", action="store_true", help="also list the current page's declared actions as tools"
    )
    mcp.add_argument("--eager", action="store_true", help="start the browser now, not on the first tool call")
    add_browser_flags(mcp)
    commands["mcp"] = run
