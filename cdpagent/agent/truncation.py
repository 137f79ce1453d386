"""Cutting a long text to a token budget, keeping its head and its tail (SPEC CX-2).

Used for tool results (``maxToolResultTokens``) and for the history summary.
The middle goes, replaced by one marker line that says how much was cut, so a
reader (the model) knows the text is incomplete and roughly by how much.
"""

from __future__ import annotations

from typing import Final

from .tokens import TokenCounter, estimate_tokens

__all__ = ["MARKER", "truncate_middle"]

MARKER: Final = "\n[… {cut} characters (about {tokens} tokens) cut from the middle …]\n"
"""The marker that replaces the cut part; ``cut`` and ``tokens`` are filled in."""
_MAX_CHARS_PER_TOKEN: Final = 16


def _fits(text: str, limit: int, counter: TokenCounter) -> bool:
    return counter(text) <= limit


def truncate_middle(text: str, max_tokens: int, counter: TokenCounter = estimate_tokens) -> str:
    """``text`` itself when it costs at most ``max_tokens``, else its head + marker + tail.

    The result costs at most ``max_tokens`` by ``counter`` (for budgets too small
    for the marker, a prefix of the marker, possibly empty). Head and tail get
    equal shares of the characters; the cut is found by bisection, so the cost is
    O(log n) counter calls over at most ``max_tokens * 16`` characters each.
    """
    if max_tokens <= 0:
        return ""
    total = counter(text)
    if total <= max_tokens:
        return text

    def candidate(keep: int) -> str:
        head = keep - keep // 2
        tail = keep // 2
        cut = len(text) - keep
        marker = MARKER.format(cut=cut, tokens=total * cut // len(text))
        return text[:head] + marker + (text[len(text) - tail :] if tail else "")

    # No piece costs less than a token per _MAX_CHARS_PER_TOKEN characters except long
    # whitespace runs, so the search never needs to look past this many characters.
    low, high = 0, min(len(text) - 1, max_tokens * _MAX_CHARS_PER_TOKEN)
    best: str | None = None
    while low <= high:
        keep = (low + high) // 2
        attempt = candidate(keep)
        if _fits(attempt, max_tokens, counter):
            best = attempt
            low = keep + 1
        else:
            high = keep - 1
    if best is not None:
        return best
    marker = MARKER.format(cut=len(text), tokens=total).strip()
    while marker and not _fits(marker, max_tokens, counter):
        marker = marker[: len(marker) // 2]
    return marker
