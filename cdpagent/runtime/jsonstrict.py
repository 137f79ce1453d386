"""Strict JSON both ways: ``args`` that go into a page (SPEC PA-4), and text that comes out.

Into a page, "strict" means the value survives a JSON round trip into JavaScript unchanged:
``None``, ``bool``, ``str``, finite ``float``, ``int`` within ±(2**53 - 1) (larger
ones would silently lose precision in the page), lists, and dicts with ``str``
keys, nested at most :data:`MAX_DEPTH` deep. Anything else (NaN, ±Infinity,
tuples, sets, bytes, objects, cycles) is refused with the JSON path of the first
offence, so the caller learns exactly what to fix.

Out of a page, :func:`decode_page_json` decodes JSON text a page produced and never
fails on a lone UTF-16 surrogate (``"\\ud800"``), which JavaScript strings may hold
and JSON text escapes but msgspec refuses: such a surrogate becomes U+FFFD and the
caller is told that something was replaced, so it can refuse or pass the text on.
"""

from __future__ import annotations

import math
from typing import Any, Final

import msgspec

from ..cdp.surrogates import replace_lone_surrogates
from .codes import PAGE_API_ARGS_INVALID, PageApiError

__all__ = [
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER",
    "args_from_json",
    "check_args",
    "check_args_present",
    "decode_page_json",
    "encode_args",
]

MAX_SAFE_INTEGER: Final = 2**53 - 1
MAX_DEPTH: Final = 200

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder()
_EMPTY_ARGS: Final = "{}"


def _path_text(path: list[str | int]) -> str:
    text = "$"
    for key in path:
        if isinstance(key, int):
            text += f"[{key}]"
        elif key.isidentifier() and key.isascii():
            text += f".{key}"
        else:
            text += "[" + msgspec.json.encode(key[:60]).decode() + "]"
    return text


def _offence(value: object) -> str:
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int):
        return f"an integer outside ±{MAX_SAFE_INTEGER} (it would lose precision in JavaScript)"
    return f"a {type(value).__name__}, which is not JSON"


def _find_offence(value: object, path: list[str | int]) -> str | None:
    """Return a description of the first non-JSON value under ``value``, or ``None``."""
    if value is None or value is True or value is False or type(value) is str:
        return None
    if type(value) is int:
        return None if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else _offence(value)
    if type(value) is float:
        return None if math.isfinite(value) else _offence(value)
    if len(path) >= MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels (or a cycle)"
    if type(value) is list:
        for index, item in enumerate(value):
            path.append(index)
            found = _find_offence(item, path)
            if found is not None:
                return found
            path.pop()
        return None
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                return f"a dict with a non-string key {key!r}"
            path.append(key)
            found = _find_offence(item, path)
            if found is not None:
                return found
            path.pop()
        return None
    return _offence(value)


def check_args(args: object) -> dict[str, Any]:
    """Return ``args`` if it is a strict JSON object; ``None`` stands for the default ``{}``.

    Raises :class:`PageApiError` with ``PAGE_API_ARGS_INVALID`` when ``args`` is not a
    dict (an array, a string, …) or holds anything that is not strict JSON; the
    message names the JSON path of the first offence.
    """
    if args is None:
        return {}
    if type(args) is not dict:
        raise PageApiError(
            PAGE_API_ARGS_INVALID,
            f"args must be a JSON object, got {_json_kind(args)}",
        )
    path: list[str | int] = []
    found = _find_offence(args, path)
    if found is not None:
        raise PageApiError(PAGE_API_ARGS_INVALID, f"args {_path_text(path)} is {found}")
    return args


def encode_args(args: object) -> str:
    """Check ``args`` with :func:`check_args` and return its JSON text for the page.

    Raises :class:`PageApiError` (``PAGE_API_ARGS_INVALID``).
    """
    checked = check_args(args)
    if not checked:
        return _EMPTY_ARGS
    return _encoder.encode(checked).decode()


def args_from_json(text: str | bytes) -> dict[str, Any]:
    """Parse ``text`` as strict JSON (no NaN/Infinity literals) holding an object.

    Raises :class:`PageApiError` (``PAGE_API_ARGS_INVALID``) when the text is not
    JSON, not an object, or holds numbers that JavaScript cannot represent.
    """
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError as error:
        raise PageApiError(PAGE_API_ARGS_INVALID, f"args are not strict JSON: {error}") from None
    return check_args_present(value)


def check_args_present(value: object) -> dict[str, Any]:
    """Like :func:`check_args`, but an explicit ``null`` is refused rather than defaulted.

    Raises :class:`PageApiError` (``PAGE_API_ARGS_INVALID``).
    """
    if value is None:
        raise PageApiError(PAGE_API_ARGS_INVALID, "args must be a JSON object, got null")
    return check_args(value)


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__}"


def decode_page_json(text: str) -> tuple[Any, bool]:
    """Decode JSON ``text`` from a page; return ``(value, replaced)``.

    A lone UTF-16 surrogate in a string or key (escaped, as JavaScript's
    ``JSON.stringify`` writes it) becomes U+FFFD and ``replaced`` is true; the value
    then holds only valid Unicode. Raises :class:`msgspec.DecodeError` when ``text``
    is not JSON (``NaN`` and ``Infinity`` literals included).
    """
    try:
        return _decoder.decode(text), False
    except msgspec.DecodeError:
        data = text.encode()
        repaired = replace_lone_surrogates(data)
        if repaired == data:
            raise
        return _decoder.decode(repaired), True
