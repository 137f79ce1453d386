"""The ``cdpagent`` command line (SF-2).

Machine output is JSON on stdout; progress goes to stderr; a failure exits
non-zero with a one-line reason on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from ..agent.command import add_chat_command
from ..console.argtypes import count, seconds, utf8_file
from ..console.flags import add_browser_flags, add_launch_flags, browser_from_flags, launch_options
from ..console.slow_steps import slow_step
from ..console.stopping import run_until_signal
from ..eval.command import add_eval_command
from ..mcp_server.command import add_command as add_mcp_command
from ..trace.viewer import add_trace_command
from .common import add_common_flags, add_examples_command, finish, report_failure, start_logging

__all__ = ["add_browser_flags", "browser_from_flags", "main"]

Command = Callable[[argparse.Namespace], Awaitable[int]]


def _progress(message: str) -> None:
    print(f"cdpagent: {message}", file=sys.stderr, flush=True)


async def _demo(args: argparse.Namespace) -> int:
    """Walk through the bundled examples (see :mod:`cdpagent.commandline.demo`)."""
    from .demo import run_demo

    await run_demo(options=launch_options(args))
    return 0


def _print_json(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")
    sys.stdout.flush()


async def _call(args: argparse.Namespace) -> int:
    """``cdpagent call PAGE METHOD [ARGS_JSON]``: print the method's JSON result (PA-4).

    On a ``PAGE_API_*`` failure prints the error envelope and returns 1.
    """
    from ..errors import PageApiError
    from ..runtime.jsonstrict import args_from_json

    try:
        call_args = args_from_json(args.args_json) if args.args_json is not None else None
    except PageApiError as error:
        _print_json(error.envelope())
        _progress(f"{error.code}: {error.message}")
        return 1
    async with browser_from_flags(args) as browser:
        tab = await browser.open(args.page)
        try:
            result = await tab.invoke(args.method, call_args, timeout=args.timeout)
        except PageApiError as error:
            _print_json(error.envelope())
            _progress(f"{error.code}: {error.message}")
            return 1
    _print_json(result)
    return 0


async def _script(args: argparse.Namespace) -> int:
    """``cdpagent script PAGE STEPS.jsonl``: one JSON result line per step (SF-2)."""
    import trio

    from ..act.perform import ConfirmCallback
    from ..console.terminal import accept_all, ask_on_terminal
    from ..ops.script import ScriptContext, run_steps
    from ..runtime.threads import Thread

    confirm: ConfirmCallback = accept_all if args.yes else ask_on_terminal
    if args.steps == "-":
        text = await trio.to_thread.run_sync(sys.stdin.read)
    else:
        try:  # checked before a browser is launched
            text = await trio.to_thread.run_sync(utf8_file, args.steps)
        except ValueError as error:
            _progress(str(error))
            return 2
    lines = text.splitlines()
    async with browser_from_flags(args) as browser:
        if args.standalone:
            thread = None
            tab = await browser.open(args.page)
        else:
            thread = Thread(browser)
            tab = await thread.open(args.page)
        clean = await run_steps(ScriptContext(tab, thread, confirm, unattended=args.yes), lines, _print_json)
    if not clean:
        _progress("a step failed or could not run; see its result line")
    return 0 if clean else 1


def _add_page_api_commands(sub: Any, commands: dict[str, Command]) -> None:
    call = sub.add_parser("call", help="call a page's registered method and print its JSON result")
    call.add_argument("page", help="file path or URL of the page")
    call.add_argument("method", help="name of the registered method")
    call.add_argument("args_json", nargs="?", default=None, help="args as a JSON object (default {})")
    call.add_argument("--timeout", type=seconds, default=30.0, help="seconds (default 30)")
    call.add_argument("--allow-origin", action="append", default=[], help="an extra local origin")
    add_browser_flags(call)
    commands["call"] = _call
    script = sub.add_parser("script", help="run JSON-lines steps against one tab")
    script.add_argument("page", help="file path or URL of the page")
    script.add_argument("steps", help="a .jsonl file of steps, or - for stdin")
    script.add_argument("--standalone", action="store_true", help="open a tab that belongs to no thread")
    script.add_argument("--allow-origin", action="append", default=[], help="an extra local origin")
    script.add_argument(
        "--yes",
        action="store_true",
        help="unattended: accept every confirmation an act step asks for; answer page dialogs at once",
    )
    add_browser_flags(script)
    commands["script"] = _script


async def _observe(args: argparse.Namespace) -> int:
    """``cdpagent observe PAGE [--json] [--max-records N …]``: the page section or the JSON object.

    Prints the rendered Markdown, or with ``--json`` one object
    ``{"observation", "text", "tools"}`` (OB-9). Budgets come from the flags.
    """
    from ..snapshot.options import ObserveOptions

    overrides = {
        name: getattr(args, name)
        for name in ("max_records", "max_actions", "max_scopes", "max_feedback", "settle_timeout_ms")
        if getattr(args, name) is not None
    }
    options = ObserveOptions(include=tuple(args.include), infer=args.infer, **overrides)
    async with browser_from_flags(args) as browser:
        tab = await browser.open(args.page)
        async with slow_step(f"observing {args.page}"):
            result = await tab.view(options, timeout=args.timeout)
    if args.json:
        _print_json(result)
    else:
        sys.stdout.write(result.text)
        sys.stdout.flush()
    return 0


def _add_observe_command(sub: Any, commands: dict[str, Command]) -> None:
    observe = sub.add_parser("observe", help="print the bounded observation of a page")
    observe.add_argument("page", help="file path or URL of the page")
    observe.add_argument("--json", action="store_true", help='print {"observation", "text", "tools"}')
    for flag, meaning in (
        ("--max-records", "records with full fields (default 20)"),
        ("--max-actions", "folded action entries (default 40)"),
        ("--max-scopes", "regions listed (default 24)"),
        ("--max-feedback", "feedback items (default 8)"),
        ("--settle-timeout-ms", "settle deadline (default 1500)"),
    ):
        observe.add_argument(flag, type=count, default=None, metavar="N", help=meaning)
    observe.add_argument(
        "--include", action="append", default=[], metavar="ID", help="a record id to collect in full"
    )
    add_browser_flags(observe)
    observe.add_argument(
        "--infer",
        choices=("off", "undeclared", "all"),
        default=None,
        help="infer from HTML and ARIA (default: only when the page declares nothing)",
    )
    observe.add_argument(
        "--timeout", type=seconds, default=10.0, metavar="S", help="seconds the page may take to answer (10)"
    )
    commands["observe"] = _observe


def _parser() -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    parser = argparse.ArgumentParser(
        prog="cdpagent",
        description="Operate web pages for LLM agents through what the page declares.",
    )
    add_common_flags(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands: dict[str, Command] = {}
    add_launch_flags(sub.add_parser("demo", help="launch a browser and walk through the bundled examples"))
    commands["demo"] = _demo
    _add_page_api_commands(sub, commands)
    _add_observe_command(sub, commands)
    add_chat_command(sub, commands)
    add_mcp_command(sub, commands)
    add_eval_command(sub, commands)
    add_examples_command(sub, commands)
    add_trace_command(sub, commands)
    add_common_flags(parser, sub)
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cdpagent`` console script; returns the exit status."""
    parser, commands = _parser()
    args = parser.parse_args(argv)
    command = commands[args.command]
    if (bad := start_logging(args)) is not None:
        return bad
    try:
        # mcp ends on its own signals (stdio needs it); every other command unwinds on them
        own_signals = args.command == "mcp"
        import trio  # here, not at the top: --version and --help need no Trio

        result: Any = trio.run(command, args) if own_signals else trio.run(run_until_signal, command, args)
    except KeyboardInterrupt:
        print("cdpagent: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        # One line with its reason (and with --debug the traceback); a closed stdout is no failure.
        return report_failure(exc, args)
    return finish(int(result))

