"""Change receipts (SPEC OB-8): what an action did, as the diff of two settled snapshots.

:func:`diff` compares the snapshot taken before an action with the one taken
after it, keyed by stable ids — never by position — so a page that re-renders
a whole list still yields the one field that changed. It reports:

* ``navigated`` (a new document) and ``identity`` (title, path, route, allowed
  query) before → after;
* ``modal``: the open dialog before → after;
* ``records``: ids added to and removed from the active set, and per-field
  ``before → after`` for every record collected in full on both sides (the
  action's target always is: it is requested with ``include``);
* ``actions``: entries that appeared or disappeared, became available or
  unavailable (with the reason), row counts of folded entries, the row
  actions of fully collected records that changed availability, and the
  controls of page actions whose value or checked state changed (``values``;
  ``"[masked]"`` for sensitive controls, as in the observation);
* ``state``: declared state keys whose value changed;
* ``feedback``: messages gained and lost;
* ``observed: false`` when none of the above changed.

A receipt is bounded by the observation budgets
(:class:`~cdpagent.snapshot.options.ObserveOptions`): long lists are cut and
what was left out is counted in ``omitted``.

:class:`Receipt` is the seed's shape::

    {"result": {"ok": true, "action": {"id", "description"}, "changed": {…}, "warnings": […]}}
    {"result": {"ok": false, "action": {…}, "error": {"code", "message", "available": […]}}}
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import attrgetter, ne
from typing import Any

import msgspec

from ..cdp.failures import code_of
from ..errors import CDPAgentError, ConnectionClosed
from .model import ActionEntry, Feedback, FieldValue, Identity, Record, Snapshot, StateItem, action_id
from .options import ObserveOptions

__all__ = [
    "RECEIPT_ENCODER",
    "ActionChanges",
    "ActionRef",
    "Changes",
    "ErrorInfo",
    "FeedbackChanges",
    "FeedbackNote",
    "IdentityChange",
    "PageQuestion",
    "Receipt",
    "ReceiptOmitted",
    "RecordChanges",
    "Result",
    "UnavailableAction",
    "ValueChange",
    "diff",
    "error_receipt",
    "failure_receipt",
    "ok_receipt",
]

_ID = attrgetter("id")
_FIELDS = attrgetter("fields")
_ACTIONS = attrgetter("actions")
MAX_IDS = 20
"""Record ids listed per added/removed list (the rest is counted)."""
MAX_WARNINGS = 8
MAX_WARNING_CHARS = 300


class ValueChange(msgspec.Struct, frozen=True):
    """One value, before → after (``null`` when it did not exist on that side)."""

    before: Any
    after: Any


class IdentityChange(msgspec.Struct, frozen=True):
    before: Identity
    after: Identity


class RecordChanges(msgspec.Struct, frozen=True, omit_defaults=True):
    """Records by stable id: added to / removed from the active set, fields changed."""

    added: list[str] = []
    removed: list[str] = []
    changed: dict[str, dict[str, ValueChange]] = {}
    """Record id → field name → before/after (records collected in full on both sides)."""


class UnavailableAction(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    reason: str | None = None


class ActionChanges(msgspec.Struct, frozen=True, omit_defaults=True):
    """Actions by the ids of ``action.id``: ``name``, ``name@record``, or ``name@{record}`` when folded.

    ``tools`` gives the tool name of each listed id whose tool name is not its
    action name (a name qualified by its region, or made legal).
    """

    appeared: list[str] = []
    disappeared: list[str] = []
    available: list[str] = []
    unavailable: list[UnavailableAction] = []
    rows: dict[str, ValueChange] = {}
    """Folded entry → number of rows it covers, before/after."""
    values: dict[str, ValueChange] = {}
    """Page action → its control's value (or checked state), before/after."""
    tools: dict[str, str] = {}


class FeedbackNote(msgspec.Struct, frozen=True, omit_defaults=True):
    level: str
    message: str
    field: str | None = None


class FeedbackChanges(msgspec.Struct, frozen=True, omit_defaults=True):
    gained: list[FeedbackNote] = []
    lost: list[FeedbackNote] = []


class ReceiptOmitted(msgspec.Struct, frozen=True, omit_defaults=True):
    """How many changes of each kind the receipt's budgets left out."""

    records_added: int = 0
    records_removed: int = 0
    records_changed: int = 0
    fields_cut: int = 0
    actions: int = 0
    state: int = 0
    feedback: int = 0


class Changes(msgspec.Struct, frozen=True, omit_defaults=True):
    """``changed`` of a receipt; only the sections that changed are present."""

    observed: bool
    navigated: bool = False
    identity: IdentityChange | None = None
    modal: ValueChange | None = None
    records: RecordChanges | None = None
    actions: ActionChanges | None = None
    state: dict[str, ValueChange] = {}
    feedback: FeedbackChanges | None = None
    omitted: ReceiptOmitted | None = None


class ActionRef(msgspec.Struct, frozen=True):
    """The original action id (``toggle@t9``) and its description."""

    id: str
    description: str = ""


class ErrorInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """Why an action did not run (or did not do what it should); ``code`` is in ``codes``."""

    code: str
    message: str
    available: list[str]
    """Tool names of the actions available now (always present, possibly empty)."""
    reason: str | None = None


class PageQuestion(msgspec.Struct, frozen=True, omit_defaults=True):
    """What the page asks in a JavaScript dialog the act raised and left open (page data):
    its ``type`` (``confirm``, ``prompt``, ``alert``, ``beforeunload``), its ``message``
    (bounded, :data:`cdpagent.cdp.dialogs.MESSAGE_MAX_CHARS`), a prompt's ``default`` text,
    and the actions that answer it."""

    type: str
    message: str
    answers: list[str]
    default: str | None = None


class Result(msgspec.Struct, frozen=True, omit_defaults=True):
    ok: bool
    action: ActionRef | None = None
    output: str | None = None
    """What a page tool (WebMCP) returned: page data, bounded and inside a ``<page_data>`` fence."""
    state: str | None = None
    """Where a scroll or set action left its control ("at the end", "at 40 (0…100)")."""
    changed: Changes | None = None
    warnings: list[str] | None = None
    error: ErrorInfo | None = None
    asks: PageQuestion | None = None
    """The dialog the act raised, open now: the next observation shows it with its answers."""


class Receipt(msgspec.Struct, frozen=True):
    """``{"result": …}``: what the tool message carries back to the model."""

    result: Result

    @property
    def ok(self) -> bool:
        """Whether the action ran."""
        return self.result.ok

    @property
    def code(self) -> str | None:
        """The error code, or ``None`` for a successful action."""
        return self.result.error.code if self.result.error else None

    def to_builtins(self) -> dict[str, Any]:
        """Plain JSON-ready dicts and lists (what ``script`` prints)."""
        value: dict[str, Any] = msgspec.to_builtins(self)
        return value

    def to_json(self) -> str:
        """The receipt as the JSON text of a tool message."""
        return RECEIPT_ENCODER.encode(self).decode()


RECEIPT_ENCODER = msgspec.json.Encoder()


def _warnings(warnings: list[str]) -> list[str]:
    out = [w if len(w) <= MAX_WARNING_CHARS else w[: MAX_WARNING_CHARS - 1] + "…" for w in warnings]
    if len(out) > MAX_WARNINGS:
        out = [*out[: MAX_WARNINGS - 1], f"… {len(out) - MAX_WARNINGS + 1} more warnings"]
    return out


def ok_receipt(
    action: ActionRef,
    changed: Changes,
    warnings: list[str] | None = None,
    *,
    output: str | None = None,
    state: str | None = None,
    asks: PageQuestion | None = None,
) -> Receipt:
    """A successful receipt; ``warnings`` is always present (possibly empty); ``output`` is a
    page tool's fenced output, ``state`` where a scroll or set action left its control,
    ``asks`` the dialog the act raised and left open."""
    return Receipt(
        Result(
            ok=True,
            action=action,
            output=output,
            state=state,
            changed=changed,
            warnings=_warnings(warnings or []),
            asks=asks,
        )
    )


def failure_receipt(action: ActionRef, error: CDPAgentError, available: Sequence[str] = ()) -> Receipt:
    """The refusal receipt for a driver failure during an input, with the code every surface
    reports for it (:func:`cdpagent.cdp.failures.code_of`); ``available`` as in :func:`error_receipt`.

    Re-raises ``error`` when it ends the browser, not the input (a lost connection).
    """
    found = None if isinstance(error, ConnectionClosed) else code_of(error)
    if found is None:
        raise error
    code, message = found
    return error_receipt(action, code, message[:400], list(available))


def error_receipt(
    action: ActionRef,
    code: str,
    message: str,
    available: list[str],
    *,
    reason: str | None = None,
    changed: Changes | None = None,
    warnings: list[str] | None = None,
) -> Receipt:
    """A failed receipt. ``changed`` is set when the input was delivered (EXPECTATION_FAILED)."""
    return Receipt(
        Result(
            ok=False,
            action=action,
            changed=changed,
            warnings=_warnings(warnings) if warnings else None,
            error=ErrorInfo(code, message, list(available), reason),
        )
    )


# -- the diff -------------------------------------------------------------------------


def _cut(value: FieldValue | Any, limit: int) -> tuple[Any, bool]:
    if isinstance(value, str) and len(value) > limit:
        return value[: limit - 1] + "…", True
    return value, False


def _ids(ids: list[str], limit: int) -> tuple[list[str], int]:
    return ids[:limit], max(len(ids) - limit, 0)


def _record_pairs(before: list[Record], after: list[Record]) -> tuple[list[Record], list[Record]]:
    """Before and after versions of every record collected in full on both sides that differs.

    The common case — the same ids in the same order — is compared pairwise
    in C (``map(ne, …)``), so 10,000 unchanged records cost a few milliseconds
    and no Python-level loop; otherwise records are matched by id through a dict.
    """
    if len(before) == len(after):
        idx = list(compress(range(len(after)), map(ne, before, after)))
        olds = list(map(before.__getitem__, idx))
        news = list(map(after.__getitem__, idx))
        if list(map(_ID, olds)) == list(map(_ID, news)):
            return olds, news
    by_id = {r.id: r for r in before}
    olds = []
    news = []
    for rec in after:
        old = by_id.get(rec.id)
        if old is not None and old != rec:
            olds.append(old)
            news.append(rec)
    return olds, news


def _records(
    before: Snapshot, after: Snapshot, opts: ObserveOptions
) -> tuple[RecordChanges | None, dict[str, int], list[tuple[str, str, str | None, bool]]]:
    """Record changes, omission counts, and row-action availability changes of full records."""
    counts: dict[str, int] = {}
    row_actions: list[tuple[str, str, str | None, bool]] = []
    b_ids = before.record_index.ids
    a_ids = after.record_index.ids
    added: list[str] = []
    removed: list[str] = []
    if b_ids != a_ids:
        b_set = set(b_ids)
        a_set = set(a_ids)
        added = [i for i in a_ids if i not in b_set]
        removed = [i for i in b_ids if i not in a_set]
    added, counts["records_added"] = _ids(added, MAX_IDS)
    removed, counts["records_removed"] = _ids(removed, MAX_IDS)

    olds, news = _record_pairs(before.records, after.records)
    # Which pairs differ in fields / in row actions, compared in C: only the
    # ones the receipt lists in detail are walked in Python.
    fields_differ = list(compress(range(len(news)), map(ne, map(_FIELDS, olds), map(_FIELDS, news))))
    actions_differ = compress(range(len(news)), map(ne, map(_ACTIONS, olds), map(_ACTIONS, news)))
    changed_total = len(fields_differ)
    changed: dict[str, dict[str, ValueChange]] = {}
    fields_cut = 0
    for i in fields_differ[: opts.max_records]:
        old, rec = olds[i], news[i]
        fields: dict[str, ValueChange] = {}
        for name in {**old.fields, **rec.fields}:
            was = old.fields.get(name)
            now = rec.fields.get(name)
            if was != now or (name in old.fields) != (name in rec.fields):
                was, cut_b = _cut(was, opts.max_field_chars)
                now, cut_a = _cut(now, opts.max_field_chars)
                fields_cut += cut_b + cut_a
                fields[name] = ValueChange(was, now)
        changed[rec.id] = fields
    for i in actions_differ:
        old, rec = olds[i], news[i]
        for name, state in rec.actions.items():
            was_state = old.actions.get(name)
            if was_state is not None and was_state.available != state.available:
                row_actions.append((name, rec.id, state.reason, state.available))
    counts["records_changed"] = changed_total - len(changed)
    counts["fields_cut"] = fields_cut
    if not (
        added
        or removed
        or changed
        or counts["records_added"]
        or counts["records_removed"]
        or counts["records_changed"]
    ):
        return None, counts, row_actions
    return RecordChanges(added, removed, changed), counts, row_actions


def _entry_key(e: ActionEntry) -> tuple[str, tuple[str, ...], int, bool]:
    return (e.name, tuple(e.region_path), e.ordinal, e.folded)


def _actions(
    before_entries: list[ActionEntry],
    after_entries: list[ActionEntry],
    row_actions: list[tuple[str, str, str | None, bool]],
    opts: ObserveOptions,
) -> tuple[ActionChanges | None, int]:
    b_entries = {_entry_key(e): e for e in before_entries}
    a_entries = {_entry_key(e): e for e in after_entries}
    appeared: list[str] = []
    disappeared: list[str] = []
    available: list[str] = []
    unavailable: list[UnavailableAction] = []
    rows: dict[str, ValueChange] = {}
    values: dict[str, ValueChange] = {}
    for key, e in a_entries.items():
        old = b_entries.get(key)
        if old is None:
            appeared.append(e.action)
            continue
        if old.available != e.available:
            if e.available:
                available.append(e.action)
            else:
                unavailable.append(UnavailableAction(e.action, e.reason))
        elif not e.available and old.reason != e.reason:
            unavailable.append(UnavailableAction(e.action, e.reason))
        if e.folded and old.rows != e.rows:
            rows[e.action] = ValueChange(old.rows, e.rows)
        if old.input is not None and e.input is not None:
            if old.input.value != e.input.value:
                values[e.action] = ValueChange(old.input.value, e.input.value)
            elif old.input.checked != e.input.checked:
                values[e.action] = ValueChange(old.input.checked, e.input.checked)
    for key, e in b_entries.items():
        if key not in a_entries:
            disappeared.append(e.action)
    row_tools = {e.name: e.tool for e in a_entries.values() if e.folded}
    tools = {
        e.action: e.tool for e in (*a_entries.values(), *b_entries.values()) if e.tool != e.name
    }
    for name, rid, reason, now_available in row_actions:
        ident = action_id(name, rid)
        tool = row_tools.get(name, name)
        if tool != name:
            tools[ident] = tool
        if now_available:
            available.append(ident)
        else:
            unavailable.append(UnavailableAction(ident, reason))
    total = len(appeared) + len(disappeared) + len(available) + len(unavailable) + len(rows) + len(values)
    if total == 0:
        return None, 0
    budget = opts.max_actions
    out: list[list[Any]] = []
    for items in (appeared, disappeared, available, unavailable):
        take = items[: max(budget, 0)]
        budget -= len(take)
        out.append(take)
    kept_rows = dict(list(rows.items())[: max(budget, 0)])
    budget -= len(kept_rows)
    kept_values = dict(list(values.items())[: max(budget, 0)])
    shown = sum(len(x) for x in out) + len(kept_rows) + len(kept_values)
    listed = {*out[0], *out[1], *out[2], *(u.id for u in out[3]), *kept_rows, *kept_values}
    named = {ident: tool for ident, tool in tools.items() if ident in listed}
    changes = ActionChanges(
        appeared=out[0],
        disappeared=out[1],
        available=out[2],
        unavailable=out[3],
        rows=kept_rows,
        values=kept_values,
        tools=named,
    )
    return changes, total - shown


def _state_key(items: list[StateItem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key = item.name
        n = 2
        while key in out:
            key = f"{item.name}#{n}"
            n += 1
        out[key] = item.value
    return out


def _state(before: Snapshot, after: Snapshot, opts: ObserveOptions) -> tuple[dict[str, ValueChange], int]:
    if before.state == after.state:
        return {}, 0
    b = _state_key(before.state)
    a = _state_key(after.state)
    out: dict[str, ValueChange] = {}
    left = 0
    used = 0
    for key in {**b, **a}:
        was, now = b.get(key), a.get(key)
        if was == now and (key in a) == (key in b):
            continue
        change = ValueChange(was, now)
        size = len(msgspec.json.encode(change)) + len(key) + 4
        if used + size > opts.max_state_chars:
            left += 1
            continue
        used += size
        out[key] = change
    return out, left


def _note(f: Feedback) -> FeedbackNote:
    return FeedbackNote(f.level, f.message, f.field)


def _feedback(before: Snapshot, after: Snapshot, opts: ObserveOptions) -> tuple[FeedbackChanges | None, int]:
    if before.feedback == after.feedback:
        return None, 0
    b = [_note(f) for f in before.feedback]
    a = [_note(f) for f in after.feedback]
    gained = [n for n in a if n not in b]
    lost = [n for n in b if n not in a]
    if not gained and not lost:
        return None, 0
    budget = opts.max_feedback
    g = gained[:budget]
    lo = lost[: max(budget - len(g), 0)]
    return FeedbackChanges(g, lo), len(gained) + len(lost) - len(g) - len(lo)


def diff(
    before: Snapshot,
    after: Snapshot,
    *,
    before_entries: list[ActionEntry],
    after_entries: list[ActionEntry],
    navigated: bool = False,
    options: ObserveOptions | None = None,
) -> Changes:
    """The changes from ``before`` to ``after``, bounded by ``options``' budgets.

    ``before_entries`` and ``after_entries`` are the snapshots' folded action entries
    (:func:`~cdpagent.snapshot.folding.fold_actions`): acting folds each snapshot once
    and every step after it (the receipt, the tool names it lists) reads those entries.
    ``navigated`` says the after snapshot is of a new document. Pure: never raises on
    page content.
    """
    opts = options or ObserveOptions()
    identity = None if before.identity == after.identity else IdentityChange(before.identity, after.identity)
    modal = None if before.modal == after.modal else ValueChange(before.modal, after.modal)
    records, counts, row_actions = _records(before, after, opts)
    actions, actions_left = _actions(before_entries, after_entries, row_actions, opts)
    state, state_left = _state(before, after, opts)
    feedback, feedback_left = _feedback(before, after, opts)
    omitted = ReceiptOmitted(
        records_added=counts["records_added"],
        records_removed=counts["records_removed"],
        records_changed=counts["records_changed"],
        fields_cut=counts["fields_cut"],
        actions=actions_left,
        state=state_left,
        feedback=feedback_left,
    )
    observed = bool(navigated or identity or modal or records or actions or state or state_left or feedback)
    return Changes(
        observed=observed,
        navigated=navigated,
        identity=identity,
        modal=modal,
        records=records,
        actions=actions,
        state=state,
        feedback=feedback,
        omitted=omitted if omitted != ReceiptOmitted() else None,
    )
