"""What every ``cdpagent`` command shares besides its own flags, and the ``examples`` command.

:mod:`cdpagent.commandline.main` builds the parser and calls these: :func:`add_common_flags`
(``--version``, ``-v``/``--verbose``, ``--debug`` on the program and on every
command), :func:`add_examples_command`; then around the command's run
:func:`start_logging`, :func:`report_failure` and :func:`finish`.

A closed stdout (``cdpagent demo | head``) ends the command quietly with status 0,
as other Unix tools do: the reader has all it wanted.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from ..cdp.logs import configure, level_from
from ..version import VERSION

__all__ = [
    "COMMAND_HELP",
    "add_common_flags",
    "add_examples_command",
    "finish",
    "report_failure",
    "start_logging",
]

Command = Callable[[argparse.Namespace], Awaitable[int]]

_VERBOSE_HELP = "log what cdpagent does on stderr (-v: steps and CDP traffic, -vv: also events)"
_DEBUG_HELP = "log everything and show a traceback on failure (also CDPAGENT_LOG=debug)"


#: Each command's description and examples, shown by ``cdpagent COMMAND --help``.
COMMAND_HELP: dict[str, tuple[str, str]] = {
    "demo": (
        "Launch a headless Chromium and walk through the bundled example pages: the driver, "
        "the Page Agent API, the observation, actions and their receipts.",
        "cdpagent demo\ncdpagent demo | head",
    ),
    "call": (
        "Open PAGE, call one method the page registered with window.agotalk.expose and print its "
        "JSON value. A PAGE_API_* failure prints {\"ok\": false, \"error\": {code, message}} and exits 1.",
        "cdpagent call example:editor read_current\n"
        "cdpagent call example:editor apply_change "
        "'{\"change\": {\"kind\": \"insert\", \"index\": 0, \"text\": \"hi\"}, \"expectedRevision\": 1}'",
    ),
    "script": (
        "Open PAGE in one tab and run one JSON step per line of STEPS (every operation: observe, act, "
        "invoke, navigate, back, reload, screenshot, wait_for, … as docs/surfaces/script.md lists; and "
        "wait, user_click, user_type); print one JSON result line per step. "
        "The first failed step stops the script with exit status 1.",
        "echo '{\"op\": \"observe\"}' | cdpagent script example:todos -\n"
        "cdpagent script example:todos steps.jsonl --yes",
    ),
    "observe": (
        "Print the bounded observation of PAGE as the agent reads it (Markdown page section), or with "
        "--json the object {observation, text, tools}. Budgets come from the flags.",
        "cdpagent observe example:todos\n"
        "cdpagent observe 'example:inventory?rows=1000' --json --max-records 5",
    ),
    "chat": (
        "Let the agent carry out one instruction on a page with an OpenAI-compatible model, and print "
        "its answer. Needs a model: --base-url (a local server) or OPENAI_API_KEY, and --model or "
        "CDPAGENT_MODEL.",
        "cdpagent chat example:todos \"mark the weekly report done\" --base-url http://127.0.0.1:8080/v1 "
        "--model qwen\ncdpagent chat --role writing \"review my essay\" --json --yes",
    ),
    "mcp": (
        "Serve cdpagent's tools to MCP clients over stdio (default) or streamable HTTP. The browser "
        "starts on the first tool call (--eager: at once) and closes with the server. Client "
        "configurations: docs/mcp.md.",
        "cdpagent mcp --page-tools --eager\ncdpagent mcp --http 127.0.0.1:8765 --token T\n"
        "cdpagent mcp --connect http://127.0.0.1:9222",
    ),
    "eval": (
        "Run every task of a JSONL task suite with the agent and score it by the page; "
        "'eval compare RUN_A RUN_B' prints the per-task difference of two runs.",
        "cdpagent eval tasks.jsonl --model qwen --base-url http://127.0.0.1:8080/v1 --repeat 3\n"
        "cdpagent eval compare eval-runs/A eval-runs/B",
    ),
    "trace": (
        "Turn a trace recorded with --trace PATH (every command that starts a browser takes it) into one "
        "self-contained HTML page that replays the run step by step: what the model saw, what it did, "
        "what changed, a thumbnail and the timings. Format and bounds: docs/trace.md.",
        "cdpagent script example:todos steps.jsonl --trace run.jsonl\n"
        "cdpagent trace show run.jsonl -o run.html",
    ),
    "examples": (
        "List the example pages shipped with cdpagent. Every command that takes a PAGE, script "
        "steps, role files and the MCP open_page tool accept example:NAME.",
        "cdpagent examples\ncdpagent observe example:todos",
    ),
}


def add_common_flags(parser: argparse.ArgumentParser, sub: Any | None = None) -> None:
    """Add ``--version`` to the program, ``-v``/``--verbose`` and ``--debug`` to it and to each command.

    Call it after every command was added to ``sub``.
    """
    if sub is None:
        parser.epilog = "Run 'cdpagent COMMAND --help' for a command's flags and examples."
        parser.add_argument("--version", action="version", version=f"cdpagent {VERSION}")
        parser.add_argument("-v", "--verbose", action="count", default=0, help=_VERBOSE_HELP)
        parser.add_argument("--debug", action="store_true", default=False, help=_DEBUG_HELP)
        return
    for name, command in sub.choices.items():
        description, examples = COMMAND_HELP.get(name, (None, None))
        if description and not command.description:
            command.description = textwrap.fill(description, 78)
        if examples and not command.epilog:
            command.epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples.splitlines())
            command.formatter_class = argparse.RawDescriptionHelpFormatter
        # SUPPRESS: a flag given before the command is not reset by the command's defaults.
        command.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS, help=_VERBOSE_HELP)
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)


def start_logging(args: argparse.Namespace) -> int | None:
    """Configure the ``cdpagent`` loggers from ``args`` and ``CDPAGENT_LOG``; an exit status (2) when bad."""
    try:
        level = level_from(getattr(args, "verbose", 0), getattr(args, "debug", False), os.environ)
    except ValueError as error:
        print(f"cdpagent: {error}", file=sys.stderr)
        return 2
    configure(level)
    return None


def _closed_stdout(error: BaseException) -> bool:
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return isinstance(error, BrokenPipeError)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def report_failure(error: BaseException, args: argparse.Namespace) -> int:
    """Say why the command failed (one line; the traceback too with ``--debug``); the exit status.

    A closed stdout is no failure: it returns 0 and says nothing.
    """
    if _closed_stdout(error):
        _quiet_stdout()
        return 0
    from ..ops.script import describe_failure

    if getattr(args, "debug", False) or os.environ.get("CDPAGENT_LOG", "").strip().lower() == "debug":
        traceback.print_exception(error, file=sys.stderr)
    print(f"cdpagent: {describe_failure(error)}", file=sys.stderr)
    return 1


def finish(status: int) -> int:
    """Flush stdout and return ``status``; 0 when stdout was closed under us."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    return status


async def _examples(args: argparse.Namespace) -> int:
    """``cdpagent examples [--json]``: the bundled example pages, one per line."""
    from ..browser.bundled import examples  # not at the top: `cdpagent --help` needs no browser

    found = examples()
    if args.json:
        sys.stdout.write(msgspec.json.encode(found).decode() + "\n")
    else:
        width = max(len(e.name) for e in found) + len("example:")
        for example in found:
            sys.stdout.write(f"{'example:' + example.name:<{width}}  {example.title}\n")
    sys.stdout.flush()
    return 0


def add_examples_command(sub: Any, commands: dict[str, Command]) -> None:
    """Add ``cdpagent examples`` to ``sub`` (an argparse subparsers object) and to ``commands``."""
    parser = sub.add_parser(
        "examples",
        help="list the bundled example pages (use them as example:NAME wherever a page is taken)",
    )
    parser.add_argument("--json", action="store_true", help="print [{name, title, path}]")
    commands["examples"] = _examples
