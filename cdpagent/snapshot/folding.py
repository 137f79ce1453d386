"""Folding (OB-4): a snapshot's actions become action entries, one per shape.

Page-level actions become one entry each. Row actions arrive from the page
already grouped per ``(name, region path)``; each group becomes one folded entry
whose tool takes a required ``record`` argument and which says how many rows it
covers, how many are outside the viewport and which ids it samples. Tool names
are assigned here too (:func:`cdpagent.snapshot.toolnames.assign_tool_names`), over
all entries, so a name does not change when an action's availability does; given the
document's :class:`~cdpagent.snapshot.toolnames.NameRegistry`, a control keeps its name
across observations of its document.
"""

from __future__ import annotations

from collections.abc import Hashable

from .model import (
    ROW_PLACEHOLDER,
    ActionEntry,
    PageAction,
    Region,
    RegionPath,
    RowActionGroup,
    Snapshot,
    action_id,
)
from .toolnames import NameRegistry, assign_tool_names

__all__ = ["fold_actions", "folded_action_ids", "region_tags"]


def region_tags(regions: list[Region]) -> dict[RegionPath, str]:
    """Each region path's tag: its regions' labels from outer to inner, `` > ``-joined.

    Folding stores it on each :class:`ActionEntry` (``region``) and the renderers show it
    (``region:Todo list``).
    A step whose region is not among ``regions`` is shown by its id.
    """
    label_of: dict[RegionPath, str] = {}
    out: dict[RegionPath, str] = {}
    for region in regions:
        path = tuple(region.path)
        label_of[path] = region.label
        out[path] = " > ".join(label_of.get(path[: i + 1], path[i]) for i in range(len(path)))
    return out


def folded_action_ids(groups: list[RowActionGroup]) -> list[str]:
    """The id of each group's folded action, in order: ``toggle@{record}`` (:func:`action_id`
    with :data:`ROW_PLACEHOLDER`), what a folded :class:`ActionEntry` keeps as ``action``.

    All groups at once, as :func:`region_tags` gives all tags at once, before a single
    entry is built.
    """
    return [action_id(group.name, ROW_PLACEHOLDER) for group in groups]


def _tag(labels: dict[RegionPath, str], path: list[str]) -> str:
    if not path:
        return "page"
    key = tuple(path)
    return labels.get(key, " > ".join(path))


def _page_entry(action: PageAction, labels: dict[RegionPath, str]) -> ActionEntry:
    return ActionEntry(
        tool="",
        action=action.name,
        name=action.name,
        kind=action.kind,
        effect=action.effect,
        description=action.description,
        region=_tag(labels, action.region_path),
        region_path=list(action.region_path),
        ordinal=action.ordinal,
        available=action.available,
        reason=action.reason,
        confirm=action.confirm,
        handoff=action.handoff,
        submit=action.submit,
        input=action.input,
        visible=1 if action.in_viewport else 0,
        source=action.source,
        name_source=action.name_source,
        popup=action.popup,
    )


def _group_entry(group: RowActionGroup, action: str, labels: dict[RegionPath, str]) -> ActionEntry:
    reason = None
    if group.available == 0:
        reason = "; ".join(sorted(group.reasons)) or "no row can do this now"
    return ActionEntry(
        tool="",
        action=action,
        name=group.name,
        kind=group.kind,
        effect=group.effect,
        description=group.description,
        region=_tag(labels, group.region_path),
        region_path=list(group.region_path),
        available=group.available > 0,
        reason=reason,
        confirm=group.confirm,
        handoff=group.handoff,
        submit=group.submit,
        input=group.input,
        folded=True,
        rows=group.rows,
        rows_available=group.available,
        offscreen=group.offscreen,
        visible=group.visible,
        sample=list(group.sample),
        record_enum=list(group.available_ids) if group.available_ids is not None else None,
        reasons=dict(group.reasons),
        covers=group.rows,
        source=group.source,
    )


def _page_key(action: PageAction) -> Hashable:
    """What identifies a page action's control across observations (its element when inferred)."""
    if action.uid:
        return ("element", action.uid)
    return ("page", action.name, tuple(action.region_path), action.ordinal, action.source)


def fold_actions(snapshot: Snapshot, names: NameRegistry | None = None) -> list[ActionEntry]:
    """Every action entry of ``snapshot`` in document order, with unique tool names: those
    ``names`` keeps for its document (:mod:`cdpagent.snapshot.toolnames`), or, without it,
    those of this snapshot alone.

    The model's facts (region tags, the folded actions' ids) are asked for first, all at
    once; the entries are built from them here.
    """
    labels = region_tags(snapshot.regions)
    actions = folded_action_ids(snapshot.row_actions)
    ordered: list[tuple[int, ActionEntry, Hashable]] = [
        (a.order, _page_entry(a, labels), _page_key(a)) for a in snapshot.actions
    ]
    ordered += [
        (g.order, _group_entry(g, action, labels), ("rows", g.name, tuple(g.region_path)))
        for g, action in zip(snapshot.row_actions, actions, strict=True)
    ]
    ordered.sort(key=lambda item: item[0])
    entries = [entry for _, entry, _ in ordered]
    if names is None:
        return assign_tool_names(entries)
    return names.assign(entries, [key for _, _, key in ordered])
