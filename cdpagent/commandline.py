"""What every ``cdpagent`` command shares besides its own flags, and the ``examples`` command.

:mod:`cdpagent.cli` builds the parser and calls these: :func:`add_common_flags`
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
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from .bundled import examples
from .logs import configure, level_from
from .version import VERSION

__all__ = ["add_common_flags", "add_examples_command", "finish", "report_failure", "start_logging"]

Command = Callable[[argparse.Namespace], Awaitable[int]]

_VERBOSE_HELP = "log what cdpagent does on stderr (-v: steps and CDP traffic, -vv: also events)"
_DEBUG_HELP = "log everything and show a traceback on failure (also CDPAGENT_LOG=debug)"


def add_common_flags(parser: argparse.ArgumentParser, sub: Any | None = None) -> None:
    """Add ``--version`` to the program, ``-v``/``--verbose`` and ``--debug`` to it and to each command.

    Call it after every command was added to ``sub``.
    """
    if sub is None:
        parser.add_argument("--version", action="version", version=f"cdpagent {VERSION}")
        parser.add_argument("-v", "--verbose", action="count", default=0, help=_VERBOSE_HELP)
        parser.add_argument("--debug", action="store_true", default=False, help=_DEBUG_HELP)
        return
    for command in {id(p): p for p in sub.choices.values()}.values():
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
    from .script import describe_failure

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
        description=(
            "List the example pages shipped with cdpagent. Every command that takes a PAGE, "
            "script steps, role files and the MCP open_page tool accept example:NAME."
        ),
        epilog="example:\n  cdpagent examples\n  cdpagent observe example:todos",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print [{name, title, path}]")
    commands["examples"] = _examples
