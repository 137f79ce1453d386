"""Lone UTF-16 surrogates in JSON text: what JavaScript may write and msgspec refuses.

A JavaScript string may hold half of a surrogate pair (an emoji cut in two, or
a page's own text). ``JSON.stringify`` and Chromium's CDP writer escape it as
``\\ud800``; that is not Unicode, and msgspec refuses the whole text — for a CDP
message, the whole connection would go. :func:`replace_lone_surrogates` rewrites
each lone escape as ``\\ufffd`` (U+FFFD, the replacement character) and leaves
surrogate pairs, escaped backslashes and everything else as they are. Callers
run it only after a decode failed, so well-formed text pays nothing.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["replace_lone_surrogates"]

# Scanned left to right, so an escaped backslash is consumed before it can look like
# the start of an escape; a high-low pair is consumed whole and kept.
_ESCAPES: Final = re.compile(
    rb"\\\\"
    rb"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    rb"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
)
_LONE_ESCAPE_LEN: Final = 6


def _replace(match: re.Match[bytes]) -> bytes:
    token = match.group()
    return b"\\ufffd" if len(token) == _LONE_ESCAPE_LEN else token


def replace_lone_surrogates(data: bytes) -> bytes:
    """``data`` (JSON text) with every lone surrogate escape replaced by ``\\ufffd``.

    Returns ``data`` itself when there is nothing to replace. Never raises.
    """
    return _ESCAPES.sub(_replace, data)
