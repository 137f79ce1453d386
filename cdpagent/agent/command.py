"""``cdpagent chat``: one instruction to the agent on a page, from the command line (SF-2, CX-5).

::

    cdpagent chat PAGE "instruction"             # a generic application section
    cdpagent chat --role ROLE.toml "instruction" # the role's section, page and method table

Progress goes to stderr (each request's size in tokens, each tool call with its
outcome, one line each); stdout gets the final answer, or with ``--json`` one
object ``{"answer", "stopped", "requests", "handoffs", "receipts", "transcript"}``.
The model is any OpenAI-compatible server: ``--base-url`` / ``OPENAI_BASE_URL``,
``--model`` / ``CDPAGENT_MODEL``, key from ``OPENAI_API_KEY``.

Exit status: 0 answered, 1 a cdpagent error (model, browser), 2 bad arguments or
role file, 3 the step limit ended the turn.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from ..console.argtypes import positive_count, seconds
from ..console.flags import add_browser_flags

__all__ = ["add_chat_command", "model_flags_missing", "run_chat"]

EXIT_BAD_INPUT = 2
EXIT_STEP_LIMIT = 3


def model_flags_missing(args: argparse.Namespace) -> str | None:
    """What ``--model`` / ``--base-url`` and the environment leave a model client without, in
    the flags' words (:func:`cdpagent.agent.llm.missing_setting`), or ``None``."""
    from .llm import missing_setting

    missing = missing_setting(args.model, args.base_url)
    if missing == "model":
        return "MODEL_NOT_CONFIGURED: no model: pass --model or set CDPAGENT_MODEL"
    if missing == "key":
        return "MODEL_NOT_CONFIGURED: no API key: set OPENAI_API_KEY, or pass --base-url for a local server"
    return None


def _progress(line: str) -> None:
    print(f"cdpagent: {line}", file=sys.stderr, flush=True)


def add_chat_command(sub: Any, commands: dict[str, Callable[[argparse.Namespace], Awaitable[int]]]) -> None:
    """Add the ``chat`` subcommand to ``sub`` (an argparse subparsers object) and to ``commands``."""
    chat = sub.add_parser("chat", help="let the agent do one instruction on a page (needs a model server)")
    chat.add_argument(
        "words", nargs="+", metavar="[PAGE] INSTRUCTION", help="the page (unless --role) and the instruction"
    )
    chat.add_argument(
        "--role",
        default=None,
        metavar="ROLE",
        help="a role file (page, application, methods) or a shipped role's name: todos, writing",
    )
    chat.add_argument(
        "--base-url", default=None, help="the OpenAI-compatible base URL (default $OPENAI_BASE_URL)"
    )
    chat.add_argument("--model", default=None, help="the model name (default $CDPAGENT_MODEL)")
    chat.add_argument(
        "--max-steps",
        type=positive_count,
        default=20,
        metavar="N",
        help="model requests per turn (default 20)",
    )
    chat.add_argument(
        "--timeout", type=seconds, default=120.0, metavar="S", help="seconds per model try (default 120)"
    )
    chat.add_argument(
        "--yes",
        action="store_true",
        help="unattended: accept every confirmation an action asks for; answer page dialogs at once",
    )
    chat.add_argument("--json", action="store_true", help="print the result and transcript as JSON")
    chat.add_argument("--allow-origin", action="append", default=[], help="an extra local origin")
    add_browser_flags(chat)
    commands["chat"] = run_chat


async def run_chat(args: argparse.Namespace) -> int:
    """Run ``cdpagent chat`` for parsed ``args``; returns the exit status (see the module doc).

    Raises the model's :class:`~cdpagent.agent.codes.ModelError` and driver
    errors (the CLI prints them and exits 1).
    """
    from ..act.perform import ConfirmCallback
    from ..console.flags import browser_from_flags
    from ..console.terminal import accept_all, ask_on_terminal
    from . import Agent, Model, RoleError, generic_role, load_role

    wanted = 1 if args.role else 2
    if len(args.words) != wanted:
        usage = '--role ROLE.toml "instruction"' if args.role else 'PAGE "instruction"'
        _progress(f"chat takes {usage}")
        return EXIT_BAD_INPUT
    if args.max_steps < 1:
        _progress("--max-steps must be at least 1")
        return EXIT_BAD_INPUT
    instruction = args.words[-1]
    try:
        role = load_role(args.role) if args.role else generic_role(args.words[0])
    except RoleError as error:
        _progress(str(error))
        return EXIT_BAD_INPUT
    if (missing := model_flags_missing(args)) is not None:
        _progress(missing)
        return EXIT_BAD_INPUT
    confirm: ConfirmCallback = accept_all if args.yes else ask_on_terminal
    model = Model(args.model, base_url=args.base_url, timeout=args.timeout)
    async with model, browser_from_flags(args) as browser:
        agent = Agent(
            browser,
            model,
            role,
            max_steps=args.max_steps,
            confirm=confirm,
            unattended=args.yes,
            progress=_progress,
        )
        result = await agent.run(instruction)
    if args.json:
        value = {
            "answer": result.answer,
            "stopped": result.stopped,
            "requests": result.requests,
            "handoffs": result.handoffs,
            "receipts": msgspec.to_builtins(result.receipts),
            "transcript": result.transcript,
        }
        sys.stdout.write(msgspec.json.encode(value).decode() + "\n")
    else:
        sys.stdout.write(result.answer + "\n")
    sys.stdout.flush()
    return EXIT_STEP_LIMIT if result.stopped else 0
