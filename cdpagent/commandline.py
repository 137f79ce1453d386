"""What every ``cdpagent`` command shares besides its own flags, and the ``examples`` command.

:mod:`cdpagent.cli` builds the parser and calls these: :func:`add_common_flags`
(``--version``), :func:`add_examples_command`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from .bundled import examples
from .version import VERSION

__all__ = ["add_common_flags", "add_examples_command"]

Command = Callable[[argparse.Namespace], Awaitable[int]]


def add_common_flags(parser: argparse.ArgumentParser) -> None:
    """Add the flags of the ``cdpagent`` program itself (``--version``)."""
    parser.add_argument("--version", action="version", version=f"cdpagent {VERSION}")


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
