"""Bounding what leaves the surface: head-and-tail cuts and ``<page_data>`` fences.

Observations are bounded by their own budgets (OB-3). Everything else a tool
returns (receipts, page method results, notifications) is cut here, the way the
seed's agent cuts one tool result: keep the head and the tail, say in the
middle how much was left out, so the model knows the value is incomplete.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ..errors import cut_middle as _cut_middle

__all__ = ["MAX_RESULT_CHARS", "MAX_STRUCTURED_CHARS", "cut_middle", "fence", "fit_structure"]

MAX_RESULT_CHARS: Final = 4000
"""One tool result's text, about the seed's ``maxToolResultTokens`` (1,000 tokens)."""


def cut_middle(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, int]:
    """:func:`cdpagent.errors.cut_middle`, the one head-and-tail cut, within a tool result by default."""
    return _cut_middle(text, limit)



MAX_STRUCTURED_CHARS: Final = 48_000
"""One result's structured content, as JSON: four times the observation's text-and-tools budget."""


def _cut_strings(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return cut_middle(value, limit)[0] if len(value) > limit else value
    if isinstance(value, dict):
        return {k: _cut_strings(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, limit) for v in value]
    return value


def _size(value: Any) -> int:
    return len(msgspec.json.encode(value))


def fit_structure(value: dict[str, Any], limit: int = MAX_STRUCTURED_CHARS) -> dict[str, Any]:
    """``value`` itself when its JSON is within ``limit`` bytes, else a copy whose longest strings
    are cut head-and-tail (each cut says so) until it fits, with ``truncated`` added.

    Strings are cut to 2,000 characters, then to half as many, down to 100; what still does not
    fit (a structure of many small parts) has its largest top-level members replaced by
    ``{"omitted_chars": n}``. Never raises for JSON-ready values.
    """
    total = _size(value)
    if total <= limit:
        return value
    cut = value
    strings = 2000
    while strings >= 100:
        cut = _cut_strings(value, strings)
        if _size(cut) <= limit:
            break
        strings //= 2
    out = dict(cut)
    for key in sorted(out, key=lambda k: _size(out[k]), reverse=True):
        if _size(out) <= limit:
            break
        out[key] = {"omitted_chars": _size(out[key])}
    out["truncated"] = {"total_chars": total, "limit_chars": limit}
    return out


def fence(text: str) -> str:
    """``text`` inside a ``<page_data>`` fence that the text itself cannot close.

    Every ``<`` becomes ``\\u003c`` — JSON text stays valid JSON, and a value
    holding ``</page_data>`` cannot end the fence early.
    """
    return "<page_data>" + text.replace("<", "\\u003c") + "</page_data>"
