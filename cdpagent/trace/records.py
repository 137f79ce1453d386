"""The trace of a run: its records, the writer that appends them to a file, and the CDP summary.

This module does no IO of its own: :class:`TraceWriter` writes to a binary file
object it is given, :class:`CdpMeter` counts what the connection tells it, and
:func:`read_trace` reads lines it is handed. :mod:`cdpagent.trace.recorder` is the Trio
side that times the operations and takes the thumbnails.

The file format (JSON Lines, one :data:`Record` per line, ``"type"`` names it):

=============  ===========================================================================
line           when, and what it holds
=============  ===========================================================================
``header``     first, once: :data:`TRACE_VERSION`, the cdpagent version, the wall-clock
               start, the size cap
``step``       after every operation (open, navigate, observe, act, …): its arguments,
               result or error code, start and end (seconds after the header), the
               observation text (observe), the receipt (act), a thumbnail, the CDP calls
               made meanwhile, the tab's url afterwards
``model``      after every model request of an agent run: the request size and the tool
               calls of the reply
``capped``     once, when the next line would pass the cap: nothing but the summary is
               written after it
``summary``    last, when the browser's block ends: CDP traffic per method (count, failures,
               total / p50 / max latency, bytes) and per event (count, bytes)
=============  ===========================================================================

Rules the writer keeps:

1. Every line is flushed when written, so a run that crashes leaves a trace that
   reads up to its last finished step (:func:`read_trace` skips a torn last line).
2. The file never grows past ``max_bytes`` (default :data:`MAX_TRACE_BYTES`): room
   for the summary is kept back (:data:`SUMMARY_RESERVE`); a step that does not fit
   is written without its thumbnail, and if it still does not fit, a ``capped`` line
   is written and later steps are only counted (``summary.dropped``).
3. Page data in a record is bounded: every string to :data:`MAX_VALUE_CHARS`
   characters, every list and object to :data:`MAX_ITEMS` entries
   (:func:`clip`), the observation text to :data:`MAX_TEXT_CHARS`. Bounded values say
   so (``"…[cut 12000 chars]"``), they are never silently shortened.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any, Final

import msgspec

from ..cdp.meter import CdpMeter, CdpTotals, EventStats, MethodStats

__all__ = [
    "MAX_ITEMS",
    "MAX_TEXT_CHARS",
    "MAX_TRACE_BYTES",
    "MAX_VALUE_CHARS",
    "SUMMARY_RESERVE",
    "TRACE_VERSION",
    "Capped",
    "Header",
    "ModelTurn",
    "Record",
    "Step",
    "StepError",
    "Summary",
    "Thumbnail",
    "ToolCallNote",
    "Trace",
    "TraceWriter",
    "clip",
    "read_trace",
]

#: The version of the format above; a reader refuses a trace of a later one.
TRACE_VERSION: Final = 1
#: The default size cap of one trace file.
MAX_TRACE_BYTES: Final = 64 * 1024 * 1024
#: Kept back under the cap for the ``capped`` and ``summary`` lines.
SUMMARY_RESERVE: Final = 256 * 1024
#: The longest string kept in arguments and results.
MAX_VALUE_CHARS: Final = 4000
#: The most entries kept of one list or object in arguments and results.
MAX_ITEMS: Final = 100
#: The longest observation text kept (the observation itself is bounded far below this).
MAX_TEXT_CHARS: Final = 100_000
_DEPTH: Final = 12


class Header(msgspec.Struct, frozen=True, tag="header", tag_field="type"):
    """The first line of a trace."""

    version: int
    cdpagent: str
    started: float
    """Wall-clock start (seconds since the epoch); every other time is seconds after it."""
    max_bytes: int


class StepError(msgspec.Struct, frozen=True):
    """Why an operation failed: the code every surface reports (or the exception's type) and the message."""

    code: str
    message: str


class Thumbnail(msgspec.Struct, frozen=True):
    """A small image of the tab after the step (masked like every screenshot)."""

    format: str
    width: int
    height: int
    data: str
    """The image bytes, base64."""


class Step(msgspec.Struct, frozen=True, tag="step", tag_field="type", omit_defaults=True):
    """One operation: what was asked, what came of it, when, and how the page looked afterwards."""

    index: int
    op: str
    started: float
    ended: float
    ok: bool
    tab: str | None = None
    args: dict[str, Any] = {}
    result: Any = None
    error: StepError | None = None
    text: str | None = None
    """The observation text (what the model reads) of observe and wait_for."""
    receipt: dict[str, Any] | None = None
    """The change receipt of act."""
    url: str | None = None
    """The tab's url after the step."""
    title: str | None = None
    """The page's title as the observation read it (observe and wait_for)."""
    thumbnail: Thumbnail | None = None
    cdp: CdpTotals | None = None
    """The CDP traffic while the step ran (all tabs': steps that overlap share it)."""


class ToolCallNote(msgspec.Struct, frozen=True):
    """One tool call a model reply asked for."""

    name: str
    arguments: str


class ModelTurn(msgspec.Struct, frozen=True, tag="model", tag_field="type", omit_defaults=True):
    """One model request of an agent run and the reply's tool calls."""

    index: int
    started: float
    ended: float
    request_bytes: int
    request_tokens: int
    tool_calls: list[ToolCallNote] = []
    content: str | None = None
    """The reply's text (an answer), bounded."""


class Capped(msgspec.Struct, frozen=True, tag="capped", tag_field="type"):
    """The cap was reached: later steps are counted in the summary, not written."""

    at: float
    max_bytes: int


class Summary(msgspec.Struct, frozen=True, tag="summary", tag_field="type"):
    """The last line: totals, CDP traffic per method (most time first) and per event (most bytes first)."""

    ended: float
    steps: int
    dropped: int
    """Steps not written because the cap was reached."""
    model_turns: int
    methods: list[MethodStats]
    events: list[EventStats]


Record = Header | Step | ModelTurn | Capped | Summary
_record_decoder: Final = msgspec.json.Decoder(Record)
_encoder: Final = msgspec.json.Encoder()


def _cut_text(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[cut {len(text) - limit} chars]"


def clip(value: Any, chars: int = MAX_VALUE_CHARS, items: int = MAX_ITEMS, _depth: int = 0) -> Any:
    """``value`` (JSON-ready builtins) with every string, list and object bounded, saying what was cut.

    Strings over ``chars`` end in ``"…[cut N chars]"``; lists and objects over
    ``items`` entries end with an entry that says how many were left out; values
    nested deeper than 12 levels become ``"…[nested too deep]"``. Other values
    (numbers, booleans, ``None``) pass unchanged.
    """
    if isinstance(value, str):
        return _cut_text(value, chars)
    if _depth >= _DEPTH and isinstance(value, (list, dict)):
        return "…[nested too deep]"
    if isinstance(value, list):
        kept = [clip(v, chars, items, _depth + 1) for v in value[:items]]
        if len(value) > items:
            kept.append(f"…[cut {len(value) - items} items]")
        return kept
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for n, (key, v) in enumerate(value.items()):
            if n == items:
                out["…"] = f"[cut {len(value) - items} entries]"
                break
            out[_cut_text(str(key), 200)] = clip(v, chars, items, _depth + 1)
        return out
    return value


class TraceWriter:
    """Appends records to ``file`` (opened for binary writing), one flushed line each, under ``max_bytes``.

    Writes the :class:`Header` at once. See the module docstring for the rules.
    Raises :class:`ValueError` for a cap under ``2 * SUMMARY_RESERVE`` and what
    the file raises (``OSError``) when a write fails.
    """

    def __init__(self, file: IO[bytes], header: Header) -> None:
        if header.max_bytes < 2 * SUMMARY_RESERVE:
            raise ValueError(f"a trace's size cap must be at least {2 * SUMMARY_RESERVE} bytes")
        self.file = file
        self.max_bytes = header.max_bytes
        self.written = 0
        self.steps = 0
        self.dropped = 0
        self.model_turns = 0
        self.capped = False
        self.closed = False
        self._write(header)

    def _write(self, record: Record) -> None:
        line = _encoder.encode(record) + b"\n"
        self.file.write(line)
        self.file.flush()
        self.written += len(line)

    def _fits(self, size: int) -> bool:
        return self.written + size + 1 <= self.max_bytes - SUMMARY_RESERVE

    def add(self, record: Step | ModelTurn, now: float) -> bool:
        """Write ``record`` (a step loses its thumbnail when only that way it fits); whether it was written.

        ``now`` is the time (seconds after the header) a ``capped`` line names.
        Nothing is written once the writer is closed.
        """
        if self.closed:
            return False
        if not self.capped:
            size = len(_encoder.encode(record))
            if not self._fits(size) and isinstance(record, Step) and record.thumbnail is not None:
                record = msgspec.structs.replace(record, thumbnail=None)
                size = len(_encoder.encode(record))
            if self._fits(size):
                self._write(record)
                if isinstance(record, Step):
                    self.steps += 1
                else:
                    self.model_turns += 1
                return True
            self.capped = True
            self._write(Capped(now, self.max_bytes))
        if isinstance(record, Step):
            self.dropped += 1
        return False

    def close(self, meter: CdpMeter | None, now: float) -> None:
        """Write the :class:`Summary` (traffic from ``meter``) and stop writing; the file stays open."""
        if self.closed:
            return
        self.closed = True
        methods = meter.methods() if meter is not None else []
        events = meter.events() if meter is not None else []
        summary = Summary(now, self.steps, self.dropped, self.model_turns, methods, events)
        self._write(summary)


class Trace(msgspec.Struct):
    """A trace as read back: its header, steps and model turns in file order, the summary if it got one."""

    header: Header
    steps: list[Step]
    turns: list[ModelTurn]
    summary: Summary | None = None
    capped: Capped | None = None
    problems: list[str] = []
    """Lines that could not be read (a torn last line of a crashed run), each said once."""


def read_trace(lines: Iterable[bytes]) -> Trace:
    """Read the records of a trace file's lines.

    A line that is not a record is skipped and named in ``problems`` (a run
    that crashed mid-write tears its last line). Raises :class:`ValueError`
    when the first line is no header or the trace's version is newer than
    :data:`TRACE_VERSION`.
    """
    header: Header | None = None
    trace: Trace | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _record_decoder.decode(line)
        except msgspec.DecodeError as error:
            if header is None:
                raise ValueError(f"line {number} is not a trace header: {error}") from None
            assert trace is not None
            trace.problems.append(f"line {number} skipped: {error}")
            continue
        if header is None:
            if not isinstance(record, Header):
                raise ValueError(f"line {number} is not a trace header but a {type(record).__name__.lower()}")
            if record.version > TRACE_VERSION:
                raise ValueError(
                    f"this trace has format version {record.version}; "
                    f"this cdpagent reads up to {TRACE_VERSION}"
                )
            header = record
            trace = Trace(header, [], [])
            continue
        assert trace is not None
        if isinstance(record, Step):
            trace.steps.append(record)
        elif isinstance(record, ModelTurn):
            trace.turns.append(record)
        elif isinstance(record, Summary):
            trace.summary = record
        elif isinstance(record, Capped):
            trace.capped = record
        else:
            trace.problems.append(f"line {number} skipped: a second header")
    if trace is None:
        raise ValueError("the trace is empty (no header line)")
    return trace
