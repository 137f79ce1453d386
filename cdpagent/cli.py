"""The ``cdpagent`` command line (SF-2).

Machine output is JSON on stdout; progress goes to stderr; a failure exits
non-zero with a one-line reason on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio

from .bundled import example_page
from .errors import CDPAgentError

__all__ = ["main"]

Command = Callable[[argparse.Namespace], Awaitable[int]]


def _progress(message: str) -> None:
    print(f"cdpagent: {message}", file=sys.stderr, flush=True)


async def _demo(args: argparse.Namespace) -> int:
    """Launch a browser, open the bundled pages and show what cdpagent does with them."""
    from .browser import launch

    started = time.perf_counter()
    async with launch() as browser:
        _progress(f"browser launched in {time.perf_counter() - started:.2f} s")
        tab = await browser.open(example_page("hello"))
        title = await tab.session.send(
            "Runtime.evaluate", {"expression": "document.title", "returnByValue": True}
        )
        print(f"opened {tab.id}: {title['result']['value']!r}")
        samples = []
        for _ in range(200):
            t0 = time.perf_counter()
            await tab.session.send("Runtime.evaluate", {"expression": "1"})
            samples.append(time.perf_counter() - t0)
        samples.sort()
        print(
            f"CDP round trip (Runtime.evaluate '1', {len(samples)} calls): "
            f"p50 {samples[len(samples) // 2] * 1e6:.0f} µs, "
            f"p99 {samples[int(len(samples) * 0.99)] * 1e6:.0f} µs"
        )
    return 0


def _parser() -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    parser = argparse.ArgumentParser(
        prog="cdpagent",
        description="Operate web pages for LLM agents through what the page declares.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands: dict[str, Command] = {}
    sub.add_parser("demo", help="launch a browser and walk through the bundled examples")
    commands["demo"] = _demo
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cdpagent`` console script; returns the exit status."""
    parser, commands = _parser()
    args = parser.parse_args(argv)
    command = commands[args.command]
    try:
        result: Any = trio.run(command, args)
    except KeyboardInterrupt:
        print("cdpagent: interrupted", file=sys.stderr)
        return 130
    except CDPAgentError as exc:
        print(f"cdpagent: {exc}", file=sys.stderr)
        return 1
    return int(result)


if __name__ == "__main__":
    sys.exit(main())
