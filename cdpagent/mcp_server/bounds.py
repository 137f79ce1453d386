"""Bounding what leaves the surface: head-and-tail cuts and ``<page_data>`` fences.

Observations are bounded by their own budgets (OB-3). Everything else a tool
returns (receipts, page method results, notifications) is cut here, the way the
seed's agent cuts one tool result: keep the head and the tail, say in the
middle how much was left out, so the model knows the value is incomplete.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_RESULT_CHARS", "cut_middle", "fence"]

MAX_RESULT_CHARS: Final = 4000
"""One tool result's text, about the seed's ``maxToolResultTokens`` (1,000 tokens)."""


def cut_middle(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, int]:
    """``text`` within ``limit`` characters: head, a note, tail. Returns it and the characters left out.

    Text already within ``limit`` comes back unchanged with 0. The note names the
    total so a reader can tell the cut from the value.
    """
    if len(text) <= limit:
        return text, 0
    note_room = 80
    keep = max(limit - note_room, 2)
    head, tail = keep * 2 // 3, keep - keep * 2 // 3
    omitted = len(text) - head - tail
    note = f" …[{omitted} of {len(text)} characters left out; narrow the request to see them]… "
    return text[:head] + note + text[len(text) - tail :], omitted


def fence(text: str) -> str:
    """``text`` inside a ``<page_data>`` fence that the text itself cannot close.

    Every ``<`` becomes ``\\u003c`` — JSON text stays valid JSON, and a value
    holding ``</page_data>`` cannot end the fence early.
    """
    return "<page_data>" + text.replace("<", "\\u003c") + "</page_data>"
