"""Bounding what a model's reply may put into the history (SPEC CX-2).

A reply is the model's data, and a hostile or broken server can make it as
large as it likes: a 2 MB tool name, a 2 MB ``tool_call_id``, 500 calls in one
reply. Everything a reply puts into the history is cut here, before it enters,
so that the history's budget holds whatever the server sends:

* a tool name the request did not offer is reduced to a legal function name of
  at most 64 characters (the loop then refuses it with ``UNKNOWN_ACTION``);
* a call id that is not a short plain identifier, or repeats one of the same
  reply, is replaced by ``call_<n>`` (the tool message answers that id);
* arguments longer than :data:`MAX_ARGUMENT_CHARS` are not run and not kept:
  the call is answered ``INVALID_ARGUMENT`` and its arguments become ``{}``;
* at most ``max_calls`` calls of one reply run; the next one is kept and
  answered with a refusal the model can read (how many were dropped, and that
  it may call them again), and the rest are dropped from the history;
* the reply's text is cut (head and tail kept) to the tool-result budget.

:func:`bound_reply` is pure.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from ..snapshot import codes as action_codes
from ..snapshot.receipts import ActionRef, Receipt, error_receipt
from ..snapshot.toolnames import legal_name
from .llm import Reply, ToolCall
from .tokens import TokenCounter, estimate_tokens
from .truncation import truncate_middle

__all__ = ["MAX_ARGUMENT_CHARS", "MAX_CALLS_PER_REPLY", "BoundedReply", "bound_reply", "refused_call"]

MAX_CALLS_PER_REPLY: Final = 8
"""How many tool calls of one reply run by default; the next is answered with a refusal."""
MAX_ARGUMENT_CHARS: Final = 16_000
"""The longest ``arguments`` text a call may have and still run."""
_ID: Final = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class BoundedReply(msgspec.Struct, frozen=True):
    """A reply cut to fit the history, and the answers of the calls that must not run."""

    reply: Reply
    """What goes into the history and what runs (names, ids, arguments and calls bounded)."""
    refusals: dict[str, Receipt]
    """Call id → the error receipt that answers it instead of running it."""
    dropped: int = 0
    """Calls of the reply neither run nor kept."""


def refused_call(name: str, code: str, message: str, available: list[str]) -> Receipt:
    """The receipt of tool call ``name`` refused with ``code`` before anything ran."""
    return error_receipt(ActionRef(name), code, message, available)


def bound_reply(
    reply: Reply,
    offered: list[str],
    *,
    max_calls: int = MAX_CALLS_PER_REPLY,
    max_content_tokens: int = 2000,
    counter: TokenCounter = estimate_tokens,
) -> BoundedReply:
    """``reply`` with every part that enters the history bounded (see the module's rules).

    ``offered`` are the tool names of the request the reply answers. Never raises.
    """
    names = set(offered)
    refusals: dict[str, Receipt] = {}
    used: set[str] = set()
    calls: list[ToolCall] = []
    for n, call in enumerate(reply.tool_calls[: max_calls + 1], start=1):
        name = call.name if call.name in names else legal_name(call.name)
        call_id = call.id if _ID.match(call.id) and call.id not in used else f"call_{n}"
        while call_id in used:
            call_id += "_"
        used.add(call_id)
        arguments = call.arguments
        if n > max_calls:
            extra = len(reply.tool_calls) - max_calls
            message = (
                f"not run: this reply made {len(reply.tool_calls)} tool calls and at most {max_calls} run "
                f"per reply; {extra} were not run (this one and the {extra - 1} after it). "
                "Call them again in your next reply if they are still needed."
            )
            refusals[call_id] = refused_call(name, action_codes.INVALID_ARGUMENT, message, list(offered))
            arguments = "{}"
        elif len(arguments) > MAX_ARGUMENT_CHARS:
            message = (
                f"not run: the arguments are {len(arguments)} characters long, more than "
                f"{MAX_ARGUMENT_CHARS}; they were not kept"
            )
            refusals[call_id] = refused_call(name, action_codes.INVALID_ARGUMENT, message, list(offered))
            arguments = "{}"
        calls.append(ToolCall(call_id, name, arguments))
    content = reply.content
    if content is not None:
        content = truncate_middle(content, max_content_tokens, counter)
    bounded = msgspec.structs.replace(reply, content=content, tool_calls=calls)
    return BoundedReply(bounded, refusals, max(len(reply.tool_calls) - len(calls), 0))
