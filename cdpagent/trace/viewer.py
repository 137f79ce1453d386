"""``cdpagent trace show PATH [-o OUT.html]``: one self-contained HTML page that replays a trace.

The page needs no network: the viewer's script, style and skeleton
(``js/traceview.js``, ``js/traceview.css``, ``js/traceview.html``) and the trace
itself are inlined. It lists the steps and model requests; for each it shows what
was asked (the arguments), what came of it (result, error code, receipt), the
timings and CDP traffic, the thumbnail, what the model saw (the observation text)
and what changed in it since the observation before.

Everything in a trace is page data (a hostile page chose its title and texts), so:

1. the trace is embedded as JSON in a ``<script type="application/json">``
   element with ``<``, ``>`` and ``&`` escaped, so no text in it can close the
   element or open another; the viewer only puts its strings into text nodes;
2. a thumbnail becomes an image only when its format is ``jpeg`` or ``png`` and its
   data is plain base64;
3. a Content-Security-Policy with a fresh nonce runs the viewer's own script and
   style only: no other script, no request anywhere.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path
from typing import Any, Final

import msgspec

from ..cdp.pagescripts import source
from .records import Trace, read_trace

__all__ = ["add_trace_command", "render_html", "write_html"]

_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_TOKEN: Final = re.compile(r"\{\{(NONCE|TITLE|STYLE|SCRIPT|DATA)\}\}")
_JSON_ESCAPES: Final = {
    "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"
}


def _page_data(trace: Trace) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(trace)
    for step in data["steps"]:
        thumb = step.get("thumbnail")
        if thumb is None:
            continue
        if thumb.get("format") not in ("jpeg", "png") or not _BASE64.fullmatch(str(thumb.get("data"))):
            del step["thumbnail"]
    return data


def _script_json(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return re.sub("[<>&\u2028\u2029]", lambda m: _JSON_ESCAPES[m.group()], text)


def render_html(trace: Trace, *, title: str = "cdpagent trace") -> str:
    """The viewer page of ``trace`` (one HTML document, no external resources), titled ``title``."""
    values = {
        "NONCE": secrets.token_urlsafe(18),
        "TITLE": escape(title),
        "STYLE": source("traceview.css"),
        "SCRIPT": source("traceview.js"),
        "DATA": _script_json(_page_data(trace)),
    }
    # One pass: a value that contains a token is never expanded again.
    return _TOKEN.sub(lambda m: values[m.group(1)], source("traceview.html"))


def write_html(path: str | os.PathLike[str], out: str | os.PathLike[str] | None = None) -> Path:
    """Read the trace at ``path`` and write its viewer to ``out`` (default: ``path`` with ``.html``).

    Returns the path written. Raises :class:`OSError` when a file cannot be
    read or written and :class:`ValueError` when ``path`` is no trace
    (:func:`cdpagent.trace.records.read_trace`).
    """
    source_path = Path(path)
    with source_path.open("rb") as file:
        trace = read_trace(file)
    target = Path(out) if out is not None else source_path.with_suffix(".html")
    if target.resolve() == source_path.resolve():
        raise ValueError(f"the viewer would overwrite the trace {source_path}; give -o OUT.html")
    target.write_text(render_html(trace, title=f"cdpagent trace: {source_path.name}"), encoding="utf-8")
    return target


async def _show(args: argparse.Namespace) -> int:
    try:
        written = write_html(args.path, args.output)
    except (OSError, ValueError) as error:
        print(f"cdpagent: trace show: {error}", file=sys.stderr)
        return 2
    print(written)
    return 0


def add_trace_command(sub: Any, commands: dict[str, Callable[[argparse.Namespace], Awaitable[int]]]) -> None:
    """Add ``cdpagent trace show PATH [-o OUT.html]`` to ``sub`` (argparse subparsers) and ``commands``."""
    trace = sub.add_parser("trace", help="turn a trace recorded with --trace into a page that replays it")
    actions = trace.add_subparsers(dest="trace_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="write one HTML page replaying the run step by step")
    show.add_argument("path", help="a trace file written by --trace PATH (JSON Lines)")
    show.add_argument(
        "-o", "--output", metavar="OUT.html", default=None, help="where to write it (default: PATH.html)"
    )
    commands["trace"] = _show
