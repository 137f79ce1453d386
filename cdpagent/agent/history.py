"""Budgets and compaction of the conversation history (SPEC CX-2, CX-3).

The history is the ``messages`` of a request: user, assistant and tool
messages in OpenAI's chat format (plain dicts). It never holds the page
observation, which lives only in the system message of each request.

Rules this module enforces:

* the history may use ``max_tokens - reserve_for_output`` tokens (the
  *available* budget); when it passes ``compact_ratio`` of that, it is compacted;
* compaction keeps the last ``keep_recent`` messages verbatim and replaces the
  older ones with one synthetic user message whose first line is
  :data:`SUMMARY_HEADER`;
* the cut never separates an assistant message's ``tool_calls`` from their
  ``tool`` results: it only falls before a user message or an assistant message;
* after compaction the history is under the available budget, provably: the
  summary is cut to a quarter of it, whole oldest turns move into the summary
  while the rest is too large, and if one turn alone is still too large its
  texts are cut (head and tail kept) until it fits.

:func:`compact` is pure (no IO); :func:`compact_async` is the same for a
summariser that is asynchronous (a model-written summary).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

import msgspec

from .tokens import MESSAGE_OVERHEAD, TokenCounter, estimate_tokens, message_tokens, messages_tokens
from .truncation import truncate_middle

__all__ = [
    "SUMMARY_HEADER",
    "AsyncSummariser",
    "Budgets",
    "Message",
    "Summariser",
    "compact",
    "compact_async",
    "join",
    "needs_compaction",
    "outcome",
    "split",
    "summarise_conversation",
]

Message = dict[str, Any]
"""One chat message as sent to ``/chat/completions`` (role, content, tool_calls, tool_call_id)."""

Summariser = Callable[[list[Message]], str]
"""Turns the older messages into summary text (the header is added if missing)."""
AsyncSummariser = Callable[[list[Message]], Awaitable[str]]
"""The same, asynchronously (e.g. :class:`~cdpagent.agent.summary.ModelSummariser`)."""

SUMMARY_HEADER: Final = "[Conversation history summary]"
_LINE_CHARS: Final = 240


class Budgets(msgspec.Struct, frozen=True, rename="camel"):
    """The token budgets of a conversation (the seed's defaults; JSON/TOML keys in camelCase)."""

    max_tokens: int = 8192
    """The whole history's budget, reserve included."""
    reserve_for_output: int = 1024
    """Kept free for the model's answer."""
    compact_ratio: float = 0.8
    """Compaction starts when the history passes this share of the available budget."""
    keep_recent: int = 6
    """Messages kept verbatim by a compaction."""
    max_tool_result_tokens: int = 1000
    """A longer tool result keeps its head and tail (:func:`~.truncation.truncate_middle`)."""

    def __post_init__(self) -> None:
        if self.max_tokens - self.reserve_for_output < 256:
            raise ValueError("maxTokens - reserveForOutput must leave at least 256 tokens for the history")
        if not 0 < self.compact_ratio <= 1:
            raise ValueError("compactRatio must be in (0, 1]")
        if self.keep_recent < 0 or self.max_tool_result_tokens < 16:
            raise ValueError("keepRecent must be ≥ 0 and maxToolResultTokens ≥ 16")

    @property
    def available(self) -> int:
        """Tokens the history may use: ``max_tokens - reserve_for_output``."""
        return self.max_tokens - self.reserve_for_output

    @property
    def threshold(self) -> int:
        """The history size past which :func:`compact` acts."""
        return int(self.available * self.compact_ratio)


def needs_compaction(
    messages: list[Message], budgets: Budgets, counter: TokenCounter = estimate_tokens
) -> bool:
    """Whether ``messages`` cost more than ``budgets.threshold`` tokens."""
    return messages_tokens(messages, counter) > budgets.threshold


def _turn_starts(messages: list[Message]) -> list[int]:
    """Indexes where a cut may fall: before a user message or an assistant message."""
    return [i for i, m in enumerate(messages) if m.get("role") in ("user", "assistant", "system")]


def split(
    messages: list[Message], budgets: Budgets, counter: TokenCounter = estimate_tokens
) -> tuple[list[Message], list[Message]]:
    """Divide ``messages`` into (older → summary, recent → verbatim).

    Recent starts ``keep_recent`` messages from the end, moved back to the
    nearest user or assistant message so that no tool result is parted from its
    call, then shortened by whole turns while it costs more than three quarters
    of the available budget (the last turn always stays).
    Returns ``([], messages)`` when there is nothing older to summarise.
    """
    starts = _turn_starts(messages)
    if not starts:
        return [], messages
    wanted = max(len(messages) - budgets.keep_recent, 0)
    # The first legal cut at or before the wanted one keeps tool results with their call.
    cut = max((s for s in starts if s <= wanted), default=starts[0])
    room = budgets.available * 3 // 4
    later = [s for s in starts if s > cut]
    while later and messages_tokens(messages[cut:], counter) > room:
        cut = later.pop(0)
    return messages[:cut], messages[cut:]


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _LINE_CHARS else flat[: _LINE_CHARS - 1] + "…"


def outcome(content: str) -> str:
    """The outcome of a tool result: ok, or its error code and message; never the page."""
    try:
        value = json.loads(content)
    except ValueError:
        return "result: " + _one_line(content)[:80]
    result = value.get("result", value) if isinstance(value, dict) else value
    if isinstance(result, dict):
        error = result.get("error")
        if isinstance(error, dict):
            code = error.get("code", "ERROR")
            return f"failed {code}: {_one_line(str(error.get('message', '')))[:120]}"
        changed = result.get("changed")
        if result.get("ok") is True and isinstance(changed, dict):
            records = changed.get("records") or {}
            # "changed" maps ids to field changes; "added" and "removed" list ids.
            ids = [str(i) for key in ("changed", "added", "removed") for i in records.get(key) or ()][:5]
            return "ok" + (f", records changed: {', '.join(ids)}" if ids else "")
        if result.get("ok") is True:
            return "ok"
    return "returned " + _one_line(json.dumps(result, ensure_ascii=False))[:80]


def summarise_conversation(messages: list[Message]) -> str:
    """The default summariser: one line per request, call with its outcome, and answer.

    Works without a model call. It records the conversation — what the user
    asked, which tools ran with which arguments and how their results ended, what
    the assistant said — never page content. An earlier summary is carried over.
    """
    lines = [SUMMARY_HEADER]
    names: dict[str, str] = {}
    for m in messages:
        role = m.get("role")
        content = m.get("content")
        text = content if isinstance(content, str) else ""
        if role == "user" and text.startswith(SUMMARY_HEADER):
            lines += text.splitlines()[1:]
        elif role == "user":
            lines.append(f"- user: {_one_line(text)}")
        elif role == "assistant":
            for call in m.get("tool_calls") or ():
                function = call.get("function", {})
                names[str(call.get("id"))] = (
                    f"{function.get('name')} {_one_line(str(function.get('arguments')))}"
                )
            if text:
                lines.append(f"- assistant: {_one_line(text)}")
        elif role == "tool":
            call = names.get(str(m.get("tool_call_id")), "a tool")
            lines.append(f"- called {call} → {outcome(text)}")
    return "\n".join(lines)


def _shrink(messages: list[Message], limit: int, counter: TokenCounter) -> list[Message]:
    """Cut the texts of ``messages`` (head and tail kept) so that together they cost ≤ ``limit``."""
    texts = sum(1 + len(m.get("tool_calls") or ()) for m in messages)
    fixed = sum(MESSAGE_OVERHEAD * (1 + len(m.get("tool_calls") or ())) for m in messages)
    fixed += sum(counter(str(m.get("tool_call_id", ""))) for m in messages)
    fixed += sum(
        counter(str(c.get("function", {}).get("name", "")))
        for m in messages
        for c in m.get("tool_calls") or ()
    )
    share = max((limit - fixed) // max(texts, 1), 0)
    out: list[Message] = []
    for m in messages:
        m = dict(m)
        if isinstance(m.get("content"), str):
            m["content"] = truncate_middle(m["content"], share, counter)
        if m.get("tool_calls"):
            calls = []
            for c in m["tool_calls"]:
                function = dict(c.get("function", {}))
                function["arguments"] = truncate_middle(str(function.get("arguments", "")), share, counter)
                calls.append({**c, "function": function})
            m["tool_calls"] = calls
        out.append(m)
    return out


def join(
    summary: str, recent: list[Message], budgets: Budgets, counter: TokenCounter = estimate_tokens
) -> list[Message]:
    """The compacted history: the summary message, then ``recent``, within the available budget.

    The summary gets at most a quarter of the available budget (head and tail
    kept); ``recent`` is cut to fit what remains when it is still too large.
    """
    if not summary.startswith(SUMMARY_HEADER):
        summary = f"{SUMMARY_HEADER}\n{summary}"
    quarter = budgets.available // 4
    text = truncate_middle(summary, quarter - MESSAGE_OVERHEAD, counter)
    if not text.startswith(SUMMARY_HEADER):
        text = SUMMARY_HEADER
    head: Message = {"role": "user", "content": text}
    room = budgets.available - message_tokens(head, counter)
    if messages_tokens(recent, counter) > room:
        recent = _shrink(recent, room, counter)
    return [head, *recent]


def compact(
    messages: list[Message],
    budgets: Budgets,
    counter: TokenCounter = estimate_tokens,
    summarise: Summariser = summarise_conversation,
) -> list[Message]:
    """``messages`` itself when under the threshold, else the compacted history (CX-3).

    Never raises for any message content; the result costs at most
    ``budgets.available`` tokens by ``counter``.
    """
    if not needs_compaction(messages, budgets, counter):
        return messages
    older, recent = split(messages, budgets, counter)
    if not older:
        return _fit(recent, budgets, counter)
    return join(summarise(older), recent, budgets, counter)


async def compact_async(
    messages: list[Message],
    budgets: Budgets,
    counter: TokenCounter = estimate_tokens,
    summarise: Summariser | AsyncSummariser = summarise_conversation,
) -> list[Message]:
    """:func:`compact` for a summariser that may be asynchronous (a model-written summary)."""
    if not needs_compaction(messages, budgets, counter):
        return messages
    older, recent = split(messages, budgets, counter)
    if not older:
        return _fit(recent, budgets, counter)
    summary = summarise(older)
    text = await summary if inspect.isawaitable(summary) else summary
    return join(text, recent, budgets, counter)


def _fit(recent: list[Message], budgets: Budgets, counter: TokenCounter) -> list[Message]:
    """``recent`` (nothing older to summarise), cut to the available budget when it is over."""
    room = budgets.available
    return recent if messages_tokens(recent, counter) <= room else _shrink(recent, room, counter)
