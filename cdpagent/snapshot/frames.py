"""Frames in the observation and in acting (SPEC OB-11).

Theory of operation:

* Every frame's document runs its own copy of the collector: the isolated-world
  scripts are installed with ``Page.addScriptToEvaluateOnNewDocument``, which
  also covers the child frames the tab's renderer draws (same-origin, ``srcdoc``,
  nested). Frames of another site are drawn by another process; each tab
  auto-attaches to them (:class:`~cdpagent.cdp.target.FrameTarget`, with its own
  session and frame tree) and :func:`frame_world` installs the scripts there on
  first use. :func:`collect_frames` walks the frame trees of all these
  processes, parents before children, and collects each frame, in the process
  that draws it, with the same options; :func:`merge` puts the parts into the
  top document's snapshot.
* A frame's *owner* (its ``iframe``, found with ``DOM.getFrameOwner`` and resolved
  in the parent's isolated world) tells (``frameOwner`` in ``js/collect/frames.js``) the
  region-path step its content goes under, its label, its own region path in the
  parent and whether it is shown. The step is the owner's ``data-agent-region``,
  else its ``name``, ``title`` or ``id`` made legal (lower case, other characters
  as ``_``), else ``frame``; a step already used at that place gets ``_2``, ``_3``….
  A hidden frame's content is hidden, so it is left out like a hidden region's;
  a frame that is inert or behind its parent's open dialog is listed with every
  action unavailable for that reason, as the collector lists a covered region.
* Merging: the frame becomes a region (role ``document``) under the owner's
  regions, and every region path of the frame's snapshot moves under it, so names
  stay unique and the text shows where each thing is. The frame's actions come
  after the page's in the action order. Record ids the page already uses are
  dropped from the frame's part (the first element of an id wins, as in a document).
* Acting: the locator's region path names the frame (:func:`frame_of`); the
  element is found, re-checked and scrolled into view by the frame's own world
  (scrolling reaches every frame on the way), then :func:`page_point` moves the
  click point out through each owner's content box (``ownerPoint`` in
  ``js/act.js``, which also checks that the frame is what is drawn there).
* A frame that cannot be collected is counted in :class:`~.model.Unseen` with the
  reason (:data:`NO_SCRIPTS`, :data:`TIMED_OUT`, :data:`GONE`, :data:`OTHER_SITE`),
  never waited on past the caller's deadline.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any, Final, NamedTuple

import msgspec
import trio

from ..cdp.connection import Session
from ..cdp.documents import DocumentTracker
from ..cdp.target import Command, FrameTarget, Target
from ..cdp.world import WORLD, PageFunction, call_function, install_commands
from ..errors import CallTimeout, CDPAgentError, PageFunctionError, ProtocolError, SessionClosed
from .model import ActionLocator, ActionState, FrameRef, Region, RegionState, Snapshot

__all__ = [
    "GONE",
    "NO_SCRIPTS",
    "OTHER_SITE",
    "TIMED_OUT",
    "FrameOwner",
    "FramePart",
    "FramePoint",
    "collect_frames",
    "frame_of",
    "frame_world",
    "merge",
    "page_point",
]

NO_SCRIPTS: Final = "no script runs in it (sandboxed, or not loaded yet)"
TIMED_OUT: Final = "it did not answer in time"
GONE: Final = "it went away while the page was observed"
OTHER_SITE: Final = "it is drawn by another process that is not attached: its content is unknown"

#: How long one frame may take to answer, at most (the caller's deadline may cut it shorter).
FRAME_TIMEOUT: Final = 3.0

_GROUP = "cdpagent-frames"

CollectIn = Callable[[Session, int, float], Awaitable[Snapshot]]
"""Collects the snapshot of the document whose isolated world is the given context id of
the given session, by the given deadline (:func:`trio.current_time` value)."""


class FrameOwner(msgspec.Struct, frozen=True, kw_only=True):
    """``frameOwner`` of ``js/collect/frames.js``: what a frame's owner element says about it."""

    step: str
    path: list[str]
    label: str
    declared: bool
    """The owner is a ``data-agent-region`` itself: the frame's region is that region."""
    inert: bool = False
    covered_by: str | None = None
    """The label of the parent's open dialog the frame is behind, if any."""

    @property
    def blocked(self) -> str | None:
        """Why nothing in the frame can be used now (the collector's wording), or None."""
        if self.inert:
            return "inert"
        return f'behind the open dialog "{self.covered_by}"' if self.covered_by is not None else None

    visible: bool
    in_viewport: bool
    left: float
    top: float


class FramePart(msgspec.Struct, frozen=True):
    """One frame's snapshot and where it goes: ``path`` ends with the frame's own step;
    ``shown``: the frame, and every frame around it, intersects its viewport;
    ``blocked``: why nothing in it can be used (it, or a frame around it, is inert
    or behind a dialog)."""

    frame_id: str
    path: tuple[str, ...]
    owner: FrameOwner
    snapshot: Snapshot
    shown: bool = True
    blocked: str | None = None
    covered_by: str | None = None


class FramePoint(msgspec.Struct, frozen=True):
    """``ownerPoint`` of ``js/act.js``: a point moved into the owner's viewport, or why not."""

    x: float
    y: float
    reason: str | None = None


class _Process(NamedTuple):
    """A renderer process's view of some frames: the tab's, or an out-of-process frame's."""

    session: Session
    documents: DocumentTracker
    target: FrameTarget | None


def _processes(tab: Target) -> list[_Process]:
    return [
        *(_Process(f.session, f.documents, f) for f in tab.frame_targets.values()),
        _Process(tab.session, tab.documents, None),
    ]


def _drawing(tab: Target, frame_id: str) -> _Process | None:
    """The process that draws ``frame_id``: its own target when it is out of process."""
    target = tab.frame_targets.get(frame_id)
    if target is not None:
        return _Process(target.session, target.documents, target)
    for process in _processes(tab):
        frame = process.documents.frames.get(frame_id)
        if frame is not None and frame.document is not None:
            return process
    return None


def _parent(tab: Target, frame_id: str) -> str | None:
    for process in _processes(tab):
        frame = process.documents.frames.get(frame_id)
        if frame is not None and frame.parent_id is not None:
            return frame.parent_id
    return None


def _children(tab: Target, parent_id: str) -> list[str]:
    found: dict[str, None] = {}
    for process in reversed(_processes(tab)):
        found.update((f.id, None) for f in process.documents.frames.values() if f.parent_id == parent_id)
    return list(found)


async def _call_on_owner(
    tab: Target, frame_id: str, world: str, function: PageFunction, args: list[Any], deadline: float
) -> Any:
    """``function`` called on ``frame_id``'s owner element, in its parent's ``world``.

    Raises :class:`LookupError` when the parent or its world is not there, and the
    driver's errors (``ProtocolError`` when the frame is gone, ``CallTimeout``).
    """
    parent_id = _parent(tab, frame_id)
    process = _drawing(tab, parent_id) if parent_id is not None else None
    parent = process.documents.context(world, parent_id) if process is not None and parent_id else None
    if process is None or parent is None:
        raise LookupError(f"no {world} world in the parent of frame {frame_id}")
    session = process.session
    owner = await session.send("DOM.getFrameOwner", {"frameId": frame_id}, deadline=deadline)
    node = await session.send(
        "DOM.resolveNode",
        {"backendNodeId": owner["backendNodeId"], "executionContextId": parent.id, "objectGroup": _GROUP},
        deadline=deadline,
    )
    try:
        return await call_function(
            session, function, *args, object_id=node["object"]["objectId"], deadline=deadline
        )
    except PageFunctionError:
        raise LookupError(f"the {world} world of frame {frame_id}'s parent is not ready") from None


async def _release(tab: Target) -> None:
    for process in _processes(tab):
        with suppress(CDPAgentError):
            await process.session.send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})


async def frame_world(
    tab: Target, frame_id: str, world: str, install: Sequence[Command], deadline: float
) -> tuple[Session, int] | None:
    """The session and context id of ``world`` in frame ``frame_id``, or None when it has none.

    An out-of-process frame gets the ``install`` commands first (once) and its world
    is waited for until ``deadline``. Raises the driver's errors and
    :class:`trio.TooSlowError` when the world does not appear in time.
    """
    process = _drawing(tab, frame_id)
    if process is None:
        return None
    documents = process.documents

    def ready() -> bool:
        return documents.context(world, frame_id) is not None

    if process.target is not None:
        with trio.fail_after(max(deadline - trio.current_time(), 0.0)):
            if world not in process.target.installed:
                await process.session.send_batch(list(install))
                process.target.installed.add(world)
            await tab.wait_until(ready, math.inf)
    context = documents.context(world, frame_id)
    return (process.session, context.id) if context is not None else None


def _unique(path: list[str], used: set[tuple[str, ...]]) -> tuple[str, ...]:
    """``path`` with its last step numbered (``_2``, ``_3``…) until no region uses it."""
    candidate = tuple(path)
    n = 1
    while candidate in used:
        n += 1
        candidate = (*path[:-1], f"{path[-1]}_{n}")
    used.add(candidate)
    return candidate


async def collect_frames(
    tab: Target, top: Snapshot, collect_in: CollectIn, name_chars: int, deadline: float
) -> Snapshot:
    """``top`` (the main document's snapshot) with every shown frame's declarations merged in.

    Frames are asked parents first, each in the process that draws it (an
    out-of-process frame gets the isolated world first); each one's calls end by
    ``deadline`` or :data:`FRAME_TIMEOUT` seconds, whichever comes first. A frame
    that cannot be collected is counted with its reason, and its own frames with
    it. Raises only the driver's ``SessionClosed`` / ``ConnectionClosed``.
    """
    main = tab.documents.main_frame_id
    if main is None or not _children(tab, main):
        return top
    used = {tuple(r.path) for r in top.regions}
    parts: list[FramePart] = []
    refused: Counter[str] = Counter()
    queue: list[tuple[str, FramePart | None]] = [(f, None) for f in _children(tab, main)]
    try:
        while queue:
            frame_id, outer = queue.pop(0)
            until = min(deadline, trio.current_time() + FRAME_TIMEOUT)
            part = await _collect_one(tab, frame_id, outer, collect_in, name_chars, until, used, refused)
            if part is not None:
                parts.append(part)
                queue.extend((f, part) for f in _children(tab, frame_id))
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(1):
            await _release(tab)
    return merge(top, parts, refused)


async def _collect_one(
    tab: Target,
    frame_id: str,
    outer: FramePart | None,
    collect_in: CollectIn,
    name_chars: int,
    until: float,
    used: set[tuple[str, ...]],
    refused: Counter[str],
) -> FramePart | None:
    """One frame's part, or None (counted in ``refused`` unless it is hidden)."""
    try:
        raw = await _call_on_owner(tab, frame_id, WORLD, PageFunction.FRAME_OWNER, [name_chars], until)
        owner = msgspec.convert(raw, FrameOwner)
        if not owner.visible:
            return None
        if _drawing(tab, frame_id) is None:
            refused[OTHER_SITE] += 1
            return None
        where = await frame_world(tab, frame_id, WORLD, install_commands(), until)
        if where is None:
            refused[NO_SCRIPTS] += 1
            return None
        snapshot = await collect_in(*where, until)
    except (CallTimeout, trio.TooSlowError):
        refused[TIMED_OUT] += 1
        return None
    except (LookupError, msgspec.ValidationError, ProtocolError, SessionClosed):
        refused[GONE] += 1
        return None
    prefix = outer.path if outer is not None else ()
    steps = [*prefix, *owner.path, owner.step]
    # A declared owner is listed as a region by its parent's collector: that region is the frame's.
    path = tuple(steps) if owner.declared else _unique(steps, used)
    shown = owner.in_viewport and (outer is None or outer.shown)
    blocked, covered_by = owner.blocked, owner.covered_by
    if outer is not None and outer.blocked is not None:
        blocked, covered_by = outer.blocked, outer.covered_by
    return FramePart(frame_id, path, owner, _blocked(snapshot, blocked), shown, blocked, covered_by)


def _blocked(snapshot: Snapshot, reason: str | None) -> Snapshot:
    """``snapshot`` with every action unavailable for ``reason`` (None: unchanged), as the
    collector marks a region's actions behind a dialog."""
    if reason is None:
        return snapshot
    off = ActionState(available=False, reason=reason)
    return msgspec.structs.replace(
        snapshot,
        actions=[
            a if not a.available else msgspec.structs.replace(a, available=False, reason=reason)
            for a in snapshot.actions
        ],
        row_actions=[
            msgspec.structs.replace(
                g,
                available=0,
                sample=[],
                available_ids=[],
                reasons={**g.reasons, reason: g.reasons.get(reason, 0) + g.available},
            )
            for g in snapshot.row_actions
        ],
        records=[
            msgspec.structs.replace(
                r, actions={n: s if not s.available else off for n, s in r.actions.items()}
            )
            for r in snapshot.records
        ],
    )


def merge(top: Snapshot, parts: Sequence[FramePart], refused: Counter[str]) -> Snapshot:
    """One snapshot: ``top`` with each part under its frame's region path (see the module doc).

    ``refused`` counts the frames left out, by reason. Pure: no IO.
    """
    merged = _Merged(top)
    for part in parts:
        merged.add(part)
    return merged.snapshot(parts, refused)


class _Merged:
    """The snapshot :func:`merge` builds: the top document's parts, then each frame's in turn.

    :meth:`add` takes one frame in phases: which of its record ids are already taken,
    the frame's own region, its declarations moved under that region, its records,
    and its page facts (state, feedback, warnings, totals).
    """

    def __init__(self, top: Snapshot) -> None:
        self.top = top
        index = top.record_index
        self.regions = list(top.regions)
        self.actions = list(top.actions)
        self.groups = list(top.row_actions)
        self.records = list(top.records)
        self.ids, self.viewport = list(index.ids), list(index.viewport)
        self.inactive, self.hidden, self.duplicates = index.inactive, index.hidden, list(index.duplicates)
        self.state, self.feedback, self.warnings = list(top.state), list(top.feedback), list(top.warnings)
        self.regions_total, self.actions_total = top.regions_total, top.actions_total
        self.state_total, self.feedback_total = top.state_total, top.feedback_total
        self.collect_ms = top.collect_ms
        self.searched = top.unseen.shadow_searched
        self.taken = set(self.ids) | {r.id for r in self.records}
        self.order = self._next_order(-1)

    def _next_order(self, at_least: int) -> int:
        return max([a.order for a in self.actions] + [g.order for g in self.groups] + [at_least]) + 1

    def add(self, part: FramePart) -> None:
        """Merge one frame's snapshot under its region path."""
        s = part.snapshot
        dup = {i for i in s.record_index.ids if i in self.taken}
        own_ids = [i for i in s.record_index.ids if i not in dup]
        self.taken.update(own_ids)
        state: RegionState = (
            "active" if part.blocked is None else "covered" if part.covered_by is not None else "inert"
        )
        declared = self._frame_region(part, state, dup, own_ids)
        self._declarations(part, state, dup)
        self._records(part, dup, own_ids)
        self._facts(part, declared)

    def _frame_region(self, part: FramePart, state: RegionState, dup: set[str], own_ids: list[str]) -> bool:
        """The frame as a region (role ``document``), in place of the owner's declared region
        of the same path if there is one; returns whether there was."""
        s, pre, shown = part.snapshot, list(part.path), part.shown
        owner = part.owner.declared
        declared = [i for i, r in enumerate(self.regions) if owner and tuple(r.path) == part.path]
        visible = sum(a.in_viewport for a in s.actions) + sum(g.visible for g in s.row_actions)
        region = Region(
            id=part.path[-1],
            label=self.regions[declared[0]].label if declared else part.owner.label,
            role="document",
            parent=pre[-2] if len(pre) > 1 else None,
            path=pre,
            state=state,
            covered_by=part.covered_by,
            in_viewport=shown,
            actions_total=s.actions_total + sum(g.rows for g in s.row_actions),
            actions_visible=visible if shown else 0,
            records_total=len(own_ids),
            records_visible=len([i for i in s.record_index.viewport if i not in dup]) if shown else 0,
        )
        if declared:
            self.regions[declared[0]] = region
        else:
            self.regions.append(region)
        return bool(declared)

    def _declarations(self, part: FramePart, state: RegionState, dup: set[str]) -> None:
        """The frame's regions, page actions and row action groups, moved under its region
        path; its actions come after every action merged so far."""
        s, pre, step, shown, order = part.snapshot, list(part.path), part.path[-1], part.shown, self.order
        replace = msgspec.structs.replace
        self.regions += [
            replace(
                r,
                path=pre + r.path,
                parent=r.parent or step,
                in_viewport=r.in_viewport and shown,
                state=r.state if r.state != "active" else state,
                covered_by=r.covered_by if r.state != "active" else part.covered_by,
            )
            for r in s.regions
        ]
        self.actions += [
            replace(
                a,
                region=a.region or step,
                region_path=pre + a.region_path,
                order=a.order + order,
                in_viewport=a.in_viewport and shown,
            )
            for a in s.actions
        ]
        self.groups += [
            replace(
                g,
                region=g.region or step,
                region_path=pre + g.region_path,
                order=g.order + order,
                sample=[i for i in g.sample if i not in dup],
                available_ids=None
                if g.available_ids is None
                else [i for i in g.available_ids if i not in dup],
            )
            for g in s.row_actions
        ]
        self.order = self._next_order(order - 1)

    def _records(self, part: FramePart, dup: set[str], own_ids: list[str]) -> None:
        """The frame's records and record ids, but those the page already uses (counted as duplicates)."""
        s, step, shown = part.snapshot, part.path[-1], part.shown
        self.records += [
            msgspec.structs.replace(r, region=r.region or step, in_viewport=r.in_viewport and shown)
            for r in s.records
            if r.id not in dup
        ]
        self.ids += own_ids
        self.viewport += [i for i in s.record_index.viewport if i not in dup] if shown else []
        self.inactive += s.record_index.inactive
        self.hidden += s.record_index.hidden
        self.duplicates += [*s.record_index.duplicates, *sorted(dup)]

    def _facts(self, part: FramePart, declared: bool) -> None:
        """The frame's state, feedback and warnings, and its totals added to the page's."""
        s, pre, step = part.snapshot, list(part.path), part.path[-1]
        self.state += [msgspec.structs.replace(x, region=x.region or step) for x in s.state]
        self.feedback += [msgspec.structs.replace(f, region_path=pre + f.region_path) for f in s.feedback]
        self.warnings += [f"in frame {step}: {w}" for w in s.warnings]
        self.regions_total += s.regions_total + (0 if declared else 1)
        self.actions_total += s.actions_total
        self.state_total += s.state_total
        self.feedback_total += s.feedback_total
        self.collect_ms += s.collect_ms
        self.searched = self.searched and s.unseen.shadow_searched

    def snapshot(self, parts: Sequence[FramePart], refused: Counter[str]) -> Snapshot:
        """The merged snapshot; ``refused`` counts the frames left out, by reason."""
        top = self.top
        return msgspec.structs.replace(
            top,
            regions=self.regions,
            regions_total=self.regions_total,
            actions=self.actions,
            actions_total=self.actions_total,
            row_actions=self.groups,
            records=self.records,
            record_index=msgspec.structs.replace(
                top.record_index,
                ids=self.ids,
                viewport=self.viewport,
                inactive=self.inactive,
                hidden=self.hidden,
                duplicates=self.duplicates,
            ),
            state=self.state,
            state_total=self.state_total,
            feedback=self.feedback,
            feedback_total=self.feedback_total,
            warnings=self.warnings,
            collect_ms=self.collect_ms,
            unseen=msgspec.structs.replace(
                top.unseen,
                frames=sum(refused.values()),
                frame_reasons=dict(refused),
                shadow_searched=self.searched,
            ),
            frames=[*top.frames, *(FrameRef(p.frame_id, p.path) for p in parts)],
        )


def frame_of(snapshot: Snapshot, locator: ActionLocator) -> tuple[str | None, ActionLocator]:
    """The frame an action's element is in (None: the main document) and its locator there
    (the region path under the frame's step)."""
    best: FrameRef | None = None
    for ref in snapshot.frames:
        n = len(ref.path)
        if locator.region_path[:n] == ref.path and (best is None or n > len(best.path)):
            best = ref
    if best is None:
        return None, locator
    return best.frame_id, msgspec.structs.replace(locator, region_path=locator.region_path[len(best.path) :])


async def page_point(
    tab: Target, frame_id: str, x: float, y: float, world: str, deadline: float
) -> FramePoint:
    """(x, y) of frame ``frame_id``'s viewport in the main document's viewport, moved out
    through each owner's content box; ``reason`` says why the frame cannot be clicked there.

    Raises :class:`LookupError` when the frame or an owner's world is gone, and the
    driver's errors.
    """
    point = FramePoint(x, y)
    main = tab.documents.main_frame_id
    try:
        current: str | None = frame_id
        while current is not None and current != main:
            args = [point.x, point.y]
            raw = await _call_on_owner(tab, current, world, PageFunction.OWNER_POINT, args, deadline)
            point = msgspec.convert(raw, FramePoint)
            if point.reason:
                return point
            current = _parent(tab, current)
        if current is None:
            raise LookupError(f"frame {frame_id} is no longer in the page")
        return point
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(1):
            await _release(tab)
